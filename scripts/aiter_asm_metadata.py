#!/usr/bin/env python
"""The resources of aiter's gfx950 MXFP4 ASM GEMMs (`gemm_a4w4_asm`'s kernels), read from their code objects'
metadata with `llvm-readelf --notes` (no GPU, no disassembler: LLVM 14's readelf reads the note, while
disassembling gfx950 needs a newer LLVM), into data/results/mi355x/aiter_asm_kernels.csv.

  python scripts/aiter_asm_metadata.py --aiter GIT_DIR [--commit 741f0b89f1] [--out CSV]

GIT_DIR is a clone of ROCm/aiter (its .git folder or work tree); the kernels are those of the commit's
hsa/gfx950/f4gemm/f4gemm_bf16_per1x32Fp4.csv with bpreshuffle = 1 (what the seed's calls can run).
"""
from __future__ import annotations

import argparse
import csv
import datetime
import io
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from mxlib.tools import codeobj  # noqa: E402
from mxlib.tools.files import write_csv_atomic  # noqa: E402
from mxlib.tools.repo import RESULTS_DIR  # noqa: E402

KERNEL_LIST = "hsa/gfx950/f4gemm/f4gemm_bf16_per1x32Fp4.csv"
COLUMNS = ("kernel", "tile_m", "tile_n", "split_k", "lds_bytes", "vgprs", "agprs", "sgprs", "workgroup_threads",
           "wavefront", "scratch_bytes", "ctas_per_cu", "limited_by", "co_file", "aiter_commit", "tool", "date")


def git(repo: str, *args: str, binary: bool = False):
    out = subprocess.run(["git", "-C", repo, *args], capture_output=True, check=True)
    return out.stdout if binary else out.stdout.decode()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--aiter", required=True, help="a clone of ROCm/aiter (git dir or work tree)")
    p.add_argument("--commit", default="741f0b89f1",
                   help="the aiter commit (default: 741f0b89f1, the 0.1.10 line; hsa/gfx950/f4gemm/ is unchanged "
                        "through f3be04a12a)")
    p.add_argument("--out", default=str(RESULTS_DIR / "mi355x" / "aiter_asm_kernels.csv"))
    args = p.parse_args(argv)
    commit = git(args.aiter, "rev-parse", args.commit).strip()
    tool = subprocess.run(["llvm-readelf", "--version"], capture_output=True, text=True, check=True).stdout
    tool = next(line.strip() for line in tool.splitlines() if "version" in line)
    rows = []
    for entry in csv.DictReader(io.StringIO(git(args.aiter, "show", f"{commit}:{KERNEL_LIST}"))):
        if entry["bpreshuffle"] != "1":
            continue
        co = f"hsa/gfx950/f4gemm/{entry['co_name']}"
        with tempfile.NamedTemporaryFile(suffix=".co") as f:
            f.write(git(args.aiter, "show", f"{commit}:{co}", binary=True))
            f.flush()
            notes = subprocess.run(["llvm-readelf", "--notes", f.name], capture_output=True, text=True, check=True).stdout
        (meta,) = codeobj.parse_notes(notes)
        if meta["kernel"] != entry["knl_name"]:
            raise SystemExit(f"{co} holds {meta['kernel']}, the kernel list says {entry['knl_name']}")
        res = codeobj.residency(meta)
        rows.append(dict(meta, tile_m=entry["tile_M"], tile_n=entry["tile_N"], split_k=entry["splitK"],
                         ctas_per_cu=res.ctas, limited_by=res.limited_by, co_file=co, aiter_commit=commit[:10],
                         tool=tool, date=datetime.date.today().isoformat()))
    out = Path(args.out)
    write_csv_atomic(out, COLUMNS, rows)
    print(f"wrote {out} ({len(rows)} kernels)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
