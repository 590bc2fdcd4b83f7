"""Path "mma_sm90": the MXFP4 GEMM as CUDA C++ kernels for Hopper (sm_90a), on mma.sync and wgmma.

``C = dequant(quantize_mxfp4(A, rounding)) @ dequant(B_shuffle, B_scale_sh)^T`` as bf16 (M, N).

Why a CUDA kernel beside the Triton ones: on sm_90 `tl.dot_scaled` decodes B through shared memory
and byte permutes, a cost the Triton paths cannot avoid there (KERNEL_NOTES.md has the measurements).
Here B is decoded in registers by bit placement straight into the MMA's operand layout, A is quantized
on the GPU (once per CTA, or for the ring families, pipelined, wgmma and wspec, once per call by a first
launch; bit-exact with `mxlib.spec.quant`, both rounding rules), and the split-K partials of one output
tile are summed inside a thread block cluster through distributed shared memory: no counters, nothing
kept between calls. Five kernel families: "direct"
(`Config.warps_k` >= 1: B read straight into registers, each warp one 16-row tile of B and a share of
the K chunks), "staged" (warps_k = 0, num_stages = 1: B staged in shared memory by cp.async, each warp
several tiles and all chunks, A quantized by every CTA), "pipelined" (warps_k = 0, num_stages >= 2:
A quantized once per launch by a small kernel into a per-call buffer, then a ring of `num_stages`
one-chunk cp.async stages, launched as that kernel's programmatic dependent so that B's first loads
overlap A's quantization), "wgmma" (`Config.wgmma` = 1: the pipelined family's ring feeding Hopper's
warpgroup MMA, A's quantized chunk read by the tensor cores from shared memory, B decoded into the
register operand) and "wspec" (`Config.wgmma` = 2: the wgmma family's chunk work, warp-specialized:
one producer warp fills the ring by bulk copies completing on mbarriers, the consumer warpgroups only
decode and multiply); the H200 table picks per shape. The kernels, with the reasons for their
layout, are `csrc/mxfp4_mma_sm90.cu`.

Building: the source is compiled once with nvcc (``-gencode arch=compute_90a,code=sm_90a``) to a cubin,
cached under $MXLIB_CACHE_DIR (default ~/.cache/mxlib) by a hash of source, flags and the compiler's
`--version`, and loaded and
launched through the CUDA driver API (ctypes on libcuda), on the caller's current CUDA queue. On the host,
each call signature's launches (argument blocks and launch configs) are built once per thread and kept, up
to `_MMA_CALLS_MAX` signatures (`_mma_call`); a call writes only its tensors' addresses and queue into them. nvcc is
looked up in $MXLIB_NVCC, $CUDA_HOME/bin, PATH, /usr/local/cuda/bin and the PyPI wheel
nvidia-cuda-nvcc. `available(device)` says, in one line, whether the path can run and why not; the
dispatcher then keeps the Triton path "fused".

Contract (mxlib.runtime.paths): `gemm`, `Config`, `default_config`, `grid`, plus `available`. Inputs
as for every path (`mx_check_gemm_args`), with A in bfloat16 on a CUDA device of compute
capability 9.0.
"""
from __future__ import annotations

import contextlib
import ctypes
import functools
import hashlib
import os
import shutil
import signal
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import torch

from ..spec.devices import UNIT_LIMITS, compute_units
from ..spec.ints import cdiv, gemm_shape
from ..spec.quant import ROUNDINGS
from ..spec.validate import choice
from .common import mx_check_gemm_args, mx_int, mx_output, mx_queue_state, mx_resolve_config

# The tilings compiled into the cubin, one kernel each (csrc/mxfp4_mma_sm90.cu). Family "direct"
# (Config.warps_k >= 1): B read straight into registers, (block_m, 16-row B tiles per CTA, warps along K);
# family "staged" (warps_k = 0): B staged in shared memory, (block_m, 16-row B tiles per warp, warps).
MMA_DIRECT = ((8, 4, 4), (8, 2, 4), (16, 4, 4), (16, 2, 4), (16, 4, 2), (32, 4, 4), (32, 4, 2), (32, 8, 1),
              (64, 4, 2), (64, 8, 1), (64, 4, 1))
MMA_STAGED = ((8, 1, 4), (16, 1, 4), (16, 2, 4), (32, 1, 4), (32, 2, 4), (64, 2, 4), (64, 2, 8), (128, 1, 8))
# Family "pipelined" (warps_k = 0, num_stages >= 2): (block_m, 16-row B tiles per warp, warps).
MMA_PIPELINED = ((16, 1, 4), (16, 2, 4), (32, 1, 4), (32, 2, 4), (64, 1, 4), (64, 2, 4), (64, 1, 8), (64, 2, 8),
                 (128, 1, 4), (128, 1, 8))
# Family "wgmma" (wgmma=1, warps_k = 0, num_stages >= 3): (block_m, warpgroups of 64 B rows each).
MMA_WGMMA = ((16, 1), (32, 1), (64, 1), (128, 1), (16, 2), (32, 2), (64, 2), (128, 2))
# Family "wspec" (wgmma=2): (block_m, warpgroups of 64 B rows, warpgroups along K, registers a thread uses
# (ptxas of nvcc 13.0, rounded up to 8: the compile test holds them to ptxas's report; the launch bounds keep
# the single-warpgroup tilings up to 64 rows within 3 CTAs an SM)); each CTA has one producer warp beyond its
# 4 x warpgroups x warpgroups-along-K consumer warps.
MMA_WSPEC = ((16, 1, 1, 104), (32, 1, 1, 112), (64, 1, 1, 128), (128, 1, 1, 160), (16, 2, 1, 104), (32, 2, 1, 112),
             (64, 2, 1, 128), (128, 2, 1, 160), (16, 1, 2, 104), (32, 1, 2, 112), (64, 1, 2, 128), (128, 1, 2, 160))
MMA_WSPEC_TILINGS = frozenset(t[:3] for t in MMA_WSPEC)  # (block_m, warpgroups, along K): what a name is asked of
MMA_MAX_STAGES = 6  # the ring depths the pipelined kernels wait on (cp.async.wait_group takes an immediate)
MMA_WSPEC_MAX_STAGES = 8  # family wspec's ring (mbarriers, no immediate): bounded by shared memory
MMA_QUANT_KERNEL = "mxfp4_quant_a_sm90"  # A quantized once per launch for the ring families (pipelined, wgmma, wspec)
# Registers a thread of the wgmma family uses, by block_m (ptxas of nvcc 13.0, the larger of the one- and
# two-warpgroup tilings', rounded up to 8; held to ptxas's report by the compile test).
MMA_WGMMA_REGS = {16: 112, 32: 128, 64: 144, 128: 184}
MMA_MBARRIER_BYTES = 8  # one mbarrier (family wspec: two per stage and one for the scales)
MMA_SMEM_ALIGN = 1024  # the wgmma family aligns its stages to the 128-byte swizzle's 1024-byte period
MMA_CHUNK_K = 128  # K values per chunk: one 32-value scale block for each thread of a quad
MMA_MAX_SPLIT = 8  # the largest portable thread block cluster
MMA_SM = UNIT_LIMITS["sm_90"]  # what one SM holds (`mma_ctas_per_sm`)
# Dynamic shared memory one sm_90 CTA may have: the SM's, less the 1 KiB the runtime reserves per CTA (227 KiB).
MMA_MAX_SMEM = MMA_SM.shared_bytes - MMA_SM.shared_reserved
MMA_SM_WARPS = 16  # warps an SM holds at the kernels' register counts: 65536 registers / 128 a thread = 512 threads
A_DTYPES = (torch.bfloat16,)  # the dtype of A the kernel quantizes (the dispatcher checks it)
MMA_NVCC_TIMEOUT_S = 600  # one build of the kernels takes about a minute
MMA_NVCC_FLAGS = ("-cubin", "-gencode=arch=compute_90a,code=sm_90a", "-O3", "-std=c++17", "-Xptxas", "-v")


@dataclass(frozen=True)
class MmaConfig:
    """One launch's tiling. block_m: rows of A per CTA (8..128); block_n: rows of B per CTA; block_k: K
    values a CTA holds in shared memory at once (a round; a multiple of 128: a CTA's K range takes
    ceil(range / block_k) rounds); split_k: CTAs of one cluster that split K (1..8); num_warps: warps
    per CTA; warps_k: family "direct" with num_warps = (block_n / 16) x warps_k (each warp one 16-row
    tile of B and 1/warps_k of the K chunks), or 0 for the families "staged" and "pipelined" (each
    warp block_n / 16 / num_warps tiles and all chunks); num_stages: 1 for "direct" and "staged"
    (rounds are not overlapped), 2..MMA_MAX_STAGES for "pipelined" (the depth of its ring of one-chunk
    stages; block_k is then one chunk, 128); wgmma: 1 for family "wgmma" (the pipelined family's ring
    with warpgroup MMAs: num_warps = 4 per 64 rows of block_n, warps_k = 0, num_stages >= 3), 2 for
    family "wspec" (the wgmma tilings warp-specialized, MMA_WSPEC: num_warps counts the consumer warps,
    4 per 64 rows of block_n times warpgroups along K, warps_k = 0 for one of those or 2 for two taking
    alternate chunks; one producer warp is added; num_stages 2..MMA_WSPEC_MAX_STAGES, even and at least 4 with
    warps_k=2), else 0."""
    block_m: int = 16
    block_n: int = 64
    block_k: int = 1024
    split_k: int = 1
    num_warps: int = 16
    num_stages: int = 1
    warps_k: int = 4
    wgmma: int = 0

    def __post_init__(self):
        for name in ("block_m", "block_n", "block_k", "split_k", "num_warps", "num_stages"):
            v = getattr(self, name)
            if not mx_int(v) or v < 1:
                raise ValueError(f"mma_sm90 Config.{name} must be a positive integer, got {v!r}")
        if not mx_int(self.warps_k) or self.warps_k < 0:
            raise ValueError(f"mma_sm90 Config.warps_k must be an integer >= 0, got {self.warps_k!r}")
        if not mx_int(self.wgmma) or self.wgmma not in (0, 1, 2):
            raise ValueError(f"mma_sm90 Config.wgmma must be 0, 1 or 2, got {self.wgmma!r}")
        if self.wgmma == 1 and (self.warps_k or self.num_stages < 3):
            raise ValueError(f"mma_sm90 Config.wgmma=1 needs warps_k=0 and num_stages >= 3, got "
                             f"warps_k={self.warps_k} num_stages={self.num_stages}")
        if self.wgmma == 2 and (self.warps_k not in (0, 2) or not 2 <= self.num_stages <= MMA_WSPEC_MAX_STAGES
                                or self.warps_k and (self.num_stages < 4 or self.num_stages % 2)):
            # Two warpgroups along K take alternate chunks, and chunk i fills stage i % num_stages. With two
            # stages they would deadlock (a warpgroup frees its stage only after issuing its next chunk, which
            # sits in the stage the producer still waits for). With an odd depth a stage's fills alternate
            # between the warpgroups, so a warpgroup waits for a phase of its stage's barrier whose previous
            # phase (the other warpgroup's chunk) it never waited for: if that chunk's copy lands late, the
            # parity wait reads the previous phase as its own and returns early, and the MMA reads a stage
            # that does not hold its chunk. With an even depth each stage belongs to one warpgroup.
            raise ValueError(f"mma_sm90 Config.wgmma=2 needs warps_k 0 or 2 and num_stages 2..{MMA_WSPEC_MAX_STAGES} "
                             f"(even and at least 4 with warps_k=2), got warps_k={self.warps_k} "
                             f"num_stages={self.num_stages}")
        if self.wgmma != 2 and self.num_stages > 1 and (self.warps_k or self.num_stages > MMA_MAX_STAGES):
            raise ValueError(f"mma_sm90 Config.num_stages must be 1, or 2..{MMA_MAX_STAGES} with warps_k=0 "
                             f"(family pipelined), got num_stages={self.num_stages} warps_k={self.warps_k}")
        if mma_kernel_name(self) is None:
            known = [f"block_m={bm} block_n={16 * p} num_warps={p * kw} warps_k={kw}" for bm, p, kw in MMA_DIRECT]
            known += [f"block_m={bm} block_n={16 * wn * nw} num_warps={nw} warps_k=0" for bm, wn, nw in MMA_STAGED]
            known += [f"block_m={bm} block_n={16 * wn * nw} num_warps={nw} warps_k=0 num_stages>=2"
                      for bm, wn, nw in MMA_PIPELINED]
            known += [f"block_m={bm} block_n={64 * g} num_warps={4 * g} warps_k=0 num_stages>=3 wgmma=1"
                      for bm, g in MMA_WGMMA]
            known += [f"block_m={bm} block_n={64 * g} num_warps={4 * g * kw} warps_k={0 if kw == 1 else kw} "
                      f"num_stages>=2 wgmma=2" for bm, g, kw, _ in MMA_WSPEC]
            raise ValueError(f"mma_sm90 Config {self} is not a compiled tiling; known: {'; '.join(known)}")
        if self.block_k % MMA_CHUNK_K or (self.num_stages > 1 and self.block_k != MMA_CHUNK_K):
            raise ValueError(f"mma_sm90 Config.block_k must be a multiple of {MMA_CHUNK_K} ({MMA_CHUNK_K} itself "
                             f"with num_stages >= 2), got {self.block_k}")
        if self.split_k > MMA_MAX_SPLIT:
            raise ValueError(f"mma_sm90 Config.split_k must be 1..{MMA_MAX_SPLIT} (a portable cluster), "
                             f"got {self.split_k}")
        smem = mma_smem_bytes(self, self.block_k // MMA_CHUNK_K)
        if smem > MMA_MAX_SMEM:
            raise ValueError(f"mma_sm90 Config needs {smem} bytes of shared memory (> {MMA_MAX_SMEM}); "
                             f"lower {'num_stages' if self.num_stages > 1 else 'block_k'}")


def mma_tilings() -> list[MmaConfig]:
    """One config per compiled kernel (block_k = one chunk, split_k = 1)."""
    out = [MmaConfig(block_m=bm, block_n=16 * p, block_k=MMA_CHUNK_K, num_warps=p * kw, warps_k=kw)
           for bm, p, kw in MMA_DIRECT]
    out += [MmaConfig(block_m=bm, block_n=16 * wn * nw, block_k=MMA_CHUNK_K, num_warps=nw, warps_k=0)
            for bm, wn, nw in MMA_STAGED]
    out += [MmaConfig(block_m=bm, block_n=16 * wn * nw, block_k=MMA_CHUNK_K, num_warps=nw, warps_k=0, num_stages=3)
            for bm, wn, nw in MMA_PIPELINED]
    out += [MmaConfig(block_m=bm, block_n=64 * g, block_k=MMA_CHUNK_K, num_warps=4 * g, warps_k=0, num_stages=3,
                      wgmma=1) for bm, g in MMA_WGMMA]
    return out + [MmaConfig(block_m=bm, block_n=64 * g, block_k=MMA_CHUNK_K, num_warps=4 * g * kw,
                            warps_k=0 if kw == 1 else kw, num_stages=4, wgmma=2) for bm, g, kw, _ in MMA_WSPEC]


def mma_family(cfg: MmaConfig) -> str:
    """The kernel family that runs `cfg`: "direct", "staged", "pipelined", "wgmma" or "wspec"."""
    if cfg.wgmma:
        return "wspec" if cfg.wgmma == 2 else "wgmma"
    return "direct" if cfg.warps_k else "staged" if cfg.num_stages == 1 else "pipelined"


def mma_launches(cfg: MmaConfig) -> int:
    """Kernel launches a call of `cfg` makes: 1 where the GEMM quantizes A itself (num_stages 1: families
    "direct" and "staged"), 2 where a first launch quantizes A for the ring families' GEMM."""
    return 1 if cfg.num_stages == 1 else 2


def mma_kernel_name(cfg: MmaConfig) -> str | None:
    """The cubin's kernel that runs `cfg`, or None if that tiling is not compiled."""
    bm, bn, nw, kw = cfg.block_m, cfg.block_n, cfg.num_warps, cfg.warps_k
    if cfg.wgmma == 2:
        k = max(1, kw)
        if bn == 16 * nw // k and nw % (4 * k) == 0 and (bm, nw // (4 * k), k) in MMA_WSPEC_TILINGS:
            return f"mxfp4_mma_sm90_t{bm}_x{nw // (4 * k)}_k{k}"
    elif cfg.wgmma:
        if bn == 16 * nw and nw % 4 == 0 and (bm, nw // 4) in MMA_WGMMA:
            return f"mxfp4_mma_sm90_g{bm}_x{nw // 4}"
    elif kw:
        if bn % 16 == 0 and nw == bn // 16 * kw and (bm, bn // 16, kw) in MMA_DIRECT:
            return f"mxfp4_mma_sm90_d{bm}_p{bn // 16}_k{kw}"
    elif bn % (16 * nw) == 0:
        family, letter = (MMA_PIPELINED, "p") if cfg.num_stages > 1 else (MMA_STAGED, "s")
        if (bm, bn // (16 * nw), nw) in family:
            return f"mxfp4_mma_sm90_{letter}{bm}_w{bn // (16 * nw)}_x{nw}"
    return None


def mma_smem_bytes(cfg: MmaConfig, round_chunks: int) -> int:
    """Dynamic shared memory of one CTA running rounds of `round_chunks` chunks (the kernel's layout):
    a round's A (bf16) and, for family "staged", B's runs and scale tiles; for family "pipelined"
    (`round_chunks`: the CTA's K range in chunks) its ring of stages and the scales of its range; or
    the fp32 output tiles (one per warp along K), whichever is larger; family "wgmma" as "pipelined"
    plus MMA_SMEM_ALIGN bytes to align its stages; family "wspec" as "wgmma" (an output tile per
    warpgroup along K) plus its mbarriers."""
    bm, bn = cfg.block_m, cfg.block_n
    if cfg.num_stages > 1:
        ring = cfg.num_stages * (bm * 256 + (bn // 16) * 1024) + (bn // 32) * (round_chunks // 2 + 2) * 256
        tiles = max(1, cfg.warps_k) if cfg.wgmma == 2 else 1
        bars = (2 * cfg.num_stages + 1 + 2 * tiles) * MMA_MBARRIER_BYTES if cfg.wgmma == 2 else 0
        return max(ring, tiles * bm * (bn + 4) * 4) + (MMA_SMEM_ALIGN if cfg.wgmma else 0) + bars
    staged = bm * round_chunks * 256
    if not cfg.warps_k:
        staged += round_chunks * (bn // 16) * 1024 + (bn // 32) * (round_chunks // 2 + 2) * 256
    return max(staged, max(cfg.warps_k, 1) * bm * (bn + 4) * 4)


def mma_round_chunks(cfg: MmaConfig, k: int) -> int:
    """Chunks a CTA of `cfg` holds in shared memory at once for K = `k` (what a launch sizes shared memory by):
    the ring families' whole K range of the CTA with the longest one, whose scales they keep; else one round,
    block_k's chunks or fewer where the range is shorter."""
    span = cdiv(cdiv(k, MMA_CHUNK_K), cfg.split_k)  # chunks of the CTA with the longest K range
    return span if cfg.num_stages > 1 else max(1, min(cfg.block_k // MMA_CHUNK_K, span))


def mma_ctas_per_sm(cfg: MmaConfig, round_chunks: int) -> int:
    """CTAs of `cfg` an SM holds at once (registers: MMA_SM_WARPS warps for "direct", one CTA for
    "staged", 8 warps for "pipelined" by its launch bounds, MMA_WGMMA_REGS for "wgmma", MMA_WSPEC's
    and the producer warp for "wspec", each warp's in one sub-partition of the file; shared memory with the
    runtime's reserve per CTA in 128-byte steps, and the SM's CTA limit: `spec.devices.UNIT_LIMITS`' rules,
    which `mxlib.tools.occupancy.residency` follows too)."""
    if cfg.wgmma == 2:
        k = max(1, cfg.warps_k)
        per = next(r for bm, g, kw, r in MMA_WSPEC if (bm, 64 * g, kw) == (cfg.block_m, cfg.block_n, k))
        regs = MMA_SM.warps_by_registers(per) // (cfg.num_warps + 1)
    elif cfg.wgmma:
        regs = MMA_SM.warps_by_registers(MMA_WGMMA_REGS[cfg.block_m]) // cfg.num_warps
    else:
        regs = MMA_SM_WARPS // cfg.num_warps if cfg.warps_k else 8 // cfg.num_warps if cfg.num_stages > 1 else 1
    shared = MMA_SM.shared_bytes // MMA_SM.shared_per_cta(mma_smem_bytes(cfg, round_chunks))
    return max(0, min(regs, shared, MMA_SM.ctas))


def mma_default_config(m: int, n: int, k: int, device=None) -> MmaConfig:
    """A heuristic for shapes without a tuned row, the pattern of the H200 table's rows (the sweeps' winners;
    KERNEL_NOTES.md, "The default configs follow the table").
    - M > 64: family "wspec", block_m 128, one consumer warpgroup, 4 stages, 64-row B tiles, or 128-row ones (two
      warpgroups side by side) where they take fewer waves of one CTA an SM.
    - 32 < M <= 64: family "wspec" with two consumer warpgroups along K, block_m 32 for K up to 4 chunks and 64
      above, 8 stages up to 4 chunks and 6 above.
    - Both: split_k the largest that keeps tiles x split_k under the SM count (at least 1): a grid that fills
      every SM exactly leaves its clusters no slack to be placed (each cluster's CTAs share a GPC).
    - Every split_k at most MMA_MAX_SPLIT and at most K's chunks.
    - M <= 32, up to 4 chunks of K: family "direct", block_m 8 up to M = 8 and 16 above (two M tiles at
      M = 32); 32-row B tiles with 4 warps along K at block_m 8, 64-row tiles with 2 at 16; no split.
    - M <= 32, longer K: family "wspec", block_m 16 or 32, 64-row B tiles, one consumer warpgroup, 4 stages,
      split_k aiming at about 1.5 CTAs per SM (several fit an SM at these tiles).
    SMs are `device`'s (`spec.devices.compute_units`: None is the current GPU; the H200's without a GPU).
    Fewer stages where the scales of a long K range need the shared memory; where no ring fits them (K of about
    a million), family "direct", whose shared memory does not grow with K, at block_m 8, 16 or 64 by M. The
    shape follows `mxlib.spec.ints.gemm_shape`."""
    if not type(m) is type(n) is type(k) is int:  # the cache would take 8.0 for 8: other kinds are checked first
        m, n, k = gemm_shape(m, n, k)
    return _mma_default_config(m, n, k, compute_units(device))


@functools.lru_cache(maxsize=4096)
def _mma_default_config(m: int, n: int, k: int, units: int) -> MmaConfig:
    """`mma_default_config` for a GPU of `units` SMs, made once per shape and GPU size: making and checking its
    candidate Configs costs the host 7-14 us, which every call of a shape without a table row would pay. The
    shape follows `mxlib.spec.ints.gemm_shape` (ValueError naming the argument otherwise), checked once per shape."""
    m, n, k = gemm_shape(m, n, k)
    chunks = -(-k // MMA_CHUNK_K)
    if chunks > 4 or m > 32:  # family wspec
        if 32 < m <= 64:
            block_m, warps_k, depths = (32, 2, (8, 6, 4)) if chunks <= 4 else (64, 2, (6, 4))
        else:
            block_m, warps_k, depths = 128 if m > 64 else next(b for b in (16, 32) if m <= b), 0, (4, 3, 2)
        rows = -(-m // block_m)
        waves = {bn: -(-rows * -(-n // bn) // units) for bn in (64, 128)}  # at one CTA an SM
        block_n = 128 if m > 64 and waves[128] < waves[64] else 64
        tiles = rows * -(-n // block_n)
        split = max(1, min(MMA_MAX_SPLIT, chunks, (units - 1) // tiles if m > 32 else round(1.5 * units / tiles)))
        for stages in depths:
            cfg = MmaConfig(block_m=block_m, block_n=block_n, block_k=MMA_CHUNK_K, split_k=split,
                            num_warps=block_n // 16 * max(1, warps_k), num_stages=stages, warps_k=warps_k, wgmma=2)
            if mma_smem_bytes(cfg, mma_round_chunks(cfg, k)) <= MMA_MAX_SMEM:
                return cfg
    block_m = 8 if m <= 8 else 16 if m <= 32 else 64
    p16, kw = {8: (2, 4), 16: (4, 2), 64: (4, 2)}[block_m]
    cfg = MmaConfig(block_m=block_m, block_n=16 * p16, block_k=MMA_CHUNK_K, num_warps=p16 * kw, warps_k=kw)
    tiles = -(-m // block_m) * -(-n // cfg.block_n)
    split = 1 if chunks <= 4 else max(1, min(MMA_MAX_SPLIT, chunks, round(1.5 * units / tiles)))
    rounds = -(-chunks // split)
    while rounds > 1 and mma_ctas_per_sm(cfg, rounds) * cfg.num_warps < MMA_SM_WARPS:
        rounds = -(-rounds // 2)
    return MmaConfig(block_m=block_m, block_n=cfg.block_n, block_k=rounds * MMA_CHUNK_K, split_k=split,
                     num_warps=cfg.num_warps, warps_k=kw)


def mma_gemm_ctas(m: int, n: int, k: int, config: MmaConfig) -> int:
    """CTAs of the GEMM launch: N tiles x M tiles x split_k."""
    return -(-n // config.block_n) * -(-m // config.block_m) * config.split_k


def mma_quant_rows(m: int, config: MmaConfig) -> int:
    """Rows of A's quantized buffer in the two-launch families: M, or for wspec whole tiles of rows
    (its producer copies full tiles)."""
    return -(-m // config.block_m) * config.block_m if config.wgmma == 2 else m


def mma_quant_blocks(k: int) -> int:
    """32-value blocks per row of A's quantized buffer: K padded to whole chunks."""
    return 4 * -(-k // MMA_CHUNK_K)


MMA_QUANT_THREADS = 256  # threads of a quantizer CTA (its __launch_bounds__), one 32-value block of A each


def mma_grid(m: int, n: int, k: int, config: MmaConfig) -> int:
    """CTAs launched per call, both launches summed: the GEMM's, plus the quantizer's for the families
    with a ring (one thread per 32-value block of A's padded rows)."""
    m, n, k = gemm_shape(m, n, k, empty_m=True)
    ctas = mma_gemm_ctas(m, n, k, config)
    if mma_launches(config) == 2:
        ctas += -(-mma_quant_rows(m, config) * mma_quant_blocks(k) // MMA_QUANT_THREADS)
    return ctas


# ---------------------------------------------------------------------------------------------
# Building the cubin


class MmaUnavailable(RuntimeError):
    """The path cannot run here; the message is one line saying why."""


def mma_source() -> str:
    """The CUDA C++ source of the kernels."""
    return (Path(__file__).resolve().parent / "csrc" / "mxfp4_mma_sm90.cu").read_text(encoding="utf-8")


def mma_find_nvcc() -> str | None:
    """Path of an nvcc, or None: $MXLIB_NVCC, $CUDA_HOME/bin, PATH, /usr/local/cuda/bin, then the
    PyPI wheel nvidia-cuda-nvcc (its bin/ under the `nvidia` package)."""
    candidates = [os.environ.get("MXLIB_NVCC")]
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            candidates.append(os.path.join(os.environ[var], "bin", "nvcc"))
    candidates += [shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"]
    try:
        import nvidia  # the namespace package of NVIDIA's PyPI wheels

        for root in getattr(nvidia, "__path__", []):
            candidates += sorted(str(p) for p in Path(root).glob("*/bin/nvcc"))
    except ImportError:
        pass
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def mma_cache_dir() -> Path:
    return Path(os.environ.get("MXLIB_CACHE_DIR") or Path.home() / ".cache" / "mxlib")


def mma_compile(source: str, nvcc: str, out: Path, flags: tuple = MMA_NVCC_FLAGS) -> str:
    """Compile `source` to the cubin `out` with MMA_NVCC_FLAGS (or `flags`: `mxlib.tools.wgmma_rules` asks for
    PTX); returns ptxas's report (registers, spills). Raises MmaUnavailable with nvcc's first error line when
    it fails."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "mxfp4_mma_sm90.cu"
        src.write_text(source, encoding="utf-8")
        try:
            # A session of its own: a timeout or an interrupt stops nvcc's whole tree (cicc, ptxas), not nvcc alone.
            # Run in the scratch folder (paths absolute): nothing it writes lands where the caller runs.
            proc = subprocess.Popen([os.path.abspath(nvcc), *flags, "-o", str(Path(out).resolve()), str(src)], cwd=tmp,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        except OSError as exc:
            raise MmaUnavailable(f"nvcc ({nvcc}) could not compile the mma_sm90 kernels: {exc}") from None
        try:
            stdout, stderr = proc.communicate(timeout=MMA_NVCC_TIMEOUT_S)
        except subprocess.TimeoutExpired as exc:
            raise MmaUnavailable(f"nvcc ({nvcc}) could not compile the mma_sm90 kernels: {exc}") from None
        finally:
            if proc.poll() is None:
                with contextlib.suppress(OSError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.communicate()
    if proc.returncode:
        lines = [ln for ln in (stderr + stdout).splitlines() if "error" in ln.lower()] or ["no message"]
        raise MmaUnavailable(f"nvcc ({nvcc}) failed to compile the mma_sm90 kernels: {lines[0].strip()}")
    if not Path(out).is_file() or not Path(out).stat().st_size:
        raise MmaUnavailable(f"nvcc ({nvcc}) exited 0 but wrote no cubin at {out}")
    return stderr + stdout


@functools.lru_cache(maxsize=None)
def mma_nvcc_version(nvcc: str) -> str:
    """What `nvcc --version` prints (release and build), part of the cubin cache's key: a cubin is reused only
    by the compiler that built it, so changing nvcc rebuilds. "" where nvcc cannot answer (then its build
    fails and says why). Asked once per compiler and process."""
    try:
        with tempfile.TemporaryDirectory() as tmp:  # whatever it writes where it runs goes with the folder
            proc = subprocess.run([os.path.abspath(nvcc), "--version"], capture_output=True, text=True, cwd=tmp,
                                  timeout=MMA_NVCC_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return proc.stdout.strip()


def mma_cubin() -> bytes:
    """The compiled kernels, from the cache or compiled now (MmaUnavailable if that is impossible). The cache's
    key is a hash of the source, the flags and the compiler's `mma_nvcc_version`."""
    source = mma_source()
    nvcc = mma_find_nvcc()
    if nvcc is None:
        raise MmaUnavailable("no CUDA compiler found (looked in $MXLIB_NVCC, $CUDA_HOME/bin, PATH, "
                             "/usr/local/cuda/bin and the nvidia-cuda-nvcc wheel); path mma_sm90 needs nvcc")
    material = "\0".join((source, " ".join(MMA_NVCC_FLAGS), mma_nvcc_version(nvcc)))
    key = hashlib.sha256(material.encode()).hexdigest()[:20]
    path = mma_cache_dir() / f"mxfp4_mma_sm90-{key}.cubin"
    if path.is_file():
        return path.read_bytes()
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=path.parent, prefix=f"{path.name}.", suffix=".tmp")
        os.close(fd)
        tmp = Path(name)  # each builder its own file, threads of one process too
        mma_compile(source, nvcc, tmp)
        os.replace(tmp, path)  # atomic: the last builder's identical cubin wins
        return path.read_bytes()
    except OSError as exc:
        raise MmaUnavailable(f"cannot keep the mma_sm90 cubin in {path.parent}: {exc}") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):  # a failed or interrupted build leaves nothing behind
                tmp.unlink()


# ---------------------------------------------------------------------------------------------
# The CUDA driver API (ctypes), enough to load a cubin and launch a cluster


class _MmaLaunchAttr(ctypes.Structure):
    # CUlaunchAttribute: id, 4 bytes of padding, a 64-byte value union (here: the cluster's x, y, z).
    _fields_ = [("id", ctypes.c_uint32), ("pad", ctypes.c_uint32), ("x", ctypes.c_uint32),
                ("y", ctypes.c_uint32), ("z", ctypes.c_uint32), ("rest", ctypes.c_char * 52)]


class _MmaLaunchConfig(ctypes.Structure):
    # CUlaunchConfig: grid and block dimensions, dynamic shared memory, the CUDA queue handle, attributes.
    _fields_ = [("grid", ctypes.c_uint32 * 3), ("block", ctypes.c_uint32 * 3), ("smem", ctypes.c_uint32),
                ("queue", ctypes.c_void_p), ("attrs", ctypes.POINTER(_MmaLaunchAttr)), ("num_attrs", ctypes.c_uint32)]


_MMA_CLUSTER_DIMENSION = 4  # CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
_MMA_PROGRAMMATIC = 6  # CUlaunchAttributeID 6, programmatic serialization: start before the previous launch ends
_MMA_MAX_DYNAMIC_SMEM = 8  # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
_MMA_STATE: dict = {}  # "cuda": the libcuda handle; (device index): (context, module, {name: (function, smem)})
_MMA_LOAD_LOCK = threading.Lock()  # one build and load at a time in a process (threads driving several GPUs)


def _mma_cuda():
    if "cuda" not in _MMA_STATE:
        try:
            lib = ctypes.CDLL("libcuda.so.1")
        except OSError as exc:
            raise MmaUnavailable(f"the CUDA driver library libcuda.so.1 cannot be loaded ({exc})") from None
        _mma_check(lib, lib.cuInit(0), "cuInit")
        _MMA_STATE["cuda"] = lib
    return _MMA_STATE["cuda"]


def _mma_check(lib, result: int, what: str) -> None:
    if result:
        name = ctypes.c_char_p()
        lib.cuGetErrorName(result, ctypes.byref(name))
        raise RuntimeError(f"mma_sm90: {what} failed: {(name.value or b'?').decode()} ({result})")


def _mma_module(index: int):
    """(primary context, module, function cache) of device `index`, loading the cubin the first time. A
    failed load releases the primary context it retained, so nothing is kept but what succeeded."""
    state = _MMA_STATE.get(index)  # loaded: no lock to take on every launch
    if state is None:
        with _MMA_LOAD_LOCK:
            if index not in _MMA_STATE:
                _mma_load(index)
        state = _MMA_STATE[index]
    return state


def _mma_load(index: int) -> None:
    """`_mma_module`'s first time on device `index` (its lock held)."""
    lib = _mma_cuda()
    image = mma_cubin()
    dev, ctx, mod = ctypes.c_int(), ctypes.c_void_p(), ctypes.c_void_p()
    _mma_check(lib, lib.cuDeviceGet(ctypes.byref(dev), index), "cuDeviceGet")
    _mma_check(lib, lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    try:
        with _MmaContext(lib, ctx):
            _mma_check(lib, lib.cuModuleLoadData(ctypes.byref(mod), ctypes.c_char_p(image)), "cuModuleLoadData")
    except BaseException:
        lib.cuDevicePrimaryCtxRelease(dev)
        raise
    _MMA_STATE[index] = (ctx, mod, {})


class _MmaContext:
    """Makes `ctx` current on this thread for the block, then restores the previous one."""

    def __init__(self, lib, ctx):
        self.lib, self.ctx, self.prev = lib, ctx, ctypes.c_void_p()

    def __enter__(self):
        _mma_check(self.lib, self.lib.cuCtxGetCurrent(ctypes.byref(self.prev)), "cuCtxGetCurrent")
        if self.prev.value != self.ctx.value:
            _mma_check(self.lib, self.lib.cuCtxSetCurrent(self.ctx), "cuCtxSetCurrent")

    def __exit__(self, *exc):
        if self.prev.value != self.ctx.value:
            self.lib.cuCtxSetCurrent(self.prev)


_MMA_FUNCTION_LOCK = threading.Lock()  # one kernel's shared-memory grant changed at a time


def _mma_function(lib, mod, functions: dict, name: str, smem: int):
    """The module's kernel `name`, allowed at least `smem` bytes of dynamic shared memory (cached per name).
    The grant only ever rises, under a lock: a launch built once (`_MmaCall`) keeps relying on the grant it
    saw, so two threads building the same kernel at different sizes must not leave the smaller one last."""
    with _MMA_FUNCTION_LOCK:
        fn, granted = functions.get(name, (None, 0))
        if fn is None:
            fn = ctypes.c_void_p()
            _mma_check(lib, lib.cuModuleGetFunction(ctypes.byref(fn), mod, name.encode()), f"loading {name}")
        if smem > granted:
            _mma_check(lib, lib.cuFuncSetAttribute(fn, _MMA_MAX_DYNAMIC_SMEM, smem), f"{name} shared memory")
            granted = smem
        functions[name] = (fn, granted)
    return fn


class _MmaPlannedLaunch:
    """One kernel launch built once: its CUlaunchConfig and kernel argument block over the ctypes scalars
    `values` (the caller keeps the ones it rewrites per call, e.g. tensor addresses). `start(queue)` launches
    it on `queue`; cuLaunchKernelEx copies the arguments, so the values may change as soon as it returns."""

    __slots__ = ("lib", "fn", "name", "launch", "launch_ref", "params", "keep")

    def __init__(self, lib, fn, name: str, values: list, grid: list, threads: int, smem: int, attrs: list):
        self.lib, self.fn, self.name = lib, fn, name
        self.params = (ctypes.c_void_p * len(values))(*map(ctypes.addressof, values))
        array = (_MmaLaunchAttr * max(1, len(attrs)))(*attrs)
        self.launch = _MmaLaunchConfig(smem=smem, attrs=array, num_attrs=len(attrs))
        self.launch.grid[:] = grid
        self.launch.block[:] = [threads, 1, 1]
        self.launch_ref = ctypes.byref(self.launch)
        self.keep = (values, array)  # what params and launch point into

    def start(self, queue: int) -> None:
        self.launch.queue = queue
        _mma_check(self.lib, self.lib.cuLaunchKernelEx(self.launch_ref, self.fn, self.params, None),
                   f"launching {self.name}")


def _mma_start(lib, fn, name: str, values: list, grid: list, threads: int, smem: int, queue: int,
               attrs: list) -> None:
    """cuLaunchKernelEx of `fn` with the kernel arguments `values` (ctypes scalars) and launch `attrs`, once."""
    _MmaPlannedLaunch(lib, fn, name, values, grid, threads, smem, attrs).start(queue)


MMA_MAX_GRID_Y = 65535  # CUDA's limit on a grid's y dimension, where the kernels put the M tiles


def mma_grid_dims(m: int, n: int, cfg: MmaConfig) -> list[int]:
    """The GEMM launch's grid: (N tiles, M tiles, split_k), the kernels' blockIdx.x, .y, .z. ValueError when
    the M tiles pass CUDA's y limit (M above about 65535 x block_m), naming the rule."""
    tiles_m = -(-m // cfg.block_m)
    if tiles_m > MMA_MAX_GRID_Y:
        raise ValueError(f"mma_sm90 puts the M tiles on the grid's y dimension, at most {MMA_MAX_GRID_Y}: M = {m} "
                         f"at block_m {cfg.block_m} needs {tiles_m}; use a larger block_m or path 'fused'")
    return [-(-n // cfg.block_n), tiles_m, cfg.split_k]


class _MmaCall:
    """The launches of one call signature (`_mma_call`'s key), built once: each call writes its tensors'
    addresses into them and starts them on its queue. Building raises ValueError for a config the shape
    cannot launch (shared memory, the grid's y limit), so nothing is kept for it and nothing is launched."""

    def __init__(self, lib, mod, functions: dict, m: int, n: int, k: int, a_stride: int, scale_cols: int,
                 cfg: MmaConfig, ties_away: bool):
        rounds = mma_round_chunks(cfg, k)
        smem = mma_smem_bytes(cfg, rounds)
        if smem > MMA_MAX_SMEM:
            raise ValueError(f"mma_sm90 Config {cfg} needs {smem} bytes of shared memory for K={k} "
                             f"(> {MMA_MAX_SMEM}): raise split_k or lower num_stages")
        grid = mma_grid_dims(m, n, cfg)
        name = mma_kernel_name(cfg)
        fn = _mma_function(lib, mod, functions, name, smem)
        cluster = _MmaLaunchAttr(id=_MMA_CLUSTER_DIMENSION, x=1, y=1, z=cfg.split_k)
        self.addresses = [ctypes.c_uint64() for _ in range(4)]  # the GEMM's A (or a_q), B, B's scales, C
        if mma_launches(cfg) == 1:
            ints = (m, n, k, a_stride, scale_cols, rounds, int(ties_away))
            self.quant = None
            self.gemm = _MmaPlannedLaunch(lib, fn, name, self.addresses + [ctypes.c_int32(v) for v in ints], grid,
                                          32 * cfg.num_warps, smem, [cluster])
            return
        kb_pad = mma_quant_blocks(k)
        rows = mma_quant_rows(m, cfg)
        self.a_q_bytes = rows * kb_pad * 64
        self.quant_addresses = [ctypes.c_uint64(), ctypes.c_uint64()]  # A, a_q
        ints = (m, k, a_stride, kb_pad, int(ties_away), cfg.wgmma, rows, cfg.block_m)
        quant = _mma_function(lib, mod, functions, MMA_QUANT_KERNEL, 0)
        self.quant = _MmaPlannedLaunch(lib, quant, MMA_QUANT_KERNEL,
                                       self.quant_addresses + [ctypes.c_int32(v) for v in ints],
                                       [-(-rows * kb_pad // MMA_QUANT_THREADS), 1, 1], MMA_QUANT_THREADS, 0, [])
        ints = (m, n, k, kb_pad, scale_cols, cfg.num_stages)
        threads = 32 * (cfg.num_warps + (cfg.wgmma == 2))  # wspec: the producer warp
        self.gemm = _MmaPlannedLaunch(lib, fn, name, self.addresses + [ctypes.c_int32(v) for v in ints], grid,
                                      threads, smem, [cluster, _MmaLaunchAttr(id=_MMA_PROGRAMMATIC, x=1)])

    def __call__(self, a: torch.Tensor, b: torch.Tensor, bs: torch.Tensor, c: torch.Tensor, queue: int) -> None:
        first = a
        if self.quant is not None:
            first = torch.empty(self.a_q_bytes, dtype=torch.uint8, device=a.device)  # freed in queue order
            self.quant_addresses[0].value, self.quant_addresses[1].value = a.data_ptr(), first.data_ptr()
            self.quant.start(queue)
        for slot, t in zip(self.addresses, (first, b, bs, c)):
            slot.value = t.data_ptr()
        self.gemm.start(queue)


_MMA_CALLS: dict = {}  # (thread, module, config, shape, ...) -> _MmaCall
_MMA_CALLS_MAX = 1024  # call signatures kept before the cache starts over


def _mma_call(lib, state, m: int, n: int, k: int, a_stride: int, scale_cols: int, cfg: MmaConfig,
              ties_away: bool) -> _MmaCall:
    """This thread's `_MmaCall` for the signature, built the first time. Kept per thread: a call writes
    its addresses into the argument block and the driver reads them during the launch, so two threads
    sharing one could launch each other's tensors. Kept per loaded module too (its handle is in the key)."""
    _, mod, functions = state
    key = (threading.get_ident(), mod.value, cfg, m, n, k, a_stride, scale_cols, ties_away)
    call = _MMA_CALLS.get(key)
    if call is None:
        call = _MmaCall(lib, mod, functions, m, n, k, a_stride, scale_cols, cfg, ties_away)
        if len(_MMA_CALLS) >= _MMA_CALLS_MAX:
            _MMA_CALLS.clear()
        _MMA_CALLS[key] = call
    return call


def mma_launch(a: torch.Tensor, b: torch.Tensor, bs: torch.Tensor, c: torch.Tensor, cfg: MmaConfig,
               ties_away: bool) -> None:
    """The launches for `cfg` writing C into `c` (all tensors checked by the caller): one kernel, or for
    the families with a ring A's quantizer into a fresh per-call buffer and the GEMM as its programmatic
    dependent (nothing of the buffer outlives the call: it is freed in queue order). The launches' argument
    blocks are built once per call signature and thread (`_mma_call`)."""
    m, k = a.shape
    lib = _mma_cuda()
    state = _mma_module(a.device.index)
    queue = mx_queue_state(a.device)[0]
    with _MmaContext(lib, state[0]):
        call = _mma_call(lib, state, m, b.shape[0], k, a.stride(0), bs.shape[1], cfg, ties_away)
        call(a, b, bs, c, queue)


# ---------------------------------------------------------------------------------------------
# The path


_MMA_VERDICTS: dict = {}  # device index -> (available, reason)


def mma_available(device=None, *, retry: bool = False) -> tuple[bool, str]:
    """(True, what runs) if the path can run on `device` (default: the current CUDA device), else
    (False, one line saying why). Builds (or finds cached) the cubin and loads it, once per device and
    process: the dispatcher asks on every call, so a failed build is kept too rather than run again on
    every call. `retry=True` forgets the device's verdict first (after fixing what failed: a compiler
    that timed out, a cache folder that was not writable)."""
    if not retry and isinstance(device, torch.device) and device.index in _MMA_VERDICTS and device.type == "cuda":
        return _MMA_VERDICTS[device.index]  # a kept verdict, without asking torch again: paths ask on every call
    if not torch.cuda.is_available():
        return False, "mma_sm90 needs a CUDA device (torch.cuda.is_available() is False)"
    device = torch.device("cuda", torch.cuda.current_device()) if device is None else torch.device(device)
    if device.type != "cuda" or torch.version.hip:
        return False, f"mma_sm90 needs an NVIDIA CUDA device, got {device}"
    index = device.index if device.index is not None else torch.cuda.current_device()
    if retry:
        _MMA_VERDICTS.pop(index, None)
    if index not in _MMA_VERDICTS:
        cc = torch.cuda.get_device_capability(index)
        if cc != (9, 0):
            verdict = (False, f"mma_sm90 is built for compute capability 9.0 (Hopper); "
                              f"{torch.cuda.get_device_name(index)} is {cc[0]}.{cc[1]}")
        else:
            try:
                _mma_module(index)
                verdict = (True, f"mma_sm90 kernels loaded on {torch.cuda.get_device_name(index)}")
            except (MmaUnavailable, RuntimeError, OSError) as exc:  # a probe answers, it does not raise
                verdict = (False, str(exc))
        _MMA_VERDICTS[index] = verdict
    return _MMA_VERDICTS[index]


def mma_aligned_a(a: torch.Tensor) -> torch.Tensor:
    """A as the kernels read it, rows of 16-byte vectors: unit stride along K, a row stride of a multiple of 8
    elements, a 16-byte aligned start; else a fresh copy (`contiguous()` would hand back an A that is already
    contiguous but starts off a 16-byte boundary, e.g. a slice at an odd offset, as it is)."""
    if a.stride(1) != 1 or a.stride(0) % 8 or a.data_ptr() % 16:
        return torch.empty_like(a, memory_format=torch.contiguous_format).copy_(a)
    return a


def mma_gemm(a: torch.Tensor, b_shuffle: torch.Tensor, b_scale_sh: torch.Tensor, *,
             config: MmaConfig | None = None, rounding: str = "rne",
             out: torch.Tensor | None = None) -> torch.Tensor:
    """bf16 (M, N) = dequant(quantize_mxfp4(a, rounding)) @ dequant(B)^T in one launch, or two
    (`mma_launches`: A's quantizer, then the GEMM).

    `out`, if given, is written and returned; otherwise each call returns a fresh tensor. Raises
    MmaUnavailable (one line) where the path cannot run on this machine (`available` asks first), ValueError
    for a config or shape the kernels cannot launch (shared memory, the grid's y limit), RuntimeError naming
    the driver call that failed."""
    m, n, k = mx_check_gemm_args(a, b_shuffle, b_scale_sh, out)
    choice(rounding, "rounding", ROUNDINGS)
    # An empty A (M = 0) needs no launch, so any shape's config serves it.
    cfg = mx_resolve_config("mma_sm90", config, MmaConfig, mma_default_config, max(m, 1), n, k, a.device)
    if a.dtype not in A_DTYPES:
        raise TypeError(f"mma_sm90 quantizes A of dtype {', '.join(map(str, A_DTYPES))} only, got {a.dtype}; "
                        "use path 'fused'")
    if m == 0:
        return mx_output(m, n, a.device, out)
    if a.device.type != "cuda":
        raise MmaUnavailable(f"mma_sm90 needs CUDA tensors, got a on {a.device}")
    ok, reason = mma_available(a.device)
    if not ok:
        raise MmaUnavailable(reason)
    a = mma_aligned_a(a)
    b = b_shuffle.view(torch.uint8)
    bs = b_scale_sh.view(torch.uint8)
    if b.data_ptr() % 16 or bs.data_ptr() % 16:
        b, bs = b.clone(), bs.clone()  # cp.async copies 16-byte pieces
    c = mx_output(m, n, a.device, out)
    target = c if c.data_ptr() % 16 == 0 else torch.empty_like(c)
    mma_launch(a, b, bs, target, cfg, rounding == "ties_away")
    if target is not c:
        c.copy_(target)
    return c


# The path contract (mxlib.runtime.paths): every path module exposes these four names, and this
# one `available` as well.
Config = MmaConfig
default_config = mma_default_config
grid = mma_grid
gemm = mma_gemm
available = mma_available
