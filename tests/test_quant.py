"""The quantization spec against the golden vectors, an independent float64 oracle, and its edge cases."""
import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import mxlib
from mxlib.spec import formats
from mxlib.spec.formats import E2M1_MAGNITUDES, pack_nibbles, unpack_nibbles
from mxlib.spec.quant import block_exponent, round_to_e2m1

from . import golden

RULES = ("rne", "ties_away")


# ---- an independent oracle, written from the definition in float64 ----

def oracle_code(v: float, rule: str) -> int:
    """Nearest E2M1 magnitude to |v| with the rule's tie break, saturating at 6; sign per rule."""
    a = abs(v)
    dist = [abs(a - g) for g in E2M1_MAGNITUDES]
    best = min(dist)
    ties = [i for i, d in enumerate(dist) if d == best]
    if a >= 6.0:  # saturation (also keeps float64 distances from tying for huge a)
        code = 7
    elif len(ties) == 1:
        code = ties[0]
    elif rule == "rne":
        code = next(i for i in ties if i % 2 == 0)
    else:
        code = max(ties)
    negative = math.copysign(1.0, v) < 0 if rule == "rne" else v < 0
    return code | (8 * negative)


def oracle_exponent(amax: float) -> int:
    if amax == 0:
        return -127
    p = math.floor(math.log2(amax))
    if amax / 2.0**p >= 1.75:  # the +0x200000 carry: mantissa fraction >= 0.75 rounds up
        p += 1
    if p > 127:  # in fp32 that carry reaches the Inf exponent, and log2(inf) - 2 clamps to 127 (aiter's op too)
        return 127
    return max(-127, min(127, p - 2))


def oracle_quantize(x: torch.Tensor, rule: str):
    xs = x.double().numpy()
    m, k = xs.shape
    codes = np.zeros((m, k), dtype=np.uint8)
    scales = np.zeros((m, k // 32), dtype=np.uint8)
    for i in range(m):
        for j in range(k // 32):
            blk = xs[i, 32 * j: 32 * j + 32]
            e = oracle_exponent(float(np.abs(blk).max()))
            scales[i, j] = e + 127
            for t, v in enumerate(blk):
                codes[i, 32 * j + t] = oracle_code(float(v) / 2.0**e, rule)
    return pack_nibbles(torch.from_numpy(codes)), torch.from_numpy(scales)


# ---- golden vectors ----

@pytest.mark.parametrize("rule", RULES)
def test_golden_random_bit_exact(golden_dir, rule):
    g = golden.load(golden_dir, rule, "quant_random_64x1024")
    q, s = mxlib.quantize_mxfp4(g["x_bf16_bits"], rule)
    assert torch.equal(q, g["x_fp4x2"])
    assert torch.equal(s, g["x_scale_e8m0"])
    assert torch.equal(mxlib.e8m0_shuffle(s), g["x_scale_e8m0_shuffled"])


@pytest.mark.parametrize("rule", RULES)
def test_golden_special_bit_exact(golden_dir, rule):
    """Adversarial first blocks (zeros, ties, tiny, huge, ramp, round-up, wide span): every byte exact,
    except rows 4, 14 (+Inf) and 5, 15 (NaN) whose first block is implementation-defined."""
    g = golden.load(golden_dir, rule, "quant_special_20x256")
    q, s = mxlib.quantize_mxfp4(g["x_bf16_bits"], rule)
    nonfinite_rows = [r for r in range(20) if r % 10 in (4, 5)]
    finite = torch.ones(20, dtype=torch.bool)
    finite[nonfinite_rows] = False
    assert torch.equal(q[finite], g["x_fp4x2"][finite])
    assert torch.equal(s[finite], g["x_scale_e8m0"][finite])
    # The rest of the non-finite rows is ordinary data and must match too.
    assert torch.equal(q[~finite][:, 16:], g["x_fp4x2"][~finite][:, 16:])
    assert torch.equal(s[~finite][:, 1:], g["x_scale_e8m0"][~finite][:, 1:])
    # mxlib's rule for a block holding NaN or Inf: scale 255 (E8M0 NaN), codes 0.
    assert (s[~finite][:, 0] == 255).all()
    assert (q[~finite][:, :16] == 0).all()


# ---- element rounding: exhaustive over bf16, against the definition ----

@pytest.mark.parametrize("rule", RULES)
def test_element_rounding_exhaustive_bf16(rule):
    bits = torch.arange(-32768, 32768, dtype=torch.int32).to(torch.int16)
    vals = bits.view(torch.bfloat16).float()
    vals = vals[torch.isfinite(vals)]
    got = round_to_e2m1(vals, rule)
    want = torch.tensor([oracle_code(v, rule) for v in vals.tolist()], dtype=torch.uint8)
    bad = (got != want).nonzero().flatten()
    assert bad.numel() == 0, f"{bad.numel()} mismatches, first at {vals[bad[:5]].tolist()}"


@pytest.mark.parametrize("rule,ties", [
    ("rne", {0.25: 0, 0.75: 2, 1.25: 2, 1.75: 4, 2.5: 4, 3.5: 6, 5.0: 6}),
    ("ties_away", {0.25: 1, 0.75: 2, 1.25: 3, 1.75: 4, 2.5: 5, 3.5: 6, 5.0: 7}),
])
def test_tie_table(rule, ties):
    v = torch.tensor(list(ties))
    assert round_to_e2m1(v, rule).tolist() == list(ties.values())
    assert round_to_e2m1(-v, rule).tolist() == [c | 8 for c in ties.values()]


def test_signs_of_zero():
    v = torch.tensor([0.0, -0.0, -0.1, 0.1, -1e-30])
    assert round_to_e2m1(v, "rne").tolist() == [0, 8, 8, 0, 8]
    assert round_to_e2m1(v, "ties_away").tolist() == [0, 0, 8, 0, 8]


def test_saturation_at_six():
    v = torch.tensor([5.5, 6.0, 7.0, 1e30, -1e30, float(torch.finfo(torch.float32).max)])
    for rule in RULES:
        assert round_to_e2m1(v, rule).tolist() == [7, 7, 7, 7, 15, 7]


# ---- scales: the amax round-up and the clamp ----

@settings(max_examples=200, deadline=None)
@given(p=st.integers(-140, 127), frac_bits=st.integers(0, (1 << 23) - 1))
def test_block_exponent_matches_definition(p, frac_bits):
    amax = float(np.float32(2.0**p * (1 + frac_bits / 2.0**23)))
    if not math.isfinite(amax) or amax == 0:
        return
    got = int(block_exponent(torch.tensor([amax], dtype=torch.float32))[0])
    assert got == oracle_exponent(amax)


@pytest.mark.parametrize("p", [-126, -40, -3, 0, 1, 7, 60, 126])
def test_roundup_boundary_at_1_75(p):
    """amax just below 1.75 * 2**p keeps exponent p; from 1.75 * 2**p on it scales like 2**(p+1)."""
    at = torch.tensor([1.75 * 2.0**p], dtype=torch.float32)
    below = torch.nextafter(at, torch.zeros_like(at))
    assert int(block_exponent(below)[0]) == max(-127, p - 2)
    assert int(block_exponent(at)[0]) == min(127, max(-127, p - 1))


def test_exponent_extremes():
    f32 = torch.finfo(torch.float32)
    cases = {0.0: -127, 2.0**-149: -127, f32.tiny: -127, 2.0**-124: -126, f32.max: 127, 2.0**127: 125}
    got = block_exponent(torch.tensor(list(cases), dtype=torch.float32)).tolist()
    assert got == list(cases.values())


# ---- whole quantizer: fresh random inputs against the oracle ----

@settings(max_examples=100, deadline=None)
@given(m=st.integers(1, 4), kb=st.integers(1, 3), log_scale=st.integers(-133, 124), seed=st.integers(0, 2**31 - 1),
       dtype=st.sampled_from([torch.bfloat16, torch.float16, torch.float32]), rule=st.sampled_from(RULES))
def test_quantize_matches_oracle(m, kb, log_scale, seed, dtype, rule):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(m, 32 * kb, generator=g) * 2.0**log_scale
    if dtype == torch.float16:
        x = x.clamp(-60000, 60000)
    x = x.to(dtype)
    q, s = mxlib.quantize_mxfp4(x, rule)
    oq, os_ = oracle_quantize(x, rule)
    assert torch.equal(s, os_)
    assert torch.equal(q, oq)


def test_ties_in_blocks_follow_the_rule():
    """Blocks with amax 6 (scale 1) holding every midpoint: the two rules must differ exactly there."""
    mids = torch.tensor([0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0])
    row = torch.cat([torch.tensor([6.0]), mids, -mids, torch.zeros(32 - 15)])
    x = row.reshape(1, 32).to(torch.bfloat16)
    (q_rne, s_rne), (q_ta, s_ta) = (mxlib.quantize_mxfp4(x, r) for r in RULES)
    assert s_rne.item() == s_ta.item() == 127
    c_rne, c_ta = unpack_nibbles(q_rne)[0], unpack_nibbles(q_ta)[0]
    assert c_rne[1:8].tolist() == [0, 2, 2, 4, 4, 6, 6]
    assert c_ta[1:8].tolist() == [1, 2, 3, 4, 5, 6, 7]


def test_nonfinite_blocks_dequantize_to_nan():
    x = torch.randn(3, 96)
    x[0, 5] = float("nan")
    x[1, 40] = float("inf")
    x[2, 70] = float("-inf")
    for rule in RULES:
        q, s = mxlib.quantize_mxfp4(x.to(torch.bfloat16), rule)
        assert s[0, 0] == 255 and s[1, 1] == 255 and s[2, 2] == 255
        d = mxlib.dequantize_mxfp4(q, s)
        assert d[0, :32].isnan().all() and d[1, 32:64].isnan().all() and d[2, 64:].isnan().all()
        assert torch.isfinite(d[0, 32:]).all() and torch.isfinite(d[1, :32]).all()


def test_subnormal_inputs_are_values():
    """A block of fp32 subnormals: amax field 0 -> e = -127; x * 2**127 is exact and rounds normally."""
    x = torch.full((1, 32), 2.0**-130, dtype=torch.float32)
    x[0, 1] = 2.0**-126 * 0.75  # subnormal-range value that scales to 0.75 * 2 = 1.5 -> code 3
    q, s = mxlib.quantize_mxfp4(x, "rne")
    assert s.item() == 0
    codes = unpack_nibbles(q)[0]
    assert codes[0].item() == 0 and codes[1].item() == 3


def test_zero_block():
    q, s = mxlib.quantize_mxfp4(torch.zeros(2, 64, dtype=torch.bfloat16))
    assert (s == 0).all() and (q == 0).all()


# ---- dequantization ----

@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), rule=st.sampled_from(RULES))
def test_requantizing_a_dequantized_block_is_identity(seed, rule):
    """Blocks whose largest code is 4 or 6 (magnitude code >= 6) re-quantize to the same bytes, at every scale
    byte from 0 (2**-127, where the block's amax is at least 2**-125, a normal float) to 252."""
    g = torch.Generator().manual_seed(seed)
    codes = torch.randint(0, 16, (4, 64), generator=g, dtype=torch.uint8)
    if rule == "ties_away":
        codes[codes == 8] = 0  # -0.0 loses its sign under ties_away
    codes[:, 0] = 6
    codes[:, 32] = 15
    scales = torch.randint(0, 253, (4, 2), generator=g, dtype=torch.uint8)  # 6 * 2**126 overflows fp32
    scales[0, 0] = 0  # the smallest scale in every example
    q = pack_nibbles(codes)
    d = mxlib.dequantize_mxfp4(q, scales)
    q2, s2 = mxlib.quantize_mxfp4(d, rule)
    assert torch.equal(s2, scales) and torch.equal(q2, q)


def test_dequantize_values():
    q = pack_nibbles(torch.arange(16, dtype=torch.uint8).repeat(2).reshape(1, 32))
    d = mxlib.dequantize_mxfp4(q, torch.tensor([[128]], dtype=torch.uint8))
    want = torch.tensor(list(E2M1_MAGNITUDES) + [-v for v in E2M1_MAGNITUDES]) * 2
    assert torch.equal(d[0, :16], want)
    assert d.dtype == torch.float32
    assert mxlib.dequantize_mxfp4(q, torch.tensor([[0]], dtype=torch.uint8))[0, 2].item() == 2.0**-127
    assert mxlib.dequantize_mxfp4(q, torch.tensor([[127]]).to(torch.uint8), torch.bfloat16).dtype == torch.bfloat16
    # Scale byte 255 is NaN whatever the codes (not Inf: Inf * 0 would hide the difference only at code 0).
    assert mxlib.dequantize_mxfp4(q, torch.tensor([[255]], dtype=torch.uint8)).isnan().all()
    with pytest.raises(ValueError, match="q and scales must be on the same device"):
        mxlib.dequantize_mxfp4(q, torch.tensor([[127]], dtype=torch.uint8, device="meta"))


@pytest.mark.gpu
@pytest.mark.parametrize("rule", RULES)
def test_cpu_and_cuda_give_identical_bytes(golden_dir, rule):
    x = torch.randn(64, 1024) * torch.logspace(-30, 30, 64).unsqueeze(1)
    special = golden.load(golden_dir, rule, "quant_special_20x256")["x_bf16_bits"]
    for inp in (x.to(torch.bfloat16), x, special):
        qc, sc = mxlib.quantize_mxfp4(inp, rule)
        qg, sg = mxlib.quantize_mxfp4(inp.cuda(), rule)
        assert torch.equal(qc, qg.cpu()) and torch.equal(sc, sg.cpu())


# ---- bad input ----

@pytest.mark.parametrize("x,exc,words", [
    (torch.zeros(64), ValueError, "x must be 2-D"),
    (torch.zeros(2, 64, dtype=torch.int32), TypeError, "x must be bfloat16"),
    (torch.zeros(2, 48), ValueError, "multiple of 32"),
    ([[0.0] * 32], TypeError, "torch.Tensor"),
    (torch.zeros(2, 32, device="meta"), ValueError, "x is a meta tensor"),
])
def test_quantize_rejects_bad_input(x, exc, words):
    with pytest.raises(exc, match=words):
        mxlib.quantize_mxfp4(x)


def test_quantize_rejects_unknown_rounding():
    with pytest.raises(ValueError, match="rounding must be one of"):
        mxlib.quantize_mxfp4(torch.zeros(1, 32), rounding="nearest")


@pytest.mark.parametrize("q,s,exc,words", [
    (torch.zeros(2, 16, dtype=torch.uint8), torch.zeros(2, 2, dtype=torch.uint8), ValueError, r"scales must have shape \(M, K/32\)"),
    (torch.zeros(2, 16, dtype=torch.int32), torch.zeros(2, 1, dtype=torch.uint8), TypeError, "q must hold bytes"),
    (torch.zeros(2, 16, dtype=torch.uint8), torch.zeros(2, 1), TypeError, "scales must hold bytes"),
    (torch.zeros(16, dtype=torch.uint8), torch.zeros(1, 1, dtype=torch.uint8), ValueError, "q must be 2-D"),
    (torch.zeros(2, 12, dtype=torch.uint8), torch.zeros(2, 0, dtype=torch.uint8), ValueError, "multiple of 32"),
    (torch.zeros(4, 8, dtype=torch.uint8), torch.zeros(4, 0, dtype=torch.uint8), ValueError, r"q must hold .* K = 16"),
])
def test_dequantize_rejects_bad_input(q, s, exc, words):
    with pytest.raises(exc, match=words):
        mxlib.dequantize_mxfp4(q, s)


@pytest.mark.parametrize("codes, exc, words", [
    (torch.tensor([[1, 2, 3]]), ValueError, "last dimension must be even"),
    (torch.tensor([[1, 16]]), ValueError, r"codes must be in 0\.\.15"),
    (torch.tensor([[-1, 2]]), ValueError, r"codes must be in 0\.\.15"),
    (torch.tensor([[1.0, 2.0]]), TypeError, "codes must be an integer tensor"),
])
def test_pack_nibbles_refuses_codes_it_would_pack_wrong(codes, exc, words):
    with pytest.raises(exc, match=words):
        pack_nibbles(codes)


def test_e8m0_to_float32_takes_bytes_only():
    assert torch.equal(mxlib.e8m0_to_float32(torch.tensor([127, 128], dtype=torch.uint8)), torch.tensor([1.0, 2.0]))
    for bad in (torch.tensor([1.5, 300.0]), torch.tensor([127], dtype=torch.int32)):
        with pytest.raises(TypeError, match="scales must hold bytes"):
            mxlib.e8m0_to_float32(bad)


def test_pack_nibbles_refuses_a_0d_tensor_by_name():
    with pytest.raises(ValueError, match="codes' last dimension must be even"):
        formats.pack_nibbles(torch.tensor(3))


def test_pow2_float32_refuses_minus_128():
    assert formats.pow2_float32(torch.tensor([-127])).item() == 2.0**-127
    with pytest.raises(ValueError, match=r"exponent must be in \[-127, 127\]"):
        formats.pow2_float32(torch.tensor([-128]))


def test_round_to_e2m1_refuses_an_unknown_rule():
    with pytest.raises(ValueError, match="rounding must be one of"):
        round_to_e2m1(torch.tensor([1.25]), "nearest")
