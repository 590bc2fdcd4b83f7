"""The records under data/results/ keep their provenance: every file and folder a device's folder holds has a row
in that folder's README (its table's first column names it; the row gives the command that wrote it), and every
folder of a GPU run holds files that name the GPU and the date it ran."""
import fnmatch
import re
from pathlib import Path

import pytest

RESULTS = Path(__file__).resolve().parent.parent / "data" / "results"
DEVICES = sorted(p.name for p in RESULTS.iterdir() if p.is_dir())
# The GPUs the records ran on, by folder (mi355x/ is compiled on the CPU machine: nothing in it ran on a GPU).
GPU_DEVICES = {"h100": "H100", "h200": "H200"}
# What records a GPU run's device, versions and date, as data/results/README.md says: an env*.txt, or a
# summary.json or the header of commands.txt (and their numbered variants).
PROVENANCE = ("env*.txt", "summary*.json", "commands*.txt")
# Folders of a GPU device's tree that hold no such file, and where their provenance is instead.
PROVENANCE_ELSEWHERE = {
    ("h200", "harness"): "rung3/summary.json",  # rung 3's call (the h200 README's rung 3 row)
    ("h200", "listings"): None,  # compiled on the CPU machine: the README's "Compiled on the CPU machine" rows
}
# A date: ISO (2026-12-07) or as `date -u` prints it (Mon Dec  7 08:35:48 AM UTC 2026).
DATE = re.compile(r"\b20\d\d-[01]\d-[0-3]\d(?!\d)|\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+\d{1,2}\b.*\b20\d\d\b")


def _brace_expand(text: str) -> list[str]:
    """`a_{x,y}.csv` -> a_x.csv, a_y.csv (every group, left to right; no nesting in these READMEs)."""
    m = re.search(r"\{([^{}]*)\}", text)
    if m is None:
        return [text]
    return [out for alt in m.group(1).split(",")
            for out in _brace_expand(text[:m.start()] + alt + text[m.end():])]


def _named(readme: Path) -> set[str]:
    """The first path component of every backticked name in the first cell of the README's table rows, braces
    expanded (`run_x/*` -> run_x)."""
    names = set()
    for line in readme.read_text().splitlines():
        if not line.startswith("| ") or line.startswith("| ---"):
            continue
        for token in re.findall(r"`([^`\s]+)`", line.split("|")[1]):
            for path in _brace_expand(token):
                first = path.split("/", 1)[0]
                if first:
                    names.add(first)
    return names


def test_brace_expand():
    assert _brace_expand("harness_{test,benchmark}.csv") == ["harness_test.csv", "harness_benchmark.csv"]
    assert _brace_expand("{a,b}/x_{1,2}") == ["a/x_1", "a/x_2", "b/x_1", "b/x_2"]
    assert _brace_expand("plain.csv") == ["plain.csv"]


@pytest.mark.parametrize("device", DEVICES)
def test_every_record_is_named_in_its_readme(device):
    folder = RESULTS / device
    names = _named(folder / "README.md")
    # a folder by its own name (a pattern such as `run_*` names the rows' files, not a new run), a file by
    # its name or a pattern
    unnamed = [p.name for p in sorted(folder.iterdir()) if p.name != "README.md"
               and not (p.name in names if p.is_dir() else any(fnmatch.fnmatchcase(p.name, n) for n in names))]
    assert not unnamed, f"data/results/{device}/README.md names no command for: {unnamed}"


@pytest.mark.parametrize("device", sorted(GPU_DEVICES))
def test_every_gpu_run_folder_records_the_gpu_and_the_date(device):
    """Each folder's provenance files (`PROVENANCE`) together name the GPU and a date."""
    missing = []
    for sub in sorted(p for p in (RESULTS / device).iterdir() if p.is_dir()):
        if (device, sub.name) in PROVENANCE_ELSEWHERE:
            elsewhere = PROVENANCE_ELSEWHERE[(device, sub.name)]
            assert elsewhere is None or (RESULTS / device / elsewhere).is_file(), elsewhere
            continue
        text = "".join(f.read_text() for f in sub.iterdir()
                       if f.is_file() and any(fnmatch.fnmatchcase(f.name, p) for p in PROVENANCE))
        if GPU_DEVICES[device] not in text or not DATE.search(text):
            missing.append(sub.name)
    assert not missing, (f"data/results/{device}: folders whose {PROVENANCE} files name no "
                         f"'{GPU_DEVICES[device]}' or no date: {missing}")
