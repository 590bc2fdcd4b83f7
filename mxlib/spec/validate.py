"""Argument checks shared by every public entry point.

Each check raises TypeError (wrong kind of thing) or ValueError (right kind, wrong value) with a
message that names the argument and the rule it breaks: bad input never yields a wrong result.
"""
from __future__ import annotations

import torch

from .ints import multiple, non_negative, positive  # noqa: F401  (validate.multiple, ...: the rules live in mxlib.spec.ints)

FLOAT_DTYPES = (torch.bfloat16, torch.float16, torch.float32)


def tensor(x, name: str) -> torch.Tensor:
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor, got {type(x).__name__}")
    return x


def ndim(x: torch.Tensor, name: str, n: int) -> None:
    if x.dim() != n:
        raise ValueError(f"{name} must be {n}-D, got shape {tuple(x.shape)}")


def float_dtype(x: torch.Tensor, name: str) -> None:
    if x.dtype not in FLOAT_DTYPES:
        raise TypeError(f"{name} must be bfloat16, float16 or float32, got {x.dtype}")


def byte_dtype(x: torch.Tensor, name: str) -> None:
    """uint8, or one of torch's 1-byte views of fp4x2 / e8m0 (aiter hands those out)."""
    if x.dtype != torch.uint8 and x.dtype not in _BYTE_FLOATS:
        raise TypeError(f"{name} must hold bytes (uint8, float4_e2m1fn_x2 or float8_e8m0fnu), got {x.dtype}")


_BYTE_FLOATS = tuple(
    getattr(torch, n) for n in ("float8_e8m0fnu", "float4_e2m1fn_x2") if hasattr(torch, n)
)


def as_bytes(x: torch.Tensor) -> torch.Tensor:
    """The same storage as uint8 (no copy)."""
    return x if x.dtype == torch.uint8 else x.view(torch.uint8)


def choice(value, name: str, allowed) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, got {value!r}")


def same_device(a: torch.Tensor, b: torch.Tensor, name_a: str, name_b: str) -> None:
    if a.device != b.device:
        raise ValueError(f"{name_a} and {name_b} must be on the same device, got {a.device} and {b.device}")
