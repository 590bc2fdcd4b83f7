"""The sections notebooks 03 to 05 share, one function each: the seed's launches for a path (from
`mxlib.spec.seed.seed_plan`), the source of a kernel, the data contract on a small input, a path's
compiled facts for gfx950 and sm_90 side by side, its occupancy on each device, its H200 config and its
measured speed; and notebook 05's NUM_KSPLIT model (what aiter's get_splitk runs for each split asked)
and recorded split-K sweep. Each returns text (and, for figures, the figure), so a notebook cell is one
call and a print; nothing here measures.

Where the numbers come from: `seed_plan` and `mxlib.spec.aiter_rules` (what the seed launches, per aiter
release line), data/results/mi355x/isa_all_paths.csv and data/results/h200/isa_sm90_all_paths.csv (every
Triton path compiled on the CPU machine, `python -m mxlib isa --path all`), data/results/mi355x/isa_seed.csv
(the seed's own Triton kernels), data/results/mi355x/isa.csv and data/results/h200/isa_sm90.csv (mxlib's
dispatcher's Triton launch per shape: fused_fp4 on gfx950, fused on sm_90),
data/results/mi355x/aiter_asm_kernels.csv (aiter's ASM GEMMs' metadata), mxlib/data/configs/h200.csv (the
H200 table), data/results/h200/bench.csv (the run whose asm, ck and splitk times the notebooks show,
2026-12-03, of those paths' kernels as they were then) and data/results/h200/splitk_sweep.csv (the same
morning, the split-K kernel as it was then, at block_k 256).
"""
from __future__ import annotations

import csv
import inspect
import textwrap
from pathlib import Path

import torch

from ..spec import seed as seed_mod
from ..spec import shapes as shapes_mod
from ..spec.aiter_rules import TUNED_ROWS, aiter_line, gemm_a4w4_choice
from . import occupancy as occ
from .isa import DEFAULT_OUT
from .repo import RESULTS_DIR

ISA_CSV = {"gfx950": RESULTS_DIR / "mi355x" / "isa_all_paths.csv", "sm_90": RESULTS_DIR / "h200" / "isa_sm90_all_paths.csv"}
ISA_SEED_CSV = RESULTS_DIR / "mi355x" / "isa_seed.csv"
ISA_DISPATCH_CSV = DEFAULT_OUT  # what `python -m mxlib isa --target T` writes: the dispatcher's launches
ASM_KERNELS_CSV = RESULTS_DIR / "mi355x" / "aiter_asm_kernels.csv"
GEMM_KERNEL = {"asm": "_tiled_kernel", "ck": "_tiled_kernel", "splitk": "_splitk_kernel"}  # mxlib's GEMM per path


def _path(path: str) -> str:
    if path not in seed_mod.PATHS:
        raise ValueError(f"path must be one of the seed's paths {', '.join(seed_mod.PATHS)}, got {path!r}")
    return path


def read_rows(file: Path) -> list[dict]:
    """A recorded CSV as a list of dicts."""
    with open(file, newline="") as f:
        return list(csv.DictReader(f))


def config_fields(text: str) -> dict:
    """A recorded config column ("BLOCK_M=16 BLOCK_N=64 ...") as {name: value text}."""
    return dict(kv.split("=", 1) for kv in text.split() if "=" in kv)


def seed_shapes(path: str) -> list:
    """The contest shapes (mxlib.spec.shapes.Shape) the seed sends down `path`, in the contest's order."""
    _path(path)
    return [s for s in shapes_mod.load() if seed_mod.seed_path(*s.mnk) == path]


def _grid(g) -> str:
    return "?" if g is None else "x".join(map(str, g))


def _lines_note(plans, aiter: str) -> str:
    """What the header of a printout of `seed_plan`s says of aiter's release line."""
    every = seed_mod.lines_text(seed_mod.seed_lines())
    if all(p["aiter"] == every for p in plans):
        return f"the same on every aiter release line the seed runs on, the {every}"
    line = aiter_line(aiter)
    return f"aiter's {line.name} line where the lines differ: {line.span}"


def seed_launches(path: str, aiter: str = seed_mod.DEFAULT_AITER) -> str:
    """Every launch of one seed call per shape of `path` with aiter version `aiter`: kernel, grid, CTAs, and
    for the GEMM how its kernel was chosen ("seed": named by the seed; "tuned"/"heuristic": aiter's CSV row
    or ASM heuristic; "config": the seed's Triton config) with its tile, the MI355X's CUs it occupies (one
    CTA per CU) and the aiter release lines the answer holds for."""
    plans = [(s, seed_mod.seed_plan(*s.mnk, aiter=aiter)) for s in seed_shapes(path)]
    lines = [f"what the seed launches per call (mxlib.spec.seed.seed_plan; {_lines_note([p for _, p in plans], aiter)}):"]
    for s, plan in plans:
        tile = "?" if plan["tile"] is None else f"{plan['tile'][0]}x{plan['tile'][1]}"
        util = "" if plan["ctas"] is None else f", {plan['ctas'] / occ.DEVICES['MI355X'].units:.1%} of {occ.DEVICES['MI355X'].units} CUs"
        lines.append(f"  {str(s):>14}  GEMM: {plan['how']} {tile} tile, {plan['ctas']} CTAs{util}  "
                     f"(holds for aiter {plan['aiter']})")
        for launch in plan["launches"]:
            name = launch["kernel"] if len(launch["kernel"]) <= 60 else launch["kernel"][:59] + "…"  # cut, and marked
            lines.append(f"  {'':14}    {name:<60} grid {_grid(launch['grid']):>7}  {launch['ctas']} CTAs")
    return "\n".join(lines)


def seed_backend(plan: dict) -> str:
    """"triton", "asm" or "ck": what runs the GEMM of a `seed_plan`."""
    if plan["path"] == "splitk":
        return "triton"
    return "ck" if str(plan["runs"]).startswith("a4w4_blockscale") else "asm"


def release_table() -> str:
    """Every contest shape: the seed's path and, on each aiter release line it runs on (`seed.seed_lines`),
    the GEMM kernel that runs (`seed_plan`): CK, ASM or Triton, its tile, how it was chosen; then, per line,
    which builds it holds, how many shapes run CK and how many have a tuned row in aiter's CSV
    (`gemm_a4w4_choice`), over all the shapes and over the task's tested and ranked ones (not `extra`)."""
    runs_on = seed_mod.seed_lines()
    lines = [f"{'shape':>14}  {'kind':<9} {'seed path':<9} "
             + "".join(f"{'aiter ' + ln.name + ' line':<34}" for ln in runs_on)]
    marks = {ln.name: [] for ln in runs_on}  # per shape: (runs CK, has a tuned row, a test or benchmark shape)
    shapes = shapes_mod.load()
    for s in shapes:
        cells = []
        for ln in runs_on:
            plan = seed_mod.seed_plan(*s.mnk, aiter=ln.first)
            tile = f"{plan['tile'][0]}x{plan['tile'][1]}"
            cells.append(f"{seed_backend(plan)} {tile} ({plan['how']})")
            marks[ln.name].append((seed_backend(plan) == "ck", gemm_a4w4_choice(*s.mnk, ln.first).how == "tuned",
                                   s.kind != "extra"))
        lines.append(f"{str(s):>14}  {s.kind:<9} {plan['path']:<9} " + "".join(f"{c:<34}" for c in cells))
    task = sum(s.kind != "extra" for s in shapes)
    for ln in runs_on:
        ck, tuned, in_task = zip(*marks[ln.name])
        task_ck, task_tuned = (sum(x and t for x, t in zip(xs, in_task)) for xs in (ck, tuned))
        lines.append(f"the {ln.name} line ({ln.span}): {sum(ck)} of {len(shapes)} shapes run CK "
                     f"({task_ck} of the {task} test and benchmark shapes); {sum(tuned)} of {len(shapes)} have a "
                     f"tuned row ({task_tuned} of {task})")
    return "\n".join(lines)


def tuned_times(path: str) -> str:
    """For each shape of `path` with a row in aiter's tuned CSV on any line the seed runs on: the kernel of
    that row and the CSV's `us` per line (`aiter_rules.TUNED_ROWS`), which is AMD's GEMM-only time from
    aiter's tuning run, quoted with the commit it was read at; not a contest timing, not measured by mxlib."""
    runs_on = seed_mod.seed_lines()
    head = "".join(f"{f'{ln.name} line ({ln.csv_commit})':>30}" for ln in runs_on)
    lines = ["aiter's tuned CSV, column `us`: AMD's GEMM-only time of each row's kernel from aiter's tuning run on a "
             "256-CU gfx950",
             "(not a contest timing: no quantization of A, no whole call; not measured by mxlib)",
             f"{'shape':>14}{head}"]
    for s in seed_shapes(path):
        rows = [TUNED_ROWS[ln.name].get(s.mnk) for ln in runs_on]
        if any(rows):
            lines.append(f"{str(s):>14}" + "".join(
                f"{'no row' if r is None else f'{r.backend} {r.tile_m}x{r.tile_n} {r.us:6.2f} us':>30}" for r in rows))
    return "\n".join(lines)


def source(obj) -> str:
    """The source text of a function, kernel or module (a Triton kernel's Python function), dedented."""
    fn = getattr(obj, "fn", obj)  # a triton JITFunction keeps the Python function in .fn
    return textwrap.dedent(inspect.getsource(fn)).rstrip("\n")


def data_contract(m: int, n: int, k: int, *, seed: int = 1, device: str = "cpu", layout: str = "shuffled") -> str:
    """What goes into and comes out of one call on a small contest-style input (m, n, k): the inputs'
    shapes and dtypes; A quantized by mxlib's Triton kernel, checked byte for byte against the spec; and C as
    the spec's reference computes it. `layout` "shuffled": A's scales written in the e8m0_shuffle layout, as
    the seed's quant+shuffle kernel writes them for the ASM and CK paths (`quantize_mxfp4_shuffled`); "natural":
    in (M, K/32) order, as its split-K path quantizes, with B read through the seed's zero-copy views
    (`layout_views`: the scale view needs K % 256 == 0 and says so). Raises RuntimeError if the Triton kernel's
    bytes differ from the spec's."""
    from ..runtime.quant import quantize_mxfp4, quantize_mxfp4_shuffled
    from ..spec.reference import generate_input, ref_kernel
    from ..spec.validate import choice
    from . import layout_views

    choice(layout, "layout", ("shuffled", "natural"))
    data = generate_input(m, n, k, seed, device=device)
    a, b, _, b_shuffle, b_scale_sh = data
    quant = quantize_mxfp4_shuffled if layout == "shuffled" else quantize_mxfp4
    a_q, a_scale = quant(a, "rne", backend="triton")
    ref_q, ref_scale = quant(a, "rne", backend="torch")
    if not (a_q.dtype == ref_q.dtype and torch.equal(a_q, ref_q) and torch.equal(a_scale, ref_scale)):
        raise RuntimeError(f"mxlib's Triton quant kernel ({layout} scales) differs from the spec on {m}x{n}x{k} "
                           f"seed {seed}")
    c = ref_kernel(data)
    if layout == "shuffled":
        kernel = "quant+shuffle"
        inputs = (f"B_shuffle {tuple(b_shuffle.shape)} {b_shuffle.dtype} (fp4x2);  B_scale_sh {tuple(b_scale_sh.shape)} "
                  f"{b_scale_sh.dtype} (E8M0, shuffled and padded)")
        scales = f"A_scale_sh {tuple(a_scale.shape)} {a_scale.dtype} (E8M0, shuffled and padded)"
    else:
        kernel = "quant"
        wview, sview = layout_views.seed_weight_view(b_shuffle), layout_views.seed_scale_view(b_scale_sh, k)
        inputs = (f"B_shuffle viewed {tuple(wview.shape)};  B_scale_sh viewed {tuple(sview.shape)} "
                  "(both zero-copy views of the tensors as given)")
        scales = f"A_scale {tuple(a_scale.shape)} {a_scale.dtype} (E8M0, natural layout)"
    return "\n".join([
        f"in : A {tuple(a.shape)} {a.dtype};  {inputs}",
        f"per call: A_q {tuple(a_q.shape)} {a_q.dtype} (fp4x2);  {scales}, from mxlib's Triton {kernel} "
        "kernel: byte for byte the spec's",
        f"out: C {tuple(c.shape)} {c.dtype}, here the spec's reference (mxlib.ref_kernel: "
        "dequant(A_q, A_scale) @ dequant(B_q, B_scale)^T summed in fp64, rounded to fp32, then to bf16)",
    ])


def _isa_rows(target: str, kernel: str, path: str, shapes) -> list[dict]:
    wanted = {str(s) for s in shapes}
    return [r for r in read_rows(ISA_CSV[target]) if r["kernel"] == kernel and r["path"] == path and r["shape"] in wanted]


def _mma(text: str) -> str:
    if not text:
        return "none"
    name, _, count = text.split(";")[0].rpartition(":")
    short = name.replace("wgmma.mma_async.sync.aligned.", "wgmma.").replace("mma.sync.aligned.", "mma.sync.")
    short = short.replace(".row.col", "")
    return f"{short} x{count}"


def compiled_facts(path: str, shapes=None) -> str:
    """mxlib's GEMM kernel of `path` on each of its shapes compiled for gfx950 and for sm_90, side by side,
    each with the config mxlib's dispatcher gives it there (the MI355X table has rows for fused_fp4 only, so
    gfx950 rows use the path's default config; sm_90 rows the H200 table's row for the path, or the default
    where it has none): tile, registers (AMD: VGPRs + AGPRs; NVIDIA: per thread), LDS / shared bytes,
    spills, the matrix instruction and its count in the kernel, CTAs per CU / SM (`occupancy.residency`)."""
    shapes = seed_shapes(path) if shapes is None else list(shapes)
    kernel = GEMM_KERNEL[_path(path)]
    by = {t: {r["shape"]: r for r in _isa_rows(t, kernel, path, shapes)} for t in ISA_CSV}
    lines = [f"{kernel} ({path} path), compiled on the CPU machine (Triton "
             f"{next(iter(by['gfx950'].values()), {}).get('triton', '?')}): "
             "data/results/mi355x/isa_all_paths.csv, data/results/h200/isa_sm90_all_paths.csv"]
    for s in shapes:
        for target in ("gfx950", "sm_90"):
            r = by[target].get(str(s))
            if r is None:
                lines.append(f"  {str(s):>14} {target:>6}  not compiled")
                continue
            tile = config_fields(r["config"])
            regs = f"{r['vgprs']}+{r['agprs']}" if target == "gfx950" else r["vgprs"]
            unit = "CU" if target == "gfx950" else "SM"
            lines.append(f"  {str(s):>14} {target:>6}  {tile.get('BLOCK_M')}x{tile.get('BLOCK_N')}x{tile.get('BLOCK_K')} "
                         f"{r['num_warps']} warps, {r['grid_ctas']:>4} CTAs, regs {regs:>7}, LDS/shared "
                         f"{r['shared_bytes']:>6} B, spill {r['spill_bytes'] or 0} B, {r['ctas_per_unit']} CTAs/{unit}, "
                         f"{_mma(r['mma'])}")
    return "\n".join(lines)


def seed_compiled(shape) -> str:
    """The seed's own Triton launches on `shape` ((m, n, k)) compiled for gfx950 (data/results/mi355x/isa_seed.csv:
    its quant kernels, and its split-K GEMM from PyPI amd-aiter's kernel files): kernel, CTAs, VGPRs, LDS,
    the compiler's waves per SIMD, CTAs per CU by resources, matrix instructions; aiter's ASM and CK calls
    are named, not compiled."""
    key = "x".join(map(str, shape))
    lines = ["the seed's launches compiled for gfx950 (data/results/mi355x/isa_seed.csv):"]
    for r in read_rows(ISA_SEED_CSV):
        if r["shape"] != key:
            continue
        if r["note"] == "not Triton, not compiled":
            lines.append(f"  {r['kernel']:<50} not Triton, not compiled: {r['config']}")
            continue
        lines.append(f"  {r['kernel']:<50} {r['grid_ctas']:>4} CTAs, {r['vgprs']} VGPRs, LDS {r['shared_bytes']} B, "
                     f"waves_per_eu hint {r['waves_per_eu']}: compiler {r['occupancy']} waves/SIMD, "
                     f"{r['ctas_per_unit']} CTAs/CU by resources, {_mma(r['mma'])}")
    if len(lines) == 1:
        raise ValueError(f"shape must be a contest shape recorded in {ISA_SEED_CSV.name}, got {key}")
    return "\n".join(lines)


def aiter_asm_kernel(tile) -> dict:
    """The row of data/results/mi355x/aiter_asm_kernels.csv for an ASM tile (tile_m, tile_n)."""
    for r in read_rows(ASM_KERNELS_CSV):
        if (int(r["tile_m"]), int(r["tile_n"])) == tuple(tile):
            return r
    raise ValueError(f"tile must be one of the ASM tiles in {ASM_KERNELS_CSV.name}, got {tile}")


def h200_config(path: str, shape):
    """The Config mxlib's H200 table gives `path` on `shape`, else the path's default (and which)."""
    from ..runtime import dispatch
    from ..runtime.paths import path_module

    mod = path_module(path)
    fields = [f for p, f in dispatch.load_table("h200").get(tuple(shape), []) if p == path]
    return (mod.Config(**fields[0]), "table") if fields else (mod.default_config(*shape), "default")


def poisoned_checks(path: str, cases, device, *, repeats: int = 1) -> tuple[str, bool]:
    """Each case (m, n, k, seed, config) through `path`'s gemm into an output filled with NaN first, so that an
    element the kernel does not write cannot pass, checked against the reference (`check_implementation`);
    config None takes the path's default, "h200" the H200 table's row (`h200_config`). With `repeats` > 1 the
    case runs that many times into fresh poisoned outputs, which must agree bit for bit (a split-K sum that
    depends on which program arrives first would not). (text, every case passed): a line per case."""
    from ..runtime.paths import path_module
    from ..spec.reference import check_implementation, generate_input

    mod, lines, passed = path_module(path), [], True
    for m, n, k, seed, config in cases:
        where = "given"
        if config is None:
            config, where = mod.default_config(m, n, k), "default"
        elif config == "h200":
            config, where = h200_config(path, (m, n, k))
        data = generate_input(m, n, k, seed, device=device)
        outs = []
        for _ in range(repeats):
            out = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device=device)
            outs.append(mod.gemm(data[0], data[3], data[4], config=config, out=out))
        ok, msg = check_implementation(data, outs[0])
        same = all(torch.equal(outs[0].view(torch.int16), o.view(torch.int16)) for o in outs[1:])
        passed &= ok and same
        lines.append(f"{m}x{n}x{k} {config} ({where})\n    {msg}"
                     + (f"; {repeats} runs bitwise {'equal' if same else 'DIFFERENT'}" if repeats > 1 else ""))
    return "\n".join(lines), passed


def aiter_checks(path: str, shapes, device: str = "cuda") -> str:
    """The seed's own aiter call for `path` (`aiter_backend.gemm`) on each of `shapes`, its output checked
    against the reference (`check_implementation`): a line per shape where `aiter_backend.available(path)`
    (an MI355X with an aiter it trusts), else one line saying why the call is not run."""
    from ..runtime import aiter_backend
    from ..spec.reference import check_implementation, generate_input

    usable, why = aiter_backend.available(path)
    if not usable:
        return f"the seed's aiter call is not run here: {why}"
    lines = []
    for s in shapes:
        data = generate_input(*s.mnk, s.seed, device=device)
        lines.append(f"aiter {path} {s}: {check_implementation(data, aiter_backend.gemm(path, data))[1]}")
    return "\n".join(lines)


def _tile_text(tm, tn, split=1) -> str:
    return f"{tm}x{tn}" + (f" x{split}" if split > 1 else "")


def occupancy(path: str, aiter: str = seed_mod.DEFAULT_AITER):
    """(text, figure): for each shape of `path`, the seed's GEMM on the MI355X (`seed_plan`: tile, CTAs,
    wave fill of the 256 CUs) and mxlib's config of the path on the H200 (CTAs, wave fill of 132 SMs), one panel
    per device; wave fill is `occupancy.cu_utilization`, CTAs / (waves x units) at one CTA a unit. Both are counts, nothing measured: the MI355X
    panel is `seed_plan` arithmetic for the aiter release line of version `aiter`, the H200 panel the config table's tiles
    (the figure's titles say so)."""
    from . import figures

    rows, holds = [], set()
    for s in seed_shapes(path):
        plan = seed_mod.seed_plan(*s.mnk, aiter=aiter)
        holds.add(plan["aiter"])
        tm, tn = plan["tile"]
        split = plan["ctas"] // occ.cta_count(*s.mnk, tm, tn) if plan["config"] else 1  # the split aiter runs
        cfg, _ = h200_config(path, s.mnk)
        ctas = occ.cta_count(*s.mnk, cfg.block_m, cfg.block_n, cfg.split_k)
        rows.append((str(s), _tile_text(tm, tn, split), plan["ctas"], occ.cu_utilization(plan["ctas"], "MI355X"),
                     _tile_text(cfg.block_m, cfg.block_n, cfg.split_k), ctas, occ.cu_utilization(ctas, "H200")))
    text = ["wave fill: CTAs / (waves x units) at one CTA a unit (the busy share of the unit-rounds the launch"
            " needs, a partly empty last round included: 100% only when every round is full; not the share of"
            " units with work)",
            f"{'shape':>14} | {'seed tile':>12} {'CTAs':>5} {'MI355X':>7} | {'H200 tile':>12} {'CTAs':>5} {'H200':>6}"]
    text += [f"{r[0]:>14} | {r[1]:>12} {r[2]:5d} {r[3]:7.1%} | {r[4]:>12} {r[5]:5d} {r[6]:6.1%}" for r in rows]
    release = next(iter(holds)) if len(holds) == 1 else f"{aiter_line(aiter).name} line"
    fig = figures.utilization_panels([
        (f"MI355X ({occ.DEVICES['MI355X'].units} CUs): the seed's GEMM launch\n"
         f"as seed_plan counts it (aiter {release}), nothing run", figures.COLORS["MI355X"],
         [(r[0], r[2], r[3], r[1]) for r in rows]),
        (f"H200 ({occ.DEVICES['H200'].units} SMs): mxlib's H200 config of this path\n"
         "(config table, or the default), counted, nothing run", figures.COLORS["H200"],
         [(r[0], r[5], r[6], r[4]) for r in rows]),
    ], suptitle=f"{path} path: GEMM CTAs (over each bar, with the tile) and wave fill, one panel per device\n"
                "static: seed_plan arithmetic / config table, nothing run")
    return "\n".join(text), fig


def speed(frame, path: str):
    """(text, figure) of the recorded H200 bench for `path` on its contest shapes: means (medians beside)
    of the path itself, the fused path and cuBLAS bf16 on the unquantized B, as bars with p20-p80 lines."""
    from . import figures, ranking

    keys = [s.mnk for s in seed_shapes(path)]
    mine = frame[frame[["m", "n", "k"]].apply(tuple, axis=1).isin(keys)]
    providers = [f"mxlib:{path}", "mxlib:fused", "cublas_bf16"]
    dates = sorted(set(mine.date))  # the table's first line names the device
    text = (f"The recorded bench of {dates[0][:16].replace('T', ' ')} UTC:\n"
            + ranking.table(mine, providers, kinds=("test", "benchmark", "extra")))
    fig = figures.bench_figure(mine, providers, f"the {path} path on its contest shapes (portable stand-ins)",
                               "data/results/h200/bench.csv", figsize=(7, 4.2))
    return text, fig


def splitk_sweep(sweep):
    """(text, figure) of a recorded split-K sweep (`python -m mxlib sweep`, splitk_sweep.csv: one row per
    shape, tile and split_k, with `measured_us` the median of its calls and `predicted_us` the latency
    model's), of the kernel as it was when the sweep ran (the figure's stamp gives the date). M = 8 and
    M = 16 at (2112, 7168) run the same grid, so only M = 16 is drawn; the text says how far apart the two
    are. Per shape drawn, the text gives the unsplit times over the tiles and the fastest config, so that a
    caption can describe what the figure shows, and the splits whose cut of K (`gemm_splitk.splitk_slices`)
    leaves a range empty, drawn hollow. Rows without a time (failed their check) are left out."""
    import matplotlib.pyplot as plt

    from ..kernels.gemm_splitk import splitk_slices
    from . import figures

    sweep = sweep[sweep.measured_us.notna()]
    key = ["tile_m", "tile_n", "split_k"]
    m8 = sweep[(sweep.m == 8) & (sweep.n == 2112)].set_index(key).measured_us
    m16 = sweep[(sweep.m == 16) & (sweep.n == 2112)].set_index(key).measured_us
    same = m8.index.intersection(m16.index)
    lines = []
    if len(same):
        lines.append(f"8x2112x7168 and 16x2112x7168: the same {len(same)} configs differ by at most "
                     f"{100 * ((m8[same] - m16[same]).abs() / m16[same]).max():.1f}%, so only 16x2112x7168 is drawn")
    shown = sweep[~((sweep.m == 8) & (sweep.n == 2112))]
    groups = list(shown.groupby(["m", "n", "k"], sort=False))
    lines.append(f"{'shape':>14}  {'unsplit, over the tiles':>24}  {'fastest config':>22}   (median us per call, H200)")
    for (m, n, k), g in groups:
        unsplit = g[g.split_k == 1].measured_us
        best = g.loc[g.measured_us.idxmin()]
        span = f"{unsplit.min():.1f} to {unsplit.max():.1f}" if len(unsplit) else "-"
        config = f"{best.tile_m}x{best.tile_n} split {best.split_k}"
        lines.append(f"{f'{m}x{n}x{k}':>14}  {span:>24}  {config:>16} {best.measured_us:5.1f}")
    for (m, n, k), g in groups:
        idle = [s for s in sorted(set(g.split_k)) if 0 in splitk_slices(k, s)]
        if idle:
            lines.append(f"{m}x{n}x{k}: split {' and '.join(map(str, idle))} leave a K range empty (ceil({k // 32} / "
                         f"split) groups of 32 per range), so one slice of programs adds only zeros")
    fig, axes = plt.subplots(1, len(groups), figsize=(4.4 * len(groups), 3.8), sharey=True, layout="constrained",
                             squeeze=False)
    for ax, ((m, n, k), g) in zip(axes[0], groups):
        for i, ((tm, tn), t) in enumerate(g.groupby(["tile_m", "tile_n"])):
            t = t.sort_values("split_k")
            ax.plot(t.split_k, t.measured_us, marker=".", color=plt.cm.tab10(i), label=f"{tm}x{tn}")
            ax.plot(t.split_k, t.predicted_us, "--", lw=0.8, color=plt.cm.tab10(i))
            idle = t[[0 in splitk_slices(k, s) for s in t.split_k]]
            ax.scatter(idle.split_k, idle.measured_us, s=28, facecolors="white", edgecolors=plt.cm.tab10(i), zorder=3)
        ax.set(title=f"{m}x{n}x{k}", xlabel="split_k (K slices per output tile)", yscale="log")
        figures.plain_log(ax)
    axes[0, 0].set_ylabel("us per call, median\n(solid: measured, dashed: model)")
    axes[0, 0].legend(fontsize=7, title="tile")
    block_k = "/".join(map(str, sorted(set(sweep.block_k))))
    fig.suptitle(f"H200: mxlib's split-K kernel as it was at the run (dated below), block_k {block_k}, contest-style; "
                 "hollow: a K range left empty")
    figures.stamp(fig, sweep, "data/results/h200/splitk_sweep.csv")
    return "\n".join(lines), fig


def num_ksplit_model(asked=range(1, 17)):
    """(text, figure) of the seed's split-K launch at (16, 2112, 7168) for each NUM_KSPLIT `asked`: the
    split aiter's `get_splitk` runs instead (`aiter_rules.triton_splitk`), the CTAs of the seed's header
    and config, and the occupancy model's utilization of the MI355X and of the H200 at each split that
    runs, the seed's config and header marked. Counted from the rules, nothing run."""
    import matplotlib.pyplot as plt

    from ..spec.aiter_rules import triton_splitk
    from . import figures

    m, n, k = seed_mod.SEED_SPLITK_SHAPE
    cfg = seed_mod.SEED_SPLITK_CONFIG
    tiles = occ.cta_count(m, n, k, cfg["BLOCK_SIZE_M"], cfg["BLOCK_SIZE_N"])
    asked = list(asked)
    ran = [triton_splitk(k, cfg["BLOCK_SIZE_K"], a).num_ksplit for a in asked]
    header = seed_mod.SEED_HEADER_NUM_KSPLIT
    text = "\n".join([f"{tiles} tiles; header NUM_KSPLIT={header} -> {tiles * header} CTAs; "
                       f"config NUM_KSPLIT={cfg['NUM_KSPLIT']} -> {tiles * cfg['NUM_KSPLIT']} CTAs",
                       f"asked: {asked}", f"runs : {ran}"])
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True, layout="constrained")
    for ax, dev in zip(axes, ("MI355X", "H200")):
        ax.plot(asked, [100 * occ.cu_utilization(tiles * r, dev) for r in ran], marker="o", ms=4,
                color=figures.COLORS[dev])
        for a, what in ((cfg["NUM_KSPLIT"], "seed's config"), (header, "seed's header")):
            ax.axvline(a, color="#999999", lw=0.8)
            ax.text(a + 0.1, 3, what, fontsize=8, color="#666666")
        d = occ.DEVICES[dev]
        ax.set(xlabel="NUM_KSPLIT asked (aiter's get_splitk decides what runs)", ylim=(0, 102),
               title=f"{dev} ({d.units} {d.unit_name}s), model")
    axes[0].set_ylabel("wave fill (%) = CTAs / (waves x units)")
    fig.suptitle(f"({m}, {n}, {k}), {cfg['BLOCK_SIZE_M']}x{cfg['BLOCK_SIZE_N']} tiles: {tiles} x splits CTAs")
    return text, fig
