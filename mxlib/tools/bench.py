"""`python -m mxlib bench`: mxlib's paths beside baselines, timed the way the contest times them.

Contest-style timing (`time_contest`) follows gpu-mode/reference-kernels:problems/amd_202602/eval.py:
before each timed call, synchronize and flush the L2 with a large write, then time ONE call between
two CUDA events. eval.py writes a 64 GB random tensor, which also gives the host milliseconds to
enqueue the call before the GPU reaches the start event; here the flush writes 4x the L2 and is
followed by a calibrated GPU sleep (`head_start_us`), so host overhead stays hidden the same way and
a call costs what its kernels cost on the GPU, gaps between them included.

Graph timing (`time_graph`) captures many calls in a CUDA graph and divides a replay's time: the GPU
time alone, with warm caches and no launch gaps.

Floors (`floor_us`): max(bytes / copy bandwidth, 2*M*N*K / bf16 peak), both ceilings measured in the
same run (`measure_ceilings`). Bytes are what one call must move at least: A in bf16 (2*M*K), B_shuffle
in fp4 (N*K/2), B's scales without padding (N*K/32) and C in bf16 (2*M*N). The bf16 peak is the
right compute ceiling on sm_90, where MXFP4 dot products run as bf16 MMAs.

Every MXFP4 provider's output is checked once per shape (`check_implementation`, rne) on an untimed call
made after the allocator was filled with NaN blocks of the output's size, so an output element the
kernel never writes shows up as NaN.
"""
from __future__ import annotations

import csv
import datetime
import math
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import torch

from ..spec import shapes as shapes_mod
from ..spec import validate
from .occupancy import traffic_bytes
from .repo import RESULTS_DIR
from ..spec.reference import check_implementation, generate_input, ref_kernel

FLUSH_L2_MULTIPLE = 4
DEFAULT_ITERS = 200
DEFAULT_WARMUP = 10
DEFAULT_HEAD_START_US = 1000.0
GRAPH_CALLS = 20
GRAPH_REPLAYS = 30
FRESH_SEED_STEP = 13  # eval.py's leaderboard mode adds 13 to the seed for every new input

# The issue-6 targets, checked by `acceptance`.
TARGET_GEOMEAN_US = 4.5
TARGET_EMPTY_PLUS_FLOOR = 1.3
TARGET_GRAPH_FLOOR = 1.5
GRAPH_TARGET_SHAPES = ((16, 2112, 7168), (64, 7168, 2048), (256, 3072, 1536))

CSV_FIELDS = (
    "kind", "m", "n", "k", "seed", "provider", "path", "config", "timing", "median_us", "p20_us", "p80_us", "mean_us",
    "samples", "fresh_inputs", "floor_us", "ok", "message", "empty_us", "copy_TBps", "bf16_TFLOPs",
    "device", "torch", "triton", "date",
)


def _require_cuda(what: str) -> None:
    if not torch.cuda.is_available():
        raise RuntimeError(f"{what} needs a CUDA (or ROCm) GPU: torch.cuda.is_available() is False on this machine")


# ---------------------------------------------------------------------------------------------
# Timing


class L2Flush:
    """Evicts the L2 before a timed call: a write of `FLUSH_L2_MULTIPLE` x its size, then a GPU sleep.

    The sleep (calibrated once against CUDA events) keeps the GPU busy for `head_start_us` after the
    flush, so the host enqueues the whole call before the start event is reached, as it does behind
    eval.py's 64 GB flush.
    """

    def __init__(self, head_start_us: float = DEFAULT_HEAD_START_US, device=None):
        _require_cuda("L2Flush")
        if head_start_us < 0:
            raise ValueError(f"head_start_us must be >= 0, got {head_start_us}")
        device = torch.device("cuda") if device is None else torch.device(device)
        props = torch.cuda.get_device_properties(device)
        self.l2_bytes = int(props.L2_cache_size)
        self.nbytes = max(FLUSH_L2_MULTIPLE * self.l2_bytes, 64 << 20)
        self._buf = torch.empty(self.nbytes // 4, dtype=torch.int32, device=device)
        self._value = 0
        self.head_start_us = head_start_us
        self._sleep_cycles = int(head_start_us * self._cycles_per_us()) if head_start_us else 0

    @staticmethod
    def _cycles_per_us() -> float:
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        cycles = 2_000_000
        rates = []
        for _ in range(3):
            torch.cuda.synchronize()
            start.record()
            torch.cuda._sleep(cycles)
            end.record()
            torch.cuda.synchronize()
            rates.append(cycles / (start.elapsed_time(end) * 1e3))
        return sorted(rates)[1]

    def __call__(self) -> None:
        self._value ^= 0x5A5A5A5A  # a different value each time: every flush writes every line anew
        self._buf.fill_(self._value)
        if self._sleep_cycles:
            torch.cuda._sleep(self._sleep_cycles)


def _percentile(sorted_values: list[float], q: float) -> float:
    """Linear-interpolated percentile (q in [0, 100]) of an already sorted list."""
    pos = (len(sorted_values) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def summarize(times_us: list[float]) -> dict:
    """median_us, p20_us, p80_us, mean_us and n of a list of per-call times in microseconds."""
    if not times_us:
        raise ValueError("times_us must not be empty")
    s = sorted(times_us)
    return {
        "median_us": _percentile(s, 50), "p20_us": _percentile(s, 20), "p80_us": _percentile(s, 80),
        "mean_us": sum(s) / len(s), "n": len(s),
    }


def time_contest(fn: Callable, inputs_fn: Callable[[], tuple] | None = None, *, iters: int = DEFAULT_ITERS,
                 warmup: int = DEFAULT_WARMUP, fresh_inputs: bool = False, flush: L2Flush | None = None) -> dict:
    """Contest-style time of `fn(*inputs_fn())`: synchronize, flush, events around ONE call; repeated.

    `inputs_fn` (optional) returns the argument tuple; it is called once, or before every call (and
    before that call's flush, so outside the timing) when `fresh_inputs` is true. Returns
    `summarize` of the `iters` timed calls that follow `warmup` untimed ones.
    """
    _require_cuda("time_contest")
    validate.positive(iters, "iters")
    if not isinstance(warmup, int) or warmup < 0:
        raise ValueError(f"warmup must be an integer >= 0, got {warmup!r}")
    if fresh_inputs and inputs_fn is None:
        raise ValueError("fresh_inputs=True needs inputs_fn, the function that makes each call's inputs")
    flush = flush if flush is not None else L2Flush()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    inputs = tuple(inputs_fn()) if inputs_fn is not None else ()
    times = []
    for i in range(warmup + iters):
        if fresh_inputs and i > 0:
            inputs = tuple(inputs_fn())
        torch.cuda.synchronize()
        flush()
        start.record()
        out = fn(*inputs)
        end.record()
        torch.cuda.synchronize()
        del out
        if i >= warmup:
            times.append(start.elapsed_time(end) * 1e3)
    return summarize(times)


def time_graph(fn: Callable, inputs: tuple = (), *, calls: int = GRAPH_CALLS, replays: int = GRAPH_REPLAYS,
               warmup: int = 3) -> dict:
    """GPU time per call of `fn(*inputs)`: `calls` calls captured in one CUDA graph, replayed `replays` times.

    Caches stay warm (the same inputs every call) and there are no launch gaps; `summarize` of the
    per-replay times divided by `calls`.
    """
    _require_cuda("time_graph")
    validate.positive(calls, "calls")
    validate.positive(replays, "replays")
    # torch asks for warm-up calls on a side queue before capture (lazy initialisation, allocator).
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(warmup):
            fn(*inputs)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(calls):
            fn(*inputs)
    graph.replay()  # the first replay uploads the graph
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(replays)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(replays)]
    for s, e in zip(starts, ends):
        s.record()
        graph.replay()
        e.record()
    torch.cuda.synchronize()
    del graph
    return summarize([s.elapsed_time(e) * 1e3 / calls for s, e in zip(starts, ends)])


# ---------------------------------------------------------------------------------------------
# Ceilings and floors


def measure_ceilings(*, flush: L2Flush | None = None, iters: int = DEFAULT_ITERS, copy_bytes: int = 1 << 30,
                     matmul_size: int = 8192, reps: int = 10) -> dict:
    """This GPU's ceilings, measured now: best of `reps` each.

    bandwidth_Bps: device-to-device copy of `copy_bytes`, counting read + write bytes.
    bf16_flops: torch.mm of two random bf16 (matmul_size,)*2 matrices, 2*n^3 flops.
    empty_us: one empty kernel's contest-style median time.
    """
    _require_cuda("measure_ceilings")
    from .baselines.empty import launch_empty

    def best_ms(fn) -> float:
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        fn()
        best = math.inf
        for _ in range(reps):
            torch.cuda.synchronize()
            start.record()
            fn()
            end.record()
            torch.cuda.synchronize()
            best = min(best, start.elapsed_time(end))
        return best

    src = torch.ones(copy_bytes, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    bandwidth = 2 * copy_bytes / (best_ms(lambda: dst.copy_(src)) * 1e-3)
    del src, dst
    a = torch.randn(matmul_size, matmul_size, dtype=torch.bfloat16, device="cuda")
    b = torch.randn(matmul_size, matmul_size, dtype=torch.bfloat16, device="cuda")
    flops = 2 * matmul_size**3 / (best_ms(lambda: torch.mm(a, b)) * 1e-3)
    del a, b
    empty = time_contest(launch_empty, iters=iters, flush=flush)
    props = torch.cuda.get_device_properties(None)
    return {
        "bandwidth_Bps": bandwidth, "bf16_flops": flops, "empty_us": empty["median_us"],
        "l2_bytes": int(props.L2_cache_size), "sms": int(props.multi_processor_count),
        "device": torch.cuda.get_device_name(None),
    }


def ceilings_text(ceilings: dict) -> str:
    """One line naming the GPU and the ceilings `measure_ceilings` measured on it."""
    return (f"{ceilings['device']}: {ceilings['sms']} SMs, L2 {ceilings['l2_bytes'] / 2**20:.0f} MiB, "
            f"copy {ceilings['bandwidth_Bps'] / 1e12:.2f} TB/s (read+write), bf16 mm "
            f"{ceilings['bf16_flops'] / 1e12:.0f} TFLOP/s, empty kernel {ceilings['empty_us']:.2f} us")


def measure_run(flush: L2Flush | None = None, iters: int = DEFAULT_ITERS) -> tuple[dict, dict]:
    """The ceilings measured now, and the columns every row of a run carries: device, torch and
    Triton versions, date (UTC)."""
    ceilings = measure_ceilings(flush=flush, iters=iters)
    return ceilings, {"device": ceilings["device"], **_versions()}


def floor_bytes(m: int, n: int, k: int) -> int:
    """Bytes one call must move: A bf16 + B_shuffle fp4 + B's scales (unpadded E8M0) + C bf16, i.e. the
    occupancy model's traffic without split-K partials."""
    return traffic_bytes(m, n, k)


def floor_us(m: int, n: int, k: int, ceilings: dict) -> float:
    """max(floor_bytes / bandwidth, 2*M*N*K / bf16 peak) in microseconds, from `measure_ceilings`' dict."""
    for v, name in ((m, "m"), (n, "n"), (k, "k")):
        validate.positive(v, name)
    for key in ("bandwidth_Bps", "bf16_flops"):
        if not ceilings.get(key, 0) > 0:
            raise ValueError(f"ceilings[{key!r}] must be a positive number, got {ceilings.get(key)!r}")
    return 1e6 * max(floor_bytes(m, n, k) / ceilings["bandwidth_Bps"], 2 * m * n * k / ceilings["bf16_flops"])


# ---------------------------------------------------------------------------------------------
# Providers: each turns the contest's input tuple into a zero-argument call (made outside the timing)


@dataclass(frozen=True)
class Provider:
    name: str
    make: Callable[[tuple], Callable[[], Any]]  # data -> call(); call() returns the output (or None)
    describe: Callable[[int, int, int, str], tuple[str, str]]  # (m, n, k, device) -> (path, config), for the CSV
    checked: bool  # its output is an MXFP4 GEMM result that must pass check_implementation
    graph: bool  # its call can be captured in a CUDA graph
    help: str


def _fixed(path: str, config: str = "") -> Callable[[int, int, int, str], tuple[str, str]]:
    return lambda m, n, k, device: (path, config)


def config_text(config) -> str:
    """A path Config as the dispatcher table writes it: "block_m=16 block_n=128 ..."."""
    from dataclasses import fields
    return " ".join(f"{f.name}={getattr(config, f.name)}" for f in fields(config))


def _make_empty(data):
    from .baselines.empty import launch_empty
    return launch_empty


def _make_touch(data):
    from .baselines import touch
    return touch.make(data)


def _make_mxlib(data):
    from ..runtime.dispatch import custom_kernel
    return lambda: custom_kernel(data)


def _describe_mxlib(m: int, n: int, k: int, device) -> tuple[str, str]:
    """The dispatcher's choice for data of this shape on `device`: backend, path and config."""
    from ..runtime.dispatch import resolve_backend, select
    backend = resolve_backend(device)
    if backend == "torch":
        return "torch reference", ""
    path, config = select(m, n, k, device)
    return (path if backend == "triton" else f"{backend}:{path}"), config_text(config)


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


def _make_torch_dequant(data):
    return lambda: ref_kernel(data, "rne")


def _make_naive(data):
    from .baselines import naive_dot_scaled
    operands = naive_dot_scaled.prepare(data, "rne")
    return lambda: naive_dot_scaled.gemm(*operands)


def providers() -> dict[str, Provider]:
    """Every provider by name: the fixed ones and one `mxlib:<path>` per path in `mxlib.runtime.paths.PATHS`
    (each with the dispatcher table's config for that path and shape, else the path's default)."""
    from .baselines import naive_dot_scaled as nds
    from ..runtime.paths import PATHS

    from .baselines import touch

    touch_config = f"programs={touch.DEFAULT_PROGRAMS} block={touch.DEFAULT_BLOCK}"
    reg = [
        Provider("empty", _make_empty, _fixed("empty kernel"), False, True, "one empty kernel per call"),
        Provider("touch", _make_touch, _fixed("touch kernel", touch_config), False, True,
                 "one launch that reads every input byte and writes C (zeros: not checked)"),
        Provider("mxlib", _make_mxlib, _describe_mxlib, True, True, "mxlib.custom_kernel, the dispatcher's choice"),
    ]
    reg += [Provider(f"mxlib:{p}", _make_path(p), _describe_path(p), True, True,
                     f"mxlib path {p!r} alone, with its table (else default) config") for p in PATHS]
    naive_config = f"block_m={nds.BLOCK_M} block_n={nds.BLOCK_N} block_k={nds.BLOCK_K}"
    reg += [
        Provider("cublas_bf16", _make_cublas, _fixed("torch.mm bf16"), False, True,
                 "torch.mm of A on the unquantized bf16 B^T (not an MXFP4 result: not checked)"),
        Provider("torch_dequant", _make_torch_dequant, _fixed("torch reference"), True, False,
                 "mxlib.spec.reference.ref_kernel: quantize A, dequantize both, fp32 matmul, in torch"),
        Provider("naive_dot_scaled", _make_naive, _fixed("triton naive dot_scaled", naive_config),
                 True, True, "a naive tl.dot_scaled kernel, A quantized outside the timed call"),
    ]
    return {p.name: p for p in reg}


def select_providers(spec: str | None, registry: dict[str, Provider]) -> list[Provider]:
    """Providers named in a comma list ("all" or None: every one; "mxlib:*": every mxlib path)."""
    if spec is None or spec.strip() == "all":
        return list(registry.values())
    chosen: list[Provider] = []
    for name in (s.strip() for s in spec.split(",") if s.strip()):
        matches = [p for p in registry.values() if p.name.startswith("mxlib:")] if name == "mxlib:*" else \
            [registry[name]] if name in registry else None
        if matches is None:
            raise ValueError(f"--providers: unknown provider {name!r}; known: {', '.join(registry)}, mxlib:*, all")
        chosen += [p for p in matches if p not in chosen]
    if not chosen:
        raise ValueError("--providers must name at least one provider")
    return chosen


def select_shapes(spec: str) -> list[shapes_mod.Shape]:
    """Shapes of the kinds in a comma list (test, benchmark, extra), in mxlib/data/shapes.csv order."""
    kinds = [s.strip() for s in spec.split(",") if s.strip()]
    if not kinds:
        raise ValueError("--shapes must name at least one kind of shapes")
    for kind in kinds:
        validate.choice(kind, "--shapes kind", shapes_mod.KINDS)
    return [s for s in shapes_mod.load() if s.kind in kinds]


def poison_allocator(nbytes: int, copies: int = 16) -> None:
    """Leave the CUDA caching allocator holding NaN-filled free blocks of `nbytes` bytes.

    The next allocations of that size (the output of the call that follows) land on NaN memory, so an
    element a kernel forgets to write fails the check instead of reading a previous call's result.
    """
    _require_cuda("poison_allocator")
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    blocks = [torch.full((max(nbytes // 2, 1),), float("nan"), dtype=torch.bfloat16, device="cuda")
              for _ in range(copies)]
    torch.cuda.synchronize()
    del blocks


def check_call(call: Callable[[], Any], data, m: int, n: int) -> tuple[bool, str]:
    """One untimed, poisoned call checked against the reference (rne)."""
    poison_allocator(2 * m * n)
    out = call()
    torch.cuda.synchronize()
    return check_implementation(data, out, "rne")


# ---------------------------------------------------------------------------------------------
# The run


class Progress:
    """A one-line progress bar on stderr: redrawn in place on a terminal, a line every ~5% otherwise."""

    def __init__(self, total: int, stream=None):
        self.total, self.done = total, 0
        self.stream = stream if stream is not None else sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.t0 = time.perf_counter()
        self._last_pct = -100

    def step(self, label: str) -> None:
        self.done += 1
        pct = 100 * self.done // self.total
        elapsed = time.perf_counter() - self.t0
        eta = elapsed / self.done * (self.total - self.done)
        width = 30
        bar = "#" * (width * self.done // self.total)
        line = f"[{bar:<{width}}] {self.done}/{self.total} {elapsed:5.0f}s eta {eta:4.0f}s  {label}"
        if self.tty:
            self.stream.write("\r" + line[:150].ljust(150) + ("\n" if self.done == self.total else ""))
        elif pct - self._last_pct >= 5 or self.done == self.total:
            self.stream.write(line + "\n")
            self._last_pct = pct
        self.stream.flush()


def _versions() -> dict:
    import triton
    return {"torch": torch.__version__, "triton": triton.__version__,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}


def run_bench(shapes: list, provs: list[Provider], *, iters: int = DEFAULT_ITERS, warmup: int = DEFAULT_WARMUP,
              fresh_inputs: bool = False, graph: bool = True, head_start_us: float = DEFAULT_HEAD_START_US,
              progress: bool = True) -> tuple[list[dict], dict]:
    """Time every provider on every shape; returns (CSV rows, ceilings). Needs CUDA."""
    _require_cuda("run_bench")
    flush = L2Flush(head_start_us)
    ceilings = measure_ceilings(flush=flush, iters=iters)
    run_info = {"device": ceilings["device"], **_versions(), "empty_us": ceilings["empty_us"],
                "copy_TBps": ceilings["bandwidth_Bps"] / 1e12, "bf16_TFLOPs": ceilings["bf16_flops"] / 1e12}
    bar = Progress(len(shapes) * len(provs)) if progress else None
    rows = []
    for s in shapes:
        data = generate_input(*s.mnk, s.seed, device="cuda", rounding="rne")
        base = {"kind": s.kind, "m": s.m, "n": s.n, "k": s.k, "seed": s.seed,
                "floor_us": floor_us(*s.mnk, ceilings), **run_info}
        for p in provs:
            rows += _bench_one(p, s, data, {**base, "provider": p.name}, iters=iters, warmup=warmup,
                               fresh_inputs=fresh_inputs, graph=graph and p.graph, flush=flush)
            if bar:
                bar.step(f"{s} {p.name}")
    return rows, ceilings


def _bench_one(p: Provider, s, data, base: dict, *, iters, warmup, fresh_inputs, graph, flush) -> list[dict]:
    """The rows of one provider on one shape: checked once, then contest-timed and (if asked) graph-timed.

    A provider that raises gives a row with an empty time and the error as its message, not a lost run.
    """
    m, n, k = s.mnk
    try:
        path, config = p.describe(m, n, k, "cuda")
        base = {**base, "path": path, "config": config}
        call = p.make(data)
        call()  # compile (and autotune) before the poisoned check and the timing
        if p.checked:
            good, message = check_call(call, data, m, n)
            ok = int(good)
        else:
            ok, message = "", "not checked: " + p.help
    except Exception as exc:
        return [_row({"path": "", "config": "", **base}, "contest", None, fresh_inputs, 0, _error(exc))]
    fresh_seeds = iter(range(s.seed + FRESH_SEED_STEP, sys.maxsize, FRESH_SEED_STEP))
    calls = [call]  # the first timed input is the checked one; fresh ones follow when asked

    def inputs():
        if calls:
            return (calls.pop(),)
        return (p.make(generate_input(m, n, k, next(fresh_seeds), device="cuda", rounding="rne")),)

    rows = []
    for timing in ("contest", "graph") if graph else ("contest",):
        try:
            if timing == "contest":
                timed = time_contest(_invoke, inputs, iters=iters, warmup=warmup, fresh_inputs=fresh_inputs,
                                     flush=flush)
            else:
                timed = time_graph(call)
            rows.append(_row(base, timing, timed, fresh_inputs and timing == "contest", ok, message))
        except Exception as exc:
            rows.append(_row(base, timing, None, fresh_inputs and timing == "contest", ok, _error(exc)))
        torch.cuda.synchronize()
    return rows


def _error(exc: Exception) -> str:
    return f"error: {type(exc).__name__}: {exc}"[:500]


def _invoke(call):
    return call()


def _row(base: dict, timing: str, timed: dict | None, fresh: bool, ok, message: str) -> dict:
    t = timed or {}
    return {**base, "timing": timing, "median_us": t.get("median_us", ""), "p20_us": t.get("p20_us", ""),
            "p80_us": t.get("p80_us", ""), "mean_us": t.get("mean_us", ""), "samples": t.get("n", 0),
            "fresh_inputs": int(fresh), "ok": ok, "message": message}


def write_csv(rows: list[dict], path: Path) -> None:
    for r in rows:
        unknown = set(r) - set(CSV_FIELDS)
        if unknown:
            raise ValueError(f"row has columns outside bench.CSV_FIELDS: {sorted(unknown)}")
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow({k: _fmt(r.get(k, "")) for k in CSV_FIELDS})


def _fmt(v):
    return f"{v:.4f}" if isinstance(v, float) else v


def read_csv(path: Path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


# ---------------------------------------------------------------------------------------------
# Summary and the issue-6 acceptance checks (both work on rows as written or as read back)


def _num(v) -> float | None:
    if v is None or v == "":
        return None
    return float(v)


def geomean(values: list[float]) -> float:
    if not values or any(v <= 0 for v in values):
        raise ValueError(f"geomean needs positive values, got {values}")
    return math.exp(sum(math.log(v) for v in values) / len(values))


def _index(rows: list[dict]) -> dict:
    """(kind, m, n, k, provider, timing) -> row; kinds and sizes as str so CSV rows and dicts agree."""
    return {(str(r["kind"]), int(r["m"]), int(r["n"]), int(r["k"]), str(r["provider"]), str(r["timing"])): r
            for r in rows}


@dataclass(frozen=True)
class Check:
    name: str
    passed: bool | None  # None: the rows it needs are missing
    detail: str


def _shapes_of(rows, kind):
    seen = []
    for r in rows:
        key = (int(r["m"]), int(r["n"]), int(r["k"]))
        if str(r["kind"]) == kind and key not in seen:
            seen.append(key)
    return seen


def acceptance(rows: list[dict]) -> list[Check]:
    """The issue-6 targets, from one run's rows (contest medians unless said otherwise)."""
    idx = _index(rows)
    bench_shapes = [s.mnk for s in shapes_mod.load("benchmark")]

    def med(kind, mnk, prov, timing="contest"):
        """The row's median; None when the row is missing, inf when it exists without a time (it raised)."""
        r = idx.get((kind, *mnk, prov, timing))
        if r is None:
            return None
        v = _num(r["median_us"])
        return math.inf if v is None else v

    def fmt(mnk):
        return "x".join(map(str, mnk))

    def us(v):
        return "no time" if math.isinf(v) else f"{v:.2f}"

    checks = []
    mx = [med("benchmark", s, "mxlib") for s in bench_shapes]
    if None in mx:
        checks.append(Check("mxlib geomean <= 4.5 us", None, "missing mxlib contest rows for benchmark shapes"))
    else:
        g = geomean(mx)
        means = [_num(idx[("benchmark", *s, "mxlib", "contest")].get("mean_us")) for s in bench_shapes]
        of_means = f"; of the means, as the contest ranks: {geomean(means):.3f} us" if all(v and v > 0 for v in means) else ""
        checks.append(Check(f"mxlib geomean <= {TARGET_GEOMEAN_US} us", g <= TARGET_GEOMEAN_US,
                            "a shape has no time" if math.isinf(g) else f"{g:.3f} us of the medians{of_means}"))

    def per_shape(name, kind, shape_list, ok_fn):
        parts, passed = [], True
        for s in shape_list:
            res = ok_fn(kind, s)
            if res is None:
                return Check(name, None, f"missing rows for {fmt(s)}")
            good, text = res
            passed &= good
            parts.append(f"{fmt(s)} {text}{'' if good else ' FAIL'}")
        return Check(name, passed, "; ".join(parts))

    def faster_than_cublas(kind, s, strict=True):
        a, c = med(kind, s, "mxlib"), med(kind, s, "cublas_bf16")
        if a is None or c is None:
            return None
        return (a < c if strict else a <= c), f"{us(a)} vs {us(c)}"

    def near_empty_plus_floor(kind, s):
        a, r = med(kind, s, "mxlib"), idx.get((kind, *s, "mxlib", "contest"))
        if a is None or _num(r.get("empty_us")) is None:
            return None
        bound = TARGET_EMPTY_PLUS_FLOOR * (_num(r["empty_us"]) + _num(r["floor_us"]))
        return a <= bound, f"{us(a)} <= {bound:.2f}"

    def graph_near_floor(kind, s):
        a = med(kind, s, "mxlib", "graph")
        if a is None:
            return None
        bound = TARGET_GRAPH_FLOOR * _num(idx[(kind, *s, "mxlib", "graph")]["floor_us"])
        return a <= bound, f"{us(a)} <= {bound:.2f}"

    checks.append(per_shape("benchmark shapes: mxlib faster than cublas_bf16", "benchmark", bench_shapes,
                            faster_than_cublas))
    checks.append(per_shape(f"benchmark shapes: mxlib <= {TARGET_EMPTY_PLUS_FLOOR} x (empty + floor)", "benchmark",
                            bench_shapes, near_empty_plus_floor))
    checks.append(per_shape(f"graph replay <= {TARGET_GRAPH_FLOOR} x floor", "benchmark", list(GRAPH_TARGET_SHAPES),
                            graph_near_floor))
    for kind in ("test", "extra"):
        checks.append(per_shape(f"{kind} shapes: mxlib not slower than cublas_bf16", kind,
                                [s.mnk for s in shapes_mod.load(kind)],
                                lambda kd, s: faster_than_cublas(kd, s, strict=False)))
    bad = [r for r in rows if str(r["ok"]) == "0"]
    checks.append(Check("every checked output passes check_implementation (rne)", not bad,
                        "; ".join(f"{r['provider']} {r['m']}x{r['n']}x{r['k']}: {r['message']}" for r in bad[:5])
                        or f"{sum(str(r['ok']) == '1' for r in rows)} checked rows passed"))
    return checks


def summary(rows: list[dict]) -> str:
    """Tables of contest and graph medians (shapes x providers), geomeans over the benchmark shapes, checks."""
    provs = list(dict.fromkeys(str(r["provider"]) for r in rows))
    idx = _index(rows)
    shapes = list(dict.fromkeys((str(r["kind"]), int(r["m"]), int(r["n"]), int(r["k"])) for r in rows))
    lines = []
    for timing in ("contest", "graph"):
        cols = [p for p in provs if any(key[4] == p and key[5] == timing for key in idx)]
        if not cols:
            continue
        w = max(9, *(len(c) for c in cols))
        lines.append(f"\n{timing} median us" + (" (L2 flushed, events around one call)" if timing == "contest"
                                               else " (CUDA graph replay / calls)"))
        lines.append(f"{'kind':<10}{'M':>5}{'N':>6}{'K':>6}{'floor':>8}  " + "".join(f"{c:>{w + 1}}" for c in cols))
        for kind, m, n, k in shapes:
            cells, floor = [], ""
            for c in cols:
                r = idx.get((kind, m, n, k, c, timing))
                v = None if r is None else _num(r["median_us"])
                cells.append(("-" if r is None else "FAIL" if v is None else f"{v:.2f}")
                             + ("!" if r is not None and str(r["ok"]) == "0" else ""))
                if r is not None:
                    floor = f"{float(r['floor_us']):.2f}"
            lines.append(f"{kind:<10}{m:>5}{n:>6}{k:>6}{floor:>8}  " + "".join(f"{c:>{w + 1}}" for c in cells))
        geo = []
        for c in cols:
            vals = [_num(idx[key]["median_us"]) for key in idx
                    if key[0] == "benchmark" and key[4] == c and key[5] == timing]
            n_bench = len(shapes_mod.load("benchmark"))
            geo.append(f"{geomean(vals):.2f}" if len(vals) == n_bench and None not in vals else "-")
        lines.append(f"{'geomean (6 benchmark shapes)':<37}" + "".join(f"{g:>{w + 1}}" for g in geo))
    lines.append("('!' marks an output that failed check_implementation; 'FAIL' a provider that raised)")
    lines.append("\nissue-6 acceptance (one run):")
    for c in acceptance(rows):
        verdict = "n/a " if c.passed is None else "PASS" if c.passed else "FAIL"
        lines.append(f"  [{verdict}] {c.name}: {c.detail}")
    return "\n".join(lines)


def default_out(device_name: str) -> Path:
    """data/results/<device>/bench.csv, <device> a slug of the GPU's name (h200 on an H200)."""
    slug = "h200" if "H200" in device_name.upper() else re.sub(r"[^a-z0-9]+", "_", device_name.lower()).strip("_")
    return RESULTS_DIR / slug / "bench.csv"


# ---------------------------------------------------------------------------------------------
# Command line


def add_arguments(p) -> None:
    p.add_argument("--shapes", default="test,benchmark,extra",
                   help="comma list of shape kinds from mxlib/data/shapes.csv (default: test,benchmark,extra)")
    p.add_argument("--providers", default="all",
                   help="comma list of providers (default: all; 'mxlib:*' = every mxlib path); "
                        "--list-providers shows them")
    p.add_argument("--list-providers", action="store_true", help="print the providers and exit")
    p.add_argument("--iters", type=int, default=DEFAULT_ITERS, help=f"timed calls per row (default {DEFAULT_ITERS})")
    p.add_argument("--warmup", type=int, default=DEFAULT_WARMUP, help="untimed calls before them")
    p.add_argument("--fresh-inputs", action="store_true",
                   help="new inputs (new seed, B included) for every timed call, as in leaderboard mode")
    p.add_argument("--no-graph", action="store_true", help="skip CUDA-graph replay timing")
    p.add_argument("--head-start-us", type=float, default=DEFAULT_HEAD_START_US,
                   help="GPU sleep after each flush, hiding host overhead as eval.py's huge flush does")
    p.add_argument("--out", type=Path, help="CSV path (default data/results/<device>/bench.csv)")


def run(args) -> int:
    registry = providers()
    if args.list_providers:
        for p in registry.values():
            print(f"{p.name:<20} {p.help}")
        return 0
    try:
        provs = select_providers(args.providers, registry)
        shapes = select_shapes(args.shapes)
    except ValueError as exc:
        print(f"python -m mxlib bench: {exc}", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("python -m mxlib bench times calls with CUDA events and needs a CUDA (or ROCm) GPU; "
              "torch.cuda.is_available() is False here", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    rows, ceilings = run_bench(shapes, provs, iters=args.iters, warmup=args.warmup, fresh_inputs=args.fresh_inputs,
                               graph=not args.no_graph, head_start_us=args.head_start_us)
    out = args.out or default_out(ceilings["device"])
    write_csv(rows, out)
    print(f"{ceilings_text(ceilings)}; {len(rows)} rows in {time.perf_counter() - t0:.0f} s -> {out}")
    print(summary(rows))
    return 1 if any(str(r["ok"]) == "0" for r in rows) else 0
