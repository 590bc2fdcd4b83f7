"""The custom op torch.ops.mxlib.mxfp4_gemm: schema and fake implementation (opcheck), the same
result as the dispatcher's path eagerly, under torch.compile, and (GPU) inside a captured CUDA graph."""
import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

from mxlib.runtime import dispatch
from mxlib.runtime.ops import mxfp4_gemm
from mxlib.runtime.paths import PATHS, path_available, path_module
from mxlib.spec.reference import check_implementation, generate_input

from .helpers import fresh_seed, spy_on_paths

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def inputs(m=5, n=48, k=256):
    """Fresh inputs each run: the seed drawn, the contest's generator's tensors, and (A, B_shuffle, B_scale_sh)."""
    seed = fresh_seed()
    data = generate_input(m, n, k, seed, device=DEVICE)
    return seed, data, (data[0], data[3], data[4])


def test_opcheck():
    _, _, args = inputs()
    torch.library.opcheck(torch.ops.mxlib.mxfp4_gemm.default, (*args, "", "rne"))
    torch.library.opcheck(torch.ops.mxlib.mxfp4_gemm.default, (*args, "splitk", "ties_away"))


@pytest.mark.parametrize("path", [None, "asm", "ck", "splitk"])
def test_matches_the_path(path, monkeypatch):
    """The op runs the path it is given (None: the dispatcher's), with that path's config; the spy says which
    ran, since the paths agree in their bits here."""
    seed, data, (a, bs, bsc) = inputs()
    name, cfg = dispatch.select(a.shape[0], bs.shape[0], a.shape[1], a.device, path)
    want = path_module(name).gemm(a, bs, bsc, config=cfg)
    ran = spy_on_paths(monkeypatch)
    got = mxfp4_gemm(a, bs, bsc, path)
    assert torch.equal(got, want) and ran == [name], f"seed {seed}"
    assert check_implementation(data, got)[0], f"seed {seed}"


def test_fake_impl_shapes():
    _, _, (a, bs, bsc) = inputs(m=3, n=32, k=128)
    with FakeTensorMode() as mode:
        out = torch.ops.mxlib.mxfp4_gemm(mode.from_tensor(a), mode.from_tensor(bs), mode.from_tensor(bsc), "", "rne")
    assert out.shape == (3, 32) and out.dtype == torch.bfloat16 and out.device == a.device


def test_the_op_on_meta_tensors_gives_a_meta_c():
    """Called on meta tensors (no device to check, no memory to share) the op gives a bf16 (M, N) meta C."""
    _, _, (a, bs, bsc) = inputs(m=3, n=32, k=128)
    out = mxfp4_gemm(a.to("meta"), bs.to("meta"), bsc.to("meta"))
    assert out.device.type == "meta" and out.dtype == torch.bfloat16 and tuple(out.shape) == (3, 32)


def test_import_mxlib_registers_the_op_without_triton():
    code = ("import sys, torch, mxlib; assert hasattr(torch.ops.mxlib, 'mxfp4_gemm'); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('triton', 'aiter')))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parent.parent)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "[]"


@pytest.mark.parametrize("case,error", [
    ("devices", "a and b_shuffle must be on the same device"),
    ("scale_devices", "a and b_scale_sh must be on the same device"),
    ("k", r"b_scale_sh must have shape \(ceil256\(N\), ceil8\(K/32\)\)"),
    ("path", "path must be one of"),
    ("rounding", "rounding must be one of"),
    ("strides", "b_shuffle must be contiguous"),
    ("scale_strides", "b_scale_sh must be contiguous"),
])
def test_fake_impl_raises_what_the_op_raises(case, error):
    """Meta inputs (any one of them) run the fake implementation: it checks devices, shapes,
    strides, path and rounding as the real call does, instead of returning an uninitialised tensor."""
    _, _, (a, bs, bsc) = inputs(m=3, n=32, k=128)
    path, rounding = "", "rne"
    if case == "devices":
        bs = bs.to("meta")
    elif case == "scale_devices":
        bsc = bsc.to("meta")
    else:
        a, bs, bsc = a.to("meta"), bs.to("meta"), bsc.to("meta")
    if case == "k":
        bsc = bsc[:, :2]
    elif case == "path":
        path = "cublas"
    elif case == "rounding":
        rounding = "even"
    elif case == "strides":
        bs = bs.t().contiguous().t()
    elif case == "scale_strides":
        bsc = bsc.t().contiguous().t()
    with pytest.raises(ValueError, match=error):
        torch.ops.mxlib.mxfp4_gemm(a, bs, bsc, path, rounding)


def test_torch_compile_equals_eager():
    seed, _, args = inputs(m=7, n=32, k=192)
    compiled = torch.compile(lambda a, b, s: mxfp4_gemm(a, b, s), backend="aot_eager", fullgraph=True)
    assert torch.equal(compiled(*args), mxfp4_gemm(*args)), f"seed {seed}"


def test_bad_arguments():
    _, _, (a, bs, bsc) = inputs()
    with pytest.raises(TypeError, match="b_shuffle must hold bytes"):
        mxfp4_gemm(a, bs.to(torch.int32), bsc)
    with pytest.raises(ValueError, match="rounding"):
        mxfp4_gemm(a, bs, bsc, rounding="even")
    with pytest.raises(ValueError, match="path must be one of"):
        mxfp4_gemm(a, bs, bsc, path="cublas")
    for not_a_tensor in (None, [[1.0] * 64] * 3):
        with pytest.raises(TypeError, match="a must be a torch.Tensor"):
            mxfp4_gemm(not_a_tensor, bs, bsc)


@pytest.mark.gpu
def test_inductor_and_cuda_graph_equal_eager():
    seed, _, args = inputs(m=16, n=256, k=1024)
    eager = mxfp4_gemm(*args)
    compiled = torch.compile(lambda a, b, s: mxfp4_gemm(a, b, s), fullgraph=True)
    assert torch.equal(compiled(*args), eager), f"seed {seed}"
    static = [t.clone() for t in args]
    mxfp4_gemm(*static)  # compile the kernels outside the capture
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = mxfp4_gemm(*static)
    new_a = torch.randn_like(args[0])
    static[0].copy_(new_a)
    out.fill_(float("nan"))
    graph.replay()
    torch.cuda.synchronize()
    assert torch.equal(out, mxfp4_gemm(new_a, args[1], args[2])), f"seed {seed}"


def test_h200_validate_script_dry_run(tmp_path):
    """scripts/h200_validate.py end to end on the CPU (interpreter, no CUDA graph), on tiny shapes."""
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, TRITON_INTERPRET="1")
    cmd = [sys.executable, str(root / "scripts" / "h200_validate.py"), "--device", "cpu", "--shapes", "3x32x128:1",
           "--random", "1", "--max-m", "5", "--max-n", "32", "--max-k", "128", "--out", str(tmp_path)]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    summary = json.loads((tmp_path / "summary.json").read_text())
    runnable = [name for name in PATHS if path_available(name, "cpu")[0]]  # mma_sm90 needs a Hopper GPU
    assert summary["failed"] == 0 and summary["checks"] == 3 * len(runnable) + 1 + len(runnable)
    with open(tmp_path / "validate.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == summary["checks"] and all(r["ok"] == "1" for r in rows)


def _op_error(args, path="", fake=False):
    """(type, message) that the op raises on `args` (real tensors, or FakeTensorMode copies of their shapes)."""
    try:
        if fake:
            with FakeTensorMode():
                args = tuple(torch.empty_strided(t.shape, t.stride(), dtype=t.dtype, device=t.device) for t in args)
                torch.ops.mxlib.mxfp4_gemm(*args, path, "rne")
        else:
            torch.ops.mxlib.mxfp4_gemm(*args, path, "rne")
    except (TypeError, ValueError) as e:
        return type(e), str(e)
    return None


def test_fake_impl_agrees_with_the_op_on_int32_limits_and_a_dtypes():
    k = 2**14
    _, _, (_, bs, bsc) = inputs(m=1, n=16, k=k)
    big_a = torch.zeros(1, k, dtype=torch.bfloat16, device=DEVICE).expand(2**17, k)  # M*K = 2**31, no memory
    real = _op_error((big_a, bs, bsc))
    assert real is not None and real[0] is ValueError and "M*K" in real[1]
    assert _op_error((big_a, bs, bsc), fake=True) == real
    _, _, (a, bs, bsc) = inputs(m=4, n=32, k=128)
    a32 = a.float()
    real = _op_error((a32, bs, bsc), path="mma_sm90")
    assert real is not None and real[0] is TypeError and "quantizes A of dtype" in real[1]
    assert _op_error((a32, bs, bsc), path="mma_sm90", fake=True) == real
    assert _op_error((a, bs, bsc), fake=True) is None


def test_falsy_path_is_not_taken_for_no_path():
    _, _, (a, bs, bsc) = inputs()
    for path in (0, False, "none"):
        with pytest.raises(ValueError, match="path must be one of"):
            mxfp4_gemm(a, bs, bsc, path=path)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_fake_impl_returns_bf16_for_every_a_dtype(dtype):
    data = generate_input(3, 32, 128, 11, device=DEVICE)
    a, bs, bsc = data[0].to(dtype), data[3], data[4]
    with FakeTensorMode() as mode:
        out = torch.ops.mxlib.mxfp4_gemm(mode.from_tensor(a), mode.from_tensor(bs), mode.from_tensor(bsc), "", "rne")
    assert out.dtype == torch.bfloat16 and out.shape == (3, 32)
    torch.library.opcheck(torch.ops.mxlib.mxfp4_gemm.default, (a, bs, bsc, "", "rne"))


def test_mxfp4_gemm_passes_its_rounding_on():
    from mxlib.runtime.ops import mxfp4_gemm
    from mxlib.runtime.paths import path_module

    data = generate_input(16, 64, 512, 1, device=DEVICE, rounding="ties_away")
    a, bs, bsc = data[0], data[3], data[4]
    got = mxfp4_gemm(a, bs, bsc, "splitk", rounding="ties_away")
    assert torch.equal(got, path_module("splitk").gemm(a, bs, bsc, rounding="ties_away"))
    assert check_implementation(data, got, "ties_away")[0]
    assert not torch.equal(got, mxfp4_gemm(a, bs, bsc, "splitk", rounding="rne"))
