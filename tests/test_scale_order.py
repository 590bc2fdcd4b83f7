"""Block scales far apart whose product is 1: A blocks at 2**120 times B blocks at 2**-120, and the reverse.

A kernel that applies the scales to a block's dot product d one after the other must apply the smaller
one first (mxlib.kernels.common: ``(d * lo) * hi``): d * 2**120 overflows fp32 once d >= 2**8, while the
exact result is just the sum of the codes' products. Here every block product d is at least 512 and
each row holds both orders, so multiplying by A's scale first, by B's first or by the larger first gives
Inf. Every path that runs here must give the exact result (`check_exact`).
"""

import pytest
import torch

from mxlib.runtime.paths import PATHS, path_available, path_module, path_zero_scale_operands
from mxlib.spec.layouts import e8m0_shuffle, shuffle_weight
from mxlib.spec.quant import quantize_mxfp4
from mxlib.spec.reference import check_exact, ref_kernel

from .helpers import fresh_seed

# numpy (the interpreter) warns on the overflow a wrong order produces.
pytestmark = [pytest.mark.filterwarnings("ignore:overflow encountered"),
              pytest.mark.filterwarnings("ignore:invalid value encountered")]

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
PATH_NAMES = sorted(p for p in PATHS if path_available(p, DEVICE)[0])


def far_scales_data(seed: int, m: int = 3, n: int = 32, k: int = 128):
    """The contest's input tuple: every element 4 or 6 (E2M1 codes, each block holding a 6, so a block's
    scale is exactly its power of two), A's even blocks at 2**120 and odd blocks at 2**-120, B's the
    other way round. Every block product is then (sum of 32 code products, 512 to 1152) * 2**0."""
    g = torch.Generator().manual_seed(seed)
    codes = []
    for rows in (m, n):
        c = 4.0 + 2.0 * torch.randint(0, 2, (rows, k), generator=g).float()
        c[:, torch.randint(0, 32, (1,), generator=g).item()::32] = 6.0
        codes.append(c)
    even = (torch.arange(k) // 32) % 2 == 0
    a = codes[0] * torch.where(even, 2.0**120, 2.0**-120)
    b = codes[1] * torch.where(even, 2.0**-120, 2.0**120)
    b_q, b_s = quantize_mxfp4(b.to(torch.bfloat16))
    data = (a.to(torch.bfloat16), b.to(torch.bfloat16), b_q, shuffle_weight(b_q), e8m0_shuffle(b_s))
    return tuple(t.to(DEVICE) for t in data), codes[0] @ codes[1].T


def test_the_exact_result_is_the_sum_of_the_codes_products():
    """The premise: the inputs are exact in bf16 and MXFP4, and the reference's result is finite."""
    data, want = far_scales_data(fresh_seed())
    assert torch.equal(ref_kernel(tuple(t.cpu() for t in data)).float(), want.to(torch.bfloat16).float())
    assert want.min() >= 4 * 512


@pytest.mark.parametrize("path", PATH_NAMES)
def test_scales_far_apart_whose_product_is_one(path):
    seed = fresh_seed()
    data, _ = far_scales_data(seed)
    a, _, _, b_shuffle, b_scale_sh = data
    out = path_module(path).gemm(a, b_shuffle, b_scale_sh)
    ok, msg = check_exact(data, out, zero_scale_operands=path_zero_scale_operands(path, DEVICE))
    assert ok, f"{path} seed {seed}: {msg}"
