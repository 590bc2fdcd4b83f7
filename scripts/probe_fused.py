"""Where the fused kernel's time goes on a GPU, in one call (KERNEL_NOTES.md, "the probe").

    python3 scripts/probe_fused.py --out DIR [--kinds benchmark,test,extra] [--iters 30]
    python3 scripts/probe_fused.py --run MxNxK [--a-quantized]   # only call the tabled config (for ncu)

For every shape, all checked against the reference where they compute C, contest-style and graph timed:

1. `touch` (mxlib.tools.baselines.touch): one launch that reads every input byte and writes C, over a few
   grid sizes; the fastest is the single-launch memory floor measured, launch and cold caches included.
2. An empty kernel with as many 4-warp programs as the fused launch has (`empty_grid`).
3. The fused path with its table config (`fused`), and its per-program timeline (`timeline` mode of
   `gemm_fused._fused_launch`): warm (the same inputs just ran) and cold (after the L2 flush).
4. The same launch with A's quantization left out (`a_quantized`: A passed as dequant(quantize(A)) in
   bf16), over the table config and nearby tilings: what quantizing A inside the GEMM costs; and
   the same tilings with A quantized once per launch (`a_once`, Config.a_once=1).
5. Nearby tilings of the fused path itself (`fused_cfg`) that the tuning run did not try.

Writes DIR/probe.csv (one row per timed variant) and DIR/timeline.csv (one row per program), and
prints a summary per shape.
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import time
from dataclasses import replace

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import torch  # noqa: E402
import triton  # noqa: E402

from mxlib.tools import probe  # noqa: E402
from mxlib.tools.ceilings import ceilings_text, floor_us, measure_run  # noqa: E402
from mxlib.tools.files import write_csv_atomic  # noqa: E402
from mxlib.tools.providers import check_call, config_text  # noqa: E402
from mxlib.tools.timing import L2Flush, time_contest, time_graph  # noqa: E402
from mxlib.spec import shapes as shapes_mod  # noqa: E402
from mxlib.spec.devices import compute_units  # noqa: E402
from mxlib.tools.baselines import touch  # noqa: E402
from mxlib.runtime.dispatch import select  # noqa: E402
from mxlib.kernels import gemm_fused as F  # noqa: E402
from mxlib.spec.quant import dequantize_mxfp4, quantize_mxfp4  # noqa: E402
from mxlib.spec.reference import check_implementation, generate_input  # noqa: E402

SMS = compute_units()  # 132 on the H200 these runs were made on
TOUCH = [(132, 2048), (264, 2048), (264, 4096), (528, 1024), (528, 2048)]


@triton.jit
def _empty_grid_kernel():
    pass


def variants(m: int, n: int, k: int, table: F.Config) -> list[tuple[str, F.Config]]:
    """(kind, config) pairs tried beside the table config: with A pre-quantized, the table config and
    bigger M tiles / other splits; the plain fused path, split 1 with long K steps for short K."""
    tilings = [table]
    for bm in sorted({table.block_m, min(128, max(16, triton.next_power_of_2(m)))}):
        for bn, warps in ((64, 4), (64, 8), (128, 4), (128, 8), (256, 8)):
            if bm >= 128 and bn >= 256:
                continue
            tiles = triton.cdiv(m, bm) * triton.cdiv(n, bn)
            for target in (SMS, 2 * SMS):
                split = max(1, min(triton.cdiv(k, 128), round(target / tiles)))
                tilings.append(F.Config(bm, bn, 128, split, warps, 3))
    out = [("a_quantized", t) for t in tilings]
    out += [("a_once", replace(t, a_once=1)) for t in tilings if F.grid(m, n, k, t) <= 2 * SMS]
    if k <= 1024:
        for bk in (256, 512):
            if bk <= k:
                out.append(("fused_cfg", replace(table, block_k=bk, split_k=1, num_stages=2)))
                out.append(("fused_cfg", replace(table, block_k=bk, split_k=max(1, k // bk // 2), num_stages=2)))
    seen, uniq = {("fused_cfg", table)}, []
    for v in out:
        if v not in seen:
            seen.add(v)
            uniq.append(v)
    return uniq


def variants_around(m: int, n: int, k: int, table: F.Config) -> list[tuple[str, F.Config]]:
    """--around: the table config's neighbours, each with a_once off and on (where the grid is at most
    two waves): other pipeline depths, half and double split, double warps, BLOCK_K 256 at 2 stages."""
    near = [replace(table, num_stages=2), replace(table, num_stages=4),
            replace(table, split_k=max(1, table.split_k // 2)),
            replace(table, split_k=min(triton.cdiv(k, table.block_k), 2 * table.split_k)),
            replace(table, num_warps=min(8, 2 * table.num_warps))]
    if k >= 1024:
        near.append(replace(table, block_k=256, split_k=max(1, table.split_k // 2), num_stages=2))
    out, seen = [], set()
    for c in [table] + near:
        for once in (0, 1):
            v = replace(c, a_once=once)
            if v not in seen and (once == 0 or F.grid(m, n, k, v) <= 2 * SMS):
                seen.add(v)
                out.append(("a_once" if once else "fused_cfg", v))
    return [v for v in out if v[1] != table] if table.a_once == 0 else \
        [v for v in out if v != ("a_once", table)]


def _compile_worker(jobs):
    torch.cuda.init()
    out = {}
    for (m, n, k, seed), kind, cfg in jobs:
        a, _, _, bs, ss = generate_input(m, n, k, seed, device="cuda")
        try:
            F._fused_launch(a, bs, ss, cfg, "rne", torch.empty((m, n), dtype=torch.bfloat16, device="cuda"),
                            a_quantized=kind == "a_quantized")
            torch.cuda.synchronize()
            out[((m, n, k, seed), kind, cfg)] = None
        except Exception as exc:
            out[((m, n, k, seed), kind, cfg)] = f"{type(exc).__name__}: {str(exc)[:160]}"
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out")
    p.add_argument("--kinds", default="benchmark,test,extra")
    p.add_argument("--iters", type=int, default=30)
    p.add_argument("--run", default="", help="MxNxK: only run the table config 5 times (for a profiler)")
    p.add_argument("--a-quantized", action="store_true")
    p.add_argument("--around", action="store_true",
                   help="try the table config's neighbours (variants_around) instead of the broad set")
    args = p.parse_args()
    if args.run:
        m, n, k = shapes_mod.parse_mnk(args.run, "--run")
        a, _, _, bs, ss = generate_input(m, n, k, 1, device="cuda")
        if args.a_quantized:
            a = dequantize_mxfp4(*quantize_mxfp4(a)).to(torch.bfloat16)
        cfg = select(m, n, k, "cuda", path="fused")[1]
        for _ in range(5):
            F._fused_launch(a, bs, ss, cfg, "rne", torch.empty((m, n), dtype=torch.bfloat16, device="cuda"),
                            a_quantized=args.a_quantized)
        torch.cuda.synchronize()
        return 0

    os.makedirs(args.out, exist_ok=True)
    shapes = [s for kind in args.kinds.split(",") for s in shapes_mod.load(kind)]
    tables = {s.mnk: select(*s.mnk, "cuda", path="fused")[1] for s in shapes}
    pick = variants_around if args.around else variants
    jobs = [((s.m, s.n, s.k, s.seed), kind, cfg) for s in shapes
            for kind, cfg in [("fused", tables[s.mnk])] + pick(*s.mnk, tables[s.mnk])]
    t_start = time.time()
    workers = max(1, (os.cpu_count() or 2) - 1)
    with mp.get_context("spawn").Pool(workers) as pool:
        errs = {}
        for part in pool.map(_compile_worker, [jobs[i::workers] for i in range(workers)]):
            errs.update(part)
    print(f"compiled {len(jobs)} launches in {time.time() - t_start:.0f}s, "
          f"{sum(e is not None for e in errs.values())} failed", flush=True)

    flush = L2Flush()
    ceil, info = measure_run(flush, iters=100)
    print(ceilings_text(ceil), flush=True)
    rows, tl_rows = [], []
    cols = ["kind", "m", "n", "k", "variant", "config", "programs", "ok", "contest_us", "p20_us", "p80_us",
            "graph_us", "floor_us", "empty_us", "message", "device", "torch", "triton", "date"]
    tl_cols = ["m", "n", "k", "state", "program", "smid", "t_start_ns", "t_loop_ns", "t_end_ns",
               "clk_start", "clk_loop", "clk_end", "last", "iters"]

    def write():
        for name, cs, rs in (("probe.csv", cols, rows), ("timeline.csv", tl_cols, tl_rows)):
            write_csv_atomic(os.path.join(args.out, name), cs, ({c: r.get(c, "") for c in cs} for r in rs))

    def timed(base, call, checked_data=None):
        row = dict(base)
        try:
            if checked_data is not None:
                ok, msg = check_call(call, checked_data, base["m"], base["n"])
                row.update(ok=int(ok), message=msg[:120])
                if not ok:
                    return row
            else:
                call()
                row.update(ok="", message="not checked")
            t = time_contest(call, iters=args.iters, warmup=3, flush=flush)
            g = time_graph(call)
            row.update(contest_us=round(t["median_us"], 3), p20_us=round(t["p20_us"], 3),
                       p80_us=round(t["p80_us"], 3), graph_us=round(g["median_us"], 3))
        except Exception as exc:
            row.update(ok=0, message=f"{type(exc).__name__}: {str(exc)[:160]}")
        return row

    timelines_ok = True
    for s in shapes:
        m, n, k = s.mnk
        data = generate_input(m, n, k, s.seed, device="cuda")
        a, _, _, bs, ss = data
        aq = dequantize_mxfp4(*quantize_mxfp4(a)).to(torch.bfloat16)
        cfg0 = tables[s.mnk]
        base = {"kind": s.kind, "m": m, "n": n, "k": k, "floor_us": round(floor_us(m, n, k, ceil), 3),
                "empty_us": round(ceil["empty_us"], 3), **info}
        for g, blk in TOUCH:
            rows.append(timed({**base, "variant": "touch", "config": f"programs={g} block={blk}", "programs": g},
                              lambda g=g, blk=blk: touch.touch(a, bs, ss, programs=g, block=blk)))
        progs = F.grid(m, n, k, cfg0)
        rows.append(timed({**base, "variant": "empty_grid", "config": f"programs={progs} num_warps=4",
                           "programs": progs}, lambda: _empty_grid_kernel[(progs,)](num_warps=4)))

        def fused(cfg, quantized=False):
            def call():
                c = torch.empty((m, n), dtype=torch.bfloat16, device="cuda")
                F._fused_launch(aq if quantized else a, bs, ss, cfg, "rne", c, a_quantized=quantized)
                return c
            return call

        for kind, cfg in [("fused", cfg0)] + pick(m, n, k, cfg0):
            b = {**base, "variant": kind, "config": config_text(cfg), "programs": F.grid(m, n, k, cfg)}
            err = errs.get(((m, n, k, s.seed), kind, cfg))
            rows.append({**b, "ok": 0, "message": err} if err else
                        timed(b, fused(cfg, kind == "a_quantized"), data))
        # Timelines of the table config: warm (right after a call on the same inputs), then cold.
        for state in ("warm", "cold") if timelines_ok else ():
            rec = torch.zeros((progs, 8), dtype=torch.int64, device="cuda")
            c = torch.empty((m, n), dtype=torch.bfloat16, device="cuda")
            F._fused_launch(a, bs, ss, cfg0, "rne", c)
            torch.cuda.synchronize()
            if state == "cold":
                flush()
            try:
                F._fused_launch(a, bs, ss, cfg0, "rne", c, timeline=rec)
                torch.cuda.synchronize()
            except Exception as exc:  # the timeline is a diagnostic: the timings above stand without it
                print(f"timeline failed: {type(exc).__name__}: {str(exc)[:300]}", flush=True)
                timelines_ok = False
                break
            ok, _ = check_implementation(data, c, "rne")
            progs_rows = [{"m": m, "n": n, "k": k, "state": state, "program": i, "smid": x[0],
                           "t_start_ns": x[1], "t_loop_ns": x[2], "t_end_ns": x[3], "clk_start": x[4],
                           "clk_loop": x[5], "clk_end": x[6], "last": x[7] % 2, "iters": x[7] // 2}
                          for i, x in enumerate(rec.cpu().tolist())]
            tl_rows += progs_rows
            summ = probe.timeline_summary(progs_rows)
            print(f"{s} {state} timeline ok={ok}: " + " ".join(f"{kk}={v:.0f}" if isinstance(v, float) else
                                                               f"{kk}={v}" for kk, v in summ.items()), flush=True)
        mine = [r for r in rows if (r["m"], r["n"], r["k"]) == s.mnk]
        best = lambda v: min((r for r in mine if r["variant"] == v and r.get("contest_us")),  # noqa: E731
                             key=lambda r: r["contest_us"], default=None)
        for v in ("touch", "empty_grid", "fused", "a_quantized", "a_once", "fused_cfg"):
            r = best(v)
            if r:
                print(f"  {v:<12} {r['contest_us']:7.2f} us contest {r['graph_us']:7.2f} graph  {r['config']}",
                      flush=True)
        write()
        data = a = bs = ss = aq = None  # free before the next shape's inputs
        torch.cuda.empty_cache()
    bad = [r for r in rows if r.get("ok") == 0]
    print(f"{len(rows)} rows, {len(bad)} failed" + "".join(f"\n  BAD {r['m']}x{r['n']}x{r['k']} {r['variant']} "
                                                            f"{r['config']}: {r['message']}" for r in bad[:10]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
