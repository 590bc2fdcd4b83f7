"""`python -m mxlib isa`: mxlib's Triton kernels compiled for gfx950 with no GPU (a sample of the contest shapes,
every path), the facts a regression would break, the seed's launches captured through the stand-in aiter,
residency arithmetic, and the one-line errors. Capture needs a process whose Triton is not in interpreter
mode, so each run is a subprocess without TRITON_INTERPRET."""
import collections
import csv
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mxlib.spec import seed
from mxlib.tools import occupancy as occ

ROOT = Path(__file__).resolve().parent.parent
SEED_DIR = ROOT.parent / "shared" / "seed"
SAMPLE = "16x2112x7168"  # the seed's split-K shape, every path (isa_all_paths.csv in data/results/mi355x has them all)
# Kernels of mxlib that issue gfx950's native scaled MFMA (v_mfma_scale_f32_*_f8f6f4): fused_fp4's, whose
# tl.dot_scaled gets both operands as e2m1 + E8M0. The others hand it a bf16/f16 operand (or use tl.dot), so
# Triton upcasts and uses a plain MFMA.
NATIVE_SCALED_MFMA = {"_fp4_gemm_kernel"}
GEMM_KERNELS = {"_tiled_kernel", "_splitk_kernel", "_fused_gemm_kernel"}  # _tiled_kernel: paths asm and ck


def _isa(*args, timeout=600):
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    return subprocess.run([sys.executable, "-m", "mxlib", "isa", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


def _rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def gfx950_sample(tmp_path_factory):
    out = tmp_path_factory.mktemp("isa") / "sample.csv"
    res = _isa("--target", "gfx950", "--path", "all", "--shapes", SAMPLE, "--out", str(out))
    assert res.returncode == 0, res.stderr[-2000:]
    return _rows(out)


def test_isa_compiles_every_path_for_gfx950(gfx950_sample):
    from mxlib.runtime.paths import CUDA_PATHS, PATHS

    assert {r["path"] for r in gfx950_sample} == set(PATHS) - set(CUDA_PATHS)
    assert {r["shape"] for r in gfx950_sample} == set(SAMPLE.split(","))
    for r in gfx950_sample:
        assert r["target"] == "gfx950" and r["triton"] and r["date"] and not r["note"], r
        assert int(r["vgprs"]) > 0 and int(r["grid_ctas"]) > 0
        assert int(r["scratch_bytes"]) == 0, f"{r['kernel']} on {r['shape']} spills to scratch"


def test_isa_matrix_instructions_on_gfx950(gfx950_sample):
    native = {r["kernel"] for r in gfx950_sample if "v_mfma_scale_f32" in r["mma"]}
    assert native == NATIVE_SCALED_MFMA
    for r in gfx950_sample:
        if r["kernel"] in NATIVE_SCALED_MFMA:
            assert all(m.startswith("v_mfma_scale_f32_") for m in r["mma"].split(";")), r  # nothing upcast
        elif r["kernel"] in GEMM_KERNELS:
            assert r["mma"].startswith("v_mfma_f32_"), r  # on the matrix cores, through an upcast
        else:
            assert r["mma"] == "", r  # quant and reduce kernels have no dot


def test_isa_residency_matches_the_compiler(gfx950_sample):
    # Without a waves_per_eu hint the compiler's own '; Occupancy:' is the VGPR limit residency computes.
    for r in gfx950_sample:
        if r["waves_per_eu"] == "0":
            res = occ.residency(occ.KernelResources("gfx950", int(r["num_warps"]), int(r["vgprs"]),
                                                    int(r["agprs"]), 0))
            assert res.waves_per_simd == int(r["occupancy"]), r


def test_isa_seed_launches_match_seed_plan(tmp_path):
    files = sorted(SEED_DIR.glob("*.txt")) if SEED_DIR.is_dir() else []
    if not files:
        pytest.skip(f"no seed text in {SEED_DIR}")
    out = tmp_path / "seed.csv"
    res = _isa(str(files[0]), "--target", "gfx950", "--out", str(out))
    assert res.returncode == 0, res.stderr[-2000:]
    rows = _rows(out)
    for shape in {r["shape"] for r in rows}:
        plan = seed.seed_plan(*map(int, shape.split("x")))
        got = [r for r in rows if r["shape"] == shape]
        quant, first = plan["launches"][0], got[0]
        assert first["kernel"] == quant["kernel"] and int(first["grid_ctas"]) == quant["ctas"], (shape, first)
        for key, value in quant["constexprs"].items():
            assert f"{key}={value}" in first["config"].split(), (shape, key)
        assert int(first["scratch_bytes"]) == 0
        if plan["path"] == "splitk":
            assert [r["kernel"] for r in got[1:]] in (
                ["gemm_afp4wfp4_preshuffle"],  # no PyPI amd-aiter here: recorded, not compiled
                ["_gemm_afp4_wfp4_kernel_preshuffled_weight_scales", "_gemm_afp4_wfp4_reduce_kernel"])
        else:
            assert [r["kernel"] for r in got[1:]] == ["gemm_a4w4_asm" if plan["path"] == "asm" else "gemm_a4w4"]
            assert got[1]["note"] == "not Triton, not compiled"
            if plan["runs"] is not None:
                assert got[1]["config"].startswith(plan["runs"]), (shape, got[1]["config"])


@pytest.mark.parametrize("target, regs, agprs, warps, shared, want", [
    ("gfx950", 94, 0, 4, 16480, (5, "registers")),  # 96 VGPRs: 5 waves per SIMD, one per CTA
    ("gfx950", 157, 0, 4, 112768, (1, "shared")),  # 3 waves per SIMD fit, but 160 KiB of LDS holds one CTA
    ("gfx950", 41, 0, 4, 0, (8, "registers")),  # 8 waves per SIMD at most
    ("gfx950", 64, 0, 8, 0, (4, "registers")),  # 8 waves: two per SIMD per CTA
    ("sm_90", 218, 0, 4, 16896, (2, "registers")),  # 224 x 32 per warp: 9 warps of 64K
    ("sm_90", 40, 0, 4, 2048, (12, "registers")),
    ("sm_90", 32, 0, 1, 0, (32, "ctas")),
])
def test_residency_arithmetic(target, regs, agprs, warps, shared, want):
    res = occ.residency(occ.KernelResources(target, warps, regs, agprs, shared))
    assert (res.ctas, res.limited_by) == want


def test_isa_committed_results_are_complete():
    from mxlib.spec import shapes

    for path, target in ((occ.RESULTS_DIR / "mi355x" / "isa.csv", "gfx950"),
                         (occ.RESULTS_DIR / "h200" / "isa_sm90.csv", "sm_90")):
        rows = _rows(path)
        assert {r["shape"] for r in rows} == {str(s) for s in shapes.load()}, path
        assert all(r["target"] == target and r["triton"] and r["date"] for r in rows), path


@pytest.mark.parametrize("args, message", [
    (["--target", "gfx942"], "--target must be one of gfx950, sm_90, got 'gfx942'"),
    (["--target", "gfx942", "--listing", "L"], "--target must be one of gfx950, sm_90, got 'gfx942'"),
    (["--target", "gfx942", "--sweep", "s.csv"], "--target must be one of gfx950, sm_90, got 'gfx942'"),
    (["--target", "gfx942", "--listing", "L", "--sweep", "s.csv"], "--target must be one of"),  # before the rest
    (["no/such/file.py", "--target", "gfx950"], "SUBMISSION 'no/such/file.py' must be an existing file"),
    (["--target", "gfx950", "--shapes", "1x2x3"], "--shapes must list contest shapes as MxNxK"),
    (["--target", "gfx950", "--path", "fast"], "--path must be 'all' or one of"),
    (["--target", "gfx950", "--listing", "L", "--sweep", "s.csv"], "--sweep: not an option of --listing"),
    (["--target", "gfx950", "--sweep", "s.csv", "--shapes", "4x2880x512"], "--shapes: not an option of --sweep"),
    (["--target", "gfx950", "--sweep", "s.csv", "--timeout", "5"], "--timeout: not an option of --sweep"),
    (["--target", "gfx950", "--listing", "L", "--timeout", "5"], "--timeout: not an option of --listing"),
    (["--target", "gfx950", "--timeout", "5"], "--timeout applies to a SUBMISSION file"),
])
def test_isa_bad_input_is_one_line(args, message, capsys):
    from mxlib.__main__ import main

    assert main(["isa", *args]) == 2  # refused before Triton is touched, so in this process
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and message in err, err


def test_isa_submission_without_custom_kernel_is_one_line(tmp_path):
    bad = tmp_path / "sub.py"
    bad.write_text("import torch\n\ndef kernel(data):\n    return data[0]\n")
    res = _isa(str(bad), "--target", "sm_90")
    assert res.returncode == 2 and res.stderr.count("\n") == 1
    assert "must define custom_kernel(data)" in res.stderr and str(bad) in res.stderr


@pytest.mark.parametrize("text, message", [
    ("import sys\nsys.exit(3)\n", "must import cleanly with the stand-in aiter, got SystemExit: 3"),
    ("import torch\n\ndef custom_kernel(data):\n    return torch.zeros(1)\n", "launched no Triton kernel"),
    # loads (the contest's task module is there, as in the harness), then has nothing to inspect
    ("import torch\nfrom task import input_t, output_t\n\ndef custom_kernel(data: input_t) -> output_t:\n"
     "    return torch.zeros(1)\n", "launched no Triton kernel"),
])
def test_isa_submission_that_exits_or_launches_nothing_is_one_line(tmp_path, text, message):
    """An exit at import is the file's failure, named (not isa ending with its code and no word); a submission
    with nothing to inspect is an error, not an empty table."""
    bad = tmp_path / "sub.py"
    bad.write_text(text)
    res = _isa(str(bad), "--target", "sm_90", "--shapes", "4x2880x512")
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and message in res.stderr, res.stderr


@pytest.mark.parametrize("text, step", [
    ("import time\n\ndef custom_kernel(data):\n    while True:\n        try:\n            time.sleep(0.1)\n"
     "        except Exception:\n            pass\n", "in custom_kernel on 4x2880x512"),
    ("import time\ntime.sleep(600)\n\ndef custom_kernel(data):\n    return None\n", "loading"),
])
def test_isa_stops_a_submission_that_hangs(tmp_path, text, step):
    """A submission that hangs, in a call (even one that swallows every Exception) or while loading, is
    stopped after --timeout and named, one line, not waited for."""
    bad = tmp_path / "sub.py"
    bad.write_text(text)
    res = _isa(str(bad), "--target", "sm_90", "--shapes", "4x2880x512", "--timeout", "2")
    assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
    assert f"SUBMISSION ran past --timeout 2 s while {step}" in res.stderr


AMDGCN_LOOP = """\
\ts_mov_b32 s0, 0
.LBB0_2:                                ; =>This Inner Loop Header: Depth=1
\t.loc\t1 296 30
\tbuffer_load_dwordx4 v[0:3], v4, s[4:7], 0 offen
\t; a comment
\tv_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:7], v[8:11], v[0:3], v9, v8 op_sel_hi:[0,0,0] cbsz:4 blgp:4
\ts_cbranch_scc1 .LBB0_2
\ts_endpgm
"""
PTX_LOOP = """\
\tmov.b32 %r1, 0;
$L__BB0_1:
\t// begin
\tld.global.cg.v4.b32 {%r1, %r2, %r3, %r4}, [%rd1];
\tmma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%f1}, {%r1}, {%r2}, {%f1};
\t@%p1 bra $L__BB0_1;
$L__BB0_2:
\tret;
"""


def test_k_loop_lines_amdgcn_and_ptx():
    from mxlib.tools import isa

    assert isa.k_loop_lines(AMDGCN_LOOP) == [
        "buffer_load_dwordx4 v[0:3], v4, s[4:7], 0 offen",
        "v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:7], v[8:11], v[0:3], v9, v8 op_sel_hi:[0,0,0] cbsz:4 blgp:4",
        "s_cbranch_scc1 .LBB0_2"]
    assert isa.k_loop_lines(PTX_LOOP) == [
        "ld.global.cg.v4.b32 {%r1, %r2, %r3, %r4}, [%rd1];",
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%f1}, {%r1}, {%r2}, {%f1};",
        "@%p1 bra $L__BB0_1;"]
    assert isa.k_loop_lines("\ts_endpgm\n") == []


def test_capture_answers_as_the_target_and_listing_writes_the_kernel(tmp_path):
    """fused_fp4 passes AMD launch options only off CUDA: captured for sm_90 it has none (as on the H200),
    for gfx950 it keeps them. --listing writes the compiled text of one path on one shape."""
    code = (
        "from mxlib.tools import isa\n"
        "isa.prepare()\n"
        "from mxlib.kernels import gemm_fused_fp4 as F\n"
        "from mxlib.spec.reference import generate_input\n"
        "a, _, _, b, s = generate_input(16, 64, 512, 0)\n"
        "cfg = F.Config(matrix_instr_nonkdim=16, split_k=2)\n"
        "for t in ('sm_90', 'gfx950'):\n"
        "    (l,) = isa.capture(lambda: F.gemm(a, b, s, config=cfg), t)\n"
        "    print(t, 'matrix_instr_nonkdim' in l.kwargs, l.kwargs['RELEASE_THREADS'])\n")
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout.split("\n")[:2] == ["sm_90 False 0", "gfx950 True 256"]

    res = _isa("--target", "gfx950", "--path", "fused_fp4", "--shapes", "4x2880x512", "--listing", str(tmp_path))
    assert res.returncode == 0, res.stderr[-2000:]
    (listing,) = tmp_path.glob("*.s")
    assert listing.name == "fused_fp4_fp4_gemm_kernel_4x2880x512_gfx950.s"
    from mxlib.tools import isa

    text = listing.read_text()
    assert text.startswith("; mxlib fused_fp4 path, 4x2880x512, kernel _fp4_gemm_kernel, compiled for gfx950")
    assert any(x.startswith("v_mfma_scale_f32_16x16x128_f8f6f4") for x in isa.k_loop_lines(text))


_SCOPED = """
import os
import torch
from mxlib.tools import isa

before = os.environ.get("TRITON_INTERPRET")
isa.prepare()
assert os.environ.get("TRITON_INTERPRET") == before, "prepare leaves TRITON_INTERPRET as the caller had it"
import triton
import triton.language as tl
from triton.runtime.interpreter import InterpretedFunction
from triton.runtime.jit import JITFunction

import mxlib

state = lambda: (os.environ.get("TRITON_INTERPRET"), JITFunction.__dict__["run"], InterpretedFunction.__dict__["run"],
                 type(triton.knobs.runtime).__dict__["interpret"], triton.runtime.driver._active)
clean = state()
x = torch.randn(4, 64)
launches = isa.capture(lambda: mxlib.quantize_mxfp4(x, backend="triton"), "gfx950")
assert launches and all(isinstance(l.fn, JITFunction) for l in launches), launches
assert state() == clean, "capture left state behind"
try:
    isa.capture(lambda: 1 / 0)
except ZeroDivisionError:
    pass
else:
    raise AssertionError("capture swallowed the call's error")
assert state() == clean, "a failed capture left state behind"

# Outside capture a launch is an ordinary one: the CPU tensor is refused by mxlib's own check (its kernels,
# imported during capture, are compiled ones and there is no GPU), not recorded
try:
    mxlib.quantize_mxfp4(x, backend="triton")
except ValueError as exc:
    assert "TRITON_INTERPRET=1" in str(exc) and "capture" not in str(exc), exc
else:
    raise AssertionError("a CPU tensor reached compiled kernels with no GPU")

# and with TRITON_INTERPRET=1, a kernel jitted now is the interpreter's and runs
os.environ["TRITON_INTERPRET"] = "1"

@triton.jit
def add_one(p, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(p + offs, tl.load(p + offs) + 1)

t = torch.arange(8, dtype=torch.float32)
add_one[(1,)](t, N=8)
assert t.tolist() == [float(i + 1) for i in range(8)], t
print("ok")
"""


@pytest.mark.parametrize("user_env", [None, "1"])
def test_capture_leaves_no_state_behind(tmp_path, user_env):
    """prepare and capture restore TRITON_INTERPRET as the caller had it (unset, or "1"), JITFunction.run,
    the interpreter's run, Triton's interpret knob and active driver, also when the captured call raises;
    afterwards a launch runs as usual, and a kernel jitted under TRITON_INTERPRET=1 runs in the interpreter.
    In a child process (a file: Triton reads a kernel's source): capture needs Triton imported for compiling."""
    script = tmp_path / "scoped.py"
    script.write_text(_SCOPED)
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    if user_env is not None:
        env["TRITON_INTERPRET"] = user_env
    env["PYTHONPATH"] = str(ROOT)
    res = subprocess.run([sys.executable, str(script)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout.strip().splitlines()[-1] == "ok"


def test_prepare_refuses_an_interpreted_triton_and_changes_nothing():
    """In this process Triton runs in its interpreter (tests/conftest.py): prepare refuses with IsaError and
    leaves the process as it was, so mxlib's interpreted kernels still run."""
    import torch

    import mxlib
    from mxlib.kernels import common
    from mxlib.tools import isa

    if not common.mx_interpreting():
        pytest.skip("Triton is not in interpreter mode in this process (a GPU machine)")
    from triton.runtime.jit import JITFunction

    before = (os.environ.get("TRITON_INTERPRET"), JITFunction.__dict__["run"])
    with pytest.raises(isa.IsaError, match="imported with TRITON_INTERPRET=1"):
        isa.prepare()
    assert (os.environ.get("TRITON_INTERPRET"), JITFunction.__dict__["run"]) == before
    x = torch.randn(4, 64)
    got = mxlib.quantize_mxfp4(x, backend="triton")
    want = mxlib.quantize_mxfp4(x)
    assert all(torch.equal(g, w) for g, w in zip(got, want))


def test_listing_needs_one_path_and_one_shape(capsys):
    from mxlib.__main__ import main

    for path, shapes in (("all", "4x2880x512"), ("fused", "4x2880x512,16x2112x7168")):
        assert main(["isa", "--target", "gfx950", "--path", path, "--shapes", shapes, "--listing", "x"]) == 2
        out, err = capsys.readouterr()
        assert err.count("\n") == 1 and "--listing needs --path" in err, err


def test_isa_writes_the_recorded_csv_only_for_a_whole_run(monkeypatch, tmp_path):
    """The default CSV (data/results/...) holds the dispatcher on every contest shape: a run narrowed to some
    shapes or one path prints its rows and writes only where --out says."""
    from mxlib.__main__ import main
    from mxlib.tools import isa

    written = []
    monkeypatch.setattr(isa, "collect", lambda *args: [])
    monkeypatch.setattr(isa, "write_csv", lambda rows, out: written.append(out) or out)
    for args in (["--shapes", "4x2880x512"], ["--path", "fused"]):
        assert main(["isa", "--target", "gfx950", *args]) == 0 and written == []
    assert main(["isa", "--target", "gfx950", "--shapes", "4x2880x512", "--out", str(tmp_path / "x.csv")]) == 0
    assert main(["isa", "--target", "gfx950"]) == 0
    assert written == [tmp_path / "x.csv", isa.DEFAULT_OUT["gfx950"]]


def test_k_loop_sources_reads_the_listing_header():
    from mxlib.tools import isa

    listing = (
        "; source lines of the K loop (file:line: text):\n"
        ";   k.py:7: b = tl.load(b_ptr)\n"
        ";   k.py:9: acc = tl.dot_scaled(a, sa, 'e2m1', b, sb, 'e2m1', acc)\n"
        "\t.loc\t1 5 3                          ; k.py:5:3\n"
        ".LBB0_2:                                ; =>This Inner Loop Header: Depth=1\n"
        "\t.loc\t1 7 11                         ; k.py:7:11\n"
        "\tbuffer_load_dwordx4 v[0:3], v4, s[4:7], 0 offen\n"
        "\t.loc\t2 43 1                         ; standard.py:43:1 @[ k.py:9:3 ]\n"
        "\ts_add_i32 s0, s0, 1\n"
        "\t.loc\t1 9 9                          ; k.py:9:9\n"
        "\tv_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:7], v[8:11], v[0:3], v9, v8\n"
        "\ts_cbranch_scc1 .LBB0_2\n")
    got = isa.k_loop_sources(listing)
    assert [(ins.split()[0], loc, text) for ins, loc, text in got] == [
        ("buffer_load_dwordx4", "k.py:7", "b = tl.load(b_ptr)"),
        ("s_add_i32", "standard.py:43", ""),
        ("v_mfma_scale_f32_16x16x128_f8f6f4", "k.py:9", "acc = tl.dot_scaled(a, sa, 'e2m1', b, sb, 'e2m1', acc)"),
        ("s_cbranch_scc1", "k.py:9", "acc = tl.dot_scaled(a, sa, 'e2m1', b, sb, 'e2m1', acc)")]


def test_made_up_loops_end_at_their_back_branch_and_keep_inline_places():
    """AMDGCN: the loop runs to the branch back to its header, past a forward branch out of it; its source
    lines are listed by line number (9 before 10). PTX: a label inside the loop is no instruction, and
    Triton's inline asm is placed at the line that called it, its own .loc lines ignored, also after it."""
    from mxlib.tools import isa

    amdgcn = (";   k.py:9: acc = tl.dot_scaled(a, sa, 'e2m1', b, sb, 'e2m1', acc)\n"
              ";   k.py:10: b = tl.load(b_ptr)\n"
              "\t.loc\t1 5 3                          ; k.py:5:3\n"
              ".LBB0_2:                                ; =>This Inner Loop Header: Depth=1\n"
              "\t.loc\t1 10 11                        ; k.py:10:11\n"
              "\tbuffer_load_dwordx4 v[0:3], v4, s[4:7], 0 offen\n"
              "\ts_cbranch_execz .LBB0_4\n"
              "\t.loc\t1 9 9                          ; k.py:9:9\n"
              "\tv_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:7], v[8:11], v[0:3], v9, v8\n"
              "\ts_cbranch_scc1 .LBB0_2\n"
              ".LBB0_4:\n"
              "\ts_endpgm\n")
    assert [ins.split()[0] for ins in isa.k_loop_lines(amdgcn)] == [
        "buffer_load_dwordx4", "s_cbranch_execz", "v_mfma_scale_f32_16x16x128_f8f6f4", "s_cbranch_scc1"]
    excerpt = isa.amdgcn_loop_excerpt(amdgcn, ("buffer_load", "v_mfma"), header=0).split("\n")
    sources = excerpt[excerpt.index("source lines:") + 1:excerpt.index("source lines:") + 3]
    assert [line.split(": ")[0].strip() for line in sources] == ["k.py:9", "k.py:10"]

    ptx = ("\tmov.b32 %r1, 0;\n"
           "$L__BB0_1:\n"
           "\t.loc\t1 20 5                         // k.py:20:5\n"
           "\tld.global.b32 %r2, [%rd1];\n"
           "\t// begin inline asm\n"
           "\t.loc\t1 99 1                         // k.py:99:1\n"
           "\tprmt.b32 %r3, %r2, 0, 0;\n"
           "\t// end inline asm\n"
           "\tadd.s32 %r1, %r1, 1;\n"
           "$L__BB0_3:\n"
           "\t@%p1 bra $L__BB0_1;\n"
           "\tret;\n")
    assert [(ins.split()[0], loc) for ins, loc, _ in isa.k_loop_sources(ptx)] == [
        ("ld.global.b32", "k.py:20"), ("prmt.b32", "inline asm in k.py:20"), ("add.s32", "k.py:20"),
        ("@%p1", "k.py:20")]


def test_loop_source_lines_quote_the_checkouts_lines():
    """The header `listings` writes: each loop line's text from this checkout's copy of the file a `.file`
    directive names (another checkout's folder too), the last line of a file included; Triton's own files not."""
    from mxlib.tools import isa

    source = (ROOT / "mxlib" / "kernels" / "common.py").read_text().splitlines()
    last = len(source)
    asm = ('\t.file\t1 "/elsewhere/mxlib/kernels" "common.py"\n'
           '\t.file\t2 "/venv/triton/language" "standard.py"\n'
           ".LBB0_2:                                ; =>This Inner Loop Header: Depth=1\n"
           "\t.loc\t1 1 1                          ; common.py:1:1\n"
           "\ts_add_i32 s0, s0, 1\n"
           f"\t.loc\t1 {last} 1                          ; common.py:{last}:1\n"
           "\ts_add_i32 s1, s1, 1\n"
           "\t.loc\t2 40 1                         ; standard.py:40:1\n"
           "\ts_cbranch_scc1 .LBB0_2\n")
    assert isa._loop_source_lines(asm) == [("common.py:1", source[0].strip()),
                                           (f"common.py:{last}", source[-1].strip())]


def test_relative_paths_cut_folders_before_mxlib_and_triton():
    from mxlib.tools import isa

    text = ('\t.file\t1 "/home/me/src/mxlib/kernels" "gemm_fused.py"\n'
            '\t.file\t2 "/opt/venv/lib/python3.12/site-packages/triton/language" "standard.py"\n')
    assert isa._relative_paths(text) == ('\t.file\t1 "mxlib/kernels" "gemm_fused.py"\n'
                                         '\t.file\t2 "triton/language" "standard.py"\n')


# ---- notebook 02's readings of the recorded fused_fp4 listings (data/results/*/listings/) ----

GFX950_LISTING = ROOT / "data" / "results" / "mi355x" / "listings" / "fused_fp4_fp4_gemm_kernel_16x2112x7168_gfx950.s"
SM90_LISTING = ROOT / "data" / "results" / "h200" / "listings" / "fused_fp4_fp4_gemm_kernel_16x2112x7168_sm_90.ptx"
SHOWN = ("buffer_load", "ds_write", "ds_read", "v_perm", "v_mfma")


def _config(listing: str) -> dict:
    """The constexprs and options on a listing's second header line (`isa.listings` writes them)."""
    return dict(word.split("=", 1) for word in listing.splitlines()[1].split()[1:])


def _header_sources(listing: str, file: str = "gemm_fused_fp4.py") -> dict[int, str]:
    """{line number: source text} of `file`'s lines in a listing's header of K-loop source lines."""
    pattern = r"^(?:;|//)\s{3}" + re.escape(file) + r":(\d+): (.*)$"
    found = (re.match(pattern, line) for line in listing.splitlines()[:400])
    return {int(m.group(1)): m.group(2) for m in found if m}


def test_opcode_skips_a_guard_predicate():
    from mxlib.tools import isa

    assert isa.opcode("@%p1 bra $L__BB0_1;") == "bra"
    assert isa.opcode("@!%p2 ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd1];") == "ld.global.v4.b32"
    assert isa.opcode("v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:7], v[8:11], v[0:3], v9, v8") == \
        "v_mfma_scale_f32_16x16x128_f8f6f4"


def test_amdgcn_loop_excerpt_counts_the_recorded_loop():
    from mxlib.tools import isa

    listing = GFX950_LISTING.read_text()
    text = isa.amdgcn_loop_excerpt(listing, SHOWN)
    lines = text.split("\n")
    assert lines[:3] == [line[2:] for line in listing.splitlines()[:3]]
    assert lines[0].startswith("mxlib fused_fp4 path, 16x2112x7168, kernel _fp4_gemm_kernel")

    body = isa.k_loop_lines(listing)  # the loop counted straight from its instructions, no source lines
    summary = re.fullmatch(r"one iteration of one wave: (\d+) instructions, (\d+) barriers, (\d+) MFMAs", lines[-1])
    assert summary, lines[-1]
    n, barriers, mfmas = map(int, summary.groups())
    assert n == len(body)
    assert barriers == sum(ins.split()[0] == "s_barrier" for ins in body) > 0
    assert mfmas == sum(ins.startswith("v_mfma") for ins in body)
    # each wave's share of the BLOCK_M x BLOCK_N tile in 16x16 MFMA tiles, times BLOCK_K / 128 (K per MFMA)
    cfg = _config(listing)
    assert mfmas == (int(cfg["BLOCK_M"]) * int(cfg["BLOCK_N"]) // (int(cfg["num_warps"]) * 16 * 16)
                     * int(cfg["BLOCK_K"]) // 128)

    split = lines.index("source lines:")
    shown = [line for line in lines[3:split] if line]
    assert len(shown) == sum(ins.startswith(SHOWN) for ins in body)
    assert all(line[2:].startswith(SHOWN) and re.search(r" gemm_fused_fp4\.py:\d+$", line) for line in shown)
    sources = [line for line in lines[split + 1:-1] if line]
    assert {line.rsplit(" ", 1)[1] for line in shown} == {line.split(": ", 1)[0].strip() for line in sources}
    numbers = [int(line.split(":")[1]) for line in sources]
    assert numbers == sorted(numbers)
    header = _header_sources(listing)
    for line, number in zip(sources, numbers):
        assert header[number] == line.split(": ", 1)[1], line  # the header's text, whole

    only_mfma = isa.amdgcn_loop_excerpt(listing, ("v_mfma",)).split("\n")
    mfma_lines = [x for x in only_mfma[3:only_mfma.index("source lines:")] if x]
    assert len(mfma_lines) == mfmas
    # whole instructions, modifiers included (notebook 02 reads cbsz/blgp and op_sel off them)
    assert [x.rsplit(" ", 1)[0].strip() for x in mfma_lines] == [ins for ins in body if ins.startswith("v_mfma")]
    assert all("cbsz:4 blgp:4" in x for x in mfma_lines)


def test_ptx_loop_mix_groups_the_recorded_loop():
    from mxlib.tools import isa

    ptx = SM90_LISTING.read_text()
    loop = isa.k_loop_sources(ptx)
    body = [ins for ins in isa.k_loop_lines(ptx) if ins not in ("{", "}")]  # inline blocks' braces are no instructions
    assert len(loop) == len(isa.k_loop_lines(ptx))

    groups = isa.loop_groups(loop, isa.fused_fp4_sm90_groups())
    assert all(sum(mix.values()) > 0 for mix in groups.values())
    assert sum(sum(mix.values()) for mix in groups.values()) <= len(body)
    # inline PTX or not is a partition of the loop, and "any line, either" is the whole loop
    halves = isa.loop_groups(loop, {"inline": (None, True), "not inline": (None, False)})
    assert sum(halves["inline"].values()) + sum(halves["not inline"].values()) == len(body)
    assert isa.loop_groups(loop, {"all": (None, None)})["all"] == collections.Counter(isa.opcode(x) for x in body)
    assert halves["inline"]["mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"] == \
        sum(x.startswith("mma.sync") for x in body)  # the bf16 MMA is Triton's own inline PTX

    text = isa.ptx_loop_mix(ptx, {**isa.fused_fp4_sm90_groups(), "nowhere": ((1,), None)})
    lines = text.split("\n")
    assert lines[:2] == [line[3:] for line in ptx.splitlines()[:2]]
    for name, mix in groups.items():
        row = next(line for line in lines if line.startswith(f"  {name} "))
        assert int(re.search(r" (\d+) instructions: ", row).group(1)) == sum(mix.values()), row
        assert row.split(" instructions: ")[1].startswith(f"{mix.most_common(1)[0][0]} "), row
    assert f"  {'nowhere':<44}    0 instructions: " in lines

    summary = re.fullmatch(r"one iteration of one warp, all told: (\d+) instructions; "
                           r"(\d+) x mma\.sync\.m16n8k16 bf16, (\d+) byte permutes, (\d+) bf16 multiplies", lines[-1])
    assert summary, lines[-1]
    n, mma, prmt, mul = map(int, summary.groups())
    assert n == len(isa.k_loop_lines(ptx))
    ops = collections.Counter(isa.opcode(x) for x in body)
    assert (mma, prmt, mul) == (sum(n for op, n in ops.items() if op.startswith("mma.sync")), ops["prmt.b32"],
                                ops["mul.bf16"])
    # a warp's share of the BLOCK_M x BLOCK_N tile in m16n8 tiles, times BLOCK_K / 16 (K per mma.sync)
    cfg = _config(ptx)
    assert mma == (int(cfg["BLOCK_M"]) * int(cfg["BLOCK_N"]) // (16 * 8) * int(cfg["BLOCK_K"]) // 16
                   // int(cfg["num_warps"]))


def test_recorded_listings_quote_todays_source():
    """A listing is read against today's source (its groups, the notebook's line references): every line its
    header quotes must still be that line of today's file. A source change that moves them fails here until
    the listings are compiled again (`python -m mxlib isa ... --listing DIR`, the command in their header)."""
    for listing in (GFX950_LISTING.read_text(), SM90_LISTING.read_text()):
        quoted = {file: _header_sources(listing, file) for file in ("gemm_fused_fp4.py", "common.py")}
        assert quoted["gemm_fused_fp4.py"] and quoted["common.py"]
        for file, lines in quoted.items():
            today = (ROOT / "mxlib" / "kernels" / file).read_text().splitlines()
            for number, text in lines.items():
                assert today[number - 1].strip() == text.strip(), f"{file}:{number}: listing {text!r}, today {today[number - 1]!r}"


def test_fused_fp4_sm90_groups_resolve_their_places():
    """The groups name functions and lines by their text; resolved, they are the lines the listing quotes."""
    from mxlib.tools import isa

    header = _header_sources(SM90_LISTING.read_text())
    common = _header_sources(SM90_LISTING.read_text(), "common.py")
    groups = isa.fused_fp4_sm90_groups()
    (b_name, (b_lines, b_inline)), (a_name, (a_lines, a_inline)), (ptx_name, ptx), (dot_name, (dot_lines, dot_inline)) \
        = groups.items()
    b_own = [n for n in b_lines if isinstance(n, int)]
    assert len(b_own) == 2 and "tl.load(b_ptr" in header[b_own[0]] and "tl.load(s_ptr" in header[b_own[1]]
    assert b_name == f"B tile and scales (lines {b_own[0]}, {b_own[1]})" and b_inline is None
    scale_col = next(n for n, text in common.items() if "(g // 8) * 256" in text)
    assert f"common.py:{scale_col}" in b_lines
    # A's group: the quantizer function whole (every line the header quotes up to its packed return), the load
    a_own = [n for n in a_lines if isinstance(n, int)]
    ret = next(n for n, text in header.items() if text.startswith("return packed"))
    assert {n for n in header if n <= ret} <= set(a_own) and not any(ret < n < b_own[0] for n in header)
    assert any("tl.load(a_base" in header[n] for n in a_own if n in header) and a_inline is False
    quantizer = isa.source_place_lines("def", "gemm_fused_fp4.py", "_fp4_quantize")
    assert a_name.startswith(f"A loaded and quantized (lines {quantizer[0]}-{quantizer[-1]}, ")
    # every common.py line the header quotes is A's but the scale column's
    assert {f"common.py:{n}" for n in common} - {f"common.py:{scale_col}"} <= set(a_lines)
    assert not {f"common.py:{n}" for n in common} - {f"common.py:{scale_col}"} & set(b_lines)
    assert ptx == (None, True) and ptx_name.startswith("Triton's inline PTX")
    assert len(dot_lines) == 1 and "tl.dot_scaled(" in header[dot_lines[0]] and dot_inline is False
    assert dot_name == f"dot_scaled's scaling and MMA (line {dot_lines[0]})"


def test_source_places_must_name_one_line():
    from mxlib.tools import isa

    with pytest.raises(isa.IsaError, match="2 lines of mxlib/kernels/gemm_fused_fp4.py hold 'acc = tl.dot_scaled\\('"):
        isa.source_place_lines("line", "gemm_fused_fp4.py", "acc = tl.dot_scaled(")
    with pytest.raises(isa.IsaError, match="no function 'nowhere'"):
        isa.source_place_lines("def", "common.py", "nowhere")
    source = (ROOT / "mxlib" / "kernels" / "gemm_fused_fp4.py").read_text().splitlines()
    (line,) = isa.source_place_lines("line", "gemm_fused_fp4.py", "x = tl.load(a_base")
    assert "x = tl.load(a_base" in source[line - 1]
    body = isa.source_place_lines("def", "gemm_fused_fp4.py", "_fp4_quantize")
    assert source[body[0] - 1].startswith("def _fp4_quantize(") and source[body[-1]].strip() == ""


def test_loop_groups_match_file_and_line():
    """A number is a line of gemm_fused_fp4.py, a string names its file: Triton's standard.py:196 is not line 196."""
    from mxlib.tools import isa

    loop = [("max.u32 %r1, %r2, %r3;", "standard.py:196", ""), ("add.s64 %rd1, %rd2, %rd3;", "gemm_fused_fp4.py:196", ""),
            ("cp.async.cg.shared.global [%r1], [%rd1], 16;", "inline asm in gemm_fused_fp4.py:196", ""),
            ("shl.b32 %r4, %r5, 2;", "common.py:105", "")]
    got = isa.loop_groups(loop, {"b": ((196, "common.py:105"), None), "own": ((196,), False)})
    assert got["b"] == collections.Counter({"add.s64": 1, "cp.async.cg.shared.global": 1, "shl.b32": 1})
    assert got["own"] == collections.Counter({"add.s64": 1})


def test_spill_store_bytes_reads_sass_local_stores():
    """ptxas spills to the stack frame with STL; their bytes are what `ptxas -v` calls "bytes spill stores"."""
    from mxlib.tools import isa

    sass = ("        /*00f0*/                   STL [R1+0x264], R30 ;\n"
            "        /*0130*/                   STL.64 [R1+0x3a8], R2 ;\n"
            "        /*0140*/                   STL.128 [R1+0x10], R4 ;\n"
            "        /*0150*/                   LDL R3, [R1+0x264] ;\n"
            "        /*0160*/                   STG.E [R2.64], R5 ;\n")
    assert isa.spill_store_bytes(sass) == 4 + 8 + 16 and isa.spill_store_bytes("") == 0
    with pytest.raises(RuntimeError, match="unknown width in SASS: STL.96"):
        isa.spill_store_bytes("  STL.96 [R1], R2 ;\n")


def test_stores_released_needs_write_back_then_wait_before_one_lanes_code():
    """A store counts as released only when the wave writes L2 back (buffer_wbl2) and then waits for its own
    stores (vmcnt(0)) before the first s_and_saveexec; stores of other source lines are not looked at."""
    from mxlib.tools import isa

    def listing(*after, where="gemm_fused.py:300"):
        return "\n".join([f"\t.loc\t1 300 7 ; {where}:7", "\tglobal_store_dwordx4 v[2:3], v[4:7], off",
                          "\t.loc\t1 301 7 ; gemm_fused.py:301:7", *(f"\t{op}" for op in after)])

    line, one_lane = "gemm_fused.py:300", "s_and_saveexec_b64 s[0:1], vcc"
    assert isa.amdgcn_stores_released(listing("buffer_wbl2 sc1", "s_waitcnt vmcnt(0)", one_lane), line) == [True]
    for after in (("s_waitcnt vmcnt(0)", "buffer_wbl2 sc1", one_lane),  # waited, then wrote back
                  ("buffer_wbl2 sc1", one_lane, "s_waitcnt vmcnt(0)"),  # the wait after one lane's code
                  ("buffer_wbl2 sc1", "s_waitcnt lgkmcnt(0)"),  # no wait for the stores
                  (one_lane, "buffer_wbl2 sc1", "s_waitcnt vmcnt(0)")):
        assert isa.amdgcn_stores_released(listing(*after), line) == [False], after
    assert isa.amdgcn_stores_released(listing("buffer_wbl2 sc1", where="gemm_fused.py:299"), line) == []
    assert isa.amdgcn_stores_released(listing().replace("global_store", "buffer_store"), line) == [False]


def test_sm90_spilling_kernel_is_recorded_as_spilling(tmp_path):
    """Two configs of the recorded H200 sweep compiled now for sm_90: the split-K kernel with 32x128 tiles
    runs out of registers and spills (ptxas puts spills in the stack frame, which cuobjdump's LOCAL does not
    count), the 16x128 one does not. (splitk_sweep_residency.csv holds the kernel the sweep timed, an
    earlier source: its README row says how it was compiled.)"""
    sweep, recorded = (occ.RESULTS_DIR / "h200" / name for name in ("splitk_sweep.csv", "splitk_sweep_residency.csv"))
    keys = ("m", "tile_m", "tile_n", "split_k")
    picked = {("16", "16", "128", "7"), ("16", "32", "128", "7")}
    with open(sweep, newline="") as f:
        reader = csv.DictReader(f)
        rows = [r for r in reader if tuple(r[k] for k in keys) in picked]
    assert len(rows) == 2
    with open(tmp_path / "sweep.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=reader.fieldnames, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    res = _isa("--sweep", str(tmp_path / "sweep.csv"), "--target", "sm_90", "--out", str(tmp_path / "res.csv"))
    assert res.returncode == 0, res.stderr[-2000:]
    now = {r["tile_m"]: r for r in _rows(tmp_path / "res.csv")}
    assert int(now["32"]["registers"]) == 255 and int(now["32"]["spill_bytes"]) > 0, now["32"]
    assert int(now["16"]["spill_bytes"]) == 0, now["16"]
    # the timed kernel spilled too at 32x128, less (the recorded compile of its source)
    spilled = {r["tile_m"]: int(r["spill_bytes"]) for r in _rows(recorded) if tuple(r[k] for k in keys) in picked}
    assert spilled["32"] > 0 and spilled["16"] == 0, spilled
    # a row whose CTA count no launch of today's path has (a CSV of another version) is named, not a StopIteration
    with open(tmp_path / "other.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=reader.fieldnames, lineterminator="\n")
        w.writeheader()
        w.writerow({**rows[0], "ctas": str(int(rows[0]["ctas"]) + 1)})
    res = _isa("--sweep", str(tmp_path / "other.csv"), "--target", "sm_90", "--out", str(tmp_path / "other_res.csv"))
    assert res.returncode == 2 and "no launch of" in res.stderr and "StopIteration" not in res.stderr, res.stderr[-2000:]
    assert not (tmp_path / "other_res.csv").exists()


def test_isa_occupancy_column_is_the_compilers_and_gfx950s_only():
    """`occupancy` is the compiler's own waves per SIMD, so it is filled on gfx950 and empty on sm_90 (whose
    residency is ctas_per_unit); it equals the VGPR arithmetic except where a waves_per_eu hint caps it."""
    for name in ("isa_sm90.csv", "isa_sm90_all_paths.csv"):
        rows = _rows(occ.RESULTS_DIR / "h200" / name)
        assert rows and all(r["occupancy"] == "" and r["ctas_per_unit"] for r in rows if not r["note"]), name
    hinted = []
    for name in ("isa.csv", "isa_seed.csv"):
        for r in _rows(occ.RESULTS_DIR / "mi355x" / name):
            if not r["occupancy"]:
                continue
            res = occ.residency(occ.KernelResources("gfx950", int(r["num_warps"]), int(r["vgprs"]), int(r["agprs"]), 0))
            if r["waves_per_eu"] in ("", "0"):
                assert res.waves_per_simd == int(r["occupancy"]), r
            elif res.waves_per_simd != int(r["occupancy"]):
                hinted.append((r["kernel"], int(r["waves_per_eu"]), int(r["occupancy"]), res.waves_per_simd))
    # the one UNIT_LIMITS names: the seed's split-K GEMM, hint 2, compiler 2, VGPRs allow 4
    assert ("_gemm_afp4_wfp4_kernel_preshuffled_weight_scales", 2, 2, 4) in hinted


@pytest.mark.parametrize("target, recorded", [("gfx950", "mi355x/isa_all_paths.csv"),
                                              ("sm_90", "h200/isa_sm90_all_paths.csv")])
def test_recorded_compiled_facts_are_todays(tmp_path, target, recorded):
    """The notebooks print registers, LDS, spills and matrix instructions from these records: compiled again
    now, by the Triton release that made them, every path on every contest shape must give the same facts. A
    kernel or config change fails here until the record is compiled again (its README row's command)."""
    import triton

    rows = _rows(occ.RESULTS_DIR / recorded)
    made_by = {r["triton"] for r in rows}
    if made_by != {triton.__version__}:
        pytest.skip(f"{recorded} was compiled by Triton {sorted(made_by)}, this is {triton.__version__}")
    out = tmp_path / "now.csv"
    res = _isa("--target", target, "--path", "all", "--out", str(out), timeout=900)
    assert res.returncode == 0, res.stderr[-2000:]
    key = ("shape", "path", "kernel")
    then = {tuple(r[k] for k in key): r for r in rows}
    now = {tuple(r[k] for k in key): r for r in _rows(out)}
    assert set(now) == set(then)
    facts = [c for c in rows[0] if c not in ("source", "date")]
    stale = [(k, c, then[k][c], now[k][c]) for k in then for c in facts if then[k][c] != now[k][c]]
    assert not stale, f"{recorded} is stale (shape/path/kernel, column, recorded, now): {stale[:5]}"


def test_isa_sweep_refuses_a_csv_that_is_no_sweep_and_writes_nothing(tmp_path, capsys):
    from mxlib.__main__ import main

    bad = tmp_path / "bench.csv"
    bad.write_text("kind,m,n,k\nbenchmark,4,2880,512\n")
    assert main(["isa", "--target", "sm_90", "--sweep", str(bad)]) == 2
    assert "is not a sweep CSV" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bench.csv"]
    unchecked = tmp_path / "sweep.csv"
    unchecked.write_text("m,n,k,seed,path,tile_m,tile_n,block_k,split_k,num_warps,num_stages,ctas,ok\n"
                         "4,2880,512,1,splitk,16,64,256,1,4,2,45,0\n")
    assert main(["isa", "--target", "sm_90", "--sweep", str(unchecked)]) == 2
    assert "has no checked row" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bench.csv", "sweep.csv"]


def test_isa_shapes_read_as_every_shapes_option_reads_them():
    """MxNxK through spec.shapes.parse_mnk (so X and spaces as in sweep and harness), then held to the contest's."""
    from mxlib.tools import isa

    assert isa._parse_shapes(" 16X2112x7168,4x2880x512") == {(16, 2112, 7168), (4, 2880, 512)}
    for bad in ("1x2x3", "16x2112", ",", "16x2112x7168,junk"):
        with pytest.raises(isa.IsaError, match="--shapes must list contest shapes as MxNxK"):
            isa._parse_shapes(bad)
