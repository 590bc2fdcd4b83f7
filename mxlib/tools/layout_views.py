"""The zero-copy views the seed reads the contest's preshuffled B through, and how one loaded piece of
each view maps back to natural (row, column) order (notebook 02).

- `seed_scale_view(B_scale_sh, K)`: ``B_scale_sh.view(N_pad // 32, K)``, valid only when K % 256 == 0
  (then K/32 is a multiple of 8 and the shuffle adds no columns). Row j holds the scales of B rows
  32j .. 32j+31, and each 256 consecutive bytes of it are one 32-row x 8-column tile of `e8m0_shuffle`.
- `seed_weight_view(B_shuffle)`: ``B_shuffle.view(N // 16, K / 2 * 16)``; row j holds B rows 16j .. 16j+15.

The inverses are `mxlib.spec.layouts`'s own: a scale tile read at `scale_position`, a weight group
through `unshuffle_weight`, so the layout rule is stated once, there.
"""
from __future__ import annotations

import torch

from ..spec import validate
from ..spec.layouts import SCALE_PAD_COLS, WEIGHT_TILE_KB, WEIGHT_TILE_N, scale_position, unshuffle_weight

SCALE_TILE_ROWS = 32  # rows of one e8m0_shuffle tile: 256 bytes = 32 rows x SCALE_PAD_COLS columns
SCALE_TILE_BYTES = SCALE_TILE_ROWS * SCALE_PAD_COLS


def seed_scale_view(b_scale_sh: torch.Tensor, k: int) -> torch.Tensor:
    """B_scale_sh ((ceil256(N), ceil8(K/32)) uint8) as the seed's (N_pad // 32, K) view, sharing storage.
    Raises ValueError unless K % 256 == 0 and B_scale_sh has K/32 columns: otherwise its columns are
    padded and no such view holds the bytes."""
    validate.tensor(b_scale_sh, "b_scale_sh")
    validate.ndim(b_scale_sh, "b_scale_sh", 2)
    validate.byte_dtype(b_scale_sh, "b_scale_sh")
    validate.positive(k, "k")
    rows, cols = b_scale_sh.shape
    if k % (32 * SCALE_PAD_COLS):
        raise ValueError(f"k must be a multiple of 256 for the seed's (N_pad // 32, K) view of B_scale_sh (else "
                         f"its K/32 columns are padded to a multiple of 8), got k={k} with B_scale_sh "
                         f"{tuple(b_scale_sh.shape)}: {b_scale_sh.numel()} bytes where the view needs "
                         f"{rows // SCALE_TILE_ROWS * k}")
    if cols != k // 32 or rows % SCALE_TILE_ROWS or not b_scale_sh.is_contiguous():
        raise ValueError(f"b_scale_sh must be a contiguous e8m0_shuffle of K/32 = {k // 32} columns, got "
                         f"{tuple(b_scale_sh.shape)}{'' if b_scale_sh.is_contiguous() else ', not contiguous'}")
    return b_scale_sh.view(rows // SCALE_TILE_ROWS, k)


def seed_weight_view(b_shuffle: torch.Tensor) -> torch.Tensor:
    """B_shuffle ((N, K/2) fp4x2 bytes, contiguous, N % 16 == 0) as the seed's (N // 16, K/2 * 16) view,
    sharing storage."""
    validate.tensor(b_shuffle, "b_shuffle")
    validate.ndim(b_shuffle, "b_shuffle", 2)
    validate.byte_dtype(b_shuffle, "b_shuffle")
    n, kb = b_shuffle.shape
    validate.multiple(n, "b_shuffle.shape[0] (N)", WEIGHT_TILE_N)
    validate.multiple(kb, "b_shuffle.shape[1] (K/2)", WEIGHT_TILE_KB)
    if not b_shuffle.is_contiguous():
        raise ValueError("b_shuffle must be contiguous: a view shares its storage as laid out")
    return b_shuffle.view(n // WEIGHT_TILE_N, kb * WEIGHT_TILE_N)


def scale_tile_natural(tile: torch.Tensor) -> torch.Tensor:
    """The (32, 8) scales, in natural order, of one 256-byte tile of `seed_scale_view` (or of
    `e8m0_shuffle`'s output): scale (r, c) is the byte at `scale_position(r, c, .)`."""
    validate.tensor(tile, "tile")
    if tile.dim() != 1 or tile.numel() != SCALE_TILE_BYTES:
        raise ValueError(f"tile must be the {SCALE_TILE_BYTES} bytes of one 32x8 scale tile (1-D), got shape "
                         f"{tuple(tile.shape)}")
    r = torch.arange(SCALE_TILE_ROWS, device=tile.device)[:, None]
    c = torch.arange(SCALE_PAD_COLS, device=tile.device)[None, :]
    return tile[scale_position(r, c, SCALE_PAD_COLS)]


def weight_group_natural(row: torch.Tensor) -> torch.Tensor:
    """The (16, K/2) bytes, in B_q's natural order, of one row of `seed_weight_view` (one 16-row group of
    B_shuffle): that group unshuffled (`unshuffle_weight`), since a row of the view is the group's bytes
    as B_shuffle lays them out."""
    validate.tensor(row, "row")
    group = WEIGHT_TILE_N * WEIGHT_TILE_KB
    if row.dim() != 1 or row.numel() % group:
        raise ValueError(f"row must be one 1-D row of the weight view, 16 rows x K/2 bytes (a multiple of {group}), "
                         f"got shape {tuple(row.shape)}")
    return unshuffle_weight(row.view(WEIGHT_TILE_N, -1))
