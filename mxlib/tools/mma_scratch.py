"""What the diagnostic scripts of path mma_sm90 share. Builds, for the scripts that measure its kernels from inside
(scripts/mma_timeline.py, mma_contention.py, mma_fp8.py, mma_ablate.py): the library's source with a script's
stamps, cuts or kernels added, compiled into a scratch folder (never the library's cache) and loaded in place of
the library's cubin for the rest of the script's process. And their CSVs (mma_ablate.py, mma_blocks.py): rows
appended run after run to one file."""
from __future__ import annotations

import csv
import os
import tempfile
from pathlib import Path

from ..kernels import gemm_mma_sm90 as G


def add_arguments(parser, what: str = "the cubin") -> None:
    """The options every such script takes: --cache (the scratch folder) and --build-only (compile, no GPU)."""
    parser.add_argument("--cache", type=Path, help=f"scratch folder for {what} (default: a fresh temporary one)")
    parser.add_argument("--build-only", action="store_true", help=f"build {what} into --cache and stop")


def use_source(text: str, cache: Path | None, build_only: bool, script: str) -> bool:
    """Make `text` the source that path mma_sm90 builds and loads in this process, its cubin in `cache` (a fresh
    temporary folder when None). With `build_only` compile it now (nvcc only, no GPU needed) and return True: the
    script has nothing left to do. SystemExit naming `script` when `build_only` comes without a cache."""
    if build_only and cache is None:
        raise SystemExit(f"{script}: --build-only needs --cache DIR")
    os.environ["MXLIB_CACHE_DIR"] = str(cache.resolve()) if cache else tempfile.mkdtemp()
    G.mma_source = lambda: text
    if build_only:
        G.mma_cubin()
    return build_only


def load():
    """(lib, ctx, mod, functions): the CUDA driver, the current device's context and the module built from the
    source `use_source` set, with its kernel cache, as the launcher's private helpers take them."""
    import torch

    lib = G._mma_cuda()
    ctx, mod, functions = G._mma_module(torch.cuda.current_device())
    return lib, ctx, mod, functions


def append_rows(rows: list[dict], path: Path) -> None:
    """Append `rows` (dicts with the same keys) to the CSV at `path`, writing the header when the file is new. A
    file whose header names other columns is refused (ValueError) rather than left holding two schemas."""
    if not rows:
        raise ValueError(f"no rows to append to {path}")
    fields = list(rows[0])
    started = path.exists() and path.stat().st_size > 0
    if started:
        with open(path, newline="") as f:
            header = next(csv.reader(f), [])
        if header != fields:
            raise ValueError(f"{path} has the columns {header}, not {fields}: write to another file")
    with open(path, "a", newline="") as f:
        if started and not _ends_a_line(path):
            f.write("\r\n")  # an append cut short left a partial row: the new rows start on their own line
        w = csv.DictWriter(f, fieldnames=fields)
        if not started:
            w.writeheader()
        w.writerows(rows)


def _ends_a_line(path: Path) -> bool:
    with open(path, "rb") as f:
        f.seek(-1, 2)
        return f.read(1) == b"\n"
