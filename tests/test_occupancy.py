"""mxlib.tools.occupancy: the seed's occupancy numbers, aiter's split-K and ASM-tile arithmetic, the latency model."""
import csv
import math
import random
import shutil
import subprocess
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mxlib.tools import occupancy as occ
from mxlib.spec import shapes as shapes_mod

SEED_SHAPE = (16, 2112, 7168)
CONTEST_SHAPES = [s.mnk for s in shapes_mod.load()]


# ---------------------------------------------------------------------------------------------------------
# The seed's numbers


@pytest.mark.parametrize("split_k, ctas, pct_mi355x, pct_h200, waves_h200", [
    (1, 17, 6.6, 12.9, 1),
    (7, 119, 46.5, 90.2, 1),  # what the seed's config actually runs (NOTES §4)
    (14, 238, 93.0, 90.2, 2),  # what its header says: two waves on the H200's 132 SMs
])
def test_seed_numbers_fall_out(split_k, ctas, pct_mi355x, pct_h200, waves_h200):
    n = occ.cta_count(*SEED_SHAPE, 32, 128, split_k)
    assert n == ctas
    assert round(100 * occ.cu_utilization(n, "MI355X"), 1) == pct_mi355x
    assert occ.waves(n, "MI355X") == 1
    assert round(100 * occ.cu_utilization(n, "H200"), 1) == pct_h200
    assert occ.waves(n, "H200") == waves_h200


def test_seed_split_through_aiter_get_splitk():
    # The seed asks aiter's Triton GEMM for 7 or 14 splits of K=7168 with BLOCK_SIZE_K=256: both survive.
    for asked, slice_k in ((7, 1024), (14, 512)):
        s = occ.triton_splitk(7168, 256, asked)
        assert (s.num_ksplit, s.splitk_block_size, s.block_k) == (asked, slice_k, 256)
        assert occ.cta_count(*SEED_SHAPE, 32, 128, s.num_ksplit) == 17 * asked


def test_devices_carry_sourced_figures():
    mi, h = occ.DEVICES["MI355X"], occ.DEVICES["H200"]
    assert (mi.units, mi.groups, mi.units_per_group) == (256, 8, 32)
    assert (h.units, h.groups) == (132, 1)
    assert h.bandwidth.value == 4.28e12 and h.peak_flops.value == 799e12 and h.launch_us.value == 3.46
    for d in (mi, h):
        for name, fig in d.figures().items():
            assert fig.source, f"{d.name}.{name} has no source"
            assert fig.source.split(":")[0] in ("measured", "cited", "derived", "prior", "assumed", "not measured",
                                                "not fitted"), fig.source
    assert mi.launch_us.value is None
    with pytest.raises(ValueError, match="launch_us"):
        occ.model_params("MI355X")
    with pytest.raises(ValueError, match="device must be"):
        occ.get_device("B200")


def test_group_loads_round_robin():
    assert occ.group_loads(17, "MI355X") == [3, 2, 2, 2, 2, 2, 2, 2]
    assert occ.group_loads(238, "MI355X") == [30] * 6 + [29] * 2
    assert occ.group_loads(17, "H200") == [17]


# ---------------------------------------------------------------------------------------------------------
# Occupancy properties


@settings(max_examples=200, deadline=None)
@given(ctas=st.integers(1, 5000), device=st.sampled_from(sorted(occ.DEVICES)))
def test_waves_and_utilization(ctas, device):
    units = occ.DEVICES[device].units
    w = occ.waves(ctas, device)
    u = occ.cu_utilization(ctas, device)
    assert (w - 1) * units < ctas <= w * units
    assert 0 < u <= 1
    assert (u == 1) == (ctas % units == 0)
    assert math.isclose(u, ctas / (w * units))
    loads = occ.group_loads(ctas, device)
    assert sum(loads) == ctas and max(loads) - min(loads) <= 1


@settings(max_examples=100, deadline=None)
@given(m=st.integers(1, 512), n=st.integers(1, 8192), kg=st.integers(1, 256),
       tm=st.sampled_from([16, 32, 64, 128, 256]), tn=st.sampled_from([32, 64, 128, 256]), data=st.data())
def test_cta_count_is_tiles_times_splits(m, n, kg, tm, tn, data):
    k = 32 * kg
    s = data.draw(st.integers(1, kg))
    tiles = occ.cta_count(m, n, k, tm, tn)
    assert tiles == math.ceil(m / tm) * math.ceil(n / tn)
    assert occ.cta_count(m, n, k, tm, tn, s) == tiles * s


def test_cta_count_rejects_bad_arguments():
    with pytest.raises(ValueError, match="split_k must be at most K / 32 = 16"):
        occ.cta_count(16, 2112, 512, 32, 128, 17)
    with pytest.raises(ValueError, match="tile_n must be a positive integer"):
        occ.cta_count(16, 2112, 512, 32, 0)
    with pytest.raises(ValueError, match="ctas must be a positive integer"):
        occ.cu_utilization(0, "H200")


# ---------------------------------------------------------------------------------------------------------
# aiter's split-K arithmetic


@pytest.mark.parametrize("k, block_k, asked, want", [
    (7168, 256, 8, (1024, 256, 7)),  # 8 slices of 896 do not divide into 256-wide steps: 7 of 1024
    (7168, 256, 28, (256, 256, 28)),
    (512, 256, 4, (256, 256, 2)),  # a slice is at least one BLOCK_SIZE_K
    (1536, 256, 5, (512, 256, 3)),
    (2048, 256, 1, (2048, 256, 1)),
    (512, 1024, 1, (512, 512, 1)),  # BLOCK_SIZE_K >= K: one slice, BLOCK_SIZE_K = next power of two of K
])
def test_triton_splitk_known_values(k, block_k, asked, want):
    s = occ.triton_splitk(k, block_k, asked)
    assert (s.splitk_block_size, s.block_k, s.num_ksplit) == want


@settings(max_examples=300, deadline=None)
@given(kq=st.integers(1, 256), log_bk=st.integers(5, 10), asked=st.integers(2, 32))
def test_aiter_get_splitk_covers_k(kq, log_bk, asked):
    k_bytes = 32 * kq  # K = 64 * kq elements, as the contest requires
    s = occ.aiter_get_splitk(k_bytes, 1 << log_bk, asked)
    half = s.splitk_block_size // 2
    assert s.splitk_block_size % s.block_k == 0  # every slice is whole BLOCK_SIZE_K steps
    assert (s.num_ksplit - 1) * half < k_bytes <= s.num_ksplit * half  # the slices cover K, none empty
    assert s.num_ksplit <= asked and s.block_k <= 1 << log_bk


@pytest.mark.parametrize("k, log2, want", [(7168, 0, 1), (7168, 4, 14), (512, 4, 2), (1536, 4, 6), (2048, 3, 8)])
def test_asm_k_splits(k, log2, want):
    assert occ.asm_k_splits(k, log2) == want


def test_asm_k_splits_checks_divisibility():
    with pytest.raises(ValueError, match="multiple of 2\\*\\*log2_k_split = 16"):
        occ.asm_k_splits(520, 4)


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
        assert occ.libstdcxx_string_hash(s) == h, s


def test_kernel_order_matches_gxx():
    assert len(occ.ASM_KERNELS) == 35
    assert occ.ASM_KERNELS[15].name == "_ZN5aiter41f4gemm_bf16_per1x32Fp4_BpreShuffle_32x128E"
    assert [_label(k) for k in occ.asm_kernel_order()] == GXX_ORDER


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (libstdc++)")
def test_kernel_order_matches_live_gxx(tmp_path):
    keys = ["gfx950" + k.name for k in occ.ASM_KERNELS]
    random.shuffle(keys)  # a fresh insertion order each run: the replica must follow any
    src = tmp_path / "order.cpp"
    entries = ",\n".join(f'{{"{key}", {i}}}' for i, key in enumerate(keys))
    src.write_text("#include <cstdio>\n#include <string>\n#include <unordered_map>\n"
                   f"static std::unordered_map<std::string, int> m = {{\n{entries}\n}};\n"
                   'int main() { for (auto& e : m) std::printf("%s\\n", e.first.c_str()); }\n')
    exe = tmp_path / "order"
    subprocess.run(["g++", "-O0", "-o", str(exe), str(src)], check=True, capture_output=True)
    printed = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split()
    assert printed == occ.libstdcxx_iteration_order(keys)


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
    choice = occ.asm_heuristic(m, n, k)
    assert choice.tile == (192, 128) and choice.split_k == 1
    assert choice.ctas == math.ceil(m / 192) * math.ceil(n / 128) and choice.rounds == 1
    # No kernel visited after the pick would replace it (the fold's last word).
    order = occ.asm_kernel_order()
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
    choice = occ.asm_heuristic(*mnk, log2_k_split=None)
    assert choice.tile == (256, 256) and choice.kernel.split_k
    assert choice.split_k == split and choice.ctas == ctas and choice.rounds == 1


def test_heuristic_depends_on_order():
    k32x128 = next(k for k in occ.ASM_KERNELS if (k.tile_m, k.tile_n) == (32, 128))
    k256 = next(k for k in occ.ASM_KERNELS if (k.tile_m, k.tile_n) == (256, 256) and k.bpreshuffle)
    # 32x128: 17 CTAs, ratio 25; 256x256: 9 CTAs, ratio 128. Each replaces the other: the last one wins.
    assert occ.asm_heuristic(16, 2112, 7168, order=[k32x128, k256]).tile == (256, 256)
    assert occ.asm_heuristic(16, 2112, 7168, order=[k256, k32x128]).tile == (32, 128)
    # Fewer rounds win whatever the order: 32x128 needs 2 rounds for M=256, N=7168; 192x128 one.
    k192 = next(k for k in occ.ASM_KERNELS if (k.tile_m, k.tile_n) == (192, 128))
    for order in ([k32x128, k192], [k192, k32x128]):
        assert occ.asm_heuristic(256, 7168, 2048, order=order).tile == (192, 128)


def test_heuristic_skips_128x512_unless_n_divides():
    k512 = next(k for k in occ.ASM_KERNELS if (k.tile_m, k.tile_n) == (128, 512))
    with pytest.raises(ValueError, match="no ASM kernel fits"):
        occ.asm_heuristic(16, 2112, 7168, order=[k512])
    assert occ.asm_heuristic(16, 3072, 1536, order=[k512]).tile == (128, 512)
    # log2_k_split > 0 leaves only the split-K kernels.
    assert occ.asm_heuristic(16, 2112, 7168, log2_k_split=2).kernel.split_k


def test_reference_kernel_per_contest_shape():
    assert set(occ.AITER_TUNED_CONTEST) | occ.AITER_UNTUNED_CONTEST == set(CONTEST_SHAPES)
    assert not set(occ.AITER_TUNED_CONTEST) & occ.AITER_UNTUNED_CONTEST
    how, choice = occ.reference_kernel(*SEED_SHAPE)  # no tuned row: the heuristic picks
    assert how == "heuristic" and choice.tile == (192, 128) and choice.ctas == 17
    how, choice = occ.reference_kernel(8, 2112, 7168)
    assert how == "tuned" and choice.tile == (32, 128) and choice.ctas == 17 and not choice.kernel.split_k
    how, choice = occ.reference_kernel(256, 7168, 2048)
    assert how == "tuned" and choice.tile == (64, 128) and choice.ctas == 4 * 56 and choice.rounds == 1
    with pytest.raises(ValueError, match="must be a contest shape"):
        occ.reference_kernel(16, 2112, 4096)


# ---------------------------------------------------------------------------------------------------------
# The latency model


def test_prior_reproduces_its_source():
    # dot_efficiency's prior is solved from NOTES §6's naive kernel (61.5 us): the model gives it back.
    p = occ.predict(16, 2112, 7168, 16, 64, device="H200", kernels=1)
    assert math.isclose(p.us, 61.5, rel_tol=1e-9)
    assert p.ctas == 33 and p.waves == 1 and p.compute_us > p.memory_us


def test_predict_parts():
    p = occ.predict(16, 2112, 7168, 32, 128, 14, device="H200")
    assert (p.ctas, p.waves) == (238, 2)
    assert math.isclose(p.overhead_us, 2 * 3.46)  # split-K: a second kernel
    assert math.isclose(p.us, p.overhead_us + max(p.compute_us, p.memory_us))
    assert occ.traffic_bytes(16, 2112, 7168, 14) - occ.traffic_bytes(16, 2112, 7168) == 2 * 14 * 16 * 2112 * 4
    # More waves of the same work cost more: 8 splits (136 CTAs, 2 waves) is slower than 7 (1 wave).
    assert occ.predict_us(*SEED_SHAPE, 16, 128, 8) > occ.predict_us(*SEED_SHAPE, 16, 128, 7)
    with pytest.raises(ValueError, match="dot_efficiency must be positive"):
        replace(occ.model_params("H200"), dot_efficiency=0.0)


def _synthetic_rows(truth):
    rows = []
    for m, n, k in ((16, 2112, 7168), (256, 3072, 1536), (64, 7168, 2048)):
        for tm, tn in ((16, 64), (64, 128)):
            for s in (1, 2, 4, 7):
                ctas = occ.cta_count(m, n, k, tm, tn, s)
                kernels = 2 if s > 1 else 1
                p = occ.predict(m, n, k, tm, tn, s, device="H200", model=truth, ctas=ctas, kernels=kernels)
                rows.append(dict(m=m, n=n, k=k, tile_m=tm, tile_n=tn, split_k=s, ctas=ctas, kernels=kernels,
                                 measured_us=p.us, memory_bound=p.memory_us > p.compute_us))
    return rows


def test_fit_recovers_parameters():
    # At the full peak some configs are memory-bound with few CTAs: both parameters show in the times.
    truth = replace(occ.model_params("H200"), dot_efficiency=1.0, bw_saturation=0.5, extra_kernel_us=1.7)
    rows = _synthetic_rows(truth)
    assert any(r["memory_bound"] for r in rows)
    fitted = occ.fit(rows, "H200", replace(truth, dot_efficiency=0.01, bw_saturation=1.0))
    assert math.isclose(fitted.dot_efficiency, 1.0) and fitted.bw_saturation == 0.5
    assert occ.median_abs_pct_error(rows, "H200", fitted) < 1e-9
    # At 10% of peak every config is compute-bound: the times say nothing of bw_saturation; it keeps its prior.
    truth = replace(truth, dot_efficiency=0.1)
    rows = _synthetic_rows(truth)
    assert not any(r["memory_bound"] for r in rows)
    fitted = occ.fit(rows, "H200", replace(truth, dot_efficiency=0.01, bw_saturation=0.9))
    assert math.isclose(fitted.dot_efficiency, 0.1) and fitted.bw_saturation == 0.9
    with pytest.raises(ValueError, match="rows must not be empty"):
        occ.fit([], "H200", truth)


# ---------------------------------------------------------------------------------------------------------
# Tables


def test_utilization_table_rows():
    rows = occ.utilization_table([(16, 2112, 7168)], "MI355X", tiles=[(32, 128)], split_ks=[1, 7, 14, 300])
    assert [(r["split_k"], r["ctas"], r["utilization"]) for r in rows] == [
        (1, 17, 0.066406), (7, 119, 0.464844), (14, 238, 0.929688)]  # 300 > K/32: left out
    assert all(r["even_k"] for r in rows) and set(rows[0]) == set(occ.TABLE_COLUMNS)


def test_model_csv_is_current(tmp_path):
    # data/results/occupancy_model.csv is what write_model_csv makes now, byte for byte.
    fresh = occ.write_model_csv(tmp_path / "model.csv")
    assert fresh.read_bytes() == occ.MODEL_CSV.read_bytes(), "regenerate it: occupancy.write_model_csv()"
    text = fresh.read_text().splitlines()
    assert text[0] == ",".join(occ.TABLE_COLUMNS)
    assert "MI355X,benchmark,16,2112,7168,32,128,14,238,1,0.929688,True" in text
    assert "H200,benchmark,16,2112,7168,32,128,14,238,2,0.901515,True" in text


# ---------------------------------------------------------------------------------------------------------
# The sweep (mxlib.tools.sweeps): what runs without a GPU


def test_sweep_dry_run_builds_and_verifies(tmp_path):
    from mxlib.__main__ import main
    from mxlib.tools import sweeps

    assert main(["sweep", "--dry-run", "--out", str(tmp_path)]) == 0
    with open(tmp_path / "splitk_sweep.csv", newline="") as f:
        reader = csv.DictReader(f)
        assert tuple(reader.fieldnames) == sweeps.CSV_FIELDS
        rows = list(reader)
    assert [(r["tile_m"], r["tile_n"], r["split_k"]) for r in rows] == [
        tuple(map(str, c)) for c in sweeps.DRY_CONFIGS]
    for r in rows:
        assert r["ok"] == "1" and r["measured_us"] == ""  # verified, never timed
        assert int(r["ctas"]) == 2 * int(r["split_k"])  # 16x64 tiles over 16 x 128
        assert float(r["predicted_prior_us"]) > 0


class _BrokenPath:
    """A path whose gemm returns its `out` unwritten (NaN): the dry run must catch it."""

    from mxlib.kernels import gemm_splitk as _real

    Config = _real.Config
    default_config = staticmethod(_real.default_config)
    grid = staticmethod(_real.grid)

    @staticmethod
    def gemm(a, b_shuffle, b_scale_sh, *, config=None, rounding="rne", out=None):
        return out


def test_sweep_dry_run_fails_on_a_wrong_kernel(capsys):
    from mxlib.tools import sweeps

    assert sweeps.dry_run(_BrokenPath, [], occ.DEVICES["H200"], None) == 1
    assert "FAILED" in capsys.readouterr().out


def test_sweep_plan():
    from mxlib.tools import sweeps
    from mxlib.kernels import gemm_splitk

    configs = sweeps.plan(sweeps.DEFAULT_SHAPES, sweeps.DEFAULT_TILES, sweeps.DEFAULT_SPLITS, gemm_splitk)
    assert len(configs) <= 160  # the time budget: compiles dominate
    for (m, n, k, seed), cfg in configs:
        assert cfg.split_k <= k // cfg.block_k and (cfg.block_m, cfg.block_n) in sweeps.DEFAULT_TILES
    assert {s[:3] for s, _ in configs} == set(sweeps.DEFAULT_SHAPES)
    assert next(s for s, _ in configs if s[:3] == (16, 2112, 7168))[3] == 15  # the seed from mxlib/data/shapes.csv
    splits_7168 = sorted({c.split_k for s, c in configs if s[2] == 7168})
    assert splits_7168[-1] == 28 and 7 in splits_7168 and 14 in splits_7168
    with pytest.raises(ValueError, match="block_m must be a power of two"):
        sweeps.plan([(16, 2112, 7168)], [(24, 64)], [1], gemm_splitk)
    with pytest.raises(ValueError, match="--tiles: '16' must be 2 positive"):
        sweeps._parse_list("16", "--tiles", 2)
    assert sweeps._parse_list("16x2112x7168, 8x2112x7168", "--shapes", 3) == ((16, 2112, 7168), (8, 2112, 7168))


def test_sweep_model_and_report_on_synthetic_rows(tmp_path):
    # run_model fits the rows, fills every prediction column, and the report gives the error.
    from mxlib.tools import sweeps

    truth = replace(occ.model_params("H200"), dot_efficiency=0.05, extra_kernel_us=1.5)
    info = dict(launch_us=truth.launch_us, extra_kernel_us=truth.extra_kernel_us, copy_TBps=truth.bandwidth / 1e12,
                bf16_TFLOPs=truth.peak_flops / 1e12)
    rows = []
    for m, n, k in ((16, 2112, 7168), (64, 7168, 2048)):
        for tm, tn in ((16, 64), (32, 128)):
            for s in (1, 2, 7):
                ctas = occ.cta_count(m, n, k, tm, tn, s)
                r = dict(m=m, n=n, k=k, tile_m=tm, tile_n=tn, block_k=256, split_k=s, ctas=ctas, kernels=2 + (s > 1))
                r.update(ok=1, measured_us=occ.predict_row(r, "H200", truth).us * random.uniform(0.98, 1.02))
                rows.append(r)
    rows.append(dict(rows[0], ok=0, measured_us="", message="error: boom"))  # a failed config is left out
    summary = sweeps.run_model(rows, occ.DEVICES["H200"], info)
    assert summary["err_fit"] < 3 and summary["err_loso"] < 10 and len(summary["good"]) == 12
    assert math.isclose(summary["fitted"].dot_efficiency, 0.05, rel_tol=0.1)
    assert all(r["predicted_us"] > 0 and r["predicted_loso_us"] > 0 for r in rows[:-1])
    text = sweeps.report(rows, summary)
    assert "model median abs % error" in text and "16x2112x7168" in text
    path = sweeps.write_csv(rows, tmp_path / "s.csv")
    with open(path, newline="") as f:
        back = list(csv.DictReader(f))
    assert len(back) == 13 and back[-1]["ok"] == "0" and back[-1]["predicted_us"] != ""


def test_sweep_needs_a_gpu_unless_dry(capsys):
    import torch
    from mxlib.__main__ import main

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    assert main(["sweep"]) == 2
    assert "needs a CUDA GPU" in capsys.readouterr().err
