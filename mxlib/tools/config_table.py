"""Writing one (shape, path) row of a dispatcher config table (`mxlib/data/configs/<kind>.csv`) in place,
and reading a table's plan for a list of shapes (`describe`).

The dispatcher takes a shape's first usable row, so a row's position among its shape's rows is part of
what the table says. Every script that writes a table goes through `set_row`, which moves only the row
it is given: the other rows, their order and the `#` comment lines stay as they are.
"""
from __future__ import annotations

from pathlib import Path

from ..runtime.dispatch import TABLE_COLUMNS, load_table, parse_config, row_config
from ..runtime.paths import PATHS
from ..spec.ints import gemm_shape
from .files import write_text_atomic


def set_row(file: Path, shape: tuple[int, int, int], path: str, config: str, index: int | None = None) -> None:
    """Put `m,n,k,path,config` into `file`, replacing the shape's row for `path` if there is one.

    `index` is the row's position among the shape's rows once the old one is gone (0: first, so the
    dispatcher picks it; past the end: last); None keeps the old row's line, or puts a new row last. A
    row that keeps its position keeps its line too (tables group rows by path, so a shape's rows need not
    be adjacent); a moved or new row goes just before the shape's row now at `index`, or just after its
    last row. A shape the file has no row for gets its row at the end of the file. The row is checked as
    the dispatcher will read it (`load_table`: the shape rule, the path's Config) before the file is
    touched, and the file is replaced whole (`write_text_atomic`)."""
    file = Path(file)
    if path not in PATHS:
        raise ValueError(f"path must be one of {', '.join(PATHS)}, got {path!r}")
    if not isinstance(shape, (tuple, list)) or len(shape) != 3:
        raise ValueError(f"shape must be (m, n, k), got {shape!r}")
    shape = gemm_shape(*shape)
    row_config(path, parse_config(config, "config"), "config")
    if index is not None and index < 0:
        raise ValueError(f"index must be None or >= 0, got {index}")
    m, n, k = shape
    lines = file.read_text().splitlines()
    header = next((i for i, ln in enumerate(lines) if not ln.startswith("#")), None)
    if header is None or tuple(lines[header].split(",")) != TABLE_COLUMNS:
        raise ValueError(f"{file}: the first line that is not a comment must be {','.join(TABLE_COLUMNS)}")
    prefix = f"{m},{n},{k},"
    mine = [i for i in range(header + 1, len(lines)) if lines[i].startswith(prefix)]
    old = next((i for i in mine if lines[i].startswith(f"{prefix}{path},")), None)
    new = f"{prefix}{path},{config}"
    if old is not None and index in (None, mine.index(old)):
        lines[old] = new  # its line, wherever the file keeps it
    else:
        if old is not None:
            del lines[old]
            mine = [i if i < old else i - 1 for i in mine if i != old]
        if index is None or index >= len(mine):
            lines.insert(mine[-1] + 1 if mine else len(lines), new)
        else:
            lines.insert(mine[index], new)
    write_text_atomic(file, "\n".join(lines) + "\n")
    load_table.cache_clear()


def describe(kind: str, shape_list, unseen: str, directory: str | None = None) -> list[str]:
    """One line a shape (`mxlib.spec.shapes.Shape`s) of what the table of `kind` plans for it: its first row's
    path, the CUDA path's kernel family (`gemm_mma_sm90.mma_family`) where that path is mma_sm90, and the config;
    `unseen` for a shape without a row (`directory` as for `dispatch.load_table`). The first row is what a device
    on which that row's path can run takes (`dispatch.first_usable`); the lines say nothing about this machine."""
    from ..runtime.paths import path_module

    table = load_table(kind, directory)
    lines = []
    for s in shape_list:
        rows = table.get(s.mnk)
        if not rows:
            lines.append(f"{s.kind:9s} {str(s):>14}  {unseen}")
            continue
        path, config = rows[0]
        family = ""
        if path == "mma_sm90":
            mma = path_module(path)
            family = f" ({mma.mma_family(mma.Config(**config))})"
        lines.append(f"{s.kind:9s} {str(s):>14}  {path}{family:12s} {' '.join(f'{k}={v}' for k, v in config.items())}")
    return lines
