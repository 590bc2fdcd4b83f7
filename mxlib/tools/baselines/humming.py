"""vLLM's Humming kernels on the contest's weight: a purpose-built Hopper baseline beside mxlib's CUDA path.

Humming (PyPI `humming-kernels`, the quantized GEMM backend of vLLM) compiles its kernels on first use; on sm_90
it decodes the weight inside a warpgroup-MMA GEMM, as mxlib's `mma_sm90` does, with schedules of its own
choosing. Two activations, each a bench provider (`mxlib.tools.providers`):

- `"bf16"`: A as given times the MXFP4 weight (W4A16). A is not quantized, so this is not the contest's
  result: a speed reference, as cuBLAS bf16 is.
- `"fp8"`: A quantized inside the call by Humming to E4M3 with a scale per 32 values, then the GEMM (W4A8):
  like mxlib, a quantizer and a GEMM in every call, but to 8-bit values, not the contest's 4-bit ones, so not
  the contest's result either. Humming's Hopper kernels take these scales as fp32, not E8M0.

The weight is the contest's: `B_q` (N, K/2), two E2M1 codes a byte (the low nibble first), and `B_scale_sh`
un-shuffled to its natural (N, K/32) E8M0 bytes; Humming's layer copies both into parameters of its own
(`load_state_dict`; humming-kernels 0.1.20, read from its wheel), so the contest tuple's tensors are left as they
were, and converts those to its own layout outside the timed call, its N padded to a multiple of `PAD_N` (Humming's
Hopper tiles: 2880 -> 2944, 2112 -> 2176, so 2-3% more weight rows read and multiplied there). mxlib does not
install Humming: `pip install humming-kernels` on a CUDA machine with a CUDA compiler (nvcc or NVRTC).
"""
from __future__ import annotations

import torch

from ...spec import validate
from ...spec.formats import BLOCK_SIZE
from ...spec.layouts import e8m0_unshuffle
from ...spec.reference import unpack_data

# Humming's input configs (its `input_config`) for each activation mxlib times.
ACTIVATIONS = {
    "bf16": {},
    "fp8": {"dtype": "float8e4m3", "group_size": BLOCK_SIZE, "scale_dtype": "float32", "quant_mode": "dynamic_group"},
}
PAD_N = 128  # Humming's sm_90 kernels want N a multiple of their 128-wide tiles


def _layer_class():
    try:
        from humming.layer import HummingLayer
    except ImportError as exc:
        raise RuntimeError(f"the humming providers need humming-kernels (pip install humming-kernels): {exc}") \
            from exc
    return HummingLayer


def version() -> str:
    """The installed humming-kernels' version, for the bench's records ("" if it is not installed)."""
    from importlib.metadata import PackageNotFoundError, version as dist_version
    try:
        return dist_version("humming-kernels")
    except PackageNotFoundError:
        return ""


def layer(b_q: torch.Tensor, b_scale: torch.Tensor, activation: str = "bf16"):
    """A Humming layer holding the weight: `b_q` (N, K/2) packed E2M1 and `b_scale` (N, K/32) E8M0, both
    uint8 (or 1-byte views) on one CUDA device; `activation` a key of `ACTIVATIONS`. Call it on a bf16
    (M, K) A to get the bf16 (M, N) product."""
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {', '.join(ACTIVATIONS)}, got {activation!r}")
    b_q, b_scale = validate.as_bytes(b_q), validate.as_bytes(b_scale)
    for t, name in ((b_q, "b_q"), (b_scale, "b_scale")):
        validate.tensor(t, name)
        validate.ndim(t, name, 2)
    n, k = b_q.shape[0], 2 * b_q.shape[1]
    if k % BLOCK_SIZE or tuple(b_scale.shape) != (n, k // BLOCK_SIZE):
        raise ValueError(f"b_scale must have shape (N, K/{BLOCK_SIZE}) = ({n}, {k // BLOCK_SIZE}) for b_q of "
                         f"shape {tuple(b_q.shape)} (K a multiple of {BLOCK_SIZE}), got {tuple(b_scale.shape)}")
    if b_q.device.type != "cuda" or b_scale.device != b_q.device:
        raise ValueError(f"b_q and b_scale must be on one CUDA device, got {b_q.device} and {b_scale.device}")
    hl = _layer_class()(shape_n=n, shape_k=k, weight_config={"quant_method": "mxfp4"},
                        input_config=dict(ACTIVATIONS[activation]), pad_n_to_multiple=PAD_N,
                        torch_dtype=torch.bfloat16).to(b_q.device)
    hl.load_from_tensors({"weight": b_q.contiguous(), "weight_scale": b_scale.contiguous()})
    hl.transform()
    return hl


def make(data, activation: str = "bf16"):
    """A zero-argument call for the bench: the contest tuple's weight in a Humming layer (built outside the
    timed call), applied to its A."""
    a, _, b_q, _, b_scale_sh, (m, n, k) = unpack_data(data)
    hl = layer(b_q, e8m0_unshuffle(validate.as_bytes(b_scale_sh), n, k // BLOCK_SIZE), activation)
    return lambda: hl(a)
