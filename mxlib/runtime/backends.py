"""Which backends can run here: `backends()` -> {name: (available, reason)}; `check_triton_takes(t, name)`, the
refusal of a CPU tensor that the Triton backend cannot run, made before anything imports mxlib's kernels.

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
    why = (f"TRITON_INTERPRET=1: {common.MX_TOO_EARLY}" if common is not None and common.mx_imported_too_early()
           else "TRITON_INTERPRET=1 must be set before they are imported, and stay set")
    return False, (f"triton {version} is installed but there is no CUDA/ROCm device and mxlib's kernels cannot "
                   f"run in the interpreter ({why})")


def _kernels_if_imported():
    """mxlib.kernels.common once an import of it has begun (and finished: another thread may still be running it,
    and sys.modules holds the module half made until then); None before, and no import is started."""
    module = sys.modules.get("mxlib.kernels.common")
    return None if module is None else importlib.import_module("mxlib.kernels.common")


def _interpreting() -> bool:
    # `@triton.jit` reads TRITON_INTERPRET when it decorates: once mxlib's kernels are imported their
    # state decides (`mx_cpu_tensors_ok`); before that, the variable does (it is what their import will read).
    # While torch.compile traces a call the variable alone answers: it cannot trace importlib, and a guard on
    # sys.modules would fail within the traced frame when the call imports the kernels.
    common = None if torch.compiler.is_compiling() else _kernels_if_imported()
    if common is not None:
        return common.mx_cpu_tensors_ok()
    return os.environ.get("TRITON_INTERPRET") == "1"


def check_triton_takes(t, name: str) -> None:
    """Raise ValueError naming `name` when `t` is a CPU or meta tensor that mxlib's Triton kernels cannot take here
    (a CPU tensor without the interpreter, a GPU or not), before anything imports them: `@triton.jit` reads
    TRITON_INTERPRET when the kernels are imported, so a call that imported them only to fail would leave the
    process unable to run them even after the variable is set. (A meta tensor, as torch.compile traces with,
    reaches the op's fake implementation, whose checks import the kernels too.)"""
    if isinstance(t, torch.Tensor) and t.device.type in ("cpu", "meta"):
        ok, reason = _triton_status()
        if not ok:
            raise ValueError(f"{name} is on {t.device.type} and backend 'triton' is not available here: {reason}")
        if t.device.type == "cpu" and not _interpreting():
            raise ValueError(f"{name} is on cpu: backend 'triton' runs CPU tensors only in Triton's interpreter "
                             f"(TRITON_INTERPRET=1 set before mxlib's kernels are imported); here it runs on the GPU, "
                             f"so move {name} there")


def backends() -> dict[str, tuple[bool, str]]:
    """{"aiter": (available, reason), "triton": ..., "torch": ...}."""
    return {
        "aiter": _aiter_status(),
        "triton": _triton_status(),
        "torch": (True, "pure-PyTorch reference (mxlib.spec.reference.ref_kernel), any device"),
    }
