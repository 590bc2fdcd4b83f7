"""Path "fused": the whole MXFP4 GEMM in ONE launch on NVIDIA Hopper (sm_90).

``C = dequant(quantize_mxfp4(A, rounding)) @ dequant(B_shuffle, B_scale_sh)^T`` as bf16 (M, N).

Why one launch: contest-style timing (L2 flushed, CUDA events around one call) charges an empty
kernel about 3 us on the H200 (2.69 us in scripts/tune_fused.py's runs, 3.46 in NOTES §6), more
than the bandwidth floor of every benchmark shape, so a separate quantization or reduction kernel
costs more than it could save. Measured times and what limits them: KERNEL_NOTES.md.

How a program (CTA) works. Program p owns an N tile of BLOCK_N rows of B, an M tile of BLOCK_M rows
of A and a contiguous range of K iterations (split-K). Each iteration:

- loads B in place: in the (16,16) shuffle each 16-byte run is one row's 32 fp4 values (one scale
  block), so an iteration's bytes are 16-byte loads at ``col_off(j) + row_off(n)``, one constant
  further on each iteration; the scales come in place from e8m0_shuffle's layout. Triton's
  pipeliner keeps num_stages - 1 iterations of B and A in flight (cp.async); the scale bytes, which
  it does not stage, are loaded one iteration ahead into registers.
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
  Triton's interpreter passes a bf16 dot_scaled operand through fp16, which turns |A| above 6.5e4
  into Inf and flushes small values, so there (`A_E4M3`, set for an interpreted kernel) A goes in as
  its E2M1 grid values (exact in e4m3) with its E8M0 scales, which the interpreter applies in fp32:
  the same products, exact on the CPU too. On a GPU the bf16 operand stays: an e4m3 A measured
  1.03-2.3x slower on the H200 (rung 1's side rung, data/results/h200/fused_tuning.csv).
- writes C rounded to bf16 by integer arithmetic on the fp32 bits (`mx_f32_to_bf16`), exact on
  every backend (the interpreter's own cast flushes bf16 subnormals).

With `Config.a_once = 1` (rung 3 in KERNEL_NOTES.md; the H200 table's choice from M = 64) A is
quantized once per launch instead of once per program: 16-row units of each K iteration are
quantized by the programs of the other N tiles and shared through a per-call workspace and flags;
a program that waits too long for a unit quantizes its own range instead (the same bits); under
`A_E4M3` the workspace holds the grid values and a second one the scale bytes. It needs
every program of the launch resident at once to pay off (the default config uses it only for grids
of at most two programs per SM), never to be correct.

Split-K is reduced in the same launch, deterministically: every program of a tile stores its fp32
partial into its slot of a workspace, then bumps the tile's arrival counter (release after a CTA
barrier); the program that arrives last (acquire) sums the slots in split order 0, 1, ..., writes C
and sets the counter back to 0. The result does not depend on which program finished first.
Counters (and a_once's launch-done counter and flags) live in zeroed int32 buffers kept per device
and never keyed on an input; every launch that runs to its end leaves what it used at 0, so the
next launch starts clean. A launch takes a buffer from the device's free list and puts it back once
the launch call has returned; a launch call that raises instead (an error, or Ctrl-C in the
interpreter, which runs the programs one after another in Python) retires its buffer: it is never
handed out again, so counters a dead launch left set cannot reach a later call. On a GPU a launch
that was enqueued either runs to its end or leaves the CUDA context unusable (KERNEL_NOTES.md,
"What a failed launch leaves behind"), so the launch call returning is the point where the buffer
is safe to reuse, and the cost is a list pop and push on the host: no extra kernel, no sync.
Launches on one CUDA queue run one after another, so they never share a counter in flight; two
launches running at the same time on different queues of one device could, so the path is for one
queue at a time (the contest's setting). The workspace is allocated per call (torch.empty: no
kernel launch, served by the caching allocator), as is a_once's workspace.

Two probe modes of `_fused_launch`, off in every mxlib call, serve scripts/probe_fused.py: A handed
over already quantized (to measure what quantizing it costs) and a per-program timeline.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
import triton
import triton.language as tl
from triton.runtime.interpreter import InterpretedFunction

from .common import mx_check_config, mx_check_gemm_args, mx_f32_to_bf16, mx_output

_FUSED_SMS = 132  # H200 multiprocessors
# How many times a program polls A's flags before it quantizes its slices itself (a_once=1). Each
# poll is one L2 round trip (well under 1 us); producers that are resident publish within a few us.
A_ONCE_POLLS = 256


@dataclass(frozen=True)
class FusedConfig:
    """One launch's tiling. block_m: rows of A per program (>= 16); block_n: rows of B per program
    (>= 64, one warpgroup's MMA rows); block_k: K elements per loop iteration (>= 64, so an iteration
    covers whole 512-byte tiles of the shuffle); split_k: programs along K per tile; a_once: 1 to
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
        mx_check_config(self, "fused", split_k=True)
        if self.a_once not in (0, 1):
            raise ValueError(f"fused Config.a_once must be 0 or 1, got {self.a_once!r}")
        if self.block_k < 64:
            raise ValueError(f"fused Config.block_k must be a power of two >= 64, got {self.block_k!r}")
        if self.block_n < 64:
            raise ValueError(f"fused Config.block_n must be a power of two >= 64 (one warpgroup's MMA rows), "
                             f"got {self.block_n!r}")


def fused_default_config(m: int, n: int, k: int) -> FusedConfig:
    """A heuristic for shapes without a tuned row, fitted to the H200 runs (KERNEL_NOTES.md): up to
    M = 32, one M tile, 64-row N tiles, 4 warps and split_k aiming at two waves of 132 programs, A
    quantized per program (rung 1's winners); from M = 64, M tiles of up to 128 rows, 64-row N tiles,
    4 warps, split_k aiming at one wave, and A quantized once per launch when the grid is at most two
    programs per SM (rung 3's winners). BLOCK_K = 128 (256 spills)."""
    small = m <= 32
    block_m = max(16, triton.next_power_of_2(m)) if small else min(128, triton.next_power_of_2(m))
    tiles = triton.cdiv(m, block_m) * triton.cdiv(n, 64)
    split = max(1, min(triton.cdiv(k, 128), round((2 if small else 1) * _FUSED_SMS / tiles)))
    a_once = int(not small and tiles * split <= 2 * _FUSED_SMS)
    return FusedConfig(block_m=block_m, block_n=64, block_k=128, split_k=split, num_warps=4, num_stages=3,
                       a_once=a_once)


def fused_grid(m: int, n: int, k: int, config: FusedConfig) -> int:
    """Programs in the one launch: M tiles x N tiles x split_k."""
    return triton.cdiv(m, config.block_m) * triton.cdiv(n, config.block_n) * config.split_k


@triton.jit
def _fused_quantize(u, TIES_AWAY: tl.constexpr):
    """(R, C) fp32 bit patterns (int32) -> quantize_mxfp4 of those values, blocks of 32 along C:
    the signed E2M1 grid values (R, C/32, 32) fp32 and the E8M0 scale bytes (R, C/32) int32.

    Bit-exact with mxlib.spec.quant: the scale from amax's fp32 bits (round up at mantissa >= 0.75,
    e = clamp(floor(log2) - 2, -127, 127)), q = x * 2**-e in fp32, then the grid rounding. The grid
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
    field = ((amax + 0x200000) >> 23) & 0xFF
    e = tl.where(field == 255, 127, tl.minimum(tl.maximum(field - 129, -127), 127))
    inv_b = 127 - e  # E8M0 byte of 2**-e; byte 0 is the subnormal 2**-127 (mxlib.spec.formats)
    inv = tl.where(inv_b == 0, 0x400000, inv_b << 23).to(tl.float32, bitcast=True)
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
    bits = tl.where(sbyte == 0, 0x400000, sbyte << 23)
    sc = tl.where(sbyte == 255, 0x7FC00000, bits).to(tl.float32, bitcast=True)
    return tl.reshape(r * sc[:, :, None], (r.shape[0], r.shape[1] * r.shape[2]))


@triton.jit
def _fused_bits(x):
    """A's elements as exact fp32 bit patterns (int32). bf16 is widened by moving its bits (the
    interpreter's bf16 -> fp32 cast loses subnormals, NOTES §5; on the GPU it is the same shift)."""
    if x.dtype == tl.bfloat16:
        return x.to(tl.int16, bitcast=True).to(tl.int32) << 16
    else:
        return x.to(tl.float32).to(tl.int32, bitcast=True)


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
    s_col = (g // 8) * 256 + (g % 4) * 64 + ((g % 8) // 4) * 2
    mask = (rn < n_lim)[:, None]
    if not EVEN_K:
        mask = mask & ((g * 16) < Kb)[None, :]
    return tl.load(s_ptr + s_row[:, None] + s_col[None, :], mask=mask, other=127)


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
        r, a_s = _fused_quantize(_fused_bits(x), TIES_AWAY)
        if A_E4M3:
            v = tl.reshape(r, (16, BLOCK_K))
            g = (it_lo + u // G) * (BLOCK_K // 32) + tl.arange(0, BLOCK_K // 32)
            tl.store(aqs_ptr + rows[:, None] * (K // 32) + g[None, :], a_s.to(tl.uint8), mask=(g < K // 32)[None, :])
        else:
            v = _fused_dequantize(r, a_s)
        tl.store(aq_ptr + rows[:, None] * K + cols[None, :], v.to(tl.bfloat16), mask=(cols < K)[None, :])  # exact


@triton.jit
def _fused_gemm_kernel(a_ptr, b_ptr, s_ptr, c_ptr, ws_ptr, cnt_ptr, aq_ptr, aqs_ptr, tl_ptr,
                       M, N, K, stride_am, stride_ak, stride_cm, S_COLS, SPIN,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                       SPLIT_K: tl.constexpr, EVEN_K: tl.constexpr, TIES_AWAY: tl.constexpr,
                       A_ONCE: tl.constexpr, MAX_ITERS: tl.constexpr, A_E4M3: tl.constexpr,
                       A_QUANTIZED: tl.constexpr, TIMELINE: tl.constexpr):
    pid = tl.program_id(0)
    if TIMELINE:
        t0, c0 = _fused_clocks(pid)
    split = pid % SPLIT_K
    tile = pid // SPLIT_K
    num_m = tl.cdiv(M, BLOCK_M)
    pid_m = tile % num_m
    pid_n = tile // num_m
    Kb = K // 2
    iters = tl.cdiv(K, BLOCK_K)
    it_lo = split * iters // SPLIT_K
    it_hi = (split + 1) * iters // SPLIT_K

    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    # Shuffled B: byte (n, kb) at (n//16)*16*Kb + (kb//32)*512 + ((kb%32)//16)*256 + (n%16)*16 + kb%16.
    jb = tl.arange(0, BLOCK_K // 2)
    b_col = tl.max_contiguous(tl.multiple_of((jb // 32) * 512 + ((jb % 32) // 16) * 256 + jb % 16, 16), 16)
    b_off = b_col[:, None] + ((rn // 16) * (16 * Kb) + (rn % 16) * 16)[None, :]
    # e8m0_shuffle: scale (n, g) at (n//32)*32*S_COLS + (g//8)*256 + (g%4)*64 + (n%16)*4 + ((g%8)//4)*2 + (n%32)//16.
    s_row = (rn // 32) * (32 * S_COLS) + (rn % 16) * 4 + (rn % 32) // 16
    kk = tl.arange(0, BLOCK_K)
    a_base = a_ptr + rm[:, None] * stride_am + kk[None, :] * stride_ak
    if A_ONCE:
        # A quantized once per launch, in units of 16 rows x BLOCK_K: unit u of a program's range
        # (K iteration it_lo + u // G, rows 16 * (u % G) of its M tile) is quantized into aq by the
        # program of the same M tile and split with pid_n = u % num_n, which then raises the unit's
        # flag (release). Every program waits for the flags of its whole range (acquire, at most SPIN
        # polls) and multiplies aq's values. A program whose wait runs out quantizes its range itself
        # (the same bits, so rewriting a unit another program also writes is harmless): the result
        # never depends on timing.
        G: tl.constexpr = BLOCK_M // 16
        num_n = tl.cdiv(N, BLOCK_N)
        n_units = (it_hi - it_lo) * G
        flags = cnt_ptr + tl.cdiv(M, BLOCK_M) * num_n + 1 + pid_m * iters * G + it_lo * G
        _fused_publish_a(a_ptr, aq_ptr, aqs_ptr, pid_m * BLOCK_M, it_lo, M, K, stride_am, stride_ak, pid_n, n_units,
                         num_n, BLOCK_M, BLOCK_K, EVEN_K, TIES_AWAY, A_E4M3)
        tl.debug_barrier()
        for u in range(pid_n, n_units, num_n):
            tl.atomic_xchg(flags + u, 1, sem="release", scope="gpu")
        f_off = tl.arange(0, MAX_ITERS * G)
        f_mask = f_off < n_units
        ready = tl.min(tl.where(f_mask, tl.atomic_add(flags + f_off, 0, mask=f_mask, sem="acquire", scope="gpu"), 1))
        polls = 0
        while (ready == 0) & (polls < SPIN):
            ready = tl.min(tl.where(f_mask, tl.atomic_add(flags + f_off, 0, mask=f_mask, sem="acquire",
                                                          scope="gpu"), 1))
            polls += 1
        if ready == 0:
            _fused_publish_a(a_ptr, aq_ptr, aqs_ptr, pid_m * BLOCK_M, it_lo, M, K, stride_am, stride_ak, 0, n_units, 1,
                             BLOCK_M, BLOCK_K, EVEN_K, TIES_AWAY, A_E4M3)
            tl.debug_barrier()
        a_base = aq_ptr + rm[:, None] * K + kk[None, :]
        as_base = aqs_ptr + rm[:, None] * (K // 32) + tl.arange(0, BLOCK_K // 32)[None, :]

    # Triton's pipeliner stages B and A through shared memory (cp.async) but not the scale bytes: in
    # Triton 3.6's sm_90 build they were plain loads used in the same iteration, and the measured
    # time grew by about a DRAM latency (1.8 us) per iteration. So they are prefetched one ahead.
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
            r, a_s = _fused_quantize(_fused_bits(x), TIES_AWAY)
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
        tl.store(ws_ptr + (tile * SPLIT_K + split) * (BLOCK_M * BLOCK_N) + w_off, acc)
        # Every thread's partial is stored before one thread publishes the arrival (release).
        tl.debug_barrier()
        arrived = tl.atomic_add(cnt_ptr + tile, 1, sem="acq_rel", scope="gpu")
        last = (arrived == SPLIT_K - 1).to(tl.int32)
        if arrived == SPLIT_K - 1:
            # Unrolled, so that all SPLIT_K loads are in flight at once (a loop waited for each in turn).
            total = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for s in tl.static_range(SPLIT_K):
                total += tl.load(ws_ptr + (tile * SPLIT_K + s) * (BLOCK_M * BLOCK_N) + w_off, cache_modifier=".cg")
            tl.store(c_ptr + c_off, mx_f32_to_bf16(total), mask=c_mask)
            tl.atomic_xchg(cnt_ptr + tile, 0, sem="relaxed", scope="gpu")
    if A_ONCE:
        # The last program of the launch to get here (every other one is past its flag reads)
        # lowers all flags again, so the next launch starts clean.
        done = cnt_ptr + tl.cdiv(M, BLOCK_M) * tl.cdiv(N, BLOCK_N)
        if tl.atomic_add(done, 1, sem="acq_rel", scope="gpu") == tl.num_programs(0) - 1:
            n_flags = tl.cdiv(M, BLOCK_M) * iters * (BLOCK_M // 16)
            for f in range(0, n_flags, 256):
                z_off = f + tl.arange(0, 256)
                tl.store(done + 1 + z_off, tl.zeros((256,), dtype=tl.int32), mask=z_off < n_flags)
            tl.atomic_xchg(done, 0, sem="relaxed", scope="gpu")
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


# Per device, the zeroed counter buffers free for the next launch; and every buffer a launch call
# did not return, never handed out again. Neither list frees a buffer: a captured CUDA graph may
# still point at any of them.
_fused_counters: dict = {}
_fused_retired: list = []


def _fused_counter_take(device: torch.device, count: int) -> torch.Tensor:
    """A zeroed int32 counter buffer of `device` with at least `count` counters, taken off the
    device's free list (or allocated zeroed); `_fused_launch` puts it back when its launch returns."""
    free = _fused_counters.setdefault((device.type, device.index), [])
    for i in range(len(free) - 1, -1, -1):
        if free[i].numel() >= count:
            return free.pop(i)
    return torch.zeros(max(count, 4096), dtype=torch.int32, device=device)


def fused_gemm(a: torch.Tensor, b_shuffle: torch.Tensor, b_scale_sh: torch.Tensor, *,
               config: FusedConfig | None = None, rounding: str = "rne",
               out: torch.Tensor | None = None) -> torch.Tensor:
    """bf16 (M, N) = dequant(quantize_mxfp4(a, rounding)) @ dequant(B)^T in one kernel launch.

    `out`, if given, is written and returned; otherwise each call returns a fresh tensor."""
    m, n, k = mx_check_gemm_args(a, b_shuffle, b_scale_sh, out, rounding)
    c = mx_output(m, n, a.device, out)
    if m == 0:
        return c  # an empty A gives an empty C: nothing to launch
    cfg = config if config is not None else fused_default_config(m, n, k)
    if not isinstance(cfg, FusedConfig):
        raise TypeError(f"config must be a gemm_fused.Config, got {type(cfg).__name__}")
    _fused_launch(a, b_shuffle, b_scale_sh, cfg, rounding, c)
    return c


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
    num_m = triton.cdiv(m, cfg.block_m)
    tiles = num_m * triton.cdiv(n, cfg.block_n)
    iters = triton.cdiv(k, cfg.block_k)
    a_once = bool(cfg.a_once) and not a_quantized
    # The counter buffer: split-K arrivals (tiles), then A_ONCE's launch-done counter and flags.
    counters = tiles + (1 + num_m * iters * (cfg.block_m // 16) if a_once else 0)
    ws = (torch.empty(tiles * cfg.split_k * cfg.block_n * cfg.block_m, dtype=torch.float32, device=a.device)
          if cfg.split_k > 1 else c)  # c: unused, the kernel stores straight into C
    aq = torch.empty((num_m * cfg.block_m, k), dtype=torch.bfloat16, device=a.device) if a_once else c
    a_e4m3 = isinstance(_fused_gemm_kernel, InterpretedFunction)
    aqs = torch.empty((num_m * cfg.block_m, k // 32), dtype=torch.uint8, device=a.device) if a_once and a_e4m3 else c

    def launch(cnt):
        return _fused_gemm_kernel[(tiles * cfg.split_k,)](
            a, b_shuffle.view(torch.uint8), b_scale_sh.view(torch.uint8), c, ws, cnt, aq, aqs,
            timeline if timeline is not None else c,
            m, n, k, a.stride(0), a.stride(1), c.stride(0), b_scale_sh.shape[1], A_ONCE_POLLS,
            BLOCK_M=cfg.block_m, BLOCK_N=cfg.block_n, BLOCK_K=cfg.block_k, SPLIT_K=cfg.split_k,
            EVEN_K=k % cfg.block_k == 0, TIES_AWAY=rounding == "ties_away",
            A_ONCE=a_once, MAX_ITERS=triton.next_power_of_2(triton.cdiv(iters, cfg.split_k)), A_E4M3=a_e4m3,
            A_QUANTIZED=a_quantized, TIMELINE=timeline is not None, num_warps=cfg.num_warps,
            num_stages=cfg.num_stages)

    if cfg.split_k == 1 and not a_once:
        return launch(c)  # no counters: c stands in for the unused pointer
    cnt = _fused_counter_take(a.device, counters)
    try:
        handle = launch(cnt)
    except BaseException:
        _fused_retired.append(cnt)  # the launch may have stopped with counters set
        raise
    _fused_counters[(a.device.type, a.device.index)].append(cnt)
    return handle


# The path contract (mxlib.runtime.paths): every path module exposes these four names.
Config = FusedConfig
default_config = fused_default_config
grid = fused_grid
gemm = fused_gemm
