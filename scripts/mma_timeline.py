"""Where a "pipelined" or "wgmma" mma_sm90 block's time goes: one call, timed from inside (KERNEL_NOTES.md,
"v4" and "v5").

    python3 scripts/mma_timeline.py M N K "block_m=64 block_n=64 block_k=128 split_k=2 num_warps=4 num_stages=3 warps_k=0"

Builds a copy of the CUDA source with `%globaltimer` stamps (thread 0 of each block, into a device array)
at the block's start, before and after `griddepcontrol.wait`, after its first chunk (pipelined: its
MMAs done; wgmma: its wgmmas issued), after its K loop (wgmma: every wgmma done) and after its store; compiles it into a scratch cache (the library's own cubin is untouched), makes three
warm-up calls, writes 256 MiB to push the inputs out of L2, makes one call and prints, per stamp, the
minimum, median and maximum over blocks in us from the first block's start, and the median time of a
later chunk. Needs an sm_90 GPU and nvcc.
"""
import ctypes
import os
import re
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import torch  # noqa: E402

from mxlib.kernels import gemm_mma_sm90 as G  # noqa: E402
from mxlib.spec.reference import generate_input  # noqa: E402

STAMPS = ("start", "before wait", "after wait", "chunk0 done", "loop done", "stored")


def stamped_source(family: str = "pipelined") -> str:
    """The kernels' source with the six stamps: around the wait in the ring's prologue (RingCopies, shared
    by both families), the rest in the family's kernel, mma_gemm_pipelined or mma_gemm_wgmma (fails loudly
    if an anchor moved)."""
    src = G.mma_source()
    header = ("namespace {\n__device__ unsigned long long g_tl[8192 * 8];\n"
              "__device__ __forceinline__ unsigned long long gtime() {\n"
              "  unsigned long long t; asm volatile(\"mov.u64 %0, %globaltimer;\" : \"=l\"(t)); return t; }\n"
              "#define TL(i) if (threadIdx.x == 0) "
              "g_tl[(blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)) * 8 + (i)] = gtime();\n")
    src = src.replace("namespace {\n", header, 1)
    ring = src.index("struct RingCopies")
    start = src.index(f"mma_gemm_{family}(const uint8_t")
    end = next((i for i in (src.find("\ntemplate <", start), src.find("}  // namespace", start)) if i > 0))
    parts = [src[:ring], src[ring:start], src[start:end], src[end:]]

    def stamp(part, anchor, mark, before):
        if anchor not in parts[part]:
            raise SystemExit(f"mma_timeline: anchor not found in the source: {anchor!r}")
        parts[part] = parts[part].replace(anchor, f"{mark}\n  {anchor}" if before else f"{anchor}\n  {mark}", 1)

    stamp(1, "  grid_dependency_wait();", "TL(1)", True)
    stamp(1, "  grid_dependency_wait();", "TL(2)", False)
    for anchor, mark, before in (("const int S = stages;", "TL(0)", False),
                                 ("    slot = slot + 1 == S ? 0 : slot + 1;", "  if (c == c_begin) { TL(3) }", False),
                                 ("  cp_async_wait<0>();\n  __syncthreads();\n  float* ct", "TL(4)", True),
                                 ("reduce_store<BM, NR, NT, 1>(ct, C, tid, m0, n0, M, N, split, rank);", "TL(5)", False)):
        stamp(2, anchor, mark, before)
    return "".join(parts)


def main() -> int:
    m, n, k = map(int, sys.argv[1:4])
    cfg = G.Config(**{key: int(v) for key, v in (x.split("=") for x in sys.argv[4].split())})
    family = G.mma_family(cfg)
    if family not in ("pipelined", "wgmma"):
        raise SystemExit("mma_timeline: the stamps are in the families pipelined and wgmma (num_stages >= 2, warps_k = 0)")
    os.environ["MXLIB_CACHE_DIR"] = tempfile.mkdtemp()  # the stamped cubin must not land in the real cache
    source = stamped_source(family)
    G.mma_source = lambda: source
    a, _, _, bs, ss = generate_input(m, n, k, 1, device="cuda")
    for _ in range(3):
        G.gemm(a, bs, ss, config=cfg)
    torch.empty(256 * 2**20, dtype=torch.uint8, device="cuda").fill_(1)
    G.gemm(a, bs, ss, config=cfg)
    torch.cuda.synchronize()
    lib = G._mma_cuda()
    _, module, _ = G._mma_module(torch.cuda.current_device())
    name = re.findall(rb"_Z\w*g_tl\w*", G.mma_cubin())[0]  # the array's mangled name
    ptr, size = ctypes.c_uint64(), ctypes.c_size_t()
    G._mma_check(lib, lib.cuModuleGetGlobal_v2(ctypes.byref(ptr), ctypes.byref(size), module, name), "cuModuleGetGlobal")
    buf = (ctypes.c_uint64 * (8192 * 8))()
    G._mma_check(lib, lib.cuMemcpyDtoH_v2(buf, ptr, size), "cuMemcpyDtoH")
    blocks = G.grid(m, n, k, cfg)
    rows = [[buf[i * 8 + j] for j in range(len(STAMPS))] for i in range(blocks)]
    t0 = min(r[0] for r in rows)
    print(f"{m}x{n}x{k} {G.mma_kernel_name(cfg)} split_k={cfg.split_k} num_stages={cfg.num_stages}: {blocks} blocks")
    for j, what in enumerate(STAMPS):
        v = [(r[j] - t0) / 1000 for r in rows]
        print(f"{what:12s} min {min(v):6.2f} med {statistics.median(v):6.2f} max {max(v):6.2f} us")
    chunks = -(-k // 128) / cfg.split_k
    print("per later chunk, median over blocks:",
          round(statistics.median([(r[4] - r[3]) / 1000 / max(1, chunks - 1) for r in rows]), 3), "us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
