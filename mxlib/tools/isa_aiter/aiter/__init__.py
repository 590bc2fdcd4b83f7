"""Stand-in aiter for `python -m mxlib isa` (see mxlib/tools/isa_aiter/__init__.py)."""
from ._record import CALLS
from .ops.gemm_op_a4w4 import gemm_a4w4, gemm_a4w4_asm
from .utility import dtypes

__version__ = "stub"
__all__ = ["CALLS", "dtypes", "gemm_a4w4", "gemm_a4w4_asm"]
