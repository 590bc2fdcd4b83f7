"""aiter.ops.triton.gemm.basic.gemm_afp4wfp4.gemm_afp4wfp4_preshuffle, with the signature of the version
in aiter/_version.py: `use_aot` exists only below 0.1.15 (ROCm/aiter#2695); from 0.1.16 (ROCm/aiter#3359) the
first two parameters are `x_fp4` and `w_preshuf`, and the result is wrong (K handed to the kernel in elements,
which it counts as bytes: it reads past A), silently, as there.

Checks mirror the wrapper and `_gemm_afp4wfp4_preshuffle_kernel`: uint8 operands, w as (N/16, K/2*16),
x_scales un-shuffled (M, K/32) with BLOCK_SIZE_M <= 16 when M < 32, w_scales as (N_pad/32, K), and the
kernel's EVEN_K-only loads after the wrapper's adjustment of the split. Like the real wrapper it writes
SPLITK_BLOCK_SIZE into the config it is given.
"""
import torch
from packaging.version import Version

from mxlib.spec.aiter_rules import triton_splitk
from mxlib.spec.layouts import e8m0_unshuffle, unshuffle_weight

from aiter._record import mxfp4_matmul, record, require
from aiter._version import __version__


def _run(x, w, x_scales, w_scales, dtype, y, config, skip_reduce):
    for t, name in ((x, "x"), (w, "w"), (x_scales, "x_scales"), (w_scales, "w_scales")):
        require(t.dtype == torch.uint8, f"{name} must be uint8 for the Triton kernel, got {t.dtype}")
    m, kb = x.shape
    n16, wk = w.shape
    n, k = n16 * 16, 2 * kb
    require(wk == kb * 16, f"w must be (N/16, K/2*16) = ({n16}, {kb * 16}), got {tuple(w.shape)}")
    require(config is not None and not skip_reduce, "the seed passes its own config and reduces")
    require("SPLITK_BLOCK_SIZE" not in config, "config was used before: aiter has written SPLITK_BLOCK_SIZE into it")
    bm, bk = config["BLOCK_SIZE_M"], config["BLOCK_SIZE_K"]
    if m < 32:
        require(bm <= 16, "for M < 32, BLOCK_SIZE_M must be 16 or less as x_scale are assumed to be un-shuffled")
        require(tuple(x_scales.shape) == (m, k // 32), f"x_scales must be (M, K/32) = ({m}, {k // 32}), got {tuple(x_scales.shape)}")
    else:
        require(bm >= 32, "for M >= 32, BLOCK_SIZE_M must be 32 or more as x_scale are assumed to be preshuffled")
        require(x_scales.shape[1] == k and x_scales.shape[0] * 32 >= m, "x_scales must be (M_pad/32, K)")
    require(w_scales.shape[1] == k and w_scales.shape[0] * 32 >= n and w_scales.is_contiguous(),
            f"w_scales must be a contiguous (N_pad/32, K) = (*, {k}) view, got {tuple(w_scales.shape)}")
    # The wrapper's adjustment of the split (mxlib.spec.aiter_rules.triton_splitk replicates it), then the
    # kernel's EVEN_K heuristic on K in bytes, as there.
    s = triton_splitk(k, bk, config["NUM_KSPLIT"])
    split, bk = s.splitk_block_size, s.block_k
    require(kb % (bk // 2) == 0 and split % bk == 0 and kb % (split // 2) == 0,
            "EVEN_K is False: the kernel has no masked K path")
    config["SPLITK_BLOCK_SIZE"] = split  # what the real wrapper leaves behind

    b_q = unshuffle_weight(w.reshape(n, kb))
    b_s = e8m0_unshuffle(w_scales.reshape(-1, k // 32), n, k // 32)
    a_s = x_scales if m < 32 else e8m0_unshuffle(x_scales.reshape(-1, k // 32), m, k // 32)
    result = mxfp4_matmul(x, a_s, b_q, b_s).to(dtype)
    if y is None:
        return result
    y.copy_(result)
    return y


if Version(__version__) < Version("0.1.15"):

    def gemm_afp4wfp4_preshuffle(x, w, x_scales, w_scales, dtype=torch.bfloat16, y=None, config=None,
                                 use_aot=True, skip_reduce=False):
        record("gemm_afp4wfp4_preshuffle", (x, w, x_scales, w_scales),
               dict(dtype=dtype, y=y, config=None if config is None else dict(config), use_aot=use_aot,
                    skip_reduce=skip_reduce, config_object=config))
        return _run(x, w, x_scales, w_scales, dtype, y, config, skip_reduce)

elif Version(__version__) < Version("0.1.16"):

    def gemm_afp4wfp4_preshuffle(x, w, x_scales, w_scales, dtype=torch.bfloat16, y=None, config=None,
                                 skip_reduce=False):
        record("gemm_afp4wfp4_preshuffle", (x, w, x_scales, w_scales),
               dict(dtype=dtype, y=y, config=None if config is None else dict(config),
                    skip_reduce=skip_reduce, config_object=config))
        return _run(x, w, x_scales, w_scales, dtype, y, config, skip_reduce)

else:

    def gemm_afp4wfp4_preshuffle(x_fp4, w_preshuf, x_scales, w_scales, dtype=torch.bfloat16, y=None, config=None,
                                 skip_reduce=False):
        record("gemm_afp4wfp4_preshuffle", (x_fp4, w_preshuf, x_scales, w_scales),
               dict(dtype=dtype, y=y, config=None if config is None else dict(config),
                    skip_reduce=skip_reduce, config_object=config))
        return torch.full_like(_run(x_fp4, w_preshuf, x_scales, w_scales, dtype, y, config, skip_reduce), float("nan"))
