"""What the seed submission does for a shape: `seed_plan(m, n, k)`, the one statement of its rule in mxlib.

The seed (the `amd-mxfp4-mm` submission the workbook is built on) routes a shape three ways:

- (16, 2112, 7168) only: path "splitk". A Triton kernel quantizes A into natural-layout scales (M, K/32)
  (BLOCK_SIZE_M 16, BLOCK_SIZE_K 512, grid (ceil(M/16), ceil(K/512))), then aiter's Triton
  `gemm_afp4wfp4_preshuffle` runs with SEED_SPLITK_CONFIG (use_aot=False) and reduces the splits in a
  second kernel. Its header says NUM_KSPLIT 14 (238 CTAs); its config says 7: 7 x 1 x 17 = 119 CTAs.
- M <= 32 otherwise: path "asm". A fused quant+shuffle Triton kernel (BLOCK_SIZE_M min(8, pow2(M)),
  BLOCK_SIZE_N max(32, min(256, pow2(K))), one iteration, grid (ceil(M/BLOCK_SIZE_M), ceil(K/BLOCK_SIZE_N)))
  writes A's scales in the e8m0_shuffle layout, then `gemm_a4w4_asm` runs the kernel the seed names in
  SEED_ASM_TILES with log2_k_split 0, or, for a shape not listed there, an empty name: aiter's heuristic picks.
- M > 32: path "ck". The same quant kernel with BLOCK_SIZE_M 8, BLOCK_SIZE_N 128, four iterations
  (grid (ceil(M/8), ceil(K/512))), then `aiter.gemm_a4w4`, whose tuned CSV decides the kernel.

Where the seed defers to aiter, the replicas in `mxlib.spec.aiter_rules` resolve what runs, for the aiter
release line of a version: `seed_plan(..., aiter="0.1.11")` (a main-branch build is placed by the commit
its version names: `aiter_rules.aiter_line`). The seed runs only on aiter 0.1.10 to 0.1.14.x: it imports
`aiter.ops.triton.gemm.basic` (0.1.10 on) and passes `use_aot` (removed in 0.1.15). Which line the
contest's MI355X runner had is not certain (`aiter_rules.AITER_LINES`); `seed_plan` answers for the 0.1.10
line unless told otherwise (DEFAULT_AITER), and its ``aiter`` key says which lines the answer holds for.
"""
from __future__ import annotations

from .aiter_rules import (AITER_LINES, aiter_line, asm_heuristic, asm_tile_kernel, contest_shapes, gemm_a4w4_choice,
                          parse_version, triton_splitk)
from .ints import cdiv, gemm_shape

SEED_SPLITK_SHAPE = (16, 2112, 7168)
# The ASM tiles the seed names per shape (its other M <= 32 shapes pass an empty kernel name).
SEED_ASM_TILES = {(4, 2880, 512): (32, 128), (32, 4096, 512): (32, 128), (32, 2880, 512): (32, 128)}
SEED_LOG2_K_SPLIT = 0
# The split-K config it hands gemm_afp4wfp4_preshuffle, keys spelled as the seed spells them.
SEED_SPLITK_CONFIG = {
    "BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 512, "GROUP_SIZE_M": 1, "num_warps": 4,
    "num_stages": 1, "waves_per_eu": 2, "matrix_instr_nonkdim": 16, "cache_modifier": ".cg", "NUM_KSPLIT": 7,
}
SEED_HEADER_NUM_KSPLIT = 14  # what its header comment says; the config above runs 7
SEED_AITER = ("0.1.10", "0.1.15")  # the releases the seed file can run on: [first, stop)
# The release line seed_plan assumes when not given one (its tuned rows: aiter_rules): the first line the seed
# runs on, a convention for printouts that name their line, not a claim about the contest (notebook 04, section 1).
DEFAULT_AITER = "0.1.10"

QUANT_SHUFFLE_KERNEL = "_fused_mxfp4_quant_shuffle_kernel"
QUANT_NATURAL_KERNEL = "_mxfp4_quant_natural_kernel"
SPLITK_GEMM_KERNEL = "_gemm_afp4wfp4_preshuffle_kernel"
SPLITK_REDUCE_KERNEL = "_gemm_afp4wfp4_reduce_kernel"
REDUCE_BLOCK_M, REDUCE_BLOCK_N = 16, 64  # gemm_afp4wfp4_preshuffle's reduce tile for fp32 partials
PATHS = ("asm", "ck", "splitk")


def _pow2(x: int) -> int:
    return 1 << (x - 1).bit_length()


def seed_path(m: int, n: int, k: int) -> str:
    """The seed's route: "splitk" for (16, 2112, 7168), "asm" for M <= 32, "ck" above."""
    m, n, k = gemm_shape(m, n, k)
    if (m, n, k) == SEED_SPLITK_SHAPE:
        return "splitk"
    return "asm" if m <= 32 else "ck"


def seed_scale_offset(m, g, scale_n_pad):
    """Where the seed's fused quant+shuffle kernel stores A's scale (row m, 32-value group g), as a flat
    offset into its (ceil256(M) * scale_n_pad) byte buffer: the kernel's own index math, six digits of
    (m, g) recombined (ints, or integer tensors elementwise)::

        d0 = m // 32, d5 = (m % 32) // 16, d3 = m % 16      # row: 32-row tile, 16-row half, row in the half
        d1 = g // 8,  d4 = (g % 8) // 4,   d2 = g % 4       # group: 8-group tile, 4-group half, group in it
        offset = d0 * 32 * scale_n_pad + d1 * 256 + d2 * 64 + d3 * 4 + d4 * 2 + d5

    which is `mxlib.spec.layouts.scale_position(m, g, scale_n_pad)` term for term: the seed writes
    A's scales straight into the e8m0_shuffle layout that gemm_a4w4 reads for B (tests/test_seed.py
    holds the two to each other)."""
    d0, d5, d3 = m // 32, (m % 32) // 16, m % 16
    d1, d4, d2 = g // 8, (g % 8) // 4, g % 4
    return d0 * 32 * scale_n_pad + d1 * 256 + d2 * 64 + d3 * 4 + d4 * 2 + d5


def seed_asm_kernel(m: int, n: int, k: int) -> str:
    """The ASM kernel name the seed passes to gemm_a4w4_asm for a shape: a SEED_ASM_TILES entry, else ""."""
    m, n, k = gemm_shape(m, n, k)
    tile = SEED_ASM_TILES.get((m, n, k))
    return "" if tile is None else asm_tile_kernel(*tile).name


def _quant_launch(m: int, k: int, path: str) -> dict:
    """The seed's Triton quant launch before the GEMM: kernel, grid, constexprs and launch options."""
    if path == "splitk":
        block_m, block_k = SEED_SPLITK_CONFIG["BLOCK_SIZE_M"], SEED_SPLITK_CONFIG["BLOCK_SIZE_K"]
        return dict(kernel=QUANT_NATURAL_KERNEL, grid=(cdiv(m, block_m), cdiv(k, block_k)),
                    constexprs=dict(BLOCK_SIZE_M=block_m, BLOCK_SIZE_K=block_k, MXFP4_QUANT_BLOCK_SIZE=32),
                    num_warps=4)
    if path == "asm":
        block_m, block_n, num_iter, stages = min(8, _pow2(m)), max(32, min(256, _pow2(k))), 1, 1
    else:
        block_m, block_n, num_iter, stages = 8, 128, 4, 2
    even = m % block_m == 0 and k % (block_n * num_iter) == 0
    return dict(kernel=QUANT_SHUFFLE_KERNEL, grid=(cdiv(m, block_m), cdiv(k, block_n * num_iter)),
                constexprs=dict(BLOCK_SIZE_M=block_m, BLOCK_SIZE_N=block_n, NUM_ITER=num_iter, NUM_STAGES=stages,
                                MXFP4_QUANT_BLOCK_SIZE=32, EVEN_M_N=even, SCALING_MODE=0),
                num_warps=4, num_stages=1, waves_per_eu=0)


def _asm_grid(m: int, n: int, tile) -> tuple[int, int]:
    """`gemm_a4w4_asm`'s launch grid for an ASM tile (tile_m, tile_n): x = ceil(N/tile_N), y = ceil(M/tile_M)
    (ROCm/aiter:csrc/py_itfs_cu/asm_gemm_a4w4.cu; z, the K slices, is 1 with log2_k_split 0)."""
    return cdiv(n, tile[1]), cdiv(m, tile[0])


def _ctas(grid) -> int:
    total = 1
    for g in grid:
        total *= g
    return total


def seed_lines() -> list:
    """The aiter release lines (`aiter_rules.AITER_LINES`) that hold releases the seed runs on (SEED_AITER)."""
    return [line for line in AITER_LINES if parse_version(line.first) < parse_version(SEED_AITER[1])]


def lines_text(lines) -> str:
    """How `seed_plan`'s ``aiter`` key names aiter release lines: "0.1.10 line", "0.1.10 and 0.1.11 lines"."""
    return " and ".join(line.name for line in lines) + (" lines" if len(lines) > 1 else " line")


def seed_plan(m: int, n: int, k: int, aiter: str = DEFAULT_AITER) -> dict:
    """What the seed launches for (m, n, k) on an MI355X with aiter version `aiter`.

    Keys: ``path`` ("asm" | "splitk" | "ck"); ``kernel`` (the ASM kernel name the seed passes, "" where it
    leaves the choice to aiter); ``runs`` (the GEMM kernel that then runs: ASM symbol, CK instance or
    aiter's Triton kernel; None where aiter's tuned rows for the shape are not known here); ``how``
    ("seed": the seed names it, "tuned"/"heuristic": aiter's CSV row or ASM heuristic decides, "config":
    the seed's Triton config, "unknown"); ``tile`` ((tile_m, tile_n) of that GEMM or None); ``config``
    (SEED_SPLITK_CONFIG for splitk, else None); ``ctas`` (CTAs of the GEMM launch; None when unknown);
    ``launches`` (every launch of one call in order: dicts with ``kernel``, ``grid``, ``ctas``, and for the
    seed's own Triton quant kernel its constexprs and options); ``aiter`` (the aiter release lines the
    answer holds for, among those the seed runs on, as `lines_text` names them: a line is a set of releases
    and main-branch commits, `aiter_rules.AITER_LINES`, not a version range).

    `aiter` (a PEP 440 version string) picks the release line where the answer depends on it (the "ck"
    shapes; `aiter_rules.aiter_line`, which refuses a development build it cannot place); its number, less
    any pre-release, development or local part, must be in the range the seed runs on (SEED_AITER).
    """
    m, n, k = gemm_shape(m, n, k)  # Python ints: the shape is a key of the seed's tables
    path = seed_path(m, n, k)
    v = parse_version(parse_version(aiter).base_version)
    first, stop = SEED_AITER
    if not parse_version(first) <= v < parse_version(stop):
        raise ValueError(f"aiter must be a version from {first} up to (not including) {stop}: the seed imports "
                         f"aiter.ops.triton.gemm.basic (0.1.10 on) and passes use_aot (removed in 0.1.15), "
                         f"got {aiter!r}")
    holds = lines_text(seed_lines())
    quant = _quant_launch(m, k, path)
    launches = [dict(quant, ctas=_ctas(quant["grid"]))]
    config, kernel = None, ""
    if path == "splitk":
        config = dict(SEED_SPLITK_CONFIG)
        split = triton_splitk(k, config["BLOCK_SIZE_K"], config["NUM_KSPLIT"])
        tile = (config["BLOCK_SIZE_M"], config["BLOCK_SIZE_N"])
        ctas = split.num_ksplit * cdiv(m, tile[0]) * cdiv(n, tile[1])
        runs, how = SPLITK_GEMM_KERNEL, "config"
        launches.append(dict(kernel=runs, grid=(ctas,), ctas=ctas))
        if split.num_ksplit > 1:
            grid = (cdiv(m, REDUCE_BLOCK_M), cdiv(n, REDUCE_BLOCK_N))
            launches.append(dict(kernel=SPLITK_REDUCE_KERNEL, grid=grid, ctas=_ctas(grid)))
    elif path == "asm":
        kernel = seed_asm_kernel(m, n, k)
        if kernel:
            tile = SEED_ASM_TILES[(m, n, k)]
            runs, how, ctas = kernel, "seed", cdiv(m, tile[0]) * cdiv(n, tile[1])
        else:
            choice = asm_heuristic(m, n, k, log2_k_split=SEED_LOG2_K_SPLIT)
            runs, how, tile, ctas = choice.kernel.name, "heuristic", choice.tile, choice.ctas
        launches.append(dict(kernel=runs, grid=_asm_grid(m, n, tile), ctas=ctas))
    elif (m, n, k) in contest_shapes():
        choice = gemm_a4w4_choice(m, n, k, aiter)
        holds = lines_text([line for line in seed_lines() if gemm_a4w4_choice(m, n, k, line.first) == choice])
        runs, how, tile, ctas = choice.kernel, choice.how, choice.tile, choice.ctas
        # CK's gridwise GEMM launches one dimension of tiles (y 1, z the K batch: 1 at splitK 0)
        grid = (ctas,) if choice.backend == "ck" else _asm_grid(m, n, tile)
        launches.append(dict(kernel=runs, grid=grid, ctas=ctas))
    else:
        holds = lines_text([aiter_line(aiter)])
        runs, how, tile, ctas = None, "unknown", None, None
        launches.append(dict(kernel="aiter.gemm_a4w4", grid=None, ctas=None))
    return dict(path=path, kernel=kernel, runs=runs, how=how, tile=tile, config=config, ctas=ctas,
                launches=launches, aiter=holds)
