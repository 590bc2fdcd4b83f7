"""Host time per call: how long the CPU spends inside each layer of one GEMM call, on a GPU.

The contest's timing hides host work (eval.py's flush keeps the GPU busy while the host enqueues the call;
`mxlib.tools.timing` does the same with a calibrated sleep), so no bench number shows it. A reader who calls
`custom_kernel` eagerly, outside a CUDA graph, pays it on every call. This script measures it, layer by
layer, for each benchmark shape: the GPU is idle before every call (a synchronize, outside the timed span),
so what `perf_counter` sees is the host's own work, never a queue that is full.

    python3 scripts/host_time.py --out data/results/h200/host_time.csv [--calls 300] [--profile 4x2880x512,...]

Rows (one per shape and layer, in the order of `mxlib.tools.host_costs.LAYERS`; median, mean, p20, p80 in us
over `--calls` calls after 20 untimed ones):
  plan            `dispatch.plan` on the shape (backend, path and config chosen, nothing launched)
  unpack          `reference.unpack_data` on the contest's input tuple
  path_gemm       the planned path's `gemm` called directly with the planned config (the path's own checks,
                  its allocations and launches)
  custom_kernel   `mxlib.custom_kernel(data)`: everything a contest call does on the host
  torch_mm        `torch.mm` of bf16 A and B^T (cuBLAS): the host cost of one library GEMM, for scale
  empty_launch    one Triton launch of an empty kernel
  graph_replay    one replay of a CUDA graph holding one `custom_kernel(data)` call (`timing.capture_graph`):
                  what a caller who captures the call once pays the host for each call after
With `--profile`, each layer on the shapes named is also run under cProfile (its own calls, after every timed
row) and the functions with the most time of their own are printed, then those with the most time including
their callees: where the host's time goes. Each row also carries the GPU's time of the bench's flush as
`mxlib.tools.timing.L2Flush` writes it (4x the L2, no sleep): what a flush of that size alone hides.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import torch  # noqa: E402
import triton  # noqa: E402

import mxlib  # noqa: E402
from mxlib.runtime import dispatch  # noqa: E402
from mxlib.runtime.paths import path_module  # noqa: E402
from mxlib.spec import shapes as shapes_mod  # noqa: E402
from mxlib.spec.reference import generate_input, unpack_data  # noqa: E402
from mxlib.tools.files import write_csv_atomic  # noqa: E402
from mxlib.tools.host_costs import LAYERS  # noqa: E402
from mxlib.tools.provenance import run_metadata  # noqa: E402
from mxlib.tools.stats import summarize  # noqa: E402
from mxlib.tools.timing import L2Flush, capture_graph  # noqa: E402

WARMUP = 20


@triton.jit
def _empty(x):
    pass


def host_us(fn, calls: int) -> list[float]:
    """Host microseconds of `calls` calls of `fn`, the GPU idle before each (synchronized outside the span)."""
    for _ in range(WARMUP):
        fn()
    torch.cuda.synchronize()
    out = []
    for _ in range(calls):
        torch.cuda.synchronize()
        t0 = time.perf_counter_ns()
        fn()
        out.append((time.perf_counter_ns() - t0) / 1e3)
    torch.cuda.synchronize()
    return out


def profile(fn, calls: int, top: int = 30) -> str:
    """cProfile's tables of `calls` calls of `fn` (the GPU idle before each): its `top` functions by own time,
    then by time including their callees."""
    prof = cProfile.Profile()
    for _ in range(calls):
        torch.cuda.synchronize()
        prof.enable()
        fn()
        prof.disable()
    torch.cuda.synchronize()
    text = io.StringIO()
    for order in ("tottime", "cumulative"):
        pstats.Stats(prof, stream=text).sort_stats(order).print_stats(top)
    return text.getvalue()


def flush_gpu_us(repeats: int = 20) -> float:
    """The GPU's median time of one L2 flush write (no head-start sleep)."""
    flush = L2Flush(head_start_us=0)
    times = []
    for _ in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        flush()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) * 1e3)
    return sorted(times)[len(times) // 2]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, type=Path)
    p.add_argument("--calls", type=int, default=300)
    p.add_argument("--profile", default="", help="shapes MxNxK, comma-separated, whose layers are also profiled")
    args = p.parse_args()
    if not torch.cuda.is_available():
        sys.exit("host_time.py needs a CUDA GPU")
    meta = {**run_metadata(), "command": " ".join(["python3", *sys.argv])}
    flush_us = flush_gpu_us()
    dummy = torch.empty(1, device="cuda")
    rows, profiles = [], []
    for s in shapes_mod.load("benchmark"):
        m, n, k = s.mnk
        data = generate_input(m, n, k, s.seed, device="cuda", rounding="rne")
        a, b, _, b_shuffle, b_scale_sh, _ = unpack_data(data)
        backend, path, config = dispatch.plan(m, n, k, a.device, a_dtype=a.dtype)
        calls = {
            "plan": lambda: dispatch.plan(m, n, k, a.device, a_dtype=a.dtype),
            "unpack": lambda: unpack_data(data),
            "custom_kernel": lambda: mxlib.custom_kernel(data),
            "torch_mm": lambda: torch.mm(a, b.t()),
            "empty_launch": lambda: _empty[(1,)](dummy),
            "graph_replay": capture_graph(mxlib.custom_kernel, (data,))[0].replay,
        }
        if backend == "triton":
            gemm = path_module(path).gemm
            calls["path_gemm"] = lambda: gemm(a, b_shuffle, b_scale_sh, config=config, rounding="rne")
        for layer in (name for name in LAYERS if name in calls):  # the report's names and order
            fn = calls[layer]
            st = summarize(host_us(fn, args.calls))
            rows.append({"m": m, "n": n, "k": k, "layer": layer, "backend": backend, "path": path or "",
                         "median_us": f"{st['median_us']:.2f}", "mean_us": f"{st['mean_us']:.2f}",
                         "p20_us": f"{st['p20_us']:.2f}", "p80_us": f"{st['p80_us']:.2f}", "calls": args.calls,
                         "flush_gpu_us": f"{flush_us:.1f}", **meta})
            print(f"{m:>4}x{n}x{k:<5} {layer:<14} {backend}/{path or '-':<9} median {st['median_us']:7.2f} us  "
                  f"mean {st['mean_us']:7.2f}  p20-p80 {st['p20_us']:.2f}-{st['p80_us']:.2f}", flush=True)
            if f"{m}x{n}x{k}" in args.profile.split(","):
                profiles.append((f"{layer} at {m}x{n}x{k}", fn))
    # After every timed row: code once profiled stays slower after the profiler stops (an H100 host, Python
    # 3.12: plan 33.8 us at the profiled first shape, 63-67 at the later ones, 32-35 at all six unprofiled;
    # data/results/h100/host_micro_e833207/).
    for what, fn in profiles:
        print(f"--- profile of {what}, {args.calls} calls\n{profile(fn, args.calls)}", flush=True)
    write_csv_atomic(args.out, list(rows[0]), rows)  # an interrupted run leaves no half-written CSV
    print(f"the L2 flush (4x the L2, no sleep) takes {flush_us:.1f} us of GPU time; wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
