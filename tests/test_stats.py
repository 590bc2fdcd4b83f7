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
    with pytest.raises(ValueError):
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
