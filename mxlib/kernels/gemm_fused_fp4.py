"""Path "fused_fp4": the whole MXFP4 GEMM in ONE launch, A handed to the MMA as E2M1 codes + E8M0 scales.

``C = dequant(quantize_mxfp4(A, rounding)) @ dequant(B_shuffle, B_scale_sh)^T`` as bf16 (M, N).

Why this design: on gfx950 (MI355X) ``tl.dot_scaled`` with BOTH operands in an MX format lowers to the
native scaled MFMA (``v_mfma_scale_f32_16x16x128_f8f6f4`` / ``..._32x32x64_...``), which reads packed
fp4 codes and applies the E8M0 scales in hardware; with a bf16 operand (the "fused" path) Triton
must upcast B instead. So each program quantizes its slice of A in registers into exactly the bytes
`mxlib.spec.quant.quantize_mxfp4` produces (packed codes, low nibble first, and scale bytes) and hands
them to ``tl.dot_scaled(a, a_scale, "e2m1", b, b_scale, "e2m1")``. On sm_90 and in Triton's CPU
interpreter the same call is emulated (both operands upcast), so the kernel validated there is the
kernel compiled for gfx950.

A program owns an M tile (BLOCK_M rows of A), an N tile (BLOCK_N rows of B) and a contiguous range
of K iterations (split-K). Per iteration of BLOCK_K:

- B in place: in the (16,16) shuffle the bytes of 16 rows x BLOCK_K/2 bytes are one contiguous run of
  8 * BLOCK_K bytes (BLOCK_K % 64 == 0), loaded as such and permuted back to (N, K/2) in registers;
  B's E8M0 bytes in place from e8m0_shuffle's layout (mxlib.spec.layouts), masked to 127 (1.0) outside
  the tensor's real rows and columns, so the layout's padding (uninitialised in aiter) never counts.
  Compiled for gfx950, the permuted B tile is exactly the MFMA's operand layout: its 16-byte loads
  land in the operand registers with no LDS round trip; A's codes and both scale operands are
  rearranged through LDS.
- A: its (BLOCK_M, BLOCK_K) slice, quantized by `_fp4_quantize` (see there), bit-exact.
- ``acc = tl.dot_scaled(...)``: products of two E2M1 values times two powers of two are exact in
  fp32, so only the fp32 summation order differs from the reference. On NVIDIA, Triton before 3.9
  reads scale byte 0 of either operand as 0 instead of 2**-127 (`zero_scale_operands`).

Split-K is reduced in the same launch, deterministically, through `mxlib.kernels.arrival`: every
program of a tile stores its fp32 partial into its slot of a per-call workspace and arrives at the
tile's launch-generation counter; the last arrival sums the slots in split order 0, 1, ... and writes C.
A launch that stopped early cannot poison a later call, and on AMD every wave releases its own partial
before the arrival (see that module). C is rounded to bf16 on the bits (`mx_f32_to_bf16`).
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
import triton
import triton.language as tl

from .arrival import (mx_arrival_open, mx_arrive, mx_counter_buffer, mx_next_generation,
                      mx_release_own_stores, mx_release_threads)
from ..spec.devices import MI355X
from ..spec.ints import gemm_shape
from .common import (MAX_UNROLLED_SPLIT_K, mx_bits_f32, mx_block_exponent, mx_check_config, mx_check_gemm_args,
                     mx_check_int32, mx_cuda_backend, mx_int, mx_launch_device, mx_tiles,
                     mx_e8m0_to_f32, mx_f32_to_bf16, mx_output, mx_resolve_config, mx_shuffled_scale_col, mx_shuffled_scale_row, mx_zero_scale_operands)


@dataclass(frozen=True)
class FusedFp4Config:
    """One launch's tiling and launch knobs. block_m: rows of A per program (>= 16, the MFMA's
    smallest side); block_n: rows of B per program (>= 16, one shuffle tile); block_k: K elements per
    iteration (>= 64: whole 512-byte tiles of the shuffle); split_k: programs along K per tile (at most
    MAX_UNROLLED_SPLIT_K; splits past the K iterations get empty ranges and add zeros).
    waves_per_eu and matrix_instr_nonkdim (16 or 32: the MFMA's M/N side) are AMD launch options, passed
    when nonzero and the backend is not CUDA (0 = the compiler's choice); b_cg = 1 loads B with the ".cg"
    cache modifier (cached in L2 only, as the seed's split-K config does). num_warps >= 2: with a single
    wave Triton 3.9's gfx950 build falls back to a bf16 MFMA."""
    block_m: int = 16
    block_n: int = 64
    block_k: int = 256
    split_k: int = 1
    num_warps: int = 4
    num_stages: int = 2
    waves_per_eu: int = 0
    matrix_instr_nonkdim: int = 0
    b_cg: int = 0

    def __post_init__(self):
        mx_check_config(self, "fused_fp4", split_k=True, max_split_k=MAX_UNROLLED_SPLIT_K)
        if self.block_k < 64:
            raise ValueError(f"fused_fp4 Config.block_k must be a power of two >= 64, got {self.block_k!r}")
        if self.num_warps < 2:
            raise ValueError(f"fused_fp4 Config.num_warps must be >= 2 (with one wave Triton's gfx950 build "
                             f"falls back to bf16 MFMAs), got {self.num_warps!r}")
        if not mx_int(self.waves_per_eu) or not 0 <= self.waves_per_eu <= 8:
            raise ValueError(f"fused_fp4 Config.waves_per_eu must be 0..8 (0: the compiler's choice), "
                             f"got {self.waves_per_eu!r}")
        if not mx_int(self.matrix_instr_nonkdim) or self.matrix_instr_nonkdim not in (0, 16, 32):
            raise ValueError(f"fused_fp4 Config.matrix_instr_nonkdim must be 0, 16 or 32, got {self.matrix_instr_nonkdim!r}")
        if not mx_int(self.b_cg) or self.b_cg not in (0, 1):
            raise ValueError(f"fused_fp4 Config.b_cg must be 0 or 1, got {self.b_cg!r}")


# The rule below aims at one program per MI355X CU.
DEFAULT_PROGRAMS = MI355X.units


def fused_fp4_default_config(m: int, n: int, k: int, device=None) -> FusedFp4Config:
    """The occupancy rule for a shape (mxlib/data/configs/mi355x.csv records it per contest shape with the
    compiled facts behind it): one M tile up to M = 32 (block_m 16 or 32), else 64-row M tiles with 8
    warps; BLOCK_K = 256, so an iteration quantizes at most 32 A elements per lane and reads one 256-byte
    scale tile of e8m0_shuffle per 32 rows; then the widest N tile (128, 64, 32, down to 16, and at
    least block_m / 2) whose tiles times K iterations still reach DEFAULT_PROGRAMS, and split_k bringing
    the programs closest to DEFAULT_PROGRAMS without more splits than iterations (or MAX_UNROLLED_SPLIT_K). One pipeline stage, the
    16x16x128 MFMA and no waves_per_eu hint: compiled for gfx950 those use the fewest registers (two
    stages, the 32x32x64 MFMA that the compiler picks from block_m 32, and a waves_per_eu hint of 2 each
    cost VGPRs, up to one CTA per CU; data/results/mi355x/fused_fp4_tilings.csv), so every program of
    the contest shapes is resident at once. B is loaded ".cg" (L2 only) for M <= 32, as the seed's
    split-K config does."""
    m, n, k = gemm_shape(m, n, k)
    block_m = 16 if m <= 16 else 32 if m <= 32 else 64
    block_k = min(256, max(64, triton.next_power_of_2(k)))
    iters = triton.cdiv(k, block_k)
    m_tiles = triton.cdiv(m, block_m)
    widths = [w for w in (128, 64, 32, 16) if w >= block_m // 2]
    block_n = next((w for w in widths if m_tiles * triton.cdiv(n, w) * iters >= DEFAULT_PROGRAMS), widths[-1])
    tiles = m_tiles * triton.cdiv(n, block_n)
    split = max(1, min(iters, round(DEFAULT_PROGRAMS / tiles), MAX_UNROLLED_SPLIT_K))
    return FusedFp4Config(block_m=block_m, block_n=block_n, block_k=block_k, split_k=split,
                          num_warps=8 if block_m == 64 else 4, num_stages=1, matrix_instr_nonkdim=16,
                          b_cg=int(m <= 32))


def fused_fp4_zero_scale_operands(device) -> tuple:
    """("A", "B") where `tl.dot_scaled` reads an E8M0 scale byte of 0 as 0 on `device` (Triton before 3.9
    on NVIDIA), so this path counts both operands' blocks with scale byte 0 as zero there; else (). The
    rule's documented departure: mxlib.spec.reference."""
    return mx_zero_scale_operands(device, ("A", "B"))


def fused_fp4_grid(m: int, n: int, k: int, config: FusedFp4Config) -> int:
    """Programs in the one launch: M tiles x N tiles x split_k."""
    m, n, k = gemm_shape(m, n, k, empty_m=True)
    return mx_tiles(m, n, config) * config.split_k


@triton.jit
def _fp4_quantize(u, TIES_AWAY: tl.constexpr):
    """(R, C) fp32 bit patterns (int32) -> `quantize_mxfp4` of those values along C: the packed codes
    (R, C/2) uint8 (even element in the low nibble) and the E8M0 scale bytes (R, C/32) uint8.

    Scale: from amax's fp32 bits (round up at mantissa >= 0.75, e = clamp(floor(log2) - 2, -127, 127)).
    Element: q = x * 2**-e in fp32 (exact wherever it matters: |q| >= 2**-126). With E = floor(log2|q|),
    the E2M1 grid step at |q| is s = 2**(max(E, 0) - 1), and the fp32 add t = |q| + 1.5 * 2**23 * s
    rounds |q| to k * s, ties to even k, because t's last place is worth s. So t's bits are
    ((149 + max(E, 0)) << 23) | 2**22 | k, and the magnitude code k + 2 * max(E, 0) is
    ``(t & 7) + (t >> 22) - 299``: integer operations only, no dependence on denormal modes. An even k is
    an even code, so the tie break is round-half-even; "ties_away" adds one where |q| - k * s is exactly
    s/2 (a tie rounded down). Saturation needs no clamp: the scale rule keeps |q| < 7 (so k <= 4), and
    [6, 7) rounds to 6. Sign (bit 3): x's sign bit under "rne" (signbit(q)), ``q < 0`` under
    "ties_away" (-0.0 and underflow give +). A block holding NaN or Inf gets scale byte 255 and codes 0
    (mxlib's rule).
    """
    R: tl.constexpr = u.shape[0]
    C: tl.constexpr = u.shape[1]
    ub = tl.reshape(u, (R, C // 32, 32))
    ab = ub & 0x7FFFFFFF  # |x|: non-negative floats order like their bits, and NaN/Inf bits are the largest
    amax = tl.max(ab, axis=2)
    e = mx_block_exponent(amax)
    inv = mx_e8m0_to_f32(127 - e)  # 2**-e, exact (2**-127 a subnormal)
    qa = ab.to(tl.float32, bitcast=True) * inv[:, :, None]  # |q|
    # 1.5 * 2**23 * s = 1.5 * 2**(22 + max(E, 0)): exponent field 149 + max(E, 0), mantissa 2**22.
    magic = ((tl.maximum(qa.to(tl.int32, bitcast=True) >> 23, 127) << 23) + 0x0B400000).to(tl.float32, bitcast=True)
    t = qa + magic
    tb = t.to(tl.int32, bitcast=True)
    code = (tb & 7) + (tb >> 22) - 299
    if TIES_AWAY:
        d = qa - (t - magic)  # both subtractions exact
        half_s = (magic.to(tl.int32, bitcast=True) - 0x0C400000).to(tl.float32, bitcast=True)  # 2**(max(E,0)-2)
        code += (d == half_s).to(tl.int32)
        code = code | (((ub < 0) & (qa > 0)).to(tl.int32) << 3)  # q < 0
    else:
        code = code | ((ub >> 28) & 8)
    nonfinite = amax >= 0x7F800000
    code = tl.where(nonfinite[:, :, None], 0, code)
    lo, hi = tl.split(tl.reshape(code, (R, C // 2, 2)))
    packed = (lo | (hi << 4)).to(tl.uint8)
    return packed, tl.where(nonfinite, 255, e + 127).to(tl.uint8)


@triton.jit
def _fp4_b_tile(b_ptr, rg, n_groups, it, Kb, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                EVEN_K: tl.constexpr, B_CACHE: tl.constexpr):
    """Iteration `it`'s B codes as dot_scaled's rhs: (BLOCK_K/2, BLOCK_N) packed bytes, read in place.

    Shuffled byte (n, kb) sits at (n//16)*16*Kb + (kb//32)*512 + ((kb%32)//16)*256 + (n%16)*16 + kb%16,
    so the BLOCK_K/2 bytes of 16 rows (group rg = n//16) are the 8 * BLOCK_K contiguous bytes from
    rg*16*Kb + it*8*BLOCK_K, ordered (kb//32, (kb%32)//16, n%16, kb%16). Groups >= n_groups and
    512-byte tiles past K are masked (code 0)."""
    j = tl.arange(0, 8 * BLOCK_K)
    mask = (rg < n_groups)[:, None]
    if not EVEN_K:
        mask = mask & ((it * (BLOCK_K // 2) + (j // 512) * 32) < Kb)[None, :]
    raw = tl.load(b_ptr + rg[:, None] * (16 * Kb) + it * (8 * BLOCK_K) + j[None, :], mask=mask, other=0,
                  cache_modifier=B_CACHE)
    b = tl.reshape(raw, (BLOCK_N // 16, BLOCK_K // 64, 2, 16, 16))
    b = tl.permute(b, (0, 3, 1, 2, 4))
    return tl.trans(tl.reshape(b, (BLOCK_N, BLOCK_K // 2)))


@triton.jit
def _fp4_b_scales(s_ptr, s_off, s_mask, it, G, BLOCK_K: tl.constexpr, EVEN_K: tl.constexpr):
    """Iteration `it`'s B scale bytes (BLOCK_N, BLOCK_K/32), read in place from e8m0_shuffle's layout:
    s_off holds row(n) + col(j) (loop-invariant), the iteration adds the scalar col(g0) (`mx_shuffled_scale_col`
    is additive there: g0 is a multiple of min(BLOCK_K/32, 8) and j < BLOCK_K/32). Rows outside s_mask and
    groups g >= G (the layout's column padding) are masked (byte 127, 1.0)."""
    g0 = it * (BLOCK_K // 32)
    mask = s_mask
    if not EVEN_K:
        mask = mask & (tl.arange(0, BLOCK_K // 32) < G - g0)[None, :]
    return tl.load(s_ptr + mx_shuffled_scale_col(g0) + s_off, mask=mask, other=127)


# GEN changes every call: not specialized (== 1, divisibility), so one compile serves every call.
@triton.jit(do_not_specialize=["GEN"])
def _fp4_gemm_kernel(a_ptr, b_ptr, s_ptr, c_ptr, ws_ptr, cnt_ptr,
                     M, N, K, stride_am, stride_ak, stride_cm, S_COLS, GEN,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                     SPLIT_K: tl.constexpr, EVEN_K: tl.constexpr, TIES_AWAY: tl.constexpr,
                     B_CACHE: tl.constexpr, RELEASE_THREADS: tl.constexpr):
    pid = tl.program_id(0)
    split = pid % SPLIT_K
    tile = pid // SPLIT_K
    num_m = tl.cdiv(M, BLOCK_M)
    pid_m = tile % num_m
    pid_n = tile // num_m
    Kb = K // 2
    G = K // 32
    iters = tl.cdiv(K, BLOCK_K)
    it_lo = split * iters // SPLIT_K
    it_hi = (split + 1) * iters // SPLIT_K
    if SPLIT_K > 1:
        mx_arrival_open(cnt_ptr + tile, GEN)

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rg = pid_n * (BLOCK_N // 16) + tl.arange(0, BLOCK_N // 16)
    s_off = mx_shuffled_scale_row(rn, S_COLS)[:, None] + mx_shuffled_scale_col(tl.arange(0, BLOCK_K // 32))[None, :]
    s_mask = (rn < N)[:, None]
    kk = tl.arange(0, BLOCK_K)
    a_base = a_ptr + rm[:, None] * stride_am + kk[None, :] * stride_ak

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for it in range(it_lo, it_hi):
        a_mask = (rm < M)[:, None]
        if not EVEN_K:
            a_mask = a_mask & ((it * BLOCK_K + kk) < K)[None, :]
        x = tl.load(a_base + it * BLOCK_K * stride_ak, mask=a_mask, other=0.0)
        a_q, a_s = _fp4_quantize(mx_bits_f32(x), TIES_AWAY)
        b = _fp4_b_tile(b_ptr, rg, N // 16, it, Kb, BLOCK_N, BLOCK_K, EVEN_K, B_CACHE)
        b_s = _fp4_b_scales(s_ptr, s_off, s_mask, it, G, BLOCK_K, EVEN_K)
        acc = tl.dot_scaled(a_q, a_s, "e2m1", b, b_s, "e2m1", acc)

    c_off = rm[:, None] * stride_cm + rn[None, :]
    c_mask = (rm < M)[:, None] & (rn < N)[None, :]
    if SPLIT_K == 1:
        tl.store(c_ptr + c_off, mx_f32_to_bf16(acc), mask=c_mask)
    else:
        w_off = tl.arange(0, BLOCK_M)[:, None] * BLOCK_N + tl.arange(0, BLOCK_N)[None, :]
        slot = ws_ptr + (tile * SPLIT_K + split) * (BLOCK_M * BLOCK_N)
        tl.store(slot + w_off, acc)
        if RELEASE_THREADS > 0:
            mx_release_own_stores(slot, BLOCK_M * BLOCK_N, RELEASE_THREADS)
        # Every thread's partial is stored before one thread publishes the arrival (release).
        tl.debug_barrier()
        if mx_arrive(cnt_ptr + tile, GEN, SPLIT_K):
            # Unrolled, so that all SPLIT_K loads are in flight at once.
            total = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for s in tl.static_range(SPLIT_K):
                total += tl.load(ws_ptr + (tile * SPLIT_K + s) * (BLOCK_M * BLOCK_N) + w_off, cache_modifier=".cg")
            tl.store(c_ptr + c_off, mx_f32_to_bf16(total), mask=c_mask)


def fused_fp4_gemm(a: torch.Tensor, b_shuffle: torch.Tensor, b_scale_sh: torch.Tensor, *,
                   config: FusedFp4Config | None = None, rounding: str = "rne",
                   out: torch.Tensor | None = None) -> torch.Tensor:
    """bf16 (M, N) = dequant(quantize_mxfp4(a, rounding)) @ dequant(B)^T in one kernel launch.

    `out`, if given, is written and returned; otherwise each call returns a fresh tensor."""
    m, n, k = mx_check_gemm_args(a, b_shuffle, b_scale_sh, out, rounding)
    # the config is checked first, as for any M (an empty A needs none, so any shape's serves it)
    cfg = mx_resolve_config("fused_fp4", config, FusedFp4Config, fused_fp4_default_config, max(m, 1), n, k, a.device)
    if m == 0:
        return mx_output(m, n, a.device, out)  # an empty A gives an empty C: nothing to launch
    c = mx_output(m, n, a.device, out)
    _fp4_launch(a, b_shuffle, b_scale_sh, c, cfg, rounding, mx_next_generation())
    return c


def fused_fp4_check_launch(m: int, n: int, k: int, cfg: FusedFp4Config) -> None:
    """A launch's rule that depends on the shape, checked before its workspace is allocated: the split-K
    workspace within int32 offsets."""
    if cfg.split_k > 1:
        mx_check_int32(mx_tiles(m, n, cfg) * cfg.split_k * cfg.block_m * cfg.block_n,
                       "the split-K workspace (M tiles * N tiles * split_k * block_m * block_n elements)")


def _fp4_launch(a, b_shuffle, b_scale_sh, c, cfg: FusedFp4Config, rounding: str, gen: int, programs=None):
    """The one launch with generation `gen` (`mx_next_generation`), writing C into `c`. `programs` (default:
    all of them) launches only the first ones, which is what a launch that dies midway leaves behind
    (tests). AMD launch options are passed off CUDA only: NVIDIA's launcher rejects them, the HIP backend
    uses them, the interpreter drops them, and `python -m mxlib isa` records them."""
    m, k = a.shape
    n = b_shuffle.shape[0]
    fused_fp4_check_launch(m, n, k, cfg)
    tiles = mx_tiles(m, n, cfg)
    if cfg.split_k > 1:
        cnt = mx_counter_buffer(a.device, tiles)
        ws = torch.empty(tiles * cfg.split_k * cfg.block_m * cfg.block_n, dtype=torch.float32, device=a.device)
    else:
        cnt, ws = c, c  # unused: the kernel stores straight into C
    knobs = {}
    if not mx_cuda_backend():
        knobs = {key: v for key, v in (("waves_per_eu", cfg.waves_per_eu),
                                       ("matrix_instr_nonkdim", cfg.matrix_instr_nonkdim)) if v}
    with mx_launch_device(a.device):
        _fp4_gemm_kernel[(tiles * cfg.split_k if programs is None else programs,)](
            a, b_shuffle.view(torch.uint8), b_scale_sh.view(torch.uint8), c, ws, cnt,
            m, n, k, a.stride(0), a.stride(1), c.stride(0), b_scale_sh.shape[1], gen,
            BLOCK_M=cfg.block_m, BLOCK_N=cfg.block_n, BLOCK_K=cfg.block_k, SPLIT_K=cfg.split_k,
            EVEN_K=k % cfg.block_k == 0, TIES_AWAY=rounding == "ties_away", B_CACHE=".cg" if cfg.b_cg else "",
            RELEASE_THREADS=mx_release_threads(cfg.num_warps) if cfg.split_k > 1 else 0, num_warps=cfg.num_warps,
            num_stages=cfg.num_stages, **knobs)


# The path contract (mxlib.runtime.paths): every path module exposes these four names, and this one
# zero_scale_operands.
Config = FusedFp4Config
default_config = fused_fp4_default_config
grid = fused_fp4_grid
gemm = fused_fp4_gemm
zero_scale_operands = fused_fp4_zero_scale_operands
