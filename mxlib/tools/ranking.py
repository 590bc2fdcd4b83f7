"""The contest's score, computed the way the leaderboard computes it, and the MI355X baseline to beat.

The score of a submission is the geometric mean, over the benchmark shapes, of each shape's MEAN time
per call: eval.py (gpu-mode/reference-kernels:problems/amd_202602/eval.py) times every call between two
CUDA events after an L2 flush and reports the mean of the calls (`benchmark.<i>.mean`); the task says
`ranking_by: "geom"` (problems/amd_202602/mxfp4-mm/task.yml at commit 70d0a1b, unchanged through
f83cb92); and the leaderboard's `compute_score` takes the geometric mean of those means
(gpu-mode/kernelbot:src/libkernelbot/submission.py@023f036). Medians are steadier and are shown
beside the means, but they are not what is ranked.

`aiter_mi355x()` is the task's own table of aiter's times on the MI355X (the same task.yml): the
baseline to beat, measured on the contest's machine, which mxlib cannot run. It is a different device
from every time mxlib measured (an NVIDIA H200), so the two are never put side by side as a speed-up.
"""
from __future__ import annotations

import csv
from importlib import resources

from .bench_csv import devices, valid_time
from .stats import geomean

AITER_CSV = resources.files("mxlib") / "data" / "aiter_mi355x.csv"
AITER_SOURCE = "gpu-mode/reference-kernels:problems/amd_202602/mxfp4-mm/task.yml@70d0a1b"


def aiter_mi355x() -> dict[tuple[int, int, int], float]:
    """(M, N, K) -> aiter's time per call on the MI355X in us, for the six benchmark shapes (task.yml)."""
    with AITER_CSV.open(newline="") as f:
        return {(int(r["m"]), int(r["n"]), int(r["k"])): float(r["us"]) for r in csv.DictReader(f)}


def benchmark_shapes() -> list[tuple[int, int, int]]:
    from ..spec import shapes

    return [s.mnk for s in shapes.load("benchmark")]


def score_us(times: dict, shapes=None) -> float:
    """The ranked score: the geometric mean of per-shape times (pass means) over the benchmark shapes.

    Every benchmark shape must have a time: a missing shape would change what the number means.
    """
    shapes = benchmark_shapes() if shapes is None else [tuple(s) for s in shapes]
    missing = [s for s in shapes if s not in times]
    if missing:
        raise ValueError(f"no time for benchmark shapes {missing}")
    return geomean(times[s] for s in shapes)


def per_shape(frame, provider: str, *, timing: str = "contest", stat: str = "mean_us", kind: str = "benchmark") -> dict:
    """(M, N, K) -> `stat` of one provider's rows of `kind` in a bench.csv frame; rows without a valid time
    (`bench_csv.valid_time`: none, or an output that failed its check, as the contest gives no score to a wrong
    answer) left out. Where a shape has several rows, the last one's."""
    rows = frame[(frame["provider"] == provider) & (frame["timing"] == timing) & (frame["kind"] == kind)]
    times = ((r, valid_time(r, stat)) for r in rows.to_dict("records"))
    return {(int(r["m"]), int(r["n"]), int(r["k"])): v for r, v in times if v is not None}


def scores(frame, providers, *, timing: str = "contest") -> list[tuple[str, float, float]]:
    """(provider, score from means, the same from medians) for each provider that has every benchmark shape."""
    out = []
    for prov in providers:
        try:
            out.append((prov, score_us(per_shape(frame, prov, timing=timing)),
                        score_us(per_shape(frame, prov, timing=timing, stat="median_us"))))
        except ValueError:
            continue
    return out


def table(frame, providers, *, timing: str = "contest", kinds=("benchmark",)) -> str:
    """Per-shape 'mean (median)' us of each provider in a bench.csv frame, one line per shape of `kinds`,
    and, when a provider has every benchmark shape, its score (geometric mean of the means) and the same
    from the medians. A '-' marks a provider with no valid time for that shape (`per_shape`). The first
    line names the device(s) of the frame's `device` column, so a table quoted alone still says where it ran."""
    rows = frame[(frame["timing"] == timing) & frame["kind"].isin(kinds)]
    keys = list(dict.fromkeys((str(r.kind), int(r.m), int(r.n), int(r.k)) for r in rows.itertuples()))
    width = max(16, *(len(p) + 2 for p in providers))
    names = devices(rows)
    where = f" on {' and '.join(names)}" if names else ""
    lines = [f"{timing} time per call, us{where}: mean (median)",
             f"{'':10}{'M x N x K':>15}" + "".join(f"{p:>{width}}" for p in providers)]
    means = {(p, kind): per_shape(frame, p, timing=timing, kind=kind) for p in providers for kind in kinds}
    medians = {(p, kind): per_shape(frame, p, timing=timing, stat="median_us", kind=kind)
               for p in providers for kind in kinds}
    for kind, m, n, k in keys:
        cells = []
        for p in providers:
            mean, median = means[p, kind].get((m, n, k)), medians[p, kind].get((m, n, k))
            cells.append("-" if mean is None or median is None else f"{mean:.2f} ({median:.2f})")
        lines.append(f"{kind:10}{f'{m}x{n}x{k}':>15}" + "".join(f"{c:>{width}}" for c in cells))
    if "benchmark" in kinds:
        cells = []
        for p in providers:
            try:
                cells.append(f"{score_us(means[p, 'benchmark']):.2f} ({score_us(medians[p, 'benchmark']):.2f})")
            except ValueError:
                cells.append("-")
        if any(c != "-" for c in cells):
            lines.append(f"{'score':10}{'geomean':>15}" + "".join(f"{c:>{width}}" for c in cells))
    return "\n".join(lines)


def best_provider(frame, prefix: str, *, timing: str = "contest") -> str:
    """The provider whose name starts with `prefix` (e.g. "touch": the read-only launch, one provider per grid
    timed) with the lowest score, the geometric mean of its per-shape means; providers missing a benchmark
    shape are left out. ValueError when none has them all."""
    named = [p for p in dict.fromkeys(frame["provider"]) if str(p).startswith(prefix)]
    scored = [(mean, prov) for prov, mean, _ in scores(frame, named, timing=timing)]
    if not scored:
        raise ValueError(f"no provider starting with {prefix!r} has every benchmark shape")
    return min(scored)[1]


def public_mi355x(aiter: dict, board):
    """(text, figure) of the public MI355X numbers, none measured by mxlib: aiter's time per benchmark shape
    and its score (`aiter` as `aiter_mi355x` gives it), and the leaderboard's scores (`board`: a frame with
    `rank` and `score_us`, best first) against aiter's score."""
    import matplotlib.pyplot as plt

    from . import figures

    keys = benchmark_shapes()
    missing = [key for key in keys if key not in aiter]
    if missing:
        raise ValueError(f"aiter: no time for the benchmark shape(s) {missing}")
    if len(board) < 2:
        raise ValueError(f"board: needs at least two entries, got {len(board)}")
    score, scores = score_us(aiter), list(board.score_us)
    text = "\n".join([
        f"aiter, score {score:.2f} us (geometric mean of: " + ", ".join(f"{aiter[key]:.3f}" for key in keys) + ")",
        f"leaderboard: first place {scores[0]:.3f} us, then places 2-{len(board)}: {scores[1]:.3f} to {scores[-1]:.3f} us",
        f"second place is {score / scores[1]:.2f}x faster than aiter; first place {scores[1] - scores[0]:.3f} us ahead of second",
    ])
    fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(11, 3.9), layout="constrained", gridspec_kw={"width_ratios": [1.1, 1]})
    ax0.bar(range(len(keys)), [aiter[key] for key in keys], 0.6, color=figures.COLORS["MI355X"])
    for x, key in enumerate(keys):
        ax0.text(x, aiter[key] + 0.3, f"{aiter[key]:.2f}", ha="center", fontsize=8)
    ax0.set_xticks(range(len(keys)), ["x".join(map(str, key)) for key in keys], rotation=30, ha="right")
    ax0.set(ylabel="time per call (us)", title="aiter per benchmark shape (task.yml)")
    ax1.plot(board["rank"], board.score_us, "o", color=figures.COLORS["MI355X"], ms=5, label="leaderboard entry")
    ax1.axhline(score, color="black", lw=1, ls="--", label=f"aiter {score:.2f} us")
    ax1.set(xlabel="row of the screenshot (the board's order)", ylabel="score (us, geometric mean of means)",
            ylim=(0, 1.15 * max(score, max(scores))), title=f"leaderboard, first {len(board)} places (screenshot)")
    ax1.set_xticks(board["rank"])
    ax1.legend(fontsize=8, loc="lower right")
    fig.suptitle("MI355X, public numbers: not measured by mxlib")
    return text, fig
