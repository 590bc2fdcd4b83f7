"""The contest's score (geometric mean of per-shape means) and aiter's MI355X baseline from task.yml."""
import math

import pandas as pd
import pytest

from mxlib.spec import shapes
from mxlib.tools import ranking


def test_aiter_baseline_is_task_yml_table_for_the_benchmark_shapes():
    aiter = ranking.aiter_mi355x()
    # task.yml@70d0a1b, "The aiter performance is:" (M N K time[us])
    assert aiter == {(4, 2880, 512): 8.198, (16, 2112, 7168): 20.873, (32, 4096, 512): 9.462,
                     (32, 2880, 512): 9.173, (64, 7168, 2048): 12.738, (256, 3072, 1536): 12.219}
    assert sorted(aiter) == sorted(s.mnk for s in shapes.load("benchmark"))
    assert round(ranking.score_us(aiter), 2) == 11.50


def test_score_is_the_geometric_mean_over_every_benchmark_shape():
    times = {s: 4.0 for s in ranking.benchmark_shapes()}
    times[ranking.benchmark_shapes()[0]] = 4.0 * 2 ** 6
    assert ranking.score_us(times) == pytest.approx(8.0)
    del times[ranking.benchmark_shapes()[-1]]
    with pytest.raises(ValueError, match="no time for benchmark shapes"):
        ranking.score_us(times)
    times[ranking.benchmark_shapes()[-1]] = float("nan")
    with pytest.raises(ValueError, match="positive"):
        ranking.score_us(times)


def test_scores_rank_means_and_show_medians_beside():
    rows = []
    for m, n, k in ranking.benchmark_shapes():
        for timing in ("contest", "graph"):
            rows.append(dict(kind="benchmark", m=m, n=n, k=k, provider="p", timing=timing,
                             mean_us=10.0 if timing == "contest" else 1.0,
                             median_us=8.0 if timing == "contest" else 0.5))
        rows.append(dict(kind="test", m=m, n=n, k=k, provider="p", timing="contest", mean_us=99.0, median_us=99.0))
        rows.append(dict(kind="benchmark", m=m, n=n, k=k, provider="partial", timing="contest",
                         mean_us=math.nan if m == 4 else 5.0, median_us=5.0))
    (prov, mean, median), = ranking.scores(pd.DataFrame(rows), ["p", "partial", "absent"])
    assert (prov, mean, median) == ("p", pytest.approx(10.0), pytest.approx(8.0))
    # another timing: both scores from its rows
    assert ranking.scores(pd.DataFrame(rows), ["p"], timing="graph") == [("p", pytest.approx(1.0), pytest.approx(0.5))]


def test_per_shape_leaves_out_rows_without_a_time():
    """A provider's per-shape times skip rows whose time is missing (a call that raised), so a re-run's
    row without a time never replaces the shape's time nor counts as one."""
    m, n, k = ranking.benchmark_shapes()[0]
    rows = [dict(kind="benchmark", m=m, n=n, k=k, provider="p", timing="contest", mean_us=5.0, median_us=4.0),
            dict(kind="benchmark", m=m, n=n, k=k, provider="p", timing="contest", mean_us=math.nan,
                 median_us=math.nan)]
    assert ranking.per_shape(pd.DataFrame(rows), "p") == {(m, n, k): 5.0}
    assert ranking.per_shape(pd.DataFrame(rows[1:]), "p") == {}


def test_best_provider_by_score_of_means_among_complete_ones():
    rows = []
    for m, n, k in ranking.benchmark_shapes():
        for prov, mean, median in (("touch:a", 6.0, 1.0), ("touch:b", 5.0, 9.0), ("touch:c", 1.0, 1.0),
                                   ("mxlib", 0.5, 0.5), ("mxlib-touch", 0.5, 0.5)):
            rows.append(dict(kind="benchmark", m=m, n=n, k=k, provider=prov, timing="contest",
                             mean_us=math.nan if prov == "touch:c" and m == 4 else mean, median_us=median))
    frame = pd.DataFrame(rows)
    # means rank; touch:c lacks a shape; mxlib and mxlib-touch are no touch (the prefix matches at the start only)
    assert ranking.best_provider(frame, "touch") == "touch:b"
    with pytest.raises(ValueError, match="no provider starting with 'nope'"):
        ranking.best_provider(frame, "nope")


def test_public_mi355x_text_and_figure():
    import matplotlib

    matplotlib.use("Agg")
    from mxlib.tools.repo import DATA_DIR

    board = pd.read_csv(DATA_DIR / "public" / "mxfp4_mm_leaderboard.csv")
    aiter = ranking.aiter_mi355x()
    text, fig = ranking.public_mi355x(aiter, board)
    first, places, second = text.splitlines()
    assert first.startswith(f"aiter, score {ranking.score_us(aiter):.2f} us")
    assert f"places 2-{len(board)}" in places
    assert f"{ranking.score_us(aiter) / board.score_us.iloc[1]:.2f}x faster" in second
    assert len(fig.axes[0].patches) == 6 and len(fig.axes[1].lines[0].get_xdata()) == len(board)
    with pytest.raises(ValueError, match="no time for the benchmark shape"):
        ranking.public_mi355x({k: v for k, v in list(aiter.items())[1:]}, board)
    with pytest.raises(ValueError, match="at least two entries"):
        ranking.public_mi355x(aiter, board.head(1))


def _table_frame(second_row_nan_first: bool):
    from mxlib.tools import ranking

    rows = []
    for i, (m, n, k) in enumerate(ranking.benchmark_shapes()):
        rows.append(dict(kind="benchmark", m=m, n=n, k=k, provider="p", timing="contest", mean_us=5.0, median_us=4.0))
        if i == 0:  # q: a failed call's row (no time) first, then a re-run with a time
            rows.append(dict(kind="benchmark", m=m, n=n, k=k, provider="q", timing="contest", mean_us=math.nan,
                             median_us=math.nan))
            if second_row_nan_first:
                rows.append(dict(kind="benchmark", m=m, n=n, k=k, provider="q", timing="contest", mean_us=7.0,
                                 median_us=6.0))
    return pd.DataFrame(rows)


def test_table_cells_skip_rows_without_a_time():
    from mxlib.tools import ranking

    text = ranking.table(_table_frame(True), ["p", "q"])
    assert "nan" not in text and "7.00 (6.00)" in text
    text = ranking.table(_table_frame(False), ["p", "q"])
    assert "nan" not in text
    first = [line for line in text.splitlines() if "4x2880x512" in line][0]
    assert first.split()[-1] == "-"
    # The score line: p's geomean over the six shapes (5.00 (4.00)); q has times at one shape only, so none
    assert text.splitlines()[-1].split() == ["score", "geomean", "5.00", "(4.00)", "-"], text


def test_table_names_the_device_it_ran_on():
    from mxlib.tools import ranking

    frame = _table_frame(True)
    assert ranking.table(frame, ["p"]).splitlines()[0] == "contest time per call, us: mean (median)"
    frame["device"] = "NVIDIA H100 80GB HBM3"
    assert ranking.table(frame, ["p"]).splitlines()[0] == (
        "contest time per call, us on NVIDIA H100 80GB HBM3: mean (median)")


def test_score_uses_only_the_benchmark_shapes():
    """A times dict holding more than the benchmark shapes (a test shape, an extra size) scores the same."""
    times = {s: 4.0 for s in ranking.benchmark_shapes()}
    times[(1, 2, 3)] = 4000.0
    assert ranking.score_us(times) == pytest.approx(4.0)
    assert ranking.score_us({(1, 1, 1): 2.0, (2, 2, 2): 8.0, (3, 3, 3): 1e6}, shapes=[(1, 1, 1), (2, 2, 2)]) \
        == pytest.approx(4.0)


def test_table_cell_needs_both_mean_and_median():
    """A row with a mean but no median (NaN) shows '-', not a half-empty cell nor an error."""
    m, n, k = ranking.benchmark_shapes()[0]
    frame = pd.DataFrame([dict(kind="benchmark", m=m, n=n, k=k, provider="p", timing="contest", mean_us=5.0,
                               median_us=math.nan)])
    line = [x for x in ranking.table(frame, ["p"]).splitlines() if f"{m}x{n}x{k}" in x][0]
    assert line.split()[-1] == "-"


def test_public_mi355x_text_names_the_last_place_and_a_positive_lead():
    import matplotlib

    matplotlib.use("Agg")
    board = pd.DataFrame({"rank": [1, 2, 3, 4], "score_us": [5.0, 6.0, 7.5, 8.0]})
    text, _ = ranking.public_mi355x(ranking.aiter_mi355x(), board)
    _, places, second = text.splitlines()
    assert places == "leaderboard: first place 5.000 us, then places 2-4: 6.000 to 8.000 us"
    assert second.endswith("first place 1.000 us ahead of second")
