"""mxlib.tools.rounding_study: notebook 01's account of why the wrong rounding rule fails most outputs."""
import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
import torch  # noqa: E402

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


def test_single_tie_ratios_by_hand():
    moves = torch.tensor([[0.0, 1.0], [0.0, 0.0]])  # one tie: row 0, column 1
    b_q = torch.tensor([[5.0, 0.02], [5.0, 0.5]])  # N = 2
    tol = torch.full((2, 2), 0.1)
    got = rs.single_tie_ratios(moves, b_q, tol)
    assert got.tolist() == pytest.approx([0.2, 5.0])  # one entry per (tie, output of its row)


def test_scaled_magnitudes_divide_by_the_block_scale():
    x = torch.randn(2, 64) * torch.tensor([[1e-3], [1e3]])
    q, s = rs.mxlib.quantize_mxfp4(x, "rne")
    got = rs.scaled_magnitudes(x, s)
    e = s.int() - 127  # E8M0: 2**(byte - 127)
    for row in range(2):
        for blk in range(2):
            want = x[row, 32 * blk: 32 * (blk + 1)].abs() * 2.0 ** -e[row, blk].item()
            assert torch.equal(got[row, 32 * blk: 32 * (blk + 1)], want)
    # the round-up puts every block's largest element below 7 (OCP's floor rule alone would allow up to 8)
    assert got.max() < 7


def test_tie_census_counts_midpoints_by_hand():
    # one block, scale 2^0 (amax 6). In [1, 6): the midpoints 1.25, 2.5, 5.0 and the grid values 1.0, 3.0 and
    # 1.3 (neither); 6.0 is not below 6, and 0.25 is a midpoint below 1
    row = [6.0, 1.25, -2.5, 5.0, 1.0, 3.0, 1.3, 0.25] + [0.0] * 24
    c = rs.tie_census(torch.tensor([row]))
    assert c.same_scales
    assert (c.in_range, c.on_midpoint) == (6, 3)
    assert c.midpoint_share == pytest.approx(0.5)
    # the rules part on 1.25, -2.5, 5.0 and 0.25, which sit in bytes 0, 1, 1 and 3 of 16 (two codes a byte)
    assert c.bytes_differ == pytest.approx(3 / 16)


def test_tie_census_on_random_bf16_is_near_one_in_64():
    g = torch.Generator().manual_seed(int(torch.randint(0, 2**31, ()).item()))
    c = rs.tie_census(torch.randn(64, 2048, generator=g).to(torch.bfloat16))
    assert c.same_scales and c.in_range > 50_000
    assert abs(c.midpoint_share - 1 / 64) < 0.004  # the share's standard deviation here is about 0.0005
    assert 0 < c.bytes_differ < 0.05


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
    assert s.passing == 16 * 128 - fails and 0 < s.identical < s.passing
    assert s.identical == int(torch.count_nonzero(s.ratios == 0))
    assert f"wrong rule, passing: {s.passing} = {s.identical} identical" in s.lines()


def test_histogram_one_line_per_study(study_512):
    fig = rs.wrong_rule_histogram([study_512], 16, 128)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [f"K=512: {100 * study_512.fail_share:.0f}% fail"]
    assert "(M=16, N=128)" in ax.get_xlabel()


def test_midpoint_rounding_table_and_figure():
    """The rules part at 0.25, 1.25, 2.5 and 5 (rne down to the even code, ties_away up) and agree at the
    other three midpoints; the figure marks every midpoint, both signs, for each rule."""
    text, fig = rs.midpoint_rounding()
    rows = {float(r.split()[0]): (float(r.split()[1]), float(r.split()[2])) for r in text.splitlines()[1:]}
    assert rows == {0.25: (0.0, 0.5), 0.75: (1.0, 1.0), 1.25: (1.0, 1.5), 1.75: (2.0, 2.0), 2.5: (2.0, 3.0),
                    3.5: (4.0, 4.0), 5.0: (4.0, 6.0)}
    marks = [line for line in fig.axes[0].get_lines() if line.get_linestyle() == "None"]
    assert [len(line.get_xdata()) for line in marks] == [14, 14]
