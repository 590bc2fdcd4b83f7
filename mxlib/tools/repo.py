"""Folders of an mxlib checkout that the tools write to: measured results, exported figures and the
notebooks. The library itself needs none of them (its data ships in the package, `mxlib/data/`); a
tool that writes results is run from a checkout."""
from __future__ import annotations

from pathlib import Path

from ..spec.devices import kind_of_name

ROOT = Path(__file__).resolve().parents[2]
DATA_DIR = ROOT / "data"
RESULTS_DIR = DATA_DIR / "results"
FIGURES_DIR = DATA_DIR / "figures"
NOTEBOOKS_DIR = ROOT / "notebooks"


def device_results_dir(device_name: str) -> Path:
    """data/results/<kind>/ for a GPU's name, <kind> its table name (`mxlib.spec.devices.kind_of_name`:
    h200 on an H200); "cpu" gives data/results/cpu/."""
    return RESULTS_DIR / kind_of_name(device_name)
