"""The contest problem in pure PyTorch: its inputs, its reference output and its check.

``data = (A, B, B_q, B_shuffle, B_scale_sh)``
  A bf16 (M, K); B bf16 (N, K); B_q uint8 (N, K/2) = quantize_mxfp4(B).q; B_shuffle = shuffle_weight(B_q);
  B_scale_sh = e8m0_shuffle(B's scales), (ceil256(N), ceil8(K/32)).
``C = dequant(quantize_mxfp4(A)) @ dequant(B_shuffle, B_scale_sh)^T``, returned as bf16 (M, N).

B_shuffle and B_scale_sh are the weight: they are what every kernel, aiter's and the contest's
checker read. B and B_q are the same weight in other forms and are not read to compute C; the
reference checks that B_q is B_shuffle unshuffled (it unshuffles B_shuffle anyway) and raises when
they disagree, so inconsistent inputs fail loudly instead of giving backend-dependent answers.

The rule every path and backend follows (mxlib's; the contest never feeds such values, and its
public sources disagree). The dequantized operands D_A and D_B are fp32 values, as
`dequantize_mxfp4` gives them: r * 2**e for an E2M1 value r, +-Inf where that reaches 2**128 (E8M0
bytes 253 and 254 with the largest codes), NaN for scale byte 255 (a block that held NaN or Inf).
C[m, n] is the exact sum of the products D_A[m, k] * D_B[n, k] under IEEE rules (a NaN operand,
Inf * 0, or +Inf and -Inf products in one sum give NaN; any other infinite product gives its
infinity), rounded to fp32 and then to bf16, so a magnitude past bf16's range is +-Inf.
`ref_kernel` computes that in fp64: every product exact, and the sum exact unless its terms span more
than fp64's 53 bits. Then fp64 rounds it: 2**60 + 1 - 2**60 gives 0, and 1 + 2**-8 + 2**-24 + 2**-80 loses
its last term, so the fp32 rounding meets a tie the exact sum does not have and C comes out one bf16 step
low (1 instead of 1 + 2**-7); `check_exact`'s tolerance covers that step.
The kernels accumulate in fp32, in their own order: each element may differ from the reference by
that rounding (`check_exact` says how much), and where the finite products' magnitudes add up to
fp32's range or more, fp32 partial sums can overflow, so a kernel may give +-Inf or NaN there
instead of a finite exact result.

One documented departure, a property of the compiler rather than of the kernels: on NVIDIA GPUs,
Triton older than 3.9 decodes an E8M0 scale byte of 0 as 0 instead of 2**-127 inside `tl.dot_scaled`
(its sm_90 lowering builds the bf16 scale as ``byte << 7``; triton-lang/triton#11624 fixed it for 3.9).
The paths that hand their scales to `tl.dot_scaled` then read every block with scale byte 0 as zero:
B's such blocks on paths "fused" and "fused_fp4", and A's on "fused_fp4" (A's block scale byte is 0
when the block's largest magnitude is below 1.75 * 2**-125, about 4.1e-38). All-zero blocks are zero
either way; nothing else changes. A path module's `zero_scale_operands(device)` names the operands it
so reads on a device (`mxlib.runtime.paths.path_zero_scale_operands`), and `check_exact` and
`exact_errors` take them as `zero_scale_operands`, checking the output against the rule with those
blocks counted as zero.
"""
from __future__ import annotations

import numbers

import torch

from . import validate
from .devices import check_device_type
from .formats import BLOCK_SIZE
from . import ints
from .ints import K_MULTIPLE, N_MULTIPLE, gemm_shape
from .layouts import e8m0_shuffle, e8m0_unshuffle, shuffle_weight, shuffled_scale_shape, unshuffle_weight
from .quant import ROUNDINGS, check_values, dequantize_mxfp4, quantize_mxfp4
from .validate import byte_dtype, float_dtype, ndim, same_device, tensor

RTOL = 1e-2
ATOL = 1e-2


def check_device(device, name: str = "device") -> torch.device:
    """`device` as a torch.device that has a random generator to draw inputs from: the CPU, or a
    CUDA/ROCm device that is present (`devices.check_device_type`); ValueError naming `name` otherwise."""
    return check_device_type(device, name, present=True)


def input_seed(seed) -> int:
    """`seed` as `generate_input` takes it: an integer in [0, 2**64) (what a torch generator takes)."""
    value = ints._as_int(seed)
    if value is None:
        raise TypeError(f"seed must be an integer, got {type(seed).__name__} {seed!r}")
    if not 0 <= value < 2**64:
        raise ValueError(f"seed must be in [0, 2**64), got {seed}")
    return value


def generate_input(m: int, n: int, k: int, seed: int, device="cpu", rounding: str = "rne"):
    """The contest's input tuple for one shape.

    Draws A then B with ``torch.randn(..., dtype=bfloat16, generator=g)`` from a generator on
    `device` seeded with `seed`, as the contest does; on CUDA that is the contest's exact stream (the
    CPU generator draws different numbers). B is quantized with `rounding`.
    n % 16 == 0 and k % 64 == 0 (the weight shuffle's tile and the fp4 packing); `seed` an integer
    in [0, 2**64) (what a torch generator takes; the CPU one reads it modulo 2**63).
    """
    m, n, k = gemm_shape(m, n, k)
    seed = input_seed(seed)
    device = check_device(device)
    validate.choice(rounding, "rounding", ROUNDINGS)
    gen = torch.Generator(device=device)
    gen.manual_seed(seed)
    a = torch.randn((m, k), dtype=torch.bfloat16, device=device, generator=gen)
    b = torch.randn((n, k), dtype=torch.bfloat16, device=device, generator=gen)
    b_q, b_scale = quantize_mxfp4(b, rounding)
    return a, b, b_q, shuffle_weight(b_q), e8m0_shuffle(b_scale)


def check_gemm_operands(a, b_shuffle, b_scale_sh, names=("a", "b_shuffle", "b_scale_sh"),
                        contiguous: bool = False) -> tuple[int, int, int]:
    """(M, N, K) of a GEMM's three operands, or TypeError / ValueError naming the argument (`names`)
    and the rule: A (M, K) float with K a positive multiple of 64 and M >= 0 (M = 0 gives an empty
    result); B_shuffle (N, K/2) bytes with N a positive multiple of 16; B_scale_sh (ceil256(N),
    ceil8(K/32)) bytes; all on one device; with `contiguous`, B's tensors contiguous too (a kernel
    reads their layouts as positions in storage). Reads only shapes, dtypes, devices and strides,
    so it runs on meta and fake tensors. (Names imported one by one: the exported submission copies
    this function, mxlib.tools.export.)"""
    na, nb, ns = names
    for t, name in ((a, na), (b_shuffle, nb), (b_scale_sh, ns)):
        tensor(t, name)
        ndim(t, name, 2)
    float_dtype(a, na)
    byte_dtype(b_shuffle, nb)
    byte_dtype(b_scale_sh, ns)
    m, k = a.shape
    n = b_shuffle.shape[0]  # N is what the kernels read: the rows of B_shuffle
    if k < K_MULTIPLE or k % K_MULTIPLE:
        raise ValueError(f"{na}.shape[1] (K) must be a positive multiple of {K_MULTIPLE}, got {k}")
    if n < N_MULTIPLE or n % N_MULTIPLE:
        raise ValueError(f"{nb}.shape[0] (N) must be a positive multiple of {N_MULTIPLE}, got {n}")
    if tuple(b_shuffle.shape) != (n, k // 2):
        raise ValueError(f"{na} and {nb} disagree on K: {na}.shape[1] = {k}, but {nb} has shape "
                         f"{tuple(b_shuffle.shape)} (it must be (N, K/2) = ({n}, {k // 2}))")
    want = shuffled_scale_shape(n, k // BLOCK_SIZE)
    if tuple(b_scale_sh.shape) != want:
        raise ValueError(f"{ns} must have shape (ceil256(N), ceil8(K/32)) = {want}, got {tuple(b_scale_sh.shape)}")
    for t, name in ((b_shuffle, nb), (b_scale_sh, ns)):
        same_device(a, t, na, name)
        if contiguous and not t.is_contiguous():
            raise ValueError(f"{name} must be contiguous (its layout is a position in contiguous storage)")
    return m, n, k


def data_items(data) -> tuple:
    """The contest's input `data` as its five items (A, B, B_q, B_shuffle, B_scale_sh), refused by name when it
    is not a 5-tuple or list (the exported files' custom_kernel reads it through this too)."""
    if not isinstance(data, (tuple, list)) or len(data) != 5:
        raise TypeError("data must be the 5-tuple (A, B, B_q, B_shuffle, B_scale_sh)")
    return tuple(data)


def unpack_data(data, contiguous: bool = False):
    """Validate the input tuple and return it with (M, N, K); raises on any inconsistency. B must be a float
    (N, K) tensor like A, though nothing computes from it: B, B_q and B_shuffle are the same weight in
    other forms, and the kernels and this reference read B_shuffle and B_scale_sh; with `contiguous`, those
    two must be contiguous (`check_gemm_operands`)."""
    a, b, b_q, b_shuffle, b_scale_sh = data_items(data)
    m, n, k = check_gemm_operands(a, b_shuffle, b_scale_sh, ("A", "B_shuffle", "B_scale_sh"), contiguous)
    for t, name in ((b, "B"), (b_q, "B_q")):
        validate.tensor(t, name)
        validate.ndim(t, name, 2)
    validate.float_dtype(b, "B")
    validate.byte_dtype(b_q, "B_q")
    if tuple(b_q.shape) != (n, k // 2):
        raise ValueError(f"B_q must have shape (N, K/2) = ({n}, {k // 2}), got {tuple(b_q.shape)}")
    if tuple(b.shape) != (n, k):
        raise ValueError(f"B must have shape (N, K) = ({n}, {k}), got {tuple(b.shape)}")
    for t, name in ((b, "B"), (b_q, "B_q")):
        validate.same_device(a, t, "A", name)
    return a, b, b_q, b_shuffle, b_scale_sh, (m, n, k)


ZERO_SCALE_OPERANDS = ("A", "B")


def _dequantized(data, rounding: str, zero_scale_operands=(), check_b_q: bool = True):
    """(D_A, D_B, (m, n, k)): both operands dequantized in fp32, as the rule in the module docstring reads
    them; the blocks with scale byte 0 of the operands named in `zero_scale_operands` read as zero. B_q is
    checked against B_shuffle unless `check_b_q` is False (then it is not read)."""
    validate.choice(rounding, "rounding", ROUNDINGS)
    if not isinstance(zero_scale_operands, (tuple, list)):
        raise TypeError(f"zero_scale_operands must be a tuple of operand names ({', '.join(map(repr, ZERO_SCALE_OPERANDS))}), "
                        f"got {type(zero_scale_operands).__name__} {zero_scale_operands!r}")
    for name in zero_scale_operands:
        validate.choice(name, "zero_scale_operands item", ZERO_SCALE_OPERANDS)
    a, _, b_q, b_shuffle, b_scale_sh, (m, n, k) = unpack_data(data)
    for t, name in ((a, "A"), (b_shuffle, "B_shuffle")):
        check_values(t, name)
    b_codes = unshuffle_weight(b_shuffle)
    if check_b_q and not torch.equal(validate.as_bytes(b_q), validate.as_bytes(b_codes)):
        raise ValueError("B_q and B_shuffle disagree: B_shuffle must be shuffle_weight(B_q); B_shuffle and "
                         "B_scale_sh are the weight every kernel reads")
    operands = []
    for name, (codes, scales) in (("A", quantize_mxfp4(a, rounding)),
                                  ("B", (b_codes, e8m0_unshuffle(b_scale_sh, n, k // BLOCK_SIZE)))):
        d = dequantize_mxfp4(codes, scales)
        if name in zero_scale_operands:
            d = torch.where((scales == 0).repeat_interleave(BLOCK_SIZE, dim=-1), torch.zeros_like(d), d)
        operands.append(d)
    return operands[0], operands[1], (m, n, k)


def ref_kernel(data, rounding: str = "rne") -> torch.Tensor:
    """bf16 (M, N): A quantized with `rounding`, B taken as given (B_shuffle and B_scale_sh, B_q checked
    against them); the exact sum of products rounded to fp32, then bf16 (the rule in the module docstring)."""
    return _reference(data, rounding, check_b_q=True)


def ref_from_weight(data, rounding: str = "rne") -> torch.Tensor:
    """`ref_kernel` from the weight alone: B_shuffle and B_scale_sh, B_q not read (so not checked), as every
    kernel reads the weight; `mxlib.custom_kernel`'s "torch" backend, so that no backend reads B_q."""
    return _reference(data, rounding, check_b_q=False)


def _reference(data, rounding: str, check_b_q: bool) -> torch.Tensor:
    a_f, b_f, _ = _dequantized(data, rounding, check_b_q=check_b_q)
    return torch.mm(a_f.double(), b_f.double().T).to(torch.float32).to(torch.bfloat16)


# The rounding a kernel may add to the exact result (check_exact): bf16 rounding of its own output and
# of the reference, fp32 accumulation in any order (K * 2**-23 of the sum of |products|, two worst-case
# fp32 sums), and one step of bf16's smallest subnormal (2**-133) on either side.
EXACT_RTOL = 2.0**-7
EXACT_ACC_PER_K = 2.0**-23
EXACT_ATOL = 2.0**-132
_F32_MAX = torch.finfo(torch.float32).max


def _finite_abs(x: torch.Tensor) -> torch.Tensor:
    return torch.where(x.isfinite(), x.abs(), torch.zeros_like(x)).double()


def exact_errors(data, output: torch.Tensor, rounding: str = "rne", zero_scale_operands=()) -> dict:
    """`output` measured against the rule in the module docstring, as (M, N) CPU tensors: "ref" (the
    exact result, bf16 values in fp64), "error" (|out - ref|, NaN where either is not finite),
    "allowed" (EXACT_RTOL * |ref| + K * EXACT_ACC_PER_K * T + EXACT_ATOL, T = the sum of the finite
    products' magnitudes), "terms" (that T), "good" (the element follows the rule) and "ratio"
    (error / allowed, 0 where not finite). `zero_scale_operands` ("A", "B" or both): those operands'
    blocks with scale byte 0 count as zero (the documented departure in the module docstring).
    Raises ValueError when `output` is not a bfloat16 (M, N) tensor."""
    validate.tensor(output, "output")
    a_f, b_f, (m, n, k) = _dequantized(data, rounding, zero_scale_operands)
    if tuple(output.shape) != (m, n) or output.dtype != torch.bfloat16:
        raise ValueError(f"output must be a bfloat16 {(m, n)} tensor, got {output.dtype} {tuple(output.shape)}")
    check_values(output, "output")
    ref = torch.mm(a_f.double(), b_f.double().T).to(torch.float32).to(torch.bfloat16).double().cpu()
    terms = torch.mm(_finite_abs(a_f), _finite_abs(b_f).T).cpu()
    out = output.detach().double().cpu()
    both_finite = out.isfinite() & ref.isfinite()
    error = torch.where(both_finite, (out - ref).abs(), torch.full_like(ref, float("nan")))
    allowed = EXACT_RTOL * ref.abs() + k * EXACT_ACC_PER_K * terms + EXACT_ATOL
    good = torch.where(both_finite, error <= allowed, (out == ref) | (out.isnan() & ref.isnan()))
    good |= (terms >= _F32_MAX) & ~out.isfinite()
    ratio = torch.where(both_finite, error / allowed, torch.zeros_like(ref))
    return {"ref": ref, "error": error, "allowed": allowed, "terms": terms, "good": good, "ratio": ratio}


def check_exact(data, output: torch.Tensor, rounding: str = "rne", zero_scale_operands=()):
    """(ok, message): `output` against the rule in the module docstring, by relative error; with
    `zero_scale_operands`, against the rule with those operands' blocks of scale byte 0 counted as zero.

    A finite element passes when its error is within EXACT_RTOL of |ref| plus K * EXACT_ACC_PER_K of
    T (the sum of |D_A[m, k] * D_B[n, k]| over the finite products) plus EXACT_ATOL: the error is
    measured against the result and against its terms, never against a fixed absolute tolerance, so
    a zero, a lost block or a flushed result fails at any scale. NaN must match NaN and +-Inf the same
    infinity, except where T reaches fp32's range (fp32 partial sums may overflow): there any
    non-finite output is accepted too (`exact_errors` gives the per-element figures).
    """
    validate.tensor(output, "output")
    m, n, _ = unpack_data(data)[5]
    if tuple(output.shape) != (m, n) or output.dtype != torch.bfloat16:
        return False, f"output must be a bfloat16 {(m, n)} tensor, got {output.dtype} {tuple(output.shape)}"
    e = exact_errors(data, output, rounding, zero_scale_operands)
    worst = float(e["ratio"].max()) if e["ratio"].numel() else 0.0
    bad = ~e["good"]
    n_bad, total = int(bad.sum()), bad.numel()
    if n_bad == 0:
        return True, f"all {total} elements follow the rule; worst error {worst:.3g} of the allowed"
    out = output.detach().double().cpu()
    shown = ", ".join(f"{tuple(i)}: got {out[tuple(i)].item():.6g}, exact {e['ref'][tuple(i)].item():.6g}"
                      for i in bad.nonzero()[:3].tolist())
    return False, f"{n_bad} of {total} elements ({100.0 * n_bad / total:.2f}%) break the rule; first at {shown}"


def compare(output: torch.Tensor, expected: torch.Tensor, rtol: float = RTOL, atol: float = ATOL):
    """(ok, message): elementwise ``|out - ref| <= atol + rtol * |ref|``; NaN only matches NaN. `rtol` and `atol`
    finite real numbers >= 0; both tensors with values (not meta), `expected` real."""
    for t, name in ((output, "output"), (expected, "expected")):
        validate.tensor(t, name)
        check_values(t, name)
    if expected.is_complex():  # an output of another dtype fails below, as any wrong dtype does
        raise ValueError(f"expected is {expected.dtype}: compare takes a real expected tensor")
    for value, name in ((rtol, "rtol"), (atol, "atol")):  # numpy's scalars are numbers.Real too
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 <= value < float("inf"):
            raise ValueError(f"{name} must be a finite real number >= 0, got {value!r}")
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
    """The contest's tolerance on one output: (ok, message) against mxlib's exact `ref_kernel(data, rounding)`.

    Two departures from the contest's check: it also refuses a dtype other than the reference's (the
    contest's `verbose_allclose` casts both sides to fp32 and checks the shape only), and its reference is
    the exact product rounded once to fp32 and then to bf16, where the contest's is aiter's `gemm_a4w4` on
    the MI355X (fp32 sums in that kernel's order)."""
    return compare(output, ref_kernel(data, rounding))
