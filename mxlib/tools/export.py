"""`python -m mxlib export --target nvidia|amd OUT.py`: the contest submission as one self-contained file.

The contest takes a single Python file defining `custom_kernel(data)`, with no mxlib on its machine.
The exporter copies, verbatim, exactly the top-level definitions of mxlib's modules that the target's
dispatcher reaches (found by following names through the AST: a definition's free names lead to the
definitions and `from .x import name` imports they refer to), grouped by module in dependency order,
with the modules' absolute imports (stdlib, torch, triton) deduplicated at the top. It then appends the
dispatcher: the target's per-shape rows baked in as literals, computed here by the library's own
selection code, and a `custom_kernel` that hands them to `mxlib.runtime.dispatch.first_usable` (copied
like the rest), which picks the first row whose path can run.

The rules a module must follow to be flattened are `RULES`, in one place; every refusal is a
`NotExportable` naming the file and line, the rule's key and the rule. The written file is checked
against the last rule, "contest-source", before it is kept.

Targets, each with the config table `TABLE_KIND` names (mxlib/data/configs/<kind>.csv):

- "nvidia" (the H200, the proving ground where mxlib's numbers were measured): each shape's rows of
  h200.csv in table order, up to the first whose path always runs (rows after it are never reached, and
  their paths are not carried); a path module's `available` (e.g. "mma_sm90" needs nvcc and a Hopper GPU)
  decides the others. A shape without rows tries `dispatch.gpu_unseen_paths` ("mma_sm90", then "fused")
  with their default configs.
- "amd" (the contest's MI355X): by default every shape makes the seed's aiter call (`mxlib.spec.seed`:
  `seed_plan`'s path, kernel name and split-K config per shape; the calls are
  `mxlib.runtime.aiter_calls`), falling back to "fused_fp4" with the config of mi355x.csv where aiter
  does not import. `DEFAULT_PATH` and `PATH_OVERRIDES`, plain constants near the top of the file,
  switch every shape or one shape to "fused_fp4". The header says that the file never ran on an
  MI355X and which aiter versions its calls were checked against (`aiter_backend.VERSIONS`).

Two definitions cannot travel verbatim and are replaced (`SUBSTITUTES`), each by a documented
equivalent: "mma_sm90"'s `mma_source` reads its .cu file next to the module, so the file carries the
source text instead; and `mx_queue_state` (`mxlib.kernels.common`), where mma_sm90 and the split-K
counters ask torch for the current CUDA queue and the graph capture it is in, which the contest's
word rule forbids naming, so the file answers the legacy default queue (the one the contest calls
`custom_kernel` on: the file launches nowhere else) and no (the contest never captures). The names a
substitute uses, not the original's, are followed.
"""
from __future__ import annotations

import ast
import re
import subprocess
import sys
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from ..spec.devices import H200, MI355X
from ..spec.ints import positive
from .arguments import output_file
from .files import atomic_path
from .provenance import utc_date

PACKAGE_DIR = Path(__file__).resolve().parents[1]
TARGETS = ("nvidia", "amd")
# The device kind whose config table each target bakes in (mxlib/data/configs/<kind>.csv).
TABLE_KIND = {"nvidia": H200.kind, "amd": MI355X.kind}

# What a module must obey for its definitions to be flattened into one file, and what the file must obey.
RULES = {
    "top-level": "a module's top level holds only imports, definitions (def, class, assignment to plain names) "
                 "and docstrings: any other statement would run as a side effect of importing the file",
    "bound-once": "a module binds each top-level name once",
    "import-names": "mxlib modules import each other's names as `from .module import name`: not a module "
                    "(`from . import module`: one file has no modules), not through an absolute mxlib import "
                    "(the contest machine has no mxlib), not renamed (`name as other`: one file is one namespace)",
    "nested-imports": "an import inside a definition the file needs is absolute and not of mxlib: it runs as written",
    "unique-names": "no two definitions the file needs share a name, with each other or with an import: the file "
                    "is one namespace (hence module prefixes such as mx_, mxq_, _fp4_)",
    "same-import": "a name imported in several modules is imported the same way in each",
    "no-cycle": "the modules the file draws on import each other without a cycle: each module's block follows "
                "the blocks it uses",
    "reserved-names": "no definition the file needs binds a name the exporter writes itself (`RESERVED`: the "
                      "dispatcher's names and the constants at the top)",
    "contest-source": "the written file contains no word \"stream\" in any case and imports no mxlib "
                      "(mxlib.tools.harness.check_source), keeps no relative import, and imports alone in a "
                      "process where mxlib cannot be imported",
}

# The names the exporter writes into the file itself.
RESERVED = ("DEFAULT_PATH", "PATH_OVERRIDES", "_MX_GEMMS", "_MX_AVAILABLE", "_MX_PLAN", "_MX_UNSEEN", "_MX_SEED",
            "_MX_FUSED_FP4", "_MX_CHOICES", "_mx_check_choices", "_mx_rows", "custom_kernel")


class NotExportable(Exception):
    """Source or data that one flat file cannot carry without changing its meaning. `rule` is the key of the
    `RULES` entry broken (None when a target's table names what the file cannot run)."""

    def __init__(self, rule: str | None, message: str):
        self.rule = rule
        super().__init__(message if rule is None else f"{message} (exporter rule {rule!r}: {RULES[rule]})")


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
        raise ValueError(f"module must be one of package {package_dir.name}, got {name}")
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
                raise NotExportable("top-level", "a top-level assignment to something other than a name")
            names.append(e.id)
    return names


def _is_package(module: str | None, package: str) -> bool:
    return module is not None and (module == package or module.startswith(package + "."))


def _parse(name: str, package_dir: Path) -> _Module:
    path = _module_path(name, package_dir)
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, filename=str(path))
    mod = _Module(name, path, package_dir.parent, source.splitlines())
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            continue  # the module docstring, or an attribute docstring under a constant: no effect
        if isinstance(node, ast.Import):
            for a in node.names:
                if _is_package(a.name, package_dir.name):
                    raise NotExportable("import-names", f"{mod.where(node)}: `import {a.name}` is an absolute "
                                                        "mxlib import")
                local = a.asname or a.name.partition(".")[0]
                mod.abs_imports[local] = f"import {a.name}" + (f" as {a.asname}" if a.asname else "")
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            if node.module == "__future__":
                continue
            if _is_package(node.module, package_dir.name):
                raise NotExportable("import-names", f"{mod.where(node)}: absolute import of {node.module}; "
                                                    "use a relative import")
            for a in node.names:
                mod.abs_imports[a.asname or a.name] = f"from {node.module} import {a.name}" + (
                    f" as {a.asname}" if a.asname else "")
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[: len(base) - (node.level - 1)]
            for a in node.names:
                # Both forms below are errors only if a needed definition uses the name (see Collector.add).
                target = ".".join(base + [node.module] if node.module else base)
                if not node.module or _module_path(f"{target}.{a.name}", package_dir).exists():
                    mod.unusable[a.asname or a.name] = (
                        f"{mod.where(node)}: `from {'.' * node.level}{node.module or ''} import {a.name}` imports "
                        "a module")
                elif a.asname and a.asname != a.name:
                    mod.unusable[a.asname] = f"{mod.where(node)}: `{a.name} as {a.asname}` renames an mxlib name"
                else:
                    mod.rel[a.name] = (target, a.name)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign)):
            try:
                names = _bound_names(node)
            except NotExportable as exc:
                raise NotExportable("top-level", f"{mod.where(node)}: a top-level assignment to something "
                                                 "other than a name") from exc
            for n in names:
                if n in mod.defs:
                    raise NotExportable("bound-once", f"{mod.where(node)}: {n} is bound twice at the top level")
                mod.defs[n] = node
        else:
            raise NotExportable("top-level", f"{mod.where(node)}: a top-level {type(node).__name__} statement "
                                             "binds no name and would run as a side effect; move it into a function")
    return mod


def _free_names(node: ast.AST) -> set[str]:
    """Every identifier the statement mentions (locals included: an over-approximation is harmless)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _nested_imports(mod: _Module, node: ast.stmt, name: str, package: str) -> None:
    """Refuses an import inside a needed definition that would not work as written in the flat file."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.ImportFrom) and inner.level:
            raise NotExportable("nested-imports", f"{mod.where(inner)} ({name}): `from {'.' * inner.level}"
                                                  f"{inner.module or ''} import ...` is a relative import")
        modules = ([a.name for a in inner.names] if isinstance(inner, ast.Import)
                   else [inner.module] if isinstance(inner, ast.ImportFrom) else [])
        for m in modules:
            if _is_package(m, package):
                raise NotExportable("nested-imports", f"{mod.where(inner)} ({name}): imports {m}")


def _source(mod: _Module, node: ast.stmt) -> str:
    """The statement's text with its decorators and the comment lines right above it."""
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]) - 1
    while first > 0 and mod.lines[first - 1].lstrip().startswith("#"):
        first -= 1
    return "\n".join(mod.lines[first:node.end_lineno])


# ---------------------------------------------------------------------------------------------
# Collecting what the entry points need


class Collector:
    """Follows names from root definitions through a package's modules; `render` writes them out flat.

    `substitutes` maps (module, name) to a function giving the text that replaces that definition in the
    file (called only when the definition is needed); the names that text uses are followed instead of
    the original's."""

    def __init__(self, package_dir: Path = PACKAGE_DIR, substitutes: dict | None = None):
        self.package_dir = Path(package_dir)
        self.substitutes = dict(substitutes or {})
        self.texts: dict[tuple[str, str], str] = {}  # the substitutes' texts, once needed
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
                raise ValueError(f"name must be defined in {mod.file} or imported there, got {name}")
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
            text = None
            if (mod_name, n) in self.substitutes:
                text = self.texts[(mod_name, n)] = self.substitutes[(mod_name, n)]()
            if text is None:
                _nested_imports(mod, node, n, self.package_dir.name)
            for free in sorted(_free_names(node if text is None else ast.parse(text))):
                if free in mod.unusable:
                    raise NotExportable("import-names", f"{mod.where(node)} ({n}) uses {free}: {mod.unusable[free]}")
                if free in mod.defs:
                    stack.append((mod_name, free))
                elif free in mod.rel:
                    target = self.resolve(mod_name, free)
                    if target[0] != mod_name:
                        self.deps[mod_name].add(target[0])
                    stack.append(target)
                elif free in mod.abs_imports:
                    import_text = mod.abs_imports[free]
                    prev = self.imports.get(free)
                    if prev is not None and prev[0] != import_text:
                        raise NotExportable("same-import", f"{free} is imported as `{prev[0]}` ({prev[1]}) and "
                                                           f"as `{import_text}` ({mod.file})")
                    self.imports[free] = (import_text, str(mod.file))
        return self.resolve(module, name)[1]

    def order(self) -> list[str]:
        """Modules with needed statements, each after the modules it uses."""
        out, state = [], {}

        def visit(m, chain):
            if state.get(m) == "done":
                return
            if state.get(m) == "active":
                raise NotExportable("no-cycle", "import cycle: " + " -> ".join(chain + [m]))
            state[m] = "active"
            for d in sorted(self.deps[m]):
                visit(d, chain + [m])
            state[m] = "done"
            out.append(m)

        for m in sorted(self.modules):
            if self.needed[m]:
                visit(m, [])
        return out

    def render(self, reserved=()) -> tuple[str, str]:
        """(imports block, code block). Raises on a name bound twice in the file, or bound by a needed
        definition and also in `reserved` (names the caller writes into the file itself)."""
        owner: dict[str, str] = {name: f"the import `{text}`" for name, (text, _) in self.imports.items()}
        blocks = []
        for m in self.order():
            mod = self.modules[m]
            stmts = sorted((node for node in {id(v): v for v in mod.defs.values()}.values()
                            if id(node) in self.needed[m]), key=lambda node: node.lineno)
            for node in stmts:
                for n in _bound_names(node):
                    if n in reserved:
                        raise NotExportable("reserved-names", f"{mod.where(node)}: {n} is a name the exporter "
                                                              "writes itself")
                    if n in owner:
                        raise NotExportable("unique-names", f"{n} is defined at {mod.where(node)} and by {owner[n]}")
                    owner[n] = mod.where(node)
            texts = [self.texts.get((m, _bound_names(node)[0])) or _source(mod, node) for node in stmts]
            blocks.append(f"# ---- {mod.file} " + "-" * max(0, 80 - len(str(mod.file))) + "\n\n" + "\n\n\n".join(texts))
        imports = sorted({text for text, _ in self.imports.values()}, key=_import_sort_key)
        return "\n".join(imports), "\n\n\n".join(blocks)


def _import_sort_key(text: str):
    top = text.split()[1].partition(".")[0]
    third = {"torch": 1, "triton": 2}.get(top, 3 if top not in sys.stdlib_module_names else 0)
    return third, text.startswith("from"), text


# ---------------------------------------------------------------------------------------------
# Definitions that travel as documented equivalents

_MMA = "mxlib.kernels.gemm_mma_sm90"


def _embedded_mma_source() -> str:
    from ..kernels.gemm_mma_sm90 import mma_source

    text = mma_source()
    if "\'\'\'" in text or text.endswith("\\"):
        raise NotExportable(None, "the mma_sm90 CUDA source cannot be embedded as a raw string")
    return ('def mma_source() -> str:\n'
            '    """The CUDA C++ source of the kernels (csrc/mxfp4_mma_sm90.cu, embedded by the exporter)."""\n'
            f"    return r\'\'\'{text}\'\'\'")


def _one_queue_never_capturing() -> str:
    return ('def mx_queue_state(device) -> tuple:\n'
            '    """(0, 0): the contest calls custom_kernel on one queue, the legacy default one, eagerly,\n'
            '    never while a graph is captured (the exported file cannot ask: the question names the queue).\n'
            '    Both the CUDA path\'s launches and the split-K counters go there."""\n'
            '    return 0, 0')


# (module, definition) -> a function giving the text that replaces it in the flat file (module docstring).
SUBSTITUTES = {(_MMA, "mma_source"): _embedded_mma_source,
               ("mxlib.kernels.common", "mx_queue_state"): _one_queue_never_capturing}


# ---------------------------------------------------------------------------------------------
# The targets


@dataclass(frozen=True)
class _PathNames:
    """A path's contract definitions as the file names them."""
    gemm: str
    config: str
    available: str | None  # None: the path runs wherever Triton does


def _add_path(col: Collector, path: str) -> _PathNames:
    from ..runtime.paths import PATHS

    mod = PATHS[path]
    available = col.add(mod, col.alias_target(mod, "available")) if "available" in col.module(mod).defs else None
    return _PathNames(col.add(mod, col.alias_target(mod, "gemm")), col.add(mod, col.alias_target(mod, "Config")),
                      available)


def _reachable(col: Collector, table: dict) -> dict:
    """{shape: rows}: each shape's rows up to the first whose path always runs (its module has no
    `available`); the dispatcher never reaches the rows after it."""
    from ..runtime.paths import PATHS

    out = {}
    for shape, rows in sorted(table.items()):
        out[shape] = []
        for path, fields in rows:
            out[shape].append((path, fields))
            if "available" not in col.module(PATHS[path]).defs:
                break
    return out


def _config_kwargs(config_class: str, fields: dict) -> str:
    return "{'config': " + config_class + "(" + ", ".join(f"{k}={v!r}" for k, v in fields.items()) + ")}"


def _shape_dict(name: str, comment: str, entries: dict) -> list[str]:
    return [f"# {comment}", f"{name} = {{", *(f"    {shape}: {text}," for shape, text in entries.items()), "}"]


def _dispatcher(col: Collector, gemms: dict, available: dict, sections: list[str], rows_fn: list[str]) -> str:
    """The dispatcher's text: the gemm and availability tables, the target's `sections` (its baked rows)
    and `rows_fn` (`_mx_rows(shape)`, the rows to try for a shape), and `custom_kernel`."""
    first_usable = col.add("mxlib.runtime.dispatch", "first_usable")
    check = col.add("mxlib.spec.reference", "check_gemm_operands")
    items = col.add("mxlib.spec.reference", "data_items")
    return "\n".join([
        "# ---- dispatcher (written by mxlib.tools.export) " + "-" * 40,
        "",
        "_MX_GEMMS = {" + ", ".join(f"{p!r}: {g}" for p, g in gemms.items()) + "}",
        "# Paths that run only where they can: path -> available(device) -> (can run, why not).",
        "_MX_AVAILABLE = {" + ", ".join(f"{p!r}: {a}" for p, a in available.items()) + "}",
        *sections,
        "",
        "",
        *rows_fn,
        "",
        "",
        "def custom_kernel(data):",
        '    """bf16 (M, N) for the contest tuple (A, B, B_q, B_shuffle, B_scale_sh); A quantized round-half-even."""',
        f"    a, _, _, b_shuffle, b_scale_sh = {items}(data)",
        f"    shape = {check}(a, b_shuffle, b_scale_sh)  # before any path: aiter's calls check nothing",
        "    if shape[0] == 0:",
        "        return torch.empty((0, shape[1]), dtype=torch.bfloat16, device=a.device)",
        "",
        "    def can_run(path):",
        '        return _MX_AVAILABLE[path](a.device) if path in _MX_AVAILABLE else (True, "")',
        "",
        f"    path, kwargs = {first_usable}(_mx_rows(shape), can_run, shape)",
        '    return _MX_GEMMS[path](a, b_shuffle, b_scale_sh, rounding="rne", **kwargs)',
        "",
    ])


def _nvidia(col: Collector, kind: str) -> tuple[str, str, str]:
    """(docstring body, top constants, dispatcher) of the nvidia file."""
    from ..runtime import dispatch
    from ..runtime.paths import PATHS

    table = _reachable(col, dispatch.load_table(kind))
    unseen = dispatch.gpu_unseen_paths(kind)
    paths = sorted({p for rows in table.values() for p, _ in rows} | set(unseen), key=list(PATHS).index)
    names = {p: _add_path(col, p) for p in paths}
    plan = {shape: "[" + ", ".join(f"({p!r}, {_config_kwargs(names[p].config, fields)})" for p, fields in rows) + "]"
            for shape, rows in table.items()}
    sections = [
        *_shape_dict("_MX_PLAN", f"(M, N, K) -> [(path, keyword arguments), ...]: mxlib/data/configs/{kind}.csv's rows "
                                 "in table order, up to the first path that always runs.", plan),
        f"_MX_UNSEEN = [{', '.join(f'({p!r}, {{}})' for p in unseen)}]  # a shape without rows: "
        "mxlib.runtime.dispatch.gpu_unseen_paths, default configs",
    ]
    rows_fn = ["def _mx_rows(shape):",
               '    """(path, keyword arguments) to try for a shape, in order."""',
               "    return _MX_PLAN.get(shape, _MX_UNSEEN)"]
    doc = textwrap.fill(
        f"For the H200 stand-in, not for the contest's MI355X (`export --target amd` writes that file). Paths "
        f"{', '.join(paths)}: each shape's rows of mxlib/data/configs/{kind}.csv ({len(table)} shapes) in table "
        f"order, up to the first path that always runs; the first row whose path can run here is taken (a path "
        f"with `available`, e.g. mma_sm90, runs only where it can be built). A shape without rows tries "
        f"{', then '.join(unseen)} with their default configs.", 104)
    dispatcher = _dispatcher(col, {p: n.gemm for p, n in names.items()},
                             {p: n.available for p, n in names.items() if n.available}, sections, rows_fn)
    return doc, "", dispatcher


_AITER = "mxlib.runtime.aiter_calls"
AMD_CHOICES = ("seed", "fused_fp4")


def _seed_kwargs(plan: dict) -> dict:
    """The keyword arguments of `aiter_calls`' function for a `seed_plan`: the seed's kernel name and split, or
    its split-K config."""
    from ..spec.seed import SEED_LOG2_K_SPLIT

    if plan["path"] == "asm":
        return {"kernel_name": plan["kernel"], "log2_k_split": SEED_LOG2_K_SPLIT}
    return {"config": plan["config"]} if plan["path"] == "splitk" else {}


def _amd(col: Collector, kind: str) -> tuple[str, str, str]:
    """(docstring body, top constants, dispatcher) of the amd file."""
    from ..runtime import aiter_backend, dispatch
    from ..spec import seed, shapes

    table = dispatch.load_table(kind)
    for (m, n, k), rows in sorted(table.items()):
        for path, _ in rows:
            if path != "fused_fp4":
                raise NotExportable(None, f"mxlib/data/configs/{kind}.csv row {m}x{n}x{k} names path {path!r}: the "
                                          "AMD file runs the seed's aiter calls and 'fused_fp4' only")
    if dispatch.gpu_unseen_paths(kind) != ("fused_fp4",):
        raise NotExportable(None, f"mxlib.runtime.dispatch.gpu_unseen_paths({kind!r}) must be ('fused_fp4',), the "
                                  f"AMD file's Triton path, got {dispatch.gpu_unseen_paths(kind)!r}")
    fused = _add_path(col, "fused_fp4")
    aiter = {p: col.add(_AITER, f"aiter_{p}") for p in aiter_backend.PATHS}
    gate = col.add(_AITER, "aiter_available")
    gates = {p: col.add(_AITER, "aiter_splitk_available") if p == "splitk" else gate for p in aiter}
    seed_path = col.add("mxlib.spec.seed", "seed_path")
    choice = col.add("mxlib.spec.validate", "choice")
    # Every shape the seed names a kernel or config for is baked in, so for any other shape the seed's
    # call is seed_path's with aiter_calls' defaults (an empty kernel name: aiter's heuristic).
    known = sorted(set(table) | {s.mnk for s in shapes.load()} | set(seed.SEED_ASM_TILES) | {seed.SEED_SPLITK_SHAPE})
    plans = {shape: seed.seed_plan(*shape) for shape in known}
    seed_rows = {shape: repr((p["path"], _seed_kwargs(p))) for shape, p in plans.items()}
    fused_rows = {shape: _config_kwargs(fused.config, rows[0][1]) for shape, rows in sorted(table.items())}
    sections = [
        *_shape_dict("_MX_SEED", "(M, N, K) -> (path, keyword arguments): the seed's aiter call "
                                 "(mxlib.spec.seed.seed_plan).", seed_rows),
        *_shape_dict("_MX_FUSED_FP4", f"(M, N, K) -> keyword arguments of fused_fp4: mxlib/data/configs/{kind}.csv "
                                      "(a shape without a row: the default config).", fused_rows),
        f"_MX_CHOICES = {AMD_CHOICES!r}",
        "",
        "",
        "def _mx_check_choices():",
        '    """DEFAULT_PATH and PATH_OVERRIDES, checked when the file is imported."""',
        f'    {choice}(DEFAULT_PATH, "DEFAULT_PATH", _MX_CHOICES)',
        "    for shape, path in PATH_OVERRIDES.items():",
        "        if not (isinstance(shape, tuple) and len(shape) == 3 and all(type(v) is int for v in shape)):",
        '            raise ValueError(f"PATH_OVERRIDES keys must be (M, N, K) tuples of ints, got {shape!r}")',
        f'        {choice}(path, f"PATH_OVERRIDES[{{shape}}]", _MX_CHOICES)',
        "",
        "",
        "_mx_check_choices()",
    ]
    rows_fn = [
        "def _mx_rows(shape):",
        '    """(path, keyword arguments) to try for a shape, in order: the seed\'s aiter call when the shape\'s',
        '    path is "seed" (for a shape not in _MX_SEED, seed_path\'s route with aiter choosing the kernel; after',
        "    a split-K call, which aiter_splitk_available may refuse, aiter's ASM kernel of its own choice, as the",
        '    seed runs other shapes of M <= 32), then fused_fp4."""',
        '    fused_fp4 = ("fused_fp4", _MX_FUSED_FP4.get(shape, {}))',
        '    if PATH_OVERRIDES.get(shape, DEFAULT_PATH) == "fused_fp4":',
        "        return [fused_fp4]",
        f"    seed_row = _MX_SEED.get(shape) or ({seed_path}(*shape), {{}})",
        '    return [seed_row, *([("asm", {})] if seed_row[0] == "splitk" else []), fused_fp4]',
    ]
    top = _amd_top(kind, plans, table)
    dispatcher = _dispatcher(col, {**aiter, "fused_fp4": fused.gemm}, gates, sections, rows_fn)
    return _amd_doc(), top, dispatcher


def _amd_doc() -> str:
    from ..runtime.aiter_backend import NEWEST_CHECKED, VERSIONS
    from ..spec.devices import MI355X_RUNNER_TORCH, MI355X_RUNNER_TRITON
    from ..spec.seed import SEED_AITER

    checked = "; ".join(f"{p} >= {low}" + (f" and < {stop}" if stop else "") + f" ({why})"
                        for p, (low, stop, why) in VERSIONS.items())
    return "\n".join([
        "NEVER RUN ON AN MI355X: mxlib has no AMD GPU. What was checked, on a CPU: the contest's source rules;",
        "its aiter calls (names, arguments, dtypes, views, results) against a fake aiter; every Triton kernel it",
        "launches, compiled for gfx950 without a GPU (fused_fp4's to the native v_mfma_scale_f32_*_f8f6f4, no",
        f"scratch), by Triton {MI355X_RUNNER_TRITON} (what the contest runner's torch {MI355X_RUNNER_TORCH} pins) and by",
        "a newer Triton; and, with aiter absent, its Triton path on the golden cases in Triton's interpreter.",
        "",
        "By default every shape makes the seed submission's aiter call (the seed's calls are the ones known to",
        "have run on an MI355X; mxlib.spec.seed.seed_plan states what it calls): gemm_a4w4_asm for M <= 32 (the 32x128",
        "kernel where the seed names one, else aiter's heuristic choice), aiter.gemm_a4w4 for M > 32, and aiter's",
        "Triton gemm_afp4wfp4_preshuffle with the seed's split-K config for (16, 2112, 7168). A is quantized first",
        "by mxlib's Triton quantizer (one launch, round-half-even, bit-exact with aiter's on finite inputs, never",
        "run on an AMD GPU) where the seed had two quant kernels of its own. Where aiter does not import, and for every shape that DEFAULT_PATH or",
        "PATH_OVERRIDES (below) sends there, \"fused_fp4\" runs: mxlib's single-launch Triton GEMM with A quantized",
        "in the kernel, its configs from mxlib/data/configs/mi355x.csv (whose comments say where each row came",
        "from; NOT measured on an MI355X).",
        "",
        *textwrap.wrap(f"aiter versions the calls were checked against, by reading aiter's source "
                       f"(mxlib.runtime.aiter_backend.VERSIONS; none was run): {checked}; nothing newer than "
                       f"{NEWEST_CHECKED}. The seed itself runs on aiter >= {SEED_AITER[0]} and < {SEED_AITER[1]}. "
                       "This file reads no version: like the seed, it calls aiter wherever aiter imports, except "
                       "the split-K call where gemm_afp4wfp4_preshuffle's signature is that of ROCm/aiter#3359 "
                       "(its first parameter x_fp4, not x), whose results are wrong: there it makes aiter's ASM "
                       "call instead (aiter_splitk_available).", 104),
    ])


def _amd_top(kind: str, plans: dict, table: dict) -> str:
    lines = [
        "# ---- which path runs each shape: edit here " + "-" * 44,
        "#",
        '# "seed": the seed\'s aiter call for the shape (falling back to fused_fp4 where aiter does not import);',
        f'# "fused_fp4": mxlib\'s Triton GEMM with the config of mxlib/data/configs/{kind}.csv (not measured on an',
        "# MI355X). DEFAULT_PATH holds for every shape that PATH_OVERRIDES does not name.",
        'DEFAULT_PATH = "seed"',
        'PATH_OVERRIDES = {}  # (M, N, K) -> "seed" or "fused_fp4", e.g. {(16, 2112, 7168): "fused_fp4"}',
        "#",
        "# The seed's call per contest shape, and the GEMM kernel aiter then runs (mxlib.spec.seed.seed_plan; how",
        "# it is chosen; the aiter releases that holds for). Any other shape: the same rule (seed_path), the kernel",
        "# left to aiter. \"heuristic\": aiter's pick when given no name, in libstdc++'s visiting order of its",
        "# kernel map (aiter built by hipcc on Linux); another order can pick another tile (mxlib.spec.aiter_rules).",
    ]
    from ..spec.aiter_rules import AITER_LINES
    from ..spec.seed import DEFAULT_AITER, seed_plan

    others = [line for line in AITER_LINES if line.first != DEFAULT_AITER]
    for shape, p in plans.items():
        if shape in table:
            lines.append(f"#   {'x'.join(map(str, shape)):<15} {p['path']:<6} {p['runs'] or 'unknown'} "
                         f"({p['how']}; aiter {p['aiter']})")
            for line in others:
                other = seed_plan(*shape, aiter=line.first)
                if other["runs"] != p["runs"]:
                    lines.append(f"#   {'':<15} {'':<6} {other['runs'] or 'unknown'} ({other['how']}; aiter {other['aiter']})")
    if others:
        lines += ["#", *("# " + text for text in textwrap.wrap(
            "Where the tuned rows' lines differ, the second kernel is the newer line's. A line is set by aiter's "
            "commit, not its version string: " + "; ".join(f"the {line.name} line's rows hold {line.span}"
                                                           for line in others)
            + ". A build of main after that first commit and before the release tag is numbered below 0.1.11 "
            "yet has the newer rows (mxlib.spec.seed places such a build by the commit in its version's local "
            "part): kernelbot's MI355X image pins f3be04a12a (2026-03-04, "
            "gpu-mode/kernelbot:docker/amd-docker.Dockerfile), such a build.", 104, break_on_hyphens=False))]
    return "\n".join(lines)


def build_source(target: str) -> str:
    """The text of the self-contained submission for `target`."""
    if target not in TARGETS:
        raise ValueError(f"target must be one of {', '.join(map(repr, TARGETS))}, got {target!r}")
    col = Collector(substitutes=SUBSTITUTES)
    kind = TABLE_KIND[target]
    doc, top, dispatcher = (_nvidia if target == "nvidia" else _amd)(col, kind)
    imports, code = col.render(RESERVED)
    header = (f'"""MXFP4 GEMM submission for amd-mxfp4-mm, target {target}, written by `python -m mxlib export` '
              f"on {utc_date()} (UTC).\n\n{doc}\n\n"
              "Self-contained: mxlib's code copied verbatim by mxlib.tools.export. Edit mxlib and export again "
              "rather\nthan editing this file" + (" (DEFAULT_PATH and PATH_OVERRIDES are there to be edited)" if top
                                                  else "") + '.\n"""\n')
    parts = [header + "from __future__ import annotations\n\n" + imports, top, code, dispatcher]
    return "\n\n\n".join(p for p in parts if p)


def undated_head(text: str, lines: int) -> str:
    """The first `lines` lines of an exported file's text without the day it was written (" on YYYY-MM-DD"):
    what a page that shows the file prints, the same on any day."""
    positive(lines, "lines")
    return re.sub(r" on \d{4}-\d{2}-\d{2}", "", "\n".join(text.splitlines()[:lines]))


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
    """The rule "contest-source": the harness's source rules, a parse, no relative import left, and (given
    `path`, the file holding `text`) an import alone."""
    from .harness import check_source

    problems = check_source(text)
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.level:
            problems.append(f"line {node.lineno}: a relative import was left in the exported file")
    if problems:
        raise NotExportable("contest-source", "the exported file breaks the contest's rules:\n  - "
                            + "\n  - ".join(problems) + "\n")
    if path is not None:
        with tempfile.TemporaryDirectory() as cwd:  # a cwd without the repository in it
            proc = subprocess.run([sys.executable, "-c", _IMPORT_CHECK, str(Path(path).resolve())], cwd=cwd,
                                  capture_output=True, text=True, timeout=300)
        if proc.returncode:
            raise NotExportable("contest-source", f"the exported file does not import on its own:\n"
                                                  f"{proc.stderr[-3000:]}\n")


def export(out: Path, target: str, *, check_import: bool = True) -> str:
    """Write the submission for `target` to `out` once it is verified; returns its text. The file is
    written beside `out` under a temporary name and renamed only after the import check, so a failed
    export leaves no file behind and keeps an older `out` as it was."""
    text = build_source(target)
    verify(text)
    with atomic_path(out, suffix=".py") as staged:  # importable under its own name for the check
        staged.write_text(text, encoding="utf-8")
        if check_import:
            verify(text, staged)
    return text


def add_arguments(p) -> None:
    p.add_argument("out", type=output_file, help="the submission file to write")
    p.add_argument("--target", required=True, choices=TARGETS,
                   help="amd: the contest's MI355X, the seed's aiter calls and fused_fp4; nvidia: the H200 table's "
                        "paths (no default: the two files are for different machines)")
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
