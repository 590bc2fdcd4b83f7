"""aiter.ops.gemm_op_a4w4: the ASM and CK entry points, recorded with the kernel aiter would run."""
import torch

from mxlib.spec import aiter_rules
from mxlib.spec.seed import DEFAULT_AITER

from aiter._record import record


def _shape(A, B):
    return A.shape[0], B.shape[0], A.shape[1] * 2


def gemm_a4w4_asm(A, B, A_scale, B_scale, out, kernelName="", bias=None, alpha=1.0, beta=0.0,
                  bpreshuffle=True, log2_k_split=None):
    m, n, k = _shape(A, B)
    if kernelName:
        detail = kernelName
    else:
        detail = aiter_rules.asm_heuristic(m, n, k, log2_k_split=log2_k_split or 0).kernel.name + " (heuristic)"
    record("gemm_a4w4_asm", m, n, k, detail)
    return out


def gemm_a4w4(A, B, A_scale, B_scale, bias=None, dtype=torch.bfloat16, alpha=1.0, beta=0.0, bpreshuffle=True):
    m, n, k = _shape(A, B)
    try:
        c = aiter_rules.gemm_a4w4_choice(m, n, k, DEFAULT_AITER)
        detail = f"{c.kernel} ({c.how} {c.backend}, aiter {DEFAULT_AITER} line)"
    except ValueError:
        detail = "aiter's tuned CSV decides (not replicated for this shape)"
    record("gemm_a4w4", m, n, k, detail)
    return torch.empty((m, n), dtype=dtype, device=A.device)
