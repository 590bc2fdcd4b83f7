"""`python -m mxlib check`: custom_kernel against the reference, as a table naming the backend and path
that ran each shape.

custom_kernel quantizes A round-half-even, the contest checker's rule, so that is the rule checked.
On a GPU the default is the dispatcher's own choice on the contest's shapes. On the CPU the default
is the Triton kernels through Triton's interpreter (the reference checked against itself would prove
nothing) on the harness's small shapes, which the interpreter runs in seconds; `--kind` asks for the
contest's shapes there too (minutes each). Without Triton installed the CPU falls back to the torch
backend and says that the kernels were not checked.
"""
from __future__ import annotations

import os
import sys
import time

import torch

from ..runtime.backends import BACKENDS, ENV_BACKEND, backends
from ..runtime.paths import PATHS
from ..spec import shapes as shapes_mod
from ..spec.reference import check_device, check_implementation, generate_input
from .harness import SMALL_SHAPES


def add_arguments(p) -> None:
    p.add_argument("--kind", choices=shapes_mod.KINDS, action="append",
                   help="contest shapes (repeatable; default: test and benchmark on a GPU, small shapes on the CPU)")
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu",
                   help="cpu or a CUDA/ROCm device such as cuda or cuda:1 (default: %(default)s)")
    p.add_argument("--backend", choices=BACKENDS,
                   help="default: the dispatcher's choice on a GPU, triton (the interpreter) on the CPU")
    p.add_argument("--path", choices=tuple(PATHS), help="default: the dispatcher's choice per shape")


HEADER = (f"{'kind':<10} {'M':>5} {'N':>5} {'K':>5} {'seed':>5}  {'backend':<7} {'path':<6}  {'ok':<4} "
          f"{'seconds':>7}  message")


def checked(rows, device, backend: str | None = None, path: str | None = None, timed: bool = True):
    """For each (kind, m, n, k, seed) of `rows`, one call of custom_kernel on fresh inputs checked against the
    reference (round-half-even, the checker's rule): yields (the table's line under `HEADER`, passed). The line
    names the backend and path the dispatcher ran, and the seconds the shape took (timed False: "-", for a page
    whose text must not change from run to run)."""
    from ..runtime.dispatch import custom_kernel, plan

    for kind, m, n, k, seed in rows:
        t0 = time.perf_counter()
        ran, ran_path, _ = plan(m, n, k, device, backend, path)
        data = generate_input(m, n, k, seed, device=device)
        ok, msg = check_implementation(data, custom_kernel(data, backend=backend, path=path), "rne")
        yield (f"{kind:<10} {m:>5} {n:>5} {k:>5} {seed:>5}  {ran:<7} {ran_path or '-':<6}  {'yes' if ok else 'NO':<4} "
               f"{f'{time.perf_counter() - t0:.2f}' if timed else '-':>7}  {msg}"), ok


def run(args) -> int:
    """The command. On the CPU it sets TRITON_INTERPRET=1 when unset, for the kernels it imports; it unsets it
    again on the way out unless this call imported them under it (they then need it to stay)."""
    set_here = "TRITON_INTERPRET" not in os.environ
    imported_before = "mxlib.kernels.common" in sys.modules
    try:
        return _run(args)
    finally:
        if set_here and (imported_before or "mxlib.kernels.common" not in sys.modules):
            os.environ.pop("TRITON_INTERPRET", None)


def _run(args) -> int:
    device = check_device(args.device, "--device")
    from ..runtime.dispatch import env_backend_for

    backend = args.backend
    # fills in --backend where it applies, as for custom_kernel
    env_backend = env_backend_for(args.path, os.environ.get(ENV_BACKEND) or None)
    note = ""
    if device.type == "cpu" and (backend or env_backend) in (None, "triton"):
        os.environ.setdefault("TRITON_INTERPRET", "1")  # before the kernels import triton
        if backend is None and env_backend is None:  # this command's own default on the CPU
            triton_ok, reason = backends()["triton"]
            backend = "triton" if triton_ok else "torch"
            if not triton_ok:
                note = (f"FAILED: the kernels were not checked ({reason}): this compared the reference with "
                        "itself (--backend torch asks for that)")
    if args.kind:
        rows = [(s.kind, s.m, s.n, s.k, s.seed) for kind in args.kind for s in shapes_mod.load(kind)]
    elif device.type == "cpu":
        rows = [("small", m, n, k, seed) for m, n, k, seed in SMALL_SHAPES]
    else:
        rows = [(s.kind, s.m, s.n, s.k, s.seed) for kind in ("test", "benchmark") for s in shapes_mod.load(kind)]
    failed = 0
    for i, (line, ok) in enumerate(checked(rows, device, backend, args.path)):
        if i == 0:  # after the first row's plan: an argument error comes alone, not under an empty table
            print(HEADER)
        failed += not ok
        print(line)
    print(f"{len(rows) - failed} passed, {failed} failed (A quantized round-half-even, the checker's rule)")
    if note:
        print(note)
    return 1 if failed or note else 0
