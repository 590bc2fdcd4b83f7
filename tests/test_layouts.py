"""Each layout against its closed-form byte positions (here, in mxlib.spec.layouts and in the Triton
address helpers), its inverse, and the golden shuffles."""
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import triton
import triton.language as tl

import mxlib
from mxlib.kernels.common import mx_shuffled_scale_col, mx_shuffled_scale_row, mx_shuffled_weight_col
from mxlib.kernels.common import mx_shuffled_weight_row
from mxlib.spec import layouts

from . import golden


def weight_position(n, kb, Kb):
    return (n // 16) * 16 * Kb + (kb // 32) * 512 + ((kb % 32) // 16) * 256 + (n % 16) * 16 + kb % 16


def scale_position(m, n, sn):
    return (m // 32) * 32 * sn + (n // 8) * 256 + (n % 4) * 64 + (m % 16) * 4 + ((n % 8) // 4) * 2 + (m % 32) // 16


def random_bytes(shape, seed):
    return torch.randint(0, 256, shape, dtype=torch.uint8, generator=torch.Generator().manual_seed(seed))


@settings(max_examples=30, deadline=None)
@given(n16=st.integers(1, 6), kb32=st.integers(1, 4), seed=st.integers(0, 2**31 - 1))
def test_shuffle_weight_closed_form_and_inverse(n16, kb32, seed):
    N, Kb = 16 * n16, 32 * kb32
    q = random_bytes((N, Kb), seed)
    s = mxlib.shuffle_weight(q)
    n, kb = torch.meshgrid(torch.arange(N), torch.arange(Kb), indexing="ij")
    expect = torch.empty(N * Kb, dtype=torch.uint8)
    expect[weight_position(n, kb, Kb).flatten()] = q.flatten()
    assert torch.equal(s.flatten(), expect)
    assert torch.equal(mxlib.unshuffle_weight(s), q)
    assert torch.equal(mxlib.shuffle_weight(mxlib.unshuffle_weight(q)), q)


@settings(max_examples=30, deadline=None)
@given(rows=st.integers(1, 600), cols=st.integers(1, 40), seed=st.integers(0, 2**31 - 1))
def test_e8m0_shuffle_closed_form_padding_and_inverse(rows, cols, seed):
    s = random_bytes((rows, cols), seed)
    sh = mxlib.e8m0_shuffle(s)
    sm, sn = -(-rows // 256) * 256, -(-cols // 8) * 8
    assert sh.shape == (sm, sn)
    padded = torch.full((sm, sn), 127, dtype=torch.uint8)
    padded[:rows, :cols] = s
    m, n = torch.meshgrid(torch.arange(sm), torch.arange(sn), indexing="ij")
    expect = torch.empty(sm * sn, dtype=torch.uint8)
    expect[scale_position(m, n, sn).flatten()] = padded.flatten()
    assert torch.equal(sh.flatten(), expect)
    assert torch.equal(mxlib.e8m0_unshuffle(sh, rows, cols), s)


def test_shuffled_tensors_are_fresh_and_keep_dtype():
    """Both shuffles and their inverses return a fresh contiguous tensor of the input's byte dtype (uint8,
    or torch's fp4x2 / e8m0 views, as aiter hands them out), with the bytes the uint8 call gives."""
    q = random_bytes((32, 64), 0)
    s = mxlib.shuffle_weight(q)
    assert s.data_ptr() != q.data_ptr() and s.dtype == torch.uint8
    if hasattr(torch, "float4_e2m1fn_x2"):
        f = q.view(torch.float4_e2m1fn_x2)
        assert mxlib.shuffle_weight(f).dtype == torch.float4_e2m1fn_x2
        assert torch.equal(mxlib.shuffle_weight(f).view(torch.uint8), s)
        u = mxlib.unshuffle_weight(s.view(torch.float4_e2m1fn_x2))
        assert u.dtype == torch.float4_e2m1fn_x2 and torch.equal(u.view(torch.uint8), q)
    scales = random_bytes((300, 11), 1)  # 11 columns of 16 after padding: the inverse slices columns off
    sh = mxlib.e8m0_shuffle(scales)
    back = mxlib.e8m0_unshuffle(sh, 300, 11)
    assert back.data_ptr() != sh.data_ptr() and back.is_contiguous() and torch.equal(back, scales)
    if hasattr(torch, "float8_e8m0fnu"):
        e = mxlib.e8m0_shuffle(scales.view(torch.float8_e8m0fnu))
        assert e.dtype == torch.float8_e8m0fnu and torch.equal(e.view(torch.uint8), sh)
        back = mxlib.e8m0_unshuffle(e, 300, 11)
        assert back.dtype == torch.float8_e8m0fnu and back.is_contiguous()
        assert torch.equal(back.view(torch.uint8), scales)


@pytest.mark.parametrize("rule", ["rne", "ties_away"])
def test_golden_shuffles(golden_dir, rule):
    for name in golden.gemm_cases(golden_dir, rule):
        g = golden.load(golden_dir, rule, name)
        assert torch.equal(mxlib.shuffle_weight(g["B_fp4x2"]), g["B_shuffle"]), name
        assert torch.equal(mxlib.e8m0_shuffle(g["B_scale_e8m0"]), g["B_scale_shuffled"]), name
        assert torch.equal(mxlib.e8m0_shuffle(g["A_scale_e8m0"]), g["A_scale_shuffled"]), name
        n, c = g["B_scale_e8m0"].shape
        assert torch.equal(mxlib.e8m0_unshuffle(g["B_scale_shuffled"], n, c), g["B_scale_e8m0"]), name


@pytest.mark.parametrize("shape,words", [((24, 32), r"N\) must be a multiple of 16"), ((16, 48), r"K/2\) must be a multiple of 32")])
def test_shuffle_weight_rejects_bad_shapes(shape, words):
    with pytest.raises(ValueError, match=words):
        mxlib.shuffle_weight(torch.zeros(shape, dtype=torch.uint8))
    with pytest.raises(ValueError, match=words):
        mxlib.unshuffle_weight(torch.zeros(shape, dtype=torch.uint8))


def test_layouts_reject_bad_dtypes_and_ndim():
    with pytest.raises(TypeError, match="q must hold bytes"):
        mxlib.shuffle_weight(torch.zeros(16, 32))
    with pytest.raises(ValueError, match="q must be 2-D"):
        mxlib.shuffle_weight(torch.zeros(16, 32, 1, dtype=torch.uint8))
    with pytest.raises(TypeError, match="scales must hold bytes"):
        mxlib.e8m0_shuffle(torch.zeros(4, 4, dtype=torch.int32))


@pytest.mark.parametrize("shape,rows,cols,words", [
    ((256, 8), 300, 8, "does not hold"),
    ((256, 8), 4, 9, "does not hold"),
    ((512, 8), 100, 8, "does not hold"),
    ((200, 8), 100, 8, r"shuffled.shape\[0\] must be a multiple of 256"),
    ((256, 12), 100, 8, r"shuffled.shape\[1\] must be a multiple of 8"),
    ((256, 8), -1, 8, "rows must be a non-negative integer"),
    ((256, 8), 4, -1, "cols must be a non-negative integer"),
])
def test_e8m0_unshuffle_rejects_mismatched_shapes(shape, rows, cols, words):
    with pytest.raises(ValueError, match=words):
        mxlib.e8m0_unshuffle(torch.zeros(shape, dtype=torch.uint8), rows, cols)


@pytest.mark.parametrize("rows,cols", [(0, 12), (4, 0), (0, 0)])
def test_e8m0_shuffle_round_trips_empty_scales(rows, cols):
    """e8m0_shuffle takes an empty input (an empty A's scales, or K = 0's) to one padding tile; its inverse
    takes that back to the empty shape."""
    shuffled = mxlib.e8m0_shuffle(torch.zeros(rows, cols, dtype=torch.uint8))
    assert shuffled.shape == (256, max(8, -(-cols // 8) * 8)) and shuffled.eq(127).all()
    assert mxlib.e8m0_unshuffle(shuffled, rows, cols).shape == (rows, cols)



def test_spec_positions_are_the_shuffles_and_the_shape_rule():
    """mxlib.spec.layouts' closed forms give every byte's position in the permuted tensors."""
    N, Kb = 48, 96
    n, kb = torch.meshgrid(torch.arange(N), torch.arange(Kb), indexing="ij")
    position = layouts.weight_position(n, kb, Kb)
    assert torch.equal(position, weight_position(n, kb, Kb))
    q = random_bytes((N, Kb), 5)
    placed = torch.empty(N * Kb, dtype=torch.uint8)
    placed[position.flatten()] = q.flatten()
    assert torch.equal(mxlib.shuffle_weight(q).flatten(), placed)
    rows, cols = 300, 11
    assert layouts.shuffled_scale_shape(rows, cols) == tuple(mxlib.e8m0_shuffle(random_bytes((rows, cols), 6)).shape)
    assert layouts.shuffled_scale_shape(rows, cols) == (512, 16) and layouts.shuffled_scale_shape(0, 0) == (256, 8)
    r, c = torch.meshgrid(torch.arange(512), torch.arange(16), indexing="ij")
    assert torch.equal(layouts.scale_position(r, c, 16), scale_position(r, c, 16))


@triton.jit
def _positions(w_ptr, s_ptr, Kb, SN, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    w = mx_shuffled_weight_row(r, Kb)[:, None] + mx_shuffled_weight_col(c)[None, :]
    s = mx_shuffled_scale_row(r, SN)[:, None] + mx_shuffled_scale_col(c)[None, :]
    tl.store(w_ptr + r[:, None] * C + c[None, :], w)
    tl.store(s_ptr + r[:, None] * C + c[None, :], s)


def test_triton_addresses_match_the_spec():
    """mxlib.kernels.common's row and column address parts add up to mxlib.spec.layouts' positions."""
    device = "cuda" if torch.cuda.is_available() else "cpu"
    R, C = 64, 64
    w = torch.empty(R, C, dtype=torch.int32, device=device)
    s = torch.empty(R, C, dtype=torch.int32, device=device)
    _positions[(1,)](w, s, C, C, R=R, C=C)
    r, c = torch.meshgrid(torch.arange(R), torch.arange(C), indexing="ij")
    assert torch.equal(w.cpu().long(), layouts.weight_position(r, c, C))
    assert torch.equal(s.cpu().long(), layouts.scale_position(r, c, C))
