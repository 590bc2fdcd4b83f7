"""The Triton quant kernels (natural and fused quant+shuffle scales) are bit-exact with mxlib.spec.quant's
torch spec, NaN/Inf rule included, for both rounding rules, on golden, random and adversarial input.

On a machine without a GPU they run in Triton's interpreter (tests/conftest.py sets TRITON_INTERPRET).
Inputs go to the kernel as they are, bf16 subnormals included: the kernel widens bf16 by shifting bits,
so the interpreter's bf16 -> fp32 cast bug (KERNEL_NOTES.md, "Triton on sm_90 and in the interpreter") is
never on the path and nothing is widened here.
"""
import os

import pytest
import torch

from mxlib.runtime.quant import quantize_mxfp4, quantize_mxfp4_shuffled
from mxlib.spec.formats import unpack_nibbles

from . import golden
from .helpers import fresh_seed

RULES = ("rne", "ties_away")
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def assert_same(x: torch.Tensor, rule: str, what: str = "") -> None:
    """Both Triton kernels give every byte the torch spec gives (scale padding included)."""
    x = x.to(DEVICE)
    for fn in (quantize_mxfp4, quantize_mxfp4_shuffled):
        want_q, want_s = fn(x, rule)
        got_q, got_s = fn(x, rule, backend="triton")
        assert got_q.dtype == torch.uint8 and got_s.dtype == torch.uint8
        assert got_q.shape == want_q.shape and got_s.shape == want_s.shape
        bad_q = (got_q != want_q).nonzero()[:5].tolist()
        bad_s = (got_s != want_s).nonzero()[:5].tolist()
        assert not bad_q and not bad_s, f"{fn.__name__} {rule} {what}: codes differ at {bad_q}, scales at {bad_s}"


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("name", ["quant_special_20x256", "quant_random_64x1024"])
def test_golden_inputs(golden_dir, rule, name):
    case = golden.load(golden_dir, rule, name)
    assert_same(case["x_bf16_bits"], rule, name)


@pytest.mark.parametrize("rule", RULES)
def test_golden_bytes_outside_nan_rows(golden_dir, rule):
    """Independent truth too: outside the Inf/NaN rows (implementation-defined there) the golden bytes."""
    case = golden.load(golden_dir, rule, "quant_special_20x256")
    q, s = quantize_mxfp4(case["x_bf16_bits"].to(DEVICE), rule, backend="triton")
    rows = [r for r in range(q.shape[0]) if r % 10 not in (4, 5)]
    assert torch.equal(q.cpu()[rows], case["x_fp4x2"][rows])
    assert torch.equal(s.cpu()[rows], case["x_scale_e8m0"][rows])


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("dtype,bits", [(torch.bfloat16, torch.int16), (torch.float16, torch.int16),
                                        (torch.float32, torch.int32)])
def test_random_bit_patterns(rule, dtype, bits):
    """Every bit pattern of the dtype: NaNs, infinities, subnormals, -0.0, every exponent."""
    seed = fresh_seed()
    g = torch.Generator().manual_seed(seed)
    info = torch.iinfo(bits)
    m = 1 + seed % 29  # odd and even row counts, M = 1 included over runs
    x = torch.randint(info.min, info.max, (m, 192), dtype=bits, generator=g).view(dtype)
    assert_same(x, rule, f"seed {seed}")


@pytest.mark.parametrize("rule", RULES)
def test_randn_wide_scales(rule):
    """Ordinary values with a different power-of-two scale per row, across the whole fp32 range."""
    seed = fresh_seed()
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(24, 256, generator=g) * torch.exp2(torch.randint(-140, 126, (24, 1), generator=g).float())
    assert_same(x, rule, f"seed {seed}")
    assert_same(x.to(torch.bfloat16), rule, f"bf16 seed {seed}")


@pytest.mark.parametrize("rule", RULES)
def test_adversarial_blocks(rule):
    """Hand-made blocks at the edges of the rules (one 32-block per row)."""
    mids = torch.tensor([0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0])
    rows = []
    for e in (-127, -126, -100, -1, 0, 1, 60, 125):  # ties scaled by 2**e with amax pinning the scale
        blk = torch.zeros(32)
        blk[0] = 4.0
        blk[1:8] = mids
        blk[8:15] = -mids
        blk[15] = -0.0
        rows.append(blk * 2.0**e)
    huge = torch.full((32,), -2.0**-30)  # q = x * 2**-125 underflows to -0.0: ties_away's sign is 0
    huge[0] = 2.0**127
    rows.append(huge)
    unit = torch.zeros(32)  # e = 0: q = x, so even fp32's smallest subnormal stays negative (sign 1)
    unit[0] = 4.0
    unit[1] = -(2.0**-149)
    rows.append(unit)
    top = torch.full((32,), 1.0e-30)
    top[0] = 1.75 * 2.0**127  # amax rounds up into the Inf exponent: e = 127
    top[1] = -3.0e38
    rows.append(top)
    sub = torch.zeros(32)
    sub[:8] = torch.tensor([1e-45, -1e-45, 2e-45, 6e-39, -6e-39, 1.1e-38, 3e-39, -0.0])  # subnormal amax
    rows.append(sub)
    special = torch.ones(32)
    special[3] = float("nan")
    rows.append(special)
    inf = torch.ones(32)
    inf[31] = float("-inf")
    rows.append(inf)
    rows.append(torch.zeros(32))
    rows.append(-torch.zeros(32))
    x = torch.stack(rows)
    assert_same(x, rule, "adversarial fp32")
    assert_same(x.to(torch.bfloat16), rule, "adversarial bf16")
    if rule == "ties_away":  # the cases the kernel's underflow rule exists for
        q, _ = quantize_mxfp4(x.to(DEVICE), rule, backend="triton")
        assert int(q[8, 1]) & 0x8 == 0
        assert int(q[9, 0]) >> 4 == 0x8  # element 1 (high nibble of byte 0): -0 code, not +0


@pytest.mark.parametrize("rule", RULES)
def test_every_output_byte_is_written(rule, monkeypatch):
    """The kernels' byte outputs start as 0xEE instead of whatever memory held, so a block whose codes or
    scale are not stored (a NaN block's zero codes, an all-zero block, a padding scale) fails here every
    time instead of only when the allocator hands back the wrong leftovers."""
    real_empty = torch.empty

    def poisoned(*args, **kwargs):
        t = real_empty(*args, **kwargs)
        if t.dtype == torch.uint8:
            t.fill_(0xEE)
        return t

    monkeypatch.setattr(torch, "empty", poisoned)
    assert torch.empty(2, dtype=torch.uint8).tolist() == [0xEE, 0xEE]
    test_adversarial_blocks(rule)
    assert_same(torch.randn(33, 2080), rule, "33x2080, padded scale rows and columns")
    # (256 - M) * 8 padding scale bytes (K = 32: one column, padded to 8) just past a multiple of a padding
    # program's 1024, 1032 and 8: the last padding program has a single row to write.
    for m in (127, 255):
        assert_same(torch.randn(m, 32, generator=torch.Generator().manual_seed(m)), rule, f"{m}x32")


def test_shapes_strides_and_padding():
    """M = 1, odd M, M > 256 (two scale tiles of rows), K not a multiple of 256 (column padding),
    and a non-contiguous input."""
    for m, k in ((1, 32), (3, 96), (257, 64), (33, 2080)):
        assert_same(torch.randn(m, k), "rne", f"{m}x{k}")
    base = torch.randn(128, 40)
    assert_same(base.t(), "ties_away", "transposed view")  # (40, 128) with strides (1, 40)
    assert_same(torch.randn(6, 256, dtype=torch.bfloat16)[:, 64:192], "rne", "column slice")


def test_fresh_outputs():
    x = torch.randn(4, 64).to(DEVICE)
    q1, s1 = quantize_mxfp4_shuffled(x, backend="triton")
    q2, s2 = quantize_mxfp4_shuffled(x, backend="triton")
    assert q1.data_ptr() != q2.data_ptr() and s1.data_ptr() != s2.data_ptr()
    assert torch.equal(q1, q2) and torch.equal(s1, s2)


def test_bad_inputs():
    x = torch.randn(4, 64).to(DEVICE)
    with pytest.raises(ValueError, match="backend must be one of 'torch', 'triton', got 'cuda'"):
        quantize_mxfp4(x, backend="cuda")
    with pytest.raises(ValueError, match="rounding must be one of 'rne', 'ties_away', got 'nearest'"):
        quantize_mxfp4(x, "nearest", backend="triton")
    with pytest.raises(ValueError, match="multiple of 32"):
        quantize_mxfp4_shuffled(torch.randn(4, 48).to(DEVICE), backend="triton")
    with pytest.raises(TypeError, match="bfloat16, float16 or float32"):
        quantize_mxfp4(torch.ones(4, 64, dtype=torch.int32).to(DEVICE), backend="triton")
    with pytest.raises(ValueError, match="2-D"):
        quantize_mxfp4_shuffled(torch.randn(64).to(DEVICE), backend="triton")
    # Offsets past int32 are refused before anything runs (this A has no memory behind it).
    far = torch.empty(0, dtype=torch.bfloat16, device=DEVICE).set_(torch.UntypedStorage(0, device=DEVICE), 0,
                                                                   (2**16 + 1, 2**15), (2**15, 1))
    with pytest.raises(ValueError, match=r"past 2\*\*31"):
        quantize_mxfp4(far, backend="triton")


def test_both_quantizers_refuse_an_unknown_backend():
    """quantize_mxfp4 and quantize_mxfp4_shuffled each name their backends: any other is a ValueError,
    never a silent fall back to the torch spec."""
    x = torch.randn(4, 64).to(DEVICE)
    for fn in (quantize_mxfp4, quantize_mxfp4_shuffled):
        with pytest.raises(ValueError, match="backend must be one of 'torch', 'triton', got 'cuda'"):
            fn(x, backend="cuda")


def test_cpu_tensor_without_interpreter(monkeypatch):
    monkeypatch.setitem(os.environ, "TRITON_INTERPRET", "0")
    with pytest.raises(ValueError, match="TRITON_INTERPRET"):
        quantize_mxfp4(torch.randn(4, 64), backend="triton")


def test_backend_triton_runs_the_kernels_quantizers(monkeypatch):
    """backend="triton" runs mxlib.kernels.quant_triton's two entry points with the rounding asked for, not
    the spec they are compared with (a bytes-equal comparison of the backends would then hold vacuously)."""
    import mxlib.kernels.quant_triton as kernels
    from mxlib.spec import quant as spec

    calls = []
    for name in ("mxq_quantize", "mxq_quantize_shuffled"):
        monkeypatch.setattr(kernels, name, lambda x, rounding="rne", _real=getattr(kernels, name), _name=name:
                            calls.append((_name, rounding)) or _real(x, rounding))
    x = torch.randn(4, 64, dtype=torch.bfloat16).to(DEVICE)
    for got, want in ((quantize_mxfp4(x, "ties_away", backend="triton"), spec.quantize_mxfp4(x, "ties_away")),
                      (quantize_mxfp4_shuffled(x, "ties_away", backend="triton"),
                       spec.quantize_mxfp4_shuffled(x, "ties_away"))):
        assert all(torch.equal(g, w) for g, w in zip(got, want))
    assert calls == [("mxq_quantize", "ties_away"), ("mxq_quantize_shuffled", "ties_away")]


def test_the_kernels_quantizer_refuses_a_tensor_triton_cannot_run_on_by_name():
    """mxq_quantize checks its input's device itself, not only through quantize_mxfp4's backend rule."""
    from mxlib.kernels.quant_triton import mxq_quantize

    with pytest.raises(ValueError, match="x is on meta: the Triton kernels need a CUDA/ROCm tensor"):
        mxq_quantize(torch.empty(4, 64, dtype=torch.bfloat16, device="meta"))


def test_ties_away_sign_at_the_underflow_threshold_for_every_small_e():
    """For each e in 1..29 (amax 2**(e+2)), elements at -2**(e-150) (q underflows to -0.0: code 0 under
    ties_away) and just above it (q is the smallest negative subnormal: code 8)."""
    rows = []
    for e in range(1, 30):
        blk = torch.zeros(32)
        blk[0] = 2.0**(e + 2)
        t = torch.tensor(2.0**(e - 150), dtype=torch.float32)
        blk[1] = -t
        blk[2] = -torch.nextafter(t, torch.tensor(1.0))
        blk[3] = -torch.nextafter(t, torch.tensor(0.0))
        rows.append(blk)
    x = torch.stack(rows)
    assert_same(x, "ties_away", "underflow thresholds")
    assert_same(x, "rne", "underflow thresholds")
    # The codes themselves (E2M1 code 0 is +0, code 8 is -0), so that the spec and the kernels cannot be wrong
    # together: under ties_away the threshold and the element below it get code 0, the one above it code 8; under
    # rne all three get code 8.
    for rule, want in (("ties_away", [0, 8, 0]), ("rne", [8, 8, 8])):
        codes = unpack_nibbles(quantize_mxfp4(x.to(DEVICE), rule, backend="triton")[0].cpu())[:, 1:4]
        assert (codes == torch.tensor(want, dtype=codes.dtype)).all(), (rule, codes.unique(dim=0).tolist())


def test_packed_codes_past_int32_offsets_are_refused_before_any_allocation(monkeypatch):
    """A broadcast A (rows sharing memory) can span little and still need packed-code offsets past 2**31."""
    x = torch.zeros(1, 2 ** 15, dtype=torch.bfloat16).expand(2 ** 17, 2 ** 15)

    def no_alloc(*args, **kwargs):
        raise RuntimeError("allocated: the check came too late")

    monkeypatch.setattr(torch, "empty", no_alloc)
    with pytest.raises(ValueError, match=r"packed codes .* below 2\*\*31"):
        quantize_mxfp4(x, backend="triton")
