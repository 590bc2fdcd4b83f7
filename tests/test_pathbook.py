"""mxlib.tools.pathbook: the shared sections of notebooks 03-05 read the seed's plan and the recorded CSVs."""
import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from mxlib.kernels import gemm_splitk, gemm_tiled  # noqa: E402
from mxlib.spec import shapes  # noqa: E402
from mxlib.tools import pathbook as pb  # noqa: E402
from mxlib.tools.repo import RESULTS_DIR  # noqa: E402


def test_seed_shapes_follow_the_seed_route():
    assert [str(s) for s in pb.seed_shapes("splitk")] == ["16x2112x7168"]
    assert {str(s) for s in pb.seed_shapes("asm")} == {"8x2112x7168", "16x3072x1536", "4x2880x512", "32x4096x512",
                                                       "32x2880x512"}
    assert len(pb.seed_shapes("ck")) == 7
    with pytest.raises(ValueError, match="path must be one of the seed's paths"):
        pb.seed_shapes("fused")


def test_seed_launches_name_every_launch_and_the_ctas():
    text = pb.seed_launches("splitk")
    for piece in ("_mxfp4_quant_natural_kernel", "grid    1x14", "_gemm_afp4wfp4_preshuffle_kernel", "119 CTAs",
                  "46.5% of 256 CUs", "_gemm_afp4wfp4_reduce_kernel", "33 CTAs"):
        assert piece in text, piece
    assert "heuristic 192x128 tile, 17 CTAs" in pb.seed_launches("asm")  # 8x2112x7168: no name, aiter picks


def test_gemm_a4w4_lines_ck_then_asm():
    lines = pb.gemm_a4w4_lines(pb.seed_shapes("ck")).splitlines()
    row = next(line for line in lines if line.strip().startswith("64x7168x2048"))
    assert "ck 64x128 (tuned), 56 CTAs" in row and "asm 32x128 (tuned), 112 CTAs" in row


def test_compiled_facts_have_both_targets_for_every_shape():
    for path in pb.SEED_PATHS:
        text = pb.compiled_facts(path)
        assert "not compiled" not in text
        for s in pb.seed_shapes(path):
            assert f"{str(s):>14} gfx950" in text and f"{str(s):>14}  sm_90" in text


def test_aiter_asm_kernel_and_source():
    assert pb.aiter_asm_kernel((32, 128))["lds_bytes"] == "163840"
    with pytest.raises(ValueError, match="tile must be one of the ASM tiles"):
        pb.aiter_asm_kernel((48, 128))
    assert pb.source(gemm_tiled._tiled_kernel).startswith("@triton.jit")
    assert "for s in range(SPLITS)" in pb.source(gemm_splitk._splitk_reduce)


def test_occupancy_and_speed_figures():
    text, fig = pb.occupancy("splitk")
    assert "16x128 x7   119   46.5%" in text
    assert len(fig.axes) == 2
    frame = pd.read_csv(RESULTS_DIR / "h200" / "bench.csv")
    text, fig = pb.speed(frame, "splitk")
    assert "mxlib:splitk" in text and "16x2112x7168" in text


def test_release_table_counts_ck_and_tuned_rows_per_line():
    text = pb.release_table()
    assert "4 of 13 shapes run CK; 6 of 13 have a tuned row" in text  # the contest period's line
    assert "0 of 13 shapes run CK; 6 of 13 have a tuned row" in text  # 0.1.11 on
    row = next(line for line in text.splitlines() if line.strip().startswith("16x3072x1536"))
    assert "asm 192x128 (heuristic)" in row  # a tuned CK row exists, but the seed's ASM call never reads the CSV


def test_seed_compiled_rows():
    text = pb.seed_compiled((16, 2112, 7168))
    assert "_mxfp4_quant_natural_kernel" in text and "119 CTAs" in text and "v_mfma_scale_f32_16x16x128_f8f6f4 x16" in text
    assert "not Triton, not compiled" in pb.seed_compiled((4, 2880, 512))
    with pytest.raises(ValueError, match="must be a contest shape"):
        pb.seed_compiled((1, 2, 3))


def test_gemm_launches_residency_from_compiled_resources():
    seed, fp4, fused = pb.gemm_launches((16, 2112, 7168))
    assert (seed.device, seed.ctas, seed.resident, seed.rounds, seed.k_steps) == ("MI355X", 119, 4, 1, 2)  # 7 splits
    assert (fp4.device, fused.device) == ("MI355X", "H200")
    asm = pb.gemm_launches((4, 2880, 512))[0]
    assert (asm.ctas, asm.resident, asm.block_k) == (23, 1, None)  # aiter's ASM kernels: one workgroup per CU
    ck = pb.gemm_launches((256, 3072, 1536))[0]
    assert ck.resident is None and ck.rounds == 1  # CK not compiled here, but 96 CTAs fit one per CU anyway


def test_residency_and_littles_law_tables():
    text = pb.residency_table()
    row = next(line for line in text.splitlines() if "split-K" in line)
    assert row.split()[-7:] == ["119", "4", "1", "119", "of", "256", "(46%)"]
    law = pb.littles_law_table()
    assert "64x7168x2048" not in law  # M <= 32 only
    row = next(line for line in law.splitlines() if "split-K" in line)
    assert row.split()[-2:] == ["4661", "0.58"]  # 119 CTAs x (16x128 tile, 512 K values, A fp4) at 8 TB/s


def test_splitk_sweep_draws_one_of_the_coinciding_shapes():
    frame = pd.read_csv(RESULTS_DIR / "h200" / "splitk_sweep.csv")
    text, fig = pb.splitk_sweep(frame)
    lines = text.splitlines()
    assert lines[0].startswith("8x2112x7168 and 16x2112x7168: the same")
    drawn = [ax.get_title() for ax in fig.axes]
    assert "16x2112x7168" in drawn and "8x2112x7168" not in drawn
    assert len(drawn) == len(set(drawn))  # no panel twice
    row = next(line for line in lines if line.strip().startswith("16x2112x7168"))
    best = frame[(frame.m == 16) & (frame.n == 2112)].measured_us.min()
    assert row.endswith(f"{best:5.1f}")


def test_harness_summary_reads_every_run(tmp_path):
    (tmp_path / "harness_test_run1.txt").write_text("spec status\nm: 4 pass\ntest: 4 of 4 passed\nNVIDIA H200, 5.9 s\n")
    (tmp_path / "harness_benchmark_run1.txt").write_text(
        "spec\nbenchmark: 6 of 6 passed (times in us)\nscore (geometric mean of the means): 12.000 us\nNVIDIA H200, 8.3 s\n")
    text = pb.harness_summary(tmp_path)
    assert text.splitlines() == ["harness_benchmark_run1.txt:", "  benchmark: 6 of 6 passed (times in us)",
                                 "  score (geometric mean of the means): 12.000 us", "harness_test_run1.txt:",
                                 "  test: 4 of 4 passed"]
    with pytest.raises(FileNotFoundError):
        pb.harness_summary(tmp_path / "none")


def _residency():
    return pd.read_csv(RESULTS_DIR / "h200" / "splitk_sweep_residency.csv")


def test_seed_splits_config_header_and_rounds():
    res = _residency()
    assert pb.seed_splitk_h200_resident(res) == 2 and pb.seed_splitk_h200_resident(None) is None
    lines = pb.seed_splits(res).splitlines()
    assert "config NUM_KSPLIT=7 -> 119 GEMM CTAs" in lines[0]
    assert "aiter runs 7 slices of 1024 K values" in lines[1] and lines[1].endswith("<- what the seed runs")
    assert "aiter runs 14 slices of 512 K values" in lines[2] and lines[2].endswith("not run")
    rows = {int(ln.split()[0]): ln.replace("|", " ").split() for ln in lines[-3:]}
    assert rows[1][:2] == ["1", "17"]
    # 238 CTAs: 93% of the MI355X's CUs; on the H200 two one-CTA waves, but one round at 2 CTAs per SM
    assert rows[14] == ["14", "238", "93.0%", "1", "100.0%", "2", "1"]
    assert pb.seed_splits(None).splitlines()[-1].split()[-1] == "?"  # no residency: rounds not known


def test_unit_loads_and_cu_map_place_every_cta():
    for dev, shape in (("MI355X", (8, 32)), ("H200", (4, 33))):
        for ctas in (17, 119, 238):
            img = pb.unit_loads(ctas, dev)
            assert img.shape == shape and img.sum() == ctas
    assert pb.unit_loads(238, "H200").max() == 2 and (pb.unit_loads(238, "H200") == 2).sum() == 106
    fig = pb.cu_map(_residency())
    assert len(fig.axes) == 6
    assert [int(ax.images[0].get_array().sum()) for ax in fig.axes] == [17, 17, 119, 119, 238, 238]
    assert fig.axes[5].get_title() == "H200, split_k=14: 238 CTAs, 100% of units with work, 1 round"


def test_seed_tile_sweep_rounds_follow_residency():
    sweep = pd.read_csv(RESULTS_DIR / "h200" / "splitk_sweep.csv")
    lines = pb.seed_tile_sweep(sweep, _residency()).splitlines()
    assert lines[0].startswith("H200, (16, 2112, 7168), 16x128 tiles, block_k 256")
    rows = {int(ln.split()[0]): [float(x) for x in ln.split()] for ln in lines[2:]}
    assert rows[14][1:6] == [238, 2, 1, 2, 2]  # CTAs, per SM, rounds, one-CTA waves, K steps
    assert rows[16][1:4] == [272, 2, 2]  # past 2 x 132 CTAs a second round starts
    assert [r[5] for r in rows.values()] == sorted((r[5] for r in rows.values()), reverse=True)  # K steps fall


def test_utilization_grid_and_figure():
    model = pd.read_csv(RESULTS_DIR / "occupancy_model.csv")
    splits, image, labels = pb.utilization_grid(model, "MI355X")
    assert splits[0] == 1 and image.shape == (len(labels), len(splits))
    finite = image[~np.isnan(image)]
    assert finite.min() > 0 and finite.max() <= 100
    assert sum(len(lb.split(" = ")) for lb in labels) == 10  # every test and benchmark shape, once
    row = image[[i for i, lb in enumerate(labels) if "16x2112x7168" in lb][0]]
    assert row[0] == pytest.approx(100 * 17 / 256, abs=0.1)  # unsplit: 17 CTAs of 32x128 tiles on 256 CUs
    fig = pb.utilization_vs_splitk(model)
    assert [ax.get_title() for ax in fig.axes[:2]] == ["MI355X (256 CUs), 32x128 tiles", "H200 (132 SMs), 32x128 tiles"]


def test_bench_and_tuning_medians_filter_their_rows():
    bench = pd.DataFrame({"timing": ["contest", "contest", "graph", "contest"], "provider": ["mxlib", "cublas_bf16", "mxlib", "mxlib"],
                          "kind": ["benchmark", "benchmark", "benchmark", "test"], "m": [4] * 4, "n": [64] * 4, "k": [128] * 4,
                          "median_us": [1.0, 2.0, 3.0, 4.0]})
    assert pb.bench_medians(bench) == {(4, 64, 128): 1.0}
    tuning = pd.DataFrame({"kind": ["benchmark"] * 4 + ["test"], "m": [4] * 5, "n": [64] * 5, "k": [128] * 5,
                           "median_us": [5.0, None, 2.0, 3.0, 1.0], "a_e4m3": [0, 0, 1, 0, 0], "b_decode": [0, 0, 0, 1, 0]})
    assert pb.tuning_medians(tuning) == {(4, 64, 128): 5.0}  # the variants and the test shape are not version 1


def _versions():
    return {name: pd.read_csv(RESULTS_DIR / "h200" / path) for name, path, _ in pb.FUSED_VERSIONS}


def test_fused_versions_rows_scores_and_missing_runs():
    frames = _versions()
    text, fig = pb.fused_versions(frames)
    lines = text.splitlines()
    rows = {ln[:38].strip(): [float(x) for x in ln[38:].split()] for ln in lines[1:5]}
    assert list(rows) == [name for name, _, _ in pb.FUSED_VERSIONS] and all(len(r) == 7 for r in rows.values())
    v2, v3 = rows["version 2: scales loaded a step ahead"], rows["version 3: A quantized once per launch"]
    assert v3[5] < 0.8 * v2[5]  # 256x3072x1536: A quantized once per launch cuts it by about a third
    assert sum(" us (" in ln for ln in lines) == 3  # a score per bench run; version 1 recorded medians only
    assert len(fig.axes[0].patches) == 4 * 6
    frames["version 1: one launch"] = None
    text, fig = pb.fused_versions(frames)
    assert "version 1" not in text and len(fig.axes[0].patches) == 3 * 6


def test_mma_versions_rows_and_missing_runs():
    frames = {name: pd.read_csv(RESULTS_DIR / "h200" / path) for name, path, _ in pb.MMA_VERSIONS}
    text, fig = pb.mma_versions(frames)
    rows = {ln[:40].strip(): [float(x) for x in ln[40:].split()] for ln in text.splitlines()[1:]}
    assert list(rows) == [name for name, _, _ in pb.MMA_VERSIONS] and all(len(r) == 7 for r in rows.values())
    assert rows["v5: the shipped table"][6] < rows["v4: the shipped table"][6] < rows[
        "v3: + family direct (B to registers)"][6] < rows["v1: a round's loads, then A, then MMAs"][6]  # each shipped version
    best, cublas = pb.contest_references(frames[pb.MMA_VERSIONS[-1][0]])
    shape_axes = fig.axes[:6]
    for ax, key, col in zip(shape_axes, [s.mnk for s in shapes.load("benchmark")], range(6)):
        ladder_line, filled, hollow, cub, bound = ax.get_lines()
        assert list(ladder_line.get_ydata()) == pytest.approx([r[col] for r in rows.values()], abs=0.0051)  # the text rounds to 0.01
        assert len(filled.get_xdata()) + len(hollow.get_xdata()) == len(pb.MMA_VERSIONS)
        assert cub.get_ydata()[0] == pytest.approx(cublas[key])
        assert bound.get_ydata()[0] == pytest.approx(1.5 * best[key])
    assert len(fig.axes[6].get_lines()) == 4  # the geomean panel: no per-shape bound
    assert len(hollow.get_xdata()) == sum(kind == "probe" for _, _, kind in pb.MMA_VERSIONS)
    frames["v4a: + family pipelined"] = None
    text, fig = pb.mma_versions(frames)
    assert "v4a" not in text and len(fig.axes[0].get_lines()[0].get_xdata()) == len(pb.MMA_VERSIONS) - 1


def test_mma_means_of_a_bench_and_a_probe():
    bench = pd.DataFrame({"timing": ["contest", "graph", "contest"], "provider": ["mxlib:mma_sm90"] * 2 + ["mxlib"],
                          "kind": ["benchmark"] * 3, "m": [4] * 3, "n": [64] * 3, "k": [128] * 3, "mean_us": [1.0, 2.0, 3.0]})
    assert pb.mma_means(bench, "bench") == {(4, 64, 128): 1.0}
    probe_rows = pd.DataFrame({"kind": ["benchmark"] * 3 + ["test"], "variant": ["mma_sm90", "mma_sm90", "fused", "mma_sm90"],
                               "m": [4] * 4, "n": [64] * 4, "k": [128] * 4, "mean_us": [5.0, 4.0, 1.0, 0.5]})
    assert pb.mma_means(probe_rows, "probe") == {(4, 64, 128): 4.0}  # fused rows and test shapes left out


def test_fused_timeline_cold_rows_and_both_states():
    from mxlib.tools import probe

    summary = probe.timelines(probe.read_rows(RESULTS_DIR / "h200" / "probe" / "timeline.csv"))
    text, fig = pb.fused_timeline(summary, pd.read_csv(RESULTS_DIR / "h200" / "probe" / "probe.csv"))
    row = next(ln for ln in text.splitlines() if ln.strip().startswith("16x2112x7168")).split()
    s = summary[(16, 2112, 7168, "cold")]
    assert (int(row[1]), int(row[2]), int(row[-1])) == (s["programs"], s["iters"], s["max_resident"])
    assert float(row[3]) >= float(row[4])  # the launch's span is at least its median program
    assert [ax.get_title().split(":")[0] for ax in fig.axes] == ["cold", "warm"]
    assert all(len(ax.patches) == 2 * 6 for ax in fig.axes)  # loop and tail bar per benchmark shape


def test_a_quantization_cost_table_and_bars():
    keys = [s.mnk for s in shapes.load("benchmark")] + [s.mnk for s in shapes.load("test")]
    best = {key: {v: {"contest_us": str(i + j)} for j, (v, _) in enumerate(pb.A_VARIANTS)} for i, key in enumerate(keys)}
    frame = pd.DataFrame({"device": ["NVIDIA H200"], "date": ["2026-12-03"]})
    text, fig = pb.a_quantization_cost(best, frame)
    lines = text.splitlines()
    assert len(lines) == 2 + len(keys)
    assert lines[2].split() == ["4x2880x512", "0.00", "1.00", "2.00"]
    heights = [p.get_height() for p in fig.axes[0].patches]
    assert heights[:len(keys)] == [float(i) for i in range(len(keys))]  # first variant, every shape in order


def test_mma_floor_rows_bars_and_bound():
    ablate = pd.read_csv(RESULTS_DIR / "h200" / "mma_v16" / "ablate.csv")
    bench = pd.read_csv(RESULTS_DIR / "h200" / "final" / "bench.csv")
    text, fig = pb.mma_floor(ablate, bench)
    rows = {ln.split()[0]: [float(x) for x in ln.split()[1:]] for ln in text.splitlines()[1:]}
    assert list(rows) == ["16x2112x7168", "64x7168x2048", "256x3072x1536"]
    r = ablate[(ablate.m == 256) & (ablate.variant == "resident_skeleton")]
    assert rows["256x3072x1536"][2] == pytest.approx(r.mean_us.mean(), abs=0.005)  # the mean over the rounds
    touch = bench[(bench.timing == "contest") & (bench.m == 256) & bench.provider.str.startswith("touch")]
    assert rows["256x3072x1536"][3] == pytest.approx(1.5 * touch.mean_us.min(), abs=0.005)
    assert rows["256x3072x1536"][2] > rows["256x3072x1536"][3]  # the recorded finding: the fixed part alone is over
    assert len(fig.axes[0].patches) == len(pb.FLOOR_VARIANTS) * 3 and len(fig.axes[0].collections) == 2 * 3


def test_between_blocks_pairs_and_missing_runs():
    frames = {name: pd.read_csv(RESULTS_DIR / "h200" / name) for name in pb.PAIRED_RUNS}
    text, fig = pb.between_blocks(frames)
    rows = {ln.split()[0]: ln.split() for ln in text.splitlines()[1:]}
    assert list(rows) == ["x".join(map(str, s.mnk)) for s in shapes.load("benchmark")]
    final = pb.dispatcher_minus_forced(frames["final/bench.csv"])
    assert final[(64, 7168, 2048)][1] == 2 and final[(4, 2880, 512)][1] == 1
    f = frames["final/bench.csv"]
    mean = {p: f[(f.timing == "contest") & (f.provider == p) & (f.m == 64)].mean_us.item() for p in ("mxlib", "mxlib:mma_sm90")}
    assert final[(64, 7168, 2048)][0] == pytest.approx(mean["mxlib"] - mean["mxlib:mma_sm90"])
    assert all(r[2] == str(len(pb.PAIRED_RUNS)) for r in rows.values())  # every run pairs every shape
    # the recorded finding (KERNEL_NOTES "The between-block effect"): two launches, never within 0.7 us; one, within 0.05
    assert all(float(r[3]) >= 0.7 if r[1] == "2" else float(r[4]) <= 0.05 for r in rows.values())
    assert sum(len(line.get_xdata()) for line in fig.axes[0].get_lines()[:6]) == 6 * len(pb.PAIRED_RUNS)
    frames["final/bench.csv"] = None
    text, _ = pb.between_blocks(frames)
    assert text.splitlines()[1].split()[2] == str(len(pb.PAIRED_RUNS) - 1)


def test_dispatcher_minus_forced_needs_one_config():
    frame = pd.DataFrame({"timing": ["contest"] * 4, "kind": ["benchmark"] * 4, "provider": ["mxlib", "mxlib:mma_sm90"] * 2,
                          "m": [4, 4, 8, 8], "n": [64] * 4, "k": [512] * 4, "mean_us": [5.0, 4.0, 3.0, 1.0],
                          "config": ["num_stages=1 a", "num_stages=1 a", "num_stages=4 b", "num_stages=4 c"]})
    assert pb.dispatcher_minus_forced(frame) == {(4, 64, 512): (1.0, 1)}  # (8, 64, 512) ran two configs
