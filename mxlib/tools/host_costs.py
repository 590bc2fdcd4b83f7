"""The host's time per call, read from `scripts/host_time.py`'s CSVs: what the contest's timing hides.

The contest times a call between CUDA events after a flush that keeps the GPU busy while Python enqueues the
call, so the CPU's own time never shows in a score; an eager caller pays it on every call. `scripts/host_time.py`
measures it layer by layer (`LAYERS`) with the GPU idle before each call; `host_report` turns one run, and
optionally an A/B of two trees on one machine, into the text and figure notebook 08 shows.
"""
from __future__ import annotations

LAYERS = ("plan", "unpack", "path_gemm", "custom_kernel", "torch_mm", "empty_launch")
LAYER_LABELS = {"plan": "dispatch.plan", "unpack": "unpack_data", "path_gemm": "the path's gemm",
                "custom_kernel": "custom_kernel", "torch_mm": "torch.mm (cuBLAS)", "empty_launch": "one Triton launch"}


def medians(frame) -> dict:
    """{(m, n, k): {layer: median us}} of one host_time.csv frame; ValueError when a shape lacks a layer."""
    out: dict = {}
    for r in frame.itertuples():
        out.setdefault((int(r.m), int(r.n), int(r.k)), {})[str(r.layer)] = float(r.median_us)
    for shape, layers in out.items():
        missing = [name for name in LAYERS if name not in layers]
        if missing:
            raise ValueError(f"host_time frame: shape {'x'.join(map(str, shape))} has no row for layer(s) {missing}")
    return out


def _mean_of_rounds(frames: list, layer: str) -> dict:
    """{(m, n, k): the mean over `frames` (rounds of one tree) of `layer`'s median us}."""
    per = [medians(f) for f in frames]
    if any(set(p) != set(per[0]) for p in per):
        raise ValueError(f"the rounds of one tree time different shapes: {[sorted(p) for p in per]}")
    return {shape: sum(p[shape][layer] for p in per) / len(per) for shape in per[0]}


def host_report(run, ab: dict | None = None):
    """(text, figure) of the host's median us a call per benchmark shape and layer in `run` (one host_time.csv
    frame), with custom_kernel over torch.mm per shape; and with `ab` ({"old": [frames], "new": [frames]}: rounds
    of two trees timed in one call on one machine) custom_kernel old and new per shape, each the mean of its
    tree's rounds. The two panels may come from different machines: each title names its device."""
    import matplotlib.pyplot as plt

    from . import figures

    table = medians(run)
    shapes = list(table)
    labels = ["x".join(map(str, s)) for s in shapes]
    width = max(len(LAYER_LABELS[name]) for name in LAYERS) + 1
    lines = [f"host time per call, median us ({run.device.iloc[0]}; the GPU idle before each call)",
             f"{'shape':>14}" + "".join(f"{LAYER_LABELS[name]:>{width}}" for name in LAYERS) + "   custom_kernel / torch.mm"]
    for shape, label in zip(shapes, labels):
        row = table[shape]
        lines.append(f"{label:>14}" + "".join(f"{row[name]:>{width}.1f}" for name in LAYERS)
                     + f"   {row['custom_kernel'] / row['torch_mm']:.1f}x")
    panels = 1 if ab is None else 2
    fig, axes = plt.subplots(1, panels, figsize=(6.5 * panels, 4.2), layout="constrained", squeeze=False)
    ax = axes[0][0]
    bar = 0.8 / len(LAYERS)
    for i, name in enumerate(LAYERS):
        ax.bar([j - 0.4 + bar * (i + 0.5) for j in range(len(shapes))], [table[s][name] for s in shapes], bar,
               label=LAYER_LABELS[name])
    ax.set_xticks(range(len(shapes)), labels, rotation=30, ha="right")
    top = max(max(row.values()) for row in table.values())
    ax.set(ylabel="host time per call, median (us)", title=f"{run.device.iloc[0]}: where a call's host time goes",
           ylim=(0, 1.35 * top))
    ax.legend(fontsize=7, ncol=3, loc="upper center")
    if ab is not None:
        old, new = _mean_of_rounds(ab["old"], "custom_kernel"), _mean_of_rounds(ab["new"], "custom_kernel")
        if set(old) != set(shapes) or set(new) != set(shapes):
            raise ValueError("ab: every round must time the shapes of run, "
                             f"{sorted(shapes)}; got {sorted(old)} (old) and {sorted(new)} (new)")
        device = ab["new"][0].device.iloc[0]
        lines += ["", f"custom_kernel, old tree / new tree, median us, mean of {len(ab['old'])} and {len(ab['new'])} "
                      f"rounds ({device}, one call, trees alternating)"]
        lines += [f"{label:>14} {old[s]:8.1f} {new[s]:8.1f}   {100 * (1 - new[s] / old[s]):4.1f}% less"
                  for s, label in zip(shapes, labels)]
        ax = axes[0][1]
        ax.bar([j - 0.2 for j in range(len(shapes))], [old[s] for s in shapes], 0.4, label="old tree", color="#999999")
        ax.bar([j + 0.2 for j in range(len(shapes))], [new[s] for s in shapes], 0.4, label="new tree",
               color=figures.COLORS["mxlib"])
        ax.set_xticks(range(len(shapes)), labels, rotation=30, ha="right")
        ax.set(ylabel="custom_kernel host time, median (us)", title=f"{device}: custom_kernel before and after")
        ax.legend(fontsize=8)
    return "\n".join(lines), fig
