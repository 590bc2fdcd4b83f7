"""A bench run's rows: the CSV schema, writing and reading it, and looking rows up as written or as read back.

One row per (shape, provider, timing): the contest-style or graph times (median, p20, p80 and mean: the
contest ranks the geometric mean of per-shape means), whether the output passed the check, the run's
ceilings and floor, and the run's metadata. Rows read back from a CSV hold strings; `number` and
`index_rows` treat both alike, so the summary and the acceptance checks work on either.
"""
from __future__ import annotations

import csv
import math
from pathlib import Path

from .files import write_csv_atomic

CSV_FIELDS = (
    "kind", "m", "n", "k", "seed", "provider", "path", "config", "timing", "median_us", "p20_us", "p80_us", "mean_us",
    "samples", "fresh_inputs", "floor_us", "ok", "message", "empty_us", "copy_TBps", "bf16_TFLOPs",
    "device", "torch", "triton", "date",
)


def make_row(base: dict, timing: str, timed: dict | None, fresh: bool, ok, message: str) -> dict:
    """A row from the shape's and provider's columns, `timing` ("contest" or "graph") and its
    `mxlib.tools.stats.summarize` (None when the call raised: empty times, `message` says why)."""
    t = timed or {}
    return {**base, "timing": timing, "median_us": t.get("median_us", ""), "p20_us": t.get("p20_us", ""),
            "p80_us": t.get("p80_us", ""), "mean_us": t.get("mean_us", ""), "samples": t.get("n", 0),
            "fresh_inputs": int(fresh), "ok": ok, "message": message}


def write_csv(rows: list[dict], path: Path) -> None:
    """Write rows under the CSV_FIELDS header (floats to 4 decimals); a column outside it is an error."""
    for r in rows:
        unknown = set(r) - set(CSV_FIELDS)
        if unknown:
            raise ValueError(f"row has columns outside bench_csv.CSV_FIELDS: {sorted(unknown)}")
    write_csv_atomic(path, CSV_FIELDS, ({k: _fmt(r.get(k, "")) for k in CSV_FIELDS} for r in rows))


def _fmt(v):
    return f"{v:.4f}" if isinstance(v, float) else v


def read_csv(path: Path) -> list[dict]:
    """The rows of a bench CSV as strings, keyed by its header (older runs' files read the same way)."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(v) -> float | None:
    """A row's numeric cell as a float; None when it is empty or NaN (no time: the call raised; a CSV reader gives
    "" there, pandas NaN)."""
    if v is None or v == "":
        return None
    v = float(v)
    return None if math.isnan(v) else v


def failed(row) -> bool:
    """Whether a row's output failed its check (`ok` 0, as CSV text or a number): its time is no valid time."""
    return number(row.get("ok")) == 0


def valid_time(row, column: str) -> float | None:
    """A row's time in `column` where it is one to rank: a positive number of a row whose output did not fail
    its check (`failed`: the contest gives a wrong answer no score); else None."""
    v = number(row.get(column))
    return v if v is not None and v > 0 and not failed(row) else None


def devices(frame) -> list[str]:
    """The device names in a measurement frame's `device` column, sorted; [] when it has none."""
    return sorted({str(d) for d in frame["device"].dropna()}) if "device" in frame.columns else []


def index_rows(rows: list[dict]) -> dict:
    """(kind, m, n, k, provider, timing) -> row; kinds and sizes as str so CSV rows and dicts agree."""
    return {(str(r["kind"]), int(r["m"]), int(r["n"]), int(r["k"]), str(r["provider"]), str(r["timing"])): r
            for r in rows}
