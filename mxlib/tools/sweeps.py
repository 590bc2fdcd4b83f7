"""`python -m mxlib sweep`: split-K x tile sweep of the "splitk" path on a CUDA GPU, against the occupancy model.

For each shape (default: (16,2112,7168), (8,2112,7168), (64,7168,2048), (256,3072,1536)) and each
tile (block_m x block_n) and split_k, the path's default config with those three changed is
  1. run once untimed (compiles it),
  2. checked once against the reference (`mxlib.tools.providers.check_call`: the allocator is filled with NaN first),
  3. timed contest-style (`mxlib.tools.timing.time_contest`: L2 flushed, events around one call), --iters calls
     after --warmup untimed ones.
split_k runs only up to K / block_k. The kernel gives each K range ceil(G / split_k) of K's G 32-value groups
(`mxlib.kernels.gemm_splitk.splitk_slices`), so a split_k that does not divide G leaves the last ranges short,
some empty: at K = 7168 (G = 224), split 20 runs 19 ranges and an empty one, split 24 an empty one and one of
128 K. Such configs are timed as they launch, their idle programs included.

Before the configs the run measures what the model takes as given: the device's copy bandwidth, bf16
peak and a lone empty kernel (`mxlib.tools.ceilings.measure_ceilings`), two empty kernels in one timed call
(the cost of each further kernel), and, once per (M, split_k > 1), how many kernels a call launches
(torch.profiler; where it cannot count, the path's structure: the `kernels_from` column says which). Then it fits the model's two free parameters (`mxlib.tools.occupancy.fit`) to the checked
rows and reports the median abs % error: of the prior, of the fit, and of a leave-one-shape-out fit
(each shape predicted by parameters fitted to the others).

Output: `splitk_sweep.csv` in a new `data/results/<device>/sweep_<UTC time>/` (or `--out DIR`), one row per config;
the recorded H200 sweep is `data/results/h200/splitk_sweep.csv`.

`--dry-run` needs no GPU: it builds every planned config, then runs two configs of a tiny shape through
the path (Triton's interpreter on a CPU) and checks them, untimed; with `--out DIR` it writes those two rows
to `DIR/splitk_sweep_dry.csv`, never over a sweep. `--model-only` writes
`data/results/occupancy_model.csv` (`mxlib.tools.occupancy.write_model_csv`).
"""
from __future__ import annotations

import csv
import math
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

from ..spec.devices import compute_units, device_name
from . import occupancy as occ
from .arguments import at_least, options_given, output_folder
from .files import write_csv_atomic
from .provenance import run_metadata
from .repo import RESULTS_DIR as RESULTS
from .repo import new_result_path
from .stats import median_abs_pct_error

PATH = "splitk"
DEFAULT_SHAPES = ((16, 2112, 7168), (8, 2112, 7168), (64, 7168, 2048), (256, 3072, 1536))
# 64x128 is left out: Triton does not compile it for sm_90 (KERNEL_NOTES.md, "Compiler facts found on the way").
DEFAULT_TILES = ((16, 64), (16, 128), (32, 128), (64, 64))
DEFAULT_SPLITS = (1, 2, 3, 4, 6, 7, 8, 12, 14, 16, 20, 24, 28, 32)
DEFAULT_ITERS = 20
DEFAULT_WARMUP = 3
# The dry run's tiny shape and configs: K = 512 is 16 groups, so 3 splits give ranges of 6, 6 and 4 groups,
# none a whole 256-wide step (masked groups), and 16x64 tiles over N = 128 are two column tiles.
DRY_SHAPE = (16, 128, 512, 5)
DRY_CONFIGS = ((16, 64, 1), (16, 64, 3))

CSV_FIELDS = (
    "m", "n", "k", "seed", "path", "tile_m", "tile_n", "block_k", "split_k", "num_warps", "num_stages",
    "ctas", "waves", "utilization", "grid_ctas", "kernels", "kernels_from",
    "measured_us", "p20_us", "p80_us", "predicted_us", "predicted_prior_us", "predicted_loso_us",
    "compute_us", "memory_us", "ok", "message",
    "launch_us", "extra_kernel_us", "copy_TBps", "bf16_TFLOPs", "dot_efficiency", "bw_saturation",
    "device", "torch", "triton", "date",
)


def _parse_list(text: str, name: str, parts: int):
    """'16x64,32x128' -> ((16, 64), (32, 128)); parts=1: '1,2,4' -> (1, 2, 4)."""
    out = []
    for item in (s.strip() for s in text.split(",") if s.strip()):
        try:
            vals = tuple(int(v) for v in item.lower().split("x"))
        except ValueError:
            raise ValueError(f"{name}: {item!r} is not {'x'.join(['INT'] * parts)}") from None
        if len(vals) != parts or min(vals) < 1:
            raise ValueError(f"{name}: {item!r} must be {parts} positive integer(s) joined by 'x'")
        out.append(vals if parts > 1 else vals[0])
    if not out:
        raise ValueError(f"{name} must list at least one item")
    return tuple(out)


def _gemm_shapes(text: str) -> tuple[tuple[int, int, int], ...]:
    """--shapes' entries as the GEMM takes them (`mxlib.spec.ints.gemm_shape`), or ValueError naming the entry."""
    from ..spec.ints import gemm_shape
    from ..spec.shapes import parse_mnk

    out = []
    for item in (s for s in text.split(",") if s.strip()):
        mnk = parse_mnk(item, "--shapes")
        try:
            out.append(gemm_shape(*mnk))
        except ValueError as exc:
            raise ValueError(f"--shapes: {'x'.join(map(str, mnk))}: {exc}") from None
    if not out:
        raise ValueError("--shapes must list at least one item")
    return tuple(out)


def _seed(m: int, n: int, k: int) -> int:
    from ..spec import shapes as shapes_mod

    return next((s.seed for s in shapes_mod.load() if s.mnk == (m, n, k)), 0)


# K elements a loop step, fixed for every config (so the sweep does not move when the path's default does):
# half the seed's BLOCK_SIZE_K of 512 elements, the step the recorded sweeps ran with.
SWEEP_BLOCK_K = 256


def _sweep_base(module, m: int, n: int, k: int):
    """The path's default config at block_k SWEEP_BLOCK_K: what the sweep (and its dry run) varies."""
    return replace(module.default_config(m, n, k), block_k=SWEEP_BLOCK_K)


def plan(shapes, tiles, splits, module) -> list[tuple[tuple[int, int, int, int], object]]:
    """[((m, n, k, seed), Config)]: the path's default config with block_m, block_n, split_k replaced and
    block_k fixed at SWEEP_BLOCK_K (so the sweep does not move when the path's default does), for every
    split_k <= K / block_k. Building each Config validates it."""
    configs = []
    for m, n, k in shapes:
        seed = _seed(m, n, k)
        base = _sweep_base(module, m, n, k)
        for tile_m, tile_n in tiles:
            for split_k in splits:
                if split_k <= k // base.block_k:
                    try:
                        cfg = replace(base, block_m=tile_m, block_n=tile_n, split_k=split_k)
                    except ValueError as exc:
                        raise ValueError(f"--tiles {tile_m}x{tile_n}, --splits {split_k}: {exc}") from None
                    configs.append(((m, n, k, seed), cfg))
    return configs


def path_kernels(cfg) -> int:
    """Kernels one gemm_splitk call launches by its structure: quantize A, the GEMM, and with split_k > 1
    the reduction. Used where the profiler cannot count them (no GPU, or no CUPTI)."""
    return 2 + (cfg.split_k > 1)


def count_kernels(fn) -> int:
    """GPU activities (kernels, memsets, copies) one call of `fn` puts on the device, by torch.profiler."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    n = sum(1 for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA)
    if n < 1:
        raise RuntimeError("torch.profiler saw no GPU activity for one call (is CUPTI available?)")
    return n


def base_row(shape, cfg, module, device: occ.Device) -> dict:
    m, n, k, seed = shape
    ctas = occ.cta_count(m, n, k, cfg.block_m, cfg.block_n, cfg.split_k)
    return {"m": m, "n": n, "k": k, "seed": seed, "path": PATH, "tile_m": cfg.block_m, "tile_n": cfg.block_n,
            "block_k": cfg.block_k, "split_k": cfg.split_k, "num_warps": cfg.num_warps,
            "num_stages": cfg.num_stages, "ctas": ctas, "waves": occ.waves(ctas, device),
            "utilization": occ.cu_utilization(ctas, device), "grid_ctas": module.grid(m, n, k, cfg)}


def measure(configs, module, device: occ.Device, *, iters: int, warmup: int, progress: bool = True):
    """(rows, run_info): every config checked and timed on the GPU, and the run's measured constants."""
    import torch

    from ..spec.reference import generate_input
    from .baselines.empty import launch_empty
    from .ceilings import measure_ceilings
    from .progress import Progress
    from .providers import check_call
    from .timing import L2Flush, time_contest

    flush = L2Flush()
    ceilings = measure_ceilings(flush=flush)
    two = time_contest(lambda: (launch_empty(), launch_empty()), iters=100, flush=flush)["median_us"]
    info = {"launch_us": ceilings["empty_us"], "extra_kernel_us": max(two - ceilings["empty_us"], 0.0),
            "copy_TBps": ceilings["bandwidth_Bps"] / 1e12, "bf16_TFLOPs": ceilings["bf16_flops"] / 1e12,
            **run_metadata(ceilings["device"])}
    bar = Progress(len(configs)) if progress else None
    rows, kernels_seen, data_for = [], {}, {}
    for shape, cfg in configs:
        m, n, k, seed = shape
        if shape not in data_for:
            data_for.clear()  # one shape's inputs at a time on the GPU
            data_for[shape] = generate_input(m, n, k, seed, device="cuda", rounding="rne")
        data = data_for[shape]
        a, _, _, b_shuffle, b_scale_sh = data
        row = {**base_row(shape, cfg, module, device), **info}

        def call(cfg=cfg):
            return module.gemm(a, b_shuffle, b_scale_sh, config=cfg, rounding="rne")

        try:
            call()  # compile before the check and the timing
            good, message = check_call(call, data, m, n)
            key = (m, cfg.split_k > 1)
            if key not in kernels_seen:
                try:
                    kernels_seen[key] = (count_kernels(call), "profiler")
                except Exception as exc:
                    print(f"torch.profiler could not count kernels ({exc}); using the path's structure",
                          file=sys.stderr)
                    kernels_seen[key] = (path_kernels(cfg), "path structure")
            timed = time_contest(call, iters=iters, warmup=warmup, flush=flush)
            row.update(ok=int(good), message=message, kernels=kernels_seen[key][0], kernels_from=kernels_seen[key][1],
                       measured_us=timed["median_us"], p20_us=timed["p20_us"], p80_us=timed["p80_us"])
        except Exception as exc:  # one failing config is a row with its error, not a lost sweep
            row.update(ok=0, message=f"error: {type(exc).__name__}: {exc}"[:300])
        torch.cuda.synchronize()
        rows.append(row)
        if bar:
            bar.step(f"{m}x{n}x{k} {cfg.block_m}x{cfg.block_n} split {cfg.split_k}")
    return rows, info


def run_model(rows, device: occ.Device, info: dict) -> dict:
    """Fill each row's predictions (prior, fitted, leave-one-shape-out); returns the summary numbers."""
    prior = replace(occ.model_params("H200"), bandwidth=info["copy_TBps"] * 1e12,
                    peak_flops=info["bf16_TFLOPs"] * 1e12, launch_us=info["launch_us"],
                    extra_kernel_us=info["extra_kernel_us"])
    good = [r for r in rows if r.get("ok") == 1 and r.get("measured_us") not in (None, "")]
    if not good:
        raise RuntimeError("no config both passed its check and was timed: nothing to fit")
    fitted = occ.fit(good, device, prior)
    shapes = sorted({(r["m"], r["n"], r["k"]) for r in good})
    loso = {}
    for s in shapes:
        rest = [r for r in good if (r["m"], r["n"], r["k"]) != s]
        loso[s] = occ.fit(rest, device, prior) if rest else None
    for r in rows:
        if r.get("kernels") in (None, ""):
            continue
        p = occ.predict_row(r, device, fitted)
        r.update(predicted_us=p.us, compute_us=p.compute_us, memory_us=p.memory_us,
                 predicted_prior_us=occ.predict_row(r, device, prior).us,
                 dot_efficiency=fitted.dot_efficiency, bw_saturation=fitted.bw_saturation)
        model = loso.get((r["m"], r["n"], r["k"]))
        if model is not None:
            r["predicted_loso_us"] = occ.predict_row(r, device, model).us

    def err(key):
        rs = [r for r in good if r.get(key) not in (None, "")]
        return median_abs_pct_error([r[key] for r in rs], [r["measured_us"] for r in rs]) if rs else math.nan

    return {"prior": prior, "fitted": fitted, "err_prior": err("predicted_prior_us"), "err_fit": err("predicted_us"),
            "err_loso": err("predicted_loso_us"), "good": good, "shapes": shapes}


def report(rows, summary: dict) -> str:
    good, fitted = summary["good"], summary["fitted"]
    lines = [f"{len(rows)} configs, {len(good)} checked and timed, "
             f"{sum(1 for r in rows if r.get('ok') != 1)} failed or not timed",
             f"measured: empty kernel {summary['prior'].launch_us:.2f} us, each further kernel "
             f"{summary['prior'].extra_kernel_us:.2f} us, copy {summary['prior'].bandwidth / 1e12:.2f} TB/s, "
             f"bf16 {summary['prior'].peak_flops / 1e12:.0f} TFLOP/s",
             f"fitted: dot_efficiency {fitted.dot_efficiency:.4f} (prior {summary['prior'].dot_efficiency:.4f}), "
             f"bw_saturation {fitted.bw_saturation:.2f} (prior {summary['prior'].bw_saturation:.2f})",
             "", f"{'shape':<16} {'best measured':<28} {'model pick':<28} {'pick vs best':>12}"]
    for s in summary["shapes"]:
        rs = [r for r in good if (r["m"], r["n"], r["k"]) == s]
        best = min(rs, key=lambda r: r["measured_us"])
        pick = min(rs, key=lambda r: r["predicted_us"])

        def cfg(r):
            return f"{r['tile_m']}x{r['tile_n']} s{r['split_k']} {r['measured_us']:.2f} us"

        lines.append(f"{'x'.join(map(str, s)):<16} {cfg(best):<28} {cfg(pick):<28} "
                     f"{(pick['measured_us'] / best['measured_us'] - 1) * 100:>11.1f}%")
    worst = sorted(good, key=lambda r: -abs(r["predicted_us"] - r["measured_us"]) / r["measured_us"])[:5]
    lines.append("\nworst predictions (fitted model):")
    for r in worst:
        lines.append(f"  {r['m']}x{r['n']}x{r['k']} {r['tile_m']}x{r['tile_n']} s{r['split_k']}: measured "
                     f"{r['measured_us']:.2f} us, predicted {r['predicted_us']:.2f} us "
                     f"(compute {r['compute_us']:.2f}, memory {r['memory_us']:.2f}, {r['ctas']} CTAs)")
    lines.append(f"\nmodel median abs % error: prior {summary['err_prior']:.1f}%, fitted {summary['err_fit']:.1f}%, "
                 f"leave-one-shape-out {summary['err_loso']:.1f}%")
    return "\n".join(lines)


def write_csv(rows, path: Path) -> Path:
    return write_csv_atomic(path, CSV_FIELDS, ({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in
                                                 ((k, r.get(k, "")) for k in CSV_FIELDS)} for r in rows))


def default_out_dir(device_name: str, now=None) -> Path:
    """data/results/<device>/sweep_<UTC time>/ for the GPU's name (h200 on an H200): a new folder every run, never
    over the recorded sweep (`splitk_sweep.csv` there, which notebook 06 and `isa --sweep` read)."""
    return new_result_path(device_name, "sweep", now=now)


# ---------------------------------------------------------------------------------------------------------
# Dry run


def dry_run(module, configs, device: occ.Device, out_dir: Path | None) -> int:
    """Build-and-verify without a GPU or timing: `configs` were built by `plan`; now run DRY_CONFIGS at
    DRY_SHAPE on the available device (CPU through Triton's interpreter) and check each output."""
    import torch

    from ..spec.reference import check_implementation, generate_input

    dev = "cuda" if torch.cuda.is_available() else "cpu"
    m, n, k, seed = DRY_SHAPE
    data = generate_input(m, n, k, seed, device=dev, rounding="rne")
    a, _, _, b_shuffle, b_scale_sh = data
    base = _sweep_base(module, m, n, k)
    rows, failed = [], 0
    for tile_m, tile_n, split_k in DRY_CONFIGS:
        cfg = replace(base, block_m=tile_m, block_n=tile_n, split_k=split_k)
        out = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device=dev)  # unwritten elements fail
        got = module.gemm(a, b_shuffle, b_scale_sh, config=cfg, rounding="rne", out=out)
        ok, message = check_implementation(data, got, "rne")
        failed += not ok
        row = {**base_row((m, n, k, seed), cfg, module, device), "ok": int(ok), "message": message,
               "kernels": path_kernels(cfg), "kernels_from": "path structure",
               **run_metadata(f"dry run on {dev}")}
        row["predicted_prior_us"] = occ.predict_row(row, device, occ.model_params(device)).us
        rows.append(row)
        print(f"dry run {m}x{n}x{k} {tile_m}x{tile_n} split {split_k}: {'ok' if ok else 'FAILED'} ({message})")
    print(f"{len(configs)} planned configs build; {len(rows) - failed} of {len(rows)} dry-run outputs verify")
    if out_dir is not None:
        print(f"-> {write_csv(rows, out_dir / 'splitk_sweep_dry.csv')}")  # untimed rows: never a sweep's file
    return 1 if failed else 0


# ---------------------------------------------------------------------------------------------------------
# Command line


# The options' defaults, also how `run` tells the options given from those left alone.
_DEFAULTS = {"shapes": ",".join("x".join(map(str, s)) for s in DEFAULT_SHAPES),
             "tiles": ",".join("x".join(map(str, t)) for t in DEFAULT_TILES),
             "splits": ",".join(map(str, DEFAULT_SPLITS)), "iters": DEFAULT_ITERS, "warmup": DEFAULT_WARMUP, "out": None}


def add_arguments(p) -> None:
    p.add_argument("--shapes", default=_DEFAULTS["shapes"], help="comma list of MxNxK (default: %(default)s)")
    p.add_argument("--tiles", default=_DEFAULTS["tiles"], help="comma list of block_m x block_n (default: %(default)s)")
    p.add_argument("--splits", default=_DEFAULTS["splits"],
                   help="comma list of split_k values, each kept where split_k <= K / block_k (default: %(default)s)")
    p.add_argument("--iters", type=at_least(1), default=_DEFAULTS["iters"], help="timed calls per config (default %(default)s)")
    p.add_argument("--warmup", type=at_least(0), default=_DEFAULTS["warmup"],
                   help="untimed calls before them (default %(default)s)")
    p.add_argument("--out", type=output_folder, default=_DEFAULTS["out"], help="output folder (default data/results/<device>/sweep_<UTC time>/, h200 on "
                                             "an H200: never over the recorded sweep)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true",
                      help="no GPU, no timing: build the planned configs, run and check two tiny ones "
                           "(with --out DIR, their rows go to DIR/splitk_sweep_dry.csv)")
    mode.add_argument("--model-only", action="store_true",
                      help="write data/results/occupancy_model.csv and exit (takes no other option)")
    mode.add_argument("--revalidate", action="store_true",
                   help="no GPU: the model against the recorded sweep, one CTA per SM vs the compiled residency "
                        "of `python -m mxlib isa --sweep`, and write the before/after errors")


def run(args) -> int:
    if args.model_only or args.revalidate:
        given = options_given(args, _DEFAULTS)
        if given:
            mode, writes = (("model-only", "the occupancy model's table from the model alone") if args.model_only
                            else ("revalidate", "the model's errors against the recorded sweep"))
            raise ValueError(f"{', '.join(given)}: not an option of --{mode}, which writes {writes} (no sweep is run)")
    if args.model_only:
        print(f"-> {occ.write_model_csv()}")
        return 0
    if args.revalidate:
        result = revalidate()
        print(revalidation_text(result))
        out = write_revalidation(result)
        print(f"-> {out}")
        return 0
    shapes = _gemm_shapes(args.shapes)
    tiles = _parse_list(args.tiles, "--tiles", 2)
    splits = _parse_list(args.splits, "--splits", 1)
    import torch

    if not torch.cuda.is_available():
        if not args.dry_run:
            print("python -m mxlib sweep needs a CUDA GPU (torch.cuda.is_available() is False); "
                  "--dry-run runs without one", file=sys.stderr)
            return 2
        # The interpreter must be chosen before Triton first compiles the path's kernels.
        if "mxlib.kernels.gemm_splitk" in sys.modules and os.environ.get("TRITON_INTERPRET") != "1":
            raise RuntimeError("the splitk path was imported without TRITON_INTERPRET=1; set it and rerun")
        os.environ["TRITON_INTERPRET"] = "1"
    from ..runtime.paths import path_module

    module = path_module(PATH)
    configs = plan(shapes, tiles, splits, module)
    if not configs:
        raise ValueError(f"--splits {args.splits}: no split_k <= K / {SWEEP_BLOCK_K} for any of --shapes {args.shapes}, "
                         "so there is nothing to sweep")
    if args.dry_run:
        return dry_run(module, configs, occ.DEVICES["H200"], args.out)
    device = replace(occ.DEVICES["H200"], name=device_name(), units=compute_units())
    t0 = time.perf_counter()
    rows, info = measure(configs, module, device, iters=args.iters, warmup=args.warmup)
    elapsed = time.perf_counter() - t0
    out = write_csv(rows, (args.out or default_out_dir(info["device"])) / "splitk_sweep.csv")  # kept if the fit fails
    summary = run_model(rows, device, info)
    write_csv(rows, out)
    print(report(rows, summary))
    print(f"{info['device']}: {len(configs)} configs in {elapsed:.0f} s -> {out}")
    return 1 if any(r.get("ok") != 1 for r in rows) else 0


# ---------------------------------------------------------------------------------------------------------
# The model with compiled residency, against the recorded sweep

SWEEP_CSV = RESULTS / "h200" / "splitk_sweep.csv"
RESIDENCY_CSV = RESULTS / "h200" / "splitk_sweep_residency.csv"
REVALIDATION_CSV = RESULTS / "h200" / "occupancy_revalidation.csv"
_RESIDENCY_KEY = ("m", "n", "k", "tile_m", "tile_n", "block_k", "split_k", "num_warps", "num_stages")


def _read(path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def revalidate(sweep_csv=SWEEP_CSV, residency_csv=RESIDENCY_CSV) -> dict:
    """run_model on the recorded sweep twice: every row with one CTA per SM (residency ignored), then with
    the CTAs per SM its compiled GEMM kernel allows (`resident`, from `python -m mxlib isa --sweep`). Returns
    {"before": summary, "after": summary, "rows": rows with both predictions}."""
    sweep = [r for r in _read(sweep_csv) if r.get("ok") == "1"]
    resident = {tuple(r[c] for c in _RESIDENCY_KEY): r for r in _read(residency_csv)}
    missing = [r for r in sweep if tuple(r[c] for c in _RESIDENCY_KEY) not in resident]
    if missing:
        raise ValueError(f"{residency_csv} lacks {len(missing)} checked rows of {sweep_csv}: rerun "
                         f"python -m mxlib isa --sweep {sweep_csv} --target sm_90")
    first = sweep[0]
    info = {k: float(first[k]) for k in ("launch_us", "extra_kernel_us", "copy_TBps", "bf16_TFLOPs")}
    device = occ.DEVICES["H200"]

    def rows(with_residency):
        out = []
        for r in sweep:
            row = dict(r, ok=1, measured_us=float(r["measured_us"]))
            row["resident"] = int(resident[tuple(r[c] for c in _RESIDENCY_KEY)]["resident"]) if with_residency else 1
            out.append(row)
        return out

    before, after = rows(False), rows(True)
    result = {"before": run_model(before, device, info), "after": run_model(after, device, info)}
    result["rows"] = [dict(b, predicted_one_us=b["predicted_us"], predicted_resident_us=a["predicted_us"],
                           resident=a["resident"]) for b, a in zip(before, after)]
    return result


def revalidation_text(result: dict) -> str:
    lines = []
    for name, what in (("before", "one CTA per SM"), ("after", "compiled residency")):
        s = result[name]
        lines.append(f"{what:>20}: median abs % error prior {s['err_prior']:.1f}%, fitted {s['err_fit']:.1f}%, "
                     f"leave-one-shape-out {s['err_loso']:.1f}% (dot_efficiency {s['fitted'].dot_efficiency:.4f}, "
                     f"bw_saturation {s['fitted'].bw_saturation:.2f})")
    return "\n".join(lines)


def write_revalidation(result: dict, path=REVALIDATION_CSV) -> Path:
    """One row per checked sweep config: measured, predicted with one CTA per SM and with compiled residency."""
    fields = ("m", "n", "k", "tile_m", "tile_n", "block_k", "split_k", "ctas", "resident", "measured_us",
              "predicted_one_us", "predicted_resident_us")
    return write_csv_atomic(path, fields, ({k: (f"{v:.4g}" if isinstance(v, float) else v) for k, v in r.items()
                                            if k in fields} for r in result["rows"]))
