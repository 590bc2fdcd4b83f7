"""One style for every workbook figure, and their export as deterministic SVG plus PNG.

`save(fig, name)` writes ``<name>.svg`` and ``<name>.png`` into `data/figures/` (or `out_dir`).
The SVG is byte-for-byte reproducible: fixed hash salt for its ids, no date in its metadata, and
text kept as text in one bundled font (``svg.fonttype = "none"``), so re-running the workbook on the
same data changes no committed figure. `stamp(fig, frame)` writes where a measured figure's numbers
come from (device and date, read from the CSV's own columns) into its corner.

Importing this module applies the style. Outside a Jupyter kernel it also selects the Agg backend
(headless); inside one the kernel's inline backend stays, so figures still show in the notebook.
"""
from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

if "ipykernel" not in sys.modules:
    matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (after the backend choice)
from matplotlib import ticker  # noqa: E402

from .repo import FIGURES_DIR  # noqa: E402

# Colors by role, so a path keeps its color across notebooks (Okabe-Ito, readable by colorblind readers).
COLORS = {
    "asm": "#0072B2",
    "ck": "#E69F00",
    "splitk": "#009E73",
    "mxlib": "#D55E00",
    "cublas_bf16": "#555555",
    "touch": "#999999",
    "a_quantized": "#56B4E9",
    "a_once": "#CC79A7",
    "rne": "#0072B2",
    "ties_away": "#D55E00",
    "MI355X": "#D55E00",
    "H200": "#009E73",
}

STYLE = {
    "font.family": "DejaVu Sans",  # ships with matplotlib: the same glyphs on every machine
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": matplotlib.cycler(color=["#0072B2", "#D55E00", "#009E73", "#E69F00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]),
    "figure.figsize": (6.4, 4.0),
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "savefig.bbox": "tight",
    "image.cmap": "viridis",
    "svg.fonttype": "none",
    "svg.hashsalt": "mxlib",
    "path.simplify": False,
}

plt.rcParams.update(STYLE)


def save(fig, name: str, out_dir=None) -> tuple[Path, Path]:
    """Write `fig` as ``<name>.svg`` and ``<name>.png`` into `out_dir` (default data/figures/).

    Returns the two paths. The figure stays open, so a notebook still displays it.
    """
    if not isinstance(name, str) or not name or "/" in name or name.startswith("."):
        raise ValueError(f"name must be a plain file stem like '01_e2m1_grid', got {name!r}")
    out = Path(out_dir) if out_dir is not None else FIGURES_DIR
    out.mkdir(parents=True, exist_ok=True)
    svg, png = out / f"{name}.svg", out / f"{name}.png"
    with plt.rc_context(STYLE):  # a notebook may have changed rcParams since import
        fig.savefig(svg, format="svg", metadata={"Date": None, "Creator": None})
        fig.savefig(png, format="png", metadata={"Software": None})
    return svg, png


def source_line(frame, csv_name: str) -> str:
    """'<device>, <date range> (<csv_name>)' from a measurement frame's `device` and `date` columns."""
    for col in ("device", "date"):
        if col not in frame.columns:
            raise ValueError(f"frame needs a {col!r} column to say where its numbers come from; it has {list(frame.columns)}")
    devices = ", ".join(sorted(map(str, frame["device"].dropna().unique())))
    dates = sorted(str(d)[:10] for d in frame["date"].dropna().unique())
    when = dates[0] if len(set(dates)) == 1 else f"{dates[0]}..{dates[-1]}"
    return f"measured on {devices}, {when} ({csv_name})"


def stamp(fig, frame, csv_name: str) -> None:
    """Write the measurements' source (device and date from the CSV) under everything already drawn,
    at the right. Call it last, just before `save`, so that nothing added later lands on it."""
    fig.draw_without_rendering()  # runs the layout, so the extent below is final
    bottom = fig.get_tightbbox().y0 / fig.get_figheight()  # inches -> figure fraction (may be < 0)
    fig.text(0.995, bottom - 0.01, source_line(frame, csv_name), ha="right", va="top", fontsize=7, color="#666666")


def speed_bars(ax, frame, providers, *, timing: str = "contest") -> list[str]:
    """Grouped bars of `median_us` (whiskers p20..p80) per shape for each provider of a bench.csv frame.

    A black bar over each group marks that shape's empty-kernel time + floor (the `empty_us` and
    `floor_us` columns: what no implementation can beat in one launch). Rows without a time (a
    provider that failed) are left out, and so are shapes no provider has. Returns the shape labels.
    """
    rows = frame[(frame["timing"] == timing) & frame["provider"].isin(providers) & frame["median_us"].notna()]
    shapes = list(dict.fromkeys(f"{m}x{n}x{k}" for m, n, k in zip(rows["m"], rows["n"], rows["k"])))
    label = rows["m"].astype(str) + "x" + rows["n"].astype(str) + "x" + rows["k"].astype(str)
    width = 0.8 / max(len(providers), 1)
    for i, prov in enumerate(providers):
        r = rows[rows["provider"] == prov].assign(shape=label).set_index("shape")
        xs = [j for j, s in enumerate(shapes) if s in r.index]
        if not xs:
            continue
        med = [r.loc[shapes[j], "median_us"] for j in xs]
        err = [[m - r.loc[shapes[j], "p20_us"] for j, m in zip(xs, med)],
               [r.loc[shapes[j], "p80_us"] - m for j, m in zip(xs, med)]]
        ax.bar([x - 0.4 + width * (i + 0.5) for x in xs], med, width, yerr=err, capsize=2,
               color=COLORS.get(prov.split(":")[-1], None), label=prov)
    floors = rows.assign(shape=label).groupby("shape", sort=False)[["empty_us", "floor_us"]].first()
    for j, s in enumerate(shapes):
        ax.hlines(floors.loc[s, "empty_us"] + floors.loc[s, "floor_us"], j - 0.45, j + 0.45, color="black", lw=2,
                  label="empty kernel + floor" if j == 0 else None)
    ax.set_xticks(range(len(shapes)), shapes, rotation=30, ha="right")
    ax.set(yscale="log", ylabel=f"{timing} time per call (us, median)")
    plain_log(ax)
    return shapes


def plain_log(ax) -> None:
    """Label the log-scaled axes of `ax` with plain numbers (20, 30) instead of 2x10^1; minor ticks get
    labels only while the axis spans few decades."""
    for axis, scale in ((ax.xaxis, ax.get_xscale()), (ax.yaxis, ax.get_yscale())):
        if scale == "log":
            axis.set_major_formatter(ticker.LogFormatter(labelOnlyBase=False))
            axis.set_minor_formatter(ticker.LogFormatter(labelOnlyBase=False, minor_thresholds=(2, 0.5)))
