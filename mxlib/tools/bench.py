"""`python -m mxlib bench`: mxlib's paths beside baselines, timed the way the contest times them.

For every shape and provider (`mxlib.tools.providers`): one checked, untimed call, then contest-style
timing (`mxlib.tools.timing.time_contest`) and, where the call can be captured, CUDA-graph replay
(`time_graph`), with the floor from ceilings measured in the same run (`mxlib.tools.ceilings`). The rows
go to a CSV (`mxlib.tools.bench_csv`, default a new `data/results/<device>/bench_<UTC time>.csv`); the
summary prints tables of contest medians, contest means and graph medians, each with a "touch_best" column
(touch at its fastest grid) and geometric means over the benchmark shapes, then the baseline goal and the
single-launch path's earlier speed targets (`mxlib.tools.acceptance`).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import torch

from ..spec import shapes as shapes_mod
from ..spec import validate
from ..spec.reference import generate_input
from .acceptance import acceptance, baseline_goal, touch_best_rows
from .arguments import at_least, non_negative_float, options_given, output_file
from .bench_csv import failed, index_rows, make_row, number, read_csv, valid_time, write_csv
from .ceilings import ceilings_text, floor_us, measure_ceilings
from .progress import Progress
from .provenance import run_metadata
from .providers import Provider, check_call, providers, select_providers
from .repo import new_result_path
from .stats import geomean
from .timing import DEFAULT_HEAD_START_US, DEFAULT_ITERS, DEFAULT_WARMUP, L2Flush, require_cuda, time_contest
from .timing import SEED_STEP, time_graph



def select_shapes(spec: str) -> list[shapes_mod.Shape]:
    """Shapes of the kinds in a comma list (test, benchmark, extra), in mxlib/data/shapes.csv order."""
    kinds = [s.strip() for s in spec.split(",") if s.strip()]
    if not kinds:
        raise ValueError("--shapes must name at least one kind of shapes")
    for kind in kinds:
        validate.choice(kind, "--shapes kind", shapes_mod.KINDS)
    return [s for s in shapes_mod.load() if s.kind in kinds]


def run_bench(shapes: list, provs: list[Provider], *, iters: int = DEFAULT_ITERS, warmup: int = DEFAULT_WARMUP,
              fresh_inputs: bool = False, graph: bool = True, head_start_us: float = DEFAULT_HEAD_START_US,
              progress: bool = True) -> tuple[list[dict], dict]:
    """Time every provider on every shape; returns (CSV rows, ceilings). Needs CUDA."""
    require_cuda("run_bench")
    flush = L2Flush(head_start_us)
    ceilings = measure_ceilings(flush=flush, iters=iters)
    run_info = {**run_metadata(ceilings["device"]), "empty_us": ceilings["empty_us"],
                "copy_TBps": ceilings["bandwidth_Bps"] / 1e12, "bf16_TFLOPs": ceilings["bf16_flops"] / 1e12}
    bar = Progress(len(shapes) * len(provs)) if progress else None
    rows = []
    for s in shapes:
        data = generate_input(*s.mnk, s.seed, device="cuda", rounding="rne")
        base = {"kind": s.kind, "m": s.m, "n": s.n, "k": s.k, "seed": s.seed,
                "floor_us": floor_us(*s.mnk, ceilings), **run_info}
        for p in provs:
            rows += _bench_one(p, s, data, {**base, "provider": p.name}, iters=iters, warmup=warmup,
                               fresh_inputs=fresh_inputs, graph=graph and p.graph, flush=flush)
            if bar:
                bar.step(f"{s} {p.name}")
    return rows, ceilings


def _bench_one(p: Provider, s, data, base: dict, *, iters, warmup, fresh_inputs, graph, flush) -> list[dict]:
    """The rows of one provider on one shape: checked once, then contest-timed and (if asked) graph-timed.
    With `fresh_inputs` the check covers the first timed input only (the harness's leaderboard mode checks
    every output).

    A provider that raises gives a row with an empty time and the error as its message, not a lost run (one
    for each timing it was asked for, so that a check that needs its graph time fails rather than finds none).
    """
    m, n, k = s.mnk
    timings = ("contest", "graph") if graph else ("contest",)
    try:
        path, config = p.describe(m, n, k, "cuda")
        base = {**base, "path": path, "config": config}
        call = p.make(data)
        call()  # compile (and autotune) before the poisoned check and the timing
        if p.checked:
            good, message = check_call(call, data, m, n)
            ok = int(good)
        else:
            ok, message = "", "not checked: " + p.help
    except Exception as exc:
        ok = 0 if p.checked else ""  # an unchecked baseline that raises failed no check
        return [make_row({"path": "", "config": "", **base}, timing, None, fresh_inputs and timing == "contest", ok,
                         _error(exc)) for timing in timings]
    fresh_seeds = iter(range(s.seed + SEED_STEP, sys.maxsize, SEED_STEP))
    calls = [call]  # the first timed input is the checked one; fresh ones follow when asked

    def inputs():
        if calls:
            return (calls.pop(),)
        return (p.make(generate_input(m, n, k, next(fresh_seeds), device="cuda", rounding="rne")),)

    rows = []
    for timing in timings:
        try:
            if timing == "contest":
                timed = time_contest(_invoke, inputs, iters=iters, warmup=warmup, fresh_inputs=fresh_inputs,
                                     flush=flush)
            else:
                timed = time_graph(call)
            rows.append(make_row(base, timing, timed, fresh_inputs and timing == "contest", ok, message))
        except Exception as exc:
            rows.append(make_row(base, timing, None, fresh_inputs and timing == "contest", ok, _error(exc)))
        torch.cuda.synchronize()
    return rows


def _error(exc: Exception) -> str:
    return f"error: {type(exc).__name__}: {exc}"[:500]


def _invoke(call):
    return call()


def summary(rows: list[dict]) -> str:
    """Tables (shapes x providers) of contest medians, contest means (what the contest ranks) and graph
    medians, with a "touch_best" column (`acceptance.touch_best_rows`: the fastest touch grid per shape);
    under each, the geometric mean over the benchmark shapes of its numbers (under a table of medians,
    also of the means); then the baseline goal and the speed targets."""
    shapes = list(dict.fromkeys((str(r["kind"]), int(r["m"]), int(r["n"]), int(r["k"])) for r in rows))
    rows = rows + touch_best_rows(rows)
    provs = list(dict.fromkeys(str(r["provider"]) for r in rows))
    idx = index_rows(rows)
    lines = []
    for timing, stat in (("contest", "median_us"), ("contest", "mean_us"), ("graph", "median_us")):
        cols = [p for p in provs if any(key[4] == p and key[5] == timing for key in idx)]
        if not cols:
            continue
        w = max(9, *(len(c) for c in cols))
        lines.append(f"\n{timing} {stat[:-3]} us" + (" (L2 flushed, events around one call)" if timing == "contest"
                                                     else " (CUDA graph replay / calls)")
                     + (": the contest ranks by the geomean of these" if stat == "mean_us" else ""))
        lines.append(f"{'kind':<10}{'M':>5}{'N':>6}{'K':>6}{'floor':>8}  " + "".join(f"{c:>{w + 1}}" for c in cols))
        for kind, m, n, k in shapes:
            cells, floor = [], ""
            for c in cols:
                r = idx.get((kind, m, n, k, c, timing))
                v = None if r is None else number(r[stat])
                cells.append(("-" if r is None else "FAIL" if v is None else f"{v:.2f}")
                             + ("!" if r is not None and failed(r) else ""))
                floor_v = None if r is None else number(r["floor_us"])
                if floor_v is not None:
                    floor = f"{floor_v:.2f}"
            lines.append(f"{kind:<10}{m:>5}{n:>6}{k:>6}{floor:>8}  " + "".join(f"{c:>{w + 1}}" for c in cells))
        n_bench = len(shapes_mod.load("benchmark"))
        rows_of = [(f"geomean ({n_bench} benchmark shapes)", stat)]
        if stat == "median_us":
            rows_of.append(("  of the means (the contest's score)" if timing == "contest" else "  of the means",
                            "mean_us"))
        for label, column in rows_of:
            geo = []
            for c in cols:
                vals = [valid_time(idx[key], column) for key in idx  # a wrong answer has no score
                        if key[0] == "benchmark" and key[4] == c and key[5] == timing]
                complete = len(vals) == n_bench and None not in vals
                geo.append(f"{geomean(vals):.2f}" if complete else "-")
            lines.append(f"{label:<37}" + "".join(f"{g:>{w + 1}}" for g in geo))
    lines.append("('!' marks an output that failed check_implementation (no geomean is given over it); 'FAIL' a "
                 "provider that raised)")
    for title, checks in (("baseline goal (one run, contest-style)", baseline_goal(rows)),
                          ("the single-launch path's speed targets (one run; never all met: README.md, \"Measured on "
                           "the H200\")", acceptance(rows))):
        lines.append(f"\n{title}:")
        for c in checks:
            verdict = "n/a " if c.passed is None else "PASS" if c.passed else "FAIL"
            lines.append(f"  [{verdict}] {c.name}: {c.detail}")
    return "\n".join(lines)


def default_out(device_name: str, now=None) -> Path:
    """data/results/<device>/bench_<UTC time>.csv, <device> a slug of the GPU's name (h200 on an H200): a new
    file every run, never over a recorded one (`bench.csv` there is the run notebooks 03-05 cite)."""
    return new_result_path(device_name, "bench", ".csv", now)


# The defaults of the options that time something, also how `run` tells those given from those left alone:
# `--from` reads none of them.
_TIMING_DEFAULTS = {"shapes": "test,benchmark,extra", "providers": "all", "list_providers": False,
                    "iters": DEFAULT_ITERS, "warmup": DEFAULT_WARMUP, "fresh_inputs": False, "no_graph": False,
                    "head_start_us": DEFAULT_HEAD_START_US, "out": None}


def add_arguments(p) -> None:
    d = _TIMING_DEFAULTS
    p.add_argument("--shapes", default=d["shapes"],
                   help="comma list of shape kinds from mxlib/data/shapes.csv (default: %(default)s)")
    p.add_argument("--providers", default=d["providers"],
                   help="comma list of providers (default: all; 'mxlib:*' = every mxlib path); "
                        "--list-providers shows them")
    p.add_argument("--list-providers", action="store_true", help="print the providers and exit")
    p.add_argument("--iters", type=at_least(1), default=d["iters"], help="timed calls per row (default %(default)s)")
    p.add_argument("--warmup", type=at_least(0), default=d["warmup"], help="untimed calls before them (default %(default)s)")
    p.add_argument("--fresh-inputs", action="store_true",
                   help="new inputs (new seed, B included) for every timed call, as in leaderboard mode (only the "
                        "first is checked)")
    p.add_argument("--no-graph", action="store_true", help="skip CUDA-graph replay timing")
    p.add_argument("--head-start-us", type=non_negative_float, default=d["head_start_us"],
                   help="GPU sleep after each flush, hiding host overhead as eval.py's huge flush does "
                        "(default %(default)s)")
    p.add_argument("--out", type=output_file, default=d["out"],
                   help="CSV path (default data/results/<device>/bench_<UTC time>.csv: never over a recorded run)")
    p.add_argument("--from", dest="from_csv", type=Path, metavar="CSV",
                   help="time nothing: print the summary and checks of a recorded bench CSV (no GPU needed; "
                        "takes none of the options above)")


# The columns `summary` reads from a recorded CSV.
FROM_NEEDS = ("kind", "m", "n", "k", "provider", "timing", "median_us", "mean_us", "ok", "floor_us", "message")


def from_csv_problem(rows: list[dict]) -> str | None:
    """What keeps `summary` from reading a recorded CSV's rows, naming the line and column, or None."""
    for line, r in enumerate(rows, start=2):  # line 1 is the header
        for column in ("m", "n", "k"):
            try:
                int(r[column])
            except (TypeError, ValueError):
                return f"line {line}: {column} must be an integer, got {r[column]!r}"
        for column in ("median_us", "mean_us", "floor_us", "empty_us", "ok"):  # what summary and acceptance read
            try:
                number(r.get(column))
            except (TypeError, ValueError):
                return f"line {line}: {column} must be a number or empty, got {r[column]!r}"
    return None


def run(args) -> int:
    if args.from_csv is not None:
        given = options_given(args, _TIMING_DEFAULTS)
        if given:
            print(f"python -m mxlib bench: {', '.join(given)}: not an option of --from, which times nothing",
                  file=sys.stderr)
            return 2
        if not args.from_csv.is_file():
            print(f"python -m mxlib bench: --from {str(args.from_csv)!r} must be an existing bench CSV", file=sys.stderr)
            return 2
        rows = read_csv(args.from_csv)
        missing = [c for c in FROM_NEEDS if rows and c not in rows[0]]
        if not rows or missing:
            print(f"python -m mxlib bench: --from {str(args.from_csv)!r} is not a bench CSV (`python -m mxlib bench "
                  f"--out`): {'it has no row' if not rows else 'it has no column ' + ', '.join(missing)}",
                  file=sys.stderr)
            return 2
        problem = from_csv_problem(rows)
        if problem:
            print(f"python -m mxlib bench: --from {str(args.from_csv)!r}: {problem}", file=sys.stderr)
            return 2
        print(summary(rows))
        return 0
    registry = providers()
    if args.list_providers:
        for p in registry.values():
            print(f"{p.name:<20} {p.help}")
        return 0
    try:
        provs = select_providers(args.providers, registry)
        shapes = select_shapes(args.shapes)
    except ValueError as exc:
        print(f"python -m mxlib bench: {exc}", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("python -m mxlib bench times calls with CUDA events and needs a CUDA (or ROCm) GPU; "
              "torch.cuda.is_available() is False here", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    rows, ceilings = run_bench(shapes, provs, iters=args.iters, warmup=args.warmup, fresh_inputs=args.fresh_inputs,
                               graph=not args.no_graph, head_start_us=args.head_start_us)
    out = args.out or default_out(ceilings["device"])
    write_csv(rows, out)
    print(f"{ceilings_text(ceilings)}; {len(rows)} rows in {time.perf_counter() - t0:.0f} s -> {out}")
    print(summary(rows))
    # 1 when a checked output failed, or a checked provider's timed calls raised (a row without a time)
    return 1 if any(failed(r) or (number(r["ok"]) == 1 and number(r["median_us"]) is None) for r in rows) else 0
