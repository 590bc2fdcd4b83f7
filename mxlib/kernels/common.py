"""Triton helpers shared by the GEMM paths: fp4 decode, E8M0 decode, the preshuffled address math,
the scaled tile loop every path is built on, and the fp32 -> bf16 rounding of every output.

Why this formulation: each 32-element K group is one fp16 `tl.dot` of the raw E2M1 values (exact in
fp16; their products and 32-term sums are exact in the fp32 accumulator), then scaled in fp32 by the
two E8M0 scales of that group, smaller scale first, so the scaled group sum is the exact one rounded
once (no spurious overflow from multiplying by the larger scale first). It is exact on every backend
Triton has, including the CPU interpreter, whose `tl.dot` is wrong on bf16 operands but right on fp16
(it upcasts to the fp32 accumulator dtype), so the kernel tested on the CPU is the kernel shipped to
GPUs. Dequantized values that reach 2**128 are +-Inf under `mxlib.spec.reference`'s rule (scale bytes 253
and 254 with the largest codes): for those rows the fp16 values are lifted by 2**14 or 2**15
(`mx_inf_lift`), which makes exactly those values Inf in fp16 and leaves the rest exact, and the scale
is divided by the same power of two, so the dot itself gives Inf * 0 = NaN and +Inf - Inf = NaN.

Outputs are rounded to bf16 by integer arithmetic on the fp32 bits (`mx_f32_to_bf16`): the
interpreter's own cast flushes bf16 subnormals and saturates at bf16's largest value instead of Inf.

Layouts, read in place, with their addresses split into a row part and a column part so a tile adds a
column vector to a row vector (the Triton side of `mxlib.spec.layouts.weight_position` and
`scale_position`; tests/test_layouts.py holds the two sides to each other):
  B_shuffle byte (n, kb) at mx_shuffled_weight_row(n, Kb) + mx_shuffled_weight_col(kb), i.e.
  (n//16)*16*Kb + (n%16)*16 + (kb//32)*512 + ((kb%32)//16)*256 + kb%16, so K group g of row n is the
  16 contiguous bytes from mx_shuffled_weight_row(n, Kb) + mx_shuffled_weight_col(16*g).
  e8m0_shuffle scale (r, g) at mx_shuffled_scale_row(r, sn) + mx_shuffled_scale_col(g), i.e.
  (r//32)*32*sn + (r%16)*4 + (r%32)//16 + (g//8)*256 + (g%4)*64 + ((g%8)//4)*2.
"""
from __future__ import annotations

import os
import re
import threading

import torch
import triton
import triton.language as tl
from triton.runtime.interpreter import InterpretedFunction

from ..spec.reference import check_gemm_operands
from ..spec.quant import ROUNDINGS
from ..spec.validate import choice, tensor


@triton.jit
def mx_e8m0_to_f32(s):
    """E8M0 bytes (int32 0..255) -> exact fp32 2**(s-127); 0 -> 2**-127 (subnormal), 255 -> NaN."""
    bits = tl.where(s == 0, 0x400000, s << 23)
    bits = tl.where(s == 255, 0x7FC00000, bits)
    return bits.to(tl.float32, bitcast=True)


@triton.jit
def mx_bits_f32(x):
    """Elements as exact fp32 bit patterns (int32). bf16 is widened by moving its bits (the interpreter's
    bf16 -> fp32 cast loses subnormals: KERNEL_NOTES.md, "Triton on sm_90 and in the interpreter"; on a GPU
    it is the same shift)."""
    if x.dtype == tl.bfloat16:
        return x.to(tl.int16, bitcast=True).to(tl.int32) << 16
    else:
        return x.to(tl.float32).to(tl.int32, bitcast=True)


@triton.jit
def mx_block_exponent(amax):
    """A block's scale exponent e from its finite amax as fp32 magnitude bits (int32): `mxlib.spec.quant`'s
    rule on bits. Adding 2**21 rounds amax up where its mantissa is >= 0.75 (the carry may reach the all-ones
    field: e = 127), then e = clamp(field - 129, -127, 127), floor(log2) - 2 of the rounded value. A NaN or
    Inf amax gives no meaningful e: callers give those blocks scale byte 255 themselves."""
    field = ((amax + 0x200000) >> 23) & 0xFF
    return tl.where(field == 255, 127, tl.minimum(tl.maximum(field - 129, -127), 127))


@triton.jit
def mx_e2m1_to_f16(c):
    """E2M1 codes (int32 0..15) -> exact fp16 values.

    Shifting the code's 3 magnitude bits into fp16's exponent/mantissa top bits gives the value times
    2**-14 (codes 0 and 1 land on fp16 subnormals, which the multiply handles exactly); the sign bit
    moves to bit 15.
    """
    bits = ((c & 8) << 12) | ((c & 7) << 9)
    return bits.to(tl.int16).to(tl.float16, bitcast=True) * 16384.0


@triton.jit
def mx_unpack_f16(packed):
    """(R, 16) fp4x2 bytes (int32) -> (R, 32) fp16 values in natural K order (low nibble first)."""
    lo = mx_e2m1_to_f16(packed & 0xF)
    hi = mx_e2m1_to_f16((packed >> 4) & 0xF)
    return tl.reshape(tl.join(lo, hi), (packed.shape[0], 32))


@triton.jit
def mx_shuffled_weight_row(n, Kb):
    """Row part of the B_shuffle position of byte (n, kb), Kb bytes a row."""
    return (n // 16) * (16 * Kb) + (n % 16) * 16


@triton.jit
def mx_shuffled_weight_col(kb):
    """Column part of the B_shuffle position of byte (n, kb)."""
    return (kb // 32) * 512 + ((kb % 32) // 16) * 256 + kb % 16


@triton.jit
def mx_inf_lift(s):
    """Per E8M0 scale byte (int32), the L for which 2**L times the block's E2M1 values overflows fp16
    exactly for the values whose r * 2**(s-127) reaches 2**128 (+-Inf in fp32) and leaves the others
    exact: 15 for byte 254 (r >= 2), 14 for byte 253 (r >= 4), 0 otherwise. Scale byte s - L then
    undoes the lift."""
    return tl.where(s == 254, 15, tl.where(s == 253, 14, 0))


@triton.jit
def mx_pow2_f16(e):
    """Exact fp16 2**e for int32 e in [0, 15]."""
    return ((e + 15) << 10).to(tl.int16).to(tl.float16, bitcast=True)


@triton.jit
def mx_shuffled_scale_row(r, sn):
    """Row part of the e8m0_shuffle position of scale (r, g)."""
    return (r // 32) * 32 * sn + (r % 16) * 4 + (r % 32) // 16


@triton.jit
def mx_shuffled_scale_col(g):
    """Column part of the e8m0_shuffle position of scale (r, g)."""
    return (g // 8) * 256 + (g % 4) * 64 + ((g % 8) // 4) * 2


@triton.jit
def mx_f32_to_bf16(x):
    """fp32 -> bf16, round to nearest even, by integer arithmetic on the bits: right for bf16
    subnormals and for overflow to +-Inf on every backend; NaN stays NaN."""
    u = x.to(tl.int32, bitcast=True)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF
    r = tl.where(x != x, 0x7FC0, r)
    return r.to(tl.int16).to(tl.bfloat16, bitcast=True)


@triton.jit
def mx_scaled_tile(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, offs_m, offs_n, M, N, Kb,
                   a_scale_stride, b_scale_stride, g_begin, g_end,
                   A_SCALE_SHUFFLED: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr):
    """fp32 (BLOCK_M, BLOCK_N) sum over K groups [g_begin, g_end) of A (M, Kb) fp4x2 bytes (natural)
    times B_shuffle, with A's scales natural (row stride a_scale_stride) or e8m0-shuffled (sn =
    a_scale_stride), B's scales e8m0-shuffled (sn = b_scale_stride).

    Rows outside [0, M) / [0, N) and groups outside [g_begin, g_end) are masked: codes 0 and scale
    byte 127 (1.0), so they add exactly zero and nothing outside a tensor is read.
    """
    j = tl.arange(0, 16)
    a_row = offs_m * Kb
    b_row = mx_shuffled_weight_row(offs_n, Kb)
    if A_SCALE_SHUFFLED:
        a_srow = mx_shuffled_scale_row(offs_m, a_scale_stride)
    else:
        a_srow = offs_m * a_scale_stride
    b_srow = mx_shuffled_scale_row(offs_n, b_scale_stride)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for g0 in range(g_begin, g_end, BLOCK_K // 32):
        for t in tl.static_range(BLOCK_K // 32):
            g = g0 + t
            # A dead group (past g_end) gets row bounds 0, so both masks are all false. (Written as a
            # bound, not `mask & (g < g_end)`: the interpreter turns tensor & scalar-bool into int32.)
            live = g < g_end
            am = offs_m < tl.where(live, M, 0)
            bm = offs_n < tl.where(live, N, 0)
            a_bytes = tl.load(a_ptr + a_row[:, None] + g * 16 + j[None, :], mask=am[:, None], other=0)
            b_bytes = tl.load(b_ptr + b_row[:, None] + mx_shuffled_weight_col(g * 16) + j[None, :],
                              mask=bm[:, None], other=0)
            if A_SCALE_SHUFFLED:
                a_s = tl.load(a_scale_ptr + a_srow + mx_shuffled_scale_col(g), mask=am, other=127)
            else:
                a_s = tl.load(a_scale_ptr + a_srow + g, mask=am, other=127)
            b_s = tl.load(b_scale_ptr + b_srow + mx_shuffled_scale_col(g), mask=bm, other=127)
            a_s = a_s.to(tl.int32)
            b_s = b_s.to(tl.int32)
            la = mx_inf_lift(a_s)
            lb = mx_inf_lift(b_s)
            a_v = mx_unpack_f16(a_bytes.to(tl.int32)) * mx_pow2_f16(la)[:, None]
            b_v = mx_unpack_f16(b_bytes.to(tl.int32)) * mx_pow2_f16(lb)[:, None]
            d = tl.dot(a_v, tl.trans(b_v), out_dtype=tl.float32)
            # The smaller scale first: d times it is exact (d's last bit is >= 2**-2), so the product
            # with the larger one is the exact scaled sum rounded once. NaN scales stay NaN.
            sa = mx_e8m0_to_f32(a_s - la)[:, None]
            sb = mx_e8m0_to_f32(b_s - lb)[None, :]
            lo = tl.minimum(sa, sb, propagate_nan=tl.PropagateNan.ALL)
            hi = tl.maximum(sa, sb, propagate_nan=tl.PropagateNan.ALL)
            acc += (d * lo) * hi
    return acc


def mx_cuda_backend() -> bool:
    """True when Triton compiles for NVIDIA (or `mxlib.tools.isa.capture` records launches for it, by
    answering for Triton's active driver). False on AMD and in the interpreter, where AMD launch options
    and the AMD form of the kernels apply."""
    try:
        return triton.runtime.driver.active.get_current_target().backend == "cuda"
    except RuntimeError:  # no GPU driver: the interpreter, or a launch being recorded
        return False


# The first Triton whose tl.dot_scaled decodes E8M0 byte 0 as 2**-127 on NVIDIA (triton-lang/triton#11624).
DOT_SCALED_BYTE0_FIXED = (3, 9)


def mx_zero_scale_operands(device, operands: tuple) -> tuple:
    """`operands` ("A", "B"), the operands a path hands `tl.dot_scaled` with E8M0 scales, where this Triton
    reads their scale byte 0 as 0 instead of 2**-127 on `device`: a CUDA device with Triton older than
    DOT_SCALED_BYTE0_FIXED, whose sm_90 lowering builds the bf16 scale as ``byte << 7`` (KERNEL_NOTES.md,
    "Scale byte 0 in tl.dot_scaled on sm_90"). Else (): the CPU interpreter of Triton 3.9 decodes byte 0
    right, and on ROCm the decode was not examined."""
    device = torch.device(device)
    if device.type != "cuda" or torch.version.hip is not None:
        return ()
    version = tuple(int(v) for v in re.match(r"(\d+)\.(\d+)", triton.__version__).groups())
    return tuple(operands) if version < DOT_SCALED_BYTE0_FIXED else ()


def mx_interpreting() -> bool:
    """Whether mxlib's Triton functions are interpreter objects. `@triton.jit` reads TRITON_INTERPRET when
    it decorates, so this is fixed when the kernel modules are imported; the variable's value later says
    nothing about them."""
    return isinstance(mx_e8m0_to_f32, InterpretedFunction)


def mx_cpu_tensors_ok() -> bool:
    """Whether CPU tensors may go to mxlib's Triton kernels: TRITON_INTERPRET=1, and either the kernels and
    Triton's own library functions they call (`tl.cdiv`, the reductions' combine functions) are the
    interpreter's objects, or Triton's interpret knob is forced off (inside `mxlib.tools.isa.capture`, which
    records launches and runs none). False when the variable was set only after the kernels, or Triton itself
    (torch.compile imports it), were imported: they would fail in Triton."""
    made_interpreted = mx_interpreting() and isinstance(tl.standard.cdiv, InterpretedFunction)
    return os.environ.get("TRITON_INTERPRET") == "1" and (made_interpreted or not triton.knobs.runtime.interpret)


# What to do when TRITON_INTERPRET=1 came after the kernels or Triton were imported (`mx_imported_too_early`).
MX_TOO_EARLY = ("it is set now, but mxlib's kernels or Triton (torch.compile and torch.ops.mxlib import it) were "
                "imported earlier in this process without it: restart Python with it set")


def mx_imported_too_early() -> bool:
    """TRITON_INTERPRET=1 is set, but CPU tensors still cannot reach the kernels: they, or Triton, were imported
    before it was (compiled-mode objects), and only a new process can run them in the interpreter."""
    return os.environ.get("TRITON_INTERPRET") == "1" and not mx_cpu_tensors_ok()


def mx_check_triton_device(t: torch.Tensor, name: str) -> None:
    """Triton runs on CUDA/ROCm tensors, and on CPU tensors only through its interpreter."""
    if t.device.type == "cuda":
        return
    if t.device.type == "cpu" and mx_cpu_tensors_ok():
        return
    raise ValueError(
        f"{name} is on {t.device}: the Triton kernels need a CUDA/ROCm tensor, or a CPU tensor with "
        "TRITON_INTERPRET=1 set before mxlib's kernels are imported and still set"
        + (f" ({MX_TOO_EARLY})" if t.device.type == "cpu" and mx_imported_too_early() else "")
    )


def mx_launch_device(device: torch.device):
    """The context a Triton launch on operands on `device` runs in. Triton launches on the current CUDA
    device and that device's current queue, not on its operands' device: for a CUDA device other than the
    current one this makes it current, as torch's own operators do; otherwise it changes nothing
    (`torch.cuda.device(-1)`, which needs no GPU). `mx_queue_state` asks its questions under it too."""
    other = device.type == "cuda" and device.index is not None and device.index != torch.cuda.current_device()
    return torch.cuda.device(device if other else -1)


INT32_LIMIT = 2**31  # element offsets the kernels compute must stay below this (they index with int32)


def mx_check_int32(count: int, what: str) -> None:
    """`what` (elements, counted before anything is allocated) must stay below INT32_LIMIT: the kernels
    compute offsets into it with int32."""
    if count >= INT32_LIMIT:
        raise ValueError(f"{what} must stay below 2**31 (the kernels use int32 offsets), got {count}")


def mx_check_strided_int32(t: torch.Tensor, name: str) -> None:
    """The largest element offset of 2-D `t` (its strides as they are) must stay below INT32_LIMIT."""
    if t.numel() and sum((d - 1) * abs(s) for d, s in zip(t.shape, t.stride())) >= INT32_LIMIT:
        raise ValueError(f"{name} of shape {tuple(t.shape)} and strides {t.stride()} needs offsets past 2**31 "
                         "(the kernels index it with int32)")


def _mx_byte_span(t: torch.Tensor) -> tuple[int, int]:
    """[first, last + 1) bytes of memory that `t`'s elements occupy (strides as they are)."""
    first = t.data_ptr()
    last = first + sum((d - 1) * abs(s) for d, s in zip(t.shape, t.stride())) * t.element_size()
    return first, last + t.element_size()


def mx_check_no_overlap(out: torch.Tensor, **inputs: torch.Tensor) -> None:
    """`out` must share no memory with any of `inputs` (name=tensor): a kernel that writes C while other
    programs still read A or B would read its own output. Compared as byte ranges, so a view into an
    input's storage counts as well as the input itself; empty tensors occupy nothing."""
    if out.numel() == 0:
        return
    lo, hi = _mx_byte_span(out)
    for name, t in inputs.items():
        if t.numel() == 0:
            continue
        t_lo, t_hi = _mx_byte_span(t)
        if lo < t_hi and t_lo < hi:
            raise ValueError(f"out must not share memory with {name} (the kernel would read what it writes); "
                             f"pass a separate tensor or out=None")


def mx_check_gemm_args(a, b_shuffle, b_scale_sh, out=None, rounding: str = "rne", *, check_device: bool = True):
    """Validate a path's inputs; returns (M, N, K): `check_gemm_operands`' rules with B's tensors
    contiguous, on one device Triton can run on, offsets within int32, `out` a contiguous bf16 (M, N)
    tensor on that device sharing no memory with the inputs, `rounding` one of ROUNDINGS. Without `out`
    it reads only shapes, dtypes, devices and strides, so a fake implementation can run it (the overlap
    rule reads addresses); `check_device=False` leaves out the device rule and the overlap, for meta
    tensors, which have neither. Every path runs it on every call: it stays cheap."""
    m, n, k = check_gemm_operands(a, b_shuffle, b_scale_sh, contiguous=True)
    choice(rounding, "rounding", ROUNDINGS)
    if check_device:
        mx_check_triton_device(a, "a")
    if max(m * k, n * k, m * n) >= INT32_LIMIT:
        raise ValueError(f"M*K, N*K and M*N must stay below 2**31 (the kernels use int32 offsets), got M={m} N={n} K={k}")
    mx_check_strided_int32(a, "a")
    if out is not None:
        tensor(out, "out")
        if tuple(out.shape) != (m, n) or out.dtype != torch.bfloat16 or out.device != a.device or not out.is_contiguous():
            raise ValueError(
                f"out must be a contiguous bfloat16 ({m}, {n}) tensor on {a.device}, got "
                f"{out.dtype} {tuple(out.shape)} on {out.device}{'' if out.is_contiguous() else ' (not contiguous)'}"
            )
        if check_device:  # meta tensors have no memory to share
            mx_check_no_overlap(out, a=a, b_shuffle=b_shuffle, b_scale_sh=b_scale_sh)
    return m, n, k


# The most K splits a one-launch path reduces in its kernel: the reduction is unrolled over SPLIT_K (so
# that all of a tile's partial loads are in flight at once), and compile time grows with it. Above the
# largest split the committed configs and default rules use for the contest shapes, well below where
# compiling takes minutes.
MAX_UNROLLED_SPLIT_K = 64


def mx_int(v) -> bool:
    """Whether a config field holds a Python int (a bool or a float equal to one is refused: Triton would
    take it as another type, or fail far from the config)."""
    return isinstance(v, int) and not isinstance(v, bool)


def mx_check_config(c, path: str, split_k: bool, max_split_k: int | None = None) -> None:
    """A path Config's tile sizes must be powers of two (Triton's block shapes), block_k >= 32 (one
    K group), blocks >= 16 (tl.dot's minimum), and each tile (block_m x block_k of A, block_n x block_k
    of B, block_m x block_n of C) at most Triton's largest block; split_k >= 1 (at most `max_split_k`
    when given) only where the path splits K."""
    for name in ("block_m", "block_n", "block_k"):
        v = getattr(c, name)
        low = 32 if name == "block_k" else 16
        if not mx_int(v) or v < low or v & (v - 1):
            raise ValueError(f"{path} Config.{name} must be a power of two >= {low}, got {v!r}")
    for rows, cols in (("block_m", "block_k"), ("block_n", "block_k"), ("block_m", "block_n")):
        if getattr(c, rows) * getattr(c, cols) > tl.core.TRITON_MAX_TENSOR_NUMEL:
            raise ValueError(f"{path} Config.{rows} x Config.{cols} must be at most "
                             f"{tl.core.TRITON_MAX_TENSOR_NUMEL} (Triton's largest block), got "
                             f"{getattr(c, rows)} x {getattr(c, cols)}")
    if split_k:
        if not mx_int(c.split_k) or c.split_k < 1:
            raise ValueError(f"{path} Config.split_k must be a positive integer, got {c.split_k!r}")
        if max_split_k is not None and c.split_k > max_split_k:
            raise ValueError(f"{path} Config.split_k must be at most {max_split_k} (its reduction is unrolled "
                             f"over split_k), got {c.split_k!r}")
    elif not mx_int(c.split_k) or c.split_k != 1:
        raise ValueError(f"{path} Config.split_k must be 1 (this path does not split K), got {c.split_k!r}")
    if not mx_int(c.num_warps) or c.num_warps not in (1, 2, 4, 8, 16):
        raise ValueError(f"{path} Config.num_warps must be 1, 2, 4, 8 or 16, got {c.num_warps!r}")
    if not mx_int(c.num_stages) or c.num_stages < 1:
        raise ValueError(f"{path} Config.num_stages must be a positive integer, got {c.num_stages!r}")


def mx_resolve_config(path: str, config, config_type: type, default_config, m: int, n: int, k: int, device):
    """The caller's `config`, or `default_config(m, n, k, device)` when it is None (`device`: the operands',
    so a call on another GPU than the current one gets a default sized for its own GPU); a config of another
    path (any type but `config_type`) is refused by name."""
    cfg = config if config is not None else default_config(m, n, k, device)
    if not isinstance(cfg, config_type):
        raise TypeError(f"config must be a gemm_{path}.Config, got {type(cfg).__name__}")
    return cfg


def mx_queue_state(device: torch.device) -> tuple[int, int]:
    """(queue, capture) of a launch made now on `device`: the queue it joins (the current CUDA queue's
    handle; in the interpreter the calling thread's id), and the graph capture that queue is in (0 when
    none: work issued now runs now; else CUDA's id of the capture sequence, unique in the process, and
    the work runs only when that graph replays). The one place a path asks torch for its queue: the
    split-K counters are kept per queue and capture (`arrival.mx_counter_buffer`), mma_sm90 launches on
    it, and the exported files answer it once (`mxlib.tools.export.SUBSTITUTES`)."""
    if device.type != "cuda":
        return threading.get_ident(), 0
    with mx_launch_device(device):  # torch answers "capturing?" for the current device's queue only
        queue = mx_current_queue(device.index if device.index is not None else torch.cuda.current_device())
        capturing = torch.cuda.is_current_stream_capturing()
    return queue, (mx_capture_id(queue) if capturing else 0)


def mx_current_queue(index: int) -> int:
    """The handle of GPU `index`'s current CUDA (HIP) queue. torch's raw query, the one Triton's
    launcher and torch's compiled code call, where this torch has it: `torch.cuda.current_stream()` builds a
    Stream object first, about 7 us of the host's time on every call of a path that launches on the queue
    (an H100's host, data/results/h100/host_micro_e833207/); the public call otherwise."""
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    return torch.cuda.current_stream(index).cuda_stream if raw is None else raw(index)


_MX_CAPTURE_ACTIVE = 1  # CU_STREAM_CAPTURE_STATUS_ACTIVE, hipStreamCaptureStatusActive
_MX_CAPTURE_LIB: list = []  # the library and call that answer a capture's id, found once


def _mx_capture_call():
    """The runtime call that answers a queue's capture id: the CUDA driver's cuStreamGetCaptureInfo (its
    three-argument form, which every driver since CUDA 10.1 exports), or on ROCm HIP's
    hipStreamGetCaptureInfo (the same arguments; never run here: no AMD GPU), in the library torch loaded."""
    import ctypes
    import glob

    if not _MX_CAPTURE_LIB:
        if torch.version.hip:
            names = ["libamdhip64.so"] + sorted(glob.glob(os.path.join(os.path.dirname(torch.__file__), "lib",
                                                                       "libamdhip64.so*")))
            call = "hipStreamGetCaptureInfo"
        else:
            names, call = ["libcuda.so.1"], "cuStreamGetCaptureInfo"
        for name in names:
            try:
                _MX_CAPTURE_LIB.append(getattr(ctypes.CDLL(name), call))
                break
            except (OSError, AttributeError):
                continue
        else:
            raise RuntimeError(f"no library among {names} answers {call}, which the split-K counters need "
                               "while a graph is captured")
    return _MX_CAPTURE_LIB[0]


def mx_capture_id(queue: int) -> int:
    """The id of the graph capture the queue (a CUstream or hipStream_t handle) is in, unique in the process
    (`_mx_capture_call`); raises RuntimeError when the queue is not capturing or the call refuses. torch
    has no call for it."""
    import ctypes

    status, ident = ctypes.c_int(0), ctypes.c_uint64(0)
    err = _mx_capture_call()(ctypes.c_void_p(queue), ctypes.byref(status), ctypes.byref(ident))
    if err or status.value != _MX_CAPTURE_ACTIVE or not ident.value:
        raise RuntimeError(f"the capture id of queue {queue:#x}: error {err}, capture status {status.value}, "
                           f"id {ident.value} (expected an active capture)")
    return ident.value


def mx_tiles(m: int, n: int, config) -> int:
    """C's output tiles under `config`'s block_m x block_n, M tiles x N tiles, for a shape already checked: what a
    path's grid, split-K workspace and arrival counters are counted in."""
    return triton.cdiv(m, config.block_m) * triton.cdiv(n, config.block_n)


def mx_output(m: int, n: int, device, out=None) -> torch.Tensor:
    """The caller's `out`, or a fresh bf16 (M, N) tensor: never a buffer kept across calls."""
    return out if out is not None else torch.empty((m, n), dtype=torch.bfloat16, device=device)
