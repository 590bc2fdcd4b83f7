"""Integer rules in plain Python: shared by the modules that work on shapes as integers (mxlib.spec.seed
and aiter_rules, mxlib.tools.occupancy), by mxlib.spec.reference's shape rule, and by
mxlib.spec.validate, which re-exports `positive` and `multiple`."""
from __future__ import annotations


def cdiv(a: int, b: int) -> int:
    """ceil(a / b) for integers, b > 0."""
    return -(-a // b)


def positive(value, name: str) -> None:
    """ValueError naming the argument `name` unless `value` is an int of at least 1 (a bool is not)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")


def non_negative(value, name: str) -> None:
    """ValueError naming the argument `name` unless `value` is an int of at least 0 (a bool is not)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {value!r}")


def multiple(value: int, name: str, of: int) -> None:
    """ValueError naming the argument `name` unless `value` is a multiple of `of`."""
    if value % of != 0:
        raise ValueError(f"{name} must be a multiple of {of}, got {value}")


def gemm_shape(m, n, k) -> None:
    """The problem shapes mxlib takes: M, N, K positive integers; N a multiple of 16 (the weight
    shuffle's 16-row tiles) and K of 64 (two fp4 values a byte, in the shuffle's 32-byte tiles)."""
    for v, name in ((m, "m"), (n, "n"), (k, "k")):
        positive(v, name)
    multiple(n, "n", 16)
    multiple(k, "k", 64)
