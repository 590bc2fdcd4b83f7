"""Notebook 07's readings of the recorded runs: the floors under one launch and the H200's paths forced (H200
bench runs), fused_fp4 as compiled for gfx950 (never run), the fused kernel's versions, one program's time from
inside and what quantizing A costs (diagnostic runs, read with `mxlib.tools.probe`); the CUDA path's
versions as a ladder, the dispatcher-against-forced pairs of the bench runs (the between-block effect) and
the ablation floors. Each returns text and a figure from recorded CSVs under data/results/h200/ (the
tables below name them); nothing here measures.
"""
from __future__ import annotations


from ..spec import shapes as shapes_mod
from . import ranking
from .bench_csv import failed

FUSED_VERSIONS = (  # (name, recorded CSV under data/results/h200/, "tuning" or "bench")
    ("version 1: one launch", "fused_tuning.csv", "tuning"),
    ("version 2: scales loaded a step ahead", "bench_standalone.csv", "bench"),
    ("version 3: A quantized once per launch", "bench.csv", "bench"),
    ("version 4: neighbours of version 3", "rung4/bench.csv", "bench"),
)


def floors(frame):
    """(text, figure) of the floors under any single launch in one bench.csv frame (contest timing, benchmark
    shapes): per shape the floor, the empty kernel and the old acceptance target `acceptance.TARGET_EMPTY_PLUS_FLOOR`
    x (empty + floor); then the read-only launch (`touch`) at its best grid beside mxlib and cuBLAS bf16, and
    mxlib over that launch per shape, and on how many shapes that launch is above the target (the figure's title
    says the same). The figure: the three as bars, that target dashed over each shape."""
    import matplotlib.pyplot as plt

    from . import figures
    from .acceptance import TARGET_EMPTY_PLUS_FLOOR as ratio

    contest = frame[(frame.timing == "contest") & (frame.kind == "benchmark")]
    base = contest.groupby(["m", "n", "k"], sort=False)[["floor_us", "empty_us"]].first()
    lines = [f"{'shape':>14} {'floor':>6} {'empty':>6} {f'{ratio}(e+f)':>8}  (us; empty kernel: median of its calls)"]
    lines += [f"{m:>4}x{n}x{k:<5} {fl:6.2f} {em:6.2f} {ratio * (em + fl):8.2f}"
              for (m, n, k), (fl, em) in base.iterrows()]
    touches = [p for p in contest.provider.unique() if p.startswith("touch")]
    best_touch = ranking.best_provider(contest, "touch")
    providers = [best_touch, "mxlib", "cublas_bf16"]
    lines += ["", f"read-only launch: {len(touches)} grids timed; the best, {best_touch} (programs x words), shown", "",
              ranking.table(contest, providers)]
    mine, touch = ranking.per_shape(contest, "mxlib"), ranking.per_shape(contest, best_touch)
    over = [mine[key] / touch[key] for key in base.index]
    target = {key: ratio * (em + fl) for key, (fl, em) in base.iterrows()}
    under = [key for key in base.index if touch[key] <= target[key]]
    verdict = f"above the target on {len(base) - len(under)} of {len(base)} shapes"
    lines += ["", f"mxlib / best read-only launch: {min(over):.1f} to {max(over):.1f}x per shape",
              f"best read-only launch {verdict}" + "".join(
                  f"; under it at {'x'.join(map(str, key))} ({touch[key]:.2f} us against {target[key]:.2f}, mxlib "
                  f"{mine[key]:.2f})" for key in under)]
    fig, ax = plt.subplots(figsize=(8, 4), layout="constrained")
    figures.speed_bars(ax, contest, providers)
    for j, (fl, em) in enumerate(base.itertuples(index=False)):
        ax.hlines(ratio * (em + fl), j - 0.45, j + 0.45, color="#D55E00", lw=1, ls="--",
                  label=f"old target: {ratio} x (empty + floor)" if j == 0 else None)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_title(f"{figures.device_short(contest)}, benchmark shapes: the best read-only launch is {verdict}")
    return "\n".join(lines), fig


CONFIG_FIELDS = ("block_m", "block_n", "block_k", "split_k", "num_warps", "num_stages", "a_once")  # what configs compare on


def configs(frame, provider: str) -> dict:
    """(m, n, k) -> {field: int} of one provider's config on the benchmark shapes of a bench.csv frame (contest
    rows); `a_once` is 0 where the config has no such field (A quantized in every program: fused_fp4's configs,
    and the fused path's before version 3)."""
    from ..runtime.dispatch import parse_config

    rows = frame[(frame.timing == "contest") & (frame.kind == "benchmark") & (frame.provider == provider)]
    return {(r.m, r.n, r.k): {"a_once": 0, **parse_config(r.config, f"{provider} config of {r.m}x{r.n}x{r.k}")}
            for r in rows.itertuples()}


def config_changes(before: dict, after: dict) -> list[str]:
    """The `CONFIG_FIELDS` in which two configs ({field: int}) differ, as "field before -> after"."""
    return [f"{f} {before.get(f)} -> {after.get(f)}" for f in CONFIG_FIELDS if before.get(f) != after.get(f)]


def faster_than(frame, provider: str, other: str, stat: str = "mean_us") -> dict:
    """(m, n, k) -> provider's `stat` over other's, on the benchmark shapes where `other` is the faster
    (contest timing)."""
    mine, theirs = ranking.per_shape(frame, provider, stat=stat), ranking.per_shape(frame, other, stat=stat)
    return {key: mine[key] / theirs[key] for key in mine if key in theirs and theirs[key] < mine[key]}


def forced_paths(frame, source: str):
    """(text, figure) of mxlib's H200 paths forced (fused, fused_fp4, mma_sm90) on the benchmark shapes in one
    bench.csv frame, beside the dispatcher and cuBLAS bf16: the contest table; fused_fp4 over fused per shape
    (the cost of emulating the FP4 MMA on sm_90 and of quantizing A in every program, and where the two configs
    differ, of that too: the differing `CONFIG_FIELDS` are named); then where cuBLAS bf16 is faster than the
    dispatcher, by the means and by the medians. The figure: the five as bars, stamped with `source` (the CSV
    the frame was read from)."""
    from . import figures

    paths = ["mxlib:fused", "mxlib:fused_fp4", "mxlib:mma_sm90", "mxlib", "cublas_bf16"]
    fused, fp4 = ranking.per_shape(frame, "mxlib:fused"), ranking.per_shape(frame, "mxlib:fused_fp4")
    fused_cfg, fp4_cfg = configs(frame, "mxlib:fused"), configs(frame, "mxlib:fused_fp4")
    ratios = []
    for key in (key for key in fused if key in fp4):
        differ = [f for f in CONFIG_FIELDS if fused_cfg[key].get(f) != fp4_cfg[key].get(f)]
        ratios.append(f"{'x'.join(map(str, key))} {fp4[key] / fused[key]:.2f}"
                      + (f" (configs differ in {', '.join(differ)})" if differ else ""))
    ahead = {stat: faster_than(frame, "mxlib", "cublas_bf16", stat) for stat in ("mean_us", "median_us")}
    text = (ranking.table(frame, paths) + "\n\nfused_fp4 / fused per shape (the emulated FP4 MMA and A quantized in "
            "every program, plus the config fields named where the two differ): " + ", ".join(ratios)
            + "\n\ncublas_bf16 faster than mxlib, mxlib / cublas_bf16: " + "; ".join(
                f"{stat[:-3]}s " + (", ".join(f"{'x'.join(map(str, key))} {r:.3f}" for key, r in got.items()) or "none")
                for stat, got in ahead.items()))
    fig = figures.bench_figure(frame, paths, "benchmark shapes, mxlib's paths forced (FP4 decoded or emulated on "
                               "sm_90)", source, figsize=(8.5, 4))
    return text, fig


def gfx950_fused_fp4(isa) -> str:
    """fused_fp4's launch of each benchmark shape as compiled for gfx950, from a `python -m mxlib isa
    --target gfx950` frame (data/results/mi355x/isa.csv): a line naming the Triton that compiled these rows (the
    record's `triton` column), then per shape CTAs, VGPRs, CTAs a CU, scratch, and the matrix instructions the
    compiler emitted. Compiled on a CPU; nothing ran."""
    lines, tritons = [], set()
    for key in [s.mnk for s in shapes_mod.load("benchmark")]:
        label = "x".join(map(str, key))
        rows = isa[(isa["shape"] == label) & (isa["target"] == "gfx950") & (isa["kernel"] == "_fp4_gemm_kernel")]
        if rows.empty:
            raise ValueError(f"isa: no gfx950 row of fused_fp4's _fp4_gemm_kernel for the benchmark shape {label}")
        r = rows.iloc[0]
        lines.append(f"{label:>14}  {int(r['grid_ctas']):4d} CTAs, {int(r['vgprs'])} VGPRs, "
                     f"{int(r['ctas_per_unit'])} CTAs/CU, scratch {int(r['scratch_bytes'])} B, "
                     + "; ".join(r["mma"].split(";")))
        tritons.add(str(r["triton"]))
    return (f"fused_fp4 compiled for gfx950 by Triton {', '.join(sorted(tritons))} on a CPU (the record's triton "
            "column):\n" + "\n".join(lines))


def _checked(frame):
    """The rows of a frame whose output did not fail its check (`bench_csv.failed`)."""
    return frame.loc[[not failed(r) for r in frame.to_dict("records")]]


def bench_medians(frame) -> dict:
    """(m, n, k) -> median us per call of the dispatcher (`mxlib` provider) on the benchmark shapes of a
    bench.csv frame, contest timing; a row without a valid time left out, as the score leaves it out
    (`ranking.per_shape`)."""
    return ranking.per_shape(frame, "mxlib", stat="median_us")


def tuning_medians(frame) -> dict:
    """(m, n, k) -> the fastest median of version 1 proper (A's scales e8m0, B decoded the plain way:
    a_e4m3 == 0, b_decode == 0) over the checked configs a fused_tuning.csv frame timed on the benchmark
    shapes. The tuning run recorded medians only."""
    f = frame[(frame.kind == "benchmark") & frame.median_us.notna() & (frame.a_e4m3 == 0) & (frame.b_decode == 0)]
    return {key: g.median_us.min() for key, g in _checked(f).groupby(["m", "n", "k"])}


def _ladder_lines(ladder: dict, heading: str, name_width: int, medians: dict | None = None) -> list[str]:
    """A kernel's versions as text, shared by `fused_versions` and `mma_versions`: `ladder` is
    {version: {(m, n, k): us}}; a row per version with its time on each benchmark shape and their
    geometric mean, and with `medians` (the same from the medians) the geometric mean of those beside it."""
    from .stats import geomean

    keys = [s.mnk for s in shapes_mod.load("benchmark")]
    lines = [f"{heading:{name_width}s}" + "".join(f"{'x'.join(map(str, key)):>15}" for key in keys) + f"{'geomean':>9}"
             + (f"{'(medians)':>11}" if medians is not None else "")]
    for name, t in ladder.items():
        lines.append(f"{name:{name_width}s}" + "".join(f"{t[key]:15.2f}" for key in keys)
                     + f"{geomean([t[key] for key in keys]):9.2f}"
                     + (f"{geomean([medians[name][key] for key in keys]):11.2f}" if medians is not None else ""))
    return lines


def _version_bars(ladder: dict):
    """Grouped bars of the fused kernel's versions (`ladder` as in `_ladder_lines`, medians), one colour
    per version and a group per benchmark shape."""
    import matplotlib.pyplot as plt
    import numpy as np

    keys = [s.mnk for s in shapes_mod.load("benchmark")]
    fig, ax = plt.subplots(figsize=(8, 3.6), layout="constrained")
    width = 0.8 / len(ladder)
    for i, (name, t) in enumerate(ladder.items()):
        ax.bar(np.arange(len(keys)) - 0.4 + width * (i + 0.5), [t[key] for key in keys], width, label=name)
    ax.set_xticks(range(len(keys)), ["x".join(map(str, key)) for key in keys], rotation=30, ha="right")
    ax.set(ylabel="contest time per call (us, median)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_title("H200: the fused kernel, version by version (benchmark shapes)")
    return fig


def fused_versions(frames: dict):
    """(text, figure) of the fused kernel's four versions (`FUSED_VERSIONS`; `frames` maps each name to its
    recorded frame, None where not recorded, which is left out): per benchmark shape the median us per call
    and their geometric mean, then each bench run's score the contest's way (geometric mean of the means,
    of the medians beside), and what changed in the dispatcher's config from one bench version to the next
    (`config_changes`: version 3 changed tilings as well as a_once); the figure compares the medians, since
    version 1's run has no means."""
    from . import figures

    kinds = {name: kind for name, _, kind in FUSED_VERSIONS}
    ladder = {name: (tuning_medians if kinds[name] == "tuning" else bench_medians)(f)
              for name, f in frames.items() if f is not None}
    lines = _ladder_lines(ladder, "median us per call", 38)
    fig = _version_bars(ladder)
    lines += ["", "score as the contest computes it, geometric mean of the per-shape means (of the medians):"]
    for name in ladder:
        if kinds[name] == "bench":
            (_, mean, median), = ranking.scores(frames[name], ["mxlib"])
            lines.append(f"   {name:38s} {mean:6.2f} us ({median:.2f})")
    bench = [name for name in ladder if kinds[name] == "bench"]
    lines += ["", "what changed in the dispatcher's config on the benchmark shapes, against the version before:"]
    for old, new in zip(bench, bench[1:]):
        before, after = configs(frames[old], "mxlib"), configs(frames[new], "mxlib")
        changed = [f"{'x'.join(map(str, key))}: " + ", ".join(c)
                   for key in after if (c := config_changes(before[key], after[key]))]
        lines += [f"   {new.split(':')[0] if i == 0 else '':10s} {c}" for i, c in enumerate(changed or ["none"])]
    latest = next(frames[name] for name in reversed(list(ladder)) if kinds[name] == "bench")
    paths = dict((name, path) for name, path, _ in FUSED_VERSIONS)
    figures.stamp(fig, latest, "data/results/h200/: " + ", ".join(paths[name] for name in ladder))
    return "\n".join(lines), fig


MMA_VERSIONS = (  # (name, recorded CSV under data/results/h200/, "bench" or "probe"); KERNEL_NOTES.md has each
    ("v1: a round's loads, then A, then MMAs", "mma_v1/bench.csv", "bench"),
    ("v2: one cp.async burst a round", "mma_v2/bench.csv", "bench"),
    ("v3: + family direct (B to registers)", "mma_v3/bench.csv", "bench"),
    ("v4a: + family pipelined", "mma_v4a/probe.csv", "probe"),
    ("v4b: copy addresses computed once", "mma_v4b/probe.csv", "probe"),
    ("v4: the shipped table", "run_97c1191/bench.csv", "bench"),
    ("v5a: + family wgmma, one chunk at a time", "mma_v5a/probe.csv", "probe"),
    ("v5b: A as MXFP4, widened per block", "mma_v5b/probe.csv", "probe"),
    ("v5c: wgmmas overlap the next chunk", "mma_v5c/probe.csv", "probe"),
    ("v5: the shipped table", "run_0fc08c3/bench.csv", "bench"),
    ("v6a: + family wspec (producer warp)", "mma_v6a/probe.csv", "probe"),
    ("v6b: + warpgroups along K (slowed)", "mma_v6b/probe.csv", "probe"),
    ("v6c: stage counted, not divided", "mma_v6c/probe.csv", "probe"),
    ("v6: the shipped table", "run_2ace167/bench.csv", "bench"),
    ("v9: one n128 wgmma at 128 rows", "run_b022894/bench.csv", "bench"),
    ("v12: the lean chunk loop", "run_36e1c5e/bench.csv", "bench"),
    ("v13: the lean producer", "run_fc616db/bench.csv", "bench"),
    ("v14: (64, 7168, 2048) on two warpgroups", "run_a8e5cc9/bench.csv", "bench"),
    ("v15: B's first chunks decoded before A", "final/bench.csv", "bench"),
    ("v15, re-run: host-side changes only", "run_c1a1bd7/bench.csv", "bench"),
)


def mma_means(frame, kind: str, stat: str = "mean_us") -> dict:
    """(m, n, k) -> contest `stat` us (the mean by default, or "median_us") of path mma_sm90 on the benchmark
    shapes: in a bench run ("bench") the forced provider `mxlib:mma_sm90` (the H200 table's config of that
    time; v1 ran its default configs), in a probe sweep ("probe") the fastest checked mma_sm90 config by that
    statistic (a minimum over many configs, so a little optimistic)."""
    if kind == "bench":
        return ranking.per_shape(frame, "mxlib:mma_sm90", stat=stat)
    f = frame[(frame.kind == "benchmark") & (frame.variant == "mma_sm90") & frame[stat].notna()]
    return {key: g[stat].min() for key, g in _checked(f).groupby(["m", "n", "k"])}


def contest_references(bench) -> tuple[dict, dict]:
    """({(m, n, k): us} of touch at its best grid, {(m, n, k): us} of cuBLAS bf16): the contest means of the
    benchmark shapes in one bench.csv frame, the two references the baseline goal compares against."""
    from .acceptance import touch_best_rows

    rows = bench[(bench.timing == "contest") & (bench.kind == "benchmark")].to_dict("records")
    best = {(r["m"], r["n"], r["k"]): float(r["mean_us"]) for r in touch_best_rows(rows)}
    cublas = {(r["m"], r["n"], r["k"]): float(r["mean_us"]) for r in rows if r["provider"] == "cublas_bf16"}
    return best, cublas


def mma_versions(frames: dict):
    """(text, figure) of the CUDA path (`mma_sm90`) version by version (`MMA_VERSIONS`; `frames` maps each
    name to its recorded frame, None where not recorded, which is left out): per benchmark shape the
    contest mean us per call (`mma_means`) and their geometric mean, the contest's score for the path, with
    the geometric mean of the medians beside it.

    The figure is a ladder: a panel per benchmark shape and one for the geometric mean, the versions in
    order along x (filled: a bench run of the shipped table; hollow: the fastest config of a probe sweep),
    against the baseline goal's references from the ladder's last bench run (`contest_references`): cuBLAS
    bf16, and per shape TARGET_TOUCH_RATIO x touch at its best grid."""
    import matplotlib.pyplot as plt
    import numpy as np

    from . import figures
    from .acceptance import TARGET_TOUCH_RATIO
    from .stats import geomean

    kinds = {name: kind for name, _, kind in MMA_VERSIONS}
    ladder = {name: mma_means(f, kinds[name]) for name, f in frames.items() if f is not None}
    medians = {name: mma_means(f, kinds[name], "median_us") for name, f in frames.items() if f is not None}
    lines = _ladder_lines(ladder, "mean us per call", 40, medians)
    latest_name = next((name for name in reversed(list(ladder)) if kinds[name] == "bench"), None)
    latest = frames[latest_name] if latest_name is not None else None
    keys = [s.mnk for s in shapes_mod.load("benchmark")]
    best, cublas = contest_references(latest) if latest is not None else ({}, {})
    panels = [("x".join(map(str, key)), [t[key] for t in ladder.values()], cublas.get(key),
               TARGET_TOUCH_RATIO * best[key] if key in best else None) for key in keys]
    panels.append(("geomean of the six", [geomean([t[key] for key in keys]) for t in ladder.values()],
                   geomean([cublas[key] for key in keys]) if len(cublas) == len(keys) else None, None))
    x = np.arange(len(ladder))
    filled = np.array([kinds[name] == "bench" for name in ladder])
    fig, axes = plt.subplots(2, 4, figsize=(12, 5.8), sharex=True, layout="constrained")
    for ax, (title, ys, cub, bound) in zip(axes.flat, panels):
        ys = np.array(ys)
        ax.plot(x, ys, color="#0072B2", linewidth=1)
        ax.plot(x[filled], ys[filled], "o", color="#0072B2", markersize=4, label="bench run (the shipped table)")
        ax.plot(x[~filled], ys[~filled], "o", markerfacecolor="white", color="#0072B2", markersize=4,
                label="probe sweep (its fastest config)")
        if cub is not None:
            ax.axhline(cub, color="#D55E00", linestyle="dashed", linewidth=1.2,
                       label="cuBLAS bf16 (the ladder's last bench run)")
        if bound is not None:
            ax.axhline(bound, color="black", linewidth=1.5, label=f"{TARGET_TOUCH_RATIO} x touch at its best grid")
        ax.set_ylim(0, None)
        ax.set_title(title, fontsize=10)
        ax.grid(axis="y", alpha=0.3)
    short = [name.split(":")[0] for name in ladder]
    for ax in axes[1]:
        ax.set_xticks(x, short, rotation=90, fontsize=7)
    for ax in axes[:, 0]:
        ax.set_ylabel("contest mean (us)")
    legend = axes.flat[len(panels)]
    legend.axis("off")
    legend.legend(*axes.flat[0].get_legend_handles_labels(), loc="center", fontsize=8, frameon=False)
    axes.flat[len(panels) - 1].tick_params(labelbottom=True)
    fig.suptitle("H200: the CUDA path mma_sm90, version by version (KERNEL_NOTES.md says what each changed)")
    if latest is not None:
        path = next(p for name, p, _ in MMA_VERSIONS if name == latest_name)
        figures.stamp(fig, latest, f"data/results/h200/{path} and earlier runs (mma_v*/, run_*/, final/)")
    return "\n".join(lines), fig


# Every bench run that timed `mxlib` and `mxlib:mma_sm90` on one config a shape, in order; but for
# mma_v10/validation/bench.csv, whose configs carry the reverted multicast's field `cluster_n` (no field of today's
# Config; its three two-launch pairs fit the rest: +0.97, +0.97, -0.84 us, KERNEL_NOTES.md "The records re-read").
PAIRED_RUNS = (
    "run_97c1191/bench_call_a.csv", "run_97c1191/bench.csv", "run_0fc08c3/bench_call_d.csv", "run_0fc08c3/bench.csv",
    "mma_v6a/bench.csv", "mma_v6b/bench.csv", "mma_v6c/bench.csv", "run_2ace167/bench.csv", "mma_v6d/bench.csv",
    "mma_v7a/bench.csv", "mma_v7b/bench.csv", "run_b022894/bench.csv", "run_36e1c5e/bench.csv",
    "run_36e1c5e/bench_2.csv", "run_fc616db/bench.csv", "run_a8e5cc9/bench.csv", "final/bench.csv",
    "final/bench_2.csv", "final/bench_3.csv", "run_c1a1bd7/bench.csv", "run_7c05e03/bench.csv",
    "run_21d80f8/bench1.csv", "run_21d80f8/bench2.csv", "run_caf1fad/bench.csv", "run_9126f21/bench.csv",
    "run_ba81f6f/bench.csv", "fp8_0d97ebd/bench_1.csv", "fp8_0d97ebd/bench_2.csv", "humming_5994bea/bench_1.csv",
    "humming_5994bea/bench_2.csv",
)


V15_RUNS = PAIRED_RUNS[PAIRED_RUNS.index("final/bench.csv"):]  # the bench runs of v15's kernels (none changed since)


def same_kernel_runs(frames: dict) -> str:
    """The spread between bench runs of one set of kernels (`frames`: {name: bench.csv frame}, None where not
    recorded, left out; `V15_RUNS` for the CUDA path's current kernels): per run the scores (geometric means of
    the benchmark shapes' contest means, medians in brackets) of the forced path, the dispatcher and cuBLAS bf16,
    the dispatcher's margin under cuBLAS, and the shapes where cuBLAS is the faster; then the ranges over the
    runs. What one kernel scores from call to call, so what a difference between two versions must exceed."""

    def label(keys) -> str:
        return ", ".join("x".join(map(str, key)) for key in sorted(keys)) or "none"

    width = max((len(name) for name in frames), default=3)
    rows, spans = [], {"forced": [], "mxlib": [], "cublas": [], "margin_mean": [], "margin_median": []}
    ahead_sets = {"mean_us": set(), "median_us": set()}
    for name, frame in frames.items():
        if frame is None:
            continue
        got = {prov: (mean, median) for prov, mean, median in
               ranking.scores(frame, ["mxlib:mma_sm90", "mxlib", "cublas_bf16"])}
        if len(got) < 3:
            continue
        (f_mean, _), (m_mean, m_med), (c_mean, c_med) = got["mxlib:mma_sm90"], got["mxlib"], got["cublas_bf16"]
        margins = (100 * (1 - m_mean / c_mean), 100 * (1 - m_med / c_med))
        ahead = {stat: set(faster_than(frame, "mxlib", "cublas_bf16", stat)) for stat in ahead_sets}
        for stat in ahead_sets:
            ahead_sets[stat].add(frozenset(ahead[stat]))
        for key, value in zip(spans, (f_mean, m_mean, c_mean) + margins):
            spans[key].append(value)
        rows.append(f"{name:>{width}} {f_mean:8.2f} {m_mean:7.2f} ({m_med:.2f}) {c_mean:7.2f} ({c_med:.2f})"
                    f" {margins[0]:5.1f}% ({margins[1]:.1f}%)  {label(ahead['mean_us'])}")
    if not rows:
        return "no run recorded"
    head = (f"{'run':>{width}} {'forced':>8} {'mxlib':>15} {'cublas_bf16':>15} {'mxlib under cuBLAS':>19}  "
            "shapes where cuBLAS bf16 is faster (means)")
    span = {key: (min(v), max(v)) for key, v in spans.items()}
    sets = {stat: ("{" + label(next(iter(found))) + "} in every run" if len(found) == 1 else
                   "one of {" + "}, {".join(label(s) for s in sorted(found, key=len)) + "} a run")
            for stat, found in ahead_sets.items()}
    return "\n".join([head, *rows, "",
                      f"over {len(rows)} runs (scores: geomeans of contest means, us): forced mma_sm90 "
                      f"{span['forced'][0]:.2f}-{span['forced'][1]:.2f}, mxlib {span['mxlib'][0]:.2f}-{span['mxlib'][1]:.2f}, "
                      f"cuBLAS bf16 {span['cublas'][0]:.2f}-{span['cublas'][1]:.2f}; mxlib under cuBLAS by "
                      f"{span['margin_mean'][0]:.1f}% to {span['margin_mean'][1]:.1f}% on the means, "
                      f"{span['margin_median'][0]:.1f}% to {span['margin_median'][1]:.1f}% on the medians",
                      f"cuBLAS bf16 faster than mxlib at {sets['mean_us']} (means); "
                      f"at {sets['median_us']} (medians)"])


def dispatcher_minus_forced(frame) -> dict:
    """(m, n, k) -> (us, launches) on the benchmark shapes of one bench.csv frame where the dispatcher (`mxlib`)
    and the forced path (`mxlib:mma_sm90`) ran the same config: the dispatcher's contest mean minus the forced
    one's, and whether that config is one launch (num_stages 1) or two (a quantizer, then the GEMM)."""
    from ..kernels.gemm_mma_sm90 import Config, mma_launches
    from ..runtime.dispatch import parse_config

    f = frame[(frame.timing == "contest") & (frame.kind == "benchmark")]
    forced = {(r.m, r.n, r.k): r for r in f[f.provider == "mxlib:mma_sm90"].itertuples()}
    out = {}
    for r in f[f.provider == "mxlib"].itertuples():
        other = forced.get((r.m, r.n, r.k))
        if other is not None and r.config == other.config:
            launches = mma_launches(Config(**parse_config(r.config, f"bench config of {r.m}x{r.n}x{r.k}")))
            out[(r.m, r.n, r.k)] = (float(r.mean_us) - float(other.mean_us), launches)
    return out


def between_blocks(frames: dict):
    """(text, figure) of the between-block effect: for each benchmark shape, the dispatcher's block minus the
    forced path's block (`dispatcher_minus_forced`) in every run of `frames` ({name: bench.csv frame}, None
    where not recorded, left out). The text gives per shape the launches, the pairs, the smallest and largest
    difference in size and how often the dispatcher's block was the slower; the figure one point per run."""
    import matplotlib.pyplot as plt
    import numpy as np

    from . import figures

    diffs = {name: dispatcher_minus_forced(f) for name, f in frames.items() if f is not None}
    keys = [s.mnk for s in shapes_mod.load("benchmark")]
    lines = [f"{'shape':>14} {'launches':>8} {'pairs':>5} {'|diff| min':>10} {'max':>5} "
             f"{'dispatcher slower':>17}   contest means, us: mxlib minus mxlib:mma_sm90, same config"]
    fig, ax = plt.subplots(figsize=(8, 3.8), layout="constrained")
    for j, key in enumerate(keys):
        got = [d[key] for d in diffs.values() if key in d]
        if not got:
            continue
        values = np.array([v for v, _ in got])
        launches = got[0][1]
        lines.append(f"{'x'.join(map(str, key)):>14} {launches:8d} {len(values):5d} {abs(values).min():10.2f} "
                     f"{abs(values).max():5.2f} {f'{(values > 0).sum()} of {len(values)}':>17}")
        jitter = np.linspace(-0.25, 0.25, len(values)) if len(values) > 1 else np.zeros(1)
        ax.plot(j + jitter, values, "o", markersize=4, color="#D55E00" if launches == 2 else "#0072B2",
                label="2 launches (a quantizer, then the GEMM)" if launches == 2 else "1 launch")
    handles, labels = ax.get_legend_handles_labels()
    unique = dict(zip(labels, handles))
    ax.legend(unique.values(), unique.keys(), fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(keys)), ["x".join(map(str, key)) for key in keys], rotation=30, ha="right")
    ax.set(ylabel="mxlib minus forced mma_sm90\n(us, contest means)")
    ax.grid(axis="y", alpha=0.3)
    ax.set_title(f"H200: one config, two blocks of calls, {len(diffs)} bench runs")
    latest = next((frames[name] for name in reversed(list(frames)) if frames[name] is not None), None)
    if latest is not None:
        figures.stamp(fig, latest, f"the bench.csv of {len(diffs)} runs under data/results/h200/ (kernel_history.PAIRED_RUNS)")
    return "\n".join(lines), fig


def launch_count(frame):
    """(text, figure) of the launch-count test of the between-block effect: `frame` holds rows of
    scripts/mma_blocks.py's `launches` mode (L empty launches before each block, the `launches_between`
    column). A shape's blocks, all L together, split into a fast and a slow group where `stats.two_groups`
    finds the gap; per shape and L, the block means in order, each marked fast (f) or slow (s), and the two
    groups' means, or "one state" and the range; the figure a panel per (L, shape), block means against block
    index, coloured by group (grey where the shape does not split), every panel of a shape on one scale."""
    import matplotlib.pyplot as plt

    from . import figures
    from .stats import two_groups

    f = frame[frame["mode"] == "launches"]
    families = {(r.m, r.n, r.k): r.family for r in f.itertuples()}
    keys = sorted(families, key=lambda key: (families[key], key))  # "one launch" first: the control
    counts = sorted(f.launches_between.unique())
    lines = [f"{'shape':>14} {'L':>2}  {'blocks (f fast, s slow)':<24} fast / slow (or range), contest means, us"]
    fig, axes = plt.subplots(len(counts), len(keys), figsize=(2.6 * len(keys), 1.25 * len(counts) + 0.9),
                             layout="constrained", squeeze=False, sharex=True)
    for j, key in enumerate(keys):
        rows = f[(f.m == key[0]) & (f.n == key[1]) & (f.k == key[2])]
        cut = two_groups(rows.mean_us.to_list())
        low, high = rows.mean_us.min(), rows.mean_us.max()
        pad = max(0.25, (1.6 - (high - low)) / 2)  # at least 1.6 us on every panel: a flat row looks flat
        axes[0][j].set_title(f"{'x'.join(map(str, key))}\n({families[key]} a call)", fontsize=9)
        for i, count in enumerate(counts):
            ax = axes[i][j]
            means = rows[rows.launches_between == count].sort_values("block").mean_us.to_list()
            ax.set_ylim(low - pad, high + pad)
            ax.grid(alpha=0.3)
            if j == 0:
                ax.set_ylabel(f"L = {count}", fontsize=9)
            if not means:
                ax.text(0.5, 0.5, "not run", transform=ax.transAxes, ha="center", va="center", color="#666666")
                continue
            ax.xaxis.get_major_locator().set_params(integer=True)
            slow = [cut is not None and x > cut for x in means]
            ax.plot(range(len(means)), means, "-", color="#BBBBBB", linewidth=0.8)
            ax.scatter(range(len(means)), means, s=14, zorder=3,
                       c=["#666666" if cut is None else "#D55E00" if is_slow else "#0072B2" for is_slow in slow])
            if len(set(slow)) == 1:
                state = "" if cut is None else " (slow)" if slow[0] else " (fast)"
                marks, spans = f"one state{state}", f"{min(means):.2f} - {max(means):.2f}"
            else:
                fast_means = [x for x, is_slow in zip(means, slow) if not is_slow]
                slow_means = [x for x, is_slow in zip(means, slow) if is_slow]
                marks = " ".join("s" if is_slow else "f" for is_slow in slow)
                spans = f"{sum(fast_means) / len(fast_means):.2f} / {sum(slow_means) / len(slow_means):.2f}"
            lines.append(f"{'x'.join(map(str, key)):>14} {count:2d}  {marks:<24} {spans}")
    for ax in axes[-1]:
        ax.set_xlabel("block (30 calls each)", fontsize=8)
    fig.suptitle("H200: L empty launches before each block; blue fast, orange slow, grey a shape with one state "
                 "(contest-style block means, us)", fontsize=9)
    figures.stamp(fig, f, "data/results/h200/mma_v17/blocks_v17c.csv")
    return "\n".join(lines), fig


GEMM_START_GAP_US = 0.2  # the GEMM's two start offsets after the quantizer's (v17e: 0.70-0.77 against 1.12-1.25 us)


def gemm_start(frames):
    """(text, figure) of where the between-block state acts (KERNEL_NOTES.md, v17e and v17f): `frames` (one
    or more blocks CSVs' frames, taken together) hold rows of scripts/mma_blocks.py's `launches` mode with
    CUPTI's kernel records (`first_to_last_us`: the GEMM's start after the quantizer's, a block's median)
    and rows replayed from a CUDA graph (`launches+graph`). Per shape
    and L (empty launches before each block), the blocks whose GEMM starts early and late (split where
    `stats.two_groups` finds a gap of `GEMM_START_GAP_US` in the start), each group's start and block means and
    the late minus early block mean; then the replayed blocks' range. The figure: a panel per shape, block mean
    against the GEMM's start, L = 1 and 2 by marker, the replayed blocks' range as a band."""
    import matplotlib.pyplot as plt
    import pandas as pd
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from . import figures
    from .stats import two_groups

    frame = pd.concat(list(frames), ignore_index=True)
    launched = frame[(frame["mode"] == "launches") & frame.first_to_last_us.notna()]
    replayed = frame[frame["mode"] == "launches+graph"]
    keys = sorted({(r.m, r.n, r.k) for r in frame.itertuples()})
    lines = [f"{'shape':>14} {'':8} {'L':>2}  {'early start':>11} {'block means':>13}  {'late start':>10} "
             f"{'block means':>13}  late - early (us)"]
    fig, axes = plt.subplots(1, len(keys), figsize=(3.3 * len(keys), 3.2), layout="constrained", squeeze=False)
    for ax, key in zip(axes[0], keys):
        name = "x".join(map(str, key))
        at = (frame.m == key[0]) & (frame.n == key[1]) & (frame.k == key[2])
        shape_rows = launched[at[launched.index]]
        cut = two_groups(shape_rows.first_to_last_us.to_list(), GEMM_START_GAP_US)
        for count, marker in zip(sorted(shape_rows.launches_between.unique()), "o^sD"):
            rows = shape_rows[shape_rows.launches_between == count]
            late = rows.first_to_last_us > (cut if cut is not None else float("inf"))  # no gap: all early
            groups = [rows[~late], rows[late]]
            cells = []
            for g in groups:
                cells += ([f"{g.first_to_last_us.min():.2f}-{g.first_to_last_us.max():.2f}",
                           f"{g.mean_us.min():.2f}-{g.mean_us.max():.2f}"] if len(g) else ["-", "-"])
            cost = f"{groups[1].mean_us.mean() - groups[0].mean_us.mean():+.2f}" if all(len(g) for g in groups) else "-"
            lines.append(f"{name:>14} {'launched':8} {count:2d}  {cells[0]:>11} {cells[1]:>13}  {cells[2]:>10} "
                         f"{cells[3]:>13}  {cost}")
            ax.scatter(rows.first_to_last_us, rows.mean_us, marker=marker, s=24, zorder=3,
                       c=["#D55E00" if x else "#0072B2" for x in late])
        for count in sorted(replayed[at[replayed.index]].launches_between.unique()):
            rows = replayed[at[replayed.index] & (replayed.launches_between == count)]
            lines.append(f"{name:>14} {'replayed':8} {count:2d}  block means {rows.mean_us.min():.2f}-"
                         f"{rows.mean_us.max():.2f} (no kernel records)")
            ax.axhspan(rows.mean_us.min(), rows.mean_us.max(), color="#999999", alpha=0.25, lw=0)
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("GEMM start after the quantizer's (us)", fontsize=8)
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("block mean, contest-style (us)", fontsize=8)
    handles = [Line2D([], [], marker=m, color="#444444", linestyle="", label=f"launched, L = {c}")
               for c, m in zip(sorted(launched.launches_between.unique()), "o^sD")]
    handles.append(Patch(color="#999999", alpha=0.25, lw=0, label="replayed from a graph (range)"))
    axes[0][0].legend(handles=handles, fontsize=7, loc="best")
    fig.suptitle("H200: where the between-block state acts: blue early start, orange late (one point a block)",
                 fontsize=9)
    figures.stamp(fig, frame, "data/results/h200/mma_v17/blocks_v17e.csv, blocks_v17f.csv")
    return "\n".join(lines), fig


FLOOR_VARIANTS = (  # scripts/mma_ablate.py's variants that bound the CUDA path from below
    ("full", "as shipped"),
    ("resident", "chunk work on resident data (no copies streamed)"),
    ("resident_skeleton", "no ring, no decode, no MMA (the fixed part)"),
)


def mma_floor(ablate, bench, bench_csv: str):
    """(text, figure) of what the baseline goal's per-shape bound asks of the CUDA path: per shape of `ablate` (a CSV
    of scripts/mma_ablate.py, the table's config of each long benchmark shape) the contest mean of each
    `FLOOR_VARIANTS` variant (the mean over the rounds recorded), beside the bound TARGET_TOUCH_RATIO x touch at
    its best grid and cuBLAS bf16, both from `bench` (one bench.csv run, contest means; `bench_csv` its path under
    data/results/h200/, for the stamp). A variant above the bound says that no loop, however fast, brings the
    shipped structure under it. Then per shape what the bound asks of the loop (full minus the fixed part,
    resident_skeleton): full minus the bound, in us and as a share of the loop."""
    import matplotlib.pyplot as plt
    import numpy as np

    from . import figures
    from .acceptance import TARGET_TOUCH_RATIO

    best, cublas = contest_references(bench)
    means = ablate.groupby(["m", "n", "k", "variant"]).mean_us.mean()
    keys = sorted({(m, n, k) for m, n, k, _ in means.index})
    width = max(len(v) for v, _ in FLOOR_VARIANTS) + 2
    lines = [f"{'shape':>14}" + "".join(f"{v:>{width}}" for v, _ in FLOOR_VARIANTS)
             + f"{f'{TARGET_TOUCH_RATIO} x touch':>16}{'cublas_bf16':>13}   contest means, us"]
    for key in keys:
        lines.append(f"{'x'.join(map(str, key)):>14}" + "".join(f"{means[(*key, v)]:{width}.2f}" for v, _ in FLOOR_VARIANTS)
                     + f"{TARGET_TOUCH_RATIO * best[key]:16.2f}{cublas[key]:13.2f}")
    lines += ["", f"{'shape':>14}{'full - bound':>14}{'loop':>7}{'share':>7}   loop: full - resident_skeleton; "
              "share: of the loop"]
    for key in keys:
        full = means[(*key, "full")]
        cut, loop = full - TARGET_TOUCH_RATIO * best[key], full - means[(*key, "resident_skeleton")]
        lines.append(f"{'x'.join(map(str, key)):>14}{cut:14.2f}{loop:7.2f}{cut / loop:7.0%}")
    fig, ax = plt.subplots(figsize=(7, 4.6), layout="constrained")
    bar = 0.8 / len(FLOOR_VARIANTS)
    colors = ("#0072B2", "#56B4E9", "#999999")
    for i, ((v, label), color) in enumerate(zip(FLOOR_VARIANTS, colors)):
        ax.bar(np.arange(len(keys)) - 0.4 + bar * (i + 0.5), [means[(*key, v)] for key in keys], bar,
               label=f"{v}: {label}", color=color)
    for j, key in enumerate(keys):
        ax.hlines(TARGET_TOUCH_RATIO * best[key], j - 0.45, j + 0.45, colors="black", linewidth=2,
                  label=f"{TARGET_TOUCH_RATIO} x touch at its best grid (the bound)" if j == 0 else None)
        ax.hlines(cublas[key], j - 0.45, j + 0.45, colors="#D55E00", linestyles="dashed",
                  label="cuBLAS bf16" if j == 0 else None)
    ax.set_xticks(range(len(keys)), ["x".join(map(str, key)) for key in keys])
    ax.set(ylabel="contest time per call (us, mean)")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2)
    ax.set_title(f"H200: the CUDA path with parts cut out, against {TARGET_TOUCH_RATIO} x touch")
    figures.stamp(fig, ablate, f"data/results/h200/mma_v16/ablate.csv, {bench_csv}")
    return "\n".join(lines), fig


def fused_timeline(summary: dict, stamp_frame, source: str = "data/results/h200/probe/timeline.csv"):
    """(text, figure) of one program of the fused kernel timed from inside, per benchmark shape: `summary` is
    `probe.timelines` of a timeline.csv ({(m, n, k, state): timeline_summary}). The text gives the cold
    launches (after the cache flush): programs, K iterations, span, median program, loop, tail, the last
    arrivals' tail and the most programs seen running on one SM at once; the figure stacks median loop and tail
    with the span, cold beside warm. `stamp_frame` (the run's probe.csv, which has device and date) stamps the figure, naming `source` (the
    recorded run's timeline.csv unless another run is drawn)."""
    import matplotlib.pyplot as plt
    import numpy as np

    from . import figures

    keys = [s.mnk for s in shapes_mod.load("benchmark")]
    lines = [f"{'shape':>14} {'programs':>8} {'iters':>5} {'span':>6} {'program':>7} {'loop':>6} {'tail':>5} "
             f"{'last tail':>9} {'max on SM':>9}  (us, cold: after the cache flush; medians over programs)"]
    for key in keys:
        s = summary[(*key, "cold")]
        lines.append(f"{'x'.join(map(str, key)):>14} {s['programs']:8d} {s['iters']:5d} {s['span_ns'] / 1e3:6.2f} "
                     f"{s['prog_ns'] / 1e3:7.2f} {s['loop_ns'] / 1e3:6.2f} {s['tail_ns'] / 1e3:5.2f} "
                     f"{s['tail_last_ns'] / 1e3:9.2f} {s['max_resident']:9d}")
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True, layout="constrained")
    x = np.arange(len(keys))
    for ax, state, what in zip(axes, ("cold", "warm"), ("after the cache flush, as the contest times it",
                                                          "right after a call on the same inputs")):
        loop = [summary[(*key, state)]["loop_ns"] / 1e3 for key in keys]
        tail = [summary[(*key, state)]["tail_ns"] / 1e3 for key in keys]
        span = [summary[(*key, state)]["span_ns"] / 1e3 for key in keys]
        ax.bar(x, loop, 0.6, color="#0072B2" if state == "cold" else "#56B4E9", label="K loop",
               hatch=None if state == "cold" else "//")
        ax.bar(x, tail, 0.6, bottom=loop, color="#E69F00" if state == "cold" else "#F0E442",
               label="tail (part stored, counter, last: sum)", hatch=None if state == "cold" else "//")
        ax.plot(x, span, "k_", ms=16, mew=2, label="launch span (first start to last end)")
        ax.set_xticks(x, ["x".join(map(str, key)) for key in keys], rotation=30, ha="right")
        ax.set_title(f"{state}: {what}", fontsize=9.5)
        ax.legend(fontsize=7, loc="upper left")
    axes[0].set_ylabel("time (us), median program")
    fig.suptitle(f"{figures.device_short(stamp_frame)}: one program of the fused kernel, timed from inside "
                 "(version 2 configs)")
    figures.stamp(fig, stamp_frame, source)
    return "\n".join(lines), fig


A_VARIANTS = (("fused", "A quantized by every program"), ("a_once", "A quantized once per launch"),
              ("a_quantized", "A handed over quantized (not a GEMM call)"))


def _span(values, fmt: str, unit: str = "") -> str:
    """'low to high' of `values` in `fmt`, then `unit`; the one value where both ends round alike; "-" for none."""
    if not values:
        return "-"
    low, high = format(min(values), fmt), format(max(values), fmt)
    return (low if low == high else f"{low} to {high}") + unit


def a_cost_spans(best: dict, same: dict) -> list[str]:
    """What the variants of `A_VARIANTS` show, as spans over shape groups (`best`: `probe.best_by_variant`,
    `same`: `probe.at_reference_tiling` of one probe run; median us). At M >= 64: A quantized by every program over
    A handed over, at the per-program row's tiling and best against best (the best of each may sit at another
    tiling), and the share of that difference that A quantized once wins back at one tiling (over the shapes
    where a variant was timed at that tiling). At M <= 32, apart for K <= 1536 and the long K: the best `a_once`
    minus per program, and per program minus given (the most quantizing once could save)."""
    t = {key: {v: float(row["contest_us"]) for v, row in variants.items()} for key, variants in best.items()}
    s = {key: {v: float(row["contest_us"]) for v, row in variants.items()} for key, variants in same.items()}
    big = [key for key in best if key[0] >= 64]
    given = [key for key in big if "a_quantized" in s[key]]
    once = [key for key in given if "a_once" in s[key]]
    lines = [f"M >= 64: per program / given {_span([s[key]['fused'] / s[key]['a_quantized'] for key in given], '.2f')}x "
             f"at one tiling, {_span([t[key]['fused'] / t[key]['a_quantized'] for key in big], '.2f')}x best against "
             "best; once wins back " + _span([(s[key]['fused'] - s[key]['a_once']) / (s[key]['fused'] - s[key]['a_quantized'])
                                              for key in once], '.0%') + " of per program - given at one tiling"]
    for label, keys in (("K <= 1536", [key for key in best if key[0] <= 32 and key[2] <= 1536]),
                        ("K > 1536", [key for key in best if key[0] <= 32 and key[2] > 1536])):
        lines.append(f"M <= 32, {label}: once - per program "
                     f"{_span([t[key]['a_once'] - t[key]['fused'] for key in keys], '+.2f', ' us')} "
                     f"({_span([t[key]['a_once'] / t[key]['fused'] - 1 for key in keys], '+.0%')}), per program - given "
                     f"{_span([t[key]['fused'] - t[key]['a_quantized'] for key in keys], '.2f', ' us')}")
    return lines


def a_quantization_cost(rows: list[dict], stamp_frame, source: str = "data/results/h200/rung3/probe.csv"):
    """(text, figure) of what quantizing A inside the GEMM costs, from the version-3 diagnostic run's probe.csv
    (`rows` as `probe.read_rows` gives them, `stamp_frame` the same CSV as a frame): per benchmark and test shape
    the median us per call of each `A_VARIANTS` variant, A quantized by every program (one row, the table's config
    of version 2), once per launch, or handed over already quantized (not a GEMM call); first the best checked
    config of each (`probe.best_by_variant`), then once and given at the per-program row's tiling
    (`probe.at_reference_tiling`; "-" where not timed there); then `a_cost_spans` over the benchmark and test
    shapes. The figure: the best of each as bars, stamped with `source` (the recorded run's probe.csv unless
    another run is drawn)."""
    import matplotlib.pyplot as plt
    import numpy as np

    from . import figures, probe

    keys = [s.mnk for s in shapes_mod.load("benchmark")] + [s.mnk for s in shapes_mod.load("test")]
    best, same = probe.best_by_variant(rows), probe.at_reference_tiling(rows)
    tiling = "per program's tiling"
    lines = [f"{'':14}{'best checked config each':>34}{tiling:>22}",
             f"{'shape':>14}{'per program':>14}{'once':>10}{'given':>10}{'once':>11}{'given':>11}   median us per call"]
    for key in keys:
        at = [same[key].get(v) for v in ("a_once", "a_quantized")]
        lines.append(f"{'x'.join(map(str, key)):>14}{float(best[key]['fused']['contest_us']):14.2f}"
                     + "".join(f"{float(best[key][v]['contest_us']):10.2f}" for v in ("a_once", "a_quantized"))
                     + "".join(f"{float(r['contest_us']):11.2f}" if r else f"{'-':>11}" for r in at))
    lines += ["(per program: A quantized by every program; once: once per launch; given: handed over quantized)", ""]
    lines += a_cost_spans({key: best[key] for key in keys}, {key: same[key] for key in keys})
    fig, ax = plt.subplots(figsize=(8, 3.6), layout="constrained")
    width = 0.8 / len(A_VARIANTS)
    for i, (v, label) in enumerate(A_VARIANTS):
        ax.bar(np.arange(len(keys)) - 0.4 + width * (i + 0.5), [float(best[key][v]["contest_us"]) for key in keys],
               width, label=label, color=figures.COLORS.get(v, "#D55E00"))
    ax.set_xticks(range(len(keys)), ["x".join(map(str, key)) for key in keys], rotation=30, ha="right")
    ax.set(ylabel="contest time per call (us, median)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_title(f"{figures.device_short(stamp_frame)}: A quantized by every program, once per launch, or handed over "
                 "(best checked config each)")
    figures.stamp(fig, stamp_frame, source)
    return "\n".join(lines), fig
