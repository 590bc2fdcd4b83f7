"""The static SASS of the mma_sm90 kernels: per kernel, its size and the instructions of its chunk loops,
the counts behind KERNEL_NOTES.md "v12" and "v13" (what the consumers and the producer issue a chunk).

    python3 scripts/mma_sass_loops.py [KERNEL_SUFFIX ...] [--source FILE] [--out CSV]     e.g. t64_x1_k1 p16_w1_x4

Builds (or finds cached) the library's cubin with nvcc (or, with --source, a cubin of another version of
csrc/mxfp4_mma_sm90.cu, e.g. `git show REV:mxlib/kernels/csrc/mxfp4_mma_sm90.cu > FILE`; its kernel names
must be the same), disassembles each kernel with the cuobjdump that Triton bundles, and finds its loops (a
branch back to an earlier address). The consumers' chunk loop is the shortest loop that holds matrix
instructions (HGMMA or HMMA); the producer's refill loop (family wspec) the shortest that waits on an
mbarrier (a released stage) and holds bulk copies (UBLKCP) but no matrix instruction. Prints, per kernel,
its SASS instructions in all, and for each of the two loops its instructions, MMAs and copies, and per
chunk (8 wgmmas make a chunk; the pipelined family's mma.sync, 8 per 8 rows of A and 16-row tile of B;
one refill for the producer). Static counts: a branch inside a loop that is rarely taken (the wide-scale
factor) counts as if taken. Needs nvcc and Triton; no GPU.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from mxlib.kernels import gemm_mma_sm90 as G  # noqa: E402
from mxlib.tools.isa import _cuobjdump  # noqa: E402
from mxlib.tools.files import write_csv_atomic  # noqa: E402

_LINE = re.compile(r"^\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")


def sass(cubin: bytes, kernel: str) -> list[tuple[int, str]]:
    """(address, instruction) of `kernel` in `cubin`, in order."""
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        out = subprocess.run([_cuobjdump(), "-sass", "-fun", kernel, f.name], capture_output=True, text=True,
                             check=True).stdout
    return [(int(m.group(1), 16), m.group(2)) for m in map(_LINE.match, out.splitlines()) if m]


def loops(code: list[tuple[int, str]]) -> list[list[str]]:
    """The bodies (instructions, the back branch included) of every branch back to an earlier address."""
    where = {addr: i for i, (addr, _) in enumerate(code)}
    found = []
    for i, (addr, ins) in enumerate(code):
        back = re.search(r"\bBRA(?:\.\w+)* (?:\w+, )?0x([0-9a-f]+)", ins)
        if back and int(back.group(1), 16) < addr and int(back.group(1), 16) in where:
            found.append([text for _, text in code[where[int(back.group(1), 16)]:i + 1]])
    return found


def loop_row(kernel: str, code: list[tuple[int, str]]) -> dict:
    """The kernel's counts (see the module's docstring); a loop not found gives empty fields."""
    count = lambda body, op: sum(re.search(rf"\b{op}\b", ins) is not None for ins in body)  # noqa: E731
    row = {"kernel": kernel, "sass": len(code)}
    bodies = loops(code)
    mma = [b for b in bodies if count(b, "HGMMA") or count(b, "HMMA")]
    copy = [b for b in bodies if count(b, "UBLKCP") and count(b, "SYNCS.PHASECHK.TRANS64.TRYWAIT")
            and not (count(b, "HGMMA") or count(b, "HMMA"))]
    for role, found in (("consumer", mma), ("producer", copy)):
        body = min(found, key=len) if found else None
        if body is None:
            row.update({f"{role}_loop": "", f"{role}_mma": "", f"{role}_copies": "", f"{role}_per_chunk": ""})
            continue
        hgmma, hmma, copies = count(body, "HGMMA"), count(body, "HMMA"), count(body, "UBLKCP")
        # chunks an iteration: 8 wgmmas a chunk; for the pipelined family's mma.sync (p{BM}_w{WN}_x{NW}) 8
        # m16n8k16 a chunk for each 8 rows of A and 16-row tile of B, BM * WN in all; other mma.sync
        # families are not counted per chunk; one refill a wait on a released stage for the producer
        if role == "producer":
            chunks = max(1, count(body, "SYNCS.PHASECHK.TRANS64.TRYWAIT"))
        elif hgmma:
            chunks = hgmma / 8
        else:
            tiling = re.search(r"_p(\d+)_w(\d+)_x\d+$", kernel)
            chunks = hmma / (int(tiling[1]) * int(tiling[2])) if tiling else None
        row.update({f"{role}_loop": len(body), f"{role}_mma": hgmma + hmma, f"{role}_copies": copies,
                    f"{role}_per_chunk": round(len(body) / chunks, 1) if chunks else ""})
    return row


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("kernels", nargs="*", help="kernel name suffixes (default: the wspec and pipelined tilings)")
    p.add_argument("--source", help="a version of csrc/mxfp4_mma_sm90.cu to compile instead of the library's")
    p.add_argument("--out", help="CSV to write the rows to")
    args = p.parse_args()
    if args.source:
        text = open(args.source, encoding="utf-8").read()
        G.mma_source = lambda: text
    suffixes = args.kernels or ([f"t{bm}_x{g}_k{kw}" for bm, g, kw, _ in G.MMA_WSPEC]
                                + [f"p{bm}_w{wn}_x{nw}" for bm, wn, nw in G.MMA_PIPELINED])
    cubin = G.mma_cubin()
    rows = [{"source": args.source or "library", **loop_row(f"mxfp4_mma_sm90_{s}", sass(cubin, f"mxfp4_mma_sm90_{s}"))}
            for s in suffixes]
    for r in rows:
        print("  ".join(f"{k}={v}" for k, v in r.items()))
    if args.out:
        write_csv_atomic(args.out, list(rows[0]), rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
