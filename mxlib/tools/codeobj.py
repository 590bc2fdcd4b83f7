"""Resources of a compiled AMD GPU kernel read from its code object's metadata, with no GPU and no
disassembler: what `llvm-readelf --notes` prints from the NT_AMDGPU_METADATA note (the kernel's LDS
bytes, VGPRs and SGPRs, workgroup size, wavefront size, scratch).

This is how the workbook knows the resources of aiter's hand-written ASM GEMMs (binary ``.co`` files in
ROCm/aiter's ``hsa/gfx950/f4gemm/``), whose source is not public: `scripts/aiter_asm_metadata.py` runs
`llvm-readelf` on each and writes data/results/mi355x/aiter_asm_kernels.csv; `parse_notes` turns the
printed text into numbers and `residency` into CTAs per CU (`mxlib.tools.occupancy.residency`).
"""
from __future__ import annotations

import re

from .occupancy import KernelResources, residency as _residency

FIELDS = {  # metadata key -> column
    ".name": "kernel",
    ".group_segment_fixed_size": "lds_bytes",
    ".private_segment_fixed_size": "scratch_bytes",
    ".vgpr_count": "vgprs",
    ".agpr_count": "agprs",
    ".sgpr_count": "sgprs",
    ".max_flat_workgroup_size": "workgroup_threads",
    ".wavefront_size": "wavefront",
}


def parse_notes(text: str) -> list[dict]:
    """One dict per kernel in `llvm-readelf --notes` output: the FIELDS columns (ints, the name a str;
    agprs 0 when the note has none). A kernel's entry starts at a 2-space-indented ``- `` under
    ``amdhsa.kernels:``; its own keys are the 4-space-indented ones (argument entries sit deeper)."""
    kernels, current, inside = [], None, False
    for line in text.splitlines():
        if line and not line.startswith(" "):  # a top-level key: the kernel list, or what follows it
            inside, current = line.startswith("amdhsa.kernels:"), None
            continue
        if inside and line.startswith("  - "):
            current = {}
            kernels.append(current)
            line = "    " + line[4:]
        found = re.match(r"^    (\.\w+):\s*(\S+)\s*$", line)
        if current is not None and found and found.group(1) in FIELDS:
            key, value = FIELDS[found.group(1)], found.group(2)
            current[key] = value if key == "kernel" else int(value)
    for k in kernels:
        k.setdefault("agprs", 0)
        missing = [c for c in FIELDS.values() if c not in k]
        if missing:
            raise ValueError(f"the metadata of {k.get('kernel')!r} has no {', '.join(missing)}")
    return kernels


def residency(row: dict):
    """CTAs (workgroups) of one kernel resident per gfx950 CU, from a `parse_notes` row (VGPRs and AGPRs
    share one file of 512 per lane on gfx950: LLVM AMDGPUUsage, as `mxlib.spec.devices.UNIT_LIMITS` cites)."""
    waves = -(-int(row["workgroup_threads"]) // int(row["wavefront"]))
    vgprs, agprs = int(row["vgprs"]), int(row["agprs"])
    total = vgprs if not agprs else -(-vgprs // 4) * 4 + agprs  # one file: AGPRs after the arch VGPRs (rounded to 4)
    return _residency(KernelResources("gfx950", waves, total, agprs, int(row["lds_bytes"])))
