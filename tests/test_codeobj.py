"""mxlib.tools.codeobj: kernel resources from `llvm-readelf --notes` text, and the committed table of aiter's
ASM GEMMs read with it."""
import csv

import pytest

from mxlib.tools import codeobj
from mxlib.tools.repo import RESULTS_DIR

NOTES = """\
Displaying notes found in: .note
  Owner                Data size \tDescription
  AMDGPU               0x0000180b\tNT_AMDGPU_METADATA (AMDGPU Metadata)
    AMDGPU Metadata:
        ---
amdhsa.kernels:
  - .args:
      - .actual_access:  read_write
        .name:           D
        .offset:         0
        .size:           8
    .group_segment_fixed_size: 163840
    .kernarg_segment_align: 4
    .max_flat_workgroup_size: 256
    .name:           _ZN5aiter41f4gemm_bf16_per1x32Fp4_BpreShuffle_32x128E
    .private_segment_fixed_size: 0
    .reqd_workgroup_size:
      - 256
      - 1
      - 1
    .sgpr_count:     96
    .vgpr_count:     512
    .wavefront_size: 64
  - .args:           []
    .group_segment_fixed_size: 8192
    .max_flat_workgroup_size: 512
    .name:           k2
    .private_segment_fixed_size: 16
    .sgpr_count:     20
    .vgpr_count:     64
    .agpr_count:     8
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 0
...
"""


def test_parse_notes_reads_each_kernel():
    a, b = codeobj.parse_notes(NOTES)
    assert a == dict(kernel="_ZN5aiter41f4gemm_bf16_per1x32Fp4_BpreShuffle_32x128E", lds_bytes=163840, scratch_bytes=0,
                     vgprs=512, agprs=0, sgprs=96, workgroup_threads=256, wavefront=64)
    assert (b["kernel"], b["lds_bytes"], b["agprs"], b["scratch_bytes"]) == ("k2", 8192, 8, 16)
    assert codeobj.residency(a).ctas == 1  # all 512 VGPRs and all 160 KiB of LDS: one workgroup per CU
    assert codeobj.residency(b).ctas == 3  # 64 + 8 AGPRs: 7 waves per SIMD, 2 per CTA; 8 KiB LDS would allow 20


def test_parse_notes_refuses_incomplete_metadata():
    with pytest.raises(ValueError, match="has no lds_bytes"):
        codeobj.parse_notes("amdhsa.kernels:\n  - .name:           k\n    .vgpr_count: 4\n")


def test_committed_aiter_asm_table():
    with open(RESULTS_DIR / "mi355x" / "aiter_asm_kernels.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    tiles = {(int(r["tile_m"]), int(r["tile_n"])) for r in rows}
    assert {(32, 128), (192, 128), (64, 128)} <= tiles  # the tiles the seed's calls run (mxlib.spec.seed)
    for r in rows:
        assert r["kernel"].endswith(f"_{r['tile_m']}x{r['tile_n']}E") and r["aiter_commit"] == "741f0b89f1"
        assert int(r["ctas_per_cu"]) >= 1
