"""The call log of the fake aiter and its contract checks."""
from typing import NamedTuple

import torch

from mxlib.spec.quant import dequantize_mxfp4


class Call(NamedTuple):
    name: str
    args: tuple
    kwargs: dict


CALLS: list = []


class ContractError(AssertionError):
    """An argument the real aiter would reject, or silently misread."""


def require(cond, message: str) -> None:
    if not cond:
        raise ContractError(f"fake aiter: {message}")


def record(name: str, args: tuple, kwargs: dict) -> None:
    CALLS.append(Call(name, tuple(args), dict(kwargs)))


def as_bytes(t: torch.Tensor) -> torch.Tensor:
    return t if t.dtype == torch.uint8 else t.view(torch.uint8)


def mxfp4_matmul(a_q, a_s, b_q, b_s) -> torch.Tensor:
    """fp32 (M, N) from natural-layout fp4 bytes and E8M0 scales of both operands."""
    return torch.mm(dequantize_mxfp4(a_q, a_s), dequantize_mxfp4(b_q, b_s).T)
