#!/usr/bin/env python
"""GPU check of mxlib's rule for special and extreme values (mxlib.spec.reference) on every path.

  python scripts/h200_special_values.py --out data/results/h200/special_values

Cases, all checked with `check_exact` (relative error against the exact result; NaN and Inf must
match) and, for comparison, the contest's `check_implementation`:

- scale: A (and, separately, B before quantization) of the contest's inputs multiplied by each of
  --scales, on --shapes and --random seeded random shapes;
- huge: tests/test_special_values.huge_inputs (dequantized values past 2**128, so Inf * 0 and
  +Inf - Inf; hand-set B scale bytes 253, 254, 0, 255; subnormal A);
- fuzz: --fuzz seeded cases of tests/test_fuzz (random shapes and configs, block scales over the
  whole bf16 range, NaN/Inf/-0.0/zero blocks).

Each case runs every path of mxlib.runtime.paths.PATHS that can run here (`path_available`) with the
dispatcher's config for the shape on this device (the fuzz cases with their own configs, or the
path's default) and custom_kernel with its default choice. Each path is checked against the rule as
documented for it here: with `path_zero_scale_operands` (fused and fused_fp4 on NVIDIA with Triton
before 3.9), that operand's blocks with scale byte 0 count as zero (mxlib.spec.reference).
One CSV row per (case, path): zero_scale (those operands, "" for none), ok (the rule), bad (elements
off the rule), region (elements whose finite products' magnitudes reach fp32's range, where the rule
accepts any non-finite output), NaN
and Inf counts of the output and of the exact result, max_rel_err (the largest |out - ref| / |ref|
over finite elements whose allowed error is set by |ref| rather than by cancellation), worst_ratio
(the largest error as a fraction of the allowed one), contest_ok, message. Writes
<out>/special_values.csv (row by row) and <out>/summary.json (command, versions, device, date,
counts, failures); --max-seconds stops starting new cases after that long and says so in the
summary. Exit status 1 if any check failed.

A dry run on the CPU (Triton's interpreter): TRITON_INTERPRET=1 python scripts/h200_special_values.py
--device cpu --shapes 4x64x128 --random 0 --scales 1e-30,1e30 --fuzz 1 --out /tmp/sv
"""
from __future__ import annotations

import argparse
import csv
import datetime
import json
import platform
import random
import sys
import time
import traceback
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing mxlib

from mxlib.runtime import dispatch  # noqa: E402
from mxlib.tools.providers import config_text  # noqa: E402
from mxlib.runtime.paths import PATHS, path_available, path_module, path_zero_scale_operands  # noqa: E402
from mxlib.spec.layouts import e8m0_shuffle, shuffle_weight  # noqa: E402
from mxlib.spec.quant import quantize_mxfp4  # noqa: E402
from mxlib.spec.shapes import parse_mnk  # noqa: E402
from mxlib.spec.reference import (EXACT_ACC_PER_K, EXACT_RTOL, check_implementation, exact_errors,  # noqa: E402
                                  generate_input)
from tests.test_fuzz import fuzz_case, runnable_configs  # noqa: E402
from tests.test_special_values import huge_inputs  # noqa: E402

FIELDS = ("case", "target", "scale", "m", "n", "k", "seed", "path", "config", "zero_scale", "ok", "bad", "region",
          "nan_out", "nan_ref", "inf_out", "inf_ref", "max_rel_err", "worst_ratio", "contest_ok", "seconds", "message")
DEFAULT_SHAPES = "16x2112x7168,64x3072x1536,4x2880x512"
DEFAULT_SCALES = "1e-38,1e-30,1e-9,1e-3,1,3e4,1e5,1e10,1e30,1e37,1e38"
F32_MAX = torch.finfo(torch.float32).max


def measure(data, out, zero_scale=()) -> dict:
    """The CSV's figures for one output (see the module docstring)."""
    e = exact_errors(data, out, zero_scale_operands=zero_scale)
    ref, good, ratio = e["ref"], e["good"], e["ratio"]
    o = out.detach().double().cpu()
    k = data[0].shape[1]
    relative = (EXACT_RTOL * ref.abs() >= k * EXACT_ACC_PER_K * e["terms"]) & o.isfinite() & ref.isfinite() & (ref != 0)
    rel = ((o - ref).abs() / ref.abs())[relative]
    return {"ok": int(bool(good.all())), "bad": int((~good).sum()), "region": int((e["terms"] >= F32_MAX).sum()),
            "nan_out": int(o.isnan().sum()), "nan_ref": int(ref.isnan().sum()), "inf_out": int(o.isinf().sum()),
            "inf_ref": int(ref.isinf().sum()), "max_rel_err": f"{float(rel.max()) if rel.numel() else 0.0:.3g}",
            "worst_ratio": f"{float(ratio.max()) if ratio.numel() else 0.0:.3g}"}


def scaled(data, target: str, scale: float):
    a, b, b_q, b_sh, b_s = data
    if target == "A":
        return ((a.float() * scale).to(torch.bfloat16), b, b_q, b_sh, b_s)
    b = (b.float() * scale).to(torch.bfloat16)
    q, s = quantize_mxfp4(b)
    return (a, b, q, shuffle_weight(q), e8m0_shuffle(s))


def parse_shapes(text: str) -> list[tuple[int, int, int]]:
    out = []
    for item in filter(None, (t.strip() for t in text.split(","))):
        try:
            out.append(parse_mnk(item, "--shapes"))
        except ValueError as exc:
            raise SystemExit(str(exc)) from None
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="directory for special_values.csv and summary.json")
    p.add_argument("--device", default="cuda")
    p.add_argument("--shapes", default=DEFAULT_SHAPES, help=f"MxNxK,... (default {DEFAULT_SHAPES})")
    p.add_argument("--random", type=int, default=3, help="seeded random shapes added to --shapes (default 3)")
    p.add_argument("--scales", default=DEFAULT_SCALES, help=f"factors for A and B (default {DEFAULT_SCALES})")
    p.add_argument("--fuzz", type=int, default=10, help="seeded fuzz cases (default 10)")
    p.add_argument("--seed", type=int, default=20261203, help="seed of the random shapes, inputs and fuzz cases")
    p.add_argument("--max-seconds", type=float, default=float("inf"),
                   help="start no new case after this many seconds (the summary says the run stopped early)")
    args = p.parse_args(argv)
    device = torch.device(args.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        print("no CUDA device", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    paths = [p for p in PATHS if path_available(p, device)[0]]
    zero_scale_of = {p: path_zero_scale_operands(p, device) for p in paths}
    shape_list = parse_shapes(args.shapes) + [(rng.randint(1, 300), 16 * rng.randint(1, 400), 64 * rng.randint(1, 100))
                                              for _ in range(args.random)]
    scales = [float(s) for s in args.scales.split(",") if s.strip()]
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []
    t_start = time.perf_counter()
    csv_file = open(out_dir / "special_values.csv", "w", newline="")
    writer = csv.DictWriter(csv_file, fieldnames=FIELDS)
    writer.writeheader()
    stopped = []

    def out_of_time() -> bool:
        if time.perf_counter() - t_start > args.max_seconds:
            stopped.append(True)
        return bool(stopped)

    def check(case, target, scale, data, path, cfg, run, seed="", zero_scale=()):
        a, _, _, b_sh, _ = data
        row = {"case": case, "target": target, "scale": scale, "m": a.shape[0], "n": b_sh.shape[0], "k": a.shape[1],
               "seed": seed, "path": path, "config": "" if cfg is None else config_text(cfg), "zero_scale": "".join(zero_scale)}
        t0 = time.perf_counter()
        try:
            out = run()
            if device.type == "cuda":
                torch.cuda.synchronize()
            row.update(measure(data, out, zero_scale))
            contest_ok, _ = check_implementation(data, out)
            row["contest_ok"] = int(contest_ok)
            row["message"] = "" if row["ok"] else f"{row['bad']} elements off the rule"
        except Exception as exc:  # a failing check is a row, not the end of the run
            row.update(ok=0, message=f"{type(exc).__name__}: {exc}"[:500])
            traceback.print_exc()
        row["seconds"] = f"{time.perf_counter() - t0:.2f}"
        rows.append(row)
        writer.writerow(row)
        csv_file.flush()
        print(" ".join(f"{k}={row.get(k, '')}" for k in ("case", "target", "scale", "m", "n", "k", "path", "ok",
                                                         "bad", "region", "max_rel_err")), flush=True)

    def every_path(case, target, scale, data, seed="", configs=None):
        a, _, _, b_sh, b_s = data
        m, n, k = a.shape[0], b_sh.shape[0], a.shape[1]
        for path in paths:
            cfg = configs[path] if configs is not None else dispatch.select(max(m, 1), n, k, device, path)[1]
            check(case, target, scale, data, path, cfg,
                  lambda path=path, cfg=cfg: path_module(path).gemm(a, b_sh, b_s, config=cfg), seed,
                  zero_scale_of[path])
        if configs is None:
            chosen = dispatch.plan(max(m, 1), n, k, device)[1]  # the path custom_kernel runs (None: the reference)
            check(case, target, scale, data, "custom_kernel", None, lambda: dispatch.custom_kernel(data), seed,
                  zero_scale_of.get(chosen, ()))

    every_path("huge", "", "", tuple(t.to(device) for t in huge_inputs()))
    for m, n, k in shape_list:
        seed = rng.randrange(2**31)
        base = generate_input(m, n, k, seed, device=device)
        for target in ("A", "B"):
            for scale in scales:
                if not out_of_time():
                    every_path("scale", target, scale, scaled(base, target, scale), seed)
    for i in range(args.fuzz):
        case_seed = rng.randrange(2**31)
        if not out_of_time():
            data, configs = fuzz_case(random.Random(case_seed))
            every_path("fuzz", "", "", tuple(t.to(device) for t in data), case_seed, runnable_configs(configs, device))
    csv_file.close()

    failed = [r for r in rows if not r["ok"]]
    per = {}
    for r in rows:
        key = f"{r['case']}:{r['path']}"
        per.setdefault(key, {"passed": 0, "failed": 0})["passed" if r["ok"] else "failed"] += 1
    import triton

    summary = {
        "command": "python " + " ".join([str(Path(sys.argv[0]))] + (argv if argv is not None else sys.argv[1:])),
        "date_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "device": torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu",
        "python": platform.python_version(), "torch": torch.__version__, "cuda": torch.version.cuda,
        "hip": torch.version.hip, "triton": triton.__version__, "paths": paths,
        "paths_not_run": {p: path_available(p, device)[1] for p in PATHS if p not in paths},
        "zero_scale_operands": {p: "".join(v) for p, v in zero_scale_of.items() if v}, "shapes": shape_list,
        "scales": scales, "fuzz_cases": args.fuzz, "seed": args.seed, "stopped_early": bool(stopped),
        "checks": len(rows), "failed": len(failed),
        "contest_check_failed": sum(1 for r in rows if r.get("contest_ok") == 0),
        "wall_seconds": round(time.perf_counter() - t_start, 1), "per_check": per,
        "failures": [{k: r.get(k) for k in FIELDS} for r in failed[:50]],
    }
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(f"{len(rows) - len(failed)} of {len(rows)} checks follow the rule in {summary['wall_seconds']} s; "
          f"wrote {out_dir / 'special_values.csv'} and {out_dir / 'summary.json'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
