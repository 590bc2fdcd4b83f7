"""Replicas of the aiter rules that decide what runs on an MI355X when the seed leaves the choice to aiter.

Each replica cites the ROCm/aiter file it copies the arithmetic of (written from the source, checked on
the releases named; aiter itself needs ROCm and never runs here):

- `aiter_get_splitk`, `triton_splitk`: how `gemm_afp4wfp4_preshuffle` turns a requested NUM_KSPLIT and
  BLOCK_SIZE_K into the split it launches;
- `asm_k_splits`: the K slices (grid z) of the split-K ASM kernels;
- `asm_heuristic`, with `libstdcxx_iteration_order`: the ASM kernel `gemm_a4w4_asm` picks when it is
  given no kernel name (the heuristic visits an unordered_map, so libstdc++'s iteration order decides ties);
- `TUNED_ROWS` and `gemm_a4w4_choice`: the rows of aiter's tuned CSV for the contest shapes (with AMD's
  tuning time of each), per aiter release line (`AITER_LINES`; `aiter_line` places a release by its number,
  a main-branch build by its commit), and the kernel `aiter.gemm_a4w4` runs from them.

Nothing here imports torch, triton or aiter.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Sequence

from .devices import MI355X
from .ints import cdiv, non_negative, positive


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
        positive(v, name)

    def slice_size(splits, bk):
        return cdiv(2 * cdiv(k_arg, splits), bk) * bk

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
    return TritonSplitK(size, block_k, cdiv(k_arg, size // 2))


def triton_splitk(k: int, block_k: int, num_ksplit: int) -> TritonSplitK:
    """The split aiter's Triton preshuffle GEMM runs for K elements when asked for `num_ksplit` slices.

    As `gemm_afp4wfp4_preshuffle` does at 741f0b89f1: `get_splitk` on K/2 bytes when num_ksplit > 1,
    then a BLOCK_SIZE_K of at least the whole K collapses to one slice of K.
    """
    positive(k, "k")
    positive(num_ksplit, "num_ksplit")
    if k % 2:
        raise ValueError(f"k must be even (two fp4 values per byte), got {k}")
    if num_ksplit > 1:
        s = aiter_get_splitk(k // 2, block_k, num_ksplit)
    else:
        positive(block_k, "block_k")
        s = TritonSplitK(k, block_k, 1)
    if s.block_k >= k:  # then get_splitk already came back with one slice
        return TritonSplitK(k, 1 << (k - 1).bit_length(), 1)
    return s


def asm_k_splits(k: int, log2_k_split: int) -> int:
    """K slices (grid z) the split-K ASM kernels launch: ROCm/aiter:csrc/py_itfs_cu/asm_gemm_a4w4.cu.

    2**log2_k_split slices are requested, each rounded up to a multiple of 256 elements, so fewer may run:
    K=512 asked for 16 runs 2. Only the kernels with splitK=1 in the kernel list (256x256, 128x512) do this;
    the others ignore log2_k_split.
    """
    positive(k, "k")
    non_negative(log2_k_split, "log2_k_split")
    k_num = 1 << log2_k_split
    if k % k_num:
        raise ValueError(f"k must be a multiple of 2**log2_k_split = {k_num} (aiter checks it), got {k}")
    per_slice = cdiv(k // k_num, 256) * 256
    return cdiv(k, per_slice)


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


def asm_heuristic(m: int, n: int, k: int, *, log2_k_split: int | None = 0, cus: int = MI355X.units,
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
    Seven of the 13 contest shapes have no tuned row in any aiter release from 0.1.10 on, the seed's
    (16, 2112, 7168) among them (`gemm_a4w4_choice`), so this is what the reference runs for them.
    """
    for v, name in ((m, "m"), (n, "n"), (k, "k")):
        positive(v, name)
    if log2_k_split is not None:
        non_negative(log2_k_split, "log2_k_split")
    positive(cus, "cus")
    units = cus
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
        tiles = cdiv(m, kern.tile_m) * cdiv(n, kern.tile_n)
        for s in splits:
            tg = tiles * s
            r = cdiv(tg, units)
            e = float(kern.tile_m * kern.tile_n // (kern.tile_m + kern.tile_n))
            if r < rounds or (r == rounds and (idle > r * units - tg or e > ratio)):
                rounds, idle, ratio = r, r * units - tg, e
                best = (kern, s, tiles)
    if best is None:
        raise ValueError(f"no ASM kernel fits M={m} N={n} K={k} with log2_k_split={log2_k_split}")
    kern, s, tiles = best
    ctas = tiles * (asm_k_splits(k, s.bit_length() - 1) if kern.split_k else 1)
    return AsmChoice(kern, s, rounds, ctas)


# ---------------------------------------------------------------------------------------------------------
# aiter's tuned CSV and what gemm_a4w4 runs


@dataclass(frozen=True)
class AiterLine:
    """aiter builds over which the tuned rows of the contest shapes do not change: a release line.

    A release is placed by its number: from `first` up to the next line's `first` (`stop`). A build of a
    main-branch commit is not: aiter's setuptools_scm (default scheme) numbers it from the last tag reachable
    from it, so kernelbot's pin f3be04a12a (git describe: v0.1.10.post3-78) builds as
    0.1.10.post4.dev78+gf3be04a12a yet has the 0.1.11 line's rows. `aiter_line`
    places such a build by the commit its local part names, when that is one of a line's `commits`.
    """

    name: str  # the line's first release
    first: str  # PEP 440: the first release with these rows
    stop: str | None  # PEP 440: the next line's first release (None: the newest line read)
    span: str  # the releases and main-branch commits the rows were read over
    commits: tuple[str, ...]  # main-branch commits read with these rows (full SHAs): places dev builds
    csv_commit: str  # the commit TUNED_ROWS quotes the rows and their `us` from (the same over the span)


# CK blockscale instance named by the tuned rows of 0.1.10 (ROCm/aiter:csrc/ck_gemm_a4w4_blockscale/
# gemm_a4w4_blockscale_common.py, kernel 0): 256 threads, MPerBlock 64, NPerBlock 128, KPerBlock 128 packed
# fp4x2 bytes (256 fp4 values per K step: include/gemm_a4w4_blockscale_common.cuh).
CK_64X128 = "a4w4_blockscale_256x64x128x128_16x16_16x16_8x32x1_8x32x1_1x32x1x8_8_2x2_intrawave_v3"

# Which line the contest's MI355X runner had is not in the contest's files (gpu-mode/reference-kernels:
# problems/amd_202602). gpu-mode/kernelbot's MI355X jobs run in its AMD runner image from 2026-03-04
# (kernelbot#455), whose public Dockerfile, docker/amd-docker.Dockerfile, pins aiter main at f3be04a12a
# (2026-03-04) from then on (the last change to the pin in kernelbot's history to 2026-07-15); that commit has
# the 0.1.11 line's rows. Whether the image that ran was built from that file is not verifiable here.
KERNELBOT_AITER = "0.1.10.post4.dev78+gf3be04a12a"  # setuptools_scm's version of that pin, f3be04a12a

AITER_LINES = (
    AiterLine("0.1.10", "0.1.10", "0.1.11",
              "releases 0.1.10 to 0.1.10.post3 and main to 741f0b89f1 (2026-02-14)",
              ("741f0b89f11d48db82f8188f5a13811f2fd23cf7",), "741f0b89f1"),
    AiterLine("0.1.11", "0.1.11", None,
              "main from 768c037adb (ROCm/aiter#2092, 2026-02-25) to e4048607a5 (2026-08-22), with releases "
              "0.1.11 to 0.1.20.post1",
              ("768c037adb378eca2d109a5d2d58d9b8630ccf20", "f3be04a12a0cfd6b5e2c7a94edc774f1bc24460d",
               "16e9b5a07935a7f1716e5fac39a94a988af586be",  # main's copy of f3be04a12a after a rewrite: the same tree
               "e4048607a535ace3a2b51ded31b1c8c2d45c0879"), "f3be04a12a"),
)


@dataclass(frozen=True)
class TunedRow:
    """A row of aiter's tuned CSV for a contest shape (cu_num 256, splitK 0)."""

    backend: str  # "asm" or "ck"
    tile_m: int
    tile_n: int
    # The CSV's `us`: AMD's GEMM-only time for this kernel from aiter's tuning run on a 256-CU gfx950 (MI350X
    # or MI355X; the CSV does not say which). Not a contest timing (no quantization of A, no launch overhead
    # of a whole call) and not measured by mxlib.
    us: float


# The rows of ROCm/aiter:aiter/configs/a4w4_blockscale_tuned_gemm.csv (cu_num 256, gfx950) that the contest
# shapes hit, per line, quoted at the line's csv_commit and the same (`us` included) at every release and
# commit its span names: (m, n, k) -> TunedRow. Looked up as get_GEMM_config does (M, then ceil16(M), then
# the next power of two of M); no contest shape is found through a padded M. A contest shape absent here
# has no row in that line.
TUNED_ROWS = {
    "0.1.10": {
        (8, 2112, 7168): TunedRow("asm", 32, 128, 12.8435),
        (16, 3072, 1536): TunedRow("ck", 64, 128, 7.0507), (64, 3072, 1536): TunedRow("ck", 64, 128, 7.2719),
        (64, 7168, 2048): TunedRow("ck", 64, 128, 9.0279), (256, 3072, 1536): TunedRow("ck", 64, 128, 8.0887),
        (256, 7168, 2048): TunedRow("ck", 64, 128, 9.7515),
    },
    "0.1.11": {
        (8, 2112, 7168): TunedRow("asm", 32, 128, 12.8435), (16, 3072, 1536): TunedRow("asm", 32, 128, 6.009),
        (64, 3072, 1536): TunedRow("asm", 32, 128, 6.149), (64, 7168, 2048): TunedRow("asm", 32, 128, 6.8112),
        (256, 3072, 1536): TunedRow("asm", 32, 128, 6.1771), (256, 7168, 2048): TunedRow("asm", 64, 128, 7.8351),
    },
}


def contest_shapes() -> frozenset:
    """The contest's (m, n, k), from mxlib.spec.shapes (imported here: it pulls in torch)."""
    from . import shapes

    return frozenset(s.mnk for s in shapes.load())


def parse_version(version: str, name: str = "aiter"):
    """`version` as a `packaging.version.Version`; ValueError naming `name` when it is not PEP 440."""
    from packaging.version import InvalidVersion, Version

    try:
        return Version(version)
    except (InvalidVersion, TypeError):
        raise ValueError(f"{name} must be a PEP 440 version such as '0.1.10' or '0.1.10.post4.dev78+gf3be04a12a', "
                         f"got {version!r}") from None


_LOCAL_COMMIT = re.compile(r"^g([0-9a-f]{7,40})$")


def build_commits(version: str) -> list[str]:
    """The commit prefixes a version's local part names (`+g<sha prefix>`, as setuptools_scm writes a build of
    a commit), e.g. ["f3be04a12a"] for KERNELBOT_AITER; [] for a release."""
    return [found.group(1) for found in map(_LOCAL_COMMIT.match, (parse_version(version).local or "").split("."))
            if found]


def aiter_line(version: str) -> AiterLine:
    """The AITER_LINES entry whose tuned rows an aiter build has, from its version string.

    A version whose local part names a commit (`+g<sha prefix>`, as setuptools_scm writes it) that a line
    lists in `commits` is placed by that commit. Otherwise by its number: a release, or any build numbered
    from the newest line's first release on. A pre-release or development build numbered below that could
    be a main commit on either side of a change of rows, so it is refused (ValueError), not given the older
    line; so is a version below the first line.
    """
    v = parse_version(version)
    shas = build_commits(version)
    for line in AITER_LINES:
        if any(c.startswith(sha) for sha in shas for c in line.commits):
            return line
    if v < parse_version(AITER_LINES[0].first):
        raise ValueError(f"aiter must be {AITER_LINES[0].first} or newer (the tuned rows are read from there on), "
                         f"got {version!r}")
    newest = AITER_LINES[-1]
    if v.is_prerelease and v < parse_version(newest.first):
        known = ", ".join(c[:10] for line in AITER_LINES for c in line.commits)
        raise ValueError(f"aiter must be a release, a build numbered {newest.first} or later, or name a known commit "
                         f"in its local part (+g<sha>: {known}), got the pre-release or development build {version!r}: "
                         f"setuptools_scm numbers a main-branch build from the last tag, so its number cannot say "
                         f"which side of a change of tuned rows it is on")
    return next(line for line in reversed(AITER_LINES) if v >= parse_version(line.first))


@dataclass(frozen=True)
class GemmChoice:
    """What `aiter.gemm_a4w4` runs for a shape: a tuned row's kernel, or the ASM heuristic's."""

    how: str  # "tuned" or "heuristic"
    backend: str  # "asm" or "ck"
    kernel: str  # the ASM symbol or the CK instance name
    tile: tuple[int, int]
    ctas: int


def gemm_a4w4_choice(m: int, n: int, k: int, aiter: str) -> GemmChoice:
    """The kernel `aiter.gemm_a4w4(A, B, A_scale, B_scale, dtype=bf16, bpreshuffle=True)` runs on an MI355X.

    ROCm/aiter:aiter/ops/gemm_op_a4w4.py (the same dispatch from 0.1.9 to e4048607a5): a tuned row whose
    kernel name lacks "_ZN" runs CK blockscale (a 1-D grid of ceil(M/64) * ceil(N/128) workgroups for the
    64x128 instance, splitK 0); any other row runs that ASM kernel with log2_k_split = the row's splitK (0); no row runs
    `gemm_a4w4_asm` with no name and log2_k_split 0, i.e. `asm_heuristic`. Known only for the contest
    shapes: another shape raises ValueError, since aiter may have a row for it that is not replicated.
    """
    key = (m, n, k)
    if key not in contest_shapes():
        raise ValueError(f"(m, n, k) must be a contest shape (aiter's tuned rows are replicated only for those), "
                         f"got {key}")
    row = TUNED_ROWS[aiter_line(aiter).name].get(key)
    if row is None:
        c = asm_heuristic(m, n, k, log2_k_split=0)
        return GemmChoice("heuristic", "asm", c.kernel.name, c.tile, c.ctas)
    tile = (row.tile_m, row.tile_n)
    ctas = cdiv(m, row.tile_m) * cdiv(n, row.tile_n)
    if row.backend == "ck":
        return GemmChoice("tuned", "ck", CK_64X128, tile, ctas)
    return GemmChoice("tuned", "asm", asm_tile_kernel(*tile).name, tile, ctas)


def asm_tile_kernel(tile_m: int, tile_n: int) -> AsmKernel:
    """The BpreShuffle ASM kernel of a tile; ValueError naming the tiles when there is none."""
    for kern in ASM_KERNELS:
        if kern.bpreshuffle and (kern.tile_m, kern.tile_n) == (tile_m, tile_n):
            return kern
    tiles = ", ".join(f"{x.tile_m}x{x.tile_n}" for x in ASM_KERNELS if x.bpreshuffle)
    raise ValueError(f"tile must be one of the gfx950 BpreShuffle ASM tiles ({tiles}), got {tile_m}x{tile_n}")
