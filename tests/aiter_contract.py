"""The contract of the seed's three aiter calls, checked on the fake aiter's call log (tests/fake_aiter).

Shared by the tests of the library's aiter backend (tests/test_aiter_contract.py) and of the exported
MI355X submission (tests/test_export.py), so both are held to the same checks: what each call sends
(names, argument order, dtypes, views, shapes, strides, padding) and what the caller returns (the
output's slicing, and numbers within the contest's tolerance: the fake computes with mxlib's reference
math from the un-shuffled operands, so a wrong layout shows up as wrong numbers too).
"""
import contextlib
import importlib
import shutil
import sys
from pathlib import Path

import torch

from mxlib import check_implementation, e8m0_shuffle, quantize_mxfp4

FAKE_SRC = Path(__file__).resolve().parent / "fake_aiter" / "aiter"


def aiter_modules() -> list[str]:
    return [k for k in sys.modules if k == "aiter" or k.startswith("aiter.")]


@contextlib.contextmanager
def aiter_modules_set_aside():
    """The aiter modules imported so far set aside for the block, and put back after it (any the block
    imported dropped), so a test's fake aiter never outlives it."""
    saved = {k: sys.modules.pop(k) for k in aiter_modules()}
    try:
        yield
    finally:
        for k in aiter_modules():
            del sys.modules[k]
        sys.modules.update(saved)


def install(root: Path, monkeypatch, version: str | None) -> Path:
    """A fresh copy of the fake under `root`, first on sys.path, reporting `version` (None: no
    aiter/_version.py); drops any aiter modules already imported."""
    for k in aiter_modules():
        del sys.modules[k]
    shutil.copytree(FAKE_SRC, root / "aiter", ignore=shutil.ignore_patterns("__pycache__"))
    if version is not None:
        (root / "aiter" / "_version.py").write_text(f"__version__ = '{version}'\n")
    monkeypatch.syspath_prepend(str(root))
    importlib.invalidate_caches()
    from mxlib.runtime import aiter_backend

    aiter_backend._status.cache_clear()  # the backend keeps its verdicts for the process: a new installation
    return root


def calls() -> list:
    """The fake's call log since it was installed (importing it if nothing has yet)."""
    return importlib.import_module("aiter").CALLS


def _ceil(v, m):
    return (v + m - 1) // m * m


def _bytes(t):
    return t.view(torch.uint8)


def _check_result(data, result, label: str) -> None:
    m, n = data[0].shape[0], data[3].shape[0]
    assert result.dtype == torch.bfloat16 and tuple(result.shape) == (m, n), (label, result.dtype, result.shape)
    ok, msg = check_implementation(data, result)
    assert ok, f"{label}: {msg}"


def _check_a4w4_operands(call, data, label: str) -> None:
    """gemm_a4w4_asm's and gemm_a4w4's first four arguments: A quantized round-half-even as fp4x2 with
    e8m0_shuffle-padded scales, and zero-copy fp4x2/E8M0 views of the given B operands."""
    a, _, _, b_shuffle, b_scale_sh = data
    m, k = a.shape
    A, B, A_scale, B_scale = call.args[:4]
    dt = sys.modules["aiter"].dtypes
    ref_q, ref_s = quantize_mxfp4(a, "rne")
    assert A.dtype == dt.fp4x2 and tuple(A.shape) == (m, k // 2) and A.stride() == (k // 2, 1)
    assert torch.equal(_bytes(A), ref_q), label
    sn = _ceil(k // 32, 8)
    assert A_scale.dtype == dt.fp8_e8m0 and tuple(A_scale.shape) == (_ceil(m, 256), sn) and A_scale.stride() == (sn, 1)
    assert torch.equal(_bytes(A_scale), e8m0_shuffle(ref_s)), label  # padding rows and columns are 127
    assert B.dtype == dt.fp4x2 and B.shape == b_shuffle.shape and B.data_ptr() == b_shuffle.data_ptr()
    assert B_scale.dtype == dt.fp8_e8m0 and B_scale.shape == b_scale_sh.shape
    assert B_scale.data_ptr() == b_scale_sh.data_ptr()


def check_asm_call(call, data, result, kernel_name: str, log2_k_split: int = 0, label: str = "asm") -> None:
    """One gemm_a4w4_asm call: operands, the kernel name and split, a (ceil32(M), N) bf16 output of which
    the caller returns the first M rows. `label` starts every failure message (say, the inputs' seed)."""
    assert call.name == "gemm_a4w4_asm"
    _check_a4w4_operands(call, data, label)
    out, name = call.args[4:]
    m, n = data[0].shape[0], data[3].shape[0]
    assert name == kernel_name
    assert call.kwargs == dict(bias=None, alpha=1.0, beta=0.0, bpreshuffle=True, log2_k_split=log2_k_split)
    assert out.dtype == torch.bfloat16 and tuple(out.shape) == (_ceil(m, 32), n)
    assert result.data_ptr() == out.data_ptr()
    _check_result(data, result, label)


def check_ck_call(call, data, result, label: str = "ck") -> None:
    """One aiter.gemm_a4w4 call: operands, dtype=bf16, bpreshuffle=True."""
    assert call.name == "gemm_a4w4"
    _check_a4w4_operands(call, data, label)
    assert call.kwargs == dict(bias=None, dtype=torch.bfloat16, alpha=1.0, beta=0.0, bpreshuffle=True)
    _check_result(data, result, label)


def check_splitk_call(call, data, result, config: dict, passes_use_aot: bool, label: str = "splitk") -> None:
    """One gemm_afp4wfp4_preshuffle call: uint8 A with natural-layout scales, B_shuffle as (N/16, K/2*16)
    and B_scale_sh as (N_pad/32, K) zero-copy, a fresh copy of `config`, use_aot=False exactly when the
    fake's version still takes it."""
    a, _, _, b_shuffle, b_scale_sh = data
    m, k = a.shape
    n = b_shuffle.shape[0]
    assert call.name == "gemm_afp4wfp4_preshuffle"
    x, w, x_scales, w_scales = call.args
    kw = dict(call.kwargs)
    assert kw.pop("config") == config
    # aiter writes into the config it gets: the caller's own must stay clean
    assert kw.pop("config_object") is not config and "SPLITK_BLOCK_SIZE" not in config
    # a fresh bf16 output of its own (the seed's y=; aiter's bf16 split buffer reads y.dtype), returned as C
    y = kw.pop("y")
    assert y is not None and y.dtype == torch.bfloat16 and tuple(y.shape) == (m, n) and y.device == a.device, label
    assert result.data_ptr() == y.data_ptr(), label
    assert kw == dict(dtype=torch.bfloat16, skip_reduce=False, **({"use_aot": False} if passes_use_aot else {}))
    ref_q, ref_s = quantize_mxfp4(a, "rne")
    assert x.dtype == torch.uint8 and torch.equal(x, ref_q) and x.stride() == (k // 2, 1), label
    assert x_scales.dtype == torch.uint8 and torch.equal(x_scales, ref_s) and x_scales.stride() == (k // 32, 1), label
    assert tuple(w.shape) == (n // 16, k // 2 * 16) and w.dtype == torch.uint8
    assert w.data_ptr() == b_shuffle.data_ptr() and w.is_contiguous()
    assert tuple(w_scales.shape) == (b_scale_sh.shape[0] // 32, k) and w_scales.dtype == torch.uint8
    assert w_scales.data_ptr() == b_scale_sh.data_ptr()
    _check_result(data, result, label)
