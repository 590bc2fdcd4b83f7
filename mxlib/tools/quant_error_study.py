"""The error MXFP4 quantization makes, as notebook 01 studies it: what the amax round-up of the scale rule
buys (against the OCP MX v1.0 rule, which has none), and the per-element error, SNR and flushed share on
three distributions (`amax_roundup_figure`, `error_histograms` draw them). The format's rules themselves
are `mxlib.spec.quant`'s; this module only measures.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch

import mxlib
from ..spec import validate
from ..spec.formats import BLOCK_SIZE, E8M0_BIAS, e2m1_table, pow2_float32
from ..spec.quant import round_to_e2m1


def floor_scale_roundtrip(x: torch.Tensor, rounding: str = "rne") -> torch.Tensor:
    """(M, K) float -> the float32 values MXFP4 would give with the scale rule WITHOUT the amax round-up:
    e = floor(log2(amax)) - 2 per 32-value block (clamped to [-127, 127]), elements rounded onto E2M1 by
    `rounding` and saturated at 6. That is the OCP MX v1.0 rule (shared exponent floor(log2(amax)) minus
    E2M1's largest exponent, 2; torchao's FLOOR), from which aiter's quantizer, and so the contest's checker,
    departs: with it a block whose amax lies in [1.75, 2) * 2**p scales past 6 and its largest element
    saturates. x must be finite."""
    validate.tensor(x, "x")
    validate.ndim(x, "x", 2)
    validate.float_dtype(x, "x")
    validate.multiple(x.shape[1], "x.shape[1] (K)", BLOCK_SIZE)
    if not torch.isfinite(x).all():
        raise ValueError("x must be finite: this study's floor rule has no NaN/Inf convention")
    m, k = x.shape
    blocks = x.to(torch.float32).reshape(m, k // BLOCK_SIZE, BLOCK_SIZE)
    amax = blocks.abs().amax(dim=-1)
    field = (amax.contiguous().view(torch.int32) >> 23) & 0xFF  # floor(log2(amax)) + 127 for normal amax
    e = torch.clamp(field - E8M0_BIAS - 2, -127, 127)
    codes = round_to_e2m1(blocks * pow2_float32(-e).unsqueeze(-1), rounding)
    values = e2m1_table(x.device)[codes.long()] * pow2_float32(e).unsqueeze(-1)
    return values.reshape(m, k)


def amax_roundup_errors(amax: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """For each block maximum in `amax` (1-D, positive), the relative error of that largest element in a
    block of it and 31 elements of 0.01, quantized with "rne": (with mxlib's scale rule, with the
    counterfactual `floor_scale_roundtrip`), each float32 of amax's length."""
    validate.tensor(amax, "amax")
    validate.ndim(amax, "amax", 1)
    if not (amax > 0).all():
        raise ValueError("amax must hold positive block maxima")
    blocks = torch.full((len(amax), BLOCK_SIZE), 0.01, dtype=torch.float32, device=amax.device)
    blocks[:, 0] = amax
    rule = mxlib.dequantize_mxfp4(*mxlib.quantize_mxfp4(blocks, "rne"))[:, 0]
    floor = floor_scale_roundtrip(blocks, "rne")[:, 0]
    a = amax.float()
    return (rule - a).abs() / a, (floor - a).abs() / a


def _uniform(shape: tuple[int, ...], generator: torch.Generator) -> torch.Tensor:
    """float64 in (0, 1) from 52 random bits an element, exactly (i + 0.5) / 2**52. Drawn as integers, so the
    same with every ATEN_CPU_CAPABILITY: torch's float32 `randn` takes a vectorized path where the CPU has AVX2
    and a scalar one elsewhere, and the two differ in the last bits, enough to move elements across notebook 01's
    histogram bins."""
    bits = torch.randint(0, 2**52, shape, generator=generator, dtype=torch.int64)
    return (bits.double() + 0.5) / 2**52


def _normal(shape: tuple[int, ...], generator: torch.Generator) -> torch.Tensor:
    """N(0, 1) in float64 by Box-Muller on `_uniform` draws."""
    u1, u2 = _uniform(shape, generator), _uniform(shape, generator)
    return torch.sqrt(-2 * torch.log(u1)) * torch.cos(2 * math.pi * u2)


def student_t(shape: tuple[int, ...], dof: int, generator: torch.Generator) -> torch.Tensor:
    """Student-t samples with `dof` degrees of freedom (float32): N(0, 1) / sqrt(chi2_dof / dof), the chi2
    as a sum of `dof` squared normals (each from `_normal`, in float64)."""
    if not isinstance(dof, int) or dof < 1:
        raise ValueError(f"dof must be a positive integer, got {dof!r}")
    chi2 = torch.zeros(shape, dtype=torch.float64)
    for _ in range(dof):
        chi2 += _normal(shape, generator).pow(2)
    return (_normal(shape, generator) / (chi2 / dof).sqrt()).float()


def distributions(shape: tuple[int, int], seed: int) -> dict[str, torch.Tensor]:
    """Notebook 01's three inputs, float32 of `shape`: Gaussian; Student-t with 3 degrees of freedom; and
    Gaussian with 1 element in 1000 (in expectation) multiplied by 50, like LLM activations' outliers. The
    draws are the same with every ATEN_CPU_CAPABILITY (`_uniform`; float64 transcendentals), so the notebook's
    figure is too."""
    g = torch.Generator().manual_seed(seed)
    gauss = _normal(shape, g).float()
    t3 = student_t(shape, 3, g)
    outliers = _normal(shape, g)
    outliers[_uniform(shape, g) < 1e-3] *= 50
    return {"Gaussian": gauss, "Student-t (3 dof)": t3, "Gaussian + 0.1% 50x outliers": outliers.float()}


@dataclass(frozen=True)
class QuantError:
    """The error of one quantization (see `quant_error`)."""

    relative: torch.Tensor  # |q(x) - x| / |x| per nonzero element of x (1-D)
    snr_db: float  # 10 log10(sum x^2 / sum (q(x) - x)^2)
    flushed: float  # share of all elements that are nonzero in x and zero after quantization


def quant_error(x: torch.Tensor, rounding: str = "rne") -> QuantError:
    """Quantize (M, K) `x` to MXFP4 and back (`mxlib.quantize_mxfp4`, exact dequantization) and measure
    the error against `x` itself: per element, as an SNR, and as the share flushed to zero."""
    xf = x.float()
    xq = mxlib.dequantize_mxfp4(*mxlib.quantize_mxfp4(x, rounding))
    nz = xf != 0
    noise = (xq - xf).pow(2).sum()
    return QuantError(
        relative=(xq - xf)[nz].abs() / xf[nz].abs(),
        snr_db=(10 * torch.log10(xf.pow(2).sum() / noise)).item() if noise > 0 else float("inf"),
        flushed=((xq == 0) & nz).float().mean().item(),
    )


def amax_roundup_figure(amax: torch.Tensor):
    """Notebook 01's figure: the relative error of a block's largest element against its amax (each block
    with 31 elements of 0.01), under mxlib's scale rule and under a plain floor(log2 amax)."""
    import matplotlib.pyplot as plt

    err_rule, err_floor = amax_roundup_errors(amax)
    fig, ax = plt.subplots(figsize=(7, 3.8))
    ax.plot(amax, 100 * err_rule, label="mxlib (amax rounded up at 1.75·2^p)")
    ax.plot(amax, 100 * err_floor, "--", label="plain floor(log2 amax)")
    ax.axvline(7.0, color="#999999", lw=0.8)
    ax.text(7.02, 1, "1.75·4", color="#666666")
    ax.set(xlabel="block amax (units of the input)", ylabel="error of the largest element (%)",
           title="The amax round-up caps the error of a block's largest element")
    ax.legend()
    return fig


def error_histograms(dists: dict[str, torch.Tensor], rounding: str = "rne"):
    """(lines, figure): per distribution (`distributions`), the SNR and flushed share of `quant_error` on its
    bf16 values, and a histogram of log10 relative error per element (exact elements at -4)."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(dists), figsize=(11, 3.6), sharey=True, layout="constrained")
    lines = []
    for ax, (name, x) in zip(axes, dists.items()):
        err = quant_error(x.to(torch.bfloat16), rounding)
        # log10 in float64: a float32 one may differ in its last bit between CPUs, and move an element across a bin
        ax.hist(err.relative.double().clamp(1e-4, 1).log10().numpy(), bins=80, color="#0072B2")
        ax.set(title=name, xlabel="log10 relative error per element (exact at -4)")
        ax.text(0.03, 0.95, f"SNR {err.snr_db:.1f} dB\n{100 * err.flushed:.1f}% flushed to 0", transform=ax.transAxes,
                va="top", fontsize=8)
        lines.append(f"{name:32s} SNR {err.snr_db:5.1f} dB, flushed to zero {100 * err.flushed:4.1f}%")
    axes[0].set_ylabel("elements (count)")
    fig.suptitle(f"MXFP4 ({rounding}) quantization error: flushed elements pile up at relative error 1")
    return "\n".join(lines), fig
