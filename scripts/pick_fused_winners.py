"""Write the H200 dispatcher table's fused rows from a probe run (scripts/probe_fused.py's probe.csv).

    python3 scripts/pick_fused_winners.py PROBE_CSV

For each shape, the fastest checked contest-style time among the launches that ARE the fused path
(variants `fused`, `a_once`, `fused_cfg`; not `a_quantized`, which leaves A's quantization out)
becomes the shape's `fused` row in mxlib/data/configs/h200.csv, where the old one was (every other row stays
where it is: `mxlib.tools.config_table.set_row`), and h200_fused.csv beside PROBE_CSV gets the winner's
times, floor, empty kernel, device, Triton and date.
"""
from __future__ import annotations

import csv
import os
import sys
from dataclasses import fields

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from mxlib.kernels import gemm_fused as F  # noqa: E402
from mxlib.runtime.dispatch import CONFIG_DIR, parse_config, row_config  # noqa: E402
from mxlib.tools.config_table import set_row  # noqa: E402
from mxlib.tools.files import write_csv_atomic  # noqa: E402

FUSED_VARIANTS = ("fused", "a_once", "fused_cfg")


def main() -> int:
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["variant"] in FUSED_VARIANTS and r["ok"] == "1" and r["contest_us"]]
    best: dict = {}
    for r in rows:
        key = (int(r["m"]), int(r["n"]), int(r["k"]))
        if key not in best or float(r["contest_us"]) < float(best[key]["contest_us"]):
            best[key] = r
    for key, r in best.items():  # every config built (so checked) before the table is touched
        where = f"{sys.argv[1]}, the winner for {key}"
        row_config("fused", parse_config(r["config"], where), where)
    for key, r in best.items():
        set_row(CONFIG_DIR / "h200.csv", key, "fused", r["config"])
    names = [fl.name for fl in fields(F.Config)]
    kept = ("m", "n", "k", "config", "variant", "contest_us", "graph_us", "floor_us", "empty_us", "device", "triton",
            "date")

    def row(r: dict) -> dict:
        cfg = dict(kv.split("=") for kv in r["config"].split())
        return {**{k: r[k] for k in kept}, "path": "fused", **{n: cfg.get(n, getattr(F.Config(), n)) for n in names}}
    write_csv_atomic(os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), "h200_fused.csv"),
                     ["m", "n", "k", "path", "config", *names, "variant", "contest_us", "graph_us", "floor_us",
                      "empty_us", "device", "triton", "date"], map(row, best.values()))
    for key, r in best.items():
        print(f"{key}: {r['variant']:<10} {float(r['contest_us']):7.2f} us  {r['config']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
