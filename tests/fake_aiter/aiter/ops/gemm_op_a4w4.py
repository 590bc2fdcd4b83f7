"""aiter.ops.gemm_op_a4w4: gemm_a4w4_asm (the ASM entry point) and gemm_a4w4 (its tuned dispatcher).

Checks mirror aiter's Python wrappers and csrc/py_itfs_cu/asm_gemm_a4w4.cu: A must carry dtypes.fp4x2,
out must be bf16 with rows padded to 32, the kernel name must be one of the gfx950 f4gemm kernels, and
log2_k_split splits K only for the kernels whose splitK flag is 1. An empty name leaves the choice to aiter's
heuristic. As in the version in aiter/_version.py: `kernelName` has no default below 0.1.12 (the contest
runner's f3be04a12a among them), the string "" from then on. The C++ entry points' argument types are
checked (pybind refuses others), and gemm_a4w4, which the tuned CSV may send to CK blockscale, holds its
operands to that kernel's checks: A and B of one dtype, the two scales of one dtype.
"""
import torch
from packaging.version import Version

from mxlib.spec.layouts import e8m0_unshuffle, unshuffle_weight

from aiter._record import as_bytes, mxfp4_matmul, record, require
from aiter.utility import dtypes

try:
    from aiter._version import __version__
except ImportError:  # an installation without aiter/_version.py: the newest signature
    __version__ = None
_NAME_REQUIRED = __version__ is not None and Version(__version__) < Version("0.1.12")

# hsa/gfx950/f4gemm/f4gemm_bf16_per1x32Fp4.csv, BpreShuffle rows: tile -> splitK flag.
_SPLITK = {"128x512": 1, "256x256": 1}
_TILES = (
    "32x128 32x256 32x384 32x512 32x640 32x768 32x896 32x1024 64x128 64x256 64x384 64x512 64x640 64x768 "
    "64x896 64x1024 96x128 96x256 96x384 96x512 96x640 128x128 128x256 128x384 128x512 160x128 160x256 "
    "160x384 192x128 192x256 224x128 224x256 256x128 256x256"
).split()
KERNELS = {}
for _tile in _TILES:
    _name = f"f4gemm_bf16_per1x32Fp4_BpreShuffle_{_tile}"
    KERNELS[f"_ZN5aiter{len(_name)}{_name}E"] = _SPLITK.get(_tile, 0)


def _ceil(v, m):
    return (v + m - 1) // m * m


def _check_operands(A, B, A_scale, B_scale):
    require(A.dim() == 2 and B.dim() == 2, "A and B must be 2-D")
    require(A.dtype == dtypes.fp4x2, f"A must be viewed as dtypes.fp4x2 ({dtypes.fp4x2}), got {A.dtype}")
    require(B.dtype in (dtypes.fp4x2, torch.uint8), f"B must hold fp4x2 bytes, got {B.dtype}")
    m, kb = A.shape
    n = B.shape[0]
    require(tuple(B.shape) == (n, kb), f"B must be (N, K/2) = ({n}, {kb}), got {tuple(B.shape)}")
    sn = _ceil(2 * kb // 32, 8)
    for s, rows, name in ((A_scale, m, "A_scale"), (B_scale, n, "B_scale")):
        require(s.dtype in (dtypes.fp8_e8m0, torch.uint8), f"{name} must hold e8m0 bytes, got {s.dtype}")
        want = (_ceil(rows, 256), sn)
        require(tuple(s.shape) == want, f"{name} must be e8m0_shuffle-padded {want}, got {tuple(s.shape)}")
        require(s.stride() == (sn, 1), f"{name} must be contiguous (strides ({sn}, 1)), got {s.stride()}")
    require(A.stride(1) == 1 and B.is_contiguous(), "A rows and B must be contiguous")
    return m, n, 2 * kb


def _result(A, B, A_scale, B_scale, m, n, k):
    a_s = e8m0_unshuffle(as_bytes(A_scale), m, k // 32)
    b_q = unshuffle_weight(as_bytes(B))
    b_s = e8m0_unshuffle(as_bytes(B_scale), n, k // 32)
    return mxfp4_matmul(as_bytes(A), a_s, b_q, b_s).to(torch.bfloat16)


def _asm(A, B, A_scale, B_scale, out, kernelName, bias, alpha, beta, bpreshuffle, log2_k_split):
    record("gemm_a4w4_asm", (A, B, A_scale, B_scale, out, kernelName),
           dict(bias=bias, alpha=alpha, beta=beta, bpreshuffle=bpreshuffle, log2_k_split=log2_k_split))
    require(isinstance(kernelName, str), f"kernelName must be a str, got {type(kernelName).__name__}")
    require(log2_k_split is None or type(log2_k_split) is int,
            f"log2_k_split must be an int or None, got {type(log2_k_split).__name__}")
    require(all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (alpha, beta)),
            "alpha and beta must be numbers")
    m, n, k = _check_operands(A, B, A_scale, B_scale)
    require(out.dtype == torch.bfloat16, f"out must be bf16, got {out.dtype}")
    require(out.shape[1] == n and out.shape[0] >= m and out.shape[0] % 32 == 0,
            f"out must be (ceil32(M), N) = ({_ceil(m, 32)}, {n}), got {tuple(out.shape)}")
    require(kernelName == "" or kernelName in KERNELS, f"not find kernel {kernelName!r}")  # "": aiter's heuristic
    require(bool(bpreshuffle) and bias is None and alpha == 1.0 and beta == 0.0,
            "the seed's call is bias=None, alpha=1, beta=0, bpreshuffle=True")
    if KERNELS.get(kernelName) and log2_k_split:
        require(k % (1 << log2_k_split) == 0, "Kdim % (1 << args.log2_k_split) != 0 !")
    out[:m] = _result(A, B, A_scale, B_scale, m, n, k)
    out[m:] = float("nan")  # rows past M are the kernel's padding: a caller must slice them off
    return out


if _NAME_REQUIRED:

    def gemm_a4w4_asm(A, B, A_scale, B_scale, out, kernelName, bias=None, alpha=1.0, beta=0.0, bpreshuffle=True,
                      log2_k_split=None):
        return _asm(A, B, A_scale, B_scale, out, kernelName, bias, alpha, beta, bpreshuffle, log2_k_split)

else:

    def gemm_a4w4_asm(A, B, A_scale, B_scale, out, kernelName="", bias=None, alpha=1.0, beta=0.0,
                      bpreshuffle=True, log2_k_split=None):
        return _asm(A, B, A_scale, B_scale, out, kernelName, bias, alpha, beta, bpreshuffle, log2_k_split)


def gemm_a4w4(A, B, A_scale, B_scale, bias=None, dtype=dtypes.bf16, alpha=1.0, beta=0.0, bpreshuffle=True):
    record("gemm_a4w4", (A, B, A_scale, B_scale),
           dict(bias=bias, dtype=dtype, alpha=alpha, beta=beta, bpreshuffle=bpreshuffle))
    m, n, k = _check_operands(A, B, A_scale, B_scale)
    require(A.dtype == B.dtype, "Weights and activations should have the same dtype!")
    require(A_scale.dtype == B_scale.dtype, "Scales should have the same dtype!")
    require(dtype == torch.bfloat16 and bool(bpreshuffle), "the seed's call is dtype=bf16, bpreshuffle=True")
    out = torch.full((_ceil(m, 32), n), float("nan"), dtype=dtype, device=A.device)
    out[:m] = _result(A, B, A_scale, B_scale, m, n, k)
    return out[:m]
