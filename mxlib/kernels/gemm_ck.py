"""Path "ck": the Triton counterpart of CK's `gemm_a4w4` blockscale kernel, the seed's path for M >= 64.

Same inputs as the seed's CK call: A quantized per call with its scales in the e8m0_shuffle layout
(mxlib's fused quant+shuffle kernel gives the same bytes as quant then `e8m0_shuffle`), B_shuffle
and B_scale_sh read in place. Larger tiles than the asm path, and CK-style grouped tile order: a 1-D
grid walks GROUP_M row-tiles down one column of B tiles before moving right, so programs running
together share B tiles in L2. No split-K.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
import triton
import triton.language as tl

from .common import mx_check_config, mx_check_gemm_args, mx_output, mx_scaled_tile
from .quant_triton import mxq_programs, mxq_quantize_shuffled


@dataclass(frozen=True)
class CkConfig:
    block_m: int = 64
    # Not 128: with block_m=64, block_n=128 Triton 3.6 fails to compile this kernel for sm_90
    # ("PassManager::run failed" in TritonGPUOptimizeDotOperands; H200, 2026-12-03, data/results/h200/validate).
    block_n: int = 64
    block_k: int = 128
    split_k: int = 1  # no split-K on this path; kept so every path's Config has the same fields
    num_warps: int = 4
    num_stages: int = 2
    group_m: int = 8  # row-tiles per group of the grouped tile order

    def __post_init__(self):
        mx_check_config(self, "ck", split_k=False)
        if not isinstance(self.group_m, int) or self.group_m < 1:
            raise ValueError(f"ck Config.group_m must be a positive integer, got {self.group_m!r}")


def ck_default_config(m: int, n: int, k: int) -> CkConfig:
    """64-row tiles from M = 64 on (the seed sends M >= 64 here); smaller M gets the smallest
    power-of-two row tile that holds it, so any M works without wasting a 64-row tile."""
    block_m = 64 if m >= 64 else max(16, 1 << (m - 1).bit_length())
    return CkConfig(block_m=block_m)


def ck_grid(m: int, n: int, k: int, config: CkConfig) -> int:
    """CTAs launched per call: the quant+shuffle kernel's programs plus the GEMM's tiles."""
    return mxq_programs(m, k, shuffled=True) + triton.cdiv(m, config.block_m) * triton.cdiv(n, config.block_n)


# Shape-dependent integers are not specialized (divisibility, == 1): one compile per config serves every shape.
@triton.jit(do_not_specialize=["M", "G", "scale_sn"])
def _ck_kernel(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, c_ptr, M, N, Kb, G, scale_sn,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    per_group = GROUP_M * tiles_n
    first_m = (pid // per_group) * GROUP_M
    rows_here = tl.minimum(tiles_m - first_m, GROUP_M)
    pid_m = first_m + (pid % per_group) % rows_here
    pid_n = (pid % per_group) // rows_here
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = mx_scaled_tile(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, offs_m, offs_n, M, N, Kb,
                         scale_sn, scale_sn, 0, G, True, BLOCK_M, BLOCK_N, BLOCK_K)
    mask = (offs_m < M)[:, None] & (offs_n < N)[None, :]
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc.to(tl.bfloat16), mask=mask)


def ck_gemm(a: torch.Tensor, b_shuffle: torch.Tensor, b_scale_sh: torch.Tensor, *, config: CkConfig | None = None,
            rounding: str = "rne", out: torch.Tensor | None = None) -> torch.Tensor:
    """bf16 (M, N) = dequant(quant(A)) @ dequant(B)^T. `out`, if given, is written and returned;
    otherwise every call returns a fresh tensor."""
    m, n, k = mx_check_gemm_args(a, b_shuffle, b_scale_sh, out)
    cfg = config if config is not None else ck_default_config(m, n, k)
    if not isinstance(cfg, CkConfig):
        raise TypeError(f"config must be a gemm_ck.Config, got {type(cfg).__name__}")
    a_q, a_scale_sh = mxq_quantize_shuffled(a, rounding)
    c = mx_output(m, n, a.device, out)
    tiles = triton.cdiv(m, cfg.block_m) * triton.cdiv(n, cfg.block_n)
    _ck_kernel[(tiles,)](a_q, a_scale_sh, b_shuffle.view(torch.uint8), b_scale_sh.view(torch.uint8), c,
                         m, n, k // 2, k // 32, b_scale_sh.shape[1],
                         BLOCK_M=cfg.block_m, BLOCK_N=cfg.block_n, BLOCK_K=cfg.block_k, GROUP_M=cfg.group_m,
                         num_warps=cfg.num_warps, num_stages=cfg.num_stages)
    return c


# The path contract (mxlib.runtime.paths): every path module exposes these four names.
Config = CkConfig
default_config = ck_default_config
grid = ck_grid
gemm = ck_gemm
