"""Path "asm": the Triton counterpart of aiter's `gemm_a4w4_asm`, the seed's path for M <= 32 at any K
(but (16, 2112, 7168), path "splitk"), where the seed names the 32x128 kernel for three shapes and leaves
the others to aiter's heuristic (`mxlib.spec.seed.seed_plan`).

The portable tiled kernel (`gemm_tiled`) with the 32x128 kernel's tile and aiter's launch order for its
ASM kernels: a 2-D grid (ceil(N/BLOCK_N), ceil(M/BLOCK_M)), column (N) tiles fastest. A is quantized per
call by mxlib's fused quant+shuffle kernel, B read in place.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch

from .common import mx_check_config
from .gemm_tiled import tiled_gemm, tiled_grid
from ..spec.ints import gemm_shape


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

    @property
    def group_m(self) -> int:
        """The tile order `gemm_tiled` runs: 0, a 2-D grid with column (N) tiles fastest (aiter's ASM launch:
        grid x = ceil(N/tile_N), y = ceil(M/tile_M))."""
        return 0


def asm_default_config(m: int, n: int, k: int, device=None) -> AsmConfig:
    """The ASM kernel's 32x128 tile; a 16-row tile when M <= 16 wastes fewer rows (on any `device`)."""
    m, n, k = gemm_shape(m, n, k)
    return AsmConfig(block_m=16 if m <= 16 else 32)


def asm_gemm(a: torch.Tensor, b_shuffle: torch.Tensor, b_scale_sh: torch.Tensor, *, config: AsmConfig | None = None,
             rounding: str = "rne", out: torch.Tensor | None = None) -> torch.Tensor:
    """bf16 (M, N) = dequant(quant(A)) @ dequant(B)^T. `out`, if given, is written and returned;
    otherwise every call returns a fresh tensor."""
    return tiled_gemm("asm", AsmConfig, asm_default_config, a, b_shuffle, b_scale_sh, config, rounding, out)


# The path contract (mxlib.runtime.paths): every path module exposes these four names.
Config = AsmConfig
default_config = asm_default_config
grid = tiled_grid
gemm = asm_gemm
