"""Bad input gets one clear line naming the argument and the rule, from the library and from every
command line tool; inputs that are valid but unusual (non-contiguous scale tensors) just work."""
import numpy as np
import pytest
import torch

import mxlib
from mxlib.__main__ import main
from mxlib.spec.quant import dequantize_mxfp4, quantize_mxfp4


@pytest.mark.parametrize("seed,error,words", [
    (1.5, TypeError, "seed must be an integer, got float"),
    ("a", TypeError, "seed must be an integer, got str"),
    (True, TypeError, "seed must be an integer, got bool"),
    (torch.tensor(1.5), TypeError, "seed must be an integer, got Tensor"),
    (2**70, ValueError, r"seed must be in \[0, 2\*\*64\)"),
    (-1, ValueError, r"seed must be in \[0, 2\*\*64\)"),
])
def test_generate_input_seed(seed, error, words):
    with pytest.raises(error, match=words):
        mxlib.generate_input(4, 64, 64, seed)


@pytest.mark.parametrize("device,words", [("meta", "device must be 'cpu' or a CUDA/ROCm device"),
                                          ("foo", "device must be a device such as 'cpu' or 'cuda'")])
def test_generate_input_device(device, words):
    with pytest.raises(ValueError, match=words):
        mxlib.generate_input(4, 64, 64, 1, device=device)


def test_the_reference_refuses_meta_tensors_by_name():
    """Before anything reads a value (comparing B_q with B_shuffle has no meta kernel in torch)."""
    from mxlib.spec.reference import check_exact, check_implementation, ref_kernel

    data = tuple(t.to("meta") for t in mxlib.generate_input(4, 64, 64, 1))
    for call in (lambda: ref_kernel(data), lambda: check_implementation(data, data[0][:, :64]),
                 lambda: check_exact(data, data[0][:, :64])):
        with pytest.raises(ValueError, match="A is a meta tensor: the reference computes on values"):
            call()
    data = mxlib.generate_input(4, 64, 64, 1)  # real inputs, a meta output: named too
    out = torch.empty(4, 64, dtype=torch.bfloat16, device="meta")
    for call in (lambda: check_implementation(data, out), lambda: check_exact(data, out)):
        with pytest.raises(ValueError, match="output is a meta tensor"):
            call()


def test_compare_takes_tolerances_as_numbers():
    from mxlib.spec.reference import compare

    out = torch.ones(2, 2)
    assert compare(out, out, rtol=0, atol=1)[0] and compare(out, out, rtol=np.float32(0.01), atol=np.int64(0))[0]
    for kwargs, words in (({"rtol": "0.1"}, "rtol must be a finite real number >= 0, got '0.1'"),
                          ({"atol": None}, "atol must be a finite real number >= 0, got None"),
                          ({"atol": -1e-3}, "atol must be"), ({"rtol": float("nan")}, "rtol must be"),
                          ({"rtol": True}, "rtol must be")):
        with pytest.raises(ValueError, match=words):
            compare(out, out, **kwargs)
    z = torch.tensor([1 + 5j])  # not compared as its real part
    with pytest.raises(ValueError, match="expected is torch.complex64: compare takes a real expected tensor"):
        compare(z, torch.tensor([1 + 0j]))
    assert compare(z, torch.tensor([1.0])) == (False, "output has dtype torch.complex64, expected torch.float32")


def test_dequantize_dtype():
    q, s = quantize_mxfp4(torch.tensor([[float("nan")] * 32, [1.0] * 32]))
    with pytest.raises(TypeError, match="dtype must be a torch.dtype such as torch.float32, got str 'bf16'"):
        dequantize_mxfp4(q, s, "bf16")
    with pytest.raises(ValueError, match="dtype must be a floating-point dtype"):
        dequantize_mxfp4(q, s, torch.int32)
    assert dequantize_mxfp4(q, s, torch.bfloat16).dtype == torch.bfloat16


def test_non_contiguous_scales_are_values_like_any_other():
    """The layouts and the reference read values: a non-contiguous B_scale_sh (or weight) gives what its
    contiguous copy gives. (custom_kernel asks contiguous on every backend: the kernels read storage.)"""
    data = mxlib.generate_input(4, 64, 128, 1)
    a, b, b_q, b_sh, b_s = data
    b_s_strided = b_s.t().contiguous().t()
    assert not b_s_strided.is_contiguous()
    assert torch.equal(mxlib.e8m0_unshuffle(b_s_strided, 64, 4), mxlib.e8m0_unshuffle(b_s, 64, 4))
    q_strided = b_q.t().contiguous().t()
    assert torch.equal(mxlib.shuffle_weight(q_strided), b_sh)
    assert torch.equal(mxlib.unshuffle_weight(b_sh.t().contiguous().t()), b_q)
    assert torch.equal(mxlib.ref_kernel((a, b, b_q, b_sh, b_s_strided)), mxlib.ref_kernel(data))
    with pytest.raises(ValueError, match="^B_scale_sh must be contiguous"):
        mxlib.custom_kernel((a, b, b_q, b_sh, b_s_strided), backend="torch")


def _one_line_error(capsys, argv, words):
    rc = main(argv)
    err = capsys.readouterr().err.strip()
    assert rc == 2, err
    assert len(err.splitlines()) == 1 and err.startswith(f"python -m mxlib {argv[0]}: error: ") and words in err, err


@pytest.mark.parametrize("argv,words", [
    (["sweep", "--dry-run", "--shapes", "4x4"], "--shapes: '4x4' is not MxNxK (three decimal integers joined by 'x')"),
    (["sweep", "--dry-run", "--splits", "0"], "--splits: '0' must be 1 positive integer(s)"),
    (["check", "--device", "foo"], "--device must be a device such as 'cpu' or 'cuda', got 'foo'"),
])
def test_cli_errors_are_one_line(capsys, argv, words):
    _one_line_error(capsys, argv, words)


def test_cli_file_errors_are_one_line(capsys, tmp_path):
    _one_line_error(capsys, ["harness", str(tmp_path / "missing.py")], "missing.py")
    _one_line_error(capsys, ["harness", str(tmp_path)], "is a directory")
    # a file argument that names a folder is refused as the arguments are read (argparse's usage and error)
    with pytest.raises(SystemExit) as exit_:
        main(["export", str(tmp_path)])
    err = capsys.readouterr().err.strip()
    assert exit_.value.code == 2 and err.splitlines()[-1] == (
        f"python -m mxlib export: error: argument out: {tmp_path} is a folder: name the file to write"), err


def test_a_library_error_inside_a_command_keeps_its_traceback(monkeypatch, capsys):
    """Only mxlib's own checks make the one-line exit 2: a ValueError or TypeError raised outside mxlib's code
    (inside torch, or by a builtin no mxlib check called) is a bug and must propagate with its traceback."""
    import torch

    from mxlib.tools import check

    monkeypatch.setattr(check, "run", lambda args: torch.zeros(2) + "a")  # a TypeError raised inside torch
    with pytest.raises(TypeError):
        main(["check"])
    monkeypatch.setattr(check, "run", lambda args: int("not a number"))  # a ValueError raised outside mxlib
    with pytest.raises(ValueError, match="not a number"):
        main(["check"])
    from mxlib.spec import validate

    monkeypatch.setattr(check, "run", lambda args: validate.choice("x", "rounding", ("rne",)))
    assert main(["check"]) == 2
    assert "python -m mxlib check: error: rounding must be one of 'rne', got 'x'" in capsys.readouterr().err


def test_custom_kernel_says_whose_device_is_bad():
    data = tuple(t.to("meta") for t in mxlib.generate_input(4, 64, 64, 1))
    with pytest.raises(ValueError, match="^A's device must be 'cpu' or a CUDA/ROCm device, got 'meta'"):
        mxlib.custom_kernel(data)
