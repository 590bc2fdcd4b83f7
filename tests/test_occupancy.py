"""mxlib.tools.occupancy: the seed's occupancy numbers, aiter's split-K and ASM-tile arithmetic, the latency model
(the sweep that measures against it: tests/test_sweeps.py)."""
import math
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
    # what the seed's config actually runs (KERNEL_NOTES.md, "aiter's quantizer and GEMMs, read from its source")
    (7, 119, 46.5, 90.2, 1),
    (14, 238, 93.0, 90.2, 2),  # what its header says: two waves on the H200's 132 SMs
])
def test_seed_numbers_fall_out(split_k, ctas, pct_mi355x, pct_h200, waves_h200):
    n = occ.cta_count(*SEED_SHAPE, 32, 128, split_k)
    assert n == ctas
    assert round(100 * occ.cu_utilization(n, "MI355X"), 1) == pct_mi355x
    assert occ.waves(n, "MI355X") == 1
    assert round(100 * occ.cu_utilization(n, "H200"), 1) == pct_h200
    assert occ.waves(n, "H200") == waves_h200


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
# The latency model


def test_prior_reproduces_its_source():
    # dot_efficiency's prior is solved from the naive kernel's 61.5 us (KERNEL_NOTES.md, "The H200's
    # ceilings (measured)"): the model gives it back.
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
    assert occ.predict(*SEED_SHAPE, 16, 128, 8).us > occ.predict(*SEED_SHAPE, 16, 128, 7).us
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
    assert max(abs(occ.predict_row(r, "H200", fitted).us / float(r["measured_us"]) - 1) for r in rows) < 1e-11
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


def test_bytes_in_flight_littles_law():
    # the seed's split-K GEMM step: 16x128 tile, BLOCK_K 512, A handed over as fp4 + scales
    assert occ.step_bytes(16, 128, 512) == 16 * 256 + 16 * 16 + 128 * 256 + 128 * 16
    assert occ.step_bytes(16, 64, 128, "bf16") == 16 * 128 * 2 + 64 * 64 + 64 * 4
    assert occ.gemm_read_bytes(4, 2880, 512) == occ.step_bytes(4, 2880, 512)
    assert occ.operand_step_bytes(16, 64, 128, "bf16") == (16 * 128 * 2, 64 * 64 + 64 * 4)
    # 119 CTAs on 256 CUs, one step each: all of them at once; the 7 K slices' A tiles once each, 119 B tiles
    assert occ.in_flight_bytes(119, 4, "MI355X", 10, 1000, a_tiles=7, b_tiles=119) == 7 * 10 + 119_000
    # residency caps the CTAs (2 x 132 of 1000), and then the distinct tiles among them
    assert occ.in_flight_bytes(1000, 2, "H200", 10, 1000, a_tiles=4, b_tiles=250, stages=2) == 2 * (4 * 10 + 250 * 1000)
    assert occ.in_flight_bytes(1000, 2, "H200", 10, 1000, a_tiles=1000, b_tiles=1000) == 264 * 1010
    with pytest.raises(ValueError, match="a_tiles"):
        occ.in_flight_bytes(10, 1, "H200", 10, 10, a_tiles=0, b_tiles=1)
    assert occ.latency_covered_us(8e6, 8e12) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="a_format"):
        occ.step_bytes(16, 64, 128, "e4m3")
    with pytest.raises(ValueError, match="block_k must be a multiple of 32"):
        occ.step_bytes(16, 64, 48)
    with pytest.raises(ValueError, match="bandwidth > 0"):
        occ.latency_covered_us(1, 0)


def test_residency_counts_a_partial_wave_group_and_the_reserved_shared_memory():
    """gfx950: a CTA of 6 waves puts 2 on some SIMD (ceil(6 / 4)), so 8 waves a SIMD hold 4 such CTAs;
    sm_90: each CTA's shared memory costs 1 KB more than it asks, so 57 KB CTAs fit 3 in 228 KB, not 4."""
    amd = occ.residency(occ.KernelResources("gfx950", num_warps=6, registers=64, agprs=0, shared_bytes=0))
    assert (amd.ctas, amd.waves_per_simd) == (4, 8)
    nv = occ.residency(occ.KernelResources("sm_90", num_warps=4, registers=32, agprs=0, shared_bytes=57 * 1024))
    assert (nv.ctas, nv.limited_by) == (3, "shared")


def test_rounds_with_residency():
    assert occ.rounds(238, 1, "H200") == 2 == occ.waves(238, "H200")  # the one-CTA view: a second wave
    assert occ.rounds(238, 2, "H200") == 1  # two resident per SM: all 238 at once
    assert occ.rounds(119, 1, "MI355X") == 1 and occ.rounds(513, 2, "MI355X") == 2
    with pytest.raises(ValueError, match="resident_per_unit must be a positive integer"):
        occ.rounds(10, 0, "H200")


@settings(max_examples=200, deadline=None)
@given(kg=st.integers(1, 512), split_k=st.integers(1, 64), bg=st.integers(1, 64))
def test_k_steps_is_one_count_however_k_is_cut(kg, split_k, bg):
    # mxlib's split-K kernel cuts K in scale groups, fused in block_k steps: for K and block_k multiples of 32
    # both give ceil(K / (split_k * block_k)) steps per CTA, and k_computed is that many whole steps per slice.
    k, block_k = 32 * kg, 32 * bg
    steps = occ.k_steps(k, split_k, block_k)
    assert steps == math.ceil(k / (split_k * block_k)) == math.ceil(math.ceil(k / block_k) / split_k)
    assert occ.k_computed(k, split_k, block_k) == split_k * steps * block_k and occ.k_computed(k, split_k) == k
    with pytest.raises(ValueError, match="block_k must be a positive integer"):
        occ.k_steps(k, split_k, 0)


def test_predict_with_two_resident_ctas_shares_the_sm_between_them():
    """119 CTAs fit 132 SMs one each whatever the residency; 238 CTAs at two a SM are one round with every SM
    busy, two CTAs sharing each SM's peak (N padded to 17 tiles of 128)."""
    model = replace(occ.model_params("H200"), dot_efficiency=1.0)
    one = occ.predict(16, 2112, 7168, 16, 128, 7, model=model)
    assert occ.predict(16, 2112, 7168, 16, 128, 7, model=model, resident=2) == one
    p = occ.predict(16, 2112, 7168, 16, 128, 14, model=model, resident=2)
    per_cta = 2 * 16 * 2176 * 7168 / 238
    assert p.waves == 1 and p.utilization == 1.0
    assert p.compute_us == pytest.approx(2 * per_cta / (model.peak_flops / 132) * 1e6)


def test_sm90_residency_by_warps():
    r = occ.residency(occ.KernelResources("sm_90", num_warps=32, registers=16, agprs=0, shared_bytes=0))
    assert (r.ctas, r.limited_by) == (2, "waves")  # 64 warps an SM


def _gfx(num_warps, registers, agprs=0, shared=0, accum_offset=None):
    return occ.residency(occ.KernelResources("gfx950", num_warps, registers, agprs, shared, accum_offset))


def _sm90(num_warps, registers, shared=0):
    return occ.residency(occ.KernelResources("sm_90", num_warps, registers, 0, shared))


# ---------------------------------------------------------------------------------------------------------
# residency(), gfx950


def test_gfx950_agprs_start_at_accum_offset():
    """Fact (residency docstring, LLVM AMDGPUUsage gfx90a+): AGPRs follow the arch VGPRs from
    accum_offset in one unified file, so a wave's footprint is accum_offset + agprs (104 + 152 = 256 -> 2 waves
    a SIMD of 512 VGPRs), even when `registers` gives only the arch VGPRs."""
    r = _gfx(4, registers=102, agprs=152, accum_offset=104)
    assert r.waves_per_simd == 512 // 256 == 2
    assert (r.ctas, r.limited_by) == (2, "registers")


def test_gfx950_registers_already_include_the_agprs():
    """Fact (KernelResources: `registers` is the total per lane, arch + AGPRs): without accum_offset the
    AGPRs are not added again; 128 VGPRs in all give 512 // 128 = 4 waves a SIMD."""
    r = _gfx(4, registers=128, agprs=64)
    assert r.waves_per_simd == 4 and r.ctas == 4


@pytest.mark.parametrize("num_warps, registers, want", [
    (6, 96, 2),  # 96 VGPRs: 5 waves a SIMD; 6 waves put 2 on some SIMD (ceil(6/4)): 5 // 2 = 2 CTAs
    (2, 96, 5),  # 2 waves: 1 on each of two SIMDs; 5 waves a SIMD: 5 CTAs
])
def test_gfx950_a_cta_puts_ceil_w_over_4_waves_on_a_simd(num_warps, registers, want):
    """Fact (residency docstring): a CTA of W waves puts ceil(W / 4) waves on each SIMD, so the register
    limit is (waves a SIMD holds) // ceil(W / 4), not the CU's total wave slots divided by W."""
    r = _gfx(num_warps, registers)
    assert r.waves_per_simd == 512 // 96 == 5
    assert (r.ctas, r.limited_by) == (want, "registers")


def test_gfx950_lds_is_allocated_in_1280_byte_blocks():
    """LLVM AMDGPUUsage (COMPUTE_PGM_RSRC2.LDS_SIZE, GFX950: roundup(lds-size / (320 * 4))): 32 KiB of LDS take
    26 blocks, 33280 bytes, and 160 KiB hold 4 such workgroups (5 by the exact bytes)."""
    r = _gfx(4, 64, shared=32768)
    assert (r.ctas, r.limited_by) == (4, "shared")
    assert _gfx(4, 64, shared=25 * 1280).ctas == 5  # a whole number of blocks: 163840 // 32000


# ---------------------------------------------------------------------------------------------------------
# residency(), sm_90


def test_sm90_registers_are_allocated_per_warp_in_steps_of_256():
    """Fact (UNIT_LIMITS sm_90 source, NVIDIA occupancy calculator / cuda_occupancy.h: register allocation
    granularity 256 per warp): 36 registers a thread are 1152 a warp, allocated as 1280; 16384 // 1280 = 12 a
    sub-partition, 48 an SM, 12 CTAs of 4 warps (without the rounding 14 a sub-partition would give 14)."""
    r = _sm90(4, 36)
    assert (r.ctas, r.limited_by) == (4 * (16384 // 1280) // 4, "registers") == (12, "registers")


def test_sm90_warp_limit_rounds_down():
    """Fact (CUDA C++ Programming Guide, cc 9.0: 64 resident warps an SM): CTAs of 3 warps fit 21 at once
    (63 warps), not 22 (66 warps)."""
    r = _sm90(3, 16)
    assert (r.ctas, r.limited_by) == (21, "waves")
    assert r.ctas * 3 <= 64 < (r.ctas + 1) * 3


def test_sm90_registers_come_from_four_sub_partitions():
    """NVIDIA's cuda_occupancy.h (cc 9.0): a warp's registers (rounded up to 256) come from one of 4
    sub-partitions of 16384, so each holds whole warps: 40 registers are 1280 a warp, 12 a sub-partition, 48 an
    SM, 24 CTAs of 2 warps (65536 // 1280 = 51 would say 25); 200 are 6400 a warp, 2 a sub-partition, one CTA
    of 5 warps (not 2)."""
    assert (_sm90(2, 40).ctas, _sm90(2, 40).limited_by) == (24, "registers")
    assert _sm90(5, 200).ctas == 1
    assert _sm90(8, 128).ctas == 2  # a multiple of 4 warps fills the sub-partitions evenly: 65536 // (8 * 4096)


def test_sm90_shared_memory_is_allocated_in_128_byte_steps():
    """NVIDIA's cuda_occupancy.h (cc 9.0): a CTA's shared memory plus the 1 KB reserve rounds up to 128 bytes:
    45600 + 1024 = 46624 takes 46720, 4 of them in 228 KB (233472 // 46624 would say 5)."""
    r = _sm90(4, 32, shared=45600)
    assert (r.ctas, r.limited_by) == (4, "shared")
    assert _sm90(4, 32, shared=45696 - 1024).ctas == 5  # exactly 357 steps of 128: 233472 // 45696 = 5


# ---------------------------------------------------------------------------------------------------------
# residency(): argument checks


def test_residency_refuses_an_unknown_target():
    """Fact (residency's contract, UNIT_LIMITS' keys): only gfx950 and sm_90 have limits; any other target
    is a ValueError naming them (not a KeyError)."""
    with pytest.raises(ValueError, match="target must be one of gfx950, sm_90, got 'gfx942'"):
        occ.residency(occ.KernelResources("gfx942", 4, 64, 0, 0))


@pytest.mark.parametrize("target", ["gfx950", "sm_90"])
@pytest.mark.parametrize("num_warps", [0, -4])
def test_residency_refuses_a_cta_of_no_warps(target, num_warps):
    """Fact: a CTA has at least one wave/warp; num_warps <= 0 is refused as a ValueError (positive()), not
    answered with a ZeroDivisionError or a negative CTA count."""
    with pytest.raises(ValueError, match="num_warps must be a positive integer"):
        occ.residency(occ.KernelResources(target, num_warps, 64, 0, 0))


# ---------------------------------------------------------------------------------------------------------
# Little's law and the latency model


def test_no_bytes_in_flight_cover_no_latency():
    """Fact (latency_covered_us' contract: bytes_in_flight >= 0 is accepted): nothing in flight covers a
    round trip of 0 us, not an error."""
    assert occ.latency_covered_us(0, 4.28e12) == 0.0


def test_traffic_counts_a_bf16_b_fp4_its_e8m0_scales_and_c_bf16():
    """Fact (module docstring: bytes = A (bf16) + B (fp4) + B scales + C (bf16)): A is 2 bytes a
    value, B half a byte, one E8M0 scale byte per 32 values of B, C 2 bytes a value; no partials unsplit."""
    m, n, k = 16, 2112, 7168
    assert occ.traffic_bytes(m, n, k) == m * k * 2 + n * k // 2 + n * (k // 32) + m * n * 2
    # one more row of B adds its K/2 fp4 bytes and K/32 scale bytes, one more row of A 2K + 2N bytes
    assert occ.traffic_bytes(m, n + 1, k) - occ.traffic_bytes(m, n, k) == k // 2 + k // 32 + 2 * m
    assert occ.traffic_bytes(m + 1, n, k) - occ.traffic_bytes(m, n, k) == 2 * k + 2 * n


def test_predict_computes_padded_k_steps():
    """Fact (predict docstring: `block_k` counts K padded to whole steps, `k_computed`; module docstring:
    padded K steps are computed too): 14 slices of 7168 are 512 values each, one step of block_k 1024 each,
    so twice the dot work of unpadded K."""
    model = occ.model_params("H200")
    padded = occ.predict(16, 2112, 7168, 16, 128, 14, model=model, block_k=1024)
    plain = occ.predict(16, 2112, 7168, 16, 128, 14, model=model)
    assert occ.k_computed(7168, 14, 1024) == 2 * 7168
    assert padded.compute_us == pytest.approx(2 * plain.compute_us)


def test_predict_computes_padded_m_tiles():
    """Fact (module docstring: t_compute = 2 * M_pad * N_pad * K_pad / ...: padded tiles are computed
    too): M = 1 in tiles of 16 costs the compute of M = 16."""
    one = occ.predict(1, 2112, 7168, 16, 64, kernels=1)
    sixteen = occ.predict(16, 2112, 7168, 16, 64, kernels=1)
    assert one.compute_us == pytest.approx(sixteen.compute_us)


def test_bandwidth_saturates_at_bw_saturation():
    """Fact (module docstring: t_memory = bytes / (bandwidth * min(1, u / bw_saturation))): with half the
    units saturating HBM, a launch with u >= 0.5 streams at the full bandwidth, and one with u = 0.25 at half."""
    model = replace(occ.model_params("H200"), bw_saturation=0.5)
    full = occ.predict(16, 2112, 7168, 16, 16, model=model)  # 132 tiles: u = 1
    assert full.utilization == 1.0
    assert full.memory_us == pytest.approx(occ.traffic_bytes(16, 2112, 7168) / model.bandwidth * 1e6)
    quarter = occ.predict(16, 2112, 7168, 16, 16, model=model, ctas=33)  # u = 33 / 132
    assert quarter.utilization == 0.25
    assert quarter.memory_us == pytest.approx(2 * full.memory_us)


def test_predict_launches_one_kernel_without_split_k():
    """Fact (predict docstring: `kernels` defaults to 1, or 2 with split-K): unsplit, the overhead is one
    launch; split, a launch and one extra kernel."""
    model = occ.model_params("H200")
    assert occ.predict(16, 2112, 7168, 32, 128, model=model).overhead_us == model.launch_us
    assert occ.predict(16, 2112, 7168, 32, 128, 2, model=model).overhead_us == model.launch_us + model.extra_kernel_us


def test_model_params_refuse_non_finite_numbers():
    """Fact (ModelParams' contract: every figure a finite non-negative number): inf and nan are refused."""
    base = occ.model_params("H200")
    for bad in (math.inf, math.nan):
        with pytest.raises(ValueError, match="finite non-negative"):
            replace(base, bandwidth=bad)
        with pytest.raises(ValueError, match="finite non-negative"):
            replace(base, launch_us=bad)


def test_fit_keeps_the_h200_prior_of_bw_saturation_when_no_row_constrains_it():
    """Fact (fit docstring: a parameter the rows do not constrain keeps its prior; DEVICES' H200 prior for
    bw_saturation is 1.0, its grid runs 0.05..1.0): compute-bound rows leave bw_saturation at 1.0."""
    base = occ.model_params("H200")
    assert base.bw_saturation == 1.0
    truth = replace(base, dot_efficiency=0.1)
    rows = []
    for m, n, k, tm, tn, s in ((16, 2112, 7168, 16, 64, 1), (16, 2112, 7168, 16, 128, 7), (64, 7168, 2048, 64, 128, 1)):
        ctas = occ.cta_count(m, n, k, tm, tn, s)
        p = occ.predict(m, n, k, tm, tn, s, model=truth)
        assert p.compute_us > p.memory_us  # compute-bound: the times say nothing of bw_saturation
        rows.append(dict(m=m, n=n, k=k, tile_m=tm, tile_n=tn, split_k=s, ctas=ctas, kernels=2 if s > 1 else 1,
                         measured_us=p.us))
    fitted = occ.fit(rows, "H200", replace(base, dot_efficiency=0.01))
    assert fitted.bw_saturation == 1.0
    assert math.isclose(fitted.dot_efficiency, 0.1, rel_tol=1e-9)
