"""The aiter backend: the seed's three GEMM paths through ROCm's aiter on an MI355X (gfx950).

No AMD GPU has ever run this module for mxlib: it is written from aiter's source (ROCm/aiter, read up
to e4048607a5, 2026-08-22) and checked only by contract tests against a fake aiter on CPU
(tests/test_aiter_contract.py). Treat its results on real hardware as unverified until someone runs it.

The calls themselves are `mxlib.runtime.aiter_calls` (one function per path, shared with the exported
MI355X submission); this module decides whether and with what they run. Every path quantizes A per call
with mxlib's Triton quantizer (`mxlib.kernels.quant_triton`: scales in the e8m0_shuffle layout for asm and
ck, as the seed's fused quant+shuffle kernel writes them, natural layout for splitk; round-half-even,
bit-exact with `mxlib.spec.quant`, and with the seed's quantizer for finite inputs (a block holding an Inf
gets scale 255 from mxlib, 254 from aiter's op; mxlib writes 127 into the scale padding the seed leaves
unwritten); scale bytes computed as int32 so they are right on NVIDIA too: KERNEL_NOTES.md, "aiter's
quantizer and GEMMs, read from its source"), and reads B_shuffle and B_scale_sh as given, through
zero-copy views:

- ``"asm"``: ``gemm_a4w4_asm(A_q, B_shuffle, A_scale_sh, B_scale_sh, out, kernelName, bias=None,
  alpha=1.0, beta=0.0, bpreshuffle=True, log2_k_split=...)``, A_q viewed as ``dtypes.fp4x2`` (0.1.10's
  entry point rejects uint8 A when torch has float4_e2m1fn_x2; main of 2026-08 takes either), scales as
  ``dtypes.fp8_e8m0``, out (ceil32(M), N) bf16 because the kernel writes whole 32-row tiles; the result
  is ``out[:M]``. kernelName is what the seed passes (`mxlib.spec.seed.seed_plan`): the 32x128 kernel,
  ``_ZN5aiter41f4gemm_bf16_per1x32Fp4_BpreShuffle_32x128E``, for the three shapes it names, else "" (aiter's
  heuristic picks: 192x128 for every contest shape in libstdc++'s visiting order of its kernel map, which
  `mxlib.spec.aiter_rules.asm_heuristic` replicates; another order can pick another tile); log2_k_split 0.
  `log2_k_split` is honoured only by the 128x512 and 256x256 kernels (``splitK`` column of aiter's
  hsa/gfx950/f4gemm/f4gemm_bf16_per1x32Fp4.csv); every other kernel silently ignores it, so passing a
  nonzero value to one of them is refused here.
- ``"ck"``: ``aiter.gemm_a4w4(A_q, B_shuffle, A_scale_sh, B_scale_sh, dtype=bf16, bpreshuffle=True)``.
  Despite its name this is not a CK kernel for the contest: gemm_a4w4 looks (M, N, K) up in
  aiter/configs/a4w4_blockscale_tuned_gemm.csv and runs CK only for a row whose kernel name lacks "_ZN".
  On aiter's 0.1.11 line (main from ROCm/aiter#2092, releases from 0.1.11) every contest shape's row is
  an ASM kernel or missing (ASM with aiter's heuristic choice), so it dispatches to ``gemm_a4w4_asm``; on
  the 0.1.10 line four of the seven contest shapes this path takes, M in {64, 256} with (N, K) in
  {(3072, 1536), (7168, 2048)}, have CK blockscale rows. Which line a version string is on:
  `mxlib.spec.aiter_rules.aiter_line` (a main-branch build goes by its commit, not its number).
- ``"splitk"``: ``gemm_afp4wfp4_preshuffle(A_q, B_shuffle as (N/16, K/2*16), A_scale (M, K/32),
  B_scale_sh as (N_pad/32, K), dtype=bf16, config=SEED_SPLITK_CONFIG)``, aiter's Triton kernel, uint8 views,
  and ``use_aot=False`` wherever the function still takes it (below 0.1.15). Trusted on releases from 0.1.10
  to below 0.1.16 and on builds of the commits in `COMMITS_READ` without ROCm/aiter#3359 (the contest
  runner's f3be04a12a among them).
  SEED_SPLITK_CONFIG is the seed's (BLOCK_SIZE_K 512, NUM_KSPLIT 7, num_stages 1, waves_per_eu 2,
  matrix_instr_nonkdim 16, .cg loads). Needs M < 32 (the kernel reads un-shuffled A scales only with
  BLOCK_SIZE_M <= 16), K % 256 == 0 (the B_scale_sh view) and a K that the config splits evenly (the
  kernel has no masked K path). Known aiter hazard, kept as the seed has it:
  B rows wrap with ``% N`` (a row index of the N/16-row view taken modulo N), so when N % 128 != 0 the
  last column tile reads rows past the end of B_shuffle (N = 2112: 4 rows of K/2*16 bytes); the
  columns they feed are never stored.

`VERSIONS` says which aiter versions each call was checked against; `available(path)` refuses the rest
with the reason. `import mxlib` never imports aiter; this module imports it only inside `gemm`, through
`aiter_calls`.
"""
from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path

import torch

from ..spec import validate
from ..spec.aiter_rules import ASM_KERNELS, asm_tile_kernel, build_commits, triton_splitk
from ..spec.seed import PATHS, SEED_LOG2_K_SPLIT, SEED_SPLITK_CONFIG, seed_asm_kernel
from ..spec.reference import unpack_data


# --- the version table ---------------------------------------------------------------------------


@dataclass(frozen=True)
class AiterChange:
    """One change in ROCm/aiter that decides which call is right for a version."""

    name: str
    first_release: str  # the first release (PEP 440) that contains it
    pr: str
    commit: str
    date: str
    effect: str


CHANGES = (
    AiterChange(
        "module_move", "0.1.10", "ROCm/aiter#1638", "4c2a3025b6", "2026-01-07",
        "Triton files moved into subfolders: aiter.ops.triton.gemm_afp4wfp4 became "
        "aiter.ops.triton.gemm.basic.gemm_afp4wfp4 and _triton_kernels/quant.py became "
        "_triton_kernels/quant/quant.py; the splitk import below exists only from here on.",
    ),
    AiterChange(
        "asm_tuned_csv", "0.1.11", "ROCm/aiter#2092", "768c037adb", "2026-02-25",
        "MI355X rows in a4w4_blockscale_tuned_gemm.csv: from here every contest shape sends gemm_a4w4 "
        "(path 'ck') to the ASM kernel; before, some went to CK blockscale. No call changes. Builds of main "
        "from this commit until the 0.1.11 tag are numbered below 0.1.11 (setuptools_scm counts from the last "
        "tag reachable: f3be04a12a builds as 0.1.10.post4.dev78+gf3be04a12a).",
    ),
    AiterChange(
        "use_aot_removed", "0.1.15", "ROCm/aiter#2695", "f061fba914", "2026-05-19",
        "gemm_afp4wfp4_preshuffle lost its use_aot argument (passing it raises TypeError). Before, "
        "use_aot=True (the default) launches under an AOT metadata file instead of compiling the given "
        "config whenever configs/gemm/aot holds one for the shape, so splitk passes use_aot=False there.",
    ),
    AiterChange(
        "splitk_k_in_elements", "0.1.16", "ROCm/aiter#3359", "a27de75faa", "2026-06-05",
        "gemm_afp4wfp4_preshuffle passes K in elements (K_elems) to get_splitk, to the Triton kernel "
        "and to the reduce, but the kernel's split-K arithmetic is in bytes (pid_k * SPLITK_BLOCK_SIZE "
        "// 2 < K): with NUM_KSPLIT > 1 the splits are twice as long as they should be and read past K, "
        "so results are wrong. Still so at e4048607a5 (2026-08-22).",
    ),
)


def change(name: str) -> AiterChange:
    """The entry of `CHANGES` called `name`; ValueError naming the known ones otherwise."""
    for c in CHANGES:
        if c.name == name:
            return c
    raise ValueError(f"name must be one of {', '.join(c.name for c in CHANGES)}, got {name!r}")


# Commits of ROCm/aiter whose aiter/ops/gemm_op_a4w4.py and aiter/ops/triton/gemm/basic/gemm_afp4wfp4.py were
# read for the three calls (full SHAs), with whether each has ROCm/aiter#3359 (`splitk_k_in_elements`, which the
# split-K call cannot take). A build whose version names one (+g<sha>) is placed by it, not by its number, as
# `aiter_rules.aiter_line` places one for the tuned rows: setuptools_scm numbers a main-branch build from the last
# tag it can reach, and a clone without tags (a shallow one) gets 0.1.devN, below every release. Read in aiter's
# history (session of 2026-12-06, twenty-sixth): every one takes the ASM and CK calls as `aiter_calls` makes them;
# the first four have the split-K module, a first parameter `x` and `use_aot`; a27de75faa (the change) and
# e4048607a5 take `x_fp4` first. aiter's main was rewritten after March 2026: f3be04a12a survives only on other
# branches, and 16e9b5a079 is main's copy of it (the same tree).
COMMITS_READ = {
    "741f0b89f11d48db82f8188f5a13811f2fd23cf7": False,
    "768c037adb378eca2d109a5d2d58d9b8630ccf20": False,
    "f3be04a12a0cfd6b5e2c7a94edc774f1bc24460d": False,  # the contest runner's pin (aiter_rules.KERNELBOT_AITER)
    "16e9b5a07935a7f1716e5fac39a94a988af586be": False,
    "a27de75faa42e33e471bbd79c2daa7c530f36f8e": True,
    "e4048607a535ace3a2b51ded31b1c8c2d45c0879": True,
}

OLDEST_TRUSTED = "0.1.10"
NEWEST_CHECKED = "0.1.21.dev46"  # setuptools_scm's version of ROCm/aiter main at e4048607a5 (v0.1.20-46)

VERSIONS = {
    # path: (lowest trusted, first refused or None, why)
    "asm": (OLDEST_TRUSTED, None, "gemm_a4w4_asm's Python signature, the kernel names and the "
            "log2_k_split rule are the same from 0.1.10 to main of 2026-08-22"),
    "ck": (OLDEST_TRUSTED, None, "gemm_a4w4 takes (A, B, A_scale, B_scale, bias, dtype, alpha, beta, "
           "bpreshuffle) from 0.1.9 (before, a required out); dispatches every contest shape to ASM on the "
           "0.1.11 line (mxlib.spec.aiter_rules.AITER_LINES)"),
    "splitk": (OLDEST_TRUSTED, "0.1.16", "needs the module layout of ROCm/aiter#1638; use_aot=False below "
               "0.1.15 (ROCm/aiter#2695); wrong split-K K units from 0.1.16 (ROCm/aiter#3359)"),
}

# --- the seed's kernel choices: mxlib.spec.seed ----------------------------------------------------

# BpreShuffle kernels of aiter's hsa/gfx950/f4gemm/f4gemm_bf16_per1x32Fp4.csv (unchanged 0.1.10 ->
# 2026-08-22), with the `splitK` column: only these two honour log2_k_split.
ASM_TILES = tuple(f"{k.tile_m}x{k.tile_n}" for k in ASM_KERNELS if k.bpreshuffle)
ASM_SPLITK_TILES = tuple(f"{k.tile_m}x{k.tile_n}" for k in ASM_KERNELS if k.bpreshuffle and k.split_k)


def asm_kernel_name(tile: str) -> str:
    """The mangled symbol aiter's ASM dispatcher looks up, e.g. "_ZN5aiter41f4gemm_..._32x128E"."""
    validate.choice(tile, "tile", ASM_TILES)
    return asm_tile_kernel(*map(int, tile.split("x"))).name


def asm_kernel(m: int, n: int, k: int) -> tuple[str, int]:
    """(kernel name, log2_k_split) the asm path passes for a shape, as the seed does: the name it lists for
    the shape, else "" (aiter's heuristic picks), and log2_k_split 0."""
    for v, name in ((m, "m"), (n, "n"), (k, "k")):
        validate.positive(v, name)
    return seed_asm_kernel(m, n, k), SEED_LOG2_K_SPLIT


def _check_log2_k_split(log2_k_split) -> None:
    if not isinstance(log2_k_split, int) or isinstance(log2_k_split, bool) or not 0 <= log2_k_split <= 4:
        raise ValueError(f"log2_k_split must be an int in 0..4 (aiter splits K into 1..16), got {log2_k_split!r}")


def _check_asm_choice(tile: str, log2_k_split: int, n: int) -> None:
    validate.choice(tile, "tile", ASM_TILES)
    if log2_k_split and tile not in ASM_SPLITK_TILES:
        raise ValueError(
            f"log2_k_split={log2_k_split} would be silently ignored by the {tile} kernel: only "
            f"{' and '.join(ASM_SPLITK_TILES)} honour it"
        )
    # aiter also needs K % 2**log2_k_split == 0: K is a multiple of 64 (the shape rule) and 2**log2_k_split <= 16.
    if tile == "128x512" and n % 512:
        raise ValueError(f"the 128x512 kernel needs N % 512 == 0 (aiter's own heuristic never picks it otherwise: "
                         f"it 'may not support N % tile_N != 0'), got N = {n}")


def _check_splitk_even_k(k: int) -> None:
    """aiter's split-K kernel loads only under EVEN_K (no masked K path): after get_splitk adjusts the seed's
    config for this K, every slice and step must divide K."""
    cfg = SEED_SPLITK_CONFIG
    s = triton_splitk(k, cfg["BLOCK_SIZE_K"], cfg["NUM_KSPLIT"])
    if k % s.block_k or s.splitk_block_size % s.block_k or k % s.splitk_block_size:
        raise ValueError(f"A.shape[1] (K) = {k} for path 'splitk' must split evenly under the seed's config "
                         f"(BLOCK_SIZE_K {cfg['BLOCK_SIZE_K']}, NUM_KSPLIT {cfg['NUM_KSPLIT']}: aiter runs "
                         f"{s.num_ksplit} slices of {s.splitk_block_size} in steps of {s.block_k}); its kernel has "
                         f"no masked K path")


# --- availability --------------------------------------------------------------------------------


def _platform() -> tuple[str | None, str | None]:
    """(ROCm version of this torch or None, gcnArchName of the current GPU or None)."""
    hip = getattr(torch.version, "hip", None)
    if hip is None or not torch.cuda.is_available():
        return hip, None
    return hip, torch.cuda.get_device_properties(torch.cuda.current_device()).gcnArchName


_VERSION_RE = re.compile(r"""__version__\s*=\s*['"]([^'"]+)['"]""")


def version_in_file(path) -> str | None:
    """The `__version__ = "..."` that setuptools_scm writes into aiter/_version.py, read from `path` without
    importing it; None when the file is missing or holds none (the baseline of aiter's Triton kernels reads
    its aiter's version this way too)."""
    path = Path(path)
    found = _VERSION_RE.search(path.read_text()) if path.is_file() else None
    return found.group(1) if found else None


def _installed_aiter() -> tuple[str | None, str | None, str]:
    """(version, location, how found) of the `aiter` that `import aiter` would load, without importing it.

    The version comes from setuptools_scm's aiter/_version.py next to the module, else from the
    metadata of an amd-aiter distribution installed at that same place; None when neither exists
    (then it is not ROCm's aiter, e.g. PyPI's unrelated package of the same name).
    """
    spec = importlib.util.find_spec("aiter")
    if spec is None:
        return None, None, "missing"
    locations = list(spec.submodule_search_locations or [])
    where = locations[0] if locations else spec.origin
    if not locations:
        return None, where, "no version"
    version = version_in_file(Path(locations[0]) / "_version.py")
    if version is not None:
        return version, where, "aiter/_version.py"
    try:
        dist = importlib.metadata.distribution("amd-aiter")
    except importlib.metadata.PackageNotFoundError:
        return None, where, "no version"
    if Path(dist.locate_file("aiter")).resolve() != Path(locations[0]).resolve():
        return None, where, "no version"
    return dist.version, where, "amd-aiter metadata"


@dataclass(frozen=True)
class _Status:
    ok: bool
    reason: str


def _path_status(path: str, version) -> tuple[bool, str]:
    from packaging.version import Version

    low, refused_from, why = VERSIONS[path]
    placed = {has for sha in build_commits(str(version)) for full, has in COMMITS_READ.items() if full.startswith(sha)}
    if placed:  # a build of a commit read for these calls: the commit decides, not the number
        if path == "splitk" and True in placed:
            k_units = change("splitk_k_in_elements")
            return False, (f"aiter {version} is a build of a commit that has {k_units.pr} ({k_units.commit}): "
                           f"{k_units.effect}")
        return True, f"aiter {version}, a build of a commit read for these calls: {why}"
    if version < Version(low):
        return False, f"aiter {version} is older than {low} ({why})"
    if refused_from is not None and version >= Version(refused_from):
        refusing = next(c for c in CHANGES if c.first_release == refused_from)
        return False, (f"aiter {version} >= {refused_from} ({refusing.pr}, {refusing.commit}, {refusing.date}): "
                       f"{refusing.effect}")
    if Version(version.public) > Version(NEWEST_CHECKED):
        return False, (f"aiter {version} is newer than the newest version these calls were checked against "
                       f"({NEWEST_CHECKED}, ROCm/aiter e4048607a5 of 2026-08-22): re-read gemm_op_a4w4.py and "
                       f"gemm/basic/gemm_afp4wfp4.py and extend mxlib.runtime.aiter_backend.VERSIONS")
    if path == "splitk" and (version.is_devrelease or version.local):
        return False, (f"aiter {version} is a development build of no commit read for this call "
                       f"({', '.join(c[:10] for c in COMMITS_READ)}): setuptools_scm numbers a main-branch "
                       f"commit from the last tag on main (ROCm/aiter#3359 is v0.1.14-rc0 + 222 commits, "
                       f"0.1.14rc1.dev222, which sorts below the 0.1.15 release that lacks it), so the version "
                       f"cannot tell whether the split-K K units changed; install a release >= 0.1.10 and "
                       f"< 0.1.16 for splitk")
    return True, f"aiter {version}: {why}"


@functools.lru_cache(maxsize=None)
def _status(path: str | None) -> _Status:
    # Cached per path: the platform and the installed aiter are facts of the process (as backends() keeps
    # its answer), and reading aiter's version file and metadata costs about 0.25 ms, on every GEMM otherwise.
    hip, arch = _platform()
    if hip is None:
        return _Status(False, f"no ROCm: this PyTorch ({torch.__version__}) is not a ROCm build "
                              "(torch.version.hip is None); aiter's kernels run only on AMD GPUs")
    if arch is None:
        return _Status(False, f"ROCm {hip} but no GPU is visible (torch.cuda.is_available() is False)")
    if arch.split(":")[0] != "gfx950":
        return _Status(False, f"wrong GPU architecture {arch}: needs gfx950 (MI355X/MI350X); aiter ships the "
                              "f4gemm ASM kernels only for gfx950 and its Triton MXFP4 path checks is_fp4_avail()")
    raw, where, how = _installed_aiter()
    if how == "missing":
        return _Status(False, "aiter is not installed: install ROCm's amd-aiter (the PyPI package named "
                              "'aiter' is an unrelated async-iterator library)")
    if raw is None:
        return _Status(False, f"the module 'aiter' at {where} is not ROCm's amd-aiter: it has no "
                              "aiter/_version.py and no amd-aiter distribution metadata")
    from packaging.version import InvalidVersion, Version

    try:
        version = Version(raw)
    except InvalidVersion:
        return _Status(False, f"aiter at {where} reports version {raw!r}, which is not a PEP 440 version")
    if version == Version("0.1.0"):
        return _Status(False, f"aiter at {where} reports 0.1.0, setuptools_scm's fallback for a build without "
                              "git tags: its real version is unknown")
    prefix = f"ROCm {hip}, {arch}, "
    if path is not None:
        ok, why = _path_status(path, version)
        return _Status(ok, prefix + why)
    verdicts = {p: _path_status(p, version) for p in PATHS}
    usable = [p for p, (ok, _) in verdicts.items() if ok]
    refused = "; ".join(f"{p} refused: {why}" for p, (ok, why) in verdicts.items() if not ok)
    summary = f"aiter {version} ({how}): paths {', '.join(usable) or 'none'} usable"
    return _Status(bool(usable), prefix + summary + (f"; {refused}" if refused else ""))


def available(path: str | None = None) -> tuple[bool, str]:
    """(usable, reason) for one path, or for the backend (usable when any path is) when path is None.

    Needs ROCm PyTorch, a gfx950 GPU and an amd-aiter the table `VERSIONS` trusts by its number, or a build of
    a commit in `COMMITS_READ`. Never imports aiter: it locates the package and reads its version file, once
    per process and path.
    """
    if path is not None:
        validate.choice(path, "path", PATHS)
    status = _status(path)
    return status.ok, status.reason


# --- the calls -----------------------------------------------------------------------------------


def gemm(path: str, data, *, tile: str | None = None, log2_k_split: int | None = None) -> torch.Tensor:
    """bf16 (M, N) for the contest's input tuple through the seed's aiter path `path`.

    `tile` and `log2_k_split` (asm only) override `asm_kernel`'s choice (the seed's kernel name, or "" for
    aiter's heuristic). Raises RuntimeError with the reason when `available(path)` refuses, ValueError for
    shapes the path cannot take.
    """
    validate.choice(path, "path", PATHS)
    a, _, _, b_shuffle, b_scale_sh, (m, n, k) = unpack_data(data)
    if path != "asm" and (tile is not None or log2_k_split is not None):
        raise ValueError(f"tile and log2_k_split choose the ASM kernel; path {path!r} takes neither")
    if path == "asm":
        log2_k_split = SEED_LOG2_K_SPLIT if log2_k_split is None else log2_k_split
        _check_log2_k_split(log2_k_split)
        if tile is not None:
            _check_asm_choice(tile, log2_k_split, n)
        elif log2_k_split:
            raise ValueError(f"log2_k_split={log2_k_split} needs a tile: only {' and '.join(ASM_SPLITK_TILES)} "
                             f"honour it")
    if path == "splitk":
        if m >= 32:
            raise ValueError(f"path 'splitk' needs M < 32 (the seed's BLOCK_SIZE_M = 16 reads un-shuffled A "
                             f"scales; aiter wants shuffled ones and BLOCK_SIZE_M >= 32 from M = 32), got M = {m}")
        validate.multiple(k, "A.shape[1] (K) for path 'splitk' (B_scale_sh viewed as (N_pad/32, K))", 256)
        _check_splitk_even_k(k)
    if m == 0:  # an empty A gives an empty C, as on every backend, once its arguments are checked: nothing to call
        return torch.empty((0, n), dtype=torch.bfloat16, device=a.device)
    status = _status(path)
    if not status.ok:
        raise RuntimeError(f"aiter backend, path {path!r}: {status.reason}")

    from .aiter_calls import aiter_asm, aiter_ck, aiter_splitk

    if path == "splitk":
        return aiter_splitk(a, b_shuffle, b_scale_sh, config=SEED_SPLITK_CONFIG)
    if path == "ck":
        return aiter_ck(a, b_shuffle, b_scale_sh)
    kernel_name = asm_kernel(m, n, k)[0] if tile is None else asm_kernel_name(tile)
    return aiter_asm(a, b_shuffle, b_scale_sh, kernel_name=kernel_name, log2_k_split=log2_k_split)
