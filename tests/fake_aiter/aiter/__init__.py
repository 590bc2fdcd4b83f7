"""A fake of ROCm's `aiter`, for CPU contract tests of `mxlib.runtime.aiter_backend` (tests/test_aiter_contract.py).

Same module paths and Python signatures as the real package for the calls the backend makes. Every
call is appended to `CALLS` with its arguments (the tensors themselves, so tests can check dtypes,
shapes, strides and data pointers); each entry point checks what the real one requires (or silently
gets wrong) and raises `ContractError` when an argument breaks it, then computes its result with
mxlib's reference math from the un-shuffled operands. The version is read from aiter/_version.py,
which the tests write; it decides version-dependent signatures.
"""
from . import utility
from ._record import CALLS, Call, ContractError
from .utility import dtypes
from .ops.gemm_op_a4w4 import gemm_a4w4, gemm_a4w4_asm

__all__ = ["CALLS", "Call", "ContractError", "dtypes", "gemm_a4w4", "gemm_a4w4_asm", "utility"]
