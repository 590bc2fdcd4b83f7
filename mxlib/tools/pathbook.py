"""The sections notebooks 03 to 06 share, and a few longer cells of 05 to 08, one function each: the seed's launches for a path (from
`mxlib.spec.seed.seed_plan`), the source of a kernel, a path's compiled facts for gfx950 and sm_90 side
by side, its occupancy on each device, its H200 config and its measured speed; for 06, the seed's split-K
launch at each split (text, and where its CTAs land), the GEMM launches per shape with their residency (CTAs
one CU or SM holds at once, from compiled resources) and their bytes in flight, the H200 sweep at the seed's
tile beside that residency, and the model's utilization against split-K; for 07, the fused kernel's
versions, one program's time from inside and what quantizing A costs (recorded diagnostic runs, read with
`mxlib.tools.probe`); for 05, the recorded split-K sweep; for 08, the recorded harness runs. Each returns text (and, for figures, the figure), so a notebook cell is one call and a print;
nothing here measures.

Where the numbers come from: `seed_plan` and `mxlib.spec.aiter_rules` (what the seed launches, per aiter
release line), data/results/mi355x/isa_all_paths.csv and data/results/h200/isa_sm90_all_paths.csv (every
Triton path compiled on the CPU machine, `python -m mxlib isa --path all`), data/results/mi355x/isa_seed.csv
(the seed's own Triton kernels), data/results/mi355x/isa.csv and data/results/h200/isa_sm90.csv (mxlib's
dispatcher's Triton launch per shape: fused_fp4 on gfx950, fused on sm_90), data/results/mi355x/aiter_asm_kernels.csv (aiter's ASM GEMMs' metadata),
mxlib/data/configs/h200.csv (the H200 table) and data/results/h200/bench.csv (the timing run that timed
every Triton path).
"""
from __future__ import annotations

import csv
import inspect
import textwrap
from dataclasses import dataclass
from pathlib import Path

from ..spec import seed as seed_mod
from ..spec import shapes as shapes_mod
from ..spec.aiter_rules import AITER_LINES, gemm_a4w4_choice
from ..spec.ints import cdiv
from . import occupancy as occ
from .repo import RESULTS_DIR

SEED_PATHS = seed_mod.PATHS
ISA_CSV = {"gfx950": RESULTS_DIR / "mi355x" / "isa_all_paths.csv", "sm_90": RESULTS_DIR / "h200" / "isa_sm90_all_paths.csv"}
ISA_SEED_CSV = RESULTS_DIR / "mi355x" / "isa_seed.csv"
ISA_DISPATCH_CSV = {"gfx950": RESULTS_DIR / "mi355x" / "isa.csv", "sm_90": RESULTS_DIR / "h200" / "isa_sm90.csv"}
ASM_KERNELS_CSV = RESULTS_DIR / "mi355x" / "aiter_asm_kernels.csv"
GEMM_KERNEL = {"asm": "_tiled_kernel", "ck": "_tiled_kernel", "splitk": "_splitk_kernel"}  # mxlib's GEMM per path


def _path(path: str) -> str:
    if path not in SEED_PATHS:
        raise ValueError(f"path must be one of the seed's paths {', '.join(SEED_PATHS)}, got {path!r}")
    return path


def _rows(file: Path) -> list[dict]:
    with open(file, newline="") as f:
        return list(csv.DictReader(f))


def seed_shapes(path: str) -> list:
    """The contest shapes (mxlib.spec.shapes.Shape) the seed sends down `path`, in the contest's order."""
    _path(path)
    return [s for s in shapes_mod.load() if seed_mod.seed_path(*s.mnk) == path]


def _grid(g) -> str:
    return "?" if g is None else "x".join(map(str, g))


def seed_launches(path: str, aiter: str = seed_mod.CONTEST_AITER) -> str:
    """Every launch of one seed call per shape of `path`: kernel, grid, CTAs, and for the GEMM how its
    kernel was chosen ("seed": named by the seed; "tuned"/"heuristic": aiter's CSV row or ASM heuristic;
    "config": the seed's Triton config) with its tile and the MI355X's CUs it occupies (one CTA per CU)."""
    lines = [f"what the seed launches per call (mxlib.spec.seed.seed_plan, aiter {aiter} release line):"]
    for s in seed_shapes(path):
        plan = seed_mod.seed_plan(*s.mnk, aiter=aiter)
        tile = "?" if plan["tile"] is None else f"{plan['tile'][0]}x{plan['tile'][1]}"
        util = "" if plan["ctas"] is None else f", {plan['ctas'] / occ.DEVICES['MI355X'].units:.1%} of 256 CUs"
        lines.append(f"  {str(s):>14}  GEMM: {plan['how']} {tile} tile, {plan['ctas']} CTAs{util}  "
                     f"(holds for aiter {plan['aiter']})")
        for launch in plan["launches"]:
            lines.append(f"  {'':14}    {launch['kernel'][:60]:<60} grid {_grid(launch['grid']):>7}  {launch['ctas']} CTAs")
    return "\n".join(lines)


def gemm_a4w4_lines(shapes) -> str:
    """What `aiter.gemm_a4w4` runs for each shape on each aiter release line (`gemm_a4w4_choice`): CK or
    ASM, from a tuned row or from the ASM heuristic, with its tile and CTAs."""
    head = f"{'shape':>14}  " + "".join(f"{'aiter ' + line.first + ('+' if line.stop is None else ''):<36}"
                                         for line in AITER_LINES)
    lines = [head]
    for s in shapes:
        cells = []
        for line in AITER_LINES:
            c = gemm_a4w4_choice(*s.mnk, line.first)
            cells.append(f"{c.backend} {c.tile[0]}x{c.tile[1]} ({c.how}), {c.ctas} CTAs")
        lines.append(f"{str(s):>14}  " + "".join(f"{c:<36}" for c in cells))
    return "\n".join(lines)


def _backend(plan: dict) -> str:
    if plan["path"] == "splitk":
        return "triton"
    return "ck" if str(plan["runs"]).startswith("a4w4_blockscale") else "asm"


def release_table() -> str:
    """Every contest shape: the seed's path and, on each aiter release line it runs on (`AITER_LINES`), the
    GEMM kernel that runs (`seed_plan`): CK, ASM or Triton, its tile, how it was chosen; then, per line,
    how many shapes run CK and how many have a tuned row in aiter's CSV (`gemm_a4w4_choice`)."""
    lines = [f"{'shape':>14}  {'seed path':<9} " + "".join(f"{'aiter ' + ln.first + ('+' if ln.stop is None else ''):<34}"
                                                         for ln in AITER_LINES)]
    counts = {ln.first: [0, 0] for ln in AITER_LINES}
    for s in shapes_mod.load():
        cells = []
        for ln in AITER_LINES:
            plan = seed_mod.seed_plan(*s.mnk, aiter=ln.first)
            tile = f"{plan['tile'][0]}x{plan['tile'][1]}"
            cells.append(f"{_backend(plan)} {tile} ({plan['how']})")
            counts[ln.first][0] += _backend(plan) == "ck"
            counts[ln.first][1] += gemm_a4w4_choice(*s.mnk, ln.first).how == "tuned"
        lines.append(f"{str(s):>14}  {plan['path']:<9} " + "".join(f"{c:<34}" for c in cells))
    for ln in AITER_LINES:
        ck, tuned = counts[ln.first]
        lines.append(f"aiter {ln.first} line ({ln.span}): {ck} of 13 shapes run CK; {tuned} of 13 have a tuned row")
    return "\n".join(lines)


def source(obj) -> str:
    """The source text of a function, kernel or module (a Triton kernel's Python function), dedented."""
    fn = getattr(obj, "fn", obj)  # a triton JITFunction keeps the Python function in .fn
    return textwrap.dedent(inspect.getsource(fn)).rstrip("\n")


def _isa_rows(target: str, kernel: str, path: str, shapes) -> list[dict]:
    wanted = {str(s) for s in shapes}
    return [r for r in _rows(ISA_CSV[target]) if r["kernel"] == kernel and r["path"] == path and r["shape"] in wanted]


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
    gfx950 rows use the path's default config; sm_90 rows the H200 table's): tile, registers (AMD: VGPRs + AGPRs; NVIDIA: per thread), LDS / shared bytes, spills, the matrix
    instruction and its count in the kernel, CTAs per CU / SM (`occupancy.residency`)."""
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
            tile = dict(kv.split("=") for kv in r["config"].split() if "=" in kv)
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
    for r in _rows(ISA_SEED_CSV):
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
    for r in _rows(ASM_KERNELS_CSV):
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


def _tile_text(tm, tn, split=1) -> str:
    return f"{tm}x{tn}" + (f" x{split}" if split > 1 else "")


def occupancy(path: str, aiter: str = seed_mod.CONTEST_AITER):
    """(text, figure): for each shape of `path`, the seed's GEMM on the MI355X (`seed_plan`: tile, CTAs,
    share of the 256 CUs) and mxlib's config of the path on the H200 (CTAs, share of 132 SMs, one CTA per
    SM as the utilization measure), one panel per device."""
    from . import figures

    rows = []
    for s in seed_shapes(path):
        plan = seed_mod.seed_plan(*s.mnk, aiter=aiter)
        tm, tn = plan["tile"]
        split = plan["ctas"] // occ.cta_count(*s.mnk, tm, tn) if plan["config"] else 1  # the split aiter runs
        cfg, _ = h200_config(path, s.mnk)
        ctas = occ.cta_count(*s.mnk, cfg.block_m, cfg.block_n, cfg.split_k)
        rows.append((str(s), _tile_text(tm, tn, split), plan["ctas"], occ.cu_utilization(plan["ctas"], "MI355X"),
                     _tile_text(cfg.block_m, cfg.block_n, cfg.split_k), ctas, occ.cu_utilization(ctas, "H200")))
    text = [f"{'shape':>14} | {'seed tile':>12} {'CTAs':>5} {'MI355X':>7} | {'H200 tile':>12} {'CTAs':>5} {'H200':>6}"]
    text += [f"{r[0]:>14} | {r[1]:>12} {r[2]:5d} {r[3]:7.1%} | {r[4]:>12} {r[5]:5d} {r[6]:6.1%}" for r in rows]
    fig = figures.utilization_panels([
        ("MI355X (256 CUs): the seed's GEMM launch", figures.COLORS["MI355X"], [(r[0], r[2], r[3], r[1]) for r in rows]),
        ("H200 (132 SMs): mxlib's H200 config of this path", figures.COLORS["H200"],
         [(r[0], r[5], r[6], r[4]) for r in rows]),
    ], suptitle=f"{path} path: GEMM CTAs (over each bar, with the tile) and utilization, one panel per device")
    return "\n".join(text), fig


def speed(frame, path: str):
    """(text, figure) of the recorded H200 bench for `path` on its contest shapes: means (medians beside)
    of the path itself, the fused path and cuBLAS bf16 on the unquantized B, as bars with p20-p80 lines."""
    import matplotlib.pyplot as plt

    from . import figures, ranking

    keys = [s.mnk for s in seed_shapes(path)]
    mine = frame[frame[["m", "n", "k"]].apply(tuple, axis=1).isin(keys)]
    providers = [f"mxlib:{path}", "mxlib:fused", "cublas_bf16"]
    text = ranking.table(mine, providers, kinds=("test", "benchmark", "extra"))
    fig, ax = plt.subplots(figsize=(7, 4.2))
    figures.speed_bars(ax, mine, providers)
    ax.set_title(f"H200: the {path} path on its contest shapes (portable stand-ins)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    figures.stamp(fig, mine, "data/results/h200/bench.csv")
    return text, fig


# ---------------------------------------------------------------------------------------------------------
# Notebook 06: what runs per shape, how many CTAs a unit holds, how many bytes are in flight


@dataclass(frozen=True)
class Launch:
    """One GEMM launch of one call, with what is known of it (None: not known, e.g. CK's resources)."""

    device: str  # "MI355X" or "H200"
    what: str  # who launches it, and the kernel
    k: int  # the GEMM's K
    ctas: int
    resident: int | None  # CTAs one CU / SM holds at once, from the compiled kernel's resources
    tile: tuple[int, int]  # (tile_m, tile_n)
    block_k: int | None  # K values per step of the kernel's loop
    split_k: int
    stages: int | None  # K steps of loads in flight per CTA (Triton's num_stages)
    a_format: str  # "fp4": A quantized by an earlier launch; "bf16": A quantized inside the GEMM

    @property
    def units(self) -> int:
        return occ.DEVICES[self.device].units

    @property
    def rounds(self) -> int | None:
        """Rounds of `resident` x units CTAs; 1 whenever the CTAs fit one per unit, whatever the residency."""
        if self.ctas <= self.units:
            return 1
        return None if self.resident is None else occ.rounds(self.ctas, self.resident, self.device)

    @property
    def k_steps(self) -> int | None:
        """Dependent K steps one CTA makes (its K slice over block_k)."""
        return None if self.block_k is None else cdiv(cdiv(self.k, self.split_k), self.block_k)


def _kv(text: str) -> dict:
    return dict(kv.split("=", 1) for kv in text.split() if "=" in kv)


def _seed_launch(shape) -> Launch:
    m, n, k = shape
    plan = seed_mod.seed_plan(m, n, k)
    tm, tn = plan["tile"]
    split = plan["ctas"] // occ.cta_count(m, n, k, tm, tn)
    if plan["path"] == "splitk":
        key = "x".join(map(str, shape))
        row = next(r for r in _rows(ISA_SEED_CSV) if r["shape"] == key and "gemm" in r["kernel"]
                   and "reduce" not in r["kernel"] and r["ctas_per_unit"])
        cfg = plan["config"]
        return Launch("MI355X", f"seed: aiter Triton split-K {tm}x{tn}", k, plan["ctas"], int(row["ctas_per_unit"]),
                      (tm, tn), cfg["BLOCK_SIZE_K"], split, cfg["num_stages"], "fp4")
    if _backend(plan) == "asm":
        return Launch("MI355X", f"seed: aiter ASM {tm}x{tn}", k, plan["ctas"], int(aiter_asm_kernel((tm, tn))["ctas_per_cu"]),
                      (tm, tn), None, split, None, "fp4")
    return Launch("MI355X", f"seed: aiter CK {tm}x{tn}", k, plan["ctas"], None, (tm, tn), None, split, None, "fp4")


def _dispatch_launch(shape, target: str) -> Launch:
    key = "x".join(map(str, shape))
    row = next(r for r in _rows(ISA_DISPATCH_CSV[target]) if r["shape"] == key and "gemm" in r["kernel"])
    cfg = _kv(row["config"])
    device, path = ("MI355X", "fused_fp4") if target == "gfx950" else ("H200", "fused")
    tm, tn = int(cfg["BLOCK_M"]), int(cfg["BLOCK_N"])
    return Launch(device, f"mxlib {path} {tm}x{tn}", shape[2], int(row["grid_ctas"]), int(row["ctas_per_unit"]),
                  (tm, tn), int(cfg["BLOCK_K"]), int(cfg["SPLIT_K"]), int(cfg["num_stages"]), "bf16")


def gemm_launches(shape) -> list[Launch]:
    """The GEMM launch of one call on `shape` ((m, n, k)): the seed's on the MI355X (`seed_plan`; residency
    from aiter's ASM metadata or the seed's compiled Triton kernel; CK's is not known), mxlib's fused_fp4 on
    the MI355X (compiled, never run) and mxlib's fused on the H200, each from its compiled resources."""
    shape = tuple(shape)
    return [_seed_launch(shape), _dispatch_launch(shape, "gfx950"), _dispatch_launch(shape, "sm_90")]


def _opt(v) -> str:
    return "?" if v is None else str(v)


def residency_table(shapes=None) -> str:
    """Per shape (default: the benchmark shapes), each launch of `gemm_launches`: CTAs, CTAs per CU / SM
    from compiled resources, rounds, and the units with work in the first round."""
    shapes = [s.mnk for s in shapes_mod.load("benchmark")] if shapes is None else [tuple(s) for s in shapes]
    lines = [f"{'shape':>14}  {'device':6} {'launch':34} {'CTAs':>5} {'per unit':>8} {'rounds':>6} {'units with work':>16}"]
    for s in shapes:
        for ln in gemm_launches(s):
            busy = min(ln.ctas, ln.units)
            lines.append(f"{'x'.join(map(str, s)):>14}  {ln.device:6} {ln.what:34} {ln.ctas:5d} {_opt(ln.resident):>8} "
                         f"{_opt(ln.rounds):>6} {f'{busy} of {ln.units} ({busy / ln.units:.0%})':>16}")
    return "\n".join(lines)


def littles_law_table(shapes=None) -> str:
    """Little's law (bytes in flight = bandwidth x latency) for each launch of `gemm_launches` on `shapes`
    (default: the benchmark shapes with M <= 32): the bytes the call reads and their time at the device's
    bandwidth, the bytes one K step of all resident CTAs requests at once, and the longest memory round
    trip that keeps the device streaming (`occupancy.latency_covered_us`). '?': the kernel's K step is not
    known (aiter's ASM and CK kernels are not compiled here)."""
    if shapes is None:
        shapes = [s.mnk for s in shapes_mod.load("benchmark") if s.m <= 32]
    lines = [f"{'shape':>14}  {'device':6} {'launch':34} {'reads':>8} {'at BW':>7} {'K steps':>7} "
             f"{'in flight':>9} {'covers':>7}   (KB, us; BW: MI355X 8 TB/s cited, H200 4.28 TB/s measured)"]
    for s in shapes:
        m, n, k = s
        for ln in gemm_launches(s):
            bw = occ.DEVICES[ln.device].bandwidth.value
            read = occ.gemm_read_bytes(m, n, k, ln.a_format)
            cells = [_opt(ln.k_steps), "?", "?"]
            if ln.block_k is not None:
                step = occ.step_bytes(min(ln.tile[0], m), min(ln.tile[1], n), ln.block_k, ln.a_format)
                stages = min(ln.stages, ln.k_steps)  # a CTA cannot have more steps in flight than it makes
                flight = occ.in_flight_bytes(ln.ctas, ln.resident, ln.device, step, stages)
                cells[1:] = [f"{flight / 1e3:.0f}", f"{occ.latency_covered_us(flight, bw):.2f}"]
            lines.append(f"{'x'.join(map(str, s)):>14}  {ln.device:6} {ln.what:34} {read / 1e3:8.0f} "
                         f"{read / bw * 1e6:7.2f} {cells[0]:>7} {cells[1]:>9} {cells[2]:>7}")
    return "\n".join(lines)


def seed_splitk_h200_resident(res) -> int | None:
    """CTAs one H200 SM holds at once of mxlib's split-K kernel with the seed's tile on the seed's split-K
    shape: the fewest over the configs of a splitk_sweep_residency.csv frame (None: no frame)."""
    m = seed_mod.SEED_SPLITK_SHAPE[0]
    tm, tn = seed_mod.seed_plan(*seed_mod.SEED_SPLITK_SHAPE)["tile"]
    return None if res is None else int(res[(res.m == m) & (res.tile_m == tm) & (res.tile_n == tn)].resident.min())


def _seed_splits() -> tuple[int, int, int]:
    """Unsplit, the seed's config's NUM_KSPLIT, and its header comment's."""
    plan = seed_mod.seed_plan(*seed_mod.SEED_SPLITK_SHAPE)
    return 1, plan["config"]["NUM_KSPLIT"], seed_mod.SEED_HEADER_NUM_KSPLIT


def _rounds(ctas: int, resident, device) -> str:
    return "?" if resident is None else str(occ.rounds(ctas, resident, device))


def seed_splits(res) -> str:
    """The seed's split-K shape: its tile and tiles, the slices aiter runs for the config's NUM_KSPLIT and for
    the header comment's, the CTAs one unit holds at once (MI355X: the seed's GEMM compiled for gfx950;
    H200: mxlib's split-K kernel, `seed_splitk_h200_resident` of `res`), and per split the units with work,
    one-CTA waves and rounds at that residency. Counts, nothing measured."""
    from ..spec.aiter_rules import triton_splitk

    m, n, k = seed_mod.SEED_SPLITK_SHAPE
    plan = seed_mod.seed_plan(m, n, k)
    tm, tn = plan["tile"]
    cfg = plan["config"]
    lines = [f"seed_plan{(m, n, k)}: {plan['path']} path, {tm}x{tn} output tiles: {occ.cta_count(m, n, k, tm, tn)} tiles; "
             f"config NUM_KSPLIT={cfg['NUM_KSPLIT']} -> {plan['ctas']} GEMM CTAs"]
    for asked in (cfg["NUM_KSPLIT"], seed_mod.SEED_HEADER_NUM_KSPLIT):
        s = triton_splitk(k, cfg["BLOCK_SIZE_K"], asked)
        lines.append(f"  NUM_KSPLIT={asked:2d}: aiter runs {s.num_ksplit} slices of {s.splitk_block_size} K values "
                     f"(BLOCK_SIZE_K={s.block_k}), {occ.cta_count(m, n, k, tm, tn, s.num_ksplit)} CTAs"
                     + ("  <- what the seed runs" if asked == cfg["NUM_KSPLIT"] else "  <- the header's number, not run"))
    mi_res = gemm_launches((m, n, k))[0].resident
    h200_res = seed_splitk_h200_resident(res)
    lines += ["", f"CTAs one unit holds at once: MI355X {mi_res} (the seed's split-K GEMM compiled for gfx950), "
                  f"H200 {h200_res} (mxlib's split-K kernel, {tm}x{tn} tiles, compiled for sm_90)",
              f"{'split_k':>7} {'CTAs':>5} | {'MI355X CUs with work':>20} {'rounds':>6} | {'H200 SMs with work':>18} "
              f"{'one per SM: waves':>17} {'rounds':>6}"]
    for split in _seed_splits():
        ctas = occ.cta_count(m, n, k, tm, tn, split)
        lines.append(f"{split:7d} {ctas:5d} | {occ.cu_utilization(ctas, 'MI355X'):20.1%} {_rounds(ctas, mi_res, 'MI355X'):>6} | "
                     f"{min(ctas, 132) / 132:18.1%} {occ.waves(ctas, 'H200'):17d} {_rounds(ctas, h200_res, 'H200'):>6}")
    return "\n".join(lines)


def unit_loads(ctas: int, device):
    """CTAs per unit when `ctas` CTAs are dealt out, as an image: MI355X, one row per XCD (CTAs round-robin
    over the 8 XCDs, CTA j of an XCD to CU j % 32); H200, CTA i to SM i % 132, drawn as 4 rows of 33."""
    import numpy as np

    if occ.get_device(device).name == "MI355X":
        return np.array([np.bincount(np.arange(load) % 32, minlength=32) for load in occ.group_loads(ctas, "MI355X")])
    return np.bincount(np.arange(ctas) % 132, minlength=132).reshape(4, 33)


def cu_map(res):
    """Figure: where the seed's split-K shape's CTAs land, one panel per device (`unit_loads`) and one row per
    split of `_seed_splits`, each titled with its CTAs, share of units with work and rounds at the compiled
    residency (H200: `seed_splitk_h200_resident` of `res`)."""
    import matplotlib.pyplot as plt

    m, n, k = seed_mod.SEED_SPLITK_SHAPE
    tm, tn = seed_mod.seed_plan(m, n, k)["tile"]
    resident = {"MI355X": gemm_launches((m, n, k))[0].resident, "H200": seed_splitk_h200_resident(res)}
    fig, axes = plt.subplots(3, 2, figsize=(11, 4.6), gridspec_kw={"width_ratios": [32, 33]}, layout="constrained")
    for row, split in enumerate(_seed_splits()):
        ctas = occ.cta_count(m, n, k, tm, tn, split)
        for ax, dev in ((axes[row, 0], "MI355X"), (axes[row, 1], "H200")):
            ax.imshow(unit_loads(ctas, dev), cmap="Blues", vmin=0, vmax=2, aspect="auto", interpolation="nearest")
            ax.set_xticks([]); ax.set_yticks([]); ax.grid(False)
            busy = min(ctas, occ.DEVICES[dev].units) / occ.DEVICES[dev].units
            ax.set_title(f"{dev}, split_k={split}: {ctas} CTAs, {busy:.0%} of units with work, "
                         f"{_rounds(ctas, resident[dev], dev)} round", fontsize=9)
    for row in range(3):
        axes[row, 0].set_ylabel("XCD (8)")
        axes[row, 1].set_ylabel("SM row")
    axes[2, 0].set_xlabel("CU within its XCD (32 each)")
    axes[2, 1].set_xlabel("SM (132, drawn as 4 rows of 33)")
    fig.suptitle(f"CTAs per unit for ({m}, {n}, {k}) with the seed's {tm}x{tn} tiles "
                 "(white: idle, light: one CTA, dark: two CTAs resident at once); counts, nothing measured")
    return fig


def seed_tile_sweep(sweep, res) -> str:
    """The recorded H200 split-K sweep (splitk_sweep.csv) at the seed's split-K shape and tile, each split
    with its compiled residency (splitk_sweep_residency.csv `res`): CTAs, per SM, rounds at that residency,
    one-CTA waves, the K steps one CTA makes in series, and the measured median."""
    m, n, k = seed_mod.SEED_SPLITK_SHAPE
    tm, tn = seed_mod.seed_plan(m, n, k)["tile"]
    keys = ["m", "n", "k", "tile_m", "tile_n", "block_k", "split_k"]
    t = sweep.merge(res[keys + ["resident"]], on=keys)
    t = t[(t.m == m) & (t.tile_m == tm) & (t.tile_n == tn)].sort_values("split_k")
    lines = [f"H200, ({m}, {n}, {k}), {tm}x{tn} tiles, block_k {int(t.block_k.iloc[0])}: "
             "measured median us per call (data/results/h200/splitk_sweep.csv)",
             f"{'split_k':>7} {'CTAs':>5} {'per SM':>6} {'rounds':>6} {'waves, one per SM':>17} {'K steps per CTA':>15} {'measured':>9}"]
    for r in t.itertuples():
        steps = cdiv(k // r.split_k, r.block_k)
        lines.append(f"{r.split_k:7d} {r.ctas:5d} {r.resident:6d} {occ.rounds(r.ctas, r.resident, 'H200'):6d} "
                     f"{occ.waves(r.ctas, 'H200'):17d} {steps:15d} {r.measured_us:9.1f}")
    return "\n".join(lines)


def utilization_grid(model, device, tile=(32, 128)):
    """From the occupancy model's table (occupancy_model.csv), one row per distinct tile grid over the test
    and benchmark shapes of `device` with `tile`: (split_k values, image rows of utilization in % per split,
    NaN where K is too short for it, row labels naming the shapes that share the row)."""
    import numpy as np

    t = model[(model.tile_m == tile[0]) & (model.tile_n == tile[1])]
    grid = {}  # shapes with the same tile grid share one row
    for s in shapes_mod.load("test") + shapes_mod.load("benchmark"):
        g = t[(t.device == device) & (t.m == s.m) & (t.n == s.n) & (t.k == s.k)].sort_values("split_k")
        row = dict(zip(g.split_k, 100 * g.utilization))
        grid.setdefault(tuple(sorted(row.items())), [row, []])[1].append(str(s))
    splits = sorted(set(t.split_k))
    image = np.array([[row.get(sk, np.nan) for sk in splits] for row, _ in grid.values()])
    return splits, image, [" = ".join(names) for _, names in grid.values()]


def utilization_vs_splitk(model):
    """Figure: `utilization_grid` of the MI355X and of the H200 side by side (32x128 tiles, one CTA per unit
    at a time), counted from the model's table, nothing measured."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")
    for ax, dev in zip(axes, ("MI355X", "H200")):
        splits, image, labels = utilization_grid(model, dev)
        im = ax.imshow(image, aspect="auto", cmap="viridis", vmin=0, vmax=100, interpolation="nearest",
                       extent=(splits[0] - 0.5, splits[-1] + 0.5, len(labels) - 0.5, -0.5))
        ax.set_yticks(range(len(labels)), labels, fontsize=8)
        ax.grid(False)
        d = occ.DEVICES[dev]
        ax.set(title=f"{dev} ({d.units} {d.unit_name}s), 32x128 tiles", xlabel="split_k (K slices per output tile)")
    fig.colorbar(im, ax=axes, label="utilization (%) = CTAs / (waves x units),\none CTA per unit at a time", shrink=0.9)
    fig.suptitle("Counted, not measured: utilization against split_k, every test and benchmark shape (blank: K too short to split)")
    return fig


# ---------------------------------------------------------------------------------------------------------
# Notebook 05: the split-K sweep measured on the H200


def splitk_sweep(sweep):
    """(text, figure) of a recorded split-K sweep (`python -m mxlib sweep`, splitk_sweep.csv: one row per
    shape, tile and split_k, with `measured_us` the median of its calls and `predicted_us` the latency
    model's). M = 8 and M = 16 at (2112, 7168) run the same grid, so only M = 16 is drawn; the text says how
    far apart the two are. Per shape drawn, the text gives the unsplit times over the tiles and the fastest
    config, so that a caption can describe what the figure shows. Rows without a time (failed their check)
    are left out."""
    import matplotlib.pyplot as plt

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
    fig, axes = plt.subplots(1, len(groups), figsize=(4.4 * len(groups), 3.8), sharey=True, layout="constrained",
                             squeeze=False)
    for ax, ((m, n, k), g) in zip(axes[0], groups):
        for i, ((tm, tn), t) in enumerate(g.groupby(["tile_m", "tile_n"])):
            t = t.sort_values("split_k")
            ax.plot(t.split_k, t.measured_us, marker=".", color=plt.cm.tab10(i), label=f"{tm}x{tn}")
            ax.plot(t.split_k, t.predicted_us, "--", lw=0.8, color=plt.cm.tab10(i))
        ax.set(title=f"{m}x{n}x{k}", xlabel="split_k (K slices per output tile)", yscale="log")
        figures.plain_log(ax)
    axes[0, 0].set_ylabel("us per call, median\n(solid: measured, dashed: model)")
    axes[0, 0].legend(fontsize=7, title="tile")
    fig.suptitle("H200: mxlib's split-K kernel (portable stand-in), contest-style")
    figures.stamp(fig, sweep, "data/results/h200/splitk_sweep.csv")
    return "\n".join(lines), fig


# ---------------------------------------------------------------------------------------------------------
# Notebook 08: the recorded harness runs


def harness_summary(directory: Path) -> str:
    """The verdict and score lines of every `harness_*.txt` in `directory` (as `python -m mxlib harness`
    writes them: a table, then 'MODE: n of m passed', 'score (...): X us', then the device and the run's
    duration), one block per file, the duration left out (it differs run to run)."""
    lines = []
    for file in sorted(Path(directory).glob("harness_*.txt")):
        said = [ln for ln in file.read_text().splitlines() if " passed" in ln or ln.startswith("score")]
        if said:
            lines.append(f"{file.name}:")
            lines += ["  " + ln for ln in said]
    if not lines:
        raise FileNotFoundError(f"no harness_*.txt with a verdict in {directory}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------------------
# Notebook 07: the fused kernel's versions, one program's time from inside, and the cost of quantizing A

FUSED_VERSIONS = (  # (name, recorded CSV under data/results/h200/, "tuning" or "bench")
    ("version 1: one launch", "fused_tuning.csv", "tuning"),
    ("version 2: scales loaded a step ahead", "bench_standalone.csv", "bench"),
    ("version 3: A quantized once per launch", "bench.csv", "bench"),
    ("version 4: neighbours of version 3", "rung4/bench.csv", "bench"),
)


def bench_medians(frame) -> dict:
    """(m, n, k) -> median us per call of the dispatcher (`mxlib` provider) on the benchmark shapes of a
    bench.csv frame, contest timing."""
    f = frame[(frame.timing == "contest") & (frame.provider == "mxlib") & (frame.kind == "benchmark")]
    return {(r.m, r.n, r.k): r.median_us for r in f.itertuples()}


def tuning_medians(frame) -> dict:
    """(m, n, k) -> the fastest median of version 1 proper (A's scales e8m0, B decoded the plain way:
    a_e4m3 == 0, b_decode == 0) over the configs a fused_tuning.csv frame timed on the benchmark shapes.
    The tuning run recorded medians only."""
    f = frame[(frame.kind == "benchmark") & frame.median_us.notna() & (frame.a_e4m3 == 0) & (frame.b_decode == 0)]
    return {key: g.median_us.min() for key, g in f.groupby(["m", "n", "k"])}


def _ladder_lines(ladder: dict, heading: str, name_width: int) -> list[str]:
    """A kernel's versions as text, shared by `fused_versions` and `mma_versions`: `ladder` is
    {version: {(m, n, k): us}}; a row per version with its time on each benchmark shape and their
    geometric mean."""
    from .stats import geomean

    keys = [s.mnk for s in shapes_mod.load("benchmark")]
    lines = [f"{heading:{name_width}s}" + "".join(f"{'x'.join(map(str, key)):>15}" for key in keys) + f"{'geomean':>9}"]
    for name, t in ladder.items():
        lines.append(f"{name:{name_width}s}" + "".join(f"{t[key]:15.2f}" for key in keys)
                     + f"{geomean([t[key] for key in keys]):9.2f}")
    return lines


def _version_bars(ladder: dict):
    """Grouped bars of the fused kernel's versions (`ladder` as in `_ladder_lines`, medians), one colour
    per version and a group per benchmark shape."""
    import matplotlib.pyplot as plt
    import numpy as np

    keys = [s.mnk for s in shapes_mod.load("benchmark")]
    fig, ax = plt.subplots(figsize=(8, 3.6), layout="constrained")
    width = 0.8 / len(ladder)
    for i, (name, t) in enumerate(ladder.items()):
        ax.bar(np.arange(len(keys)) - 0.4 + width * (i + 0.5), [t[key] for key in keys], width, label=name)
    ax.set_xticks(range(len(keys)), ["x".join(map(str, key)) for key in keys], rotation=30, ha="right")
    ax.set(ylabel="contest time per call (us, median)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_title("H200: the fused kernel, version by version (benchmark shapes)")
    return fig


def fused_versions(frames: dict):
    """(text, figure) of the fused kernel's four versions (`FUSED_VERSIONS`; `frames` maps each name to its
    recorded frame, None where not recorded, which is left out): per benchmark shape the median us per call
    and their geometric mean, then each bench run's score the contest's way (geometric mean of the means,
    of the medians beside); the figure compares the medians, since version 1's run has no means."""
    from . import figures, ranking

    kinds = {name: kind for name, _, kind in FUSED_VERSIONS}
    ladder = {name: (tuning_medians if kinds[name] == "tuning" else bench_medians)(f)
              for name, f in frames.items() if f is not None}
    lines = _ladder_lines(ladder, "median us per call", 38)
    fig = _version_bars(ladder)
    lines += ["", "score as the contest computes it, geometric mean of the per-shape means (of the medians):"]
    for name in ladder:
        if kinds[name] == "bench":
            (_, mean, median), = ranking.scores(frames[name], ["mxlib"])
            lines.append(f"   {name:38s} {mean:6.2f} us ({median:.2f})")
    latest = frames.get(FUSED_VERSIONS[2][0])
    if latest is None:
        latest = next(frames[name] for name in ladder if kinds[name] == "bench")
    figures.stamp(fig, latest, "data/results/h200/bench.csv and earlier runs")
    return "\n".join(lines), fig


MMA_VERSIONS = (  # (name, recorded CSV under data/results/h200/, "bench" or "probe"); KERNEL_NOTES.md has each
    ("v1: a round's loads, then A, then MMAs", "mma_v1/bench.csv", "bench"),
    ("v2: one cp.async burst a round", "mma_v2/bench.csv", "bench"),
    ("v3: + family direct (B to registers)", "mma_v3/bench.csv", "bench"),
    ("v4a: + family pipelined", "mma_v4a/probe.csv", "probe"),
    ("v4b: copy addresses computed once", "mma_v4b/probe.csv", "probe"),
    ("v4: the shipped table", "run_97c1191/bench.csv", "bench"),
    ("v5a: + family wgmma, one chunk at a time", "mma_v5a/probe.csv", "probe"),
    ("v5b: A as MXFP4, widened per block", "mma_v5b/probe.csv", "probe"),
    ("v5c: wgmmas overlap the next chunk", "mma_v5c/probe.csv", "probe"),
    ("v5: the shipped table", "run_0fc08c3/bench.csv", "bench"),
    ("v6a: + family wspec (producer warp)", "mma_v6a/probe.csv", "probe"),
    ("v6b: + warpgroups along K (slowed)", "mma_v6b/probe.csv", "probe"),
    ("v6c: stage counted, not divided", "mma_v6c/probe.csv", "probe"),
    ("v6: the shipped table", "run_2ace167/bench.csv", "bench"),
    ("v9: one n128 wgmma at 128 rows", "run_b022894/bench.csv", "bench"),
    ("v12: the lean chunk loop", "run_36e1c5e/bench.csv", "bench"),
    ("v13: the lean producer", "run_fc616db/bench.csv", "bench"),
    ("v14: (64, 7168, 2048) on two warpgroups", "run_a8e5cc9/bench.csv", "bench"),
    ("v15: B's first chunks decoded before A", "final/bench.csv", "bench"),
)


def mma_means(frame, kind: str) -> dict:
    """(m, n, k) -> contest mean us of path mma_sm90 on the benchmark shapes: in a bench run ("bench") the
    forced provider `mxlib:mma_sm90` (the H200 table's config of that time; v1 ran its default configs),
    in a probe sweep ("probe") the fastest checked mma_sm90 config (a minimum over many configs, so a
    little optimistic)."""
    if kind == "bench":
        f = frame[(frame.timing == "contest") & (frame.provider == "mxlib:mma_sm90") & (frame.kind == "benchmark")]
        return {(r.m, r.n, r.k): r.mean_us for r in f.itertuples()}
    f = frame[(frame.kind == "benchmark") & (frame.variant == "mma_sm90") & frame.mean_us.notna()]
    return {key: g.mean_us.min() for key, g in f.groupby(["m", "n", "k"])}


def contest_references(bench) -> tuple[dict, dict]:
    """({(m, n, k): us} of touch at its best grid, {(m, n, k): us} of cuBLAS bf16): the contest means of the
    benchmark shapes in one bench.csv frame, the two references the baseline goal compares against."""
    from .acceptance import touch_best_rows

    rows = bench[(bench.timing == "contest") & (bench.kind == "benchmark")].to_dict("records")
    best = {(r["m"], r["n"], r["k"]): float(r["mean_us"]) for r in touch_best_rows(rows)}
    cublas = {(r["m"], r["n"], r["k"]): float(r["mean_us"]) for r in rows if r["provider"] == "cublas_bf16"}
    return best, cublas


def mma_versions(frames: dict):
    """(text, figure) of the CUDA path (`mma_sm90`) version by version (`MMA_VERSIONS`; `frames` maps each
    name to its recorded frame, None where not recorded, which is left out): per benchmark shape the
    contest mean us per call (`mma_means`) and their geometric mean, the contest's score for the path.

    The figure is a ladder: a panel per benchmark shape and one for the geometric mean, the versions in
    order along x (filled: a bench run of the shipped table; hollow: the fastest config of a probe sweep),
    against the baseline goal's references from the newest bench run (`contest_references`): cuBLAS bf16,
    and per shape TARGET_TOUCH_RATIO x touch at its best grid."""
    import matplotlib.pyplot as plt
    import numpy as np

    from . import figures
    from .acceptance import TARGET_TOUCH_RATIO
    from .stats import geomean

    kinds = {name: kind for name, _, kind in MMA_VERSIONS}
    ladder = {name: mma_means(f, kinds[name]) for name, f in frames.items() if f is not None}
    lines = _ladder_lines(ladder, "mean us per call", 40)
    latest = next((frames[name] for name in reversed(list(ladder)) if kinds[name] == "bench"), None)
    keys = [s.mnk for s in shapes_mod.load("benchmark")]
    best, cublas = contest_references(latest) if latest is not None else ({}, {})
    panels = [("x".join(map(str, key)), [t[key] for t in ladder.values()], cublas.get(key),
               TARGET_TOUCH_RATIO * best[key] if key in best else None) for key in keys]
    panels.append(("geomean of the six", [geomean([t[key] for key in keys]) for t in ladder.values()],
                   geomean([cublas[key] for key in keys]) if len(cublas) == len(keys) else None, None))
    x = np.arange(len(ladder))
    filled = np.array([kinds[name] == "bench" for name in ladder])
    fig, axes = plt.subplots(2, 4, figsize=(12, 5.8), sharex=True, layout="constrained")
    for ax, (title, ys, cub, bound) in zip(axes.flat, panels):
        ys = np.array(ys)
        ax.plot(x, ys, color="#0072B2", linewidth=1)
        ax.plot(x[filled], ys[filled], "o", color="#0072B2", markersize=4, label="bench run (the shipped table)")
        ax.plot(x[~filled], ys[~filled], "o", markerfacecolor="white", color="#0072B2", markersize=4,
                label="probe sweep (its fastest config)")
        if cub is not None:
            ax.axhline(cub, color="#D55E00", linestyle="dashed", linewidth=1.2, label="cuBLAS bf16 (newest bench run)")
        if bound is not None:
            ax.axhline(bound, color="black", linewidth=1.5, label=f"{TARGET_TOUCH_RATIO} x touch at its best grid")
        ax.set_ylim(0, None)
        ax.set_title(title, fontsize=10)
        ax.grid(axis="y", alpha=0.3)
    short = [name.split(":")[0] for name in ladder]
    for ax in axes[1]:
        ax.set_xticks(x, short, rotation=90, fontsize=7)
    for ax in axes[:, 0]:
        ax.set_ylabel("contest mean (us)")
    legend = axes.flat[len(panels)]
    legend.axis("off")
    legend.legend(*axes.flat[0].get_legend_handles_labels(), loc="center", fontsize=8, frameon=False)
    axes.flat[len(panels) - 1].tick_params(labelbottom=True)
    fig.suptitle("H200: the CUDA path mma_sm90, version by version (KERNEL_NOTES.md says what each changed)")
    if latest is not None:
        figures.stamp(fig, latest, "data/results/h200/final/bench.csv and earlier runs (mma_v*/)")
    return "\n".join(lines), fig


PAIRED_RUNS = (  # bench runs that timed `mxlib` and `mxlib:mma_sm90` on one config a shape, v4's tree to v15's
    "run_97c1191/bench_call_a.csv", "run_97c1191/bench.csv", "run_0fc08c3/bench_call_d.csv", "run_0fc08c3/bench.csv",
    "run_2ace167/bench.csv", "run_b022894/bench.csv", "run_36e1c5e/bench.csv", "run_36e1c5e/bench_2.csv",
    "run_fc616db/bench.csv", "run_a8e5cc9/bench.csv", "final/bench.csv", "final/bench_2.csv", "final/bench_3.csv",
)


def dispatcher_minus_forced(frame) -> dict:
    """(m, n, k) -> (us, launches) on the benchmark shapes of one bench.csv frame where the dispatcher (`mxlib`)
    and the forced path (`mxlib:mma_sm90`) ran the same config: the dispatcher's contest mean minus the forced
    one's, and whether that config is one launch (num_stages 1) or two (a quantizer, then the GEMM)."""
    from ..kernels.gemm_mma_sm90 import Config, mma_launches

    f = frame[(frame.timing == "contest") & (frame.kind == "benchmark")]
    forced = {(r.m, r.n, r.k): r for r in f[f.provider == "mxlib:mma_sm90"].itertuples()}
    out = {}
    for r in f[f.provider == "mxlib"].itertuples():
        other = forced.get((r.m, r.n, r.k))
        if other is not None and r.config == other.config:
            launches = mma_launches(Config(**{key: int(v) for key, v in _kv(r.config).items()}))
            out[(r.m, r.n, r.k)] = (float(r.mean_us) - float(other.mean_us), launches)
    return out


def between_blocks(frames: dict):
    """(text, figure) of the between-block effect: for each benchmark shape, the dispatcher's block minus the
    forced path's block (`dispatcher_minus_forced`) in every run of `frames` ({name: bench.csv frame}, None
    where not recorded, left out). The text gives per shape the launches, the pairs, the smallest and largest
    difference in size and how often the dispatcher's block was the slower; the figure one point per run."""
    import matplotlib.pyplot as plt
    import numpy as np

    from . import figures

    diffs = {name: dispatcher_minus_forced(f) for name, f in frames.items() if f is not None}
    keys = [s.mnk for s in shapes_mod.load("benchmark")]
    lines = [f"{'shape':>14} {'launches':>8} {'pairs':>5} {'|diff| min':>10} {'max':>5} "
             f"{'dispatcher slower':>17}   contest means, us: mxlib minus mxlib:mma_sm90, same config"]
    fig, ax = plt.subplots(figsize=(8, 3.8), layout="constrained")
    for j, key in enumerate(keys):
        got = [d[key] for d in diffs.values() if key in d]
        if not got:
            continue
        values = np.array([v for v, _ in got])
        launches = got[0][1]
        lines.append(f"{'x'.join(map(str, key)):>14} {launches:8d} {len(values):5d} {abs(values).min():10.2f} "
                     f"{abs(values).max():5.2f} {f'{(values > 0).sum()} of {len(values)}':>17}")
        jitter = np.linspace(-0.25, 0.25, len(values)) if len(values) > 1 else np.zeros(1)
        ax.plot(j + jitter, values, "o", markersize=4, color="#D55E00" if launches == 2 else "#0072B2",
                label="2 launches (a quantizer, then the GEMM)" if launches == 2 else "1 launch")
    handles, labels = ax.get_legend_handles_labels()
    unique = dict(zip(labels, handles))
    ax.legend(unique.values(), unique.keys(), fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(keys)), ["x".join(map(str, key)) for key in keys], rotation=30, ha="right")
    ax.set(ylabel="mxlib minus forced mma_sm90\n(us, contest means)")
    ax.grid(axis="y", alpha=0.3)
    ax.set_title(f"H200: one config, two blocks of calls, {len(diffs)} bench runs")
    latest = next((frames[name] for name in reversed(list(frames)) if frames[name] is not None), None)
    if latest is not None:
        figures.stamp(fig, latest, "data/results/h200/final/bench*.csv and earlier runs (run_*/)")
    return "\n".join(lines), fig


FLOOR_VARIANTS = (  # scripts/mma_ablate.py's variants that bound the CUDA path from below
    ("full", "as shipped"),
    ("resident", "chunk work on resident data (no copies streamed)"),
    ("resident_skeleton", "no ring, no decode, no MMA (the fixed part)"),
)


def mma_floor(ablate, bench):
    """(text, figure) of what the baseline goal's per-shape bound asks of the CUDA path: per shape of `ablate` (a CSV
    of scripts/mma_ablate.py, the table's config of each long benchmark shape) the contest mean of each
    `FLOOR_VARIANTS` variant (the mean over the rounds recorded), beside the bound TARGET_TOUCH_RATIO x touch at
    its best grid and cuBLAS bf16, both from `bench` (one bench.csv run, contest means). A variant above the
    bound says that no loop, however fast, brings the shipped structure under it."""
    import matplotlib.pyplot as plt
    import numpy as np

    from . import figures
    from .acceptance import TARGET_TOUCH_RATIO

    best, cublas = contest_references(bench)
    means = ablate.groupby(["m", "n", "k", "variant"]).mean_us.mean()
    keys = sorted({(m, n, k) for m, n, k, _ in means.index})
    width = max(len(v) for v, _ in FLOOR_VARIANTS) + 2
    lines = [f"{'shape':>14}" + "".join(f"{v:>{width}}" for v, _ in FLOOR_VARIANTS)
             + f"{f'{TARGET_TOUCH_RATIO} x touch':>16}{'cublas_bf16':>13}   contest means, us"]
    for key in keys:
        lines.append(f"{'x'.join(map(str, key)):>14}" + "".join(f"{means[(*key, v)]:{width}.2f}" for v, _ in FLOOR_VARIANTS)
                     + f"{TARGET_TOUCH_RATIO * best[key]:16.2f}{cublas[key]:13.2f}")
    fig, ax = plt.subplots(figsize=(7, 4.6), layout="constrained")
    bar = 0.8 / len(FLOOR_VARIANTS)
    colors = ("#0072B2", "#56B4E9", "#999999")
    for i, ((v, label), color) in enumerate(zip(FLOOR_VARIANTS, colors)):
        ax.bar(np.arange(len(keys)) - 0.4 + bar * (i + 0.5), [means[(*key, v)] for key in keys], bar,
               label=f"{v}: {label}", color=color)
    for j, key in enumerate(keys):
        ax.hlines(TARGET_TOUCH_RATIO * best[key], j - 0.45, j + 0.45, colors="black", linewidth=2,
                  label=f"{TARGET_TOUCH_RATIO} x touch at its best grid (the bound)" if j == 0 else None)
        ax.hlines(cublas[key], j - 0.45, j + 0.45, colors="#D55E00", linestyles="dashed",
                  label="cuBLAS bf16" if j == 0 else None)
    ax.set_xticks(range(len(keys)), ["x".join(map(str, key)) for key in keys])
    ax.set(ylabel="contest time per call (us, mean)")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2)
    ax.set_title(f"H200: the CUDA path with parts cut out, against {TARGET_TOUCH_RATIO} x touch")
    figures.stamp(fig, ablate, "data/results/h200/mma_v16/ablate.csv, final/bench.csv")
    return "\n".join(lines), fig


def fused_timeline(summary: dict, stamp_frame):
    """(text, figure) of one program of the fused kernel timed from inside, per benchmark shape: `summary` is
    `probe.timelines` of a timeline.csv ({(m, n, k, state): timeline_summary}). The text gives the cold
    launches (after the cache flush): programs, K iterations, span, median program, loop, tail, the last
    arrivals' tail and programs per SM; the figure stacks median loop and tail with the span, cold beside
    warm. `stamp_frame` (the run's probe.csv, which has device and date) stamps the figure."""
    import matplotlib.pyplot as plt
    import numpy as np

    from . import figures

    keys = [s.mnk for s in shapes_mod.load("benchmark")]
    lines = [f"{'shape':>14} {'programs':>8} {'iters':>5} {'span':>6} {'program':>7} {'loop':>6} {'tail':>5} "
             f"{'last tail':>9} {'per SM':>6}  (us, cold: after the cache flush; medians over programs)"]
    for key in keys:
        s = summary[(*key, "cold")]
        lines.append(f"{'x'.join(map(str, key)):>14} {s['programs']:8d} {s['iters']:5d} {s['span_ns'] / 1e3:6.2f} "
                     f"{s['prog_ns'] / 1e3:7.2f} {s['loop_ns'] / 1e3:6.2f} {s['tail_ns'] / 1e3:5.2f} "
                     f"{s['tail_last_ns'] / 1e3:9.2f} {s['max_resident']:6d}")
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True, layout="constrained")
    x = np.arange(len(keys))
    for ax, state, what in zip(axes, ("cold", "warm"), ("after the cache flush, as the contest times it",
                                                          "right after a call on the same inputs")):
        loop = [summary[(*key, state)]["loop_ns"] / 1e3 for key in keys]
        tail = [summary[(*key, state)]["tail_ns"] / 1e3 for key in keys]
        span = [summary[(*key, state)]["span_ns"] / 1e3 for key in keys]
        ax.bar(x, loop, 0.6, color="#0072B2" if state == "cold" else "#56B4E9", label="K loop",
               hatch=None if state == "cold" else "//")
        ax.bar(x, tail, 0.6, bottom=loop, color="#E69F00" if state == "cold" else "#F0E442",
               label="tail (part stored, counter, last: sum)", hatch=None if state == "cold" else "//")
        ax.plot(x, span, "k_", ms=16, mew=2, label="launch span (first start to last end)")
        ax.set_xticks(x, ["x".join(map(str, key)) for key in keys], rotation=30, ha="right")
        ax.set_title(f"{state}: {what}", fontsize=9.5)
        ax.legend(fontsize=7, loc="upper left")
    axes[0].set_ylabel("time (us), median program")
    fig.suptitle("H200: one program of the fused kernel, timed from inside (version 2 configs)")
    figures.stamp(fig, stamp_frame, "data/results/h200/probe/timeline.csv")
    return "\n".join(lines), fig


A_VARIANTS = (("fused", "A quantized by every program"), ("a_once", "A quantized once per launch"),
              ("a_quantized", "A handed over quantized (not a GEMM call)"))


def a_quantization_cost(best: dict, stamp_frame):
    """(text, figure): per benchmark and test shape, the best checked config's median us per call of each
    variant of `A_VARIANTS` (`best` is `probe.best_by_variant` of the version-3 diagnostic run's probe.csv,
    `stamp_frame` that CSV as a frame): A quantized by every program, once per launch, or handed over
    already quantized (not a GEMM call: what quantizing A costs)."""
    import matplotlib.pyplot as plt
    import numpy as np

    from . import figures

    keys = [s.mnk for s in shapes_mod.load("benchmark")] + [s.mnk for s in shapes_mod.load("test")]
    lines = [f"{'shape':>14}{'per program':>14}{'once':>14}{'given':>14}   median us per call, best checked config each;",
             f"{'':14}  (A quantized by every program / once per launch / handed over quantized)"]
    for key in keys:
        lines.append(f"{'x'.join(map(str, key)):>14}" + "".join(f"{float(best[key][v]['contest_us']):14.2f}" for v, _ in A_VARIANTS))
    fig, ax = plt.subplots(figsize=(8, 3.6), layout="constrained")
    width = 0.8 / len(A_VARIANTS)
    for i, (v, label) in enumerate(A_VARIANTS):
        ax.bar(np.arange(len(keys)) - 0.4 + width * (i + 0.5), [float(best[key][v]["contest_us"]) for key in keys],
               width, label=label, color=figures.COLORS.get(v, "#D55E00"))
    ax.set_xticks(range(len(keys)), ["x".join(map(str, key)) for key in keys], rotation=30, ha="right")
    ax.set(ylabel="contest time per call (us, median)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_title("H200: quantizing A once per launch recovers most of its cost at M >= 64")
    figures.stamp(fig, stamp_frame, "data/results/h200/rung3/probe.csv")
    return "\n".join(lines), fig
