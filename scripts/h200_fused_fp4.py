#!/usr/bin/env python
"""The fused_fp4 path on a GPU: validation on the 13 contest shapes and random shapes, then its
contest-style time beside the current fused path (what tl.dot_scaled's e2m1 x e2m1 emulation costs
on sm_90, where Triton upcasts both operands to bf16).

  python scripts/h200_fused_fp4.py --out DIR [--part all|contest|random] [--random 300] [--seed S] [--no-timing]

Validation (every row of DIR/validate.csv): one call per (shape, config), the output passed as `out=`
filled with NaN and the caching allocator's free blocks filled with 0xFF first (so the split-K
workspace starts as NaN too), checked with the contest's `check_implementation` and with the library's relative
rule (`mxlib.spec.reference.exact_errors`), which fails an output that is zero where the reference is tiny. Contest shapes (data/shapes.csv, all 13, the
contest's seeds): the device's table config (mxlib/data/configs/h200.csv: the fused path's rung-1 tilings),
the default config and a few sm_90 candidates, rounding "rne", plus the table config under "ties_away". Random shapes (M 1..512, N 16..8192 step 16, K 64..8192 step 64, a seeded
draw): a config from a fixed set of four tilings in turn (few compiles, every tiling on every kind of
shape), one in ten under "ties_away"; then inputs whose blocks are scaled over most of the bf16 range
(`scaled_input`), where only the relative check must pass (see `passed`).

Timing (DIR/timing.csv): on the 13 contest shapes, `mxlib.bench.time_contest` (L2 flushed, events
around one call, median of --iters after --warmup) of the fused path with its table config and of
fused_fp4 with every validated config above; every timed config was checked first. DIR/summary.json: command, device, versions, date, counts, the best fused_fp4 config
per shape. Exit status 1 if any check failed, 2 without a GPU.

Dry run on the CPU (Triton's interpreter, no timing): TRITON_INTERPRET=1 python scripts/h200_fused_fp4.py
--device cpu --out /tmp/dry --random 3 --max-m 40 --max-n 96 --max-k 512 --contest 4x64x128:1 --no-timing
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
from mxlib.spec import shapes  # noqa: E402
from mxlib.kernels import gemm_fused_fp4 as F  # noqa: E402
from mxlib.spec.layouts import e8m0_shuffle, shuffle_weight  # noqa: E402
from mxlib.runtime.paths import path_module, path_zero_scale_operands  # noqa: E402
from mxlib.spec.quant import quantize_mxfp4  # noqa: E402
from mxlib.spec.reference import check_implementation, exact_errors, generate_input  # noqa: E402
from mxlib.tools.files import write_csv_atomic, write_text_atomic  # noqa: E402
from mxlib.tools.providers import config_text  # noqa: E402
from mxlib.tools.timing import poison_pools  # noqa: E402

FIELDS = ("check", "kind", "m", "n", "k", "seed", "rounding", "config", "ok", "rel_ok", "max_rel", "message")
RANDOM_CONFIGS = (F.Config(16, 64, 128, 3, 4, 2), F.Config(32, 64, 256, 2, 4, 2), F.Config(64, 64, 128, 1, 4, 2),
                  F.Config(16, 32, 64, 5, 4, 1))


def sm90_candidates(m: int, n: int, k: int) -> list:
    """A few tilings for an H200 (132 SMs), besides the default: BLOCK_K 128 and 256, 64- and 128-row N
    tiles, split_k aiming at one and two waves of programs."""
    bm = max(16, 1 << (m - 1).bit_length()) if m <= 32 else 64
    out = []
    for bn, bk, warps in ((64, 128, 4), (64, 256, 4), (128, 128, 8)):
        tiles = -(-m // bm) * -(-n // bn)
        for waves in (1, 2):
            split = max(1, min(-(-k // bk), round(waves * 132 / tiles)))
            cfg = F.Config(bm, bn, bk, split, warps, 3 if bk == 128 else 2)
            if cfg not in out:
                out.append(cfg)
    return out


def relative_check(data, out, rounding: str):
    """(ok, largest error / allowed error) under the library's exactness rule
    (`mxlib.spec.reference.exact_errors`: relative to the result and to the sum of the products'
    magnitudes, NaN matching NaN and Inf the same Inf), with the path's scale-byte-0 reading on this device."""
    e = exact_errors(data, out, rounding, path_zero_scale_operands("fused_fp4", out.device))
    return bool(e["good"].all()), float(e["ratio"].max()) if e["ratio"].numel() else 0.0


def one_call(data, cfg, rounding: str, device):
    a, _, _, b_shuffle, b_scale_sh = data
    poison_pools(device)
    out = torch.full((a.shape[0], b_shuffle.shape[0]), float("nan"), dtype=torch.bfloat16, device=device)
    got = F.gemm(a, b_shuffle, b_scale_sh, config=cfg, rounding=rounding, out=out)
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    if got is not out:
        return False, False, 0.0, "gemm(out=...) did not return out"
    ok, msg = check_implementation(data, got, rounding)
    rel_ok, max_rel = relative_check(data, got, rounding)
    return ok, rel_ok, max_rel, msg


def scaled_input(m, n, k, seed, device, rounding):
    """The contest tuple with every 32-block of A multiplied by its own power of two in 2**-126..2**100
    and every block of B by one in 2**-100..2**0 (bf16 holds the products exactly), B re-quantized:
    products run from far below fp32's subnormals up to about 2**105, and no sum can overflow (where
    one could, Inf or NaN would depend on the summation order in any implementation)."""
    a, b, *_ = generate_input(m, n, k, seed, device=device, rounding=rounding)
    g = torch.Generator(device=device).manual_seed(seed + 7)

    def spread(x, lo, hi):
        e = torch.randint(lo, hi + 1, (x.shape[0], x.shape[1] // 32), generator=g, device=device).float()
        return (x.float() * torch.exp2(e).repeat_interleave(32, 1)).to(torch.bfloat16)

    a, b = spread(a, -126, 100), spread(b, -100, 0)
    b_q, b_s = quantize_mxfp4(b, rounding)
    return a, b, b_q, shuffle_weight(b_q), e8m0_shuffle(b_s)


def passed(row: dict) -> bool:
    """Contest and random rows need both checks; scaled rows the relative one only: with products
    spread over 2**200, sums that cancel below fp32's precision differ from the reference's in any
    summation order, beyond the contest's 1e-2 of |ref| (the row still records that check)."""
    return bool(row["rel_ok"]) and (bool(row["ok"]) or row["check"] == "scaled")


def parse_contest(text: str) -> list:
    out = []
    for item in text.split(","):
        dims, _, seed = item.partition(":")
        out.append(shapes.Shape("given", *shapes.parse_mnk(dims, "--contest"), int(seed or 0)))
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="directory for validate.csv, timing.csv and summary.json")
    p.add_argument("--random", type=int, default=300, help="number of random shapes (default 300)")
    p.add_argument("--seed", type=int, default=20261204, help="seed of the random shape draw")
    p.add_argument("--device", default="cuda")
    p.add_argument("--contest", help="MxNxK:seed,... instead of data/shapes.csv's 13 shapes (dry runs)")
    p.add_argument("--max-m", type=int, default=512)
    p.add_argument("--max-n", type=int, default=8192)
    p.add_argument("--max-k", type=int, default=8192)
    p.add_argument("--part", choices=("all", "contest", "random"), default="all",
                   help="contest: the 13 shapes' validation and the timing; random: the random and scaled shapes")
    p.add_argument("--no-timing", action="store_true")
    p.add_argument("--iters", type=int, default=30)
    p.add_argument("--warmup", type=int, default=3)
    args = p.parse_args(argv)
    device = torch.device(args.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        print("no CUDA/ROCm device (--device cpu for a dry run under TRITON_INTERPRET=1)", file=sys.stderr)
        return 2
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    contest = shapes.load() if args.contest is None else parse_contest(args.contest)
    if args.part == "random":
        contest = []
    n_random = 0 if args.part == "contest" else args.random
    rows = []
    f = open(out_dir / "validate.csv", "w", newline="")
    writer = csv.DictWriter(f, fieldnames=FIELDS)
    writer.writeheader()

    def record(check, kind, m, n, k, seed, rounding, cfg, fn, *fargs):
        try:
            ok, rel_ok, max_rel, msg = fn(*fargs)
        except Exception as e:  # a failure to record, not to stop on
            where = traceback.extract_tb(e.__traceback__)[-1]
            ok, rel_ok, max_rel, msg = False, False, "", f"{type(e).__name__}: {e} (at {Path(where.filename).name}:{where.lineno})"
        row = dict(check=check, kind=kind, m=m, n=n, k=k, seed=seed, rounding=rounding, config=config_text(cfg),
                   ok=int(bool(ok)), rel_ok=int(bool(rel_ok)),
                   max_rel=f"{max_rel:.3g}" if isinstance(max_rel, float) else max_rel,
                   message=" ".join(str(msg).split())[:400])
        rows.append(row)
        writer.writerow(row)
        f.flush()
        if not passed(row):
            print(f"FAIL {check} {m}x{n}x{k} seed {seed} {rounding} {config_text(cfg)}: {row['message']}", flush=True)

    timed_configs = {}
    for s in contest:
        table_cfg = dispatch.select(*s.mnk, device, path="fused_fp4")[1]
        timed_configs[s.mnk] = list(dict.fromkeys([table_cfg, F.default_config(*s.mnk), *sm90_candidates(*s.mnk)]))
        for rounding in ("rne", "ties_away"):
            data = generate_input(*s.mnk, s.seed, device=device, rounding=rounding)
            cfgs = timed_configs[s.mnk] if rounding == "rne" else timed_configs[s.mnk][:1]
            for cfg in cfgs:
                record("contest", s.kind, *s.mnk, s.seed, rounding, cfg, one_call, data, cfg, rounding, device)
        print(f"contest {s.m}x{s.n}x{s.k} done ({time.time() - t0:.0f} s)", flush=True)

    rng = random.Random(args.seed)
    for i in range(n_random):
        m, n, k = rng.randint(1, args.max_m), 16 * rng.randint(1, args.max_n // 16), 64 * rng.randint(1, args.max_k // 64)
        seed = rng.randrange(2**31)
        rounding = "ties_away" if i % 10 == 9 else "rne"
        cfg = RANDOM_CONFIGS[i % len(RANDOM_CONFIGS)]
        data = generate_input(m, n, k, seed, device=device, rounding=rounding)
        record("random", "random", m, n, k, seed, rounding, cfg, one_call, data, cfg, rounding, device)
        if (i + 1) % 50 == 0:
            print(f"random {i + 1}/{n_random} ({time.time() - t0:.0f} s)", flush=True)
    for i, cfg in enumerate(RANDOM_CONFIGS if args.part != "contest" else ()):  # block scales over the bf16 range
        m, n, k = rng.randint(1, 64), 16 * rng.randint(1, 64), 64 * rng.randint(1, 32)
        seed = rng.randrange(2**31)
        for rounding in ("rne", "ties_away"):
            data = scaled_input(m, n, k, seed, device, rounding)
            record("scaled", "random", m, n, k, seed, rounding, cfg, one_call, data, cfg, rounding, device)
    f.close()

    best = {}
    if contest and not args.no_timing and device.type == "cuda":
        best = timing(contest, timed_configs, rows, out_dir, args)
    failed = [r for r in rows if not passed(r)]
    import triton

    summary = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "date_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "device": torch.cuda.get_device_name(device) if device.type == "cuda" else platform.processor() or "cpu",
        "python": platform.python_version(), "torch": torch.__version__, "cuda": torch.version.cuda,
        "hip": torch.version.hip, "triton": triton.__version__,
        "part": args.part, "contest_shapes": len(contest), "random_shapes": n_random, "random_seed": args.seed,
        "checks": len(rows), "failed": len(failed),
        "checks_by_kind": {c: sum(r["check"] == c for r in rows) for c in ("contest", "random", "scaled")},
        "best_fused_fp4": best, "wall_seconds": round(time.time() - t0, 1),
    }
    write_text_atomic(out_dir / "summary.json", json.dumps(summary, indent=2) + "\n")
    print(f"{len(rows) - len(failed)} of {len(rows)} checks passed in {summary['wall_seconds']} s -> {out_dir}")
    return 1 if failed else 0


def timing(contest, timed_configs, rows, out_dir: Path, args) -> dict:
    """Contest-style medians of fused (table config) and every checked fused_fp4 config; returns the
    best fused_fp4 config per shape."""
    from mxlib.tools.timing import L2Flush, time_contest

    good = {(r["m"], r["n"], r["k"], r["config"]) for r in rows
            if r["check"] == "contest" and r["rounding"] == "rne" and passed(r)}
    flush = L2Flush()
    fields = ("kind", "m", "n", "k", "path", "config", "median_us", "p20_us", "p80_us", "error")
    best, timed = {}, []
    for s in contest:
        a, _, _, b_shuffle, b_scale_sh = generate_input(*s.mnk, s.seed, device="cuda", rounding="rne")
        _, fused_cfg = dispatch.select(*s.mnk, "cuda", path="fused")
        fused = path_module("fused").gemm
        entries = [("fused", fused_cfg, lambda c=fused_cfg: fused(a, b_shuffle, b_scale_sh, config=c))]
        entries += [("fused_fp4", c, lambda c=c: F.gemm(a, b_shuffle, b_scale_sh, config=c))
                    for c in timed_configs[s.mnk] if (s.m, s.n, s.k, config_text(c)) in good]
        for path, cfg, call in entries:
            text = config_text(cfg)
            try:
                t = time_contest(call, iters=args.iters, warmup=args.warmup, flush=flush)
            except Exception as exc:  # a row with the error, not a lost run
                timed.append(dict(kind=s.kind, m=s.m, n=s.n, k=s.k, path=path, config=text,
                                  error=f"{type(exc).__name__}: {exc}"[:300]))
                continue
            timed.append(dict(kind=s.kind, m=s.m, n=s.n, k=s.k, path=path, config=text,
                              **{k: f"{t[k]:.2f}" for k in ("median_us", "p20_us", "p80_us")}))
            if path == "fused_fp4" and t["median_us"] < best.get(str(s.mnk), (float("inf"), ""))[0]:
                best[str(s.mnk)] = (round(t["median_us"], 2), text)
            print(f"{s.m}x{s.n}x{s.k} {path} {text}: {t['median_us']:.2f} us", flush=True)
    write_csv_atomic(out_dir / "timing.csv", fields, timed)
    return best


if __name__ == "__main__":
    sys.exit(main())
