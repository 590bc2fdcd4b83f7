"""Writing a file so that readers see the old contents or the new, never a half-written file.

`atomic_path` hands out a temporary path in the target's folder (so the final `os.replace` is a rename on
one file system, atomic on POSIX and Windows); the target is replaced only when the block finishes
without an exception, and the temporary file is removed either way. `atomic_open` and
`write_text_atomic` are the same for a file object and a string, `write_csv_atomic` for a table. The
tools' writers of committed data (CSV results, config tables, figures, the exported submission) go through
them: a run stopped mid-write (Ctrl-C, an error in a row) then leaves the old file as it was. (The
kernels' cubin cache, a layer below the tools, stages its own file the same way.)
"""
from __future__ import annotations

import contextlib
import csv
import errno
import os
import uuid
from pathlib import Path


def check_output_path(path) -> Path:
    """`path` as a file to write, refused by its own name: ValueError when it names no file, lies under a file
    or is something other than a regular file (a device such as /dev/null, a FIFO, a socket: the final rename
    would put a plain file in its place), IsADirectoryError when it is a folder."""
    path = Path(path)
    if path.name in ("", ".", ".."):
        raise ValueError(f"{str(path)!r} names no file to write")
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, "a folder, not a file to write", str(path))
    if path.exists() and not path.is_file():
        raise ValueError(f"{path} is not a regular file (a device, FIFO or socket), which writing would replace: "
                         "name a file to write")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise ValueError(f"{path}: {parent} is a file, not a folder")
            break
    return path


@contextlib.contextmanager
def atomic_path(path, suffix: str | None = None):
    """Yield a fresh temporary Path beside `path` (ending in `suffix`, default `path`'s own suffix); after
    the block, `path` is replaced by it (its folder created if missing). On an exception `path` is left
    as it was. The temporary file is never left behind."""
    path = check_output_path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    staged = path.with_name(f".{path.stem}-{os.getpid()}-{uuid.uuid4().hex[:8]}{path.suffix if suffix is None else suffix}")
    try:
        try:
            yield staged
            os.replace(staged, path)
        except OSError as exc:
            if exc.filename is not None and Path(exc.filename) == staged:  # name the file asked for, not its stand-in
                raise type(exc)(exc.errno, f"{exc.strerror} (writing {path})", str(path)) from exc
            raise
    finally:
        staged.unlink(missing_ok=True)


@contextlib.contextmanager
def atomic_open(path, mode: str = "w", **kwargs):
    """`open(path, mode, **kwargs)` for writing ("w" or "wb"), through `atomic_path`: `path` changes only
    when the block finishes."""
    if mode not in ("w", "wb"):
        raise ValueError(f"mode must be 'w' or 'wb' (a whole new file), got {mode!r}")
    with atomic_path(path) as staged:
        with open(staged, mode, **kwargs) as f:
            yield f


def write_text_atomic(path, text: str, encoding: str = "utf-8") -> None:
    """`Path(path).write_text(text)`, through `atomic_path`."""
    with atomic_open(path, "w", encoding=encoding) as f:
        f.write(text)


def write_csv_atomic(path, fieldnames, rows) -> Path:
    """Write `rows` (dicts) as a CSV under the header `fieldnames`, lines ending in "\\n", through `atomic_path`;
    a key outside `fieldnames` is a ValueError, a missing one an empty cell. The tools and scripts that write
    a CSV in one piece do it through it (those that write rows as they are measured keep their own writer), so
    new records have one kind of line end (csv's default is "\\r\\n", which older records have; readers
    take either)."""
    with atomic_open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(fieldnames), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return Path(path)
