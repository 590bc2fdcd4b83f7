"""mxlib.tools.residency: notebook 06's tables and figures, from the seed's plan and the compiled records."""
import dataclasses

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from mxlib.tools.repo import RESULTS_DIR  # noqa: E402
from mxlib.tools import residency as residency  # noqa: E402


def test_gemm_launches_residency_from_compiled_resources():
    seed, fp4, fused, mma = residency.gemm_launches((16, 2112, 7168))
    assert (seed.device, seed.ctas, seed.resident, seed.rounds, seed.k_steps) == ("MI355X", 119, 4, 1, 2)  # 7 splits
    assert (fp4.device, fused.device, mma.device) == ("MI355X", "H200", "H200")
    asm = residency.gemm_launches((4, 2880, 512))[0]
    assert (asm.ctas, asm.resident, asm.block_k) == (23, 1, None)  # aiter's ASM kernels: one workgroup per CU
    ck = residency.gemm_launches((256, 3072, 1536))[0]
    assert ck.resident is None and ck.rounds == 1  # CK not compiled here, but 96 CTAs fit one per CU anyway
    assert dataclasses.replace(ck, ctas=ck.units).rounds == 1  # exactly one CTA a unit: still one round
    assert dataclasses.replace(ck, ctas=ck.units + 1).rounds is None


def test_residency_and_littles_law_tables():
    text = residency.residency_table()
    row = next(line for line in text.splitlines() if "split-K" in line)
    assert row.split()[-7:] == ["119", "4", "1", "119", "of", "256", "(46%)"]
    # units with work: every CTA's unit while they are fewer than the units, else every unit (264 on 132 SMs)
    for line in text.splitlines()[1:-1]:
        ctas, *_, busy, _, units, _ = line.split()[-7:]
        assert int(busy) == min(int(ctas), int(units)), line
    assert any(int(line.split()[-7]) > int(line.split()[-2]) for line in text.splitlines()[1:-1])
    law = residency.littles_law_table()
    assert "64x7168x2048" not in law  # M <= 32 only
    row = next(line for line in law.splitlines() if "split-K" in line)
    # 119 CTAs x a 16x128 tile's B (512 K values, fp4), A (fp4) once for each of the 7 K slices, at 8 TB/s
    assert row.split()[-2:] == ["4174", "0.52"]
    # A's tile counted once, not once a CTA: no step requests more than the call reads
    for line in law.splitlines()[1:]:
        cells = line.split()
        if cells[-1] != "?":
            assert float(cells[-2]) <= float(cells[-5]), line


def _residency():
    return pd.read_csv(RESULTS_DIR / "h200" / "splitk_sweep_residency.csv")


def test_seed_splits_config_header_and_rounds():
    res = _residency()
    assert residency.seed_splitk_h200_resident(res) == 2 and residency.seed_splitk_h200_resident(None) is None
    lines = residency.seed_splits(res).splitlines()
    assert "config NUM_KSPLIT=7 -> 119 GEMM CTAs" in lines[0]
    assert "aiter runs 7 slices of 1024 K values" in lines[1] and lines[1].endswith("<- what the seed runs")
    assert "aiter runs 14 slices of 512 K values" in lines[2] and lines[2].endswith("not run")
    rows = {int(ln.split()[0]): ln.replace("|", " ").split() for ln in lines[-3:]}
    assert rows[1][:2] == ["1", "17"]
    # 238 CTAs: 93% of the MI355X's CUs; on the H200 two one-CTA waves, but one round at 2 CTAs per SM
    assert rows[14] == ["14", "238", "93.0%", "1", "100.0%", "2", "1"]
    assert residency.seed_splits(None).splitlines()[-1].split()[-1] == "?"  # no residency: rounds not known


def test_unit_loads_and_cu_map_place_every_cta():
    for dev, shape in (("MI355X", (8, 32)), ("H200", (4, 33))):
        for ctas in (17, 119, 238):
            img = residency.unit_loads(ctas, dev)
            assert img.shape == shape and img.sum() == ctas
    assert residency.unit_loads(238, "H200").max() == 2 and (residency.unit_loads(238, "H200") == 2).sum() == 106
    assert (residency.unit_loads(238, "H200").ravel()[:106] == 2).all()  # CTA i on SM i % 132: the first 106 twice
    # MI355X: CTAs round-robin over the 8 XCDs, then CU j % 32 in each: XCD 0 gets CTAs 0, 8, 16 on CUs 0-2
    img = residency.unit_loads(17, "MI355X")
    assert img[0, :3].tolist() == [1, 1, 1] and img[1:, :2].all() and img[:, 3:].sum() == 0 and img[1:, 2].sum() == 0
    fig = residency.cu_map(_residency())
    assert len(fig.axes) == 6
    assert [int(ax.images[0].get_array().sum()) for ax in fig.axes] == [17, 17, 119, 119, 238, 238]
    assert fig.axes[5].get_title() == "H200, split_k=14: 238 CTAs, 100% of units with work, 1 round"


def test_seed_tile_sweep_counts_rounds_at_the_compiled_residency():
    """Each split's row: the sweep's CTAs and median, the residency file's CTAs per SM, and from those the
    rounds, the one-CTA waves and the K steps per CTA."""
    from mxlib.tools import occupancy as occ

    sweep, res = pd.read_csv(RESULTS_DIR / "h200" / "splitk_sweep.csv"), _residency()
    lines = residency.seed_tile_sweep(sweep, res).splitlines()
    assert lines[0].startswith("H200, (16, 2112, 7168), 16x128 tiles, block_k 256")
    rows = {int(ln.split()[0]): [float(x) for x in ln.split()] for ln in lines[2:]}
    assert rows[14][1:6] == [238, 2, 1, 2, 2]  # CTAs, per SM, rounds, one-CTA waves, K steps
    assert rows[16][1:4] == [272, 2, 2]  # past 2 x 132 CTAs a second round starts
    seed_rows = sweep[(sweep.m == 16) & (sweep.tile_m == 16) & (sweep.tile_n == 128)]
    assert sorted(rows) == sorted(seed_rows.split_k)
    seed_res = res[(res.m == 16) & (res.tile_m == 16) & (res.tile_n == 128)]
    for r in seed_rows.itertuples():
        resident = int(seed_res[seed_res.split_k == r.split_k].resident.iloc[0])
        assert rows[r.split_k][1:] == [r.ctas, resident, occ.rounds(r.ctas, resident, "H200"), occ.waves(r.ctas, "H200"),
                                       occ.k_steps(7168, r.split_k, 256), round(r.measured_us, 1)], r.split_k


def test_sweep_tilings_name_the_spilling_kernels():
    """Every tiling the sweep timed on a shape, with its compiled registers, spill store bytes and CTAs per
    SM from the residency file, then per split the measured median, rounds and K steps."""
    from mxlib.tools import occupancy as occ

    sweep, res = pd.read_csv(RESULTS_DIR / "h200" / "splitk_sweep.csv"), _residency()
    lines = residency.sweep_tilings(sweep, res, (64, 7168, 2048)).splitlines()
    assert lines[0].startswith("H200, (64, 7168, 2048), every tiling of the sweep: compiled for sm_90 by Triton")
    here = res[res.m == 64]
    facts = {ln.split()[0]: ln.split()[1:] for ln in lines[2:6]}
    assert set(facts) == {f"{a}x{b}" for a, b in zip(here.tile_m, here.tile_n)}
    for tile, (block_k, registers, spill, per_sm) in facts.items():
        g = here[here.tile_m.astype(str) + "x" + here.tile_n.astype(str) == tile]
        assert spill.split("-")[-1] == str(g.spill_bytes.max()) and registers.split("-")[-1] == str(g.registers.max())
    assert facts["32x128"][2] != "0" and facts["16x128"][2] == "0"  # as compiled today, 32x128 spills, 16x128 does not
    table = {int(ln.split()[0]): ln.split()[1:] for ln in lines[9:]}
    timed = sweep[(sweep.m == 64) & (sweep.tile_m == 16) & (sweep.tile_n == 64)]
    for r in timed.itertuples():
        us, rounds, steps = table[r.split_k][:3]  # the first column group: 16x64
        resident = int(here[(here.tile_n == 64) & (here.tile_m == 16) & (here.split_k == r.split_k)].resident.iloc[0])
        assert (float(us), rounds, steps) == (round(r.measured_us, 1), f"{occ.rounds(r.ctas, resident, 'H200')}r",
                                              f"{occ.k_steps(2048, r.split_k, 256)}st")


def test_littles_law_counts_num_stages_minus_one_steps_in_flight():
    """A pipelined loop (num_stages S > 1) has S - 1 K steps of loads in flight, one that is not (S = 1) one;
    never more than the CTA makes. fused on the H200 at (16, 2112, 7168): 3 stages, 7 K steps, so 2."""
    from mxlib.tools import occupancy as occ

    fused = residency.gemm_launches((16, 2112, 7168))[2]
    assert (fused.device, fused.stages, fused.k_steps, fused.steps_in_flight) == ("H200", 3, 7, 2)
    a_step, b_step = occ.operand_step_bytes(16, 64, fused.block_k, "bf16")
    assert fused.ctas <= fused.resident * 132  # all resident: one A tile a K slice, one B tile a CTA
    flight = 2 * (fused.split_k * a_step + fused.ctas * b_step)
    row = next(line for line in residency.littles_law_table().splitlines() if "H200   mxlib fused 16x64" in line
               and line.split()[0] == "16x2112x7168")
    assert row.split()[-3:] == ["7", f"{flight / 1e3:.0f}", f"{flight / 4.28e12 * 1e6:.2f}"] == ["7", "2363", "0.55"]
    short = residency.gemm_launches((32, 4096, 512))[2]
    assert (short.stages, short.k_steps, short.steps_in_flight) == (3, 1, 1)  # one step to make: one in flight
    assert residency.gemm_launches((16, 2112, 7168))[0].steps_in_flight == 1  # the seed's GEMM, num_stages 1


def test_mma_sm90_launches_from_the_h200_table():
    """The H200 table runs mma_sm90 on every benchmark shape: its GEMM launch's CTAs and CTAs per SM come
    from gemm_mma_sm90 at the table's config, and every launch of every benchmark shape fits one round."""
    from mxlib.kernels import gemm_mma_sm90 as mma
    from mxlib.runtime.dispatch import load_table

    launch = residency.gemm_launches((16, 2112, 7168))[3]
    cfg = next(mma.MmaConfig(**f) for p, f in load_table("h200")[(16, 2112, 7168)] if p == "mma_sm90")
    assert launch.ctas == mma.mma_gemm_ctas(16, 2112, 7168, cfg) == 198 and launch.resident == 3  # wspec t16
    assert launch.rounds == 1 and launch.what == "mxlib mma_sm90 16x64 wspec" and launch.steps_in_flight is None
    *rows, note = residency.residency_table().splitlines()[1:]
    assert note.startswith("(the seed's split-K per unit: aiter 0.1.7.post2.dev18's kernel")  # where that residency comes from
    assert sum("mma_sm90" in line for line in rows) == 6
    assert {line.split()[-5] for line in rows} == {"1"}  # rounds: one everywhere


def test_ceilings_against_model_from_recorded_runs(tmp_path):
    """recorded_ceilings reads every CSV carrying the ceilings (a bench's empty_us, a sweep's launch_us), each
    distinct set once; the text gives their ranges beside DEVICES' H200 figures."""
    from mxlib.tools import ceilings

    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "bench.csv").write_text("copy_TBps,bf16_TFLOPs,empty_us,date\n4.0,790,2.6,2026-12-03T1\n"
                                                "4.0,790,2.6,2026-12-03T2\n")
    (tmp_path / "sweep.csv").write_text("copy_TBps,bf16_TFLOPs,launch_us,date\n4.2,810,2.9,2026-12-04T0\n")
    (tmp_path / "other.csv").write_text("copy_TBps,date\n9,2026-12-05\n")  # no ceilings: left out
    runs = ceilings.recorded_ceilings(tmp_path)
    assert runs == [dict(file="run/bench.csv", date="2026-12-03", copy_TBps=4.0, bf16_TFLOPs=790.0, empty_us=2.6),
                    dict(file="sweep.csv", date="2026-12-04", copy_TBps=4.2, bf16_TFLOPs=810.0, empty_us=2.9)]
    text = residency.ceilings_against_model(runs).splitlines()
    assert text[0].startswith("2 recorded measurements of the H200's ceilings (2 CSVs")
    assert "2026-12-03 to 2026-12-04" in text[0]
    assert text[1].split()[1:] == ["4.00-4.20", "TB/s;", "the", "model's", "4.28", "is", "2-7%", "above"]
    assert "790-810 TFLOP/s; the model's 799 is exceeded by 1 of them (highest 810.0, sweep.csv)" in text[2]
    assert text[3].endswith("2.60-2.90 us (median); the model's launch 3.46 is 0.56-0.86 us above")
    recorded = ceilings.recorded_ceilings()  # data/results/h200: the runs the notebook counts
    assert len(recorded) > 40 and any(r["file"] == "splitk_sweep.csv" for r in recorded)


def test_utilization_grid_and_figure():
    model = pd.read_csv(RESULTS_DIR / "occupancy_model.csv")
    splits, image, labels = residency.utilization_grid(model, "MI355X")
    assert splits[0] == 1 and image.shape == (len(labels), len(splits))
    finite = image[~np.isnan(image)]
    assert finite.min() > 0 and finite.max() <= 100
    assert sum(len(lb.split(" = ")) for lb in labels) == 10  # every test and benchmark shape, once
    row = image[[i for i, lb in enumerate(labels) if "16x2112x7168" in lb][0]]
    assert row[0] == pytest.approx(100 * 17 / 256, abs=0.1)  # unsplit: 17 CTAs of 32x128 tiles on 256 CUs
    fig = residency.utilization_vs_splitk(model)
    assert [ax.get_title() for ax in fig.axes[:2]] == ["MI355X (256 CUs), 32x128 tiles", "H200 (132 SMs), 32x128 tiles"]


def test_model_vs_measured_on_the_recorded_sweep_and_without_predictions():
    sweep = pd.read_csv(RESULTS_DIR / "h200" / "splitk_sweep.csv")
    text, fig = residency.model_vs_measured(sweep)
    timed = sweep[sweep.measured_us.notna()]
    loso = (100 * (timed.predicted_loso_us - timed.measured_us).abs() / timed.measured_us).median()
    assert f"predicted_loso_us: median |predicted - measured| / measured = {loso:.1f}% over {len(timed)} configs" in text
    assert len(text.splitlines()) == 4 and sum(len(c.get_offsets()) for c in fig.axes[0].collections) == len(timed)
    # the first line: the model with DEVICES' H200 figures (notebook 06's section 1), computed here
    from mxlib.tools import occupancy as occ

    devices = [occ.predict_row(r, "H200", occ.model_params("H200")).us for r in timed.to_dict("records")]
    err = (100 * (pd.Series(devices, index=timed.index) - timed.measured_us).abs() / timed.measured_us).median()
    assert text.splitlines()[0].startswith(f"occupancy.DEVICES: median |predicted - measured| / measured = {err:.1f}% ")
    assert "(launch 2.69 us, extra kernel 2.21 us, 4.21 TB/s, 787 TFLOP/s)" in text.splitlines()[1]  # the sweep's own
    with pytest.raises(ValueError, match="no prediction column"):
        residency.model_vs_measured(sweep[["m", "n", "k", "measured_us"]])


def test_revalidation_reads_both_fits():
    reval = pd.DataFrame({"predicted_one_us": [11.0, 30.0], "predicted_resident_us": [10.0, 20.0], "measured_us": [10.0, 20.0]})
    one, resident = residency.revalidation(reval).splitlines()
    assert "one CTA per SM" in one and "= 30.0% over 2 configs" in one  # median of 10% and 50%
    assert "compiled residency" in resident and "= 0.0% over 2 configs" in resident


def test_model_examples_put_measured_beside_the_rows_own_prediction():
    from mxlib.tools import occupancy as occ

    sweep = pd.read_csv(RESULTS_DIR / "h200" / "splitk_sweep.csv")
    lines = residency.model_examples(sweep).splitlines()
    assert len(lines) == 4 and "measured  151.2" in lines[1] and "2 kernels" in lines[1] and "3 kernels" in lines[2]
    row = sweep[(sweep.m == 16) & (sweep.k == 7168) & (sweep.tile_n == 64) & (sweep.split_k == 7)].iloc[0].to_dict()
    assert f"predicted {occ.predict_row(row, 'H200', occ.model_params('H200')).us:6.2f}" in lines[2]
    with pytest.raises(ValueError, match="no row at split_k 5"):
        residency.model_examples(sweep, splits=(5,))


def test_model_examples_parts_and_untimed_rows():
    from mxlib.tools import occupancy as occ

    sweep = pd.read_csv(RESULTS_DIR / "h200" / "splitk_sweep.csv")
    lines = residency.model_examples(sweep).splitlines()
    pick = (sweep.m == 16) & (sweep.n == 2112) & (sweep.tile_m == 16) & (sweep.tile_n == 64)
    p = occ.predict_row(sweep[pick & (sweep.split_k == 7)].iloc[0].to_dict(), "H200", occ.model_params("H200"))
    assert f"(compute {p.compute_us:.2f}, memory {p.memory_us:.2f}, overhead {p.overhead_us:.2f})" in lines[2]
    untimed = sweep[pick].copy()
    untimed["measured_us"] = float("nan")  # rows that failed their check come first and must be skipped
    assert residency.model_examples(pd.concat([untimed, sweep])) == residency.model_examples(sweep)


def test_compiled_records_are_what_gemm_launches_reads_and_seed_labels_name_line_and_backend(monkeypatch):
    from mxlib.spec import seed
    from mxlib.spec.aiter_rules import aiter_line
    from mxlib.spec import shapes

    line = aiter_line(seed.DEFAULT_AITER).name
    assert [residency.gemm_launches(s)[0].what for s in ((16, 2112, 7168), (4, 2880, 512), (64, 7168, 2048))] == [
        f"seed {line}: aiter split-K 16x128", f"seed {line}: aiter ASM 32x128", f"seed {line}: aiter CK 64x128"]
    read, real = set(), residency.read_rows
    monkeypatch.setattr(residency, "read_rows", lambda path: read.add(path) or real(path))
    for s in shapes.load("benchmark"):
        residency.gemm_launches(s.mnk)
    assert read == set(residency.COMPILED_RECORDS)


def test_asm_heuristic_table_gives_every_shape_its_tile_ctas_rounds_and_cus():
    from mxlib.spec import shapes as shapes_mod

    rows = residency.asm_heuristic_table().splitlines()
    assert len(rows) == 1 + len(shapes_mod.load())
    assert rows[1].split() == ["8x2112x7168", "192x128", "17", "1", "6.6%"]  # 2112 / 128 = 16.5 -> 17 of 256 CUs
    assert residency.asm_heuristic_table([shapes_mod.Shape("test", 4, 2880, 512, 0)]).splitlines()[1].split() \
        == ["4x2880x512", "192x128", "23", "1", "9.0%"]


def test_unit_loads_deal_an_xcds_ctas_over_its_32_cus():
    """Fact (MI355X: 256 CUs in 8 XCDs of 32; unit_loads docstring: CTA j of an XCD to CU j % 32): 256 CTAs
    put exactly one CTA on every CU."""
    loads = residency.unit_loads(256, "MI355X")
    assert loads.shape == (8, 32) and (loads == 1).all()
    assert (residency.unit_loads(512, "MI355X") == 2).all()


def test_seed_splitk_h200_resident_is_the_fewest_over_the_configs():
    """Fact (seed_splitk_h200_resident docstring: the fewest CTAs per SM over the configs of the frame)."""
    from mxlib.spec import seed as seed_mod

    m = seed_mod.SEED_SPLITK_SHAPE[0]
    tm, tn = seed_mod.seed_plan(*seed_mod.SEED_SPLITK_SHAPE)["tile"]
    frame = pd.DataFrame(dict(m=[m, m, m], tile_m=[tm, tm, tm], tile_n=[tn, tn, tn], resident=[2, 1, 3]))
    assert residency.seed_splitk_h200_resident(frame) == 1
    assert residency.seed_splitk_h200_resident(None) is None
