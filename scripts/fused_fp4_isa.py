#!/usr/bin/env python
"""What the compiler makes of the fused_fp4 kernel, offline (no GPU): for each config, the MFMA/MMA
instructions by name and count, VGPRs/AGPRs/SGPRs, LDS, scratch, occupancy (waves per SIMD) and the
K loop's instruction mix, compiled exactly as `fused_fp4_gemm` would launch it on a shape.

  python scripts/fused_fp4_isa.py [--target gfx950|sm_90] [--shape M,N,K]
      [--configs BM/BN/BK/SPLIT/WARPS/STAGES/WAVES/NONKDIM,...] [--out CSV] [--dump DIR]

A local stand-in for `python -m mxlib isa` until that tool covers this kernel.
"""
from __future__ import annotations

import argparse
import collections
import csv
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

import triton  # noqa: E402

from mxlib.kernels.gemm_fused_fp4 import Config, fused_fp4_compile  # noqa: E402

FIELDS = ("block_m", "block_n", "block_k", "split_k", "num_warps", "num_stages", "waves_per_eu", "matrix_instr_nonkdim")


def amd_facts(asm: str) -> dict:
    """Resources and instruction counts read from AMDGCN assembly."""
    def num(key):
        m = re.search(rf"^\s*; {key}:\s*(\d+)", asm, re.M)
        return int(m.group(1)) if m else None
    ops = [ln.split()[0] for ln in asm.splitlines() if ln.startswith("\t") and ln.strip() and not ln.strip().startswith((".", ";"))]
    mfma = collections.Counter(op for op in ops if op.startswith("v_mfma"))
    loop = loop_ops(asm)
    return dict(mfma=" ".join(f"{k}:{v}" for k, v in sorted(mfma.items())), vgprs=num("NumVgprs"), agprs=num("NumAgprs"),
                sgprs=num("TotalNumSgprs"), scratch=num("ScratchSize"), occupancy=num("Occupancy"), instrs=len(ops),
                loop_instrs=len(loop), loop_valu=sum(op.startswith("v_") and not op.startswith("v_mfma") for op in loop),
                loop_mfma=sum(op.startswith("v_mfma") for op in loop), loop_vmem=sum(op.startswith(("buffer_load", "global_load")) for op in loop),
                loop_lds=sum(op.startswith("ds_") for op in loop), loop_barriers=loop.count("s_barrier"))


def loop_ops(asm: str) -> list[str]:
    """Opcodes of the K loop: from the first inner-loop header label to the branch back to it."""
    lines = asm.splitlines()
    for i, ln in enumerate(lines):
        if ln.startswith(".") and "Inner Loop Header" in ln:
            label, ops = ln.split(":")[0], []
            for ln2 in lines[i + 1:]:
                t = ln2.strip()
                if ln2.startswith("\t") and t and not t.startswith((".", ";")):
                    ops.append(t.split()[0])
                    if t.startswith("s_cbranch") and t.endswith(label):
                        return ops
    return []


def nvidia_facts(cc) -> dict:
    ptx = cc.asm["ptx"]
    mma = collections.Counter(re.findall(r"\b((?:wgmma|mma)\.[\w.]+)", ptx))
    regs = re.search(r"\.maxnreg\s+(\d+)", ptx)
    return dict(mfma=" ".join(f"{k}:{v}" for k, v in sorted(mma.items())), vgprs=cc.metadata.__dict__.get("n_regs"),
                scratch=cc.metadata.__dict__.get("n_spills"), instrs=len(ptx.splitlines()),
                maxnreg=int(regs.group(1)) if regs else None)


def parse_configs(spec: str) -> list[Config]:
    out = []
    for item in spec.split(","):
        vals = [int(v) for v in item.split("/")]
        out.append(Config(**dict(zip(FIELDS, vals))))
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--target", default="gfx950", choices=("gfx950", "sm_90"))
    p.add_argument("--shape", default="16,2112,7168", help="M,N,K whose launch is compiled (default 16,2112,7168)")
    p.add_argument("--configs", default="16/64/256/2/4/2", help="comma list of " + "/".join(FIELDS) + " (a prefix)")
    p.add_argument("--rounding", default="rne", choices=("rne", "ties_away"))
    p.add_argument("--out", help="CSV to write")
    p.add_argument("--dump", help="directory for each config's assembly")
    args = p.parse_args(argv)
    m, n, k = (int(v) for v in args.shape.split(","))
    rows = []
    for cfg in parse_configs(args.configs):
        t0 = time.time()
        row = dict(target=args.target, m=m, n=n, k=k, **{f: getattr(cfg, f) for f in FIELDS})
        try:
            cc = fused_fp4_compile(m, n, k, cfg, target=args.target, rounding=args.rounding)
            row.update(amd_facts(cc.asm["amdgcn"]) if args.target == "gfx950" else nvidia_facts(cc))
            row["lds"] = cc.metadata.shared
            if args.dump:
                d = Path(args.dump)
                d.mkdir(parents=True, exist_ok=True)
                name = "_".join(str(getattr(cfg, f)) for f in FIELDS)
                for kind, text in cc.asm.items():
                    if isinstance(text, str):
                        (d / f"{args.target}_{name}.{kind}").write_text(text)
        except Exception as exc:  # a config that does not compile is a row, not the end of the sweep
            row["error"] = f"{type(exc).__name__}: {(str(exc).splitlines() or [''])[0][:200]}"
        row["compile_s"] = round(time.time() - t0, 1)
        row["triton"] = triton.__version__
        rows.append(row)
        print(" ".join(f"{key}={v}" for key, v in row.items()), flush=True)
    if args.out:
        keys = list(dict.fromkeys(key for r in rows for key in r))
        with open(args.out, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=keys)
            w.writeheader()
            w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
