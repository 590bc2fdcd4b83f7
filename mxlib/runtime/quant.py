"""MXFP4 quantization with a choice of implementation: the spec in torch, or mxlib's Triton kernel.

`quantize_mxfp4(x, rounding, backend)` and `quantize_mxfp4_shuffled(...)` give the same bytes either way
(tests/test_quant_triton.py holds them to it): ``backend="torch"`` is `mxlib.spec.quant` itself, any
device; ``backend="triton"`` is `mxlib.kernels.quant_triton` (CUDA/ROCm, or the CPU under
TRITON_INTERPRET=1), the shuffled one writing its scales straight into the e8m0_shuffle layout in one
launch, as the seed's quant+shuffle kernel does. The choice lives here, above both, because the spec
must not import the kernels that are checked against it; Triton is imported only when asked for.
"""
from __future__ import annotations

import torch

from ..spec import quant as spec
from ..spec import validate
from .backends import check_triton_takes

BACKENDS = ("torch", "triton")


def quantize_mxfp4(x: torch.Tensor, rounding: str = "rne", backend: str = "torch") -> tuple[torch.Tensor, torch.Tensor]:
    """`mxlib.spec.quant.quantize_mxfp4` (q uint8 (M, K/2), scales uint8 (M, K/32)) by `backend`."""
    validate.choice(backend, "backend", BACKENDS)
    if backend == "triton":
        check_triton_takes(x, "x")  # before the kernels are imported (its docstring says why)
        from ..kernels.quant_triton import mxq_quantize

        return mxq_quantize(x, rounding)
    return spec.quantize_mxfp4(x, rounding)


def quantize_mxfp4_shuffled(x: torch.Tensor, rounding: str = "rne",
                            backend: str = "torch") -> tuple[torch.Tensor, torch.Tensor]:
    """`mxlib.spec.quant.quantize_mxfp4_shuffled` (q, scales (ceil256(M), ceil8(K/32)) padded with 127) by
    `backend`."""
    validate.choice(backend, "backend", BACKENDS)
    if backend == "triton":
        check_triton_takes(x, "x")  # before the kernels are imported (its docstring says why)
        from ..kernels.quant_triton import mxq_quantize_shuffled

        return mxq_quantize_shuffled(x, rounding)
    return spec.quantize_mxfp4_shuffled(x, rounding)
