"""`custom_kernel`: the contest entry point, dispatching to a backend and, for Triton, a path and config.

Backend: the `backend` argument, else $MXLIB_BACKEND, else the default: "aiter" where it can run,
else "triton" when the data is on a CUDA/ROCm GPU, else "torch" (the reference). Triton on CPU
tensors (its interpreter, TRITON_INTERPRET=1) is used only when asked for by name.

Path and config (backends "triton" and "aiter"): the `path` argument, else $MXLIB_PATH, else the
first row for the shape in `mxlib/data/configs/<device kind>.csv` whose path can run here, else
the first usable of `gpu_unseen_paths` on a GPU ("fused_fp4" on the MI355X; "mma_sm90", then "fused",
elsewhere) and `heuristic_path` (the seed's route) on the CPU. For aiter, the table's aiter rows, then the
seed's route, the first the installed aiter can run (`usable_aiter_path`); where none can and aiter was
only the default, Triton runs the shape. A path that cannot run here
(`paths.path_available`: "mma_sm90" without nvcc or off Hopper; or A not in a dtype the path quantizes)
is skipped with one line on stderr, once per process (`first_usable`). The config comes from the table's
row for (shape, path) when there is one, else the path's `default_config`.

Arguments win over the environment: an environment variable only fills in an argument that was not
given, and it is set aside when it does not fit the arguments that were (MXLIB_PATH=fused with
backend="torch", which has no paths; MXLIB_BACKEND=torch with path="ck"). Between two environment
variables, or one and a default, a mismatch is an error naming the variable, and so is a value that
names no backend or path, even where an argument sets the variable aside. `plan` gives the choice
without running it.
"""
from __future__ import annotations

import csv
import functools
import os
import sys
import warnings
from importlib import resources
from pathlib import Path

import torch

from ..spec import validate
from ..spec.devices import CPU_KIND, MI355X, check_device_type, device_kind
from ..spec.ints import gemm_shape
from ..spec.seed import PATHS as AITER_PATHS, seed_path  # the aiter backend runs the seed's paths
from .backends import BACKENDS, ENV_BACKEND, backends, triton_takes
from .paths import PATHS, path_available, path_module
from ..spec.reference import check_gemm_operands, ref_from_weight, unpack_data

ENV_PATH = "MXLIB_PATH"
CONFIG_DIR = resources.files("mxlib") / "data" / "configs"
TABLE_COLUMNS = ("m", "n", "k", "path", "config")


@functools.lru_cache(maxsize=None)
def load_table(kind: str, directory: str | None = None) -> dict:
    """{(m, n, k): [(path, {config field: int}), ...]} in file order from `<directory>/<kind>.csv`
    (default the package's `mxlib/data/configs`); {} when there is no such file. Every row's shape
    (`mxlib.spec.ints.gemm_shape`), path and config text are checked as it is read, a bad row a ValueError
    naming the file and row; whether its fields make the path's Config is checked when the dispatcher
    first uses the table (`_table_configs`: the path modules need Triton, which reading a table does
    not). Cached per file: tables do not change while a process runs."""
    file = Path(directory) if directory is not None else CONFIG_DIR
    file = file / f"{kind}.csv"
    if not file.is_file():
        return {}
    table: dict = {}
    with file.open(newline="") as f:
        reader = csv.DictReader(line for line in f if not line.startswith("#"))
        if tuple(reader.fieldnames or ()) != TABLE_COLUMNS:
            raise ValueError(f"{file}: columns must be {','.join(TABLE_COLUMNS)}, got {reader.fieldnames}")
        for i, row in enumerate(reader, start=2):
            where = f"{file} data row {i - 1}"
            if None in row or None in row.values():  # DictReader's marks of a field too many or too few
                raise ValueError(f"{where}: must have exactly the columns {','.join(TABLE_COLUMNS)} (a config "
                                 "holds no comma: its fields are separated by spaces)")
            try:
                shape = (int(row["m"]), int(row["n"]), int(row["k"]))
            except ValueError:
                raise ValueError(f"{where}: m, n, k must be integers, got {row['m']!r}, {row['n']!r}, {row['k']!r}") from None
            if row["path"] not in PATHS:
                raise ValueError(f"{where}: path {row['path']!r} is not in mxlib.runtime.paths.PATHS ({', '.join(PATHS)})")
            try:
                gemm_shape(*shape)
            except ValueError as e:
                raise ValueError(f"{where}: {e}") from None
            fields = parse_config(row["config"] or "", where)
            table.setdefault(shape, []).append((row["path"], fields))
    return table


def row_config(path: str, fields: dict, where: str):
    """Path `path`'s Config made from a table row's `fields`; a field it does not have or a value it refuses
    is a ValueError naming `where` (the table file and row)."""
    try:
        return path_module(path).Config(**fields)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{where} path {path!r}: {e}") from None


class NoConfigTableWarning(UserWarning):
    """A GPU kind without a config table: the dispatcher runs it on rules and default configs."""


def device_table(kind: str) -> dict:
    """`load_table(kind)` for the dispatcher, with a `NoConfigTableWarning` the first time (per kind and
    process) a GPU kind has no table: its shapes then go to `unseen_shape_paths` with default configs,
    tuned on another GPU, and whoever reads its numbers should know."""
    table = load_table(kind)
    if not table and kind != CPU_KIND:
        _warn_if_no_table(kind)
    return table


@functools.lru_cache(maxsize=None)
def _warn_if_no_table(kind: str) -> None:
    # Cached: once per kind and process, whatever the warnings filters say.
    if not (CONFIG_DIR / f"{kind}.csv").is_file():
        warnings.warn(f"mxlib has no config table for GPU kind {kind!r} (no mxlib/data/configs/{kind}.csv): "
                      "every shape runs the first usable path of mxlib.runtime.dispatch.unseen_shape_paths with "
                      "its default config", NoConfigTableWarning, stacklevel=4)


def parse_config(text: str, where: str) -> dict:
    """A table's config text (`field=int` items) as {field: int}; a malformed item is an error naming `where`."""
    fields = {}
    for item in text.split():
        key, sep, value = item.partition("=")
        if not sep or not key.isidentifier():
            raise ValueError(f"{where}: config items must be key=value, got {item!r}")
        try:
            fields[key] = int(value)
        except ValueError:
            raise ValueError(f"{where}: config value of {key} must be an integer, got {value!r}") from None
    return fields


def heuristic_path(m: int, n: int, k: int) -> str:
    """The seed's route for a shape: `mxlib.spec.seed.seed_path`, which states it."""
    return seed_path(m, n, k)


# The paths tried, in order, for a shape its GPU's table has no row for, by device kind; any other GPU
# takes DEFAULT_UNSEEN_PATHS.
UNSEEN_PATHS = {MI355X.kind: ("fused_fp4",)}
DEFAULT_UNSEEN_PATHS = ("mma_sm90", "fused")


def gpu_unseen_paths(kind: str) -> tuple[str, ...]:
    """The paths tried, in order, for a shape without a table row on a GPU of `kind`: ("fused_fp4",) on the
    MI355X (the path its table runs on every contest shape: A reaches gfx950's scaled MFMA as E2M1 +
    E8M0); elsewhere ("mma_sm90", "fused"): the CUDA path with its `default_config` where it can run (a
    Hopper GPU with nvcc), faster than "fused" with its own at all 13 contest shapes on an H100, which has
    no table (data/results/h100/run_2e2a8da/), and on an H200 run as a kind without one
    (data/results/h200/run_978639e/), and first in the H200 table at every contest shape;
    else "fused", the fastest Triton path measured on the H200 (data/results/h200/rung3/), which runs on
    any GPU."""
    return UNSEEN_PATHS.get(kind, DEFAULT_UNSEEN_PATHS)


def unseen_shape_paths(m: int, n: int, k: int, kind: str) -> tuple[str, ...]:
    """Paths tried, in order, for a shape its device's table has no row for: `gpu_unseen_paths` on a GPU,
    the seed's rule (`heuristic_path`) on the CPU."""
    return (heuristic_path(m, n, k),) if kind == CPU_KIND else gpu_unseen_paths(kind)


_NOTED: set = set()


def first_usable(rows, can_run, shape: tuple[int, int, int]):
    """The first (path, config) of `rows` whose path `can_run(path)` answers (True, reason) for. Each
    refusal is said once per process, one line on stderr; RuntimeError naming the shape and every
    refusal when no row can run. What `select` tries for a shape on this device, and what the exported
    submission tries for a shape (its rows baked in by `mxlib.tools.export`)."""
    refusals = []
    for path, config in rows:
        ok, reason = can_run(path)
        if ok:
            return path, config
        refusals.append(f"{path}: {reason}")
        if (path, reason) not in _NOTED:
            _NOTED.add((path, reason))
            print(f"mxlib: skipping path {path} for {'x'.join(map(str, shape))}: {reason}", file=sys.stderr)
    raise RuntimeError(f"no GEMM path can run {'x'.join(map(str, shape))} here ({'; '.join(refusals)})")


def usable(path: str, device, a_dtype=torch.bfloat16) -> tuple[bool, str]:
    """(can `path` run here on A of `a_dtype`, why not): `paths.path_available`, and the path's
    `A_DTYPES` when it quantizes only some dtypes."""
    ok, reason = triton_takes(device)  # every path's module imports Triton: ask first (`check_triton_takes`)
    if ok:
        ok, reason = path_available(path, device)
    if not ok:
        return False, reason
    dtypes = getattr(path_module(path), "A_DTYPES", None)
    if dtypes is not None and a_dtype not in dtypes:
        return False, f"path {path} quantizes A of dtype {', '.join(map(str, dtypes))} only, got {a_dtype}"
    return True, reason


_TABLE_CONFIGS: dict = {}  # kind -> (the load_table dict it was made from, {(m, n, k): [(path, Config), ...]})


def _table_configs(kind: str) -> dict:
    """`load_table(kind)` with each row's Config made once per table: {(m, n, k): [(path, Config), ...]}."""
    table = load_table(kind)
    made = _TABLE_CONFIGS.get(kind)
    if made is None or made[0] is not table:
        made = (table, {shape: [(path, row_config(path, fields, f"config table {kind!r} row for "
                                                                  f"{'x'.join(map(str, shape))}"))
                                for path, fields in rows] for shape, rows in table.items()})
        _TABLE_CONFIGS[kind] = made
    return made[1]


def _check_a_dtype(a_dtype) -> None:
    if a_dtype not in validate.FLOAT_DTYPES:
        raise TypeError(f"a_dtype must be one of {', '.join(map(str, validate.FLOAT_DTYPES))}, got {a_dtype!r}")


def select(m: int, n: int, k: int, device, path: str | None = None, a_dtype=torch.bfloat16):
    """(path name, Config) for a shape on a device; see the module docstring for the order."""
    m, n, k = gemm_shape(m, n, k)
    _check_a_dtype(a_dtype)
    if path is not None:
        validate.choice(path, "path", tuple(PATHS))
    return _select(m, n, k, device, path, a_dtype)


def _select(m: int, n: int, k: int, device, path: str | None, a_dtype, where: str = "path"):
    """`select` on arguments already checked (M, N, K Python ints, `path` None or a path name); `where` names
    where a given path came from, for the error when it cannot run here."""
    kind = device_kind(device)
    device_table(kind)  # the warning for a GPU kind without a table
    if path is None:  # the table's paths from its fields: its Configs import their paths' modules (below)
        candidates = ([(p, None) for p, _ in load_table(kind).get((m, n, k), ())]
                      + [(p, None) for p in unseen_shape_paths(m, n, k, kind)])
        path, _ = first_usable(candidates, lambda p: usable(p, device, a_dtype), (m, n, k))
    else:
        ok, reason = usable(path, device, a_dtype)
        if not ok:
            raise ValueError(f"{where} {path!r} cannot run here: {reason}")
    for row_path, config in _table_configs(kind).get((m, n, k), ()):
        if row_path == path:
            return path, config
    return path, path_module(path).default_config(m, n, k, device)


def triton_gemm(a: torch.Tensor, b_shuffle: torch.Tensor, b_scale_sh: torch.Tensor, *,
                path: str | None = None, rounding: str = "rne") -> torch.Tensor:
    """The Triton backend on the three tensors a path reads: selects path and config, runs it."""
    m, n, k = check_gemm_operands(a, b_shuffle, b_scale_sh)
    # An empty A (M = 0) gives an empty C without a launch, so any shape's config serves it.
    name, config = select(max(m, 1), n, k, a.device, path, a.dtype)
    return path_module(name).gemm(a, b_shuffle, b_scale_sh, config=config, rounding=rounding)


def _available_backend(device, backend: str | None, path: str | None = None, where: str = "backend") -> str:
    """`backend` if it can run here (else ValueError saying why, naming `where` it came from), or the
    default for `device` when None: the first available of "aiter", "triton" on a GPU (with `path` given,
    the first that has that path), else "torch"."""
    status = backends()
    if backend is None:
        if torch.device(device).type == "cuda":
            for name in ("aiter", "triton"):
                if status[name][0] and (path is None or path in BACKEND_PATHS[name]):
                    return name
        return "torch"
    ok, reason = status[backend]
    if not ok:
        raise ValueError(f"{where} {backend!r} is not available here: {reason}")
    return backend


# The paths each backend has.
BACKEND_PATHS = {"aiter": AITER_PATHS, "triton": tuple(PATHS), "torch": ()}


def env_backend_for(path: str | None, env_backend: str | None) -> str | None:
    """`env_backend` ($MXLIB_BACKEND's value, None when unset) where it fills in the backend of a call naming
    `path` (None: none named): the path, if any, is one of that backend's; else None (set aside)."""
    if env_backend is None or (path is not None and path not in BACKEND_PATHS.get(env_backend, ())):
        return None
    return env_backend


def plan(m: int, n: int, k: int, device, backend: str | None = None, path: str | None = None,
         a_dtype=torch.bfloat16, *, device_name: str = "device"):
    """(backend, path, config) that custom_kernel runs for an (M, N, K) problem with A of `a_dtype` on
    `device`; path and config are None for the torch backend, config None for aiter (its own tables).
    See the module docstring for how arguments, environment variables and defaults combine. The shape
    follows `mxlib.spec.ints.gemm_shape` (M = 0 allowed: an empty A) and `device` is "cpu" or a GPU, on
    every backend, a CUDA device only where this machine has one; `device_name` names `device` in the error when
    it is not one (custom_kernel: "A's device"). `a_dtype` is one of A's dtypes (`validate.FLOAT_DTYPES`)."""
    m, n, k = gemm_shape(m, n, k, empty_m=True)
    check_device_type(device, device_name, present=True)
    _check_a_dtype(a_dtype)
    if backend is not None:
        validate.choice(backend, "backend", BACKENDS)
    if path is not None:
        validate.choice(path, "path", tuple(PATHS))
    backend_given, where_backend = backend is not None, "backend"
    env_backend = os.environ.get(ENV_BACKEND) or None
    env_path = os.environ.get(ENV_PATH) or None
    if env_backend is not None:  # a value no argument could take is an error even where it would not apply
        validate.choice(env_backend, f"${ENV_BACKEND}", BACKENDS)
    if env_path is not None:
        validate.choice(env_path, f"${ENV_PATH}", tuple(PATHS))
    if backend is None and env_backend_for(path, env_backend) is not None:
        backend, where_backend = env_backend, f"${ENV_BACKEND}"
    # the default backend is one that has the path asked for, by argument or, filling it in, by $MXLIB_PATH
    backend = _available_backend(device, backend, path if path is not None else env_path, where_backend)
    where = "path"
    if path is None and env_path is not None and not (backend_given and env_path not in BACKEND_PATHS[backend]):
        path, where = env_path, f"${ENV_PATH}"
    if backend == "torch":
        if path is not None:
            chosen = "" if backend_given or where_backend != "backend" else (
                " (chosen by default here: pass backend='triton' to run a path, on the CPU in Triton's interpreter "
                "with TRITON_INTERPRET=1)")
            raise ValueError(f"{where}={path!r} names a path, but backend 'torch' (the reference) has none{chosen}; "
                             "paths belong to backends 'triton' and 'aiter'")
        return "torch", None, None
    if backend == "aiter":
        if path is None:
            path = usable_aiter_path(max(m, 1), n, k, device)  # an empty A: any shape's path serves it
            if path is None and not backend_given and where_backend == "backend":
                # aiter was only the default and none of its paths can run the shape here: Triton's
                path, config = _select(max(m, 1), n, k, device, None, a_dtype)
                return "triton", path, config
            path = path or select_aiter_path(max(m, 1), n, k, device)  # asked for: its call says why not
        validate.choice(path, f"{where} (backend 'aiter' runs the seed's paths)", AITER_PATHS)
        return "aiter", path, None
    # An empty A (M = 0) gives an empty C without a launch, so any shape's config serves it.
    path, config = _select(max(m, 1), n, k, device, path, a_dtype, where)
    return "triton", path, config


def custom_kernel(data, *, backend: str | None = None, path: str | None = None) -> torch.Tensor:
    """bf16 (M, N) for the contest's input tuple; A is quantized with round-half-even (the checker's rule).
    B_shuffle and B_scale_sh must be contiguous on every backend (the kernels read their layouts as positions
    in storage; the torch backend asks the same, so a call does not pass on one backend and fail on another)."""
    a, _, _, b_shuffle, b_scale_sh, (m, n, k) = unpack_data(data, contiguous=True)
    backend, path, config = plan(m, n, k, a.device, backend, path, a.dtype, device_name="A's device")
    if backend == "torch":
        return ref_from_weight(data, "rne")
    if backend == "aiter":
        from . import aiter_backend

        return aiter_backend.gemm(path, data)
    return path_module(path).gemm(a, b_shuffle, b_scale_sh, config=config, rounding="rne")


def aiter_candidates(m: int, n: int, k: int, device) -> list[str]:
    """The aiter paths to try for a shape, in order: the table's aiter rows, then the seed's route
    (`heuristic_path`)."""
    rows = [p for p, _ in device_table(device_kind(device)).get((m, n, k), []) if p in AITER_PATHS]
    return list(dict.fromkeys(rows + [heuristic_path(m, n, k)]))


def select_aiter_path(m: int, n: int, k: int, device) -> str:
    """The first of `aiter_candidates`, whether or not the installed aiter can run it."""
    return aiter_candidates(m, n, k, device)[0]


def usable_aiter_path(m: int, n: int, k: int, device) -> str | None:
    """The first of `aiter_candidates` that the installed aiter can run here (`aiter_backend.available`:
    a version may be trusted for one path and not another, e.g. a development build for splitk), or None."""
    from . import aiter_backend

    return next((p for p in aiter_candidates(m, n, k, device) if aiter_backend.available(p)[0]), None)
