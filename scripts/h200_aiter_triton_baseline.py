#!/usr/bin/env python
"""aiter's own Triton preshuffle MXFP4 GEMM on the H200, loaded by file path (mxlib.tools.baselines.aiter_triton).

  pip install --no-deps .whl/amd_aiter-0.1.7.post2.dev18-py3-none-any.whl   # PyPI's wheel, 40 MB
  python scripts/h200_aiter_triton_baseline.py --out data/results/h200/aiter_triton

For the 10 contest shapes (mxlib/data/shapes.csv, kinds test and benchmark, the contest's seeds), on CUDA:
1. correctness: A quantized by mxlib's Triton kernel, aiter's GEMM (+ its reduce when split), output
   passed as `out=` filled with NaN, checked with `check_implementation(data, out, "rne")`;
2. timing with the project's contest-style harness (`mxlib.tools.timing.time_contest`: L2 flushed, host launch
   hidden, CUDA events around one call), so the numbers sit beside `python -m mxlib bench`'s; "e2e" =
   quant + GEMM (+ reduce), "gemm" = GEMM (+ reduce) on A quantized beforehand; median, p20, p80, mean
   over --iters calls after --warmup calls;
3. aiter's own quant kernel from the same wheel on the shape's A: the fraction of fp4 bytes and of
   scale bytes that equal mxlib's, under both rounding rules (its scale bytes saturate on NVIDIA:
   KERNEL_NOTES.md, "aiter's quantizer and GEMMs, read from its source"; its element rounding predates
   round-half-even).

Writes <out>/aiter_triton.csv (one row per shape) and <out>/summary.json (command, versions, GPU, date).
A shape that raises is a row with ok = 0 and the error; the exit status is 1 if any shape failed, 2 if
there is no CUDA device or no loadable amd-aiter.

A dry run of the script itself on the CPU (Triton's interpreter; correctness only, no timing):
  TRITON_INTERPRET=1 python scripts/h200_aiter_triton_baseline.py --device cpu --site DIR \
      --shape 4x64x512:1 --shape 40x64x512:2 --iters 1 --warmup 0 --out /tmp/dry
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
import traceback
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing mxlib

from mxlib.spec import shapes  # noqa: E402
from mxlib.spec.devices import compute_units  # noqa: E402
from mxlib.tools.baselines import aiter_triton  # noqa: E402
from mxlib.tools.files import write_csv_atomic, write_text_atomic  # noqa: E402
from mxlib.tools.provenance import run_metadata  # noqa: E402
from mxlib.tools.timing import time_contest  # noqa: E402
from mxlib.runtime.quant import quantize_mxfp4, quantize_mxfp4_shuffled  # noqa: E402
from mxlib.spec.reference import check_implementation, generate_input  # noqa: E402

FIELDS = ("kind", "m", "n", "k", "seed", "block_m", "block_n", "num_ksplit", "ok", "message",
          "e2e_median_us", "e2e_p20_us", "e2e_p80_us", "e2e_mean_us",
          "gemm_median_us", "gemm_p20_us", "gemm_p80_us", "gemm_mean_us",
          "aiter_quant_q_eq_rne", "aiter_quant_q_eq_ties_away", "aiter_quant_s_eq", "error")


def run_shape(kernels, s, device, args) -> dict:
    row = {"kind": s.kind, "m": s.m, "n": s.n, "k": s.k, "seed": s.seed}
    sms = compute_units(device) if device.type == "cuda" else 1
    cfg = aiter_triton.config(s.m, s.n, s.k, sms)
    row.update(block_m=cfg["BLOCK_SIZE_M"], block_n=cfg["BLOCK_SIZE_N"], num_ksplit=cfg["NUM_KSPLIT"])
    data = generate_input(s.m, s.n, s.k, s.seed, device=device)
    a, _, _, b_shuffle, b_scale_sh = data
    out = torch.full((s.m, s.n), float("nan"), dtype=torch.bfloat16, device=device)
    result = aiter_triton.gemm(kernels, data, out=out)
    if device.type == "cuda":
        torch.cuda.synchronize()
    ok, msg = check_implementation(data, result, "rne")
    row.update(ok=int(ok), message=msg)

    quantize = quantize_mxfp4_shuffled if s.m >= 32 else quantize_mxfp4
    a_q, a_scale = quantize(a, "rne", backend="triton")
    for name, fn in (
        ("e2e", lambda: aiter_triton.gemm(kernels, data)),
        ("gemm", lambda: aiter_triton.gemm_prequantized(kernels, a_q, a_scale, b_shuffle, b_scale_sh)),
    ):
        if device.type != "cuda":  # a CPU dry run checks correctness only
            continue
        t = time_contest(fn, iters=args.iters, warmup=args.warmup)  # the project's contest-style timing
        row.update({f"{name}_{stat}": round(t[stat], 3) for stat in ("median_us", "p20_us", "p80_us", "mean_us")})

    q, sc = aiter_triton.aiter_quantize(kernels, a)
    rq, rs = quantize_mxfp4(a, "rne")
    tq, _ = quantize_mxfp4(a, "ties_away")
    row.update(aiter_quant_q_eq_rne=round((q == rq).double().mean().item(), 6),
               aiter_quant_q_eq_ties_away=round((q == tq).double().mean().item(), 6),
               aiter_quant_s_eq=round((sc == rs).double().mean().item(), 6))
    return row


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", type=Path, required=True, help="output directory")
    p.add_argument("--site", help="directory holding aiter/ (default: the installed amd-aiter distribution)")
    p.add_argument("--iters", type=int, default=100)
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--device", default="cuda", help="cuda, or cpu for a dry run under TRITON_INTERPRET=1")
    p.add_argument("--shape", action="append", metavar="MxNxK:SEED",
                   help="shapes to run instead of the contest's test and benchmark shapes (repeatable)")
    args = p.parse_args(argv)
    device = torch.device(args.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        print("no CUDA device", file=sys.stderr)
        return 2
    try:
        kernels = aiter_triton.load(args.site)
    except RuntimeError as e:
        print(f"cannot load aiter's Triton files: {e}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    if args.shape:
        todo = []
        for spec in args.shape:
            mnk, seed = spec.split(":")
            todo.append(shapes.Shape("given", *shapes.parse_mnk(mnk, "--shape"), int(seed)))
    else:
        todo = shapes.load("test") + shapes.load("benchmark")
    rows = []
    for s in todo:
        try:
            row = run_shape(kernels, s, device, args)
        except Exception as e:  # one shape's failure must not hide the others
            row = {"kind": s.kind, "m": s.m, "n": s.n, "k": s.k, "seed": s.seed, "ok": 0,
                   "error": "".join(traceback.format_exception_only(type(e), e)).strip()}
            traceback.print_exc()
        rows.append(row)
        print(" ".join(f"{f}={row.get(f)}" for f in FIELDS if row.get(f) not in (None, "")), flush=True)
    write_csv_atomic(args.out / "aiter_triton.csv", FIELDS, rows)
    failed = sum(1 for r in rows if not r.get("ok"))
    summary = {
        "command": " ".join([sys.executable] + sys.argv),
        **run_metadata(None if device.type == "cuda" else "cpu (dry run)"), "python": platform.python_version(),
        "cuda": torch.version.cuda, "aiter": kernels.version, "aiter_triton_root": str(kernels.root),
        "iters": args.iters, "warmup": args.warmup, "shapes": len(rows), "failed": failed,
    }
    write_text_atomic(args.out / "summary.json", json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary, indent=2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
