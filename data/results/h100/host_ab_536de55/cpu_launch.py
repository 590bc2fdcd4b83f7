"""mma_launch's host cost with a driver that does nothing (libc's sched_yield stands for every driver call), the
tree before (1419881) against the tree after (536de55), on a CPU with no GPU. Run from a checkout of 536de55:

    git show 1419881:mxlib/kernels/gemm_mma_sm90.py > /tmp/old_mma.py
    .venv/bin/python data/results/h100/host_ab_536de55/cpu_launch.py

Written and run before the device call of this folder (the estimate in KERNEL_NOTES.md, "third pass")."""
import ctypes, timeit, sys, os, importlib.util, types
sys.path.insert(0, os.getcwd())
import torch
import mxlib.kernels.gemm_mma_sm90 as NEW
spec = importlib.util.spec_from_file_location("mxlib.kernels.old_mma", "/tmp/old_mma.py")
OLD = importlib.util.module_from_spec(spec); sys.modules[spec.name] = OLD; spec.loader.exec_module(OLD)
libc = ctypes.CDLL(None)
noop = libc.sched_yield
lib = types.SimpleNamespace(**{n: noop for n in ("cuLaunchKernelEx", "cuCtxGetCurrent", "cuCtxSetCurrent",
                                                   "cuModuleGetFunction", "cuFuncSetAttribute", "cuGetErrorName")})
for G in (NEW, OLD):
    G._MMA_STATE["cuda"] = lib
    G._MMA_STATE[None] = (ctypes.c_void_p(), ctypes.c_void_p(), {})
cfg1 = NEW.MmaConfig(block_m=16, block_n=64, block_k=512, split_k=1, num_warps=8, num_stages=1, warps_k=2, wgmma=0)
cfg2 = NEW.MmaConfig(block_m=128, block_n=64, block_k=128, split_k=1, num_warps=4, num_stages=4, warps_k=0, wgmma=2)
for name, (m, n, k), cfg in (("one launch", (32, 2880, 512), cfg1), ("two launches", (256, 3072, 1536), cfg2)):
    a = torch.zeros(m, k, dtype=torch.bfloat16); b = torch.zeros(n, k // 2, dtype=torch.uint8)
    bs = torch.zeros(n, k // 32, dtype=torch.uint8); c = torch.zeros(m, n, dtype=torch.bfloat16)
    for G in (OLD, NEW):
        c2 = G.MmaConfig(**{f: getattr(cfg, f) for f in ("block_m", "block_n", "block_k", "split_k", "num_warps", "num_stages", "warps_k", "wgmma")})
        f = lambda: G.mma_launch(a, b, bs, c, c2, False)
        t = min(timeit.repeat(f, number=3000, repeat=5)) / 3000 * 1e6
        print(f"{name:13s} {'old' if G is OLD else 'new'} {t:6.2f} us")
import cProfile, pstats
m, n, k = 256, 3072, 1536
a = torch.zeros(m, k, dtype=torch.bfloat16); b = torch.zeros(n, k // 2, dtype=torch.uint8)
bs = torch.zeros(n, k // 32, dtype=torch.uint8); c = torch.zeros(m, n, dtype=torch.bfloat16)
pr = cProfile.Profile(); pr.enable()
for _ in range(3000): NEW.mma_launch(a, b, bs, c, cfg2, False)
pr.disable(); pstats.Stats(pr).sort_stats("tottime").print_stats(14)
