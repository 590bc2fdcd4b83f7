"""Path "fused": the whole MXFP4 GEMM in ONE launch on NVIDIA Hopper (sm_90), A handed to the MMA as bf16.

``C = dequant(quantize_mxfp4(A, rounding)) @ dequant(B_shuffle, B_scale_sh)^T`` as bf16 (M, N).

Why one launch: contest-style timing (L2 flushed, CUDA events around one call) charges an empty
kernel about 3 us on the H200, more than the bandwidth floor of every benchmark shape, so a separate
quantization or reduction kernel costs more than it could save (KERNEL_NOTES.md, "The floors").

How a program (CTA) works. Program p owns an N tile of BLOCK_N rows of B, an M tile of BLOCK_M rows
of A and a contiguous range of K iterations (split-K). Each iteration:

- loads B in place: in the (16,16) shuffle each 16-byte run is one row's 32 fp4 values (one scale
  block), so an iteration's bytes are 16-byte loads at `mx_shuffled_weight_row(n) +
  mx_shuffled_weight_col(j)`, one constant further on each iteration; the scales come in place from
  e8m0_shuffle's layout. Triton's pipeliner keeps num_stages - 1 iterations of B and A in flight
  (cp.async); the scale bytes, which it does not stage, are loaded one iteration ahead into registers.
- quantizes the A slice it needs (its rows, this iteration's K), bit-exact with
  `mxlib.spec.quant.quantize_mxfp4`: the scale from amax's fp32 bits, then the element rounding on the
  grid step s (0.5 below 2, 1 below 4, else 2): "rne" as ``(q + 1.5*2**23*s) - 1.5*2**23*s`` (the
  fp32 add rounds to a multiple of s, ties to the even multiple, which is the even code),
  "ties_away" as ``floor(|q|/s + 1/2) * s``. The dequantized value r * 2**e has two significant
  bits, so it is exact in bf16. A block holding NaN or Inf gets NaN (mxlib's rule: scale 255).
- multiplies with ``tl.dot_scaled(A values bf16, B fp4 + E8M0 scales)``. On sm_90 Triton swaps the
  operands itself (N fills the wgmma's 64-row side while M = 4..256 is its N side), decodes the
  nibbles with byte permutes, applies the scale in bf16 (exact) and accumulates in fp32. Products of
  two-significant-bit values are exact, so only the fp32 summation order differs from the reference,
  and dequantized values past 2**128 are Inf in bf16 as in the reference's rule (mxlib.spec.reference).
  Triton before 3.9 reads B's scale byte 0 as 0 instead of 2**-127 there (`zero_scale_operands`).
  Triton's interpreter passes a bf16 dot_scaled operand through fp16, which turns |A| above 6.5e4
  into Inf and flushes small values, so there (`A_E4M3`, set for an interpreted kernel) A goes in as
  its E2M1 grid values (exact in e4m3) with its E8M0 scales, which the interpreter applies in fp32:
  the same products, exact on the CPU too. On a GPU the bf16 operand stays, the faster of the two
  there (KERNEL_NOTES.md, "The fused path's A operand on a GPU: bf16, not e4m3").
- writes C rounded to bf16 by integer arithmetic on the fp32 bits (`mx_f32_to_bf16`), exact on
  every backend (the interpreter's own cast flushes bf16 subnormals).

With `Config.a_once = 1` A is quantized once per launch instead of once per program: 16-row units of
each K iteration are quantized by the programs of the other N tiles and shared through a per-call
workspace and flags; a program that waits too long for a unit quantizes its own range instead (the
same bits); under `A_E4M3` the workspace holds the grid values and a second one the scale bytes. It
needs every program of the launch resident at once to pay off (the default config uses it only for
grids of at most two programs per SM), never to be correct (KERNEL_NOTES.md, "The fused path's
default config and a_once").

Split-K is reduced in the same launch, deterministically, through `mxlib.kernels.arrival`: every
program of a tile stores its fp32 partial into its slot of a per-call workspace and arrives at the
tile's launch-generation counter; the last arrival sums the slots in split order 0, 1, ... and writes
C. a_once's flags carry the launch's generation and its launch-done count is an arrival counter of the
same kind, so a launch that stopped early (Ctrl-C in the interpreter) cannot poison a later call. On
AMD every wave releases its own stores (partials, a_once's units) before the program publishes (that
module says why); the CUDA kernel is unchanged by it. The workspaces are allocated per call
(torch.empty: no kernel launch, served by the caching allocator).

Two probe modes of `_fused_launch`, off in every mxlib call, serve scripts/probe_fused.py: A handed
over already quantized (to measure what quantizing it costs) and a per-program timeline.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
import triton
import triton.language as tl

from ..spec.devices import compute_units
from ..spec.ints import gemm_shape
from .arrival import (MAX_ARRIVALS, mx_arrival_open, mx_arrive, mx_counter_buffer, mx_next_generation,
                      mx_release_own_stores, mx_release_threads)
from .common import (MAX_UNROLLED_SPLIT_K, mx_bits_f32, mx_block_exponent, mx_check_config, mx_check_gemm_args,
                     mx_check_int32, mx_e8m0_to_f32, mx_f32_to_bf16, mx_int, mx_interpreting, mx_launch_device,
                     mx_output, mx_resolve_config, mx_shuffled_scale_col, mx_shuffled_scale_row, mx_tiles,
                     mx_zero_scale_operands)

# How many times a program polls A's flags before it quantizes its slices itself (a_once=1). Each
# poll is one L2 round trip (well under 1 us); producers that are resident publish within a few us.
A_ONCE_POLLS = 256


@dataclass(frozen=True)
class FusedConfig:
    """One launch's tiling. block_m: rows of A per program (>= 16); block_n: rows of B per program
    (>= 64, one warpgroup's MMA rows); block_k: K elements per loop iteration (>= 64, so an iteration
    covers whole 512-byte tiles of the shuffle); split_k: programs along K per tile (at most
    MAX_UNROLLED_SPLIT_K; splits past the K iterations get empty ranges and add zeros); a_once: 1 to
    quantize A once per launch (each 16-row unit by one program, shared through a workspace) instead
    of once per program, for launches whose programs are all resident at once (see the kernel)."""
    block_m: int = 16
    block_n: int = 128
    block_k: int = 128
    split_k: int = 1
    num_warps: int = 4
    num_stages: int = 3
    a_once: int = 0

    def __post_init__(self):
        mx_check_config(self, "fused", split_k=True, max_split_k=MAX_UNROLLED_SPLIT_K)
        if not mx_int(self.a_once) or self.a_once not in (0, 1):
            raise ValueError(f"fused Config.a_once must be 0 or 1, got {self.a_once!r}")
        if self.block_k < 64:
            raise ValueError(f"fused Config.block_k must be a power of two >= 64, got {self.block_k!r}")
        if self.block_n < 64:
            raise ValueError(f"fused Config.block_n must be a power of two >= 64 (one warpgroup's MMA rows), "
                             f"got {self.block_n!r}")


def fused_default_config(m: int, n: int, k: int, device=None) -> FusedConfig:
    """A heuristic for shapes without a tuned row, the shape of the H200's winners (KERNEL_NOTES.md, "The fused
    path's default config and a_once"), with `units` the SMs or CUs of `device` (`mxlib.spec.devices.compute_units`:
    None is the current GPU; the H200's count without a GPU): up to M = 32, one M tile, 64-row N tiles, 4 warps,
    split_k aiming at two programs per unit and A quantized per program; above M = 32, M tiles of up to 128 rows,
    64-row N tiles, 4 warps, split_k aiming at one program per unit, and A quantized once per launch when the grid
    is at most two programs per unit (its programs wait on each other, so all of them must be resident). BLOCK_K =
    128 (256 spills). split_k stays within MAX_UNROLLED_SPLIT_K. The M >= 64 winners changed their tiles and a_once
    in one step, so what each gives alone is not measured at those tiles (the same section of KERNEL_NOTES.md)."""
    m, n, k = gemm_shape(m, n, k)
    units = compute_units(device)
    small = m <= 32
    block_m = max(16, triton.next_power_of_2(m)) if small else min(128, triton.next_power_of_2(m))
    tiles = triton.cdiv(m, block_m) * triton.cdiv(n, 64)
    split = max(1, min(triton.cdiv(k, 128), round((2 if small else 1) * units / tiles), MAX_UNROLLED_SPLIT_K))
    a_once = int(not small and tiles * split <= 2 * units)
    return FusedConfig(block_m=block_m, block_n=64, block_k=128, split_k=split, num_warps=4, num_stages=3,
                       a_once=a_once)


def fused_zero_scale_operands(device) -> tuple:
    """("B",) where `tl.dot_scaled` reads B's E8M0 scale byte 0 as 0 on `device` (Triton before 3.9 on
    NVIDIA), so this path counts B's blocks with scale byte 0 as zero there; else (). A goes in as bf16
    values, with no scale. The rule's documented departure: mxlib.spec.reference."""
    return mx_zero_scale_operands(device, ("B",))


def fused_grid(m: int, n: int, k: int, config: FusedConfig) -> int:
    """Programs in the one launch: M tiles x N tiles x split_k."""
    m, n, k = gemm_shape(m, n, k, empty_m=True)
    return mx_tiles(m, n, config) * config.split_k


@triton.jit
def _fused_quantize(u, TIES_AWAY: tl.constexpr):
    """(R, C) fp32 bit patterns (int32) -> quantize_mxfp4 of those values, blocks of 32 along C:
    the signed E2M1 grid values (R, C/32, 32) fp32 and the E8M0 scale bytes (R, C/32) int32.

    Bit-exact with mxlib.spec.quant but for the sign of a zero under "rne" (spec code 8, -0, comes out
    +0: the magic-number add drops it; C cannot show it, since every fp32 sum of products starts at +0
    and +0 + -0 is +0, so no instruction is spent on it): the scale from amax's fp32 bits (round up at
    mantissa >= 0.75, e = clamp(floor(log2) - 2, -127, 127)), q = x * 2**-e in fp32, then the grid rounding. The grid
    step s is 2**(max(E, 0) - 1) for q's exponent E, so "rne" is (q + 1.5*2**23*s) - 1.5*2**23*s:
    the add rounds to a multiple of s, ties to the even multiple, which is the even code. Saturation
    at 6 comes free: the scale rule gives |q| < 7 (amax < 1.75 * 2**(e+2) unless rounded up), and
    both rules round [6, 7) to 6. A block with NaN or Inf gets scale byte 255 (mxlib's rule).
    """
    R: tl.constexpr = u.shape[0]
    C: tl.constexpr = u.shape[1]
    ub = tl.reshape(u, (R, C // 32, 32))
    # amax on magnitude bits: non-negative floats order like their bits, and NaN/Inf bits are the largest.
    amax = tl.max(ub & 0x7FFFFFFF, axis=2)
    e = mx_block_exponent(amax)
    inv = mx_e8m0_to_f32(127 - e)  # 2**-e, exact (2**-127 a subnormal)
    q = ub.to(tl.float32, bitcast=True) * inv[:, :, None]
    # fp32 bits of 2**max(E, 0), the grid step s times 2; C = 1.5 * 2**22 * that.
    two_s = tl.maximum(q.to(tl.int32, bitcast=True) & 0x7F800000, 0x3F800000)
    if TIES_AWAY:
        s_step = (two_s - 0x800000).to(tl.float32, bitcast=True)
        inv_s = (0x7F800000 - two_s).to(tl.float32, bitcast=True)  # 1/s = 2**(1 - max(E, 0))
        r = tl.floor(tl.abs(q) * inv_s + 0.5) * s_step
        r = tl.where(q < 0, -r, r)
    else:
        magic = (two_s + 0x0B400000).to(tl.float32, bitcast=True)
        r = (q + magic) - magic
    return r, tl.where(amax >= 0x7F800000, 255, e + 127)


@triton.jit
def _fused_dequantize(r, sbyte):
    """(R, G, 32) grid values and (R, G) scale bytes -> (R, G*32) fp32 r * 2**(s-127), exact (two
    significant bits, so bf16 holds it too); byte 0 is 2**-127, byte 255 NaN (mxlib.spec.formats)."""
    return tl.reshape(r * mx_e8m0_to_f32(sbyte)[:, :, None], (r.shape[0], r.shape[1] * r.shape[2]))


@triton.jit
def _fused_b_bytes(b_ptr, b_off, rn, N, it, Kb, BLOCK_K: tl.constexpr, EVEN_K: tl.constexpr):
    """Iteration `it`'s B bytes (BLOCK_K/2, BLOCK_N), K-major as dot_scaled's rhs, read in place;
    rows n >= N and K past the end are masked (code 0)."""
    mask = (rn < N)[None, :]
    if not EVEN_K:
        mask = mask & ((it * (BLOCK_K // 2) + tl.arange(0, BLOCK_K // 2)) < Kb)[:, None]
    return tl.load(b_ptr + b_off + it * (BLOCK_K * 8), mask=mask, other=0)


@triton.jit
def _fused_b_scales(s_ptr, s_row, rn, n_lim, it, Kb, BLOCK_K: tl.constexpr, EVEN_K: tl.constexpr):
    """Iteration `it`'s B scale bytes (BLOCK_N, BLOCK_K/32), read in place; rows n >= n_lim (n_lim = 0:
    a dead iteration) and K past the end are masked (byte 127)."""
    g = it * (BLOCK_K // 32) + tl.arange(0, BLOCK_K // 32)
    mask = (rn < n_lim)[:, None]
    if not EVEN_K:
        mask = mask & ((g * 16) < Kb)[None, :]
    return tl.load(s_ptr + s_row[:, None] + mx_shuffled_scale_col(g)[None, :], mask=mask, other=127)


@triton.jit
def _fused_clocks(dep):
    """(%globaltimer ns, %clock64 cycles) read once `dep` (a scalar) is computed: TIMELINE mode only."""
    return tl.inline_asm_elementwise("mov.u64 $0, %globaltimer;\n mov.u64 $1, %clock64;", "=l,=l,r", [dep],
                                     dtype=(tl.int64, tl.int64), is_pure=False, pack=1)


@triton.jit
def _fused_publish_a(a_ptr, aq_ptr, aqs_ptr, row0, it_lo, M, K, stride_am, stride_ak, u_first, n_units, u_step,
                     BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr, EVEN_K: tl.constexpr, TIES_AWAY: tl.constexpr,
                     A_E4M3: tl.constexpr):
    """Quantize A's units u_first, u_first + u_step, ... < n_units and store them at the same places
    of aq (rows x K bf16, contiguous): their values, dequant(quantize_mxfp4); with A_E4M3 their
    E2M1 grid values instead, and the scale bytes into aqs (rows x K/32). Unit u is the 16 rows
    row0 + 16 * (u % G) of K iteration it_lo + u // G, G = BLOCK_M // 16."""
    G: tl.constexpr = BLOCK_M // 16
    kk = tl.arange(0, BLOCK_K)
    for u in range(u_first, n_units, u_step):
        rows = row0 + (u % G) * 16 + tl.arange(0, 16)
        cols = (it_lo + u // G) * BLOCK_K + kk
        a_mask = (rows < M)[:, None]
        if not EVEN_K:
            a_mask = a_mask & (cols < K)[None, :]
        x = tl.load(a_ptr + rows[:, None] * stride_am + cols[None, :] * stride_ak, mask=a_mask, other=0.0)
        r, a_s = _fused_quantize(mx_bits_f32(x), TIES_AWAY)
        if A_E4M3:
            v = tl.reshape(r, (16, BLOCK_K))
            g = (it_lo + u // G) * (BLOCK_K // 32) + tl.arange(0, BLOCK_K // 32)
            tl.store(aqs_ptr + rows[:, None] * (K // 32) + g[None, :], a_s.to(tl.uint8), mask=(g < K // 32)[None, :])
        else:
            v = _fused_dequantize(r, a_s)
        tl.store(aq_ptr + rows[:, None] * K + cols[None, :], v.to(tl.bfloat16), mask=(cols < K)[None, :])  # exact


# GEN changes every call: not specialized (== 1, divisibility), so one compile serves every call.
@triton.jit(do_not_specialize=["GEN"])
def _fused_gemm_kernel(a_ptr, b_ptr, s_ptr, c_ptr, ws_ptr, cnt_ptr, aq_ptr, aqs_ptr, tl_ptr,
                       M, N, K, stride_am, stride_ak, stride_cm, S_COLS, SPIN, GEN,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                       SPLIT_K: tl.constexpr, EVEN_K: tl.constexpr, TIES_AWAY: tl.constexpr,
                       A_ONCE: tl.constexpr, MAX_ITERS: tl.constexpr, A_E4M3: tl.constexpr,
                       A_QUANTIZED: tl.constexpr, TIMELINE: tl.constexpr, RELEASE_THREADS: tl.constexpr):
    pid = tl.program_id(0)
    if TIMELINE:
        t0, c0 = _fused_clocks(pid)
    split = pid % SPLIT_K
    tile = pid // SPLIT_K
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    pid_m = tile % num_m
    pid_n = tile // num_m
    Kb = K // 2
    iters = tl.cdiv(K, BLOCK_K)
    it_lo = split * iters // SPLIT_K
    it_hi = (split + 1) * iters // SPLIT_K
    # The counters (mxlib.kernels.arrival): split-K arrivals, one per tile, then a_once's launch-done
    # count and its unit flags. Opened now, so that the atomic max overlaps the program's work.
    done = cnt_ptr + num_m * num_n
    if SPLIT_K > 1:
        mx_arrival_open(cnt_ptr + tile, GEN)
    if A_ONCE:
        mx_arrival_open(done, GEN)

    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    jb = tl.arange(0, BLOCK_K // 2)
    # B_shuffle's byte offsets (mx_shuffled_weight_col / _row) written out here: Triton 3.6 on sm_90 gave
    # wrong products when the contiguity hints wrapped those helpers' results (KERNEL_NOTES.md, "Triton
    # on sm_90 and in the interpreter").
    b_col = tl.max_contiguous(tl.multiple_of((jb // 32) * 512 + ((jb % 32) // 16) * 256 + jb % 16, 16), 16)
    b_off = b_col[:, None] + ((rn // 16) * (16 * Kb) + (rn % 16) * 16)[None, :]
    s_row = mx_shuffled_scale_row(rn, S_COLS)
    kk = tl.arange(0, BLOCK_K)
    a_base = a_ptr + rm[:, None] * stride_am + kk[None, :] * stride_ak
    if A_ONCE:
        # A quantized once per launch, in units of 16 rows x BLOCK_K: unit u of a program's range
        # (K iteration it_lo + u // G, rows 16 * (u % G) of its M tile) is quantized into aq by the
        # program of the same M tile and split with pid_n = u % num_n, which then stamps the unit's
        # flag with the launch's generation (release). Every program waits until the flags of its whole
        # range carry the generation (acquire, at most SPIN polls) and multiplies aq's values. A program
        # whose wait runs out quantizes its range itself (the same bits, so rewriting a unit another
        # program also writes is harmless): the result never depends on timing.
        G: tl.constexpr = BLOCK_M // 16
        n_units = (it_hi - it_lo) * G
        flags = done + 1 + pid_m * iters * G + it_lo * G
        # Words of aq that every program of this M tile and split writes with the same bits: where each
        # thread releases its own stores (AMD) before the flags or the barrier publish them.
        own = aq_ptr + pid_m * BLOCK_M * K + it_lo * BLOCK_K
        _fused_publish_a(a_ptr, aq_ptr, aqs_ptr, pid_m * BLOCK_M, it_lo, M, K, stride_am, stride_ak, pid_n, n_units,
                         num_n, BLOCK_M, BLOCK_K, EVEN_K, TIES_AWAY, A_E4M3)
        if RELEASE_THREADS > 0:
            mx_release_own_stores(own, 32, RELEASE_THREADS)
        tl.debug_barrier()
        for u in range(pid_n, n_units, num_n):
            tl.atomic_xchg(flags + u, GEN, sem="release", scope="gpu")
        f_off = tl.arange(0, MAX_ITERS * G)
        f_mask = f_off < n_units
        stamps = tl.atomic_add(flags + f_off, 0, mask=f_mask, sem="acquire", scope="gpu")
        ready = tl.min(tl.where(f_mask, (stamps == GEN).to(tl.int32), 1))
        polls = 0
        while (ready == 0) & (polls < SPIN):
            stamps = tl.atomic_add(flags + f_off, 0, mask=f_mask, sem="acquire", scope="gpu")
            ready = tl.min(tl.where(f_mask, (stamps == GEN).to(tl.int32), 1))
            polls += 1
        if ready == 0:
            _fused_publish_a(a_ptr, aq_ptr, aqs_ptr, pid_m * BLOCK_M, it_lo, M, K, stride_am, stride_ak, 0, n_units, 1,
                             BLOCK_M, BLOCK_K, EVEN_K, TIES_AWAY, A_E4M3)
            if RELEASE_THREADS > 0:
                mx_release_own_stores(own, 32, RELEASE_THREADS)
            tl.debug_barrier()
        a_base = aq_ptr + rm[:, None] * K + kk[None, :]
        as_base = aqs_ptr + rm[:, None] * (K // 32) + tl.arange(0, BLOCK_K // 32)[None, :]

    # Triton's pipeliner stages B and A through shared memory (cp.async) but not the scale bytes, so a
    # load used in the same iteration would expose a DRAM latency in every iteration: they are
    # prefetched one iteration ahead.
    # A dead iteration's mask is a zero row bound (the interpreter turns tensor & scalar bool into int32).
    s_cur = _fused_b_scales(s_ptr, s_row, rn, tl.where(it_lo < it_hi, N, 0), it_lo, Kb, BLOCK_K, EVEN_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for it in range(it_lo, it_hi):
        s_nxt = _fused_b_scales(s_ptr, s_row, rn, tl.where(it + 1 < it_hi, N, 0), it + 1, Kb, BLOCK_K, EVEN_K)
        a_mask = (rm < M)[:, None]
        if not EVEN_K:
            a_mask = a_mask & ((it * BLOCK_K + kk) < K)[None, :]
        if A_ONCE:
            a_v = tl.load(a_base + it * BLOCK_K, mask=a_mask, other=0.0, cache_modifier=".cg")
            if A_E4M3:
                g_mask = (rm < M)[:, None]
                if not EVEN_K:
                    g_mask = g_mask & ((it * (BLOCK_K // 32) + tl.arange(0, BLOCK_K // 32)) < K // 32)[None, :]
                a_s = tl.load(as_base + it * (BLOCK_K // 32), mask=g_mask, other=127, cache_modifier=".cg")
        elif A_QUANTIZED:
            a_v = tl.load(a_base + it * BLOCK_K * stride_ak, mask=a_mask, other=0.0)
        else:
            x = tl.load(a_base + it * BLOCK_K * stride_ak, mask=a_mask, other=0.0)
            r, a_s = _fused_quantize(mx_bits_f32(x), TIES_AWAY)
            if A_E4M3:
                a_v = tl.reshape(r, (BLOCK_M, BLOCK_K))
            else:
                a_v = _fused_dequantize(r, a_s).to(tl.bfloat16)
        b = _fused_b_bytes(b_ptr, b_off, rn, N, it, Kb, BLOCK_K, EVEN_K)
        if A_E4M3 and not A_QUANTIZED:
            # A as its E2M1 grid values (exact in e4m3) and E8M0 scales (see the module docstring).
            acc = tl.dot_scaled(a_v.to(tl.float8e4nv), a_s.to(tl.uint8), "e4m3", b, s_cur, "e2m1", acc)
        else:
            acc = tl.dot_scaled(a_v, None, "bf16", b, s_cur, "e2m1", acc)
        s_cur = s_nxt

    if TIMELINE:
        t1, c1 = _fused_clocks(tl.max(acc).to(tl.int32, bitcast=True))
    c_off = rm[:, None] * stride_cm + rn[None, :]
    c_mask = (rm < M)[:, None] & (rn < N)[None, :]
    last = tl.full((), 1, tl.int32)
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
        is_last = mx_arrive(cnt_ptr + tile, GEN, SPLIT_K)
        last = is_last.to(tl.int32)
        if is_last:
            # Unrolled, so that all SPLIT_K loads are in flight at once (a loop waits for each in turn).
            total = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for s in tl.static_range(SPLIT_K):
                total += tl.load(ws_ptr + (tile * SPLIT_K + s) * (BLOCK_M * BLOCK_N) + w_off, cache_modifier=".cg")
            tl.store(c_ptr + c_off, mx_f32_to_bf16(total), mask=c_mask)
    if A_ONCE:
        # The launch's last arrival (every other program is past its flag reads) lowers all flags, so
        # that a replayed CUDA graph, whose generation is the captured one, starts clean.
        if mx_arrive(done, GEN, tl.num_programs(0)):
            n_flags = num_m * iters * (BLOCK_M // 16)
            for f in range(0, n_flags, 256):
                z_off = f + tl.arange(0, 256)
                tl.store(done + 1 + z_off, tl.zeros((256,), dtype=tl.int64), mask=z_off < n_flags)
    if TIMELINE:
        t2, c2 = _fused_clocks(last)
        smid = tl.inline_asm_elementwise("mov.u32 $0, %smid;", "=r", [], dtype=tl.int32, is_pure=False, pack=1)
        rec = tl_ptr + pid * 8
        tl.store(rec + 0, smid.to(tl.int64))
        tl.store(rec + 1, t0)
        tl.store(rec + 2, t1)
        tl.store(rec + 3, t2)
        tl.store(rec + 4, c0)
        tl.store(rec + 5, c1)
        tl.store(rec + 6, c2)
        tl.store(rec + 7, last.to(tl.int64) + 2 * (it_hi - it_lo))


def fused_gemm(a: torch.Tensor, b_shuffle: torch.Tensor, b_scale_sh: torch.Tensor, *,
               config: FusedConfig | None = None, rounding: str = "rne",
               out: torch.Tensor | None = None) -> torch.Tensor:
    """bf16 (M, N) = dequant(quantize_mxfp4(a, rounding)) @ dequant(B)^T in one kernel launch.

    `out`, if given, is written and returned; otherwise each call returns a fresh tensor."""
    m, n, k = mx_check_gemm_args(a, b_shuffle, b_scale_sh, out, rounding)
    # the config is checked first, as for any M (an empty A needs none, so any shape's serves it)
    cfg = mx_resolve_config("fused", config, FusedConfig, fused_default_config, max(m, 1), n, k, a.device)
    if m == 0:
        return mx_output(m, n, a.device, out)  # an empty A gives an empty C: nothing to launch
    c = mx_output(m, n, a.device, out)
    _fused_launch(a, b_shuffle, b_scale_sh, cfg, rounding, c)
    return c


def fused_check_launch(m: int, n: int, k: int, cfg: FusedConfig, a_once: bool | None = None) -> None:
    """A launch's rules that depend on the shape, checked before its workspaces are allocated: the split-K
    workspace and a_once's quantized-A workspace within int32 offsets, a_once's programs within one
    arrival counter, the flags a program watches (fused_a_once_window) within Triton's largest block.
    `a_once` (default `cfg.a_once`) is whether the launch quantizes A once: not when A arrives quantized
    (a probe mode)."""
    a_once = bool(cfg.a_once) if a_once is None else a_once
    programs = mx_tiles(m, n, cfg) * cfg.split_k
    if cfg.split_k > 1:
        mx_check_int32(programs * cfg.block_m * cfg.block_n,
                       "the split-K workspace (M tiles * N tiles * split_k * block_m * block_n elements)")
    if a_once:
        if programs > MAX_ARRIVALS:
            raise ValueError(f"fused Config.a_once needs at most {MAX_ARRIVALS} programs, this launch has {programs}")
        mx_check_int32(triton.cdiv(m, cfg.block_m) * cfg.block_m * k,
                       "a_once's workspace (M rounded up to block_m, times K, elements)")
        flags = fused_a_once_window(k, cfg) * (cfg.block_m // 16)
        if flags > tl.core.TRITON_MAX_TENSOR_NUMEL:
            raise ValueError(f"fused Config.a_once watches block_m / 16 flags per K iteration of a program's range, "
                             f"rounded up to a power of two, at most {tl.core.TRITON_MAX_TENSOR_NUMEL} (Triton's "
                             f"largest block); K={k} with block_k={cfg.block_k}, split_k={cfg.split_k} and "
                             f"block_m={cfg.block_m} needs {flags}: raise split_k or block_k, or set a_once=0")


def fused_a_once_window(k: int, cfg: FusedConfig) -> int:
    """The K iterations whose flags an a_once program waits on in one block (the kernel's MAX_ITERS): its
    longest K range, cdiv(K iterations, split_k), rounded up to a power of two (Triton's block shapes)."""
    return triton.next_power_of_2(triton.cdiv(triton.cdiv(k, cfg.block_k), cfg.split_k))


def _fused_launch(a, b_shuffle, b_scale_sh, cfg: FusedConfig, rounding: str, c: torch.Tensor, *,
                  a_quantized: bool = False, timeline: torch.Tensor | None = None):
    """The one launch, writing C into `c`; returns Triton's handle of the compiled kernel.

    Probe modes (scripts/probe_fused.py), off in every mxlib call: `a_quantized` means `a` already
    holds dequant(quantize_mxfp4(A)) as bf16 and is multiplied as it is (A's quantization left out);
    `timeline`, an int64 (programs, 8) tensor, receives per program [SM id, %globaltimer at start,
    after the K loop, at the end, %clock64 at the same three points, last-arrival flag + 2 * K
    iterations]."""
    m, k = a.shape
    n = b_shuffle.shape[0]
    a_once = bool(cfg.a_once) and not a_quantized
    fused_check_launch(m, n, k, cfg, a_once)
    num_m = triton.cdiv(m, cfg.block_m)
    tiles = mx_tiles(m, n, cfg)
    iters = triton.cdiv(k, cfg.block_k)
    counted = cfg.split_k > 1 or a_once
    # The counters: split-K arrivals (tiles), then a_once's launch-done counter and unit flags.
    counters = tiles + (1 + num_m * iters * (cfg.block_m // 16) if a_once else 0)
    cnt = mx_counter_buffer(a.device, counters) if counted else c  # c: unused
    ws = (torch.empty(tiles * cfg.split_k * cfg.block_n * cfg.block_m, dtype=torch.float32, device=a.device)
          if cfg.split_k > 1 else c)  # c: unused, the kernel stores straight into C
    aq = torch.empty((num_m * cfg.block_m, k), dtype=torch.bfloat16, device=a.device) if a_once else c
    a_e4m3 = mx_interpreting()
    aqs = torch.empty((num_m * cfg.block_m, k // 32), dtype=torch.uint8, device=a.device) if a_once and a_e4m3 else c
    with mx_launch_device(a.device):
        return _fused_gemm_kernel[(tiles * cfg.split_k,)](
            a, b_shuffle.view(torch.uint8), b_scale_sh.view(torch.uint8), c, ws, cnt, aq, aqs,
            timeline if timeline is not None else c,
            m, n, k, a.stride(0), a.stride(1), c.stride(0), b_scale_sh.shape[1], A_ONCE_POLLS, mx_next_generation(),
            BLOCK_M=cfg.block_m, BLOCK_N=cfg.block_n, BLOCK_K=cfg.block_k, SPLIT_K=cfg.split_k,
            EVEN_K=k % cfg.block_k == 0, TIES_AWAY=rounding == "ties_away",
            A_ONCE=a_once, MAX_ITERS=fused_a_once_window(k, cfg), A_E4M3=a_e4m3,
            A_QUANTIZED=a_quantized, TIMELINE=timeline is not None,
            RELEASE_THREADS=mx_release_threads(cfg.num_warps) if counted else 0,
            num_warps=cfg.num_warps, num_stages=cfg.num_stages)


# The path contract (mxlib.runtime.paths): every path module exposes these four names, and this one
# zero_scale_operands.
Config = FusedConfig
default_config = fused_default_config
grid = fused_grid
gemm = fused_gemm
zero_scale_operands = fused_zero_scale_operands
