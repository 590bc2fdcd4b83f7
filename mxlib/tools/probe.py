"""Reading what `scripts/probe_fused.py` measured: per-program timelines, and the best row per variant
over all tilings or at one tiling.

The probe writes two CSVs per run (`data/results/h200/probe/` and `.../rung3/` hold the recorded runs):

- `probe.csv`, one row per timed launch: `variant` is `touch` (mxlib.tools.baselines.touch, the launch that
  only reads the inputs and writes C), `empty_grid` (an empty kernel with the fused launch's grid),
  `fused` (the dispatcher table's config), `a_quantized` (the same launch with A's quantization left
  out: A handed over already quantized), `a_once` (Config.a_once=1) or `fused_cfg` (other tilings);
  with `contest_us`, `graph_us` and `ok` (checked against the reference; empty where not a GEMM).
- `timeline.csv`, one row per program of one launch of the table config, `state` warm (the same
  inputs just ran) or cold (after the L2 flush): its SM, %globaltimer at its start, after its K loop
  and at its end (ns), %clock64 at the same points, whether it was the last arrival of its tile, and
  its K iterations.

Everything here is plain Python over rows as `csv.DictReader` gives them (strings) or as numbers.
"""
from __future__ import annotations

import csv
from pathlib import Path

from .stats import median

TIMELINE_FIELDS = ("smid", "t_start_ns", "t_loop_ns", "t_end_ns", "clk_start", "clk_loop", "clk_end", "last", "iters")


def timeline_summary(programs: list[dict]) -> dict:
    """One launch's numbers from its programs' records (TIMELINE_FIELDS, numbers or strings).

    span_ns: first start to last end; prog_ns / loop_ns / tail_ns: medians over programs of start to
    end, start to loop end, loop end to end; tail_last_ns: the same for the programs that arrived
    last at their tile (they also sum the split-K partials); start_spread_ns: first to last start;
    cycles_per_iter: median %clock64 cycles from start to loop end per K iteration; sms: SMs used;
    max_resident: most programs seen running on one SM at once.
    """
    if not programs:
        raise ValueError("a timeline needs at least one program")
    r = [{f: int(p[f]) for f in TIMELINE_FIELDS} for p in programs]
    for p in r:
        if not p["t_start_ns"] <= p["t_loop_ns"] <= p["t_end_ns"]:
            raise ValueError(f"a program's timestamps are out of order: {p}")
    t0 = min(p["t_start_ns"] for p in r)
    last = [p["t_end_ns"] - p["t_loop_ns"] for p in r if p["last"]]
    per_sm: dict = {}
    for p in r:
        per_sm.setdefault(p["smid"], []).append((p["t_start_ns"], p["t_end_ns"]))
    resident = max(sum(1 for s2, e2 in ivs if s2 <= s < e2) for ivs in per_sm.values() for s, _ in ivs)
    return {
        "programs": len(r),
        "span_ns": max(p["t_end_ns"] for p in r) - t0,
        "prog_ns": median([p["t_end_ns"] - p["t_start_ns"] for p in r]),
        "loop_ns": median([p["t_loop_ns"] - p["t_start_ns"] for p in r]),
        "tail_ns": median([p["t_end_ns"] - p["t_loop_ns"] for p in r]),
        "tail_last_ns": median(last) if last else 0.0,
        "start_spread_ns": max(p["t_start_ns"] for p in r) - t0,
        "iters": max(p["iters"] for p in r),
        "cycles_per_iter": median([(p["clk_loop"] - p["clk_start"]) / max(1, p["iters"]) for p in r]),
        "sms": len(per_sm),
        "max_resident": resident,
    }


def read_rows(path) -> list[dict]:
    with open(Path(path), newline="") as f:
        return list(csv.DictReader(f))


def timelines(rows: list[dict]) -> dict:
    """{(m, n, k, state): timeline_summary} for every launch in a timeline.csv's rows."""
    groups: dict = {}
    for row in rows:
        groups.setdefault((int(row["m"]), int(row["n"]), int(row["k"]), row["state"]), []).append(row)
    return {key: timeline_summary(progs) for key, progs in groups.items()}


def best_by_variant(rows: list[dict]) -> dict:
    """{(m, n, k): {variant: the row with the lowest contest_us}} over a probe.csv's rows; rows that
    failed their check (ok == "0") or have no time are left out."""
    best: dict = {}
    for row in rows:
        if row.get("ok") == "0" or row.get("contest_us") in ("", None):
            continue
        key = (int(row["m"]), int(row["n"]), int(row["k"]))
        cur = best.setdefault(key, {}).get(row["variant"])
        if cur is None or float(row["contest_us"]) < float(cur["contest_us"]):
            best[key][row["variant"]] = row
    return best


def _tiling(config: str) -> frozenset:
    """A probe config's items but `a_once`: the launch's tiling, which `a_once` does not change."""
    return frozenset(item for item in config.split() if not item.startswith("a_once="))


def at_reference_tiling(rows: list[dict], reference: str = "fused") -> dict:
    """{(m, n, k): {variant: row}} like `best_by_variant`, but per shape only the rows at the tiling of
    the `reference` variant's best row (a_once aside), so that the variants compare at one tiling; the
    best of each may come from different tilings. A variant not timed at that tiling is absent."""
    out = {}
    for key, variants in best_by_variant(rows).items():
        if reference in variants:
            tiling = _tiling(variants[reference]["config"])
            same = [r for r in rows if (int(r["m"]), int(r["n"]), int(r["k"])) == key and _tiling(r["config"]) == tiling]
            out[key] = best_by_variant(same)[key]
    return out
