"""mxlib.tools.quant_error_study: notebook 01's measurements of MXFP4's error."""
import hashlib
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import mxlib
from mxlib.tools import quant_error_study as qe

from .helpers import fresh_seed


def test_floor_scale_saturates_where_the_round_up_takes_the_next_scale():
    block = torch.tensor([[7.0] + [0.0] * 31, [7.9] + [0.0] * 31, [5.0] + [0.0] * 31, [1.5] + [0.0] * 31])
    got = qe.floor_scale_roundtrip(block)[:, 0].tolist()
    assert got == [6.0, 6.0, 4.0, 1.5]  # 7 and 7.9 saturate at 6 (scale 1); 5 is a tie, "rne" gives 4
    rule = mxlib.dequantize_mxfp4(*mxlib.quantize_mxfp4(block))[:, 0].tolist()
    assert rule == [8.0, 8.0, 4.0, 1.5]  # the round-up gives 7 and 7.9 the scale 2: 3.5 -> 4 and 3.95 -> 4


def test_floor_scale_matches_the_rule_below_the_round_up():
    g = torch.Generator().manual_seed(fresh_seed())
    x = torch.randn(64, 256, generator=g) * 2.0 ** torch.randint(-20, 20, (64, 1), generator=g)
    amax = x.abs().reshape(64, 8, 32).amax(-1)
    mantissa = amax / 2.0 ** torch.floor(torch.log2(amax))
    keep = (mantissa < 1.75).repeat_interleave(32, dim=1)  # blocks the round-up leaves alone
    for rounding in mxlib.ROUNDINGS:
        rule = mxlib.dequantize_mxfp4(*mxlib.quantize_mxfp4(x, rounding))
        floor = qe.floor_scale_roundtrip(x, rounding)
        assert torch.equal(floor[keep], rule[keep])
        assert not torch.equal(floor[~keep], rule[~keep])  # and differs where it acts (on the largest elements)


def test_amax_roundup_errors_by_hand():
    rule, floor = qe.amax_roundup_errors(torch.tensor([5.0, 6.0, 7.9]))
    assert rule.tolist() == pytest.approx([0.2, 0.0, 0.1 / 7.9])
    assert floor.tolist() == pytest.approx([0.2, 0.0, 1.9 / 7.9])
    with pytest.raises(ValueError, match="amax must hold positive"):
        qe.amax_roundup_errors(torch.tensor([1.0, 0.0]))


def test_student_t_has_the_tails_of_three_degrees_of_freedom():
    g = torch.Generator().manual_seed(fresh_seed())
    t = qe.student_t((400_000,), 3, g)
    # P(|T| > 5) for 3 degrees of freedom is 0.0154; for a normal, 6e-7. The sample's share has sd ~0.0002.
    assert 0.0135 < (t.abs() > 5).float().mean().item() < 0.0173
    wide = qe.student_t((400_000,), 400, g)
    assert abs(wide.std().item() - math.sqrt(400 / 398)) < 0.01  # many dof: close to N(0, 1)
    with pytest.raises(ValueError, match="dof must be a positive integer"):
        qe.student_t((4,), 0, g)


def test_distributions_are_seeded():
    a, b = qe.distributions((32, 64), seed=5), qe.distributions((32, 64), seed=5)
    assert list(a) == ["Gaussian", "Student-t (3 dof)", "Gaussian + 0.1% 50x outliers"]
    assert all(torch.equal(a[k], b[k]) and a[k].shape == (32, 64) for k in a)
    big = qe.distributions((256, 4096), seed=fresh_seed())["Gaussian + 0.1% 50x outliers"]
    assert 500 < int((big.abs() > 10).sum()) < 1600  # ~1049 outliers (1e-3 of 2**20), 84% of them beyond 10


def test_distributions_do_not_depend_on_the_cpus_vector_unit():
    """Notebook 01's draws with torch's kernels for the plain CPU (ATEN_CPU_CAPABILITY=default, no AVX2) equal
    this process's: a float32 randn differs between the two in its last bits, which changed notebook 01's
    figure from one machine to another. (On a CPU without AVX2 both runs take the same kernels.)"""
    code = ("import hashlib; from mxlib.tools import quant_error_study as qe; "
            "d = qe.distributions((64, 256), seed=7); "
            "print(hashlib.sha256(b''.join(t.numpy().tobytes() for t in d.values())).hexdigest())")
    here = hashlib.sha256(b"".join(t.numpy().tobytes() for t in qe.distributions((64, 256), seed=7).values()))
    env = {**os.environ, "ATEN_CPU_CAPABILITY": "default"}
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=Path(__file__).resolve().parent.parent,
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == here.hexdigest()


def test_quant_error_by_hand():
    x = torch.tensor([[6.0] + [0.01] * 31])  # scale 1: the 0.01s round to 0
    e = qe.quant_error(x)
    assert e.flushed == pytest.approx(31 / 32)
    assert e.snr_db == pytest.approx(10 * math.log10((36 + 31e-4) / 31e-4), rel=1e-5)
    assert sorted(e.relative.tolist()) == [0.0] + [1.0] * 31
    assert qe.quant_error(torch.tensor([[1.0] * 32])).snr_db == float("inf")


def test_notebook_figures_of_the_error_study():
    """amax_roundup_figure draws both rules' curves over the given maxima; error_histograms gives a line and
    a panel per distribution, its SNR the one quant_error measures."""
    amax = torch.linspace(4.0, 8.0, 81)[:-1]
    fig = qe.amax_roundup_figure(amax)
    assert [len(line.get_xdata()) for line in fig.axes[0].get_lines()[:2]] == [80, 80]
    dists = qe.distributions((8, 256), seed=3)
    text, fig = qe.error_histograms(dists)
    assert len(text.splitlines()) == len(dists) == len(fig.axes)
    first = next(iter(dists))
    assert f"SNR {qe.quant_error(dists[first].to(torch.bfloat16)).snr_db:5.1f} dB" in text.splitlines()[0]
