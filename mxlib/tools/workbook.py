"""`python -m mxlib workbook`: execute the eight notebooks in order, headless, and export their figures.

Each notebook has one cell tagged ``parameters`` (``PROFILE = "auto"``, ``FIGURES = None``). The runner
inserts a cell after it that sets the profile and the figures folder, runs every cell in a fresh
kernel whose working directory is `notebooks/` (as in JupyterLab), writes the executed notebook to
`--out`, and stops at the first failing cell, naming the notebook and the cell. `figures.csv` in the
figures folder records which run (profile, device, versions, date) made each figure's current bytes.

The notebooks call `setup(PROFILE)` first: it resolves "auto" to "gpu" or "cpu" and, on the CPU, turns
Triton's interpreter on before anything imports triton. `results_dir(profile)` is where measuring cells
write their CSVs; `recorded(name)` is how plotting cells read the recorded ones (None, said plainly, when
a CSV is not there yet). nbclient is imported only when the runner runs, so notebooks can import this module.
"""
from __future__ import annotations

import csv
import hashlib
import os
import re
import sys
import time
from pathlib import Path

from .repo import FIGURES_DIR, NOTEBOOKS_DIR, RESULTS_DIR, ROOT

PROFILES = ("auto", "cpu", "gpu")
PARAMETERS_TAG = "parameters"
INJECTED_TAG = "injected-parameters"

# ---- used inside the notebooks ----

def resolve_profile(profile: str = "auto") -> str:
    """"auto" -> "gpu" when torch sees a CUDA or ROCm device, else "cpu"; "gpu" without one raises."""
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {', '.join(map(repr, PROFILES))}, got {profile!r}")
    import torch

    if profile == "auto":
        return "gpu" if torch.cuda.is_available() else "cpu"
    if profile == "gpu" and not torch.cuda.is_available():
        raise ValueError("profile 'gpu' needs a CUDA or ROCm device, and torch sees none")
    return profile


def setup(profile: str = "auto") -> str:
    """A notebook's first call: the resolved profile, with Triton's interpreter on for "cpu".

    TRITON_INTERPRET is read when triton is imported, so on the CPU this must run before anything
    imports triton; if triton is already loaded without it, Triton cells would fail later, so say so now.
    """
    profile = resolve_profile(profile)
    if profile == "cpu":
        if "triton" in sys.modules and os.environ.get("TRITON_INTERPRET") != "1":
            raise RuntimeError("triton was imported before TRITON_INTERPRET=1 was set: restart the kernel "
                               "and run the notebook from its first cell")
        os.environ["TRITON_INTERPRET"] = "1"
    return profile


def device_slug(profile: str) -> str:
    """Folder name for a device's results: "cpu", or the GPU's, named as `python -m mxlib bench` names it ("h200")."""
    if profile == "cpu":
        return "cpu"
    from ..spec.devices import device_kind

    return device_kind("cuda:0")


def results_dir(profile: str) -> Path:
    """data/results/<device>/, created; where a notebook's measuring cells write their CSVs."""
    path = RESULTS_DIR / device_slug(profile)
    path.mkdir(parents=True, exist_ok=True)
    return path


def recorded(name: str, device: str | None = "h200"):
    """The recorded CSV data/results/<device>/<name> (device None: data/results/<name>) as a DataFrame.

    When it is not there, print so plainly and return None: a plotting cell then draws nothing, rather
    than something made up.
    """
    import pandas as pd

    path = RESULTS_DIR / name if device is None else RESULTS_DIR / device / name
    if not path.is_file():
        print(f"not recorded yet: {path.relative_to(ROOT)} does not exist, so this figure is not drawn. "
              f"Run this notebook (or the command that writes that file) on the {device or 'GPU'} to record it.")
        return None
    return pd.read_csv(path)


def installed_versions() -> list[str]:
    """The versions of Python, torch, triton, numpy, pandas and matplotlib installed here (those found)."""
    import importlib.metadata
    import platform

    found = [platform.python_version()]
    for dist in ("torch", "triton", "numpy", "pandas", "matplotlib"):
        try:
            found.append(importlib.metadata.version(dist))
        except importlib.metadata.PackageNotFoundError:
            pass
    if "torch" in sys.modules:
        found.append(sys.modules["torch"].__version__)
    return sorted(set(found), key=len, reverse=True)


def without_versions(text) -> str:
    """`str(text)` with every installed version (`installed_versions`) replaced by "<version>": a message
    printed in a notebook then reads the same on every install, as committed outputs must."""
    text = str(text)
    for version in installed_versions():
        text = text.replace(version, "<version>")
    return text


# ---- the runner ----

class WorkbookError(RuntimeError):
    """A notebook failed: which one, which cell (its index in the stored notebook, None when the
    kernel did not start), and why."""

    def __init__(self, notebook: str, cell_index: int | None, message: str):
        self.notebook, self.cell_index = notebook, cell_index
        where = f"cell {cell_index} (counting from 0, markdown included)" if cell_index is not None else "kernel start"
        super().__init__(f"{notebook} failed at {where}:\n{message}")


def notebook_paths(only=None) -> list[Path]:
    """The numbered notebooks in order; `only` keeps those whose two-digit prefix is listed."""
    paths = sorted(NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb"))
    if only is None:
        return paths
    by_prefix = {p.name[:2]: p for p in paths}
    unknown = [o for o in only if o not in by_prefix]
    if unknown:
        raise ValueError(f"--only: no notebook numbered {', '.join(unknown)}; have {', '.join(by_prefix)}")
    return [p for p in paths if p.name[:2] in set(only)]


def inject_parameters(nb, profile: str, figures_dir: Path) -> int:
    """Insert, after the cell tagged "parameters", a cell that sets PROFILE and FIGURES (papermill's
    convention); returns the inserted cell's index."""
    import nbformat

    tagged = [i for i, c in enumerate(nb.cells) if PARAMETERS_TAG in c.get("metadata", {}).get("tags", [])]
    if len(tagged) != 1:
        raise ValueError(f"a workbook notebook needs exactly one cell tagged {PARAMETERS_TAG!r}, found {len(tagged)}")
    cell = nbformat.v4.new_code_cell(f"PROFILE = {profile!r}\nFIGURES = {str(figures_dir)!r}")
    cell.metadata["tags"] = [INJECTED_TAG]
    nb.cells.insert(tagged[0] + 1, cell)
    return tagged[0] + 1


def _kernel_env(profile: str) -> dict:
    env = dict(os.environ)
    # The kernel runs in notebooks/: make this checkout's mxlib importable even when it is not installed.
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    if profile == "cpu":
        env["TRITON_INTERPRET"] = "1"
    else:
        env.pop("TRITON_INTERPRET", None)
    env.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    return env


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _error_text(nb, index: int | None, exc: Exception) -> str:
    """The failure for a log, colour codes removed. nbclient's cell errors and timeouts already show the
    cell; anything else (a dead kernel) gets the cell's first lines added."""
    text = _ANSI.sub("", str(exc)).strip()
    if index is None or nb.cells[index].source.strip() in text:
        return text
    head = "\n".join("    " + line for line in nb.cells[index].source.splitlines()[:8])
    return f"  source:\n{head}\n  {type(exc).__name__}: {text}"


def execute_notebook(path: Path, out_dir: Path, figures_dir: Path, profile: str, timeout: int) -> Path:
    """Run one notebook; write the executed copy (also when it fails) to out_dir; raise WorkbookError on failure."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    injected = inject_parameters(nb, profile, figures_dir)
    current = {"index": None}

    def on_cell_start(cell, cell_index):
        current["index"] = cell_index

    # log_level=ERROR: ipykernel warns on every start that its local TCP sockets are unencrypted.
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", on_cell_start=on_cell_start,
                            extra_arguments=["--IPKernelApp.log_level=ERROR"],
                            resources={"metadata": {"path": str(path.parent)}})
    out_dir.mkdir(parents=True, exist_ok=True)
    out_path = out_dir / path.name
    try:
        client.execute(env=_kernel_env(profile))
    except Exception as exc:  # CellExecutionError, cell timeout, dead kernel: all fatal, all reported
        nbformat.write(nb, out_path)
        index = current["index"]
        stored = index - (index > injected) if index is not None else None  # the injected cell is not in the file
        raise WorkbookError(path.name, stored, _error_text(nb, index, exc)) from exc
    nbformat.write(nb, out_path)
    return out_path


def execute(only=None, *, out_dir: Path, figures_dir: Path, profile: str = "auto", timeout: int = 600,
            log=sys.stderr) -> list[Path]:
    """Execute the notebooks in order; returns the executed copies. Stops at the first failure (WorkbookError)."""
    profile = resolve_profile(profile)
    paths = notebook_paths(only)
    if not paths:
        raise ValueError(f"no notebooks found in {NOTEBOOKS_DIR}")
    out_dir, figures_dir = Path(out_dir).resolve(), Path(figures_dir).resolve()
    figures_dir.mkdir(parents=True, exist_ok=True)
    print(f"workbook: {len(paths)} notebooks, profile {profile}, notebooks -> {out_dir}, figures -> {figures_dir}",
          file=log, flush=True)
    done, t_all, run = [], time.perf_counter(), _run_info(profile)
    for i, path in enumerate(paths, 1):
        before = _figure_stamps(figures_dir)
        print(f"[{i}/{len(paths)}] {path.name} ...", file=log, flush=True)
        t0 = time.perf_counter()
        done.append(execute_notebook(path, out_dir, figures_dir, profile, timeout))
        after = _figure_stamps(figures_dir)
        saved = sorted(n for n, st in after.items() if before.get(n, (None,))[0] != st[0])
        changed = [n for n in saved if before.get(n, (None, None))[1] != after[n][1]]
        _update_manifest(figures_dir, path.name, changed, run)
        print(f"[{i}/{len(paths)}] {path.name} ok in {time.perf_counter() - t0:.1f} s, {len(saved)} figures "
              f"({len(changed)} new or changed){': ' + ', '.join(saved) if saved else ''}", file=log, flush=True)
    total = len(_figure_stamps(figures_dir))
    print(f"workbook: all {len(paths)} notebooks ran in {time.perf_counter() - t_all:.1f} s; "
          f"{total} figures in {figures_dir}", file=log, flush=True)
    return done


MANIFEST = "figures.csv"
MANIFEST_FIELDS = ("figure", "notebook", "profile", "device", "torch", "triton", "date")


def _run_info(profile: str) -> dict:
    from .provenance import run_metadata

    return {"profile": profile, **run_metadata(None if profile == "gpu" else "cpu")}


def _update_manifest(figures_dir: Path, notebook: str, changed: list, run: dict) -> None:
    """Record in <figures>/figures.csv which run (profile, device, versions, date) made each figure's content.

    Only figures whose bytes this run changed (or created) get a new row: re-running on the CPU, which
    redraws the same bytes, keeps the record of the H200 run that made them, and a partial run (--only)
    keeps the other notebooks' rows. Figures drawn from measurements also carry their own source in a
    corner (`mxlib.tools.figures.stamp`).
    """
    path = figures_dir / MANIFEST
    rows = {}
    if path.is_file():
        with open(path, newline="") as f:
            rows = {r["figure"]: r for r in csv.DictReader(f)}
    for name in changed:
        rows[name] = {"figure": name, "notebook": notebook, **run}
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=MANIFEST_FIELDS, lineterminator="\n")
        w.writeheader()
        for name in sorted(rows):
            w.writerow(rows[name])


def _figure_stamps(figures_dir: Path) -> dict:
    """Figure name -> (mtime_ns of its SVG, hash of its SVG and PNG bytes): which figures a notebook
    saved, and which of those it changed."""
    stamps = {}
    for svg in figures_dir.glob("*.svg"):
        png = svg.with_suffix(".png")
        digest = hashlib.sha256(svg.read_bytes() + (png.read_bytes() if png.is_file() else b"")).hexdigest()
        stamps[svg.stem] = (svg.stat().st_mtime_ns, digest)
    return stamps


def add_arguments(p) -> None:
    p.add_argument("--out", type=Path, default=ROOT / "out" / "notebooks",
                   help="folder for the executed notebooks (default: out/notebooks)")
    p.add_argument("--figures", type=Path, default=FIGURES_DIR,
                   help="folder for the exported SVG and PNG figures (default: data/figures)")
    p.add_argument("--profile", choices=PROFILES, default="auto",
                   help="gpu runs the measuring cells; cpu runs Triton in its interpreter at small shapes "
                        "(default: gpu when torch sees a GPU)")
    p.add_argument("--only", type=lambda s: [x.strip() for x in s.split(",") if x.strip()],
                   help="comma-separated notebook numbers to run, e.g. 01,02")
    p.add_argument("--timeout", type=int, default=600, help="seconds allowed per cell (default: 600)")


def run(args) -> int:
    try:
        execute(args.only, out_dir=args.out, figures_dir=args.figures, profile=args.profile, timeout=args.timeout)
    except ValueError as exc:  # a bad --only or --profile for this machine
        print(f"workbook: {exc}", file=sys.stderr)
        return 2
    except WorkbookError as exc:
        print(f"workbook: FAILED: {exc}", file=sys.stderr, flush=True)
        print(f"workbook: the executed notebook, with the error, is in {Path(args.out).resolve()}", file=sys.stderr)
        return 1
    return 0
