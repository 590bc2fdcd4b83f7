"""mxlib.tools.timing and the ceilings refuse a machine without a GPU, saying what they need; timing's loops run
against a fake `torch` (a clock that each call advances, read by fake CUDA events), so their counts, units,
flushes and the graph's division are checked on the CPU. No real timings here."""
import contextlib
import types

import pytest
import torch

from mxlib.tools import ceilings, timing


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the CPU refusal")
def test_gpu_timing_refuses_cpu_clearly():
    for fn in (lambda: timing.time_contest(lambda: None), lambda: timing.time_graph(lambda: None),
               lambda: ceilings.measure_ceilings(), lambda: timing.L2Flush()):
        with pytest.raises(RuntimeError, match="needs a CUDA"):
            fn()


L2_BYTES = 40 << 20  # the fake GPU's L2


class _Clock:
    def __init__(self):
        self.us = 0.0            # GPU time, microseconds
        self.capturing = None    # the graph being captured, if any
        # ("record",) an event, ("flush", value) L2Flush's write, ("flush",) a stand-in flush, ("call", args),
        # ("sleep", cycles)
        self.log = []
        self.rates = [1500.0, 1800.0, 2000.0]  # cycles per us seen by the three calibration sleeps
        self.rate_i = 0


def _fake_torch(clock: _Clock):
    class Event:
        def __init__(self, enable_timing=False):
            self.t = None

        def record(self):
            self.t = clock.us
            clock.log.append(("record",))

        def elapsed_time(self, end):
            return (end.t - self.t) / 1e3  # milliseconds, as torch gives them

    class Buf:
        def __init__(self, n):
            self.n = n

        def fill_(self, v):
            clock.log.append(("flush", v))
            return self

    def _sleep(cycles):
        rate = clock.rates[min(clock.rate_i, len(clock.rates) - 1)]
        clock.rate_i += 1
        clock.us += cycles / rate
        clock.log.append(("sleep", cycles))

    class Graph:
        def __init__(self):
            self.us = 0.0

        def replay(self):
            clock.us += self.us

    @contextlib.contextmanager
    def graph(g):
        clock.capturing = g
        try:
            yield
        finally:
            clock.capturing = None

    class Stream:
        def wait_stream(self, other):
            pass

    cuda = types.SimpleNamespace(
        is_available=lambda: True, Event=Event, synchronize=lambda: None, _sleep=_sleep,
        get_device_properties=lambda d: types.SimpleNamespace(L2_cache_size=L2_BYTES),
        Stream=Stream, stream=lambda s: contextlib.nullcontext(), current_stream=lambda: Stream(),
        CUDAGraph=Graph, graph=graph)
    return types.SimpleNamespace(cuda=cuda, device=lambda *a: a, empty=lambda n, **kw: Buf(n), int32="int32")


@pytest.fixture
def clock(monkeypatch) -> _Clock:
    """A fresh clock, and timing's `torch` replaced by a fake that runs on it."""
    c = _Clock()
    monkeypatch.setattr(timing, "torch", _fake_torch(c))
    return c


def _call(clock, durations):
    """fn whose i-th call takes durations[i] us of GPU time (on the clock, or into the graph being captured)."""
    calls = iter(durations)

    def fn(*args):
        d = next(calls)
        clock.log.append(("call", args))
        if clock.capturing is not None:
            clock.capturing.us += d
        else:
            clock.us += d
        return object()
    return fn


class _Flush:
    def __init__(self, clock):
        self.clock, self.n = clock, 0

    def __call__(self):
        self.n += 1
        self.clock.log.append(("flush",))


def test_time_contest_times_iters_calls_after_warmup_each_behind_a_flush(clock):
    """`warmup` untimed calls, then `iters` timed ones in microseconds (events give milliseconds), every call
    behind a flush and alone between its two events."""
    flush = _Flush(clock)
    fn = _call(clock, [500.0, 500.0, 1.0, 2.0, 6.0])  # two untimed warmup calls, then three timed ones
    s = timing.time_contest(fn, iters=3, warmup=2, flush=flush)
    assert s["n"] == 3 and s["mean_us"] == pytest.approx(3.0) and s["median_us"] == pytest.approx(2.0)
    assert s["p20_us"] == pytest.approx(1.4) and s["p80_us"] == pytest.approx(4.4)
    assert flush.n == 5  # every call, warmup included, follows a flush
    kinds = [e[0] for e in clock.log]
    assert kinds == ["flush", "record", "call", "record"] * 5  # flush before the start event, one call between


def test_time_contest_makes_fresh_inputs_for_every_call_and_takes_no_warmup(clock):
    """With fresh_inputs each call gets inputs made for it (outside its events); warmup 0 is allowed."""
    made = []

    def inputs_fn():
        made.append(len(made))
        return (len(made) - 1,)
    fn = _call(clock, [1.0] * 4)
    s = timing.time_contest(fn, inputs_fn, iters=4, warmup=0, fresh_inputs=True, flush=_Flush(clock))
    assert s["n"] == 4 and len(made) == 4
    assert [e[1] for e in clock.log if e[0] == "call"] == [(0,), (1,), (2,), (3,)]  # a new input each call


def test_time_graph_divides_each_replay_by_its_captured_calls(clock):
    """A replay of `calls` captured calls is timed whole and divided by `calls`: one sample per replay."""
    fn = _call(clock, [3.0] * (3 + 5))  # 3 warmup calls on the side stream, 5 captured
    s = timing.time_graph(fn, calls=5, replays=7)
    assert s["n"] == 7 and s["mean_us"] == pytest.approx(3.0) and s["median_us"] == pytest.approx(3.0)


def test_l2_flush_writes_4x_the_l2_anew_and_sleeps_at_the_median_clock(clock):
    """The flush buffer is FLUSH_L2_MULTIPLE (4) times the L2, written with a new value each time, and the
    head start is sleep cycles at the median of three calibrated clock rates."""
    f = timing.L2Flush(head_start_us=100.0)
    assert f.nbytes == 4 * L2_BYTES and f._buf.n == f.nbytes // 4
    # calibration: the median of the three rates (1800 cycles/us), not the largest nor the smallest
    assert f._sleep_cycles == int(100.0 * 1800.0)
    clock.log.clear()
    f(), f(), f()
    values = [e[1] for e in clock.log if e[0] == "flush"]
    assert len(values) == 3 and values[0] != values[1] and values[1] != values[2]
    assert [e[1] for e in clock.log if e[0] == "sleep"] == [180000] * 3
