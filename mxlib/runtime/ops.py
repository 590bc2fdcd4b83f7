"""`torch.ops.mxlib.mxfp4_gemm`: the Triton GEMM as a torch.library custom op, registered by `import mxlib`.

The op is opaque to torch.compile and safe to capture in a CUDA graph: it only launches kernels and
allocates from the current stream's pool; nothing on the host waits for the device. Its fake
implementation (what torch.compile, meta tensors and FakeTensorMode run) runs the same argument checks
as the real one (`_check`: every path's `mx_check_gemm_args` and, for a named path, the A dtypes it
quantizes), from shapes, dtypes, devices and strides alone, so a call that would fail never traces to an
output. Two things only a real call can find: which path the dispatcher picks when none is named (it
reads the device's config table), and whether a named path can be built on the device (mma_sm90); and
meta tensors have no device to check. Path and config are chosen as `mxlib.runtime.dispatch.select`
does; path "" means "let the dispatcher choose". Registering imports neither Triton nor aiter (the
checks import the kernels' argument rules when the op first runs).
"""
from __future__ import annotations

import torch

from ..spec import validate
from ..spec.quant import ROUNDINGS
from .backends import check_triton_takes
from .dispatch import triton_gemm
from .paths import PATHS, path_module


def _check(a, b_shuffle, b_scale_sh, path: str, rounding: str) -> tuple[int, int, int]:
    """The checks the real op and its fake share; (M, N, K)."""
    validate.choice(path, "path", ("",) + tuple(PATHS))
    validate.choice(rounding, "rounding", ROUNDINGS)
    validate.tensor(a, "a")
    check_triton_takes(a, "a")  # before the kernels are imported (its docstring says why)
    from ..kernels.common import mx_check_gemm_args

    m, n, k = mx_check_gemm_args(a, b_shuffle, b_scale_sh, None, rounding, check_device=a.device.type != "meta")
    dtypes = getattr(path_module(path), "A_DTYPES", None) if path else None
    if dtypes is not None and a.dtype not in dtypes:
        raise TypeError(f"path {path} quantizes A of dtype {', '.join(map(str, dtypes))} only, got {a.dtype}")
    return m, n, k


@torch.library.custom_op("mxlib::mxfp4_gemm", mutates_args=())
def _mxfp4_gemm_op(a: torch.Tensor, b_shuffle: torch.Tensor, b_scale_sh: torch.Tensor,
                   path: str = "", rounding: str = "rne") -> torch.Tensor:
    _check(a, b_shuffle, b_scale_sh, path, rounding)
    return triton_gemm(a, b_shuffle, b_scale_sh, path=path or None, rounding=rounding)


@_mxfp4_gemm_op.register_fake
def _mxfp4_gemm_fake(a, b_shuffle, b_scale_sh, path="", rounding="rne"):
    m, n, _ = _check(a, b_shuffle, b_scale_sh, path, rounding)
    return a.new_empty((m, n), dtype=torch.bfloat16)


def mxfp4_gemm(a: torch.Tensor, b_shuffle: torch.Tensor, b_scale_sh: torch.Tensor, path: str | None = None,
               rounding: str = "rne") -> torch.Tensor:
    """bf16 (M, N) through the custom op. B's byte tensors may be uint8 or torch's fp4x2 / e8m0
    dtypes (viewed as uint8, no copy). `path` None (or "", the op's own spelling) lets the dispatcher choose; otherwise one of PATHS."""
    if path is None:
        path = ""
    validate.choice(path, "path", ("",) + tuple(PATHS))
    validate.tensor(a, "a")
    for t, name in ((b_shuffle, "b_shuffle"), (b_scale_sh, "b_scale_sh")):
        validate.tensor(t, name)
        validate.byte_dtype(t, name)
    validate.choice(rounding, "rounding", ROUNDINGS)
    check_triton_takes(a, "a")  # before torch's op dispatch, which imports Triton through torch._dynamo
    return torch.ops.mxlib.mxfp4_gemm(a, validate.as_bytes(b_shuffle), validate.as_bytes(b_scale_sh),
                                      path, rounding)
