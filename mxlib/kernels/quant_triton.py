"""MXFP4 quantization in Triton, bit-exact with `mxlib.spec.quant.quantize_mxfp4` (both rounding rules,
mxlib's NaN/Inf rule, subnormals), identical on CPU (interpreter) and GPU.

Two outputs for the scales: natural (M, K/32), or written straight into the e8m0_shuffle layout
(ceil256(M), ceil8(K/32)) at the offsets the seed's fused quant+shuffle kernel uses, with the padding set
to 127 (the seed's buffer is `torch.empty`, its padding never written).

Everything after the load is integer arithmetic on fp32 bit patterns, so no step depends on a
device's denormal handling, and bf16 input is widened by shifting its bits (the interpreter's
bf16 -> fp32 cast drops subnormals: KERNEL_NOTES.md, "Triton on sm_90 and in the interpreter"). An
element's magnitude code is the number of midpoints mid*2**e it reaches, compared as bit patterns
(non-negative floats order like their bits), which equals rounding the exact quotient x * 2**-e: that
quotient is exact whenever it could reach the smallest midpoint 0.25. Scale bytes are computed as
int32 before narrowing, which avoids aiter's uint8 saturation on NVIDIA (KERNEL_NOTES.md, "aiter's
quantizer and GEMMs, read from its source").
"""
from __future__ import annotations

import torch
import triton
import triton.language as tl

from ..spec.formats import BLOCK_SIZE
from ..spec.layouts import shuffled_scale_shape
from ..spec.quant import ROUNDINGS
from ..spec.validate import choice, float_dtype, multiple, ndim, tensor
from .common import (mx_block_exponent, mx_check_int32, mx_check_strided_int32, mx_check_triton_device,
                     mx_launch_device, mx_shuffled_scale_col, mx_shuffled_scale_row)

_MXQ_BLOCKS_PER_PROGRAM = 64  # 32-element blocks per quantizing program: 2048 elements
_MXQ_PAD_PER_PROGRAM = 1024  # padding scale bytes per padding program


@triton.jit
def _mxq_threshold(e, P: tl.constexpr, MBITS: tl.constexpr):
    """fp32 bits of the midpoint (1 + MBITS/2**23) * 2**P scaled by 2**e, exactly (subnormal when
    small; +Inf bits when above the fp32 range, which no finite |x| reaches)."""
    ex = e + P
    normal = (tl.minimum(ex + 127, 255) << 23) | MBITS
    sub = (0x800000 | MBITS) >> tl.maximum(-126 - ex, 0)
    return tl.where(ex >= -126, normal, sub)


@triton.jit
def _mxq_reach(a, t, INCLUSIVE: tl.constexpr):
    if INCLUSIVE:
        return (a >= t[:, None]).to(tl.int32)
    else:
        return (a > t[:, None]).to(tl.int32)


@triton.jit
def _mxq_blocks(x_ptr, q_ptr, s_ptr, pid, M, G, stride_xm, stride_xk, S_COLS,
                X_KIND: tl.constexpr, SHUFFLED: tl.constexpr, TIES_AWAY: tl.constexpr, BLOCKS: tl.constexpr):
    """Quantize BLOCKS 32-element blocks of rows [0, M): block b is scale slot (b // S_COLS, b % S_COLS);
    slots with column >= G are the layout's column padding (byte 127)."""
    blk = pid * BLOCKS + tl.arange(0, BLOCKS)
    row = blk // S_COLS
    grp = blk % S_COLS
    slot = row < M
    real = slot & (grp < G)
    j = tl.arange(0, 32)
    x_off = row[:, None] * stride_xm + (grp[:, None] * 32 + j[None, :]) * stride_xk
    if X_KIND == 0:
        u = (tl.load(x_ptr + x_off, mask=real[:, None], other=0).to(tl.int32) & 0xFFFF) << 16
    elif X_KIND == 1:
        u = tl.load(x_ptr + x_off, mask=real[:, None], other=0.0).to(tl.float32).to(tl.int32, bitcast=True)
    else:
        u = tl.load(x_ptr + x_off, mask=real[:, None], other=0)
    a = u & 0x7FFFFFFF
    amax = tl.max(a, axis=1)
    nonfinite = amax >= 0x7F800000  # some element has an all-ones exponent: Inf or NaN
    e = mx_block_exponent(tl.where(nonfinite, 0, amax))
    # Midpoints 0.25 0.75 1.25 1.75 2.5 3.5 5; "rne" reaches 0.75, 1.75, 3.5 inclusively (even code above).
    mag = _mxq_reach(a, _mxq_threshold(e, -2, 0), TIES_AWAY)
    mag += _mxq_reach(a, _mxq_threshold(e, -1, 0x400000), True)
    mag += _mxq_reach(a, _mxq_threshold(e, 0, 0x200000), TIES_AWAY)
    mag += _mxq_reach(a, _mxq_threshold(e, 0, 0x600000), True)
    mag += _mxq_reach(a, _mxq_threshold(e, 1, 0x200000), TIES_AWAY)
    mag += _mxq_reach(a, _mxq_threshold(e, 1, 0x600000), True)
    mag += _mxq_reach(a, _mxq_threshold(e, 2, 0x200000), TIES_AWAY)
    if TIES_AWAY:
        # Sign is `q < 0` for q = x * 2**-e in fp32: false when q underflows to -0.0, i.e. when
        # |x| <= 2**(e-150) (half the smallest subnormal ties to even, zero). z = bits of 2**(e-150).
        z = tl.where(e >= 24, (e - 23) << 23, tl.where(e >= 1, 1 << tl.maximum(e - 1, 0), 0))
        neg = (u < 0) & (a > z[:, None])
    else:
        neg = u < 0  # signbit(q) is x's sign bit, -0.0 included
    code = tl.where(nonfinite[:, None], 0, mag | (neg.to(tl.int32) << 3))
    lo, hi = tl.split(tl.reshape(code, (BLOCKS, 16, 2)))
    i = tl.arange(0, 16)
    tl.store(q_ptr + row[:, None] * (G * 16) + grp[:, None] * 16 + i[None, :], (lo | (hi << 4)).to(tl.uint8),
             mask=real[:, None])
    scale = tl.where(real, tl.where(nonfinite, 255, e + 127), 127).to(tl.uint8)
    if SHUFFLED:
        s_off = mx_shuffled_scale_row(row, S_COLS) + mx_shuffled_scale_col(grp)
    else:
        s_off = blk
    tl.store(s_ptr + s_off, scale, mask=slot)


@triton.jit
def _mxq_pad_rows(s_ptr, pid, M, S_ROWS, S_COLS, PAD: tl.constexpr):
    """Byte 127 into PAD shuffled scale slots of the padding rows [M, S_ROWS)."""
    slot = pid * PAD + tl.arange(0, PAD)
    row = M + slot // S_COLS
    grp = slot % S_COLS
    off = mx_shuffled_scale_row(row, S_COLS) + mx_shuffled_scale_col(grp)
    tl.store(s_ptr + off, tl.full((PAD,), 127, tl.uint8), mask=row < S_ROWS)


# Shape-dependent integers are not specialized (divisibility, == 1): one compile per config serves every shape.
@triton.jit(do_not_specialize=["M", "G", "S_ROWS", "S_COLS", "QUANT_PROGRAMS"])
def _mxq_kernel(x_ptr, q_ptr, s_ptr, M, G, stride_xm, stride_xk, S_ROWS, S_COLS, QUANT_PROGRAMS,
                X_KIND: tl.constexpr, SHUFFLED: tl.constexpr, TIES_AWAY: tl.constexpr,
                BLOCKS: tl.constexpr, PAD: tl.constexpr):
    """Programs [0, QUANT_PROGRAMS) quantize rows [0, M) into the (S_ROWS, S_COLS) scale tensor
    (natural: (M, G); shuffled: (ceil256(M), ceil8(G))); the rest only fill its padding rows, which
    cost no quantization work (they are most of the tensor when M is small).
    X_KIND: 0 = bf16 bits in int16, 1 = fp16, 2 = fp32 bits in int32."""
    pid = tl.program_id(0)
    if pid < QUANT_PROGRAMS:
        _mxq_blocks(x_ptr, q_ptr, s_ptr, pid, M, G, stride_xm, stride_xk, S_COLS,
                    X_KIND, SHUFFLED, TIES_AWAY, BLOCKS)
    else:
        _mxq_pad_rows(s_ptr, pid - QUANT_PROGRAMS, M, S_ROWS, S_COLS, PAD)


def _mxq_launch(x: torch.Tensor, rounding: str, shuffled: bool):
    tensor(x, "x")
    ndim(x, "x", 2)
    float_dtype(x, "x")
    multiple(x.shape[1], "x.shape[1] (K)", BLOCK_SIZE)
    choice(rounding, "rounding", ROUNDINGS)
    mx_check_triton_device(x, "x")
    m, k = x.shape
    mx_check_strided_int32(x, "x")
    mx_check_int32(m * (k // 2), "x's packed codes (M*K/2 bytes)")  # rows that share memory span little of x
    g = k // BLOCK_SIZE
    if shuffled:
        rows, cols = shuffled_scale_shape(m, g)
    else:
        rows, cols = m, g
    q = torch.empty((m, k // 2), dtype=torch.uint8, device=x.device)
    s = torch.empty((rows, cols), dtype=torch.uint8, device=x.device)
    if rows * cols == 0:
        return q, s
    if x.dtype == torch.bfloat16:
        xv, kind = x.view(torch.int16), 0
    elif x.dtype == torch.float16:
        xv, kind = x, 1
    else:
        xv, kind = x.view(torch.int32), 2
    quant_programs, pad_programs = _mxq_programs(m, cols, rows)
    with mx_launch_device(x.device):
        _mxq_kernel[(quant_programs + pad_programs,)](
            xv, q, s, m, g, x.stride(0), x.stride(1), rows, cols, quant_programs,
            X_KIND=kind, SHUFFLED=shuffled, TIES_AWAY=rounding == "ties_away",
            BLOCKS=_MXQ_BLOCKS_PER_PROGRAM, PAD=_MXQ_PAD_PER_PROGRAM, num_warps=4)
    return q, s


def mxq_quantize(x: torch.Tensor, rounding: str = "rne") -> tuple[torch.Tensor, torch.Tensor]:
    """Triton `quantize_mxfp4`: (q uint8 (M, K/2), scales uint8 (M, K/32))."""
    return _mxq_launch(x, rounding, shuffled=False)


def mxq_quantize_shuffled(x: torch.Tensor, rounding: str = "rne") -> tuple[torch.Tensor, torch.Tensor]:
    """Triton fused quant + e8m0_shuffle: (q uint8 (M, K/2), scales uint8 (ceil256(M), ceil8(K/32)))."""
    return _mxq_launch(x, rounding, shuffled=True)


def _mxq_programs(m: int, cols: int, rows: int) -> tuple[int, int]:
    """(quantizing programs, padding programs) for M rows into a (rows, cols) scale tensor."""
    return triton.cdiv(m * cols, _MXQ_BLOCKS_PER_PROGRAM), triton.cdiv((rows - m) * cols, _MXQ_PAD_PER_PROGRAM)


def mxq_programs(m: int, k: int, shuffled: bool) -> int:
    """Number of programs one quantization launch uses (for the paths' `grid`)."""
    g = k // BLOCK_SIZE
    if shuffled:
        rows, cols = shuffled_scale_shape(m, g)
    else:
        rows, cols = m, g
    return sum(_mxq_programs(m, cols, rows))
