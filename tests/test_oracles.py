"""The oracles every kernel test leans on, pinned at their edges: `ref_kernel`'s exact accumulation,
`check_exact`'s tolerances on both sides, and the contest check's rtol = atol = 1e-2 written out as
numbers (not read back from the module's constants)."""
import random

import torch

from mxlib.spec.reference import check_exact, check_implementation, compare, generate_input, ref_kernel

from .helpers import contest_tuple, fresh_seed


def test_ref_kernel_sums_exactly():
    """2**p, 1 and -2**p in three 32-blocks of one row (each exact after quantization: one value per block),
    B all ones: the sum is 1 (fp64 holds 2**p + 1 for p <= 52); an fp32 accumulation in K order loses the 1
    (2**p + 1 rounds to 2**p)."""
    p = random.SystemRandom().randrange(26, 53)  # 2**p + 1 is exact in fp64
    a = torch.zeros(2, 128)
    a[0, 0], a[0, 32], a[0, 64] = 2.0**p, 1.0, -(2.0**p)
    a[1, 5], a[1, 40], a[1, 100] = -(2.0**p), 1.0, 2.0**p
    data = contest_tuple(a, torch.ones(16, 128))
    c = ref_kernel(data)
    assert torch.equal(c, torch.ones(2, 16, dtype=torch.bfloat16)), (p, c[:, 0])


def bf16_step(x: torch.Tensor, direction: float) -> torch.Tensor:
    """The neighbouring bf16 value of each element of bf16 `x` towards `direction` (+inf or -inf)."""
    return torch.nextafter(x, torch.full_like(x, direction))


def test_check_exact_tolerance_on_both_sides():
    """EXACT_RTOL is 2**-7: one bf16 step either way (at most 2**-7 of |ref|) and ref * (1 +- 2**-9) pass;
    ref * (1 +- 2**-6), at least 1.5 * 2**-7 off after bf16 rounding, and two steps either way (more than
    2**-7 of |ref| wherever |ref|'s significand is below 2) fail. At K = 256 the accumulation allowance
    is far below one step for most elements."""
    seed = fresh_seed()
    data = generate_input(8, 64, 256, seed)
    ref = ref_kernel(data)
    assert ref.isfinite().all()
    for ok_out in (ref, bf16_step(ref, float("inf")), bf16_step(ref, float("-inf")),
                   (ref.double() * (1 + 2.0**-9)).to(torch.bfloat16), (ref.double() * (1 - 2.0**-9)).to(torch.bfloat16)):
        ok, msg = check_exact(data, ok_out)
        assert ok, f"seed {seed}: {msg}"
    for factor in (1 + 2.0**-6, 1 - 2.0**-6):
        assert not check_exact(data, (ref.double() * factor).to(torch.bfloat16))[0], (seed, factor)
    for direction in (float("inf"), float("-inf")):
        assert not check_exact(data, bf16_step(bf16_step(ref, direction), direction))[0], (seed, direction)


def test_check_exact_on_real_zero_outputs():
    """Rows of A that are all zero give exact zeros with no terms: there only EXACT_ATOL (2**-132) is
    allowed. 2**-132 passes; 2**-131 and 1.0 fail, with every other element exact."""
    seed = fresh_seed()
    a, b, b_q, b_shuffle, b_scale_sh = generate_input(6, 32, 128, seed)
    a = a.clone()
    zero_rows = random.Random(seed).sample(range(6), 2)
    a[zero_rows] = 0.0
    data = (a, b, b_q, b_shuffle, b_scale_sh)
    ref = ref_kernel(data)
    assert (ref[zero_rows] == 0).all() and (ref != 0).sum() > 100
    for value, want in ((2.0**-132, True), (2.0**-131, False), (1.0, False), (-(2.0**-131), False)):
        out = ref.clone()
        out[zero_rows[0], random.Random(seed).randrange(32)] = value
        assert check_exact(data, out)[0] == want, (seed, value)


def test_check_exact_where_the_terms_pass_fp32s_range_accepts_any_non_finite_output_and_no_finite_one():
    """A row of A holding 1.5 * 2**127 twice (finite after quantization), B all ones: the exact sum
    3 * 2**127 is past fp32's range, so ref is +Inf and T >= fp32's max. There an fp32 accumulation may
    overflow either way: NaN and -Inf pass as well as +Inf; a finite output (zero, fp32's max) still fails."""
    a = torch.zeros(1, 64)
    a[0, 0] = a[0, 1] = 1.5 * 2.0**127
    data = contest_tuple(a, torch.ones(16, 64))
    ref = ref_kernel(data)
    assert ref.isposinf().all()
    for value in (float("inf"), float("nan"), float("-inf")):
        assert check_exact(data, torch.full_like(ref, value))[0], value
    for value in (0.0, torch.finfo(torch.bfloat16).max):
        assert not check_exact(data, torch.full_like(ref, value))[0], value


def test_check_exact_catches_one_dropped_k_group_at_large_k():
    """K = 7168: the exact result with one 32-wide K group left out (A's block zeroed) fails, although the
    allowance for fp32 accumulation (K * 2**-23 of the sum of |products|) grows with K."""
    seed = fresh_seed()
    data = generate_input(4, 32, 7168, seed)
    group = random.Random(seed).randrange(7168 // 32)
    a = data[0].clone()
    a[:, 32 * group:32 * (group + 1)] = 0.0
    dropped = ref_kernel((a,) + data[1:])
    assert check_exact(data, ref_kernel(data))[0]
    assert not check_exact(data, dropped)[0], (seed, group)


def test_contest_compare_at_its_boundaries():
    """|out - ref| <= 1e-2 + 1e-2 * |ref|, the contest's rtol and atol, at literal values in fp32."""
    cases = [  # (ref, accepted, rejected)
        (0.0, 0.0099, 0.0101),
        (0.0, -0.0099, -0.0101),
        (1.0, 1.0199, 1.0201),
        (-1.0, -0.9801, -0.9799),
        (1000.0, 1010.009, 1010.011),
        (-1000.0, -989.991, -989.989),
    ]
    for ref, good, bad in cases:
        expected = torch.tensor([ref], dtype=torch.float32)
        assert compare(torch.tensor([good], dtype=torch.float32), expected)[0], (ref, good)
        assert not compare(torch.tensor([bad], dtype=torch.float32), expected)[0], (ref, bad)


def test_contest_check_at_its_boundaries():
    """check_implementation on bf16 outputs at exact reference values 0 and 1 (A row 1 holds a single 1.0,
    B is all ones; A row 0 is zero): 0.009765625 and 1.0078125 pass, 0.0101318359375 and 1.0234375 fail."""
    a = torch.zeros(2, 64)
    a[1, random.SystemRandom().randrange(64)] = 1.0
    data = contest_tuple(a, torch.ones(16, 64))
    ref = ref_kernel(data)
    assert torch.equal(ref.float(), torch.tensor([[0.0], [1.0]]).expand(2, 16))
    for row, value, want in ((0, 0.009765625, True), (0, -0.009765625, True), (0, 0.0101318359375, False),
                             (1, 1.0078125, True), (1, 0.9921875, True), (1, 1.0234375, False),
                             (1, 0.9765625, False)):
        out = ref.clone()
        out[row, 3] = value
        assert out[row, 3].item() == value  # exact in bf16
        assert check_implementation(data, out)[0] == want, (row, value)


def test_compare_accepts_an_error_equal_to_its_bound():
    """The bound is inclusive (<=, as torch.allclose): |1.75 - 1| = 0.75 = 0.25 + 0.5 * 1 exactly in binary
    passes; 1.875, one binary step further, fails."""
    expected = torch.tensor([1.0])
    assert compare(torch.tensor([1.75]), expected, rtol=0.5, atol=0.25)[0]
    assert not compare(torch.tensor([1.875]), expected, rtol=0.5, atol=0.25)[0]
