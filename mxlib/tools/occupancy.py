"""Occupancy of a tiled, split-K GEMM on MI355X and H200, aiter's tile and split-K choices, and a latency model.

The seed's argument in numbers: (16, 2112, 7168) with 32x128 tiles is 17 CTAs, 6.6% of MI355X's 256 CUs;
14-way split-K makes it 238 CTAs (93%); the seed's config actually uses 7 splits (119 CTAs, 46%).

Utilization counts a partly idle last wave: ``waves = ceil(ctas / units)``, ``u = ctas / (waves * units)``.

Latency model (`predict_us`), per call, contest-style (L2 flushed, one call between events)::

    predicted = launch + (kernels - 1) * extra_kernel + max(t_memory, t_compute)
    t_compute = 2 * M_pad * N_pad * K_pad / (peak * dot_efficiency * u)  # padded tiles and K steps are computed too
    t_memory  = bytes / (bandwidth * min(1, u / bw_saturation))
    bytes     = A (bf16) + B (fp4) + B scales + C (bf16) [+ 2 * split_k * M * N * 4 fp32 partials if split_k > 1]

`launch` and `extra_kernel` are measured (a lone empty kernel; a second one in the same timed call),
`bandwidth` and `peak` are the device's measured or cited ceilings, and two parameters are fitted to the
H200 sweep (`fit`): `dot_efficiency` (the fraction of the bf16 peak the kernel's inner loop reaches, fp4
decode and scaling included: sm_90 has no FP4 MMA, so every MXFP4 dot runs as a 16-bit one, NOTES §5) and
`bw_saturation` (the fraction of units that saturates HBM). Their priors in `DEVICES` say where they come
from. The model has no term for memory latency, L2 hits or the quantization of A beyond its launch.

aiter replicas (cited to ROCm/aiter at commit 741f0b89f1, the last before 2026-02-15, when the contest ran):
`aiter_get_splitk` (Triton split-K), `asm_k_splits` (the ASM kernels' K split), `asm_heuristic` (which ASM
kernel an untuned shape gets) and `reference_kernel` (which kernel the contest's reference runs per shape:
for the seed's (16, 2112, 7168), which has no tuned row, the heuristic's 192x128 tile, 17 CTAs).

Nothing here imports torch, triton or aiter.
"""
from __future__ import annotations

import csv
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable, Sequence

from .repo import RESULTS_DIR

def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


def _positive(value, name: str) -> None:
    # Local twin of validate.positive: mxlib.spec.validate imports torch, this module must not.
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")


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


# The naive tl.dot_scaled kernel of NOTES §6 (BM16 BN64 BK256, A pre-quantized, one kernel, no split-K) took
# 61.5 us on (16, 2112, 7168): 33 CTAs on 132 SMs. Solving the model's compute term for it gives the prior.
_NAIVE = dict(m=16, n=2112, k=7168, tile_m=16, tile_n=64, measured_us=61.5, launch_us=3.46, units=132, peak=799e12)


def _naive_dot_efficiency() -> float:
    g = _NAIVE
    ctas = _cdiv(g["m"], g["tile_m"]) * _cdiv(g["n"], g["tile_n"])
    u = ctas / (_cdiv(ctas, g["units"]) * g["units"])
    flops = 2 * _cdiv(g["m"], g["tile_m"]) * g["tile_m"] * _cdiv(g["n"], g["tile_n"]) * g["tile_n"] * g["k"]
    return flops / (g["peak"] * u * (g["measured_us"] - g["launch_us"]) * 1e-6)


_H200_PRIOR_SOURCE = "prior; `python -m mxlib sweep` fits it to data/results/h200/splitk_sweep.csv"

DEVICES: dict[str, Device] = {
    "MI355X": Device(
        name="MI355X",
        units=256,
        unit_name="CU",
        groups=8,
        bandwidth=Figure(8e12, "B/s", "cited: NOTES §7, 8 TB/s HBM; not measured here"),
        peak_flops=Figure(10e15, "flop/s", "cited: NOTES §7, ~10 PFLOP/s MXFP4 dense; not measured here"),
        launch_us=Figure(None, "us", "not measured: no MI355X here, and no cited figure (NOTES §7 gives none)"),
        extra_kernel_us=Figure(None, "us", "not measured: no MI355X here"),
        l2_bytes=Figure(8 * 4 * 2**20, "B", "cited: NOTES §7, 4 MB L2 per XCD x 8, behind a 256 MB Infinity Cache"),
        dot_efficiency=Figure(None, "", "not fitted: no MI355X measurements"),
        bw_saturation=Figure(None, "", "not fitted: no MI355X measurements"),
    ),
    "H200": Device(
        name="H200",
        units=132,
        unit_name="SM",
        groups=1,
        bandwidth=Figure(4.28e12, "B/s", "measured: NOTES §6, copy (read+write), contest-style"),
        peak_flops=Figure(799e12, "flop/s", "measured: NOTES §6, cuBLAS bf16 matmul (no FP4 tensor cores on sm_90)"),
        launch_us=Figure(3.46, "us", "measured: NOTES §6, one tiny kernel, contest-style"),
        extra_kernel_us=Figure(3.46, "us",
                               "prior: as much as a lone kernel; the sweep measures it (two empty kernels)"),
        l2_bytes=Figure(60e6, "B", "measured: NOTES §6"),
        dot_efficiency=Figure(
            _naive_dot_efficiency(), "",
            "derived: NOTES §6 naive tl.dot_scaled kernel, 61.5 us on (16,2112,7168), solved for the compute term; "
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
        _positive(v, name)
    if split_k > k // 32:
        raise ValueError(f"split_k must be at most K / 32 = {k // 32} (one scale group per slice), got {split_k}")
    return _cdiv(m, tile_m) * _cdiv(n, tile_n) * split_k


def waves(ctas: int, device) -> int:
    """How many rounds of `units` CTAs it takes (one CTA per unit per round)."""
    _positive(ctas, "ctas")
    return _cdiv(ctas, get_device(device).units)


def cu_utilization(ctas: int, device) -> float:
    """ctas / (waves * units): the busy fraction of the unit-rounds, a partly idle last wave included."""
    d = get_device(device)
    return ctas / (waves(ctas, d) * d.units)


def group_loads(ctas: int, device) -> list[int]:
    """CTAs per XCD when they are dealt round-robin (CTA i to XCD i % groups); one entry on the H200."""
    _positive(ctas, "ctas")
    g = get_device(device).groups
    return [ctas // g + (i < ctas % g) for i in range(g)]


# ---------------------------------------------------------------------------------------------------------
# aiter's split-K arithmetic


@dataclass(frozen=True)
class TritonSplitK:
    splitk_block_size: int  # K elements per slice (SPLITK_BLOCK_SIZE)
    block_k: int
    num_ksplit: int


def aiter_get_splitk(k_arg: int, block_k: int, num_ksplit: int) -> TritonSplitK:
    """aiter's `get_splitk(K, BLOCK_SIZE_K, NUM_KSPLIT)`, same arithmetic and the same units.

    Replicates ROCm/aiter:aiter/ops/triton/gemm/basic/gemm_afp4wfp4.py `get_splitk` at 741f0b89f1: halve
    NUM_KSPLIT (or BLOCK_SIZE_K) until the slices divide K evenly, then recount the slices. `k_arg` is what
    aiter passes: `gemm_afp4wfp4_preshuffle` hands it K in packed bytes (K/2), while SPLITK_BLOCK_SIZE and
    BLOCK_SIZE_K are in elements (hence its `2 *` and `// 2`). `triton_splitk` takes elements.
    """
    for v, name in ((k_arg, "k_arg"), (block_k, "block_k"), (num_ksplit, "num_ksplit")):
        _positive(v, name)

    def slice_size(splits, bk):
        return _cdiv(2 * _cdiv(k_arg, splits), bk) * bk

    size = slice_size(num_ksplit, block_k)
    while num_ksplit > 1 and block_k > 16:
        if k_arg % (size // 2) == 0 and size % block_k == 0 and k_arg % (block_k // 2) == 0:
            break
        if k_arg % (size // 2) != 0:
            num_ksplit //= 2
        elif size % block_k != 0:
            num_ksplit //= 2  # num_ksplit > 1 here: the loop condition holds it
        elif k_arg % (block_k // 2) != 0:
            block_k //= 2
        else:
            break
        size = slice_size(num_ksplit, block_k)
    return TritonSplitK(size, block_k, _cdiv(k_arg, size // 2))


def triton_splitk(k: int, block_k: int, num_ksplit: int) -> TritonSplitK:
    """The split aiter's Triton preshuffle GEMM runs for K elements when asked for `num_ksplit` slices.

    As `gemm_afp4wfp4_preshuffle` does at 741f0b89f1: `get_splitk` on K/2 bytes when num_ksplit > 1,
    then a BLOCK_SIZE_K of at least the whole K collapses to one slice of K.
    """
    _positive(k, "k")
    if k % 2:
        raise ValueError(f"k must be even (two fp4 values per byte), got {k}")
    if num_ksplit > 1:
        s = aiter_get_splitk(k // 2, block_k, num_ksplit)
    else:
        _positive(block_k, "block_k")
        s = TritonSplitK(k, block_k, 1)
    if s.block_k >= k:  # then get_splitk already came back with one slice
        return TritonSplitK(k, 1 << (k - 1).bit_length(), 1)
    return s


def asm_k_splits(k: int, log2_k_split: int) -> int:
    """K slices (grid z) the split-K ASM kernels launch: ROCm/aiter:csrc/py_itfs_cu/asm_gemm_a4w4.cu.

    2**log2_k_split slices are requested, each rounded up to a multiple of 256 elements, so fewer may run:
    K=512 asked for 16 runs 2. Only the kernels with splitK=1 in the kernel list (256x256, 128x512) do this;
    the others ignore log2_k_split (NOTES §4).
    """
    _positive(k, "k")
    if not isinstance(log2_k_split, int) or log2_k_split < 0:
        raise ValueError(f"log2_k_split must be a non-negative integer, got {log2_k_split!r}")
    k_num = 1 << log2_k_split
    if k % k_num:
        raise ValueError(f"k must be a multiple of 2**log2_k_split = {k_num} (aiter checks it), got {k}")
    per_slice = _cdiv(k // k_num, 256) * 256
    return _cdiv(k, per_slice)


# ---------------------------------------------------------------------------------------------------------
# aiter's ASM tile heuristic


@dataclass(frozen=True)
class AsmKernel:
    tile_m: int
    tile_n: int
    split_k: bool  # the kernel takes log2_k_split
    bpreshuffle: bool

    @property
    def name(self) -> str:
        """The kernel's symbol, `_ZN5aiter<len><name>E`."""
        base = f"f4gemm_bf16_per1x32Fp4_{'B' if self.bpreshuffle else 'noB'}preShuffle_{self.tile_m}x{self.tile_n}"
        return f"_ZN5aiter{len(base)}{base}E"


# The gfx950 kernel list, in file order: ROCm/aiter:hsa/gfx950/f4gemm/f4gemm_bf16_per1x32Fp4.csv at 741f0b89f1
# (unchanged since 2025-11-22). Columns tile_M, tile_N, splitK, bpreshuffle.
ASM_KERNELS: tuple[AsmKernel, ...] = tuple(AsmKernel(m, n, bool(s), bool(p)) for m, n, s, p in (
    (256, 256, 0, 0), (256, 256, 1, 1), (128, 512, 1, 1), (192, 256, 0, 1), (224, 256, 0, 1),
    (128, 128, 0, 1), (128, 256, 0, 1), (128, 384, 0, 1), (160, 128, 0, 1), (160, 256, 0, 1),
    (160, 384, 0, 1), (192, 128, 0, 1), (224, 128, 0, 1), (256, 128, 0, 1), (32, 1024, 0, 1),
    (32, 128, 0, 1), (32, 256, 0, 1), (32, 384, 0, 1), (32, 512, 0, 1), (32, 640, 0, 1),
    (32, 768, 0, 1), (32, 896, 0, 1), (64, 1024, 0, 1), (64, 128, 0, 1), (64, 256, 0, 1),
    (64, 384, 0, 1), (64, 512, 0, 1), (64, 640, 0, 1), (64, 768, 0, 1), (64, 896, 0, 1),
    (96, 128, 0, 1), (96, 256, 0, 1), (96, 384, 0, 1), (96, 512, 0, 1), (96, 640, 0, 1),
))

_MASK64 = (1 << 64) - 1
_MUR_MUL = (0xC6A4A793 << 32) + 0x5BD1E995


def _shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def libstdcxx_string_hash(s: str) -> int:
    """`std::hash<std::string>` of libstdc++ on 64-bit Linux: `_Hash_bytes(data, len, 0xc70f6907)`."""
    data = s.encode()
    n = len(data)
    h = (0xC70F6907 ^ (n * _MUR_MUL)) & _MASK64
    whole = n & ~7
    for i in range(0, whole, 8):
        word = int.from_bytes(data[i:i + 8], "little")
        h = ((h ^ ((_shift_mix((word * _MUR_MUL) & _MASK64) * _MUR_MUL) & _MASK64)) * _MUR_MUL) & _MASK64
    if n & 7:
        h = ((h ^ int.from_bytes(data[whole:], "little")) * _MUR_MUL) & _MASK64
    return _shift_mix((_shift_mix(h) * _MUR_MUL) & _MASK64)


_FAST_BUCKETS = (2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13)


def _next_bucket_count(n: int) -> int:
    """libstdc++'s prime rehash policy `_M_next_bkt`: a small table, then the next prime >= n from its
    prime list, which holds every prime up to 97 (as far as this replica goes; 35 keys reach 59)."""
    if n < len(_FAST_BUCKETS):
        return _FAST_BUCKETS[n]
    if n > 97:
        raise ValueError(f"bucket counts above 97 are beyond this replica of libstdc++'s prime list, got {n}")
    while any(n % p == 0 for p in range(2, math.isqrt(n) + 1)):
        n += 1
    return n


def libstdcxx_iteration_order(keys: Sequence[str]) -> list[str]:
    """The order a libstdc++ `std::unordered_map<std::string, T>` built from `keys` (an initializer list)
    iterates in: each key is inserted in turn, growing the table as `_Prime_rehash_policy` says (first to
    13 buckets, then at least doubling), and a node goes to the front of its bucket, or of the whole list
    when its bucket is empty; a rehash re-threads the list the same way. Checked against g++ 12.2.
    """
    hashes = {key: libstdcxx_string_hash(key) for key in keys}
    order: list[str] = []
    buckets, next_resize = 1, 0

    def place(lst, key, nb):
        b = hashes[key] % nb
        first = next((i for i, other in enumerate(lst) if hashes[other] % nb == b), 0)
        lst.insert(first, key)

    for key in keys:
        count = len(order) + 1
        if count > next_resize:
            min_buckets = max(count, 0 if next_resize else 11)
            if min_buckets >= buckets:
                buckets = _next_bucket_count(max(min_buckets + 1, buckets * 2))
                rethreaded: list[str] = []
                for other in order:
                    place(rethreaded, other, buckets)
                order = rethreaded
            next_resize = buckets  # max_load_factor 1.0
        place(order, key, buckets)
    return order


def asm_kernel_order(arch: str = "gfx950") -> list[AsmKernel]:
    """ASM_KERNELS in the order aiter's heuristic visits them.

    aiter's codegen (hsa/codegen.py) puts the list into a `std::unordered_map<std::string, ...>` keyed
    "<arch><symbol>"; the heuristic loops over that map, so its iteration order decides ties. Assumes
    aiter was built with libstdc++ (hipcc on Linux), whose order is `libstdcxx_iteration_order`.
    """
    by_key = {arch + kern.name: kern for kern in ASM_KERNELS}
    return [by_key[key] for key in libstdcxx_iteration_order(list(by_key))]


@dataclass(frozen=True)
class AsmChoice:
    kernel: AsmKernel
    split_k: int  # the heuristic's split (a power of two)
    rounds: int  # ceil(tiles * split_k / units), as the heuristic counts
    ctas: int  # what gemm_a4w4_asm launches: tiles x asm_k_splits(K, log2(split_k)) for split-K kernels

    @property
    def tile(self) -> tuple[int, int]:
        return self.kernel.tile_m, self.kernel.tile_n


def asm_heuristic(m: int, n: int, k: int, *, log2_k_split: int | None = 0, device="MI355X",
                  bpreshuffle: bool = True, order: Sequence[AsmKernel] | None = None) -> AsmChoice:
    """The ASM kernel `gemm_a4w4_asm` picks for a shape it has no tuned row for.

    Replica of `get_heuristic_kernel` in ROCm/aiter:csrc/py_itfs_cu/asm_gemm_a4w4.cu (741f0b89f1; the logic
    is the same in the newest snapshot seen, e4048607 of 2026-08): visit the kernels (in `order`, default
    the map's order, `asm_kernel_order`); skip those with the wrong preshuffle flag, 128x512 when
    N % 512 != 0, and non-split-K ones when a log2_k_split > 0 is asked for. Split-K kernels try split 2**log2_k_split, or 2, 4, 8, 16 when log2_k_split is None;
    the others split 1. A candidate of tiles*split CTAs replaces the current pick when it needs fewer
    rounds (ceil(CTAs / CUs)), or the same rounds with fewer idle CUs or a better compute-to-memory ratio
    floor(tile_m * tile_n / (tile_m + tile_n)) (C++ integer division). That last test is not a total order,
    so the pick depends on the visiting order.

    `aiter.gemm_a4w4` (the contest's reference) passes log2_k_split=0 for an untuned shape: the default.
    Seven of the 13 contest shapes have no tuned row, the seed's (16, 2112, 7168) among them
    (`reference_kernel`), so this is what the reference runs for them.
    """
    for v, name in ((m, "m"), (n, "n"), (k, "k")):
        _positive(v, name)
    if log2_k_split is not None and (not isinstance(log2_k_split, int) or log2_k_split < 0):
        raise ValueError(f"log2_k_split must be None or a non-negative integer, got {log2_k_split!r}")
    units = get_device(device).units
    en = 1 if log2_k_split else 0
    best = None
    rounds, idle, ratio = 0xFFFFFFFF, units, 1.0
    for kern in asm_kernel_order() if order is None else order:
        if kern.bpreshuffle != bpreshuffle or int(kern.split_k) < en:
            continue
        if kern.tile_m == 128 and kern.tile_n == 512 and n % kern.tile_n:
            continue
        if kern.split_k:
            splits = [1 << log2_k_split] if log2_k_split is not None else [2, 4, 8, 16]
        else:
            splits = [1]
        tiles = _cdiv(m, kern.tile_m) * _cdiv(n, kern.tile_n)
        for s in splits:
            tg = tiles * s
            r = _cdiv(tg, units)
            e = float(kern.tile_m * kern.tile_n // (kern.tile_m + kern.tile_n))
            if r < rounds or (r == rounds and (idle > r * units - tg or e > ratio)):
                rounds, idle, ratio = r, r * units - tg, e
                best = (kern, s, tiles)
    if best is None:
        raise ValueError(f"no ASM kernel fits M={m} N={n} K={k} with log2_k_split={log2_k_split}")
    kern, s, tiles = best
    ctas = tiles * (asm_k_splits(k, s.bit_length() - 1) if kern.split_k else 1)
    return AsmChoice(kern, s, rounds, ctas)


# The contest shapes' rows for cu_num=256 in ROCm/aiter:aiter/configs/a4w4_blockscale_tuned_gemm.csv (looked up
# by M, then ceil16(M), then the next power of two, as get_GEMM_config does): the same from 768c037adb
# (2026-02-25) to e4048607 (2026-08), and NOTES §4's times. All are ASM kernels with splitK 0; at 741f0b89f1
# (2026-02-14) five of them were CK kernels instead. The other seven contest shapes have no row.
AITER_TUNED_CONTEST = {
    (8, 2112, 7168): (32, 128), (16, 3072, 1536): (32, 128), (64, 3072, 1536): (32, 128),
    (64, 7168, 2048): (32, 128), (256, 3072, 1536): (32, 128), (256, 7168, 2048): (64, 128),
}
AITER_UNTUNED_CONTEST = frozenset({
    (256, 2880, 512), (4, 2880, 512), (16, 2112, 7168), (32, 4096, 512), (32, 2880, 512), (64, 2880, 512),
    (128, 2112, 7168),
})


def reference_kernel(m: int, n: int, k: int) -> tuple[str, AsmChoice]:
    """("tuned" or "heuristic", the ASM kernel) that `aiter.gemm_a4w4` runs for a contest shape on MI355X.

    Only the contest shapes are known here (AITER_TUNED_CONTEST, AITER_UNTUNED_CONTEST); another shape
    raises ValueError, since aiter may have a row for it that this module does not carry.
    """
    key = (m, n, k)
    if key in AITER_TUNED_CONTEST:
        tile_m, tile_n = AITER_TUNED_CONTEST[key]
        kern = next(x for x in ASM_KERNELS if (x.tile_m, x.tile_n) == (tile_m, tile_n) and x.bpreshuffle)
        ctas = _cdiv(m, tile_m) * _cdiv(n, tile_n)
        return "tuned", AsmChoice(kern, 1, _cdiv(ctas, DEVICES["MI355X"].units), ctas)
    if key in AITER_UNTUNED_CONTEST:
        return "heuristic", asm_heuristic(m, n, k)
    raise ValueError(f"(m, n, k) must be a contest shape (aiter's tuned rows are known only for those), got {key}")


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


def k_computed(k: int, split_k: int = 1, block_k: int | None = None) -> int:
    """K elements one CTA's loop covers, times split_k: K itself, or with `block_k` given, each K range
    (ceil(K/32 / split_k) scale groups, as mxlib's split-K kernel cuts it) rounded up to whole block_k
    steps, since a step's dot runs in full even where its groups are masked off."""
    if block_k is None:
        return k
    _positive(block_k, "block_k")
    groups = _cdiv(k // 32, split_k)
    return split_k * _cdiv(groups * 32, block_k) * block_k


def predict(m: int, n: int, k: int, tile_m: int, tile_n: int, split_k: int = 1, *, device="H200",
            model: ModelParams | None = None, ctas: int | None = None, kernels: int | None = None,
            block_k: int | None = None) -> Prediction:
    """The model's time for one config (module docstring). `ctas` overrides cta_count (the kernel's own
    grid when it differs); `kernels` is how many kernels one call launches (default 1, or 2 with split-K);
    `block_k` counts K padded to whole steps (`k_computed`)."""
    d = get_device(device)
    p = model_params(d) if model is None else model
    n_ctas = cta_count(m, n, k, tile_m, tile_n, split_k) if ctas is None else ctas
    n_kernels = (2 if split_k > 1 else 1) if kernels is None else kernels
    _positive(n_ctas, "ctas")
    _positive(n_kernels, "kernels")
    w = waves(n_ctas, d)
    u = n_ctas / (w * d.units)
    flops = 2 * _cdiv(m, tile_m) * tile_m * _cdiv(n, tile_n) * tile_n * k_computed(k, split_k, block_k)
    compute = flops / (p.peak_flops * p.dot_efficiency * u) * 1e6
    memory = traffic_bytes(m, n, k, split_k) / (p.bandwidth * min(1.0, u / p.bw_saturation)) * 1e6
    overhead = p.launch_us + (n_kernels - 1) * p.extra_kernel_us
    return Prediction(overhead + max(compute, memory), n_ctas, w, u, compute, memory, overhead)


def predict_us(*args, **kwargs) -> float:
    """`predict(...).us`."""
    return predict(*args, **kwargs).us


MODEL_KEYS = ("m", "n", "k", "tile_m", "tile_n", "split_k", "ctas", "kernels")  # and block_k, if a row has it


def predict_row(row, device, model: ModelParams) -> Prediction:
    """`predict` for a row (dict, e.g. a CSV row) with the MODEL_KEYS and optionally block_k."""
    bk = row.get("block_k")
    return predict(*(int(row[c]) for c in MODEL_KEYS[:6]), device=device, model=model, ctas=int(row["ctas"]),
                   kernels=int(row["kernels"]), block_k=int(bk) if bk not in (None, "") else None)


def _predictions(rows, device, model) -> list[float]:
    return [predict_row(r, device, model).us for r in rows]


def abs_pct_errors(rows, device, model: ModelParams) -> list[float]:
    """|predicted - measured| / measured in %, per row (rows with the MODEL_KEYS and measured_us)."""
    return [abs(p - float(r["measured_us"])) / float(r["measured_us"]) * 100
            for p, r in zip(_predictions(rows, device, model), rows)]


def median(values: Iterable[float]) -> float:
    v = sorted(values)
    if not v:
        raise ValueError("median of no values")
    mid = len(v) // 2
    return v[mid] if len(v) % 2 else (v[mid - 1] + v[mid]) / 2


def median_abs_pct_error(rows, device, model: ModelParams) -> float:
    """Median of |predicted - measured| / measured, in %, over rows with the MODEL_KEYS and measured_us."""
    return median(abs_pct_errors(rows, device, model))


# The grids `fit` searches: dot efficiency on a log scale (0.1% to 100% of peak), saturation linearly.
FIT_EFFICIENCIES = tuple(10 ** (-3 + 3 * i / 120) for i in range(121))
FIT_SATURATIONS = tuple(round(0.05 * i, 2) for i in range(1, 21))


def fit(rows, device, base: ModelParams) -> ModelParams:
    """`base` with dot_efficiency and bw_saturation chosen to minimize the mean |log(predicted / measured)|
    over `rows` (every row counts, unlike in the median error `median_abs_pct_error` reports).

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
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=TABLE_COLUMNS, lineterminator="\n")
        w.writeheader()
        for name in DEVICES:
            w.writerows(utilization_table(shapes, name))
    return path
