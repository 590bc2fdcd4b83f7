# wspec with two warpgroups along K at odd ring depths (the Config rule of 29b4a01, before they were refused):
# each config run R times against the same shape's 4-stage output (every warps_k=2 depth sums in one order).
import sys
import torch
import mxlib
from mxlib.kernels import gemm_mma_sm90 as G
from mxlib.spec.reference import generate_input, check_implementation
print("mxlib from", mxlib.__file__, flush=True)
R = int(sys.argv[1])
def cfg(s, kw, bm):
    return G.Config(block_m=bm, block_n=64, block_k=128, num_warps=4 * max(1, kw), warps_k=kw, num_stages=s, wgmma=2)
for m, n, k, bm in ((64, 16384, 4096, 64), (40, 2048, 512, 32)):
    d = generate_input(m, n, k, 1, device="cuda")
    a, _, _, b, sc = d
    def run(c):
        o = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device="cuda")
        G.gemm(a, b, sc, config=c, out=o)
        return o
    ref = {kw: run(cfg(4, kw, bm)) for kw in (0, 2)}
    for s, kw in ((3, 2), (5, 2), (7, 2), (4, 2), (6, 2), (8, 2), (3, 0), (5, 0)):
        bad, fails = 0, 0
        for _ in range(R):
            o = run(cfg(s, kw, bm))
            bad += not torch.equal(o, ref[kw])
            fails += not check_implementation(d, o)[0]
        torch.cuda.synchronize()
        print(f"{m}x{n}x{k} block_m={bm} num_stages={s} warps_k={kw}: differs from 4 stages {bad}/{R}, "
              f"fails check_implementation {fails}/{R}", flush=True)
