"""mxlib.tools.bench on the CPU: shape selection, the CSV schema, the summary and the acceptance logic on
synthetic rows, the progress bar; the run itself on a GPU. No timings here."""
import csv
import dataclasses
import datetime
import io
import math
import os
import re
import subprocess
import sys

import pytest
import torch

from mxlib.__main__ import main
from mxlib.tools import acceptance, bench, bench_csv, provenance, providers
from mxlib.tools.progress import Progress
from mxlib.tools.stats import geomean, summarize
from mxlib.spec import shapes


def test_select_shapes():
    got = bench.select_shapes("benchmark,extra")
    assert [s.kind for s in got] == ["benchmark"] * 6 + ["extra"] * 3
    with pytest.raises(ValueError, match="--shapes kind"):
        bench.select_shapes("benchmarks")


def test_an_unknown_shape_kind_is_refused_not_read_as_no_shapes():
    """shapes.load names its kinds: a misspelt one is a ValueError, never an empty list of shapes."""
    with pytest.raises(ValueError, match="kind must be one of 'test', 'benchmark', 'extra'"):
        shapes.load("benchmarks")
    assert {s.kind for s in shapes.load()} == set(shapes.KINDS)


# ---------------------------------------------------------------------------------------------
# CSV and acceptance on synthetic rows


def _rows(mx=2.0, cublas=8.0, graph=None, empty=3.0, floor=1.0, ok=1):
    """One run's rows: mxlib, cublas_bf16 and empty on every shape of mxlib/data/shapes.csv."""
    rows = []
    for s in shapes.load():
        base = {"kind": s.kind, "m": s.m, "n": s.n, "k": s.k, "seed": s.seed, "floor_us": floor, "empty_us": empty,
                "copy_TBps": 4.28, "bf16_TFLOPs": 799.0, "device": "test", "torch": "t", "triton": "t",
                "date": "2026-01-01T00:00:00Z", "fresh_inputs": 0, "message": "", "p20_us": 0.0, "p80_us": 0.0,
                "mean_us": 0.0, "samples": 10}
        rows.append({**base, "provider": "mxlib", "path": "asm", "timing": "contest", "median_us": mx, "ok": ok})
        rows.append({**base, "provider": "mxlib", "path": "asm", "timing": "graph",
                     "median_us": graph if graph is not None else floor, "ok": ok})
        rows.append({**base, "provider": "cublas_bf16", "path": "torch.mm bf16", "timing": "contest",
                     "median_us": cublas, "ok": ""})
        rows.append({**base, "provider": "empty", "path": "empty kernel", "timing": "contest", "median_us": empty,
                     "ok": ""})
    return rows


def _verdicts(rows):
    return {c.name: c.passed for c in acceptance.acceptance(rows)}


def test_csv_schema_round_trip(tmp_path):
    rows = _rows()
    path = tmp_path / "sub" / "bench.csv"
    bench_csv.write_csv(rows, path)
    back = bench_csv.read_csv(path)
    required = {"m", "n", "k", "provider", "path", "timing", "median_us", "p20_us", "p80_us", "floor_us", "ok",
                "device", "torch", "triton", "date"}
    assert required <= set(back[0]) and list(back[0]) == list(bench_csv.CSV_FIELDS)
    assert len(back) == len(rows)
    assert {r["timing"] for r in back} == {"contest", "graph"}
    assert _verdicts(back) == _verdicts(rows)  # the checks read rows as written or as read back
    with pytest.raises(ValueError, match=r"row has columns outside bench_csv.CSV_FIELDS: \['surprise'\]"):
        bench_csv.write_csv([{**rows[0], "surprise": 1}], tmp_path / "x.csv")


def test_run_metadata_dates_are_utc_to_the_second_marked_z():
    """Every recorded row's date is UTC to the second, written YYYY-MM-DDTHH:MM:SSZ (the Z marks UTC);
    the device column is the name given."""
    meta = provenance.run_metadata("NVIDIA H200")
    assert set(meta) == {"device", "torch", "triton", "date"} and meta["device"] == "NVIDIA H200"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", meta["date"]), meta["date"]
    # In a process whose local time is 14 hours ahead of UTC, both dates still read the UTC clock.
    code = "from mxlib.tools import provenance as p; print(p.run_metadata('x')['date'], p.utc_date())"
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, TZ="Etc/GMT-14"), capture_output=True,
                         text=True, timeout=300, check=True).stdout.split()
    now = datetime.datetime.now(datetime.timezone.utc)
    stamp = datetime.datetime.strptime(out[0], provenance.DATE_FORMAT).replace(tzinfo=datetime.timezone.utc)
    assert abs((stamp - now).total_seconds()) < 3600 and out[1] == stamp.date().isoformat(), out


def test_acceptance_all_pass_and_each_failure():
    v = _verdicts(_rows())  # 2 us everywhere, cuBLAS 8, floor 1, empty 3: all targets met
    assert len(v) == 7 and all(v.values()), v
    # geomean above 4.5 us (and then also above 1.3 x (3 + 1) = 5.2 at 6 us)
    v = _verdicts(_rows(mx=4.6))
    assert not v["mxlib geomean <= 4.5 us"] and v["benchmark shapes: mxlib <= 1.3 x (empty + floor)"]
    v = _verdicts(_rows(mx=5.3, cublas=9.0))
    assert not v["benchmark shapes: mxlib <= 1.3 x (empty + floor)"]
    v = _verdicts(_rows(mx=8.0, cublas=8.0, floor=10.0))  # ties with cuBLAS: fails strict, passes not-slower
    assert not v["benchmark shapes: mxlib faster than cublas_bf16"]
    assert v["test shapes: mxlib not slower than cublas_bf16"] and v["extra shapes: mxlib not slower than cublas_bf16"]
    v = _verdicts(_rows(graph=1.6))
    assert not v["graph replay <= 1.5 x floor"]
    v = _verdicts(_rows(ok=0))
    assert not v["every checked output passes check_implementation (rne)"]


def test_acceptance_one_bad_shape_and_missing_rows():
    rows = _rows()
    for r in rows:  # only (32, 2880, 512) slower than cuBLAS
        if (r["m"], r["n"], r["k"], r["provider"], r["timing"]) == (32, 2880, 512, "mxlib", "contest"):
            r["median_us"] = 9.0
    checks = {c.name: c for c in acceptance.acceptance(rows)}
    c = checks["benchmark shapes: mxlib faster than cublas_bf16"]
    assert c.passed is False and "32x2880x512 9.00 vs 8.00 FAIL" in c.detail
    # A provider that raised has a row without a time: it fails, it is not skipped.
    for r in rows:
        if r["provider"] == "mxlib" and r["timing"] == "graph":
            r["median_us"] = ""
    assert acceptance.acceptance(rows)[3].passed is False
    # No cuBLAS rows at all: that check cannot be decided.
    v = _verdicts([r for r in _rows() if r["provider"] != "cublas_bf16"])
    assert v["benchmark shapes: mxlib faster than cublas_bf16"] is None and v["mxlib geomean <= 4.5 us"]


def test_baseline_goal_on_touch_best_by_means_and_medians():
    rows = [{**r, "mean_us": r["median_us"]} for r in _rows(mx=6.0, cublas=8.0)]
    for r in [r for r in rows if r["provider"] == "empty"]:  # two touch grids beside each empty row
        rows.append({**r, "provider": "touch", "config": "programs=528 block=1024", "median_us": 5.0, "mean_us": 5.0})
        rows.append({**r, "provider": "touch:132x2048", "config": "programs=132 block=2048", "median_us": 4.5,
                     "mean_us": 3.0})
    best = acceptance.touch_best_rows(rows)
    assert len(best) == len(shapes.load()) and {r["provider"] for r in best} == {"touch_best"}
    assert {r["config"] for r in best} == {"programs=132 block=2048"}  # the fastest by mean
    checks = {c.name: c.passed for c in acceptance.baseline_goal(rows)}
    # 6 <= 1.5 x 4.5 by medians, not 1.5 x 3.0 by means; under cuBLAS's 8 either way
    assert checks == {"mxlib geomean < cublas_bf16 geomean (means)": True,
                      "benchmark shapes: mxlib <= 1.5 x touch_best (means)": False,
                      "mxlib geomean < cublas_bf16 geomean (medians)": True,
                      "benchmark shapes: mxlib <= 1.5 x touch_best (medians)": True}
    assert "touch_best" in bench.summary(rows)
    # Without touch rows the touch check cannot be decided.
    assert [c.passed for c in acceptance.baseline_goal(_rows())][1::2] == [None, None]


def test_make_row_records_whether_inputs_were_fresh_and_the_sample_count():
    """A bench row says whether each call got fresh inputs (1) or reused them (0), and how many calls it
    summarizes; a call that raised has no times and 0 samples."""
    from mxlib.tools.stats import summarize

    timed = summarize([1.0, 2.0, 3.0])
    fresh = bench_csv.make_row({"provider": "p"}, "contest", timed, True, 1, "")
    reused = bench_csv.make_row({"provider": "p"}, "graph", timed, False, 1, "")
    assert (fresh["fresh_inputs"], reused["fresh_inputs"]) == (1, 0)
    assert fresh["samples"] == 3 and fresh["median_us"] == 2.0 and fresh["timing"] == "contest"
    failed = bench_csv.make_row({"provider": "p"}, "contest", None, True, 0, "boom")
    assert (failed["samples"], failed["median_us"], failed["message"]) == (0, "", "boom")


def test_acceptance_bounds_are_inclusive_and_the_cublas_geomean_strict():
    """A time equal to its bound passes (mxlib <= 1.3 x (empty + floor), <= 1.5 x touch_best); a geomean
    equal to cuBLAS's is not under it."""
    name = "benchmark shapes: mxlib <= 1.3 x (empty + floor)"
    assert _verdicts(_rows(mx=5.2, cublas=8.0, empty=3.0, floor=1.0))[name] is True  # 1.3 * 4.0 == 5.2
    rows = [{**r, "mean_us": r["median_us"]} for r in _rows(mx=6.0, cublas=6.0)]
    for r in [r for r in rows if r["provider"] == "empty"]:
        rows.append({**r, "provider": "touch", "config": "programs=132", "median_us": 4.0, "mean_us": 4.0})
    checks = {c.name: c.passed for c in acceptance.baseline_goal(rows)}
    assert checks["benchmark shapes: mxlib <= 1.5 x touch_best (medians)"] is True  # 1.5 * 4.0 == 6.0
    assert checks["mxlib geomean < cublas_bf16 geomean (medians)"] is False


def test_summary_table_has_geomeans_and_checks():
    rows = _rows(mx=2.0, cublas=8.0)
    for r in rows:
        r["mean_us"] = 2.5 if r["provider"] == "mxlib" else 9.0
    text = bench.summary(rows)
    assert "2.000 us of the medians; of the means, as the contest ranks: 2.500 us" in text
    assert "contest median us" in text and "contest mean us" in text and "graph median us" in text
    geo = [line for line in text.splitlines() if line.startswith("geomean")]
    assert len(geo) == 3 and "2.00" in geo[0] and "8.00" in geo[0] and "2.50" in geo[1] and "9.00" in geo[1]
    assert text.rstrip().splitlines()[-1].startswith("  [PASS]")
    assert math.isclose(geomean([1.0, 4.0]), 2.0)


def test_progress_bar_plain_text():
    buf = io.StringIO()
    bar = Progress(40, stream=buf)
    for i in range(40):
        bar.step(f"step {i}")
    lines = buf.getvalue().splitlines()
    assert 15 <= len(lines) <= 21 and lines[-1].startswith("[" + "#" * 30 + "] 40/40")


@pytest.mark.gpu
def test_run_bench_rows_on_gpu():
    """A tiny run: every row has the schema, the checked providers pass, graph rows exist where asked."""
    reg = providers.providers()
    shape = shapes.load("benchmark")[0]
    provs = [reg["empty"], reg["mxlib"], reg["cublas_bf16"], reg["torch_dequant"]]
    rows, ceilings = bench.run_bench([shape], provs, iters=3, warmup=1, fresh_inputs=True, progress=False)
    assert ceilings["bandwidth_Bps"] > 0 and ceilings["bf16_flops"] > 0 and ceilings["empty_us"] > 0
    got = {(r["provider"], r["timing"]) for r in rows}
    assert got == {(p.name, t) for p in provs for t in ("contest", "graph") if t == "contest" or p.graph}
    for r in rows:
        assert set(r) <= set(bench_csv.CSV_FIELDS) and r["median_us"] != "", r
        assert r["ok"] == (1 if reg[r["provider"]].checked else ""), r
    assert bench.summary(rows)


def test_summary_from_a_recorded_csv_reproduces_its_checks(capsys):
    """`bench --from CSV` re-derives a recorded run's summary without a GPU: its geomeans and every
    check line as the run printed them (cells may differ by 0.01 where the CSV's 4 decimals round)."""
    from pathlib import Path

    run = Path(__file__).resolve().parent.parent / "data" / "results" / "h200" / "run_21d80f8"
    assert main(["bench", "--from", str(run / "bench1.csv")]) == 0
    got = capsys.readouterr().out.splitlines()
    recorded = (run / "bench1.txt").read_text().splitlines()[1:]  # its first line: the run's ceilings
    assert len(got) == len(recorded)

    def kept(lines):
        return [line for line in lines if line.startswith(("geomean", "  [", "  of the means"))]
    assert len(kept(got)) >= 8 and kept(got) == kept(recorded)
    assert main(["bench", "--from", str(run / "missing.csv")]) == 2
    assert "--from" in capsys.readouterr().err


def test_graph_bound_is_inclusive():
    from mxlib.tools import acceptance

    v = {c.name: c.passed for c in acceptance.acceptance(_rows(graph=1.5, floor=1.0))}
    assert v["graph replay <= 1.5 x floor"] is True
    for graph, passed in ((3.0, True), (3.01, False)):  # the bound scales with the floor: 1.5 x 2.0
        v = {c.name: c.passed for c in acceptance.acceptance(_rows(graph=graph, floor=2.0))}
        assert v["graph replay <= 1.5 x floor"] is passed, graph


def test_touch_best_is_chosen_by_mean_where_mean_and_median_disagree():
    from mxlib.tools import acceptance

    rows = [{**r, "mean_us": r["median_us"]} for r in _rows()]
    for r in [r for r in rows if r["provider"] == "empty"]:
        rows.append({**r, "provider": "touch", "config": "A", "median_us": 5.0, "mean_us": 3.0})
        rows.append({**r, "provider": "touch:x", "config": "B", "median_us": 4.5, "mean_us": 4.0})
    assert {r["config"] for r in acceptance.touch_best_rows(rows)} == {"A"}


def test_a_failed_check_is_seen_in_rows_read_back(tmp_path):
    from mxlib.tools import acceptance, bench_csv

    path = tmp_path / "bench.csv"
    bench_csv.write_csv(_rows(ok=0), path)
    back = bench_csv.read_csv(path)
    v = {c.name: c.passed for c in acceptance.acceptance(back)}
    assert v["every checked output passes check_implementation (rne)"] is False


def test_a_wrong_answer_has_no_valid_time_in_any_verdict_or_score(tmp_path):
    """Outputs that failed their check are not timed results: mxlib fast but wrong (5 us against cuBLAS's 9, touch
    at 4) fails both baseline goals instead of passing them, has no score in `ranking`, shows '-' in its cells
    there and in the bench summary's geomean rows, and fails the median targets; the same rows read back from
    the CSV give the same."""
    import pandas as pd

    from mxlib.tools import ranking

    rows = [{**r, "mean_us": r["median_us"]} for r in _rows(mx=5.0, cublas=9.0, ok=0)]
    rows += [{**r, "provider": "touch", "config": "", "median_us": 4.0, "mean_us": 4.0} for r in rows
             if r["provider"] == "empty"]
    path = tmp_path / "bench.csv"
    bench_csv.write_csv(rows, path)
    for run in (rows, bench_csv.read_csv(path)):
        goal = {c.name: c.passed for c in acceptance.baseline_goal(run)}
        assert set(goal.values()) == {False}, goal
        assert _verdicts(run)["benchmark shapes: mxlib faster than cublas_bf16"] is False
        text = bench.summary(run)
        geo = [line for line in text.splitlines() if line.startswith("geomean (6 benchmark shapes)")][0]
        assert geo.split()[4] == "-" and geo.split()[5] == "9.00", geo  # mxlib: no score; cuBLAS: its own
    frame = pd.read_csv(path)
    assert [(p, round(a, 9), round(b, 9)) for p, a, b in ranking.scores(frame, ["mxlib", "cublas_bf16"])] == \
        [("cublas_bf16", 9.0, 9.0)]
    table = ranking.table(frame, ["mxlib"])
    assert "5.00" not in table and table.splitlines()[2].split()[-1] == "-"


def test_a_nan_cell_is_no_time():
    """pandas reads a missing time as NaN where a CSV reader gives "": both are no time."""
    assert bench_csv.number(float("nan")) is None and bench_csv.number("") is None and bench_csv.number("2.5") == 2.5
    assert bench_csv.failed({"ok": 0.0}) and bench_csv.failed({"ok": "0"}) and not bench_csv.failed({"ok": float("nan")})
    assert not bench_csv.failed({"ok": ""}) and not bench_csv.failed({"ok": "1"})


def test_graph_tables_make_no_claim_to_be_the_contests_score():
    rows = _rows(graph=1.2)
    rows = [{**r, "mean_us": r["median_us"]} for r in rows]
    text = bench.summary(rows)
    graph_part = text.split("graph median us")[1]
    assert "of the means (the contest's score)" in text.split("graph median us")[0]
    assert "  of the means" in graph_part and "the contest's score" not in graph_part


def test_from_refuses_a_csv_that_is_no_bench_csv(tmp_path, capsys):
    bad = tmp_path / "sweep.csv"
    bad.write_text("m,n,k,tile_m\n4,2880,512,16\n")
    assert main(["bench", "--from", str(bad)]) == 2
    assert "is not a bench CSV" in capsys.readouterr().err
    good = tmp_path / "bench.csv"
    rows = [{**r, "mean_us": r["median_us"]} for r in _rows()]
    bench_csv.write_csv(rows, good)
    assert main(["bench", "--from", str(good)]) == 0
    capsys.readouterr()
    for cells, problem in (({"m": "abc"}, "line 3: m must be an integer, got 'abc'"),
                           ({"floor_us": "fast"}, "line 3: floor_us must be a number or empty, got 'fast'")):
        broken = tmp_path / "broken.csv"
        bench_csv.write_csv([rows[0], {**rows[1], **cells}, *rows[2:]], broken)
        assert main(["bench", "--from", str(broken)]) == 2
        assert f"--from {str(broken)!r}: {problem}" in capsys.readouterr().err
    bench_csv.write_csv([rows[0], {**rows[1], "floor_us": ""}, *rows[2:]], broken)  # no floor: drawn blank
    assert main(["bench", "--from", str(broken)]) == 0
    assert main(["bench", "--from", str(good), "--iters", "5", "--out", str(tmp_path / "x.csv")]) == 2
    assert "--iters, --out: not an option of --from, which times nothing" in capsys.readouterr().err


def test_the_default_output_is_a_new_file_beside_the_recorded_runs():
    import datetime

    when = datetime.datetime(2026, 12, 6, 13, 5, 9, tzinfo=datetime.timezone.utc)
    out = bench.default_out("NVIDIA H200", when)
    assert out.parent.name == "h200" and out.name == "bench_20261206T130509Z.csv"


def _with_touch(rows, us_by_shape, default=4.0):
    """`rows` (means set to the medians) with a touch row per shape: `us_by_shape` or `default`."""
    rows = [{**r, "mean_us": r["median_us"]} for r in rows]
    for r in [r for r in rows if r["provider"] == "empty"]:
        t = us_by_shape.get((r["m"], r["n"], r["k"]), default)
        rows.append({**r, "provider": "touch", "config": "", "median_us": t, "mean_us": t})
    return rows


def test_baseline_goal_fails_on_one_shape_past_the_touch_bound_and_on_an_untimed_cublas():
    first = shapes.load("benchmark")[0].mnk
    checks = {c.name: c.passed for c in acceptance.baseline_goal(_with_touch(_rows(mx=6.0), {first: 1.0}))}
    assert checks["benchmark shapes: mxlib <= 1.5 x touch_best (medians)"] is False  # 6 > 1.5 at one shape only
    rows = _with_touch(_rows(mx=2.0, cublas=8.0), {})
    for r in rows:
        if r["provider"] == "cublas_bf16" and (r["m"], r["n"], r["k"]) == first:
            r["median_us"] = r["mean_us"] = ""
    checks = {c.name: c.passed for c in acceptance.baseline_goal(rows)}
    assert checks["mxlib geomean < cublas_bf16 geomean (medians)"] is False  # no time is no pass


def test_touch_best_skips_a_grid_without_a_time():
    rows = [{**r, "mean_us": r["median_us"]} for r in _rows()]
    for r in [r for r in rows if r["provider"] == "empty"]:
        rows.append({**r, "provider": "touch:x", "config": "raised", "median_us": "", "mean_us": ""})
        rows.append({**r, "provider": "touch", "config": "A", "median_us": 5.0, "mean_us": 5.0})
    assert {r["config"] for r in acceptance.touch_best_rows(rows)} == {"A"}


def test_the_geomean_target_holds_at_its_edge():
    """Six shapes at exactly 4.5 us meet "geomean <= 4.5 us", though exp(mean(log)) gives 4.500000000000002."""
    verdicts = _verdicts([{**r, "mean_us": r["median_us"]} for r in _rows(mx=acceptance.TARGET_GEOMEAN_US)])
    assert verdicts[f"mxlib geomean <= {acceptance.TARGET_GEOMEAN_US} us"] is True
    verdicts = _verdicts([{**r, "mean_us": r["median_us"]} for r in _rows(mx=acceptance.TARGET_GEOMEAN_US + 0.01)])
    assert verdicts[f"mxlib geomean <= {acceptance.TARGET_GEOMEAN_US} us"] is False


def test_make_row_puts_each_statistic_in_its_own_column():
    """On skewed calls mean, median, p20 and p80 all differ: each lands in its column (the score reads mean_us)."""
    timed = summarize([1.0, 2.0, 3.0, 4.0, 20.0])
    row = bench_csv.make_row({"provider": "p"}, "contest", timed, False, 1, "")
    assert (row["median_us"], row["p20_us"], row["p80_us"], row["mean_us"]) == pytest.approx((3.0, 1.8, 7.2, 6.0))


def test_write_csv_keeps_four_decimals(tmp_path):
    path = tmp_path / "b.csv"
    bench_csv.write_csv([{"provider": "p", "timing": "contest", "mean_us": 1.23456789, "median_us": 0.00449}], path)
    back = bench_csv.read_csv(path)[0]
    assert (back["mean_us"], back["median_us"]) == ("1.2346", "0.0045")


def test_touch_best_is_per_shape_and_timing():
    """touch_best_rows gives one row per (shape, timing): a faster graph-replay touch row does not take the
    contest row's place, so the baseline goal still finds a contest touch_best."""
    rows = [{**r, "mean_us": r["median_us"]} for r in _rows(mx=6.0, cublas=8.0)]
    for r in [r for r in rows if r["provider"] == "empty"]:
        rows.append({**r, "provider": "touch", "timing": "contest", "median_us": 5.0, "mean_us": 5.0})
        rows.append({**r, "provider": "touch", "timing": "graph", "median_us": 3.0, "mean_us": 3.0})
    best = acceptance.touch_best_rows(rows)
    assert sorted({(r["timing"], r["median_us"]) for r in best}) == [("contest", 5.0), ("graph", 3.0)]
    assert len(best) == 2 * len(shapes.load())
    checks = {c.name: c.passed for c in acceptance.baseline_goal(rows)}
    assert checks["benchmark shapes: mxlib <= 1.5 x touch_best (medians)"] is True  # 6 <= 1.5 x 5 (contest)


def test_acceptance_without_empty_kernel_times_cannot_decide_the_empty_plus_floor_target():
    """A check whose rows are missing is undecided (Check.passed None: 'the rows it needs are missing'):
    without the empty kernel's time the 1.3 x (empty + floor) target is None, and the other checks still
    run."""
    rows = [{**r, "empty_us": ""} for r in _rows()]
    checks = {c.name: c.passed for c in acceptance.acceptance(rows)}
    assert checks["benchmark shapes: mxlib <= 1.3 x (empty + floor)"] is None
    assert checks["mxlib geomean <= 4.5 us"] is True


def test_acceptance_without_a_floor_leaves_the_floor_targets_undecided():
    """A row's floor_us may be empty (`bench --from` takes "a number or empty"): the two targets that need it
    are undecided (None), not a TypeError, and the others are still checked."""
    rows = [{**r, "floor_us": ""} for r in _rows(graph=3.0)]
    checks = {c.name: c.passed for c in acceptance.acceptance(rows)}
    assert checks["benchmark shapes: mxlib <= 1.3 x (empty + floor)"] is None
    assert checks["graph replay <= 1.5 x floor"] is None
    assert checks["benchmark shapes: mxlib faster than cublas_bf16"] is True


def test_touch_best_compares_rows_of_one_shape_by_one_statistic():
    """touch_best ranks the touch rows of a shape and timing by their means only where every one has a mean,
    else by medians: never a mean against a median, whatever the rows' order."""
    base = dict(kind="benchmark", m=4, n=2880, k=512, timing="contest")
    rows = [{**base, "provider": "touch", "median_us": 5.0, "mean_us": ""},
            {**base, "provider": "touch:132x2048", "median_us": 4.0, "mean_us": 6.0}]
    for order in (rows, rows[::-1]):
        (best,) = acceptance.touch_best_rows(order)
        assert best["median_us"] == 4.0 and best["provider"] == "touch_best"
    both = [rows[1] | {"mean_us": 8.0}, rows[0] | {"mean_us": 7.0}]  # all with means: the lower mean wins
    assert acceptance.touch_best_rows(both)[0]["median_us"] == 5.0


def test_an_unchecked_provider_that_raises_fails_no_check():
    """A provider that raises while being set up gives a row with no time and its error for each timing asked
    for. Its ok is 0 (a failed check, which fails the run) only where the provider is checked: a baseline that
    cannot run here (cuBLAS FP8 without FP8 matmuls) has nothing checked to fail."""
    reg = providers.providers()

    def boom(data):
        raise RuntimeError("cannot run here")

    for name, want in (("cublas_fp8", ""), ("mxlib", 0)):
        p = dataclasses.replace(reg[name], make=boom, describe=lambda m, n, k, device: ("path", "config"))
        rows = bench._bench_one(p, shapes.load("benchmark")[0], None, {"provider": name}, iters=1, warmup=0,
                                fresh_inputs=True, graph=True, flush=None)
        assert [(r["timing"], r["fresh_inputs"]) for r in rows] == [("contest", 1), ("graph", 0)]  # both asked for
        for row in rows:
            assert row["ok"] == want and "cannot run here" in row["message"] and row["median_us"] == ""
            assert bench_csv.failed(row) is (want == 0)


def test_not_slower_than_cublas_needs_a_time_of_mxlibs_own():
    """The test and extra shapes' check (mxlib not slower than cublas_bf16) fails where mxlib has no valid time,
    even where cuBLAS has none either (no valid time is not "not slower")."""
    rows = _rows()
    for r in rows:
        if r["kind"] == "test" and r["provider"] in ("mxlib", "cublas_bf16"):
            r["median_us"] = ""
            if r["provider"] == "mxlib":
                r["ok"] = 0
    checks = {c.name: (c.passed, c.detail) for c in acceptance.acceptance(rows)}
    passed, detail = checks["test shapes: mxlib not slower than cublas_bf16"]
    assert passed is False and "no valid time vs no valid time" in detail
    assert checks["extra shapes: mxlib not slower than cublas_bf16"][0] is True


def test_select_shapes_skips_empty_items_and_refuses_none():
    """"benchmark," is the benchmark shapes; a list naming no kind is refused."""
    assert [s.kind for s in bench.select_shapes("benchmark,")] == ["benchmark"] * 6
    for spec in ("", " , "):
        with pytest.raises(ValueError, match="--shapes must name at least one kind of shapes"):
            bench.select_shapes(spec)


class _FakeGPU:
    """bench's GPU calls recorded: time_contest calls its fn on inputs_fn()'s tuple (once, or before every call
    with fresh_inputs) and gives fixed times; time_graph calls its fn once; generate_input gives a token."""

    def __init__(self, monkeypatch, graph_raises=False):
        self.contest, self.graph, self.generated = [], [], []

        def time_contest(fn, inputs_fn, *, iters, warmup, fresh_inputs, flush):
            args = [inputs_fn() for _ in range(iters)] if fresh_inputs else [inputs_fn()] * iters
            for a in args:
                fn(*a)
            self.contest.append({"fresh_inputs": fresh_inputs, "inputs": [a[0] for a in args]})
            return summarize([1.0, 2.0, 3.0])

        def time_graph(fn):
            self.graph.append(fn)
            if graph_raises:
                raise RuntimeError("capture failed")
            return summarize([0.5])

        def fake_generate_input(m, n, k, seed, device, rounding):
            self.generated.append((m, n, k, seed, device, rounding))
            return ("data", seed)

        monkeypatch.setattr(bench, "time_contest", time_contest)
        monkeypatch.setattr(bench, "time_graph", time_graph)
        monkeypatch.setattr(bench, "generate_input", fake_generate_input)
        monkeypatch.setattr(torch.cuda, "synchronize", lambda *a, **k: None)


def _provider(checked=True, graph=True):
    made = []

    def make(data):
        def call():
            return data
        made.append((data, call))
        return call

    p = providers.Provider("fake", make, lambda m, n, k, device: ("fake path", "fake config"), checked, graph, "help")
    return p, made


def test_bench_one_times_the_checked_call_first_then_fresh_inputs(monkeypatch):
    """One provider on one shape with fresh inputs: the check's verdict and message are in both rows; the contest
    timing gets fresh_inputs and its first input is the checked call, then calls on fresh seeds seed + 13,
    seed + 26, ... of the same (M, N, K); the graph timing replays the checked call and says its inputs were
    not fresh."""
    gpu = _FakeGPU(monkeypatch)
    monkeypatch.setattr(bench, "check_call", lambda call, data, m, n: (False, "mismatch at (0, 0)"))
    s = shapes.load("benchmark")[1]
    p, made = _provider()
    rows = bench._bench_one(p, s, "checked data", {"provider": "fake"}, iters=3, warmup=0, fresh_inputs=True,
                            graph=True, flush=None)
    assert [(r["timing"], r["fresh_inputs"], r["ok"], r["message"]) for r in rows] == [
        ("contest", 1, 0, "mismatch at (0, 0)"), ("graph", 0, 0, "mismatch at (0, 0)")]
    assert (rows[0]["path"], rows[0]["config"], rows[0]["median_us"], rows[1]["median_us"]) == (
        "fake path", "fake config", 2.0, 0.5)
    checked = made[0][1]
    assert made[0][0] == "checked data"
    (contest,) = gpu.contest
    assert contest["fresh_inputs"] is True and contest["inputs"][0] is checked
    step = bench.SEED_STEP
    assert [g[:4] for g in gpu.generated] == [(s.m, s.n, s.k, s.seed + step), (s.m, s.n, s.k, s.seed + 2 * step)]
    assert [d for d, _ in made[1:]] == [("data", s.seed + step), ("data", s.seed + 2 * step)]
    assert gpu.graph == [checked]


def test_bench_one_unchecked_and_reused_inputs(monkeypatch):
    """An unchecked provider: ok "" and "not checked: <help>"; without fresh inputs every timed call is the
    checked one and no input is generated."""
    gpu = _FakeGPU(monkeypatch)
    monkeypatch.setattr(bench, "check_call", lambda *a: pytest.fail("an unchecked provider was checked"))
    p, made = _provider(checked=False)
    rows = bench._bench_one(p, shapes.load("benchmark")[0], "d", {"provider": "fake"}, iters=2, warmup=0,
                            fresh_inputs=False, graph=True, flush=None)
    assert [(r["timing"], r["fresh_inputs"], r["ok"], r["message"]) for r in rows] == [
        ("contest", 0, "", "not checked: help"), ("graph", 0, "", "not checked: help")]
    assert len(made) == 1 and gpu.generated == [] and gpu.contest[0]["inputs"] == [made[0][1]] * 2


def test_a_timing_that_raises_keeps_the_checks_verdict(monkeypatch):
    """A passed check whose graph capture raises: the graph row has no time and the error, but its ok stays 1
    (the check passed; run() then returns 1 for the checked row without a time)."""
    _FakeGPU(monkeypatch, graph_raises=True)
    monkeypatch.setattr(bench, "check_call", lambda call, data, m, n: (True, "ok"))
    p, _ = _provider()
    rows = bench._bench_one(p, shapes.load("benchmark")[0], "d", {"provider": "fake"}, iters=1, warmup=0,
                            fresh_inputs=False, graph=True, flush=None)
    assert [(r["timing"], r["ok"]) for r in rows] == [("contest", 1), ("graph", 1)]
    assert rows[1]["median_us"] == "" and rows[1]["message"] == "error: RuntimeError: capture failed"


def test_run_bench_graph_only_where_asked_and_capturable(monkeypatch):
    """run_bench asks _bench_one for graph timing only where the run asks for it and the provider can be
    captured."""
    monkeypatch.setattr(bench, "require_cuda", lambda what: None)
    monkeypatch.setattr(bench, "L2Flush", lambda head_start_us: "flush")
    monkeypatch.setattr(bench, "measure_ceilings", lambda flush, iters: dict(
        device="fake", empty_us=3.0, bandwidth_Bps=4e12, bf16_flops=8e14))
    monkeypatch.setattr(bench, "generate_input", lambda *a, **k: "data")
    monkeypatch.setattr(bench, "floor_us", lambda m, n, k, c: 1.0)
    asked = []
    monkeypatch.setattr(bench, "_bench_one", lambda p, s, data, base, **kw: asked.append((p.name, kw["graph"])) or [])
    capturable, _ = _provider(graph=True)
    not_capturable = dataclasses.replace(capturable, name="nocap", graph=False)
    shape = shapes.load("benchmark")[:1]
    for graph in (True, False):
        asked.clear()
        bench.run_bench(shape, [capturable, not_capturable], iters=1, warmup=0, graph=graph, progress=False)
        assert asked == [("fake", graph), ("nocap", False)]


def test_list_providers_prints_them_and_exits(capsys):
    """`bench --list-providers` prints every provider and returns 0 without a GPU."""
    assert main(["bench", "--list-providers"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in providers.providers())


def test_bench_without_a_gpu_says_so(capsys):
    """On a machine without CUDA, bench refuses with status 2 before timing anything."""
    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    assert main(["bench", "--providers", "empty", "--shapes", "test"]) == 2
    assert "needs a CUDA (or ROCm) GPU" in capsys.readouterr().err


def _bench_row(provider, ok, median, kind="benchmark", shape=None, timing="contest"):
    s = shape or shapes.load("benchmark")[0]
    return {"kind": kind, "m": s.m, "n": s.n, "k": s.k, "seed": s.seed, "provider": provider, "timing": timing,
            "median_us": median, "mean_us": median, "floor_us": 1.0, "empty_us": 3.0, "ok": ok, "message": ""}


@pytest.mark.parametrize("rows, status", [
    ([_bench_row("mxlib", 1, 2.0), _bench_row("cublas_fp8", "", "")], 0),  # an unchecked baseline raised: no failure
    ([_bench_row("mxlib", 1, 2.0), _bench_row("mxlib", 1, "", timing="graph")], 1),  # a checked row without a time
    ([_bench_row("mxlib", 0, 2.0)], 1),  # a failed check, timed
])
def test_bench_run_status_and_graph_option(monkeypatch, tmp_path, capsys, rows, status):
    """bench's exit status: 1 for a failed check or a checked row without a time, 0 for an unchecked baseline
    that raised; --no-graph reaches run_bench as graph=False (the GPU run is faked)."""
    asked = []

    def fake_run_bench(shapes_, provs, **kw):
        asked.append(kw["graph"])
        return [dict(r) for r in rows], {"device": "fake"}

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(bench, "run_bench", fake_run_bench)
    monkeypatch.setattr(bench, "ceilings_text", lambda c: "ceilings")
    out = tmp_path / "b.csv"
    assert main(["bench", "--providers", "mxlib", "--shapes", "benchmark", "--out", str(out)]) == status
    assert main(["bench", "--providers", "mxlib", "--shapes", "benchmark", "--out", str(out), "--no-graph"]) == status
    assert asked == [True, False] and out.is_file()


def _recorded_rows():
    """Rows of mxlib (both timings) and cublas_bf16 on every shape, means apart from medians and no empty kernel:
    the summary's tables column by column (`_rows` is the acceptance checks' run, with means of 0)."""
    rows = []
    for s in shapes.load():
        base = {"kind": s.kind, "m": s.m, "n": s.n, "k": s.k, "seed": s.seed, "floor_us": 1.0, "empty_us": 3.0,
                "message": "", "p20_us": 0.0, "p80_us": 0.0, "samples": 10}
        rows.append({**base, "provider": "mxlib", "timing": "contest", "median_us": 2.0, "mean_us": 2.5, "ok": 1})
        rows.append({**base, "provider": "mxlib", "timing": "graph", "median_us": 1.0, "mean_us": 1.0, "ok": 1})
        rows.append({**base, "provider": "cublas_bf16", "timing": "contest", "median_us": 8.0, "mean_us": 9.0,
                     "ok": ""})
    return rows


@pytest.mark.parametrize("edit, problem", [
    (lambda rows: [rows[0], {**rows[1], "k": "abc"}, *rows[2:]], "line 3: k must be an integer, got 'abc'"),
    (lambda rows: [rows[0], {**rows[1], "mean_us": "fast"}, *rows[2:]],
     "line 3: mean_us must be a number or empty, got 'fast'"),
    (lambda rows: [rows[0], {**rows[1], "ok": "yes"}, *rows[2:]], "line 3: ok must be a number or empty, got 'yes'"),
    (lambda rows: [rows[0], {**rows[1], "empty_us": "abc"}, *rows[2:]],
     "line 3: empty_us must be a number or empty, got 'abc'"),
])
def test_from_names_the_line_and_column_of_a_bad_cell(tmp_path, capsys, edit, problem):
    """`bench --from` names the line and column of every column summary reads as a number."""
    path = tmp_path / "b.csv"
    bench_csv.write_csv(edit(_recorded_rows()), path)
    assert main(["bench", "--from", str(path)]) == 2
    assert f"--from {str(path)!r}: {problem}" in capsys.readouterr().err


def test_from_a_short_line(tmp_path, capsys):
    """A CSV line with fewer cells than the header (csv gives None for the rest) is named, not a TypeError."""
    path = tmp_path / "b.csv"
    bench_csv.write_csv(_recorded_rows(), path)
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], "test,4", *lines[1:]]) + "\n")
    assert bench.from_csv_problem(bench_csv.read_csv(path)) == "line 2: n must be an integer, got None"
    assert main(["bench", "--from", str(path)]) == 2
    assert "line 2: n must be an integer, got None" in capsys.readouterr().err


def test_from_a_csv_without_rows_or_without_ok(tmp_path, capsys):
    """A bench CSV of only its header has no row; one without the ok column is no bench CSV."""
    empty = tmp_path / "empty.csv"
    empty.write_text(",".join(bench_csv.CSV_FIELDS) + "\n")
    assert main(["bench", "--from", str(empty)]) == 2
    assert "it has no row" in capsys.readouterr().err
    no_ok = tmp_path / "no_ok.csv"
    fields = [f for f in bench_csv.CSV_FIELDS if f != "ok"]
    with open(no_ok, "w", newline="") as f:
        w = csv.DictWriter(f, fields, extrasaction="ignore")
        w.writeheader()
        w.writerows(_recorded_rows())
    assert main(["bench", "--from", str(no_ok)]) == 2
    assert "it has no column ok" in capsys.readouterr().err


def _table(text, title):
    """The lines of one summary table, from its title to the line before the next blank one."""
    lines = text.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith(title))
    j = next(j for j in range(i, len(lines)) if lines[j] == "")
    return lines[i:j]


def test_summary_cells_columns_and_floor():
    """The summary's tables: the mean table shows means, the graph table only providers with graph rows, a
    failed check is marked '!', a row without time 'FAIL', and the floor column its floor."""
    rows = _recorded_rows()
    first = shapes.load()[0]
    for r in rows:
        if (r["m"], r["n"], r["k"], r["provider"], r["timing"]) == (*first.mnk, "mxlib", "contest"):
            r["ok"] = 0
        if (r["m"], r["n"], r["k"], r["provider"]) == (*first.mnk, "cublas_bf16"):
            r["median_us"] = r["mean_us"] = ""
    text = bench.summary(rows)
    means = _table(text, "contest mean us")
    assert means[1].split()[-2:] == ["mxlib", "cublas_bf16"]
    cells = {ln.split()[0] + " " + " ".join(ln.split()[1:4]): ln.split()[4:] for ln in means[2:]
             if not ln.startswith(("geomean", "  of"))}
    assert cells[f"{first.kind} {first.m} {first.n} {first.k}"] == ["1.00", "2.50!", "FAIL"]
    second = shapes.load()[1]
    assert cells[f"{second.kind} {second.m} {second.n} {second.k}"] == ["1.00", "2.50", "9.00"]
    graph = _table(text, "graph median us")
    assert graph[1].split()[5:] == ["mxlib"]


def test_summary_without_graph_rows():
    """A run timed with --no-graph has no graph table, and its summary is made."""
    text = bench.summary([r for r in _recorded_rows() if r["timing"] == "contest"])
    assert "graph median us" not in text and "contest mean us" in text


def test_summary_geomean_needs_every_benchmark_shape():
    """A provider missing one benchmark shape has no geomean ('-'), not one over the shapes it has."""
    first = shapes.load("benchmark")[0]
    rows = [r for r in _recorded_rows()
            if not ((r["m"], r["n"], r["k"]) == first.mnk and r["provider"] == "cublas_bf16")]
    geo = next(ln for ln in _table(bench.summary(rows), "contest median us") if ln.startswith("geomean"))
    assert geo.split()[-2:] == ["2.00", "-"]
