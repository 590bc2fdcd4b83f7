"""Tune the fused single-launch path (mxlib.kernels.gemm_fused) on a GPU, in one call.

    python3 scripts/tune_fused.py --out DIR [--kinds benchmark,test,extra] [--iters 40] [--workers N]
                                  [--deadline S] [--dump MxNxK]

1. Compiles every candidate config of every shape in parallel worker processes (each runs the config
   once and reports its registers and spills; the main process then finds the kernels in Triton's
   cache). On the H200 machine 297 configs compiled in 27 s with 15 workers.
2. Checks the GPU semantics the CPU tests cannot: A's quantization bit for bit over the whole scale
   range (B = identity), NaN/Inf blocks of A and B giving NaN rows/columns.
3. For each shape and config: one poisoned, checked call (`check_implementation`, rne), then the
   contest-style time (`mxlib.tools.timing.time_contest`: synchronize, L2 flush, events around one call).
   The fastest checked config of each shape is graph-timed too (`mxlib.tools.timing.time_graph`).
4. Writes DIR/fused_tuning.csv (every row) and DIR/h200_fused.csv (the winners: the dispatcher's
   `m,n,k,path,config` columns, the config fields, times and date) after every shape, optionally the
   TTGIR/SASS of one shape's winner (--dump), and prints a short table last.
"""
from __future__ import annotations

import argparse
import dataclasses
import math
import multiprocessing as mp
import os
import subprocess
import sys
import time
from dataclasses import asdict, fields

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import torch  # noqa: E402
import triton  # noqa: E402

from mxlib.tools.ceilings import ceilings_text, floor_us, measure_run  # noqa: E402
from mxlib.tools.files import write_csv_atomic  # noqa: E402
from mxlib.tools.progress import Progress  # noqa: E402
from mxlib.tools.providers import check_call, config_text  # noqa: E402
from mxlib.tools.timing import L2Flush, time_contest, time_graph  # noqa: E402
from mxlib.spec import shapes as shapes_mod  # noqa: E402
from mxlib.spec.devices import compute_units  # noqa: E402
from mxlib.kernels import gemm_fused as F  # noqa: E402
from mxlib.spec.layouts import e8m0_shuffle, shuffle_weight  # noqa: E402
from mxlib.spec.quant import dequantize_mxfp4, quantize_mxfp4  # noqa: E402
from mxlib.spec.reference import generate_input  # noqa: E402

SMS = compute_units()  # 132 on the H200 these runs were made on


def candidates(m: int, n: int, k: int) -> list[F.Config]:
    """The configs tried for one shape: the default, then M tile x (N tile, warps) x K step x split
    counts aimed at one and two waves of 132 SMs, small tiles aimed at four, and stage variants. Tile
    sets that spill registers at three stages (Triton 3.9's sm_90 build, checked offline: BK=256
    nearly always, BM=128 with BN=256) are left out."""
    out = [F.default_config(m, n, k)]
    bms = sorted({min(64, max(16, triton.next_power_of_2(m)))} | ({128} if m >= 128 else set()))
    for bm in bms:
        tiles_nw = [(64, 4 if bm <= 64 else 8), (128, 4 if bm <= 32 else 8)] + ([(256, 8)] if bm <= 64 else [])
        for bn, warps in tiles_nw:
            for bk in [128] + ([64] if k <= 512 else []):
                tiles = triton.cdiv(m, bm) * triton.cdiv(n, bn)
                iters = triton.cdiv(k, bk)
                for target in (SMS, 2 * SMS):
                    split = max(1, min(iters, round(target / tiles)))
                    out.append(F.Config(bm, bn, bk, split, warps, 3))
    # Small tiles, many programs: more loads in flight per SM when one program's loop is latency-bound.
    bm = bms[0]
    tiles = triton.cdiv(m, bm) * triton.cdiv(n, 64)
    out.append(F.Config(bm, 64, 64, max(1, min(triton.cdiv(k, 64), round(4 * SMS / tiles))), 4, 3))
    # Pipeline depth around a middle candidate.
    base = out[len(out) // 2]
    for ns in (2, 4):
        out.append(dataclasses.replace(base, num_stages=ns))
    seen, uniq = set(), []
    for c in out:
        if c not in seen:
            seen.add(c)
            uniq.append(c)
    return uniq


def _compile_worker(jobs):
    """Run each (shape, config) once so that Triton compiles it; returns {job: (error or None,
    registers per thread, spilled registers)}."""
    torch.cuda.init()
    results, inputs = {}, {}
    for (m, n, k, seed), cfg in jobs:
        if (m, n, k) not in inputs:
            a, _, _, bs, ss = generate_input(m, n, k, seed, device="cuda")
            inputs[(m, n, k)] = (a, bs, ss)
        a, bs, ss = inputs[(m, n, k)]
        try:
            c = torch.empty((m, n), dtype=torch.bfloat16, device="cuda")
            handle = F._fused_launch(a, bs, ss, cfg, "rne", c)
            torch.cuda.synchronize()
            results[((m, n, k, seed), cfg)] = (None, getattr(handle, "n_regs", None), getattr(handle, "n_spills", None))
        except Exception as exc:  # a config Triton cannot build is reported, not fatal
            results[((m, n, k, seed), cfg)] = (f"{type(exc).__name__}: {str(exc)[:200]}", None, None)
    return results


def compile_all(jobs, workers: int) -> dict:
    chunks = [jobs[i::workers] for i in range(workers)]
    ctx = mp.get_context("spawn")
    with ctx.Pool(workers) as pool:
        parts = pool.map(_compile_worker, [c for c in chunks if c])
    return {key: err for part in parts for key, err in part.items()}


def gpu_semantics_checks(device="cuda") -> list[tuple[str, bool, str]]:
    """What the interpreter cannot show: bit-exact A values over the whole scale range on the GPU,
    and NaN/Inf blocks of A and B propagating."""
    out = []
    g = torch.Generator().manual_seed(int(time.time()))
    k = 256
    a = torch.randn(48, k, generator=g) * torch.exp2(torch.randint(-120, 120, (48, k // 32), generator=g)
                                                     .float()).repeat_interleave(32, dim=1)
    a = a.to(torch.bfloat16)
    q, s = quantize_mxfp4(torch.eye(k))
    bs, ss = shuffle_weight(q).to(device), e8m0_shuffle(s).to(device)
    for rounding in ("rne", "ties_away"):
        want = dequantize_mxfp4(*quantize_mxfp4(a, rounding)).to(torch.bfloat16)
        got = F.gemm(a.to(device), bs, ss, config=F.Config(16, 64, 128, 2, 4, 3), rounding=rounding).cpu()
        bad = int((got.float() != want.float()).sum())
        out.append((f"A quantization bit-exact ({rounding}, scales 2^-120..2^120)", bad == 0, f"{bad} values differ"))
    m, n = 6, 64
    a = torch.randn(m, k, generator=g)
    a[1, 5], a[3, 70] = float("nan"), float("inf")
    b = torch.randn(n, k, generator=g)
    b[7, 40] = float("nan")
    q, s = quantize_mxfp4(b)
    c = F.gemm(a.to(torch.bfloat16).to(device), shuffle_weight(q).to(device), e8m0_shuffle(s).to(device),
               config=F.Config(16, 64, 128, 2, 4, 3)).cpu().float()
    nan = c.isnan()
    rows_ok = bool(nan[[1, 3]].all() and nan[:, 7].all())
    keep = torch.tensor([0, 2, 4, 5])
    rest_ok = not bool(nan[keep][:, torch.arange(n) != 7].any())
    out.append(("NaN/Inf blocks -> NaN rows of A / columns of B only", rows_ok and rest_ok,
                f"rows {rows_ok}, others finite {rest_ok}"))
    return out


def dump_kernels(out_dir: str, rows: list[dict], shape: str) -> None:
    """TTGIR and SASS (cuobjdump) of one shape's fastest checked config, and a histogram of its SASS
    opcodes, so that the kernel can be read without device time."""
    m, n, k = shapes_mod.parse_mnk(shape, "shape")
    done = [r for r in rows if (r["m"], r["n"], r["k"]) == (m, n, k) and r.get("median_us")]
    if not done:
        return
    r = min(done, key=lambda r: r["median_us"])
    cfg = F.Config(**{f.name: r[f.name] for f in fields(F.Config)})
    a, _, _, bs, ss = generate_input(m, n, k, 1, device="cuda")
    h = F._fused_launch(a, bs, ss, cfg, "rne", torch.empty((m, n), dtype=torch.bfloat16, device="cuda"))
    with open(os.path.join(out_dir, "ttgir.txt"), "w") as f:
        f.write(h.asm["ttgir"])
    cubin = os.path.join(out_dir, "kernel.cubin.tmp")
    with open(cubin, "wb") as f:
        f.write(h.asm["cubin"])
    sass = subprocess.run(["cuobjdump", "-sass", cubin], capture_output=True, text=True).stdout
    os.remove(cubin)
    with open(os.path.join(out_dir, "sass.txt"), "w") as f:
        f.write(sass)
    ops = {}
    for line in sass.splitlines():
        parts = line.split("*/")
        if len(parts) > 1 and line.strip().startswith("/*"):
            tok = parts[1].strip().split()
            if tok and tok[0].startswith("@"):
                tok = tok[1:]
            if tok:
                op = tok[0].split(".")[0]
                ops[op] = ops.get(op, 0) + 1
    top = sorted(ops.items(), key=lambda kv: -kv[1])[:30]
    stats = (f"{shape} {config_text(cfg)} regs={h.n_regs} spills={h.n_spills} shared={h.metadata.shared} "
             f"us={r['median_us']}\n  {sum(ops.values())} SASS instructions: {top}")
    with open(os.path.join(out_dir, "sass_stats.txt"), "w") as f:
        f.write(stats + "\n")
    print(stats, flush=True)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True)
    p.add_argument("--kinds", default="benchmark,test,extra", help="shape kinds, timed in this order")
    p.add_argument("--dump", default="", help="MxNxK: write TTGIR and SASS of that shape's fastest config into --out")
    p.add_argument("--iters", type=int, default=40)
    p.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2) - 1))
    p.add_argument("--deadline", type=float, default=1e9,
                   help="seconds after start past which no further shape is timed (the CSVs keep what was)")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    kinds = args.kinds.split(",")
    shapes = [s for kind in kinds for s in shapes_mod.load(kind)]  # in the order asked: most important first
    jobs = [((s.m, s.n, s.k, s.seed), c) for s in shapes for c in candidates(s.m, s.n, s.k)]
    t0 = time.time()
    compile_errors = compile_all(jobs, args.workers)
    print(f"compiled {len(jobs)} (shape, config) pairs in {time.time() - t0:.0f}s; "
          f"{sum(e[0] is not None for e in compile_errors.values())} failed", flush=True)

    checks = gpu_semantics_checks()
    for name, ok, msg in checks:
        print(f"check {'OK ' if ok else 'BAD'} {name}: {msg}", flush=True)

    flush = L2Flush()
    ceil, info = measure_run(flush, iters=100)
    print(ceilings_text(ceil), flush=True)

    rows, best = [], {}
    cols = ["kind", "m", "n", "k"] + [f.name for f in fields(F.Config)] + [
        "ctas", "regs", "spills", "ok", "median_us", "p20_us", "p80_us", "graph_us", "floor_us", "empty_us", "message",
        "device", "torch", "triton", "date"]
    win_cols = ["m", "n", "k", "path", "config"] + [f.name for f in fields(F.Config)] + [
        "contest_us", "graph_us", "floor_us", "empty_us", "device", "triton", "date"]

    def write_csvs():
        """Both CSVs, rewritten whole after every shape, so a run cut short keeps what it measured."""
        write_csv_atomic(os.path.join(args.out, "fused_tuning.csv"), cols,
                         ({c: r.get(c, "") for c in cols} for r in rows))
        winners = ({**best[s.mnk][1], "path": "fused", "config": config_text(best[s.mnk][0]),
                    "contest_us": best[s.mnk][1]["median_us"]} for s in shapes if s.mnk in best)
        write_csv_atomic(os.path.join(args.out, "h200_fused.csv"), win_cols,
                         ({c: r.get(c, "") for c in win_cols} for r in winners))

    bar = Progress(len(jobs))
    for s in shapes:
        if time.time() - t0 > args.deadline:
            print(f"deadline: {s} and later shapes not timed", flush=True)
            break
        data = generate_input(s.m, s.n, s.k, s.seed, device="cuda")
        a, _, _, bs, ss = data
        floor = floor_us(s.m, s.n, s.k, ceil)
        for cfg in candidates(s.m, s.n, s.k):
            row = {"kind": s.kind, "m": s.m, "n": s.n, "k": s.k, **asdict(cfg), "ctas": F.grid(s.m, s.n, s.k, cfg),
                   "floor_us": round(floor, 3), "empty_us": round(ceil["empty_us"], 3), **info}
            err, row["regs"], row["spills"] = compile_errors.get(((s.m, s.n, s.k, s.seed), cfg), (None, None, None))
            if err:
                row.update(ok=False, message=err)
            else:
                def call(cfg=cfg):
                    return F.gemm(a, bs, ss, config=cfg)
                ok, msg = check_call(call, data, s.m, s.n)
                row.update(ok=ok, message=msg[:160])
                if ok:
                    t = time_contest(call, iters=args.iters, warmup=3, flush=flush)
                    row.update(median_us=round(t["median_us"], 3), p20_us=round(t["p20_us"], 3),
                               p80_us=round(t["p80_us"], 3))
                    if s.mnk not in best or t["median_us"] < best[s.mnk][1]["median_us"]:
                        best[s.mnk] = (cfg, row)
            rows.append(row)
            bar.step(f"{s} {cfg.block_m}/{cfg.block_n}/{cfg.block_k}/{cfg.split_k}")
        if s.mnk in best:
            cfg, row = best[s.mnk]
            g = time_graph(lambda: F.gemm(a, bs, ss, config=cfg))
            row["graph_us"] = round(g["median_us"], 3)
        write_csvs()
        del data, a, bs, ss
        torch.cuda.empty_cache()

    if args.dump:
        try:
            dump_kernels(args.out, rows, args.dump)
        except Exception as exc:  # diagnostics only: the measurements above are already written
            print(f"dump failed: {type(exc).__name__}: {exc}", flush=True)

    failed = [r for r in rows if not r["ok"]]
    print(f"\n{len(rows)} rows, {len(failed)} not ok" + "".join(f"\n  BAD {r['m']}x{r['n']}x{r['k']} "
          f"{r['block_m']}/{r['block_n']}/{r['block_k']}/{r['split_k']}/{r['num_warps']}/{r['num_stages']}: "
          f"{r['message'][:100]}" for r in failed[:8]))
    print(f"\n{'kind':<9} {'M':>4} {'N':>5} {'K':>5}  {'bm/bn/bk/split/w/st':<20} {'ctas':>4} {'us':>6} "
          f"{'graph':>6} {'floor':>5} {'1.3(e+f)':>8}")
    bench_us = []
    for s in shapes:
        if s.mnk not in best:
            print(f"{s.kind:<9} {s.m:>4} {s.n:>5} {s.k:>5}  no config passed")
            continue
        cfg, row = best[s.mnk]
        if s.kind == "benchmark":
            bench_us.append(row["median_us"])
        print(f"{s.kind:<9} {s.m:>4} {s.n:>5} {s.k:>5}  "
              f"{cfg.block_m}/{cfg.block_n}/{cfg.block_k}/{cfg.split_k}/{cfg.num_warps}/{cfg.num_stages:<6} "
              f"{row['ctas']:>4} {row['median_us']:>6.2f} {row.get('graph_us', float('nan')):>6.2f} "
              f"{row['floor_us']:>5.2f} {1.3 * (ceil['empty_us'] + row['floor_us']):>8.2f}")
    if bench_us:
        print(f"benchmark geomean {math.exp(sum(map(math.log, bench_us)) / len(bench_us)):.2f} us "
              f"over {len(bench_us)} shapes")
    return 0 if all(ok for _, ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
