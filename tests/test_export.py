"""The exported single-file submission: it runs alone (mxlib unimportable) and passes the golden GEMMs in
the interpreter; the exporter refuses, loudly, every source it cannot flatten faithfully."""
import ast
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch

from mxlib.runtime import dispatch
from mxlib.tools import export
from mxlib.__main__ import main
from mxlib.tools.harness import check_source
from mxlib.spec.reference import check_implementation, compare

from . import golden

# Runs in a fresh interpreter, cwd outside the repository, with mxlib blocked: loads the exported file,
# runs it on every golden rne GEMM case, saves the outputs' bits for the parent to check.
RUNNER = textwrap.dedent(r"""
    import importlib.abc, importlib.util, json, sys
    import numpy as np
    import torch

    class NoMxlib(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "mxlib" or name.startswith("mxlib."):
                raise ImportError("mxlib is blocked in this process")

    sys.meta_path.insert(0, NoMxlib())
    submission, tests_dir, golden_dir, out = sys.argv[1:5]
    sys.path.insert(0, tests_dir)  # tests/golden.py alone (numpy and torch only), not the repository
    import golden

    spec = importlib.util.spec_from_file_location("submission", submission)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["submission"] = mod
    spec.loader.exec_module(mod)

    results = {}
    for name in golden.gemm_cases(golden_dir, "rne"):
        c = mod.custom_kernel(golden.contest_tuple(golden.load(golden_dir, "rne", name)))
        results[name] = c.view(torch.int16).numpy()
    np.savez(out, **results)
    print(json.dumps(sorted(m for m in sys.modules if m == "mxlib" or m.startswith("mxlib."))))
""")


def test_exported_nvidia_file_alone_passes_the_golden_gemms(tmp_path, golden_dir):
    sub = tmp_path / "submission.py"
    export.export(sub, "nvidia", check_import=False)  # this test imports it alone itself
    env = {**os.environ, "TRITON_INTERPRET": "1"}
    env.pop("PYTHONPATH", None)
    proc = subprocess.run([sys.executable, "-c", RUNNER, str(sub), os.path.dirname(golden.__file__), golden_dir,
                           str(tmp_path / "out.npz")], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == []  # nothing named mxlib was ever loaded
    outs = np.load(tmp_path / "out.npz")
    cases = golden.gemm_cases(golden_dir, "rne")
    assert sorted(outs.files) == cases and len(cases) == 5
    for name in cases:
        g = golden.load(golden_dir, "rne", name)
        out = torch.from_numpy(outs[name]).view(torch.bfloat16)
        ok, msg = compare(out, g["C_bf16_bits"])
        assert ok, (name, msg)
        ok, msg = check_implementation(golden.contest_tuple(g), out, "rne")
        assert ok, (name, msg)


def test_exported_source_obeys_the_contest_rules():
    text = export.build_source("nvidia")
    assert check_source(text) == []
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0 and not (node.module or "").startswith("mxlib")
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith("mxlib") for a in node.names)
    top = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    assert "custom_kernel" in top and "unseen_shape_path" in top
    # Every shape of the H200 table is baked in, its rows in the dispatcher's order.
    for (m, n, k), rows in dispatch.load_table("h200").items():
        assert f"({m}, {n}, {k}): [({rows[0][0]!r}, _MX_CONFIGS[{rows[0][0]!r}](" in text
    # The CUDA path travels with its source embedded and launches on the legacy default queue.
    assert "def mma_source() -> str:" in text and "read_text" not in text.split("def mma_source")[1][:400]
    assert "MXFP4_MMA_SM90_DIRECT(16, 4, 4)" in text and "'mma_sm90': mma_available" in text
    assert "def load_table" not in text and "os.environ" not in text.split("# ---- dispatcher")[1]


def test_cli_export_checks_the_import_alone(tmp_path, capsys):
    out = tmp_path / "sub" / "submission.py"
    assert main(["export", str(out)]) == 0
    assert out.is_file() and "wrote" in capsys.readouterr().out


def test_amd_target_is_refused_with_reasons(tmp_path, capsys):
    with pytest.raises(export.NotExportable, match="--target amd is refused"):
        export.build_source("amd")
    assert main(["export", "--target", "amd", str(tmp_path / "a.py")]) == 1
    err = capsys.readouterr().err
    assert "aiter imports only on ROCm" in err and not (tmp_path / "a.py").exists()
    with pytest.raises(ValueError, match="target must be one of"):
        export.build_source("intel")


# ---------------------------------------------------------------------------------------------
# What the exporter must refuse, on a throwaway package named mxlib


def _package(tmp_path, files: dict):
    pkg = tmp_path / "mxlib"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name, text in files.items():
        (pkg / f"{name}.py").write_text(textwrap.dedent(text))
    return export.Collector(pkg)


def test_collector_keeps_only_what_is_needed_in_dependency_order(tmp_path):
    col = _package(tmp_path, {
        "a": '''
            import math
            import os
            from dataclasses import dataclass

            SCALE = 2  # used by fa

            def fa(x):
                return math.sqrt(x) * SCALE

            def unused():
                return os.getcwd()
            ''',
        "b": '''
            from . import a  # a module import is fine while nothing needed uses it
            from .a import fa

            # the entry point
            def fb(x):
                return fa(x) + 1

            fb_alias = fb
            ''',
    })
    assert col.alias_target("mxlib.b", "fb_alias") == "fb"
    assert col.add("mxlib.b", "fb_alias") == "fb_alias"
    imports, code, bound = col.render()
    assert imports == "import math" and bound >= {"fa", "SCALE", "fb", "fb_alias", "math"}
    assert "unused" not in code and "os" not in bound
    assert code.index("def fa") < code.index("def fb") and "# the entry point" in code
    ns = {}
    exec(compile(f"{imports}\n{code}", "flat", "exec"), ns)
    assert ns["fb_alias"](16.0) == 9.0


@pytest.mark.parametrize("files, root, message", [
    ({"a": "X = 1\ndef fa():\n    return X\n", "b": "X = 2\ndef fb():\n    return X\n", "c":
      "from .a import fa\nfrom .b import fb\ndef fc():\n    return fa() + fb()\n"}, "fc",
     "name collision: X is defined at mxlib/b.py:1 and by mxlib/a.py:1"),
    ({"a": "def fa():\n    return 1\n", "c": "from . import a\ndef fc():\n    return a.fa()\n"}, "fc",
     "imports a module"),
    ({"a": "def fa():\n    return 1\n", "c": "from .a import fa as g\ndef fc():\n    return g()\n"}, "fc",
     "renames an mxlib name"),
    ({"c": "print('side effect')\ndef fc():\n    return 1\n"}, "fc", "binds no name"),
    ({"a": "def fa():\n    return 1\n", "c": "from mxlib.a import fa\ndef fc():\n    return fa()\n"}, "fc",
     "absolute import of mxlib.a"),
    ({"a": "from .c import fc\ndef fa():\n    return fc()\n", "c": "from .a import fa\ndef fc():\n    return fa()\n"},
     "fc", "import cycle"),
    ({"a": "import numpy as np\ndef fa():\n    return np\n", "c":
      "import torch as np\nfrom .a import fa\ndef fc():\n    return fa(), np\n"}, "fc", "np is imported as"),
    ({"a": "def torch():\n    return 1\ndef fa():\n    return torch()\n", "c":
      "import torch\nfrom .a import fa\ndef fc():\n    return fa(), torch.zeros(1)\n"}, "fc",
     "name collision: torch is defined at mxlib/a.py:1 and by the import `import torch`"),
])
def test_collector_refuses_what_one_flat_file_cannot_hold(tmp_path, files, root, message):
    col = _package(tmp_path, files)
    with pytest.raises(export.NotExportable, match=message.replace("(", r"\(")):
        col.add("mxlib.c", root)
        col.render()


def test_verify_applies_the_harness_rules(tmp_path):
    with pytest.raises(export.NotExportable, match='the word "stream"'):
        export.verify("def custom_kernel(data):\n    '''no side Stream here'''\n")
    with pytest.raises(export.NotExportable, match="no mxlib"):
        export.verify("import mxlib.runtime.dispatch\ncustom_kernel = mxlib.runtime.dispatch.custom_kernel\n")
    with pytest.raises(export.NotExportable, match="relative import"):
        export.verify("from .kernels import gemm\n")
    # An import the rules cannot see is caught by importing the file alone.
    sneaky = "import importlib\n_m = importlib.import_module('mx' + 'lib')\ndef custom_kernel(data):\n    return None\n"
    path = tmp_path / "sneaky.py"
    path.write_text(sneaky)
    with pytest.raises(export.NotExportable, match="does not import on its own"):
        export.verify(sneaky, path)
