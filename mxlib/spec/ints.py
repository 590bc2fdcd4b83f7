"""Integer rules shared by the modules that must not import torch (mxlib.spec.seed and aiter_rules,
mxlib.tools.occupancy and pathbook) and by mxlib.spec.validate, which re-exports `positive`."""
from __future__ import annotations


def cdiv(a: int, b: int) -> int:
    """ceil(a / b) for integers, b > 0."""
    return -(-a // b)


def positive(value, name: str) -> None:
    """ValueError naming the argument `name` unless `value` is an int of at least 1 (a bool is not)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
