"""The local contest harness: the contest's rules, and the cheats it must catch, each with its own message.

Submissions here are small self-contained files written in the test (pure torch, no mxlib), so the
harness is tested on exactly what the contest would receive.
"""
import csv
import itertools
import math
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from mxlib.spec.reference import generate_input, ref_kernel
from mxlib.tools import export, harness
from mxlib.tools.timing import SEED_STEP
from mxlib.__main__ import main

# An honest submission: A quantized round-half-even and dequantized, B dequantized from B_q and the
# un-shuffled B_scale_sh, fp32 matmul. Written independently of mxlib, from the problem statement.
GOOD = '''
import torch
from task import input_t, output_t

_MIDS = (0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0)
_UP_AT_TIE = (False, True, False, True, False, True, False)  # ties go to the even code
_VALUES = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)


def _pow2(e):
    """Exact fp32 2**e for int32 e in [-127, 127]."""
    bits = torch.where(e == -127, torch.full_like(e, 0x400000), (e + 127) << 23)
    return bits.view(torch.float32)


def _round_trip_a(x):
    m, k = x.shape
    blocks = x.float().reshape(m, k // 32, 32)
    bits = blocks.abs().amax(-1).contiguous().view(torch.int32)
    e = (((((bits + 0x200000) & -0x800000) >> 23) & 0xFF) - 129).clamp(-127, 127).unsqueeze(-1)
    q = blocks * _pow2(-e)
    mag = q.abs()
    code = torch.zeros(mag.shape, dtype=torch.int64, device=x.device)
    for mid, up in zip(_MIDS, _UP_AT_TIE):
        code += ((mag >= mid) if up else (mag > mid)).long()
    vals = torch.tensor(_VALUES, device=x.device)[code]
    return (torch.where(q < 0, -vals, vals) * _pow2(e)).reshape(m, k)


def _dequant_b(b_q, b_scale_sh, n, k):
    sm, sn = b_scale_sh.shape
    s = b_scale_sh.view(torch.uint8).view(sm // 32, sn // 8, 4, 16, 2, 2).permute(0, 5, 3, 1, 4, 2)
    s = s.reshape(sm, sn)[:n, : k // 32].int()
    q = b_q.view(torch.uint8)
    codes = torch.stack(((q & 0xF).long(), (q >> 4).long()), -1).flatten(-2)
    table = torch.tensor(_VALUES + tuple(-v for v in _VALUES), device=q.device)
    return (table[codes].reshape(n, k // 32, 32) * _pow2(s - 127).unsqueeze(-1)).reshape(n, k)


def _mm(a, b_q, b_scale_sh):
    n, k = b_q.shape[0], a.shape[1]
    return _round_trip_a(a) @ _dequant_b(b_q, b_scale_sh, n, k).T


def custom_kernel(data: input_t) -> output_t:
    a, b, b_q, b_shuffle, b_scale_sh = data
    return _mm(a, b_q, b_scale_sh).to(torch.bfloat16)
'''

# Caches dequantized B keyed on B_q's address: right on the first call, stale once the address is reused.
PTR_CACHE = GOOD + '''

_B_CACHE = {}


def custom_kernel(data):
    a, b, b_q, b_shuffle, b_scale_sh = data
    key = b_q.data_ptr()
    if key not in _B_CACHE:
        _B_CACHE[key] = _dequant_b(b_q, b_scale_sh, b_q.shape[0], a.shape[1])
    return (_round_trip_a(a) @ _B_CACHE[key].T).to(torch.bfloat16)
'''

# Returns one persistent buffer per shape.
REUSES_OUTPUT = GOOD + '''

_OUT = {}


def custom_kernel(data):
    a, b, b_q, b_shuffle, b_scale_sh = data
    c = _mm(a, b_q, b_scale_sh).to(torch.bfloat16)
    buf = _OUT.setdefault(tuple(c.shape), torch.empty_like(c))
    buf.copy_(c)
    return buf
'''

# Fresh outputs, but it scribbles over the previous one (e.g. using it as scratch).
OVERWRITES_OUTPUT = GOOD + '''

_LAST = []


def custom_kernel(data):
    a, b, b_q, b_shuffle, b_scale_sh = data
    if _LAST:
        _LAST.pop().zero_()
    c = _mm(a, b_q, b_scale_sh).to(torch.bfloat16)
    _LAST.append(c)
    return c
'''

WRONG = GOOD.replace("(mag >= mid) if up else (mag > mid)", "(mag >= mid)")  # ties rounded away from zero

SHAPES = "4x64x512:{s0},3x32x128:{s1}"


def _shapes():
    r = random.Random()
    return SHAPES.format(s0=r.randrange(1 << 20), s1=r.randrange(1 << 20))


def _write(tmp_path, text, name="submission.py"):
    p = tmp_path / name
    p.write_text(text)
    return p


def _harness(capsys, path, *extra):
    """The command line: the protocol in a watched worker process."""
    rc = main(["harness", str(path), "test", "--shapes", _shapes(), *extra])
    cap = capsys.readouterr()
    return rc, cap.out + cap.err


def _in_process(path):
    """The same protocol in this process (what the notebooks call), for the cheats it must catch."""
    results = harness.run_test(harness.load_submission(path), harness.cases(_shapes()), "cpu")
    return (0 if all(r.ok for r in results) else 1), harness.report(results, "test")


def test_good_submission_passes_test_mode(tmp_path, capsys):
    rc, out = _harness(capsys, _write(tmp_path, GOOD))
    assert rc == 0, out
    assert "test: 2 of 2 passed" in out


def test_pointer_cache_is_caught(tmp_path, capsys):
    rc, out = _in_process(_write(tmp_path, PTR_CACHE))
    assert rc == 1
    assert "same data_ptr, new contents" in out and "B's data_ptr" in out, out


def test_reused_output_buffer_is_caught(tmp_path, capsys):
    rc, out = _in_process(_write(tmp_path, REUSES_OUTPUT))
    assert rc == 1
    assert "returned the same output buffer twice" in out, out


def test_overwritten_previous_output_is_caught(tmp_path, capsys):
    rc, out = _in_process(_write(tmp_path, OVERWRITES_OUTPUT))
    assert rc == 1
    assert "overwrote a previous call's output" in out, out


def test_wrong_rounding_fails_the_check(tmp_path, capsys):
    rc, out = _in_process(_write(tmp_path, WRONG))
    assert rc == 1
    assert "mismatch" in out, out


@pytest.mark.parametrize("spelling", ["stream", "Stream", "torch.cuda.STREAM"])
def test_stream_is_refused_before_running(tmp_path, capsys, spelling):
    text = GOOD + f"\n\n# no {spelling} here\n"
    rc, out = _harness(capsys, _write(tmp_path, text))
    assert rc == 1
    assert "REJECTED" in out and 'the word "stream"' in out
    assert f"line {len(text.splitlines())}" in out  # points at the offending line
    with pytest.raises(harness.SubmissionRejected, match="stream"):
        harness.load_submission(tmp_path / "submission.py")


SYS_EXIT = GOOD + "\n\nimport sys\n\n\ndef custom_kernel(data):\n    sys.exit(0)\n"
OS_EXIT = GOOD + "\n\nimport os\n\n\ndef custom_kernel(data):\n    os._exit(0)\n"
HANGS = GOOD + "\n\nimport time\n\n\ndef custom_kernel(data):\n    while True:\n        time.sleep(0.1)\n"
IMPORTS_AT_CALL = GOOD + '''

import importlib


def custom_kernel(data):
    return importlib.import_module("mx" + "lib").ref_kernel(data)
'''
IMPORTS_AT_LOAD = "import importlib\nimportlib.import_module('mx' + 'lib')\n" + GOOD


@pytest.mark.parametrize("text,words", [
    (SYS_EXIT, "custom_kernel called sys.exit(0): a submission must return its output"),
    (OS_EXIT, "the harness worker ended (exit code 0) while running case"),
    (IMPORTS_AT_CALL, "import of mxlib refused: the contest machine has no mxlib"),
], ids=["sys.exit", "os._exit", "import_module"])
def test_submission_that_exits_or_imports_mxlib_fails(tmp_path, capsys, text, words):
    """Ending the process or reaching mxlib by any spelling is a failure with its reason, never a
    silent pass: the run's exit code is 1."""
    rc, out = _harness(capsys, _write(tmp_path, text))
    assert rc == 1 and words in out, out
    assert "FAIL" in out or "REJECTED" in out


META_OUTPUT = GOOD + "\n\ndef custom_kernel(data):\n    return torch.empty(data[0].shape[0], data[1].shape[0], " \
                     "dtype=torch.bfloat16, device='meta')\n"


def test_an_output_the_check_refuses_fails_its_case_by_name(tmp_path, capsys):
    """A meta output (no values) fails each case with the check's reason, in the worker: not a crash of the
    worker blamed on the submission."""
    rc, out = _harness(capsys, _write(tmp_path, META_OUTPUT))
    assert rc == 1 and "test: 0 of 2 passed" in out, out
    assert "custom_kernel's output cannot be checked: output is a meta tensor" in out and "worker ended" not in out, out


def test_submission_that_imports_mxlib_when_loaded_is_refused(tmp_path, capsys):
    rc, out = _harness(capsys, _write(tmp_path, IMPORTS_AT_LOAD))
    assert rc == 1 and "REJECTED" in out and "import of mxlib refused" in out, out


def test_hanging_submission_is_stopped(tmp_path, capsys):
    rc, out = _harness(capsys, _write(tmp_path, HANGS), "--timeout", "3")
    assert rc == 1 and "so the run was stopped" in out and "--timeout 3 s" in out, out


def _workers(submission) -> list[int]:
    """Pids of the harness workers running `submission` (their command lines, read from /proc)."""
    pids = []
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:  # not a process, or gone
            continue
        if str(submission).encode() in argv and b"--worker-fd" in argv:
            pids.append(int(proc.name))
    return pids


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the worker's death with its parent is Linux's")
@pytest.mark.parametrize("how", ["kill", "interrupt"])
def test_a_worker_does_not_outlive_its_harness(tmp_path, how):
    """The worker runs in its own session (so the harness can kill its whole group), so a signal sent to the
    harness alone does not reach it: killed (SIGKILL, as `timeout -s KILL`), the harness takes the worker with it
    through the kernel; interrupted (Ctrl-C), it kills the worker and says so in one line."""
    path = _write(tmp_path, HANGS)
    # SIGINT at its default in the harness, as a terminal's Ctrl-C finds it: a test run started in the
    # background of a shell without job control ignores SIGINT, and its children would inherit that.
    parent = subprocess.Popen([sys.executable, "-m", "mxlib", "harness", str(path), "--shapes", "4x64x512"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        while not _workers(path) and time.monotonic() < deadline and parent.poll() is None:
            time.sleep(0.2)
        assert _workers(path), "the worker never started"
        time.sleep(1.0)  # into the submission's custom_kernel
        parent.send_signal(signal.SIGKILL if how == "kill" else signal.SIGINT)
        _, err = parent.communicate(timeout=60)
    finally:  # a failed step leaves no harness behind (its worker dies with it)
        if parent.poll() is None:
            parent.kill()
            parent.communicate()
    deadline = time.monotonic() + 30
    while _workers(path) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _workers(path), f"the worker outlived its harness ({how})"
    if how == "interrupt":
        assert parent.returncode == 130 and err.strip().splitlines() == ["python -m mxlib harness: interrupted"], err


def test_mxlib_import_and_missing_entry_point_are_refused(tmp_path):
    with pytest.raises(harness.SubmissionRejected, match="no mxlib"):
        harness.load_submission(_write(tmp_path, "from mxlib.runtime.dispatch import custom_kernel\n"))
    before = set(sys.modules)
    with pytest.raises(harness.SubmissionRejected, match="no callable custom_kernel"):
        harness.load_submission(_write(tmp_path, "import torch\ndef kernel(data):\n    return None\n", "b.py"))
    with pytest.raises(harness.SubmissionRejected, match="failed to load: ZeroDivisionError"):
        harness.load_submission(_write(tmp_path, "x = 1 / 0\ndef custom_kernel(data):\n    return None\n", "c.py"))
    assert not {m for m in set(sys.modules) - before if m.startswith("_mxlib_submission_")}  # nothing left behind


def test_every_spelling_of_an_mxlib_import_is_refused_and_lookalikes_are_not():
    """The contest machine has no mxlib: `import mxlib` and `from mxlib import ...` are refused as surely
    as a submodule's import; a module that only starts with the same letters is not mxlib."""
    for source in ("import mxlib\n", "from mxlib import custom_kernel\n", "import torch, mxlib.spec\n"):
        (problem,) = harness.check_source(source)
        assert problem.startswith("line 1 imports mxlib") and harness.NO_MXLIB in problem, source
    assert harness.check_source("import mxlibrary\nfrom mxlib_extra import x\n") == []


def test_the_score_needs_every_shape_to_pass():
    """The ranked score is the geometric mean of per-shape means only when every shape passed: a failed
    shape's times, however fast, give no score."""
    c = harness.Case(16, 64, 512, 1)
    good = harness.Result(c, True, "", [2000.0, 2000.0])
    assert harness.score_us([good, harness.Result(c, True, "", [8000.0])]) == pytest.approx(4.0)
    assert harness.score_us([good, harness.Result(c, False, "mismatch", [8000.0])]) is None
    assert harness.score_us([]) is None


def test_each_load_is_a_fresh_module(tmp_path):
    """Two loads of one file share no state: the module-level cache of the first is not the second's."""
    p = _write(tmp_path, "_calls = []\ndef custom_kernel(data):\n    _calls.append(1)\n    return len(_calls)\n")
    k1, k2 = harness.load_submission(p), harness.load_submission(p)
    assert k1(None) == 1 and k1(None) == 2 and k2(None) == 1


def test_seed_mixing_and_shape_parsing():
    assert harness.combine_seed(15, 7) == 15 + 22 * 23 // 2  # eval.py's _combine
    cs = harness.cases("4x64x512:3,8x32x256")
    assert [(c.m, c.n, c.k, c.seed) for c in cs] == [(4, 64, 512, 3), (8, 32, 256, 1001)]
    assert [c.seed for c in harness.cases("benchmark", 99)] == [harness.combine_seed(s.seed, 99)
                                                                for s in harness.cases("benchmark")]
    with pytest.raises(ValueError, match="MxNxK"):
        harness.cases("4x64")
    # a shape or seed no input can be made for is the argument's error, before any worker runs a submission
    for spec, rule in (("8x100x512", "n must be a multiple of 16"), ("0x64x512", "m must be a positive"),
                       ("8x64x512:-5", r"seed must be in \[0, 2\*\*64\)")):
        with pytest.raises(ValueError, match=rf"--shapes: '{spec}': {rule}"):
            harness.cases(spec)


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the CPU refusal")
@pytest.mark.parametrize("mode", ["benchmark", "leaderboard"])
def test_timed_modes_need_a_gpu(tmp_path, capsys, mode):
    rc = main(["harness", str(_write(tmp_path, GOOD)), mode])
    assert rc == 2
    assert "needs a GPU" in capsys.readouterr().err


@pytest.mark.gpu
def test_leaderboard_catches_pointer_cache_on_gpu(tmp_path):
    """Leaderboard mode: fresh seeds every iteration, every other one in the previous storage."""
    from mxlib.tools.timing import L2Flush

    flush = L2Flush(head_start_us=0)
    case = harness.Case(32, 256, 512, random.randrange(1 << 20))
    good = harness.load_submission(_write(tmp_path, GOOD))
    res = harness.run_one_benchmark(good, case, flush, recheck=True, max_repeats=4, max_time_ns=1e9)
    assert res.ok, res.message
    bad = harness.load_submission(_write(tmp_path, PTR_CACHE, "bad.py"))
    res = harness.run_one_benchmark(bad, case, flush, recheck=True, max_repeats=4, max_time_ns=1e9)
    assert not res.ok and "mismatch" in res.message
    reuse = harness.load_submission(_write(tmp_path, REUSES_OUTPUT, "reuse.py"))
    res = harness.run_one_benchmark(reuse, case, flush, recheck=True, max_repeats=4, max_time_ns=1e9)
    assert not res.ok and "same output buffer" in res.message


def test_recorded_verdicts_read_every_run(tmp_path):
    (tmp_path / "harness_test_run1.txt").write_text("spec status\nm: 4 pass\ntest: 4 of 4 passed\nNVIDIA H200, 5.9 s\n")
    (tmp_path / "harness_benchmark_run1.txt").write_text(
        "spec\nbenchmark: 6 of 6 passed (times in us)\nscore (geometric mean of the means): 12.000 us\nNVIDIA H200, 8.3 s\n")
    text = harness.recorded_verdicts(tmp_path)
    assert text.splitlines() == ["harness_benchmark_run1.txt:", "  benchmark: 6 of 6 passed (times in us)",
                                 "  score (geometric mean of the means): 12.000 us", "harness_test_run1.txt:",
                                 "  test: 4 of 4 passed"]
    with pytest.raises(FileNotFoundError, match="no harness_.*txt with a verdict in .*none"):
        harness.recorded_verdicts(tmp_path / "none")


def test_recorded_verdicts_add_the_medians_score(tmp_path):
    table = ("spec                             status     mean    err     best    worst   median  runs\n"
             "m: 4; n: 2880; k: 512; seed: 1   pass       6.02   0.01     5.95     6.40     4.00   100\n"
             "m: 16; n: 2112; k: 7168; seed: 2 pass      13.88   0.05    13.09    14.88     9.00   100\n")
    (tmp_path / "harness_leaderboard.txt").write_text(
        table + "leaderboard: 2 of 2 passed (times in us)\nscore (geometric mean of the means): 9.667 us\nNVIDIA H200, 1 s\n")
    assert harness.recorded_verdicts(tmp_path).splitlines()[-1] == "  (geometric mean of the medians, from the table: 6.000 us)"
    failed = table.splitlines()[0] + "\n" + table.splitlines()[1] + "\nm: 16; n: 2112; k: 7168; seed: 2 FAIL\n"
    (tmp_path / "harness_leaderboard.txt").write_text(failed + "leaderboard: 1 of 2 passed\n")
    assert "medians" not in harness.recorded_verdicts(tmp_path)


def test_interpreter_test_reports_each_file_and_what_it_said(tmp_path):
    """Notebook 08's CPU check: each file alone in test mode on the small cases; what a file prints on
    stderr is part of the report, and one wrong file fails the whole check."""
    said = GOOD + "\nimport sys\nprint('no aiter here', file=sys.stderr)\n"
    text, ok = harness.interpreter_test({"first": _write(tmp_path, said, "a.py"), "second": _write(tmp_path, GOOD, "b.py")})
    assert ok and "first file, a.py, in the interpreter:" in text and "second file, b.py" in text
    assert "  the file said: no aiter here" in text and text.count("test: ") == 2
    text, ok = harness.interpreter_test({"wrong": _write(tmp_path, WRONG, "c.py")})
    assert not ok and "wrong file, c.py" in text


def test_all_modes_runs_three_modes_and_writes_a_csv_each(tmp_path, monkeypatch):
    """Notebook 08's GPU run, with the GPU's runs stood in for: test mode on the test cases, then the two
    timed modes on the benchmark cases with the head start given, a CSV a mode in the folder given."""
    calls = []

    def fake_test(kernel, case_list, device):
        calls.append(("test", len(case_list), device))
        return [harness.Result(c, True, "ok") for c in case_list]

    def fake_timed(kernel, case_list, mode, head_start_us):
        calls.append((mode, len(case_list), head_start_us))
        return [harness.Result(c, mode != "leaderboard", "ok", [1000.0, 2000.0]) for c in case_list]

    monkeypatch.setattr(harness, "load_submission", lambda file: "kernel")
    monkeypatch.setattr(harness, "run_test", fake_test)
    monkeypatch.setattr(harness, "run_timed", fake_timed)
    text, ok = harness.all_modes(tmp_path / "s.py", tmp_path / "out", "a GPU", head_start_us=7.0)
    n_test, n_bench = len(harness.cases("test")), len(harness.cases("benchmark"))
    assert calls == [("test", n_test, "cuda"), ("benchmark", n_bench, 7.0), ("leaderboard", n_bench, 7.0)]
    assert not ok and "leaderboard" in text  # one failing mode fails the run
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [f"harness_{m}.csv" for m in ("benchmark", "leaderboard", "test")]
    assert "a GPU" in (tmp_path / "out" / "harness_benchmark.csv").read_text()


@pytest.mark.parametrize("extra, words", [
    (["--timeout", "inf"], "--timeout must be a number of seconds in (0, 86400], got inf"),
    (["--timeout", "0"], "--timeout must be a number of seconds in (0, 86400], got 0.0"),
    (["--seed", str(2**64 - 1)], f"--seed {2**64 - 1}: mixed into case 4x64x512's seed"),
])
def test_arguments_the_worker_would_fail_on_are_refused_first(tmp_path, capsys, extra, words):
    """Said as one line naming the argument before any worker starts, never as the submission's crash."""
    rc = main(["harness", str(_write(tmp_path, GOOD)), "test", "--shapes", "4x64x512:5", *extra])
    assert rc == 2 and words in capsys.readouterr().err


@pytest.mark.skipif(torch.cuda.is_available(), reason="on the CPU the worker runs in Triton's interpreter")
def test_the_interpreter_is_the_workers_not_the_callers(tmp_path, monkeypatch, capsys):
    """On the CPU the worker sets TRITON_INTERPRET for the submission in its own process; the harness called
    in-process leaves the caller's environment as it was, whether it refused its arguments or ran."""
    import os

    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    good = str(_write(tmp_path, GOOD))
    assert main(["harness", good, "test", "--shapes", "4x24x512"]) == 2  # refused: N not a multiple of 16
    assert "TRITON_INTERPRET" not in os.environ
    assert main(["harness", good, "test", "--shapes", "4x64x512:5"]) == 0, capsys.readouterr()
    assert "TRITON_INTERPRET" not in os.environ


def test_a_submission_that_is_not_utf8_is_named(tmp_path, capsys):
    path = tmp_path / "submission.py"
    path.write_bytes(b"\xff\xfe\x00bad")
    assert main(["harness", str(path), "test", "--shapes", "4x64x512:5"]) == 2
    assert f"{path} is not UTF-8 text" in capsys.readouterr().err
    with pytest.raises(ValueError, match="is not UTF-8 text"):
        harness.load_submission(path)


# The timed modes on the CPU: the GPU's synchronizes, events, flush and input generation stood in for by a
# fake that records what the harness asked for (no assertion on a measured time).
CASE = harness.Case(4, 64, 512, 5)


def _kernel(data):
    """A correct submission: mxlib's exact reference (a fresh bf16 output every call)."""
    return ref_kernel(data)


class FakeGPU:
    """Stands in for the GPU calls of the timed modes: records synchronizes, flushes, event records and the
    kernel's calls in one log; events report `ms` milliseconds (cycled); inputs come from the CPU generator
    and their seeds are recorded."""

    def __init__(self, monkeypatch, ms=(0.002,)):
        self.log, self.seeds, self.ms = [], [], itertools.cycle(ms)
        gpu = self

        class Event:
            def __init__(self, enable_timing=False):
                pass

            def record(self):
                gpu.log.append("record")

            def elapsed_time(self, end):
                return next(gpu.ms)

        def gen(m, n, k, seed, device="cpu"):
            gpu.seeds.append(seed)
            return generate_input(m, n, k, seed, device="cpu")

        monkeypatch.setattr(torch.cuda, "synchronize", lambda *a, **k: self.log.append("sync"))
        monkeypatch.setattr(torch.cuda, "Event", Event)
        monkeypatch.setattr(harness, "generate_input", gen)

    def flush(self):
        self.log.append("flush")


# ---------------------------------------------------------------------------------------------
# harness: statistics and the stopping rule


def test_stats_are_eval_pys_sample_std_and_its_error_and_the_true_median():
    """Result.stats is eval.py's Stats: std with Bessel's correction (n - 1), err = std / sqrt(runs); plus
    the median (not the mean)."""
    st = harness.Result(CASE, True, "", [1000.0, 3000.0]).stats()
    assert st["std_us"] == pytest.approx(math.sqrt(2.0))  # deviations +-1 us, sum of squares 2, over n - 1 = 1
    assert st["err_us"] == pytest.approx(1.0)  # sqrt(2) / sqrt(2)
    st = harness.Result(CASE, True, "", [1000.0, 1000.0, 4000.0]).stats()
    assert st["median_us"] == pytest.approx(1.0) and st["mean_us"] == pytest.approx(2.0)


def test_should_stop_only_after_the_third_run():
    """eval.py's early stop applies from the third run on: two identical times (relative error 0) do not
    stop, three do."""
    now = time.perf_counter_ns()
    assert not harness._should_stop([1000.0, 1000.0], 1e12, now)
    assert harness._should_stop([1000.0, 1000.0, 1000.0], 1e12, now)


def test_should_stop_on_the_total_measured_time_not_the_mean():
    """Stop when mean * runs (the measured time) exceeds max_time_ns, even with a noisy mean."""
    now = time.perf_counter_ns()
    times = [1.0, 100.0, 1.0]  # relative error ~0.97: no stop on precision; measured 102 ns in all
    assert harness._should_stop(times, 101.0, now)
    assert not harness._should_stop(times, 103.0, now)


def test_should_stop_after_120_s_of_wall_time_only():
    """Stop once 120 s of wall time have passed since the benchmark began (and not at 90 s)."""
    now = time.perf_counter_ns()
    times = [1.0, 100.0, 1.0]
    assert harness._should_stop(times, 1e12, now - 121e9)
    assert not harness._should_stop(times, 1e12, now - 90e9)


def test_should_stop_at_a_relative_error_of_a_tenth_of_a_percent():
    """The precision stop is err / mean < 0.001 (eval.py): a relative error of ~0.4% goes on, ~0.03% stops.
   """
    now = time.perf_counter_ns()
    assert not harness._should_stop([1000.0, 1010.0, 990.0, 1000.0], 1e12, now)  # err/mean = 0.0041
    assert harness._should_stop([1000.0, 1001.0, 999.0, 1000.0], 1e12, now)  # err/mean = 0.00041


# ---------------------------------------------------------------------------------------------
# harness: one timed call, the benchmark loop, the modes


def test_timed_call_syncs_flushes_then_times_between_two_events(monkeypatch):
    """Each timed call comes after a synchronize and an L2 flush, between two CUDA events, synchronized
    after; the event's milliseconds are returned as nanoseconds."""
    gpu = FakeGPU(monkeypatch, ms=(0.002,))
    out, t_ns = harness._timed(lambda data: gpu.log.append("kernel") or "out", None, gpu.flush)
    assert out == "out" and t_ns == pytest.approx(2000.0)
    assert gpu.log == ["sync", "flush", "record", "kernel", "record", "sync"]


def test_a_checked_call_synchronizes_before_and_after_the_kernel(monkeypatch):
    """eval.py synchronizes after custom_kernel before checking its output (an asynchronous error belongs to
    the call): _call on a CUDA device syncs before and after."""
    gpu = FakeGPU(monkeypatch)
    out, err = harness._call(lambda data: gpu.log.append("kernel") or "out", None, "cuda")
    assert (out, err) == ("out", None) and gpu.log == ["sync", "kernel", "sync"]


def _bench(monkeypatch, kernel, ms=(0.002,), **kw):
    """run_one_benchmark on the CPU with the GPU faked; returns (result, fake, data_ptrs of A per timed call)."""
    gpu = FakeGPU(monkeypatch, ms=ms)
    ptrs = []

    def timed(k, data, flush):
        ptrs.append(data[0].data_ptr())
        return k(data), 1000.0 * next(gpu.ms)

    monkeypatch.setattr(harness, "_timed", timed)
    kw.setdefault("max_time_ns", 1e15)
    return harness.run_one_benchmark(kernel, CASE, gpu.flush, **kw), gpu, ptrs


def test_leaderboard_regenerates_inputs_with_seed_plus_13_every_other_one_in_place(monkeypatch):
    """Leaderboard mode: each timed call on inputs regenerated with seed += 13, and every other iteration
    into the previous iteration's storage (same data_ptr); each output is rechecked against its own inputs, so
    a check copy left stale fails the run."""
    res, gpu, ptrs = _bench(monkeypatch, _kernel, ms=(1.0, 3.0), recheck=True, max_repeats=4)
    assert res.ok, res.message
    assert gpu.seeds == [CASE.seed + SEED_STEP * i for i in range(5)] and SEED_STEP == 13
    assert ptrs[1] == ptrs[0] and ptrs[3] == ptrs[2] and ptrs[2] != ptrs[1]


def test_benchmark_runs_up_to_max_repeats_and_stops_early_by_eval_pys_rule(monkeypatch):
    """Up to max_repeats timed calls (all of them while the times stay noisy); with identical times the
    early stop ends the loop at the third."""
    res, _, _ = _bench(monkeypatch, _kernel, ms=(1.0, 3.0), recheck=False, max_repeats=4)
    assert res.ok and len(res.times_ns) == 4
    res, _, _ = _bench(monkeypatch, _kernel, ms=(0.002,), recheck=False, max_repeats=50)
    assert res.ok and len(res.times_ns) == 3


def test_leaderboard_refuses_the_checked_calls_buffer_returned_by_the_first_timed_call(monkeypatch):
    """Each output is kept while the next call runs: returning the checked call's buffer again, even on the
    first timed call, fails."""
    bufs = {}

    def reuse(data):
        c = ref_kernel(data)
        buf = bufs.setdefault(tuple(c.shape), torch.empty_like(c))
        return buf.copy_(c)

    res, _, _ = _bench(monkeypatch, reuse, recheck=True, max_repeats=1)
    assert not res.ok and "same output buffer" in res.message


def _fake_timed_modes(monkeypatch, fail_at=None):
    calls = []

    def one(kernel, c, flush, *, recheck, max_repeats, max_time_ns, watch=None):
        calls.append((c, recheck, max_repeats, max_time_ns))
        return harness.Result(c, c != fail_at, "", [1000.0])

    monkeypatch.setattr(harness, "run_one_benchmark", one)
    monkeypatch.setattr("mxlib.tools.timing.L2Flush", lambda head_start_us: None)
    return calls


@pytest.mark.parametrize("mode, recheck, repeats", [("benchmark", False, 1000), ("leaderboard", True, 100)])
def test_timed_modes_warm_up_on_the_first_case_then_time_each_case(monkeypatch, mode, recheck, repeats):
    """benchmark: up to 1000 timed calls on the same inputs; leaderboard: up to 100, each rechecked on fresh
    inputs (module docstring); both after eval.py's warm-up run on the first case (100 calls, not rechecked).
   """
    calls = _fake_timed_modes(monkeypatch)
    cs = [harness.Case(4, 64, 512, s) for s in (1, 2, 3)]
    results = harness.run_timed(_kernel, cs, mode, 0.0)
    assert [r.case for r in results] == cs
    assert [(c, r, n) for c, r, n, _ in calls] == [(cs[0], False, 100)] + [(c, recheck, repeats) for c in cs]


@pytest.mark.parametrize("mode, ran", [("benchmark", 3), ("leaderboard", 2)])
def test_only_the_leaderboard_stops_at_its_first_failed_case(monkeypatch, mode, ran):
    """eval.py stops the leaderboard at the first failure; benchmark mode goes on to every case."""
    cs = [harness.Case(4, 64, 512, s) for s in (1, 2, 3)]
    _fake_timed_modes(monkeypatch, fail_at=cs[1])
    results = harness.run_timed(_kernel, cs, mode, 0.0)
    assert len(results) == ran and [r.ok for r in results] == [True, False, True][:ran]


# ---------------------------------------------------------------------------------------------
# harness: test mode, seeds, CSV, the interpreter check


def test_test_mode_hands_the_submission_a_clone_of_the_inputs():
    """Test mode: the submission gets a clone of the inputs, and its output is checked against the
    harness's own copy, so a kernel that scribbles over its inputs after computing still passes."""
    def scribbles(data):
        c = ref_kernel(data)
        for t in data:
            t.zero_()
        return c

    (res,) = harness.run_test(scribbles, [CASE], "cpu")
    assert res.ok, res.message


def test_the_output_guard_refuses_another_view_of_the_previous_outputs_storage():
    """'allocate a new output every call' (the guard's message): a second output that lives in the first
    one's allocation (the other half of one buffer) is the same output buffer."""
    buf = torch.zeros(2, 4, 64, dtype=torch.bfloat16)
    guard = harness._Guard()
    assert guard.check(buf[0]) is None
    assert "same output buffer" in guard.check(buf[1])


def test_a_secret_seed_of_zero_is_still_mixed_in():
    """--seed mixes the secret seed into every case's seed (eval.py's _combine, as POPCORN_SEED does): 0 is
    a seed like any other, and combine_seed(5, 0) = 20 != 5."""
    (c,) = harness.cases("4x64x512:5", 0)
    assert c.seed == harness.combine_seed(5, 0) == 20


def test_the_command_line_forwards_the_secret_seed_and_takes_a_days_timeout(tmp_path, capsys):
    """The command (its watched worker) runs each case with --seed mixed in, and --timeout may be anything
    in (0, 86400] (the refusal's own words), 86400 included."""
    sub = tmp_path / "s.py"
    sub.write_text(GOOD)
    rc = main(["harness", str(sub), "test", "--shapes", "4x64x512:5", "--seed", "7", "--timeout", "86400"])
    out = capsys.readouterr()
    assert rc == 0 and f"seed: {harness.combine_seed(5, 7)}" in out.out, out


def test_write_csv_records_a_failed_case_as_not_ok(tmp_path, monkeypatch):
    """The CSV's ok column is the case's verdict: 0 for a failed case, 1 for a passed one."""
    monkeypatch.setattr(harness, "run_metadata", lambda device: {"device": device, "torch": "t", "triton": "t",
                                                                  "date": "d"})
    path = tmp_path / "h.csv"
    harness.write_csv([harness.Result(CASE, True, ""), harness.Result(CASE, False, "mismatch")], path, "test",
                      Path("s.py"), "cpu")
    assert [r["ok"] for r in csv.DictReader(path.open())] == ["1", "0"]


def test_interpreter_check_fails_when_any_file_fails_not_only_the_last(tmp_path):
    """interpreter_test's verdict is whether every case of every file passed: a wrong first file fails the
    check even when the second passes."""
    wrong, good = tmp_path / "wrong.py", tmp_path / "good.py"
    wrong.write_text(WRONG)
    good.write_text(GOOD)
    text, ok = harness.interpreter_test({"wrong": wrong, "good": good})
    assert not ok and "good file, good.py" in text


def test_the_harness_modules_are_put_back_after_a_submission_loads(tmp_path):
    """While the submission runs mxlib is hidden from sys.modules; 'the harness's own modules are put back
    after' (_no_mxlib), the same module objects."""
    sub = tmp_path / "s.py"
    sub.write_text(GOOD)
    harness.load_submission(sub)
    assert sys.modules.get("mxlib.tools.harness") is harness and sys.modules.get("mxlib.tools.export") is export
