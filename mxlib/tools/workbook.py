"""`python -m mxlib workbook`: execute the notebooks in order, headless, export their figures, and keep
the committed notebooks' outputs current.

Each notebook has one cell tagged ``parameters`` (``PROFILE = "auto"``, ``FIGURES = None``). The runner
inserts a cell after it that sets the profile and the figures folder, runs every cell in a fresh
kernel whose working directory is `notebooks/` (as in JupyterLab), writes the executed notebook to
`--out`, and stops at the first failing cell, naming the notebook and the cell. `figures.csv` in the
figures folder records which run (profile, device, versions, date) made each figure's current bytes.

The committed notebooks carry the outputs of the canonical run, the CPU profile, so that they read on
a code host without running. A CPU run writes each executed notebook back into `notebooks/` in its
committed form (`committed_form`): the stored cells and notebook metadata with the new outputs, the
injected cell left out, no per-cell timing metadata, consecutive stream outputs merged, execution
counts 1, 2, ... in cell order. `--check` runs the same notebooks into `out/check/` instead and fails
when a committed notebook differs from its fresh run (`differences`): stream and text outputs must
match exactly; a figure must be the same figure, by the name and fingerprint that
`mxlib.tools.figures.save` tags it with. PNG bytes are not compared: they change with the matplotlib
and FreeType versions while the figure does not; the fingerprint hashes what is drawn (data, colors,
labels, texts), so a stale figure is still caught. The GPU profile never writes back: its outputs are
a measurement run's, not the committed ones.

The notebooks call `setup(PROFILE)` first: it resolves "auto" to "gpu" or "cpu" and, on the CPU, turns
Triton's interpreter on before anything imports triton. `rerun_dir(profile)` is where a GPU run's
measuring cells write their CSVs, a folder of its own, so that re-running the workbook never overwrites
the recorded runs the notebooks cite; `recorded(name)` is how plotting cells read those records (None,
said plainly, when a CSV is not there yet). nbclient is imported only when the runner runs, so notebooks can import this module.
"""
from __future__ import annotations

import argparse
import copy
import csv
import difflib
import hashlib
import os
import re
import sys
import time
from pathlib import Path

from .arguments import at_least, output_folder
from .files import atomic_open, write_csv_atomic
from .repo import FIGURES_DIR, NOTEBOOKS_DIR, RESULTS_DIR, ROOT

PROFILES = ("auto", "cpu", "gpu")
CELL_TIMEOUT_S = 600  # seconds a notebook cell may run
CANONICAL_PROFILE = "cpu"  # the run whose outputs the committed notebooks carry
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


RERUN_FOLDER = "workbook"  # under data/results/<device>/: what a GPU run of the notebooks measures


def rerun_dir(profile: str) -> Path:
    """data/results/<device>/workbook/, created: where a GPU run's measuring cells write. The recorded runs
    beside it (bench.csv, final/, splitk_sweep.csv, ...) are what the text and figures cite, so a re-run
    must not replace them; its own CSVs land here, each with its device, versions and date."""
    path = RESULTS_DIR / device_slug(profile) / RERUN_FOLDER
    path.mkdir(parents=True, exist_ok=True)
    return path


def _recorded_path(name: str, device: str | None) -> Path | None:
    path = RESULTS_DIR / name if device is None else RESULTS_DIR / device / name
    if not path.is_file():
        print(f"not recorded yet: {path.relative_to(ROOT)} does not exist, so this figure is not drawn. "
              f"Run this notebook (or the command that writes that file) on the {device or 'GPU'} to record it.")
        return None
    return path


def recorded(name: str, device: str | None = "h200"):
    """The recorded CSV data/results/<device>/<name> (device None: data/results/<name>) as a DataFrame.

    When it is not there, print so plainly and return None: a plotting cell then draws nothing, rather
    than something made up.
    """
    import pandas as pd

    path = _recorded_path(name, device)
    return None if path is None else pd.read_csv(path)


def recorded_rows(name: str, device: str | None = "h200") -> list[dict] | None:
    """The same CSV as `recorded`, as its rows of strings (`probe.read_rows`, what `mxlib.tools.probe` reads);
    None, said plainly, when it is not there."""
    from .probe import read_rows

    path = _recorded_path(name, device)
    return None if path is None else read_rows(path)


def doc_section(obj, start: str, stop: str) -> str:
    """The part of `obj`'s docstring from the heading `start` up to the heading `stop` (a notebook prints a
    library's own statement of a model rather than a copy of it); ValueError naming the heading when one is
    missing."""
    doc, name = obj.__doc__ or "", getattr(obj, "__name__", obj)
    if start not in doc:
        raise ValueError(f"{name!s}'s docstring has no heading {start!r}")
    after = doc.split(start, 1)[1]
    if stop not in after:
        raise ValueError(f"{name!s}'s docstring has no heading {stop!r} after {start!r}")
    return start + after.split(stop, 1)[0]


def recorded_triton_versions(files=None) -> set[str]:
    """The Triton versions that compiled the committed ISA records (`triton` column of
    data/results/*/isa*.csv, or of `files`, the records a notebook reads): a notebook may print them, as data,
    even where the same version is installed."""
    found = set()
    for path in sorted(RESULTS_DIR.glob("*/isa*.csv")) if files is None else [Path(f) for f in files]:
        with open(path, newline="") as f:
            found |= {row["triton"] for row in csv.DictReader(f) if row.get("triton")}
    return found


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
    if not only:
        raise ValueError("--only must name at least one notebook number (e.g. --only 01,02)")
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


def execute(only=None, *, out_dir: Path, figures_dir: Path, profile: str = "auto", timeout: int = CELL_TIMEOUT_S,
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
    keeps the other notebooks' rows; a figure whose SVG was deleted loses its row. Figures drawn from
    measurements also carry their own source in a corner (`mxlib.tools.figures.stamp`).
    """
    path = figures_dir / MANIFEST
    rows = {}
    if path.is_file():
        with open(path, newline="") as f:
            rows = {r["figure"]: r for r in csv.DictReader(f)}
    rows = {name: row for name, row in rows.items() if (figures_dir / f"{name}.svg").is_file()}  # deleted: gone
    for name in changed:
        rows[name] = {"figure": name, "notebook": notebook, **run}
    write_csv_atomic(path, MANIFEST_FIELDS, (rows[name] for name in sorted(rows)))


def _figure_stamps(figures_dir: Path) -> dict:
    """Figure name -> (mtime_ns of its SVG, hash of its SVG and PNG bytes): which figures a notebook
    saved, and which of those it changed."""
    stamps = {}
    for svg in figures_dir.glob("*.svg"):
        png = svg.with_suffix(".png")
        digest = hashlib.sha256(svg.read_bytes() + (png.read_bytes() if png.is_file() else b"")).hexdigest()
        stamps[svg.stem] = (svg.stat().st_mtime_ns, digest)
    return stamps


# ---- the committed form, and the staleness check ----

def committed_form(source, executed):
    """The notebook as committed: `source` (the stored notebook: its cells, ids and metadata) with the
    outputs of `executed` (the same notebook as the runner ran it, injected cell included).

    Cell metadata that the run adds (nbclient's timings) is not copied, consecutive stream outputs of
    one name are merged (how the kernel split a stream depends on timing), and execution counts are
    1, 2, ... over the code cells in order, so the same outputs always give the same file.
    """
    cells = [c for c in executed.cells if INJECTED_TAG not in c.get("metadata", {}).get("tags", [])]
    if len(cells) != len(source.cells) or any(a.source != b.source for a, b in zip(cells, source.cells)):
        raise ValueError("the executed notebook's cells are not the stored notebook's: was it edited during the run?")
    nb = copy.deepcopy(source)
    count = 0
    for cell, ran in zip(nb.cells, cells):
        if cell.cell_type != "code":
            continue
        count += 1
        cell.execution_count = count
        cell.outputs = _merged_streams(copy.deepcopy(ran.get("outputs", [])), count)
    return nb


def _merged_streams(outputs, count):
    merged = []
    for out in outputs:
        if out.get("output_type") == "execute_result":
            out["execution_count"] = count
        if (out.get("output_type") == "stream" and merged and merged[-1].get("output_type") == "stream"
                and merged[-1].get("name") == out.get("name")):
            merged[-1]["text"] = merged[-1]["text"] + out["text"]
        else:
            merged.append(out)
    return merged


def output_lines(cell) -> list[str]:
    """What the check compares for one code cell: its execution count; stream and text outputs exactly;
    an error by name and value; a figure by its name and fingerprint (`figures.save` tags it), any
    other image by its type alone."""
    from .figures import FIGURE_METADATA_KEY

    lines = [f"[execution_count {cell.get('execution_count')}]"]
    for out in cell.get("outputs", []):
        kind = out.get("output_type")
        if kind == "stream":
            lines += [f"{out.get('name')}: {line}" for line in out.get("text", "").splitlines()]
        elif kind == "error":
            lines.append(f"error: {out.get('ename')}: {out.get('evalue')}")
        else:
            tag = out.get("metadata", {}).get(FIGURE_METADATA_KEY)
            if tag:
                lines.append(f"figure {tag.get('figure')} fingerprint {tag.get('fingerprint')}")
            for mime, value in sorted(out.get("data", {}).items()):
                if mime.startswith("image/"):
                    if not tag:
                        lines.append(f"{kind} {mime} (untagged image)")
                elif not (tag and mime == "text/plain"):
                    text = value if isinstance(value, str) else "".join(value)
                    lines += [f"{kind} {mime}: {line}" for line in text.splitlines()]
    return lines


def differences(committed, fresh, name: str = "", context: int = 2) -> list[str]:
    """Where `committed` and `fresh` (both in committed form) differ, as readable lines; [] when current."""
    report = []
    if [c.source for c in committed.cells] != [c.source for c in fresh.cells]:
        return [f"{name}: the cells themselves differ (not the same notebook)"]
    for i, (a, b) in enumerate(zip(committed.cells, fresh.cells)):
        if a.cell_type != "code":
            continue
        old, new = output_lines(a), output_lines(b)
        if old != new:
            first = a.source.splitlines()[0] if a.source.strip() else ""
            report.append(f"{name} cell {i} ({first[:60]!r}):")
            report += ["    " + line.rstrip("\n") for line in
                       difflib.unified_diff(old, new, "committed", "this run", n=context, lineterm="")][:40]
    return report


def _notebooks_dir(notebooks_dir: Path | None) -> Path:
    return Path(notebooks_dir) if notebooks_dir is not None else NOTEBOOKS_DIR


def _committed_and_fresh(executed_paths, notebooks_dir: Path | None):
    """Per executed notebook: (its committed file under `notebooks_dir` (default notebooks/), the committed
    notebook, the executed one in committed form)."""
    import nbformat

    notebooks_dir = _notebooks_dir(notebooks_dir)
    for executed_path in executed_paths:
        target = notebooks_dir / Path(executed_path).name
        committed = nbformat.read(target, as_version=4)
        yield target, committed, committed_form(committed, nbformat.read(executed_path, as_version=4))


def write_back(executed_paths, notebooks_dir: Path | None = None, log=sys.stderr) -> list[str]:
    """Write each executed notebook into `notebooks_dir` (default notebooks/) in committed form; returns
    the names of those whose compared outputs changed."""
    import nbformat

    changed = []
    for target, source, fresh in _committed_and_fresh(executed_paths, notebooks_dir):
        if differences(source, fresh):
            changed.append(target.name)
        with atomic_open(target, "w", encoding="utf-8") as f:  # committed files: never left half-written
            nbformat.write(fresh, f)
    print(f"workbook: wrote the outputs back into {_shown(_notebooks_dir(notebooks_dir))}/ "
          f"({', '.join(changed) + ' changed' if changed else 'no output changed'})", file=log, flush=True)
    return changed


def check(executed_paths, notebooks_dir: Path | None = None, log=sys.stderr) -> list[str]:
    """Compare the committed notebooks with the executed ones; print and return the differences."""
    report = []
    for target, committed, fresh in _committed_and_fresh(executed_paths, notebooks_dir):
        report += differences(committed, fresh, target.name)
    if report:
        print("workbook: STALE: the committed notebooks' outputs differ from this run:", file=log)
        print("\n".join(report), file=log)
        print("workbook: run `make workbook` (the CPU profile writes the outputs back) and commit notebooks/ "
              "and data/figures/", file=log, flush=True)
    else:
        print(f"workbook: the committed outputs of {len(executed_paths)} notebooks are current", file=log, flush=True)
    return report


def _shown(path: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def add_arguments(p) -> None:
    p.add_argument("--out", type=output_folder, default=None,
                   help="folder for the executed notebooks as run (default: out/notebooks; with --check out/check/notebooks)")
    p.add_argument("--figures", type=output_folder, default=None,
                   help="folder for the exported SVG and PNG figures (default: data/figures; with --check out/check/figures)")
    p.add_argument("--profile", choices=PROFILES, default="auto",
                   help="gpu runs the measuring cells; cpu runs Triton in its interpreter at small shapes "
                        "(default: gpu when torch sees a GPU)")
    p.add_argument("--only", type=lambda s: [x.strip() for x in s.split(",") if x.strip()],
                   help="comma-separated notebook numbers to run, e.g. 01,02")
    p.add_argument("--timeout", type=at_least(1), default=CELL_TIMEOUT_S, help=f"seconds allowed per cell (default: {CELL_TIMEOUT_S})")
    p.add_argument("--check", action="store_true",
                   help="run the CPU profile into out/check/ and fail if a committed notebook's outputs are stale; "
                        "writes nothing under notebooks/ or data/")
    p.add_argument("--no-write-back", action="store_true",
                   help="a CPU run leaves notebooks/ as they are (by default it writes the outputs back)")


def folders_refused(out_dir: Path, figures_dir: Path, check: bool) -> str | None:
    """Why `--out` and `--figures` (given or default) cannot be used, or None: each must be a folder or one that can
    be made (`arguments.output_folder`, the rule the arguments are read with); the executed copies (with their
    injected parameters cell) never go into notebooks/, which holds the committed ones that a CPU run writes its
    outputs back into; and with --check, which compares with what is committed, neither goes under notebooks/ or
    data/."""
    for name, folder in (("--out", out_dir), ("--figures", figures_dir)):
        try:
            output_folder(str(folder))
        except argparse.ArgumentTypeError as exc:
            return f"{name} {exc}"
        folder = Path(folder).resolve()
        kept = (NOTEBOOKS_DIR, ROOT / "data") if check else (NOTEBOOKS_DIR,) if name == "--out" else ()
        for committed in kept:
            if folder.is_relative_to(committed.resolve()):
                return (f"{name} {_shown(folder)} is under {_shown(committed)}, which holds committed files"
                        + (" (--check writes nothing there)" if check else ""))
    return None


def run(args) -> int:
    if args.check and args.profile == "gpu":
        print("workbook: --check compares with the committed outputs, which come from the cpu profile", file=sys.stderr)
        return 2
    profile = CANONICAL_PROFILE if args.check else args.profile
    base = ROOT / "out" / ("check" if args.check else "")
    out_dir = args.out or base / "notebooks"
    figures_dir = args.figures or (base / "figures" if args.check else FIGURES_DIR)
    problem = folders_refused(out_dir, figures_dir, args.check)
    if problem:
        print(f"workbook: {problem}", file=sys.stderr)
        return 2
    try:
        done = execute(args.only, out_dir=out_dir, figures_dir=figures_dir, profile=profile, timeout=args.timeout)
    except ValueError as exc:  # a bad --only or --profile for this machine
        print(f"workbook: {exc}", file=sys.stderr)
        return 2
    except WorkbookError as exc:
        print(f"workbook: FAILED: {exc}", file=sys.stderr, flush=True)
        print(f"workbook: the executed notebook, with the error, is in {Path(out_dir).resolve()}", file=sys.stderr)
        return 1
    if args.check:
        return 1 if check(done) else 0
    if resolve_profile(profile) == CANONICAL_PROFILE and not args.no_write_back:
        write_back(done)
    else:
        print(f"workbook: notebooks/ keeps the committed ({CANONICAL_PROFILE}) outputs; this run's are in "
              f"{_shown(out_dir)}", file=sys.stderr, flush=True)
    return 0
