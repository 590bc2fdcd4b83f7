"""The benchmark's acceptance targets, checked on one run's rows (as written or as read back).

The targets: the geometric mean of mxlib's contest-style times over the benchmark shapes at most 4.5 us;
mxlib faster than cuBLAS on the unquantized bf16 B at every benchmark shape and not slower at the test
and extra shapes; within 1.3 x (empty kernel + floor) contest-style and 1.5 x floor by graph replay; and
every checked output passing `check_implementation`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..spec import shapes as shapes_mod
from .bench_csv import index_rows, number
from .stats import geomean

# The targets (module docstring), checked by `acceptance`.
TARGET_GEOMEAN_US = 4.5
TARGET_EMPTY_PLUS_FLOOR = 1.3
TARGET_GRAPH_FLOOR = 1.5
GRAPH_TARGET_SHAPES = ((16, 2112, 7168), (64, 7168, 2048), (256, 3072, 1536))


@dataclass(frozen=True)
class Check:
    name: str
    passed: bool | None  # None: the rows it needs are missing
    detail: str


def acceptance(rows: list[dict]) -> list[Check]:
    """Each target's verdict on one run's rows (contest medians unless said otherwise)."""
    idx = index_rows(rows)
    bench_shapes = [s.mnk for s in shapes_mod.load("benchmark")]

    def med(kind, mnk, prov, timing="contest"):
        """The row's median; None when the row is missing, inf when it exists without a time (it raised)."""
        r = idx.get((kind, *mnk, prov, timing))
        if r is None:
            return None
        v = number(r["median_us"])
        return math.inf if v is None else v

    def fmt(mnk):
        return "x".join(map(str, mnk))

    def us(v):
        return "no time" if math.isinf(v) else f"{v:.2f}"

    checks = []
    mx = [med("benchmark", s, "mxlib") for s in bench_shapes]
    if None in mx:
        checks.append(Check("mxlib geomean <= 4.5 us", None, "missing mxlib contest rows for benchmark shapes"))
    else:
        g = geomean(mx)
        means = [number(idx[("benchmark", *s, "mxlib", "contest")].get("mean_us")) for s in bench_shapes]
        of_means = f"; of the means, as the contest ranks: {geomean(means):.3f} us" if all(v and v > 0 for v in means) else ""
        checks.append(Check(f"mxlib geomean <= {TARGET_GEOMEAN_US} us", g <= TARGET_GEOMEAN_US,
                            "a shape has no time" if math.isinf(g) else f"{g:.3f} us of the medians{of_means}"))

    def per_shape(name, kind, shape_list, ok_fn):
        parts, passed = [], True
        for s in shape_list:
            res = ok_fn(kind, s)
            if res is None:
                return Check(name, None, f"missing rows for {fmt(s)}")
            good, text = res
            passed &= good
            parts.append(f"{fmt(s)} {text}{'' if good else ' FAIL'}")
        return Check(name, passed, "; ".join(parts))

    def faster_than_cublas(kind, s, strict=True):
        a, c = med(kind, s, "mxlib"), med(kind, s, "cublas_bf16")
        if a is None or c is None:
            return None
        return (a < c if strict else a <= c), f"{us(a)} vs {us(c)}"

    def near_empty_plus_floor(kind, s):
        a, r = med(kind, s, "mxlib"), idx.get((kind, *s, "mxlib", "contest"))
        if a is None or number(r.get("empty_us")) is None:
            return None
        bound = TARGET_EMPTY_PLUS_FLOOR * (number(r["empty_us"]) + number(r["floor_us"]))
        return a <= bound, f"{us(a)} <= {bound:.2f}"

    def graph_near_floor(kind, s):
        a = med(kind, s, "mxlib", "graph")
        if a is None:
            return None
        bound = TARGET_GRAPH_FLOOR * number(idx[(kind, *s, "mxlib", "graph")]["floor_us"])
        return a <= bound, f"{us(a)} <= {bound:.2f}"

    checks.append(per_shape("benchmark shapes: mxlib faster than cublas_bf16", "benchmark", bench_shapes,
                            faster_than_cublas))
    checks.append(per_shape(f"benchmark shapes: mxlib <= {TARGET_EMPTY_PLUS_FLOOR} x (empty + floor)", "benchmark",
                            bench_shapes, near_empty_plus_floor))
    checks.append(per_shape(f"graph replay <= {TARGET_GRAPH_FLOOR} x floor", "benchmark", list(GRAPH_TARGET_SHAPES),
                            graph_near_floor))
    for kind in ("test", "extra"):
        checks.append(per_shape(f"{kind} shapes: mxlib not slower than cublas_bf16", kind,
                                [s.mnk for s in shapes_mod.load(kind)],
                                lambda kd, s: faster_than_cublas(kd, s, strict=False)))
    bad = [r for r in rows if str(r["ok"]) == "0"]
    checks.append(Check("every checked output passes check_implementation (rne)", not bad,
                        "; ".join(f"{r['provider']} {r['m']}x{r['n']}x{r['k']}: {r['message']}" for r in bad[:5])
                        or f"{sum(str(r['ok']) == '1' for r in rows)} checked rows passed"))
    return checks
