"""Why the wrong rounding rule fails most outputs of the checker although it changes ~1% of A's bytes.

Notebook 01's study: A quantized with `"ties_away"` while the checker's reference quantizes it with
`"rne"`. Where the two rules part (a tie: an element scaled exactly onto an E2M1 midpoint), one element
of A moves by one grid step times its block scale, and every output of its row moves by that amount
times a B value. The checker's tolerance is ATOL + RTOL * |ref| (`mxlib.spec.reference`). Two numbers
explain the failure rate: how many ties a row of A holds, and how often one tie's move alone exceeds
the tolerance. `wrong_rule_study` computes both for one shape, with the checker's verdicts and the
per-output error ratio; `wrong_rule_histogram` draws the ratios of several studies. How often ties occur
at all on an input is `tie_census`; where the rules part on the grid, `midpoint_rounding`.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch

import mxlib
from ..spec.formats import BLOCK_SIZE, E2M1_MIDPOINTS, e8m0_to_float32
from ..spec.reference import ATOL, RTOL


def tie_moves(a: torch.Tensor) -> torch.Tensor:
    """How far each element of `a` moves, dequantized, when quantized with "ties_away" instead of "rne"
    (float32, shape of `a`): zero except at ties, where it is one E2M1 step times the block scale."""
    return (mxlib.dequantize_mxfp4(*mxlib.quantize_mxfp4(a, "ties_away"))
            - mxlib.dequantize_mxfp4(*mxlib.quantize_mxfp4(a, "rne")))


def scaled_magnitudes(x: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    """|x| divided by its block's E8M0 scale (float32, shape of `x` (M, K)), `scales` being `quantize_mxfp4`'s
    (M, K/32): the values the rounding rule sees. Exact: the scale is a power of two."""
    return (x.float() / e8m0_to_float32(scales).repeat_interleave(BLOCK_SIZE, dim=1)).abs()


@dataclass(frozen=True)
class TieCensus:
    """How often the two rules part on one input (see `tie_census`)."""

    same_scales: bool  # the rules chose identical scale bytes (they always should: the scale rule has no tie)
    bytes_differ: float  # share of packed bytes that differ between "rne" and "ties_away"
    in_range: int  # elements scaled into [1, 6), where bf16's 8 significant bits leave 5 below a midpoint's 3
    on_midpoint: int  # of those, elements sitting exactly on an E2M1 midpoint

    @property
    def midpoint_share(self) -> float:
        """Share of the elements scaled into [1, 6) that sit exactly on a midpoint (1/64 for random bf16 bits)."""
        return self.on_midpoint / self.in_range if self.in_range else 0.0


def tie_census(x: torch.Tensor) -> TieCensus:
    """Quantize `x` ((M, K) float) with both rules and count where they part: the share of differing packed
    bytes, and how many elements scaled into [1, 6) sit exactly on a midpoint (`scaled_magnitudes`)."""
    q_rne, s_rne = mxlib.quantize_mxfp4(x, "rne")
    q_ta, s_ta = mxlib.quantize_mxfp4(x, "ties_away")
    scaled = scaled_magnitudes(x, s_rne)
    in_range = (scaled >= 1) & (scaled < 6)
    on_midpoint = torch.isin(scaled, torch.tensor(E2M1_MIDPOINTS, device=scaled.device))
    return TieCensus(
        same_scales=torch.equal(s_rne, s_ta),
        bytes_differ=(q_rne != q_ta).float().mean().item(),
        in_range=int(in_range.sum()),
        on_midpoint=int((on_midpoint & in_range).sum()),
    )


def tolerance(ref: torch.Tensor) -> torch.Tensor:
    """The checker's allowed |out - ref| per output: ATOL + RTOL * |ref|."""
    return ATOL + RTOL * ref.float().abs()


def single_tie_ratios(moves: torch.Tensor, b_q: torch.Tensor, tol: torch.Tensor) -> torch.Tensor:
    """For every tie of A (a nonzero of `moves`, (M, K)) and every output of its row, |move * B value| over
    that output's tolerance (`tol`, (M, N)), with `b_q` (N, K) the dequantized B: what one tie does alone,
    the other ties left out. A 1-D tensor, one entry per (tie, output) pair; above 1 means that tie alone
    fails the output."""
    ties = moves != 0
    ratio = (moves[:, None, :] * b_q[None, :, :]).abs() / tol[:, :, None]
    return ratio[ties[:, None, :].expand(-1, b_q.shape[0], -1)]


@dataclass(frozen=True)
class WrongRuleStudy:
    """One shape's numbers (see `wrong_rule_study`)."""

    k: int
    ties_per_row: float  # mean count of A elements per row where the two rules differ
    single_tie_fail_share: float  # share of (tie, output) pairs where that move alone exceeds the tolerance
    wrong_rule_verdict: str  # the checker's verdict on A quantized with the wrong rule (first clause)
    unquantized_verdict: str  # the checker's verdict on the exact bf16 product (first clause)
    ratios: torch.Tensor  # |wrong - ref| / tolerance per output, (M, N)

    @property
    def fail_share(self) -> float:
        """Share of outputs the checker fails with A quantized by the wrong rule."""
        return (self.ratios > 1).float().mean().item()

    @property
    def passing(self) -> int:
        """Outputs the checker passes with A quantized by the wrong rule."""
        return int((self.ratios <= 1).sum())

    @property
    def identical(self) -> int:
        """Of the passing outputs, those equal to the reference (the histogram's spike at -3)."""
        return int((self.ratios == 0).sum())

    def lines(self) -> str:
        """The study as printed in notebook 01: ties, one tie alone, the two verdicts, then the passing outputs
        of the wrong rule split into identical ones and ones that moved but stayed within the tolerance."""
        return (f"K={self.k:5d}  ties per row of A: {self.ties_per_row:4.1f}; one tie alone exceeds the tolerance "
                f"in {100 * self.single_tie_fail_share:.0f}% of cases\n"
                f"         wrong rule: {self.wrong_rule_verdict}\n"
                f"         wrong rule, passing: {self.passing} = {self.identical} identical to the reference + "
                f"{self.passing - self.identical} moved but within the tolerance\n"
                f"         no quantization: {self.unquantized_verdict}")


def wrong_rule_study(m: int, n: int, k: int, seed: int) -> WrongRuleStudy:
    """Quantize A with "ties_away" and check the result against the "rne" reference on
    `generate_input(m, n, k, seed)`; also check the unquantized bf16 product, and measure each tie's
    move alone against the tolerance (`single_tie_ratios`). Deterministic for a given seed."""
    data = mxlib.generate_input(m, n, k, seed=seed)
    a, b = data[0], data[1]
    ref = mxlib.ref_kernel(data, "rne").float()
    wrong = mxlib.ref_kernel(data, "ties_away")  # A quantized with the other rule
    _, msg = mxlib.check_implementation(data, wrong, "rne")
    exact = (a.float() @ b.float().T).to(torch.bfloat16)
    _, exact_msg = mxlib.check_implementation(data, exact, "rne")
    moves = tie_moves(a)
    b_q = mxlib.dequantize_mxfp4(*mxlib.quantize_mxfp4(b, "rne"))
    tol = tolerance(ref)
    alone = single_tie_ratios(moves, b_q, tol)
    return WrongRuleStudy(
        k=k,
        ties_per_row=(moves != 0).sum(1).float().mean().item(),
        single_tie_fail_share=(alone > 1).float().mean().item(),
        wrong_rule_verdict=msg.split(";")[0],
        unquantized_verdict=exact_msg.split(";")[0],
        ratios=(wrong.float() - ref).abs() / tol,
    )


def wrong_rule_histogram(studies, m: int, n: int):
    """Histogram of log10(|out - ref| / tolerance) per study (equal outputs clamped to -3), one step line
    per K, with the tolerance line at 0. Returns the figure."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for s in studies:
        ax.hist(s.ratios.flatten().clamp_min(1e-3).log10().numpy(), bins=60, histtype="step", lw=1.5,
                label=f"K={s.k}: {100 * s.fail_share:.0f}% fail")
    ax.axvline(0, color="black", lw=1)
    ax.text(0.05, ax.get_ylim()[1] * 0.9, "tolerance", fontsize=8)
    ax.set(xlabel=f"log10(|out - ref| / tolerance), equal outputs at -3   (M={m}, N={n})", ylabel="outputs (count)",
           title='A quantized with "ties_away", checked against "rne"')
    ax.legend(loc="upper left")
    return fig


def midpoint_rounding():
    """(lines, figure): the E2M1 value each rule gives each positive midpoint, as a table, and the staircase
    of nearest E2M1 values over [-6.8, 6.8] with both rules marked at every midpoint."""
    import matplotlib.pyplot as plt

    from ..spec.formats import e2m1_table
    from ..spec.quant import ROUNDINGS, round_to_e2m1
    from .figures import COLORS

    table = e2m1_table()
    mids = torch.tensor(E2M1_MIDPOINTS)
    lines = [f"{'midpoint':>8}  {'rne':>5}  {'ties_away':>9}"]
    for m in E2M1_MIDPOINTS:
        v = {r: table[round_to_e2m1(torch.tensor([m]), r).long()].item() for r in ROUNDINGS}
        lines.append(f"{m:8.2f}  {v['rne']:5.1f}  {v['ties_away']:9.1f}")
    # i / 200 rather than linspace, whose last bits differ between CPUs with and without AVX2
    q = torch.cat([torch.arange(-1360, 1361) / 200, mids, -mids]).sort().values
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.step(q, table[round_to_e2m1(q, "rne").long()], where="mid", color="#999999", lw=1, label="nearest E2M1 value")
    ties = torch.cat([mids, -mids])
    for rule, marker in (("rne", "o"), ("ties_away", "x")):
        ax.plot(ties, table[round_to_e2m1(ties, rule).long()], marker, ms=7, mfc="none" if marker == "o" else None,
                color=COLORS[rule], label=f'"{rule}" at the midpoints')
    ax.set(xlabel="x / block scale (dimensionless)", ylabel="E2M1 value (x / block scale)",
           title="E2M1 rounding: the rules differ only at midpoints")
    ax.legend(loc="upper left")
    return "\n".join(lines), fig
