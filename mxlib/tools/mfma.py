"""Which bytes each lane of gfx950's scaled MFMA holds for MXFP4 operands, and where those bytes sit in
the contest's two preshuffled layouts (`mxlib.spec.layouts`): the matrix-core reason the layouts look as
they do.

The instructions (gfx950, the MI355X): ``v_mfma_scale_f32_16x16x128_f8f6f4`` and
``v_mfma_scale_f32_32x32x64_f8f6f4``. One wave of 64 lanes computes a 16x16 (or 32x32) fp32 tile from
two operands of 16 (or 32) rows each, K = 128 (or 64) values deep, with one E8M0 scale per row and
32-value block on each side. For E2M1 operands every lane holds 32 consecutive K values of one row
(16 bytes, four VGPRs) and one scale byte:

- 16x16x128: lane l holds row ``l % 16`` and K values ``32 * (l // 16)`` .. ``+ 31``;
- 32x32x64: lane l holds row ``l % 32`` and K values ``32 * (l // 32)`` .. ``+ 31``;

and the scale it supplies is that row's scale for that 32-value block. A 32-bit scale register holds
four scale bytes; the instruction's OPSEL bits pick the byte each MFMA uses.

Sources (read, not run): AMD's ROCm blog "Matrix Core Programming on AMD CDNA3 and CDNA4 architecture"
(rocm.blogs.amd.com/software-tools-optimization/matrix-cores-cdna, 2025: the 32x32x64 FP4 layout, its
example kernel loads row ``tid % 32`` at byte ``(tid / 32) * 16``, one E8M0 scale per lane); Modular's
MAX kernel docs for CDNA4 block-scaled MFMA (docs.modular.com, ``mxfp4_matmul_amd`` and
``cdna4_block_scaled_mfma``: the 16x16x128 lane mapping ``lane_row = lane % 16``, ``lane_k_group =
lane / 16``, 16 contiguous bytes and one scale byte per lane, the byte index 0..3 into a packed scale
word). Not checked against the CDNA4 ISA reference guide itself (not available here); the compiled
listings in data/results/mi355x/ (notebook 02) agree with these layouts in what they show.

The byte positions come from `mxlib.spec.layouts` (`weight_position`, `scale_position`).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..spec.layouts import scale_position, weight_position

WAVE = 64  # lanes of a gfx950 wavefront
VALUES_PER_LANE = 32  # E2M1 values per lane and operand: one 32-value scale block, 16 bytes
SHAPES = {"16x16x128": (16, 128), "32x32x64": (32, 64)}  # rows per operand, K per instruction


def _shape(shape: str) -> tuple[int, int]:
    if shape not in SHAPES:
        raise ValueError(f"shape must be one of {', '.join(SHAPES)}, got {shape!r}")
    return SHAPES[shape]


@dataclass(frozen=True)
class Lane:
    lane: int
    row: int  # row of the operand (an N row of B, or an M row of A) within the instruction's rows
    block: int  # 32-value K block within the instruction's K
    k_first: int  # first K value the lane holds, within the instruction's K


def lanes(shape: str) -> list[Lane]:
    """The 64 lanes of one scaled MFMA of `shape` and the operand slice each holds (module docstring)."""
    rows, _ = _shape(shape)
    return [Lane(l, l % rows, l // rows, VALUES_PER_LANE * (l // rows)) for l in range(WAVE)]


def weight_runs(shape: str, kb_total: int, n0: int = 0, k0: int = 0) -> list[int]:
    """B_shuffle byte offset of each lane's 16 bytes, for the MFMA over B rows n0.. (a multiple of 16)
    and K values k0.. (a multiple of the instruction's K) of a weight with kb_total bytes a row. Raises
    if a lane's 16 bytes are not contiguous in B_shuffle (they always are: each 16-byte run of the
    shuffle is one row's 32-value block)."""
    rows, k_instr = _shape(shape)
    if n0 % 16 or k0 % k_instr or kb_total % 32:
        raise ValueError(f"n0 must be a multiple of 16, k0 of {k_instr}, kb_total of 32; got {n0}, {k0}, {kb_total}")
    out = []
    for lane in lanes(shape):
        n, kb = n0 + lane.row, (k0 + lane.k_first) // 2
        first = weight_position(n, kb, kb_total)
        if [weight_position(n, kb + j, kb_total) for j in range(16)] != list(range(first, first + 16)):
            raise AssertionError(f"lane {lane.lane}'s bytes are not one 16-byte run")  # cannot happen
        out.append(first)
    return out


def scale_bytes(shape: str, sn: int, n0: int = 0, k0: int = 0) -> list[int]:
    """e8m0_shuffle byte offset of each lane's scale (row n0 + row, block (k0 + k_first) / 32) in a
    shuffled scale tensor with sn columns (ceil8(K/32))."""
    rows, k_instr = _shape(shape)
    if k0 % k_instr:
        raise ValueError(f"k0 must be a multiple of {k_instr}, got {k0}")
    return [scale_position(n0 + lane.row, (k0 + lane.k_first) // 32, sn) for lane in lanes(shape)]


def scale_words(shape: str, sn: int, n0: int = 0, k0: int = 0) -> list[tuple[int, int]]:
    """(4-byte word index, byte in the word) of each lane's scale in e8m0_shuffle: `scale_bytes` // 4 and % 4."""
    return [(b // 4, b % 4) for b in scale_bytes(shape, sn, n0, k0)]


def bytes_used_per_word(shape: str, sn: int) -> int:
    """How many bytes of each 4-byte scale word it reads a lane uses, over the MFMAs of `shape` that cover one
    e8m0_shuffle tile (32 rows, 256 K values): 4 for 16x16x128 (lane l reads word l in all four),
    2 for 32x32x64 (rows r and r + 16 share a word, so each of the two lanes uses half of it). A lane that
    loads its words whole wastes the rest. Raises if lanes or words differ (they do not)."""
    rows, k_instr = _shape(shape)
    used: dict[tuple[int, int], set[int]] = {}
    for n0 in range(0, 32, rows):
        for k0 in range(0, 256, k_instr):
            for lane, (word, byte) in enumerate(scale_words(shape, sn, n0, k0)):
                used.setdefault((lane, word), set()).add(byte)
    counts = {len(b) for b in used.values()}
    if len(counts) != 1:
        raise AssertionError(f"{shape}: lanes use {sorted(counts)} bytes of their words")  # cannot happen
    return counts.pop()


def contiguous_runs(shape: str, kb_total: int, n0: int = 0, k0: int = 0) -> list[tuple[int, int]]:
    """The B operand of one MFMA (`weight_runs`' 64 lanes of 16 bytes) as maximal runs of contiguous
    B_shuffle bytes: (first, last) byte offsets, inclusive, in increasing order."""
    runs: list[tuple[int, int]] = []
    for first in sorted(weight_runs(shape, kb_total, n0, k0)):
        if runs and first == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], first + 15)
        else:
            runs.append((first, first + 15))
    return runs


def lanes_figure(k: int):
    """Notebook 02's lane map: per instruction shape, which lane holds each 32-value block of the B operand
    (rows down, K blocks across), labelled with the B_shuffle byte offset of its 16 bytes for a weight of
    K = `k` values a row; colour: the lane's group of 16."""
    import matplotlib.pyplot as plt
    import numpy as np

    fig, axes = plt.subplots(1, len(SHAPES), figsize=(11, 8.6), gridspec_kw={"width_ratios": [4, 2.4]},
                             layout="constrained")
    for ax, shape in zip(axes, SHAPES):
        rows, depth = SHAPES[shape]
        blocks = depth // VALUES_PER_LANE
        runs = weight_runs(shape, k // 2)
        grid = np.zeros((rows, blocks))
        for x in lanes(shape):
            grid[x.row, x.block] = x.lane
            ax.text(x.block, x.row, f"lane {x.lane}\n@{runs[x.lane]}", ha="center", va="center", fontsize=6.5)
        ax.imshow(grid // 16, cmap="Pastel1", vmin=0, vmax=8, aspect="auto", interpolation="nearest")
        ax.set_xticks(range(blocks), [f"K {32 * b}-{32 * b + 31}" for b in range(blocks)])
        ax.set_yticks(range(rows), [str(r) for r in range(rows)], fontsize=7)
        ax.grid(False)
        ax.set(title=f"v_mfma_scale_f32_{shape}_f8f6f4", xlabel="32-value K block (one scale each)", ylabel="B row (N)")
    fig.suptitle(f"Which lane holds each 32-value block of the B operand, and where it sits in B_shuffle (K = {k}):\n"
                 "'@' = byte offset of the lane's 16 bytes; colour = group of 16 lanes")
    return fig
