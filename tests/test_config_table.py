"""mxlib.tools.config_table.set_row and the two scripts that write the H200 table through it."""
import csv
import importlib.util
import sys
from pathlib import Path

import pytest

from mxlib.runtime.dispatch import load_table
from mxlib.tools.config_table import set_row

ROOT = Path(__file__).resolve().parents[1]
TABLE = ("# a comment\n"
         "m,n,k,path,config\n"
         "4,64,512,mma_sm90,split_k=1\n"
         "4,64,512,fused,split_k=4\n"
         "# between shapes\n"
         "8,64,512,fused,split_k=2\n"
         "8,64,512,asm,block_n=32\n")


def _rows(file):
    return [ln for ln in file.read_text().splitlines() if not ln.startswith("#")][1:]


@pytest.fixture
def table(tmp_path):
    file = tmp_path / "h200.csv"
    file.write_text(TABLE)
    return file


def test_replacing_a_row_keeps_its_place_and_every_other_line(table):
    set_row(table, (4, 64, 512), "fused", "split_k=8")
    assert table.read_text() == TABLE.replace("4,64,512,fused,split_k=4", "4,64,512,fused,split_k=8")


@pytest.mark.parametrize("index, want", [
    (0, ["8,64,512,asm,block_n=32", "8,64,512,fused,split_k=2"]),
    (1, ["8,64,512,fused,split_k=2", "8,64,512,asm,block_n=32"]),
    (9, ["8,64,512,fused,split_k=2", "8,64,512,asm,block_n=32"])])
def test_index_moves_the_row_among_its_shapes_rows_only(table, index, want):
    set_row(table, (8, 64, 512), "asm", "block_n=32", index=index)
    assert _rows(table) == ["4,64,512,mma_sm90,split_k=1", "4,64,512,fused,split_k=4", *want]
    assert "# between shapes" in table.read_text() and table.read_text().startswith("# a comment\n")


def test_a_new_path_goes_last_among_its_shape_and_a_new_shape_at_the_end(table):
    set_row(table, (4, 64, 512), "ck", "block_n=64")
    set_row(table, (16, 64, 512), "fused", "split_k=1")
    assert _rows(table) == ["4,64,512,mma_sm90,split_k=1", "4,64,512,fused,split_k=4", "4,64,512,ck,block_n=64",
                            "8,64,512,fused,split_k=2", "8,64,512,asm,block_n=32", "16,64,512,fused,split_k=1"]
    assert list(load_table("h200", str(table.parent))) == [(4, 64, 512), (8, 64, 512), (16, 64, 512)]


@pytest.mark.parametrize("text", [
    "m,n,k,path,config\n4,64,512,fused,split_k=4\n4,64,512,splitk,split_k=7\n4,64,512,fused_fp4,split_k=1\n",
    "m,n,k,path,config\n4,64,512,fused,split_k=4\n8,64,512,fused,split_k=2\n4,64,512,splitk,split_k=7\n"
    "4,64,512,fused_fp4,split_k=1\n"])
def test_a_row_moved_down_lands_at_its_index_among_the_shapes_rows(tmp_path, text):
    """Moving a row down deletes its line first: the shape's later rows move up one line, so the index is
    counted among the rows that remain, adjacent or interleaved with another shape's."""
    file = tmp_path / "h200.csv"
    file.write_text(text)
    set_row(file, (4, 64, 512), "fused", "split_k=8", index=1)
    assert [r for r in _rows(file) if r.startswith("4,")] == [
        "4,64,512,splitk,split_k=7", "4,64,512,fused,split_k=8", "4,64,512,fused_fp4,split_k=1"]
    assert [p for p, _ in load_table("h200", str(tmp_path))[(4, 64, 512)]] == ["splitk", "fused", "fused_fp4"]


def test_an_index_equal_to_the_shapes_row_count_puts_the_row_last(table):
    """index counts positions among the shape's rows: one past its last row is the end of them."""
    set_row(table, (4, 64, 512), "ck", "block_n=64", index=2)
    assert _rows(table)[:3] == ["4,64,512,mma_sm90,split_k=1", "4,64,512,fused,split_k=4", "4,64,512,ck,block_n=64"]


def test_a_row_set_at_its_own_index_keeps_its_line_in_an_interleaved_table(tmp_path):
    """A row whose position among its shape's rows does not change keeps its line, even where the table
    groups rows by path and the shape's rows are not adjacent."""
    file = tmp_path / "h200.csv"
    text = ("m,n,k,path,config\n4,64,512,mma_sm90,split_k=1\n8,64,512,mma_sm90,split_k=1\n"
            "4,64,512,fused,split_k=4\n8,64,512,fused,split_k=4\n")
    file.write_text(text)
    set_row(file, (4, 64, 512), "fused", "split_k=8", index=1)
    assert file.read_text() == text.replace("4,64,512,fused,split_k=4", "4,64,512,fused,split_k=8")


def test_the_dispatcher_reads_the_written_row_at_once(table):
    assert load_table("h200", str(table.parent))[(4, 64, 512)][0] == ("mma_sm90", {"split_k": 1})
    set_row(table, (4, 64, 512), "fused", "split_k=4", index=0)
    assert load_table("h200", str(table.parent))[(4, 64, 512)][0] == ("fused", {"split_k": 4})


@pytest.mark.parametrize("kwargs, match", [
    ({"path": "nope"}, "path must be one of"),
    ({"config": "split_k=two"}, "config value of split_k must be an integer"),
    ({"config": "split_k"}, "config items must be key=value"),
    ({"index": -1}, "index must be None or >= 0")])
def test_a_bad_row_is_refused_before_the_file_is_touched(table, kwargs, match):
    args = {"path": "fused", "config": "split_k=4", "index": None, **kwargs}
    with pytest.raises(ValueError, match=match):
        set_row(table, (4, 64, 512), **args)
    assert table.read_text() == TABLE


def test_a_file_without_the_table_header_is_refused(tmp_path):
    file = tmp_path / "x.csv"
    file.write_text("m,n,k,config\n")
    with pytest.raises(ValueError, match="must be m,n,k,path,config"):
        set_row(file, (4, 64, 512), "fused", "split_k=4")


def test_pick_fused_winners_changes_only_the_fused_rows(tmp_path, monkeypatch):
    """The rung-3 script takes each shape's fastest checked fused launch, leaving the rows before it in place."""
    spec = importlib.util.spec_from_file_location("pick_fused_winners", ROOT / "scripts" / "pick_fused_winners.py")
    pick = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pick)
    (tmp_path / "h200.csv").write_text(TABLE)
    monkeypatch.setattr(pick, "CONFIG_DIR", tmp_path)
    probe = tmp_path / "run" / "probe.csv"
    probe.parent.mkdir()
    base = {"variant": "fused", "ok": "1", "graph_us": "5", "floor_us": "1", "empty_us": "3", "device": "d",
            "triton": "t", "date": "2026-12-04"}
    with probe.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["m", "n", "k", "config", "contest_us", *base])
        w.writeheader()
        w.writerow({"m": 4, "n": 64, "k": 512, "config": "split_k=2", "contest_us": "9", **base})
        w.writerow({"m": 4, "n": 64, "k": 512, "config": "split_k=8", "contest_us": "7", **base})
        w.writerow({"m": 4, "n": 64, "k": 512, "config": "split_k=1", "contest_us": "6", **base, "ok": "0"})
        w.writerow({"m": 4, "n": 64, "k": 512, "config": "split_k=3", "contest_us": "5", **base,
                    "variant": "a_quantized"})
    monkeypatch.setattr(sys, "argv", ["pick_fused_winners.py", str(probe)])
    assert pick.main() == 0
    assert _rows(tmp_path / "h200.csv") == ["4,64,512,mma_sm90,split_k=1", "4,64,512,fused,split_k=8",
                                            "8,64,512,fused,split_k=2", "8,64,512,asm,block_n=32"]
    with (probe.parent / "h200_fused.csv").open() as f:
        (winner,) = list(csv.DictReader(f))
    assert winner["config"] == "split_k=8" and winner["split_k"] == "8" and winner["contest_us"] == "7"


def test_rewriting_the_shipped_tables_with_their_own_rows_changes_no_byte(tmp_path):
    """The shipped tables group rows by path, so a shape's rows are far apart, and the MI355X table keeps a
    comment above each shape's one row: a row rewritten where it stands keeps its line in both."""
    from mxlib.runtime.dispatch import CONFIG_DIR

    for kind in ("h200", "mi355x"):
        file = tmp_path / f"{kind}.csv"
        text = (CONFIG_DIR / f"{kind}.csv").read_text()
        file.write_text(text)
        for line in [ln for ln in text.splitlines() if ln and not ln.startswith(("#", "m,"))]:
            m, n, k, path, config = line.split(",", 4)
            set_row(file, (int(m), int(n), int(k)), path, config)
        assert file.read_text() == text, kind


def test_a_moved_row_lands_among_its_shapes_rows_in_an_interleaved_table(tmp_path):
    file = tmp_path / "h200.csv"
    file.write_text("m,n,k,path,config\n4,64,512,mma_sm90,split_k=1\n8,64,512,mma_sm90,split_k=1\n"
                    "4,64,512,fused,split_k=4\n8,64,512,fused,split_k=4\n")
    set_row(file, (8, 64, 512), "fused", "split_k=2", index=0)
    set_row(file, (4, 64, 512), "ck", "block_n=64")
    assert _rows(file) == ["4,64,512,mma_sm90,split_k=1", "8,64,512,fused,split_k=2", "8,64,512,mma_sm90,split_k=1",
                           "4,64,512,fused,split_k=4", "4,64,512,ck,block_n=64"]


def test_describe_names_the_first_row_its_family_and_unseen_shapes(tmp_path):
    from mxlib.spec.shapes import Shape
    from mxlib.tools.config_table import describe

    (tmp_path / "kind.csv").write_text(
        "m,n,k,path,config\n"
        "64,128,512,fused,block_m=64 block_n=64 block_k=128 split_k=1 num_warps=4 num_stages=3 a_once=0\n"
        "64,128,512,mma_sm90,block_m=64 block_n=64 block_k=128 split_k=1 num_warps=8 num_stages=6 warps_k=2 wgmma=2\n"
        "4,128,512,mma_sm90,block_m=8 block_n=32 block_k=512 split_k=1 num_warps=8 num_stages=1 warps_k=4 wgmma=0\n"
        "8,128,512,mma_sm90,block_m=16 block_n=64 block_k=128 split_k=1 num_warps=4 num_stages=4 warps_k=0 wgmma=2\n")
    shapes = [Shape("test", 64, 128, 512, 1), Shape("test", 4, 128, 512, 2), Shape("benchmark", 8, 128, 512, 3),
              Shape("extra", 16, 128, 512, 4)]
    lines = describe("kind", shapes, "no row here", directory=str(tmp_path))
    assert [ln.split()[2:4] for ln in lines[:3]] == [["fused", "block_m=64"], ["mma_sm90", "(direct)"],
                                                     ["mma_sm90", "(wspec)"]]  # the first row of each shape
    assert lines[0].endswith("a_once=0") and lines[2].startswith("benchmark ")
    assert lines[3].split(None, 2)[2] == "no row here"
