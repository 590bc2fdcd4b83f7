"""aiter's own Triton preshuffle MXFP4 GEMM as a baseline on NVIDIA, loaded by file path without `import aiter`.

`import aiter` fails without ROCm, but aiter's Triton kernel files import only triton (and each other).
`load` gives them a private package name over an installed amd-aiter's aiter/ops/triton directory, so
their relative imports resolve without running any aiter __init__.

Supported: the kernel files of amd-aiter 0.1.7.post2 (what `pip download amd-aiter` fetches from PyPI:
0.1.7.post2.dev18, Nov 2025, a 40 MB wheel), in the layout from before the January 2026 module move
(ROCm/aiter#1638). Its preshuffle GEMM is `_gemm_afp4_wfp4_kernel_preshuffled_weight_scales`, renamed
`_gemm_afp4wfp4_preshuffle_kernel` later with the same layouts: B_shuffle as (N/16, K/2*16), B_scale_sh
as (N_pad/32, K), A scales natural for BLOCK_SIZE_M < 32 else shuffled as (M_pad/32, K), K in bytes.
Other versions are refused: 0.1.7.post5 renamed the kernels, 0.1.10 moved the files (ROCm/aiter#1638),
0.1.15 replaced the reduce kernel. This kernel declares neither `waves_per_eu` nor
`matrix_instr_nonkdim`, which CUDA launches reject, so neither is passed. Its `_mxfp4_quant_op` predates
round-half-even (ROCm/aiter#975) and computes the scale byte as ``e.to(tl.uint8) + 127``, which NVIDIA
saturates, so `gemm` quantizes A with mxlib's Triton quant kernels (the seed's two, NVIDIA-safe) and
`aiter_quantize` exists only to measure how far aiter's own quant is off on the device.

The launches (config, split-K, reduce) are mxlib's, not aiter's wrapper (which imports aiter): N must
be a multiple of the N tile (the kernel wraps B rows with ``% N`` and would read past B_shuffle
otherwise) and K of 256 (the kernel loads only under EVEN_K).
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.metadata
import re
import sys
import types
from dataclasses import dataclass
from pathlib import Path

import torch

from ...spec import validate
from ...spec.devices import compute_units
from ...runtime.aiter_backend import version_in_file
from ...spec.reference import unpack_data
from ...spec.seed import REDUCE_BLOCK_M, REDUCE_BLOCK_N  # 0.1.7.post2's reduce tile is the seed's aiter's

GEMM_KERNEL = "_gemm_afp4_wfp4_kernel_preshuffled_weight_scales"
REDUCE_KERNEL = "_gemm_afp4_wfp4_reduce_kernel"
QUANT_KERNEL = "_dynamic_mxfp4_quant_kernel"
GEMM_FILE = "_triton_kernels/gemm_afp4wfp4.py"
QUANT_FILE = "_triton_kernels/quant.py"
SUPPORTED_VERSION = re.compile(r"^0\.1\.7\.post2(\.dev\d+)?$")
PYPI_RELEASE = "0.1.7.post2.dev18"  # the one PyPI holds; CI installs it (--no-deps, --target) for the tests

BLOCK_SIZE_K = 256


@dataclass(frozen=True)
class AiterTriton:
    version: str
    root: Path  # the aiter/ops/triton directory the kernels were loaded from
    gemm_kernel: object
    reduce_kernel: object
    quant_kernel: object


def _site(site) -> Path:
    if site is not None:
        return Path(site)
    try:
        return Path(importlib.metadata.distribution("amd-aiter").locate_file(""))
    except importlib.metadata.PackageNotFoundError:
        raise RuntimeError("amd-aiter is not installed: `pip install --no-deps amd-aiter` (its Triton files are "
                           "loaded by path; nothing of aiter is imported)") from None


def load(site=None) -> AiterTriton:
    """aiter's Triton GEMM, reduce and quant kernels from `site` (a directory holding aiter/), default the
    installed amd-aiter distribution. Raises RuntimeError naming the missing file or symbol."""
    site = _site(site)
    root = site / "aiter" / "ops" / "triton"
    version = version_in_file(site / "aiter" / "_version.py")
    if version is None or not SUPPORTED_VERSION.match(version):
        raise RuntimeError(f"aiter at {site} is version {version}: only the kernel files of 0.1.7.post2 are "
                           f"supported (later versions moved and renamed them, ROCm/aiter#1638)")
    for rel in (GEMM_FILE, QUANT_FILE):
        if not (root / rel).is_file():
            raise RuntimeError(f"{root / rel} is missing")
    name = "_mxlib_aiter_triton_" + hashlib.sha1(str(root.resolve()).encode()).hexdigest()[:12]
    if name not in sys.modules:
        pkg = types.ModuleType(name)
        pkg.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=True)
        pkg.__spec__.submodule_search_locations = [str(root)]
        pkg.__path__ = [str(root)]
        sys.modules[name] = pkg
    gemm_mod = importlib.import_module(f"{name}._triton_kernels.gemm_afp4wfp4")
    quant_mod = importlib.import_module(f"{name}._triton_kernels.quant")
    kernels = {}
    for mod, symbols in ((gemm_mod, (GEMM_KERNEL, REDUCE_KERNEL)), (quant_mod, (QUANT_KERNEL,))):
        for sym in symbols:
            if not hasattr(mod, sym):
                raise RuntimeError(f"{mod.__file__} has no {sym}")
            kernels[sym] = getattr(mod, sym)
    return AiterTriton(version, root, kernels[GEMM_KERNEL], kernels[REDUCE_KERNEL], kernels[QUANT_KERNEL])


def _tile_n(n: int) -> int:
    for bn in (64, 32):
        if n % bn == 0:
            return bn
    raise ValueError(f"N = {n} must be a multiple of 32: aiter's kernel wraps B rows with % N and would read "
                     f"past B_shuffle for a partial N tile")


def config(m: int, n: int, k: int, sms: int) -> dict:
    """The launch config this baseline uses: BLOCK_SIZE_M 16 (M < 32, natural A scales) or 32, N tile 64
    (or 32) dividing N, BLOCK_SIZE_K 256, and the largest power-of-two split of K that keeps the grid
    within `sms` CTAs (a power of two, so aiter's reduce never loads its masked, undefined lanes)."""
    for v, name in ((m, "m"), (n, "n"), (k, "k"), (sms, "sms")):
        validate.positive(v, name)
    validate.multiple(k, "K (aiter's kernel loads only under EVEN_K, BLOCK_SIZE_K = 256)", BLOCK_SIZE_K)
    bm = 16 if m < 32 else 32
    bn = _tile_n(n)
    tiles = -(-m // bm) * -(-n // bn)
    splits = 1
    while (k // BLOCK_SIZE_K) % (2 * splits) == 0 and tiles * 2 * splits <= sms:
        splits *= 2
    return {"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": BLOCK_SIZE_K, "GROUP_SIZE_M": 1,
            "NUM_KSPLIT": splits, "SPLITK_BLOCK_SIZE": k // splits, "cache_modifier": ".cg",
            "num_warps": 4, "num_stages": 2}


def _sms(device: torch.device) -> int:
    if device.type == "cuda":
        return compute_units(device)
    return 1  # the CPU interpreter: no split-K unless a caller asks through `sms`


def gemm_prequantized(kernels: AiterTriton, a_q, a_scale, b_shuffle, b_scale_sh, *, out=None, sms=None):
    """aiter's GEMM (+ its split-K reduce) on A already quantized: `a_scale` natural (M, K/32) for M < 32,
    else e8m0-shuffled (ceil256(M), K/32). B operands as the contest gives them, through zero-copy views."""
    import triton

    m, kb = a_q.shape
    n, k = b_shuffle.shape[0], 2 * kb
    cfg = config(m, n, k, _sms(a_q.device) if sms is None else sms)
    a_q = validate.as_bytes(a_q)
    a_scale = validate.as_bytes(a_scale)
    if m >= 32:
        a_scale = a_scale.view(a_scale.shape[0] // 32, k)
    w = validate.as_bytes(b_shuffle).view(n // 16, kb * 16)
    w_scale = validate.as_bytes(b_scale_sh).view(b_scale_sh.shape[0] // 32, k)
    if out is None:
        out = torch.empty((m, n), dtype=torch.bfloat16, device=a_q.device)
    elif out.shape != (m, n) or out.dtype != torch.bfloat16 or not out.is_contiguous():
        raise ValueError(f"out must be a contiguous bf16 ({m}, {n}) tensor, got {out.dtype} {tuple(out.shape)}")
    splits = cfg["NUM_KSPLIT"]
    c = out if splits == 1 else torch.empty((splits, m, n), dtype=torch.float32, device=a_q.device)
    launch = dict(cfg)
    grid = (splits * triton.cdiv(m, cfg["BLOCK_SIZE_M"]) * triton.cdiv(n, cfg["BLOCK_SIZE_N"]),)
    kernels.gemm_kernel[grid](
        a_q, w, c, a_scale, w_scale, m, n, kb,
        a_q.stride(0), a_q.stride(1), w.stride(0), w.stride(1),
        0 if splits == 1 else c.stride(0), c.stride(-2), c.stride(-1),
        a_scale.stride(0), a_scale.stride(1), w_scale.stride(0), w_scale.stride(1),
        **launch,
    )
    if splits > 1:
        grid = (triton.cdiv(m, REDUCE_BLOCK_M), triton.cdiv(n, REDUCE_BLOCK_N))
        kernels.reduce_kernel[grid](
            c, out, m, n, c.stride(0), c.stride(1), c.stride(2), out.stride(0), out.stride(1),
            REDUCE_BLOCK_M, REDUCE_BLOCK_N, splits, splits,
        )
    return out


def gemm(kernels: AiterTriton, data, *, out=None, sms=None) -> torch.Tensor:
    """bf16 (M, N) for the contest tuple: A quantized by mxlib's Triton kernel (round-half-even; natural
    scales for M < 32, e8m0-shuffled from 32), then aiter's GEMM."""
    from ...runtime.quant import quantize_mxfp4, quantize_mxfp4_shuffled

    a, _, _, b_shuffle, b_scale_sh, (m, n, k) = unpack_data(data)
    config(m, n, k, 1)  # shape checks before any launch
    quantize = quantize_mxfp4_shuffled if m >= 32 else quantize_mxfp4
    a_q, a_scale = quantize(a, "rne", backend="triton")
    return gemm_prequantized(kernels, a_q, a_scale, b_shuffle, b_scale_sh, out=out, sms=sms)


def aiter_quantize(kernels: AiterTriton, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """aiter's own `_dynamic_mxfp4_quant_kernel` on a 2-D x (K % 32 == 0): (fp4 (M, K/2), scales (M, K/32)).

    Blocks of 8 x 32 (its bytes do not depend on the blocking), without aiter's waves_per_eu launch
    argument, which CUDA rejects. For measuring aiter's quant against mxlib.spec.quant; `gemm` does not use it."""
    import triton

    validate.tensor(x, "x")
    validate.ndim(x, "x", 2)
    validate.float_dtype(x, "x")
    m, k = x.shape
    validate.multiple(k, "x.shape[1] (K)", 32)
    q = torch.empty((m, k // 2), dtype=torch.uint8, device=x.device)
    s = torch.empty((m, k // 32), dtype=torch.uint8, device=x.device)
    block_m, block_n = min(8, triton.next_power_of_2(m)), 32
    grid = (triton.cdiv(m, block_m), triton.cdiv(k, block_n))
    kernels.quant_kernel[grid](
        x, q, s, *x.stride(), *q.stride(), *s.stride(), M=m, N=k, MXFP4_QUANT_BLOCK_SIZE=32,
        SCALING_MODE=0, NUM_ITER=1, BLOCK_SIZE_M=block_m, BLOCK_SIZE_N=block_n, NUM_STAGES=1, num_warps=4,
        num_stages=1,
    )
    return q, s
