"""The portable tiled MXFP4 GEMM behind paths "asm" and "ck": one program per output tile walks all of K.

As in the seed, A is quantized per call by a fused quant+shuffle kernel (mxlib's: scales written straight in
the e8m0_shuffle layout) and the GEMM reads A's scales in that layout; B_shuffle and B_scale_sh are
read in place. Each program accumulates its (BLOCK_M x BLOCK_N) tile over all of K in fp32 and writes
bf16; there is no split-K.

The two paths differ only in their default tile and in the order programs take tiles, `config.group_m`
(`tiled_launch` gives the grid):

- 0 (path "asm", aiter's `gemm_a4w4_asm` launch): a 2-D grid (ceil(N/BLOCK_N), ceil(M/BLOCK_M)),
  program_id(0) the column (N) tile, so column tiles vary fastest, as aiter launches its ASM kernels
  (grid x = ceil(N/tile_N), y = ceil(M/tile_M));
- g >= 1 (path "ck", CK's blockscale kernel): a 1-D grid in grouped order, g row tiles down one column
  of B tiles before moving right, so programs running together share B tiles in L2.

Tiles are independent, so the order changes which programs run together, never the result.

`gemm_asm` and `gemm_ck` hold each path's Config and default tile and expose the path contract
(`mxlib.runtime.paths`) through `tiled_gemm` and `tiled_grid`.
"""
from __future__ import annotations

import torch
import triton
import triton.language as tl

from .common import (mx_check_gemm_args, mx_f32_to_bf16, mx_launch_device, mx_output, mx_resolve_config, mx_scaled_tile,
                     mx_tiles)
from .quant_triton import mxq_programs, mxq_quantize_shuffled
from ..spec.ints import gemm_shape


def tiled_grid(m: int, n: int, k: int, config) -> int:
    """CTAs launched per call: the quant+shuffle kernel's programs plus the GEMM's tiles."""
    m, n, k = gemm_shape(m, n, k, empty_m=True)
    return mxq_programs(m, k, shuffled=True) + mx_tiles(m, n, config)


def tiled_launch(m: int, n: int, config) -> tuple[int, ...]:
    """The GEMM kernel's launch grid: (column tiles, row tiles) when `config.group_m` is 0 (aiter's ASM
    order), else (row tiles x column tiles,) walked in groups of `group_m` row tiles."""
    tiles_m, tiles_n = triton.cdiv(m, config.block_m), triton.cdiv(n, config.block_n)
    return (tiles_n, tiles_m) if config.group_m == 0 else (tiles_m * tiles_n,)


# Shape-dependent integers are not specialized (divisibility, == 1): one compile per config serves every shape.
@triton.jit(do_not_specialize=["M", "G", "scale_sn"])
def _tiled_kernel(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, c_ptr, M, N, Kb, G, scale_sn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    if GROUP_M == 0:
        pid_n = tl.program_id(0)
        pid_m = tl.program_id(1)
    else:
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
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], mx_f32_to_bf16(acc), mask=mask)


def tiled_gemm(path: str, config_type: type, default_config, a: torch.Tensor, b_shuffle: torch.Tensor,
               b_scale_sh: torch.Tensor, config, rounding: str, out: torch.Tensor | None) -> torch.Tensor:
    """bf16 (M, N) = dequant(quant(A)) @ dequant(B)^T for path `path`, whose Config is `config_type`
    and whose `default_config(m, n, k, device)` gives the tile when `config` is None. `out`, if given, is
    written and returned; otherwise every call returns a fresh tensor."""
    m, n, k = mx_check_gemm_args(a, b_shuffle, b_scale_sh, out, rounding)
    # the config is checked first, as for any M (an empty A needs none, so any shape's serves it)
    cfg = mx_resolve_config(path, config, config_type, default_config, max(m, 1), n, k, a.device)
    c = mx_output(m, n, a.device, out)
    if m == 0:
        return c  # an empty A gives an empty C: nothing to launch
    a_q, a_scale_sh = mxq_quantize_shuffled(a, rounding)
    grid = tiled_launch(m, n, cfg)
    with mx_launch_device(a.device):
        _tiled_kernel[grid](a_q, a_scale_sh, b_shuffle.view(torch.uint8), b_scale_sh.view(torch.uint8), c,
                            m, n, k // 2, k // 32, b_scale_sh.shape[1],
                            BLOCK_M=cfg.block_m, BLOCK_N=cfg.block_n, BLOCK_K=cfg.block_k, GROUP_M=cfg.group_m,
                            num_warps=cfg.num_warps, num_stages=cfg.num_stages)
    return c
