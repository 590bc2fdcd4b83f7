"""The Humming baseline (`mxlib.tools.baselines.humming`): its argument rules on the CPU, and on a GPU with
humming-kernels installed, that the contest's weight reaches Humming's kernels as the same matrix."""
import sys

import pytest
import torch

from mxlib.spec import validate
from mxlib.spec.layouts import e8m0_unshuffle
from mxlib.spec.quant import dequantize_mxfp4
from mxlib.spec.reference import generate_input
from mxlib.tools.baselines import humming

from .helpers import fresh_seed


def _weight(n, k, device="cpu"):
    data = generate_input(4, n, k, fresh_seed(), device=device)
    return data, validate.as_bytes(data[2]), e8m0_unshuffle(validate.as_bytes(data[4]), n, k // 32)


def test_layer_argument_rules():
    _, b_q, b_scale = _weight(64, 128)
    with pytest.raises(ValueError, match="activation must be one of bf16, fp8, got 'fp4'"):
        humming.layer(b_q, b_scale, "fp4")
    with pytest.raises(ValueError, match=r"b_scale must have shape \(N, K/32\) = \(64, 4\)"):
        humming.layer(b_q, b_scale[:, :3], "bf16")
    with pytest.raises(ValueError, match=r"b_q must be 2-D, got shape \(64,\)"):
        humming.layer(b_q[0], b_scale, "bf16")
    with pytest.raises(ValueError, match="one CUDA device, got cpu and cpu"):
        humming.layer(b_q, b_scale, "bf16")


def test_a_missing_humming_is_named(monkeypatch):
    monkeypatch.setitem(sys.modules, "humming.layer", None)  # import humming.layer now raises ImportError
    with pytest.raises(RuntimeError, match=r"need humming-kernels \(pip install humming-kernels\)"):
        humming._layer_class()


def _reference(data, b_q, b_scale):
    return data[0].double() @ dequantize_mxfp4(b_q, b_scale).double().t()


@pytest.mark.gpu
@pytest.mark.parametrize("mnk", [(4, 2880, 512), (32, 256, 1536), (5, 128, 256)])
def test_humming_bf16_computes_a_times_the_dequantized_weight(mnk):
    """W4A16: within bf16's rounding of each output plus 2**-9 of the sum of its products' magnitudes (Humming's
    sums are less exact than cuBLAS's at long K: KERNEL_NOTES.md, "Humming"). A weight read with its nibbles
    swapped or its scales shuffled is off by about the outputs' own size, far past that bound. N = 2880 takes
    Humming's padding to a multiple of 128 rows."""
    pytest.importorskip("humming")
    m, n, k = mnk
    data = generate_input(m, n, k, fresh_seed(), device="cuda")
    b_q, b_scale = validate.as_bytes(data[2]), e8m0_unshuffle(validate.as_bytes(data[4]), n, k // 32)
    out = humming.make(data, "bf16")()
    ref = _reference(data, b_q, b_scale)
    assert out.shape == (m, n) and out.dtype == torch.bfloat16
    magnitudes = data[0].double().abs() @ dequantize_mxfp4(b_q, b_scale).double().abs().t()
    assert ((out.double() - ref).abs() <= 2 ** -8 * ref.abs() + 2 ** -9 * magnitudes).all()


@pytest.mark.gpu
def test_humming_fp8_is_near_the_product():
    """W4A8: A rounded to E4M3 per 32-value group moves each output by a few percent of its row's size; a wrong
    weight layout by about all of it."""
    pytest.importorskip("humming")
    m, n, k = 16, 256, 1024
    data = generate_input(m, n, k, fresh_seed(), device="cuda")
    b_q, b_scale = validate.as_bytes(data[2]), e8m0_unshuffle(validate.as_bytes(data[4]), n, k // 32)
    out = humming.make(data, "fp8")()
    ref = _reference(data, b_q, b_scale)
    assert out.shape == (m, n)
    assert ((out.double() - ref).norm(dim=1) <= 0.06 * ref.norm(dim=1)).all()
