"""mxlib.tools.sweeps: the split-K sweep's plan, parsing and dry run, its rows from a faked GPU, the model fit and
report, and the revalidation of the recorded sweep against the compiled residency (CPU only: the GPU calls are
fakes)."""
import csv
import math
import random
from dataclasses import replace
from types import SimpleNamespace

import pandas as pd
import pytest
import torch

from mxlib.__main__ import main
from mxlib.kernels import gemm_splitk
from mxlib.tools import occupancy as occ
from mxlib.tools import sweeps
from mxlib.tools.repo import RESULTS_DIR
from mxlib.tools.stats import median_abs_pct_error


def test_parse_list_forms():
    """Empty items are skipped, 'X' reads as 'x', a tile of three numbers and an empty list are refused."""
    assert sweeps._parse_list("1,,2,", "--splits", 1) == (1, 2)
    assert sweeps._parse_list("16X64, 32x128", "--tiles", 2) == ((16, 64), (32, 128))
    with pytest.raises(ValueError, match="--tiles: '16x64x2' must be 2 positive integer"):
        sweeps._parse_list("16x64x2", "--tiles", 2)
    with pytest.raises(ValueError, match="--splits must list at least one item"):
        sweeps._parse_list(" , ", "--splits", 1)


def test_count_kernels_refuses_a_profile_without_gpu_activity(monkeypatch):
    """A profile that saw no GPU activity (no CUPTI) raises, so measure falls back to the path's structure; one
    that saw three counts three (the profiler and synchronization are faked)."""
    import torch.profiler

    events = []

    class FakeProfile:
        def __init__(self, activities):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def events(self):
            return events

    monkeypatch.setattr(torch.profiler, "profile", FakeProfile)
    monkeypatch.setattr(torch.cuda, "synchronize", lambda *a, **k: None)
    called = []
    with pytest.raises(RuntimeError, match="saw no GPU activity"):
        sweeps.count_kernels(lambda: called.append(1))
    gpu = SimpleNamespace(device_type=torch.autograd.DeviceType.CUDA)
    cpu = SimpleNamespace(device_type=torch.autograd.DeviceType.CPU)
    events += [gpu, cpu, gpu, gpu]
    assert sweeps.count_kernels(lambda: called.append(1)) == 3 and called == [1, 1]


def test_measure_rows_with_a_faked_gpu(monkeypatch, capsys):
    """measure on two shapes x splits 1, 2 with the GPU calls faked: the extra kernel's cost is two empty kernels'
    time less one's; inputs are generated once per shape; kernels are counted once per (M, split_k > 1) (here by
    the path's structure: the profiler is unavailable); a failed check is ok 0 but timed, with p20/p80 in their
    columns; a config that raises is ok 0 with its error."""
    from mxlib.spec import reference
    from mxlib.tools import ceilings, timing
    from mxlib.tools import providers as providers_mod
    from mxlib.tools.baselines import empty

    generated, gemm_configs = [], []
    monkeypatch.setattr(torch.cuda, "synchronize", lambda *a, **k: None)
    monkeypatch.setattr(ceilings, "measure_ceilings", lambda flush: dict(
        device="fake GPU", empty_us=3.0, bandwidth_Bps=4e12, bf16_flops=8e14))
    monkeypatch.setattr(timing, "L2Flush", lambda: "flush")
    monkeypatch.setattr(empty, "launch_empty", lambda: None)

    def fake_time_contest(fn, *, iters, warmup=0, flush=None):
        fn()
        if iters == 100:  # the two empty kernels
            return {"median_us": 5.0}
        return {"median_us": 10.0, "p20_us": 9.0, "p80_us": 12.0}

    monkeypatch.setattr(timing, "time_contest", fake_time_contest)
    monkeypatch.setattr(reference, "generate_input",
                        lambda m, n, k, seed, device, rounding: generated.append((m, n, k, seed)) or
                        (f"a{m}", "b", "bq", "bs", "ss"))
    monkeypatch.setattr(providers_mod, "check_call", lambda call, data, m, n: (
        (False, "mismatch") if (m, gemm_configs[-1].split_k) == (16, 2) else (True, "ok")))

    def gemm(a, b_shuffle, b_scale_sh, *, config, rounding):
        gemm_configs.append(config)
        if a == "a32" and config.split_k == 2:
            raise RuntimeError("no kernel")
        return "out"

    def no_profiler(fn):
        raise RuntimeError("no CUPTI")

    monkeypatch.setattr(sweeps, "count_kernels", no_profiler)
    module = SimpleNamespace(gemm=gemm, grid=gemm_splitk.grid)
    configs = sweeps.plan([(16, 128, 512), (32, 128, 512)], [(16, 64)], [1, 2], gemm_splitk)
    rows, info = sweeps.measure(configs, module, occ.DEVICES["H200"], iters=5, warmup=1, progress=False)
    assert (info["launch_us"], info["extra_kernel_us"], info["copy_TBps"], info["bf16_TFLOPs"]) == (3.0, 2.0, 4.0, 800.0)
    assert generated == [(16, 128, 512, 0), (32, 128, 512, 0)]
    got = [(r["m"], r["split_k"], r["ok"], r.get("kernels"), r.get("kernels_from"), r.get("measured_us"),
            r.get("p20_us"), r.get("p80_us")) for r in rows]
    assert got == [(16, 1, 1, 2, "path structure", 10.0, 9.0, 12.0),
                   (16, 2, 0, 3, "path structure", 10.0, 9.0, 12.0),
                   (32, 1, 1, 2, "path structure", 10.0, 9.0, 12.0),
                   (32, 2, 0, None, None, None, None, None)]
    assert [r["message"] for r in rows] == ["ok", "mismatch", "ok", "error: RuntimeError: no kernel"]
    assert all(r["launch_us"] == 3.0 and r["device"] == "fake GPU" for r in rows)


def _model_rows():
    """Exact model times of two shapes whose configs run at different dot efficiencies (0.03 and 0.12), so a fit
    to one shape predicts the other badly; plus a config that failed its check though timed and one that raised."""
    info = dict(launch_us=3.0, extra_kernel_us=1.5, copy_TBps=4.0, bf16_TFLOPs=800.0)
    prior = replace(occ.model_params("H200"), bandwidth=4e12, peak_flops=8e14, launch_us=3.0, extra_kernel_us=1.5)
    rows = []
    for (m, n, k), eff in (((64, 7168, 2048), 0.12), ((16, 2112, 7168), 0.03)):
        truth = replace(prior, dot_efficiency=eff)
        for tm, tn in ((16, 64), (32, 128)):
            for s in (1, 2, 4):
                r = dict(m=m, n=n, k=k, tile_m=tm, tile_n=tn, block_k=256, split_k=s,
                         ctas=occ.cta_count(m, n, k, tm, tn, s), kernels=2 + (s > 1), ok=1)
                r["measured_us"] = occ.predict_row(r, "H200", truth).us
                rows.append(r)
    rows.append(dict(rows[0], ok=0, measured_us=1.0, message="wrong answer"))  # timed, failed its check
    rows.append(dict(m=16, n=2112, k=7168, tile_m=64, tile_n=64, block_k=256, split_k=1, ctas=33, ok=0,
                     message="error: RuntimeError: boom"))  # raised: no kernels, no time
    return rows, info, prior


def test_run_model_columns_and_errors():
    """run_model: the prior is the H200's with the run's measured constants; only rows that passed their check
    are fitted; each row's fitted, prior and leave-one-shape-out predictions (the last from a fit to the other
    shape only), compute and memory times and fitted parameters; the errors are median |predicted - measured| /
    measured of each; shapes sorted; a row that raised is left without predictions."""
    rows, info, prior = _model_rows()
    dev = occ.DEVICES["H200"]
    summary = sweeps.run_model(rows, dev, info)
    assert summary["prior"] == prior
    good = rows[:12]
    assert summary["good"] == good and summary["shapes"] == [(16, 2112, 7168), (64, 7168, 2048)]
    fitted = summary["fitted"]
    assert fitted == occ.fit(good, dev, prior)
    other = {(16, 2112, 7168): occ.fit(good[:6], dev, prior), (64, 7168, 2048): occ.fit(good[6:], dev, prior)}
    for r in rows[:13]:
        p = occ.predict_row(r, dev, fitted)
        assert (r["predicted_us"], r["compute_us"], r["memory_us"]) == (p.us, p.compute_us, p.memory_us)
        assert r["predicted_prior_us"] == occ.predict_row(r, dev, prior).us
        assert (r["dot_efficiency"], r["bw_saturation"]) == (fitted.dot_efficiency, fitted.bw_saturation)
        assert r["predicted_loso_us"] == occ.predict_row(r, dev, other[(r["m"], r["n"], r["k"])]).us
    assert "predicted_us" not in rows[13]
    measured = [r["measured_us"] for r in good]
    for key, col in (("err_prior", "predicted_prior_us"), ("err_fit", "predicted_us"), ("err_loso", "predicted_loso_us")):
        assert summary[key] == median_abs_pct_error([r[col] for r in good], measured), key
    assert summary["err_loso"] > 3 * summary["err_fit"]  # each shape's efficiency is not the other's


def test_run_model_refuses_a_sweep_with_nothing_to_fit():
    """No row both passed its check and was timed: an error saying so."""
    rows, info, _ = _model_rows()
    with pytest.raises(RuntimeError, match="nothing to fit"):
        sweeps.run_model(rows[12:], occ.DEVICES["H200"], info)


def test_report_best_pick_and_worst():
    """report: the count line; per shape the best measured config, the model's pick (lowest prediction) and how
    much slower the pick measured than the best; the worst predictions by relative error, worst first."""
    prior = occ.model_params("H200")
    fitted = replace(prior, dot_efficiency=0.05)
    base = dict(m=16, n=2112, k=7168, ok=1, compute_us=1.0, memory_us=1.0, ctas=33)
    rows = [dict(base, tile_m=16, tile_n=64, split_k=1, measured_us=10.0, predicted_us=14.0),
            dict(base, tile_m=16, tile_n=128, split_k=2, measured_us=12.0, predicted_us=11.0),
            dict(base, tile_m=32, tile_n=128, split_k=4, measured_us=20.0, predicted_us=20.5),
            dict(base, tile_m=64, tile_n=64, split_k=1, ok=0)]
    summary = dict(prior=prior, fitted=fitted, good=rows[:3], shapes=[(16, 2112, 7168)], err_prior=1.0, err_fit=2.0,
                   err_loso=3.0)
    lines = sweeps.report(rows, summary).splitlines()
    assert lines[0] == "4 configs, 3 checked and timed, 1 failed or not timed"
    shape_line = next(ln for ln in lines if ln.startswith("16x2112x7168"))
    assert shape_line.split() == ["16x2112x7168", "16x64", "s1", "10.00", "us", "16x128", "s2", "12.00", "us", "20.0%"]
    i = lines.index("worst predictions (fitted model):")
    assert [ln.split(":")[0].split()[1:] for ln in lines[i + 1:i + 4]] == [["16x64", "s1"], ["16x128", "s2"],
                                                                           ["32x128", "s4"]]


def _revalidation_files(tmp_path, drop_one=False):
    """A recorded sweep of two shapes (exact model times at compiled residency 2 or 3) and its residency CSV."""
    truth = replace(occ.model_params("H200"), dot_efficiency=0.05)
    sweep, residency = [], []
    for m, n, k in ((16, 2112, 7168), (64, 7168, 2048)):
        for i, (tm, tn, s) in enumerate(((16, 64, 1), (16, 64, 4), (32, 128, 2), (32, 128, 7))):
            res = 2 + i % 2
            r = dict(m=m, n=n, k=k, seed=0, path="splitk", tile_m=tm, tile_n=tn, block_k=256, split_k=s, num_warps=4,
                     num_stages=2, ctas=occ.cta_count(m, n, k, tm, tn, s), kernels=2 + (s > 1), ok=1, message="",
                     launch_us=3.46, extra_kernel_us=3.46, copy_TBps=4.28, bf16_TFLOPs=799.0)
            r["measured_us"] = occ.predict_row(dict(r, resident=res), "H200", truth).us
            sweep.append(r)
            residency.append({c: r[c] for c in sweeps._RESIDENCY_KEY} | {"resident": res})
    sweep.append(dict(sweep[0], tile_m=64, tile_n=64, ok=0, measured_us="", message="error: boom"))  # not checked
    sweep_csv = sweeps.write_csv(sweep, tmp_path / "sweep.csv")
    res_csv = tmp_path / "residency.csv"
    with open(res_csv, "w", newline="") as f:
        w = csv.DictWriter(f, [*sweeps._RESIDENCY_KEY, "resident"])
        w.writeheader()
        w.writerows(residency[:-1] if drop_one else residency)
    return sweep_csv, res_csv, sweep


def test_revalidate_on_a_small_recorded_sweep(tmp_path):
    """revalidate: the checked rows only, each predicted by the fit at one CTA per SM and by the fit at its
    compiled residency, with the residency its row of the residency CSV gives; written with it."""
    sweep_csv, res_csv, sweep = _revalidation_files(tmp_path)
    result = sweeps.revalidate(sweep_csv, res_csv)
    dev = occ.DEVICES["H200"]
    assert len(result["rows"]) == 8
    before, after = result["before"]["fitted"], result["after"]["fitted"]
    for r, rec in zip(result["rows"], sweep):
        assert int(r["resident"]) == 2 + (sweep.index(rec) % 4) % 2
        assert r["predicted_one_us"] == occ.predict_row(dict(r, resident=1), dev, before).us
        assert r["predicted_resident_us"] == occ.predict_row(r, dev, after).us
    assert result["after"]["err_fit"] < 1 < result["before"]["err_fit"]  # the residency explains these times
    out = sweeps.write_revalidation(result, tmp_path / "reval.csv")
    with open(out, newline="") as f:
        back = list(csv.DictReader(f))
    assert [b["resident"] for b in back] == [str(r["resident"]) for r in result["rows"]]


def test_revalidate_names_the_checked_rows_missing_from_the_residency(tmp_path):
    """A residency CSV lacking one checked row of the sweep: refused, counting that one row."""
    sweep_csv, res_csv, _ = _revalidation_files(tmp_path, drop_one=True)
    with pytest.raises(ValueError, match="lacks 1 checked rows"):
        sweeps.revalidate(sweep_csv, res_csv)


def test_base_row_occupancy_columns():
    """A sweep row's occupancy columns: its CTAs (tiles x split_k), their waves over the device's SMs and the
    busy fraction of those waves."""
    dev = occ.DEVICES["H200"]
    (shape, cfg), = sweeps.plan([(64, 7168, 2048)], [(16, 64)], [3], gemm_splitk)
    row = sweeps.base_row(shape, cfg, gemm_splitk, dev)
    ctas = 4 * 112 * 3
    assert (row["ctas"], row["waves"]) == (ctas, math.ceil(ctas / dev.units))
    assert row["utilization"] == ctas / (math.ceil(ctas / dev.units) * dev.units)
    assert row["grid_ctas"] == gemm_splitk.grid(64, 7168, 2048, cfg)


def test_run_model_lists_the_shapes_sorted():
    """The summary's shapes (the report's order) are sorted, for the default shapes too, which a set of them does
    not list in order."""
    rows, info, _ = _model_rows()
    one = []
    for m, n, k in sweeps.DEFAULT_SHAPES:
        r = dict(m=m, n=n, k=k, tile_m=16, tile_n=64, block_k=256, split_k=1, ctas=occ.cta_count(m, n, k, 16, 64),
                 kernels=2, ok=1)
        r["measured_us"] = occ.predict_row(r, "H200", occ.model_params("H200")).us
        one.append(r)
    summary = sweeps.run_model(one, occ.DEVICES["H200"], info)
    assert summary["shapes"] == sorted(sweeps.DEFAULT_SHAPES) != list(set(sweeps.DEFAULT_SHAPES))


def test_dry_run_hands_the_kernel_a_nan_output():
    """The dry run's `out` is NaN before the kernel runs, so an element it leaves unwritten fails the check even
    where the right value is 0."""
    seen = []

    class Recording:
        default_config = staticmethod(gemm_splitk.default_config)
        grid = staticmethod(gemm_splitk.grid)

        @staticmethod
        def gemm(a, b_shuffle, b_scale_sh, *, config, rounding, out):
            seen.append(bool(out.isnan().all()))
            return gemm_splitk.gemm(a, b_shuffle, b_scale_sh, config=config, rounding=rounding, out=out)

    assert sweeps.dry_run(Recording, [], occ.DEVICES["H200"], None) == 0
    assert seen == [True] * len(sweeps.DRY_CONFIGS)


def test_sweep_dry_run_builds_and_verifies(tmp_path):
    (tmp_path / "splitk_sweep.csv").write_text("a recorded sweep\n")
    assert main(["sweep", "--dry-run", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "splitk_sweep.csv").read_text() == "a recorded sweep\n"  # never over a sweep
    with open(tmp_path / "splitk_sweep_dry.csv", newline="") as f:
        reader = csv.DictReader(f)
        assert tuple(reader.fieldnames) == sweeps.CSV_FIELDS
        rows = list(reader)
    assert [(r["tile_m"], r["tile_n"], r["split_k"]) for r in rows] == [
        tuple(map(str, c)) for c in sweeps.DRY_CONFIGS]
    for r in rows:
        assert r["ok"] == "1" and r["measured_us"] == ""  # verified, never timed
        assert int(r["ctas"]) == 2 * int(r["split_k"])  # 16x64 tiles over 16 x 128
        assert float(r["predicted_prior_us"]) > 0
        # no profiler on the CPU: the count by structure, as the H200's profiler counted (2, 3 with split-K)
        assert r["kernels_from"] != "profiler" and int(r["kernels"]) == 2 + (int(r["split_k"]) > 1)
    assert {r["split_k"] for r in rows} == {"1", "3"}
    assert {r["block_k"] for r in rows} == {str(sweeps.SWEEP_BLOCK_K)}  # the step the sweep runs: 3 ranges of
    # 6, 6 and 4 groups, none a whole step
    recorded = pd.read_csv(RESULTS_DIR / "h200" / "splitk_sweep.csv")
    assert (recorded["kernels_from"] == "profiler").all()
    for split_k, kernels in zip(recorded["split_k"], recorded["kernels"]):
        assert sweeps.path_kernels(SimpleNamespace(split_k=split_k)) == kernels


class _BrokenPath:
    """A path whose gemm returns its `out` unwritten (NaN): the dry run must catch it."""

    Config = gemm_splitk.Config
    default_config = staticmethod(gemm_splitk.default_config)
    grid = staticmethod(gemm_splitk.grid)

    @staticmethod
    def gemm(a, b_shuffle, b_scale_sh, *, config=None, rounding="rne", out=None):
        return out


def test_sweep_dry_run_fails_on_a_wrong_kernel(capsys):
    assert sweeps.dry_run(_BrokenPath, [], occ.DEVICES["H200"], None) == 1
    assert "FAILED" in capsys.readouterr().out


def test_sweep_plan():
    configs = sweeps.plan(sweeps.DEFAULT_SHAPES, sweeps.DEFAULT_TILES, sweeps.DEFAULT_SPLITS, gemm_splitk)
    assert len(configs) <= 160  # the time budget: compiles dominate
    for (m, n, k, seed), cfg in configs:
        assert cfg.split_k <= k // cfg.block_k and (cfg.block_m, cfg.block_n) in sweeps.DEFAULT_TILES
    assert {s[:3] for s, _ in configs} == set(sweeps.DEFAULT_SHAPES)
    assert next(s for s, _ in configs if s[:3] == (16, 2112, 7168))[3] == 15  # the seed from mxlib/data/shapes.csv
    splits_7168 = sorted({c.split_k for s, c in configs if s[2] == 7168})
    assert splits_7168[-1] == 28 and 7 in splits_7168 and 14 in splits_7168
    with pytest.raises(ValueError, match="block_m must be a power of two"):
        sweeps.plan([(16, 2112, 7168)], [(24, 64)], [1], gemm_splitk)
    with pytest.raises(ValueError, match="--tiles: '16' must be 2 positive"):
        sweeps._parse_list("16", "--tiles", 2)
    assert sweeps._gemm_shapes("16x2112x7168, 8X2112x7168") == ((16, 2112, 7168), (8, 2112, 7168))
    with pytest.raises(ValueError, match="--shapes must list at least one item"):
        sweeps._gemm_shapes(" , ")


def test_sweep_model_and_report_on_synthetic_rows(tmp_path):
    # run_model fits the rows, fills every prediction column, and the report gives the error.

    truth = replace(occ.model_params("H200"), dot_efficiency=0.05, extra_kernel_us=1.5)
    info = dict(launch_us=truth.launch_us, extra_kernel_us=truth.extra_kernel_us, copy_TBps=truth.bandwidth / 1e12,
                bf16_TFLOPs=truth.peak_flops / 1e12)
    rows = []
    for m, n, k in ((16, 2112, 7168), (64, 7168, 2048)):
        for tm, tn in ((16, 64), (32, 128)):
            for s in (1, 2, 7):
                ctas = occ.cta_count(m, n, k, tm, tn, s)
                r = dict(m=m, n=n, k=k, tile_m=tm, tile_n=tn, block_k=256, split_k=s, ctas=ctas, kernels=2 + (s > 1))
                r.update(ok=1, measured_us=occ.predict_row(r, "H200", truth).us * random.uniform(0.98, 1.02))
                rows.append(r)
    rows.append(dict(rows[0], ok=0, measured_us="", message="error: boom"))  # a failed config is left out
    summary = sweeps.run_model(rows, occ.DEVICES["H200"], info)
    assert summary["err_fit"] < 3 and summary["err_loso"] < 10 and len(summary["good"]) == 12
    assert math.isclose(summary["fitted"].dot_efficiency, 0.05, rel_tol=0.1)
    assert all(r["predicted_us"] > 0 and r["predicted_loso_us"] > 0 for r in rows[:-1])
    text = sweeps.report(rows, summary)
    assert "model median abs % error" in text and "16x2112x7168" in text
    path = sweeps.write_csv(rows, tmp_path / "s.csv")
    with open(path, newline="") as f:
        back = list(csv.DictReader(f))
    assert len(back) == 13 and back[-1]["ok"] == "0" and back[-1]["predicted_us"] != ""


def test_sweep_needs_a_gpu_unless_dry(capsys):
    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    assert main(["sweep"]) == 2
    assert "needs a CUDA GPU" in capsys.readouterr().err


def test_sweep_refuses_a_shape_the_gemm_refuses(capsys):
    assert main(["sweep", "--shapes", "4x2880x500", "--dry-run"]) == 2
    assert "--shapes: 4x2880x500: k must be a multiple of 64, got 500" in capsys.readouterr().err


def test_the_sweeps_default_folder_is_new_beside_the_recorded_sweep():
    import datetime

    when = datetime.datetime(2026, 12, 6, 13, 5, 9, tzinfo=datetime.timezone.utc)
    out = sweeps.default_out_dir("NVIDIA H200", when)
    assert out.parent.name == "h200" and out.name == "sweep_20261206T130509Z"
