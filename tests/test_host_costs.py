"""mxlib.tools.host_costs: the host-time report notebook 08 draws from scripts/host_time.py's CSVs."""
import pandas as pd
import pytest
from matplotlib import colors

from mxlib.tools import host_costs


def frame(device, shapes, scale=1.0, drop=(), us=None):
    """A host_time.csv frame: layer i of a shape takes (i + 1) * 10 * scale us, torch.mm 10 us; `us` sets
    {layer: us} for every shape."""
    rows = []
    for m, n, k in shapes:
        for i, layer in enumerate(host_costs.LAYERS):
            if (m, n, k, layer) in drop:
                continue
            t = (us or {}).get(layer, 10.0 if layer == "torch_mm" else (i + 1) * 10 * scale)
            rows.append({"m": m, "n": n, "k": k, "layer": layer, "median_us": t, "device": device,
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


def test_host_rounds_with_the_same_count_of_other_shapes_are_refused():
    other = [SHAPES[0], (8, 64, 512)]
    with pytest.raises(ValueError, match="the rounds of one tree time different shapes"):
        host_costs.host_report(frame("A", SHAPES), {"old": [frame("B", SHAPES), frame("B", other)], "new": [frame("B", SHAPES)]})


def test_host_tree_ratio_is_the_mean_of_each_rounds_own_ratio():
    # round 1: custom_kernel 40 over torch.mm 10 (4x); round 2: 40 over 20 (2x): 3.00x, not 40 / 15 = 2.67x
    old = [frame("B", SHAPES, us={"custom_kernel": 40.0, "torch_mm": 10.0}), frame("B", SHAPES, us={"custom_kernel": 40.0, "torch_mm": 20.0})]
    text, _ = host_costs.host_report(frame("A", SHAPES), {"old": old, "new": [frame("B", SHAPES)]})
    row = next(ln for ln in text.splitlines()[5:] if ln.split()[:1] == ["4x2880x512"])
    assert row.split()[1:3] == ["40.0", "3.00x"]


def test_host_a_tree_timing_a_shape_the_run_lacks_is_refused():
    with pytest.raises(ValueError, match="every round must time the shapes of run"):
        host_costs.host_report(frame("A", SHAPES[:1]), {"old": [frame("B", SHAPES)], "new": [frame("B", SHAPES)]})


def test_host_tree_panel_names_the_last_trees_device_colours_it_and_draws_ratios():
    from mxlib.tools import figures

    trees = {"t0": [frame("GPU X", SHAPES, us={"custom_kernel": 120.0})], "t1": [frame("GPU Y", SHAPES, us={"custom_kernel": 60.0})]}
    text, fig = host_costs.host_report(frame("GPU A", SHAPES), trees)
    assert "GPU Y" in fig.axes[1].get_title() and "GPU Y, one call" in text
    bars = fig.axes[1].patches
    assert [p.get_height() for p in bars] == pytest.approx([12.0, 12.0, 6.0, 6.0])  # ratios to torch.mm, not us
    last = colors.to_rgba(figures.COLORS["mxlib"])
    assert [p.get_facecolor() == last for p in bars] == [False, False, True, True]


def test_host_first_panel_scale_fits_the_largest_bar_of_every_shape():
    run = pd.concat([frame("A", SHAPES[:1]), frame("A", SHAPES[1:], us={"graph_replay": 500.0})])
    _, fig = host_costs.host_report(run)
    assert fig.axes[0].get_ylim()[1] == pytest.approx(1.35 * 500.0)


def test_host_layers_a_run_may_lack_are_left_out_of_the_report():
    """path_gemm is timed only where the plan's backend is Triton: a run without it is reported without that
    column; a shape without any other layer (here the empty launch) is refused."""
    no_gemm = frame("A", SHAPES, drop={(*s, "path_gemm") for s in SHAPES})
    text, fig = host_costs.host_report(no_gemm)
    assert "the path's gemm" not in text and len(fig.axes[0].containers) == len(host_costs.LAYERS) - 1
    with pytest.raises(ValueError, match=r"has no row for layer\(s\) \['empty_launch'\]"):
        host_costs.host_report(frame("A", SHAPES, drop={(*s, "empty_launch") for s in SHAPES}))
