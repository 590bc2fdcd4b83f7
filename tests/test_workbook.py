"""The workbook's notebooks (committed with the canonical CPU run's outputs, one parameters cell each), figure
export and fingerprints, the runner on CPU, the write-back and the staleness check."""
import base64
import csv
import hashlib
import re
import subprocess
import sys
import textwrap

from pathlib import Path

import pytest

# The notebooks extra (nbformat, nbclient, matplotlib) is part of the test environment; a GPU image without it
# still runs the rest of the suite (`pytest -m gpu`).
nbformat = pytest.importorskip("nbformat")

from mxlib.tools import workbook

NOTEBOOKS = workbook.notebook_paths()


def test_the_nine_notebooks_are_there_in_order():
    assert [p.name[:2] for p in NOTEBOOKS] == ["01", "02", "03", "04", "05", "06", "07", "08", "09"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_valid_parameterized_and_committed_with_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    tagged = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1, "exactly one cell tagged 'parameters'"
    assert tagged[0] is code[0], "the parameters cell is the first code cell"
    assert 'PROFILE = "auto"' in tagged[0].source
    # setup() must run before anything can import triton (TRITON_INTERPRET is read at triton's import).
    assert code[1].source.startswith("from mxlib.tools.workbook import setup\nPROFILE = setup(PROFILE)")
    assert any(re.search(r"^(import|from) mxlib\b", c.source, re.M) for c in code), "the notebook imports mxlib"
    # committed form: executed in order, no injected cell, no run metadata (see workbook.committed_form)
    assert not [c for c in nb.cells if "injected-parameters" in c.metadata.get("tags", [])]
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1)), "run the workbook (make workbook)"
    assert all("execution" not in c.metadata for c in nb.cells)
    assert nb.metadata == {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                           "language_info": {"name": "python"}}
    assert any(c.outputs for c in code[1:]), "the committed notebook carries its outputs"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_committed_outputs_are_deterministic(path):
    """Nothing in a committed output may depend on the machine, the run or the clock."""
    nb = nbformat.read(path, as_version=4)
    for i, cell in enumerate(c for c in nb.cells if c.cell_type == "code"):
        lines = workbook.output_lines(cell)
        text = "\n".join(lines)
        assert str(workbook.ROOT) not in text and "/tmp/" not in text and "/home/" not in text, (i, "a path")
        assert not re.search(r"0x[0-9a-f]{6,}", text), (i, "an address")
        assert not re.search(r"\b\d+\.\d+ ?s\b", text), (i, "a wall-clock time")
        # A version read from a committed record ("compiled ... (Triton 3.9.0)") is data; any other is not.
        text_wo_records = text
        for v in workbook.recorded_triton_versions():
            text_wo_records = text_wo_records.replace(f"Triton {v}", "Triton <recorded>")
        assert not [v for v in workbook.installed_versions() if v in text_wo_records], (i, "an installed version")
        assert not any(line.startswith("error:") for line in lines), (i, "an error")
        assert not any("stderr" in line.split(":")[0] for line in lines), (i, "stderr output")
        assert not any("untagged image" in line for line in lines), (i, "an image not saved by figures.save")
        streams = [o.output_type == "stream" and o.name for o in cell.outputs]
        assert all(not (a and a == b) for a, b in zip(streams, streams[1:])), (i, "unmerged streams")


def test_without_versions_hides_what_is_installed():
    import torch

    assert workbook.without_versions(f"this PyTorch ({torch.__version__}) is not a ROCm build") == \
        "this PyTorch (<version>) is not a ROCm build"
    assert workbook.without_versions(("no", "aiter 0.1.11")) == "('no', 'aiter 0.1.11')"


def _figure_outputs():
    from mxlib.tools.figures import FIGURE_METADATA_KEY

    for path in NOTEBOOKS:
        for cell in nbformat.read(path, as_version=4).cells:
            for out in cell.get("outputs", []):
                tag = out.get("metadata", {}).get(FIGURE_METADATA_KEY)
                if tag:
                    yield path.name, tag["figure"], out


def test_every_exported_figure_is_in_a_notebook_and_matches_its_file():
    shown = {}
    for notebook, name, out in _figure_outputs():
        assert name[:2] == notebook[:2], f"{name} is shown by {notebook}"
        assert name not in shown, f"{name} shown twice"
        shown[name] = base64.b64decode(out["data"]["image/png"])
    exported = {p.stem for p in workbook.FIGURES_DIR.glob("*.svg")}
    assert sorted(shown) == sorted(exported), "a figure without a notebook, or a notebook figure not exported"
    for name, png in shown.items():
        assert (workbook.FIGURES_DIR / f"{name}.png").read_bytes() == png, f"{name}: the notebook shows another PNG"
    with open(workbook.FIGURES_DIR / "figures.csv", newline="") as f:
        assert sorted(r["figure"] for r in csv.DictReader(f)) == sorted(exported)


def test_inject_parameters_follows_the_parameters_cell(tmp_path):
    nb = nbformat.read(NOTEBOOKS[0], as_version=4)
    n = len(nb.cells)
    workbook.inject_parameters(nb, "cpu", tmp_path)
    i = next(i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", []))
    injected = nb.cells[i + 1]
    assert len(nb.cells) == n + 1 and injected.metadata["tags"] == ["injected-parameters"]
    scope = {}
    exec(injected.source, scope)
    assert scope["PROFILE"] == "cpu" and scope["FIGURES"] == str(tmp_path)


def test_inject_parameters_needs_exactly_one_parameters_cell(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")])
    with pytest.raises(ValueError, match="exactly one cell tagged 'parameters'"):
        workbook.inject_parameters(nb, "cpu", tmp_path)


def test_bad_profile_and_only_are_refused():
    with pytest.raises(ValueError, match="profile must be one of"):
        workbook.resolve_profile("tpu")
    with pytest.raises(ValueError, match="no notebook numbered 99"):
        workbook.notebook_paths(["01", "99"])
    with pytest.raises(ValueError, match="--only must name at least one notebook number"):
        workbook.notebook_paths([])  # what `--only ,` parses to


def _svg_bytes_in_fresh_process(out_dir, seed):
    """Draw a figure (image, text, legend, stamp) in a new interpreter and save it: SVG bytes and PNG path."""
    script = textwrap.dedent(f"""
        import numpy as np, pandas as pd, matplotlib.pyplot as plt
        from mxlib.tools import figures
        rng = np.random.default_rng({seed})
        fig, (a, b) = plt.subplots(1, 2)
        a.plot(rng.standard_normal(50).cumsum(), label="walk"); a.legend(); a.set_title("x / block scale")
        b.imshow(rng.random((8, 8)))
        figures.stamp(fig, pd.DataFrame({{"device": ["NVIDIA H200"], "date": ["2026-02-01T10:00:00Z"]}}), "bench.csv")
        figures.save(fig, "t", {str(out_dir)!r})
    """)
    subprocess.run([sys.executable, "-c", script], check=True, cwd=workbook.ROOT)
    return (out_dir / "t.svg").read_bytes(), out_dir / "t.png"


def test_svg_export_is_deterministic(tmp_path):
    seed = int.from_bytes(hashlib.sha256(str(tmp_path).encode()).digest()[:4], "little")  # fresh data each run
    one, png1 = _svg_bytes_in_fresh_process(tmp_path / "a", seed)
    two, png2 = _svg_bytes_in_fresh_process(tmp_path / "b", seed)
    assert one == two, "the same figure saved twice must give the same SVG bytes"
    assert png1.read_bytes() == png2.read_bytes()
    assert b"<dc:date>" not in one and b"measured on NVIDIA H200, 2026-02-01 (bench.csv)" in one
    other, _ = _svg_bytes_in_fresh_process(tmp_path / "c", seed + 1)
    assert other != one, "different data must give a different SVG (the check above is not vacuous)"


def test_save_refuses_a_path_as_name(tmp_path):
    import matplotlib.pyplot as plt

    from mxlib.tools import figures

    fig = plt.figure()
    with pytest.raises(ValueError, match="plain file stem"):
        figures.save(fig, "../escape", tmp_path)
    plt.close(fig)


def test_a_figure_title_names_the_frames_device():
    import pandas as pd

    from mxlib.tools import figures

    frame = pd.DataFrame({"device": ["NVIDIA H200", "NVIDIA H100 80GB HBM3", None]})
    assert figures.device_short(frame) == "H100 80GB HBM3, H200"
    assert figures.device_short(frame.iloc[:1]) == "H200"
    with pytest.raises(ValueError, match="'device' column"):
        figures.device_short(pd.DataFrame({"date": ["2026-02-01"]}))


def test_stamp_needs_device_and_date():
    import pandas as pd

    from mxlib.tools import figures

    with pytest.raises(ValueError, match="'date' column"):
        figures.source_line(pd.DataFrame({"device": ["H200"]}), "x.csv")
    frame = pd.DataFrame({"device": ["NVIDIA H200"] * 2, "date": ["2026-02-01T10:00:00Z", "2026-02-03T09:00:00Z"]})
    assert figures.source_line(frame, "x.csv") == "measured on NVIDIA H200, 2026-02-01..2026-02-03 (x.csv)"


def test_runner_executes_01_and_02_on_cpu(tmp_path, monkeypatch):
    # torch's kernels for a CPU without AVX2 (the notebooks' kernels inherit the variable): the committed
    # outputs, written on a machine with it, must not depend on which kernels ran (a float32 randn and linspace
    # differ in their last bits between the two, which changed notebook 01's figures)
    monkeypatch.setenv("ATEN_CPU_CAPABILITY", "default")
    out, figs = tmp_path / "nb", tmp_path / "fig"
    done = workbook.execute(["01", "02"], out_dir=out, figures_dir=figs, profile="cpu", timeout=300)
    assert [p.name for p in done] == [p.name for p in NOTEBOOKS[:2]]
    for p in done:
        nb = nbformat.read(p, as_version=4)
        injected = [c for c in nb.cells if "injected-parameters" in c.metadata.get("tags", [])]
        assert len(injected) == 1 and "PROFILE = 'cpu'" in injected[0].source
        errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
        assert not errors
        assert all(c.execution_count is not None for c in nb.cells if c.cell_type == "code")
    svgs = sorted(f.stem for f in figs.glob("*.svg"))
    assert len(svgs) >= 5 and all(s[:2] in ("01", "02") for s in svgs)
    assert sorted(f.stem for f in figs.glob("*.png")) == svgs
    with open(figs / "figures.csv", newline="") as f:
        manifest = {r["figure"]: r for r in csv.DictReader(f)}
    assert sorted(manifest) == svgs
    assert {r["profile"] for r in manifest.values()} == {"cpu"}
    assert {r["notebook"] for r in manifest.values()} == {p.name for p in NOTEBOOKS[:2]}
    # every figure is shown in the notebook as the PNG it wrote, tagged with its name and fingerprint
    nb = nbformat.read(done[0], as_version=4)
    tags = [o.metadata["mxlib"] for c in nb.cells if c.cell_type == "code" for o in c.outputs if "mxlib" in o.get("metadata", {})]
    assert sorted(t["figure"] for t in tags) == [s for s in svgs if s.startswith("01")]
    assert all(re.fullmatch(r"[0-9a-f]{64}", t["fingerprint"]) for t in tags)
    # the committed notebooks are this run's outputs (the CPU profile is the canonical run)
    assert workbook.check(done) == []


def _notebook(*sources, outputs=None):
    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell('PROFILE = "auto"\nFIGURES = None')
    params.metadata["tags"] = ["parameters"]
    nb.cells = [nbformat.v4.new_markdown_cell("# t"), params] + [nbformat.v4.new_code_cell(src) for src in sources]
    return nb


def _ran(nb, outputs):
    """`nb` as the runner leaves it: injected cell after the parameters cell, outputs, timing metadata."""
    ran = nbformat.reads(nbformat.writes(nb), as_version=4)
    workbook.inject_parameters(ran, "cpu", Path("/tmp/somewhere"))
    code = [c for c in ran.cells if c.cell_type == "code"]
    for count, (cell, outs) in enumerate(zip(code, outputs), 7):
        cell.execution_count = count
        cell.metadata["execution"] = {"iopub.execute_input": "2026-01-01T00:00:00Z"}
        cell.outputs = [nbformat.from_dict(o) for o in outs]
    return ran


def _stream(text, name="stdout"):
    return {"output_type": "stream", "name": name, "text": text}


def _figure(name, fp, png=b"png"):
    return {"output_type": "display_data", "metadata": {"mxlib": {"figure": name, "fingerprint": fp}},
            "data": {"image/png": base64.b64encode(png).decode(), "text/plain": f"[figure {name}]"}}


def test_committed_form_drops_the_run_and_keeps_the_outputs():
    src = _notebook("print('a')", "x = 1")
    ran = _ran(src, [[], [], [_stream("a"), _stream("b\n")], []])
    nb = workbook.committed_form(src, ran)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert len(nb.cells) == len(src.cells), "no injected cell"
    assert [c.execution_count for c in code] == [1, 2, 3]
    assert code[1].outputs == [_stream("ab\n")], "consecutive streams merged"
    assert all("execution" not in c.metadata for c in nb.cells)
    assert "/tmp/somewhere" not in nbformat.writes(nb)
    assert nbformat.writes(workbook.committed_form(src, ran)) == nbformat.writes(nb), "same outputs, same file"
    edited = _notebook("print('A')", "x = 1")
    with pytest.raises(ValueError, match="not the stored notebook"):
        workbook.committed_form(edited, ran)


def test_differences_compare_text_exactly_and_figures_by_fingerprint_not_png_bytes():
    src = _notebook("print(1)", "save()")
    base = workbook.committed_form(src, _ran(src, [[], [], [_stream("1\n")], [_figure("01_x", "f" * 64)]]))
    same_figure_other_png = workbook.committed_form(src, _ran(src, [[], [], [_stream("1\n")],
                                                                    [_figure("01_x", "f" * 64, b"other bytes")]]))
    assert workbook.differences(base, same_figure_other_png) == []
    other_text = workbook.committed_form(src, _ran(src, [[], [], [_stream("2\n")], [_figure("01_x", "f" * 64)]]))
    report = workbook.differences(base, other_text, "01_t.ipynb")
    assert report[0].startswith("01_t.ipynb cell 2") and any("+stdout: 2" in line for line in report)
    other_figure = workbook.committed_form(src, _ran(src, [[], [], [_stream("1\n")], [_figure("01_x", "e" * 64)]]))
    assert any("fingerprint" in line for line in workbook.differences(base, other_figure))
    never_run = _notebook("print(1)", "save()")
    assert workbook.differences(never_run, base), "a notebook committed without outputs is stale"


def test_fingerprint_sees_what_is_drawn_not_how():
    import matplotlib.pyplot as plt

    from mxlib.tools import figures

    def draw(ys, color="#0072B2", title="t", fontsize=10):
        with plt.rc_context({"font.size": fontsize, "lines.linewidth": fontsize / 5}):
            fig, ax = plt.subplots()
            ax.plot([1, 2, 3], ys, color=color, label="l")
            ax.bar([0, 1], [2.0, 3.0])
            ax.imshow([[0, 1], [2, 3]])
            ax.set(title=title, xlabel="x (us)")
            ax.legend()
            fp = figures.fingerprint(fig)
        plt.close(fig)
        return fp

    base = draw([1, 2, 3])
    assert draw([1, 2, 3], fontsize=14) == base, "rendering settings are not content"
    assert draw([1, 2, 3.0000001]) == base, "below 6 significant digits"
    for other in (draw([1, 2, 4]), draw([1, 2, 3], color="#D55E00"), draw([1, 2, 3], title="u")):
        assert other != base


def test_manifest_keeps_the_record_of_unchanged_figures(tmp_path):
    figs = tmp_path / "fig"
    figs.mkdir()
    (figs / "a.svg").write_bytes(b"<svg>a</svg>")
    (figs / "b.svg").write_bytes(b"<svg>b</svg>")
    first = {"profile": "gpu", "device": "NVIDIA H200", "torch": "2.11", "triton": "3.6", "date": "2026-03-01T00:00:00Z"}
    before = workbook._figure_stamps(figs)
    workbook._update_manifest(figs, "01_x.ipynb", sorted(before), first)
    (figs / "a.svg").write_bytes(b"<svg>a</svg>")   # redrawn, same bytes
    (figs / "b.svg").write_bytes(b"<svg>B</svg>")   # redrawn, new bytes
    after = workbook._figure_stamps(figs)
    changed = [n for n in after if after[n][1] != before[n][1]]
    assert changed == ["b"]
    second = {**first, "profile": "cpu", "device": "cpu", "date": "2026-03-02T00:00:00Z"}
    workbook._update_manifest(figs, "01_x.ipynb", changed, second)
    with open(figs / "figures.csv", newline="") as f:
        rows = {r["figure"]: r for r in csv.DictReader(f)}
    assert rows["a"]["device"] == "NVIDIA H200" and rows["b"]["device"] == "cpu"


def test_runner_names_the_failing_notebook_and_cell(tmp_path, monkeypatch):
    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell('PROFILE = "auto"\nFIGURES = None')
    params.metadata["tags"] = ["parameters"]
    nb.cells = [nbformat.v4.new_markdown_cell("# broken"), params,
                nbformat.v4.new_code_cell("x = 1"), nbformat.v4.new_code_cell("raise RuntimeError('poisoned cell')")]
    nb_dir = tmp_path / "notebooks"
    nb_dir.mkdir()
    nbformat.write(nb, nb_dir / "01_broken.ipynb")
    monkeypatch.setattr(workbook, "NOTEBOOKS_DIR", nb_dir)
    with pytest.raises(workbook.WorkbookError) as info:
        workbook.execute(None, out_dir=tmp_path / "out", figures_dir=tmp_path / "fig", profile="cpu", timeout=60)
    assert info.value.notebook == "01_broken.ipynb"
    assert info.value.cell_index == 3  # as stored: the injected parameters cell does not count
    assert "poisoned cell" in str(info.value)
    assert (tmp_path / "out" / "01_broken.ipynb").is_file(), "the failed notebook is kept for inspection"


def test_speed_bars_draws_each_timed_row_and_skips_failed_ones():
    import math

    import matplotlib.pyplot as plt
    import pandas as pd

    from mxlib.tools import figures

    rows = []
    for m, n, k in ((4, 2880, 512), (16, 2112, 7168)):
        for prov, med in (("mxlib", 5.0), ("cublas_bf16", 9.0), ("empty", 3.5)):
            for timing in ("contest", "graph"):
                rows.append(dict(m=m, n=n, k=k, provider=prov, timing=timing, mean_us=med, median_us=med - 0.1,
                                 p20_us=med - 0.5, p80_us=med + 1.0, empty_us=3.4, floor_us=0.2 * m))
    rows[0]["mean_us"] = math.nan  # mxlib failed on the first shape: no bar for it
    fig, ax = plt.subplots()
    shapes = figures.speed_bars(ax, pd.DataFrame(rows), ["mxlib", "cublas_bf16"])
    assert shapes == ["4x2880x512", "16x2112x7168"]
    heights = sorted(round(p.get_height(), 3) for p in ax.patches)
    assert heights == [5.0, 9.0, 9.0]  # graph rows and the empty provider are not drawn
    # the empty+floor marks: horizontal segments 0.9 wide (error bars are vertical)
    floors = sorted(round(float(s[0][1]), 3) for c in ax.collections for s in c.get_segments()
                    if s[0][1] == s[1][1] and s[1][0] - s[0][0] > 0.8)
    assert floors == [round(3.4 + 0.2 * 4, 3), round(3.4 + 0.2 * 16, 3)]
    spreads = sorted((round(float(s[0][1]), 3), round(float(s[1][1]), 3)) for c in ax.collections
                     for s in c.get_segments() if s[0][0] == s[1][0])
    assert spreads == [(4.5, 6.0), (8.5, 10.0), (8.5, 10.0)], "a p20..p80 line over each bar"
    assert "mean" in ax.get_ylabel()
    plt.close(fig)
    fig, ax = plt.subplots()
    figures.speed_bars(ax, pd.DataFrame(rows), ["cublas_bf16"], stat="median_us")
    assert sorted(round(p.get_height(), 3) for p in ax.patches) == [8.9, 8.9]
    plt.close(fig)
    with pytest.raises(ValueError, match="stat must be"):
        figures.speed_bars(ax, pd.DataFrame(rows), ["mxlib"], stat="p20_us")
    frame = pd.DataFrame(rows).assign(device="NVIDIA H100 80GB HBM3", date="2026-12-06T16:00:00Z")
    fig = figures.bench_figure(frame, ["mxlib", "cublas_bf16"], "two shapes", "x/bench.csv")
    (ax,) = fig.axes
    assert ax.get_title() == "H100 80GB HBM3: two shapes" and len(ax.patches) == 3
    assert {t.get_text() for t in ax.get_legend().get_texts()} == {"mxlib", "cublas_bf16", "empty kernel + floor"}
    assert [t.get_text() for t in fig.texts] == ["measured on NVIDIA H100 80GB HBM3, 2026-12-06 (x/bench.csv)"]
    plt.close(fig)


def test_recorded_says_plainly_when_a_csv_is_missing(capsys):
    assert workbook.recorded("no_such_file.csv", device="nowhere") is None
    out = capsys.readouterr().out
    assert "not recorded yet" in out and "data/results/nowhere/no_such_file.csv" in out
    assert workbook.recorded_rows("no_such_file.csv", device="nowhere") is None
    assert "data/results/nowhere/no_such_file.csv" in capsys.readouterr().out


def test_recorded_rows_are_the_csv_rows_of_the_same_file(tmp_path, monkeypatch):
    monkeypatch.setattr(workbook, "RESULTS_DIR", tmp_path)
    (tmp_path / "dev").mkdir()
    (tmp_path / "dev" / "run.csv").write_text("m,state\n4,cold\n16,\n")
    assert workbook.recorded_rows("run.csv", device="dev") == [{"m": "4", "state": "cold"}, {"m": "16", "state": ""}]
    assert workbook.recorded("run.csv", device="dev").m.tolist() == [4, 16]


def test_rerun_dir_is_a_folder_of_its_own_beside_the_records(tmp_path, monkeypatch):
    monkeypatch.setattr(workbook, "RESULTS_DIR", tmp_path)
    path = workbook.rerun_dir("cpu")
    assert path == tmp_path / "cpu" / workbook.RERUN_FOLDER and path.is_dir()


MEASURING = re.compile(r'"-m", "mxlib", "(bench|sweep)"|probe_fused\.py|harness\.(write_csv|all_modes)')


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_measuring_cells_write_into_the_rerun_folder_not_over_the_records(path):
    """A GPU run of the workbook must not replace the recorded CSVs its text cites: every cell that
    runs a measuring command names its output, and names it under `rerun_dir`."""
    nb = nbformat.read(path, as_version=4)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and MEASURING.search(cell.source):
            assert "rerun_dir(PROFILE)" in cell.source, f"{path.name} cell {i} measures outside rerun_dir"
            if re.search(r'"mxlib", "(bench|sweep)"|probe_fused', cell.source):
                assert '"--out"' in cell.source, f"{path.name} cell {i} runs a measuring command without --out"


def test_utilization_panels_draw_one_axes_per_device_with_labelled_bars():
    import matplotlib.pyplot as plt

    from mxlib.tools import figures

    fig = figures.utilization_panels([
        ("MI355X", "#D55E00", [("4x2880x512", 23, 0.09, "32x128"), ("32x4096x512", 32, 0.125, "32x128")]),
        ("H200", "#009E73", [("4x2880x512", 90, 0.682, "16x32"), ("32x4096x512", 128, 0.97, "32x32")]),
    ])
    assert len(fig.axes) == 2, "devices never share an axes"
    for ax, heights, labels in zip(fig.axes, ([9.0, 12.5], [68.2, 97.0]), (["23\n32x128", "32\n32x128"], ["90\n16x32", "128\n32x32"])):
        assert [round(p.get_height(), 1) for p in ax.patches] == heights
        assert [t.get_text() for t in ax.texts] == labels
    assert [ax.get_title() for ax in fig.axes] == ["MI355X", "H200"]
    plt.close(fig)


def test_doc_section_prints_a_models_own_statement_or_names_the_missing_heading():
    from mxlib.tools import occupancy

    text = workbook.doc_section(occupancy, "Latency model", "Bytes in flight")
    assert text.startswith("Latency model (`predict`)") and "predicted = launch" in text and "Bytes in flight" not in text
    with pytest.raises(ValueError, match="no heading 'No such heading'"):
        workbook.doc_section(occupancy, "Latency model", "No such heading")


def test_recorded_triton_versions_of_named_records(tmp_path):
    (tmp_path / "a.csv").write_text("shape,triton\n4x64x512,3.9.0\n8x64x512,\n")
    (tmp_path / "b.csv").write_text("shape,triton\n4x64x512,3.6.0\n")
    assert workbook.recorded_triton_versions([tmp_path / "a.csv"]) == {"3.9.0"}
    assert workbook.recorded_triton_versions([tmp_path / "a.csv", tmp_path / "b.csv"]) == {"3.6.0", "3.9.0"}


def test_recorded_triton_versions_come_from_the_isa_records():
    import csv

    versions = workbook.recorded_triton_versions()
    with open(workbook.RESULTS_DIR / "mi355x" / "isa_all_paths.csv", newline="") as f:
        assert {row["triton"] for row in csv.DictReader(f)} <= versions


def test_write_back_and_check_on_a_folder(tmp_path):
    """write_back stores the executed outputs in committed form and names the notebooks whose outputs
    changed; check then finds them current, and reports a notebook whose committed outputs differ."""
    import io

    committed_dir, ran_dir = tmp_path / "notebooks", tmp_path / "ran"
    committed_dir.mkdir()
    ran_dir.mkdir()
    src = _notebook("print(1)")
    nbformat.write(workbook.committed_form(src, _ran(src, [[], [], [_stream("1\n")]])), committed_dir / "01_t.ipynb")
    nbformat.write(_ran(src, [[], [], [_stream("2\n")]]), ran_dir / "01_t.ipynb")
    log = io.StringIO()
    assert workbook.check([ran_dir / "01_t.ipynb"], committed_dir, log=log) != []
    assert "STALE" in log.getvalue()
    log = io.StringIO()
    assert workbook.write_back([ran_dir / "01_t.ipynb"], committed_dir, log=log) == ["01_t.ipynb"]
    assert "01_t.ipynb changed" in log.getvalue()
    assert workbook.check([ran_dir / "01_t.ipynb"], committed_dir, log=io.StringIO()) == []
    assert workbook.write_back([ran_dir / "01_t.ipynb"], committed_dir, log=io.StringIO()) == []


def test_doc_section_wants_its_headings_in_order_and_no_files_give_no_versions():
    from mxlib.tools import occupancy

    with pytest.raises(ValueError, match="no heading 'Latency model' after 'Bytes in flight'"):
        workbook.doc_section(occupancy, "Bytes in flight", "Latency model")
    assert workbook.recorded_triton_versions([]) == set()


def test_out_and_figures_never_land_on_committed_files(tmp_path, capsys):
    """The executed copies never go into notebooks/ (they carry the injected parameters cell); with --check,
    nothing goes under notebooks/ or data/; a file where a folder is asked for is named (nothing runs first)."""
    refused = workbook.folders_refused
    root, nbs = workbook.ROOT, workbook.NOTEBOOKS_DIR
    assert refused(tmp_path / "nb", tmp_path / "fig", check=False) is None
    assert refused(tmp_path / "nb", workbook.FIGURES_DIR, check=False) is None  # the default run's figures
    assert "--out notebooks is under notebooks, which holds committed files" in refused(nbs, tmp_path, check=False)
    assert "--out notebooks/sub is under notebooks" in refused(nbs / "sub", tmp_path, check=False)
    for out, figures, name in ((tmp_path, root / "data" / "figures", "--figures"), (root / "data", tmp_path, "--out")):
        problem = refused(out, figures, check=True)
        assert problem.startswith(f"{name} data") and problem.endswith("(--check writes nothing there)"), problem
    from mxlib.__main__ import main

    (tmp_path / "file").write_text("x")
    assert refused(tmp_path / "file", tmp_path, check=False).endswith("is a file, not a folder")  # a default too
    assert refused(tmp_path, tmp_path / "file", check=False).startswith("--figures ")
    for option in ("--out", "--figures"):  # read through arguments.output_folder, before anything runs
        with pytest.raises(SystemExit) as exit_:
            main(["workbook", option, str(tmp_path / "file")])
        assert exit_.value.code == 2, option
        err = capsys.readouterr().err
        assert f"argument {option}:" in err and "is a file, not a folder" in err, err
