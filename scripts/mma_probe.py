"""The CUDA path (mxlib.kernels.gemm_mma_sm90) on a GPU, in one call (KERNEL_NOTES.md, "The CUDA path").

    python3 scripts/mma_probe.py --out DIR [--iters 30] [--kinds test,benchmark,extra] [--table]

1. Build: whether the path is available, and an nvcc build from scratch into a scratch cache (timed).
2. Correctness, each on an output filled with NaN, against mxlib.spec.reference: every compiled tiling
   on small shapes with odd M, K % 128 == 64 and N tails, splits 1..8 and several rounds; fresh random
   shapes; both rounding rules; A and B scaled far from 1 (relative error against an fp64 reference);
   NaN/Inf blocks; the same call twice bit for bit. A failing config is diagnosed with one-hot inputs
   (which K column of B, which row of A each output picked up).
3. Speed: for every contest shape, candidate configs (each checked first), contest-style (L2 flushed,
   events around one call, median and mean) and graph replay, beside the fused path's table config.
   With --table, the fastest mma_sm90 config of each shape is written into mxlib/data/configs/h200.csv
   (first where it beats fused, second otherwise).

Writes DIR/probe.csv (speed rows), DIR/checks.csv (correctness rows) and prints a summary.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import torch  # noqa: E402

from mxlib.kernels import gemm_mma_sm90 as G  # noqa: E402
from mxlib.runtime.dispatch import CONFIG_DIR, load_table, select  # noqa: E402
from mxlib.tools.config_table import set_row  # noqa: E402
from mxlib.tools.files import write_csv_atomic  # noqa: E402
from mxlib.runtime.paths import path_module  # noqa: E402
from mxlib.spec import shapes as shapes_mod  # noqa: E402
from mxlib.spec.devices import compute_units  # noqa: E402
from mxlib.spec.layouts import e8m0_shuffle, e8m0_unshuffle, shuffle_weight  # noqa: E402
from mxlib.spec.quant import dequantize_mxfp4, quantize_mxfp4  # noqa: E402
from mxlib.spec.reference import check_implementation, generate_input  # noqa: E402
from mxlib.tools.ceilings import ceilings_text, measure_ceilings  # noqa: E402
from mxlib.tools.providers import config_text  # noqa: E402
from mxlib.tools.timing import L2Flush, poison_allocator, time_contest, time_graph  # noqa: E402

SMS = compute_units()  # 132 on the H200 these runs were made on


def run_cfg(data, cfg, rounding="rne"):
    a, _, _, bs, ss = data
    out = torch.full((a.shape[0], bs.shape[0]), float("nan"), dtype=torch.bfloat16, device=a.device)
    G.gemm(a, bs, ss, config=cfg, rounding=rounding, out=out)
    torch.cuda.synchronize()
    return out


def ref64(data):
    """fp64 reference of the same math (A quantized rne, B as given)."""
    a, _, b_q, _, ss = data
    n, k = b_q.shape[0], a.shape[1]
    aq, asc = quantize_mxfp4(a, "rne")
    af = dequantize_mxfp4(aq, asc).double()
    bf = dequantize_mxfp4(b_q, e8m0_unshuffle(ss, n, k // 32)).double()
    return af @ bf.T


def make_data(a, b_q, b_scale):
    """The contest tuple from A, B's codes and B's scales (B itself is not read by the paths)."""
    return (a, dequantize_mxfp4(b_q, b_scale).to(torch.bfloat16), b_q, shuffle_weight(b_q), e8m0_shuffle(b_scale))


def diagnose(cfg, m=8, n=64, k=384) -> str:
    """One-hot probes: for A = e_(m0,k0), output row m0 must be B's column k0 and every other row 0; for
    a B with one nonzero code at (n0,k0), output column n0 must be A's column k0."""
    dev = "cuda"
    lines = []
    torch.manual_seed(1)
    b_q = torch.randint(0, 256, (n, k // 2), dtype=torch.uint8, device=dev)
    b_s = torch.full((n, k // 32), 127, dtype=torch.uint8, device=dev)
    bdeq = dequantize_mxfp4(b_q, b_s)  # (n, k)
    for m0, k0 in ((0, 0), (min(3, m - 1), 5), (m - 1, 37), (min(5, m - 1), k - 1), (1, 200 % k)):
        a = torch.zeros((m, k), dtype=torch.bfloat16, device=dev)
        a[m0, k0] = 1.0
        out = run_cfg(make_data(a, b_q, b_s), cfg).float()
        rows = sorted(set(out.nonzero()[:, 0].tolist()) | set(out.isnan().nonzero()[:, 0].tolist()))
        hit = [kk for kk in range(k) if torch.equal(out[m0], bdeq[:, kk])]
        lines.append(f"A one-hot ({m0},{k0}): nonzero rows {rows[:8]}; row {m0} equals B column(s) {hit[:4]}")
    a = torch.randn((m, k), dtype=torch.bfloat16, device=dev)
    aq, asc = quantize_mxfp4(a)
    adeq = dequantize_mxfp4(aq, asc)
    for n0, k0 in ((0, 0), (9, 33), (n - 1, k - 2), (17, 70)):
        codes = torch.zeros((n, k), dtype=torch.uint8, device=dev)
        codes[n0, k0] = 2  # 1.0
        bq1 = codes[:, 0::2] | (codes[:, 1::2] << 4)
        out = run_cfg(make_data(a, bq1, b_s), cfg).float()
        cols = sorted(set(out.nonzero()[:, 1].tolist()))
        hit = [kk for kk in range(k) if torch.allclose(out[:, n0], adeq[:, kk].to(torch.bfloat16).float())]
        lines.append(f"B one-hot ({n0},{k0}): nonzero cols {cols[:8]}; col {n0} equals A column(s) {hit[:4]}")
    return "\n    ".join(lines)


def pipelined_config(m: int, n: int, k: int, wgmma: int = 0):
    """A family "pipelined" (or "wgmma", "wspec") config for the value checks (which otherwise run each shape's
    default config)."""
    bm = 16 if m <= 16 else 64
    return G.Config(block_m=bm, block_n=64, block_k=128, split_k=max(1, min(4, k // 256)), num_warps=4,
                    warps_k=0, num_stages=3, wgmma=wgmma)


def check_configs(m: int, n: int, k: int) -> list:
    """The configs each value check runs: the shape's default, a pipelined, a wgmma and a wspec one."""
    return [G.default_config(m, n, k), pipelined_config(m, n, k), pipelined_config(m, n, k, wgmma=1),
            pipelined_config(m, n, k, wgmma=2)]


def checks(out_dir: Path) -> list[dict]:
    rows = []
    rng = random.Random(int(time.time()))

    def record(what, cfg, data, out, rounding="rne", rel=None):
        ok, msg = check_implementation(data, out, rounding)
        if rel is not None:
            ref = ref64(data)
            both = torch.isfinite(ref)
            want = ref.to(torch.bfloat16).double()  # the fp64 result rounded as the output is
            err = ((out.double() - want)[both].norm() / want[both].norm().clamp_min(1e-300)).item()
            same_nan = torch.equal(out.isnan(), ref.isnan())
            ok = ok and err < rel and same_nan
            msg = f"rel err {err:.2e} (< {rel}), NaN pattern {'equal' if same_nan else 'DIFFERS'}; {msg}"
        rows.append({"what": what, "shape": "x".join(map(str, (data[0].shape[0], data[3].shape[0], data[0].shape[1]))),
                     "config": config_text(cfg), "rounding": rounding, "ok": int(ok), "message": msg[:300]})
        if not ok:
            print(f"FAIL {what} {rows[-1]['shape']} {rows[-1]['config']}: {msg[:300]}")
            print("    " + diagnose(cfg))
        return ok

    # every tiling, small shapes: odd M, M tails, K % 128 == 64, several rounds and splits, a split above
    # the chunks (ranks without a chunk add zeros)
    for tiling in G.mma_tilings():
        bm, bn = tiling.block_m, tiling.block_n
        for m, n, k, split, bk in ((bm - 3, bn, 320, 1, 128), (2 * bm + 1, 3 * bn - 16, 1088, 3, 256),
                                   (1, bn, 64, 1, 128), (bm, 2 * bn, 4096, 8, 384), (bm + 5, bn + 16, 1536, 2, 1024),
                                   (bm, bn, 128, 3, 128)):
            while G.mma_smem_bytes(tiling, bk // 128) > G.MMA_MAX_SMEM:
                bk //= 2
            if tiling.num_stages > 1:  # pipelined, wgmma, wspec: the ring's depth instead of a round's
                # (two warpgroups along K take even depths from 4 only: MmaConfig says why)
                stages = (4, 6)[bk // 128 % 2] if tiling.warps_k else max(2 + bk // 128 % 3, 3 if tiling.wgmma == 1 else 2)
                cfg = dataclasses.replace(tiling, split_k=split, num_stages=stages)
            else:
                cfg = dataclasses.replace(tiling, block_k=bk, split_k=split)
            data = generate_input(max(1, m), n, k, rng.randrange(2**31), device="cuda")
            record("tiling", cfg, data, run_cfg(data, cfg))
    # random shapes with their default config
    for _ in range(40):
        m, n, k = rng.randrange(1, 300), 16 * rng.randrange(1, 260), 64 * rng.randrange(1, 80)
        data = generate_input(m, n, k, rng.randrange(2**31), device="cuda")
        for cfg in check_configs(m, n, k):
            record("random", cfg, data, run_cfg(data, cfg))
    # ties_away
    for m, n, k in ((5, 48, 192), (37, 320, 1088), (16, 2112, 7168)):
        data = generate_input(m, n, k, rng.randrange(2**31), device="cuda", rounding="ties_away")
        for cfg in check_configs(m, n, k):
            record("ties_away", cfg, data, run_cfg(data, cfg, "ties_away"), "ties_away")
    # scales far from 1: A and B multiplied by powers of two (relative error against fp64)
    for a_exp, b_exp in ((-100, 0), (100, 0), (0, -100), (0, 100), (-60, -60), (50, 50), (-126, 0), (0, -126),
                         (-128, 0), (120, -120)):
        m, n, k = 24, 256, 1024
        a = (torch.randn((m, k), device="cuda") * 2.0 ** a_exp).to(torch.bfloat16)
        b = (torch.randn((n, k), device="cuda") * 2.0 ** b_exp).to(torch.bfloat16)
        b_q, b_s = quantize_mxfp4(b)
        data = make_data(a, b_q, b_s)
        for cfg in check_configs(m, n, k):
            record(f"scale A*2^{a_exp} B*2^{b_exp}", cfg, data, run_cfg(data, cfg), rel=1e-3)
    # NaN / Inf blocks in A (row NaN) and B scale byte 255 (column NaN)
    m, n, k = 16, 128, 512
    a = torch.randn((m, k), device="cuda").to(torch.bfloat16)
    a[3, 40] = float("nan")
    a[7, 300] = float("inf")
    b_q, b_s = quantize_mxfp4(torch.randn((n, k), device="cuda").to(torch.bfloat16))
    b_s[21, 2] = 255
    data = make_data(a, b_q, b_s)
    want = torch.zeros((m, n), dtype=torch.bool, device="cuda")
    want[[3, 7], :] = True
    want[:, 21] = True
    for cfg in check_configs(m, n, k):
        ok = torch.equal(run_cfg(data, cfg).isnan(), want)
        rows.append({"what": "nan/inf blocks", "shape": f"{m}x{n}x{k}", "config": config_text(cfg),
                     "rounding": "rne", "ok": int(ok), "message": f"NaN exactly in rows 3, 7 and column 21: {ok}"})
    # determinism: the same call twice, bit for bit, with other calls between
    for m, n, k in ((16, 2112, 7168), (256, 3072, 1536)):
        data = generate_input(m, n, k, rng.randrange(2**31), device="cuda")
        for cfg in check_configs(m, n, k):
            first = run_cfg(data, cfg)
            run_cfg(generate_input(7, 64, 128, 1, device="cuda"), G.default_config(7, 64, 128))
            ok = torch.equal(first, run_cfg(data, cfg))
            rows.append({"what": "bitwise repeat", "shape": f"{m}x{n}x{k}", "config": config_text(cfg),
                         "rounding": "rne", "ok": int(ok), "message": f"identical: {ok}"})
    write_csv_atomic(out_dir / "checks.csv", list(rows[0]), rows)
    bad = [r for r in rows if not r["ok"]]
    print(f"checks: {len(rows) - len(bad)} of {len(rows)} passed")
    return rows


def candidates(m: int, n: int, k: int, families=("direct",)) -> list:
    """mma_sm90 configs worth timing for a shape, of the kernel `families` ("direct", "staged",
    "pipelined", "wgmma", "wspec"): every tiling whose block_m suits M, splits 1..8 that launch 40 CTAs to two
    waves; direct and staged with block_k covering a CTA's range in one round unless that leaves an SM
    under half its warps; pipelined with 2, 3 and 4 stages, wgmma with 3, 4 and 6 and wspec with 4, 6
    and 8 where they fit,
    block_m from M (from 32 rows at M >= 64: more CTAs without splitting K) up to twice M, and grids up
    to 4.5 CTAs per SM."""
    chunks = -(-k // 128)
    out = []
    ring_stages = {"pipelined": (2, 3, 4), "wgmma": (3, 4, 6), "wspec": (4, 6, 8)}
    for tiling in G.mma_tilings():
        family = G.mma_family(tiling)
        low = min(m, 64) if m < 64 else 32
        if family not in ring_stages or family not in families or not (low <= tiling.block_m <= max(16, 2 * m)):
            continue
        for split in (1, 2, 3, 4, 6, 8):
            for stages in ring_stages[family]:
                try:  # a ring too deep for shared memory is refused by Config itself
                    cfg = dataclasses.replace(tiling, split_k=split, num_stages=stages)
                except ValueError:
                    continue
                if split > chunks or G.mma_smem_bytes(cfg, G.mma_round_chunks(cfg, k)) > G.MMA_MAX_SMEM:
                    continue
                if 40 <= G.mma_gemm_ctas(m, n, k, cfg) <= 4.5 * SMS:
                    out.append(cfg)
    bms = sorted({c.block_m for c in G.mma_tilings()})
    if m > 64:
        allowed = {64}
    else:
        up = min(b for b in bms if b >= m)
        allowed = {up} | ({bms[bms.index(up) - 1]} if up > 8 and m > 8 else set())
    for tiling in G.mma_tilings():
        family = G.mma_family(tiling)
        if tiling.block_m not in allowed or family in ring_stages or family not in families:
            continue
        for split in (1, 2, 3, 4, 6, 8):
            if split > chunks:
                continue
            ctas = G.mma_gemm_ctas(m, n, k, dataclasses.replace(tiling, split_k=split))
            per = -(-chunks // split)
            r = per
            while r > 1 and G.mma_ctas_per_sm(tiling, r) * tiling.num_warps < G.MMA_SM_WARPS // 2:
                r = -(-r // 2)
            slots = SMS * max(1, G.mma_ctas_per_sm(tiling, r))
            if ctas < 40 or ctas > 2 * slots:
                continue
            cfg = dataclasses.replace(tiling, block_k=128 * r, split_k=split)
            if cfg not in out:
                out.append(cfg)
    return out


def speed(out_dir: Path, kinds: list[str], iters: int, write_table: bool, families) -> None:
    flush = L2Flush()
    ceil = measure_ceilings(flush=flush, iters=iters)
    print(ceilings_text(ceil))
    rows = []
    fused = path_module("fused")
    for s in shapes_mod.load():
        if s.kind not in kinds:
            continue
        m, n, k = s.mnk
        data = generate_input(m, n, k, s.seed, device="cuda")
        a, _, _, bs, ss = data

        def timed(variant, cfg, call):
            row = {"kind": s.kind, "m": m, "n": n, "k": k, "variant": variant, "config": config_text(cfg)}
            try:
                call()
                poison_allocator(2 * m * n)
                out = call()
                torch.cuda.synchronize()
                ok, msg = check_implementation(data, out)
                row.update(ok=int(ok), message=msg[:200])
                if ok:
                    t = time_contest(call, iters=iters, warmup=3, flush=flush)
                    g = time_graph(call)
                    row.update(median_us=round(t["median_us"], 3), mean_us=round(t["mean_us"], 3),
                               graph_us=round(g["median_us"], 3))
            except Exception as exc:  # a config that cannot launch is a row, not a lost run
                row.update(ok=0, message=f"{type(exc).__name__}: {str(exc)[:200]}")
            rows.append(row)
            return row

        _, fcfg = select(m, n, k, "cuda", path="fused")
        timed("fused", fcfg, lambda: fused.gemm(a, bs, ss, config=fcfg))
        cands = candidates(m, n, k, families)
        table = [G.Config(**f) for p_, f in load_table("h200").get((m, n, k), []) if p_ == "mma_sm90"]
        for cfg in table + [c for c in cands if c not in table]:
            timed("mma_sm90", cfg, lambda cfg=cfg: G.gemm(a, bs, ss, config=cfg))
        mine = [r for r in rows if r["m"] == m and r["n"] == n and r["k"] == k and r.get("mean_us")]
        best = {v: min((r for r in mine if r["variant"] == v), key=lambda r: r["mean_us"], default=None)
                for v in ("fused", "mma_sm90")}
        print(f"{s.kind:<10}{m:>5}{n:>6}{k:>6}  fused {best['fused'] and best['fused']['mean_us']}  "
              f"mma best {best['mma_sm90'] and (best['mma_sm90']['mean_us'], best['mma_sm90']['median_us'], best['mma_sm90']['config'])}"
              f"  of {sum(r['variant'] == 'mma_sm90' for r in rows if (r['m'], r['n'], r['k']) == (m, n, k))}")
    fields = ["kind", "m", "n", "k", "variant", "config", "ok", "median_us", "mean_us", "graph_us", "message"]
    write_csv_atomic(out_dir / "probe.csv", fields, ({k_: r.get(k_, "") for k_ in fields} for r in rows))
    if write_table:
        write_h200_table(rows)


def write_h200_table(rows: list[dict]) -> None:
    """The fastest checked mma_sm90 config of each swept shape (by contest mean) into h200.csv: the
    shape's first row where it beat the fused row of the same run, else right after it. Every other row
    stays where it is (`mxlib.tools.config_table.set_row`)."""
    path = Path(str(CONFIG_DIR)) / "h200.csv"
    for (m, n, k) in sorted({(r["m"], r["n"], r["k"]) for r in rows}):
        mine = [r for r in rows if (r["m"], r["n"], r["k"]) == (m, n, k) and r.get("mean_us")]
        mma = min((r for r in mine if r["variant"] == "mma_sm90"), key=lambda r: r["mean_us"], default=None)
        fus = next((r for r in mine if r["variant"] == "fused"), None)
        if mma is not None:
            set_row(path, (m, n, k), "mma_sm90", mma["config"],
                    index=0 if fus is None or mma["mean_us"] < fus["mean_us"] else 1)
    print(f"wrote {path}")


def build_check(out_dir: Path) -> subprocess.Popen | None:
    """An nvcc build from scratch in a background process (the cache may hold a carried cubin)."""
    nvcc = G.mma_find_nvcc()
    print(f"nvcc: {nvcc}")
    if nvcc is None:
        return None
    tmp = Path(tempfile.mkdtemp())
    src = tmp / "k.cu"
    src.write_text(G.mma_source())
    return subprocess.Popen(f"/usr/bin/time -f '%e s' {nvcc} {' '.join(G.MMA_NVCC_FLAGS)} -o {tmp}/k.cubin {src}",
                            shell=True, stdout=open(tmp / "nvcc_build.txt", "w"), stderr=subprocess.STDOUT)


def parse_families(text: str) -> tuple[str, ...]:
    """--families: kernel families joined by commas, each one `G.mma_family` gives a compiled tiling, or "none"
    alone (sweep nothing, time the table's rows only); anything else is refused by name."""
    known = sorted({G.mma_family(t) for t in G.mma_tilings()})
    families = tuple(f.strip() for f in text.split(","))
    if families == ("none",):
        return ()
    bad = [f for f in families if f not in known]
    if bad:
        raise argparse.ArgumentTypeError(f"unknown famil{'y' if len(bad) == 1 else 'ies'} {', '.join(map(repr, bad))}: "
                                         f"give {', '.join(known)} joined by commas, or none")
    return families


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--iters", type=int, default=30)
    p.add_argument("--kinds", default="test,benchmark,extra")
    p.add_argument("--table", action="store_true")
    p.add_argument("--skip-checks", action="store_true")
    p.add_argument("--families", default="direct,pipelined", type=parse_families,
                   help="kernel families to sweep (direct, staged, pipelined, wgmma, wspec), or none; the table's "
                        "rows are always timed")
    args = p.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    print("torch", torch.__version__, torch.cuda.get_device_name(), "cc", torch.cuda.get_device_capability())
    proc = build_check(args.out)
    t0 = time.time()
    print("available:", G.available(), f"({time.time() - t0:.1f} s)")
    if not G.available()[0]:
        return 1
    if not args.skip_checks:
        checks(args.out)
    speed(args.out, args.kinds.split(","), args.iters, args.table, args.families)
    if proc is not None:
        proc.wait(timeout=300)
        log = Path(proc.args.split(" -o ")[1].split("/k.cubin")[0]) / "nvcc_build.txt"
        print("nvcc build from scratch:", log.read_text().strip().splitlines()[-1:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
