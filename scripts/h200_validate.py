#!/usr/bin/env python
"""GPU validation of mxlib's Triton GEMM paths (issue 3): correctness only, no timing.

  python scripts/h200_validate.py --out data/results/h200/validate

For every path in mxlib.runtime.paths.PATHS, on the 10 contest shapes (mxlib/data/shapes.csv kinds test and
benchmark, the contest's seeds) and on a seeded sweep of random shapes (M 1..512, N 16..8192 in
steps of 16, K 64..8192 in steps of 64): one call per (shape, path), with the output passed as `out=`
filled with NaN (where the path takes `out`) and the caching allocator's free blocks filled with 0xFF
first (so buffers a path allocates itself start as NaN / 255 too), checked with
`check_implementation(data, out, "rne")`. On the contest shapes, for every path and for the
dispatcher's own choice: two calls return different buffers with equal contents, and the custom op
`torch.ops.mxlib.mxfp4_gemm` gives the eager result under torch.compile and when replayed from a
captured CUDA graph with new A.

Writes <out>/validate.csv (one row per check) and <out>/summary.json (command, versions, GPU, date,
counts). Every failure, exceptions included, is a row with ok = 0; the exit status is 1 if any check
failed, 2 if the device is missing.

A dry run of the script itself on the CPU (Triton's interpreter; torch.compile with backend
"aot_eager", no CUDA graph): TRITON_INTERPRET=1 python scripts/h200_validate.py --device cpu
--shapes 4x64x128:1 --random 2 --max-m 8 --max-n 64 --max-k 256 --out /tmp/dry
"""
from __future__ import annotations

import argparse
import csv
import inspect
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
from mxlib.spec import shapes
from mxlib.runtime.ops import mxfp4_gemm  # noqa: E402
from mxlib.runtime.paths import PATHS, path_available, path_module  # noqa: E402
from mxlib.spec.reference import check_implementation, generate_input  # noqa: E402
from mxlib.tools.providers import config_text  # noqa: E402
from mxlib.tools.provenance import run_metadata  # noqa: E402
from mxlib.tools.timing import poison_pools  # noqa: E402

FIELDS = ("check", "kind", "m", "n", "k", "seed", "path", "config", "poison", "ok", "message")


def parse_shape(text: str) -> shapes.Shape:
    dims, _, seed = text.partition(":")
    return shapes.Shape("given", *shapes.parse_mnk(dims, "--shapes"), int(seed or 0))


def takes_out(gemm) -> bool:
    return "out" in inspect.signature(gemm).parameters


def one_call(path: str, data, device):
    """(config, poison, ok, message) of one poisoned call of a path on the dispatcher's config for it."""
    a, _, _, b_shuffle, b_scale_sh = data
    m, k = a.shape
    n = b_shuffle.shape[0]
    mod = path_module(path)
    _, cfg = dispatch.select(m, n, k, device, path)
    poison_pools(device)
    if takes_out(mod.gemm):
        out = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device=device)
        got = mod.gemm(a, b_shuffle, b_scale_sh, config=cfg, rounding="rne", out=out)
        poison = "out+allocator"
        if got is not out:
            return config_text(cfg), poison, False, "gemm(out=...) did not return out"
    else:
        got = mod.gemm(a, b_shuffle, b_scale_sh, config=cfg, rounding="rne")
        poison = "allocator"
    sync(device)
    ok, msg = check_implementation(data, got, "rne")
    return config_text(cfg), poison, ok, msg


def sync(device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def fresh_buffers(path: str, data):
    a, _, _, b_shuffle, b_scale_sh = data
    gemm = path_module(path).gemm
    first = gemm(a, b_shuffle, b_scale_sh)
    second = gemm(a, b_shuffle, b_scale_sh)
    sync(a.device)
    if first.data_ptr() == second.data_ptr():
        return False, "two calls returned the same buffer"
    if not torch.equal(first, second):
        return False, "two calls on the same input differ"
    return True, "two calls: different buffers, equal contents"


def op_compile_graph(op_path: str, compiled, data, new_a):
    """The custom op eagerly, through torch.compile, and replayed from a CUDA graph with A replaced."""
    a, _, _, b_shuffle, b_scale_sh = data
    eager = mxfp4_gemm(a, b_shuffle, b_scale_sh, op_path)
    got = compiled(a, b_shuffle, b_scale_sh)
    sync(a.device)
    if not torch.equal(got, eager):
        return False, f"torch.compile differs from eager in {int((got != eager).sum())} elements"
    if a.device.type != "cuda":
        return True, "torch.compile equals eager (no CUDA graph off the GPU)"
    static = [a.clone(), b_shuffle.clone(), b_scale_sh.clone()]
    mxfp4_gemm(*static, op_path)  # kernels compiled before the capture
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = mxfp4_gemm(*static, op_path)
    static[0].copy_(new_a)
    out.fill_(float("nan"))
    graph.replay()
    want = mxfp4_gemm(new_a, b_shuffle, b_scale_sh, op_path)
    torch.cuda.synchronize()
    if not torch.equal(out, want):
        return False, f"CUDA graph replay differs from eager in {int((out != want).sum())} elements"
    ok, msg = check_implementation((new_a, *data[1:]), out, "rne")
    return ok, "compile and graph replay equal eager; " + msg


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="directory for validate.csv and summary.json")
    p.add_argument("--random", type=int, default=300, help="number of random shapes (default 300)")
    p.add_argument("--seed", type=int, default=20260301, help="seed of the random shape sweep")
    p.add_argument("--device", default="cuda", help="cuda (default), or cpu for a dry run under TRITON_INTERPRET=1")
    p.add_argument("--shapes", default=None,
                   help="MxNxK:seed,... instead of the 10 contest shapes (for a dry run)")
    p.add_argument("--paths", default=None, help="comma-separated paths (default: every path of PATHS that can run here)")
    p.add_argument("--max-m", type=int, default=512)
    p.add_argument("--max-n", type=int, default=8192, help="multiple of 16")
    p.add_argument("--max-k", type=int, default=8192, help="multiple of 64")
    args = p.parse_args(argv)
    device = torch.device(args.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        print("no CUDA/ROCm device: this script validates the GPU kernels (--device cpu for a dry run)", file=sys.stderr)
        return 2
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    if args.paths is None:
        paths = []
        for name in PATHS:
            ok, reason = path_available(name, device)
            paths += [name] if ok else []
            if not ok:
                print(f"skipping path {name}: {reason}", file=sys.stderr)
    else:
        paths = args.paths.split(",")
    unknown = sorted(set(paths) - set(PATHS))
    if unknown:
        p.error(f"--paths: unknown {unknown}; known: {sorted(PATHS)}")
    rows = []
    # rows are written as they come, so a crash (a sticky device error, a killed run) keeps what was checked
    csv_file = open(out_dir / "validate.csv", "w", newline="")
    writer = csv.DictWriter(csv_file, fieldnames=FIELDS)
    writer.writeheader()

    def add(row):
        rows.append(row)
        writer.writerow(row)
        csv_file.flush()
        if not row["ok"]:
            print(f"FAIL {row['check']} {row['kind']} {row['m']}x{row['n']}x{row['k']} seed {row['seed']} "
                  f"{row['path']}: {row['message']}", flush=True)

    def record(check, kind, m, n, k, seed, path, fn, *fargs):
        try:
            res = fn(*fargs)
            config, poison, ok, msg = res if len(res) == 4 else ("", "", *res)
        except Exception as e:  # a failure to record, not to stop on
            config, poison, ok = "", "", False
            where = traceback.extract_tb(e.__traceback__)[-1]
            msg = f"{type(e).__name__}: {e} (at {Path(where.filename).name}:{where.lineno})"
        add(dict(check=check, kind=kind, m=m, n=n, k=k, seed=seed, path=path, config=config,
                 poison=poison, ok=int(bool(ok)), message=" ".join(str(msg).split())[:500]))

    if args.shapes is None:
        contest = shapes.load("test") + shapes.load("benchmark")
    else:
        contest = [parse_shape(text) for text in args.shapes.split(",") if text]
    rng = random.Random(args.seed)
    sweep = [(rng.randint(1, args.max_m), 16 * rng.randint(1, args.max_n // 16), 64 * rng.randint(1, args.max_k // 64),
              rng.randrange(2**31)) for _ in range(args.random)]
    # one compiled function per op path ("" = the dispatcher's choice); dynamic shapes: one compile each
    op_paths = [""] + paths
    backend = "inductor" if device.type == "cuda" else "aot_eager"  # inductor on CPU would need a C++ toolchain
    compiled = {op: torch.compile(lambda a, b, s, op=op: mxfp4_gemm(a, b, s, op), fullgraph=True, dynamic=True,
                                  backend=backend) for op in op_paths}

    for s in contest:
        try:
            data = generate_input(s.m, s.n, s.k, s.seed, device=device)
            gen = torch.Generator(device=device).manual_seed(s.seed + 1)
            new_a = torch.randn((s.m, s.k), dtype=torch.bfloat16, device=device, generator=gen)
        except Exception as e:
            add(dict(check="input", kind=s.kind, m=s.m, n=s.n, k=s.k, seed=s.seed, path="", config="",
                     poison="", ok=0, message=f"{type(e).__name__}: {e}"))
            continue
        for path in paths:
            record("gemm", s.kind, s.m, s.n, s.k, s.seed, path, one_call, path, data, device)
            record("fresh_buffers", s.kind, s.m, s.n, s.k, s.seed, path, fresh_buffers, path, data)
        for op in op_paths:
            record("op_compile_graph", s.kind, s.m, s.n, s.k, s.seed, op or "dispatch", op_compile_graph,
                   op, compiled[op], data, new_a)
        print(f"contest {s.m}x{s.n}x{s.k} done ({time.time() - t0:.0f} s)", flush=True)

    for i, (m, n, k, seed) in enumerate(sweep):
        try:
            data = generate_input(m, n, k, seed, device=device)
        except Exception as e:
            add(dict(check="input", kind="random", m=m, n=n, k=k, seed=seed, path="", config="",
                     poison="", ok=0, message=f"{type(e).__name__}: {e}"))
            continue
        for path in paths:
            record("gemm", "random", m, n, k, seed, path, one_call, path, data, device)
        if (i + 1) % 50 == 0:
            print(f"random {i + 1}/{len(sweep)} ({time.time() - t0:.0f} s)", flush=True)

    csv_file.close()
    failed = [r for r in rows if not r["ok"]]
    per_check = {}
    for r in rows:
        key = f"{r['check']}:{r['path']}"
        c = per_check.setdefault(key, {"passed": 0, "failed": 0})
        c["passed" if r["ok"] else "failed"] += 1
    summary = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        **run_metadata(torch.cuda.get_device_name(device) if device.type == "cuda" else platform.processor() or "cpu"),
        "python": platform.python_version(),
        "cuda": torch.version.cuda,
        "hip": torch.version.hip,
        "paths": paths,
        "contest_shapes": len(contest),
        "random_shapes": len(sweep),
        "random_seed": args.seed,
        "checks": len(rows),
        "failed": len(failed),
        "per_check": per_check,
        "wall_seconds": round(time.time() - t0, 1),
    }
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(f"{len(rows) - len(failed)} of {len(rows)} checks passed in {summary['wall_seconds']} s; "
          f"wrote {out_dir / 'validate.csv'} and {out_dir / 'summary.json'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
