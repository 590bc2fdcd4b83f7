"""Every path and the torch backend follow mxlib's rule (mxlib.spec.reference's module docstring) far from
randn's scales: tiny and huge A, dequantized values that overflow to Inf, NaN scales, subnormals.
Checked by relative error against the exact result (`check_exact`): an absolute tolerance would
pass a zero output for tiny inputs. Without a GPU the Triton paths run in the interpreter.
"""
import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from mxlib.spec.layouts import e8m0_shuffle, e8m0_unshuffle, shuffle_weight
from mxlib.runtime.dispatch import custom_kernel
from mxlib.runtime.paths import PATHS, path_available, path_module, path_zero_scale_operands
from mxlib.spec.quant import quantize_mxfp4
from mxlib.spec.reference import check_exact, exact_errors, generate_input, ref_kernel

from .helpers import fresh_seed

# numpy (the interpreter) warns on the Inf and NaN these inputs are made to produce.
pytestmark = [pytest.mark.filterwarnings("ignore:overflow encountered"),
              pytest.mark.filterwarnings("ignore:invalid value encountered")]

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
PATH_NAMES = sorted(p for p in PATHS if path_available(p, DEVICE)[0])


def run(path, data):
    """`path`'s output, or for "torch" the backend's (`custom_kernel(backend="torch")`): that is the rule computed
    in fp64 as `check_exact` computes it, so there the test holds the oracle to accepting the exact answer at
    these values (its NaN, Inf and bound handling), not the backend to an independent result."""
    a, _, _, b_shuffle, b_scale_sh = data
    if path == "torch":
        return custom_kernel(data, backend="torch")
    return path_module(path).gemm(a, b_shuffle, b_scale_sh)


def zero_scale(path) -> tuple:
    """The operands whose scale byte 0 `path` reads as zero here (the rule's documented departure)."""
    return () if path == "torch" else path_zero_scale_operands(path, DEVICE)


@pytest.mark.parametrize("path", PATH_NAMES + ["torch"])
def test_a_far_from_randn_scales(path):
    """A scaled by 1e-38 (subnormal products) up to 1e30, on a fresh seed: the result follows the
    rule at every scale, on every path."""
    seed = fresh_seed()
    data = generate_input(8, 64, 256, seed, device=DEVICE)
    for scale in (1e-38, 1e-30, 1e-9, 3e4, 1e5, 1e30):
        a = (data[0].float() * scale).to(torch.bfloat16)
        scaled = (a,) + data[1:]
        ok, msg = check_exact(scaled, run(path, scaled), zero_scale_operands=zero_scale(path))
        assert ok, f"{path} A * {scale:g} seed {seed}: {msg}"


def huge_inputs():
    """(data, expected kinds): inputs whose dequantized values overflow fp32 to Inf (A blocks with
    scale byte 254, B scale bytes 254 and 253 set by hand), NaN scale bytes, subnormal scales, while
    the finite products stay far below fp32's range, so the rule fixes every element exactly."""
    g = torch.Generator().manual_seed(5)
    m, n, k = 6, 64, 256
    a = torch.randn(m, k, generator=g) * 2.0**-20
    big = 1.5 * 2.0**127 * 1.2  # quantizes to code 2 with scale 2**127: 2**128, Inf once dequantized
    a[1, 64:96] = 0.0
    a[1, 70] = big  # +Inf in group 2 of row 1
    a[2, 64:96] = 0.0
    a[2, 70], a[2, 75] = big, -big  # +Inf and -Inf: NaN where B has the same sign at both
    a[3, 32:64] = 2.0**-130  # subnormal values
    a[4, 0] = 1.5 * 2.0**120  # large but finite once dequantized
    b = torch.randn(n, k, generator=g)
    b[5, 70] = 0.0  # Inf * 0 in row 1: NaN
    b_q, b_s = quantize_mxfp4(b)
    b_s[8:16, 1] = 254  # B's largest codes in group 1 become Inf
    b_s[16:24, 3] = 253
    b_s[24:32, 5] = 0
    b_s[32, 6] = 255
    data = (a.to(torch.bfloat16), b.to(torch.bfloat16), b_q, shuffle_weight(b_q), e8m0_shuffle(b_s))
    return tuple(t.to(DEVICE) for t in data)


def test_huge_inputs_leave_nothing_to_summation_order():
    """The fixture is what it claims: Inf and NaN outputs, finite ones, and no element where fp32
    partial sums could overflow (which would let any non-finite output pass)."""
    data = huge_inputs()
    assert e8m0_unshuffle(data[4].cpu(), 64, 8)[8, 1] == 254
    e = exact_errors(data, ref_kernel(data))
    ref = e["ref"]
    assert ref.isnan().any() and ref.isposinf().any() and ref.isneginf().any() and ref.isfinite().any()
    assert ref[2].isnan().any() and ref[1, 5].isnan() and ref[1].isinf().any()
    assert (e["terms"] < torch.finfo(torch.float32).max).all()


@pytest.mark.parametrize("path", PATH_NAMES + ["torch"])
def test_values_that_overflow_when_dequantized(path):
    """Dequantized values past fp32's range are Inf, so Inf * 0 and +Inf - Inf give NaN and any other
    infinite product its Inf, the same on every path."""
    data = huge_inputs()
    ok, msg = check_exact(data, run(path, data), zero_scale_operands=zero_scale(path))
    assert ok, f"{path}: {msg}"


def test_h200_special_values_script_dry_run(tmp_path):
    """scripts/h200_special_values.py end to end on the CPU (interpreter), on one tiny shape: every
    row follows the rule and the summary names device and versions."""
    root = Path(__file__).resolve().parent.parent
    cmd = [sys.executable, str(root / "scripts" / "h200_special_values.py"), "--device", "cpu", "--shapes", "4x64x128",
           "--random", "0", "--scales", "1e30", "--fuzz", "1", "--out", str(tmp_path)]
    proc = subprocess.run(cmd, env=dict(os.environ, TRITON_INTERPRET="1"), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["failed"] == 0 and summary["checks"] == 3 * (len(PATH_NAMES) + 1) + len(PATH_NAMES)
    assert summary["device"] == "cpu" and summary["torch"] == torch.__version__
    with open(tmp_path / "special_values.csv", newline="") as f:
        assert sum(1 for row in csv.DictReader(f) if row["ok"] == "1") == summary["checks"]


def tiny_scale_inputs(target: str, seed: int):
    """Contest inputs with A's (target "A") or B's ("B", before quantization) even rows times 1e-38 and
    odd rows times 1e-37: the even rows' blocks then have scale byte 0 (largest magnitude below about
    4.1e-38) and the odd rows' small nonzero bytes, all with dequantized values in fp32's subnormal range."""
    a, b, _, _, _ = generate_input(16, 256, 1024, seed, device=DEVICE)

    def tiny(x):
        rows = torch.arange(x.shape[0], device=x.device)[:, None]
        return (x.float() * torch.where(rows % 2 == 0, 1e-38, 1e-37)).to(torch.bfloat16)

    if target == "A":
        a = tiny(a)
    else:
        b = tiny(b)
    b_q, b_s = quantize_mxfp4(b)
    return a, b, b_q, shuffle_weight(b_q).to(DEVICE), e8m0_shuffle(b_s).to(DEVICE)


@pytest.mark.parametrize("target", ["A", "B"])
@pytest.mark.parametrize("path", PATH_NAMES)
def test_scale_byte_zero(path, target):
    """A or B times 1e-38 (blocks with scale byte 0, subnormal products). Where the path reads that
    operand's scale byte 0 as zero (`path_zero_scale_operands`: fused and fused_fp4 on NVIDIA with Triton
    before 3.9), the output follows the rule with those blocks counted as zero, and breaks the plain rule
    (the departure is real, and no larger than documented); everywhere else, the CPU's interpreter
    included (Triton 3.9 decodes byte 0 as 2**-127), it follows the plain rule."""
    seed = fresh_seed()
    data = tiny_scale_inputs(target, seed)
    scales = quantize_mxfp4(data[0])[1] if target == "A" else e8m0_unshuffle(data[4].cpu(), 256, 1024 // 32)
    assert (scales == 0).any() and (scales > 0).any()  # the inputs reach scale byte 0, and not only it
    out = run(path, data)
    zero = tuple(op for op in zero_scale(path) if op == target)
    ok, msg = check_exact(data, out, zero_scale_operands=zero)
    assert ok, f"{path} {target} * 1e-38 seed {seed}, rule with {zero} scale byte 0 as zero: {msg}"
    if zero:
        assert not check_exact(data, out)[0], f"{path} {target} * 1e-38 seed {seed} follows the plain rule"


def test_zero_scale_operands_name_the_decode_of_old_triton_on_cuda(monkeypatch):
    """The fused paths' documented departure applies on CUDA devices with Triton before 3.9 only: ("B",)
    for fused (A goes in as bf16 values), ("A", "B") for fused_fp4; the other paths never depart."""
    import triton

    from mxlib.kernels import common

    assert common.DOT_SCALED_BYTE0_FIXED == (3, 9)
    monkeypatch.setattr(torch.version, "hip", None)
    for version, fused, fp4 in (("3.6.0", ("B",), ("A", "B")), ("3.8.1+git1234", ("B",), ("A", "B")),
                                ("3.9.0", (), ()), ("3.10.0", (), ())):
        monkeypatch.setattr(triton, "__version__", version)
        assert path_zero_scale_operands("fused", "cuda") == fused, version
        assert path_zero_scale_operands("fused_fp4", "cuda:0") == fp4, version
        assert path_zero_scale_operands("fused", "cpu") == () and path_zero_scale_operands("splitk", "cuda") == ()
    monkeypatch.setattr(triton, "__version__", "3.6.0")
    monkeypatch.setattr(torch.version, "hip", "6.4")
    assert path_zero_scale_operands("fused_fp4", "cuda") == ()


def test_check_exact_counts_zero_scale_blocks_as_zero():
    """The rule's documented departure as a check: an output whose blocks of scale byte 0 contributed
    nothing fails the rule and passes it with that operand named; naming the other operand does not pass it."""
    data = tiny_scale_inputs("B", 11)
    b_s = e8m0_unshuffle(data[4].cpu(), 256, 1024 // 32)
    codes = data[2].clone()
    codes[(b_s == 0).repeat_interleave(16, dim=1).to(codes.device)] = 0  # zero-scale blocks: values 0
    lost = (data[0], data[1], codes, shuffle_weight(codes).to(DEVICE), data[4])
    out = ref_kernel(lost)
    assert not check_exact(data, out)[0]
    assert check_exact(data, out, zero_scale_operands=("B",))[0]
    assert not check_exact(data, out, zero_scale_operands=("A",))[0]
    with pytest.raises(ValueError, match="zero_scale_operands"):
        check_exact(data, out, zero_scale_operands=("C",))
