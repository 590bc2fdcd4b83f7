"""A rule of Hopper's warpgroup MMA that no compiler enforces, checked in PTX on a machine with no GPU.

PTX (`wgmma.fence`): the registers a `wgmma.mma_async` reads (its accumulators and its register A operand)
must be written before the `wgmma.fence` that precedes it; a write between the fence and the wgmma is
undefined. CUDA C++ cannot say so: the fence is an `asm volatile` with a memory clobber, which keeps memory
operations in place but lets the compiler move register arithmetic past it, and it does so with constants,
and zeros, which it materializes next to their use. KERNEL_NOTES.md "v19a" met it: a register operand built
from constants was written after the fence in PTX, ptxas then left three of its four registers unwritten on the
first pass of an unrolled loop, and the sums came out wrong with no warning. Accumulators set to zero before a
first accumulating wgmma are the other common case. Only a GPU run shows the result, and CI has no GPU; this
check reads the PTX instead (`register_writes_after_fence`), for the library's kernels and the diagnostic
scripts' (tests/test_wgmma_rules.py).

Scope: PTX registers are virtual and written once per definition site, so a write between a fence and a
wgmma is visible in program order within straight-line code; the check scans each function in order and
resets at every fence. It checks the accumulators and the register A operand (wgmmas themselves may write the
accumulators between a fence and the next wgmma: PTX allows that, and the scan skips them). It does not follow
branches: a write on another path, before a loop's back edge, is not seen.
"""
from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..kernels import gemm_mma_sm90 as G

_ENTRY = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)?\.(?:entry|func)\s+(?:\([^)]*\)\s*)?(\w+)")
_WGMMA = re.compile(r"^\s*(?:@!?%p\w*\s+)?wgmma\.mma_async\S*\s+\{([^}]*)\}\s*,\s*(\{[^}]*\})?")
# An instruction whose first operand is a register or a vector of them writes it (a store's or a reduction's
# first operand is an address in brackets, a branch's a label: neither matches).
_WRITE = re.compile(r"^\s*(?:@!?%p\w*\s+)?[a-z][\w.:]*\s+(\{[^}]*\}|%\w+)")


@dataclass(frozen=True)
class LateWrite:
    """Register `register`, an accumulator or part of the A operand of the wgmma at PTX line `wgmma_line` in
    `function`, was written at line `write_line`, after the fence that precedes that wgmma."""
    function: str
    wgmma_line: int
    register: str
    write_line: int


def register_writes_after_fence(ptx: str) -> list[LateWrite]:
    """Every register of a `wgmma.mma_async`'s accumulators or A operand in `ptx` written (by anything but a
    wgmma) between the last `wgmma.fence` before it and it, in program order, once per wgmma and register (see
    the module's docstring for what is not followed)."""
    found: list[LateWrite] = []
    function, written = "", {}
    for number, line in enumerate(ptx.splitlines(), 1):
        text = line.split("//")[0]
        entry = _ENTRY.match(text)
        if entry:
            function, written = entry.group(1), {}
            continue
        if re.match(r"^\s*wgmma\.fence\b", text):
            written = {}
            continue
        wgmma = _WGMMA.match(text)
        if wgmma:
            operands = wgmma.group(1) + "," + (wgmma.group(2) or "").strip("{}")
            for register in dict.fromkeys(r.strip() for r in operands.split(",") if r.strip()):
                if register in written:
                    found.append(LateWrite(function, number, register, written[register]))
            continue
        write = _WRITE.match(text)
        if write:
            for register in re.findall(r"%\w+", write.group(1)):
                written[register] = number
    return found


def mma_ptx(source: str, nvcc: str) -> str:
    """`source` compiled to PTX by `gemm_mma_sm90.mma_compile` with the library's nvcc flags, `-ptx` for
    `-cubin` and without ptxas's report (`gemm_mma_sm90.MmaUnavailable` if nvcc fails)."""
    flags = tuple("-ptx" if f == "-cubin" else f for f in G.MMA_NVCC_FLAGS if f not in ("-Xptxas", "-v"))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "kernels.ptx"
        G.mma_compile(source, nvcc, out, flags)
        return out.read_text(encoding="utf-8")
