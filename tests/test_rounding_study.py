"""mxlib.tools.rounding_study: notebook 01's account of why the wrong rounding rule fails most outputs."""
import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
import torch  # noqa: E402

from mxlib.spec.formats import E2M1_MIDPOINTS  # noqa: E402
from mxlib.spec.reference import ATOL, RTOL  # noqa: E402
from mxlib.tools import rounding_study as rs  # noqa: E402


@pytest.fixture(scope="module")
def study_512():
    return rs.wrong_rule_study(16, 128, 512, seed=512)


def test_tie_moves_only_at_midpoints():
    # one block of 32: scale 2^0 (amax 6 -> E2M1 max), a midpoint at 2.5 (rne -> 2, ties_away -> 3), rest on the grid
    a = torch.tensor([[6.0, 2.5, -2.5, 1.0] + [0.0] * 28])
    moves = rs.tie_moves(a)
    assert moves.tolist()[0][:4] == [0.0, 1.0, -1.0, 0.0]
    assert torch.count_nonzero(moves) == 2
    assert 2.5 in E2M1_MIDPOINTS


def test_single_tie_ratios_by_hand():
    moves = torch.tensor([[0.0, 1.0], [0.0, 0.0]])  # one tie: row 0, column 1
    b_q = torch.tensor([[5.0, 0.02], [5.0, 0.5]])  # N = 2
    tol = torch.full((2, 2), 0.1)
    got = rs.single_tie_ratios(moves, b_q, tol)
    assert got.tolist() == pytest.approx([0.2, 5.0])  # one entry per (tie, output of its row)


def test_tolerance_is_the_checkers():
    assert rs.tolerance(torch.tensor([0.0, -2.0])).tolist() == pytest.approx([ATOL, ATOL + 2 * RTOL])


def test_wrong_rule_fails_most_outputs_at_k512(study_512):
    s = study_512
    assert s.ties_per_row > 0
    assert s.fail_share > 0.5  # most outputs fail, although few bytes differ
    assert 0 < s.single_tie_fail_share < 1  # one tie alone fails only some outputs: ties add up
    assert s.ratios.shape == (16, 128)
    assert s.wrong_rule_verdict.endswith("mismatch") and s.unquantized_verdict.endswith("mismatch")
    fails = int(s.wrong_rule_verdict.split(" of ")[0])
    assert fails == int((s.ratios > 1).sum())  # the checker and the ratio agree on which outputs fail
    assert s.lines().startswith("K=  512  ties per row of A:  3.1;")


def test_histogram_one_line_per_study(study_512):
    fig = rs.wrong_rule_histogram([study_512], 16, 128)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [f"K=512: {100 * study_512.fail_share:.0f}% fail"]
    assert "(M=16, N=128)" in ax.get_xlabel()
