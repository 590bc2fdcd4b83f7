"""Path "ck": the Triton counterpart of CK's `gemm_a4w4` blockscale kernel, the seed's path for M > 32
(the contest's shapes on it have M >= 64).

The portable tiled kernel (`gemm_tiled`) with a taller, narrower default tile than the asm path (64x64
from M = 64 on, against asm's 32x128: as many outputs per tile) and CK-style grouped tile order: a 1-D
grid walks `group_m` row tiles down one column of B tiles before moving right, so programs running
together share B tiles in L2. Same inputs as the seed's CK call: A quantized per call
with its scales in the e8m0_shuffle layout, B_shuffle and B_scale_sh read in place.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch

from .common import mx_check_config, mx_int
from .gemm_tiled import tiled_gemm, tiled_grid
from ..spec.ints import gemm_shape


@dataclass(frozen=True)
class CkConfig:
    block_m: int = 64
    # Not 128: with block_m=64, block_n=128 Triton 3.6 fails to compile this kernel for sm_90
    # (KERNEL_NOTES.md, "Compiler facts found on the way").
    block_n: int = 64
    block_k: int = 128
    split_k: int = 1  # no split-K on this path; kept so every path's Config has the same fields
    num_warps: int = 4
    num_stages: int = 2
    group_m: int = 8  # row-tiles per group of the grouped tile order

    def __post_init__(self):
        mx_check_config(self, "ck", split_k=False)
        if not mx_int(self.group_m) or self.group_m < 1:
            raise ValueError(f"ck Config.group_m must be a positive integer, got {self.group_m!r}")


def ck_default_config(m: int, n: int, k: int, device=None) -> CkConfig:
    """64-row tiles from M = 64 on (the seed sends M > 32 here; its contest shapes start at M = 64); smaller
    M gets the smallest power-of-two row tile that holds it, so any M works without wasting a 64-row tile."""
    m, n, k = gemm_shape(m, n, k)
    block_m = 64 if m >= 64 else max(16, 1 << (m - 1).bit_length())
    return CkConfig(block_m=block_m)


def ck_gemm(a: torch.Tensor, b_shuffle: torch.Tensor, b_scale_sh: torch.Tensor, *, config: CkConfig | None = None,
            rounding: str = "rne", out: torch.Tensor | None = None) -> torch.Tensor:
    """bf16 (M, N) = dequant(quant(A)) @ dequant(B)^T. `out`, if given, is written and returned;
    otherwise every call returns a fresh tensor."""
    return tiled_gemm("ck", CkConfig, ck_default_config, a, b_shuffle, b_scale_sh, config, rounding, out)


# The path contract (mxlib.runtime.paths): every path module exposes these four names.
Config = CkConfig
default_config = ck_default_config
grid = tiled_grid
gemm = ck_gemm
