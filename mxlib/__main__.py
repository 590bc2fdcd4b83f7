"""`python -m mxlib <command>`: each command lives in its own module with `add_arguments` and `run`.

A command that fails on the user's input (a ValueError or TypeError raised by mxlib's own code, its
argument checks; a missing or unreadable file) prints one line naming the command and the problem and
exits with 2, as argparse does for a bad option; anything else is a bug and keeps its traceback, a
ValueError or TypeError raised inside torch, Triton or another library included.
"""
from __future__ import annotations

import argparse
import importlib
import sys
import traceback
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent

DESCRIPTION = (
    "mxlib: the MXFP4 GEMM workbook and library for the amd-mxfp4-mm contest (C = dequant(quant(A)) @ "
    "dequant(B_q)^T, bf16 out). These commands check mxlib.custom_kernel against the contest's reference, "
    "time it beside baselines the way the contest times, sweep split-K tiles against the occupancy model, "
    "export the single-file submission and run it through the contest's protocol locally, and execute the "
    "workbook's notebooks. 'python -m mxlib COMMAND --help' says what each one takes."
)

# command -> (module, one-line help). Modules are imported only when their command runs.
COMMANDS = {
    "check": ("mxlib.tools.check", "check custom_kernel against the reference, naming the backend and path of each shape"),
    "workbook": ("mxlib.tools.workbook", "execute the notebooks in order, headless, export their figures, keep the committed outputs current (--check: fail if stale)"),
    "bench": ("mxlib.tools.bench", "time mxlib's paths beside baselines, contest-style and by graph replay, with floors"),
    "harness": ("mxlib.tools.harness", "run a submission file through the contest's test, benchmark or leaderboard protocol"),
    "export": ("mxlib.tools.export", "write the single-file contest submission (no mxlib import) for a target"),
    "isa": ("mxlib.tools.isa", "compile the Triton kernels a GEMM launches on the contest shapes for gfx950 or sm_90, "
                               "no GPU needed: registers, LDS, spills, occupancy, matrix instructions"),
    "sweep": ("mxlib.tools.sweeps", "split-K x tile sweep of the splitk path, timed contest-style, against the occupancy model"),
}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(prog="python -m mxlib", description=DESCRIPTION)
    sub = parser.add_subparsers(dest="command", required=True)
    chosen = argv[0] if argv else None
    for name, (module, help_) in COMMANDS.items():
        p = sub.add_parser(name, help=help_, description=help_)
        p.set_defaults(_module=module)
        if name == chosen:  # only the command that runs is imported (a broken one cannot break the rest)
            importlib.import_module(module).add_arguments(p)
    args = parser.parse_args(argv)
    try:
        return importlib.import_module(args._module).run(args)
    except (ValueError, TypeError) as exc:
        if not _raised_by_mxlib(exc):
            raise
        problem = str(exc)
    except OSError as exc:
        problem = f"{exc.strerror}: {exc.filename}" if exc.strerror and exc.filename else str(exc)
    except KeyboardInterrupt:  # Ctrl-C: one line, not a traceback (each command cleans up in its finally blocks)
        print(f"python -m mxlib {args.command}: interrupted", file=sys.stderr)
        return 130
    print(f"python -m mxlib {args.command}: error: {problem}", file=sys.stderr)
    return 2


def _raised_by_mxlib(exc: BaseException) -> bool:
    """Whether the innermost frame that raised `exc` is mxlib's own code (its checks), not a library's."""
    frames = traceback.extract_tb(exc.__traceback__)
    return bool(frames) and Path(frames[-1].filename).resolve().is_relative_to(_PACKAGE)


if __name__ == "__main__":
    sys.exit(main())
