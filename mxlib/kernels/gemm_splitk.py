"""Path "splitk": the Triton counterpart of the seed's split-K kernel (aiter's
`gemm_afp4wfp4_preshuffle`, the seed's path for (16, 2112, 7168) only).

As in the seed, A is quantized per call with natural-layout scales (M, K/32); B_shuffle and
B_scale_sh are read in place. K's 32-element groups are cut into `split_k` contiguous ranges
(`splitk_slices`); with more than one, each (tile, range) program writes its fp32 partial tile into its
own slice of a workspace (split_k, M, N) and a second kernel sums the slices in index order, so the
result never depends on which program finished first. Unlike aiter's kernel it masks N's edge (no `% N`
wrap), counts K in groups (no byte/element mix-up) and accepts any split count (empty ranges add zero).
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
import triton
import triton.language as tl

from .common import (mx_check_config, mx_check_gemm_args, mx_check_int32, mx_f32_to_bf16, mx_launch_device, mx_output,
                     mx_resolve_config, mx_scaled_tile, mx_tiles)
from .quant_triton import mxq_programs, mxq_quantize
from ..spec.ints import gemm_shape

# GEMM programs the default split aims at, for any device: about the seed's grid on the MI355X (NUM_KSPLIT 7 x
# 17 tiles = 119 CTAs for (16, 2112, 7168)). The H200 table's splitk rows follow another rule, 264 = two programs
# on each of the H200's 132 SMs (mxlib/data/configs/README.md), because they are chosen for that one device.
_SPLITK_TARGET_CTAS = 128
_SPLITK_MIN_GROUPS = 8  # the default cuts no K range shorter than 256 (8 groups of 32)
_SPLITK_REDUCE_BLOCK = 1024


@dataclass(frozen=True)
class SplitkConfig:
    block_m: int = 16
    block_n: int = 128
    block_k: int = 128
    split_k: int = 1
    num_warps: int = 4
    num_stages: int = 2

    def __post_init__(self):
        mx_check_config(self, "splitk", split_k=True)


def _groups_per_split(groups: int, split_k: int) -> int:
    return triton.cdiv(groups, split_k)


def splitk_slices(k: int, split_k: int) -> list[int]:
    """K values in each of the `split_k` ranges the kernel sums over: ceil(G / split_k) of K's G 32-value
    groups per range, in order, so where split_k does not divide G the last ranges are shorter and some may
    be empty (their programs add zeros)."""
    groups = k // 32
    per = _groups_per_split(groups, split_k)
    return [32 * max(0, min(per, groups - s * per)) for s in range(split_k)]


def splitk_default_config(m: int, n: int, k: int, device=None) -> SplitkConfig:
    """16-row tiles up to M = 16, 32 above (aiter's preshuffle kernel asserts BLOCK_SIZE_M <= 16 for all M < 32;
    this kernel has no such limit); split_k the largest that keeps the GEMM within _SPLITK_TARGET_CTAS
    programs with every K range (`splitk_slices`) at least 256 long, so none is empty; 1 where K < 512."""
    m, n, k = gemm_shape(m, n, k)
    block_m = 16 if m <= 16 else 32
    tiles = triton.cdiv(m, block_m) * triton.cdiv(n, 128)
    most = max(1, min(_SPLITK_TARGET_CTAS // tiles, (k // 32) // _SPLITK_MIN_GROUPS))
    split = next(s for s in range(most, 0, -1) if s == 1 or min(splitk_slices(k, s)) >= 32 * _SPLITK_MIN_GROUPS)
    return SplitkConfig(block_m=block_m, split_k=split)


def splitk_grid(m: int, n: int, k: int, config: SplitkConfig) -> int:
    """CTAs launched per call: quant, the split GEMM and (split_k > 1) the reduction."""
    m, n, k = gemm_shape(m, n, k, empty_m=True)
    tiles = mx_tiles(m, n, config)
    reduce = triton.cdiv(m * n, _SPLITK_REDUCE_BLOCK) if config.split_k > 1 else 0
    return mxq_programs(m, k, shuffled=False) + tiles * config.split_k + reduce


# Shape-dependent integers are not specialized (divisibility, == 1): one compile per config serves every shape.
@triton.jit(do_not_specialize=["M", "G", "b_scale_sn", "groups_per_split"])
def _splitk_kernel(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, out_ptr, M, N, Kb, G, b_scale_sn, groups_per_split,
                   PARTIAL: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_k = tl.program_id(2)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    g_begin = pid_k * groups_per_split
    g_end = tl.minimum(g_begin + groups_per_split, G)
    acc = mx_scaled_tile(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, offs_m, offs_n, M, N, Kb,
                         G, b_scale_sn, g_begin, g_end, False, BLOCK_M, BLOCK_N, BLOCK_K)
    mask = (offs_m < M)[:, None] & (offs_n < N)[None, :]
    tile = offs_m[:, None] * N + offs_n[None, :]
    if PARTIAL:
        tl.store(out_ptr + pid_k * M * N + tile, acc, mask=mask)
    else:
        tl.store(out_ptr + tile, mx_f32_to_bf16(acc), mask=mask)


@triton.jit(do_not_specialize=["MN", "SPLITS"])
def _splitk_reduce(ws_ptr, c_ptr, MN, SPLITS, BLOCK: tl.constexpr):
    """c = sum over s = 0, 1, ... SPLITS-1 of ws[s], in that order, as bf16."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < MN
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for s in range(SPLITS):
        acc += tl.load(ws_ptr + s * MN + offs, mask=mask, other=0.0)
    tl.store(c_ptr + offs, mx_f32_to_bf16(acc), mask=mask)


def splitk_gemm(a: torch.Tensor, b_shuffle: torch.Tensor, b_scale_sh: torch.Tensor, *,
                config: SplitkConfig | None = None, rounding: str = "rne",
                out: torch.Tensor | None = None) -> torch.Tensor:
    """bf16 (M, N) = dequant(quant(A)) @ dequant(B)^T. `out`, if given, is written and returned;
    otherwise every call returns a fresh tensor (the workspace is fresh too)."""
    m, n, k = mx_check_gemm_args(a, b_shuffle, b_scale_sh, out, rounding)
    # the config is checked first, as for any M (an empty A needs none, so any shape's serves it)
    cfg = mx_resolve_config("splitk", config, SplitkConfig, splitk_default_config, max(m, 1), n, k, a.device)
    c = mx_output(m, n, a.device, out)
    if m == 0:
        return c  # an empty A gives an empty C: nothing to launch
    a_q, a_scale = mxq_quantize(a, rounding)
    g = k // 32
    splits = cfg.split_k
    launch = (triton.cdiv(m, cfg.block_m), triton.cdiv(n, cfg.block_n), splits)
    args = (a_q, a_scale, b_shuffle.view(torch.uint8), b_scale_sh.view(torch.uint8))
    meta = dict(BLOCK_M=cfg.block_m, BLOCK_N=cfg.block_n, BLOCK_K=cfg.block_k,
                num_warps=cfg.num_warps, num_stages=cfg.num_stages)
    if splits == 1:
        with mx_launch_device(a.device):
            _splitk_kernel[launch](*args, c, m, n, k // 2, g, b_scale_sh.shape[1], g, PARTIAL=False, **meta)
        return c
    mx_check_int32(splits * m * n, f"the split-K workspace (split_k * M * N = {splits} * {m} * {n} elements)")
    ws = torch.empty((splits, m, n), dtype=torch.float32, device=a.device)
    with mx_launch_device(a.device):
        _splitk_kernel[launch](*args, ws, m, n, k // 2, g, b_scale_sh.shape[1], _groups_per_split(g, splits),
                               PARTIAL=True, **meta)
        _splitk_reduce[(triton.cdiv(m * n, _SPLITK_REDUCE_BLOCK),)](ws, c, m * n, splits,
                                                                    BLOCK=_SPLITK_REDUCE_BLOCK, num_warps=4)
    return c


# The path contract (mxlib.runtime.paths): every path module exposes these four names.
Config = SplitkConfig
default_config = splitk_default_config
grid = splitk_grid
gemm = splitk_gemm
