"""mxlib.tools.host_costs: the host-time report notebook 08 draws from scripts/host_time.py's CSVs."""
import pandas as pd
import pytest

from mxlib.tools import host_costs


def frame(device, shapes, scale=1.0, drop=()):
    """A host_time.csv frame: layer i of a shape takes (i + 1) * 10 * scale us, torch.mm 10 us."""
    rows = []
    for m, n, k in shapes:
        for i, layer in enumerate(host_costs.LAYERS):
            if (m, n, k, layer) in drop:
                continue
            us = 10.0 if layer == "torch_mm" else (i + 1) * 10 * scale
            rows.append({"m": m, "n": n, "k": k, "layer": layer, "median_us": us, "device": device,
                         "date": "2026-12-06T00:00:00Z"})
    return pd.DataFrame(rows)


SHAPES = [(4, 2880, 512), (256, 3072, 1536)]


def test_report_names_each_layer_and_the_ratio_to_cublas():
    text, fig = host_costs.host_report(frame("GPU A", SHAPES))
    lines = text.splitlines()
    assert "GPU A" in lines[0] and all(label in lines[1] for label in host_costs.LAYER_LABELS.values())
    assert lines[2].split()[0] == "4x2880x512" and lines[2].endswith("4.0x")  # custom_kernel 40 us over 10
    assert len(fig.axes) == 1
    # a run from before the graph replay was timed: its column and bar are left out, the rest as before
    old = frame("GPU A", SHAPES, drop=[(*s, "graph_replay") for s in SHAPES])
    text, fig = host_costs.host_report(old)
    assert "a graph replay" in lines[1] and "a graph replay" not in text.splitlines()[1]
    assert text.splitlines()[2].endswith("4.0x") and len(fig.axes[0].patches) == 6 * len(SHAPES)
    # timed for one shape only: shown for none, as a column must hold every shape
    part, _ = host_costs.host_report(frame("GPU A", SHAPES, drop=[(*SHAPES[0], "graph_replay")]))
    assert part == text


def test_trees_are_compared_in_units_of_the_same_processs_torch_mm():
    """Each tree's custom_kernel is shown in us and over torch.mm of the same round (a host that changes speed
    between processes moves both), each the mean of its rounds; the change is the ratio's, first tree to last."""
    slow = frame("GPU B", SHAPES, 3.0)
    slow["median_us"] = slow["median_us"] * 2  # a round in the host's slow state: torch.mm 20 us, custom_kernel 240
    trees = {"t0": [frame("GPU B", SHAPES, 3.0), slow], "t1": [frame("GPU B", SHAPES, 2.0)],
             "t2": [frame("GPU B", SHAPES, 1.5)]}
    text, fig = host_costs.host_report(frame("GPU A", SHAPES), trees)
    row = next(line for line in text.splitlines()[5:] if line.split()[:1] == ["4x2880x512"])
    # t0: (120 + 240) / 2 us, 12x in both rounds; t1: 80 us, 8x; t2: 60 us, 6x; 6x is 50% less than 12x
    assert row.split()[1:7] == ["180.0", "12.00x", "80.0", "8.00x", "60.0", "6.00x"] and "50.0% less" in row
    assert len(fig.axes) == 2 and "GPU B" in fig.axes[1].get_title()
    assert [t.get_text() for t in fig.axes[1].get_legend().get_texts()] == ["t0", "t1", "t2"]


def test_a_missing_layer_or_shape_is_an_error_naming_it():
    with pytest.raises(ValueError, match=r"4x2880x512 has no row for layer\(s\) \['plan'\]"):
        host_costs.host_report(frame("GPU A", SHAPES, drop=[(4, 2880, 512, "plan")]))
    with pytest.raises(ValueError, match="every round must time the shapes of run"):
        host_costs.host_report(frame("GPU A", SHAPES), {"old": [frame("B", SHAPES[:1])], "new": [frame("B", SHAPES)]})
    with pytest.raises(ValueError, match="two or more trees"):
        host_costs.host_report(frame("GPU A", SHAPES), {"new": [frame("B", SHAPES)]})
    with pytest.raises(ValueError, match="the rounds of one tree time different shapes"):
        host_costs.host_report(frame("GPU A", SHAPES), {"old": [frame("B", SHAPES), frame("B", SHAPES[:1])],
                                                        "new": [frame("B", SHAPES)]})
