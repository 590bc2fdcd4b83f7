"""mxlib.tools.probe: the timeline summary on a hand-made launch, and the best row per variant."""
import pytest

from mxlib.tools import probe

from .helpers import probe_row


def prog(sm, start, loop, end, iters=2, last=0, clk_loop=None):
    """One program's timeline record; its loop took 1000 cycles an iteration unless `clk_loop` says otherwise."""
    return {"smid": sm, "t_start_ns": start, "t_loop_ns": loop, "t_end_ns": end, "clk_start": 0,
            "clk_loop": 1000 * iters if clk_loop is None else clk_loop, "clk_end": 0, "last": last, "iters": iters}


def test_timeline_summary_of_a_known_launch():
    # SM 0 runs programs 0 and 1 overlapping, then program 2 after both; SM 1 runs program 3 alone.
    progs = [prog(0, 100, 300, 400), prog(0, 150, 350, 500, last=1), prog(0, 600, 700, 900, iters=4),
             prog(1, 120, 220, 320, last=1)]
    s = probe.timeline_summary([{k: str(v) for k, v in p.items()} for p in progs])  # strings, as read from CSV
    assert s["programs"] == 4 and s["sms"] == 2
    assert s["span_ns"] == 800 and s["start_spread_ns"] == 500
    assert s["prog_ns"] == 300.0  # durations 300, 350, 300, 200: the median of 200, 300, 300, 350
    assert s["loop_ns"] == 150.0 and s["tail_ns"] == 125.0  # loops 200, 200, 100, 100; tails 100, 150, 200, 100
    assert s["tail_last_ns"] == 125.0  # the last arrivals' tails: 150 and 100
    assert s["iters"] == 4 and s["cycles_per_iter"] == 1000.0
    assert s["max_resident"] == 2


def test_timeline_rejects_bad_records():
    with pytest.raises(ValueError, match="out of order"):
        probe.timeline_summary([prog(0, 100, 50, 400)])
    with pytest.raises(ValueError, match="at least one"):
        probe.timeline_summary([])


def test_timelines_groups_by_shape_and_state():
    rows = [{"m": "4", "n": "64", "k": "128", "state": st, **prog(0, 0, 10, 20 + i)} for st in ("warm", "cold")
            for i in range(3)]
    t = probe.timelines(rows)
    assert set(t) == {(4, 64, 128, "warm"), (4, 64, 128, "cold")} and t[(4, 64, 128, "cold")]["programs"] == 3


def test_best_by_variant_skips_failed_and_untimed_rows():
    rows = [{"m": "4", "n": "64", "k": "128", "variant": "fused", "ok": "1", "contest_us": "9.0"},
            {"m": "4", "n": "64", "k": "128", "variant": "fused", "ok": "1", "contest_us": "8.0"},
            {"m": "4", "n": "64", "k": "128", "variant": "fused", "ok": "0", "contest_us": "1.0"},
            {"m": "4", "n": "64", "k": "128", "variant": "touch", "ok": "", "contest_us": "5.0"},
            {"m": "4", "n": "64", "k": "128", "variant": "a_once", "ok": "1", "contest_us": ""}]
    best = probe.best_by_variant(rows)
    assert set(best[(4, 64, 128)]) == {"fused", "touch"}
    assert best[(4, 64, 128)]["fused"]["contest_us"] == "8.0"


def test_at_reference_tiling_keeps_the_reference_rows_tiling():
    rows = [{"m": "4", "n": "64", "k": "128", "variant": "fused", "ok": "1", "contest_us": "9.0", "config": "bm=16 bn=64 a_once=0"},
            {"m": "4", "n": "64", "k": "128", "variant": "a_once", "ok": "1", "contest_us": "7.0", "config": "bm=16 bn=128 a_once=1"},
            {"m": "4", "n": "64", "k": "128", "variant": "a_once", "ok": "1", "contest_us": "8.0", "config": "bm=16 bn=64 a_once=1"},
            {"m": "4", "n": "64", "k": "128", "variant": "a_quantized", "ok": "1", "contest_us": "6.0", "config": "bm=16 bn=128 a_once=0"},
            {"m": "8", "n": "64", "k": "128", "variant": "a_once", "ok": "1", "contest_us": "5.0", "config": "bm=16 bn=64 a_once=1"}]
    same = probe.at_reference_tiling(rows)
    assert set(same) == {(4, 64, 128)}  # (8, 64, 128) has no reference row
    assert {v: r["contest_us"] for v, r in same[(4, 64, 128)].items()} == {"fused": "9.0", "a_once": "8.0"}  # not 7.0: another tiling
    assert probe.best_by_variant(rows)[(4, 64, 128)]["a_once"]["contest_us"] == "7.0"


def test_timeline_summary_t0_is_the_earliest_start_not_the_first_record():
    s = probe.timeline_summary([prog(0, 300, 400, 500), prog(1, 100, 200, 250)])
    assert s["span_ns"] == 400 and s["start_spread_ns"] == 200


def test_timeline_summary_back_to_back_programs_are_not_resident_together():
    # on SM 0 the second program starts the very ns the first ends: one at a time
    s = probe.timeline_summary([prog(0, 0, 50, 100), prog(0, 100, 150, 200)])
    assert s["max_resident"] == 1


def test_timeline_summary_a_program_with_no_k_iterations():
    s = probe.timeline_summary([prog(0, 0, 10, 20, iters=0, clk_loop=500), prog(0, 0, 10, 20, iters=0, clk_loop=700)])
    assert s["cycles_per_iter"] == 600.0 and s["iters"] == 0


def test_timeline_summary_counts_the_sm_of_the_first_record():
    s = probe.timeline_summary([prog(3, 0, 10, 20), prog(0, 0, 10, 20), prog(0, 30, 40, 50)])
    assert s["sms"] == 2


def test_best_by_variant_a_tie_keeps_the_first_row_so_the_reference_tiling_is_stable():
    key = (4, 64, 128)
    rows = [probe_row(key, "fused", "bm=16 a_once=0", 9.0), probe_row(key, "fused", "bm=32 a_once=0", 9.0),
            probe_row(key, "a_once", "bm=16 a_once=1", 8.0), probe_row(key, "a_once", "bm=32 a_once=1", 7.0)]
    assert probe.best_by_variant(rows)[key]["fused"]["config"] == "bm=16 a_once=0"
    assert probe.at_reference_tiling(rows)[key]["a_once"]["contest_us"] == "8.0"  # at bm=16, not bm=32's 7.0
