"""The summary statistics every tool reports: percentiles, the median, a timing summary and the geometric mean.

One definition each, so a median in the bench, the harness, the probe and the occupancy model's errors
is the same number. Plain Python.
"""
from __future__ import annotations

import math
from typing import Iterable


def percentile(sorted_values: list[float], q: float) -> float:
    """Linear-interpolated percentile (q in [0, 100]) of an already sorted, non-empty list."""
    if not sorted_values:
        raise ValueError("percentile of no values")
    if not 0 <= q <= 100:
        raise ValueError(f"q must be in [0, 100], got {q}")
    if any(b < a for a, b in zip(sorted_values, sorted_values[1:])):
        raise ValueError("sorted_values must be sorted in ascending order")
    pos = (len(sorted_values) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def median(values: Iterable[float]) -> float:
    """The middle value, or the mean of the two middle ones."""
    v = sorted(values)
    if not v:
        raise ValueError("median of no values")
    return (v[(len(v) - 1) // 2] + v[len(v) // 2]) / 2


def median_abs_pct_error(predicted: Iterable[float], measured: Iterable[float]) -> float:
    """The median over pairs of |predicted - measured| / measured, in percent: how far a model is off."""
    predicted, measured = list(predicted), list(measured)
    if len(predicted) != len(measured):
        raise ValueError(f"predicted and measured must have the same length (pairs), got {len(predicted)} and "
                         f"{len(measured)}")
    return median([abs(p - m) / m * 100 for p, m in zip(predicted, measured)])


def summarize(times_us: list[float]) -> dict:
    """median_us, p20_us, p80_us, mean_us and n of a list of per-call times in microseconds.

    The contest ranks the geometric mean of per-shape means; the median is the steadier number to
    compare kernels by. Both are kept.
    """
    if not times_us:
        raise ValueError("times_us must not be empty")
    s = sorted(times_us)
    return {
        "median_us": median(s), "p20_us": percentile(s, 20), "p80_us": percentile(s, 80),
        "mean_us": sum(s) / len(s), "n": len(s),
    }


def geomean(values: Iterable[float]) -> float:
    """exp(mean(log v)) of positive values: the contest's way of combining per-shape times. NaN, zero,
    a negative value or no values at all is an error, never a NaN score."""
    values = [float(v) for v in values]
    if not values or any(not v > 0 for v in values):
        raise ValueError(f"geomean needs positive values, got {values}")
    return math.exp(sum(math.log(v) for v in values) / len(values))


GAP_US = 0.4  # a gap between sorted block means at least this wide splits them into two groups


def two_groups(means: list[float], gap_us: float = GAP_US) -> float | None:
    """The threshold halfway across the widest gap between the sorted `means`, when that gap is at least
    `gap_us` wide (blocks of calls falling into a fast and a slow group: the between-block effect of
    KERNEL_NOTES.md, two states about 0.9 us apart against a block's own spread of about 0.2); None when
    they do not."""
    s = sorted(means)
    if len(s) < 2:
        return None
    width, i = max((s[j + 1] - s[j], j) for j in range(len(s) - 1))
    return (s[i] + s[i + 1]) / 2 if width >= gap_us else None
