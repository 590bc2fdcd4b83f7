"""A naive `tl.dot_scaled` MXFP4 GEMM: the baseline a first Triton attempt gives.

A is quantized outside the timed call (`prepare`), B is read in its natural layout (B_q and
un-shuffled scales), one output tile per program, no split-K, fixed BLOCK_M=16, BLOCK_N=64,
BLOCK_K=256. It is here to be timed beside mxlib's paths, not to be fast.
"""
from __future__ import annotations

import torch
import triton
import triton.language as tl

from ...spec import validate
from ...spec.formats import BLOCK_SIZE
from ...spec.layouts import e8m0_unshuffle
from ...spec.quant import quantize_mxfp4
from ...spec.reference import unpack_data

BLOCK_M = 16
BLOCK_N = 64
BLOCK_K = 256


@triton.jit
def _naive_dot_scaled_kernel(
    a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, c_ptr,
    M, N, K,
    stride_am, stride_asm, stride_bn, stride_bsn, stride_cm,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_kb = tl.arange(0, BLOCK_K // 2)   # packed bytes, two fp4 values each
    offs_ks = tl.arange(0, BLOCK_K // 32)  # one E8M0 scale per 32 values
    mask_m = offs_m < M
    mask_n = offs_n < N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kb = k0 // 2 + offs_kb
        ks = k0 // 32 + offs_ks
        mask_kb = kb < K // 2
        mask_ks = ks < K // 32
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + kb[None, :],
                    mask=mask_m[:, None] & mask_kb[None, :], other=0)
        a_s = tl.load(a_scale_ptr + offs_m[:, None] * stride_asm + ks[None, :],
                      mask=mask_m[:, None] & mask_ks[None, :], other=127)
        # rhs is (K/2, N): B_q (N, K/2) read transposed, still packed along K.
        b = tl.load(b_ptr + offs_n[None, :] * stride_bn + kb[:, None],
                    mask=mask_kb[:, None] & mask_n[None, :], other=0)
        b_s = tl.load(b_scale_ptr + offs_n[:, None] * stride_bsn + ks[None, :],
                      mask=mask_n[:, None] & mask_ks[None, :], other=127)
        # Masked K tails hold code 0 with scale byte 127 (1.0): they add exactly zero.
        acc = tl.dot_scaled(a, a_s, "e2m1", b, b_s, "e2m1", acc)
    c = acc.to(tl.bfloat16)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], c, mask=mask_m[:, None] & mask_n[None, :])


def prepare(data, rounding: str = "rne"):
    """The kernel's operands from the contest tuple, made outside the timed call.

    Returns (a_q, a_scale, b_q, b_scale): A quantized with `rounding` (natural scales), B_q as given,
    B's scales un-shuffled to their natural (N, K/32) layout.
    """
    a, _, b_q, _, b_scale_sh, (m, n, k) = unpack_data(data)
    a_q, a_scale = quantize_mxfp4(a, rounding)
    b_scale = e8m0_unshuffle(validate.as_bytes(b_scale_sh), n, k // BLOCK_SIZE)
    return a_q, a_scale, validate.as_bytes(b_q).contiguous(), b_scale


def gemm(a_q: torch.Tensor, a_scale: torch.Tensor, b_q: torch.Tensor, b_scale: torch.Tensor) -> torch.Tensor:
    """bf16 (M, N) = dequant(a_q, a_scale) @ dequant(b_q, b_scale)^T; operands as `prepare` returns them."""
    for t, name in ((a_q, "a_q"), (a_scale, "a_scale"), (b_q, "b_q"), (b_scale, "b_scale")):
        validate.tensor(t, name)
        validate.ndim(t, name, 2)
        if t.dtype != torch.uint8:
            raise TypeError(f"{name} must be uint8, got {t.dtype}")
        if t.stride(1) != 1:
            raise ValueError(f"{name} must be contiguous along its last dimension, got strides {t.stride()}")
    m, kb = a_q.shape
    n = b_q.shape[0]
    k = 2 * kb
    validate.multiple(k, "K (2 * a_q.shape[1])", 64)
    if tuple(b_q.shape) != (n, kb):
        raise ValueError(f"b_q must have shape (N, K/2) = ({n}, {kb}), got {tuple(b_q.shape)}")
    if tuple(a_scale.shape) != (m, k // BLOCK_SIZE):
        raise ValueError(f"a_scale must have shape (M, K/32) = ({m}, {k // BLOCK_SIZE}), got {tuple(a_scale.shape)}")
    if tuple(b_scale.shape) != (n, k // BLOCK_SIZE):
        raise ValueError(f"b_scale must have shape (N, K/32) = ({n}, {k // BLOCK_SIZE}), got {tuple(b_scale.shape)}")
    for t, name in ((a_scale, "a_scale"), (b_q, "b_q"), (b_scale, "b_scale")):
        validate.same_device(a_q, t, "a_q", name)
    c = torch.empty((m, n), dtype=torch.bfloat16, device=a_q.device)
    grid = (triton.cdiv(m, BLOCK_M), triton.cdiv(n, BLOCK_N))
    _naive_dot_scaled_kernel[grid](
        a_q, a_scale, b_q, b_scale, c, m, n, k,
        a_q.stride(0), a_scale.stride(0), b_q.stride(0), b_scale.stride(0), c.stride(0),
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
    )
    return c

