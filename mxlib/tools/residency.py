"""Notebook 06's tables and figures: the seed's split-K launch at each split (text, and where its CTAs
land), the GEMM launches per shape with their residency (CTAs one CU or SM holds at once, from compiled
resources) and their bytes in flight, the H200 sweep at the seed's tile beside that residency, the
latency model's utilization against split-K and how far its times are from the recorded sweep. Each returns
text or a figure; nothing here measures.

Where the numbers come from: the compiled records `mxlib.tools.path_sections` names (ISA_SEED_CSV,
ISA_DISPATCH_CSV, aiter's ASM metadata), `mxlib.spec.seed.seed_plan`, the H200 config table with
`mxlib.kernels.gemm_mma_sm90`'s own counts for its CUDA path, and `mxlib.tools.occupancy`.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..spec import seed as seed_mod
from ..spec import shapes as shapes_mod
from ..spec.aiter_rules import aiter_line
from ..spec.ints import cdiv
from . import occupancy as occ
from .stats import median_abs_pct_error
from .path_sections import ISA_DISPATCH_CSV, ISA_SEED_CSV, aiter_asm_kernel, config_fields, read_rows, seed_backend

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
    stages: int | None  # Triton's num_stages, the depth of the loop's software pipeline
    a_format: str  # "fp4": A quantized by an earlier launch; "bf16": the GEMM reads A as bf16

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
        """Dependent K steps one CTA makes (`occupancy.k_steps`)."""
        return None if self.block_k is None else occ.k_steps(self.k, self.split_k, self.block_k)

    @property
    def steps_in_flight(self) -> int | None:
        """K steps of loads one CTA has requested at once: num_stages - 1 for a pipelined loop (Triton's
        pipeliner issues that many iterations' loads ahead, as gemm_fused's docstring says), one for a loop
        it does not pipeline (num_stages 1), and never more than the CTA's K steps."""
        if self.block_k is None or self.stages is None:
            return None
        return min(max(1, self.stages - 1), self.k_steps)


def ceilings_against_model(runs) -> str:
    """The H200 ceilings the recorded runs measured (`ceilings.recorded_ceilings`: a list of dicts) beside
    the figures `occupancy.DEVICES` gives the model: each one's range over the runs, and how far the
    model's figure is from it."""
    d = occ.DEVICES["H200"]
    dates = sorted({r["date"] for r in runs})
    copy, peak, empty = ([r[key] for r in runs] for key in ("copy_TBps", "bf16_TFLOPs", "empty_us"))
    bw, flops, launch = d.bandwidth.value / 1e12, d.peak_flops.value / 1e12, d.launch_us.value
    top = max(runs, key=lambda r: r["bf16_TFLOPs"])
    above = sum(p > flops for p in peak)
    return "\n".join([
        f"{len(runs)} recorded measurements of the H200's ceilings ({len({r['file'] for r in runs})} CSVs under "
        f"data/results/h200/, {dates[0]} to {dates[-1]}):",
        f"  copy          {min(copy):.2f}-{max(copy):.2f} TB/s; the model's {bw:.2f} is "
        f"{100 * (bw / max(copy) - 1):.0f}-{100 * (bw / min(copy) - 1):.0f}% above",
        f"  bf16 matmul   {min(peak):.0f}-{max(peak):.0f} TFLOP/s; the model's {flops:.0f} is exceeded by {above} of "
        f"them (highest {top['bf16_TFLOPs']:.1f}, {top['file']})",
        f"  empty kernel  {min(empty):.2f}-{max(empty):.2f} us (median); the model's launch {launch:.2f} is "
        f"{launch - max(empty):.2f}-{launch - min(empty):.2f} us above"])


COMPILED_RECORDS = (ISA_SEED_CSV, ISA_DISPATCH_CSV["gfx950"], ISA_DISPATCH_CSV["sm_90"])  # what gemm_launches reads


def _seed_launch(shape) -> Launch:
    """The seed's GEMM launch on the MI355X as `seed_plan` counts it for the aiter line of
    `seed.DEFAULT_AITER` (named in the launch's text: the 0.1.11 line runs ASM 32x128 where the 0.1.10 one
    runs CK, notebook 04); its split-K residency is that of aiter 0.1.7.post2.dev18's kernel compiled for gfx950
    (`ISA_SEED_CSV`: the predecessor of the kernel the seed imports, whose registers are not known here)."""
    m, n, k = shape
    plan = seed_mod.seed_plan(m, n, k)
    line = f"seed {aiter_line(seed_mod.DEFAULT_AITER).name}"
    tm, tn = plan["tile"]
    split = plan["ctas"] // occ.cta_count(m, n, k, tm, tn)
    if plan["path"] == "splitk":
        key = "x".join(map(str, shape))
        row = next(r for r in read_rows(ISA_SEED_CSV) if r["shape"] == key and "gemm" in r["kernel"]
                   and "reduce" not in r["kernel"] and r["ctas_per_unit"])
        cfg = plan["config"]
        return Launch("MI355X", f"{line}: aiter split-K {tm}x{tn}", k, plan["ctas"], int(row["ctas_per_unit"]),
                      (tm, tn), cfg["BLOCK_SIZE_K"], split, cfg["num_stages"], "fp4")
    if seed_backend(plan) == "asm":
        return Launch("MI355X", f"{line}: aiter ASM {tm}x{tn}", k, plan["ctas"], int(aiter_asm_kernel((tm, tn))["ctas_per_cu"]),
                      (tm, tn), None, split, None, "fp4")
    return Launch("MI355X", f"{line}: aiter CK {tm}x{tn}", k, plan["ctas"], None, (tm, tn), None, split, None, "fp4")


def _dispatch_launch(shape, target: str) -> Launch:
    key = "x".join(map(str, shape))
    row = next(r for r in read_rows(ISA_DISPATCH_CSV[target]) if r["shape"] == key and "gemm" in r["kernel"])
    cfg = config_fields(row["config"])
    device, path = ("MI355X", "fused_fp4") if target == "gfx950" else ("H200", "fused")
    tm, tn = int(cfg["BLOCK_M"]), int(cfg["BLOCK_N"])
    return Launch(device, f"mxlib {path} {tm}x{tn}", shape[2], int(row["grid_ctas"]), int(row["ctas_per_unit"]),
                  (tm, tn), int(cfg["BLOCK_K"]), int(cfg["SPLIT_K"]), int(cfg["num_stages"]), "bf16")


def _mma_launch(shape) -> Launch:
    """mma_sm90's GEMM launch at the H200 table's config for `shape`: its CTAs (`mma_gemm_ctas`, the
    quantizer's launch left out) and CTAs per SM (`mma_ctas_per_sm`: launch bounds and shared memory, for
    the chunks a launch sizes shared memory by, `mma_round_chunks`). Its loads are not modelled (block_k
    None)."""
    from ..kernels import gemm_mma_sm90 as mma
    from ..runtime.dispatch import load_table
    from ..spec.devices import H200

    m, n, k = shape
    cfg = next(mma.MmaConfig(**fields) for path, fields in load_table(H200.kind)[shape] if path == "mma_sm90")
    return Launch("H200", f"mxlib mma_sm90 {cfg.block_m}x{cfg.block_n} {mma.mma_family(cfg)}", k,
                  mma.mma_gemm_ctas(m, n, k, cfg), mma.mma_ctas_per_sm(cfg, mma.mma_round_chunks(cfg, k)),
                  (cfg.block_m, cfg.block_n),
                  None, cfg.split_k, None, "bf16")


def gemm_launches(shape) -> list[Launch]:
    """The GEMM launch of one call on `shape` ((m, n, k)): the seed's on the MI355X (`seed_plan`; residency
    from aiter's ASM metadata or the seed's compiled Triton kernel; CK's is not known), mxlib's fused_fp4 on
    the MI355X (compiled, never run), and on the H200 mxlib's Triton fused (compiled) and the CUDA path
    mma_sm90 that the H200 table runs first (`_mma_launch`)."""
    shape = tuple(shape)
    return [_seed_launch(shape), _dispatch_launch(shape, "gfx950"), _dispatch_launch(shape, "sm_90"),
            _mma_launch(shape)]


def _opt(v) -> str:
    return "?" if v is None else str(v)


def residency_table(shapes=None) -> str:
    """Per shape (default: the benchmark shapes), each launch of `gemm_launches`: CTAs, CTAs per CU / SM
    (from compiled resources; mma_sm90's from `gemm_mma_sm90`), rounds, and the units with work in the first
    round."""
    shapes = [s.mnk for s in shapes_mod.load("benchmark")] if shapes is None else [tuple(s) for s in shapes]
    lines = [f"{'shape':>14}  {'device':6} {'launch':34} {'CTAs':>5} {'per unit':>8} {'rounds':>6} {'units with work':>16}"]
    seed_splitk = False
    for s in shapes:
        launches = gemm_launches(s)
        seed_splitk |= "split-K" in launches[0].what
        for ln in launches:
            busy = min(ln.ctas, ln.units)
            lines.append(f"{'x'.join(map(str, s)):>14}  {ln.device:6} {ln.what:34} {ln.ctas:5d} {_opt(ln.resident):>8} "
                         f"{_opt(ln.rounds):>6} {f'{busy} of {ln.units} ({busy / ln.units:.0%})':>16}")
    if seed_splitk:
        lines.append("(the seed's split-K per unit: aiter 0.1.7.post2.dev18's kernel compiled for gfx950, the predecessor "
                     "of the one the seed imports; the seed's launches as seed_plan counts them for aiter's "
                     f"{aiter_line(seed_mod.DEFAULT_AITER).name} line)")
    return "\n".join(lines)


def asm_heuristic_table(shapes=None) -> str:
    """The ASM kernel aiter's heuristic (`aiter_rules.asm_heuristic`) picks for each of `shapes` (default: all
    of shapes.csv) on the MI355X: its tile, its CTAs, the rounds they take and the share of the CUs with work."""
    from ..spec.aiter_rules import asm_heuristic

    lines = [f"{'shape':>14}  {'tile':>8}  {'CTAs':>4}  {'rounds':>6}  {'MI355X util':>11}"]
    for s in shapes_mod.load() if shapes is None else shapes:
        c = asm_heuristic(s.m, s.n, s.k)
        lines.append(f"{str(s):>14}  {c.tile[0]:>3}x{c.tile[1]:<4}  {c.ctas:4d}  {c.rounds:6d}  "
                     f"{occ.cu_utilization(c.ctas, 'MI355X'):11.1%}")
    return "\n".join(lines)


def littles_law_table(shapes=None) -> str:
    """Little's law (bytes in flight = bandwidth x latency) for each launch of `gemm_launches` on `shapes`
    (default: the benchmark shapes with M <= 32): the bytes the call reads and their time at the device's
    bandwidth, the distinct bytes the resident CTAs request at once (`occupancy.in_flight_bytes`, with
    `Launch.steps_in_flight` K steps requested per CTA), and the longest memory round trip that keeps the
    device streaming (`occupancy.latency_covered_us`). '?': the kernel's K step is not known (aiter's ASM and
    CK kernels are not compiled here; mma_sm90's CUDA loads are not modelled)."""
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
                tm, tn = min(ln.tile[0], m), min(ln.tile[1], n)
                a_step, b_step = occ.operand_step_bytes(tm, tn, ln.block_k, ln.a_format)
                flight = occ.in_flight_bytes(ln.ctas, ln.resident, ln.device, a_step, b_step,
                                             cdiv(m, tm) * ln.split_k, cdiv(n, tn) * ln.split_k, ln.steps_in_flight)
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
    lines += ["", f"CTAs one unit holds at once: MI355X {mi_res} (the seed's split-K GEMM as in aiter 0.1.7.post2.dev18, "
                  "compiled for gfx950: the predecessor of the kernel the seed imports), "
                  f"H200 {h200_res} (mxlib's split-K kernel, {tm}x{tn} tiles, compiled for sm_90)",
              f"{'split_k':>7} {'CTAs':>5} | {'MI355X CUs with work':>20} {'rounds':>6} | {'H200 SMs with work':>18} "
              f"{'one per SM: waves':>17} {'rounds':>6}"]
    sms = occ.DEVICES["H200"].units
    for split in _seed_splits():
        ctas = occ.cta_count(m, n, k, tm, tn, split)
        lines.append(f"{split:7d} {ctas:5d} | {occ.cu_utilization(ctas, 'MI355X'):20.1%} {_rounds(ctas, mi_res, 'MI355X'):>6} | "
                     f"{min(ctas, sms) / sms:18.1%} {occ.waves(ctas, 'H200'):17d} {_rounds(ctas, h200_res, 'H200'):>6}")
    return "\n".join(lines)


def unit_loads(ctas: int, device):
    """CTAs per unit when `ctas` CTAs are dealt out, as an image: MI355X, one row per XCD (CTAs round-robin
    over the 8 XCDs, CTA j of an XCD to CU j % 32); H200, CTA i to SM i % 132, drawn as 4 rows of 33."""
    import numpy as np

    if occ.get_device(device).name == "MI355X":
        return np.array([np.bincount(np.arange(load) % 32, minlength=32) for load in occ.group_loads(ctas, "MI355X")])
    sms = occ.DEVICES["H200"].units
    return np.bincount(np.arange(ctas) % sms, minlength=sms).reshape(4, sms // 4)


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
        steps = occ.k_steps(k, r.split_k, r.block_k)
        lines.append(f"{r.split_k:7d} {r.ctas:5d} {r.resident:6d} {occ.rounds(r.ctas, r.resident, 'H200'):6d} "
                     f"{occ.waves(r.ctas, 'H200'):17d} {steps:15d} {r.measured_us:9.1f}")
    return "\n".join(lines)


def sweep_tilings(sweep, res, shape=None) -> str:
    """Every tiling the recorded H200 split-K sweep (splitk_sweep.csv) timed on `shape` (default the seed's
    split-K shape): its compiled registers, spill store bytes and CTAs per SM (splitk_sweep_residency.csv
    `res`), then per split the measured median with the rounds at that residency and the K steps one CTA
    makes, a column group per tiling."""
    m, n, k = seed_mod.SEED_SPLITK_SHAPE if shape is None else shape
    keys = ["m", "n", "k", "tile_m", "tile_n", "block_k", "split_k"]
    t = sweep.merge(res[keys + ["registers", "spill_bytes", "resident", "triton"]], on=keys, suffixes=("", "_compiled"))
    t = t[(t.m == m) & (t.n == n) & (t.k == k)]
    tiles = sorted({(int(a), int(b)) for a, b in zip(t.tile_m, t.tile_n)})

    def span(values) -> str:
        lo, hi = int(values.min()), int(values.max())
        return str(lo) if lo == hi else f"{lo}-{hi}"

    lines = [f"H200, ({m}, {n}, {k}), every tiling of the sweep: compiled for sm_90 by Triton "
             f"{', '.join(sorted(set(t.triton_compiled)))} (splitk_sweep_residency.csv), timed under Triton "
             f"{', '.join(sorted(set(t.triton)))} (splitk_sweep.csv)",
             f"{'tiling':>8} {'block_k':>7} {'registers':>9} {'spill stores (B)':>16} {'per SM':>6}"]
    for tm, tn in tiles:
        g = t[(t.tile_m == tm) & (t.tile_n == tn)]
        lines.append(f"{f'{tm}x{tn}':>8} {span(g.block_k):>7} {span(g.registers):>9} {span(g.spill_bytes):>16} "
                     f"{span(g.resident):>6}")
    lines += ["", "measured median us per call, rounds at the compiled residency (r), K steps per CTA (st):",
              f"{'split_k':>7} " + " ".join(f"{f'{tm}x{tn}':>15}" for tm, tn in tiles)]
    for split in sorted(set(t.split_k)):
        cells = []
        for tm, tn in tiles:
            r = t[(t.tile_m == tm) & (t.tile_n == tn) & (t.split_k == split)]
            if r.empty:
                cells.append(f"{'':>15}")
                continue
            r = r.iloc[0]
            rounds = occ.rounds(int(r.ctas), int(r.resident), "H200")
            cells.append(f"{r.measured_us:7.1f} {rounds:2d}r {occ.k_steps(k, int(split), int(r.block_k)):2d}st")
        lines.append(f"{split:7d} " + " ".join(cells))
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
    fig.colorbar(im, ax=axes, label="wave fill (%) = CTAs / (waves x units),\none CTA per unit at a time", shrink=0.9)
    fig.suptitle("Counted, not measured: utilization against split_k, every test and benchmark shape (blank: K too short to split)")
    return fig


_COLUMN_MEANS = {  # what each prediction column of splitk_sweep.csv holds (mxlib.tools.sweeps.run_model)
    "predicted_prior_us": "the ceilings this sweep measured, dot_efficiency and bw_saturation at their priors",
    "predicted_loso_us": "both parameters fitted to the other shapes (leave one shape out)",
    "predicted_us": "both parameters fitted to every shape",
}


def model_vs_measured(sweep):
    """(text, figure) of the latency model against a recorded split-K sweep (splitk_sweep.csv, rows with a
    measured time): the median error of the model with `occupancy.DEVICES`' H200 figures (notebook 06's
    section 1: launch, extra kernel, bandwidth, peak, and the two fitted parameters' priors), computed here,
    and of each prediction column the sweep has (`_COLUMN_MEANS`); and measured against predicted on log
    axes, a colour a shape, predicted by the leave-one-shape-out fit where the sweep has it."""
    import matplotlib.pyplot as plt

    from . import figures

    sweep = sweep[sweep.measured_us.notna()]
    columns = [c for c in _COLUMN_MEANS if c in sweep]
    if not columns:
        raise ValueError("sweep: no prediction column (predicted_prior_us, predicted_loso_us, predicted_us)")
    model = occ.model_params("H200")
    errors = {"occupancy.DEVICES": median_abs_pct_error([occ.predict_row(r, "H200", model).us
                                                         for r in sweep.to_dict("records")], sweep.measured_us)}
    errors.update({c: median_abs_pct_error(sweep[c], sweep.measured_us) for c in columns})
    means = dict(_COLUMN_MEANS)
    means["occupancy.DEVICES"] = (f"launch and extra kernel {model.launch_us:.2f} us, {model.bandwidth / 1e12:.2f} "
                                  f"TB/s, {model.peak_flops / 1e12:.0f} TFLOP/s, both parameters at their priors")
    ceilings = ["launch_us", "extra_kernel_us", "copy_TBps", "bf16_TFLOPs"]
    if set(ceilings) <= set(sweep) and len(sweep[ceilings].drop_duplicates()) == 1:
        launch, extra, copy, peak = sweep[ceilings].iloc[0]
        means["predicted_prior_us"] += (f" (launch {launch:.2f} us, extra kernel {extra:.2f} us, {copy:.2f} TB/s, "
                                        f"{peak:.0f} TFLOP/s)")
    text = "\n".join(f"{c}: median |predicted - measured| / measured = {e:.1f}% over {len(sweep)} configs; "
                     f"{means[c]}" for c, e in errors.items())
    col = "predicted_loso_us" if "predicted_loso_us" in sweep else "predicted_us"
    lim = [0.8 * sweep[[col, "measured_us"]].min().min(), 1.2 * sweep[[col, "measured_us"]].max().max()]
    fig, ax = plt.subplots(figsize=(6, 5), layout="constrained")
    for (m, n, k), g in sweep.groupby(["m", "n", "k"]):
        ax.scatter(g[col], g.measured_us, s=12, label=f"{m}x{n}x{k}")
    ax.plot(lim, lim, color="black", lw=0.8)
    fit = "leave-one-shape-out fit" if col == "predicted_loso_us" else "fit to every shape"
    ax.set(xscale="log", yscale="log", xlim=lim, ylim=lim, xlabel=f"predicted, {fit} (us per call)",
           ylabel="measured, median (us per call)",
           title=f"H200 split-K sweep: model against measurement (median |error| {errors[col]:.0f}%)")
    figures.plain_log(ax)
    ax.legend(fontsize=7, loc="lower right")
    return text, fig


def model_examples(sweep, shape=(16, 2112, 7168), tile=(16, 64), splits=(1, 7, 14)) -> str:
    """The latency model on a few rows of a recorded split-K sweep (splitk_sweep.csv: one tiling of one shape at a
    few splits, the rows' own block_k and kernel counts, the quantizer's launch among them): measured beside
    predicted with `occupancy.DEVICES`' H200 figures (`predict_row`), with the parts of the prediction. Split 1
    at 16x64 is the shape and tiling `dot_efficiency`'s prior was solved from (a naive `tl.dot_scaled` kernel, one
    launch), so there the prediction restates that kernel's time plus the quantizer's launch, not this kernel's."""
    model = occ.model_params("H200")
    rows = sweep[(sweep.m == shape[0]) & (sweep.n == shape[1]) & (sweep.k == shape[2]) & (sweep.tile_m == tile[0])
                 & (sweep.tile_n == tile[1]) & sweep.measured_us.notna()]
    lines = [f"H200, {'x'.join(map(str, shape))}, {tile[0]}x{tile[1]} tiles (occupancy.DEVICES' figures; measured: "
             "the sweep's median, us per call)"]
    for split in splits:
        got = rows[rows.split_k == split]
        if got.empty:
            raise ValueError(f"sweep: no row at split_k {split} for {shape} {tile}")
        r = got.iloc[0].to_dict()
        p = occ.predict_row(r, "H200", model)
        lines.append(f"  split_k={split:2d}: {p.ctas:4d} CTAs, {int(r['kernels'])} kernels, measured {r['measured_us']:6.1f}, "
                     f"predicted {p.us:6.2f} (compute {p.compute_us:.2f}, memory {p.memory_us:.2f}, overhead "
                     f"{p.overhead_us:.2f})")
    return "\n".join(lines)


def revalidation(reval) -> str:
    """The median error of the model fitted with one CTA per SM and with the compiled residency, from a
    `python -m mxlib sweep --revalidate` frame (occupancy_revalidation.csv)."""
    return "\n".join(
        f"H200 sweep, model fitted with {what:18s}: median |predicted - measured| / measured = "
        f"{median_abs_pct_error(reval[col], reval.measured_us):.1f}% over {len(reval)} configs"
        for col, what in (("predicted_one_us", "one CTA per SM"), ("predicted_resident_us", "compiled residency")))
