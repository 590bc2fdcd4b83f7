"""Every Triton GEMM path against the contest check, on the golden cases and fresh random shapes.

Outputs are passed in as `out=` filled with NaN, so an element a kernel fails to write shows up.
On a machine without a GPU the kernels run in Triton's interpreter; the inputs are the contest's
bf16 tensors as they are (the kernels never cast bf16 to fp32, so the interpreter's bf16 cast bug,
KERNEL_NOTES.md, "Triton on sm_90 and in the interpreter", is not on their path).
"""
import dataclasses
import os
import random
import subprocess
import sys
import textwrap

import pytest
import torch
import triton
import triton.language as tl

import mxlib
from mxlib.kernels.common import mx_f32_to_bf16
from mxlib.runtime.paths import PATHS, path_available, path_module, path_zero_scale_operands
from mxlib.spec.reference import check_exact, check_implementation, generate_input

from . import golden
from .helpers import fresh_seed, run_into_nan

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
# The paths that can run here (mma_sm90 needs a Hopper GPU and nvcc; tests/test_gemm_mma_sm90.py covers it).
PATH_NAMES = sorted(p for p in PATHS if path_available(p, DEVICE)[0])


def run(path: str, data, config=None, rounding="rne") -> torch.Tensor:
    a, _, _, b_shuffle, b_scale_sh = data
    return run_into_nan(path_module(path).gemm, a, b_shuffle, b_scale_sh, config, rounding)


def on_device(data):
    return tuple(t.to(DEVICE) for t in data)


def assert_ok(data, out, rounding="rne", what=""):
    ok, msg = check_implementation(data, out, rounding)
    assert ok, f"{what}: {msg}"


@pytest.mark.parametrize("path", PATH_NAMES)
def test_golden_cases(golden_dir, path):
    for name in golden.gemm_cases(golden_dir, "rne"):
        data = on_device(golden.contest_tuple(golden.load(golden_dir, "rne", name)))
        out = run(path, data)
        assert_ok(data, out, what=f"{path} {name}")
        ok, msg = check_exact(data, out, "rne", path_zero_scale_operands(path, DEVICE))  # the contest's rtol is 1e-2
        assert ok, f"{path} {name}: {msg}"


@pytest.mark.parametrize("path", PATH_NAMES)
def test_random_small_shapes(path):
    """Fresh shapes each run: M = 1, an odd M, N = 16, and one drawn at random."""
    rng = random.SystemRandom()
    m = rng.randrange(3, 48, 2)
    shapes = [(1, 16, 64), (m, 16, 128), (rng.randrange(1, 70), 16 * rng.randrange(1, 9), 64 * rng.randrange(1, 6))]
    for mm, n, k in shapes:
        seed = fresh_seed()
        data = generate_input(mm, n, k, seed, device=DEVICE)
        assert_ok(data, run(path, data), what=f"{path} {mm}x{n}x{k} seed {seed}")


@pytest.mark.parametrize("path", PATH_NAMES)
def test_ties_away(path):
    """The rounding argument reaches A's quantization (B comes quantized with the same rule)."""
    data = generate_input(5, 48, 192, fresh_seed(), device=DEVICE, rounding="ties_away")
    assert_ok(data, run(path, data, rounding="ties_away"), "ties_away", path)


@pytest.mark.parametrize("path,fields", [
    ("asm", dict(block_m=64, block_n=16, block_k=64)),
    ("asm", dict(block_m=16, block_n=32, block_k=512)),  # BLOCK_K past K: dead groups masked
    ("ck", dict(block_m=16, block_n=16, block_k=128, group_m=2)),  # 3 row tiles: groups of 2 and 1
    ("ck", dict(block_m=32, block_n=64, block_k=64, group_m=1)),
])
def test_tile_configs(path, fields):
    """Tiles larger and smaller than the problem, grouped orders whose last group is short."""
    data = generate_input(37, 80, 320, fresh_seed(), device=DEVICE)
    cfg = path_module(path).Config(**fields)
    assert_ok(data, run(path, data, cfg), what=f"{path} {fields}")


@pytest.mark.parametrize("split_k", [1, 2, 3, 7, 40])
def test_splitk_any_split_count(split_k):
    """K = 640 is 20 groups: splits of uneven length, and 40 > 20 (empty ranges add zero)."""
    data = generate_input(9, 48, 640, fresh_seed(), device=DEVICE)
    cfg = path_module("splitk").Config(block_k=64, split_k=split_k)
    out = run("splitk", data, cfg)
    assert_ok(data, out, what=f"split_k={split_k}")
    assert torch.equal(out, run("splitk", data, cfg))  # the reduction's order is fixed


@pytest.mark.parametrize("path", PATH_NAMES)
def test_fresh_output_each_call(path):
    data = generate_input(3, 32, 64, fresh_seed(), device=DEVICE)
    mod = path_module(path)
    first = mod.gemm(data[0], data[3], data[4])
    second = mod.gemm(data[0], data[3], data[4])
    assert first.data_ptr() != second.data_ptr()
    assert first.dtype == torch.bfloat16 and first.shape == (3, 32)
    assert torch.equal(first, second)


@pytest.mark.parametrize("path", PATH_NAMES)
def test_nan_blocks_propagate(path):
    """mxlib's rule: a NaN in A makes its block scale NaN, so that output row is NaN, like the reference."""
    a, b, b_q, b_shuffle, b_scale_sh = generate_input(4, 32, 128, fresh_seed(), device=DEVICE)
    a = a.clone()
    a[2, 70] = float("nan")
    data = (a, b, b_q, b_shuffle, b_scale_sh)
    out = run(path, data)
    assert out[2].isnan().all() and not out[[0, 1, 3]].isnan().any()
    assert_ok(data, out, what=path)


@pytest.mark.parametrize("path", PATH_NAMES)
def test_fp4x2_dtype_views(path):
    """aiter hands out B as torch's fp4x2 / e8m0 dtypes: read as the same bytes."""
    if not (hasattr(torch, "float4_e2m1fn_x2") and hasattr(torch, "float8_e8m0fnu")):
        pytest.skip("this torch has no fp4x2 / e8m0 dtypes")
    data = generate_input(2, 16, 64, fresh_seed(), device=DEVICE)
    out = path_module(path).gemm(data[0], data[3].view(torch.float4_e2m1fn_x2), data[4].view(torch.float8_e8m0fnu))
    assert_ok(data, out, what=path)


@pytest.mark.gpu
@pytest.mark.parametrize("path", PATH_NAMES)
@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices")
def test_operands_on_a_device_that_is_not_current_run_there(path):
    """Triton launches on the current device, not the operands': every path makes the operands' device
    current for its launches, so tensors on the second GPU give the right C while the first is current, and
    the current device is as it was afterwards (split-K, with counters and a workspace, included)."""
    torch.cuda.set_device(0)
    for m, n, k in ((16, 256, 2048), (40, 128, 512)):
        data = generate_input(m, n, k, fresh_seed(), device="cuda:1")
        out = run(path, data, path_module(path).default_config(m, n, k))
        torch.cuda.synchronize(1)
        assert out.device == torch.device("cuda", 1) and torch.cuda.current_device() == 0
        assert_ok(data, out, what=f"{path} {m}x{n}x{k} on cuda:1")


def test_a_launch_on_another_devices_operands_makes_that_device_current(monkeypatch):
    """`mx_launch_device`: no device change for the CPU and for the current CUDA device
    (`torch.cuda.device(-1)`); `torch.cuda.device(device)` for another CUDA device (CPU: the devices stood in
    by hand)."""
    from mxlib.kernels.common import mx_launch_device

    with mx_launch_device(torch.device("cpu")):  # the real no-op context, on a machine with or without a GPU
        pass
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    monkeypatch.setattr(torch.cuda, "device", lambda d: ("made current", d))
    assert mx_launch_device(torch.device("cpu")) == ("made current", -1)
    assert mx_launch_device(torch.device("cuda", 0)) == ("made current", -1)
    assert mx_launch_device(torch.device("cuda", 1)) == ("made current", torch.device("cuda", 1))


def test_grid_counts():
    m, n, k = 16, 2112, 7168
    sk = path_module("splitk")
    cfg = sk.Config(block_m=16, block_n=128, split_k=7)
    quant = triton.cdiv(m * (k // 32), 64)
    assert sk.grid(m, n, k, cfg) == quant + 17 * 7 + triton.cdiv(m * n, 1024)
    assert sk.grid(m, n, k, dataclasses.replace(cfg, split_k=1)) == quant + 17
    asm = path_module("asm")
    # fused quant+shuffle: 16 real rows x 224 columns quantized, 240 padding rows x 224 filled
    assert asm.grid(m, n, k, asm.Config(block_m=16)) == triton.cdiv(16 * 224, 64) + triton.cdiv(240 * 224, 1024) + 17
    for name in PATH_NAMES:
        mod = path_module(name)
        c = mod.default_config(m, n, k)
        assert isinstance(c, mod.Config) and mod.grid(m, n, k, c) > 0
        for field in ("block_m", "block_n", "block_k", "split_k", "num_warps", "num_stages"):
            assert isinstance(getattr(c, field), int)
        with pytest.raises(dataclasses.FrozenInstanceError):
            c.block_m = 32


class _LaunchRecorder:
    """Stands in for a Triton kernel: records each launch grid, then launches the real kernel."""

    def __init__(self, kernel):
        self.kernel, self.grids = kernel, []

    def __getitem__(self, grid):
        self.grids.append(grid)
        return self.kernel[grid]


@pytest.mark.parametrize("path,fields,want", [
    # aiter's ASM launch: grid x = the N tiles (5 of 16), y = the M tiles (3 of 16)
    ("asm", dict(block_m=16, block_n=16, block_k=64), (5, 3)),
    ("ck", dict(block_m=16, block_n=16, block_k=64, group_m=2), (15,)),  # CK's order: one dimension
])
def test_tiled_launch_grid(monkeypatch, path, fields, want):
    """The grid each tiled path launches, recorded at the launch, and the output it gives."""
    from mxlib.kernels import gemm_tiled

    cfg = path_module(path).Config(**fields)
    assert gemm_tiled.tiled_launch(37, 80, cfg) == want
    recorder = _LaunchRecorder(gemm_tiled._tiled_kernel)
    monkeypatch.setattr(gemm_tiled, "_tiled_kernel", recorder)
    data = generate_input(37, 80, 128, fresh_seed(), device=DEVICE)
    assert_ok(data, run(path, data, cfg), what=f"{path} {fields}")
    assert recorder.grids == [want]


def test_bad_configs():
    with pytest.raises(ValueError, match="asm Config.block_m must be a power of two >= 16, got 24"):
        path_module("asm").Config(block_m=24)
    with pytest.raises(ValueError, match=r"ck Config.split_k must be 1 \(this path does not split K\), got 2"):
        path_module("ck").Config(split_k=2)
    with pytest.raises(ValueError, match="splitk Config.split_k must be a positive integer, got 0"):
        path_module("splitk").Config(split_k=0)
    with pytest.raises(ValueError, match="splitk Config.block_k must be a power of two >= 32, got 16"):
        path_module("splitk").Config(block_k=16)
    path_module("splitk").Config(num_warps=16)
    with pytest.raises(ValueError, match="splitk Config.num_warps must be 1, 2, 4, 8 or 16, got 32"):
        path_module("splitk").Config(num_warps=32)
    with pytest.raises(ValueError, match="splitk Config.num_stages must be a positive integer, got 0"):
        path_module("splitk").Config(num_stages=0)
    with pytest.raises(ValueError, match="ck Config.group_m must be a positive integer, got 0"):
        path_module("ck").Config(group_m=0)
    data = generate_input(2, 16, 64, 3, device=DEVICE)
    with pytest.raises(TypeError, match="gemm_asm.Config"):
        path_module("asm").gemm(data[0], data[3], data[4], config=path_module("ck").Config())


@pytest.mark.parametrize("path", PATH_NAMES)
def test_bad_inputs(path):
    gemm = path_module(path).gemm
    a, _, _, bs, bsc = generate_input(4, 32, 128, 4, device=DEVICE)
    with pytest.raises(TypeError, match="a must be bfloat16"):
        gemm(a.to(torch.int32), bs, bsc)
    with pytest.raises(TypeError, match="b_shuffle must hold bytes"):
        gemm(a, bs.to(torch.int16), bsc)
    with pytest.raises(ValueError, match=r"a.shape\[1\] \(K\) must be a positive multiple of 64, got 96"):
        gemm(a[:, :96], bs[:, :48], bsc)
    with pytest.raises(ValueError, match=r"b_shuffle.shape\[0\] \(N\) must be a positive multiple of 16, got 24"):
        gemm(a, bs[:24], bsc)
    with pytest.raises(ValueError, match=r"a and b_shuffle disagree on K: .*it must be \(N, K/2\)"):
        gemm(a, bs[:, :32], bsc)
    with pytest.raises(ValueError, match=r"b_scale_sh must have shape \(ceil256\(N\), ceil8\(K/32\)\) = \(256, 8\), got \(256, 4\)"):
        gemm(a, bs, bsc[:, :4])
    with pytest.raises(ValueError, match="b_shuffle must be contiguous"):
        gemm(a, bs.t().contiguous().t(), bsc)
    with pytest.raises(ValueError, match=r"out must be a contiguous bfloat16 \(4, 32\) tensor on .*, got torch.bfloat16 \(4, 16\)"):
        gemm(a, bs, bsc, out=torch.empty((4, 16), dtype=torch.bfloat16, device=DEVICE))
    with pytest.raises(ValueError, match=r"out must be a contiguous bfloat16 \(4, 32\) tensor on .*, got torch.float32 \(4, 32\)"):
        gemm(a, bs, bsc, out=torch.empty((4, 32), dtype=torch.float32, device=DEVICE))
    with pytest.raises(ValueError, match=r"out must be a contiguous bfloat16 \(4, 32\) tensor on .*, got .* on meta"):
        gemm(a, bs, bsc, out=torch.empty((4, 32), dtype=torch.bfloat16, device="meta"))
    with pytest.raises(ValueError, match="rounding must be one of 'rne', 'ties_away', got 'up'"):
        gemm(a, bs, bsc, rounding="up")
    with pytest.raises(ValueError, match=r"a must be 2-D, got shape \(128,\)"):
        gemm(a[0], bs, bsc)
    # A view whose rows lie 2**30 elements apart (no memory behind it: the check must come before any read).
    far = torch.empty(0, dtype=torch.bfloat16, device=DEVICE).set_(torch.UntypedStorage(0, device=DEVICE), 0,
                                                                   (4, 128), (2**30, 1))
    with pytest.raises(ValueError, match=r"needs offsets past 2\*\*31"):
        gemm(far, bs, bsc)
    if DEVICE == "cuda":
        with pytest.raises(ValueError, match="same device"):
            gemm(a.cpu(), bs, bsc)


@pytest.mark.parametrize("path", PATH_NAMES)
def test_cpu_tensors_without_the_interpreter_are_refused_by_name(path, monkeypatch):
    """With TRITON_INTERPRET unset, CPU operands are refused by the path itself, naming the argument and the
    rule, before Triton sees them."""
    a, _, _, bs, bsc = generate_input(4, 32, 128, 4)
    monkeypatch.setitem(os.environ, "TRITON_INTERPRET", "0")
    with pytest.raises(ValueError, match="a is on cpu: the Triton kernels need a CUDA/ROCm tensor, or a CPU tensor with "
                                         "TRITON_INTERPRET=1"):
        path_module(path).gemm(a, bs, bsc)


def test_registry():
    assert {"asm", "ck", "splitk"} <= set(mxlib.PATHS)
    for name in PATHS:
        mod = path_module(name)
        for attr in ("gemm", "Config", "default_config", "grid"):
            assert callable(getattr(mod, attr))
    with pytest.raises(ValueError, match="path must be one of"):
        path_module("cublas")


# Compiles the shipped kernels for an H200 (sm_90) with Triton's own compiler, no GPU needed: catches
# what the interpreter cannot (the compiler's typing and lowering). Pointers and Kb get the divisibility
# attribute the launcher would give them (torch allocations are 16-byte aligned; Kb is a multiple of 32).
_SM90_COMPILE = textwrap.dedent("""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    from mxlib.kernels import gemm_fused, gemm_splitk, gemm_tiled, quant_triton

    def build(fn, types, consts, mma=False, **opts):
        sig = dict(zip(fn.arg_names, types))
        sig.update({name: "constexpr" for name in consts})
        aligned = {(i,): [["tt.divisibility", 16]] for i, t in enumerate(types) if t.startswith("*")}
        if "Kb" in fn.arg_names:
            aligned[(fn.arg_names.index("Kb"),)] = [["tt.divisibility", 16]]
        kernel = triton.compile(ASTSource(fn, sig, consts, aligned), target=GPUTarget("cuda", 90, 32), options=opts)
        assert not mma or "mma" in kernel.asm["ptx"], f"{fn.__name__}: no tensor-core instruction"
        print("compiled", fn.__name__, consts)

    gemm = ["*u8"] * 4 + ["*bf16"] + ["i32"] * 5
    # the asm path's tile order (GROUP_M=0) and the ck path's (GROUP_M=8)
    tiles = dict(BLOCK_M=16, BLOCK_N=32, BLOCK_K=64, GROUP_M=0), dict(BLOCK_M=64, BLOCK_N=64, BLOCK_K=64, GROUP_M=8)
    for consts in tiles:
        build(gemm_tiled._tiled_kernel, gemm, consts, True, num_warps=4, num_stages=2)
    split = ["*u8"] * 4 + ["*fp32"] + ["i32"] * 6
    build(gemm_splitk._splitk_kernel, split, dict(PARTIAL=True, BLOCK_M=16, BLOCK_N=32, BLOCK_K=64), True, num_warps=4)
    build(gemm_splitk._splitk_reduce, ["*fp32", "*bf16", "i32", "i32"], dict(BLOCK=1024), num_warps=4)
    for x, kind in (("*i16", 0), ("*fp16", 1), ("*i32", 2)):
        build(quant_triton._mxq_kernel, [x, "*u8", "*u8"] + ["i32"] * 7,
              dict(X_KIND=kind, SHUFFLED=kind != 2, TIES_AWAY=kind == 1, BLOCKS=64, PAD=1024), num_warps=4)
    # The fused kernel's GPU form (A as a bf16 dot_scaled operand), which the interpreter never runs.
    fused = ["*bf16", "*u8", "*u8", "*bf16", "*fp32", "*i64", "*bf16", "*u8", "*i64"] + ["i32"] * 8 + ["i64"]
    build(gemm_fused._fused_gemm_kernel, fused,
          dict(BLOCK_M=64, BLOCK_N=64, BLOCK_K=128, SPLIT_K=2, EVEN_K=True, TIES_AWAY=False, A_ONCE=True,
               MAX_ITERS=8, A_E4M3=False, A_QUANTIZED=False, TIMELINE=False, RELEASE_THREADS=0), True, num_warps=4, num_stages=3)
""")


@pytest.mark.skipif(torch.cuda.is_available(), reason="on a GPU the other tests compile and run the kernels")
def test_kernels_compile_for_sm90():
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-c", _SM90_COMPILE], env=env, cwd=root, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert proc.stdout.count("compiled") == 8


@pytest.mark.parametrize("how", PATH_NAMES + ["torch", "triton", "op"])
def test_empty_a_gives_empty_c(how):
    """M = 0 is a valid input: an empty (0, N) bf16 result from every path, backend and the op."""
    a, b, b_q, b_shuffle, b_scale_sh = generate_input(4, 32, 128, 1, device=DEVICE)
    data = (a[:0], b, b_q, b_shuffle, b_scale_sh)
    if how == "op":
        out = torch.ops.mxlib.mxfp4_gemm(a[:0], b_shuffle, b_scale_sh, "", "rne")
    elif how in PATHS:
        out = path_module(how).gemm(a[:0], b_shuffle, b_scale_sh)
    else:
        out = mxlib.custom_kernel(data, backend=how)
    assert out.shape == (0, 32) and out.dtype == torch.bfloat16 and out.device == a.device


@triton.jit
def _round_probe(x_ptr, y_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(x_ptr + o).to(tl.float32, bitcast=True)
    tl.store(y_ptr + o, mx_f32_to_bf16(x))


def test_kernels_round_fp32_to_bf16_like_torch():
    """`mx_f32_to_bf16`, every path's output rounding, bit for bit against torch on random fp32 bits, exact
    ties and NaNs (CUDA's usual 0x7FFFFFFF must stay NaN, not become -0.0)."""
    g = torch.Generator().manual_seed(fresh_seed())
    bits = torch.randint(-2**31, 2**31 - 1, (4096,), dtype=torch.int64, generator=g).to(torch.int32)
    ties = (torch.randint(0, 2**15, (1024,), generator=g, dtype=torch.int32) << 16) | 0x8000
    special = torch.tensor([0x7FFFFFFF, -1, 0x7F800001, 0x7F7FFFFF, 0x00008000, 0x00018000, 0x80008000 - 2**32],
                           dtype=torch.int32)
    u = torch.cat([bits, ties, special])
    n = triton.next_power_of_2(u.numel())
    x = torch.zeros(n, dtype=torch.int32, device=DEVICE)
    x[: u.numel()] = u.to(DEVICE)
    y = torch.empty(n, dtype=torch.bfloat16, device=DEVICE)
    _round_probe[(1,)](x, y, N=n)
    got, want = y[: u.numel()].cpu(), u.view(torch.float32).to(torch.bfloat16)
    same = (got.view(torch.int16) == want.view(torch.int16)) | (got.isnan() & want.isnan())
    assert same.all(), (u[~same][:5].tolist(), got[~same][:5], want[~same][:5])


@pytest.mark.parametrize("path", PATH_NAMES)
def test_output_bits_on_bf16_ties(path):
    """Sums exact in fp32 whose bf16 rounding is a tie (tests/test_reference.py's `_tie_data`): every path's
    bits are the reference's, which a path that truncates or rounds half up would not give."""
    from .test_reference import _tie_data

    data = tuple(t.to(DEVICE) for t in _tie_data())
    got = path_module(path).gemm(data[0], data[3], data[4]).cpu()
    want = mxlib.ref_kernel(tuple(t.cpu() for t in data))
    assert torch.equal(got.view(torch.int16), want.view(torch.int16)), (path, got[:, 0], want[:, 0])


@pytest.mark.parametrize("path", PATH_NAMES)
def test_scale_padding_is_never_read(path):
    """B_scale_sh's padding (rows past N, columns past K/32: aiter leaves it uninitialised) set to 255 (NaN)
    changes no bit of the output, at a K that is not a whole number of 256-wide steps."""
    from mxlib.spec.layouts import e8m0_unshuffle, scale_position

    m, n, k = 5, 48, 320
    a, _, _, bs, bsc = generate_input(m, n, k, fresh_seed(), device=DEVICE)
    r, c = torch.meshgrid(torch.arange(n), torch.arange(k // 32), indexing="ij")
    real = torch.zeros(bsc.numel(), dtype=torch.bool)
    real[scale_position(r, c, bsc.shape[1]).flatten()] = True
    poisoned = bsc.cpu().flatten().clone()
    poisoned[~real] = 255
    poisoned = poisoned.view_as(bsc).to(DEVICE)
    assert (poisoned != bsc).any() and torch.equal(e8m0_unshuffle(poisoned.cpu(), n, k // 32),
                                                   e8m0_unshuffle(bsc.cpu(), n, k // 32))
    gemm = path_module(path).gemm
    assert torch.equal(gemm(a, bs, poisoned).view(torch.int16), gemm(a, bs, bsc).view(torch.int16)), path


@pytest.mark.parametrize("path", PATH_NAMES)
def test_out_must_be_contiguous_and_big_problems_are_refused(path):
    """A transposed `out` would be written as if contiguous (wrong elements); M*K or M*N at 2**31 would overflow
    the kernels' int32 offsets. All are refused by name before anything runs (the As here have no memory)."""
    gemm = path_module(path).gemm
    a, _, _, bs, bsc = generate_input(4, 32, 128, 3, device=DEVICE)
    with pytest.raises(ValueError, match="not contiguous"):
        gemm(a, bs, bsc, out=torch.empty(32, 4, dtype=torch.bfloat16, device=DEVICE).t())
    huge = torch.empty(1, 64, dtype=torch.bfloat16, device=DEVICE).expand(2**25, 64)
    b64, s64 = generate_input(1, 16, 64, 3, device=DEVICE)[3:]
    with pytest.raises(ValueError, match=r"below 2\*\*31"):
        gemm(huge, b64, s64)
    wide = torch.empty(1, 64, dtype=torch.bfloat16, device=DEVICE).expand(2**16, 64)  # M*N = 2**31, M*K, N*K small
    b_wide = torch.zeros(2**15, 32, dtype=torch.uint8, device=DEVICE)
    s_wide = torch.zeros(2**15, 8, dtype=torch.uint8, device=DEVICE)
    c_wide = torch.empty(2**16, 2**15, dtype=torch.bfloat16, device="meta")  # no 4 GiB C even if the rule failed
    with pytest.raises(ValueError, match=r"M\*N must stay below 2\*\*31 .*got M=65536 N=32768 K=64"):
        gemm(wide, b_wide, s_wide, out=c_wide)


@pytest.mark.parametrize("split_k, want", [
    (3, [224, 224, 192]),  # K = 640 is 20 groups of 32: ceil(20 / split_k) groups per range, in order
    (8, [96] * 6 + [64, 0]),  # the last range is empty
])
def test_splitk_slices_are_what_the_kernel_sums(monkeypatch, split_k, want):
    """With A and B all ones every product is 1, so each slice of the kernel's fp32 workspace holds the
    number of K values its range summed: those must be `splitk_slices`."""
    from mxlib.kernels import gemm_splitk
    from mxlib.spec.layouts import e8m0_shuffle, shuffle_weight
    from mxlib.spec.quant import quantize_mxfp4

    m, n, k = 4, 32, 640
    b_q, b_scale = quantize_mxfp4(torch.ones((n, k), dtype=torch.bfloat16))
    a = torch.ones((m, k), dtype=torch.bfloat16, device=DEVICE)
    calls = []
    real = gemm_splitk._splitk_kernel

    class Recorder:
        def __getitem__(self, grid):
            def launch(*args, **kwargs):
                calls.append(args)
                return real[grid](*args, **kwargs)
            return launch

    monkeypatch.setattr(gemm_splitk, "_splitk_kernel", Recorder())
    cfg = gemm_splitk.Config(block_m=16, block_n=32, block_k=64, split_k=split_k)
    out = gemm_splitk.gemm(a, shuffle_weight(b_q).to(DEVICE), e8m0_shuffle(b_scale).to(DEVICE), config=cfg)
    assert gemm_splitk.splitk_slices(k, split_k) == want
    (args,) = calls
    workspace = args[4]
    assert workspace.shape == (split_k, m, n)
    assert [set(workspace[s].flatten().tolist()) for s in range(split_k)] == [{float(x)} for x in want]
    assert torch.equal(out, torch.full((m, n), float(k), dtype=torch.bfloat16, device=DEVICE))


def test_splitk_default_leaves_no_range_empty_or_shorter_than_256():
    """The split-K default keeps the GEMM within 128 programs and, by the kernel's own cut (`splitk_slices`),
    every K range at least 256 long; shapes where a plain ceil(K/256)-capped split left an empty or short
    range get fewer ranges."""
    sk = path_module("splitk")
    from mxlib.kernels.gemm_splitk import splitk_slices

    for m in (1, 8, 16, 17, 32):
        for n in range(16, 8193, 208):
            for k in range(64, 8193, 64):
                cfg = sk.default_config(m, n, k)
                slices = splitk_slices(k, cfg.split_k)
                assert sum(slices) == k, (m, n, k, cfg)
                if cfg.split_k > 1:
                    tiles = -(-m // cfg.block_m) * -(-n // cfg.block_n)
                    assert min(slices) >= 256 and tiles * cfg.split_k <= 128, (m, n, k, cfg, slices)
    # (16, 1024, 2880): 90 groups; 11 ranges would be 10 of 9 groups and an empty one. (16, 2112, 1472): 46 groups;
    # 5 ranges would leave 6 groups (192 K) in the last. The seed's shape keeps the seed's 7 x 17 tiles.
    assert [sk.default_config(*s).split_k for s in ((16, 1024, 2880), (16, 2112, 1472), (16, 2112, 7168))] == [10, 4, 7]
    assert sk.default_config(16, 64, 512).split_k == 2 and sk.default_config(16, 64, 448).split_k == 1


def test_default_row_tiles_end_at_their_bounds():
    """asm's and splitk's defaults take 16-row tiles up to M = 16 and 32-row ones above; ck's the smallest
    power of two from 16 that holds M, 64 from M = 64: each bound included."""
    for path in ("asm", "splitk"):
        assert [path_module(path).default_config(m, 2112, 7168).block_m for m in (16, 17)] == [16, 32], path
    ck = path_module("ck").default_config
    assert [ck(m, 2112, 7168).block_m for m in (16, 17, 32, 33, 64, 65)] == [16, 32, 32, 64, 64, 64]


def test_h200_table_splitk_rows_leave_no_short_range():
    """The H200 table's splitk rows (an occupancy rule, mxlib/data/configs/README.md) cut K into ranges of
    at least 256 by the kernel's own cut, none empty."""
    from mxlib.kernels.gemm_splitk import splitk_slices
    from mxlib.runtime import dispatch

    rows = [((m, n, k), fields) for (m, n, k), entries in dispatch.load_table("h200").items()
            for path, fields in entries if path == "splitk"]
    assert len(rows) == 3
    for (m, n, k), fields in rows:
        assert min(splitk_slices(k, fields["split_k"])) >= 256, ((m, n, k), fields)


@pytest.mark.parametrize("path", PATH_NAMES)
def test_empty_a_still_checks_the_config(path):
    """An empty A needs no launch, but a config of another path is refused all the same, as for any M."""
    a, _, _, b_shuffle, b_scale_sh = generate_input(4, 32, 128, 1, device=DEVICE)
    other = next(p for p in PATH_NAMES if path_module(p).Config is not path_module(path).Config)
    with pytest.raises(TypeError, match="config must be"):
        path_module(path).gemm(a[:0], b_shuffle, b_scale_sh, config=path_module(other).Config())
