"""What every recorded result carries, so a number can be traced to the run that made it.

`run_metadata` gives the columns each tool writes beside its measurements (bench, sweeps, harness, the
workbook's figure manifest, the H200 scripts): the device's name, the torch and Triton versions, and
the date (UTC, to the second). `utc_date` is the day alone, for a written artifact that names when it
was written (the exported submission's header).
"""
from __future__ import annotations

import datetime
import importlib.metadata

import torch

from ..spec.devices import device_name

DATE_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


def utc_date() -> str:
    """Today's date in UTC, YYYY-MM-DD: the day a written artifact (an exported submission) names."""
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")


def triton_version() -> str:
    """The installed Triton's version, or "" without one (read from package metadata: Triton is not imported)."""
    try:
        return importlib.metadata.version("triton")
    except importlib.metadata.PackageNotFoundError:
        return ""


def run_metadata(device: str | None = None) -> dict:
    """{"device", "torch", "triton", "date"} for a run now. `device` names where it ran (default: the
    current GPU's name, or "cpu" without one)."""
    return {"device": device_name() if device is None else device, "torch": torch.__version__,
            "triton": triton_version(),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime(DATE_FORMAT)}
