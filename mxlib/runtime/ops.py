"""`torch.ops.mxlib.mxfp4_gemm`: the Triton GEMM as a torch.library custom op.

The op is opaque to torch.compile (its fake implementation gives the output's shape, dtype and
device without running anything) and safe to capture in a CUDA graph: it only launches kernels and
allocates from the current stream's pool; nothing on the host waits for the device. Path and config
are chosen as `mxlib.runtime.dispatch.select` does; path "" means "let the dispatcher choose".
"""
from __future__ import annotations

import torch

from ..spec import validate
from .dispatch import triton_gemm
from ..spec.quant import ROUNDINGS


@torch.library.custom_op("mxlib::mxfp4_gemm", mutates_args=())
def _mxfp4_gemm_op(a: torch.Tensor, b_shuffle: torch.Tensor, b_scale_sh: torch.Tensor,
                   path: str = "", rounding: str = "rne") -> torch.Tensor:
    return triton_gemm(a, b_shuffle, b_scale_sh, path=path or None, rounding=rounding)


@_mxfp4_gemm_op.register_fake
def _mxfp4_gemm_fake(a, b_shuffle, b_scale_sh, path="", rounding="rne"):
    if a.dim() != 2 or b_shuffle.dim() != 2:
        raise ValueError(f"a and b_shuffle must be 2-D, got shapes {tuple(a.shape)} and {tuple(b_shuffle.shape)}")
    return a.new_empty((a.shape[0], b_shuffle.shape[0]), dtype=torch.bfloat16)


def mxfp4_gemm(a: torch.Tensor, b_shuffle: torch.Tensor, b_scale_sh: torch.Tensor, path: str | None = None,
               rounding: str = "rne") -> torch.Tensor:
    """bf16 (M, N) through the custom op. B's byte tensors may be uint8 or torch's fp4x2 / e8m0
    dtypes (viewed as uint8, no copy)."""
    for t, name in ((b_shuffle, "b_shuffle"), (b_scale_sh, "b_scale_sh")):
        validate.tensor(t, name)
        validate.byte_dtype(t, name)
    validate.choice(rounding, "rounding", ROUNDINGS)
    return torch.ops.mxlib.mxfp4_gemm(a, validate.as_bytes(b_shuffle), validate.as_bytes(b_scale_sh),
                                      path or "", rounding)
