"""aiter.ops.triton.gemm.basic.gemm_afp4wfp4.gemm_afp4wfp4_preshuffle for `python -m mxlib isa`.

With PyPI's amd-aiter installed, or its wheel unpacked in $MXLIB_AITER_SITE (its 0.1.7.post2 kernel
files, loaded by path by mxlib.tools.baselines.aiter_triton), it launches that release's preshuffle GEMM
(`_gemm_afp4_wfp4_kernel_preshuffled_weight_scales`, the predecessor of 0.1.10's
`_gemm_afp4wfp4_preshuffle_kernel`, same layouts) and its reduce kernel the way 0.1.10's wrapper does:
get_splitk on K in bytes, the config's keys as kernel arguments and launch options. Without it the call
is recorded. Either way nothing is computed: capture never runs a kernel.
"""
import os

import torch

from mxlib.spec import aiter_rules

from aiter._record import record


LOADED = None  # the amd-aiter version whose kernel files were launched


def _kernels():
    from mxlib.tools.baselines import aiter_triton

    try:
        return aiter_triton.load(os.environ.get("MXLIB_AITER_SITE") or None)
    except RuntimeError:
        return None


def gemm_afp4wfp4_preshuffle(x, w, x_scales, w_scales, dtype=torch.bfloat16, y=None, config=None,
                             use_aot=True, skip_reduce=False):
    m, kb = x.shape
    n, k = w.shape[0] * 16, 2 * kb
    if y is None:
        y = torch.empty((m, n), dtype=dtype, device=x.device)
    global LOADED
    kernels = _kernels()
    if kernels is None or config is None:
        record("gemm_afp4wfp4_preshuffle", m, n, k,
               "aiter's Triton GEMM: no PyPI amd-aiter kernel files here (pip install --no-deps amd-aiter)")
        return y
    LOADED = kernels.version
    cfg = dict(config)
    split = aiter_rules.aiter_get_splitk(kb, cfg["BLOCK_SIZE_K"], cfg["NUM_KSPLIT"]) if cfg["NUM_KSPLIT"] > 1 \
        else aiter_rules.TritonSplitK(k, cfg["BLOCK_SIZE_K"], 1)
    cfg.update(SPLITK_BLOCK_SIZE=split.splitk_block_size, BLOCK_SIZE_K=split.block_k, NUM_KSPLIT=split.num_ksplit)
    splits = split.num_ksplit
    c = y if splits == 1 else torch.empty((splits, m, n), dtype=torch.float32, device=x.device)
    grid = (splits * -(-m // cfg["BLOCK_SIZE_M"]) * -(-n // cfg["BLOCK_SIZE_N"]),)
    kernels.gemm_kernel[grid](
        x, w, c, x_scales, w_scales, m, n, kb, x.stride(0), x.stride(1), w.stride(0), w.stride(1),
        0 if splits == 1 else c.stride(0), c.stride(-2), c.stride(-1),
        x_scales.stride(0), x_scales.stride(1), w_scales.stride(0), w_scales.stride(1), **cfg)
    if splits > 1:
        bm, bn = 16, 64
        kernels.reduce_kernel[(-(-m // bm), -(-n // bn))](
            c, y, m, n, c.stride(0), c.stride(1), c.stride(2), y.stride(0), y.stride(1), bm, bn, splits,
            1 << (splits - 1).bit_length())
    return y
