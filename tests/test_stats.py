"""mxlib.tools.stats: the one percentile, median, timing summary and geometric mean every tool reports."""
import math
import random

import pytest

from mxlib.tools import stats


def test_summarize_percentiles():
    vals = list(range(1, 102))  # 1..101
    random.shuffle(vals)
    s = stats.summarize([float(v) for v in vals])
    assert (s["median_us"], s["p20_us"], s["p80_us"], s["mean_us"], s["n"]) == (51.0, 21.0, 81.0, 51.0, 101)
    with pytest.raises(ValueError, match="times_us must not be empty"):
        stats.summarize([])


def test_median_of_an_even_count_is_the_mean_of_the_middle_two():
    assert stats.median([4.0, 1.0, 3.0, 2.0]) == 2.5
    assert stats.median([7]) == 7
    with pytest.raises(ValueError, match="median of no values"):
        stats.median([])
    assert math.isclose(stats.geomean([1.0, 4.0]), 2.0)
    for bad in ([1.0, 0.0], [1.0, float("nan")], [2.0, -1.0], []):
        with pytest.raises(ValueError, match="positive"):
            stats.geomean(bad)


def test_percentile_refuses_what_it_would_get_wrong():
    assert stats.percentile([1.0, 2.0, 3.0], 50) == 2.0 and stats.percentile([1.0, 3.0], 25) == 1.5
    with pytest.raises(ValueError, match=r"q must be in \[0, 100\]"):
        stats.percentile([1.0, 2.0, 3.0], -50)
    with pytest.raises(ValueError, match="must be sorted"):
        stats.percentile([3.0, 1.0, 2.0], 50)


def test_two_groups_splits_at_the_widest_gap_only_when_it_is_wide():
    assert stats.two_groups([13.7, 13.8, 14.6, 14.7, 13.75]) == pytest.approx(14.2)
    assert stats.two_groups([13.7, 13.8, 13.9]) is None and stats.two_groups([5.0]) is None
    assert stats.two_groups([1.0, 1.3], gap_us=0.3) == pytest.approx(1.15)  # the gap rule is inclusive
    assert stats.two_groups([1.0, 1.3], gap_us=0.31) is None


def test_median_abs_pct_error_is_relative_to_the_measurement():
    assert stats.median_abs_pct_error([11.0, 10.0, 40.0], [10.0, 20.0, 40.0]) == pytest.approx(10.0)
    with pytest.raises(ValueError, match="predicted and measured must have the same length"):
        stats.median_abs_pct_error([1.0], [1.0, 2.0])  # pairs, not two lists of different lengths


def test_summarize_mean_is_the_mean_on_skewed_samples():
    """The contest ranks by the mean: on skewed calls it is not the median."""
    s = stats.summarize([1.0, 2.0, 10.0])
    assert s["median_us"] == 2.0 and s["mean_us"] == pytest.approx(13 / 3)


def test_percentile_ends_and_the_inclusive_gap_at_an_exact_boundary():
    assert stats.percentile([1.0, 2.0, 3.0], 0) == 1.0 and stats.percentile([1.0, 2.0, 3.0], 100) == 3.0
    assert stats.two_groups([1.0, 1.25], gap_us=0.25) == 1.125  # 0.25 exactly, in binary too: a gap


def test_summarize_accepts_tied_times():
    """Tied per-call times (common at the event timer's resolution) are sorted: percentile must accept them."""
    s = stats.summarize([2.0, 1.0, 1.0, 2.0, 1.0])
    assert (s["median_us"], s["p20_us"], s["p80_us"], s["n"]) == (1.0, 1.0, 2.0, 5)
    assert stats.percentile([1.0, 1.0, 3.0], 75) == 2.0


def test_two_groups_sorts_its_means():
    """Block means in time order, not sorted: the widest gap is the one between sorted neighbours."""
    assert stats.two_groups([3.0, 1.0, 1.1]) == pytest.approx(2.05)  # unsorted, the gaps would be -2.0 and 0.1


def test_two_groups_default_gap_is_0_4_us():
    """Means 0.45 us apart are two groups at the default gap, 0.35 us apart one."""
    assert stats.GAP_US == 0.4
    assert stats.two_groups([1.0, 1.45]) == pytest.approx(1.225)  # 0.45 us apart: two groups at the default
    assert stats.two_groups([1.0, 1.35]) is None
