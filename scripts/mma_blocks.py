"""What sets the two-launch families' time from one block of calls to the next (KERNEL_NOTES.md, "The
between-block effect").

In every bench run since v4, mxlib's dispatcher and the forced path ran the same config of the ring families
(a quantizer launch, then the GEMM as its programmatic dependent) and differed by 0.8-1.1 us on each long
shape, either way round, each block of calls tight (p20-p80 0.22 us at the median); the one-launch shapes
differed by under 0.05 us. This script times blocks of contest-style calls (L2 flushed, events around one call)
of one config, changes between blocks what its mode names, and records each block's buffer addresses, seed
and launches with its times; the first suspects were the addresses a call's two buffers get from torch's
caching allocator (`a_q`, A quantized by the first launch and allocated inside the launcher, and `c`):

    python3 scripts/mma_blocks.py --mode natural --out OUT.csv [--shapes 256x3072x1536,...] [--blocks 16]

Modes:
  same     one set of inputs, nothing changed between blocks: is the time stable when nothing moves?
  natural  fresh inputs each block and a dummy allocation of a random size held through it, the allocator
           choosing the addresses (recorded): does the time split in two, and along which address?
  reseed   as natural, but every block's fresh inputs are drawn from the shape's own seed: the allocation
           history moves, the values do not
  refill   one set of input tensors, each block's values (natural's seeds, made before the first block)
           copied into them: the values change, no address and no allocation does
  dummy    one set of inputs, only natural's dummy allocation before each block
  launches one set of inputs, `--launches` empty one-program kernels before each block: nothing but the
           count of launches moves
  place    one set of inputs; a_q and c placed at chosen offsets from a 2 MiB boundary in two arenas of
           their own (`OFFSETS`; a_q's one allocation redirected there, c passed as `out`), every pair
           timed `--repeat` times: which placement is slow?
Shapes: the benchmark shapes whose H200 table row is a ring config (default), and one-launch rows as a
control. One CSV row per block (addresses, offsets within 2 MiB, mean, median, p20, p80, device, versions,
date); the summary prints each shape's blocks by time and where the largest gap between them lies. With
`--kernels` each block runs under torch's profiler and its row fills KERNEL_COLUMNS (empty without it, so
runs with and without share one CSV) with their medians over its calls (each kernel's start and end as the GPU
recorded them): which part of a call a slow block loses its
time in. With `--graph` (not in place mode) each block's call is captured once into a CUDA graph and every
timed call replays it: the quantizer and the GEMM reach the GPU in one graph launch instead of two kernel
launches. The two combine: the profiler records a graph's kernels too, and the flush still runs eagerly
before each replay, so each call is read from its records as without `--graph`.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import torch  # noqa: E402

from mxlib.kernels import gemm_mma_sm90 as G  # noqa: E402
from mxlib.tools.stats import median, two_groups  # noqa: E402
from mxlib.tools import mma_scratch  # noqa: E402

MODES = ("same", "natural", "reseed", "refill", "dummy", "launches", "place")
PAGE = 2 << 20  # the GPU's large page, the unit torch's allocator maps
OFFSETS = (0, 512, 4 << 10, 64 << 10, 512 << 10, 1 << 20)  # from a 2 MiB boundary; plus one that straddles it
KERNEL_PREFIX = "mxfp4_"  # the CUDA path's kernels: the quantizer's and the GEMM's names start so
KERNEL_COLUMNS = (  # --kernels: per block, the median over its calls (us, from the GPU's kernel records)
    ("before_first", "from the end of the kernel before the call (the flush's sleep) to the call's first start"),
    ("first", "the call's first kernel (two launches: the quantizer)"),
    ("first_to_last", "from the first kernel's start to the last one's (the GEMM's) start"),
    ("last", "the call's last kernel"),
    ("before_to_end", "from the end of the kernel before the call to the end of its last"),
)
DEVICE = "cuda"  # where the inputs and arenas live (the tests run main on the CPU with a stand-in GEMM)


@contextlib.contextmanager
def uint8_allocations(seen: list, arena: torch.Tensor | None = None, offset: int = 0):
    """Inside the with-statement, every `torch.empty(..., dtype=torch.uint8)` (in the launcher: a_q, its only one) is
    recorded in `seen` as (data_ptr, bytes) and, with `arena`, served as the view arena[offset:offset + numel]
    instead of a fresh allocation. torch.empty is restored on the way out, whatever happened inside."""
    real = torch.empty

    def empty(*size, dtype=None, **kwargs):
        if dtype is not torch.uint8:
            return real(*size, dtype=dtype, **kwargs)
        shape = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list, torch.Size)) else size
        numel = math.prod(shape)
        if arena is None:
            t = real(*size, dtype=dtype, **kwargs)
        else:
            if offset < 0 or offset + numel > arena.numel():
                raise ValueError(f"placement offset {offset} + {numel} bytes does not fit the arena of "
                                 f"{arena.numel()} bytes")
            t = arena[offset:offset + numel].view(shape)
        seen.append((t.data_ptr(), numel))
        return t

    torch.empty = empty
    try:
        yield
    finally:
        torch.empty = real


def aligned_offset(ptr: int, offset: int) -> int:
    """The index into a buffer at address `ptr` of the byte `offset` bytes past its first 2 MiB boundary."""
    return (-ptr) % PAGE + offset


def placements(aq_bytes: int, c_bytes: int) -> list[tuple[int | None, int]]:
    """(a_q offset, c offset) pairs from a 2 MiB boundary: `OFFSETS` for each, plus one straddling the next
    boundary (half of the buffer on each side), every combination; a_q's offset None (left to the allocator)
    when the config allocates no a_q (`aq_bytes` 0: one launch)."""
    def offs(nbytes):
        return list(OFFSETS) + [PAGE - (nbytes // 2) // 512 * 512]
    return [(a, c) for a in (offs(aq_bytes) if aq_bytes else [None]) for c in offs(c_bytes)]


def call_kernels(events: list[tuple[str, float, float]]) -> list[dict]:
    """The calls in a list of (name, start, duration) kernel records sorted by start: each run of consecutive
    kernels named KERNEL_PREFIX... that has a kernel before it is one call, and gives KERNEL_COLUMNS' values."""
    calls, i = [], 0
    while i < len(events):
        if not events[i][0].startswith(KERNEL_PREFIX) or i == 0:
            i += 1
            continue
        j = i
        while j + 1 < len(events) and events[j + 1][0].startswith(KERNEL_PREFIX):
            j += 1
        (_, p0, pd), (_, f0, fd), (_, l0, ld) = events[i - 1], events[i], events[j]
        calls.append({"before_first": f0 - (p0 + pd), "first": fd, "first_to_last": l0 - f0, "last": ld,
                      "before_to_end": l0 + ld - (p0 + pd)})
        i = j + 1
    return calls


def profiled(time_block):
    """(`time_block()`'s result, its calls' kernel records as `call_kernels` reads them), from torch's profiler
    (CUPTI: every kernel's start and end on the GPU, however it was launched)."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        result = time_block()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "trace.json"
        prof.export_chrome_trace(str(path))
        trace = json.loads(path.read_text())["traceEvents"]
    events = [(e["name"], float(e["ts"]), float(e["dur"])) for e in trace if e.get("cat") == "kernel"]
    return result, sorted(events, key=lambda e: e[1])


def graph_call(call):
    """A call that replays a CUDA graph of one `call()` (captured after one eager call, which builds and loads
    the kernels) and returns the graph's output."""
    call()
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        c = call()

    def replay():
        graph.replay()
        return c
    return replay


def summary(rows: list[dict]) -> str:
    """Per shape and mode: each block's time and addresses, fastest first, and the split (two_groups)."""
    lines = []
    keys = sorted({(r["m"], r["n"], r["k"], r["mode"]) for r in rows})
    for m, n, k, mode in keys:
        rs = sorted((r for r in rows if (r["m"], r["n"], r["k"], r["mode"]) == (m, n, k, mode)),
                    key=lambda r: r["mean_us"])
        cut = two_groups([r["mean_us"] for r in rs])
        verdict = "one group" if cut is None else f"two groups, split at {cut:.2f} us"
        lines.append(f"{m}x{n}x{k} {mode} ({rs[0]['family']}): {len(rs)} blocks, {verdict}")
        for r in rs:
            kernels = "".join(f" {name} {r[f'{name}_us']:.2f}" for name, _ in KERNEL_COLUMNS if r.get(f"{name}_us", "") != "")
            lines.append(f"   {r['mean_us']:7.2f} (p20 {r['p20_us']:.2f} p80 {r['p80_us']:.2f})  a_q {r['aq_ptr']:#x} "
                         f"[{r['aq_in_page']:>7}]  c {r['c_ptr']:#x} [{r['c_in_page']:>7}]"
                         + (f"\n           kernels, medians us:{kernels}" if kernels else ""))
    return "\n".join(lines)


def _mnk(text: str) -> tuple[int, int, int]:
    from mxlib.spec.shapes import parse_mnk

    try:
        return parse_mnk(text, "--shapes")
    except ValueError as exc:
        raise SystemExit(f"mma_blocks: {exc}") from None


def _shapes(spec: str | None, table) -> list:
    from mxlib.spec import shapes as shapes_mod

    wanted = None if spec is None else {_mnk(s) for s in spec.split(",")}
    out = []
    for s in shapes_mod.load("benchmark"):
        if (wanted is None or s.mnk in wanted) and any(p == "mma_sm90" for p, _ in table.get(s.mnk, [])):
            cfg = next(G.Config(**f) for p, f in table[s.mnk] if p == "mma_sm90")
            if wanted is not None or G.mma_launches(cfg) == 2:
                out.append((s, cfg))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--mode", choices=MODES, required=True)
    p.add_argument("--out", type=Path, required=True, help="CSV to append one row per block to")
    p.add_argument("--shapes", help="MxNxK,... benchmark shapes (default: those whose H200 row is a ring config)")
    p.add_argument("--blocks", type=int, default=16, help="blocks per shape (every mode but place)")
    p.add_argument("--repeat", type=int, default=2, help="blocks per placement (place)")
    p.add_argument("--iters", type=int, default=30, help="timed calls per block")
    p.add_argument("--launches", type=int, default=1, help="empty kernels launched before each block (launches)")
    p.add_argument("--seed", type=int, default=1, help="the random dummy sizes (natural, reseed, dummy)")
    p.add_argument("--kernels", action="store_true",
                   help="time each block under torch's profiler and add, per block, the medians of KERNEL_COLUMNS "
                        "(where in the call a slow block's time goes; the profiler's own cost is in every time)")
    p.add_argument("--graph", action="store_true",
                   help="time replays of a CUDA graph holding one call (captured per block) instead of the call")
    args = p.parse_args(argv)
    if args.graph and args.mode == "place":
        raise SystemExit("mma_blocks: --graph replays one captured call, so it cannot place a_q per call (place)")
    if args.launches < 0:
        raise SystemExit(f"mma_blocks: --launches must be >= 0, got {args.launches}")
    for name in ("blocks", "repeat", "iters"):
        if getattr(args, name) < 1:
            raise SystemExit(f"mma_blocks: --{name} must be >= 1, got {getattr(args, name)}")
    if DEVICE == "cuda" and not torch.cuda.is_available():
        raise SystemExit("mma_blocks: needs a CUDA GPU (it times kernels)")

    from mxlib.runtime.dispatch import load_table
    from mxlib.spec.reference import generate_input
    from mxlib.tools.provenance import run_metadata
    from mxlib.tools.providers import config_text
    from mxlib.tools.baselines.empty import launch_empty
    from mxlib.tools.timing import L2Flush, time_contest

    flush = L2Flush()
    meta = run_metadata()
    rng = random.Random(args.seed)
    rows = []
    for s, cfg in _shapes(args.shapes, load_table("h200")):
        m, n, k = s.mnk
        family = "one launch" if G.mma_launches(cfg) == 1 else "two launches"
        data = generate_input(m, n, k, s.seed, device=DEVICE)
        c_bytes = m * n * 2
        seen: list = []
        with uint8_allocations(seen):
            G.gemm(data[0], data[3], data[4], config=cfg)  # build and load; learn a_q's size (none: one launch)
        aq_bytes = seen[0][1] if seen else 0
        plans = ([(None, None)] * args.blocks if args.mode != "place" else
                 [pl for pl in placements(aq_bytes, c_bytes) for _ in range(args.repeat)])
        aq_arena = torch.empty(2 * PAGE + aq_bytes, dtype=torch.uint8, device=DEVICE) if args.mode == "place" else None
        c_arena = torch.empty(2 * PAGE + c_bytes, dtype=torch.uint8, device=DEVICE) if args.mode == "place" else None
        fresh_seeds = [s.seed if args.mode == "reseed" else s.seed + 1000 * (block + 1)
                       for block in range(len(plans))]
        values = ([generate_input(m, n, k, seed, device=DEVICE) for seed in fresh_seeds]
                  if args.mode == "refill" else None)
        for block, (aq_off, c_off) in enumerate(plans):
            dummy = None
            seed = s.seed
            if args.mode in ("natural", "reseed"):
                seed = fresh_seeds[block]
                data = generate_input(m, n, k, seed, device=DEVICE)
            elif args.mode == "refill":
                seed = fresh_seeds[block]
                for dst, src in zip(data, values[block]):
                    dst.copy_(src)
            if args.mode in ("natural", "reseed", "dummy"):
                dummy = torch.empty(rng.randrange(512, 4 << 20, 512), dtype=torch.int8, device=DEVICE)
            between = args.launches if args.mode == "launches" else 0
            for _ in range(between):
                launch_empty()
            a, _, _, bs, ss = data
            out = aq_index = None
            if c_off is not None:
                c_index = aligned_offset(c_arena.data_ptr(), c_off)
                out = c_arena[c_index:c_index + c_bytes].view(torch.bfloat16).view(m, n)
            if aq_off is not None:
                aq_index = aligned_offset(aq_arena.data_ptr(), aq_off)
            seen.clear()
            got = []

            def call(a=a, bs=bs, ss=ss, out=out, aq_index=aq_index):
                with uint8_allocations(seen, aq_arena if aq_index is not None else None, aq_index or 0):
                    c = G.gemm(a, bs, ss, config=cfg, out=out)
                got.append(c.data_ptr())
                return c

            if args.graph:
                call = graph_call(call)
                del got[:-1], seen[:-1]  # the addresses the graph replays, not its eager warm-up's

            def time_block(call=call):
                return time_contest(call, iters=args.iters, warmup=2, flush=flush)

            kernels = {f"{name}_us": "" for name, _ in KERNEL_COLUMNS}  # one schema with and without --kernels
            if args.kernels:
                t, events = profiled(time_block)
                calls = call_kernels(events)[2:]  # the two warm-up calls left out
                if len(calls) != args.iters:
                    raise SystemExit(f"mma_blocks: --kernels found {len(calls)} timed calls in the profile, "
                                     f"expected {args.iters}")
                kernels = {f"{name}_us": round(median(c[name] for c in calls), 3) for name, _ in KERNEL_COLUMNS}
            else:
                t = time_block()
            aq_ptr = seen[0][0] if seen else 0
            rows.append({"mode": args.mode + ("+graph" if args.graph else ""), "m": m, "n": n, "k": k,
                         "config": config_text(cfg), "family": family,
                         "block": block, "seed": seed, "launches_between": between, "calls": args.iters,
                         "dummy_bytes": 0 if dummy is None else dummy.numel(), "aq_ptr": aq_ptr, "c_ptr": got[0],
                         "a_ptr": a.data_ptr(),
                         "b_ptr": bs.data_ptr(), "s_ptr": ss.data_ptr(), "aq_in_page": aq_ptr % PAGE,
                         "c_in_page": got[0] % PAGE, "same_addresses": int(len(set(seen)) <= 1 and len(set(got)) == 1),
                         "aq_offset": "" if aq_off is None else aq_off, "c_offset": "" if c_off is None else c_off,
                         "mean_us": round(t["mean_us"], 3), "median_us": round(t["median_us"], 3),
                         "p20_us": round(t["p20_us"], 3), "p80_us": round(t["p80_us"], 3), **kernels, **meta})
            del dummy
            print(f"{m}x{n}x{k} {args.mode} block {block}: mean {t['mean_us']:.2f} us, a_q {aq_ptr:#x}, "
                  f"c {got[0]:#x}", flush=True)
    if not rows:
        raise SystemExit(f"mma_blocks: no shape to time (--shapes {args.shapes!r}: benchmark shapes with an "
                         "mma_sm90 row in the H200 table)")
    mma_scratch.append_rows(rows, args.out)
    print(summary(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
