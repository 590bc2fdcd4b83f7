"""One style for every workbook figure, and their export as deterministic SVG plus PNG.

`save(fig, name)` writes ``<name>.svg`` and ``<name>.png`` into `data/figures/` (or `out_dir`).
The SVG is byte-for-byte reproducible: fixed hash salt for its ids, no date in its metadata, and
text kept as text in one bundled font (``svg.fonttype = "none"``), so re-running the workbook on the
same data changes no committed figure. `stamp(fig, frame)` writes where a measured figure's numbers
come from (device and date, read from the CSV's own columns) into its corner.

Inside a Jupyter kernel `save` also shows the figure: it displays the PNG it just wrote, tagged with
the figure's name and `fingerprint` (a hash of what is drawn, not of how one matplotlib version
renders it), and closes the figure so that the inline backend does not show it a second time. The
workbook's staleness check compares committed notebooks by those tags (`mxlib.tools.workbook`).

Importing this module applies the style. Outside a Jupyter kernel it also selects the Agg backend
(headless); inside one the kernel's inline backend stays, so figures still show in the notebook.
"""
from __future__ import annotations

import base64
import hashlib
import json
import math
import sys
from pathlib import Path

import matplotlib

if "ipykernel" not in sys.modules:
    matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (after the backend choice)
from matplotlib import colors as mcolors  # noqa: E402
from matplotlib import ticker  # noqa: E402

from .bench_csv import devices  # noqa: E402
from .files import atomic_path  # noqa: E402
from .repo import FIGURES_DIR  # noqa: E402

# Colors by role, so a path keeps its color across notebooks (Okabe-Ito, readable by colorblind readers).
COLORS = {
    "asm": "#0072B2",
    "ck": "#E69F00",
    "splitk": "#009E73",
    "mxlib": "#D55E00",
    "fused": "#AA4499",  # the H200 paths that are not seed paths: Paul Tol's muted palette, also colorblind-safe
    "fused_fp4": "#44AA99",
    "mma_sm90": "#332288",
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


FIGURE_METADATA_KEY = "mxlib"  # display metadata: {"mxlib": {"figure": name, "fingerprint": hex}}


def save(fig, name: str, out_dir=None) -> None:
    """Write `fig` as ``<name>.svg`` and ``<name>.png`` into `out_dir` (default data/figures/).

    In a Jupyter kernel, then show the PNG just written, tagged with the name and `fingerprint(fig)`,
    and close the figure (the notebook's copy of a figure is the exported file). Elsewhere the figure
    stays open.
    """
    if not isinstance(name, str) or not name or "/" in name or name.startswith("."):
        raise ValueError(f"name must be a plain file stem like '01_e2m1_grid', got {name!r}")
    out = Path(out_dir) if out_dir is not None else FIGURES_DIR
    out.mkdir(parents=True, exist_ok=True)
    svg, png = out / f"{name}.svg", out / f"{name}.png"
    with plt.rc_context(STYLE), atomic_path(svg) as svg_staged, atomic_path(png) as png_staged:
        # the rc context: a notebook may have changed rcParams since import
        fig.savefig(svg_staged, format="svg", metadata={"Date": None, "Creator": None})
        fig.savefig(png_staged, format="png", metadata={"Software": None})
    if _in_kernel():
        from IPython.display import display

        tag = {FIGURE_METADATA_KEY: {"figure": name, "fingerprint": fingerprint(fig)}}
        display({"image/png": base64.b64encode(png.read_bytes()).decode("ascii"), "text/plain": f"[figure {name}]"},
                raw=True, metadata=tag)
        plt.close(fig)


def _in_kernel() -> bool:
    if "ipykernel" not in sys.modules:
        return False
    from IPython import get_ipython

    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


# ---- what a figure draws, as a hash that does not depend on how matplotlib renders it ----

def _num(x) -> str:
    x = float(x)
    return "nan" if math.isnan(x) else f"{x:.6g}"


def _nums(values) -> list:
    import numpy as np

    arr = np.ma.filled(np.ma.asarray(values, dtype=float), np.nan).ravel()
    return [_num(v) for v in arr]


def _color(c) -> str:
    try:
        return mcolors.to_hex(c, keep_alpha=True)
    except (TypeError, ValueError):
        return str(c)


def _texts(ax) -> list:
    out = [[t.get_text(), _nums(t.get_position())] for t in ax.texts if t.get_visible() and t.get_text()]
    legend = ax.get_legend()
    if legend is not None:
        out.append(["legend", legend.get_title().get_text()] + [t.get_text() for t in legend.get_texts()])
    return out


def _fixed_ticks(axis) -> list:
    """Tick labels the notebook chose itself (a FixedFormatter); automatic ticks are left out, since
    where they fall is matplotlib's choice, not the figure's content."""
    fmt = axis.get_major_formatter()
    if isinstance(fmt, ticker.FixedFormatter):
        return [_nums(axis.get_major_locator()()), list(fmt.seq)]
    return []


def _axes_content(ax) -> dict:
    if ax.get_label() == "<colorbar>" or hasattr(ax, "_colorbar"):  # its label is content, its drawing matplotlib's
        return {"colorbar": [ax.get_xlabel(), ax.get_ylabel()]}
    content = {
        "titles": [ax.get_title(loc) for loc in ("left", "center", "right")],
        "labels": [ax.get_xlabel(), ax.get_ylabel()],
        "scales": [ax.get_xscale(), ax.get_yscale()],
        "ticks": [_fixed_ticks(ax.xaxis), _fixed_ticks(ax.yaxis)],
        "lines": [[_nums(line.get_xydata()), _color(line.get_color()), str(line.get_linestyle()),
                   str(line.get_marker()), line.get_label()] for line in ax.lines],
        "patches": [[_nums(p.get_patch_transform().transform(p.get_path().vertices)), _color(p.get_facecolor()),
                     p.get_label()] for p in ax.patches],
        "collections": [],
        "images": [],
        "texts": _texts(ax),
    }
    for c in ax.collections:
        lines = hasattr(c, "get_segments")  # a LineCollection: drawn by its edges (its face is 'none')
        colors = c.get_edgecolor() if lines else c.get_facecolor()
        entry = [type(c).__name__, _nums(c.get_offsets()), [_color(fc) for fc in colors], c.get_label()]
        if lines:
            entry.append([_nums(seg) for seg in c.get_segments()])
        if c.get_array() is not None:
            entry.append(_nums(c.get_array()))
        content["collections"].append(entry)
    for im in ax.images:
        content["images"].append([list(im.get_array().shape), _nums(im.get_array()), im.get_cmap().name,
                                  _nums(im.get_clim()), _num(im.get_alpha() if im.get_alpha() is not None else 1)])
    return content


def fingerprint(fig) -> str:
    """sha256 (hex) of what `fig` draws: each axes' titles, labels, scales, chosen tick labels, the
    data, colors and labels of its lines, patches, collections and images, its texts and legend
    entries, and the figure's own texts and size. Rendering details (fonts, automatic ticks, limits,
    anti-aliasing) are left out, so the same figure gives the same fingerprint under any matplotlib
    version, while any change to what is plotted changes it. Numbers are rounded to 6 significant digits.
    """
    content = {
        "size": _nums(fig.get_size_inches()),
        "suptitle": fig.get_suptitle(),
        "texts": [t.get_text() for t in fig.texts if t.get_text()],  # where `stamp` puts one depends on fonts
        "legends": [[t.get_text() for t in leg.get_texts()] for leg in fig.legends],
        "axes": [_axes_content(ax) for ax in fig.axes],
    }
    blob = json.dumps(content, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def _no_column(frame, col: str) -> ValueError:
    return ValueError(f"frame needs a {col!r} column to say where its numbers come from; it has {list(frame.columns)}")


def source_line(frame, csv_name: str) -> str:
    """'<device>, <date range> (<csv_name>)' from a measurement frame's `device` and `date` columns."""
    for col in ("device", "date"):
        if col not in frame.columns:
            raise _no_column(frame, col)
    dates = sorted(str(d)[:10] for d in frame["date"].dropna().unique())
    when = dates[0] if len(set(dates)) == 1 else f"{dates[0]}..{dates[-1]}"
    return f"measured on {', '.join(devices(frame))}, {when} ({csv_name})"


def device_short(frame) -> str:
    """The devices of a measurement frame's `device` column for a figure's title ('H200', 'H100 80GB HBM3'),
    so that a figure drawn from another GPU's run does not carry the recorded runs' device name."""
    names = devices(frame)
    if not names:
        raise _no_column(frame, "device")
    return ", ".join(sorted({name.removeprefix("NVIDIA ") for name in names}))


def stamp(fig, frame, csv_name: str) -> None:
    """Write the measurements' source (device and date from the CSV) under everything already drawn,
    at the right. Call it last, just before `save`, so that nothing added later lands on it."""
    fig.draw_without_rendering()  # runs the layout, so the extent below is final
    bottom = fig.get_tightbbox().y0 / fig.get_figheight()  # inches -> figure fraction (may be < 0)
    fig.text(0.995, bottom - 0.01, source_line(frame, csv_name), ha="right", va="top", fontsize=7, color="#666666")


def speed_bars(ax, frame, providers, *, timing: str = "contest", stat: str = "mean_us") -> list[str]:
    """Grouped bars of `stat` (default `mean_us`: the contest ranks per-shape means) per shape for each
    provider of a bench.csv frame, with a thin line from p20 to p80 over each bar (the spread of the calls).

    A black bar over each group marks that shape's empty-kernel time + floor (the `empty_us` and
    `floor_us` columns: what no implementation can beat in one launch). Rows without a time (a
    provider that failed) are left out, and so are shapes no provider has. Returns the shape labels.
    """
    if stat not in ("mean_us", "median_us"):
        raise ValueError(f"stat must be 'mean_us' or 'median_us', got {stat!r}")
    rows = frame[(frame["timing"] == timing) & frame["provider"].isin(providers) & frame[stat].notna()]
    shapes = list(dict.fromkeys(f"{m}x{n}x{k}" for m, n, k in zip(rows["m"], rows["n"], rows["k"])))
    label = rows["m"].astype(str) + "x" + rows["n"].astype(str) + "x" + rows["k"].astype(str)
    width = 0.8 / max(len(providers), 1)
    for i, prov in enumerate(providers):
        r = rows[rows["provider"] == prov].assign(shape=label).set_index("shape")
        xs = [j for j, s in enumerate(shapes) if s in r.index]
        if not xs:
            continue
        centers = [x - 0.4 + width * (i + 0.5) for x in xs]
        ax.bar(centers, [r.loc[shapes[j], stat] for j in xs], width, color=COLORS.get(prov.split(":")[-1], None),
               label=prov)
        ax.vlines(centers, [r.loc[shapes[j], "p20_us"] for j in xs], [r.loc[shapes[j], "p80_us"] for j in xs],
                  color="#333333", lw=0.8)
    floors = rows.assign(shape=label).groupby("shape", sort=False)[["empty_us", "floor_us"]].first()
    for j, s in enumerate(shapes):
        ax.hlines(floors.loc[s, "empty_us"] + floors.loc[s, "floor_us"], j - 0.45, j + 0.45, color="black", lw=2,
                  label="empty kernel + floor" if j == 0 else None)
    ax.set_xticks(range(len(shapes)), shapes, rotation=30, ha="right")
    ax.set(yscale="log", ylabel=f"{timing} time per call (us)\nbar: {stat[:-3]}, line: p20 to p80")
    plain_log(ax)
    return shapes


def bench_figure(frame, providers, title: str, source: str, *, figsize=(9, 4)):
    """A bench frame's `speed_bars` for `providers` as a figure of its own: titled '<device>: <title>' from the
    frame's `device` column (`device_short`), the legend to the right, stamped with `source` (the CSV drawn)."""
    fig, ax = plt.subplots(figsize=figsize, layout="constrained")
    speed_bars(ax, frame, providers)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_title(f"{device_short(frame)}: {title}")
    stamp(fig, frame, source)
    return fig


def utilization_panels(panels, *, suptitle: str = "", width_per_panel: float = 4.6):
    """One panel per device: bars of GEMM wave fill (%, `occupancy.cu_utilization`) per shape, each bar labelled with its CTA count
    and tile. `panels` is a list of (title, color, rows) with rows (shape label, CTAs, utilization 0..1,
    tile text). Devices never share an axes: a bar of one machine beside a bar of another would read as
    a comparison that these numbers do not support. Returns the figure.
    """
    fig, axes = plt.subplots(1, len(panels), figsize=(width_per_panel * len(panels), 3.9), sharey=True,
                             layout="constrained", squeeze=False)
    for ax, (title, color, rows) in zip(axes[0], panels):
        x = range(len(rows))
        ax.bar(x, [100 * r[2] for r in rows], 0.6, color=color)
        for xi, (_, ctas, util, tile) in zip(x, rows):
            ax.text(xi, 100 * util + 1.5, f"{ctas}\n{tile}", ha="center", va="bottom", fontsize=7)
        ax.set_xticks(list(x), [r[0] for r in rows], rotation=20, ha="right")
        ax.set(title=title, ylim=(0, 125), yticks=range(0, 101, 20))
        ax.title.set_fontsize(9.5)
    axes[0, 0].set_ylabel("GEMM wave fill (%)\n= CTAs / (waves x units)")
    if suptitle:
        fig.suptitle(suptitle, fontsize=10)
    return fig


def plain_log(ax) -> None:
    """Label the log-scaled axes of `ax` with plain numbers (20, 30) instead of 2x10^1; minor ticks get
    labels only while the axis spans few decades."""
    for axis, scale in ((ax.xaxis, ax.get_xscale()), (ax.yaxis, ax.get_yscale())):
        if scale == "log":
            axis.set_major_formatter(ticker.LogFormatter(labelOnlyBase=False))
            axis.set_minor_formatter(ticker.LogFormatter(labelOnlyBase=False, minor_thresholds=(2, 0.5)))
