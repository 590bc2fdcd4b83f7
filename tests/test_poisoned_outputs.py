"""Every path writes every element of C, including those whose exact value is NaN or +-Inf.

NaN-filled outputs (tests/test_gemm_paths.py) cannot show a skipped write where the expected answer is NaN.
Here `out=` is filled with one FINITE sentinel and then another, far outside what these inputs can give
(products of randn-range values): both runs must give the same bits, and follow the rule (`check_exact`),
NaN and Inf elements included. Without a GPU the Triton paths run in the interpreter, on small shapes.
"""
import random

import pytest
import torch

from mxlib.runtime.paths import PATHS, path_available, path_module, path_zero_scale_operands
from mxlib.spec.layouts import e8m0_shuffle, shuffle_weight
from mxlib.spec.quant import quantize_mxfp4
from mxlib.spec.reference import check_exact, ref_kernel

from .helpers import fresh_seed

# numpy (the interpreter) warns on the Inf and NaN these inputs are made to produce.
pytestmark = [pytest.mark.filterwarnings("ignore:overflow encountered"),
              pytest.mark.filterwarnings("ignore:invalid value encountered")]

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
PATH_NAMES = sorted(p for p in PATHS if path_available(p, DEVICE)[0])
# bf16 bit patterns of +3.39e38 and -3.39e38 (bf16's largest finite magnitude): no element here comes near.
SENTINELS = (0x7F7F, -0x0081)  # 0xFF7F as a signed int16

# Configs with one split (the kernel stores C itself) and with several (the reduction stores it).
CONFIGS = {
    "splitk": [dict(block_m=16, block_n=32, block_k=64, split_k=1), dict(block_m=16, block_n=32, block_k=64, split_k=2)],
    "fused": [dict(block_m=16, block_n=64, block_k=64, split_k=1), dict(block_m=16, block_n=64, block_k=64, split_k=2,
                                                                        a_once=1)],
    "fused_fp4": [dict(block_m=16, block_n=16, block_k=64, split_k=1), dict(block_m=16, block_n=32, block_k=64,
                                                                            split_k=2)],
}


def special_data(seed: int):
    """(data, rows and columns planted): A (6, 128) and B (32, 128) randn, with a NaN block and an Inf block
    in A (scale byte 255: NaN rows), a block of A that dequantizes to +Inf (+-Inf, or NaN where the B code
    is 0, in its row), and a NaN block and a -Inf block in B (NaN columns)."""
    rng = random.Random(seed)
    g = torch.Generator().manual_seed(seed)
    m, n, k = 6, 32, 128
    a = torch.randn(m, k, generator=g)
    b = torch.randn(n, k, generator=g)
    rows = rng.sample(range(m), 3)
    cols = rng.sample(range(n), 2)
    a[rows[0], 32 * rng.randrange(4) + rng.randrange(32)] = float("nan")
    a[rows[1], 32 * rng.randrange(4) + rng.randrange(32)] = float("inf")
    blk = 32 * rng.randrange(4)
    a[rows[2], blk:blk + 32] = 0.0
    a[rows[2], blk + rng.randrange(32)] = 1.5 * 2.0**127 * 1.2  # code 6 at scale 2**127 after the round-up: Inf
    b[cols[0], 32 * rng.randrange(4) + rng.randrange(32)] = float("nan")
    b[cols[1], 32 * rng.randrange(4) + rng.randrange(32)] = float("-inf")
    b_q, b_s = quantize_mxfp4(b.to(torch.bfloat16))
    data = (a.to(torch.bfloat16), b.to(torch.bfloat16), b_q, shuffle_weight(b_q), e8m0_shuffle(b_s))
    return tuple(t.to(DEVICE) for t in data)


def configs(path):
    mod = path_module(path)
    return [mod.Config(**f) for f in CONFIGS[path]] if path in CONFIGS else [None]


def test_the_inputs_give_nan_and_inf_outputs():
    """The premise: the planted blocks give NaN rows, NaN columns and infinite elements in the exact result."""
    ref = ref_kernel(tuple(t.cpu() for t in special_data(fresh_seed())))
    assert int(ref.isnan().all(dim=1).sum()) == 2 and int(ref.isnan().all(dim=0).sum()) == 2
    assert ref.isinf().any() and ref.isfinite().any()
    big = ref.float().abs().masked_fill(~ref.isfinite(), 0).max()
    assert big < 1e4, big  # far from the sentinels


@pytest.mark.parametrize("path", PATH_NAMES)
def test_every_element_is_written_over_finite_sentinels(path):
    seed = fresh_seed()
    data = special_data(seed)
    a, _, _, b_shuffle, b_scale_sh = data
    for cfg in configs(path):
        got = []
        for bits in SENTINELS:
            out = torch.full((a.shape[0], b_shuffle.shape[0]), bits, dtype=torch.int16, device=DEVICE)
            out = out.view(torch.bfloat16)
            assert path_module(path).gemm(a, b_shuffle, b_scale_sh, config=cfg, out=out) is out
            got.append(out.view(torch.int16).cpu())
        same = got[0] == got[1]
        assert same.all(), f"{path} {cfg} seed {seed}: elements not written: {(~same).nonzero()[:5].tolist()}"
        ok, msg = check_exact(data, out, zero_scale_operands=path_zero_scale_operands(path, DEVICE))
        assert ok, f"{path} {cfg} seed {seed}: {msg}"
