"""The records under data/results/ keep their provenance: every file and folder a device's folder holds is
named in that folder's README (the command that wrote it), every folder of a GPU run holds the file that says
where and when it ran, and every such env file names the device and the date."""
import fnmatch
import re
from pathlib import Path

import pytest

RESULTS = Path(__file__).resolve().parent.parent / "data" / "results"
DEVICES = ("h100", "h200", "mi355x")
GPU_DEVICES = {"h100": "H100", "h200": "H200"}
# What records a GPU run's device, versions and date: the README of data/results/ names these three.
PROVENANCE = ("env*.txt", "summary*.json", "commands*.txt")
# Folders of a GPU device's tree that hold no such file, and where their provenance is instead.
PROVENANCE_ELSEWHERE = {
    ("h200", "harness"): "rung3/summary.json",  # rung 3's call (the h200 README's rung 3 row)
    ("h200", "listings"): None,  # compiled on the CPU machine: the README's "Compiled on the CPU machine" rows
}


def _brace_expand(text: str) -> list[str]:
    """`a_{x,y}.csv` -> a_x.csv, a_y.csv (every group, left to right; no nesting in these READMEs)."""
    m = re.search(r"\{([^{}]*)\}", text)
    if m is None:
        return [text]
    return [out for alt in m.group(1).split(",")
            for out in _brace_expand(text[:m.start()] + alt + text[m.end():])]


def _named(readme: Path) -> set[str]:
    """The first path component of every backticked name in a README, braces expanded (`run_x/*` -> run_x)."""
    names = set()
    for token in re.findall(r"`([^`\s]+)`", readme.read_text()):
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
    """Each folder's provenance files (`PROVENANCE`) together name the GPU and a year."""
    missing = []
    for sub in sorted(p for p in (RESULTS / device).iterdir() if p.is_dir()):
        if (device, sub.name) in PROVENANCE_ELSEWHERE:
            elsewhere = PROVENANCE_ELSEWHERE[(device, sub.name)]
            assert elsewhere is None or (RESULTS / device / elsewhere).is_file(), elsewhere
            continue
        text = "".join(f.read_text() for f in sub.iterdir()
                       if f.is_file() and any(fnmatch.fnmatchcase(f.name, p) for p in PROVENANCE))
        if GPU_DEVICES[device] not in text or not re.search(r"\b20\d\d\b", text):
            missing.append(sub.name)
    assert not missing, (f"data/results/{device}: folders whose {PROVENANCE} files name no "
                         f"'{GPU_DEVICES[device]}' or no year: {missing}")
