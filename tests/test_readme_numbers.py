"""README.md's tables of H200 numbers say what their CSVs say. The latest full record: every cell is the recorded
run's contest mean (floor, providers, touch at its best grid, the empty kernel) to the decimals shown, the path
the dispatcher took is the one it recorded, and the two geomean rows are the geomeans of the means and of the
medians over the benchmark shapes. "How it got here": each run's geomeans of the means."""
import re
from pathlib import Path

from mxlib.tools.acceptance import touch_best_rows
from mxlib.tools.bench_csv import number, read_csv
from mxlib.tools.stats import geomean

ROOT = Path(__file__).resolve().parent.parent
# The table's columns of numbers -> the provider whose contest row holds them ("floor": the mxlib row's floor_us).
COLUMNS = {"floor": "floor", "mxlib": "mxlib", "fused": "mxlib:fused", "fused_fp4": "mxlib:fused_fp4",
           "mma_sm90": "mxlib:mma_sm90", "cuBLAS bf16": "cublas_bf16", "touch, best grid": "touch_best",
           "empty kernel": "empty"}


def _section(heading: str) -> str:
    """README's text under `heading`, up to the next heading."""
    return (ROOT / "README.md").read_text().split(heading + "\n", 1)[1].split("\n#", 1)[0]


def _table(section: str) -> tuple[list[str], list[list[str]]]:
    lines = [ln for ln in section.splitlines() if ln.startswith("|")]
    cells = [[c.strip() for c in ln.strip("|").split("|")] for ln in lines]
    return cells[0], cells[2:]


def _decimals(cell: str) -> int:
    return len(cell.split(".", 1)[1]) if "." in cell else 0


def _contest_rows(csv: Path) -> list[dict]:
    """The contest rows of a bench CSV's benchmark shapes, with touch at its best grid as provider touch_best."""
    rows = read_csv(csv)
    return [r for r in rows + touch_best_rows(rows) if r["timing"] == "contest" and r["kind"] == "benchmark"]


def _geomean(rows: list[dict], provider: str, stat: str = "mean_us") -> float:
    return geomean([number(r[stat]) for r in rows if r["provider"] == provider])


def test_latest_record_table_matches_its_csv():
    section = _section("### The latest full record")
    match = re.search(r"`data/results/h200/([^`/]+)/`", section)
    assert match, "the latest full record names no folder data/results/h200/<run>/"
    rows = _contest_rows(ROOT / "data" / "results" / "h200" / match.group(1) / "bench.csv")
    by = {(int(r["m"]), int(r["n"]), int(r["k"]), r["provider"]): r for r in rows}
    header, body = _table(section)
    checked = 0
    for row in body:
        label = row[0]
        for col, cell in zip(header[1:], row[1:]):
            if col == "its path (family)" and cell:
                assert cell.split(" ", 1)[0] == by[(*map(int, row[0].split(",")), "mxlib")]["path"], (label, cell)
                checked += 1
            if col not in COLUMNS or not cell:
                continue
            prov = COLUMNS[col]
            if label.startswith("geomean") or label.startswith("(of medians"):
                if prov == "floor":
                    continue
                stat = "mean_us" if label.startswith("geomean") else "median_us"
                value = _geomean(rows, prov, stat)
            else:
                m, n, k = map(int, label.split(","))
                r = by[(m, n, k, "mxlib" if prov == "floor" else prov)]
                value = number(r["floor_us" if prov == "floor" else "mean_us"])
            assert f"{value:.{_decimals(cell)}f}" == cell, (label, col, cell, value)
            checked += 1
    assert checked >= 6 * len(COLUMNS), checked


def test_version_table_matches_each_runs_csv():
    """"How it got here": each row's mxlib and cuBLAS bf16 geomeans are those of its folders' benches (a folder's
    bench.csv, or its numbered benches bench1.csv, bench2.csv ... in numeric order), to the decimals shown."""
    header, body = _table(_section("### How it got here"))
    assert header[0] == "run" and header[2:] == ["mxlib", "cuBLAS bf16"], header
    checked = 0
    for row in body:
        csvs = []
        for folder in re.findall(r"`([^`]+)/`", row[0]):
            path = ROOT / "data" / "results" / "h200" / folder
            numbered = sorted(path.glob("bench[0-9]*.csv"), key=lambda p: int(re.sub(r"\D", "", p.stem)))
            csvs += [path / "bench.csv"] if (path / "bench.csv").is_file() else numbered
        runs = [_contest_rows(c) for c in csvs]
        for cell, provider in ((row[2], "mxlib"), (row[3], "cublas_bf16")):
            shown = re.findall(r"\d+\.\d+", cell)
            assert [f"{_geomean(r, provider):.{_decimals(s)}f}" for r, s in zip(runs, shown)] == shown, row[0]
            assert len(shown) == len(runs), row[0]
            checked += len(shown)
    assert checked >= 2 * len(body)
