"""The seed's three aiter GEMM calls, one function per path, nothing checked around them.

Each function quantizes A with mxlib's Triton quantizer (one launch, bit-exact with `mxlib.spec.quant`
for either rounding rule) and hands aiter B_shuffle and B_scale_sh as given, through zero-copy views,
exactly as `mxlib.runtime.aiter_backend` describes the calls (its docstring has each argument and why).
Their signatures are shaped like a path's `gemm` (`mxlib.runtime.paths`), ``(a, b_shuffle, b_scale_sh, *, ...,
rounding="rne")`` returning a fresh bf16 (M, N), but take the aiter call's own choices as keywords where a path
takes `config` and `out`:

- `aiter_asm`: ``gemm_a4w4_asm`` with `kernel_name` ("" lets aiter's heuristic pick, the seed's choice for
  every shape it does not name) and `log2_k_split`;
- `aiter_ck`: ``aiter.gemm_a4w4`` (its tuned CSV decides the kernel);
- `aiter_splitk`: aiter's Triton ``gemm_afp4wfp4_preshuffle`` with `config` (default the seed's).

`mxlib.runtime.aiter_backend.gemm` checks the shape and the installed aiter's version, then calls these.
The exported MI355X submission (`python -m mxlib export --target amd`) calls them directly, gated by
`aiter_available` (ASM and CK) and `aiter_splitk_available` (split-K: its own module, so one that fails to
import turns off that call alone): like the seed, it makes its calls wherever aiter imports, but for the
split-K call where the function's signature shows the version that computes wrong. aiter is imported
inside the functions, never when this module is.
"""
from __future__ import annotations

import functools
import importlib
import inspect

import torch

from ..kernels.quant_triton import mxq_quantize, mxq_quantize_shuffled
from ..spec.seed import SEED_LOG2_K_SPLIT, SEED_SPLITK_CONFIG
from ..spec.validate import as_bytes


def _aiter_view(t: torch.Tensor, shape: tuple[int, int], name: str) -> torch.Tensor:
    """A zero-copy uint8 view of `t` with `shape`; raises when `t`'s memory cannot be viewed so."""
    b = as_bytes(t)
    if not b.is_contiguous():
        raise ValueError(f"{name} must be contiguous to be viewed as {shape} without a copy, got strides {b.stride()}")
    return b.view(shape)


def _aiter_operands(a: torch.Tensor, b_shuffle: torch.Tensor, b_scale_sh: torch.Tensor, rounding: str):
    """(A_q, B, A_scale_sh, B_scale) for the ASM and CK entry points: A quantized with its scales in the
    e8m0_shuffle layout, everything viewed as aiter's fp4x2 and E8M0 dtypes."""
    from aiter import dtypes

    b = _aiter_view(b_shuffle, tuple(b_shuffle.shape), "B_shuffle")  # aiter reads positions in storage
    b_scale = _aiter_view(b_scale_sh, tuple(b_scale_sh.shape), "B_scale_sh")
    a_q, a_scale_sh = mxq_quantize_shuffled(a, rounding)
    return a_q.view(dtypes.fp4x2), b.view(dtypes.fp4x2), a_scale_sh.view(dtypes.fp8_e8m0), b_scale.view(dtypes.fp8_e8m0)


def aiter_asm(a: torch.Tensor, b_shuffle: torch.Tensor, b_scale_sh: torch.Tensor, *, kernel_name: str = "",
              log2_k_split: int = SEED_LOG2_K_SPLIT, rounding: str = "rne") -> torch.Tensor:
    """gemm_a4w4_asm into a (ceil32(M), N) buffer (the kernel writes whole 32-row tiles); returns its first M rows."""
    from aiter.ops.gemm_op_a4w4 import gemm_a4w4_asm

    m, n = a.shape[0], b_shuffle.shape[0]
    out = torch.empty(((m + 31) // 32 * 32, n), dtype=torch.bfloat16, device=a.device)
    gemm_a4w4_asm(*_aiter_operands(a, b_shuffle, b_scale_sh, rounding), out, kernel_name, bias=None, alpha=1.0,
                  beta=0.0, bpreshuffle=True, log2_k_split=log2_k_split)
    return out[:m]


def aiter_ck(a: torch.Tensor, b_shuffle: torch.Tensor, b_scale_sh: torch.Tensor, *,
             rounding: str = "rne") -> torch.Tensor:
    """aiter.gemm_a4w4, which picks its kernel from aiter's tuned CSV."""
    from aiter.ops.gemm_op_a4w4 import gemm_a4w4

    return gemm_a4w4(*_aiter_operands(a, b_shuffle, b_scale_sh, rounding), dtype=torch.bfloat16, bpreshuffle=True)


_PARAMETERS: dict = {}  # an aiter function -> its parameters' names, read once a process


def _parameters(fn) -> tuple:
    """aiter's `fn`'s parameter names: its signature read once a process (building it costs about 15 us, which
    would otherwise fall inside every timed call, between the quantizer's launch and the GEMM's)."""
    names = _PARAMETERS.get(fn)
    if names is None:
        names = _PARAMETERS[fn] = tuple(inspect.signature(fn).parameters)
    return names


def aiter_splitk(a: torch.Tensor, b_shuffle: torch.Tensor, b_scale_sh: torch.Tensor, *,
                 config: dict = SEED_SPLITK_CONFIG, rounding: str = "rne") -> torch.Tensor:
    """aiter's Triton gemm_afp4wfp4_preshuffle on A quantized with natural-layout scales (M, K/32), B_shuffle
    viewed as (N/16, K/2*16) and B_scale_sh as (N_pad/32, K), uint8 throughout, into a fresh (M, N) bf16 `y`
    (as the seed passes its own: aiter's wrapper reads `y.dtype` for its split buffer when
    `set_use_gemm_splitk_bf16(True)` was called, even with no `y`). `use_aot=False` goes with the call wherever
    the function still takes it (below aiter 0.1.15, ROCm/aiter#2695): otherwise an AOT metadata file for the
    shape would replace `config`."""
    from aiter.ops.triton.gemm.basic.gemm_afp4wfp4 import gemm_afp4wfp4_preshuffle

    m, k = a.shape
    n = b_shuffle.shape[0]
    a_q, a_scale = mxq_quantize(a, rounding)
    w = _aiter_view(b_shuffle, (n // 16, (k // 2) * 16), "B_shuffle")
    w_scale = _aiter_view(b_scale_sh, (b_scale_sh.shape[0] // 32, k), "B_scale_sh")
    extra = {"use_aot": False} if "use_aot" in _parameters(gemm_afp4wfp4_preshuffle) else {}
    # A fresh dict per call: aiter writes SPLITK_BLOCK_SIZE and the adjusted BLOCK_SIZE_K into it.
    y = torch.empty((m, n), dtype=torch.bfloat16, device=a.device)
    return gemm_afp4wfp4_preshuffle(a_q, w, a_scale, w_scale, dtype=torch.bfloat16, y=y, config=dict(config),
                                    **extra)


def aiter_available(device=None) -> tuple[bool, str]:
    """(True, "") when the aiter entry points of the ASM and CK calls import here, else (False, one line saying
    why): their gate in the exported MI355X submission, called as the paths' `available(device)` is
    (`device` is not looked at: aiter imports only where ROCm is). No version is read: the seed makes its
    calls whenever aiter imports, and so does that file; the split-K call has its own gate
    (`aiter_splitk_available`), so a Triton module of aiter that fails to import turns off that call alone.
    The library's backend adds `aiter_backend.available`'s version table."""
    return _aiter_import("asm_ck")


def aiter_splitk_available(device=None) -> tuple[bool, str]:
    """(True, "") when the split-K call's entry point imports and takes K in bytes: from aiter 0.1.16
    (ROCm/aiter#3359) gemm_afp4wfp4_preshuffle hands its kernel K in elements where the kernel still counts
    bytes, so the call reads past A and returns wrong numbers without an error. That change renamed the
    function's first parameter from `x` to `x_fp4`, which is what is read here (once a process); no version."""
    ok, why = _aiter_import("splitk")
    return (ok, why) if not ok else _splitk_k_in_bytes()


@functools.lru_cache(maxsize=None)
def _splitk_k_in_bytes() -> tuple[bool, str]:
    from aiter.ops.triton.gemm.basic.gemm_afp4wfp4 import gemm_afp4wfp4_preshuffle

    first = next(iter(_parameters(gemm_afp4wfp4_preshuffle)), "")
    if first == "x":
        return True, ""
    return False, (f"aiter's gemm_afp4wfp4_preshuffle takes {first!r} first, not 'x': the version of "
                   "ROCm/aiter#3359 (0.1.16 on), whose split-K passes K in elements to a kernel counting bytes")


# The aiter modules each gate's calls import, and the names they take from each.
_AITER_ENTRY_POINTS = {
    "asm_ck": (("aiter", ("dtypes",)), ("aiter.ops.gemm_op_a4w4", ("gemm_a4w4", "gemm_a4w4_asm"))),
    "splitk": (("aiter.ops.triton.gemm.basic.gemm_afp4wfp4", ("gemm_afp4wfp4_preshuffle",)),),
}


@functools.lru_cache(maxsize=None)
def _aiter_import(calls: str) -> tuple[bool, str]:
    # Cached: whether aiter imports is a fact about the installation, fixed for the process.
    try:
        for module, names in _AITER_ENTRY_POINTS[calls]:
            loaded = importlib.import_module(module)
            for name in names:
                getattr(loaded, name)
    except Exception as exc:  # without ROCm `import aiter` fails with errors of several kinds; each is a refusal
        return False, f"aiter does not import: {type(exc).__name__}: {exc}"
    return True, ""
