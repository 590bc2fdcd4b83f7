"""The contest problem in pure PyTorch: its inputs, its reference output and its check.

``data = (A, B, B_q, B_shuffle, B_scale_sh)``
  A bf16 (M, K); B bf16 (N, K); B_q uint8 (N, K/2) = quantize_mxfp4(B).q; B_shuffle = shuffle_weight(B_q);
  B_scale_sh = e8m0_shuffle(B's scales), (ceil256(N), ceil8(K/32)).
``C = dequant(quantize_mxfp4(A)) @ dequant(B_q, B's scales)^T`` in fp32, returned as bf16 (M, N).
"""
from __future__ import annotations

import torch

from . import validate
from .formats import BLOCK_SIZE
from .layouts import e8m0_shuffle, e8m0_unshuffle, shuffle_weight, shuffled_scale_shape
from .quant import ROUNDINGS, dequantize_mxfp4, quantize_mxfp4

RTOL = 1e-2
ATOL = 1e-2


def _check_shape(m, n, k) -> None:
    for v, name in ((m, "m"), (n, "n"), (k, "k")):
        validate.positive(v, name)
    validate.multiple(n, "n", 16)
    validate.multiple(k, "k", 64)


def generate_input(m: int, n: int, k: int, seed: int, device="cpu", rounding: str = "rne"):
    """The contest's input tuple for one shape.

    Draws A then B with ``torch.randn(..., dtype=bfloat16, generator=g)`` from a generator on
    `device` seeded with `seed`, as the contest does; on CUDA that is the contest's exact stream (the
    CPU generator draws different numbers). B is quantized with `rounding`.
    n % 16 == 0 and k % 64 == 0 (the weight shuffle's tile and the fp4 packing).
    """
    _check_shape(m, n, k)
    validate.choice(rounding, "rounding", ROUNDINGS)
    gen = torch.Generator(device=device)
    gen.manual_seed(seed)
    a = torch.randn((m, k), dtype=torch.bfloat16, device=device, generator=gen)
    b = torch.randn((n, k), dtype=torch.bfloat16, device=device, generator=gen)
    b_q, b_scale = quantize_mxfp4(b, rounding)
    return a, b, b_q, shuffle_weight(b_q), e8m0_shuffle(b_scale)


def unpack_data(data):
    """Validate the input tuple and return it with (M, N, K); raises on any inconsistency."""
    if not isinstance(data, (tuple, list)) or len(data) != 5:
        raise TypeError("data must be the 5-tuple (A, B, B_q, B_shuffle, B_scale_sh)")
    a, b, b_q, b_shuffle, b_scale_sh = data
    for t, name in zip(data, ("A", "B", "B_q", "B_shuffle", "B_scale_sh")):
        validate.tensor(t, name)
        validate.ndim(t, name, 2)
    validate.float_dtype(a, "A")
    for t, name in ((b_q, "B_q"), (b_shuffle, "B_shuffle"), (b_scale_sh, "B_scale_sh")):
        validate.byte_dtype(t, name)
    m, k = a.shape
    n = b_shuffle.shape[0]  # N is what the kernels read: the rows of B_shuffle
    validate.multiple(k, "A.shape[1] (K)", 64)
    validate.multiple(n, "B_shuffle.shape[0] (N)", 16)
    if tuple(b_shuffle.shape) != (n, k // 2):
        raise ValueError(f"B_shuffle must have shape (N, K/2) = ({n}, {k // 2}), got {tuple(b_shuffle.shape)}")
    if tuple(b_q.shape) != (n, k // 2):
        raise ValueError(f"B_q must have shape (N, K/2) = ({n}, {k // 2}), got {tuple(b_q.shape)}")
    if tuple(b.shape) != (n, k):
        raise ValueError(f"B must have shape (N, K) = ({n}, {k}), got {tuple(b.shape)}")
    want = shuffled_scale_shape(n, k // BLOCK_SIZE)
    if tuple(b_scale_sh.shape) != want:
        raise ValueError(f"B_scale_sh must have shape (ceil256(N), ceil8(K/32)) = {want}, got {tuple(b_scale_sh.shape)}")
    for t, name in ((b, "B"), (b_q, "B_q"), (b_shuffle, "B_shuffle"), (b_scale_sh, "B_scale_sh")):
        validate.same_device(a, t, "A", name)
    return a, b, b_q, b_shuffle, b_scale_sh, (m, n, k)


def ref_kernel(data, rounding: str = "rne") -> torch.Tensor:
    """bf16 (M, N): A quantized with `rounding`, B taken as given (B_q and B_scale_sh), fp32 matmul."""
    validate.choice(rounding, "rounding", ROUNDINGS)
    a, _, b_q, _, b_scale_sh, (m, n, k) = unpack_data(data)
    a_q, a_s = quantize_mxfp4(a, rounding)
    b_s = e8m0_unshuffle(b_scale_sh, n, k // BLOCK_SIZE)
    a_f = dequantize_mxfp4(a_q, a_s)
    b_f = dequantize_mxfp4(b_q, b_s)
    return torch.mm(a_f, b_f.T).to(torch.bfloat16)


def compare(output: torch.Tensor, expected: torch.Tensor, rtol: float = RTOL, atol: float = ATOL):
    """(ok, message): elementwise ``|out - ref| <= atol + rtol * |ref|``; NaN only matches NaN."""
    validate.tensor(output, "output")
    if output.shape != expected.shape:
        return False, f"output has shape {tuple(output.shape)}, expected {tuple(expected.shape)}"
    if output.dtype != expected.dtype:
        return False, f"output has dtype {output.dtype}, expected {expected.dtype}"
    out = output.detach().to(device="cpu", dtype=torch.float32)
    ref = expected.detach().to(device="cpu", dtype=torch.float32)
    finite = out.isfinite() & ref.isfinite()
    close = finite & ((out - ref).abs() <= atol + rtol * ref.abs())
    close |= (out == ref) | (out.isnan() & ref.isnan())  # non-finite values must match exactly
    bad = ~close
    n_bad = int(bad.sum())
    if n_bad == 0:
        return True, f"all {out.numel()} elements within atol={atol} rtol={rtol}"
    idx = bad.nonzero()[:5].tolist()
    shown = ", ".join(f"{tuple(i)}: got {out[tuple(i)].item():.6g}, expected {ref[tuple(i)].item():.6g}" for i in idx)
    return False, f"{n_bad} of {out.numel()} elements ({100.0 * n_bad / out.numel():.2f}%) mismatch; first at {shown}"


def check_implementation(data, output: torch.Tensor, rounding: str = "rne"):
    """The contest's check of one output: (ok, message) against `ref_kernel(data, rounding)`."""
    return compare(output, ref_kernel(data, rounding))
