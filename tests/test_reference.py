"""The contest reference: golden GEMMs, input generation, and a check that catches wrong outputs."""
from types import SimpleNamespace

import pytest
import torch

import mxlib
from mxlib.spec import validate
from mxlib.spec.layouts import e8m0_shuffle, shuffle_weight
from mxlib.spec.reference import check_exact, compare, exact_errors, generate_input, ref_kernel, unpack_data

from . import golden
from .helpers import contest_tuple


@pytest.mark.parametrize("rule", ["rne", "ties_away"])
def test_golden_gemm(golden_dir, rule):
    for name in golden.gemm_cases(golden_dir, rule):
        g = golden.load(golden_dir, rule, name)
        data = golden.contest_tuple(g)
        a_q, a_s = mxlib.quantize_mxfp4(g["A_bf16_bits"], rule)
        assert torch.equal(a_q, g["A_fp4x2"]) and torch.equal(a_s, g["A_scale_e8m0"]), name
        out = mxlib.ref_kernel(data, rule)
        want = g["C_bf16_bits"]
        ok, msg = compare(out, want)
        assert ok, f"{name}: {msg}"
        # The contest's fp32 sums and mxlib's exact (fp64) sum, each rounded to bf16, agree bit for bit on every
        # golden case: no summation order moved a rounding there, so anything less is a change in the rule.
        differ = int((out.view(torch.int16) != want.view(torch.int16)).sum())
        assert differ == 0, f"{name}: {differ} of {out.numel()} elements differ from the contest's C in their bits"


def test_generate_input_contract():
    a, b, b_q, b_sh, b_s = mxlib.generate_input(8, 48, 320, seed=3)
    assert a.dtype == b.dtype == torch.bfloat16 and a.shape == (8, 320) and b.shape == (48, 320)
    q, s = mxlib.quantize_mxfp4(b)
    assert torch.equal(b_q, q)
    assert torch.equal(b_sh, mxlib.shuffle_weight(q))
    assert b_s.shape == (256, 16) and torch.equal(mxlib.e8m0_unshuffle(b_s, 48, 10), s)
    again = mxlib.generate_input(8, 48, 320, seed=3)
    other = mxlib.generate_input(8, 48, 320, seed=4)
    assert all(torch.equal(x, y) for x, y in zip((a, b, b_q, b_sh, b_s), again))
    assert not torch.equal(a, other[0])


def test_generate_input_draws_a_then_b_from_one_seeded_generator():
    g = torch.Generator().manual_seed(11)
    a = torch.randn((4, 64), dtype=torch.bfloat16, generator=g)
    b = torch.randn((16, 64), dtype=torch.bfloat16, generator=g)
    data = mxlib.generate_input(4, 16, 64, seed=11)
    assert torch.equal(data[0], a) and torch.equal(data[1], b)


@pytest.mark.parametrize("m,n,k,words", [(0, 16, 64, "m must be"), (4, 24, 64, "n must be a multiple of 16"),
                                         (4, 16, 96, "k must be a multiple of 64")])
def test_generate_input_rejects_bad_shapes(m, n, k, words):
    with pytest.raises(ValueError, match=words):
        mxlib.generate_input(m, n, k, seed=0)


def test_check_implementation_accepts_reference_and_catches_errors():
    data = mxlib.generate_input(16, 64, 512, seed=7)
    ref = mxlib.ref_kernel(data)
    assert mxlib.check_implementation(data, ref.clone())[0]

    poisoned = torch.full_like(ref, float("nan"))
    ok, msg = mxlib.check_implementation(data, poisoned)
    assert not ok and "1024 of 1024" in msg

    one_off = ref.clone()
    one_off[3, 5] += 0.5 + ref[3, 5].abs()
    ok, msg = mxlib.check_implementation(data, one_off)
    assert not ok and "1 of 1024" in msg and "(3, 5)" in msg

    assert not mxlib.check_implementation(data, ref[:, :32])[0]
    assert not mxlib.check_implementation(data, ref.float())[0]


def test_nan_matches_only_nan_and_infinities_compare_equal():
    ref = torch.tensor([[float("nan"), float("inf"), 1.0]], dtype=torch.bfloat16)
    assert compare(ref.clone(), ref)[0]
    assert not compare(torch.tensor([[0.0, float("inf"), 1.0]], dtype=torch.bfloat16), ref)[0]
    assert not compare(torch.tensor([[float("nan"), float("-inf"), 1.0]], dtype=torch.bfloat16), ref)[0]
    for finite in (1e30, 3e38, 0.0):  # a finite output where the expected value is infinite fails at any size
        assert not compare(torch.tensor([[float("nan"), finite, 1.0]], dtype=torch.bfloat16), ref)[0], finite
    assert not compare(torch.tensor([[float("nan"), 1.0, float("inf")]], dtype=torch.bfloat16), ref)[0]


def test_wrong_rounding_rule_fails_most_outputs():
    """Quantizing A ties-away against the round-half-even checker fails most outputs (KERNEL_NOTES.md,
    "Two rounding rules, and what the wrong one costs")."""
    data = mxlib.generate_input(16, 256, 1536, seed=1)
    wrong = mxlib.ref_kernel(data, "ties_away")
    ok, msg = mxlib.check_implementation(data, wrong, "rne")
    assert not ok
    frac = float(msg.split("(")[1].split("%")[0])
    assert frac > 50.0, msg


def test_b_shuffle_is_the_weight_and_b_q_must_agree():
    """Every backend computes from B_shuffle and B_scale_sh and none reads B_q, so a B_q that is not B_shuffle
    unshuffled changes no backend's answer; the reference and the checks refuse it, never silently use it."""
    a, b, b_q, b_sh, b_s = mxlib.generate_input(16, 64, 128, seed=0)
    other_q = mxlib.generate_input(16, 64, 128, seed=1)[2]
    want = mxlib.ref_kernel((a, b, b_q, b_sh, b_s))
    for backend in ("torch", "triton"):
        got = mxlib.custom_kernel((a, b, other_q, b_sh, b_s), backend=backend)
        ok, msg = mxlib.check_implementation((a, b, b_q, b_sh, b_s), got)
        assert ok, f"{backend}: {msg}"
    assert torch.equal(mxlib.custom_kernel((a, b, other_q, b_sh, b_s), backend="torch"), want)
    with pytest.raises(ValueError, match="B_q and B_shuffle disagree"):
        mxlib.ref_kernel((a, b, other_q, b_sh, b_s))
    with pytest.raises(ValueError, match="B_q and B_shuffle disagree"):
        mxlib.check_implementation((a, b, other_q, b_sh, b_s), want)


def test_unpack_data_rejects_inconsistent_tuples():
    a, b, b_q, b_sh, b_s = mxlib.generate_input(4, 32, 256, seed=0)
    for short_or_long in ((a, b, b_q), (a, b, b_q, b_sh, b_s, a)):
        with pytest.raises(TypeError, match="5-tuple"):
            unpack_data(short_or_long)
    with pytest.raises(ValueError, match=r"A and B_shuffle disagree on K: .*it must be \(N, K/2\)"):
        unpack_data((a, b, b_q, b_sh[:, :64], b_s))
    with pytest.raises(ValueError, match=r"B_scale_sh must have shape"):
        unpack_data((a, b, b_q, b_sh, b_s[:, :4]))
    with pytest.raises(TypeError, match="A must be bfloat16"):
        unpack_data((a.int(), b, b_q, b_sh, b_s))
    with pytest.raises(ValueError, match=r"A.shape\[1\] \(K\) must be a positive multiple of 64"):
        unpack_data((a[:, :32], b, b_q, b_sh, b_s))
    with pytest.raises(ValueError, match=r"B_q must have shape"):
        unpack_data((a, b, b_q[:16], b_sh, b_s))
    with pytest.raises(ValueError, match=r"B must have shape \(N, K\)"):
        unpack_data((a, b[:, :64], b_q, b_sh, b_s))
    with pytest.raises(ValueError, match=r"B_shuffle.shape\[0\] \(N\) must be a positive multiple of 16"):
        unpack_data((a, b, b_q, b_sh[:8], b_s))
    # K = 0 and N = 0 are multiples of 64 and 16 but no GEMM: refused by the same rules (M = 0 is allowed).
    with pytest.raises(ValueError, match=r"A.shape\[1\] \(K\) must be a positive multiple of 64, got 0"):
        unpack_data((a[:, :0], b, b_q, b_sh, b_s))
    with pytest.raises(ValueError, match=r"B_shuffle.shape\[0\] \(N\) must be a positive multiple of 16, got 0"):
        unpack_data((a, b, b_q, b_sh[:0], b_s))


def test_operands_of_more_than_two_dimensions_are_refused_by_name():
    """Every operand is 2-D: an extra leading dimension is refused naming the operand and the rule,
    not left to a later shape check or a failed unpacking."""
    a, b, b_q, b_sh, b_s = mxlib.generate_input(4, 32, 256, seed=0)
    with pytest.raises(ValueError, match=r"A must be 2-D, got shape \(1, 4, 256\)"):
        unpack_data((a[None], b, b_q, b_sh, b_s))
    with pytest.raises(ValueError, match=r"B_shuffle must be 2-D, got shape \(1, 32, 128\)"):
        unpack_data((a, b, b_q, b_sh[None], b_s))


def test_signed_bytes_are_not_accepted_as_fp4_or_e8m0_bytes():
    """B's byte operands are uint8 or torch's fp4x2 / e8m0 views: an int8 tensor (one byte, but signed) is
    a TypeError naming the operand."""
    a, b, b_q, b_sh, b_s = mxlib.generate_input(4, 32, 256, seed=0)
    with pytest.raises(TypeError, match="B_shuffle must hold bytes"):
        unpack_data((a, b, b_q, b_sh.view(torch.int8), b_s))
    with pytest.raises(TypeError, match="B_scale_sh must hold bytes"):
        unpack_data((a, b, b_q, b_sh, b_s.view(torch.int8)))


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the CPU default")
def test_check_command_runs_the_kernels_on_cpu(capsys):
    """On the CPU, plain `check` runs the Triton kernels (interpreter) on small shapes, names the
    backend and path of every row, and checks with the rule custom_kernel quantizes by."""
    from mxlib.__main__ import main

    assert main(["check"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.startswith("small")]
    assert len(rows) == 5 and "5 passed, 0 failed" in out
    assert all(r[5] == "triton" and r[6] in ("asm", "ck", "splitk", "fused") and r[7] == "yes" for r in rows), out
    with pytest.raises(SystemExit):
        main(["check", "--rounding", "ties_away"])  # custom_kernel has one rule: no option to check another


def _tie_data():
    """Row r of C is 1 + t_r + u_r exactly (A: 1 in block 0, t_r in block 1, u_r in block 2; B's row 0 all
    ones in those blocks), so any fp32 order of sums is exact and bf16's rounding alone decides the bits."""
    t = [2.0**-8, 3 * 2.0**-8, 2.0**-9, 5 * 2.0**-9, 2.0**-8, 0.0]
    u = [0.0, 0.0, 0.0, 0.0, 2.0**-30, 0.0]
    a = torch.zeros(len(t), 128)
    a[:, 0], a[:, 32], a[:, 64] = 1.0, torch.tensor(t), torch.tensor(u)
    b = torch.zeros(16, 128)
    b[0, :96] = 1.0
    return contest_tuple(a, b)


def test_reference_rounds_the_exact_sum_to_bf16_half_even():
    """1 + 2**-8 ties down to 1, 1 + 3 * 2**-8 up to 1 + 2**-6; 1 + 2**-8 + 2**-30 is 1 + 2**-8 in fp32 (the
    contest's fp32 accumulation) and then ties down."""
    c = mxlib.ref_kernel(_tie_data())[:, 0].float().tolist()
    assert c == [1.0, 1.0 + 2.0**-6, 1.0, 1.0 + 2.0**-7, 1.0, 1.0], c


def test_check_exact_rejects_poisoned_and_slightly_wrong_outputs():
    """The oracle of the special-value and fuzz tests must fail what it exists to catch: an output of NaN or
    of Inf, one 2**-5 off everywhere (zeros replaced by 1), NaN where the exact result is +Inf, and an output
    of the wrong dtype or shape (an answer saying so, as check_implementation gives, not an exception)."""
    data = mxlib.generate_input(8, 64, 256, 3)
    ref = mxlib.ref_kernel(data)
    assert mxlib.check_exact(data, ref)[0]
    off = (ref.float() * (1 + 2.0**-5)).to(torch.bfloat16)
    off[ref == 0] = 1.0
    for bad in (torch.full_like(ref, float("nan")), torch.full_like(ref, float("inf")), off):
        assert not mxlib.check_exact(data, bad)[0]
    for bad in (ref.float(), ref[:, :32]):
        ok, msg = mxlib.check_exact(data, bad)
        assert not ok and "output must be a bfloat16 (8, 64) tensor" in msg, msg
    from mxlib.spec.layouts import e8m0_shuffle, shuffle_weight

    g = torch.Generator().manual_seed(5)
    a = torch.randn(2, 64, generator=g) * 2.0**-20
    a[0, :32] = 0.0
    a[0, 3] = 1.8 * 2.0**127  # its block dequantizes to +Inf
    b = torch.randn(16, 64, generator=g).abs() + 0.5  # positive, no zero codes
    b_q, b_s = mxlib.quantize_mxfp4(b)
    data = (a.to(torch.bfloat16), b.to(torch.bfloat16), b_q, shuffle_weight(b_q), e8m0_shuffle(b_s))
    ref = mxlib.ref_kernel(data)
    assert ref[0].isposinf().all() and mxlib.check_exact(data, ref)[0]
    bad = ref.clone()
    bad[0] = float("nan")
    assert not mxlib.check_exact(data, bad)[0]


def test_generate_input_quantizes_b_with_the_rounding_it_is_given():
    data = mxlib.generate_input(4, 32, 256, 3, rounding="ties_away")
    assert torch.equal(data[2], mxlib.quantize_mxfp4(data[1], "ties_away")[0])
    assert not torch.equal(data[2], mxlib.quantize_mxfp4(data[1], "rne")[0])


def _single_product_data(va: float, vb: float):
    """A (1, 64) and B (16, 64) with one nonzero element each in column 0: C[0, n] = va * vb exactly, and the
    sum of the products' magnitudes T is |C| (no cancellation), so check_exact's bound is RTOL * |C| (+ tiny)."""
    a = torch.zeros(1, 64)
    a[0, 0] = va
    b = torch.zeros(16, 64)
    b[:, 0] = vb
    return contest_tuple(a, b)


def test_check_exact_allows_one_bf16_ulp_and_refuses_two():
    data = _single_product_data(1.0, 1.0)
    ref = ref_kernel(data)
    assert (ref == 1.0).all()
    assert check_exact(data, torch.full_like(ref, 1.0 + 2.0**-7))[0]      # one ulp: the two roundings
    assert not check_exact(data, torch.full_like(ref, 1.0 + 2.0**-6))[0]  # two ulps: a wrong result


def test_a_non_finite_output_fails_where_the_terms_stay_below_fp32_max():
    data = _single_product_data(2.0**62, 2.0**62)  # C = 2**124, finite; T = 2**124 < fp32 max
    ref = ref_kernel(data)
    assert ref.isfinite().all() and check_exact(data, ref)[0]
    assert not check_exact(data, torch.full_like(ref, float("inf")))[0]
    assert not check_exact(data, torch.full_like(ref, float("nan")))[0]


def test_a_non_finite_output_passes_where_the_terms_reach_exactly_fp32_max():
    """T reaching fp32's range, the bound included, lets an fp32 sum overflow: 24 blocks of A holding 2**104 ..
    2**127 against B of -1 (+1 for the 2**127 block) give T = 2**128 - 2**104, exactly fp32's max, and a
    finite exact C of 2**104; NaN and either infinity pass there."""
    a = torch.zeros(1, 24 * 32)
    for j in range(24):
        a[0, 32 * j] = 2.0 ** (104 + j)
    b = -torch.ones(16, 24 * 32)
    b[:, 23 * 32:] = 1.0
    data = contest_tuple(a, b)
    e = exact_errors(data, torch.zeros(1, 16, dtype=torch.bfloat16))
    assert torch.equal(e["terms"], torch.full((1, 16), torch.finfo(torch.float32).max, dtype=torch.float64))
    assert torch.equal(e["ref"], torch.full((1, 16), 2.0**104, dtype=torch.float64))
    for value in (float("nan"), float("inf"), float("-inf")):
        assert check_exact(data, torch.full((1, 16), value, dtype=torch.bfloat16))[0], value


def test_check_implementation_checks_against_the_rounding_it_is_given():
    """A of 5.0 everywhere is a midpoint of FP4 codes (rne gives 4, ties_away 6): the ties_away reference
    passes check_implementation under "ties_away" only."""
    data = contest_tuple(torch.full((1, 64), 5.0), torch.ones(16, 64))
    away = ref_kernel(data, "ties_away")
    assert not torch.equal(away, ref_kernel(data, "rne"))
    assert mxlib.check_implementation(data, away, "ties_away")[0] and not mxlib.check_implementation(data, away, "rne")[0]


def test_compare_measures_rtol_against_the_expected_value():
    # |out - ref| = 10.1 > atol + rtol * |ref| = 10.01, though <= atol + rtol * |out| = 10.111
    assert not compare(torch.tensor([1010.1]), torch.tensor([1000.0]))[0]
    assert compare(torch.tensor([1010.0]), torch.tensor([1000.0]))[0]


def test_seed_takes_every_uint64():
    """Every uint64 is taken; torch's CPU generator reads it modulo 2**63 (generate_input's docstring), so 2**63
    draws what 0 does and 2**63 - 1 what 2**64 - 1 does, and no two seeds below 2**63 draw the same."""
    a = {seed: mxlib.generate_input(4, 16, 64, seed)[0] for seed in (0, 1, 2**63 - 1, 2**63, 2**64 - 1)}
    assert all(t.shape == (4, 64) for t in a.values())
    assert torch.equal(a[0], a[2**63]) and torch.equal(a[2**63 - 1], a[2**64 - 1])
    assert not torch.equal(a[0], a[1]) and not torch.equal(a[0], a[2**63 - 1])


def test_b_and_b_q_on_another_device_are_refused_by_name():
    a, b, b_q, b_sh, b_s = generate_input(4, 32, 256, 0)
    with pytest.raises(ValueError, match="A and B must be on the same device"):
        unpack_data((a, b.to("meta"), b_q, b_sh, b_s))
    with pytest.raises(ValueError, match="A and B_q must be on the same device"):
        unpack_data((a, b, b_q.to("meta"), b_sh, b_s))
    # two GPUs of one kind are two devices (stand-ins: torch.device needs no GPU; the rule reads .device only)
    gpu0, gpu1 = (SimpleNamespace(device=torch.device("cuda", i)) for i in (0, 1))
    with pytest.raises(ValueError, match="must be on the same device, got cuda:0 and cuda:1"):
        validate.same_device(gpu0, gpu1, "A", "B")
    validate.same_device(gpu0, SimpleNamespace(device=torch.device("cuda:0")), "A", "B")


def test_a_term_beyond_fp64s_53_bits_moves_the_reference_one_bf16_step_and_check_exact_allows_it():
    """The module docstring's limit of the fp64 sum: 1 + 2**-8 + 2**-24 + 2**-80 is just above a tie in fp32
    (exactly, C = 1 + 2**-7), but fp64 drops 2**-80, both roundings tie to even and ref_kernel gives 1."""
    a = torch.zeros(1, 128)
    a[0, 0], a[0, 32], a[0, 64], a[0, 96] = 1.0, 2.0**-8, 2.0**-24, 2.0**-80  # one power of two per block
    b = torch.zeros(16, 128)
    b[:, [0, 32, 64, 96]] = 1.0
    data = contest_tuple(a, b)
    ref = ref_kernel(data)
    assert (ref == 1.0).all()
    assert check_exact(data, torch.full_like(ref, 1.0 + 2.0**-7))[0]


def test_check_exact_allows_k_ulps_of_the_terms_magnitude_and_no_more():
    """C = 0 exactly with T = sum |a b| = 2048 over K = 2048: the fp32-order allowance K * 2**-23 * T is 0.5,
    so 0.5 passes and 1.0 does not (a looser allowance would let real errors through at long K)."""
    k = 2048
    a = torch.tensor([1.0, -1.0]).repeat(k // 2).reshape(1, k).to(torch.bfloat16)
    b = torch.ones(16, k, dtype=torch.bfloat16)
    b_q, b_s = mxlib.quantize_mxfp4(b)
    data = (a, b, b_q, shuffle_weight(b_q), e8m0_shuffle(b_s))
    assert check_exact(data, torch.full((1, 16), 0.5, dtype=torch.bfloat16))[0]
    assert not check_exact(data, torch.full((1, 16), 1.0, dtype=torch.bfloat16))[0]
