"""Path "asm": the Triton counterpart of aiter's `gemm_a4w4_asm` 32x128 kernel, the seed's path for
M <= 32, K = 512.

As in the seed, A is quantized per call by the fused quant+shuffle kernel (scales written straight
in the e8m0_shuffle layout) and the GEMM reads A's scales in that layout; B_shuffle and B_scale_sh
are read in place. One program per (BLOCK_M x BLOCK_N) output tile walks all of K (the 32x128 ASM
kernel has no split-K), accumulating in fp32 and writing bf16.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
import triton
import triton.language as tl

from .common import mx_check_config, mx_check_gemm_args, mx_output, mx_scaled_tile
from .quant_triton import mxq_programs, mxq_quantize_shuffled


@dataclass(frozen=True)
class AsmConfig:
    block_m: int = 32
    block_n: int = 128
    block_k: int = 128
    split_k: int = 1  # no split-K on this path; kept so every path's Config has the same fields
    num_warps: int = 4
    num_stages: int = 2

    def __post_init__(self):
        mx_check_config(self, "asm", split_k=False)


def asm_default_config(m: int, n: int, k: int) -> AsmConfig:
    """The ASM kernel's 32x128 tile; a 16-row tile when M <= 16 wastes fewer rows."""
    return AsmConfig(block_m=16 if m <= 16 else 32)


def asm_grid(m: int, n: int, k: int, config: AsmConfig) -> int:
    """CTAs launched per call: the quant+shuffle kernel's programs plus the GEMM's tiles."""
    return mxq_programs(m, k, shuffled=True) + triton.cdiv(m, config.block_m) * triton.cdiv(n, config.block_n)


# Shape-dependent integers are not specialized (divisibility, == 1): one compile per config serves every shape.
@triton.jit(do_not_specialize=["M", "G", "scale_sn"])
def _asm_kernel(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, c_ptr, M, N, Kb, G, scale_sn,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = mx_scaled_tile(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, offs_m, offs_n, M, N, Kb,
                         scale_sn, scale_sn, 0, G, True, BLOCK_M, BLOCK_N, BLOCK_K)
    mask = (offs_m < M)[:, None] & (offs_n < N)[None, :]
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc.to(tl.bfloat16), mask=mask)


def asm_gemm(a: torch.Tensor, b_shuffle: torch.Tensor, b_scale_sh: torch.Tensor, *, config: AsmConfig | None = None,
         rounding: str = "rne", out: torch.Tensor | None = None) -> torch.Tensor:
    """bf16 (M, N) = dequant(quant(A)) @ dequant(B)^T. `out`, if given, is written and returned;
    otherwise every call returns a fresh tensor."""
    m, n, k = mx_check_gemm_args(a, b_shuffle, b_scale_sh, out)
    cfg = config if config is not None else asm_default_config(m, n, k)
    if not isinstance(cfg, AsmConfig):
        raise TypeError(f"config must be a gemm_asm.Config, got {type(cfg).__name__}")
    a_q, a_scale_sh = mxq_quantize_shuffled(a, rounding)
    c = mx_output(m, n, a.device, out)
    launch = (triton.cdiv(m, cfg.block_m), triton.cdiv(n, cfg.block_n))
    _asm_kernel[launch](a_q, a_scale_sh, b_shuffle.view(torch.uint8), b_scale_sh.view(torch.uint8), c,
                        m, n, k // 2, k // 32, b_scale_sh.shape[1],
                        BLOCK_M=cfg.block_m, BLOCK_N=cfg.block_n, BLOCK_K=cfg.block_k,
                        num_warps=cfg.num_warps, num_stages=cfg.num_stages)
    return c


# The path contract (mxlib.runtime.paths): every path module exposes these four names.
Config = AsmConfig
default_config = asm_default_config
grid = asm_grid
gemm = asm_gemm
