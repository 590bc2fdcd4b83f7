"""`python -m mxlib harness SUBMISSION.py [test|benchmark|leaderboard]`: the contest's protocol, run locally.

Follows gpu-mode/reference-kernels:problems/amd_202602/eval.py (and the submission rule of
gpu-mode/kernelbot, which refuses any source whose lowercased text contains "stream"):

- test: every test shape; the submission gets a clone of the inputs, its output is checked against
  the reference (`check_implementation`, rne).
- benchmark: one checked call, then up to 1000 timed calls on the same inputs, each after a
  synchronize and an L2 flush, between two CUDA events; stops early as eval.py does (relative error
  of the mean < 0.1%, or 50 s of measured time, or 120 s of wall time).
- leaderboard: up to 100 timed calls, each on inputs regenerated with a new seed (seed += 13, B
  included) and each output rechecked; the score is the geometric mean of the per-shape means.

Stricter than the contest, so a file that passes here cannot pass there by luck:

- In test mode, after each shape's check the inputs the submission saw are overwritten in place with
  a new seed's data (same data_ptr, new contents) and it is called again: a cache keyed on a tensor's
  address returns a stale result and fails the check. In leaderboard mode every other iteration
  regenerates into the previous iteration's storage for the same reason.
- Each output is kept while the next call runs: returning the same buffer twice, or overwriting a
  previous call's output, fails with its own message.
- A source that imports mxlib is refused: the contest machine does not have it. The text is checked
  before the file runs, and while it runs (loading, every call) mxlib cannot be imported at all,
  however the import is spelled.

The command runs the protocol in a worker process (`python -m mxlib harness ... --worker-fd`) and
watches it: the worker reports before and after every step, and a step that takes longer than
`--timeout` seconds (a hanging custom_kernel) is stopped and fails; a worker that ends before its
final report (the submission called sys.exit or os._exit, or crashed the process) fails too, with
the exit code and the step it was in. The functions below run the protocol in the calling process,
as the notebooks use them.

Differences: the flush writes 4x the L2 plus a GPU sleep (`mxlib.tools.timing.L2Flush`) instead of a 64 GB
random tensor. On a machine without a GPU only test mode runs, at small shapes, through Triton's
interpreter (TRITON_INTERPRET=1), with inputs drawn by the CPU generator.
"""
from __future__ import annotations

import argparse
import ast
import contextlib
import ctypes
import functools
import importlib.abc
import importlib.util
import itertools
import json
import math
import os
import select
import signal
import subprocess
import sys
import time
import types
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

import torch

from ..spec import shapes as shapes_mod
from ..spec.ints import gemm_shape
from ..spec.reference import check_implementation, generate_input, input_seed
from .arguments import non_negative_float, output_file
from .files import write_csv_atomic
from .provenance import run_metadata
from .stats import geomean, median
from .timing import DEFAULT_HEAD_START_US, SEED_STEP

MODES = ("test", "benchmark", "leaderboard")
# (max_repeats, max_time_ns) as eval.py (problems/amd_202602/eval.py@f83cb92) passes them; its warm-up run
# on the first case differs by mode (1e8 ns written 10e7 in benchmark mode, 1e7 in leaderboard mode)
BENCHMARK_LIMITS = (1000, 50e9)
LEADERBOARD_LIMITS = (100, 30e9)
WARMUP_LIMITS = {"benchmark": (100, 1e8), "leaderboard": (100, 1e7)}
WALL_LIMIT_NS = 120e9
REL_ERR_STOP = 0.001

# Small shapes for the interpreter: the golden GEMM cases' sizes, with seeds of our own.
SMALL_SHAPES = ((4, 64, 512, 11), (16, 128, 1024, 12), (32, 96, 256, 13), (64, 256, 512, 14), (8, 32, 7168, 15))

DEFAULT_TIMEOUT_S = 300.0  # the longest one step (a call, a check) may take before the worker is stopped
MAX_TIMEOUT_S = 86400  # a day: longer waits overflow select()'s timeout on some platforms
STARTUP_S = 120.0  # the worker's own start (importing torch and mxlib), before the submission runs
NO_MXLIB = ("the contest machine has no mxlib (export a self-contained file with `python -m mxlib export`)")

STREAM_MESSAGE = ('the source contains the word "stream" (case-insensitive), which the contest refuses '
                  '("Your code contains work on another stream"): remove every occurrence, comments included')


class SubmissionRejected(Exception):
    """The submission file breaks a rule the contest (or this harness) enforces before running it."""


# ---------------------------------------------------------------------------------------------
# Rules on the source


def check_source(source: str) -> list[str]:
    """Problems that make the contest (or its machine) refuse this source; empty when it is acceptable."""
    problems = []
    lines = [i + 1 for i, line in enumerate(source.splitlines()) if "stream" in line.lower()]
    if "stream" in source.lower():
        shown = ", ".join(map(str, lines[:8])) + (", ..." if len(lines) > 8 else "")
        problems.append(f"{STREAM_MESSAGE} (line {shown})")
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        return problems + [f"the source does not parse: {exc.msg} at line {exc.lineno}"]
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        for name in names:
            if name == "mxlib" or name.startswith("mxlib."):
                problems.append(f"line {node.lineno} imports {name}: {NO_MXLIB}")
    return problems


class _RefuseMxlib(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "mxlib" or name.startswith("mxlib."):
            raise ImportError(f"import of {name} refused: {NO_MXLIB}", name=name)
        return None


@contextlib.contextmanager
def _no_mxlib():
    """While the submission runs, mxlib cannot be imported by any spelling (import statement,
    importlib, __import__) nor found in sys.modules; the harness's own modules are put back after."""
    hidden = {name: mod for name, mod in sys.modules.items() if name == "mxlib" or name.startswith("mxlib.")}
    for name in hidden:
        del sys.modules[name]
    finder = _RefuseMxlib()
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        sys.modules.update(hidden)


_loaded = itertools.count()


def task_shim() -> types.ModuleType:
    """The contest's `task` module (input_t, output_t, TestSpec), which submissions usually import (the harness
    and `isa` load a submission with it importable)."""
    from typing import TypedDict, TypeVar

    mod = types.ModuleType("task")
    mod.input_t = TypeVar("input_t", bound=tuple)
    mod.output_t = TypeVar("output_t", bound=torch.Tensor)
    mod.TestSpec = TypedDict("TestSpec", {"m": int, "n": int, "k": int, "seed": int})
    return mod


def load_submission(path) -> Callable:
    """The submission's `custom_kernel`, loaded from its file under a fresh module name.

    Raises SubmissionRejected when the source breaks a rule (`check_source`) or defines no callable
    `custom_kernel`. A `task` module like the contest's (input_t, output_t, TestSpec) is importable.
    """
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"the submission must be a file, and {path} is a directory")
    if not path.is_file():
        raise FileNotFoundError(f"submission file not found: {path}")
    source = submission_text(path)
    problems = check_source(source)
    if problems:
        raise SubmissionRejected(f"{path} is refused:\n  - " + "\n  - ".join(problems))
    name = f"_mxlib_submission_{next(_loaded)}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    # The contest's task.py sits beside the submission; its stand-in stays for imports made at call time.
    sys.modules.setdefault("task", task_shim())
    sys.modules[name] = module  # dataclasses and pickling look the module up by name
    try:
        with _no_mxlib():
            spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:
        del sys.modules[name]  # a refused submission leaves no module behind
        raise SubmissionRejected(f"{path} failed to load: {type(exc).__name__}: {exc}") from exc
    kernel = getattr(module, "custom_kernel", None)
    if not callable(kernel):
        del sys.modules[name]
        raise SubmissionRejected(f"{path} defines no callable custom_kernel(data)")
    return kernel


# ---------------------------------------------------------------------------------------------
# Shapes and seeds


@dataclass(frozen=True)
class Case:
    m: int
    n: int
    k: int
    seed: int

    @property
    def spec(self) -> str:
        return f"m: {self.m}; n: {self.n}; k: {self.k}; seed: {self.seed}"


def submission_text(path: Path) -> str:
    """A submission file's source; ValueError naming it when it is not UTF-8 text."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start}): a submission is a .py "
                         "source file") from None


def combine_seed(a: int, b: int) -> int:
    """eval.py's `_combine`: a test's public seed mixed with the secret seed (a Cantor pairing)."""
    return int(a + (a + b) * (a + b + 1) // 2)


def cases(spec: str, secret_seed: int | None = None) -> list[Case]:
    """Cases from "test", "benchmark", "extra", "small" (the interpreter's shapes) or "MxNxK[:seed],..."."""
    if spec in shapes_mod.KINDS:
        out = [Case(s.m, s.n, s.k, s.seed) for s in shapes_mod.load(spec)]
    elif spec == "small":
        out = [Case(*s) for s in SMALL_SHAPES]
    else:
        out = []
        for i, part in enumerate(p.strip() for p in spec.split(",") if p.strip()):
            dims, _, seed = part.partition(":")
            try:
                m, n, k = shapes_mod.parse_mnk(dims, "--shapes")
                seed = int(seed) if seed else 1000 + i
            except ValueError:
                raise ValueError(f"--shapes: {part!r} is not MxNxK or MxNxK:seed (or test, benchmark, extra, small)")
            try:  # the rules generate_input applies, said here rather than by a worker's crash
                out.append(Case(*gemm_shape(m, n, k), input_seed(seed)))
            except (TypeError, ValueError) as exc:
                raise ValueError(f"--shapes: {part!r}: {exc}") from None
    if not out:
        raise ValueError(f"--shapes {spec!r} gives no shapes")
    if secret_seed is not None:
        out = [Case(c.m, c.n, c.k, combine_seed(c.seed, secret_seed)) for c in out]
        for c in out:  # said here, not by the worker's generate_input (which the report would blame on the file)
            try:
                input_seed(c.seed)
            except ValueError as exc:
                raise ValueError(f"--seed {secret_seed}: mixed into case {c.m}x{c.n}x{c.k}'s seed it gives {c.seed}; "
                                 f"{exc}") from None
    return out


# ---------------------------------------------------------------------------------------------
# Running


@dataclass
class Result:
    case: Case
    ok: bool
    message: str
    times_ns: list[float] = field(default_factory=list)

    def stats(self) -> dict:
        """eval.py's Stats (runs, mean, std, err, best, worst) in microseconds, plus the median."""
        d = self.times_ns
        if not d:
            return {}
        runs, mean = len(d), sum(d) / len(d)
        std = math.sqrt(sum((x - mean) ** 2 for x in d) / (runs - 1)) if runs > 1 else 0.0
        return {"runs": runs, "mean_us": mean / 1e3, "std_us": std / 1e3, "err_us": std / math.sqrt(runs) / 1e3,
                "best_us": min(d) / 1e3, "worst_us": max(d) / 1e3, "median_us": median(d) / 1e3}


def _clone(data):
    return tuple(t.clone() for t in data)


def _sync(device) -> None:
    if torch.device(device).type == "cuda":
        torch.cuda.synchronize()


def _storage_span(t: torch.Tensor) -> tuple[int, int]:
    st = t.untyped_storage()
    return st.data_ptr(), st.data_ptr() + st.nbytes()


def _same_buffer(a: torch.Tensor, b: torch.Tensor) -> bool:
    (a0, a1), (b0, b1) = _storage_span(a), _storage_span(b)
    return a0 < b1 and b0 < a1


def _bits(t: torch.Tensor) -> torch.Tensor:
    """A bit-exact copy (NaN payloads compare equal)."""
    return t.detach().clone().view(torch.int16 if t.element_size() == 2 else torch.uint8)


class _Guard:
    """Keeps the previous output alive with a copy of its bits, and checks the next one against both."""

    def __init__(self):
        self.prev = None
        self.prev_bits = None

    def check(self, out) -> str | None:
        problem = None
        if self.prev is not None and isinstance(out, torch.Tensor):
            if _same_buffer(out, self.prev):
                problem = ("the submission returned the same output buffer twice (data_ptr "
                           f"{out.data_ptr():#x}): allocate a new output every call; a caller keeps the old one")
            elif not torch.equal(_bits(self.prev), self.prev_bits):
                problem = "the submission overwrote a previous call's output: outputs must not be reused across calls"
        if isinstance(out, torch.Tensor):
            self.prev, self.prev_bits = out, _bits(out)
        return problem


def _failure(exc: BaseException) -> str:
    if isinstance(exc, SystemExit):
        return f"custom_kernel called sys.exit({exc.code!r}): a submission must return its output"
    return f"custom_kernel raised {type(exc).__name__}: {exc}"


def _call(kernel, data, device):
    """The submission's output, or what went wrong (an exception it raised, or sys.exit)."""
    _sync(device)
    try:
        with _no_mxlib():
            out = kernel(data)
        _sync(device)
    except (Exception, SystemExit) as exc:
        return None, _failure(exc)
    return out, None


def _no_watch(event: str, payload) -> None:
    """The default `watch` of the run_* functions: a worker's reporter replaces it."""


def _check(data, out) -> tuple[bool, str]:
    if not isinstance(out, torch.Tensor):
        return False, f"custom_kernel returned {type(out).__name__}, not a tensor"
    try:
        return check_implementation(data, out, "rne")
    except ValueError as exc:  # an output the check refuses (a meta tensor): the case fails, the run goes on
        return False, f"custom_kernel's output cannot be checked: {exc}"


def _poison(device, case: Case) -> None:
    if torch.device(device).type == "cuda":
        from .timing import poison_allocator
        poison_allocator(2 * case.m * case.n)


def run_test(kernel, case_list: list[Case], device, watch=_no_watch) -> list[Result]:
    """Test mode: each case checked, then the in-place probe and the output-buffer checks.
    `watch(event, payload)` hears ("case", Case) before each case and ("result", Result) after."""
    results = []
    for c in case_list:
        watch("case", c)
        data = generate_input(c.m, c.n, c.k, c.seed, device=device)
        given = _clone(data)  # what the submission sees, as eval.py passes a clone
        _poison(device, c)
        out, err = _call(kernel, given, device)
        ok, msg = (False, err) if err else _check(data, out)
        if ok:
            guard = _Guard()
            guard.check(out)
            # Same storage, same data_ptr, new contents: what a fresh allocation at a reused address looks like.
            new = generate_input(c.m, c.n, c.k, c.seed + SEED_STEP, device=device)
            for t, src in zip(given, new):
                t.copy_(src)
            out2, err = _call(kernel, given, device)
            problem = err or guard.check(out2)
            if problem is None:
                good, detail = _check(new, out2)
                if not good:
                    problem = ("wrong output after the inputs were overwritten in place (same data_ptr, new "
                               "contents): the submission reuses something cached from an earlier call, e.g. keyed "
                               f"on B's data_ptr ({detail})")
            ok, msg = (False, problem) if problem else (True, msg)
        results.append(Result(c, ok, msg))
        watch("result", results[-1])
    return results


def _timed(kernel, data, flush) -> tuple[object, float]:
    torch.cuda.synchronize()
    flush()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    with _no_mxlib():
        start.record()
        out = kernel(data)
        end.record()
    torch.cuda.synchronize()
    return out, start.elapsed_time(end) * 1e6


def _should_stop(times_ns: list[float], max_time_ns: float, t0_ns: int) -> bool:
    """eval.py's rule, applied after the third run."""
    runs = len(times_ns)
    if runs < 3:
        return False
    mean = sum(times_ns) / runs
    std = math.sqrt(sum((x - mean) ** 2 for x in times_ns) / (runs - 1))
    return (std / math.sqrt(runs) / mean < REL_ERR_STOP or mean * runs > max_time_ns
            or time.perf_counter_ns() - t0_ns > WALL_LIMIT_NS)


def run_one_benchmark(kernel, c: Case, flush, *, recheck: bool, max_repeats: int, max_time_ns: float,
                      watch=_no_watch) -> Result:
    """eval.py's `_run_single_benchmark`: one checked call, then timed calls (rechecked ones in leaderboard mode)."""
    data = generate_input(c.m, c.n, c.k, c.seed, device="cuda")
    check_copy = _clone(data)
    out, err = _call(kernel, data, "cuda")
    ok, msg = (False, err) if err else _check(check_copy, out)
    if not ok:
        return Result(c, False, msg)
    guard = _Guard()
    if recheck:
        guard.check(out)
    del out
    seed, times, t0 = c.seed, [], time.perf_counter_ns()
    for i in range(max_repeats):
        if recheck:
            seed += SEED_STEP
            new = generate_input(c.m, c.n, c.k, seed, device="cuda")
            if i % 2:  # every other iteration: the same addresses with new contents
                for t, src in zip(data, new):
                    t.copy_(src)
                del new
            else:
                data = new
            check_copy = _clone(data)
        watch("call", c)
        try:
            out, t_ns = _timed(kernel, data, flush)
        except (Exception, SystemExit) as exc:
            return Result(c, False, _failure(exc), times)
        if recheck:
            problem = guard.check(out)
            if problem:
                return Result(c, False, problem, times)
            good, detail = _check(check_copy, out)
            if not good:
                return Result(c, False, f"iteration {i} (seed {seed}): {detail}", times)
        del out
        times.append(t_ns)
        if _should_stop(times, max_time_ns, t0):
            break
    return Result(c, True, "", times)


def run_timed(kernel, case_list: list[Case], mode: str, head_start_us: float, watch=_no_watch) -> list[Result]:
    """Benchmark or leaderboard mode (CUDA), with eval.py's warm-up run on the first case first.
    `watch` as in `run_test`, plus ("call", Case) before every timed call."""
    from .timing import L2Flush

    flush = L2Flush(head_start_us)
    recheck = mode == "leaderboard"
    watch("case", case_list[0])
    run_one_benchmark(kernel, case_list[0], flush, recheck=False, max_repeats=WARMUP_LIMITS[mode][0],
                      max_time_ns=WARMUP_LIMITS[mode][1], watch=watch)
    max_repeats, max_time_ns = LEADERBOARD_LIMITS if recheck else BENCHMARK_LIMITS
    results = []
    for c in case_list:
        watch("case", c)
        results.append(run_one_benchmark(kernel, c, flush, recheck=recheck, max_repeats=max_repeats,
                                         max_time_ns=max_time_ns, watch=watch))
        watch("result", results[-1])
        if recheck and not results[-1].ok:
            break  # eval.py stops the leaderboard at the first failure
    return results


def score_us(results: list[Result]) -> float | None:
    """The contest's ranking: the geometric mean of the per-shape mean times (None unless all passed)."""
    means = [r.stats().get("mean_us") for r in results]
    if not results or not all(r.ok for r in results) or None in means:
        return None
    return geomean(means)


def report(results: list[Result], mode: str) -> str:
    head = f"{'spec':<40} {'status':<6}"
    if mode != "test":
        head += f" {'mean':>8} {'err':>6} {'best':>8} {'worst':>8} {'median':>8} {'runs':>5}"
    lines = [head]
    for r in results:
        st = r.stats()
        timing = (f" {st['mean_us']:8.2f} {st['err_us']:6.2f} {st['best_us']:8.2f} {st['worst_us']:8.2f} "
                  f"{st['median_us']:8.2f} {st['runs']:5d}") if st else ""
        lines.append(f"{r.case.spec:<40} {'pass' if r.ok else 'FAIL':<6}{timing}")
        if not r.ok:
            lines.append(f"    {r.message}")
    passed = sum(r.ok for r in results)
    lines.append(f"{mode}: {passed} of {len(results)} passed" + ("" if mode == "test" else " (times in us)"))
    s = score_us(results)
    if mode != "test" and s is not None:
        lines.append(f"score (geometric mean of the means): {s:.3f} us")
    return "\n".join(lines)


def write_csv(results: list[Result], path: Path, mode: str, submission: Path, device: str) -> None:
    fields = ("mode", "m", "n", "k", "seed", "ok", "message", "runs", "mean_us", "std_us", "err_us", "best_us",
              "worst_us", "median_us", "submission", "device", "torch", "triton", "date")
    meta = run_metadata(device)
    def row(r: Result) -> dict:
        st = {k: (f"{v:.4f}" if isinstance(v, float) else v) for k, v in r.stats().items()}
        return {"mode": mode, "m": r.case.m, "n": r.case.n, "k": r.case.k, "seed": r.case.seed, "ok": int(r.ok),
                "message": r.message[:500], **st, "submission": str(submission), **meta}
    write_csv_atomic(path, fields, map(row, results))


def interpreter_test(files: dict) -> tuple[str, bool]:
    """Each submission file of `files` ({label: path}) loaded alone and run in test mode on the small
    cases, on the CPU (Triton's interpreter): (the report, with what each file said on stderr, e.g. the
    AMD file that aiter does not import here; whether every case of every file passed)."""
    import io

    lines, ok = [], True
    for label, file in files.items():
        said = io.StringIO()
        with contextlib.redirect_stderr(said):
            results = run_test(load_submission(file), cases("small"), "cpu")
        lines.append(f"{label} file, {Path(file).name}, in the interpreter:")
        lines += [f"  the file said: {line}" for line in said.getvalue().splitlines()]
        lines += [report(results, "test"), ""]
        ok &= all(r.ok for r in results)
    return "\n".join(lines), ok


def all_modes(file, out_dir: Path, device: str, head_start_us: float = DEFAULT_HEAD_START_US) -> tuple[str, bool]:
    """The submission `file` through the contest's three modes on the GPU: test mode on the test cases,
    then benchmark and leaderboard on the benchmark cases, each mode's results written to
    `out_dir`/harness_<mode>.csv (`device` names the GPU there): (the reports, whether every case passed)."""
    kernel = load_submission(file)
    runs = [("test", run_test(kernel, cases("test"), "cuda"))]
    runs += [(mode, run_timed(kernel, cases("benchmark"), mode, head_start_us)) for mode in ("benchmark", "leaderboard")]
    for mode, results in runs:
        write_csv(results, Path(out_dir) / f"harness_{mode}.csv", mode, Path(file), device)
    return "\n\n".join(report(results, mode) for mode, results in runs), all(r.ok for _, rs in runs for r in rs)


# ---------------------------------------------------------------------------------------------
# Command line


def add_arguments(p) -> None:
    p.add_argument("submission", type=Path, help="the submission file (defines custom_kernel(data))")
    p.add_argument("mode", nargs="?", default="test", choices=MODES, help="contest mode (default: test)")
    p.add_argument("--shapes", help="test, benchmark, extra, small, or MxNxK[:seed],... (default: the mode's "
                                    "contest shapes on a GPU, small on CPU)")
    p.add_argument("--seed", type=int, help="a secret seed mixed into every case's seed, as POPCORN_SEED does "
                                           "(default: none, each case's own seed as listed)")
    p.add_argument("--head-start-us", type=non_negative_float, default=DEFAULT_HEAD_START_US,
                   help="GPU sleep after each flush, hiding host overhead as eval.py's huge flush does "
                        "(default %(default)s)")
    p.add_argument("--csv", type=output_file, help="also write the per-shape results to this CSV")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S,
                   help=f"seconds one step (a custom_kernel call, a check) may take before the run is stopped "
                        f"and fails (default {DEFAULT_TIMEOUT_S:.0f})")
    p.add_argument("--worker-fd", type=int, help=argparse.SUPPRESS)  # the worker's report pipe (internal)


def run(args) -> int:
    cuda = torch.cuda.is_available()
    if not cuda:
        if args.mode != "test":
            print(f"{args.mode} mode times calls with CUDA events and needs a GPU; on this machine only test mode "
                  "runs (small shapes, Triton interpreter)", file=sys.stderr)
            return 2
        if args.worker_fd is not None:  # the worker, its own process, runs the submission: never the caller's
            os.environ.setdefault("TRITON_INTERPRET", "1")  # before the submission's kernels are decorated
    args.shapes = args.shapes or (("test" if args.mode == "test" else "benchmark") if cuda else "small")
    case_list = cases(args.shapes, args.seed)
    if args.worker_fd is not None:
        return _worker(args, case_list, "cuda" if cuda else "cpu")
    if not 0 < args.timeout <= MAX_TIMEOUT_S:
        raise ValueError(f"--timeout must be a number of seconds in (0, {MAX_TIMEOUT_S}], got {args.timeout}")
    path = Path(args.submission)
    if path.is_dir():
        raise IsADirectoryError(f"the submission must be a file, and {path} is a directory")
    if not path.is_file():
        raise FileNotFoundError(f"submission file not found: {path}")
    problems = check_source(submission_text(path))
    if problems:
        print(f"REJECTED: {path} is refused:\n  - " + "\n  - ".join(problems), file=sys.stderr)
        return 1
    t0 = time.perf_counter()
    results, rejected, failure = _run_worker(args)
    if rejected:
        print(f"REJECTED: {rejected}", file=sys.stderr)
        return 1
    print(report(results, args.mode))
    if failure:
        print(f"FAILED: {failure}")
    if len(results) < len(case_list):
        print(f"{len(case_list) - len(results)} of {len(case_list)} cases did not run")
    name = torch.cuda.get_device_name(None) if cuda else "cpu"
    print(f"{name}, {time.perf_counter() - t0:.1f} s")
    if args.csv:
        write_csv(results, args.csv, args.mode, args.submission, name)
    return 0 if not failure and results and all(r.ok for r in results) and len(results) == len(case_list) else 1


def _worker(args, case_list: list[Case], device: str) -> int:
    """The protocol in this process, reporting each step as a JSON line on the pipe `args.worker_fd`."""
    with os.fdopen(args.worker_fd, "w", buffering=1) as pipe:
        def send(event: str, payload=None) -> None:
            pipe.write(json.dumps({"event": event, "payload": payload}) + "\n")
            pipe.flush()

        send("ready")
        try:
            kernel = load_submission(args.submission)
        except SubmissionRejected as exc:
            send("rejected", str(exc))
            return 1

        def watch(event: str, payload) -> None:
            send(event, asdict(payload))

        if args.mode == "test":
            results = run_test(kernel, case_list, device, watch)
        else:
            results = run_timed(kernel, case_list, args.mode, args.head_start_us, watch)
        send("done", len(results))
    return 0


def _die_with_parent(parent: int) -> None:
    """Run in the worker before it starts (Linux): the kernel kills it when the harness that started it dies
    (a `timeout`, a signal, a crash), since the worker's own session keeps signals sent to the harness's group
    from reaching it; a harness already gone by then ends it at once. Elsewhere the harness's own cleanup on
    an exception is the only one."""
    if not sys.platform.startswith("linux"):
        return
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(1)


def _run_worker(args) -> tuple[list[Result], str | None, str | None]:
    """Run the protocol in a worker process and watch it: (results, rejection, failure). A step that
    reports nothing for `args.timeout` seconds is stopped (the worker's process group is killed); a
    worker that ends without its final report fails with its exit code and the step it was in, as the
    failed result of the case in progress or, between cases, as `failure`."""
    read_fd, write_fd = os.pipe()
    cmd = [sys.executable, "-m", "mxlib", "harness", str(args.submission), args.mode, "--shapes", args.shapes,
           "--head-start-us", str(args.head_start_us), "--worker-fd", str(write_fd)]
    if args.seed is not None:
        cmd += ["--seed", str(args.seed)]
    package_root = str(Path(__file__).resolve().parents[2])  # the folder holding this mxlib
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, (package_root, os.environ.get("PYTHONPATH")))))
    proc = subprocess.Popen(cmd, pass_fds=(write_fd,), env=env, start_new_session=True,
                            preexec_fn=functools.partial(_die_with_parent, os.getpid()))
    os.close(write_fd)
    results, rejected, failure, done = [], None, None, False
    step, case, limit, pending = "starting the harness worker", None, max(args.timeout, STARTUP_S), b""
    watched = False
    try:
        while not done and rejected is None:
            if b"\n" not in pending:
                ready, _, _ = select.select([read_fd], [], [], limit)
                if not ready:
                    os.killpg(proc.pid, signal.SIGKILL)
                    failure = (f"nothing happened for {limit:.0f} s while {step}, so the run was stopped "
                               f"(a custom_kernel that hangs or takes longer than --timeout {args.timeout:g} s)")
                    break
                chunk = os.read(read_fd, 65536)
                if not chunk:
                    break
                pending += chunk
                continue
            line, pending = pending.split(b"\n", 1)
            message = json.loads(line)
            event, payload = message["event"], message["payload"]
            limit = args.timeout
            if event == "ready":
                step = "loading the submission"
            elif event == "rejected":
                rejected = payload
            elif event in ("case", "call"):
                case = Case(**payload)
                step = f"{'timing' if event == 'call' else 'running'} case {case.spec}"
            elif event == "result":
                results.append(Result(Case(**payload["case"]), payload["ok"], payload["message"], payload["times_ns"]))
                case = None
            elif event == "done":
                done = True
        watched = True
    finally:
        os.close(read_fd)
        if not watched and proc.poll() is None:  # interrupted (Ctrl-C) or failed here: the worker goes too
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    code = proc.wait()
    if failure is None and not done and rejected is None:
        failure = (f"the harness worker ended (exit code {code}) while {step}, before reporting: a submission must "
                   "return from custom_kernel, not exit or crash the process")
    if failure and case is not None:  # the failure belongs to the case in progress
        results.append(Result(case, False, failure))
        failure = None
    return results, rejected, failure


def _medians_score(text: str) -> float | None:
    """The geometric mean of the `median` column of a `python -m mxlib harness` table (one row a shape,
    'spec status mean err best worst median runs'), or None when the table has no such column or a row
    has no median (a failed shape)."""
    rows = text.splitlines()
    header = rows[0].split() if rows else []
    if "median" not in header:
        return None
    width = len(header) - 1  # the spec holds spaces: the other columns are the row's last tokens
    medians = []
    for row in rows[1:]:
        if not row.startswith("m:"):
            break
        tokens = row.split()[-width:]
        if len(tokens) != width or tokens[0] != "pass":
            return None
        medians.append(float(dict(zip(header[1:], tokens))["median"]))
    return geomean(medians) if medians else None


def recorded_verdicts(directory: Path) -> str:
    """The verdict and score lines of every `harness_*.txt` in `directory` (as `python -m mxlib harness`
    writes them: a table, then 'MODE: n of m passed', 'score (...): X us', then the device and the run's
    duration), one block per file, the duration left out (it differs run to run). Under a timed mode's
    score, the geometric mean of the table's medians, computed here: the contest ranks the means, and the
    medians say how much of a score is a few slow calls."""
    lines = []
    for file in sorted(Path(directory).glob("harness_*.txt")):
        text = file.read_text()
        said = [ln for ln in text.splitlines() if " passed" in ln or ln.startswith("score")]
        medians = _medians_score(text)
        if medians is not None:
            said.append(f"(geometric mean of the medians, from the table: {medians:.3f} us)")
        if said:
            lines.append(f"{file.name}:")
            lines += ["  " + ln for ln in said]
    if not lines:
        raise FileNotFoundError(f"no harness_*.txt with a verdict in {directory}")
    return "\n".join(lines)
