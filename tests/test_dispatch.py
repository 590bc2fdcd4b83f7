"""custom_kernel's choice of backend, path and config; the config tables; mxlib.backends()."""
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import torch

import mxlib
from mxlib.runtime import dispatch
from mxlib.spec import devices, shapes
from mxlib.runtime.backends import backends
from mxlib.runtime.paths import PATHS, path_module
from mxlib.spec.reference import check_implementation, generate_input, ref_kernel

from . import golden
from .helpers import fresh_seed, spy_on_paths

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def test_backends_report():
    status = mxlib.backends()
    assert set(status) == {"aiter", "triton", "torch"}
    for ok, reason in status.values():
        assert isinstance(ok, bool) and isinstance(reason, str) and reason
    assert status["torch"][0]
    assert status["triton"][0]  # a GPU, or the interpreter that conftest turns on
    if torch.version.hip is None:
        assert not status["aiter"][0]  # aiter runs only on ROCm


def test_cpu_default_is_the_reference():
    data = generate_input(4, 32, 128, 5)
    assert dispatch.plan(4, 32, 128, "cpu") == ("torch", None, None)
    assert torch.equal(mxlib.custom_kernel(data), ref_kernel(data))


def test_one_rule_on_every_backend_and_errors_that_point_the_right_way(monkeypatch):
    """B's byte tensors must be contiguous on the reference backend too (named as in the tuple); a K that A and
    B_shuffle disagree on names both; a path refused by a backend nobody asked for says it was the default, and
    aiter's says why; plan answers only for calls custom_kernel could make."""
    a, b, b_q, b_shuffle, b_scale_sh = generate_input(4, 64, 256, 1)
    for backend in ("torch", "triton"):
        with pytest.raises(ValueError, match="^B_shuffle must be contiguous"):
            mxlib.custom_kernel((a, b, b_q, b_shuffle.t().contiguous().t(), b_scale_sh), backend=backend)
        with pytest.raises(ValueError, match="^B_scale_sh must be contiguous"):
            mxlib.custom_kernel((a, b, b_q, b_shuffle, b_scale_sh.t().contiguous().t()), backend=backend)
    with pytest.raises(ValueError, match=re.escape("A and B_shuffle disagree on K: A.shape[1] = 192, but B_shuffle has "
                                                   "shape (64, 128) (it must be (N, K/2) = (64, 96))")):
        mxlib.custom_kernel((a[:, :192], b, b_q, b_shuffle, b_scale_sh))
    monkeypatch.setattr(dispatch, "backends", lambda: {"aiter": (False, "no"), "triton": (False, "no"),
                                                       "torch": (True, "")})
    with pytest.raises(ValueError, match=r"has none \(chosen by default here: pass backend='triton'"):
        dispatch.plan(4, 64, 256, "cpu", path="fused")
    with pytest.raises(ValueError, match=r"has none; paths belong"):  # asked for by name: no hint
        dispatch.plan(4, 64, 256, "cpu", backend="torch", path="fused")
    monkeypatch.setattr(dispatch, "backends", lambda: {"aiter": (True, ""), "triton": (False, "no"),
                                                       "torch": (True, "")})
    with pytest.raises(ValueError, match=re.escape("path (backend 'aiter' runs the seed's paths) must be one of")):
        dispatch.plan(4, 64, 256, "cpu", backend="aiter", path="fused")
    for a_dtype in (torch.float64, "bf16"):
        with pytest.raises(TypeError, match="a_dtype must be one of"):
            dispatch.plan(4, 64, 256, "cpu", a_dtype=a_dtype)
    monkeypatch.setattr(devices, "cuda_present", lambda: False)
    with pytest.raises(ValueError, match="device is 'cuda', but this machine has no CUDA/ROCm device"):
        dispatch.plan(4, 64, 256, "cuda")


def test_triton_backend_on_golden_cases(golden_dir):
    for name in golden.gemm_cases(golden_dir, "rne"):
        data = tuple(t.to(DEVICE) for t in golden.contest_tuple(golden.load(golden_dir, "rne", name)))
        ok, msg = check_implementation(data, mxlib.custom_kernel(data, backend="triton"))
        assert ok, f"{name}: {msg}"


def test_explicit_path_and_env_overrides(monkeypatch):
    """The path an argument or the environment names is the one that runs (the paths agree in their bits
    here, so the spy, not the output, says which ran)."""
    data = generate_input(4, 64, 512, fresh_seed(), device=DEVICE)
    a, _, _, bs, bsc = data
    by_path = {p: path_module(p).gemm(a, bs, bsc, config=dispatch.select(4, 64, 512, a.device, p)[1])
               for p in ("ck", "splitk")}
    ran = spy_on_paths(monkeypatch)
    assert torch.equal(mxlib.custom_kernel(data, backend="triton", path="ck"), by_path["ck"]) and ran == ["ck"]
    monkeypatch.setenv(dispatch.ENV_BACKEND, "triton")
    monkeypatch.setenv(dispatch.ENV_PATH, "ck")
    assert torch.equal(mxlib.custom_kernel(data), by_path["ck"]) and ran == ["ck"] * 2
    # an argument beats the environment
    assert torch.equal(mxlib.custom_kernel(data, path="splitk"), by_path["splitk"]) and ran[2:] == ["splitk"]
    monkeypatch.setenv(dispatch.ENV_BACKEND, "torch")
    with pytest.raises(ValueError, match=r"\$MXLIB_PATH='ck' names a path"):
        mxlib.custom_kernel(data)
    monkeypatch.delenv(dispatch.ENV_PATH)
    assert torch.equal(mxlib.custom_kernel(data), ref_kernel(data)) and len(ran) == 3  # torch runs no path


def test_arguments_win_over_the_environment(monkeypatch):
    """An environment variable fills in a missing argument and is set aside when it does not fit the
    arguments given; only environment against environment (or a default) is an error."""
    data = generate_input(4, 64, 128, 8, device=DEVICE)
    m, n, k = 4, 64, 128
    monkeypatch.setenv(dispatch.ENV_PATH, "fused")
    assert torch.equal(mxlib.custom_kernel(data, backend="torch"), ref_kernel(data))
    assert dispatch.plan(m, n, k, DEVICE, backend="torch") == ("torch", None, None)
    assert dispatch.plan(m, n, k, DEVICE, backend="triton")[:2] == ("triton", "fused")
    assert dispatch.plan(m, n, k, DEVICE, backend="triton", path="asm")[:2] == ("triton", "asm")
    monkeypatch.setenv(dispatch.ENV_BACKEND, "torch")
    assert dispatch.plan(m, n, k, DEVICE, backend="triton")[:2] == ("triton", "fused")
    with pytest.raises(ValueError, match=r"\$MXLIB_PATH='fused' names a path"):
        dispatch.plan(m, n, k, DEVICE)
    if DEVICE == "cuda":  # $MXLIB_BACKEND=torch has no path "ck": the GPU default backend runs it
        assert dispatch.plan(m, n, k, DEVICE, path="ck")[1] == "ck"
    else:  # on the CPU the default backend is the reference, which has no paths either
        with pytest.raises(ValueError, match=r"^path='ck' names a path"):
            dispatch.plan(m, n, k, DEVICE, path="ck")


def test_empty_environment_variables_count_as_unset(monkeypatch):
    """`MXLIB_BACKEND= MXLIB_PATH= python ...` plans as if neither were set, not a backend or path named ""."""
    monkeypatch.delenv(dispatch.ENV_BACKEND, raising=False)
    monkeypatch.delenv(dispatch.ENV_PATH, raising=False)
    unset = dispatch.plan(16, 32, 64, "cpu")
    monkeypatch.setenv(dispatch.ENV_BACKEND, "")
    monkeypatch.setenv(dispatch.ENV_PATH, "")
    assert dispatch.plan(16, 32, 64, "cpu") == unset


def test_bad_choices(monkeypatch):
    data = generate_input(4, 32, 128, 7, device=DEVICE)
    with pytest.raises(ValueError, match="backend must be one of"):
        mxlib.custom_kernel(data, backend="cuda")
    with pytest.raises(ValueError, match="path must be one of"):
        mxlib.custom_kernel(data, backend="triton", path="cublas")
    with pytest.raises(ValueError, match="backend 'torch'"):
        mxlib.custom_kernel(data, backend="torch", path="asm")
    monkeypatch.setenv(dispatch.ENV_BACKEND, "gpu")
    with pytest.raises(ValueError, match=r"\$MXLIB_BACKEND must be one of"):
        mxlib.custom_kernel(data)
    monkeypatch.delenv(dispatch.ENV_BACKEND)
    monkeypatch.setenv(dispatch.ENV_PATH, "cublas")  # a value no argument could take: refused where it would not apply
    with pytest.raises(ValueError, match=r"\$MXLIB_PATH must be one of"):
        mxlib.custom_kernel(data, backend="triton")
    monkeypatch.delenv(dispatch.ENV_PATH)
    if not backends()["aiter"][0]:
        with pytest.raises(ValueError, match="^backend 'aiter' is not available"):
            mxlib.custom_kernel(data, backend="aiter")
        monkeypatch.setenv(dispatch.ENV_BACKEND, "aiter")  # the error says where the name came from
        with pytest.raises(ValueError, match=r"^\$MXLIB_BACKEND 'aiter' is not available"):
            mxlib.custom_kernel(data)
        monkeypatch.delenv(dispatch.ENV_BACKEND)
    with pytest.raises(TypeError, match="5-tuple"):
        mxlib.custom_kernel(data[:4], backend="triton")
    a, b, b_q, bs, bsc = data
    with pytest.raises(ValueError, match="B_scale_sh must have shape"):
        mxlib.custom_kernel((a, b, b_q, bs, bsc[:, :4]), backend="triton")


def test_table_lookup_and_heuristic():
    # cpu.csv: first row picks the path, a second row configures another path for the same shape
    path, cfg = dispatch.select(16, 128, 1024, "cpu")
    assert path == "splitk" and cfg == path_module("splitk").Config(block_n=64, block_k=128, split_k=3, num_stages=1)
    path, cfg = dispatch.select(16, 128, 1024, "cpu", "ck")
    assert path == "ck" and cfg.block_n == 32 and cfg.group_m == 2
    path, cfg = dispatch.select(16, 128, 1024, "cpu", "asm")  # no row: the path's default
    assert cfg == path_module("asm").default_config(16, 128, 1024)
    # shapes not in cpu.csv: the seed's route (mxlib.spec.seed.seed_path)
    for (m, n, k), want in {(8, 2048, 512): "asm", (32, 2048, 1024): "asm", (16, 2048, 7168): "asm",
                            (16, 2112, 7168): "splitk", (33, 2048, 2048): "ck", (256, 2048, 7168): "ck"}.items():
        assert dispatch.heuristic_path(m, n, k) == want
        assert dispatch.select(m, n, k, "cpu")[0] == want
    assert dispatch.device_kind("cpu") == "cpu"


def test_unseen_shapes_and_the_first_usable_row(monkeypatch, capsys):
    # A shape without rows: the path MI355X's table runs; the CUDA path, then "fused", on other GPUs (a GPU
    # without a table too); the seed's route on the CPU.
    assert dispatch.unseen_shape_paths(16, 2048, 512, "mi355x") == ("fused_fp4",)
    assert dispatch.unseen_shape_paths(16, 2048, 512, "h200") == ("mma_sm90", "fused")
    assert dispatch.unseen_shape_paths(16, 2048, 512, "nvidia_h100_80gb_hbm3") == ("mma_sm90", "fused")
    assert dispatch.unseen_shape_paths(16, 2112, 7168, "cpu") == ("splitk",)
    monkeypatch.setattr(dispatch, "_NOTED", set())
    rows = [("mma_sm90", "its config"), ("fused", "another")]
    assert dispatch.first_usable(rows, lambda p: (p == "fused", "no nvcc"), (4, 32, 64)) == ("fused", "another")
    with pytest.raises(RuntimeError, match=r"no GEMM path can run 4x32x64 here \(mma_sm90: no nvcc; fused: no nvcc\)"):
        dispatch.first_usable(rows, lambda p: (False, "no nvcc"), (4, 32, 64))
    err = capsys.readouterr().err  # each refusal said once, in one line
    assert err.count("mxlib: skipping path mma_sm90 for 4x32x64: no nvcc\n") == 1 and err.count("\n") == 2


@pytest.mark.parametrize("kind", ["h200", "mi355x", "cpu"])
def test_shipped_tables_are_valid(kind):
    table = dispatch.load_table(kind)
    assert table
    for (m, n, k), rows in table.items():
        for path, fields in rows:
            cfg = path_module(path).Config(**fields)
            assert path_module(path).grid(m, n, k, cfg) > 0
    if kind != "cpu":
        assert {s.mnk for s in shapes.load()} <= set(table)


def test_bad_tables(tmp_path):
    columns = r"data row 1: must have exactly the columns m,n,k,path,config \(a config holds no comma"
    cases = {  # name: (text, the rule its error states)
        "cols": ("m,n,path,config\n1,16,asm,\n", r": columns must be m,n,k,path,config, got \['m', 'n', 'path'"),
        "int": ("m,n,k,path,config\n1,16,x64,asm,\n", "data row 1: m, n, k must be integers, got '1', '16', 'x64'"),
        "path": ("m,n,k,path,config\n1,16,64,cublas,\n", "data row 1: path 'cublas' is not in mxlib.runtime.paths.PATHS"),
        "item": ("m,n,k,path,config\n1,16,64,asm,block_m:16\n", "data row 1: config items must be key=value"),
        "value": ("m,n,k,path,config\n1,16,64,asm,block_m=big\n", "config value of block_m must be an integer"),
        "comma": ("m,n,k,path,config\n1,16,64,asm,block_m=16,split_k=4\n", columns),  # would drop split_k silently
        "short": ("m,n,k,path,config\n1,16\n", columns),
    }
    for name, (text, rule) in cases.items():
        (tmp_path / f"{name}.csv").write_text(text)
        with pytest.raises(ValueError, match=f"{name}.csv.*{rule}"):
            dispatch.load_table(name, str(tmp_path))
    (tmp_path / "ok.csv").write_text("# a comment line\nm,n,k,path,config\n1,16,64,asm,block_m=16 split_k=1\n")
    assert dispatch.load_table("ok", str(tmp_path)) == {(1, 16, 64): [("asm", {"block_m": 16, "split_k": 1})]}
    assert dispatch.load_table("missing", str(tmp_path)) == {}


def test_unknown_config_field_names_the_row(monkeypatch):
    monkeypatch.setattr(dispatch, "load_table", lambda kind: {(2, 16, 64): [("asm", {"group_m": 4})]})
    with pytest.raises(ValueError, match="2x16x64 path 'asm'"):
        dispatch.select(2, 16, 64, "cpu")


def test_paths_are_registered():
    assert {"asm", "ck", "splitk"} <= set(PATHS) and set(dispatch.AITER_PATHS) <= set(PATHS)


def test_a_gpu_without_a_table_is_warned_about_once(monkeypatch):
    dispatch._warn_if_no_table.cache_clear()  # once per process: start from a process that has not warned
    monkeypatch.setattr(dispatch, "device_kind", lambda device: "gpu_without_table")
    with pytest.warns(dispatch.NoConfigTableWarning, match="no config table for GPU kind 'gpu_without_table'"):
        assert dispatch.select(16, 128, 1024, "cpu")[0] == "fused"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a second warning would raise here
        assert dispatch.select(16, 128, 1024, "cpu")[0] == "fused"
        assert dispatch.select_aiter_path(16, 128, 1024, "cpu") == dispatch.heuristic_path(16, 128, 1024)
    monkeypatch.setattr(dispatch, "device_kind", lambda device: "h200")  # a GPU with a table: no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        dispatch.select(16, 2112, 7168, "cpu")


def test_a_gpu_without_a_table_runs_the_cuda_path_where_it_can(monkeypatch, capsys):
    """A kind without a table (an H100's): mma_sm90 with its default config where the path can run, else
    fused with its own; one stderr line for the path passed over."""
    from mxlib.kernels import gemm_fused, gemm_mma_sm90

    monkeypatch.setattr(dispatch, "device_kind", lambda device: "nvidia_h100_80gb_hbm3")
    monkeypatch.setattr(dispatch, "_NOTED", set())
    can = {"mma_sm90": (True, ""), "fused": (True, "")}
    monkeypatch.setattr(dispatch, "path_available", lambda path, device: can[path])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dispatch.NoConfigTableWarning)
        assert dispatch.select(64, 7168, 2048, "cpu") == ("mma_sm90", gemm_mma_sm90.default_config(64, 7168, 2048))
        can["mma_sm90"] = (False, "no nvcc")
        assert dispatch.select(64, 7168, 2048, "cpu") == ("fused", gemm_fused.default_config(64, 7168, 2048))
    assert capsys.readouterr().err == "mxlib: skipping path mma_sm90 for 64x7168x2048: no nvcc\n"


INTERPRETER_LATE = r"""
import os, sys
os.environ.pop("TRITON_INTERPRET", None)
import torch
import mxlib
from mxlib.kernels import quant_triton
from mxlib.spec.reference import generate_input
os.environ["TRITON_INTERPRET"] = "1"  # too late: the kernels are compiled-mode objects already
ok, reason = mxlib.backends()["triton"]
print(ok, "cannot run in the interpreter" in reason)
try:
    mxlib.custom_kernel(generate_input(4, 32, 128, 8), backend="triton")
except ValueError as e:
    print("ValueError", "'triton' is not available" in str(e))
try:
    quant_triton.mxq_quantize(torch.ones(1, 32, dtype=torch.bfloat16))
except ValueError as e:
    print("ValueError", "before mxlib's kernels are imported" in str(e))
"""


@pytest.mark.skipif(torch.cuda.is_available(), reason="the CPU's answer; a GPU makes triton available anyway")
def test_triton_on_the_cpu_follows_the_kernels_not_a_late_environment_variable():
    """TRITON_INTERPRET set after mxlib's kernels were imported does not make them interpreted: the backend
    says so, and a call is a clear error (not Triton's "0 active drivers")."""
    proc = subprocess.run([sys.executable, "-c", INTERPRETER_LATE], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[1])
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["False", "True", "ValueError", "True", "ValueError", "True"], proc.stdout


FAILED_FIRST = r"""
import os, sys
os.environ.pop("TRITON_INTERPRET", None)
import torch
import mxlib
from mxlib.spec.reference import generate_input, ref_kernel
data = generate_input(4, 64, 256, 1)
meta = [t.to("meta") for t in data]
for call in (lambda: mxlib.quantize_mxfp4(data[0], backend="triton"),
             lambda: mxlib.quantize_mxfp4_shuffled(data[0], backend="triton"),
             lambda: mxlib.mxfp4_gemm(data[0], data[3], data[4]),
             lambda: mxlib.quantize_mxfp4(meta[0], backend="triton"),  # meta: what torch.compile traces with
             lambda: mxlib.mxfp4_gemm(meta[0], meta[3], meta[4][:, :4])):  # a bad shape too: refused first
    try:
        call()
    except ValueError as e:
        print("ValueError", "backend 'triton' is not available here" in str(e))
print("kernels imported", "mxlib.kernels.common" in sys.modules)
os.environ["TRITON_INTERPRET"] = "1"  # what the errors ask for
print("equal", torch.equal(mxlib.custom_kernel(data, backend="triton"), ref_kernel(data)))
"""


@pytest.mark.skipif(torch.cuda.is_available(), reason="the CPU's answer; a GPU makes triton available anyway")
def test_a_failed_triton_call_on_the_cpu_leaves_the_interpreter_usable():
    """A Triton call refused on the CPU (no TRITON_INTERPRET; CPU or meta tensors, a bad call or not) fails before
    importing mxlib's kernels, so setting
    the variable afterwards works as in a fresh process; and the message for kernels imported too early says to
    restart Python."""
    proc = subprocess.run([sys.executable, "-c", FAILED_FIRST], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[1])
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split("\n")[:7] == ["ValueError True"] * 5 + ["kernels imported False", "equal True"], proc.stdout
    late = subprocess.run([sys.executable, "-c", INTERPRETER_LATE.replace(
        "print(ok, ", "print('restart Python' in reason, ok, ")], capture_output=True, text=True, timeout=300,
        cwd=Path(__file__).resolve().parents[1])
    assert late.returncode == 0 and late.stdout.split()[:2] == ["True", "False"], late.stdout + late.stderr[-2000:]


SELECT_FIRST = r"""
import os, sys
os.environ.pop("TRITON_INTERPRET", None)
import torch
import mxlib
from mxlib.runtime import dispatch
from mxlib.spec.reference import generate_input, ref_kernel
data = generate_input(4, 64, 256, 1)
for path in ("mma_sm90", "fused", None):
    try:
        dispatch.select(4, 64, 256, "cpu", path=path)
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, "TRITON_INTERPRET=1 must be set" in str(e))
print("imported", any(m == "triton" or m.startswith("mxlib.kernels.") for m in sys.modules))
os.environ["TRITON_INTERPRET"] = "1"
print("equal", torch.equal(mxlib.custom_kernel(data, backend="triton"), ref_kernel(data)))
"""


@pytest.mark.skipif(torch.cuda.is_available(), reason="the CPU's answer; a GPU makes triton available anyway")
def test_a_refused_select_on_the_cpu_imports_no_kernel():
    """`dispatch.select` on the CPU without the interpreter refuses every path (a named one, or the table's)
    before a path's module imports Triton, so setting TRITON_INTERPRET afterwards works as in a fresh process."""
    proc = subprocess.run([sys.executable, "-c", SELECT_FIRST], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[1])
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split("\n")[:5] == ["ValueError True"] * 2 + ["RuntimeError True", "imported False",
                                                                     "equal True"], proc.stdout


TRITON_FIRST = r"""
import os, sys
os.environ.pop("TRITON_INTERPRET", None)
import torch
import triton  # what torch.compile and torch's op dispatch do
import mxlib
from mxlib.runtime import backends
from mxlib.spec.reference import generate_input
data = generate_input(4, 64, 256, 1)
os.environ["TRITON_INTERPRET"] = "1"  # too late for Triton's own library
ok, reason = backends.backends()["triton"]
print(ok, "Triton was imported earlier" in reason and "restart Python" in reason)
try:
    mxlib.mxfp4_gemm(data[0], data[3], data[4])
except ValueError as e:
    print("ValueError", "restart Python" in str(e))
print("kernels imported", "mxlib.kernels.common" in sys.modules)
from mxlib.kernels import common  # imported now, under the variable: the kernels interpreted, Triton's library not
print(common.mx_interpreting(), common.mx_cpu_tensors_ok(), "Triton" in common.MX_TOO_EARLY)
"""


@pytest.mark.skipif(torch.cuda.is_available(), reason="the CPU's answer; a GPU makes triton available anyway")
def test_triton_imported_before_the_interpreter_was_asked_for_is_said_not_run():
    """Triton imported before TRITON_INTERPRET=1 keeps its own `@triton.jit` library compiled, which the
    interpreter cannot call (Triton's error names no cause): the backend says so and asks for a restart, before
    and after mxlib's kernels are imported."""
    proc = subprocess.run([sys.executable, "-c", TRITON_FIRST], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[1])
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split("\n")[:4] == ["False True", "ValueError True", "kernels imported False",
                                           "True False True"], proc.stdout


GPU_HERE_CPU_TENSORS = r"""
import os, sys
os.environ.pop("TRITON_INTERPRET", None)
import torch
import mxlib
from mxlib.runtime import backends
from mxlib.spec.reference import generate_input, ref_kernel
data = generate_input(4, 64, 256, 1)
real = backends._triton_status
backends._triton_status = lambda: (True, "a GPU")  # as on a GPU machine: available, but not to CPU tensors
for call in (lambda: mxlib.quantize_mxfp4(data[0], backend="triton"),
             lambda: mxlib.mxfp4_gemm(data[0], data[3], data[4])):
    try:
        call()
    except ValueError as e:
        print("ValueError", "runs CPU tensors only in Triton's interpreter" in str(e))
print("kernels imported", "mxlib.kernels.common" in sys.modules)
backends._triton_status = real
os.environ["TRITON_INTERPRET"] = "1"
print("equal", torch.equal(mxlib.custom_kernel(data, backend="triton"), ref_kernel(data)))
"""


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a process without a GPU, to play one and then not")
def test_cpu_tensors_beside_a_gpu_are_refused_before_the_kernels_are_imported():
    """With a GPU present the Triton backend is available, but CPU tensors still need the interpreter: refused by
    name before the kernels are imported, so setting TRITON_INTERPRET afterwards still works."""
    proc = subprocess.run([sys.executable, "-c", GPU_HERE_CPU_TENSORS], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[1])
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split("\n")[:4] == ["ValueError True"] * 2 + ["kernels imported False", "equal True"], \
        proc.stdout + proc.stderr[-2000:]


def test_aiter_backend_takes_the_seeds_route_past_rows_of_other_paths(monkeypatch):
    """The MI355X table holds only fused_fp4 rows, so the aiter backend's path comes from the seed's route."""
    monkeypatch.setattr(dispatch, "device_kind", lambda device: "mi355x")
    assert all(p == "fused_fp4" for rows in dispatch.load_table("mi355x").values() for p, _ in rows)
    assert dispatch.select_aiter_path(16, 2112, 7168, "cpu") == "splitk"
    assert dispatch.select_aiter_path(8, 2112, 7168, "cpu") == "asm"
    assert dispatch.select_aiter_path(256, 3072, 1536, "cpu") == "ck"


def test_aiter_backend_prefers_the_tables_aiter_rows_to_the_seeds_route():
    """cpu.csv: 16x128x1024 has rows splitk then ck, 8x32x7168 a splitk row; the seed's route is asm for
    both. The table's aiter rows come first, in their order, and the seed's route after them."""
    assert dispatch.heuristic_path(16, 128, 1024) == dispatch.heuristic_path(8, 32, 7168) == "asm"
    assert dispatch.aiter_candidates(16, 128, 1024, "cpu") == ["splitk", "ck", "asm"]
    assert dispatch.select_aiter_path(16, 128, 1024, "cpu") == "splitk"
    assert dispatch.aiter_candidates(8, 32, 7168, "cpu") == ["splitk", "asm"]


def test_a_path_that_cannot_quantize_a_is_not_usable(monkeypatch):
    monkeypatch.setattr(dispatch, "path_available", lambda path, device: (True, ""))
    ok, reason = dispatch.usable("mma_sm90", "cpu", torch.float32)
    assert not ok and "float32" in reason
    assert dispatch.usable("mma_sm90", "cpu", torch.bfloat16)[0]


def test_gpu_defaults_and_environment_on_the_cpu(monkeypatch):
    """The choices `plan` makes for CUDA data, checked here with the backends' answers stood in: aiter
    first, then triton; $MXLIB_BACKEND set aside when the path asked for is not one of its paths."""
    status = {"aiter": (True, ""), "triton": (True, ""), "torch": (True, "")}
    monkeypatch.setattr(dispatch, "backends", lambda: status)
    monkeypatch.setattr(dispatch, "check_device_type", lambda d, name, present: devices.check_device_type(d, name))
    assert dispatch._available_backend("cuda", None) == "aiter"
    status["aiter"] = (False, "no aiter")
    assert dispatch._available_backend("cuda", None) == "triton"
    monkeypatch.setattr(dispatch, "_select", lambda m, n, k, device, path, a_dtype, where="path": (path, "cfg"))
    monkeypatch.setenv(dispatch.ENV_BACKEND, "torch")
    assert dispatch.plan(4, 64, 128, "cuda", path="fused") == ("triton", "fused", "cfg")
    # $MXLIB_PATH fills in the path argument, so it steers the default backend as the argument does
    status["aiter"] = (True, "")
    monkeypatch.delenv(dispatch.ENV_BACKEND)
    monkeypatch.setenv(dispatch.ENV_PATH, "fused_fp4")
    assert dispatch.plan(16, 2112, 7168, "cuda") == dispatch.plan(16, 2112, 7168, "cuda", path="fused_fp4") \
        == ("triton", "fused_fp4", "cfg")


def test_integer_like_shapes_find_their_table_row():
    """A 0-d tensor or a numpy integer is an integer (`ints.gemm_shape`), and must find the same row as
    the int: a tensor is not equal, as a dict key, to the int it holds."""
    import numpy as np

    want = dispatch.select(4, 64, 512, "cpu")
    assert dispatch.select(torch.tensor(4), np.int64(64), 512, "cpu") == want
    assert dispatch.plan(torch.tensor(4), 64, np.int64(512), "cpu", backend="triton")[1:] == want


def test_check_command_takes_the_backend_from_the_environment(monkeypatch, capsys):
    """`python -m mxlib check` lets $MXLIB_BACKEND fill in --backend as custom_kernel does (its own CPU
    default, triton, only when neither names one), and a mismatch between the two variables is the
    dispatcher's error naming the variable, not a silent run of another backend."""
    from mxlib.__main__ import main

    if torch.cuda.is_available():
        pytest.skip("checks the CPU default")
    monkeypatch.setenv(dispatch.ENV_BACKEND, "torch")
    assert main(["check"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:-1]]
    assert rows and {row[5] for row in rows} == {"torch"}
    monkeypatch.setenv(dispatch.ENV_PATH, "fused")
    assert main(["check"]) == 2
    assert "$MXLIB_PATH='fused' names a path, but backend 'torch'" in capsys.readouterr().err


def test_a_path_module_imported_before_is_looked_up_not_imported(monkeypatch):
    """`path_module` hands back the module already imported without the import machinery (asked three times a
    call); a name that is no path is still refused by name."""
    import importlib

    from mxlib.runtime import paths

    module = paths.path_module("fused")
    monkeypatch.setattr(importlib, "import_module", lambda name: pytest.fail(f"imported {name} again"))
    assert paths.path_module("fused") is module
    for bad in ("nope", ["fused"], None):
        with pytest.raises(ValueError, match="path must be one of"):
            paths.path_module(bad)


def test_a_path_module_being_imported_by_another_thread_is_waited_for(monkeypatch, tmp_path):
    """A second thread asking for a path while the first still imports it gets the finished module, not the half
    made one sys.modules holds meanwhile (which raised AttributeError for the path's Config)."""
    import threading
    import types

    from mxlib.runtime import paths

    gate = types.SimpleNamespace(started=threading.Event(), release=threading.Event())
    monkeypatch.setitem(sys.modules, "mx_test_gate", gate)
    (tmp_path / "mx_test_slow_path.py").write_text(
        "import sys\ngate = sys.modules['mx_test_gate']\ngate.started.set()\ngate.release.wait(30)\nConfig = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(paths.PATHS, "slow", "mx_test_slow_path")
    monkeypatch.delitem(sys.modules, "mx_test_slow_path", raising=False)
    monkeypatch.setattr(paths, "_IMPORTED", {})
    got, errors = [], []

    def ask():
        try:
            got.append(paths.path_module("slow").Config)
        except Exception as e:  # recorded: the assertion names it
            errors.append(repr(e))

    first = threading.Thread(target=ask)
    first.start()
    assert gate.started.wait(30)
    second = threading.Thread(target=ask)
    second.start()
    second.join(0.5)  # the half-made module would have failed it by now
    gate.release.set()
    first.join(30)
    second.join(30)
    monkeypatch.delitem(sys.modules, "mx_test_slow_path")
    assert errors == [] and got == [1, 1], errors


KERNELS_RACE = r"""
import os, sys, threading
os.environ["TRITON_INTERPRET"] = "1"
from mxlib.runtime import backends
errors, done = [], threading.Event()
def importer():
    import mxlib.kernels.common  # imports Triton: sys.modules holds it half made for a while
    done.set()
def asker():
    while not done.is_set():
        try:
            backends._triton_status()
        except Exception as e:
            errors.append(repr(e)); return
threading.Thread(target=importer).start()
t = threading.Thread(target=asker); t.start(); t.join()
print("errors", errors, backends._triton_status()[0])
"""


@pytest.mark.skipif(torch.cuda.is_available(), reason="the CPU's interpreter question; a GPU answers first")
def test_the_triton_backends_status_waits_for_an_import_of_the_kernels_in_another_thread():
    proc = subprocess.run([sys.executable, "-c", KERNELS_RACE], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[1])
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split("\n")[0] == "errors [] True", proc.stdout


def test_config_keys_must_be_identifiers(tmp_path):
    from mxlib.runtime import dispatch

    for item in ("=16", "1x=3", "block-m=16"):
        with pytest.raises(ValueError, match="config items must be key=value"):
            dispatch.parse_config(item, "here")
    (tmp_path / "badkey.csv").write_text("m,n,k,path,config\n1,16,64,asm,=16\n")
    with pytest.raises(ValueError, match="badkey.csv"):
        dispatch.load_table("badkey", str(tmp_path))


def test_aiter_asked_for_by_environment_keeps_its_route_where_no_aiter_path_runs(monkeypatch):
    """aiter as the default backend gives the shape to Triton when none of its paths can run it; aiter asked for
    by $MXLIB_BACKEND keeps the seed's route, and its call says why it cannot run."""

    monkeypatch.delenv(dispatch.ENV_BACKEND, raising=False)
    monkeypatch.delenv(dispatch.ENV_PATH, raising=False)
    monkeypatch.setattr(dispatch, "backends", lambda: {b: (True, "") for b in ("aiter", "triton", "torch")})
    monkeypatch.setattr(dispatch, "check_device_type", lambda d, name, present: devices.check_device_type(d, name))
    monkeypatch.setattr(dispatch, "device_kind", lambda device: "mi355x")
    monkeypatch.setattr(dispatch, "usable_aiter_path", lambda m, n, k, device: None)
    monkeypatch.setattr(dispatch, "_select", lambda m, n, k, device, path, a_dtype, where="path": ("fused", "cfg"))
    assert dispatch.plan(16, 2112, 7168, "cuda") == ("triton", "fused", "cfg")
    monkeypatch.setenv(dispatch.ENV_BACKEND, "aiter")
    assert dispatch.plan(16, 2112, 7168, "cuda") == ("aiter", "splitk", None)
