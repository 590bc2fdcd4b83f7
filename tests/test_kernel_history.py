"""mxlib.tools.kernel_history: notebook 07's readings of the recorded H200 runs."""
import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from mxlib.spec import shapes  # noqa: E402
from mxlib.tools.repo import RESULTS_DIR  # noqa: E402
from mxlib.tools import kernel_history as history  # noqa: E402
from mxlib.tools import probe  # noqa: E402
from mxlib.tools.stats import geomean  # noqa: E402

from .helpers import probe_row  # noqa: E402

BENCH = [s.mnk for s in shapes.load("benchmark")]
DEV = {"device": "NVIDIA H200", "date": "2026-12-05T00:00:00Z"}


def _run21():
    """The bench run notebook 07 reads its floors, forced paths and mma_sm90 bound from."""
    return pd.read_csv(RESULTS_DIR / "h200" / "run_21d80f8" / "bench1.csv")


def test_bench_and_tuning_medians_filter_their_rows():
    bench = pd.DataFrame({"timing": ["contest", "contest", "graph", "contest"], "provider": ["mxlib", "cublas_bf16", "mxlib", "mxlib"],
                          "kind": ["benchmark", "benchmark", "benchmark", "test"], "m": [4] * 4, "n": [64] * 4, "k": [128] * 4,
                          "median_us": [1.0, 2.0, 3.0, 4.0]})
    assert history.bench_medians(bench) == {(4, 64, 128): 1.0}
    tuning = pd.DataFrame({"kind": ["benchmark"] * 4 + ["test"], "m": [4] * 5, "n": [64] * 5, "k": [128] * 5,
                           "median_us": [5.0, None, 2.0, 3.0, 1.0], "a_e4m3": [0, 0, 1, 0, 0], "b_decode": [0, 0, 0, 1, 0]})
    assert history.tuning_medians(tuning) == {(4, 64, 128): 5.0}  # the variants and the test shape are not version 1


def _versions():
    return {name: pd.read_csv(RESULTS_DIR / "h200" / path) for name, path, _ in history.FUSED_VERSIONS}


def test_fused_versions_rows_scores_and_missing_runs():
    frames = _versions()
    text, fig = history.fused_versions(frames)
    lines = text.splitlines()
    rows = {ln[:38].strip(): [float(x) for x in ln[38:].split()] for ln in lines[1:5]}
    assert list(rows) == [name for name, _, _ in history.FUSED_VERSIONS] and all(len(r) == 7 for r in rows.values())
    v2, v3 = rows["version 2: scales loaded a step ahead"], rows["version 3: A quantized once per launch"]
    assert v3[5] < 0.8 * v2[5]  # 256x3072x1536: A quantized once per launch cuts it by about a third
    assert sum(" us (" in ln for ln in lines) == 3  # a score per bench run; version 1 recorded medians only
    changes = lines[lines.index("what changed in the dispatcher's config on the benchmark shapes, against the version before:") + 1:]
    # the recorded finding (KERNEL_NOTES "Rung 3"): version 3 changed the M >= 64 tiles along with a_once
    assert changes[:3] == ["   version 3  16x2112x7168: a_once 0 -> 1",
                           "              64x7168x2048: block_n 128 -> 64, split_k 2 -> 1, num_warps 8 -> 4, a_once 0 -> 1",
                           "              256x3072x1536: block_m 64 -> 128, block_n 128 -> 64, num_warps 8 -> 4, a_once 0 -> 1"]
    assert changes[3].startswith("   version 4  ") and len(changes) == 5
    assert len(fig.axes[0].patches) == 4 * 6
    frames["version 1: one launch"] = None
    text, fig = history.fused_versions(frames)
    assert "version 1" not in text and len(fig.axes[0].patches) == 3 * 6


def test_mma_versions_rows_and_missing_runs():
    frames = {name: pd.read_csv(RESULTS_DIR / "h200" / path) for name, path, _ in history.MMA_VERSIONS}
    text, fig = history.mma_versions(frames)
    rows = {ln[:40].strip(): [float(x) for x in ln[40:].split()] for ln in text.splitlines()[1:]}
    assert list(rows) == [name for name, _, _ in history.MMA_VERSIONS] and all(len(r) == 8 for r in rows.values())
    assert text.splitlines()[0].endswith("geomean  (medians)")
    v15 = frames["v15: B's first chunks decoded before A"]
    medians = v15[(v15.timing == "contest") & (v15.provider == "mxlib:mma_sm90") & (v15.kind == "benchmark")].median_us
    assert rows["v15: B's first chunks decoded before A"][7] == pytest.approx(geomean(list(medians)), abs=0.0051)
    assert rows["v5: the shipped table"][6] < rows["v4: the shipped table"][6] < rows[
        "v3: + family direct (B to registers)"][6] < rows["v1: a round's loads, then A, then MMAs"][6]  # each shipped version
    best, cublas = history.contest_references(frames[history.MMA_VERSIONS[-1][0]])
    shape_axes = fig.axes[:6]
    for ax, key, col in zip(shape_axes, [s.mnk for s in shapes.load("benchmark")], range(6)):
        ladder_line, filled, hollow, cub, bound = ax.get_lines()
        assert list(ladder_line.get_ydata()) == pytest.approx([r[col] for r in rows.values()], abs=0.0051)  # the text rounds to 0.01
        assert len(filled.get_xdata()) + len(hollow.get_xdata()) == len(history.MMA_VERSIONS)
        assert cub.get_ydata()[0] == pytest.approx(cublas[key])
        assert bound.get_ydata()[0] == pytest.approx(1.5 * best[key])
    assert len(fig.axes[6].get_lines()) == 4  # the geomean panel: no per-shape bound
    assert len(hollow.get_xdata()) == sum(kind == "probe" for _, _, kind in history.MMA_VERSIONS)
    frames["v4a: + family pipelined"] = None
    text, fig = history.mma_versions(frames)
    assert "v4a" not in text and len(fig.axes[0].get_lines()[0].get_xdata()) == len(history.MMA_VERSIONS) - 1


def test_mma_means_of_a_bench_and_a_probe():
    bench = pd.DataFrame({"timing": ["contest", "graph", "contest"], "provider": ["mxlib:mma_sm90"] * 2 + ["mxlib"],
                          "kind": ["benchmark"] * 3, "m": [4] * 3, "n": [64] * 3, "k": [128] * 3, "mean_us": [1.0, 2.0, 3.0]})
    assert history.mma_means(bench, "bench") == {(4, 64, 128): 1.0}
    probe_rows = pd.DataFrame({"kind": ["benchmark"] * 3 + ["test"], "variant": ["mma_sm90", "mma_sm90", "fused", "mma_sm90"],
                               "m": [4] * 4, "n": [64] * 4, "k": [128] * 4, "mean_us": [5.0, 4.0, 1.0, 0.5]})
    assert history.mma_means(probe_rows, "probe") == {(4, 64, 128): 4.0}  # fused rows and test shapes left out


def test_fused_timeline_cold_rows_and_both_states():
    summary = probe.timelines(probe.read_rows(RESULTS_DIR / "h200" / "probe" / "timeline.csv"))
    text, fig = history.fused_timeline(summary, pd.read_csv(RESULTS_DIR / "h200" / "probe" / "probe.csv"))
    row = next(ln for ln in text.splitlines() if ln.strip().startswith("16x2112x7168")).split()
    s = summary[(16, 2112, 7168, "cold")]
    assert (int(row[1]), int(row[2]), int(row[-1])) == (s["programs"], s["iters"], s["max_resident"])
    assert float(row[3]) >= float(row[4])  # the launch's span is at least its median program
    for key in BENCH:  # every shape's times are the cold launch's, in us
        label = "x".join(map(str, key))
        row = next(ln for ln in text.splitlines() if ln.split()[:1] == [label]).split()
        s = summary[(*key, "cold")]
        assert [float(x) for x in row[3:8]] == pytest.approx(
            [s[f] / 1e3 for f in ("span_ns", "prog_ns", "loop_ns", "tail_ns", "tail_last_ns")], abs=0.0051)
    assert [ax.get_title().split(":")[0] for ax in fig.axes] == ["cold", "warm"]
    assert all(len(ax.patches) == 2 * 6 for ax in fig.axes)  # loop and tail bar per benchmark shape


def test_a_quantization_cost_table_spans_and_bars():
    keys = [s.mnk for s in shapes.load("benchmark")] + [s.mnk for s in shapes.load("test")]
    rows = []
    for i, key in enumerate(keys):
        rows += [probe_row(key, "fused", "bm=1 a_once=0", 10 + i), probe_row(key, "a_quantized", "bm=1 a_once=0", 8 + i),
                 probe_row(key, "a_quantized", "bm=2 a_once=0", 5 + i), probe_row(key, "a_once", "bm=2 a_once=1", 6 + i)]
    frame = pd.DataFrame({"device": ["NVIDIA H200"], "date": ["2026-12-03"]})
    text, fig = history.a_quantization_cost(rows, frame)
    lines = text.splitlines()
    assert lines[2].split() == ["4x2880x512", "10.00", "6.00", "5.00", "-", "8.00"]  # once not timed at bm=1
    assert [ln.split()[0] for ln in lines[2:2 + len(keys)]] == ["x".join(map(str, key)) for key in keys]
    # M >= 64 are shapes 4, 5, 8 and 9: (10 + i) / (8 + i) at one tiling, (10 + i) / (5 + i) best against best
    assert lines[-3] == ("M >= 64: per program / given 1.12 to 1.17x at one tiling, 1.36 to 1.56x best against best; "
                         "once wins back - of per program - given at one tiling")
    heights = [p.get_height() for p in fig.axes[0].patches]
    assert heights[:len(keys)] == [10.0 + i for i in range(len(keys))]  # first variant, every shape in order
    assert fig.axes[0].get_title().startswith("H200: ")
    texts = [t.get_text() for t in fig.texts]
    assert texts == ["measured on NVIDIA H200, 2026-12-03 (data/results/h200/rung3/probe.csv)"]
    frame["device"] = "NVIDIA H100 80GB HBM3"  # another GPU's re-run: its device in the title, its file in the stamp
    _, fig = history.a_quantization_cost(rows, frame, source="data/results/h100/workbook/probe/probe.csv")
    assert fig.axes[0].get_title().startswith("H100 80GB HBM3: ")
    assert [t.get_text() for t in fig.texts] == [
        "measured on NVIDIA H100 80GB HBM3, 2026-12-03 (data/results/h100/workbook/probe/probe.csv)"]


def test_a_cost_spans_of_the_recorded_run():
    from mxlib.tools import probe

    rows = probe.read_rows(RESULTS_DIR / "h200" / "rung3" / "probe.csv")
    keys = [s.mnk for s in shapes.load("benchmark")] + [s.mnk for s in shapes.load("test")]
    best, same = probe.best_by_variant(rows), probe.at_reference_tiling(rows)
    spans = history.a_cost_spans({key: best[key] for key in keys}, {key: same[key] for key in keys})
    # the numbers notebook 07 quotes in section 5 (and section 3 the 64x7168x2048 / 256x3072x1536 rows)
    assert spans == [
        "M >= 64: per program / given 1.24 to 1.42x at one tiling, 1.42 to 1.93x best against best; "
        "once wins back 22% to 69% of per program - given at one tiling",
        "M <= 32, K <= 1536: once - per program +1.63 to +1.94 us (+14% to +24%), per program - given 0.38 to 1.07 us",
        "M <= 32, K > 1536: once - per program -0.10 to +0.42 us (-1% to +2%), per program - given 2.66 to 2.83 us"]
    at = {key: {v: float(r["contest_us"]) for v, r in same[key].items()} for key in ((64, 7168, 2048), (256, 3072, 1536))}
    assert at == {(64, 7168, 2048): {"fused": 27.504, "a_quantized": 19.776, "a_once": 22.16},
                  (256, 3072, 1536): {"fused": 32.896, "a_quantized": 24.608, "a_once": 28.656}}
    text, _ = history.a_quantization_cost(rows, pd.read_csv(RESULTS_DIR / "h200" / "rung3" / "probe.csv"))
    assert text.splitlines()[-3:] == spans


def test_mma_floor_rows_bars_and_bound():
    ablate = pd.read_csv(RESULTS_DIR / "h200" / "mma_v16" / "ablate.csv")
    bench = _run21()
    text, fig = history.mma_floor(ablate, bench, "run_21d80f8/bench1.csv")
    first, second = text.split("\n\n")
    rows = {ln.split()[0]: [float(x) for x in ln.split()[1:]] for ln in first.splitlines()[1:]}
    assert list(rows) == ["16x2112x7168", "64x7168x2048", "256x3072x1536"]
    r = ablate[(ablate.m == 256) & (ablate.variant == "resident_skeleton")]
    assert rows["256x3072x1536"][2] == pytest.approx(r.mean_us.mean(), abs=0.005)  # the mean over the rounds
    touch = bench[(bench.timing == "contest") & (bench.m == 256) & bench.provider.str.startswith("touch")]
    assert rows["256x3072x1536"][3] == pytest.approx(1.5 * touch.mean_us.min(), abs=0.005)
    assert rows["256x3072x1536"][2] > rows["256x3072x1536"][3]  # the recorded finding: the fixed part alone is over
    # what notebook 07 quotes: full minus the bound, the loop (full minus the fixed part), and the share
    assert second.splitlines()[1:] == ["  16x2112x7168          1.00   3.37    30%",
                                       "  64x7168x2048          1.61   4.18    39%",
                                       " 256x3072x1536          4.82   4.23   114%"]
    assert rows["256x3072x1536"][3] == pytest.approx(9.68, abs=0.005) and rows["16x2112x7168"][1:4:2] == [11.80, 11.78]
    assert len(fig.axes[0].patches) == len(history.FLOOR_VARIANTS) * 3 and len(fig.axes[0].collections) == 2 * 3


def test_between_blocks_pairs_and_missing_runs():
    frames = {name: pd.read_csv(RESULTS_DIR / "h200" / name) for name in history.PAIRED_RUNS}
    text, fig = history.between_blocks(frames)
    rows = {ln.split()[0]: ln.split() for ln in text.splitlines()[1:]}
    assert list(rows) == ["x".join(map(str, s.mnk)) for s in shapes.load("benchmark")]
    final = history.dispatcher_minus_forced(frames["final/bench.csv"])
    assert final[(64, 7168, 2048)][1] == 2 and final[(4, 2880, 512)][1] == 1
    f = frames["final/bench.csv"]
    mean = {p: f[(f.timing == "contest") & (f.provider == p) & (f.m == 64)].mean_us.item() for p in ("mxlib", "mxlib:mma_sm90")}
    assert final[(64, 7168, 2048)][0] == pytest.approx(mean["mxlib"] - mean["mxlib:mma_sm90"])
    assert all(r[2] == str(len(history.PAIRED_RUNS)) for r in rows.values())  # every run pairs every shape
    # the recorded finding (KERNEL_NOTES "The between-block effect"): two launches, never within 0.7 us; one, within 0.06
    assert all(float(r[3]) >= 0.7 if r[1] == "2" else float(r[4]) <= 0.06 for r in rows.values())
    assert sum(len(line.get_xdata()) for line in fig.axes[0].get_lines()[:6]) == 6 * len(history.PAIRED_RUNS)
    frames["final/bench.csv"] = None
    text, _ = history.between_blocks(frames)
    assert text.splitlines()[1].split()[2] == str(len(history.PAIRED_RUNS) - 1)


def test_dispatcher_minus_forced_needs_one_config():
    frame = pd.DataFrame({"timing": ["contest"] * 4, "kind": ["benchmark"] * 4, "provider": ["mxlib", "mxlib:mma_sm90"] * 2,
                          "m": [4, 4, 8, 8], "n": [64] * 4, "k": [512] * 4, "mean_us": [5.0, 4.0, 3.0, 1.0],
                          "config": ["num_stages=1 split_k=2", "num_stages=1 split_k=2", "num_stages=4 split_k=3", "num_stages=4 split_k=4"]})
    assert history.dispatcher_minus_forced(frame) == {(4, 64, 512): (1.0, 1)}  # (8, 64, 512) ran two configs


def test_launch_count_reads_the_recorded_blocks():
    frame = pd.read_csv(RESULTS_DIR / "h200" / "mma_v17" / "blocks_v17c.csv")
    text, fig = history.launch_count(frame)
    rows = {(ln.split()[0], int(ln.split()[1])): ln.split(maxsplit=2)[2] for ln in text.splitlines()[1:]}
    assert list(rows)[0] == ("32x4096x512", 1)  # the one-launch control first
    # the recorded finding (KERNEL_NOTES "v17c"): 2 alternates, 1 and 3 go in pairs, 4 and the control stay in one state
    assert rows[("32x4096x512", 1)].startswith("one state")
    for shape in ("16x2112x7168", "64x7168x2048", "256x3072x1536"):
        marks = {count: rows[(shape, count)].split()[:12] for count in (1, 2, 3)}
        assert marks[2][::2] in (["f"] * 6, ["s"] * 6) and set(marks[2][::2]) != set(marks[2][1::2])
        for count in (1, 3):
            assert all(marks[count][i] == marks[count][i + 4] for i in range(8)) and marks[count].count("s") == 6
        assert rows[(shape, 4)].startswith("one state (slow)" if shape != "16x2112x7168" else "one state (fast)")
    means = frame[(frame.m == 64) & (frame.launches_between == 2)].sort_values("block").mean_us
    fast, slow = (float(x) for x in rows[("64x7168x2048", 2)].split()[-3::2])
    assert fast == pytest.approx(means[means < 13.2].mean(), abs=0.005) and slow == pytest.approx(means[means > 13.2].mean(), abs=0.005)
    assert len(fig.axes) == 4 * 4 and sum(len(ax.collections) for ax in fig.axes) == 13  # 13 rows run, 3 panels not


def test_gemm_start_reads_the_recorded_kernel_records():
    frames = [pd.read_csv(RESULTS_DIR / "h200" / "mma_v17" / f"blocks_v17{v}.csv") for v in "ef"]
    text, fig = history.gemm_start(frames)
    rows = {tuple(ln.split()[:3]): ln.split()[3:] for ln in text.splitlines()[1:]}
    # the recorded finding (KERNEL_NOTES "v17e", "v17f measured on an H200"): on both launch counts the GEMM starts
    # early or late; the late start costs at 16x2112x7168 and 64x7168x2048 and pays at 256x3072x1536; replayed
    # calls have no kernel records
    for shape, sign in (("16x2112x7168", 1), ("64x7168x2048", 1), ("256x3072x1536", -1)):
        for count in ("1", "2"):
            early, _, late, _, cost = rows[(shape, "launched", count)]
            assert float(early.split("-")[1]) < 0.8 < 1.1 < float(late.split("-")[0])
            assert 0.2 < sign * float(cost) < 0.5
            assert rows[(shape, "replayed", count)][-3:] == ["(no", "kernel", "records)"]
    assert sum(len(ax.collections) for ax in fig.axes) == 2 * 3  # a scatter per shape and launch count


def test_gemm_start_one_start_is_all_early():
    frame = pd.DataFrame({"mode": ["launches"] * 2, "m": [8] * 2, "n": [64] * 2, "k": [512] * 2,
                          "launches_between": [1, 1], "mean_us": [5.0, 5.1], "first_to_last_us": [0.70, 0.75],
                          "device": ["NVIDIA H200"] * 2, "date": ["2026-12-05T00:00:00Z"] * 2})
    text, _ = history.gemm_start([frame])
    assert text.splitlines()[1].split() == ["8x64x512", "launched", "1", "0.70-0.75", "5.00-5.10", "-", "-", "-"]


def test_launch_count_one_state_and_nothing_else():
    frame = pd.DataFrame({"mode": ["launches"] * 4 + ["same"], "m": [8] * 5, "n": [64] * 5, "k": [512] * 5,
                          "family": ["two launches"] * 5, "block": [0, 1, 0, 1, 0], "launches_between": [1, 1, 2, 2, 0],
                          "mean_us": [5.0, 5.1, 5.0, 6.0, 9.0], "device": ["NVIDIA H200"] * 5,
                          "date": ["2026-12-05T00:00:00Z"] * 5})
    text, fig = history.launch_count(frame)
    assert text.splitlines()[1:] == ["      8x64x512  1  one state (fast)         5.00 - 5.10",
                                     "      8x64x512  2  f s                      5.00 / 6.00"]
    assert len(fig.axes) == 2  # the `same` row is not a launch count


def _final():
    return pd.read_csv(RESULTS_DIR / "h200" / "final" / "bench.csv")


def test_floors_reads_targets_and_the_best_read_only_launch():
    from mxlib.tools.acceptance import TARGET_EMPTY_PLUS_FLOOR

    frame = _final()
    text, fig = history.floors(frame)
    lines = text.splitlines()
    rows = {ln.split()[0]: [float(x) for x in ln.split()[1:]] for ln in lines[1:7]}
    c = frame[(frame.timing == "contest") & (frame.kind == "benchmark")]
    r = c[c.m == 256].iloc[0]
    assert rows["256x3072x1536"] == pytest.approx([r.floor_us, r.empty_us, TARGET_EMPTY_PLUS_FLOOR * (r.empty_us + r.floor_us)], abs=0.006)
    touch = c[c.provider.str.startswith("touch")]
    best = touch.groupby("provider").mean_us.apply(lambda s: s.prod() ** (1 / len(s))).idxmin()
    assert f"the best, {best} " in text
    mine, fastest = (c[c.provider == p].set_index(["m", "n", "k"]).mean_us for p in ("mxlib", best))
    ratios = list(mine / fastest)
    assert lines[-2] == f"mxlib / best read-only launch: {min(ratios):.1f} to {max(ratios):.1f}x per shape"
    dashed = [c for c in fig.axes[0].collections if c.get_linestyle()[0][1] is not None]
    assert len(dashed) == 6  # one target line a shape


def test_floors_says_where_the_read_only_launch_is_under_the_target():
    frame = _run21()
    text, fig = history.floors(frame)
    assert text.splitlines()[-1] == ("best read-only launch above the target on 5 of 6 shapes; under it at 256x3072x1536 "
                                     "(6.45 us against 7.55, mxlib 13.89)")
    assert fig.axes[0].get_title() == "H200, benchmark shapes: the best read-only launch is above the target on 5 of 6 shapes"
    slow = (frame.m == 256) & frame.provider.str.startswith("touch")  # every read-only launch over at 256x3072x1536
    text, fig = history.floors(frame.assign(mean_us=frame.mean_us.where(~slow, 99.0)))
    assert text.splitlines()[-1] == "best read-only launch above the target on 6 of 6 shapes"
    assert fig.axes[0].get_title().endswith("above the target on 6 of 6 shapes")


def test_forced_paths_ratio_is_fused_fp4_over_fused():
    frame = _run21()
    text, fig = history.forced_paths(frame, "run_21d80f8/bench1.csv")
    c = frame[(frame.timing == "contest") & (frame.m == 64)]
    ratio = c[c.provider == "mxlib:fused_fp4"].mean_us.item() / c[c.provider == "mxlib:fused"].mean_us.item()
    ratio_line, cublas_line = text.splitlines()[-3], text.splitlines()[-1]
    assert f"64x7168x2048 {ratio:.2f} (configs differ in block_n, split_k, num_warps, a_once)" in ratio_line
    # what notebook 07 quotes: the two M >= 64 ratios; equal configs at K = 512, a_once alone at 16x2112x7168
    assert ratio_line.endswith(": 4x2880x512 0.98, 16x2112x7168 1.01 (configs differ in a_once), 32x4096x512 1.05, "
                               "32x2880x512 1.07, 64x7168x2048 1.57 (configs differ in block_n, split_k, num_warps, a_once), "
                               "256x3072x1536 2.02 (configs differ in block_m, block_n, num_warps, a_once)")
    assert cublas_line == ("cublas_bf16 faster than mxlib, mxlib / cublas_bf16: means 32x2880x512 1.013, 256x3072x1536 1.371; "
                           "medians 32x4096x512 1.028, 32x2880x512 1.038, 256x3072x1536 1.392")
    assert {t.get_text() for t in fig.axes[0].get_legend().get_texts()} >= {"mxlib:fused", "mxlib:fused_fp4", "mxlib:mma_sm90"}
    assert fig.axes[0].get_title().startswith("H200: benchmark shapes, mxlib's paths forced")
    assert [t.get_text() for t in fig.texts] == ["measured on NVIDIA H200, 2026-12-05 (run_21d80f8/bench1.csv)"]


def test_gfx950_fused_fp4_lists_every_benchmark_shape_and_refuses_a_missing_one():
    isa = pd.read_csv(RESULTS_DIR / "mi355x" / "isa.csv")
    head, *lines = history.gfx950_fused_fp4(isa).splitlines()
    assert head == f"fused_fp4 compiled for gfx950 by Triton {isa.triton.iloc[0]} on a CPU (the record's triton column):"
    assert [ln.split()[0] for ln in lines] == ["x".join(map(str, s.mnk)) for s in shapes.load("benchmark")]
    assert all("v_mfma_scale_f32" in ln for ln in lines)
    with pytest.raises(ValueError, match="no gfx950 row of fused_fp4's _fp4_gemm_kernel for the benchmark shape 4x2880x512"):
        history.gfx950_fused_fp4(isa[isa["shape"] != "4x2880x512"])
    # another kernel's or target's row of the shape, first in the frame, is not read
    first = isa[isa["shape"] == "4x2880x512"].assign(kernel="_mxq_kernel", vgprs=1)
    other = isa[isa["shape"] == "4x2880x512"].assign(target="sm_90", vgprs=2)
    assert history.gfx950_fused_fp4(pd.concat([first, other, isa], ignore_index=True)).splitlines() == [head, *lines]


def test_configs_changes_and_faster_than():
    frame = pd.DataFrame({"timing": ["contest"] * 4, "kind": ["benchmark"] * 4, "m": [4] * 4, "n": [64] * 4, "k": [512] * 4,
                          "provider": ["a", "b", "mxlib", "cublas_bf16"], "mean_us": [1.0, 1.0, 5.0, 4.0],
                          "median_us": [1.0, 1.0, 4.0, 4.5],
                          "config": ["block_m=16 split_k=2", "block_m=16 split_k=4 a_once=1 b_cg=1", "", ""]})
    a, b = history.configs(frame, "a")[(4, 64, 512)], history.configs(frame, "b")[(4, 64, 512)]
    assert a == {"a_once": 0, "block_m": 16, "split_k": 2}  # no a_once field: A quantized in every program
    assert history.config_changes(a, b) == ["split_k 2 -> 4", "a_once 0 -> 1"]  # b_cg is not in CONFIG_FIELDS
    assert history.faster_than(frame, "mxlib", "cublas_bf16") == {(4, 64, 512): 1.25}
    assert history.faster_than(frame, "mxlib", "cublas_bf16", "median_us") == {}


def _scored_run(times: dict) -> pd.DataFrame:
    """A bench.csv frame of the benchmark shapes: {provider: (mean, median) on every shape, or {shape: (mean, median)}}."""
    rows = []
    for provider, got in times.items():
        for s in shapes.load("benchmark"):
            mean, median = got[s.mnk] if isinstance(got, dict) else got
            rows.append({"timing": "contest", "kind": "benchmark", "provider": provider, "m": s.m, "n": s.n, "k": s.k,
                         "mean_us": mean, "median_us": median})
    return pd.DataFrame(rows)


def test_same_kernel_runs_scores_margins_and_shapes():
    m256 = (256, 3072, 1536)
    slow256 = {s.mnk: ((30.0, 30.0) if s.mnk == m256 else (9.0, 9.0)) for s in shapes.load("benchmark")}
    runs = {"a/bench.csv": _scored_run({"mxlib:mma_sm90": (8.0, 8.0), "mxlib": (9.0, 8.5), "cublas_bf16": (10.0, 10.0)}),
            "b/bench.csv": _scored_run({"mxlib:mma_sm90": (8.5, 8.5), "mxlib": slow256, "cublas_bf16": (10.0, 9.0)}),
            "missing": None,
            "no cublas": _scored_run({"mxlib:mma_sm90": (1.0, 1.0), "mxlib": (1.0, 1.0)})}
    text = history.same_kernel_runs(runs)
    lines = text.splitlines()
    assert [ln.split()[0] for ln in lines[1:3]] == ["a/bench.csv", "b/bench.csv"] and lines[3] == ""  # the others left out
    assert "10.0% (15.0%)" in lines[1] and lines[1].endswith("none")
    assert lines[2].endswith("256x3072x1536")  # the one shape where cuBLAS bf16 is the faster
    assert lines[4] == ("over 2 runs (scores: geomeans of contest means, us): forced mma_sm90 8.00-8.50, mxlib 9.00-11.00, "
                        "cuBLAS bf16 10.00-10.00; mxlib under cuBLAS by -10.0% to 10.0% on the means, -22.2% to 15.0% "
                        "on the medians")  # run b: 30 us at M = 256 puts its mxlib score 10% above cuBLAS's
    assert lines[5] == ("cuBLAS bf16 faster than mxlib at one of {none}, {256x3072x1536} a run (means); "
                        "at one of {none}, {256x3072x1536} a run (medians)")
    one = history.same_kernel_runs({"a/bench.csv": runs["a/bench.csv"]}).splitlines()
    assert one[-1] == "cuBLAS bf16 faster than mxlib at {none} in every run (means); at {none} in every run (medians)"
    assert history.same_kernel_runs({"missing": None}) == "no run recorded"
    assert history.V15_RUNS[0] == "final/bench.csv" and history.V15_RUNS[-1] == history.PAIRED_RUNS[-1]


def test_same_kernel_runs_forced_is_the_mean_and_medians_have_their_own_set():
    m256 = (256, 3072, 1536)
    run = _scored_run({"mxlib:mma_sm90": (8.0, 7.0),
                       "mxlib": {s.mnk: ((30.0, 5.0) if s.mnk == m256 else (9.0, 9.0)) for s in shapes.load("benchmark")},
                       "cublas_bf16": (10.0, 10.0)})
    lines = history.same_kernel_runs({"c/bench.csv": run}).splitlines()
    assert lines[1].split()[1] == "8.00"  # the forced path's mean, not its median (7.00)
    assert lines[-1] == ("cuBLAS bf16 faster than mxlib at {256x3072x1536} in every run (means); "
                         "at {none} in every run (medians)")


def test_floors_counts_the_read_only_grids_timed():
    frame = _final()
    c = frame[(frame.timing == "contest") & (frame.kind == "benchmark")]
    grids = c.provider[c.provider.str.startswith("touch")].nunique()
    assert 1 < grids < c.provider.nunique()
    text, _ = history.floors(frame)
    assert f"read-only launch: {grids} grids timed; the best" in text


def test_gfx950_names_every_triton_that_compiled_the_rows():
    isa = pd.read_csv(RESULTS_DIR / "mi355x" / "isa.csv")
    isa.loc[isa["shape"] == "4x2880x512", "triton"] = "3.8.0"
    head = history.gfx950_fused_fp4(isa).splitlines()[0]
    assert head.startswith(f"fused_fp4 compiled for gfx950 by Triton 3.8.0, {isa.triton.iloc[-1]} on a CPU")


def test_tuning_medians_leaves_out_a_shape_with_no_median():
    tuning = pd.DataFrame({"kind": ["benchmark"] * 2, "m": [4, 8], "n": [64] * 2, "k": [128] * 2,
                           "median_us": [5.0, None], "a_e4m3": [0, 0], "b_decode": [0, 0]})
    assert history.tuning_medians(tuning) == {(4, 64, 128): 5.0}


def test_fused_versions_stamps_the_latest_bench_run():
    frames = _versions()
    last = history.FUSED_VERSIONS[-1][0]
    frames[last] = frames[last].assign(device="NVIDIA H100 80GB HBM3")
    _, fig = history.fused_versions(frames)
    assert fig.texts[-1].get_text().startswith("measured on NVIDIA H100 80GB HBM3")


def test_mma_means_of_a_bench_leaves_out_a_row_without_the_stat():
    bench = pd.DataFrame({"timing": ["contest"] * 2, "provider": ["mxlib:mma_sm90"] * 2, "kind": ["benchmark"] * 2,
                          "m": [4, 8], "n": [64] * 2, "k": [128] * 2, "mean_us": [1.0, None], "median_us": [1.0, 2.0]})
    assert history.mma_means(bench, "bench") == {(4, 64, 128): 1.0}
    assert history.mma_means(bench, "bench", "median_us") == {(4, 64, 128): 1.0, (8, 64, 128): 2.0}


def _pair_run(diff: float, config: str = "num_stages=1 split_k=2") -> pd.DataFrame:
    key = BENCH[0]
    return pd.DataFrame({"timing": ["contest"] * 2, "kind": ["benchmark"] * 2, "provider": ["mxlib", "mxlib:mma_sm90"],
                         "m": [key[0]] * 2, "n": [key[1]] * 2, "k": [key[2]] * 2, "mean_us": [5.0 + diff, 5.0],
                         "config": [config] * 2, **{c: [v] * 2 for c, v in DEV.items()}})


def test_between_blocks_sizes_and_slower_count():
    text, _ = history.between_blocks({"a": _pair_run(-1.0), "b": _pair_run(0.0), "c": _pair_run(2.0)})
    # |diff| from 0.00 to 2.00; the dispatcher slower in 1 of 3 (a tie is not slower)
    assert text.splitlines()[1].split() == ["4x2880x512", "1", "3", "0.00", "2.00", "1", "of", "3"]
    text, _ = history.between_blocks({"a": _pair_run(-1.0), "c": _pair_run(2.0)})
    assert text.splitlines()[1].split()[3:5] == ["1.00", "2.00"]


def _blocks(rows):
    """launch_count rows: (m, n, k, L, block, mean_us)."""
    return pd.DataFrame([{"mode": "launches", "m": m, "n": n, "k": k, "family": "two launches", "launches_between": L,
                          "block": b, "mean_us": us, **DEV} for m, n, k, L, b, us in rows])


def test_launch_count_reads_the_blocks_in_block_order():
    text, _ = history.launch_count(_blocks([(8, 64, 512, 2, 1, 6.0), (8, 64, 512, 2, 0, 5.0)]))
    assert text.splitlines()[1].split()[:4] == ["8x64x512", "2", "f", "s"]


def test_launch_count_keeps_shapes_apart_that_differ_only_in_k():
    text, _ = history.launch_count(_blocks([(8, 64, 512, 1, 0, 5.0), (8, 64, 512, 1, 1, 5.1),
                                            (8, 64, 1024, 1, 0, 9.0), (8, 64, 1024, 1, 1, 9.1)]))
    assert [ln.split() for ln in text.splitlines()[1:]] == [["8x64x512", "1", "one", "state", "5.00", "-", "5.10"],
                                                            ["8x64x1024", "1", "one", "state", "9.00", "-", "9.10"]]


def test_gemm_start_leaves_out_blocks_without_kernel_records():
    frame = pd.DataFrame({"mode": ["launches"] * 3, "m": [8] * 3, "n": [64] * 3, "k": [512] * 3,
                          "launches_between": [1] * 3, "mean_us": [5.0, 5.1, 9.0], "first_to_last_us": [0.70, 0.75, None],
                          **{c: [v] * 3 for c, v in DEV.items()}})
    text, _ = history.gemm_start([frame])
    assert text.splitlines()[1].split()[3:5] == ["0.70-0.75", "5.00-5.10"]


def test_mma_floor_takes_the_mean_over_rounds():
    key = BENCH[1]
    ablate = pd.DataFrame([{"m": key[0], "n": key[1], "k": key[2], "variant": v, "mean_us": us, **DEV}
                           for v, us in (("full", 10.0), ("full", 11.0), ("full", 15.0), ("resident", 8.0),
                                         ("resident_skeleton", 6.0))])
    bench = pd.DataFrame([{"timing": "contest", "kind": "benchmark", "provider": p, "m": key[0], "n": key[1], "k": key[2],
                           "mean_us": us, "median_us": us, **DEV} for p, us in (("touch_64", 4.0), ("cublas_bf16", 20.0))])
    text, _ = history.mma_floor(ablate, bench, "x/bench.csv")
    first, second = text.split("\n\n")
    assert first.splitlines()[1].split() == ["16x2112x7168", "12.00", "8.00", "6.00", "6.00", "20.00"]
    assert second.splitlines()[1].split() == ["16x2112x7168", "6.00", "6.00", "100%"]


def _variants(**us):
    return {v: {"contest_us": str(x)} for v, x in us.items()}


def test_a_cost_spans_one_value_big_shapes_without_given_or_once():
    best = {(64, 1, 1): _variants(fused=10.0, a_quantized=5.0, a_once=6.0),
            (128, 1, 1): _variants(fused=12.0, a_quantized=4.0, a_once=8.0),
            (256, 1, 1): _variants(fused=20.0, a_quantized=10.0, a_once=12.0)}
    same = {(64, 1, 1): _variants(fused=10.0, a_quantized=8.0, a_once=9.0),
            (128, 1, 1): _variants(fused=12.0),  # neither timed at the per-program row's tiling
            (256, 1, 1): _variants(fused=20.0, a_once=15.0)}  # once timed there, given not
    lines = history.a_cost_spans(best, same)
    assert lines[0] == ("M >= 64: per program / given 1.25x at one tiling, 2.00 to 3.00x best against best; "
                        "once wins back 50% of per program - given at one tiling")


def test_floors_reads_the_benchmark_shapes_only():
    frame = _run21()
    extra = frame[frame.m == 4].assign(kind="test", m=8)  # a test shape timed in the same run
    text, _ = history.floors(pd.concat([frame, extra], ignore_index=True))
    assert text == history.floors(frame)[0]


def test_floors_a_launch_level_with_the_target_is_not_above_it():
    from mxlib.tools.acceptance import TARGET_EMPTY_PLUS_FLOOR as ratio

    frame = _run21()
    at = (frame.m == 4) & (frame.timing == "contest") & (frame.kind == "benchmark")
    r = frame[at].iloc[0]
    target = ratio * (r.empty_us + r.floor_us)
    frame.loc[at & frame.provider.str.startswith("touch"), "mean_us"] = target  # every grid exactly at the target
    text, _ = history.floors(frame)
    assert text.splitlines()[-1].startswith("best read-only launch above the target on 4 of 6 shapes; under it at "
                                            "4x2880x512")


def test_config_changes_compares_values_not_objects():
    before, after = {"block_k": int("512"), "split_k": 2}, {"block_k": int("512"), "split_k": 4}
    assert history.config_changes(before, after) == ["split_k 2 -> 4"]


def test_tuning_medians_is_the_fastest_config():
    tuning = pd.DataFrame({"kind": ["benchmark"] * 3, "m": [4] * 3, "n": [64] * 3, "k": [128] * 3,
                           "median_us": [5.0, 3.0, 4.0], "a_e4m3": [0] * 3, "b_decode": [0] * 3})
    assert history.tuning_medians(tuning) == {(4, 64, 128): 3.0}


def test_ladder_geomean_column_is_the_geometric_mean_of_the_six():
    frames = _versions()
    text, _ = history.fused_versions(frames)
    for ln in text.splitlines()[1:5]:
        values = [float(x) for x in ln[38:].split()]
        assert values[6] == pytest.approx(geomean(values[:6]), abs=0.011)
        assert abs(values[6] - sum(values[:6]) / 6) > 0.05  # the arithmetic mean would show otherwise


def test_contest_references_are_contest_rows_of_touch_and_cublas():
    key = BENCH[0]
    rows = [("contest", "touch_a", 4.0), ("contest", "touch_b", 5.0), ("contest", "cublas_bf16", 20.0),
            ("contest", "mxlib", 9.0), ("graph", "touch_a", 1.0), ("graph", "cublas_bf16", 2.0)]
    bench = pd.DataFrame([{"timing": t, "kind": "benchmark", "provider": p, "m": key[0], "n": key[1], "k": key[2],
                           "mean_us": us, "median_us": us} for t, p, us in rows])
    assert history.contest_references(bench) == ({key: 4.0}, {key: 20.0})


def test_ladders_leave_out_rows_that_failed_their_check():
    """A config whose output failed its check has no time to rank: the probe's and the tuning run's fastest
    config is a checked one, and a bench run's failed row is left out as its score leaves it out."""
    key = (4, 64, 128)
    probe_frame = pd.DataFrame({"kind": ["benchmark"] * 2, "variant": ["mma_sm90"] * 2, "m": [4] * 2, "n": [64] * 2,
                                "k": [128] * 2, "ok": [0, 1], "mean_us": [1.0, 5.0], "median_us": [1.0, 5.0]})
    assert history.mma_means(probe_frame, "probe") == {key: 5.0}
    tuning = pd.DataFrame({"kind": ["benchmark"] * 2, "m": [4] * 2, "n": [64] * 2, "k": [128] * 2, "ok": [False, True],
                           "median_us": [1.0, 5.0], "a_e4m3": [0] * 2, "b_decode": [0] * 2})
    assert history.tuning_medians(tuning) == {key: 5.0}
    bench = pd.DataFrame({"timing": ["contest"] * 2, "kind": ["benchmark"] * 2, "provider": ["mxlib:mma_sm90", "mxlib"],
                          "m": [4] * 2, "n": [64] * 2, "k": [128] * 2, "ok": [0, 0], "mean_us": [1.0] * 2,
                          "median_us": [1.0] * 2})
    assert history.mma_means(bench, "bench") == {} and history.bench_medians(bench) == {}
