"""mxlib.tools.path_sections: the shared sections of notebooks 03-05 read the seed's plan and the recorded CSVs."""

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from mxlib.kernels import gemm_splitk, gemm_tiled  # noqa: E402
from mxlib.spec import seed as seed_mod  # noqa: E402
from mxlib.tools.repo import RESULTS_DIR  # noqa: E402
from mxlib.tools import path_sections as sections  # noqa: E402

from .helpers import fresh_seed  # noqa: E402


def test_seed_shapes_follow_the_seed_route():
    assert [str(s) for s in sections.seed_shapes("splitk")] == ["16x2112x7168"]
    assert {str(s) for s in sections.seed_shapes("asm")} == {"8x2112x7168", "16x3072x1536", "4x2880x512", "32x4096x512",
                                                       "32x2880x512"}
    assert len(sections.seed_shapes("ck")) == 7
    with pytest.raises(ValueError, match="path must be one of the seed's paths"):
        sections.seed_shapes("fused")


def test_seed_launches_name_every_launch_and_the_ctas():
    text = sections.seed_launches("splitk")
    for piece in ("_mxfp4_quant_natural_kernel", "grid    1x14", "_gemm_afp4wfp4_preshuffle_kernel", "119 CTAs",
                  "46.5% of 256 CUs", "_gemm_afp4wfp4_reduce_kernel", "33 CTAs"):
        assert piece in text, piece
    assert "heuristic 192x128 tile, 17 CTAs" in sections.seed_launches("asm")  # 8x2112x7168: no name, aiter picks
    # the splitk launch holds on both lines; the ck path's tuned shapes on the line asked for, by commit too
    assert "the same on every aiter release line the seed runs on" in text.splitlines()[0]
    ck = sections.seed_launches("ck", aiter="0.1.10.post4.dev78+gf3be04a12a")
    assert "aiter's 0.1.11 line where the lines differ" in ck.splitlines()[0]
    assert "tuned 32x128 tile, 48 CTAs, 18.8% of 256 CUs  (holds for aiter 0.1.11 line)" in ck


def test_compiled_facts_have_both_targets_for_every_shape():
    for path in seed_mod.PATHS:
        text = sections.compiled_facts(path)
        assert "not compiled" not in text
        for s in sections.seed_shapes(path):
            assert f"{str(s):>14} gfx950" in text and f"{str(s):>14}  sm_90" in text


def test_aiter_asm_kernel_and_source():
    assert sections.aiter_asm_kernel((32, 128))["lds_bytes"] == "163840"
    with pytest.raises(ValueError, match="tile must be one of the ASM tiles"):
        sections.aiter_asm_kernel((48, 128))
    assert sections.source(gemm_tiled._tiled_kernel).startswith("@triton.jit")
    assert "for s in range(SPLITS)" in sections.source(gemm_splitk._splitk_reduce)


def test_occupancy_and_speed_figures():
    from mxlib.tools import occupancy as occ

    text, fig = sections.occupancy("splitk")
    assert "16x128 x7   119   46.5%" in text
    # the H200 side: the table's config, its split counted, on 132 SMs
    cfg, _ = sections.h200_config("splitk", (16, 2112, 7168))
    assert cfg.split_k > 1  # else this test could not tell a split from none
    ctas = occ.cta_count(16, 2112, 7168, cfg.block_m, cfg.block_n, cfg.split_k)
    row = next(line for line in text.splitlines() if line.strip().startswith("16x2112x7168"))
    assert row.endswith(f"{ctas:5d} {occ.cu_utilization(ctas, 'H200'):6.1%}")
    assert len(fig.axes) == 2
    assert all("nothing run" in ax.get_title() for ax in fig.axes)  # counts, not measurements
    assert "aiter 0.1.10 and 0.1.11 lines" in fig.axes[0].get_title()  # the splitk launch is the same on both
    assert "aiter 0.1.11 line" in sections.occupancy("ck", aiter="0.1.11")[1].axes[0].get_title()
    frame = pd.read_csv(RESULTS_DIR / "h200" / "bench.csv")
    text, fig = sections.speed(frame, "splitk")
    assert "mxlib:splitk" in text and "16x2112x7168" in text
    others = sections.seed_shapes("asm") + sections.seed_shapes("ck")  # the other paths' shapes are not shown
    assert others and not any(str(s) in text for s in others)
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["16x2112x7168"]


def test_release_table_counts_ck_and_tuned_rows_per_line():
    text = sections.release_table()
    # the 0.1.10 line; the extra shapes (never ranked) counted apart: 256x7168x2048 runs CK, and has a row
    assert "4 of 13 shapes run CK (3 of the 10 test and benchmark shapes); 6 of 13 have a tuned row (5 of 10)" in text
    assert "0 of 13 shapes run CK (0 of the 10 test and benchmark shapes); 6 of 13 have a tuned row (5 of 10)" in text
    assert any(line.split()[:2] == ["128x2112x7168", "extra"] for line in text.splitlines())
    header = text.splitlines()[0]
    assert "aiter 0.1.10 line" in header and "aiter 0.1.11 line" in header
    row = next(line for line in text.splitlines() if line.strip().startswith("16x3072x1536"))
    assert "asm 192x128 (heuristic)" in row  # a tuned CK row exists, but the seed's ASM call never reads the CSV


def test_tuned_times_label_amds_figures_per_line():
    text = sections.tuned_times("ck")
    assert "AMD's GEMM-only time" in text and "not a contest timing" in text and "not measured by mxlib" in text
    assert "0.1.10 line (741f0b89f1)" in text and "0.1.11 line (f3be04a12a)" in text
    row = next(line for line in text.splitlines() if line.strip().startswith("256x7168x2048"))
    assert row.split() == ["256x7168x2048", "ck", "64x128", "9.75", "us", "asm", "64x128", "7.84", "us"]
    assert len(text.splitlines()) == 3 + 4  # the four ck-path shapes with a tuned row


def test_seed_compiled_rows():
    text = sections.seed_compiled((16, 2112, 7168))
    assert "_mxfp4_quant_natural_kernel" in text and "119 CTAs" in text and "v_mfma_scale_f32_16x16x128_f8f6f4 x16" in text
    assert "not Triton, not compiled" in sections.seed_compiled((4, 2880, 512))
    with pytest.raises(ValueError, match="must be a contest shape"):
        sections.seed_compiled((1, 2, 3))


def test_splitk_sweep_draws_one_of_the_coinciding_shapes():
    frame = pd.read_csv(RESULTS_DIR / "h200" / "splitk_sweep.csv")
    text, fig = sections.splitk_sweep(frame)
    lines = text.splitlines()
    assert lines[0].startswith("8x2112x7168 and 16x2112x7168: the same")
    drawn = [ax.get_title() for ax in fig.axes]
    assert "16x2112x7168" in drawn and "8x2112x7168" not in drawn
    assert len(drawn) == len(set(drawn))  # no panel twice
    row = next(line for line in lines if line.strip().startswith("16x2112x7168"))
    best = frame[(frame.m == 16) & (frame.n == 2112)].measured_us.min()
    assert row.endswith(f"{best:5.1f}")
    # K = 7168 is 224 groups: 20 and 24 ranges leave one empty (ceil(224 / split) groups each); no other
    # recorded split does, and 64x7168x2048 (64 groups, splits up to 8) never does
    assert [line.split(":")[0] for line in lines if "leave a K range empty" in line] == ["16x2112x7168"]
    assert "16x2112x7168: split 20 and 24 leave a K range empty" in text
    assert "block_k 256" in fig._suptitle.get_text()
    hollow = [list(c.get_offsets()[:, 0]) for c in fig.axes[0].collections]
    assert hollow and all(xs == [20, 24] for xs in hollow)


def test_data_contract_checks_the_triton_quantizer_against_the_spec(monkeypatch):
    from mxlib.kernels import quant_triton

    text = sections.data_contract(32, 256, 512, seed=fresh_seed())
    assert "A (32, 512) torch.bfloat16" in text and "A_scale_sh (256, 16) torch.uint8" in text
    assert "C (32, 256) torch.bfloat16" in text
    real = quant_triton.mxq_quantize_shuffled

    def one_scale_off(a, rounding):
        q, s = real(a, rounding)
        s = s.clone()
        s[0, 0] += 1
        return q, s

    monkeypatch.setattr(quant_triton, "mxq_quantize_shuffled", one_scale_off)
    with pytest.raises(RuntimeError, match="differs from the spec"):
        sections.data_contract(32, 256, 512)


def test_data_contract_in_natural_layout_reads_b_through_the_seeds_views(monkeypatch):
    from mxlib.kernels import quant_triton

    text = sections.data_contract(16, 256, 1024, layout="natural")
    assert "B_shuffle viewed (16, 8192);  B_scale_sh viewed (8, 1024)" in text
    assert "A_scale (16, 32) torch.uint8 (E8M0, natural layout)" in text and "C (16, 256) torch.bfloat16" in text
    with pytest.raises(ValueError, match="k must be a multiple of 256"):
        sections.data_contract(16, 256, 320, layout="natural")
    with pytest.raises(ValueError, match="layout must be one of"):
        sections.data_contract(16, 256, 1024, layout="views")
    real = quant_triton.mxq_quantize

    def one_code_off(a, rounding):
        q, sc = real(a, rounding)
        q = q.clone()
        q[0, 0] ^= 1
        return q, sc

    monkeypatch.setattr(quant_triton, "mxq_quantize", one_code_off)
    with pytest.raises(RuntimeError, match="natural scales.*differs from the spec"):
        sections.data_contract(16, 256, 1024, layout="natural")


def test_num_ksplit_model_pins_what_aiter_runs():
    """What get_splitk runs for NUM_KSPLIT 1..8 at the seed's K (7168) with its BLOCK_SIZE_K 512, written out
    (tests/test_seed.py pins get_splitk itself)."""
    text, fig = sections.num_ksplit_model(range(1, 9))
    tiles_line, asked, runs = text.splitlines()
    assert asked == f"asked: {list(range(1, 9))}" and runs == "runs : [1, 2, 1, 2, 2, 1, 7, 7]"
    assert tiles_line == "17 tiles; header NUM_KSPLIT=14 -> 238 CTAs; config NUM_KSPLIT=7 -> 119 CTAs"
    assert [len(ax.lines[0].get_xdata()) for ax in fig.axes] == [8, 8]


def test_poisoned_checks_run_check_and_catch_unwritten_or_unrepeatable_outputs(monkeypatch):
    given = gemm_splitk.Config(block_m=16, block_n=64, block_k=128, split_k=4)
    text, ok = sections.poisoned_checks("splitk", [(16, 128, 1024, 3, None), (5, 64, 512, 4, given)], "cpu", repeats=2)
    assert ok and text.count("2 runs bitwise equal") == 2 and "(default)" in text and "split_k=4" in text
    assert "(given)" in text.splitlines()[2]
    from mxlib.spec.reference import ref_kernel

    calls = []

    def gemm(a, b_shuffle, b_scale_sh, config, out):  # the reference's C, but row 0 left as it was found
        calls.append(config)
        out[1:] = ref_kernel(fake_data[0])[1:]
        return out

    fake = _fake_path(monkeypatch, gemm)
    from mxlib.spec.reference import generate_input

    fake_data = [generate_input(2, 64, 256, 7)]
    text, ok = sections.poisoned_checks("any", [(2, 64, 256, 7, None)], "cpu")
    assert not ok and calls == ["cfg"] and "64 of 128 elements" in text  # the row still NaN fails the check
    drift = iter(range(1, 100))
    fake.gemm = lambda a, b, s, config, out: out.fill_(float(next(drift)))  # every run writes other values
    text, ok = sections.poisoned_checks("any", [(2, 64, 256, 7, None)], "cpu", repeats=2)
    assert not ok and "bitwise DIFFERENT" in text


def _fake_path(monkeypatch, gemm):
    from types import SimpleNamespace

    from mxlib.runtime import paths

    fake = SimpleNamespace(default_config=lambda m, n, k: "cfg", gemm=gemm)
    monkeypatch.setattr(paths, "path_module", lambda name: fake)
    return fake


def test_poisoned_checks_fail_repeats_that_differ_by_one_ulp(monkeypatch):
    import torch

    from mxlib.spec.reference import generate_input, ref_kernel

    c = ref_kernel(generate_input(2, 64, 256, 7))
    runs = iter(range(10))

    def gemm(a, b, s, config, out):
        out.copy_(c)
        if next(runs) == 1:
            out.view(torch.int16)[0, 0] ^= 1  # one ulp off in the second run: within tolerance, not bitwise
        return out

    _fake_path(monkeypatch, gemm)
    text, ok = sections.poisoned_checks("any", [(2, 64, 256, 7, None)], "cpu", repeats=2)
    assert "bitwise DIFFERENT" in text and not ok


def test_poisoned_checks_ask_the_h200_table_for_the_cases_shape(monkeypatch):
    from mxlib.spec.reference import generate_input, ref_kernel

    c = ref_kernel(generate_input(2, 64, 256, 7))
    used, asked = [], []
    _fake_path(monkeypatch, lambda a, b, s, config, out: used.append(config) or out.copy_(c))
    monkeypatch.setattr(sections, "h200_config", lambda path, shape: asked.append((path, shape)) or ("row", "table"))
    text, ok = sections.poisoned_checks("any", [(2, 64, 256, 7, "h200")], "cpu")
    assert ok and asked == [("any", (2, 64, 256))] and used == ["row"] and "row (table)" in text


def test_data_contract_names_the_kernel_of_its_layout_and_speed_its_run():
    natural = sections.data_contract(16, 256, 1024, layout="natural")
    shuffled = sections.data_contract(32, 256, 512)
    assert "from mxlib's Triton quant kernel" in natural and "quant+shuffle" not in natural
    assert "from mxlib's Triton quant+shuffle kernel" in shuffled
    text, _ = sections.speed(pd.read_csv(RESULTS_DIR / "h200" / "bench.csv"), "splitk")
    first, second = text.splitlines()[:2]
    assert first == "The recorded bench of 2026-12-03 08:12 UTC:" and second.endswith("us on NVIDIA H200: mean (median)")


def test_compiled_facts_show_each_paths_own_row_on_each_target():
    """The all-paths CSVs compile `_tiled_kernel` for both asm and ck on every shape, with different configs:
    each path's lines come from its own rows, gfx950's with VGPRs+AGPRs and CTAs per CU, sm_90's with
    registers and CTAs per SM."""
    for path in ("asm", "ck"):
        lines = sections.compiled_facts(path).splitlines()
        for target, unit in (("gfx950", "CU"), ("sm_90", "SM")):
            rows = {r["shape"]: r for r in sections.read_rows(sections.ISA_CSV[target])
                    if r["kernel"] == "_tiled_kernel" and r["path"] == path}
            for s in sections.seed_shapes(path):
                r, line = rows[str(s)], next(x for x in lines if x.startswith(f"  {str(s):>14} {target:>6}"))
                tile = sections.config_fields(r["config"])
                regs = f"{r['vgprs']}+{r['agprs']}" if target == "gfx950" else r["vgprs"]
                assert f"{tile['BLOCK_M']}x{tile['BLOCK_N']}x{tile['BLOCK_K']} {r['num_warps']} warps" in line
                assert f"regs {regs:>7}," in line and f", {r['ctas_per_unit']} CTAs/{unit}," in line


def test_mma_names_shorten_and_keep_the_first_kind():
    assert sections._mma("") == "none"
    assert sections._mma("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32:32;"
                         "wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16:8") == "mma.sync.m16n8k16.f32.bf16.bf16.f32 x32"


def test_poisoned_checks_poison_with_nan_and_compare_runs_by_their_bits(monkeypatch):
    """A kernel that writes nothing fails even where C is all zeros (an all-zero A), and two such runs, NaN in
    every element, are bitwise equal (NaN never equals itself as a number)."""
    from mxlib.spec import reference

    real = reference.generate_input

    def zero_a(*args, **kwargs):
        data = real(*args, **kwargs)
        data[0].zero_()
        return data

    monkeypatch.setattr(reference, "generate_input", zero_a)
    _fake_path(monkeypatch, lambda a, b, s, config, out: out)
    text, ok = sections.poisoned_checks("any", [(2, 64, 256, 7, None)], "cpu", repeats=2)
    assert not ok and "2 runs bitwise equal" in text


def test_aiter_checks_run_only_where_aiter_is_usable(monkeypatch):
    from mxlib.runtime import aiter_backend
    from mxlib.spec.reference import ref_kernel
    from mxlib.spec.shapes import Shape

    monkeypatch.setattr(aiter_backend, "available", lambda path: (False, "no MI355X here"))
    assert sections.aiter_checks("asm", sections.seed_shapes("asm")) == \
        "the seed's aiter call is not run here: no MI355X here"
    monkeypatch.setattr(aiter_backend, "available", lambda path: (True, ""))
    monkeypatch.setattr(aiter_backend, "gemm", lambda path, data: ref_kernel(data))
    text = sections.aiter_checks("asm", [Shape("test", 4, 64, 256, 5)], device="cpu")
    assert text == "aiter asm 4x64x256: all 256 elements within atol=0.01 rtol=0.01"


def test_splitk_sweep_text_on_a_made_up_sweep():
    """8 vs 16 rows at N = 2112 by their absolute gap over the configs both timed (another shape of M = 16 is
    not one of them); the unsplit span over split 1 only; a config that failed its check (no time) left out."""
    base = dict(n=2112, k=7168, block_k=256, predicted_us=1.0, device="NVIDIA H200", date="2026-12-08T00:00:00Z")
    rows = [(16, 16, 64, 1, 100.0), (16, 16, 64, 4, 40.0), (16, 32, 128, 1, 120.0), (16, 32, 128, 4, None),
            (8, 16, 64, 1, 90.0), (8, 16, 64, 4, 41.0), (8, 32, 128, 1, 121.0), (8, 32, 128, 4, 50.0)]
    frame = pd.DataFrame([dict(base, m=m, tile_m=tm, tile_n=tn, split_k=s, measured_us=t) for m, tm, tn, s, t in rows]
                         + [dict(base, m=16, n=3072, k=1536, tile_m=16, tile_n=64, split_k=1, measured_us=9.0)])
    lines = sections.splitk_sweep(frame)[0].splitlines()
    assert lines[0] == ("8x2112x7168 and 16x2112x7168: the same 3 configs differ by at most 10.0%, so only "
                        "16x2112x7168 is drawn")
    assert lines[2].split() == ["16x2112x7168", "100.0", "to", "120.0", "16x64", "split", "4", "40.0"]


def test_tuned_times_list_a_shape_with_a_row_on_one_line_only(monkeypatch):
    from mxlib.spec.aiter_rules import TunedRow

    monkeypatch.setattr(sections, "TUNED_ROWS", {"0.1.10": {(64, 3072, 1536): TunedRow("ck", 64, 128, 7.25)},
                                                 "0.1.11": {}})
    rows = sections.tuned_times("ck").splitlines()[3:]
    assert [r.split() for r in rows] == [["64x3072x1536", "ck", "64x128", "7.25", "us", "no", "row"]]
