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


def test_the_ab_panel_averages_each_trees_rounds():
    ab = {"old": [frame("GPU B", SHAPES, 2.0), frame("GPU B", SHAPES, 3.0)], "new": [frame("GPU B", SHAPES, 2.0)]}
    text, fig = host_costs.host_report(frame("GPU A", SHAPES), ab)
    row = next(line for line in text.splitlines()[5:] if line.split()[:1] == ["4x2880x512"])
    assert row.split()[1:3] == ["100.0", "80.0"] and "20.0% less" in row  # custom_kernel: (80 + 120) / 2, then 80
    assert len(fig.axes) == 2 and "GPU B" in fig.axes[1].get_title()


def test_a_missing_layer_or_shape_is_an_error_naming_it():
    with pytest.raises(ValueError, match=r"4x2880x512 has no row for layer\(s\) \['plan'\]"):
        host_costs.host_report(frame("GPU A", SHAPES, drop=[(4, 2880, 512, "plan")]))
    with pytest.raises(ValueError, match="every round must time the shapes of run"):
        host_costs.host_report(frame("GPU A", SHAPES), {"old": [frame("B", SHAPES[:1])], "new": [frame("B", SHAPES)]})
    with pytest.raises(ValueError, match="the rounds of one tree time different shapes"):
        host_costs.host_report(frame("GPU A", SHAPES), {"old": [frame("B", SHAPES), frame("B", SHAPES[:1])],
                                                        "new": [frame("B", SHAPES)]})
