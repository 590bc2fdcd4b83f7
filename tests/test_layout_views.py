"""mxlib.tools.layout_views: the seed's zero-copy views of B_shuffle and B_scale_sh, and their un-permutation."""
import pytest
import torch

import mxlib
from mxlib.tools import layout_views as lv


def _natural_padded_scales(b, n_pad):
    """B's natural (N, K/32) scales, padded with 127 to n_pad rows, as mxlib's `e8m0_shuffle` pads them (the
    contest's B_scale_sh leaves the padding uninitialized)."""
    _, scales = mxlib.quantize_mxfp4(b, "rne")
    padded = torch.full((n_pad, scales.shape[1]), 127, dtype=torch.uint8)
    padded[: scales.shape[0]] = scales
    return padded


@pytest.mark.parametrize("n, k", [(64, 512), (288, 256), (32, 768)])
def test_every_loaded_piece_of_the_views_is_natural_b(n, k):
    seed = int(torch.randint(0, 2**31, ()).item())
    _, b, b_q, b_shuffle, b_scale_sh = mxlib.generate_input(8, n, k, seed=seed)
    view = lv.seed_scale_view(b_scale_sh, k)
    assert view.data_ptr() == b_scale_sh.data_ptr() and view.shape == (b_scale_sh.shape[0] // 32, k)
    padded = _natural_padded_scales(b, b_scale_sh.shape[0])
    for j in range(view.shape[0]):  # each BLOCK_N = 32 x BLOCK_K = 256 rectangle the seed's kernel loads
        for c in range(k // 256):
            got = lv.scale_tile_natural(view[j, 256 * c: 256 * (c + 1)])
            assert torch.equal(got, padded[32 * j: 32 * (j + 1), 8 * c: 8 * (c + 1)]), (seed, j, c)

    wview = lv.seed_weight_view(b_shuffle)
    assert wview.data_ptr() == b_shuffle.data_ptr() and wview.shape == (n // 16, k // 2 * 16)
    for j in range(n // 16):
        assert torch.equal(lv.weight_group_natural(wview[j]), b_q[16 * j: 16 * (j + 1)]), (seed, j)


def test_scale_tile_natural_inverts_e8m0_shuffle_of_one_tile():
    s = torch.randint(0, 256, (32, 8), dtype=torch.uint8)
    sh = mxlib.e8m0_shuffle(s)  # (256, 8): the first 256 bytes are this tile, the rest padding
    assert torch.equal(lv.scale_tile_natural(sh.flatten()[:256]), s)


def test_bad_input_is_refused():
    _, _, _, b_shuffle, b_scale_sh = mxlib.generate_input(8, 64, 320, seed=0)  # K/32 = 10 pads to 16 columns
    with pytest.raises(ValueError, match="k must be a multiple of 256"):
        lv.seed_scale_view(b_scale_sh, 320)
    _, _, _, _, sh512 = mxlib.generate_input(8, 64, 512, seed=0)
    with pytest.raises(ValueError, match="K/32 = 32 columns"):
        lv.seed_scale_view(sh512, 1024)
    with pytest.raises(ValueError, match="contiguous"):
        lv.seed_weight_view(b_shuffle.t().contiguous().t())
    with pytest.raises(ValueError, match="shape\\[0\\] \\(N\\)"):
        lv.seed_weight_view(b_shuffle[:8])
    with pytest.raises(TypeError, match="b_scale_sh must hold bytes"):
        lv.seed_scale_view(sh512.float(), 512)
    with pytest.raises(ValueError, match="256 bytes of one 32x8 scale tile"):
        lv.scale_tile_natural(sh512.flatten()[:128])
    with pytest.raises(ValueError, match="row must be one 1-D row"):
        lv.weight_group_natural(b_shuffle)
    # K a multiple of 128 only; more columns than K/32; rows not whole tiles; a view that is not contiguous; K < 0
    _, _, _, _, sh384 = mxlib.generate_input(8, 64, 384, seed=0)  # K/32 = 12 columns, padded to 16
    with pytest.raises(ValueError, match="k must be a multiple of 256"):
        lv.seed_scale_view(sh384, 384)
    with pytest.raises(ValueError, match="K/32 = 8 columns"):
        lv.seed_scale_view(sh512, 256)
    with pytest.raises(ValueError, match="contiguous e8m0_shuffle of K/32 = 8 columns"):
        lv.seed_scale_view(torch.zeros(40, 8, dtype=torch.uint8), 256)
    with pytest.raises(ValueError, match="not contiguous"):
        lv.seed_scale_view(torch.zeros(256, 16, dtype=torch.uint8)[:, :8], 256)
    with pytest.raises(ValueError, match="k must be a positive integer"):
        lv.seed_scale_view(torch.zeros(256, 8, dtype=torch.uint8), -256)
    # K/2 not a multiple of 32; a 2-D scale tile; a row that is not whole groups
    with pytest.raises(ValueError, match=r"shape\[1\] \(K/2\)"):
        lv.seed_weight_view(torch.zeros(32, 16, dtype=torch.uint8))
    with pytest.raises(ValueError, match="256 bytes of one 32x8 scale tile"):
        lv.scale_tile_natural(torch.zeros(16, 16, dtype=torch.uint8))
    with pytest.raises(ValueError, match="row must be one 1-D row"):
        lv.weight_group_natural(torch.zeros(256, dtype=torch.uint8))


def test_traced_shuffles_follow_the_closed_forms_and_load_whole_blocks():
    """The maps notebook 02 draws: each shuffle traced on its own coordinates agrees with the spec's
    position formulas, and every 16-byte run of B_shuffle is 16 consecutive bytes (32 values, one scale
    block) of one row, the load one MFMA lane makes."""
    for n, kb in ((32, 64), (16, 32), (48, 256)):
        facts = lv.shuffle_facts(n, kb, 256, 8)
        assert facts == {"weight_formula": True, "scale_formula": True, "whole_runs": n * kb // 16,
                         "runs": n * kb // 16}, (n, kb)
    rows, cols = lv.weight_sources(32, 64)
    assert (rows[:16].tolist(), cols[:16].tolist()) == ([0] * 16, list(range(16)))
    assert (rows[16:32].tolist(), cols[256:272].tolist()) == ([1] * 16, list(range(16, 32)))
    s_rows, s_cols = lv.scale_sources(256, 8)
    assert s_rows[:4].tolist() == [0, 16, 0, 16] and s_cols[:4].tolist() == [0, 0, 4, 4]
    with pytest.raises(ValueError, match="at most 256"):
        lv.weight_sources(512, 32)


def test_a_wrong_shuffle_is_caught_by_the_facts(monkeypatch):
    """shuffle_facts can fail: a shuffle that swaps the two 16-byte halves of each 32-byte block breaks the
    weight formula (the runs stay whole, so the formula check is what catches it)."""
    from mxlib.spec import layouts

    def swapped(q):
        out = layouts.shuffle_weight(q)
        return out.view(-1, 2, 256).flip(1).reshape(out.shape)

    monkeypatch.setattr(lv, "shuffle_weight", swapped)
    facts = lv.shuffle_facts(32, 64, 256, 8)
    assert not facts["weight_formula"] and facts["whole_runs"] == facts["runs"]


def test_map_figures_draw_the_first_bytes():
    """The figures label each cell with its source: 32 lines of 16 bytes for the weight, 16 for the scales."""
    from mxlib.tools import mfma

    weight, scale = lv.weight_map_figure(32, 64, lines=32), lv.scale_map_figure(8)
    assert len(weight.axes[0].texts) == 32 * 16 and weight.axes[0].texts[0].get_text() == "0,0"
    assert len(scale.axes[0].texts) == 256 and scale.axes[0].texts[1].get_text() == "16,0"
    lanes = mfma.lanes_figure(7168)
    assert [len(ax.texts) for ax in lanes.axes] == [64, 64]


def test_check_seed_views_passes_the_contests_tensors_and_names_a_wrong_piece(monkeypatch):
    _, b, b_q, b_shuffle, b_scale_sh = mxlib.generate_input(8, 64, 512, seed=int(torch.randint(0, 2**31, ()).item()))
    _, b_scale = mxlib.quantize_mxfp4(b, "rne")
    assert len(lv.check_seed_views(b_q, b_scale, b_shuffle, b_scale_sh)) == 2
    bad = b_scale.clone()
    bad[33, 9] ^= 1  # row 33 is the second 32-row tile, column 9 its second 8-column rectangle
    with pytest.raises(RuntimeError, match="scale view row 1, bytes 256..511"):
        lv.check_seed_views(b_q, bad, b_shuffle, b_scale_sh)
    bad_q = b_q.clone()
    bad_q[20, 3] ^= 1
    with pytest.raises(RuntimeError, match="weight view row 1: not B_q's rows 16..31"):
        lv.check_seed_views(bad_q, b_scale, b_shuffle, b_scale_sh)
    real = lv.seed_weight_view
    monkeypatch.setattr(lv, "seed_weight_view", lambda t: real(t).clone())  # a copy, not a view
    with pytest.raises(RuntimeError, match="share storage"):
        lv.check_seed_views(b_q, b_scale, b_shuffle, b_scale_sh)


def test_check_seed_views_reads_the_last_weight_group_and_the_scale_views_storage(monkeypatch):
    _, b, b_q, b_shuffle, b_scale_sh = mxlib.generate_input(8, 64, 512, seed=3)
    _, b_scale = mxlib.quantize_mxfp4(b, "rne")
    bad_q = b_q.clone()
    bad_q[63, 0] ^= 1  # the last 16-row group
    with pytest.raises(RuntimeError, match="weight view row 3: not B_q's rows 48..63"):
        lv.check_seed_views(bad_q, b_scale, b_shuffle, b_scale_sh)
    real = lv.seed_scale_view
    monkeypatch.setattr(lv, "seed_scale_view", lambda t, k: real(t, k).clone())  # a copy, not a view
    with pytest.raises(RuntimeError, match="share storage"):
        lv.check_seed_views(b_q, b_scale, b_shuffle, b_scale_sh)


def test_check_seed_views_reads_the_first_weight_group():
    _, b, b_q, b_shuffle, b_scale_sh = mxlib.generate_input(8, 64, 512, seed=5)
    _, b_scale = mxlib.quantize_mxfp4(b, "rne")
    bad_q = b_q.clone()
    bad_q[0, 0] ^= 1
    with pytest.raises(RuntimeError, match="weight view row 0: not B_q's rows 0..15"):
        lv.check_seed_views(bad_q, b_scale, b_shuffle, b_scale_sh)


def _facts_with(monkeypatch, shuffle):
    monkeypatch.setattr(lv, "shuffle_weight", shuffle)
    return lv.shuffle_facts(32, 64, 256, 8)


def test_shuffle_facts_a_run_out_of_order_is_not_whole(monkeypatch):
    from mxlib.spec import layouts

    def swap_1_2(q):  # bytes 1 and 2 of every 16-byte run trade places
        out = layouts.shuffle_weight(q).view(-1, 16).clone()
        out[:, [1, 2]] = out[:, [2, 1]]
        return out.reshape(q.shape)

    facts = _facts_with(monkeypatch, swap_1_2)
    assert facts["whole_runs"] == 0 and facts["runs"] == 32 * 64 // 16


def test_shuffle_facts_a_run_off_a_16_byte_boundary_is_not_whole(monkeypatch):
    from mxlib.spec import layouts

    facts = _facts_with(monkeypatch, lambda q: layouts.shuffle_weight(q.roll(-8, dims=1).contiguous()))
    assert facts["whole_runs"] == 0


def test_shuffle_facts_a_run_of_two_rows_is_not_whole(monkeypatch):
    from mxlib.spec import layouts

    def mix(q):  # runs 0 and 1 of a pair (rows r and r + 1, same columns) trade their second halves
        out = layouts.shuffle_weight(q).view(-1, 2, 2, 8).clone()
        out[:, 0, 1], out[:, 1, 1] = out[:, 1, 1].clone(), out[:, 0, 1].clone()
        return out.reshape(q.shape)

    facts = _facts_with(monkeypatch, mix)
    assert facts["whole_runs"] == 0


def test_scale_sources_refuse_a_padded_shape():
    with pytest.raises(ValueError, match="rows"):
        lv.scale_sources(32, 8)
    with pytest.raises(ValueError, match="cols"):
        lv.scale_sources(256, 4)


def test_weight_map_colour_is_the_16_byte_half():
    fig = lv.weight_map_figure(32, 64, lines=32)
    colour = fig.axes[0].images[0].get_array()
    # the first 512 bytes hold B_q bytes 0..31 of 16 rows: both 16-byte halves of the first 32-byte block
    assert sorted(set(colour.flatten().tolist())) == [0, 1]


def test_check_seed_views_compares_all_eight_columns_of_a_scale_tile():
    _, b, b_q, b_shuffle, b_scale_sh = mxlib.generate_input(8, 64, 512, seed=7)
    _, b_scale = mxlib.quantize_mxfp4(b, "rne")
    bad = b_scale.clone()
    bad[33, 13] ^= 1  # column 13: the sixth of the second 8-column rectangle
    with pytest.raises(RuntimeError, match="scale view row 1, bytes 256..511"):
        lv.check_seed_views(b_q, bad, b_shuffle, b_scale_sh)
