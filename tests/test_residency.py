"""mxlib.tools.residency: notebook 06's tables and figures, from the seed's plan and the compiled records."""
import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from mxlib.tools.repo import RESULTS_DIR  # noqa: E402
from mxlib.tools import residency as residency  # noqa: E402


def test_gemm_launches_residency_from_compiled_resources():
    seed, fp4, fused = residency.gemm_launches((16, 2112, 7168))
    assert (seed.device, seed.ctas, seed.resident, seed.rounds, seed.k_steps) == ("MI355X", 119, 4, 1, 2)  # 7 splits
    assert (fp4.device, fused.device) == ("MI355X", "H200")
    asm = residency.gemm_launches((4, 2880, 512))[0]
    assert (asm.ctas, asm.resident, asm.block_k) == (23, 1, None)  # aiter's ASM kernels: one workgroup per CU
    ck = residency.gemm_launches((256, 3072, 1536))[0]
    assert ck.resident is None and ck.rounds == 1  # CK not compiled here, but 96 CTAs fit one per CU anyway


def test_residency_and_littles_law_tables():
    text = residency.residency_table()
    row = next(line for line in text.splitlines() if "split-K" in line)
    assert row.split()[-7:] == ["119", "4", "1", "119", "of", "256", "(46%)"]
    law = residency.littles_law_table()
    assert "64x7168x2048" not in law  # M <= 32 only
    row = next(line for line in law.splitlines() if "split-K" in line)
    assert row.split()[-2:] == ["4661", "0.58"]  # 119 CTAs x (16x128 tile, 512 K values, A fp4) at 8 TB/s


def _residency():
    return pd.read_csv(RESULTS_DIR / "h200" / "splitk_sweep_residency.csv")


def test_seed_splits_config_header_and_rounds():
    res = _residency()
    assert residency.seed_splitk_h200_resident(res) == 2 and residency.seed_splitk_h200_resident(None) is None
    lines = residency.seed_splits(res).splitlines()
    assert "config NUM_KSPLIT=7 -> 119 GEMM CTAs" in lines[0]
    assert "aiter runs 7 slices of 1024 K values" in lines[1] and lines[1].endswith("<- what the seed runs")
    assert "aiter runs 14 slices of 512 K values" in lines[2] and lines[2].endswith("not run")
    rows = {int(ln.split()[0]): ln.replace("|", " ").split() for ln in lines[-3:]}
    assert rows[1][:2] == ["1", "17"]
    # 238 CTAs: 93% of the MI355X's CUs; on the H200 two one-CTA waves, but one round at 2 CTAs per SM
    assert rows[14] == ["14", "238", "93.0%", "1", "100.0%", "2", "1"]
    assert residency.seed_splits(None).splitlines()[-1].split()[-1] == "?"  # no residency: rounds not known


def test_unit_loads_and_cu_map_place_every_cta():
    for dev, shape in (("MI355X", (8, 32)), ("H200", (4, 33))):
        for ctas in (17, 119, 238):
            img = residency.unit_loads(ctas, dev)
            assert img.shape == shape and img.sum() == ctas
    assert residency.unit_loads(238, "H200").max() == 2 and (residency.unit_loads(238, "H200") == 2).sum() == 106
    fig = residency.cu_map(_residency())
    assert len(fig.axes) == 6
    assert [int(ax.images[0].get_array().sum()) for ax in fig.axes] == [17, 17, 119, 119, 238, 238]
    assert fig.axes[5].get_title() == "H200, split_k=14: 238 CTAs, 100% of units with work, 1 round"


def test_seed_tile_sweep_rounds_follow_residency():
    sweep = pd.read_csv(RESULTS_DIR / "h200" / "splitk_sweep.csv")
    lines = residency.seed_tile_sweep(sweep, _residency()).splitlines()
    assert lines[0].startswith("H200, (16, 2112, 7168), 16x128 tiles, block_k 256")
    rows = {int(ln.split()[0]): [float(x) for x in ln.split()] for ln in lines[2:]}
    assert rows[14][1:6] == [238, 2, 1, 2, 2]  # CTAs, per SM, rounds, one-CTA waves, K steps
    assert rows[16][1:4] == [272, 2, 2]  # past 2 x 132 CTAs a second round starts
    assert [r[5] for r in rows.values()] == sorted((r[5] for r in rows.values()), reverse=True)  # K steps fall


def test_utilization_grid_and_figure():
    model = pd.read_csv(RESULTS_DIR / "occupancy_model.csv")
    splits, image, labels = residency.utilization_grid(model, "MI355X")
    assert splits[0] == 1 and image.shape == (len(labels), len(splits))
    finite = image[~np.isnan(image)]
    assert finite.min() > 0 and finite.max() <= 100
    assert sum(len(lb.split(" = ")) for lb in labels) == 10  # every test and benchmark shape, once
    row = image[[i for i, lb in enumerate(labels) if "16x2112x7168" in lb][0]]
    assert row[0] == pytest.approx(100 * 17 / 256, abs=0.1)  # unsplit: 17 CTAs of 32x128 tiles on 256 CUs
    fig = residency.utilization_vs_splitk(model)
    assert [ax.get_title() for ax in fig.axes[:2]] == ["MI355X (256 CUs), 32x128 tiles", "H200 (132 SMs), 32x128 tiles"]


def test_model_vs_measured_on_the_recorded_sweep_and_without_predictions():
    sweep = pd.read_csv(RESULTS_DIR / "h200" / "splitk_sweep.csv")
    text, fig = residency.model_vs_measured(sweep)
    timed = sweep[sweep.measured_us.notna()]
    loso = (100 * (timed.predicted_loso_us - timed.measured_us).abs() / timed.measured_us).median()
    assert f"predicted_loso_us: median |predicted - measured| / measured = {loso:.1f}% over {len(timed)} configs" in text
    assert len(text.splitlines()) == 3 and sum(len(c.get_offsets()) for c in fig.axes[0].collections) == len(timed)
    with pytest.raises(ValueError, match="no prediction column"):
        residency.model_vs_measured(sweep[["m", "n", "k", "measured_us"]])


def test_revalidation_reads_both_fits():
    reval = pd.DataFrame({"predicted_one_us": [11.0, 30.0], "predicted_resident_us": [10.0, 20.0], "measured_us": [10.0, 20.0]})
    one, resident = residency.revalidation(reval).splitlines()
    assert "one CTA per SM" in one and "= 30.0% over 2 configs" in one  # median of 10% and 50%
    assert "compiled residency" in resident and "= 0.0% over 2 configs" in resident
