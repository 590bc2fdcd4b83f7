"""mxlib's layers, read from the source: spec <- kernels <- runtime <- tools, and no import cycles.

Every module's imports count, those inside functions (lazy imports) included, and so does a module
named by a string (`importlib.import_module(PATHS[name])`, the command table of `__main__`): each
is an import that runs sooner or later. A module may import its own layer and the layers before it.
`mxlib/__init__.py`, the package's face, sits between runtime and tools; `mxlib/__main__.py`, the
command line, above tools.
"""
import ast
from pathlib import Path

import pytest

PACKAGE_DIR = Path(__file__).resolve().parent.parent / "mxlib"
LAYERS = ("spec", "kernels", "runtime", "tools")
RANK = {"spec": 0, "kernels": 1, "runtime": 2, "": 2.5, "tools": 3, "__main__": 4}


def module_names(package_dir: Path) -> dict[str, Path]:
    """Dotted name -> file for every module of the package (a package by its __init__.py)."""
    root = package_dir.parent
    names = {}
    for path in package_dir.rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


def _docstring_ids(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            ids.add(id(body[0].value))
    return ids


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> dict[str, int]:
    """{imported mxlib module: line} for one module, lazy imports and modules named by strings included."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    top = name.split(".")[0]
    found: dict[str, int] = {}

    def add(target: str, line: int) -> None:
        found.setdefault(target, line)  # a module naming itself counts: a cycle of one

    docstrings = _docstring_ids(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == top:
                    add(a.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if source.split(".")[0] != top:
                continue
            for a in node.names:
                sub = f"{source}.{a.name}"
                add(sub if sub in modules else source, node.lineno)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if node.value in modules and node.value.startswith(top + "."):
                add(node.value, node.lineno)
    return found


def import_graph(package_dir: Path) -> dict[str, dict[str, int]]:
    modules = module_names(package_dir)
    return {name: imports_of(name, path, modules) for name, path in sorted(modules.items())}


def layer(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else ""


def layer_violations(graph: dict[str, dict[str, int]]) -> list[str]:
    out = []
    for name, targets in graph.items():
        for target, line in sorted(targets.items()):
            if RANK[layer(name)] < RANK[layer(target)]:
                out.append(f"{name} (line {line}) imports {target}: layer {layer(name) or 'mxlib'!r} may not "
                           f"import layer {layer(target) or 'mxlib'!r} (order: {' <- '.join(LAYERS)})")
    return out


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Every strongly connected set of modules with more than one member, or one that imports itself
    (Tarjan's algorithm), each as a closed path through it."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            members = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                members.append(w)
                if w == v:
                    break
            if len(members) > 1 or v in graph.get(v, {}):
                found.append(_closed_path(sorted(members), graph))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def _closed_path(members: list[str], graph) -> list[str]:
    """The shortest path from the first member back to itself inside the set (breadth-first)."""
    inside, start = set(members), members[0]
    prev, queue = {}, [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph.get(v, {})):
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(prev[path[-1]])
                return path[::-1] + [start]
            if w in inside and w not in prev:
                prev[w] = v
                queue.append(w)
    raise AssertionError(f"{members} is not a cycle")


def test_mxlib_has_no_layer_violation():
    violations = layer_violations(import_graph(PACKAGE_DIR))
    assert not violations, "\n".join(violations)


def test_mxlib_has_no_import_cycle():
    found = cycles(import_graph(PACKAGE_DIR))
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_every_module_is_in_a_layer():
    for name in module_names(PACKAGE_DIR):
        assert layer(name) in RANK, f"{name} is in no layer: put it under one of {', '.join(LAYERS)}"


@pytest.mark.parametrize("layer_dir", ["spec", "kernels", "runtime", "tools"])
def test_each_layers_docstring_names_every_module_in_it(layer_dir):
    """A layer's `__init__` is where a reader finds what the folder holds."""
    import ast

    folder = PACKAGE_DIR / layer_dir
    doc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text()))
    missing = [p.stem for p in sorted(folder.glob("*.py")) if p.stem != "__init__" and f"`{p.stem}`" not in doc]
    assert not missing, f"mxlib/{layer_dir}/__init__.py does not name {', '.join(missing)}"


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "mxlib"
    for rel, text in {"__init__.py": "", "spec/__init__.py": "", "kernels/__init__.py": "",
                      "runtime/__init__.py": "", "tools/__init__.py": "", **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


@pytest.mark.parametrize("files, want", [
    # the spec importing a kernel lazily (what spec/quant.py once did for backend="triton")
    ({"spec/quant.py": "def q():\n    from ..kernels.quant_triton import mxq\n",
      "kernels/quant_triton.py": "from ..spec.quant import q\n"},
     "mxlib.spec.quant (line 2) imports mxlib.kernels.quant_triton"),
    ({"kernels/k.py": "import mxlib.tools.bench\n", "tools/bench.py": ""},
     "mxlib.kernels.k (line 1) imports mxlib.tools.bench"),
    ({"runtime/paths.py": "PATHS = {'x': 'mxlib.tools.t'}\n", "tools/t.py": ""},
     "mxlib.runtime.paths (line 1) imports mxlib.tools.t"),
    ({"kernels/k.py": "from .. import custom_kernel\n"}, "mxlib.kernels.k (line 1) imports mxlib:"),
])
def test_a_layer_violation_is_found(tmp_path, files, want):
    violations = layer_violations(import_graph(_package(tmp_path, files)))
    assert any(v.startswith(want) for v in violations), violations


def test_an_import_cycle_is_found(tmp_path):
    root = _package(tmp_path, {
        "spec/quant.py": "def q():\n    from ..kernels.quant_triton import mxq\n",
        "kernels/quant_triton.py": "from ..spec.quant import q\n",
        "runtime/a.py": "from . import b\n", "runtime/b.py": "def f():\n    from .c import g\n",
        "runtime/c.py": "'''mxlib.runtime.a named in a docstring is no import'''\nX = 'mxlib.runtime.a'\n",
        "tools/t.py": "from ..spec.quant import q\n"})
    found = cycles(import_graph(root))
    assert sorted(found) == [["mxlib.kernels.quant_triton", "mxlib.spec.quant", "mxlib.kernels.quant_triton"],
                             ["mxlib.runtime.a", "mxlib.runtime.b", "mxlib.runtime.c", "mxlib.runtime.a"]], found
