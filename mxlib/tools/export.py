"""`python -m mxlib export [--target nvidia|amd] OUT.py`: the contest submission as one self-contained file.

The contest takes a single Python file defining `custom_kernel(data)`, with no mxlib on its machine.
The exporter copies, verbatim, exactly the top-level definitions of mxlib's modules that the target's
entry points need (found by following names through the AST: a definition's free names lead to the
definitions and `from .x import name` imports they refer to), grouped by module in dependency order,
with the modules' absolute imports (stdlib, torch, triton) deduplicated at the top. Then it appends a
minimal dispatcher: the per-shape plan table of the target baked in as literals, and `custom_kernel`.

It fails loudly, naming the file and line, on anything that would make the flat file wrong: two
modules defining the same name, an `import ... as` alias of an mxlib name, a relative import of a
module (`from .. import validate`), a top-level statement that binds no name, an import cycle. The
written file is then checked with the harness's source rules (no "stream", no mxlib import), parsed,
and imported alone in a subprocess where mxlib cannot be imported.

Targets: "nvidia" exports the paths of `mxlib.runtime.paths` with the H200 table
(`mxlib/data/configs/h200.csv`): each shape's rows in table order, the first whose path can run
(a path module's `available`, e.g. "mma_sm90" needs nvcc and a Hopper GPU) being used; a shape
missing from it goes to `mxlib.runtime.dispatch.unseen_shape_path` with the path's default config.
"amd" is refused, with the reasons (`AMD_REFUSAL`).

Two definitions cannot travel verbatim and are replaced (`SUBSTITUTES`), each by a documented
equivalent: "mma_sm90"'s `mma_source` reads its .cu file next to the module, so the file carries the
source text instead; its `_mma_queue` asks torch for the current CUDA queue, which the contest's word
rule forbids naming, so the file launches on the legacy default queue, the one the contest calls
`custom_kernel` on.
"""
from __future__ import annotations

import ast
import datetime
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1]
TARGETS = ("nvidia", "amd")

AMD_REFUSAL = (
    "--target amd is refused. The AMD file would hold mxlib.aiter_backend (the seed's aiter calls) and a "
    "dispatcher for the MI355X, but (1) it could not be run or tested anywhere we can reach: aiter imports only "
    "on ROCm and the backend has never run on an MI355X; (2) there is no MI355X table (mxlib/data/configs/) to bake in; "
    "(3) the backend's modules are not exportable as written"
)


class NotExportable(Exception):
    """A module's source cannot be flattened into one file without changing its meaning."""


# ---------------------------------------------------------------------------------------------
# Reading modules


@dataclass
class _Module:
    name: str  # dotted: mxlib.kernels.common
    path: Path
    root: Path  # the directory holding the package, for short file names in messages
    lines: list[str]
    defs: dict[str, ast.stmt] = field(default_factory=dict)  # top-level name -> the statement binding it
    rel: dict[str, tuple[str, str]] = field(default_factory=dict)  # local name -> (module, name)
    abs_imports: dict[str, str] = field(default_factory=dict)  # local name -> import statement text
    unusable: dict[str, str] = field(default_factory=dict)  # local name -> why a definition may not use it

    @property
    def file(self) -> Path:
        return self.path.relative_to(self.root)

    def where(self, node: ast.AST) -> str:
        return f"{self.file}:{node.lineno}"


def _module_path(name: str, package_dir: Path) -> Path:
    parts = name.split(".")
    if parts[0] != package_dir.name:
        raise NotExportable(f"{name} is not a module of {package_dir.name}")
    base = package_dir.joinpath(*parts[1:])
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def _bound_names(node: ast.stmt) -> list[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    names = []
    for t in targets:
        elts = t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]
        for e in elts:
            if not isinstance(e, ast.Name):
                raise NotExportable("a top-level assignment to something other than a name")
            names.append(e.id)
    return names


def _parse(name: str, package_dir: Path) -> _Module:
    path = _module_path(name, package_dir)
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, filename=str(path))
    mod = _Module(name, path, package_dir.parent, source.splitlines())
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for i, node in enumerate(tree.body):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            continue  # the module docstring, or an attribute docstring under a constant: no effect
        if isinstance(node, ast.Import):
            for a in node.names:
                local = a.asname or a.name.partition(".")[0]
                mod.abs_imports[local] = f"import {a.name}" + (f" as {a.asname}" if a.asname else "")
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            if node.module == "__future__":
                continue
            if node.module == package_dir.name or node.module.startswith(package_dir.name + "."):
                raise NotExportable(f"{mod.where(node)}: absolute import of {node.module}; use a relative import")
            for a in node.names:
                mod.abs_imports[a.asname or a.name] = f"from {node.module} import {a.name}" + (
                    f" as {a.asname}" if a.asname else "")
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[: len(base) - (node.level - 1)]
            for a in node.names:
                # Both forms below are errors only if a needed definition uses the name (see Collector.add).
                if not node.module:
                    mod.unusable[a.asname or a.name] = (
                        f"{mod.where(node)}: `from {'.' * node.level} import {a.name}` imports a module, which one "
                        "flat file cannot hold; import the names it needs instead")
                elif a.asname and a.asname != a.name:
                    mod.unusable[a.asname] = (f"{mod.where(node)}: `{a.name} as {a.asname}` renames an mxlib name, "
                                              "which one flat file cannot do")
                else:
                    mod.rel[a.name] = (".".join(base + [node.module]), a.name)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign)):
            try:
                names = _bound_names(node)
            except NotExportable as exc:
                raise NotExportable(f"{mod.where(node)}: {exc}") from None
            for n in names:
                if n in mod.defs:
                    raise NotExportable(f"{mod.where(node)}: {n} is bound twice at the top level")
                mod.defs[n] = node
        else:
            raise NotExportable(f"{mod.where(node)}: a top-level {type(node).__name__} statement binds no name "
                                "and would run as a side effect; move it into a function")
    return mod


def _free_names(node: ast.stmt) -> set[str]:
    """Every identifier the statement mentions (locals included: an over-approximation is harmless)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _source(mod: _Module, node: ast.stmt) -> str:
    """The statement's text with its decorators and the comment lines right above it."""
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]) - 1
    while first > 0 and mod.lines[first - 1].lstrip().startswith("#"):
        first -= 1
    return "\n".join(mod.lines[first:node.end_lineno])


# ---------------------------------------------------------------------------------------------
# Collecting what the entry points need


class Collector:
    """Follows names from root definitions through a package's modules; `render` writes them out flat."""

    def __init__(self, package_dir: Path = PACKAGE_DIR):
        self.package_dir = Path(package_dir)
        self.modules: dict[str, _Module] = {}
        self.needed: dict[str, set[int]] = {}  # module -> ids of needed statements
        self.imports: dict[str, tuple[str, str]] = {}  # local name -> (import text, where)
        self.deps: dict[str, set[str]] = {}  # module -> modules its needed statements use

    def module(self, name: str) -> _Module:
        if name not in self.modules:
            self.modules[name] = _parse(name, self.package_dir)
            self.needed[name] = set()
            self.deps[name] = set()
        return self.modules[name]

    def resolve(self, module: str, name: str) -> tuple[str, str]:
        """(module, name) of the definition `name` refers to in `module`, through relative imports."""
        seen = set()
        while True:
            mod = self.module(module)
            if name in mod.defs:
                return module, name
            if name not in mod.rel or (module, name) in seen:
                raise NotExportable(f"{name} is not defined in {mod.file}")
            seen.add((module, name))
            module, name = mod.rel[name]

    def alias_target(self, module: str, name: str) -> str:
        """The definition behind a contract alias such as `gemm = asm_gemm` (or the name itself)."""
        module, name = self.resolve(module, name)
        node = self.modules[module].defs[name]
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name):
            return self.alias_target(module, node.value.id)
        return name

    def add(self, module: str, name: str) -> str:
        """Need the definition of `name` as seen from `module`; returns its name in the flat file."""
        stack = [self.resolve(module, name)]
        while stack:
            mod_name, n = stack.pop()
            mod = self.modules[mod_name]
            node = mod.defs[n]
            if id(node) in self.needed[mod_name]:
                continue
            self.needed[mod_name].add(id(node))
            for free in sorted(_free_names(node)):
                if free in mod.unusable:
                    raise NotExportable(f"{mod.where(node)} ({n}) uses {free}: {mod.unusable[free]}")
                if free in mod.defs:
                    stack.append((mod_name, free))
                elif free in mod.rel:
                    target = self.resolve(mod_name, free)
                    if target[0] != mod_name:
                        self.deps[mod_name].add(target[0])
                    stack.append(target)
                elif free in mod.abs_imports:
                    text = mod.abs_imports[free]
                    prev = self.imports.get(free)
                    if prev is not None and prev[0] != text:
                        raise NotExportable(f"{free} is imported as `{prev[0]}` ({prev[1]}) and as `{text}` "
                                            f"({mod.file})")
                    self.imports[free] = (text, str(mod.file))
        return self.resolve(module, name)[1]

    def order(self) -> list[str]:
        """Modules with needed statements, each after the modules it uses."""
        out, state = [], {}

        def visit(m, chain):
            if state.get(m) == "done":
                return
            if state.get(m) == "active":
                raise NotExportable("import cycle: " + " -> ".join(chain + [m]))
            state[m] = "active"
            for d in sorted(self.deps[m]):
                visit(d, chain + [m])
            state[m] = "done"
            out.append(m)

        for m in sorted(self.modules):
            if self.needed[m]:
                visit(m, [])
        return out

    def render(self, substitutes: dict | None = None) -> tuple[str, str, set[str]]:
        """(imports block, code block, names the code binds); raises on a name bound by two modules.
        `substitutes` maps (module, name) to the text that replaces that definition."""
        substitutes = substitutes or {}
        owner: dict[str, str] = {name: f"the import `{text}`" for name, (text, _) in self.imports.items()}
        blocks = []
        for m in self.order():
            mod = self.modules[m]
            rel = mod.file
            stmts = sorted((node for node in {id(v): v for v in mod.defs.values()}.values()
                            if id(node) in self.needed[m]), key=lambda node: node.lineno)
            for node in stmts:
                for n in _bound_names(node):
                    if n in owner:
                        raise NotExportable(f"name collision: {n} is defined at {mod.where(node)} and by {owner[n]}; "
                                            "give one of them a module-specific prefix")
                    owner[n] = mod.where(node)
            texts = [substitutes.get((m, _bound_names(node)[0])) or _source(mod, node) for node in stmts]
            blocks.append(f"# ---- {rel} " + "-" * max(0, 80 - len(str(rel))) + "\n\n" + "\n\n\n".join(texts))
        imports = sorted({text for text, _ in self.imports.values()}, key=_import_sort_key)
        return "\n".join(imports), "\n\n\n".join(blocks), set(owner)


def _import_sort_key(text: str):
    top = text.split()[1].partition(".")[0]
    third = {"torch": 1, "triton": 2}.get(top, 3 if top not in sys.stdlib_module_names else 0)
    return third, text.startswith("from"), text


# ---------------------------------------------------------------------------------------------
# The nvidia target


def _path_modules() -> dict[str, str]:
    """Path name -> dotted module name, from mxlib.runtime.paths.PATHS."""
    from ..runtime.paths import PATHS

    return dict(PATHS)


# The device kind whose dispatcher table each target bakes in (mxlib/data/configs/<kind>.csv).
TABLE_KIND = {"nvidia": "h200"}
_GENERATED = ("_MX_GEMMS", "_MX_CONFIGS", "_MX_AVAILABLE", "_MX_PLAN", "custom_kernel")
_MMA = "mxlib.kernels.gemm_mma_sm90"


def _embedded_mma_source() -> str:
    from ..kernels.gemm_mma_sm90 import mma_source

    text = mma_source()
    if "\'\'\'" in text or text.endswith("\\"):
        raise NotExportable("the mma_sm90 CUDA source cannot be embedded as a raw string")
    return ('def mma_source() -> str:\n'
            '    """The CUDA C++ source of the kernels (csrc/mxfp4_mma_sm90.cu, embedded by the exporter)."""\n'
            f"    return r\'\'\'{text}\'\'\'")


def _default_queue() -> str:
    return ('def _mma_queue(device) -> int:\n'
            '    """0: the legacy default CUDA queue, the one the contest calls custom_kernel on (the exported\n'
            '    file launches nowhere else)."""\n'
            '    return 0')


# (module, definition) -> a function giving the text that replaces it in the flat file (module docstring).
SUBSTITUTES = {(_MMA, "mma_source"): _embedded_mma_source, (_MMA, "_mma_queue"): _default_queue}


def build_source(target: str = "nvidia") -> str:
    """The text of the self-contained submission for `target`."""
    if target not in TARGETS:
        raise ValueError(f"target must be one of {', '.join(map(repr, TARGETS))}, got {target!r}")
    if target == "amd":
        try:
            Collector().add("mxlib.runtime.aiter_backend", "gemm")
            now = "they collect now, but (1) and (2) still hold"
        except NotExportable as exc:
            now = str(exc)
        raise NotExportable(f"{AMD_REFUSAL}: {now}. Export --target nvidia, or submit a file that calls aiter directly.")
    from ..runtime import dispatch

    col = Collector()
    paths = _path_modules()
    gemms = {p: col.add(mod, col.alias_target(mod, "gemm")) for p, mod in paths.items()}
    configs = {p: col.add(mod, col.alias_target(mod, "Config")) for p, mod in paths.items()}
    available = {p: col.add(mod, col.alias_target(mod, "available")) for p, mod in paths.items()
                 if "available" in col.module(mod).defs}
    heuristic = col.add(dispatch.__name__, "unseen_shape_path")
    # A shape's rows in table order: the first whose path can run is the dispatcher's choice
    # (mxlib.runtime.dispatch.select); the rest are fallbacks.
    kind = TABLE_KIND[target]
    plan = dispatch.load_table(kind)
    imports, code, bound = col.render({key: make() for key, make in SUBSTITUTES.items()})
    clash = set(_GENERATED) & bound
    if clash:
        raise NotExportable(f"the exported dispatcher's names {sorted(clash)} are already defined by mxlib modules")
    header = (f'"""MXFP4 GEMM submission for the amd-mxfp4-mm problem (target {target}), written by '
              f"`python -m mxlib export` on {datetime.date.today().isoformat()}.\n\n"
              f"Self-contained: mxlib's Triton paths and its dispatcher table (mxlib/data/configs/{kind}.csv, "
              f"{len(plan)} shapes),\ncopied verbatim. Edit mxlib and export again rather than editing this file.\n"
              '"""\n')
    tail = _dispatcher(kind, paths, gemms, configs, available, heuristic, plan)
    return f"{header}from __future__ import annotations\n\n{imports}\n\n\n{code}\n\n\n{tail}"


def _dispatcher(kind: str, paths: dict, gemms: dict, configs: dict, available: dict, heuristic: str,
                plan: dict) -> str:
    rows = []
    for (m, n, k), shape_rows in sorted(plan.items()):
        entries = []
        for path, fields in shape_rows:
            if path not in paths:
                raise NotExportable(f"mxlib/data/configs/{kind}.csv row {m}x{n}x{k} names path {path!r}, "
                                    f"not one of {list(paths)}")
            args = ", ".join(f"{f}={v!r}" for f, v in fields.items())
            entries.append(f"({path!r}, _MX_CONFIGS[{path!r}]({args}))")
        rows.append(f"    ({m}, {n}, {k}): [{', '.join(entries)}],")
    return "\n".join([
        "# ---- dispatcher (written by mxlib.tools.export) " + "-" * 40,
        "",
        "_MX_GEMMS = {" + ", ".join(f"{p!r}: {g}" for p, g in gemms.items()) + "}",
        "_MX_CONFIGS = {" + ", ".join(f"{p!r}: {c}" for p, c in configs.items()) + "}",
        "# Paths that run only where they can be built: path -> available(device) -> (bool, reason).",
        "_MX_AVAILABLE = {" + ", ".join(f"{p!r}: {a}" for p, a in available.items()) + "}",
        f"# (M, N, K) -> [(path, config), ...] in the order of mxlib/data/configs/{kind}.csv; built once, at import.",
        "_MX_PLAN = {",
        *rows,
        "}",
        "",
        "",
        "def custom_kernel(data):",
        '    """bf16 (M, N) for the contest tuple (A, B, B_q, B_shuffle, B_scale_sh); A quantized round-half-even."""',
        "    a, _, _, b_shuffle, b_scale_sh = data",
        "    key = (a.shape[0], b_shuffle.shape[0], a.shape[1])",
        "    for path, config in _MX_PLAN.get(key, ()):  # the first row whose path can run here",
        "        if path not in _MX_AVAILABLE or _MX_AVAILABLE[path](a.device)[0]:",
        "            return _MX_GEMMS[path](a, b_shuffle, b_scale_sh, config=config, rounding=\"rne\")",
        "    # a shape the table has not seen: mxlib's rule for it, the path's default config",
        f"    return _MX_GEMMS[{heuristic}(*key, {kind!r})](a, b_shuffle, b_scale_sh, rounding=\"rne\")",
        "",
    ])


# ---------------------------------------------------------------------------------------------
# Checking the written file

# Runs the exported file alone: mxlib made unimportable, so a leftover import fails here.
_IMPORT_CHECK = r"""
import importlib.abc, importlib.util, sys
class _NoMxlib(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "mxlib" or name.startswith("mxlib."):
            raise ImportError("mxlib must not be imported by the exported file")
sys.meta_path.insert(0, _NoMxlib())
spec = importlib.util.spec_from_file_location("submission", sys.argv[1])
mod = importlib.util.module_from_spec(spec)
sys.modules["submission"] = mod  # as `from submission import custom_kernel` in eval.py leaves it
spec.loader.exec_module(mod)
assert callable(mod.custom_kernel)
"""


def verify(text: str, path: Path | None = None) -> None:
    """The harness's source rules, a parse, no relative import left, and (given `path`) an import alone."""
    from .harness import check_source

    problems = check_source(text)
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.level:
            problems.append(f"line {node.lineno}: a relative import was left in the exported file")
    if problems:
        raise NotExportable("the exported file breaks the contest's rules:\n  - " + "\n  - ".join(problems))
    if path is not None:
        with tempfile.TemporaryDirectory() as cwd:  # a cwd without the repository in it
            proc = subprocess.run([sys.executable, "-c", _IMPORT_CHECK, str(Path(path).resolve())], cwd=cwd,
                                  capture_output=True, text=True, timeout=300)
        if proc.returncode:
            raise NotExportable(f"the exported file does not import on its own:\n{proc.stderr[-3000:]}")


def export(out: Path, target: str = "nvidia", *, check_import: bool = True) -> str:
    """Write the submission for `target` to `out` and verify it; returns its text."""
    text = build_source(target)
    verify(text)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    if check_import:
        verify(text, out)
    return text


def add_arguments(p) -> None:
    p.add_argument("out", type=Path, help="the submission file to write")
    p.add_argument("--target", default="nvidia", choices=TARGETS, help="which backend and table (default nvidia)")
    p.add_argument("--no-import-check", action="store_true",
                   help="skip importing the written file in a subprocess without mxlib")


def run(args) -> int:
    try:
        text = export(args.out, args.target, check_import=not args.no_import_check)
    except NotExportable as exc:
        print(f"export failed: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {args.out} ({len(text.splitlines())} lines, target {args.target})")
    return 0

