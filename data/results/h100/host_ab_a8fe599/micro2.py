"""Does the cluster launch attribute cost the host (or the GPU) anything when split_k = 1? Each benchmark shape's
planned mma_sm90 config launched by a copy of mma_launch with the attribute kept / dropped at split_k = 1."""
import ctypes, os, sys, time, statistics
sys.path.insert(0, os.getcwd())
import torch
from mxlib.runtime import dispatch
from mxlib.spec import shapes
from mxlib.spec.reference import generate_input, unpack_data
from mxlib.kernels import gemm_mma_sm90 as G
from mxlib.kernels.common import mx_queue_state

def launch(a, b, bs, c, cfg, cluster_attr):
    m, k = a.shape; n = b.shape[0]
    lib = G._mma_cuda(); ctx, mod, functions = G._mma_module(a.device.index)
    chunks = -(-k // 128); span = -(-chunks // cfg.split_k)
    rounds = span if cfg.num_stages > 1 else max(1, min(cfg.block_k // 128, span))
    smem = G.mma_smem_bytes(cfg, rounds); grid = G.mma_grid_dims(m, n, cfg); name = G.mma_kernel_name(cfg)
    queue = mx_queue_state(a.device)[0]
    attrs = [G._MmaLaunchAttr(id=4, x=1, y=1, z=cfg.split_k)] if cluster_attr or cfg.split_k > 1 else []
    with G._MmaContext(lib, ctx):
        fn = G._mma_function(lib, mod, functions, name, smem)
        if G.mma_launches(cfg) == 1:
            values = [ctypes.c_uint64(t.data_ptr()) for t in (a, b, bs, c)]
            values += [ctypes.c_int32(v) for v in (m, n, k, a.stride(0), bs.shape[1], rounds, 0)]
            G._mma_start(lib, fn, name, values, grid, 32 * cfg.num_warps, smem, queue, attrs)
            return
        kb_pad = G.mma_quant_blocks(k); rows = G.mma_quant_rows(m, cfg)
        a_q = torch.empty(rows * kb_pad * 64, dtype=torch.uint8, device=a.device)
        quant = G._mma_function(lib, mod, functions, G.MMA_QUANT_KERNEL, 0)
        values = [ctypes.c_uint64(a.data_ptr()), ctypes.c_uint64(a_q.data_ptr())]
        values += [ctypes.c_int32(v) for v in (m, k, a.stride(0), kb_pad, 0, cfg.wgmma, rows, cfg.block_m)]
        G._mma_start(lib, quant, G.MMA_QUANT_KERNEL, values, [-(-rows * kb_pad // 256), 1, 1], 256, 0, queue, [])
        values = [ctypes.c_uint64(t.data_ptr()) for t in (a_q, b, bs, c)]
        values += [ctypes.c_int32(v) for v in (m, n, k, kb_pad, bs.shape[1], cfg.num_stages)]
        threads = 32 * (cfg.num_warps + (cfg.wgmma == 2))
        G._mma_start(lib, fn, name, values, grid, threads, smem, queue, attrs + [G._MmaLaunchAttr(id=6, x=1)])

def host(fn, n=400):
    for _ in range(30): fn()
    xs = []
    for _ in range(n):
        torch.cuda.synchronize(); t0 = time.perf_counter_ns(); fn(); xs.append(time.perf_counter_ns() - t0)
    torch.cuda.synchronize()
    return statistics.median(xs) / 1e3

def gpu(fn, n=200):
    for _ in range(20): fn()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize(); s.record()
    for _ in range(n): fn()
    e.record(); torch.cuda.synchronize()
    return s.elapsed_time(e) * 1e3 / n

for sh in shapes.load("benchmark"):
    m, n, k = sh.mnk
    data = generate_input(m, n, k, sh.seed, device="cuda", rounding="rne")
    a, _, _, bsh, bss, _ = unpack_data(data)
    _, path, cfg = dispatch.plan(m, n, k, a.device, a_dtype=a.dtype)
    b, bs = bsh.view(torch.uint8), bss.view(torch.uint8)
    outs = {}
    for attr in (True, False):
        c = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device="cuda")
        launch(a, b, bs, c, cfg, attr); torch.cuda.synchronize(); outs[attr] = c
    same = torch.equal(outs[True], outs[False]) and not outs[False].isnan().any().item()
    row = []
    for rnd in range(2):
        for attr in (True, False):
            c = torch.empty((m, n), dtype=torch.bfloat16, device="cuda")
            row.append((attr, host(lambda: launch(a, b, bs, c, cfg, attr)), gpu(lambda: launch(a, b, bs, c, cfg, attr))))
    print(f"{m}x{n}x{k} split_k={cfg.split_k} launches={G.mma_launches(cfg)} identical={same} " +
          "  ".join(f"{'cl' if at else 'no'}: host {h:.2f} gpu {g:.2f}" for at, h, g in row), flush=True)
