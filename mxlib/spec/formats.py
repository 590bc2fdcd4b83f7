"""The two number formats of MXFP4, as constants and exact conversions.

E2M1 (the element): 1 sign bit, 2 exponent bits, 1 mantissa bit. Codes 0..7 are the magnitudes
0, 0.5, 1, 1.5, 2, 3, 4, 6; bit 3 is the sign, so code 8 is -0.0. Two codes share a byte: the
even (first) element in the low nibble.

E8M0 (the scale of a block of 32 elements): one unsigned exponent byte, value 2**(byte - 127);
byte 255 is NaN. There is no zero: byte 0 is 2**-127, an fp32 subnormal.
"""
from __future__ import annotations

import torch

from . import validate
from .devices import check_device_type

BLOCK_SIZE = 32
"""Elements that share one E8M0 scale (OCP MX: 1x32 blocks along K)."""

E8M0_BIAS = 127
E8M0_NAN = 255

E2M1_MAGNITUDES = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)
"""Magnitude of each code 0..7; codes 8..15 are the same values negated."""

E2M1_MIDPOINTS = (0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0)
"""Midpoint between consecutive magnitudes: the only values the two rounding rules can round apart (they do
at 0.25, 1.25, 2.5 and 5; in bytes they also differ on -0.0, whose sign `mxlib.spec.quant` documents)."""


def e2m1_table(device=None) -> torch.Tensor:
    """fp32 value of every code 0..15 (index = code), on `device` (None: torch's default; a name or index is
    checked, a tensor's torch.device taken as it is, meta included)."""
    if device is not None and not isinstance(device, torch.device):
        device = check_device_type(device, present=True)
    mags = list(E2M1_MAGNITUDES)
    return torch.tensor(mags + [-m for m in mags], dtype=torch.float32, device=device)


def e8m0_to_float32(scales: torch.Tensor) -> torch.Tensor:
    """Exact fp32 value of E8M0 bytes (uint8, or torch's float8_e8m0fnu view): 2**(s-127), byte 0 ->
    2**-127 (subnormal), 255 -> NaN.

    Built from bits rather than exp2 so that it is exact on every device.
    """
    validate.tensor(scales, "scales")
    validate.byte_dtype(scales, "scales")
    return _e8m0_float32(validate.as_bytes(scales).to(torch.int32))


def _e8m0_float32(s: torch.Tensor) -> torch.Tensor:
    # int32 bytes 0..255 -> their E8M0 values, from bits.
    bits = torch.where(s == 0, torch.full_like(s, 0x00400000), s << 23)
    bits = torch.where(s == E8M0_NAN, torch.full_like(s, 0x7FC00000), bits)
    return bits.view(torch.float32)


def pow2_float32(exponent: torch.Tensor) -> torch.Tensor:
    """Exact fp32 2**exponent for integer exponents in [-127, 127] (2**-127 is subnormal); an exponent
    outside that range, or a tensor that is not an integer one, is an error (its bits would be garbage)."""
    validate.tensor(exponent, "exponent")
    if exponent.dtype.is_floating_point or exponent.dtype.is_complex or exponent.dtype == torch.bool:
        raise TypeError(f"exponent must be an integer tensor, got {exponent.dtype}")
    if exponent.numel() and not bool(((exponent >= -E8M0_BIAS) & (exponent <= E8M0_BIAS)).all()):
        raise ValueError(f"exponent must be in [-{E8M0_BIAS}, {E8M0_BIAS}]")
    return _e8m0_float32(exponent.to(torch.int32) + E8M0_BIAS)


def pack_nibbles(codes: torch.Tensor) -> torch.Tensor:
    """(..., K) integer codes 0..15 -> (..., K/2) uint8, even element in the low nibble. K must be even,
    and a code outside 0..15 is an error (it would spill into its neighbour's nibble)."""
    validate.tensor(codes, "codes")
    if codes.dtype.is_floating_point or codes.dtype.is_complex or codes.dtype == torch.bool:
        raise TypeError(f"codes must be an integer tensor, got {codes.dtype}")
    if codes.dim() == 0 or codes.shape[-1] % 2:
        raise ValueError(f"codes' last dimension must be even (two codes a byte), got shape {tuple(codes.shape)}")
    if codes.numel() and not bool(((codes >= 0) & (codes <= 15)).all()):
        raise ValueError("codes must be in 0..15 (one E2M1 code a nibble)")
    codes = codes.to(torch.uint8)
    return codes[..., 0::2] | (codes[..., 1::2] << 4)


def unpack_nibbles(packed: torch.Tensor) -> torch.Tensor:
    """(..., K/2) bytes (uint8 or torch's fp4x2 view) -> (..., K) uint8 codes; the inverse of pack_nibbles."""
    validate.tensor(packed, "packed")
    validate.byte_dtype(packed, "packed")
    if packed.dim() == 0:
        raise ValueError("packed must have at least one dimension (bytes along K/2), got a 0-d tensor")
    packed = validate.as_bytes(packed)
    lo = packed & 0xF
    hi = packed >> 4
    return torch.stack((lo, hi), dim=-1).flatten(-2)
