"""Integer rules in plain Python: shared by the modules that work on shapes as integers (mxlib.spec.seed
and aiter_rules, mxlib.tools.occupancy), by mxlib.spec.reference's shape rule, and by
mxlib.spec.validate, which re-exports `positive` and `multiple`.

An integer is anything `operator.index` accepts (Python, numpy and 0-d torch integers), never a bool (nor a
0-d bool tensor or array) and never a one-element tensor or array of more dimensions.
"""
from __future__ import annotations

import operator

# The problem's shape rule: N a multiple of the weight shuffle's 16-row tiles, K of 64 (two fp4 values a
# byte, in the shuffle's 32-byte tiles).
N_MULTIPLE = 16
K_MULTIPLE = 64


def cdiv(a: int, b: int) -> int:
    """ceil(a / b) for integers, b > 0."""
    return -(-a // b)


def _as_int(value):
    """`value` as a Python int when it is an integer (operator.index) and not a bool, a bool tensor or array, or a
    one-element tensor or array of more dimensions; else None."""
    if type(value) is int:  # the common case, first: the dispatcher checks a shape on every call
        return value
    if isinstance(value, bool) or str(getattr(value, "dtype", "")) in ("bool", "torch.bool"):
        return None
    if getattr(value, "ndim", 0) != 0:  # operator.index takes a one-element tensor of any shape
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def positive(value, name: str) -> None:
    """ValueError naming the argument `name` unless `value` is an integer of at least 1 (a bool is not)."""
    v = _as_int(value)
    if v is None or v < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")


def non_negative(value, name: str) -> None:
    """ValueError naming the argument `name` unless `value` is an integer of at least 0 (a bool is not)."""
    v = _as_int(value)
    if v is None or v < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {value!r}")


def multiple(value: int, name: str, of: int) -> None:
    """ValueError naming the argument `name` unless `value` is a multiple of `of`."""
    if value % of != 0:
        raise ValueError(f"{name} must be a multiple of {of}, got {value}")


def gemm_shape(m, n, k, empty_m: bool = False) -> tuple[int, int, int]:
    """(M, N, K) as Python ints, for the problem shapes mxlib takes: M, N, K positive integers (M = 0 too
    with `empty_m`: an empty A, which gives an empty C); N a multiple of N_MULTIPLE and K of K_MULTIPLE.
    Use the ints returned: a 0-d tensor is an integer here but not a key of a dict of shapes."""
    (non_negative if empty_m else positive)(m, "m")
    for v, name in ((n, "n"), (k, "k")):
        positive(v, name)
    m, n, k = operator.index(m), operator.index(n), operator.index(k)
    multiple(n, "n", N_MULTIPLE)
    multiple(k, "k", K_MULTIPLE)
    return m, n, k
