"""The host's time per call, read from `scripts/host_time.py`'s CSVs: what the contest's timing hides.

The contest times a call between CUDA events after a flush that keeps the GPU busy while Python enqueues the
call, so the CPU's own time never shows in a score; an eager caller pays it on every call. `scripts/host_time.py`
measures it layer by layer (`LAYERS`) with the GPU idle before each call; `host_report` turns one run, and
optionally rounds of several trees timed in one call on one machine, into the text and figure notebook 08 shows.

Trees are compared in units of the same process's `torch.mm` call at the same shape: the shared hosts the GPUs
come with change speed between processes (one H100 host's `torch.mm` at (4, 2880, 512) took 15.0-16.0 us in
some processes of a call and 21.2-23.6 in others, `data/results/h100/host_ab3_a8fe599/`), and a ratio to a
control timed beside it cancels most of that where absolute times do not.
"""
from __future__ import annotations

LAYERS = ("plan", "unpack", "path_gemm", "custom_kernel", "torch_mm", "empty_launch", "graph_replay")
LAYER_LABELS = {"plan": "dispatch.plan", "unpack": "unpack_data", "path_gemm": "the path's gemm",
                "custom_kernel": "custom_kernel", "torch_mm": "torch.mm (cuBLAS)", "empty_launch": "one Triton launch",
                "graph_replay": "a graph replay"}
# Layers a run may lack: path_gemm is timed only where the plan's backend is Triton (scripts/host_time.py), and
# graph_replay was added to the script after its first runs. The report shows a layer only where every shape has it.
OPTIONAL_LAYERS = ("path_gemm", "graph_replay")


def medians(frame) -> dict:
    """{(m, n, k): {layer: median us}} of one host_time.csv frame; ValueError when a shape lacks a layer."""
    out: dict = {}
    for r in frame.itertuples():
        out.setdefault((int(r.m), int(r.n), int(r.k)), {})[str(r.layer)] = float(r.median_us)
    for shape, layers in out.items():
        missing = [name for name in LAYERS if name not in layers and name not in OPTIONAL_LAYERS]
        if missing:
            raise ValueError(f"host_time frame: shape {'x'.join(map(str, shape))} has no row for layer(s) {missing}")
    return out


def _tree_means(frames: list, layer: str) -> tuple[dict, dict]:
    """({(m, n, k): `layer`'s median us}, {(m, n, k): `layer`'s median over torch.mm's median, each round's own}),
    each the mean over `frames` (the rounds of one tree); the rounds must time the same shapes."""
    per = [medians(f) for f in frames]
    if any(set(p) != set(per[0]) for p in per):
        raise ValueError(f"the rounds of one tree time different shapes: {[sorted(p) for p in per]}")
    us = {shape: sum(p[shape][layer] for p in per) / len(per) for shape in per[0]}
    ratio = {shape: sum(p[shape][layer] / p[shape]["torch_mm"] for p in per) / len(per) for shape in per[0]}
    return us, ratio


def host_report(run, trees: dict | None = None):
    """(text, figure) of the host's median us a call per benchmark shape and layer in `run` (one host_time.csv
    frame), with custom_kernel over torch.mm per shape; and with `trees` ({label: [frames]}, two or more trees in
    the order they were made, each with its rounds timed in one call on one machine, the trees alternating)
    custom_kernel per tree and shape: its median us and its ratio to torch.mm in the same process, each the mean
    over the tree's rounds, and the ratio's change from the first tree to the last. The two panels may come from
    different machines: each title names its device."""
    import matplotlib.pyplot as plt

    from . import figures

    table = medians(run)
    shapes = list(table)
    labels = ["x".join(map(str, s)) for s in shapes]
    shown = [name for name in LAYERS if all(name in table[s] for s in shapes)]  # an optional layer where timed
    width = max(len(LAYER_LABELS[name]) for name in shown) + 1
    lines = [f"host time per call, median us ({run.device.iloc[0]}; the GPU idle before each call)",
             f"{'shape':>14}" + "".join(f"{LAYER_LABELS[name]:>{width}}" for name in shown) + "   custom_kernel / torch.mm"]
    for shape, label in zip(shapes, labels):
        row = table[shape]
        lines.append(f"{label:>14}" + "".join(f"{row[name]:>{width}.1f}" for name in shown)
                     + f"   {row['custom_kernel'] / row['torch_mm']:.1f}x")
    if trees is not None and len(trees) < 2:
        raise ValueError(f"trees must hold two or more trees to compare, got {list(trees)}")
    panels = 1 if trees is None else 2
    fig, axes = plt.subplots(1, panels, figsize=(6.5 * panels, 4.2), layout="constrained", squeeze=False)
    ax = axes[0][0]
    bar = 0.8 / len(shown)
    for i, name in enumerate(shown):
        ax.bar([j - 0.4 + bar * (i + 0.5) for j in range(len(shapes))], [table[s][name] for s in shapes], bar,
               label=LAYER_LABELS[name])
    ax.set_xticks(range(len(shapes)), labels, rotation=30, ha="right")
    top = max(table[s][name] for s in shapes for name in shown)
    ax.set(ylabel="host time per call, median (us)", title=f"{run.device.iloc[0]}: where a call's host time goes",
           ylim=(0, 1.35 * top))
    ax.legend(fontsize=7, ncol=3, loc="upper center")
    if trees is not None:
        means = {label: _tree_means(frames, "custom_kernel") for label, frames in trees.items()}
        us, ratio = ({label: m[i] for label, m in means.items()} for i in (0, 1))
        for label, per in ratio.items():
            if set(per) != set(shapes):
                raise ValueError(f"trees: every round must time the shapes of run, {sorted(shapes)}; "
                                 f"tree {label!r} times {sorted(per)}")
        names, first, last = list(trees), next(iter(trees)), list(trees)[-1]
        device = trees[last][0].device.iloc[0]
        rounds = ", ".join(f"{name} {len(frames)}" for name, frames in trees.items())
        lines += ["", f"custom_kernel per tree: median us / the same process's torch.mm, mean of its rounds ({rounds}; "
                      f"{device}, one call, trees alternating)",
                  f"{'shape':>14}" + "".join(f"{name:>18}" for name in names) + f"   {first} -> {last}"]
        lines += [f"{label:>14}" + "".join(f"{us[name][s]:>9.1f} {ratio[name][s]:>5.2f}x  " for name in names)
                  + f"   {100 * (1 - ratio[last][s] / ratio[first][s]):4.1f}% less" for s, label in zip(shapes, labels)]
        ax = axes[0][1]
        step = 0.8 / len(names)
        grey = ("#bbbbbb", "#888888", "#555555")
        for i, name in enumerate(names):
            color = figures.COLORS["mxlib"] if name == last else grey[min(i, len(grey) - 1)]
            ax.bar([j - 0.4 + step * (i + 0.5) for j in range(len(shapes))], [ratio[name][s] for s in shapes], step,
                   label=name, color=color)
        ax.set_xticks(range(len(shapes)), labels, rotation=30, ha="right")
        ax.set(ylabel="custom_kernel / torch.mm, host time", title=f"{device}: custom_kernel, tree by tree")
        ax.legend(fontsize=8)
    return "\n".join(lines), fig
