"""A's quantizer of the CUDA path (`mxfp4_quant_a_sm90`) timed alone, one store layout against another:
order 1 (the wgmma family's: each thread stores its 32-value block as sixteen 4-byte words) and order 2
(the wspec family's: the four threads of a quad trade words through shared memory and each stores four
whole 16-byte pieces), on the shapes whose H200 table rows use a ring family (KERNEL_NOTES.md, "v6d").

    python3 scripts/mma_quant_timing.py [--iters 50]

Contest-style (L2 flushed, events around the one launch), one CSV row per shape and order on stdout,
with device, versions and date. Needs an sm_90 GPU and nvcc; the outputs are not checked here (the
probe's checks and the GEMM tests do that through the GEMMs).
"""
import argparse
import csv
import ctypes
import datetime
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import torch  # noqa: E402

from mxlib.kernels import gemm_mma_sm90 as G  # noqa: E402
from mxlib.tools.timing import L2Flush, time_contest  # noqa: E402

SHAPES = ((16, 7168, 16), (64, 2048, 64), (256, 1536, 128))  # (M, K, the table's block_m)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--iters", type=int, default=50)
    args = p.parse_args()
    lib = G._mma_cuda()
    ctx, mod, functions = G._mma_module(torch.cuda.current_device())
    flush = L2Flush()
    out = csv.writer(sys.stdout)
    out.writerow(["m", "k", "order", "median_us", "mean_us", "device", "torch", "date"])
    for m, k, tile_m in SHAPES:
        a = torch.randn((m, k), device="cuda").to(torch.bfloat16)
        kb_pad = 4 * -(-k // G.MMA_CHUNK_K)
        rows = -(-m // tile_m) * tile_m
        a_q = torch.empty(rows * kb_pad * 64, dtype=torch.uint8, device="cuda")
        for order in (1, 2):
            def call(order=order):
                with G._MmaContext(lib, ctx):
                    quant = G._mma_function(lib, mod, functions, G.MMA_QUANT_KERNEL, 0)
                    values = [ctypes.c_uint64(a.data_ptr()), ctypes.c_uint64(a_q.data_ptr())]
                    values += [ctypes.c_int32(v) for v in (m, k, a.stride(0), kb_pad, 0, order, rows, tile_m)]
                    G._mma_start(lib, quant, G.MMA_QUANT_KERNEL, values, [-(-rows * kb_pad // 256), 1, 1], 256, 0,
                                 G._mma_queue(a.device), [])
            t = time_contest(call, iters=args.iters, warmup=3, flush=flush)
            out.writerow([m, k, order, round(t["median_us"], 3), round(t["mean_us"], 3), torch.cuda.get_device_name(),
                          torch.__version__, datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")])
    return 0


if __name__ == "__main__":
    sys.exit(main())
