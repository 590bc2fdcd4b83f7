"""Folders of an mxlib checkout that the tools write to: measured results, exported figures and the
notebooks. The library itself needs none of them (its data ships in the package, `mxlib/data/`).

`ROOT` is the checkout mxlib was imported from; an installed mxlib (`pip install .`) has none, and its
tools write under the directory they are run in instead of into site-packages."""
from __future__ import annotations

import datetime
from pathlib import Path

from ..spec.devices import kind_of_name


def _root() -> Path:
    here = Path(__file__).resolve().parents[2]
    return here if (here / "pyproject.toml").is_file() and (here / "mxlib").is_dir() else Path.cwd()


ROOT = _root()
DATA_DIR = ROOT / "data"
RESULTS_DIR = DATA_DIR / "results"
FIGURES_DIR = DATA_DIR / "figures"
NOTEBOOKS_DIR = ROOT / "notebooks"


def device_results_dir(device_name: str) -> Path:
    """data/results/<kind>/ for a GPU's name, <kind> its table name (`mxlib.spec.devices.kind_of_name`:
    h200 on an H200); "cpu" gives data/results/cpu/."""
    return RESULTS_DIR / kind_of_name(device_name)


def new_result_path(device_name: str, stem: str, suffix: str = "", now=None) -> Path:
    """data/results/<kind>/<stem>_<UTC time><suffix>: where a tool's run goes when no path is given, a new name
    every run (to the second), so a rerun never writes over the recorded files the notebooks cite."""
    now = now or datetime.datetime.now(datetime.timezone.utc)
    return device_results_dir(device_name) / f"{stem}_{now:%Y%m%dT%H%M%SZ}{suffix}"
