"""The benchmark's acceptance targets, checked on one run's rows (as written or as read back).

The single-launch path's speed targets (`acceptance`), set for it (KERNEL_NOTES.md, "The floors") and
never all met (the 4.5 us geomean is below what one launch that only moves the bytes costs here): the
geometric mean of mxlib's contest-style times over the benchmark shapes at most 4.5 us; mxlib faster
than cuBLAS on the unquantized bf16 B at every benchmark shape and not slower at the test and extra
shapes; within 1.3 x (empty kernel + floor) contest-style and 1.5 x floor by graph replay; and every
checked output passing `check_implementation`.

The baseline goal (`baseline_goal`), set for the CUDA path (KERNEL_NOTES.md, "The CUDA path (sm_90)"),
on contest means (what the contest ranks) and on medians: mxlib's geomean over the benchmark shapes
under cuBLAS bf16's, and every benchmark shape within 1.5 x `touch` at its best grid
(`touch_best_rows`: the fastest of the touch providers per shape).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..spec import shapes as shapes_mod
from .bench_csv import failed, index_rows, number, valid_time
from .stats import geomean

# The targets (module docstring), checked by `acceptance`.
TARGET_GEOMEAN_US = 4.5
TARGET_EMPTY_PLUS_FLOOR = 1.3
TARGET_GRAPH_FLOOR = 1.5
GRAPH_TARGET_SHAPES = ((16, 2112, 7168), (64, 7168, 2048), (256, 3072, 1536))
# The baseline goal (module docstring), checked by `baseline_goal`: each benchmark shape within this many x touch_best.
TARGET_TOUCH_RATIO = 1.5


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
        """The row's median; None when the row is missing, inf when it has no valid time (`valid_time`: it
        raised, or its output failed the check)."""
        r = idx.get((kind, *mnk, prov, timing))
        if r is None:
            return None
        v = valid_time(r, "median_us")
        return math.inf if v is None else v

    def fmt(mnk):
        return "x".join(map(str, mnk))

    def us(v):
        return "no valid time" if math.isinf(v) else f"{v:.2f}"

    checks = []
    mx = [med("benchmark", s, "mxlib") for s in bench_shapes]
    if None in mx:
        checks.append(Check(f"mxlib geomean <= {TARGET_GEOMEAN_US} us", None, "missing mxlib contest rows for benchmark shapes"))
    else:
        g = geomean(mx)
        means = [number(idx[("benchmark", *s, "mxlib", "contest")].get("mean_us")) for s in bench_shapes]
        of_means = f"; of the means, as the contest ranks: {geomean(means):.3f} us" if all(v and v > 0 for v in means) else ""
        # compared at 1e-9 us: a geometric mean carries its own rounding (six times 4.5 gives 4.500000000000002)
        checks.append(Check(f"mxlib geomean <= {TARGET_GEOMEAN_US} us", round(g, 9) <= TARGET_GEOMEAN_US,
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
        return (a < c if strict else a <= c) and not math.isinf(a), f"{us(a)} vs {us(c)}"

    def near_empty_plus_floor(kind, s):
        a = med(kind, s, "mxlib")
        if a is None:
            return None
        r = idx[(kind, *s, "mxlib", "contest")]
        empty, floor = number(r.get("empty_us")), number(r.get("floor_us"))
        if empty is None or floor is None:
            return None
        bound = TARGET_EMPTY_PLUS_FLOOR * (empty + floor)
        return a <= bound, f"{us(a)} <= {bound:.2f}"

    def graph_near_floor(kind, s):
        a = med(kind, s, "mxlib", "graph")
        floor = None if a is None else number(idx[(kind, *s, "mxlib", "graph")].get("floor_us"))
        if floor is None:
            return None
        bound = TARGET_GRAPH_FLOOR * floor
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
    bad = [r for r in rows if failed(r)]
    checks.append(Check("every checked output passes check_implementation (rne)", not bad,
                        "; ".join(f"{r['provider']} {r['m']}x{r['n']}x{r['k']}: {r['message']}" for r in bad[:5])
                        or f"{sum(number(r.get('ok')) == 1 for r in rows)} checked rows passed"))
    return checks


def touch_best_rows(rows: list[dict]) -> list[dict]:
    """Per (shape, timing), a copy of the fastest touch provider's row as provider "touch_best", its grid in
    the config column; none where no touch row has a time. Fastest by contest mean where every touch row of
    that shape and timing has one, else by median (one statistic for all of them: a mean is never compared
    with a median); the first row wins a tie."""
    groups: dict = {}
    for r in rows:
        if str(r["provider"]).startswith("touch") and number(r["median_us"]) is not None:
            groups.setdefault((str(r["kind"]), int(r["m"]), int(r["n"]), int(r["k"]), str(r["timing"])), []).append(r)
    best = []
    for group in groups.values():
        stat = "mean_us" if all(number(r.get("mean_us")) is not None for r in group) else "median_us"
        best.append(min(group, key=lambda r: number(r[stat])))
    return [{**r, "provider": "touch_best"} for r in best]


def baseline_goal(rows: list[dict]) -> list[Check]:
    """The baseline goal from one run's rows, on contest means (the contest's ranking) and medians:
    mxlib's geomean over the benchmark shapes under cublas_bf16's, and every benchmark shape within
    TARGET_TOUCH_RATIO x touch at its best grid."""
    idx = index_rows(rows + touch_best_rows(rows))
    bench_shapes = [s.mnk for s in shapes_mod.load("benchmark")]
    checks = []
    for stat in ("mean_us", "median_us"):
        def get(mnk, prov):
            """The row's time; None when the row is missing, inf when it has no valid time (`valid_time`)."""
            r = idx.get(("benchmark", *mnk, prov, "contest"))
            if r is None:
                return None
            v = valid_time(r, stat)
            return math.inf if v is None else v
        mx, cb = [get(s, "mxlib") for s in bench_shapes], [get(s, "cublas_bf16") for s in bench_shapes]
        name = f"mxlib geomean < cublas_bf16 geomean ({stat[:-3]}s)"
        if None in mx or None in cb:
            checks.append(Check(name, None, "missing mxlib or cublas_bf16 contest rows for benchmark shapes"))
        elif math.inf in mx or math.inf in cb:
            checks.append(Check(name, False, "a benchmark shape has no valid time (a call raised, or an output "
                                             "failed its check)"))
        else:
            checks.append(Check(name, geomean(mx) < geomean(cb), f"{geomean(mx):.3f} vs {geomean(cb):.3f} us"))
        parts, passed = [], True
        for s in bench_shapes:
            a, t = get(s, "mxlib"), get(s, "touch_best")
            if a is None or t is None:
                parts, passed = [f"missing rows for {'x'.join(map(str, s))}"], None
                break
            good = a <= TARGET_TOUCH_RATIO * t
            passed &= good
            shown = "no valid time" if math.isinf(a) else f"{a:.2f}"
            parts.append(f"{'x'.join(map(str, s))} {shown} <= {TARGET_TOUCH_RATIO} x {t:.2f}{'' if good else ' FAIL'}")
        checks.append(Check(f"benchmark shapes: mxlib <= {TARGET_TOUCH_RATIO} x touch_best ({stat[:-3]}s)", passed,
                            "; ".join(parts)))
    return checks
