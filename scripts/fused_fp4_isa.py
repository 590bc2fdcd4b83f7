#!/usr/bin/env python
"""The fused_fp4 kernel's tilings compiled offline (no GPU) for gfx950 or sm_90: per config, the matrix
instructions by name and count, registers, LDS, scratch, residency (mxlib.tools.occupancy) and, on gfx950,
the K loop's instruction mix. Each launch is recorded from `fused_fp4_gemm` on the shape's contest inputs
and compiled exactly as launched (mxlib.tools.isa), AMD options included.

  python scripts/fused_fp4_isa.py [--target gfx950|sm_90] [--shapes MxNxK,...]
      [--configs BM/BN/BK/SPLIT/WARPS/STAGES/WAVES/NONKDIM,...] [--out CSV]

`python -m mxlib isa --path fused_fp4` compiles the table's configs; this script compiles any tiling,
which is how data/results/mi355x/fused_fp4_tilings.csv (the data behind mxlib/data/configs/mi355x.csv)
was made.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from mxlib.tools import isa, occupancy  # noqa: E402
from mxlib.spec.shapes import parse_mnk  # noqa: E402
from mxlib.tools.files import write_csv_atomic  # noqa: E402

FIELDS = ("block_m", "block_n", "block_k", "split_k", "num_warps", "num_stages", "waves_per_eu", "matrix_instr_nonkdim")
CSV_FIELDS = ("target", "shape", *FIELDS, "grid_ctas", "vgprs", "agprs", "sgprs", "shared_bytes", "scratch_bytes",
              "spill_bytes", "occupancy", "ctas_per_unit", "limited_by", "mma", "loop_instrs", "loop_valu",
              "loop_mfma", "loop_lds", "loop_barriers", "triton", "date", "error")


def loop_ops(asm: str) -> list[str]:
    """Opcodes of the K loop in an AMDGCN listing: from the first inner-loop header label to the branch back."""
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


def compile_row(target: str, shape, data, cfg) -> dict:
    from mxlib.kernels import gemm_fused_fp4 as F

    a, _, _, b_shuffle, b_scale_sh = data
    (launch,) = isa.capture(lambda: F.gemm(a, b_shuffle, b_scale_sh, config=cfg), target)
    kernel, options, _ = isa.compile_launch(launch, target)
    meta = kernel.metadata
    row = dict(grid_ctas=F.grid(*shape, cfg), shared_bytes=meta.shared)
    if target == "gfx950":
        asm = kernel.asm["amdgcn"]
        facts = isa.amdgcn_facts(asm)
        res = occupancy.residency(occupancy.KernelResources("gfx950", meta.num_warps, facts["total_vgprs"],
                                                            facts["agprs"], meta.shared, facts["accum_offset"]))
        loop = loop_ops(asm)
        row.update(vgprs=facts["vgprs"], agprs=facts["agprs"], sgprs=facts["sgprs"], scratch_bytes=facts["scratch_bytes"],
                   spill_bytes=facts["scratch_bytes"], occupancy=facts["occupancy"], mma=facts["mma"],
                   loop_instrs=len(loop), loop_valu=sum(op.startswith("v_") and not op.startswith("v_mfma") for op in loop),
                   loop_mfma=sum(op.startswith("v_mfma") for op in loop), loop_lds=sum(op.startswith("ds_") for op in loop),
                   loop_barriers=loop.count("s_barrier"))
    else:
        facts = isa.cubin_facts(kernel)
        res = occupancy.residency(occupancy.KernelResources("sm_90", meta.num_warps, facts["vgprs"], 0, meta.shared))
        row.update(vgprs=facts["vgprs"], scratch_bytes=facts["scratch_bytes"], spill_bytes=facts["spill_bytes"],
                   mma=facts["mma"])
    row.update(ctas_per_unit=res.ctas, limited_by=res.limited_by)
    return row


def parse_configs(spec: str) -> list:
    from mxlib.kernels import gemm_fused_fp4 as F

    return [F.Config(**dict(zip(FIELDS, (int(v) for v in item.split("/"))))) for item in spec.split(",") if item]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--target", default="gfx950", choices=tuple(isa.TARGETS))
    p.add_argument("--shapes", default="16x2112x7168", help="comma list of MxNxK whose launches are compiled")
    p.add_argument("--configs", default="16/64/256/2/4/2", help="comma list of " + "/".join(FIELDS) + " (a prefix)")
    p.add_argument("--out", help="CSV to write")
    args = p.parse_args(argv)
    isa.prepare()
    from mxlib.spec.reference import generate_input

    stamp = isa._stamp()
    rows = []
    for text in args.shapes.split(","):
        shape = parse_mnk(text, "--shapes")
        data = generate_input(*shape, 0)
        for cfg in parse_configs(args.configs):
            t0 = time.time()
            row = dict(target=args.target, shape=text, **{f: getattr(cfg, f) for f in FIELDS}, **stamp)
            try:
                row.update(compile_row(args.target, shape, data, cfg))
            except Exception as exc:  # a config that does not compile is a row, not the end of the sweep
                row["error"] = f"{type(exc).__name__}: {(str(exc).splitlines() or [''])[0][:200]}"
            rows.append(row)
            print(" ".join(f"{k}={row[k]}" for k in CSV_FIELDS if row.get(k) not in (None, "")),
                  f"({time.time() - t0:.1f} s)", flush=True)
    if args.out:
        write_csv_atomic(args.out, CSV_FIELDS, ({k: ("" if r.get(k) is None else r[k]) for k in CSV_FIELDS} for r in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
