"""The zero-copy views the seed reads the contest's preshuffled B through, and how one loaded piece of
each view maps back to natural (row, column) order (notebook 02).

- `seed_scale_view(B_scale_sh, K)`: ``B_scale_sh.view(N_pad // 32, K)``, valid only when K % 256 == 0
  (then K/32 is a multiple of 8 and the shuffle adds no columns). Row j holds the scales of B rows
  32j .. 32j+31, and each 256 consecutive bytes of it are one 32-row x 8-column tile of `e8m0_shuffle`.
- `seed_weight_view(B_shuffle)`: ``B_shuffle.view(N // 16, K / 2 * 16)``; row j holds B rows 16j .. 16j+15.

The inverses are `mxlib.spec.layouts`'s own: a scale tile read at `scale_position`, a weight group
through `unshuffle_weight`, so the layout rule is stated once, there.

The maps notebook 02 draws: `weight_sources` / `scale_sources` trace each shuffle by running it on a
matrix of its own coordinates (so they show what the transform does, not a second statement of it),
`shuffle_facts` checks them against the closed forms, and `weight_map_figure` / `scale_map_figure` draw
their first bytes.
"""
from __future__ import annotations

import torch

from ..spec import validate
from ..spec.layouts import (SCALE_PAD_COLS, WEIGHT_TILE_KB, WEIGHT_TILE_N, e8m0_shuffle, scale_position,
                            shuffle_weight, unshuffle_weight, weight_position)

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


def check_seed_views(b_q: torch.Tensor, b_scale: torch.Tensor, b_shuffle: torch.Tensor,
                     b_scale_sh: torch.Tensor) -> list[str]:
    """Notebook 02's proof on one input: both views share storage with what they view, every 32 x 256 rectangle
    of the scale view the seed's kernel loads (B's rows below N: the rest is padding no kernel reads) un-permutes
    to the natural scales `b_scale` ((N, K/32)), and every row of the weight view to 16 rows of `b_q`. Lines
    saying so; RuntimeError naming the first piece that differs."""
    n, k = b_q.shape[0], 2 * b_q.shape[1]
    view, wview = seed_scale_view(b_scale_sh, k), seed_weight_view(b_shuffle)
    if view.data_ptr() != b_scale_sh.data_ptr() or wview.data_ptr() != b_shuffle.data_ptr():
        raise RuntimeError("a view does not share storage with the tensor it views")
    for j in range(n // SCALE_TILE_ROWS):
        for c in range(k // 256):
            got = scale_tile_natural(view[j, 256 * c: 256 * (c + 1)])
            if not torch.equal(got, b_scale[32 * j: 32 * (j + 1), 8 * c: 8 * (c + 1)]):
                raise RuntimeError(f"scale view row {j}, bytes {256 * c}..{256 * c + 255}: not B's scales of rows "
                                   f"{32 * j}..{32 * j + 31}, columns {8 * c}..{8 * c + 7}")
    for j in range(n // WEIGHT_TILE_N):
        if not torch.equal(weight_group_natural(wview[j]), b_q[16 * j: 16 * (j + 1)]):
            raise RuntimeError(f"weight view row {j}: not B_q's rows {16 * j}..{16 * j + 15}")
    return [f"B_scale_sh {tuple(b_scale_sh.shape)} viewed as {tuple(view.shape)}: every 32x256 tile of B's {n} rows "
            "un-permutes to the natural scales",
            f"B_shuffle {tuple(b_shuffle.shape)} viewed as {tuple(wview.shape)}: row j is B_q rows 16j..16j+15"]


def _traced(shuffle, rows: int, cols: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(row, col) of the source each output byte of `shuffle` on a (rows, cols) byte matrix holds, in the
    output's memory order: the shuffle run on the row and the column numbers as data."""
    for v, name in ((rows, "rows"), (cols, "cols")):
        validate.positive(v, name)
        if v > 256:
            raise ValueError(f"{name} must be at most 256 (each coordinate travels as one byte), got {v}")
    r = torch.arange(rows, dtype=torch.int32)[:, None].expand(rows, cols).to(torch.uint8)
    c = torch.arange(cols, dtype=torch.int32)[None, :].expand(rows, cols).to(torch.uint8)
    return shuffle(r.contiguous()).flatten().long(), shuffle(c.contiguous()).flatten().long()


def weight_sources(n: int, kb: int) -> tuple[torch.Tensor, torch.Tensor]:
    """For each byte of the B_shuffle of an (n, kb)-byte B_q, in memory order: the (row, byte column) of B_q
    it holds (`shuffle_weight` traced; n a multiple of 16 and kb of 32, each at most 256)."""
    return _traced(shuffle_weight, n, kb)


def scale_sources(rows: int, cols: int) -> tuple[torch.Tensor, torch.Tensor]:
    """For each byte of `e8m0_shuffle` of (rows, cols) scales, in memory order: the (row, column) of the
    scale it holds (rows a multiple of 256 and cols of 8, so no padding; each at most 256)."""
    validate.multiple(rows, "rows", 256)
    validate.multiple(cols, "cols", SCALE_PAD_COLS)
    return _traced(e8m0_shuffle, rows, cols)


def _inverse(src_row: torch.Tensor, src_col: torch.Tensor, rows: int, cols: int) -> torch.Tensor:
    """(rows, cols) destination index of each source element of a traced permutation."""
    dest = torch.empty(rows, cols, dtype=torch.long)
    dest[src_row, src_col] = torch.arange(rows * cols)
    return dest


def shuffle_facts(n: int, kb: int, rows: int, cols: int) -> dict:
    """What notebook 02 checks on the traced shuffles: whether `weight_position` and `scale_position` give
    every byte's destination, and how many of B_shuffle's 16-byte runs hold 16 consecutive bytes of one
    row, all from one 32-value scale block (the load a lane makes), out of how many."""
    w_row, w_col = weight_sources(n, kb)
    s_row, s_col = scale_sources(rows, cols)
    i, j = torch.arange(n)[:, None], torch.arange(kb)[None, :]
    r, c = torch.arange(rows)[:, None], torch.arange(cols)[None, :]
    run_rows, run_cols = w_row.view(-1, 16), w_col.view(-1, 16)
    whole = ((run_rows == run_rows[:, :1]).all(1) & (run_cols == run_cols[:, :1] + torch.arange(16)).all(1)
             & (run_cols[:, 0] % 16 == 0))
    return {"weight_formula": bool(torch.equal(_inverse(w_row, w_col, n, kb), weight_position(i, j, kb))),
            "scale_formula": bool(torch.equal(_inverse(s_row, s_col, rows, cols), scale_position(r, c, cols))),
            "whole_runs": int(whole.sum()), "runs": len(whole)}


def _byte_map(labels_row, labels_col, colour, lines: int, title: str, xlabel: str, ylabel: str, bars=()):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 0.35 * lines + 1.2))
    ax.imshow(colour.numpy(), cmap="tab10", vmin=0, vmax=9, alpha=0.55, interpolation="nearest", aspect="auto")
    for i in range(lines):
        for j in range(16):
            ax.text(j, i, f"{labels_row[i, j].item()},{labels_col[i, j].item()}", ha="center", va="center",
                    fontsize=6.5)
    for kind, at in bars:
        (ax.axhline if kind == "h" else ax.axvline)(at, color="black", lw=0.8)
    ax.set_xticks(range(16))
    ax.set_yticks(range(lines), [f"{16 * i}" for i in range(lines)])
    ax.grid(False)
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    return fig


def weight_map_figure(n: int = 32, kb: int = 64, lines: int = 32):
    """The first 16 * `lines` bytes of the B_shuffle of an (n, kb)-byte B_q, 16 a line, each labelled with
    the 'row,byte' of B_q it holds; colour: byte // 16 (its 16-byte half of a 32-byte block)."""
    src_row, src_col = weight_sources(n, kb)
    rows, cols = src_row[:16 * lines].view(lines, 16), src_col[:16 * lines].view(lines, 16)
    return _byte_map(rows, cols, cols // 16, lines,
                     f"First {16 * lines} bytes of B_shuffle (16 per line): 'n,kb' of the B_q byte each holds; "
                     "color = kb // 16", "byte within the 16-byte line (one lane's 16-byte load)",
                     "byte offset in B_shuffle", bars=(("h", 15.5),))


def scale_map_figure(cols: int = 8):
    """The first 256 bytes (one 32-row x 8-column tile) of `e8m0_shuffle` of (256, cols) scales, 16 a line,
    each labelled with the 'row,col' of the scale it holds; colour: the scale column; bars between 4-byte
    words."""
    src_row, src_col = scale_sources(256, cols)
    rows, columns = src_row[:256].view(16, 16), src_col[:256].view(16, 16)
    return _byte_map(rows, columns, columns, 16,
                     "First 256 bytes of B_scale_sh (16 per line): 'row,col' of the scale each holds; color = "
                     "scale column", "byte within the 16-byte line (4-byte words between bars)",
                     "byte offset in B_scale_sh", bars=tuple(("v", j - 0.5) for j in range(0, 16, 4)))
