"""mxlib.spec.seed and mxlib.spec.aiter_rules: the seed's route, configs and CTAs per contest shape, pinned to a
table written from the seed's facts, cross-checked against the seed's own text when ../shared/seed has it,
and aiter's split-K arithmetic, ASM heuristic and tuned rows."""
import ast
import math
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mxlib.spec import aiter_rules as rules
from mxlib.spec import seed
from mxlib.spec import shapes as shapes_mod

SEED_SHAPE = (16, 2112, 7168)
CONTEST_SHAPES = [s.mnk for s in shapes_mod.load()]
SEED_DIR = Path(__file__).resolve().parent.parent.parent / "shared" / "seed"

A32 = "_ZN5aiter41f4gemm_bf16_per1x32Fp4_BpreShuffle_32x128E"
A64 = "_ZN5aiter41f4gemm_bf16_per1x32Fp4_BpreShuffle_64x128E"
H192 = "_ZN5aiter42f4gemm_bf16_per1x32Fp4_BpreShuffle_192x128E"
CK = rules.CK_64X128

# (m, n, k): path, kernel the seed passes, quant grid, then per aiter line (0.1.10, 0.1.11) what runs:
# (kernel, how, tile, GEMM CTAs). The seed names 32x128 for three shapes; the other M <= 32 shapes pass ""
# and gemm_a4w4_asm's heuristic picks 192x128 (it never reads the tuned CSV); M > 32 goes through
# gemm_a4w4, whose tuned rows moved from CK to ASM in ROCm/aiter#2092 (0.1.11).
SEED_TABLE = {
    (8, 2112, 7168): ("asm", "", (1, 28), (H192, "heuristic", (192, 128), 17), None),
    (16, 3072, 1536): ("asm", "", (2, 6), (H192, "heuristic", (192, 128), 24), None),
    (4, 2880, 512): ("asm", A32, (1, 2), (A32, "seed", (32, 128), 23), None),
    (32, 4096, 512): ("asm", A32, (4, 2), (A32, "seed", (32, 128), 32), None),
    (32, 2880, 512): ("asm", A32, (4, 2), (A32, "seed", (32, 128), 23), None),
    (16, 2112, 7168): ("splitk", "", (1, 14), ("_gemm_afp4wfp4_preshuffle_kernel", "config", (16, 128), 119), None),
    (64, 3072, 1536): ("ck", "", (8, 3), (CK, "tuned", (64, 128), 24), (A32, "tuned", (32, 128), 48)),
    (64, 7168, 2048): ("ck", "", (8, 4), (CK, "tuned", (64, 128), 56), (A32, "tuned", (32, 128), 112)),
    (256, 3072, 1536): ("ck", "", (32, 3), (CK, "tuned", (64, 128), 96), (A32, "tuned", (32, 128), 192)),
    (256, 7168, 2048): ("ck", "", (32, 4), (CK, "tuned", (64, 128), 224), (A64, "tuned", (64, 128), 224)),
    (256, 2880, 512): ("ck", "", (32, 1), (H192, "heuristic", (192, 128), 46), None),
    (64, 2880, 512): ("ck", "", (8, 1), (H192, "heuristic", (192, 128), 23), None),
    (128, 2112, 7168): ("ck", "", (16, 14), (H192, "heuristic", (192, 128), 17), None),
}


def test_seed_table_covers_the_contest_shapes():
    assert set(SEED_TABLE) == set(CONTEST_SHAPES)


# aiter versions and the line of each: releases by number; kernelbot's pin f3be04a12a, numbered from the
# v0.1.10.post3 tag by setuptools_scm, by the commit its local part names (it has the 0.1.11 line's rows).
LINE_OF = {"0.1.10": "0.1.10", "0.1.10.post3": "0.1.10", "0.1.11": "0.1.11", "0.1.14.post1": "0.1.11",
           "0.1.10.post4.dev78+gf3be04a12a": "0.1.11", "0.1.10.post4.dev12+g741f0b89f1": "0.1.10"}


@pytest.mark.parametrize("mnk", sorted(SEED_TABLE))
@pytest.mark.parametrize("aiter", sorted(LINE_OF))
def test_seed_plan_pinned(mnk, aiter):
    path, kernel, quant_grid, old, new = SEED_TABLE[mnk]
    runs, how, tile, ctas = old if LINE_OF[aiter] == "0.1.10" or new is None else new
    plan = seed.seed_plan(*mnk, aiter=aiter)
    assert (plan["path"], plan["kernel"], plan["runs"], plan["how"], plan["tile"], plan["ctas"]) == (
        path, kernel, runs, how, tile, ctas)
    assert plan["launches"][0]["grid"] == quant_grid
    assert plan["launches"][1]["ctas"] == ctas
    assert plan["config"] == (seed.SEED_SPLITK_CONFIG if path == "splitk" else None)
    if path != "ck" or new is None:
        assert plan["aiter"] == "0.1.10 and 0.1.11 lines"  # the same answer on every line the seed runs on
    else:
        assert plan["aiter"] == f"{LINE_OF[aiter]} line"


def test_aiter_line_places_dev_builds_by_commit_or_refuses_them():
    """A release goes by its number; a main-branch build by the commit its local part names (any prefix of
    7 or more hex digits), since setuptools_scm numbers it from the last tag; one that names no known
    commit and is numbered below the newest line could be on either side of the change, so it is refused."""
    assert rules.aiter_line("0.1.10.post4.dev78+gf3be04a12a").name == "0.1.11"
    assert rules.aiter_line("0.1.10.post4.dev78+gf3be04a.d20260304").name == "0.1.11"  # dirty tree: a date too
    assert rules.aiter_line("0.1.dev1333+g768c037adb").name == "0.1.11"  # no tag reachable: placed all the same
    assert rules.aiter_line("0.1.10.post4.dev3+g741f0b89f1").name == "0.1.10"
    assert rules.aiter_line("0.1.10.post4.dev78+g16e9b5a079").name == "0.1.11"  # main's rewritten f3be04a12a
    assert rules.build_commits("0.1.10.post4.dev78+gf3be04a.d20260304") == ["f3be04a"]
    assert not rules.build_commits("0.1.10")
    assert rules.aiter_line("0.1.11.post2.dev5").name == "0.1.11"  # numbered past the last change of rows
    assert rules.aiter_line("0.1.10.post3+rocm7").name == "0.1.10"  # a release with a local label
    for bad in ("0.1.10.post4.dev78", "0.1.10.post4.dev78+gabcdef1", "0.1.11rc1", "0.1.10.post4.dev78+gf3be04"):
        with pytest.raises(ValueError, match="aiter must be a release, a build numbered 0.1.11 or later, or name a "
                                             "known commit"):
            rules.aiter_line(bad)
        with pytest.raises(ValueError, match="aiter must be a release, a build numbered"):
            seed.seed_plan(64, 3072, 1536, aiter=bad)  # the answer depends on the line
    assert seed.seed_plan(4, 2880, 512, aiter="0.1.10.post4.dev78")["aiter"] == "0.1.10 and 0.1.11 lines"
    for line in rules.AITER_LINES:
        assert all(len(c) == 40 for c in line.commits) and any(c.startswith(line.csv_commit) for c in line.commits)


def test_tuned_rows_carry_amds_tuning_times():
    """The CSV's `us` per row, as read at each line's csv_commit (741f0b89f1, f3be04a12a)."""
    old, new = rules.TUNED_ROWS["0.1.10"], rules.TUNED_ROWS["0.1.11"]
    assert [old[s].us for s in ((64, 3072, 1536), (64, 7168, 2048), (256, 3072, 1536), (256, 7168, 2048))] == [
        7.2719, 9.0279, 8.0887, 9.7515]
    assert [new[s].us for s in ((64, 3072, 1536), (64, 7168, 2048), (256, 3072, 1536), (256, 7168, 2048))] == [
        6.149, 6.8112, 6.1771, 7.8351]
    assert old[(8, 2112, 7168)] == new[(8, 2112, 7168)] == rules.TunedRow("asm", 32, 128, 12.8435)


@pytest.mark.parametrize("aiter", ["0.1.10", "0.1.11"])
def test_seed_plan_gemm_grids(aiter):
    """aiter's ASM launch is x = ceil(N/tile_N), y = ceil(M/tile_M) (asm_gemm_a4w4.cu); CK's is one dimension."""
    kinds = set()
    for mnk in CONTEST_SHAPES:
        plan = seed.seed_plan(*mnk, aiter=aiter)
        if plan["path"] == "splitk":
            continue
        m, n, _ = mnk
        gemm = plan["launches"][1]
        if str(plan["runs"]).startswith("_ZN"):
            assert gemm["grid"] == (-(-n // plan["tile"][1]), -(-m // plan["tile"][0])), mnk
            kinds.add("asm")
        else:
            assert gemm["grid"] == (plan["ctas"],), mnk
            kinds.add("ck")
    assert kinds == ({"asm", "ck"} if aiter == "0.1.10" else {"asm"})


def test_seed_plan_splitk_details():
    plan = seed.seed_plan(*SEED_SHAPE)
    assert plan["config"] == {"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 512, "GROUP_SIZE_M": 1,
                              "num_warps": 4, "num_stages": 1, "waves_per_eu": 2, "matrix_instr_nonkdim": 16,
                              "cache_modifier": ".cg", "NUM_KSPLIT": 7}
    assert plan["config"] is not seed.SEED_SPLITK_CONFIG  # a copy: aiter writes into the dict it is given
    assert [(x["kernel"], x["ctas"]) for x in plan["launches"]] == [
        ("_mxfp4_quant_natural_kernel", 14), ("_gemm_afp4wfp4_preshuffle_kernel", 119),
        ("_gemm_afp4wfp4_reduce_kernel", 33)]  # reduce tiles 16 x 64 over 16 x 2112
    # K in bytes (3584) through get_splitk: 7 slices of 1024 elements, two 512-wide steps each
    s = rules.triton_splitk(7168, 512, 7)
    assert (s.num_ksplit, s.splitk_block_size, s.block_k) == (7, 1024, 512)
    assert seed.SEED_HEADER_NUM_KSPLIT * 17 == 238  # the header's count, never launched


def test_seed_plan_quant_launches():
    small = seed.seed_plan(4, 2880, 512)["launches"][0]
    assert small["kernel"] == "_fused_mxfp4_quant_shuffle_kernel" and small["num_stages"] == 1
    assert small["constexprs"] == dict(BLOCK_SIZE_M=4, BLOCK_SIZE_N=256, NUM_ITER=1, NUM_STAGES=1,
                                       MXFP4_QUANT_BLOCK_SIZE=32, EVEN_M_N=True, SCALING_MODE=0)
    large = seed.seed_plan(64, 2880, 512)["launches"][0]["constexprs"]
    assert (large["BLOCK_SIZE_M"], large["BLOCK_SIZE_N"], large["NUM_ITER"], large["NUM_STAGES"]) == (8, 128, 4, 2)
    assert large["EVEN_M_N"] is True and seed.seed_plan(64, 2880, 1536)["launches"][0]["constexprs"]["EVEN_M_N"]
    # EVEN_M_N needs K a multiple of BLOCK_SIZE_N * NUM_ITER = 512: 640 is a multiple of 128 only.
    assert seed.seed_plan(64, 256, 640)["launches"][0]["constexprs"]["EVEN_M_N"] is False


def test_seed_plan_other_shapes_and_bad_input():
    plan = seed.seed_plan(24, 1008, 2048)  # M <= 32, not named: aiter's heuristic for any shape
    assert plan["path"] == "asm" and plan["kernel"] == "" and plan["how"] == "heuristic" and plan["ctas"] > 0
    plan = seed.seed_plan(96, 1008, 2048)  # gemm_a4w4: tuned rows replicated only for contest shapes
    assert plan["path"] == "ck" and plan["runs"] is None and plan["how"] == "unknown" and plan["ctas"] is None
    for bad in ("0.1.15", "0.1.15.dev3", "0.1.9.post1"):  # a development build of 0.1.15 may lack use_aot
        with pytest.raises(ValueError, match="aiter must be a version from 0.1.10 up to"):
            seed.seed_plan(*SEED_SHAPE, aiter=bad)
    with pytest.raises(ValueError, match="k must be a multiple of 64"):
        seed.seed_plan(16, 2112, 7008)
    with pytest.raises(ValueError, match="n must be a multiple of 16"):
        seed.seed_plan(4, 100, 512)
    with pytest.raises(ValueError, match="m must be a positive integer"):
        seed.seed_plan(0, 2112, 7168)


# ---------------------------------------------------------------------------------------------------------
# The seed's own text, when ../shared/seed holds it


def _seed_tree():
    files = sorted(SEED_DIR.glob("*.txt")) if SEED_DIR.is_dir() else []
    if not files:
        pytest.skip(f"no seed text in {SEED_DIR}")
    text = files[0].read_text()
    first, _, rest = text.partition("\n")
    return ast.parse(rest if not first.strip().startswith(("import", "from", '"""', "#")) else text)


def _assigned(tree, name):
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return node.value
    raise AssertionError(f"the seed assigns no {name}")


def test_seed_text_agrees_with_seed_module():
    tree = _seed_tree()
    assert ast.literal_eval(_assigned(tree, "_M16_CONFIG")) == seed.SEED_SPLITK_CONFIG
    assert ast.literal_eval(_assigned(tree, "_M16_BSK")) == seed.SEED_SPLITK_CONFIG["BLOCK_SIZE_K"]
    tiles = ast.literal_eval(_assigned(tree, "SHAPE_CONFIGS"))
    assert {s: tuple(map(int, t.split("x"))) for s, (t, _) in tiles.items()} == seed.SEED_ASM_TILES
    assert {split for _, split in tiles.values()} == {seed.SEED_LOG2_K_SPLIT}
    # custom_kernel's branches: the split-K shape, then M <= 32, then the rest
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "custom_kernel")
    branch = next(n for n in fn.body if isinstance(n, ast.If))
    consts = {(c.left.id, c.comparators[0].value) for c in branch.test.values}
    assert consts == {("M", seed.SEED_SPLITK_SHAPE[0]), ("N", seed.SEED_SPLITK_SHAPE[1]),
                      ("K", seed.SEED_SPLITK_SHAPE[2])}
    second = branch.orelse[0].test
    assert (second.left.id, type(second.ops[0]).__name__, second.comparators[0].value) == ("M", "LtE", 32)
    # the large-M quant: NUM_ITER, BLOCK_SIZE_M, BLOCK_SIZE_N, NUM_WARPS, NUM_STAGES
    q = next(n for n in ast.walk(tree) if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Tuple)
             and [e.id for e in n.targets[0].elts][:3] == ["NUM_ITER", "BLOCK_SIZE_M", "BLOCK_SIZE_N"])
    values = dict(zip([e.id for e in q.targets[0].elts], ast.literal_eval(q.value)))
    plan = seed.seed_plan(64, 7168, 2048)["launches"][0]
    assert values["NUM_WARPS"] == plan["num_warps"]
    for key in ("NUM_ITER", "BLOCK_SIZE_M", "BLOCK_SIZE_N", "NUM_STAGES"):
        assert values[key] == plan["constexprs"][key], key
    header = ast.get_docstring(tree)
    assert f"NUM_KSPLIT={seed.SEED_HEADER_NUM_KSPLIT}" in header


# ---------------------------------------------------------------------------------------------------------
# ---------------------------------------------------------------------------------------------------------
# aiter's split-K arithmetic


@pytest.mark.parametrize("k, block_k, asked, want", [
    (7168, 256, 8, (1024, 256, 7)),  # 8 slices of 896 do not divide into 256-wide steps: 7 of 1024
    (7168, 256, 28, (256, 256, 28)),
    (512, 256, 4, (256, 256, 2)),  # a slice is at least one BLOCK_SIZE_K
    (1536, 256, 5, (512, 256, 3)),
    (2048, 256, 1, (2048, 256, 1)),
    (512, 1024, 1, (512, 512, 1)),  # BLOCK_SIZE_K >= K: one slice, BLOCK_SIZE_K = next power of two of K
    (192, 192, 1, (192, 256, 1)),  # ... the bound included
])
def test_triton_splitk_known_values(k, block_k, asked, want):
    s = rules.triton_splitk(k, block_k, asked)
    assert (s.splitk_block_size, s.block_k, s.num_ksplit) == want


def test_split_counts_that_mean_nothing_are_refused():
    for bad in (0, -3, True):
        with pytest.raises(ValueError, match="num_ksplit must be a positive integer"):
            rules.triton_splitk(7168, 512, bad)
    for bad in (-1, True, 1.0):
        with pytest.raises(ValueError, match="log2_k_split must be a non-negative integer"):
            rules.asm_heuristic(16, 2112, 7168, log2_k_split=bad)
        with pytest.raises(ValueError, match="log2_k_split must be a non-negative integer"):
            rules.asm_k_splits(7168, bad)


@settings(max_examples=300, deadline=None)
@given(kq=st.integers(1, 256), log_bk=st.integers(5, 10), asked=st.integers(2, 32))
def test_aiter_get_splitk_covers_k(kq, log_bk, asked):
    k_bytes = 32 * kq  # K = 64 * kq elements, as the contest requires
    s = rules.aiter_get_splitk(k_bytes, 1 << log_bk, asked)
    half = s.splitk_block_size // 2
    assert s.splitk_block_size % s.block_k == 0  # every slice is whole BLOCK_SIZE_K steps
    assert (s.num_ksplit - 1) * half < k_bytes <= s.num_ksplit * half  # the slices cover K, none empty
    assert s.num_ksplit <= asked and s.block_k <= 1 << log_bk


def test_aiter_get_splitk_leaves_a_block_k_of_16_alone():
    """get_splitk adjusts the slices only while BLOCK_SIZE_K > 16: at 16 its first slice size stands even where
    the slices do not divide K (24 bytes in 2 splits: slices of 32 elements, two of them)."""
    assert rules.aiter_get_splitk(24, 16, 2) == rules.TritonSplitK(32, 16, 2)


@pytest.mark.parametrize("k, log2, want", [(7168, 0, 1), (7168, 4, 14), (512, 4, 2), (1536, 4, 6), (2048, 3, 8)])
def test_asm_k_splits(k, log2, want):
    assert rules.asm_k_splits(k, log2) == want


def test_asm_k_splits_checks_divisibility():
    with pytest.raises(ValueError, match="multiple of 2\\*\\*log2_k_split = 16"):
        rules.asm_k_splits(520, 4)


# ---------------------------------------------------------------------------------------------------------
# The ASM heuristic

# Printed by g++ 12.2 (libstdc++) for std::hash<std::string> and for iterating an unordered_map built from
# the kernel list in file order, keys "gfx950" + symbol, as aiter's hsa/codegen.py builds it.
GXX_HASHES = {
    "": 6142509188972423790,
    "a": 4993892634952068459,
    "abcdefgh": 8664279048047335611,
    "abcdefghi": 13036955925923793583,
    "gfx950_ZN5aiter41f4gemm_bf16_per1x32Fp4_BpreShuffle_32x128E": 1304763288942995421,
    "gfx950_ZN5aiter44f4gemm_bf16_per1x32Fp4_noBpreShuffle_256x256E": 17420615419206626752,
}
GXX_ORDER = [
    "96x640", "96x384", "96x256", "96x128", "64x896", "224x128", "128x384", "160x256", "96x512", "160x384",
    "32x128", "128x256", "256x256", "160x128", "noB256x256", "128x512", "224x256", "128x128", "256x128",
    "32x1024", "64x384", "32x512", "32x640", "32x768", "32x896", "32x384", "64x1024", "32x256", "64x128",
    "192x256", "64x256", "192x128", "64x512", "64x640", "64x768",
]


def _label(kern):
    return ("" if kern.bpreshuffle else "noB") + f"{kern.tile_m}x{kern.tile_n}"


def test_libstdcxx_hash_matches_gxx():
    for s, h in GXX_HASHES.items():
        assert rules.libstdcxx_string_hash(s) == h, s


def test_kernel_order_matches_gxx():
    assert len(rules.ASM_KERNELS) == 35
    assert rules.ASM_KERNELS[15].name == "_ZN5aiter41f4gemm_bf16_per1x32Fp4_BpreShuffle_32x128E"
    assert [_label(k) for k in rules.asm_kernel_order()] == GXX_ORDER


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (libstdc++)")
def test_kernel_order_matches_live_gxx(tmp_path):
    keys = ["gfx950" + k.name for k in rules.ASM_KERNELS]
    random.shuffle(keys)  # a fresh insertion order each run: the replica must follow any
    src = tmp_path / "order.cpp"
    entries = ",\n".join(f'{{"{key}", {i}}}' for i, key in enumerate(keys))
    src.write_text("#include <cstdio>\n#include <string>\n#include <unordered_map>\n"
                   f"static std::unordered_map<std::string, int> m = {{\n{entries}\n}};\n"
                   'int main() { for (auto& e : m) std::printf("%s\\n", e.first.c_str()); }\n')
    exe = tmp_path / "order"
    subprocess.run(["g++", "-O0", "-o", str(exe), str(src)], check=True, capture_output=True)
    printed = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split()
    assert printed == rules.libstdcxx_iteration_order(keys)


def _accepts(state, kern, split, m, n, units=256):
    """The heuristic's replacement test, written out once more: would (kern, split) replace `state`?"""
    tg = math.ceil(m / kern.tile_m) * math.ceil(n / kern.tile_n) * split
    r = math.ceil(tg / units)
    ratio = kern.tile_m * kern.tile_n // (kern.tile_m + kern.tile_n)
    return r < state[0] or (r == state[0] and (state[1] > r * units - tg or ratio > state[2]))


@pytest.mark.parametrize("mnk", CONTEST_SHAPES)
def test_heuristic_on_contest_shapes(mnk):
    m, n, k = mnk
    # aiter.gemm_a4w4 on an untuned shape passes log2_k_split=0: no split-K, and 192x128 comes last in the
    # map's order among the kernels that beat the running pick.
    choice = rules.asm_heuristic(m, n, k)
    assert choice.tile == (192, 128) and choice.split_k == 1
    assert choice.ctas == math.ceil(m / 192) * math.ceil(n / 128) and choice.rounds == 1
    # No kernel visited after the pick would replace it (the fold's last word).
    order = rules.asm_kernel_order()
    kern = choice.kernel
    tg = choice.ctas
    state = (choice.rounds, choice.rounds * 256 - tg, kern.tile_m * kern.tile_n // (kern.tile_m + kern.tile_n))
    later = order[order.index(kern) + 1:]
    assert not any(_accepts(state, other, 1, m, n) for other in later if other.bpreshuffle)


@pytest.mark.parametrize("mnk, split, ctas", [
    ((16, 2112, 7168), 16, 9 * 14),  # asks for 16 slices of 7168: slices round up to 512, 14 run
    ((256, 3072, 1536), 16, 12 * 6),
    ((64, 7168, 2048), 8, 28 * 8),
])
def test_heuristic_without_log2_k_split_takes_split_k_256x256(mnk, split, ctas):
    choice = rules.asm_heuristic(*mnk, log2_k_split=None)
    assert choice.tile == (256, 256) and choice.kernel.split_k
    assert choice.split_k == split and choice.ctas == ctas and choice.rounds == 1


def test_heuristic_depends_on_order():
    k32x128 = next(k for k in rules.ASM_KERNELS if (k.tile_m, k.tile_n) == (32, 128))
    k256 = next(k for k in rules.ASM_KERNELS if (k.tile_m, k.tile_n) == (256, 256) and k.bpreshuffle)
    # 32x128: 17 CTAs, ratio 25; 256x256: 9 CTAs, ratio 128. Each replaces the other: the last one wins.
    assert rules.asm_heuristic(16, 2112, 7168, order=[k32x128, k256]).tile == (256, 256)
    assert rules.asm_heuristic(16, 2112, 7168, order=[k256, k32x128]).tile == (32, 128)
    # Fewer rounds win whatever the order: 32x128 needs 2 rounds for M=256, N=7168; 192x128 one.
    k192 = next(k for k in rules.ASM_KERNELS if (k.tile_m, k.tile_n) == (192, 128))
    for order in ([k32x128, k192], [k192, k32x128]):
        assert rules.asm_heuristic(256, 7168, 2048, order=order).tile == (192, 128)


def test_heuristic_keeps_the_first_kernel_on_a_tie_of_the_integer_ratio():
    """On the same rounds the heuristic replaces its pick only for a strictly better compute-to-memory ratio,
    in C++ integer division: 128x256 and 256x128 (both 85), and 32x512 and 32x640 (30.1 and 30.5, both 30),
    tie on one round of one CTA, so whichever is visited first stays."""
    for first, second in (((128, 256), (256, 128)), ((32, 512), (32, 640))):
        for pair in ((first, second), (second, first)):
            order = [rules.asm_tile_kernel(*t) for t in pair]
            assert rules.asm_heuristic(32, 128, 1024, order=order).tile == pair[0], pair


def test_heuristic_skips_128x512_unless_n_divides():
    k512 = next(k for k in rules.ASM_KERNELS if (k.tile_m, k.tile_n) == (128, 512))
    with pytest.raises(ValueError, match="no ASM kernel fits"):
        rules.asm_heuristic(16, 2112, 7168, order=[k512])
    assert rules.asm_heuristic(16, 3072, 1536, order=[k512]).tile == (128, 512)
    # log2_k_split > 0 leaves only the split-K kernels.
    assert rules.asm_heuristic(16, 2112, 7168, log2_k_split=2).kernel.split_k


def test_heuristic_with_log2_k_split_takes_no_kernel_that_ignores_it():
    """With a log2_k_split > 0 only the split-K kernels are candidates: a list of kernels that ignore the
    split has none that fits, whatever their tiles would score."""
    k32x128 = next(k for k in rules.ASM_KERNELS if (k.tile_m, k.tile_n) == (32, 128))
    assert rules.asm_heuristic(16, 2112, 7168, log2_k_split=0, order=[k32x128]).tile == (32, 128)
    with pytest.raises(ValueError, match="no ASM kernel fits"):
        rules.asm_heuristic(16, 2112, 7168, log2_k_split=2, order=[k32x128])


def test_gemm_a4w4_choice_per_contest_shape():
    for line in ("0.1.10", "0.1.11"):
        assert set(rules.TUNED_ROWS[line]) <= set(CONTEST_SHAPES) and len(rules.TUNED_ROWS[line]) == 6
        c = rules.gemm_a4w4_choice(*SEED_SHAPE, line)  # no tuned row: the heuristic picks
        assert (c.how, c.backend, c.tile, c.ctas) == ("heuristic", "asm", (192, 128), 17)
    c = rules.gemm_a4w4_choice(8, 2112, 7168, "0.1.11")
    assert (c.how, c.tile, c.ctas) == ("tuned", (32, 128), 17) and c.kernel == rules.asm_tile_kernel(32, 128).name
    c = rules.gemm_a4w4_choice(256, 7168, 2048, "0.1.14")
    assert (c.how, c.backend, c.tile, c.ctas) == ("tuned", "asm", (64, 128), 4 * 56)
    c = rules.gemm_a4w4_choice(256, 7168, 2048, "0.1.10.post3")  # before ROCm/aiter#2092: a CK row
    assert (c.how, c.backend, c.tile, c.ctas) == ("tuned", "ck", (64, 128), 4 * 56) and c.kernel == rules.CK_64X128
    with pytest.raises(ValueError, match="must be a contest shape"):
        rules.gemm_a4w4_choice(16, 2112, 4096, "0.1.11")
    with pytest.raises(ValueError, match="aiter must be 0.1.10 or newer"):
        rules.gemm_a4w4_choice(*SEED_SHAPE, "0.1.9")
    with pytest.raises(ValueError, match="aiter must be a PEP 440 version"):
        rules.gemm_a4w4_choice(*SEED_SHAPE, "main")




def test_seed_scale_offset_is_e8m0_shuffle_position():
    """The seed's d0..d5 index math (its quant+shuffle kernel) is mxlib.spec.layouts.scale_position, and
    so e8m0_shuffle: every (row, group) of a two-tile-tall, three-tile-wide scale tensor."""
    import torch

    from mxlib.spec.layouts import scale_position

    sn = 24
    m, g = torch.meshgrid(torch.arange(512), torch.arange(sn), indexing="ij")
    assert torch.equal(seed.seed_scale_offset(m, g, sn), scale_position(m, g, sn))
    offsets = seed.seed_scale_offset(m, g, sn).flatten()
    assert torch.equal(offsets.sort().values, torch.arange(512 * sn))  # a permutation of the buffer
    assert seed.seed_scale_offset(17, 5, 8) == scale_position(17, 5, 8)  # plain ints too


def test_seed_scale_offset_matches_the_seed_text():
    files = sorted(SEED_DIR.glob("*.txt")) if SEED_DIR.is_dir() else []
    if not files:
        pytest.skip("../shared/seed is not here")
    text = files[0].read_text()
    for line in ("d0 = m_idx // 32; d5 = (m_idx % 32) // 16; d3 = m_idx % 16",
                 "d1 = n_idx // 8;  d4 = (n_idx % 8) // 4;   d2 = n_idx % 4",
                 "shuffle_offs = d0 * 32 * scaleN_pad + d1 * 256 + d2 * 64 + d3 * 4 + d4 * 2 + d5"):
        assert line in text, line
