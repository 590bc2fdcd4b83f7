"""The benchmark's providers: everything `python -m mxlib bench` can time, by name.

A provider turns the contest's input tuple into a zero-argument call (made outside the timing) and says
what it runs (path and config, for the CSV). mxlib itself (`mxlib`, the dispatcher's choice), each path
alone (`mxlib:<path>`) and the baselines: an empty kernel, the `touch` launch that only moves the bytes
(at its default grid, `touch`, and at each of `TOUCH_GRIDS`, `touch:<programs>x<block>`), cuBLAS on the
unquantized bf16 B (and on both operands cast to FP8, `cublas_fp8`), vLLM's Humming kernels on the MXFP4 weight
(`humming_bf16`, `humming_fp8`, where humming-kernels is installed), the torch reference and a naive
`tl.dot_scaled` kernel.

Every provider whose output is an MXFP4 GEMM result is checked (`check_call`): one untimed call made
after the allocator was filled with NaN blocks of the output's size, compared with the reference (rne).
"""
from __future__ import annotations

import importlib.util
from dataclasses import dataclass, fields
from typing import Any, Callable

import torch

from ..spec.reference import check_implementation, ref_kernel
from .timing import poison_allocator

# touch's grids beside its default (programs, block-word steps): the probe's five and two wider ones; the
# bench summary's "touch_best" column is the fastest of all touch providers per shape
# (`mxlib.tools.acceptance.touch_best_rows`).
TOUCH_GRIDS = ((132, 2048), (264, 2048), (264, 4096), (528, 1024), (528, 2048), (1056, 512), (1056, 1024))


@dataclass(frozen=True)
class Provider:
    name: str
    make: Callable[[tuple], Callable[[], Any]]  # data -> call(); call() returns the output (or None)
    describe: Callable[[int, int, int, str], tuple[str, str]]  # (m, n, k, device) -> (path, config), for the CSV
    checked: bool  # its output is an MXFP4 GEMM result that must pass check_implementation
    graph: bool  # its call can be captured in a CUDA graph
    help: str
    needs: str = ""  # a module it imports that mxlib does not install ("": none); "all" leaves it out where absent


def _fixed(path: str, config: str = "") -> Callable[[int, int, int, str], tuple[str, str]]:
    return lambda m, n, k, device: (path, config)


def config_text(config) -> str:
    """A path Config as the dispatcher table writes it: "block_m=16 block_n=128 ..."."""
    return " ".join(f"{f.name}={getattr(config, f.name)}" for f in fields(config))


def _make_empty(data):
    from .baselines.empty import launch_empty
    return launch_empty


def _make_touch(data):
    from .baselines import touch
    return touch.make(data)


def _make_touch_grid(programs: int, block: int):
    def make(data):
        from .baselines import touch
        return touch.make(data, programs=programs, block=block)
    return make


def _make_mxlib(data):
    from ..runtime.dispatch import custom_kernel
    return lambda: custom_kernel(data)


def _describe_mxlib(m: int, n: int, k: int, device) -> tuple[str, str]:
    """The dispatcher's choice for data of this shape on `device` (`dispatch.plan`): backend, path and config."""
    from ..runtime.dispatch import plan
    backend, path, config = plan(m, n, k, device)
    if backend == "torch":
        return "torch reference", ""
    return (path if backend == "triton" else f"{backend}:{path}"), config_text(config) if config is not None else ""


def _make_path(path: str):
    def make(data):
        from ..runtime.dispatch import select
        from ..runtime.paths import path_module
        gemm = path_module(path).gemm
        a, _, _, b_shuffle, b_scale_sh = data
        _, config = select(a.shape[0], b_shuffle.shape[0], a.shape[1], a.device, path=path)
        return lambda: gemm(a, b_shuffle, b_scale_sh, config=config, rounding="rne")
    return make


def _describe_path(path: str):
    def describe(m, n, k, device):
        from ..runtime.dispatch import select
        return path, config_text(select(m, n, k, device, path=path)[1])
    return describe


def _make_cublas(data):
    a, b = data[0], data[1]
    bt = b.t()  # a (K, N) view of the K-major B: cuBLAS's transposed-operand case, no copy
    return lambda: torch.mm(a, bt)


FP8_ROWS = 16  # A's rows padded to a multiple of 16, the alignment FP8 GEMMs want (12 zero rows at M = 4), so that
# every shape takes the same kind of cuBLASLt kernel


def _make_cublas_fp8(data):
    a, b = data[0], data[1]
    m, k = a.shape
    a8 = torch.zeros(-(-m // FP8_ROWS) * FP8_ROWS, k, dtype=torch.float8_e4m3fn, device=a.device)
    a8[:m] = a.to(torch.float8_e4m3fn)
    bt = b.to(torch.float8_e4m3fn).t()  # the K-major B transposed: the column-major (K, N) operand, no copy
    one = torch.ones((), dtype=torch.float32, device=a.device)
    return lambda: torch._scaled_mm(a8, bt, scale_a=one, scale_b=one, out_dtype=torch.bfloat16,
                                    use_fast_accum=True)[:m]


def _make_humming(activation: str):
    def make(data):
        from .baselines import humming
        return humming.make(data, activation)
    return make


def _describe_humming(activation: str):
    def describe(m, n, k, device):
        from .baselines import humming
        return f"humming mxfp4 x {activation}", f"humming-kernels {humming.version() or '(not installed)'}"
    return describe


def _make_torch_dequant(data):
    return lambda: ref_kernel(data, "rne")


def _make_naive(data):
    from .baselines import naive_dot_scaled
    operands = naive_dot_scaled.prepare(data, "rne")
    return lambda: naive_dot_scaled.gemm(*operands)


def providers() -> dict[str, Provider]:
    """Every provider by name: the fixed ones, one `touch:<programs>x<block>` per grid of `TOUCH_GRIDS` other
    than touch's default, and one `mxlib:<path>` per path in `mxlib.runtime.paths.PATHS` (each with the
    dispatcher table's config for that path and shape, else the path's default)."""
    from ..runtime.paths import PATHS
    from .baselines import naive_dot_scaled as nds
    from .baselines import touch

    touch_config = f"programs={touch.DEFAULT_PROGRAMS} block={touch.DEFAULT_BLOCK}"
    reg = [
        Provider("empty", _make_empty, _fixed("empty kernel"), False, True, "one empty kernel per call"),
        Provider("touch", _make_touch, _fixed("touch kernel", touch_config), False, True,
                 "one launch that reads every input byte and writes C (zeros: not checked)"),
    ]
    reg += [Provider(f"touch:{g}x{b}", _make_touch_grid(g, b), _fixed("touch kernel", f"programs={g} block={b}"),
                     False, True, f"touch with {g} programs of {b}-word steps (summary: best touch grid per shape)")
            for g, b in TOUCH_GRIDS if (g, b) != (touch.DEFAULT_PROGRAMS, touch.DEFAULT_BLOCK)]
    reg += [
        Provider("mxlib", _make_mxlib, _describe_mxlib, True, True, "mxlib.custom_kernel, the dispatcher's choice"),
    ]
    reg += [Provider(f"mxlib:{p}", _make_path(p), _describe_path(p), True, True,
                     f"mxlib path {p!r} alone, with its table (else default) config") for p in PATHS]
    naive_config = f"block_m={nds.BLOCK_M} block_n={nds.BLOCK_N} block_k={nds.BLOCK_K}"
    reg += [
        Provider("cublas_bf16", _make_cublas, _fixed("torch.mm bf16"), False, True,
                 "torch.mm of A on the unquantized bf16 B^T (not an MXFP4 result: not checked)"),
        Provider("cublas_fp8", _make_cublas_fp8,
                 _fixed("torch._scaled_mm e4m3", f"A rows padded to a multiple of {FP8_ROWS}, unit scales, fast accum"),
                 False, True, "cuBLAS's FP8 GEMM of A and the unquantized B, both cast to e4m3 outside the timed call: "
                              "a speed reference at twice bf16's tensor rate (not an MXFP4 result: not checked)"),
        Provider("humming_bf16", _make_humming("bf16"), _describe_humming("bf16"), False, False,
                 "vLLM's Humming on A in bf16 and the MXFP4 weight, converted outside the timed call (A not "
                 "quantized: not an MXFP4 result, not checked)", needs="humming"),
        Provider("humming_fp8", _make_humming("fp8"), _describe_humming("fp8"), False, False,
                 "vLLM's Humming quantizing A to E4M3 (a scale per 32 values) in the call, then the MXFP4 weight's "
                 "GEMM (A's 8-bit values, not the contest's 4-bit ones: not checked)", needs="humming"),
        Provider("torch_dequant", _make_torch_dequant, _fixed("torch reference"), True, False,
                 "mxlib.spec.reference.ref_kernel: quantize A, dequantize both, fp32 matmul, in torch"),
        Provider("naive_dot_scaled", _make_naive, _fixed("triton naive dot_scaled", naive_config),
                 True, True, "a naive tl.dot_scaled kernel, A quantized outside the timed call"),
    ]
    return {p.name: p for p in reg}


def select_providers(spec: str | None, registry: dict[str, Provider]) -> list[Provider]:
    """Providers named in a comma list ("all" or None: every one whose `needs` imports here; "mxlib:*": every
    mxlib path). One named outright runs even where its module is missing, and its row says why it failed."""
    if spec is None or spec.strip() == "all":
        return [p for p in registry.values() if not p.needs or importlib.util.find_spec(p.needs) is not None]
    chosen: list[Provider] = []
    for name in (s.strip() for s in spec.split(",") if s.strip()):
        matches = [p for p in registry.values() if p.name.startswith("mxlib:")] if name == "mxlib:*" else \
            [registry[name]] if name in registry else None
        if matches is None:
            raise ValueError(f"--providers: unknown provider {name!r}; known: {', '.join(registry)}, mxlib:* "
                             "(or 'all' alone)")
        chosen += [p for p in matches if p not in chosen]
    if not chosen:
        raise ValueError("--providers must name at least one provider")
    return chosen


def check_call(call: Callable[[], Any], data, m: int, n: int) -> tuple[bool, str]:
    """One untimed, poisoned call checked against the reference (rne)."""
    poison_allocator(2 * m * n)
    out = call()
    torch.cuda.synchronize()
    return check_implementation(data, out, "rne")
