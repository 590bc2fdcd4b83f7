"""Which backends can run here: `backends()` -> {name: (available, reason)}; `triton_takes(device)` and
`check_triton_takes(t, name)`, the refusal of a device or a CPU tensor that the Triton backend cannot run, made
before anything imports mxlib's kernels.

"aiter" runs the seed's own kernels (ROCm only, through mxlib.runtime.aiter_backend); "triton" runs mxlib's
portable kernels (CUDA or ROCm GPUs, or the CPU when TRITON_INTERPRET=1); "torch" is the reference,
available everywhere. Probing imports neither Triton nor aiter unless the aiter backend module exists.
"""
from __future__ import annotations

import functools
import importlib
import importlib.metadata
import importlib.util
import os
import sys

import torch

from ..spec.devices import cuda_present, gpu_facts

BACKENDS = ("aiter", "triton", "torch")
ENV_BACKEND = "MXLIB_BACKEND"  # names a backend when no argument does (mxlib.runtime.dispatch)


@functools.lru_cache(maxsize=1)
def _aiter_status() -> tuple[bool, str]:
    # Cached: whether aiter imports is a fact about the installation, fixed for the process.
    try:
        mod = importlib.import_module("mxlib.runtime.aiter_backend")
    except ModuleNotFoundError as e:
        if e.name == "mxlib.runtime.aiter_backend":
            return False, "aiter backend unavailable: mxlib.runtime.aiter_backend is not part of this checkout"
        return False, f"aiter backend unavailable: {e}"
    except Exception as e:  # a probe must answer, not raise; the reason names the failure
        return False, f"aiter backend unavailable: importing mxlib.runtime.aiter_backend raised {e!r}"
    try:
        ok, reason = mod.available()
    except Exception as e:  # the same: a failing probe is an answer
        return False, f"aiter backend unavailable: mxlib.runtime.aiter_backend.available() raised {e!r}"
    return bool(ok), str(reason)


@functools.lru_cache(maxsize=1)
def _triton_version() -> str | None:
    # Cached: the installed version is fixed for the process, and reading package metadata is slow.
    if importlib.util.find_spec("triton") is None:
        return None
    return importlib.metadata.version("triton")


def _triton_status() -> tuple[bool, str]:
    version = _triton_version()
    if version is None:
        return False, "triton is not installed"
    if cuda_present():
        kind = "ROCm" if torch.version.hip else "CUDA"
        return True, f"triton {version} on {kind} device {gpu_facts(torch.cuda.current_device())[0]}"
    if _interpreting():
        return True, f"triton {version} interpreter on the CPU (TRITON_INTERPRET=1)"
    common = _kernels_if_imported()
    if common is not None and common.mx_imported_too_early():
        why = f"TRITON_INTERPRET=1: {common.MX_TOO_EARLY}"
    elif os.environ.get("TRITON_INTERPRET") == "1" and _triton_made_compiled():
        why = ("TRITON_INTERPRET=1: it is set now, but Triton was imported earlier in this process without it "
               "(torch.compile and torch.ops.mxlib import it): restart Python with it set")
    else:
        why = "TRITON_INTERPRET=1 must be set before they are imported, and stay set"
    return False, (f"triton {version} is installed but there is no CUDA/ROCm device and mxlib's kernels cannot "
                   f"run in the interpreter ({why})")


def _kernels_if_imported():
    """mxlib.kernels.common once an import of it has begun (and finished: another thread may still be running it,
    and sys.modules holds the module half made until then); None before, and no import is started."""
    module = sys.modules.get("mxlib.kernels.common")
    return None if module is None else importlib.import_module("mxlib.kernels.common")


def _triton_made_compiled() -> bool:
    """Triton is imported and its own `@triton.jit` library functions (`tl.cdiv`, the reductions' combine
    functions), made when it was imported, are compiled-mode objects, which the interpreter cannot call: Triton
    came before TRITON_INTERPRET=1 (torch.compile and torch's op dispatch import it). Read from sys.modules,
    importing nothing."""
    standard = sys.modules.get("triton.language.standard")
    if standard is None or type(getattr(standard, "cdiv", None)).__name__ == "InterpretedFunction":
        return False
    # A compiled library is no fault where Triton's interpret knob is forced off: `mxlib.tools.isa.capture`
    # compiles with TRITON_INTERPRET=1 set (for mxlib's CPU checks) and launches nothing.
    return bool(sys.modules["triton"].knobs.runtime.interpret)


def _interpreting() -> bool:
    # `@triton.jit` reads TRITON_INTERPRET when it decorates: once mxlib's kernels are imported their
    # state decides (`mx_cpu_tensors_ok`); before that, the variable does (it is what their import will read),
    # unless Triton's own library was already made without it.
    # While torch.compile traces a call the variable alone answers: it cannot trace importlib, and a guard on
    # sys.modules would fail within the traced frame when the call imports the kernels or Triton.
    if torch.compiler.is_compiling():
        return os.environ.get("TRITON_INTERPRET") == "1"
    common = _kernels_if_imported()
    if common is not None:
        return common.mx_cpu_tensors_ok()
    return os.environ.get("TRITON_INTERPRET") == "1" and not _triton_made_compiled()


def triton_takes(device, name: str = "the tensors") -> tuple[bool, str]:
    """(whether mxlib's Triton kernels can take tensors on `device` here, why not), answered without importing
    them (`check_triton_takes` says why that matters): a CPU or meta device needs the backend, and a CPU device
    the interpreter too (where a GPU runs it instead, the reason says to move `name` there). Any other device's
    answer is its path's and the backend's."""
    kind = device.type if isinstance(device, torch.device) else torch.device(device).type  # the dispatcher's every call
    if kind not in ("cpu", "meta"):
        return True, ""
    ok, reason = _triton_status()
    if not ok:
        return False, f"backend 'triton' is not available here: {reason}"
    if kind == "cpu" and not _interpreting():
        return False, ("backend 'triton' runs CPU tensors only in Triton's interpreter (TRITON_INTERPRET=1 set before "
                       f"mxlib's kernels are imported); here it runs on the GPU, so move {name} there")
    return True, ""


def check_triton_takes(t, name: str) -> None:
    """Raise ValueError naming `name` when `t` is a CPU or meta tensor that mxlib's Triton kernels cannot take here
    (`triton_takes`), before anything imports them: `@triton.jit` reads TRITON_INTERPRET when the kernels are
    imported, so a call that imported them only to fail would leave the process unable to run them even after the
    variable is set. (A meta tensor, as torch.compile traces with, reaches the op's fake implementation, whose
    checks import the kernels too.)"""
    if isinstance(t, torch.Tensor):
        ok, why = triton_takes(t.device, name)
        if not ok:
            raise ValueError(f"{name} is on {t.device.type}: {why}")


def backends() -> dict[str, tuple[bool, str]]:
    """{"aiter": (available, reason), "triton": ..., "torch": ...}."""
    return {
        "aiter": _aiter_status(),
        "triton": _triton_status(),
        "torch": (True, "pure-PyTorch reference (mxlib.spec.reference.ref_kernel), any device"),
    }
