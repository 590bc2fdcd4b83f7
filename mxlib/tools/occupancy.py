"""Occupancy of a tiled, split-K GEMM on MI355X and H200, residency from compiled resources, and a latency model.

The seed's argument in numbers: (16, 2112, 7168) with its 16x128 tiles is 17 CTAs, 6.6% of MI355X's 256 CUs;
14-way split-K makes it 238 CTAs (93%); the seed's config actually uses 7 splits (119 CTAs, 46%).

Utilization counts a partly idle last wave: ``waves = ceil(ctas / units)``, ``u = ctas / (waves * units)``.

Latency model (`predict`), per call, contest-style (L2 flushed, one call between events)::

    predicted = launch + (kernels - 1) * extra_kernel + max(t_memory, t_compute)
    t_compute = 2 * M_pad * N_pad * K_pad / (peak * dot_efficiency * u)  # padded tiles and K steps are computed too
    t_memory  = bytes / (bandwidth * min(1, u / bw_saturation))
    bytes     = A (bf16) + B (fp4) + B scales + C (bf16) [+ 2 * split_k * M * N * 4 fp32 partials if split_k > 1]

`launch`, `extra_kernel`, `bandwidth` and `peak` are taken as given. `DEVICES` holds one set of them: on the
H200 the project's first measurement of launch, bandwidth and peak, and a prior for `extra_kernel` (as much
as a lone kernel). `python -m mxlib sweep` measures all four again in its own run (a lone empty kernel, a
second one in the same timed call, copy, bf16 matmul) and predicts with those (its `predicted_prior_us`).
Two parameters are fitted to the H200 sweep (`fit`): `dot_efficiency` (the fraction of the bf16 peak the
kernel's inner loop reaches, fp4 decode and scaling included: sm_90 has no FP4 MMA, so every MXFP4 dot runs
as a 16-bit one, KERNEL_NOTES.md, "Triton on sm_90 and in the interpreter") and `bw_saturation` (the
fraction of units that saturates HBM). Their priors in `DEVICES` say where they come from. The model has no
term for memory latency, L2 hits or the quantization of A beyond its launch.

Residency (`residency`): how many CTAs one CU or SM holds at once, from a compiled kernel's registers, LDS /
shared memory and warps (`mxlib.tools.isa` reads them; `UNIT_LIMITS` cites the device limits). `predict`
takes it as `resident`: CTAs then run in rounds of resident * units, co-resident CTAs sharing their unit.
Against the recorded H200 sweep this did not lower the fitted model's median error (one CTA per SM against
the compiled residency: data/results/h200/occupancy_revalidation.csv, `python -m mxlib sweep --revalidate`,
notebook 06 prints both); it does rank 7 vs 14 splits of 16x128 tiles the way the H200 did.

Bytes in flight (`operand_step_bytes`, `in_flight_bytes`, `latency_covered_us`): Little's law, bytes in flight =
bandwidth x latency, for the memory-bound small-M shapes: how much a launch keeps requested at once, and
the longest memory round trip it could hide while streaming at the device's bandwidth.

aiter's own split-K and tile choices live in `mxlib.spec.aiter_rules`; the seed's in `mxlib.spec.seed`.

Nothing here imports torch, triton or aiter.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path

from ..spec.devices import H200, MI355X, UNIT_LIMITS
from ..spec.ints import cdiv, positive
from .files import write_csv_atomic
from .repo import RESULTS_DIR


# ---------------------------------------------------------------------------------------------------------
# Devices


@dataclass(frozen=True)
class Figure:
    """One number with its unit and where it comes from (value None: not known, `source` says why)."""

    value: float | None
    unit: str
    source: str


@dataclass(frozen=True)
class Device:
    name: str
    units: int  # CUs or SMs: what one CTA (workgroup) occupies
    unit_name: str
    groups: int  # XCDs on MI355X (CTAs dealt round-robin over them); 1 on the H200
    bandwidth: Figure  # bytes/s
    peak_flops: Figure  # flop/s of the matrix path the GEMM uses on this device
    launch_us: Figure  # one lone kernel, contest-style
    extra_kernel_us: Figure  # each further kernel in the same timed call
    l2_bytes: Figure
    dot_efficiency: Figure  # fitted parameter 1 (prior here)
    bw_saturation: Figure  # fitted parameter 2 (prior here)

    @property
    def units_per_group(self) -> int:
        return self.units // self.groups

    def figures(self) -> dict[str, Figure]:
        return {k: v for k, v in self.__dict__.items() if isinstance(v, Figure)}


# The naive tl.dot_scaled kernel (KERNEL_NOTES.md, "The H200's ceilings (measured)"; BM16 BN64 BK256, A
# pre-quantized, one kernel, no split-K) took 61.5 us on (16, 2112, 7168): 33 CTAs on 132 SMs. Solving the
# model's compute term for it gives the prior.
_NAIVE = dict(m=16, n=2112, k=7168, tile_m=16, tile_n=64, measured_us=61.5, units=H200.units)

_H200_NOTES = 'KERNEL_NOTES.md, "The H200\'s ceilings (measured)"'
# The H200's peak and lone-kernel time, used by DEVICES["H200"] and by the prior below.
_H200_PEAK = Figure(799e12, "flop/s", f"measured: {_H200_NOTES}, cuBLAS bf16 matmul (no FP4 tensor cores on sm_90), "
                    "the first measurement: later runs measured around it (`ceilings.recorded_ceilings` lists them)")
_H200_LAUNCH = Figure(3.46, "us", f"measured: {_H200_NOTES}, one tiny kernel, contest-style")


def _naive_dot_efficiency() -> float:
    g = _NAIVE
    ctas = cdiv(g["m"], g["tile_m"]) * cdiv(g["n"], g["tile_n"])
    u = ctas / (cdiv(ctas, g["units"]) * g["units"])
    flops = 2 * cdiv(g["m"], g["tile_m"]) * g["tile_m"] * cdiv(g["n"], g["tile_n"]) * g["tile_n"] * g["k"]
    return flops / (_H200_PEAK.value * u * (g["measured_us"] - _H200_LAUNCH.value) * 1e-6)

_MI355X_NOTES = 'KERNEL_NOTES.md, "The MI355X (cited, never run here)"'
_H200_PRIOR_SOURCE = "prior; `python -m mxlib sweep` fits it to data/results/h200/splitk_sweep.csv"

DEVICES: dict[str, Device] = {
    "MI355X": Device(
        name=MI355X.name,
        units=MI355X.units,
        unit_name=MI355X.unit_name,
        groups=MI355X.groups,
        bandwidth=Figure(8e12, "B/s", f"cited: {_MI355X_NOTES}, 8 TB/s HBM; not measured here"),
        peak_flops=Figure(10e15, "flop/s", f"cited: {_MI355X_NOTES}, ~10 PFLOP/s MXFP4 dense; not measured here"),
        launch_us=Figure(None, "us", f"not measured: no MI355X here, and no cited figure ({_MI355X_NOTES} gives none)"),
        extra_kernel_us=Figure(None, "us", "not measured: no MI355X here"),
        l2_bytes=Figure(8 * 4 * 2**20, "B",
                        f"cited: {_MI355X_NOTES}, 4 MB L2 per XCD x 8, behind a 256 MB Infinity Cache"),
        dot_efficiency=Figure(None, "", "not fitted: no MI355X measurements"),
        bw_saturation=Figure(None, "", "not fitted: no MI355X measurements"),
    ),
    "H200": Device(
        name=H200.name,
        units=H200.units,
        unit_name=H200.unit_name,
        groups=H200.groups,
        bandwidth=Figure(4.28e12, "B/s", f"measured: {_H200_NOTES}, copy (read+write), contest-style"),
        peak_flops=_H200_PEAK,
        launch_us=_H200_LAUNCH,
        extra_kernel_us=Figure(_H200_LAUNCH.value, "us",
                               "prior: as much as a lone kernel; the sweep measures it (two empty kernels)"),
        l2_bytes=Figure(60e6, "B", f"measured: {_H200_NOTES}"),
        dot_efficiency=Figure(
            _naive_dot_efficiency(), "",
            f"derived: {_H200_NOTES}, naive tl.dot_scaled kernel, 61.5 us on (16,2112,7168), solved for the "
            "compute term; "
            + _H200_PRIOR_SOURCE),
        bw_saturation=Figure(1.0, "", "assumed: bandwidth in proportion to busy SMs (no measurement); "
                             + _H200_PRIOR_SOURCE),
    ),
}


def get_device(device) -> Device:
    """A Device, or its name in DEVICES."""
    if isinstance(device, Device):
        return device
    if device not in DEVICES:
        raise ValueError(f"device must be a Device or one of {', '.join(map(repr, DEVICES))}, got {device!r}")
    return DEVICES[device]


# ---------------------------------------------------------------------------------------------------------
# Occupancy


def cta_count(m: int, n: int, k: int, tile_m: int, tile_n: int, split_k: int = 1) -> int:
    """CTAs of an (M, N, K) GEMM with tile_m x tile_n output tiles and split_k K slices.

    Each K slice needs at least one 32-element scale group, so split_k <= K / 32.
    """
    for v, name in ((m, "m"), (n, "n"), (k, "k"), (tile_m, "tile_m"), (tile_n, "tile_n"), (split_k, "split_k")):
        positive(v, name)
    if split_k > k // 32:
        raise ValueError(f"split_k must be at most K / 32 = {k // 32} (one scale group per slice), got {split_k}")
    return cdiv(m, tile_m) * cdiv(n, tile_n) * split_k


def waves(ctas: int, device) -> int:
    """How many rounds of `units` CTAs it takes (one CTA per unit per round)."""
    positive(ctas, "ctas")
    return cdiv(ctas, get_device(device).units)


def cu_utilization(ctas: int, device) -> float:
    """ctas / (waves * units): the busy fraction of the unit-rounds, a partly idle last wave included."""
    d = get_device(device)
    return ctas / (waves(ctas, d) * d.units)


def rounds(ctas: int, resident_per_unit: int, device) -> int:
    """How many rounds a launch takes when each unit holds `resident_per_unit` CTAs at once (`residency`
    of its compiled kernel): ceil(ctas / (resident_per_unit * units)). `waves` is the one-CTA case."""
    positive(ctas, "ctas")
    positive(resident_per_unit, "resident_per_unit")
    return cdiv(ctas, resident_per_unit * get_device(device).units)


def group_loads(ctas: int, device) -> list[int]:
    """CTAs per XCD when they are dealt round-robin (CTA i to XCD i % groups); one entry on the H200."""
    positive(ctas, "ctas")
    g = get_device(device).groups
    return [ctas // g + (i < ctas % g) for i in range(g)]


# ---------------------------------------------------------------------------------------------------------
# Residency from compiled resources


@dataclass(frozen=True)
class KernelResources:
    """A compiled kernel's per-CTA resources (`mxlib.tools.isa` reads them from the compiler's output)."""

    target: str  # "gfx950" or "sm_90"
    num_warps: int  # waves (AMD) or warps (NVIDIA) per CTA
    registers: int  # AMD: total VGPRs per lane (arch + AGPRs); NVIDIA: registers per thread
    agprs: int  # AMD accumulation VGPRs (part of `registers` through accum_offset); 0 on NVIDIA
    shared_bytes: int  # LDS / shared memory per CTA
    accum_offset: int | None = None  # AMD: first AGPR's index (arch VGPRs rounded up to 4)


@dataclass(frozen=True)
class Residency:
    ctas: int  # CTAs resident per CU/SM at once
    limited_by: str  # "registers", "shared", "waves" (threads), or "ctas"
    waves_per_simd: int | None  # AMD only: waves one SIMD holds for this kernel's register use


def _round_up(v: int, step: int) -> int:
    return -(-v // step) * step


def residency(k: KernelResources) -> Residency:
    """CTAs of one kernel resident per CU (gfx950) or SM (sm_90), from its compiled resources.

    gfx950: a wave's VGPRs (arch, then AGPRs from accum_offset) round up to 8; a SIMD holds
    min(8, 512 // that) waves; a CTA of W waves puts ceil(W / 4) on each SIMD; LDS is 160 KiB per CU,
    allocated in 1280-byte blocks.
    sm_90: a warp's registers round up to 256 and come from one of 4 sub-partitions of 16384
    (`UnitLimits.warps_by_registers`); 64 warps, 32 CTAs and 228 KB of shared memory per SM, a CTA's
    (plus 1 KB reserved) allocated in 128-byte steps (`UnitLimits.shared_per_cta`).
    """
    if k.target not in UNIT_LIMITS:
        raise ValueError(f"target must be one of {', '.join(UNIT_LIMITS)}, got {k.target!r}")
    lim = UNIT_LIMITS[k.target]
    positive(k.num_warps, "num_warps")
    if k.target == "gfx950":
        used = max(k.registers, (k.accum_offset or 0) + k.agprs, 1)
        per_simd = min(lim.waves_per_simd, lim.registers // _round_up(used, lim.register_granule))
        waves_per_simd_per_cta = cdiv(k.num_warps, lim.simds)
        by = {"registers": per_simd // waves_per_simd_per_cta,
              "waves": lim.waves_per_simd // waves_per_simd_per_cta}
    else:
        per_simd = None
        by = {"registers": lim.warps_by_registers(k.registers) // k.num_warps,
              "waves": lim.waves_per_simd // k.num_warps}
    if k.shared_bytes:
        by["shared"] = lim.shared_bytes // lim.shared_per_cta(k.shared_bytes)
    by["ctas"] = lim.ctas
    limit = min(by, key=lambda name: (by[name], name != "registers"))
    return Residency(by[limit], limit, per_simd)


# ---------------------------------------------------------------------------------------------------------
# Bytes in flight (Little's law)


def operand_step_bytes(tile_m: int, tile_n: int, block_k: int, a_format: str = "fp4") -> tuple[int, int]:
    """Bytes one CTA asks memory for in one K step of block_k values, as (A, B): its A tile, either already
    quantized ("fp4": packed codes and scale bytes, as the seed's paths hand A to the GEMM) or bf16
    ("bf16": A quantized inside the GEMM), and its B tile (tile_n rows, fp4, one scale byte per 32 values)."""
    for v, name in ((tile_m, "tile_m"), (tile_n, "tile_n"), (block_k, "block_k")):
        positive(v, name)
    if block_k % 32:
        raise ValueError(f"block_k must be a multiple of 32 (one scale per 32 values), got {block_k}")
    if a_format not in ("fp4", "bf16"):
        raise ValueError(f"a_format must be 'fp4' or 'bf16', got {a_format!r}")
    b = tile_n * block_k // 2 + tile_n * block_k // 32
    a = tile_m * block_k // 2 + tile_m * block_k // 32 if a_format == "fp4" else tile_m * block_k * 2
    return a, b


def step_bytes(tile_m: int, tile_n: int, block_k: int, a_format: str = "fp4") -> int:
    """Bytes one CTA asks memory for in one K step: A's tile and B's (`operand_step_bytes`) together."""
    return sum(operand_step_bytes(tile_m, tile_n, block_k, a_format))


def gemm_read_bytes(m: int, n: int, k: int, a_format: str = "fp4") -> int:
    """Bytes a GEMM call must read at least once: B (fp4) and its scales, and A (fp4 with scales, or bf16)."""
    for v, name in ((m, "m"), (n, "n"), (k, "k")):
        positive(v, name)
    return step_bytes(m, n, k, a_format)


def in_flight_bytes(ctas: int, resident_per_unit: int, device, a_step_bytes: int, b_step_bytes: int,
                    a_tiles: int, b_tiles: int, stages: int = 1) -> int:
    """Distinct bytes the launch can have requested from memory and not yet received at once: the CTAs
    resident together (at most resident_per_unit on each unit), each with `stages` K steps of loads
    outstanding (`a_step_bytes` of A and `b_step_bytes` of B a step). A tile that several resident CTAs
    load at the same step is counted once, since the cache serves the others: A's tile is shared by the
    CTAs of one row of output tiles and one K slice (`a_tiles` distinct ones), B's by those of one column
    (`b_tiles`). An upper bound: CTAs that share a tile are taken to be at the same step."""
    for v, name in ((ctas, "ctas"), (resident_per_unit, "resident_per_unit"), (a_step_bytes, "a_step_bytes"),
                    (b_step_bytes, "b_step_bytes"), (a_tiles, "a_tiles"), (b_tiles, "b_tiles"), (stages, "stages")):
        positive(v, name)
    resident = min(ctas, resident_per_unit * get_device(device).units)
    return stages * (min(resident, a_tiles) * a_step_bytes + min(resident, b_tiles) * b_step_bytes)


def latency_covered_us(bytes_in_flight: float, bandwidth: float) -> float:
    """Little's law read backwards: bytes in flight = bandwidth x latency, so with `bytes_in_flight`
    outstanding a launch streams at `bandwidth` (B/s) only while one memory round trip takes at most
    bytes_in_flight / bandwidth. In microseconds."""
    if bytes_in_flight < 0 or bandwidth <= 0:
        raise ValueError(f"bytes_in_flight must be >= 0 and bandwidth > 0, got {bytes_in_flight}, {bandwidth}")
    return bytes_in_flight / bandwidth * 1e6


# ---------------------------------------------------------------------------------------------------------
# Latency model


@dataclass(frozen=True)
class ModelParams:
    """The latency model's numbers for one device (`model_params(device)` gives its priors)."""

    bandwidth: float  # B/s
    peak_flops: float  # flop/s
    launch_us: float
    extra_kernel_us: float
    dot_efficiency: float
    bw_saturation: float

    def __post_init__(self):
        for name, v in self.__dict__.items():
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v) or v < 0:
                raise ValueError(f"{name} must be a finite non-negative number, got {v!r}")
        for name in ("bandwidth", "peak_flops", "dot_efficiency", "bw_saturation"):
            if self.__dict__[name] == 0:
                raise ValueError(f"{name} must be positive")


def model_params(device) -> ModelParams:
    """The device's figures as ModelParams; raises when one is not known (MI355X has no launch cost)."""
    d = get_device(device)
    values = {}
    for name in ("bandwidth", "peak_flops", "launch_us", "extra_kernel_us", "dot_efficiency", "bw_saturation"):
        fig = getattr(d, name)
        if fig.value is None:
            raise ValueError(f"{d.name} has no {name}: {fig.source}")
        values[name] = fig.value
    return ModelParams(**values)


def traffic_bytes(m: int, n: int, k: int, split_k: int = 1) -> int:
    """Bytes one call moves: A bf16 read, B fp4 and its scales read, C bf16 written, and with split-K the
    fp32 partials written once and read once by the reduction. Re-reads of A are taken to hit in L2; the
    partials are counted as DRAM traffic although they may stay in L2 (60 MB on the H200), so this is an
    upper bound where split_k * M * N is large."""
    partials = 2 * split_k * m * n * 4 if split_k > 1 else 0
    return m * k * 2 + n * k // 2 + n * k // 32 + m * n * 2 + partials


@dataclass(frozen=True)
class Prediction:
    us: float
    ctas: int
    waves: int
    utilization: float
    compute_us: float
    memory_us: float
    overhead_us: float  # launch + extra kernels


def k_steps(k: int, split_k: int, block_k: int) -> int:
    """Steps of block_k K values one CTA's loop makes in series: its K range, ceil(K/32 / split_k) scale
    groups (as mxlib's split-K kernel cuts K), rounded up to whole steps. For K and block_k multiples of 32
    this is ceil(K / (split_k * block_k)), as it is for a kernel that cuts K in block_k steps (fused)."""
    positive(split_k, "split_k")
    positive(block_k, "block_k")
    return cdiv(cdiv(k // 32, split_k) * 32, block_k)


def k_computed(k: int, split_k: int = 1, block_k: int | None = None) -> int:
    """K elements one CTA's loop covers, times split_k: K itself, or with `block_k` given, `k_steps` whole
    block_k steps, since a step's dot runs in full even where its groups are masked off."""
    if block_k is None:
        return k
    return split_k * k_steps(k, split_k, block_k) * block_k


def predict(m: int, n: int, k: int, tile_m: int, tile_n: int, split_k: int = 1, *, device="H200",
            model: ModelParams | None = None, ctas: int | None = None, kernels: int | None = None,
            block_k: int | None = None, resident: int = 1) -> Prediction:
    """The model's time for one config (module docstring). `ctas` overrides cta_count (the kernel's own
    grid when it differs); `kernels` is how many kernels one call launches (default 1, or 2 with split-K);
    `block_k` counts K padded to whole steps (`k_computed`); `resident` is how many CTAs one unit holds at
    once (`residency` of the compiled kernel; 1 is the one-CTA-per-unit model).

    With `resident` r, CTAs run in rounds of r * units; co-resident CTAs share their unit, each at the rate
    one CTA reaches alone (dot_efficiency of the unit's peak) until together they reach the unit's peak.
    With r = 1 this is the module docstring's formula."""
    d = get_device(device)
    p = model_params(d) if model is None else model
    n_ctas = cta_count(m, n, k, tile_m, tile_n, split_k) if ctas is None else ctas
    n_kernels = (2 if split_k > 1 else 1) if kernels is None else kernels
    positive(n_ctas, "ctas")
    positive(n_kernels, "kernels")
    positive(resident, "resident")
    rounds = cdiv(n_ctas, d.units * resident)
    u = min(1.0, n_ctas / (rounds * d.units))  # busy fraction of the units, averaged over the rounds
    flops = 2 * cdiv(m, tile_m) * tile_m * cdiv(n, tile_n) * tile_n * k_computed(k, split_k, block_k)
    per_cta, unit_peak = flops / n_ctas, p.peak_flops / d.units
    sharing = min(resident, cdiv(n_ctas, d.units))  # CTAs on the busiest unit in a round
    compute = rounds * max(per_cta / (unit_peak * p.dot_efficiency), sharing * per_cta / unit_peak) * 1e6
    memory = traffic_bytes(m, n, k, split_k) / (p.bandwidth * min(1.0, u / p.bw_saturation)) * 1e6
    overhead = p.launch_us + (n_kernels - 1) * p.extra_kernel_us
    return Prediction(overhead + max(compute, memory), n_ctas, rounds, u, compute, memory, overhead)


MODEL_KEYS = ("m", "n", "k", "tile_m", "tile_n", "split_k", "ctas", "kernels")  # and block_k, if a row has it


def predict_row(row, device, model: ModelParams) -> Prediction:
    """`predict` for a row (dict, e.g. a CSV row) with the MODEL_KEYS and optionally block_k and resident."""
    bk, res = row.get("block_k"), row.get("resident")
    return predict(*(int(row[c]) for c in MODEL_KEYS[:6]), device=device, model=model, ctas=int(row["ctas"]),
                   kernels=int(row["kernels"]), block_k=int(bk) if bk not in (None, "") else None,
                   resident=int(res) if res not in (None, "") else 1)


def _predictions(rows, device, model) -> list[float]:
    return [predict_row(r, device, model).us for r in rows]


# The grids `fit` searches: dot efficiency on a log scale (0.1% to 100% of peak), saturation linearly.
FIT_EFFICIENCIES = tuple(10 ** (-3 + 3 * i / 120) for i in range(121))
FIT_SATURATIONS = tuple(round(0.05 * i, 2) for i in range(1, 21))


def fit(rows, device, base: ModelParams) -> ModelParams:
    """`base` with dot_efficiency and bw_saturation chosen to minimize the mean |log(predicted / measured)|
    over `rows` (every row counts, unlike in the median |error| the sweeps report, `stats.median_abs_pct_error`).

    A grid search (deterministic). Ties go to the values nearest `base`'s, so a parameter the rows do not
    constrain (bw_saturation, when no config is memory-bound) keeps its prior.
    """
    rows = list(rows)
    if not rows:
        raise ValueError("rows must not be empty")
    measured = [float(r["measured_us"]) for r in rows]
    best = None
    for eff in FIT_EFFICIENCIES:
        for sat in FIT_SATURATIONS:
            model = replace(base, dot_efficiency=eff, bw_saturation=sat)
            preds = _predictions(rows, device, model)
            score = (round(sum(abs(math.log(p / t)) for p, t in zip(preds, measured)) / len(rows), 12),
                     abs(math.log(eff / base.dot_efficiency)), abs(sat - base.bw_saturation))
            if best is None or score < best[0]:
                best = (score, model)
    return best[1]


# ---------------------------------------------------------------------------------------------------------
# Tables for the workbook

MODEL_TILES = ((16, 64), (16, 128), (32, 128), (64, 128))
MODEL_SPLITS = tuple(range(1, 33))
MODEL_CSV = RESULTS_DIR / "occupancy_model.csv"
TABLE_COLUMNS = ("device", "kind", "m", "n", "k", "tile_m", "tile_n", "split_k", "ctas", "waves",
                 "utilization", "even_k")


@dataclass(frozen=True)
class _Shape:
    kind: str
    m: int
    n: int
    k: int


def utilization_table(shapes, device, tiles=MODEL_TILES, split_ks=MODEL_SPLITS) -> list[dict]:
    """One row per shape x tile x split_k (split_k <= K/32) with CTAs, waves and utilization on `device`.

    `shapes`: mxlib.spec.shapes.Shape objects, or (M, N, K) tuples (kind ""). `even_k` says whether the K slices
    are equal whole scale groups (K % (32 * split_k) == 0).
    """
    d = get_device(device)
    rows = []
    for s in shapes:
        s = _Shape("", *s) if isinstance(s, tuple) else _Shape(s.kind, s.m, s.n, s.k)
        for tile_m, tile_n in tiles:
            for split_k in split_ks:
                if split_k > s.k // 32:
                    continue
                ctas = cta_count(s.m, s.n, s.k, tile_m, tile_n, split_k)
                rows.append(dict(device=d.name, kind=s.kind, m=s.m, n=s.n, k=s.k, tile_m=tile_m, tile_n=tile_n,
                                 split_k=split_k, ctas=ctas, waves=waves(ctas, d),
                                 utilization=round(cu_utilization(ctas, d), 6),
                                 even_k=s.k % (32 * split_k) == 0))
    return rows


def write_model_csv(path=None, shapes=None) -> Path:
    """Write utilization_table for every contest shape on both devices (deterministic; no GPU)."""
    from ..spec import shapes as shapes_mod  # mxlib.spec.shapes imports torch (via validate); keep it out of import time

    path = Path(path) if path is not None else MODEL_CSV
    shapes = shapes_mod.load() if shapes is None else shapes
    return write_csv_atomic(path, TABLE_COLUMNS, (row for name in DEVICES for row in utilization_table(shapes, name)))
