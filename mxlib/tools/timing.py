"""Timing GPU calls the way the contest does, and by CUDA-graph replay.

Contest-style timing (`time_contest`) follows gpu-mode/reference-kernels:problems/amd_202602/eval.py:
before each timed call, synchronize and flush the L2 with a large write, then time ONE call between
two CUDA events. eval.py writes a 64 GB random tensor, which also gives the host milliseconds to
enqueue the call before the GPU reaches the start event; here the flush writes 4x the L2 and is
followed by a calibrated GPU sleep (`head_start_us`), so host overhead stays hidden the same way and
a call costs what its kernels cost on the GPU, gaps between them included.

Graph timing (`time_graph`) captures many calls in a CUDA graph and divides a replay's time: the GPU
time alone, with warm caches and no launch gaps.

`poison_allocator` fills the caching allocator with NaN blocks before an untimed, checked call, so an
output element a kernel never writes shows up as NaN instead of a previous call's value.
"""
from __future__ import annotations

from typing import Callable

import torch

from ..spec import validate
from .stats import summarize

FLUSH_L2_MULTIPLE = 4
DEFAULT_ITERS = 200
DEFAULT_WARMUP = 10
DEFAULT_HEAD_START_US = 1000.0
SEED_STEP = 13  # eval.py's leaderboard mode adds 13 to the seed before each fresh input
GRAPH_CALLS = 20
GRAPH_REPLAYS = 30


def require_cuda(what: str) -> None:
    """Raise, naming `what`, unless torch sees a CUDA (or ROCm) GPU."""
    if not torch.cuda.is_available():
        raise RuntimeError(f"{what} needs a CUDA (or ROCm) GPU: torch.cuda.is_available() is False on this machine")


class L2Flush:
    """Evicts the L2 before a timed call: a write of `FLUSH_L2_MULTIPLE` x its size, then a GPU sleep.

    The sleep (calibrated once against CUDA events) keeps the GPU busy for `head_start_us` after the
    flush, so the host enqueues the whole call before the start event is reached, as it does behind
    eval.py's 64 GB flush.
    """

    def __init__(self, head_start_us: float = DEFAULT_HEAD_START_US, device=None):
        require_cuda("L2Flush")
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


def time_contest(fn: Callable, inputs_fn: Callable[[], tuple] | None = None, *, iters: int = DEFAULT_ITERS,
                 warmup: int = DEFAULT_WARMUP, fresh_inputs: bool = False, flush: L2Flush | None = None) -> dict:
    """Contest-style time of `fn(*inputs_fn())`: synchronize, flush, events around ONE call; repeated.

    `inputs_fn` (optional) returns the argument tuple; it is called once, or before every call (and
    before that call's flush, so outside the timing) when `fresh_inputs` is true. Returns
    `summarize` of the `iters` timed calls that follow `warmup` untimed ones.
    """
    require_cuda("time_contest")
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
    require_cuda("time_graph")
    validate.positive(replays, "replays")
    graph, _ = capture_graph(fn, inputs, calls=calls, warmup=warmup)
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(replays)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(replays)]
    for s, e in zip(starts, ends):
        s.record()
        graph.replay()
        e.record()
    torch.cuda.synchronize()
    del graph
    return summarize([s.elapsed_time(e) * 1e3 / calls for s, e in zip(starts, ends)])


def capture_graph(fn: Callable, inputs: tuple = (), *, calls: int = 1, warmup: int = 3):
    """(graph, out): a CUDA graph of `calls` calls of `fn(*inputs)`, replayed once (the first replay uploads it)
    and synchronized, and what the last captured call returned. torch's recipe: `warmup` calls first on a side
    queue, where lazy initialisation and the allocator settle, then the capture. Each replay recomputes `out`
    from the values the input tensors hold then: copy new values into them, replay, read `out`."""
    require_cuda("capture_graph")
    validate.positive(calls, "calls")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(warmup):
            fn(*inputs)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(calls):
            out = fn(*inputs)
    graph.replay()
    torch.cuda.synchronize()
    return graph, out


def poison_allocator(nbytes: int, copies: int = 16) -> None:
    """Leave the CUDA caching allocator holding NaN-filled free blocks of `nbytes` bytes.

    The next allocations of that size (the output of the call that follows) land on NaN memory, so an
    element a kernel forgets to write fails the check instead of reading a previous call's result.
    """
    require_cuda("poison_allocator")
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    blocks = [torch.full((max(nbytes // 2, 1),), float("nan"), dtype=torch.bfloat16, device="cuda")
              for _ in range(copies)]
    torch.cuda.synchronize()
    del blocks


def poison_pools(device) -> None:
    """Leave the CUDA caching allocator's free blocks in both its pools (a 256 MiB block in the large
    one, four 1 MiB blocks in the small one) full of 0xFF bytes: NaN in fp32 and bf16, 255 in uint8. A
    path's internal buffers (quantized A, a split-K workspace) allocated next then start poisoned, so
    a read of memory the kernel did not write shows in its output. A no-op off CUDA."""
    if torch.device(device).type != "cuda":
        return
    big = torch.empty(256 << 20, dtype=torch.uint8, device=device).fill_(255)
    small = [torch.empty(1 << 20, dtype=torch.uint8, device=device).fill_(255) for _ in range(4)]
    del big, small
