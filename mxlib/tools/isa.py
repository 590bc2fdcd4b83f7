"""`python -m mxlib isa [SUBMISSION] --target gfx950|sm_90 [--out CSV]`: the Triton kernels a GEMM launches on
the contest shapes, compiled for the MI355X (gfx950) or the H200 (sm_90) on a machine with no GPU, and
what the compiler made of them.

How launches are captured. Nothing is hard-coded per kernel: the call itself runs on CPU tensors (the
contest's inputs from `generate_input`) while `triton.runtime.jit.JITFunction.run` is replaced by a
recorder, for the duration of the call only (`capture`), so every `kernel[grid](...)` the call makes,
through `triton.heuristics` too, is recorded with its arguments, constexprs and launch options
(num_warps, num_stages, waves_per_eu, matrix_instr_nonkdim) and never executed. Each recorded launch is
then bound and specialized the way Triton's own launcher does (`create_function_from_signature` with the
target's backend), and compiled with `triton.compile(ASTSource(...), target=GPUTarget(...))`. Triton must
be imported by this module first (`prepare`): with TRITON_INTERPRET=1 already in force, `@triton.jit`
makes interpreter objects instead.

- No SUBMISSION: mxlib's dispatcher (`mxlib.custom_kernel(data, backend="triton")`) as it would run on the
  target: its config table is the target's (`DEVICE_KINDS`). `--path NAME|all` forces a path instead.
- SUBMISSION (a .py file, or any text file holding Python, with `custom_kernel(data)`): loaded with a
  stand-in `aiter` first on sys.path (mxlib/tools/isa_aiter), so its own Triton kernels are captured;
  aiter's ASM and CK kernels appear as rows marked "not Triton, not compiled" with the kernel aiter would
  pick (`mxlib.spec.aiter_rules`); aiter's Triton GEMM compiles from PyPI's amd-aiter when installed.

Per compiled kernel: registers (AMD: arch VGPRs, AGPRs, SGPRs from the AMDGCN listing; NVIDIA: registers
from `cuobjdump -res-usage` on the cubin), LDS/shared bytes, scratch and spill bytes (`CSV_FIELDS`), the matrix
instructions by name and count, the global load instructions by width, and residency from those
resources (`mxlib.tools.occupancy.residency`): waves per SIMD and CTAs per CU on AMD, CTAs per SM on NVIDIA.
"""
from __future__ import annotations

import collections
import contextlib
import csv
import importlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import types
from dataclasses import dataclass
from pathlib import Path

from ..spec.devices import H200, MI355X
from . import occupancy
from .arguments import at_least, options_given, output_file
from .files import write_csv_atomic, write_text_atomic
from .provenance import utc_date
from .repo import RESULTS_DIR, ROOT

TARGETS = {"gfx950": ("hip", "gfx950", 64), "sm_90": ("cuda", 90, 32)}
DEVICE_KINDS = {"gfx950": MI355X.kind, "sm_90": H200.kind}  # the config table mxlib's dispatcher reads on each
DEFAULT_OUT = {"gfx950": RESULTS_DIR / "mi355x" / "isa.csv", "sm_90": RESULTS_DIR / "h200" / "isa_sm90.csv"}
STUB_AITER = Path(__file__).resolve().parent / "isa_aiter"
NOT_COMPILED = "not Triton, not compiled"
AITER_OWN = "aiter's own Triton kernel"  # the note's start on a row compiled from PyPI amd-aiter's kernel files
# Columns by target where they differ. scratch_bytes: gfx950 the listing's ScratchSize, sm_90 the stack frame
# (cuobjdump's STACK). spill_bytes: gfx950 ScratchSize again (Triton's kernels keep only spills there), sm_90 the
# bytes of spill stores (`spill_store_bytes`). occupancy: gfx950 only, the compiler's waves per SIMD (a
# waves_per_eu hint caps it); residency from the resources is ctas_per_unit on both targets.
CSV_FIELDS = (
    "source", "shape", "kernel", "path", "config", "target", "grid_ctas", "num_warps", "num_stages",
    "waves_per_eu", "matrix_instr_nonkdim", "vgprs", "agprs", "sgprs", "shared_bytes", "scratch_bytes",
    "spill_bytes", "occupancy", "ctas_per_unit", "limited_by", "mma", "global_loads", "triton", "date", "note",
)
_OPTION_KEYS = ("num_warps", "num_stages", "waves_per_eu", "matrix_instr_nonkdim")


class IsaError(ValueError):
    """Bad input to `isa`: the message names the argument and the rule (printed as one line)."""


# Seconds a submission may spend loading or in one custom_kernel call (its kernels compiled, not run) before isa
# stops: a file that hangs would otherwise hang isa.
SUBMISSION_TIMEOUT_S = 300


class _Expired(BaseException):
    """Raised into a submission's code by `_time_limit`: a BaseException, so a submission's own `except
    Exception` cannot swallow it, nor isa's handling of a call that fails."""


@contextlib.contextmanager
def _time_limit(seconds: float, what: str):
    """IsaError naming `what` if the block runs past `seconds` (SIGALRM: in the main thread on POSIX; elsewhere
    the block runs without a limit)."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(signum, frame):
        raise _Expired

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except _Expired:
        raise IsaError(f"SUBMISSION ran past --timeout {seconds:g} s while {what}: a file that hangs cannot be "
                       "inspected") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# ---------------------------------------------------------------------------------------------------------
# Capture


@dataclass
class Launch:
    fn: object  # triton.runtime.jit.JITFunction
    args: tuple
    kwargs: dict
    grid: object

    @property
    def name(self) -> str:
        return self.fn.fn.__name__


def prepare() -> None:
    """Import Triton for compiling: with TRITON_INTERPRET unset for the import, so `@triton.jit` builds
    JITFunctions (not the interpreter's objects). The variable is put back as the caller had it and
    nothing else changes: launches are recorded only inside `capture`. Idempotent; raises IsaError when
    Triton was already imported in interpreter mode."""
    if "triton" not in sys.modules:
        saved = os.environ.pop("TRITON_INTERPRET", None)
        try:
            importlib.import_module("triton")
        finally:
            if saved is not None:
                os.environ["TRITON_INTERPRET"] = saved
    from triton.language import standard
    from triton.runtime.jit import JITFunction

    if not isinstance(standard.cdiv, JITFunction):
        raise IsaError("Triton was imported with TRITON_INTERPRET=1: run `python -m mxlib isa` in a fresh process "
                       "(capture needs compiled JITFunctions, not the interpreter's)")


@contextlib.contextmanager
def _jit_compiles():
    """Inside: `@triton.jit` builds JITFunctions whatever TRITON_INTERPRET says (Triton's interpret knob
    reads False), so a kernel module first imported here is compilable. The knob is restored on exit."""
    import triton

    knobs = type(triton.knobs.runtime)
    saved = knobs.__dict__["interpret"]
    knobs.interpret = False
    try:
        yield
    finally:
        knobs.interpret = saved


def _interpreted_launch(self, *args, **kwargs):
    raise IsaError(f"{self.fn.__name__} is an interpreter object (its module was imported with TRITON_INTERPRET=1): "
                   "capture compiles JITFunctions; import it after `prepare()` with TRITON_INTERPRET unset, or "
                   "first inside `capture`")


class _TargetDriver:
    """Stands in for Triton's active driver while a call is captured for `target`: code that asks which
    backend it launches on (fused_fp4 passes AMD-only launch options off CUDA) sees the target's."""

    def __init__(self, target: str):
        self.target = target

    def get_current_target(self):
        return _target(self.target)


@contextlib.contextmanager
def _recording(launches: list, target: str | None):
    """While inside: every JITFunction launch is appended to `launches` instead of running, with
    TRITON_INTERPRET=1 so mxlib's argument checks accept CPU tensors (`mx_cpu_tensors_ok`), `_jit_compiles`,
    and, with `target`, Triton's active driver answering as that target. All of it is undone on exit,
    whether the call returned or raised: the variable as the caller had it, `JITFunction.run` and the
    interpreter's own `run` back in place."""
    from triton.runtime import driver
    from triton.runtime.interpreter import InterpretedFunction
    from triton.runtime.jit import JITFunction

    def record(self, *args, grid, warmup, **kwargs):
        launches.append(Launch(self, args, dict(kwargs), grid))

    saved_run, saved_interpreted = JITFunction.__dict__["run"], InterpretedFunction.__dict__["run"]
    saved_env, saved_driver = os.environ.get("TRITON_INTERPRET"), driver._active
    try:
        with _jit_compiles():
            JITFunction.run = record
            InterpretedFunction.run = _interpreted_launch
            os.environ["TRITON_INTERPRET"] = "1"
            if target is not None:
                driver._active = _TargetDriver(target)
            yield
    finally:
        JITFunction.run, InterpretedFunction.run = saved_run, saved_interpreted
        driver._active = saved_driver
        if saved_env is None:
            os.environ.pop("TRITON_INTERPRET", None)
        else:
            os.environ["TRITON_INTERPRET"] = saved_env


def capture(call, target: str | None = None) -> list[Launch]:
    """Every Triton launch `call()` makes, in order, none of them executed (after `prepare`). With
    `target` ("gfx950" or "sm_90"), `triton.runtime.driver.active.get_current_target()` answers that target
    during the call, so a launch that depends on the backend is recorded as that target's launcher would
    make it. Changes nothing that outlasts the call (`_recording`): afterwards launches run as usual."""
    prepare()
    if target is not None and target not in TARGETS:
        raise IsaError(f"--target must be one of {', '.join(TARGETS)}, got {target!r}")
    launches: list[Launch] = []
    with _recording(launches, target):
        call()
    return launches


# ---------------------------------------------------------------------------------------------------------
# Compile and inspect


def _target(name: str):
    from triton.backends.compiler import GPUTarget

    return GPUTarget(*TARGETS[name])


def compile_launch(launch: Launch, target: str):
    """The launch compiled for `target` exactly as Triton's launcher would specialize it: (CompiledKernel,
    options dict, constexprs dict)."""
    import triton
    from triton import knobs
    from triton.compiler import ASTSource, make_backend
    from triton.runtime.jit import create_function_from_signature

    backend = make_backend(_target(target))
    fn = launch.fn
    kwargs = dict(launch.kwargs)
    kwargs.setdefault("debug", fn.debug or knobs.runtime.debug)
    for knob in ("instrumentation_mode", "fpsan_homomorphic_casts"):  # what the launcher passes (3.6: the first)
        if hasattr(knobs.compilation, knob):
            kwargs.setdefault(knob, getattr(knobs.compilation, knob))
    binder = create_function_from_signature(fn.signature, fn.params, backend)
    bound, specialization, options = binder(*launch.args, **kwargs)
    options, signature, constexprs, attrs = fn._pack_args(backend, kwargs, bound, specialization, options)
    with _jit_compiles():  # a Triton module the backend imports now builds JITFunctions too
        kernel = triton.compile(ASTSource(fn, signature, constexprs, attrs), target=_target(target),
                                options=options.__dict__)
    names = {p.num: p.name for p in fn.params}
    named = {names[path[0]]: value for path, value in constexprs.items() if len(path) == 1}
    return kernel, options.__dict__, named


def _grid_ctas(launch: Launch, constexprs: dict) -> int:
    grid = launch.grid
    if callable(grid):
        meta = dict(constexprs)
        meta.update({p.name: a for p, a in zip(launch.fn.params, launch.args)})
        meta.update(launch.kwargs)
        grid = grid(meta)
    grid = tuple(grid) + (1, 1)
    return int(grid[0]) * int(grid[1]) * int(grid[2])


def _counts(pattern: str, text: str) -> str:
    c = collections.Counter(re.findall(pattern, text, re.M))
    return ";".join(f"{k}:{v}" for k, v in sorted(c.items()))


def amdgcn_facts(asm: str) -> dict:
    """Resources and instruction mix from an AMDGCN listing (the kernel's own ';' comment block)."""
    def num(key):
        found = re.search(rf"^\s*; {key}: (\d+)", asm, re.M)
        return int(found.group(1)) if found else None

    return dict(vgprs=num("NumVgprs"), agprs=num("NumAgprs"), total_vgprs=num("TotalNumVgprs"),
                accum_offset=num("AccumOffset"), sgprs=num("TotalNumSgprs"), scratch_bytes=num("ScratchSize"),
                occupancy=num("Occupancy"),
                mma=_counts(r"^\s+(v_mfma\w+|v_smfmac\w+)", asm),
                global_loads=_counts(r"^\s+((?:global|buffer)_load_\w+)", asm))


def amdgcn_stores_released(asm: str, source_line: str) -> list[bool]:
    """For each global store an AMDGCN listing compiled from `source_line` ("file.py:LINE", the innermost
    location of the store's `.loc`), whether every wave releases it itself before any code that only some
    lanes run (an `s_and_saveexec`, such as one thread's arrival or flag): after the store, a
    `buffer_wbl2` (a device-scope release's L2 write-back) and then `s_waitcnt vmcnt(0)` (the wave's own
    stores done) come before the first `s_and_saveexec`. On AMD a release waits for the issuing wave's
    memory operations only, so a store that only another wave's release follows may not have left its CU
    when a program publishes it (mxlib.kernels.arrival)."""
    lines = asm.splitlines()
    where, found = "", []
    for i, line in enumerate(lines):
        text = line.strip()
        if text.startswith(".loc"):
            where = text.partition(";")[2].strip().split(" ")[0]
            continue
        if not re.match(r"(global|buffer)_store_", text) or where.rsplit(":", 1)[0] != source_line:
            continue
        wbl2 = waited = False
        for later in lines[i + 1:]:
            op = later.strip()
            if op.startswith("s_and_saveexec"):
                break
            wbl2 |= op.startswith("buffer_wbl2")
            waited |= wbl2 and op.startswith("s_waitcnt") and "vmcnt(0)" in op
        found.append(wbl2 and waited)
    return found


def _cuobjdump() -> str:
    from triton.backends.nvidia import compiler

    return str(Path(compiler.get_ptxas(90).path).with_name("cuobjdump"))


_STL_BYTES = {"": 4, ".64": 8, ".128": 16, ".U8": 1, ".S8": 1, ".U16": 2, ".S16": 2}  # a SASS local store's width


def spill_store_bytes(sass: str) -> int:
    """Bytes of a SASS listing's local stores (STL): ptxas spills registers to the thread's stack frame
    with them, so this is what `ptxas -v` prints as "bytes spill stores" (Triton's kernels keep no arrays
    in local memory; equal to ptxas's figure on today's spilling split-K kernels, 1784 and 2140 bytes)."""
    total = 0
    for width in re.findall(r"\bSTL((?:\.\w+)?)\s", sass):
        if width not in _STL_BYTES:
            raise RuntimeError(f"a local store of unknown width in SASS: STL{width}")
        total += _STL_BYTES[width]
    return total


def cubin_facts(kernel) -> dict:
    """Registers and stack frame bytes (`scratch_bytes`) from `cuobjdump -res-usage` on the cubin, spill
    store bytes from its SASS (`spill_store_bytes`), mma and load mix from PTX. The resource line's LOCAL
    is not read: it stays 0 when ptxas spills, since spills go to the stack frame. `occupancy` is None: the
    cubin states no residency (`kernel_row` computes it as `ctas_per_unit`)."""
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(kernel.asm["cubin"])
        f.flush()
        out, sass = (subprocess.run([_cuobjdump(), flag, f.name], capture_output=True, text=True, check=True).stdout
                     for flag in ("-res-usage", "-sass"))
    found = re.search(r"REG:(\d+) STACK:(\d+)", out)
    if found is None:
        raise RuntimeError(f"cuobjdump -res-usage printed no resource line: {out[:200]!r}")
    regs, stack = map(int, found.groups())
    ptx = kernel.asm["ptx"]
    return dict(vgprs=regs, agprs=0, sgprs=None, scratch_bytes=stack, spill_bytes=spill_store_bytes(sass),
                occupancy=None, mma=_counts(r"\b((?:wgmma\.mma_async|mma\.sync)\.[\w.]+)", ptx),
                global_loads=_counts(r"\b(ld\.global(?:\.[a-z0-9]+)*)", ptx))


def kernel_row(launch: Launch, target: str, shape, source: str, path: str, stamp: dict) -> dict:
    """One CSV row: the launch compiled for `target`, or the error that stopped it."""
    row = dict(source=source, shape="x".join(map(str, shape)), kernel=launch.name, path=path, target=target,
               **stamp)
    try:
        kernel, options, constexprs = compile_launch(launch, target)
    except Exception as exc:  # a launch the target rejects (e.g. AMD-only options on CUDA) is a fact, not a crash
        row["note"] = f"does not compile for {target}: {type(exc).__name__}: {exc}"[:300]
        row["config"] = _config_text({k: v for k, v in launch.kwargs.items()})
        return row
    meta = kernel.metadata
    if source != "mxlib" and "_mxfp4_quant_op" in launch.fn.src:
        row["note"] = "calls aiter's _mxfp4_quant_op: compiled with the stand-in in mxlib/tools/isa_aiter"
    if launch.fn.__module__.startswith("_mxlib_aiter_triton_"):
        stub = sys.modules.get("aiter.ops.triton.gemm.basic.gemm_afp4wfp4")
        row["note"] = f"{AITER_OWN}, from PyPI's amd-aiter {getattr(stub, 'LOADED', None)} kernel files"
    row.update(config=_config_text({**constexprs, **{k: options.get(k) for k in _OPTION_KEYS if k in options}}),
               grid_ctas=_grid_ctas(launch, constexprs), num_warps=meta.num_warps, num_stages=meta.num_stages,
               shared_bytes=meta.shared)
    if target == "gfx950":
        facts = amdgcn_facts(kernel.asm["amdgcn"])
        row.update(waves_per_eu=meta.waves_per_eu, matrix_instr_nonkdim=meta.matrix_instr_nonkdim,
                   spill_bytes=facts["scratch_bytes"])
        resources = occupancy.KernelResources("gfx950", meta.num_warps, facts["total_vgprs"], facts["agprs"],
                                              meta.shared, facts["accum_offset"])
    else:
        facts = cubin_facts(kernel)
        row.update(spill_bytes=facts["spill_bytes"])
        resources = occupancy.KernelResources("sm_90", meta.num_warps, facts["vgprs"], 0, meta.shared)
    res = occupancy.residency(resources)
    row.update({k: facts[k] for k in ("vgprs", "agprs", "sgprs", "scratch_bytes", "occupancy", "mma", "global_loads")})
    row.update(ctas_per_unit=res.ctas, limited_by=res.limited_by)
    return row


LISTING_SUFFIX = {"gfx950": ".s", "sm_90": ".ptx"}
_COMMENT = {"gfx950": ";", "sm_90": "//"}


def listings(target: str, path: str, shape) -> list[tuple[str, str]]:
    """(kernel name, assembly text) for every distinct Triton launch mxlib's dispatcher makes for `path`
    on contest shape `shape` ((m, n, k)) as it would run on `target` (its config table), compiled for
    `target`: the AMDGCN listing for gfx950, the PTX for sm_90. Each text starts with comment lines
    naming the kernel, its constexprs and options, the Triton version and the date; debug-info paths are
    relative (`_relative_paths`)."""
    if target not in TARGETS:
        raise IsaError(f"--target must be one of {', '.join(TARGETS)}, got {target!r}")
    prepare()
    stamp = _stamp()
    calls = [c for c in mxlib_calls(target, path) if tuple(c[0]) == tuple(shape)]
    if not calls:
        raise IsaError(f"--shapes must name a contest shape, got {'x'.join(map(str, shape))}")
    out, seen = [], set()
    for _, _, call in calls:
        for launch in capture(call, target):
            key = _launch_key(launch)
            if key in seen:
                continue
            seen.add(key)
            kernel, options, constexprs = compile_launch(launch, target)
            text = kernel.asm["amdgcn" if target == "gfx950" else "ptx"]
            c = _COMMENT[target]
            config = _config_text({**constexprs, **{k: options.get(k) for k in _OPTION_KEYS if k in options}})
            head = [f"{c} mxlib {path} path, {'x'.join(map(str, shape))}, kernel {launch.name}, compiled for {target}",
                    f"{c} {config}",
                    f"{c} `python -m mxlib isa --target {target} --path {path} --shapes {'x'.join(map(str, shape))} "
                    f"--listing DIR`, Triton {stamp['triton']}, {stamp['date']}",
                    f"{c} source lines of the K loop (file:line: text):"]
            head += [f"{c}   {loc}: {code}" for loc, code in _loop_source_lines(text)]
            out.append((launch.name, "\n".join(head) + "\n" + _relative_paths(text)))
    return out


def _relative_paths(text: str) -> str:
    """Debug-info paths cut to the part from `mxlib/` or `triton/` on (a listing names no machine's folders;
    Triton's cache may also hand back a kernel compiled from another checkout of the same source)."""
    return re.sub(r"/[\w./+-]*?/(mxlib|triton)(?=[/\"\s])", r"\1", text)


_LOC = re.compile(r"^\s*\.loc\s+\d+\s+\d+\s+\d+.*?(?:;|//)\s*([\w.]+):(\d+):\d+")
_FILE = re.compile(r'^\s*\.file\s+\d+\s+"([^"]*)"(?:\s+"([^"]*)")?')


def _loop_locations(asm: str) -> list[tuple[str, str]]:
    """(instruction, "file.py:line") for each instruction of the first loop (`k_loop_lines`), the location
    being the innermost source line the compiler's `.loc` comment names (Triton inlines helpers, so a
    load inside `_fp4_b_tile` is named by its line there); PTX inside Triton's own inline asm blocks gets
    "inline asm in file.py:line", the line that called it."""
    body = k_loop_lines(asm)
    if not body:
        return []
    lines, out, loc, i = asm.splitlines(), [], "", 0
    start = next(n for n, line in enumerate(lines) if line.strip() == body[0] or line.strip().startswith(body[0]))
    # walk back to the loop's first .loc so the first instruction has one
    for line in reversed(lines[:start]):
        found = _LOC.match(line)
        if found:
            loc = f"{found.group(1)}:{found.group(2)}"
            break
    inline = False  # PTX: Triton's own inline asm (the emulated FP4 upcast) carries .loc lines of its text
    for line in lines[start:]:
        stripped = line.strip()
        if stripped in ("// begin inline asm", "// end inline asm"):
            inline = stripped == "// begin inline asm"
            continue
        found = _LOC.match(line)
        if found:
            if not inline:
                loc = f"{found.group(1)}:{found.group(2)}"
            continue
        if i < len(body) and stripped == body[i]:
            out.append((body[i], f"inline asm in {loc}" if inline else loc))
            i += 1
            if i == len(body):
                break
    return out


def _loop_source_lines(asm: str) -> list[tuple[str, str]]:
    """("file.py:line", source text) for every mxlib source line the first loop's instructions come from, in
    line order, read from the files the listing's `.file` directives name."""
    files = {}
    for line in asm.splitlines():
        found = _FILE.match(line)
        if found:
            full = Path(found.group(1), found.group(2)) if found.group(2) else Path(found.group(1))
            files[full.name] = full
    wanted = sorted({loc for _, loc in _loop_locations(asm) if loc and not loc.startswith("inline")}, key=lambda x: (x.split(":")[0], int(x.split(":")[1])))
    out = []
    for loc in wanted:
        name, number = loc.split(":")
        file = files.get(name)
        if file is None or "mxlib" not in file.parts:
            continue
        file = ROOT.joinpath(*file.parts[file.parts.index("mxlib"):])  # this checkout's copy (a cached kernel may
        if not file.is_file():                                          # name another checkout's folder)
            continue
        text = file.read_text().splitlines()
        if 0 < int(number) <= len(text):
            out.append((loc, text[int(number) - 1].strip()))
    return out


def k_loop_sources(listing: str) -> list[tuple[str, str, str]]:
    """(instruction, "file.py:line", source text) for each instruction of a listing's K loop, the text read
    from the listing's own header (`listings` writes it when it compiles), so it is the source the listing
    was compiled from."""
    sources = {}
    for line in listing.splitlines()[:400]:
        found = re.match(r"^(?:;|//)\s{3}([\w.]+:\d+): (.*)$", line)
        if found:
            sources[found.group(1)] = found.group(2)
    return [(ins, loc, sources.get(loc, "")) for ins, loc in _loop_locations(listing)]


def k_loop_lines(asm: str) -> list[str]:
    """The instructions of the first loop in an AMDGCN listing or a PTX text (the GEMM's K loop), stripped:
    AMDGCN from the first "Inner Loop Header" label to the branch back to it; PTX from the first label
    that a later `bra` jumps back to, to that branch. [] when there is no loop."""
    lines = asm.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(".") and "Inner Loop Header" in line:
            label, body = line.split(":")[0], []
            for inner in lines[i + 1:]:
                t = inner.strip()
                if inner.startswith("\t") and t and not t.startswith((".", ";")):
                    body.append(t)
                    if t.startswith("s_cbranch") and t.split()[-1] == label:
                        return body
            return body
    labels = {}
    for i, line in enumerate(lines):
        t = line.strip()
        found = re.match(r"^(\$L__\w+):", t)
        if found:
            labels[found.group(1)] = i
            continue
        jump = re.search(r"\bbra(?:\.uni)?\s+(\$L__\w+);", t)
        if jump and jump.group(1) in labels:
            body = [x.strip() for x in lines[labels[jump.group(1)] + 1:i + 1]]
            return [x for x in body if x and not x.startswith(("//", "$L__", "."))]
    return []


# ---------------------------------------------------------------------------------------------------------
# Reading a recorded listing's K loop (notebook 02)


def opcode(ins: str) -> str:
    """An instruction's opcode, past a PTX guard predicate (`@%p1 bra $L__BB0_1;` -> `bra`)."""
    words = ins.split()
    return words[1] if words[0].startswith("@") else words[0]


def _header(listing: str, lines: int) -> list[str]:
    """The first `lines` lines of a listing (`listings` writes kernel, config and how it was made there),
    without their comment marker."""
    return [re.sub(r"^(?:;|//) ", "", line) for line in listing.splitlines()[:lines]]


def _line_number(loc: str) -> int:
    """The line number of a location ("file.py:300", "inline asm in file.py:300"); 0 when there is none."""
    number = loc.rpartition(":")[2]
    return int(number) if number.isdigit() else 0


def amdgcn_loop_excerpt(listing: str, shown: tuple[str, ...], header: int = 3) -> str:
    """The K loop of an AMDGCN listing (`listings`) as text to read: the listing's first `header` lines,
    every loop instruction whose opcode starts with one of `shown` (e.g. "buffer_load", "v_mfma") with its
    source line, those source lines' text (from the listing's header, so the source it was compiled from),
    and the loop's size, barriers and MFMAs: what one iteration of one wave issues."""
    loop = k_loop_sources(listing)
    out, sources = _header(listing, header), {}
    picked = [(ins, loc, text) for ins, loc, text in loop if ins.startswith(shown)]
    width = max((len(ins) for ins, _, _ in picked), default=0)  # whole instructions: operands and modifiers too
    for ins, loc, text in picked:
        out.append(f"  {ins:<{width}} {loc}")
        sources[loc] = text
    out += ["", "source lines:"]
    out += [f"  {loc}: {text}" for loc, text in sorted(sources.items(), key=lambda kv: _line_number(kv[0]))]
    mix = collections.Counter(opcode(ins) for ins, _, _ in loop)
    mfma = sum(n for op, n in mix.items() if op.startswith("v_mfma"))
    out += ["", f"one iteration of one wave: {len(loop)} instructions, {mix['s_barrier']} barriers, {mfma} MFMAs"]
    return "\n".join(out)


# The K loop of fused_fp4 compiled for sm_90 (data/results/h200/listings/), grouped by where its instructions
# come from. Each group names places in the source, not line numbers: a function of mxlib/kernels/ (every
# line of it) or a line of gemm_fused_fp4.py found by its text. `fused_fp4_sm90_groups` resolves them against
# today's source, and a test holds every recorded listing's header (the source lines it was compiled from) to
# today's lines, so a listing left behind by a source change fails CI instead of being grouped by moved lines.
# name -> (places, inside Triton's inline PTX or not, None for either). The first group takes inline PTX too,
# so it shares with the third the loads that Triton emits as inline PTX (cp.async, ld.global.b8). The
# common.py helpers are those Triton inlines: the scale column into B's scale load, the E8M0 decode, the
# bit view and the block exponent into A's quantizer.
_FP4_SOURCE = "gemm_fused_fp4.py"
_FUSED_FP4_SM90_PLACES = {
    "B tile and scales": ((("line", _FP4_SOURCE, "raw = tl.load(b_ptr"), ("line", _FP4_SOURCE, "tl.load(s_ptr"),
                           ("def", "common.py", "mx_shuffled_scale_col")), None),
    "A loaded and quantized": ((("def", _FP4_SOURCE, "_fp4_quantize"), ("line", _FP4_SOURCE, "x = tl.load(a_base"),
                                ("def", "common.py", "mx_e8m0_to_f32"), ("def", "common.py", "mx_bits_f32"),
                                ("def", "common.py", "mx_block_exponent")), False),
    "Triton's inline PTX: fp4 -> bf16, mma.sync": (None, True),
    "dot_scaled's scaling and MMA": ((("line", _FP4_SOURCE, "acc = tl.dot_scaled(a_q"),), False),
}


def source_place_lines(kind: str, file: str, what: str) -> list[int]:
    """The lines of mxlib/kernels/`file` that a place names: kind "def", the function `what` (its def line to
    its last line); kind "line", the one line whose text contains `what` (IsaError unless exactly one does)."""
    text = (ROOT / "mxlib" / "kernels" / file).read_text().splitlines()
    if kind == "def":
        import ast

        for node in ast.parse("\n".join(text)).body:
            if isinstance(node, ast.FunctionDef) and node.name == what:
                return list(range(node.lineno, node.end_lineno + 1))
        raise IsaError(f"no function {what!r} in mxlib/kernels/{file}")
    found = [i + 1 for i, line in enumerate(text) if what in line]
    if len(found) != 1:
        raise IsaError(f"{len(found)} lines of mxlib/kernels/{file} hold {what!r}; a place must name exactly one")
    return found


def fused_fp4_sm90_groups() -> dict:
    """`loop_groups`' groups for fused_fp4's sm_90 K loop, resolved against today's source: name (with the
    lines of gemm_fused_fp4.py it takes) -> (line numbers and "common.py:N" names, inline flag)."""
    groups = {}
    for name, (places, inline) in _FUSED_FP4_SM90_PLACES.items():
        if places is None:
            groups[name] = (None, inline)
            continue
        lines, own = [], []
        for kind, file, what in places:
            found = source_place_lines(kind, file, what)
            lines += found if file == _FP4_SOURCE else [f"{file}:{n}" for n in found]
            if file == _FP4_SOURCE:
                own.append(f"{found[0]}-{found[-1]}" if len(found) > 1 else str(found[0]))
        word = "line" if own == [str(lines[0])] else "lines"
        groups[f"{name} ({word} {', '.join(own)})"] = (tuple(lines), inline)
    return groups


def loop_groups(loop: list[tuple[str, str, str]], groups: dict,
                source: str = _FP4_SOURCE) -> dict[str, collections.Counter]:
    """Opcode counts per group of a K loop (`k_loop_sources`), `groups` being name -> (line numbers or None
    for any, inline-PTX flag or None for either): an instruction is in a group when its location is one of
    the group's (a number N: line N of `source`; a string: "file.py:N") and it is (True) or is not (False)
    inside Triton's inline PTX. The braces that open and close an inline block are not instructions and
    count in no group."""
    out = {}
    for name, (lines, inline) in groups.items():
        wanted = None if lines is None else {n if isinstance(n, str) else f"{source}:{int(n)}" for n in lines}
        out[name] = collections.Counter(
            opcode(ins) for ins, loc, _ in loop if ins not in ("{", "}")
            and (wanted is None or loc.removeprefix("inline asm in ") in wanted)
            and (inline is None or loc.startswith("inline") == inline))
    return out


def _mma_name(op: str) -> str:
    """`mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32` -> `mma.sync.m16n8k16 bf16` (shape, A's type)."""
    parts = op.split(".")
    shape = [p for p in parts if re.fullmatch(r"m\d+n\d+k\d+", p)]
    return f"mma.sync.{shape[0]} {parts[-3]}" if shape and len(parts) >= 7 else op


def ptx_loop_mix(ptx: str, groups: dict, header: int = 2) -> str:
    """The K loop of a PTX listing (`listings`) by where its instructions come from: the listing's first
    `header` lines, per group of `groups` (`loop_groups`) its instruction count and five most frequent
    opcodes, and the whole loop's size, `mma.sync` instructions, byte permutes and bf16 multiplies: on
    sm_90 the FP4 emulation's signature, one iteration of one warp."""
    loop = k_loop_sources(ptx)
    out = _header(ptx, header)
    for name, mix in loop_groups(loop, groups).items():
        top = ", ".join(f"{op} {n}" for op, n in mix.most_common(5))
        out.append(f"  {name:<44} {sum(mix.values()):4d} instructions: {top}")
    mix = collections.Counter(opcode(ins) for ins, _, _ in loop)
    mma = [f"{n} x {_mma_name(op)}" for op, n in mix.items() if op.startswith("mma.sync")] or ["0 x mma.sync"]
    out.append(f"one iteration of one warp, all told: {len(loop)} instructions; {', '.join(mma)}, "
               f"{mix['prmt.b32']} byte permutes, {mix['mul.bf16']} bf16 multiplies")
    return "\n".join(out)


def _config_text(values: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in values.items() if not k.startswith("_"))


# ---------------------------------------------------------------------------------------------------------
# What to capture


def _shape_data(shape):
    from ..spec.reference import generate_input

    m, n, k, seed = shape
    return generate_input(m, n, k, seed)


def mxlib_calls(target: str, path: str | None):
    """(label, call) per contest shape for mxlib's dispatcher on `target` (path None: the dispatcher's choice,
    which on the CPU skips the CUDA paths and so shows their Triton fallback; a path name, or "all" for
    every Triton path in mxlib.runtime.paths.PATHS)."""
    from ..runtime import dispatch
    from ..runtime.paths import CUDA_PATHS, PATHS
    from ..spec import shapes

    kind = DEVICE_KINDS[target]
    paths = [p for p in PATHS if p not in CUDA_PATHS] if path == "all" else [path]
    calls = []
    for s in shapes.load():
        for p in paths:
            def call(s=s, p=p):
                saved = dispatch.device_kind
                dispatch.device_kind = lambda device: kind
                try:
                    dispatch.custom_kernel(_shape_data((s.m, s.n, s.k, s.seed)), backend="triton", path=p)
                finally:
                    dispatch.device_kind = saved
            label = p if p is not None else "dispatch"
            calls.append(((s.m, s.n, s.k), label, call))
    return calls


def load_submission(file) -> object:
    """The submission module from `file`, with the stand-in aiter first on sys.path (IsaError when the file
    is missing or has no custom_kernel)."""
    file = Path(file)
    if not file.is_file():
        raise IsaError(f"SUBMISSION {str(file)!r} must be an existing file (a Python contest submission)")
    prepare()
    if str(STUB_AITER) not in sys.path:
        sys.path.insert(0, str(STUB_AITER))
    for name in [m for m in sys.modules if m == "aiter" or m.startswith("aiter.")]:
        del sys.modules[name]
    from .harness import task_shim

    sys.modules.setdefault("task", task_shim())  # the contest's task.py, which submissions usually import
    name = "_mxlib_isa_submission_" + re.sub(r"\W", "_", file.stem)
    module = types.ModuleType(name)
    module.__file__ = str(file)
    sys.modules[name] = module
    try:
        with _jit_compiles():  # its Triton kernels (and the stand-in aiter's) must be compilable
            exec(compile(_python_source(file), str(file), "exec"), module.__dict__)
    except (Exception, SystemExit) as exc:  # an exit at import is the file's failure, not isa's exit
        raise IsaError(f"SUBMISSION {str(file)!r} must import cleanly with the stand-in aiter, "
                       f"got {type(exc).__name__}: {exc}") from None
    if not callable(getattr(module, "custom_kernel", None)):
        raise IsaError(f"SUBMISSION {str(file)!r} must define custom_kernel(data), the contest's entry point")
    return module


def _python_source(file: Path) -> str:
    """The file's text; a first line that is not Python (a leaderboard export's "submission N" header) is
    blanked, keeping line numbers."""
    text = file.read_text()
    try:
        compile(text, str(file), "exec")
    except SyntaxError as exc:
        if exc.lineno != 1:
            raise
        first, _, rest = text.partition("\n")
        return "\n" + rest
    return text


def submission_calls(module):
    from ..spec import shapes

    return [((s.m, s.n, s.k), "submission", lambda s=s: module.custom_kernel(_shape_data((s.m, s.n, s.k, s.seed))))
            for s in shapes.load()]


def _stamp() -> dict:
    import triton

    return dict(triton=triton.__version__, date=utc_date())


def collect(target: str, submission=None, path: str | None = None, only=None,
            timeout: float = SUBMISSION_TIMEOUT_S) -> list[dict]:
    """Rows for every launch on every contest shape (or the (m, n, k) in `only`), each distinct launch
    compiled once; a submission's load and each of its calls get `timeout` seconds."""
    if target not in TARGETS:
        raise IsaError(f"--target must be one of {', '.join(TARGETS)}, got {target!r}")
    if submission is not None and not Path(submission).is_file():
        raise IsaError(f"SUBMISSION {str(submission)!r} must be an existing file (a Python contest submission)")
    prepare()
    stamp = _stamp()
    if submission is not None:
        with _time_limit(timeout, "loading"):
            module = load_submission(submission)
        source, calls = str(submission), submission_calls(module)
        aiter_calls = importlib.import_module("aiter").CALLS  # the stand-in's (a file may import aiter lazily)
    else:
        source, calls, aiter_calls = "mxlib", mxlib_calls(target, path), []
    rows, compiled = [], {}
    for shape, label, call in calls:
        if only is not None and tuple(shape) not in only:
            continue
        before = len(aiter_calls)
        try:
            with _time_limit(timeout, f"in custom_kernel on {'x'.join(map(str, shape))}") if submission else (
                    contextlib.nullcontext()):
                launches = capture(call, target)
        except IsaError:  # past the time limit: the run stops
            raise
        except (Exception, SystemExit) as exc:  # a custom_kernel that exits fails its row, not the run
            rows.append(dict(source=source, shape="x".join(map(str, shape)), path=label, target=target, **stamp,
                             note=f"the call failed before launching: {type(exc).__name__}: {exc}"[:300]))
            continue
        for launch in launches:
            key = _launch_key(launch)
            if key not in compiled:
                compiled[key] = kernel_row(launch, target, shape, source, label, stamp)
            row = dict(compiled[key], shape="x".join(map(str, shape)), path=label)
            if row.get("grid_ctas") is not None:
                row["grid_ctas"] = _grid_ctas(launch, _constexpr_values(launch))
            rows.append(row)
        for name, (m, n, k), detail in aiter_calls[before:]:
            rows.append(dict(source=source, shape=f"{m}x{n}x{k}", kernel=name, path=label, target=target,
                             config=detail, **stamp, note=NOT_COMPILED))
    return rows


def _constexpr_values(launch: Launch) -> dict:
    values = {p.name: a for p, a in zip(launch.fn.params, launch.args)}
    values.update(launch.kwargs)
    return values


def _launch_key(launch: Launch):
    """What decides the compiled code: the kernel, constexprs, options and each argument's specialization
    (dtype for tensors, value class for integers)."""
    from triton.runtime.jit import JITFunction

    def spec(v):
        if hasattr(v, "data_ptr"):
            return ("tensor", str(v.dtype), v.data_ptr() % 16 == 0)
        if isinstance(v, bool) or not isinstance(v, int):
            return ("value", repr(v))
        return ("int", v == 1, v % 16 == 0)

    constexpr_names = {p.name for p in launch.fn.params if p.is_constexpr}
    values = _constexpr_values(launch)
    parts = tuple((k, repr(v) if k in constexpr_names or k in _OPTION_KEYS else spec(v))
                  for k, v in sorted(values.items()))
    assert isinstance(launch.fn, JITFunction)
    return (id(launch.fn), parts)


def write_csv(rows, out: Path) -> Path:
    return write_csv_atomic(out, CSV_FIELDS, ({k: ("" if r.get(k) is None else r.get(k)) for k in CSV_FIELDS}
                                              for r in rows))


# ---------------------------------------------------------------------------------------------------------
# Command line


def add_arguments(p) -> None:
    p.add_argument("submission", nargs="?", help="a contest submission file (default: mxlib's own dispatcher)")
    p.add_argument("--target", required=True, help="gfx950 (MI355X) or sm_90 (H200)")
    p.add_argument("--out", type=output_file,
                   help="CSV to write (default: data/results/mi355x/isa.csv or data/results/h200/isa_sm90.csv for a "
                        "full run of mxlib; with --path or --shapes, or a submission, none: the table is printed; "
                        "with --sweep, splitk_sweep_residency.csv beside the sweep CSV)")
    p.add_argument("--path", help="mxlib only: force one Triton path of mxlib.runtime.paths.PATHS, or 'all'")
    p.add_argument("--shapes", help="a subset of the contest shapes, e.g. 16x2112x7168,32x4096x512")
    p.add_argument("--sweep", help="instead: the GEMM launch of every checked row of this split-K sweep CSV "
                                   "(data/results/h200/splitk_sweep.csv), with its CTAs per unit")
    p.add_argument("--timeout", type=at_least(1), default=SUBMISSION_TIMEOUT_S,
                   help="seconds a SUBMISSION may take to load, and each of its calls (default %(default)s)")
    p.add_argument("--listing", help="instead: write the compiled assembly (gfx950: AMDGCN .s; sm_90: .ptx) of every "
                                     "Triton launch of --path on the one contest shape in --shapes into this folder")


def _parse_shapes(text):
    if text is None:
        return None
    from ..spec import shapes

    known = {s.mnk: str(s) for s in shapes.load()}
    picked = [t for t in text.split(",") if t.strip()]
    try:
        mnks = {shapes.parse_mnk(t, "--shapes") for t in picked}
    except ValueError:
        mnks = set()
    if not mnks or not mnks <= set(known):
        raise IsaError(f"--shapes must list contest shapes as MxNxK ({', '.join(known.values())}), got {text!r}")
    return mnks


def summary(rows) -> str:
    lines = [f"{'shape':<15} {'kernel':<34} {'regs':>5} {'agpr':>4} {'lds/smem':>8} {'scratch':>7} "
             f"{'occ':>3} {'ctas/unit':>9}  mma / note"]
    for r in rows:
        mma = r.get("mma") or r.get("note") or ""
        lines.append(f"{r['shape']:<15} {str(r.get('kernel', ''))[:34]:<34} {str(r.get('vgprs', '')):>5} "
                     f"{str(r.get('agprs', '')):>4} {str(r.get('shared_bytes', '')):>8} "
                     f"{str(r.get('scratch_bytes', '')):>7} {str(r.get('occupancy') or ''):>3} "
                     f"{str(r.get('ctas_per_unit', '')):>9}  {mma[:70]}")
    return "\n".join(lines)


def _write_listings(args) -> int:
    from ..runtime.paths import CUDA_PATHS, PATHS

    triton_paths = [p for p in PATHS if p not in CUDA_PATHS]
    picked = sorted(_parse_shapes(args.shapes) or [])
    if args.path not in triton_paths or len(picked) != 1 or args.submission is not None:
        raise IsaError(f"--listing needs --path (one of {', '.join(triton_paths)}) and exactly one contest shape in "
                       f"--shapes, and no SUBMISSION; got --path {args.path!r}, --shapes {args.shapes!r}")
    folder = Path(args.listing)
    folder.mkdir(parents=True, exist_ok=True)
    shape = "x".join(map(str, picked[0]))
    for name, text in listings(args.target, args.path, picked[0]):
        out = folder / f"{args.path}_{name.lstrip('_')}_{shape}_{args.target}{LISTING_SUFFIX[args.target]}"
        write_text_atomic(out, text)
        print(f"wrote {out} ({len(text.splitlines())} lines)")
    return 0


# What each of the two "instead" modes does not read (with their defaults): given with it, an option would be
# ignored silently.
_NOT_READ = {"listing": {"sweep": None, "out": None, "timeout": SUBMISSION_TIMEOUT_S},
             "sweep": {"listing": None, "submission": None, "path": None, "shapes": None,
                       "timeout": SUBMISSION_TIMEOUT_S}}


def run(args) -> int:
    if args.target not in TARGETS:
        print(f"python -m mxlib isa: --target must be one of {', '.join(TARGETS)}, got {args.target!r}", file=sys.stderr)
        return 2
    for mode, unread in _NOT_READ.items():
        given = options_given(args, unread)
        if getattr(args, mode) is not None and given:
            names = ", ".join("SUBMISSION" if n == "--submission" else n for n in given)
            print(f"python -m mxlib isa: {names}: not an option of --{mode}, which would ignore it", file=sys.stderr)
            return 2
    if getattr(args, "listing", None) is not None:
        try:
            return _write_listings(args)
        except IsaError as exc:
            print(f"python -m mxlib isa: {exc}", file=sys.stderr)
            return 2
    if args.sweep is not None:
        try:
            rows = sweep_residency(args.sweep, args.target)
        except IsaError as exc:
            print(f"python -m mxlib isa: {exc}", file=sys.stderr)
            return 2
        out = Path(args.out or Path(args.sweep).with_name("splitk_sweep_residency.csv"))
        write_csv_atomic(out, SWEEP_RESIDENCY_FIELDS, rows)
        print(f"wrote {out} ({len(rows)} rows)")
        return 0
    try:
        if args.submission is not None and args.path is not None:
            raise IsaError("--path applies to mxlib's own dispatcher: leave it out with a SUBMISSION file")
        if args.submission is None and args.timeout != SUBMISSION_TIMEOUT_S:
            raise IsaError("--timeout applies to a SUBMISSION file (mxlib's own calls have no limit)")
        if args.path is not None:
            from ..runtime.paths import CUDA_PATHS, PATHS

            triton_paths = [p for p in PATHS if p not in CUDA_PATHS]
            if args.path != "all" and args.path not in triton_paths:
                raise IsaError(f"--path must be 'all' or one of the Triton paths {', '.join(triton_paths)}, "
                               f"got {args.path!r}")
        rows = collect(args.target, args.submission, args.path, _parse_shapes(args.shapes), args.timeout)
        if args.submission is not None and not rows:
            raise IsaError(f"SUBMISSION {args.submission!r} launched no Triton kernel and called no aiter kernel on "
                           "these shapes: there is nothing to inspect")
    except IsaError as exc:
        print(f"python -m mxlib isa: {exc}", file=sys.stderr)
        return 2
    print(summary(rows))
    full = args.submission is None and args.path is None and args.shapes is None
    out = args.out or (DEFAULT_OUT[args.target] if full else None)
    if out is not None:
        print(f"wrote {write_csv(rows, Path(out))}")
    return 0


# ---------------------------------------------------------------------------------------------------------
# Residency of a recorded sweep's configs (the occupancy model's validation)

SWEEP_RESIDENCY_FIELDS = ("m", "n", "k", "tile_m", "tile_n", "block_k", "split_k", "num_warps", "num_stages",
                          "kernel", "target", "registers", "shared_bytes", "spill_bytes", "resident", "limited_by",
                          "triton", "date")
# The sweep CSV's columns sweep_residency reads.
SWEEP_NEEDS = ("m", "n", "k", "seed", "path", "tile_m", "tile_n", "block_k", "split_k", "num_warps", "num_stages",
               "ctas", "ok")


def sweep_residency(sweep_csv, target: str = "sm_90") -> list[dict]:
    """For every checked row of a split-K sweep CSV (mxlib.tools.sweeps), its GEMM launch (the launch with
    the row's CTA count) compiled for `target`, with the CTAs per unit its resources allow."""
    from dataclasses import replace

    from ..runtime.paths import path_module

    with open(sweep_csv, newline="") as f:  # the CSV checked before anything is compiled
        reader = csv.DictReader(f)
        missing = [c for c in SWEEP_NEEDS if c not in (reader.fieldnames or ())]
        if missing:
            raise IsaError(f"--sweep {str(sweep_csv)!r} is not a sweep CSV (`python -m mxlib sweep`): it has no "
                           f"column {', '.join(missing)}")
        rows = [r for r in reader if r.get("ok") == "1"]
    if not rows:
        raise IsaError(f"--sweep {str(sweep_csv)!r} has no checked row (ok = 1): nothing to compile, nothing written")
    prepare()
    stamp = _stamp()
    compiled, out, inputs = {}, [], {}
    for r in rows:
        m, n, k = int(r["m"]), int(r["n"]), int(r["k"])
        with _jit_compiles():  # the path's kernels, if first imported here, must be compilable
            module = path_module(r["path"])
        cfg = replace(module.default_config(m, n, k), block_m=int(r["tile_m"]), block_n=int(r["tile_n"]),
                      block_k=int(r["block_k"]), split_k=int(r["split_k"]), num_warps=int(r["num_warps"]),
                      num_stages=int(r["num_stages"]))
        if (m, n, k) not in inputs:
            inputs.clear()
            inputs[(m, n, k)] = _shape_data((m, n, k, int(r["seed"] or 0)))
        data = inputs[(m, n, k)]
        launches = capture(lambda: module.gemm(data[0], data[3], data[4], config=cfg, rounding="rne"), target)
        gemm = next((x for x in launches if _grid_ctas(x, _constexpr_values(x)) == int(r["ctas"])
                     and x.kwargs.get("BLOCK_N") == cfg.block_n), None)  # the tiled GEMM, not a quant or reduce
        if gemm is None:
            raise IsaError(f"--sweep row {m}x{n}x{k} {r['tile_m']}x{r['tile_n']} split {r['split_k']}: no launch of "
                           f"{r['ctas']} CTAs with BLOCK_N {cfg.block_n} (the CSV is from another version of the path)")
        key = _launch_key(gemm)
        if key not in compiled:
            compiled[key] = kernel_row(gemm, target, (m, n, k), "mxlib", r["path"], stamp)
        c = compiled[key]
        out.append(dict({f: r[f] for f in SWEEP_RESIDENCY_FIELDS[:9]}, kernel=c["kernel"], target=target,
                        registers=c["vgprs"], shared_bytes=c["shared_bytes"], spill_bytes=c["spill_bytes"],
                        resident=c["ctas_per_unit"], limited_by=c["limited_by"], **stamp))
    return out
