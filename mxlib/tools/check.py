"""`python -m mxlib check`: custom_kernel against the reference on the contest's shapes, as a table."""
from __future__ import annotations

import time

import torch

from ..spec import shapes as shapes_mod
from ..runtime.dispatch import custom_kernel
from ..spec.reference import check_implementation, generate_input


def add_arguments(p) -> None:
    p.add_argument("--kind", choices=shapes_mod.KINDS, action="append",
                   help="which shapes (repeatable; default: test and benchmark)")
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    p.add_argument("--rounding", default="rne", choices=("rne", "ties_away"))


def run(args) -> int:
    kinds = args.kind or ["test", "benchmark"]
    rows = [s for kind in kinds for s in shapes_mod.load(kind)]
    print(f"{'kind':<10} {'M':>5} {'N':>5} {'K':>5} {'seed':>5}  {'ok':<4} {'seconds':>7}  message")
    failed = 0
    for s in rows:
        t0 = time.perf_counter()
        data = generate_input(s.m, s.n, s.k, s.seed, device=args.device, rounding=args.rounding)
        out = custom_kernel(data)
        ok, msg = check_implementation(data, out, args.rounding)
        failed += not ok
        print(f"{s.kind:<10} {s.m:>5} {s.n:>5} {s.k:>5} {s.seed:>5}  {'yes' if ok else 'NO':<4} "
              f"{time.perf_counter() - t0:7.2f}  {msg}")
    print(f"{len(rows) - failed} passed, {failed} failed")
    return 1 if failed else 0
