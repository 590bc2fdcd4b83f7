"""The exported single-file submissions and the exporter's rules, on a CPU.

- Each target's file alone (mxlib unimportable, aiter absent, Triton's interpreter) passes the golden GEMMs.
- Each file obeys the contest's source rules and carries only the paths its dispatcher can reach.
- The AMD file makes the seed's aiter calls on the fake aiter, held to the checks the library's backend
  meets (tests/aiter_contract.py); its constants DEFAULT_PATH and PATH_OVERRIDES switch paths, and bad
  values are refused when it is imported.
- Every Triton kernel the AMD file launches compiles for gfx950 (`python -m mxlib isa`), fused_fp4's to
  the native scaled MFMA, none with scratch.
- `export.RULES`: a throwaway package breaking each rule is refused with that rule; mxlib obeys them all.
"""
import ast
import csv
import importlib.util
import itertools
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
import torch

from mxlib import generate_input
from mxlib.__main__ import main
from mxlib.runtime import aiter_backend, dispatch
from mxlib.runtime.paths import PATHS, path_module
from mxlib.spec import seed
from mxlib.spec.reference import check_implementation, compare
from mxlib.tools import export
from mxlib.tools.harness import check_source
from mxlib.tools.isa import AITER_OWN, NOT_COMPILED

from . import aiter_contract as contract
from . import golden

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """{target: (path, text)}: each target's file, written and verified (its import alone included) once."""
    out = tmp_path_factory.mktemp("export")
    files = {}
    for target in export.TARGETS:
        path = out / f"submission_{target}.py"
        files[target] = (path, export.export(path, target))
    return files


# ---------------------------------------------------------------------------------------------
# Each file alone

# Runs in a fresh interpreter, cwd outside the repository, with mxlib and aiter blocked: loads the exported
# file, runs it on every golden rne GEMM case, saves the outputs' bits for the parent to check, and prints
# the mxlib modules that got loaded (none) and the paths that ran.
RUNNER = textwrap.dedent(r"""
    import importlib.abc, importlib.util, json, sys
    import numpy as np
    import torch

    class Blocked(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("mxlib", "aiter"):
                raise ImportError(f"{name} is blocked in this process")

    sys.meta_path.insert(0, Blocked())
    submission, tests_dir, golden_dir, out = sys.argv[1:5]
    sys.path.insert(0, tests_dir)  # tests/golden.py alone (numpy and torch only), not the repository
    import golden

    spec = importlib.util.spec_from_file_location("submission", submission)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["submission"] = mod
    spec.loader.exec_module(mod)
    ran = set()
    def recorded(name, gemm):
        def call(*args, **kwargs):
            ran.add(name)
            return gemm(*args, **kwargs)
        return call

    for name, gemm in list(mod._MX_GEMMS.items()):
        mod._MX_GEMMS[name] = recorded(name, gemm)

    results = {}
    for name in golden.gemm_cases(golden_dir, "rne"):
        c = mod.custom_kernel(golden.contest_tuple(golden.load(golden_dir, "rne", name)))
        results[name] = c.view(torch.int16).numpy()
    np.savez(out, **results)
    print(json.dumps({"mxlib": sorted(m for m in sys.modules if m.split(".")[0] == "mxlib"), "ran": sorted(ran)}))
""")


def test_undated_head_drops_only_the_day_written():
    text = '"""MXFP4 GEMM submission, written by `python -m mxlib export` on 2026-12-07 (UTC).\n\nline 3\nline 4'
    assert export.undated_head(text, 3) == '"""MXFP4 GEMM submission, written by `python -m mxlib export` (UTC).\n\nline 3'
    assert export.undated_head("kept on Monday\nb", 1) == "kept on Monday"
    with pytest.raises(ValueError, match="lines"):
        export.undated_head(text, 0)


@pytest.mark.parametrize("target, ran", [("nvidia", ["fused"]), ("amd", ["fused_fp4"])])
def test_exported_file_alone_passes_the_golden_gemms(exported, tmp_path, golden_dir, target, ran):
    env = {**os.environ, "TRITON_INTERPRET": "1"}
    env.pop("PYTHONPATH", None)
    proc = subprocess.run([sys.executable, "-c", RUNNER, str(exported[target][0]), os.path.dirname(golden.__file__),
                           golden_dir, str(tmp_path / "out.npz")], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report == {"mxlib": [], "ran": ran}  # nothing named mxlib was loaded; only the Triton path ran
    if target == "amd":  # the seed's calls were tried first, and refused once per path, on stderr
        for path in ("asm", "ck"):
            assert re.search(rf"mxlib: skipping path {path} for \d+x\d+x\d+: aiter does not import", proc.stderr)
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


# ---------------------------------------------------------------------------------------------
# What each file holds


def _gemms(text: str) -> dict:
    """The file's `_MX_GEMMS`: {path: the name of the function it calls}."""
    node = next(n for n in ast.parse(text).body if isinstance(n, ast.Assign) and n.targets[0].id == "_MX_GEMMS")
    return {ast.literal_eval(k): v.id for k, v in zip(node.value.keys, node.value.values)}


def _defined(text: str) -> set:
    return {n.name for n in ast.parse(text).body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}


def _reachable_paths(kind: str) -> set:
    """Paths of a kind's table rows up to each shape's first path that always runs, and the unseen paths."""
    paths = set(dispatch.gpu_unseen_paths(kind))
    for rows in dispatch.load_table(kind).values():
        for path, _ in rows:
            paths.add(path)
            if not hasattr(path_module(path), "available"):
                break
    return paths


def _path_definitions(path: str) -> set:
    col = export.Collector()
    module = PATHS[path]
    return {col.alias_target(module, "gemm"), col.alias_target(module, "Config")}


@pytest.mark.parametrize("target", export.TARGETS)
def test_exported_file_obeys_the_contest_rules_and_carries_only_reachable_paths(exported, target):
    text = exported[target][1]
    assert check_source(text) == [] and "stream" not in text.lower()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0 and not (node.module or "").startswith("mxlib")
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith("mxlib") for a in node.names)
    gemms = _gemms(text)
    aiter_calls = {p: f"aiter_{p}" for p in aiter_backend.PATHS}
    assert {p: g for p, g in gemms.items() if g.startswith("aiter_")} == (aiter_calls if target == "amd" else {})
    triton_paths = {p for p, g in gemms.items() if not g.startswith("aiter_")}
    assert triton_paths == _reachable_paths(export.TABLE_KIND[target])
    defined = _defined(text)
    for path in PATHS:
        assert (_path_definitions(path) <= defined) == (path in triton_paths), path
    assert "custom_kernel" in defined and "first_usable" in defined
    # What the exporter writes itself (the constants before the library's code, the dispatcher after it)
    # binds only names in export.RESERVED, which no library definition may bind.
    written = text[text.index("from __future__"):text.index("# ---- mxlib/")] + text[text.index("# ---- dispatcher"):]
    bound = {t.id for n in ast.parse(written).body if isinstance(n, ast.Assign) for t in n.targets}
    bound |= {n.name for n in ast.parse(written).body if isinstance(n, ast.FunctionDef)}
    assert "custom_kernel" in bound and bound <= set(export.RESERVED)
    assert "def load_table" not in text and "def select(" not in text
    assert "os.environ" not in text.split("# ---- dispatcher")[1]


def test_exported_nvidia_file_keeps_the_cuda_path(exported):
    text = exported["nvidia"][1]
    for (m, n, k), rows in dispatch.load_table("h200").items():
        assert f"({m}, {n}, {k}): [({rows[0][0]!r}, {{'config': " in text  # the table's first row first
    # The CUDA path travels with its source embedded and launches on the legacy default queue.
    assert "def mma_source() -> str:" in text and "read_text" not in text.split("def mma_source")[1][:400]
    assert "MXFP4_MMA_SM90_DIRECT(16, 4, 4)" in text and "_MX_AVAILABLE = {'mma_sm90': mma_available}" in text
    assert text.count("def mx_queue_state(device) -> tuple:\n") == 1  # one answer for launches and counters
    assert "queue = mx_queue_state(a.device)[0]" in text and "current_stream" not in text


def test_exported_files_never_ask_whether_a_graph_is_captured(exported):
    """The split-K counters' queue question names the queue; each file that carries them answers the default
    queue, not capturing."""
    carried = [target for target in ("nvidia", "amd") if "def mx_counter_buffer" in exported[target][1]]
    assert carried  # the fused paths travel in at least one file
    for target in carried:
        body = exported[target][1].split("def mx_queue_state(device) -> tuple:")[1][:400]
        assert "return 0, 0" in body and "torch.cuda" not in body and "threading" not in body, target


def test_exported_amd_file_says_what_it_is_and_runs_the_seeds_plan(exported):
    text = exported["amd"][1]
    head = text[:text.index('"""', 3)]
    assert "NEVER RUN ON AN MI355X" in head and "mi355x.csv" in head
    for path, (low, stop, _) in aiter_backend.VERSIONS.items():  # the versions its calls were checked against
        assert (f"{path} >= {low}" + (f" and < {stop}" if stop else "")) in " ".join(head.split())
    # The switches are plain constants before the library's code, the seed's path by default.
    top = text[:text.index("# ---- mxlib/")]
    assert '\nDEFAULT_PATH = "seed"\n' in top and "\nPATH_OVERRIDES = {}" in top
    baked = ast.literal_eval(next(n.value for n in ast.parse(text).body
                                  if isinstance(n, ast.Assign) and n.targets[0].id == "_MX_SEED"))
    for shape in dispatch.load_table("mi355x"):
        plan = seed.seed_plan(*shape)
        path, kwargs = baked[shape]
        assert path == plan["path"], shape
        assert kwargs == {"asm": {"kernel_name": plan["kernel"], "log2_k_split": seed.SEED_LOG2_K_SPLIT},
                          "ck": {}, "splitk": {"config": seed.SEED_SPLITK_CONFIG}}[path], shape
        assert f"#   {'x'.join(map(str, shape)):<15} {path:<6} {plan['runs']}" in top, shape
    # where the 0.1.11 line's tuned rows differ (gemm_a4w4 on the M > 32 shapes), its kernel follows, and the
    # note says that a commit, not a version string, sets the line (the contest image's f3be04a12a)
    newer = seed.seed_plan(64, 7168, 2048, aiter="0.1.11")
    assert newer["runs"] != seed.seed_plan(64, 7168, 2048)["runs"]
    after = top.split("#   64x7168x2048")[1].splitlines()[1]
    assert after.startswith("#   " + " " * 23) and f"{newer['runs']} (tuned; aiter {newer['aiter']})" in after
    assert "f3be04a12a" in top and "not its version string" in " ".join(top.split())
    for (m, n, k), rows in dispatch.load_table("mi355x").items():
        fields = ", ".join(f"{f}={v}" for f, v in rows[0][1].items())
        assert f"    ({m}, {n}, {k}): {{'config': FusedFp4Config({fields})}}," in text


# ---------------------------------------------------------------------------------------------
# The AMD file on the fake aiter


@pytest.fixture
def amd_file(exported, tmp_path, monkeypatch):
    """load(text=None, version="0.1.14"): the AMD file (or `text`) loaded in this process, after a fresh
    fake aiter reporting `version` was put first on sys.path; undone after."""
    count = itertools.count()

    def load(text=None, version="0.1.14"):
        i = next(count)
        contract.install(tmp_path / f"site{i}", monkeypatch, version)
        path = tmp_path / f"submission{i}.py"
        path.write_text(exported["amd"][1] if text is None else text)
        name = f"_mxlib_test_amd_submission_{i}"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, name, module)  # dataclasses look their module up while it runs
        spec.loader.exec_module(module)
        return module

    with contract.aiter_modules_set_aside():
        yield load


def _one_call(module, shape, seed_value=7):
    """(the aiter calls one custom_kernel call made, its inputs, its result)."""
    data = generate_input(*shape, seed_value)
    before = len(contract.calls())
    result = module.custom_kernel(data)
    return contract.calls()[before:], data, result


def _check_seed_call(calls, data, result, shape, config, passes_use_aot):
    plan = seed.seed_plan(*shape)
    (call,) = calls
    label = f"{shape} through the exported file"
    if plan["path"] == "asm":
        contract.check_asm_call(call, data, result, plan["kernel"], seed.SEED_LOG2_K_SPLIT, label=label)
    elif plan["path"] == "ck":
        contract.check_ck_call(call, data, result, label=label)
    else:
        contract.check_splitk_call(call, data, result, config, passes_use_aot, label=label)


def test_exported_amd_file_makes_the_seeds_aiter_calls(amd_file):
    # The contest shapes with a name or config of the seed's (its 32x128 kernel, its split-K config), and
    # asm and ck for shapes the file has no row for (aiter picks the kernel). The other contest shapes'
    # rows are the same calls (test_exported_amd_file_says_what_it_is_and_runs_the_seeds_plan).
    module = amd_file(version="0.1.14")
    for shape in [(4, 2880, 512), (16, 2112, 7168), (5, 48, 320), (40, 48, 320)]:
        calls, data, result = _one_call(module, shape)
        _check_seed_call(calls, data, result, shape, module._MX_SEED[(16, 2112, 7168)][1]["config"], True)
    # From aiter 0.1.15 gemm_afp4wfp4_preshuffle has no use_aot, and the file stops passing it.
    module = amd_file(version="0.1.15")
    calls, data, result = _one_call(module, (16, 2112, 7168))
    _check_seed_call(calls, data, result, (16, 2112, 7168), module._MX_SEED[(16, 2112, 7168)][1]["config"], False)
    # From 0.1.16 (ROCm/aiter#3359) its results are wrong, silently (the fake's too); the file sees that
    # version in the function's signature and makes aiter's ASM call, with aiter's kernel choice, instead.
    module = amd_file(version="0.1.16")
    calls, data, result = _one_call(module, (16, 2112, 7168))
    (call,) = calls
    contract.check_asm_call(call, data, result, "", seed.SEED_LOG2_K_SPLIT, label="(16, 2112, 7168) on aiter 0.1.16")


def test_exported_amd_file_constants_switch_paths(exported, amd_file):
    text = exported["amd"][1]
    assert text.count('\nDEFAULT_PATH = "seed"\n') == 1 and text.count("\nPATH_OVERRIDES = {}") == 1
    module = amd_file(text.replace("\nPATH_OVERRIDES = {}", '\nPATH_OVERRIDES = {(16, 48, 512): "fused_fp4"}'))
    calls, data, result = _one_call(module, (16, 48, 512))
    assert calls == [] and check_implementation(data, result)[0]  # fused_fp4, no aiter call
    calls, data, result = _one_call(module, (5, 48, 320))
    _check_seed_call(calls, data, result, (5, 48, 320), None, True)  # every other shape: the seed's call
    module = amd_file(text.replace('\nDEFAULT_PATH = "seed"\n', '\nDEFAULT_PATH = "fused_fp4"\n'))
    calls, data, result = _one_call(module, (5, 48, 320))
    assert calls == [] and check_implementation(data, result)[0]
    for old, new, message in [
        ('DEFAULT_PATH = "seed"', 'DEFAULT_PATH = "fused"',
         "DEFAULT_PATH must be one of 'seed', 'fused_fp4', got 'fused'"),
        ("PATH_OVERRIDES = {}", 'PATH_OVERRIDES = {(4, 2880, 512): "asm"}',
         "PATH_OVERRIDES[(4, 2880, 512)] must be one of 'seed', 'fused_fp4', got 'asm'"),
        ("PATH_OVERRIDES = {}", 'PATH_OVERRIDES = {"4x2880x512": "fused_fp4"}',
         "PATH_OVERRIDES keys must be (M, N, K) tuples of ints, got '4x2880x512'"),
    ]:
        with pytest.raises(ValueError, match=re.escape(message)):
            amd_file(text.replace(old, new, 1))


def test_exported_amd_file_checks_its_operands_before_any_path(amd_file):
    """aiter's calls check nothing: a wrong operand must fail with its name before one is made, and an empty
    A must give an empty C, as on every path of the library."""
    module = amd_file(version="0.1.14")
    a, b, b_q, b_shuffle, b_scale_sh = generate_input(4, 2880, 512, 7)
    before = len(contract.calls())
    empty = module.custom_kernel((a[:0], b, b_q, b_shuffle, b_scale_sh))
    assert empty.shape == (0, 2880) and empty.dtype == torch.bfloat16
    with pytest.raises(ValueError, match=re.escape("a and b_shuffle disagree on K: a.shape[1] = 512, but b_shuffle has shape (2880, 128) "
                                                      "(it must be (N, K/2) = (2880, 256))")):
        module.custom_kernel((a, b, b_q, b_shuffle[:, :128], b_scale_sh))
    with pytest.raises(ValueError, match=r"a\.shape\[1\] \(K\) must be a positive multiple of 64, got 500"):
        module.custom_kernel((a[:, :500], b, b_q, b_shuffle, b_scale_sh))
    for data in ((a, b, b_q, b_shuffle), [a, b, b_q, b_shuffle, b_scale_sh, a], a):
        with pytest.raises(TypeError, match=re.escape("data must be the 5-tuple (A, B, B_q, B_shuffle, B_scale_sh)")):
            module.custom_kernel(data)
    assert len(contract.calls()) == before  # no aiter call was made


def test_cli_exports_the_amd_file(tmp_path, capsys):
    out = tmp_path / "sub" / "amd.py"
    assert main(["export", "--target", "amd", str(out), "--no-import-check"]) == 0
    assert out.is_file() and "target amd" in capsys.readouterr().out
    with pytest.raises(ValueError, match="target must be one of 'nvidia', 'amd', got 'intel'"):
        export.build_source("intel")


# ---------------------------------------------------------------------------------------------
# The AMD file compiled for gfx950


def _launched_kernels(text: str) -> set:
    """The @triton.jit functions of the file that it launches (`kernel[grid](...)`)."""
    tree = ast.parse(text)
    jitted = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)
              and any("jit" in ast.unparse(d) for d in n.decorator_list)}
    return {n.func.value.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Subscript)
            and isinstance(n.func.value, ast.Name) and n.func.value.id in jitted}


def _amd_file_isa_rows(exported, tmp_path, pythonpath: str | None = None) -> list:
    """The AMD file, with one shape switched to fused_fp4, through `python -m mxlib isa --target gfx950` on
    the seed's asm and split-K shapes (the quantizer's two layouts) and that shape; checked, and its rows
    returned. `pythonpath` puts another Triton ahead of the installed one."""
    text = exported["amd"][1].replace("\nPATH_OVERRIDES = {}", '\nPATH_OVERRIDES = {(32, 4096, 512): "fused_fp4"}')
    sub, out = tmp_path / "amd.py", tmp_path / "isa.csv"
    sub.write_text(text)
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    if pythonpath:
        env["PYTHONPATH"] = os.pathsep.join([pythonpath, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    res = subprocess.run([sys.executable, "-m", "mxlib", "isa", str(sub), "--target", "gfx950", "--shapes",
                          "4x2880x512,16x2112x7168,32x4096x512", "--out", str(out)], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    # aiter's split-K GEMM compiles from its own kernel files where MXLIB_AITER_SITE holds them (.ci/run), else
    # is listed, not compiled; the file's own kernels are the rest
    aiter_own = [r for r in rows if r["note"].startswith(AITER_OWN)]
    assert [r["kernel"] for r in aiter_own] == ([] if not os.environ.get("MXLIB_AITER_SITE") else
                                                ["_gemm_afp4_wfp4_kernel_preshuffled_weight_scales",
                                                 "_gemm_afp4_wfp4_reduce_kernel"])
    assert all(r["shape"] == "16x2112x7168" and int(r["vgprs"]) > 0 for r in aiter_own), aiter_own
    compiled = [r for r in rows if r["note"] != NOT_COMPILED and r not in aiter_own]
    assert {r["kernel"] for r in compiled} == _launched_kernels(text) == {"_mxq_kernel", "_fp4_gemm_kernel"}
    for r in compiled:
        assert r["target"] == "gfx950" and not r["note"] and int(r["vgprs"]) > 0, r
        assert int(r["scratch_bytes"]) == 0, f"{r['kernel']} on {r['shape']} spills to scratch"
        if r["kernel"] == "_fp4_gemm_kernel":
            assert r["mma"] and all(re.fullmatch(r"v_mfma_scale_f32_\w+_f8f6f4:\d+", m) for m in r["mma"].split(";")), r
    kernels = {shape: [r["kernel"] for r in rows if r["shape"] == shape] for shape in {r["shape"] for r in rows}}
    assert kernels["4x2880x512"] == ["_mxq_kernel", "gemm_a4w4_asm"]
    assert kernels["16x2112x7168"][0] == "_mxq_kernel" and kernels["32x4096x512"] == ["_fp4_gemm_kernel"]
    asm = next(r for r in rows if r["kernel"] == "gemm_a4w4_asm")
    assert asm["config"] == seed.seed_plan(4, 2880, 512)["kernel"]
    return compiled


def test_exported_amd_file_compiles_for_gfx950(exported, tmp_path):
    _amd_file_isa_rows(exported, tmp_path)


def test_exported_amd_file_compiles_with_the_runners_triton(exported, tmp_path):
    """The same with the Triton release the contest's MI355X runner has (`devices.MI355X_RUNNER_TRITON`),
    from the folder MXLIB_RUNNER_TRITON names (`pip install --target DIR --no-deps triton==3.6.0`; .ci/run
    makes one): a kernel that only a newer Triton compiles would fail on the contest's machine."""
    from mxlib.spec import devices

    folder = os.environ.get("MXLIB_RUNNER_TRITON")
    if not folder:
        pytest.skip("MXLIB_RUNNER_TRITON names no folder holding the runner's Triton (.ci/run makes one)")
    probe = subprocess.run([sys.executable, "-c", "import triton; print(triton.__version__)"],
                           env={**os.environ, "PYTHONPATH": folder}, capture_output=True, text=True, timeout=120)
    assert probe.stdout.strip() == devices.MI355X_RUNNER_TRITON, \
        f"MXLIB_RUNNER_TRITON={folder!r} holds Triton {probe.stdout.strip() or probe.stderr[-300:]!r}, " \
        f"not the runner's {devices.MI355X_RUNNER_TRITON}"
    rows = _amd_file_isa_rows(exported, tmp_path, pythonpath=folder)
    assert {r["triton"] for r in rows} == {devices.MI355X_RUNNER_TRITON}


# ---------------------------------------------------------------------------------------------
# The exporter's rules, on throwaway packages named mxlib


def _package(tmp_path, files: dict):
    """A package `mxlib` under tmp_path holding `files` ({"a": source} -> mxlib/a.py; "sub/b" -> a
    subpackage), and a Collector for it."""
    pkg = tmp_path / "mxlib"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name, text in files.items():
        path = pkg / f"{name}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        (path.parent / "__init__.py").touch()
        path.write_text(textwrap.dedent(text))
    return export.Collector(pkg)


def _flatten(col, module: str, name: str) -> str:
    """What the exporter does with a root definition: collect, render, check the text."""
    col.add(module, name)
    imports, code = col.render(export.RESERVED)
    text = f"{imports}\n\n{code}\n"
    export.verify(text)
    return text


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
                import json  # an absolute import inside a definition runs as written
                return fa(x) + len(json.dumps(1))

            fb_alias = fb
            ''',
    })
    assert col.alias_target("mxlib.b", "fb_alias") == "fb"
    assert col.add("mxlib.b", "fb_alias") == "fb_alias"
    text = _flatten(col, "mxlib.b", "fb_alias")
    assert text.startswith("import math\n") and "unused" not in text and "import os" not in text
    assert text.index("def fa") < text.index("def fb") and "# the entry point" in text
    ns = {}
    exec(compile(text, "flat", "exec"), ns)
    assert ns["fb_alias"](16.0) == 9.0


def test_collector_follows_a_substitutes_names_not_the_originals(tmp_path):
    pkg = _package(tmp_path, {"a": '''
        import os

        def helper():
            return os.getcwd()

        def fa():
            return helper()
        '''}).package_dir
    col = export.Collector(pkg, substitutes={("mxlib.a", "fa"): lambda: "def fa():\n    return 0"})
    text = _flatten(col, "mxlib.a", "fa")
    assert "def fa():\n    return 0" in text and "helper" not in text and "import os" not in text


# (rule, files, root definition in mxlib.c, a fragment of the message)
REFUSALS = [
    ("top-level", {"c": "print('side effect')\ndef fc():\n    return 1\n"}, "mxlib/c.py:1: a top-level Expr"),
    ("top-level", {"c": "import os\nos.sep2 = 1\ndef fc():\n    return 1\n"}, "mxlib/c.py:2: a top-level assignment"),
    ("bound-once", {"c": "X = 1\nX = 2\ndef fc():\n    return X\n"}, "mxlib/c.py:2: X is bound twice"),
    ("import-names", {"a": "def fa():\n    return 1\n", "c": "from . import a\ndef fc():\n    return a.fa()\n"},
     "mxlib/c.py:2 (fc) uses a: mxlib/c.py:1: `from . import a` imports a module"),
    ("import-names", {"sub/a": "def fa():\n    return 1\n", "c": "from .sub import a\ndef fc():\n    return a.fa()\n"},
     "`from .sub import a` imports a module"),
    ("import-names", {"a": "def fa():\n    return 1\n", "c": "from .a import fa as g\ndef fc():\n    return g()\n"},
     "`fa as g` renames an mxlib name"),
    ("import-names", {"a": "def fa():\n    return 1\n", "c": "from mxlib.a import fa\ndef fc():\n    return fa()\n"},
     "mxlib/c.py:1: absolute import of mxlib.a"),
    ("import-names", {"a": "def fa():\n    return 1\n", "c": "import mxlib.a\ndef fc():\n    return 1\n"},
     "`import mxlib.a` is an absolute mxlib import"),
    ("nested-imports", {"a": "def fa():\n    return 1\n", "c": "def fc():\n    from .a import fa\n    return fa()\n"},
     "mxlib/c.py:2 (fc): `from .a import ...` is a relative import"),
    ("nested-imports", {"c": "def fc():\n    import mxlib.a\n    return 1\n"}, "mxlib/c.py:2 (fc): imports mxlib.a"),
    ("unique-names", {"a": "X = 1\ndef fa():\n    return X\n", "b": "X = 2\ndef fb():\n    return X\n", "c":
                      "from .a import fa\nfrom .b import fb\ndef fc():\n    return fa() + fb()\n"},
     "X is defined at mxlib/b.py:1 and by mxlib/a.py:1"),
    ("unique-names", {"a": "def torch():\n    return 1\ndef fa():\n    return torch()\n", "c":
                      "import torch\nfrom .a import fa\ndef fc():\n    return fa(), torch.zeros(1)\n"},
     "torch is defined at mxlib/a.py:1 and by the import `import torch`"),
    ("same-import", {"a": "import numpy as np\ndef fa():\n    return np\n", "c":
                     "import torch as np\nfrom .a import fa\ndef fc():\n    return fa(), np\n"}, "np is imported as"),
    ("no-cycle", {"a": "from .c import fc\ndef fa():\n    return fc()\n", "c":
                  "from .a import fa\ndef fc():\n    return fa()\n"}, "import cycle: mxlib.a -> mxlib.c -> mxlib.a"),
    ("reserved-names", {"a": "def custom_kernel(data):\n    return data\n", "c":
                        "from .a import custom_kernel\ndef fc(data):\n    return custom_kernel(data)\n"},
     "mxlib/a.py:1: custom_kernel is a name the exporter writes itself"),
    ("contest-source", {"c": "def fc():\n    '''runs on the current Stream'''\n    return 1\n"},
     'the source contains the word "stream"'),
]


@pytest.mark.parametrize("rule, files, message", REFUSALS, ids=[f"{r[0]}-{i}" for i, r in enumerate(REFUSALS)])
def test_exporter_refuses_each_rule_it_states(tmp_path, rule, files, message):
    col = _package(tmp_path, files)
    with pytest.raises(export.NotExportable) as info:
        _flatten(col, "mxlib.c", "fc")
    assert info.value.rule == rule
    assert message in str(info.value) and f"(exporter rule {rule!r}: {export.RULES[rule]})" in str(info.value)


def test_every_rule_has_a_refusal_case():
    assert {rule for rule, _, _ in REFUSALS} == set(export.RULES)


def test_mxlib_obeys_the_exporter_rules(exported):
    # The module-level rules hold for every module of the layers an exported file draws on; the rules on
    # definitions hold for everything each target's file needs (the fixture built both, each imported
    # alone), and the files obey the last rule.
    for layer in ("spec", "kernels", "runtime"):
        for path in sorted((export.PACKAGE_DIR / layer).rglob("*.py")):
            parts = path.relative_to(export.PACKAGE_DIR.parent).with_suffix("").parts
            export._parse(".".join(parts[:-1] if parts[-1] == "__init__" else parts), export.PACKAGE_DIR)
    for _, text in exported.values():
        export.verify(text)


def test_verify_checks_the_written_file(tmp_path):
    with pytest.raises(export.NotExportable, match="no mxlib") as info:
        export.verify("import mxlib.runtime.dispatch\ncustom_kernel = mxlib.runtime.dispatch.custom_kernel\n")
    assert info.value.rule == "contest-source"
    with pytest.raises(export.NotExportable, match="relative import"):
        export.verify("from .kernels import gemm\n")
    # An import the rules cannot see is caught by importing the file alone.
    sneaky = "import importlib\n_m = importlib.import_module('mx' + 'lib')\ndef custom_kernel(data):\n    return None\n"
    path = tmp_path / "sneaky.py"
    path.write_text(sneaky)
    with pytest.raises(export.NotExportable, match="does not import on its own"):
        export.verify(sneaky, path)


def test_a_failed_export_leaves_no_file_and_keeps_the_old_one(tmp_path, monkeypatch):
    """The file is checked under a temporary name and renamed only once it imports alone."""
    monkeypatch.setattr(export, "build_source", lambda target: "def custom_kernel(data):\n    return None\n")
    monkeypatch.setattr(export, "_IMPORT_CHECK", "raise SystemExit('the import check failed')")
    out = tmp_path / "submission.py"
    out.write_text("# the previous export\n")
    with pytest.raises(export.NotExportable, match="does not import on its own"):
        export.export(out, "nvidia")
    assert out.read_text() == "# the previous export\n" and sorted(p.name for p in tmp_path.iterdir()) == ["submission.py"]
    monkeypatch.undo()
    monkeypatch.setattr(export, "build_source", lambda target: "def custom_kernel(data):\n    return None\n")
    assert export.export(out, "nvidia") == out.read_text() and sorted(p.name for p in tmp_path.iterdir()) == ["submission.py"]


def test_an_export_without_the_import_check_still_refuses_a_file_breaking_the_contest_rules(tmp_path, monkeypatch):
    """--no-import-check skips only the import in a subprocess: the source rules are checked before anything
    is written, so a file naming mxlib is refused and the old file stays."""
    source = "import mxlib.runtime.dispatch\ncustom_kernel = mxlib.runtime.dispatch.custom_kernel\n"
    monkeypatch.setattr(export, "build_source", lambda target: source)
    out = tmp_path / "submission.py"
    out.write_text("# the previous export\n")
    with pytest.raises(export.NotExportable, match="no mxlib") as info:
        export.export(out, "nvidia", check_import=False)
    assert info.value.rule == "contest-source"
    assert out.read_text() == "# the previous export\n" and sorted(p.name for p in tmp_path.iterdir()) == ["submission.py"]


def test_amd_export_refuses_a_table_row_whose_path_the_file_cannot_run(monkeypatch):
    """The AMD file runs the seed's aiter calls and 'fused_fp4' only: a mi355x.csv row naming another path is
    refused (NotExportable, no rule: the table names what the file cannot run)."""
    monkeypatch.setattr(dispatch, "load_table", lambda kind: {(16, 2112, 7168): [("fused", {})]})
    with pytest.raises(export.NotExportable, match="names path 'fused'") as info:
        export.build_source("amd")
    assert info.value.rule is None


def test_amd_export_refuses_unseen_paths_other_than_fused_fp4(monkeypatch):
    """A shape without a row falls back to 'fused_fp4', the AMD file's Triton path: any other
    gpu_unseen_paths for the AMD table is refused."""
    monkeypatch.setattr(dispatch, "gpu_unseen_paths", lambda kind: ("fused_fp4", "fused"))
    with pytest.raises(export.NotExportable, match=r"gpu_unseen_paths\('mi355x'\) must be \('fused_fp4',\)"):
        export.build_source("amd")


@pytest.mark.parametrize("source", ["x = '''a'''\n", "a line ending in a backslash \\"])
def test_mma_source_that_a_raw_string_cannot_carry_is_refused(monkeypatch, source):
    """The CUDA source travels as r'''...''': a text holding ''' or ending in a backslash cannot, and is
    refused rather than embedded broken."""
    from mxlib.kernels import gemm_mma_sm90

    monkeypatch.setattr(gemm_mma_sm90, "mma_source", lambda: source)
    with pytest.raises(export.NotExportable, match="cannot be embedded as a raw string"):
        export._embedded_mma_source()


def test_amd_file_refuses_a_path_override_keyed_by_bools(tmp_path, monkeypatch):
    """PATH_OVERRIDES keys must be (M, N, K) tuples of ints (the file's own check, refused when it is
    imported); a bool is no size (mxlib's integer rule refuses bools everywhere)."""
    text = export.build_source("amd")
    assert text.count("\nPATH_OVERRIDES = {}") == 1
    path = tmp_path / "amd_bool_override.py"
    path.write_text(text.replace("\nPATH_OVERRIDES = {}", '\nPATH_OVERRIDES = {(True, 64, 512): "fused_fp4"}', 1))
    spec = importlib.util.spec_from_file_location("_s35_amd_bool_override", path)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    with pytest.raises(ValueError, match=r"PATH_OVERRIDES keys must be \(M, N, K\) tuples of ints, got \(True, 64, 512\)"):
        spec.loader.exec_module(module)
