"""Every compiled mma_sm90 tiling once on a small shape (K % 128 == 64, a split of 2, an M tail):
meant to run under compute-sanitizer (scripts/h200_mma.sh), so a bad access names its kernel."""
import dataclasses
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import torch  # noqa: E402

from mxlib.kernels import gemm_mma_sm90 as G  # noqa: E402
from mxlib.spec.reference import check_implementation, generate_input  # noqa: E402

bad = 0
for tiling in G.mma_tilings():
    cfg = dataclasses.replace(tiling, split_k=2, **({"block_k": 256} if tiling.num_stages == 1 else {}))
    bm, bn = cfg.block_m, cfg.block_n
    data = generate_input(bm + 3, 2 * bn + 16, 576, 7, device="cuda")
    a, _, _, b, s = data
    out = torch.full((a.shape[0], b.shape[0]), float("nan"), dtype=torch.bfloat16, device="cuda")
    G.gemm(a, b, s, config=cfg, out=out)
    torch.cuda.synchronize()
    ok, msg = check_implementation(data, out)
    bad += not ok
    print(f"{G.mma_kernel_name(cfg)}: {'ok' if ok else 'FAIL ' + msg[:200]}", flush=True)
sys.exit(1 if bad else 0)
