"""The fused path's GPU form of A (bf16 dot_scaled operand, `A_E4M3` off) run in the interpreter.

`_fused_launch` picks `A_E4M3 = mx_interpreting()`, so on the CPU the kernel always hands A over as E2M1
grid values with E8M0 scales, and its bf16 branches (per-program quantization, a_once's bf16 workspace)
never run. The interpreter passes a bf16 operand through fp16, which is exact for randn-range inputs
(every dequantized value has two significant bits and lies far inside fp16's normal range), so there the
two forms must give the same bits. Here the GPU form is forced by answering False in the module's
`mx_interpreting` and compared with the CPU form on fresh inputs, a_once 0 and 1, both roundings.
"""
import random

import pytest
import torch

from mxlib.kernels import arrival
from mxlib.kernels import gemm_fused as F
from mxlib.spec.reference import check_exact, check_implementation, generate_input

from .helpers import fresh_seed, run_into_nan

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def run(data, cfg, rounding):
    a, _, _, b_shuffle, b_scale_sh = data
    return run_into_nan(F.gemm, a, b_shuffle, b_scale_sh, cfg, rounding)


@pytest.mark.skipif(DEVICE != "cpu", reason="on a GPU the bf16 form is the one every other test runs")
@pytest.mark.parametrize("rounding", ["rne", "ties_away"])
def test_bf16_form_gives_the_e4m3_forms_bits(monkeypatch, rounding):
    rng = random.SystemRandom()
    seed = fresh_seed()
    m, n, k = rng.randrange(17, 32), 128, 256  # two M tiles (one partial), two N tiles, two K iterations
    data = generate_input(m, n, k, seed, device=DEVICE, rounding=rounding)
    assert F.mx_interpreting()
    for a_once in (0, 1):
        cfg = F.Config(block_m=16, block_n=64, block_k=128, split_k=2, a_once=a_once)
        e4m3 = run(data, cfg, rounding)
        with monkeypatch.context() as mp:
            mp.setattr(F, "mx_interpreting", lambda: False)
            bf16 = run(data, cfg, rounding)
        what = f"{m}x{n}x{k} seed {seed} a_once={a_once} {rounding}"
        assert torch.equal(bf16.view(torch.int16), e4m3.view(torch.int16)), what
        for check in (check_implementation, check_exact):
            ok, msg = check(data, bf16, rounding)
            assert ok, f"{what}: {msg}"
    assert all(int(buf.abs().sum()) == 0 for bufs in arrival._mx_counters.values() for buf in bufs)
