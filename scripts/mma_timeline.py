"""Where a "pipelined", "wgmma" or "wspec" mma_sm90 block's time goes: one call, timed from inside
(KERNEL_NOTES.md, "v4", "v5" and "v12").

    python3 scripts/mma_timeline.py M N K "block_m=64 block_n=64 block_k=128 split_k=2 num_warps=4 num_stages=3 warps_k=0" [--cache DIR] [--waits] [--flush read]

Builds a copy of the CUDA source with `%globaltimer` stamps (into a device array) at the block's start,
before and after `griddepcontrol.wait` (wspec: its producer warp's), after its first chunk (pipelined:
its MMAs done; wgmma: its wgmmas issued; wspec: its first chunk's B decoded and its A landed), after its K
loop (wgmma, wspec: every wgmma done) and after its store; thread 0 of each block stamps, except the
producer's two. wspec adds two: after the barrier that follows the mbarriers' setup, and the scales
landed (a consumer's wait on them). The quantizer's blocks stamp their start and their thread 0's last
store. Compiles it into a scratch cache (a fresh temporary folder, or --cache DIR to reuse one built
beforehand, e.g. on a machine without a GPU by `--build-only`; the library's own cubin is untouched),
makes three warm-up calls, writes 256 MiB to push the inputs out of L2 (`--flush read`: reads 256 MiB
written beforehand instead, so that L2 is left holding clean lines, not the write's dirty ones, which
every line the call writes must first evict to DRAM), keeps the GPU busy for about a
millisecond so that the quantizer and the GEMM are queued behind it and start as they would in a
contest call (the GEMM as the quantizer's programmatic dependent, not after the host's launch gap),
makes one call and prints, per stamp, the minimum, median and maximum over blocks in us from the first
quantizer block's start, and the median time of a later chunk. With `--waits` (wspec only, KERNEL_NOTES.md
"v14") it builds the kernels with `clock64` sums around the chunk loop's waits and decode instead (WAITS below)
and prints, per item, the minimum, median and maximum over blocks in cycles a chunk. Needs an sm_90 GPU and
nvcc.
"""
import argparse
import ctypes
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import torch  # noqa: E402

from mxlib.kernels import gemm_mma_sm90 as G  # noqa: E402
from mxlib.tools import mma_scratch  # noqa: E402
from mxlib.spec.reference import generate_input  # noqa: E402
from mxlib.tools.baselines.empty import launch_empty  # noqa: E402

STAMPS = ("start", "before wait", "after wait", "chunk0 done", "loop done", "stored", "set up", "scales in")
FAMILIES = ("pipelined", "wgmma", "wspec")
_HEADER = ("namespace {\n__device__ unsigned long long g_tl[8192 * 8];\n"
           "__device__ unsigned long long g_tq[8192 * 2];\n"
           "__device__ __forceinline__ unsigned long long gtime() {\n"
           "  unsigned long long t; asm volatile(\"mov.u64 %0, %globaltimer;\" : \"=l\"(t)); return t; }\n"
           "#define TLX(i) g_tl[(blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)) * 8 + (i)] = gtime();\n"
           "#define TL(i) if (threadIdx.x == 0) { TLX(i) }\n"
           "#define TQ(i) if (threadIdx.x == 0) g_tq[blockIdx.x * 2 + (i)] = gtime();\n")
# The quantizer's stamps: its start, and thread 0's last store of the wspec layout (order 2).
_QUANT = (("  asm volatile(\"griddepcontrol.launch_dependents;\");\n  const int i = blockIdx.x * 256 + threadIdx.x;",
           "TQ(0)", False),
          ("    }\n    return;\n  }\n  if (order) {", "TQ(1)", None))


def stamped_source(family: str = "pipelined") -> str:
    """The kernels' source with the stamps: for "pipelined" and "wgmma" six, around the wait in the ring's
    prologue (RingCopies, shared by both families) and the rest in the family's kernel; for "wspec" eight,
    all in mma_gemm_wspec (the wait is its producer's); plus the quantizer's two (fails loudly if an anchor
    moved)."""
    if family not in FAMILIES:
        raise SystemExit(f"mma_timeline: the stamps are in the families {', '.join(FAMILIES)}, not {family!r}")
    src = G.mma_source().replace("namespace {\n", _HEADER, 1)
    q = src.index("mxfp4_quant_a_sm90(const uint16_t")
    head, quant = src[:q], src[q:]
    for anchor, mark, before in _QUANT:
        if quant.count(anchor) != 1:
            raise SystemExit(f"mma_timeline: anchor not found in the quantizer: {anchor!r}")
        if before is None:  # inside the anchor: before its "return;"
            quant = quant.replace(anchor, anchor.replace("    return;", f"    {mark}\n    return;"), 1)
        else:
            quant = quant.replace(anchor, f"{anchor}\n  {mark}", 1)
    src = head + quant
    if family == "wspec":
        return _stamp_wspec(src)
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


def _edit_wspec(src: str, edits) -> str:
    """`src` with each (anchor, replacement) of `edits` applied once inside mma_gemm_wspec (fails loudly if an
    anchor is not there exactly once)."""
    start = src.index("mma_gemm_wspec(const uint8_t")
    end = src.index("}  // namespace", start)
    body = src[start:end]
    for anchor, new in edits:
        if body.count(anchor) != 1:
            raise SystemExit(f"mma_timeline: anchor not found in mma_gemm_wspec: {anchor!r}")
        body = body.replace(anchor, new, 1)
    return src[:start] + body + src[end:]


def _stamp_wspec(src: str) -> str:
    after = (("const int S = stages;", "TL(0)"),
             ("  for (int i = g_live * SP * 256 + tid; i < G32 * SP * 256; i += NT) s_sm[i] = 127;  // groups past N: "
              "scale 1\n  __syncthreads();", "TL(6)"),
             ("    mbar_wait(sbar, 0);", "  TL(7)"),
             ("      wgmma_wait_all();\n      wgmma_fence_acc<MT * 4>(acc);\n", "TL(4)"),
             ("reduce_store<BM, NR, NT, KW>(ct, C, tid, m0, n0, M, N, split, rank);", "TL(5)"))
    wait = "    grid_dependency_wait();\n    if (elect_one())\n      for (int i = 0; i < first; ++i) fill_a(i, i);"
    first = "      }\n      mbar_wait(bars + 8 * slot, phase);\n"
    return _edit_wspec(src, [(anchor, f"{anchor}\n  {mark}") for anchor, mark in after] + [
        # the producer's lane 0 around its wait; the first chunk: its B decoded and its A landed
        (wait, wait.replace("    grid_dependency_wait();",
                            "    if (lane == 0) { TLX(1) }\n    grid_dependency_wait();\n    if (lane == 0) { TLX(2) }")),
        (first, first + "      TL(3)\n")])


# --waits (wspec): clock64 cycles a CTA's thread 0 (a consumer of warpgroup 0) spends, over its chunks after
# its first, in the loop's waits for a stage ("full"), in `wgmma.wait_group 1` ("tensor") and decoding
# ("decode", the stage's reads included; over its chunks after the EARLY ones decoded before the loop),
# and in the whole loop from its first chunk's wait to its last wgmma done ("loop"; the rest of it is
# mostly issuing the wgmmas); and the producer's lane 0 in its waits for a released stage ("empty",
# chunks S and later).
WAITS = ("full", "tensor", "decode", "loop", "empty")
_WAIT_HEADER = ("__device__ long long g_tw[8192 * 5];\n"
                "#define TW_BLOCK (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z))\n"
                "#define TW(i, stmt) { const long long t_ = clock64(); stmt; tw[i] += clock64() - t_; }\n")


def waited_source() -> str:
    """The kernels' source with wspec's wait accounting (WAITS), no other stamps (fails loudly if an anchor moved)."""
    src = G.mma_source().replace("namespace {\n", "namespace {\n" + _WAIT_HEADER, 1)
    return _edit_wspec(src, (
        ("const int S = stages;", "const int S = stages;\n  long long tw[5] = {0, 0, 0, 0, 0};"),
        ("      mbar_wait(bars + 8 * (S + slot), parity);", "      TW(4, mbar_wait(bars + 8 * (S + slot), parity));"),
        ("          asm volatile(\"wgmma.wait_group.sync.aligned 1;\" ::: \"memory\");",
         "          TW(1, asm volatile(\"wgmma.wait_group.sync.aligned 1;\" ::: \"memory\"));"),
        ("          mbar_wait(bars + 8 * slot, phase);\n          if (decoded)\n            decoded = false;\n          else\n"
         "            wgmma_decode_chunk(next, b_sm + slot * B_STAGE, b_g, b_h, s_thr, c + KW, pair0, kb32, t);",
         "          TW(0, mbar_wait(bars + 8 * slot, phase));\n          if (decoded)\n            decoded = false;\n          else\n"
         "            TW(2, wgmma_decode_chunk(next, b_sm + slot * B_STAGE, b_g, b_h, s_thr, c + KW, pair0, kb32, t));"),
        ("reduce_store<BM, NR, NT, KW>(ct, C, tid, m0, n0, M, N, split, rank);",
         "reduce_store<BM, NR, NT, KW>(ct, C, tid, m0, n0, M, N, split, rank);\n"
         "  if (tid == 0) for (int i = 0; i < 4; ++i) g_tw[TW_BLOCK * 5 + i] = tw[i];\n"
         "  if (tid == NC * 32) g_tw[TW_BLOCK * 5 + 4] = tw[4];"),
        ("      mbar_wait(bfirst + 8 * kw, 0);", "      const long long loop0 = clock64();\n      mbar_wait(bfirst + 8 * kw, 0);"),
        ("      wgmma_wait_all();\n      wgmma_fence_acc<MT * 4>(acc);\n",
         "      wgmma_wait_all();\n      wgmma_fence_acc<MT * 4>(acc);\n      tw[3] = clock64() - loop0;\n")))


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("m", type=int)
    p.add_argument("n", type=int)
    p.add_argument("k", type=int)
    p.add_argument("config", help='the Config\'s fields, "key=value ..."')
    mma_scratch.add_arguments(p, "the stamped cubin")
    p.add_argument("--waits", action="store_true", help="wspec only: the loop's wait accounting (WAITS) instead of the stamps")
    p.add_argument("--flush", choices=("write", "read"), default="write",
                   help="push the inputs out of L2 by writing 256 MiB (as the contest's flush: L2 left holding dirty lines) "
                        "or by reading 256 MiB (clean lines)")
    p.add_argument("--launches", type=int, default=0,
                   help="empty one-program kernels launched after the flush, before the timed call (KERNEL_NOTES.md, "
                        "\"The between-block effect\": does the count of launches before a two-launch call set its state?)")
    args = p.parse_args()
    m, n, k = args.m, args.n, args.k
    if args.launches < 0:
        raise SystemExit(f"mma_timeline: --launches must be >= 0, got {args.launches}")
    cfg = G.Config(**{key: int(v) for key, v in (x.split("=") for x in args.config.split())})
    family = G.mma_family(cfg)
    if args.waits and family != "wspec":
        raise SystemExit("mma_timeline: --waits needs a wspec config (wgmma=2)")
    source = waited_source() if args.waits else stamped_source(family)
    if mma_scratch.use_source(source, args.cache, args.build_only, "mma_timeline"):  # never the real cache
        print(f"mma_timeline: {family} stamped cubin built into {args.cache}")
        return 0
    a, _, _, bs, ss = generate_input(m, n, k, 1, device="cuda")
    launch_empty()  # built and loaded here, not between the flush and the call; one launch more for every count
    for _ in range(3):
        G.gemm(a, bs, ss, config=cfg)
    # Two 256 MiB buffers, the second written last; then `flush` written again (L2 ends holding its dirty
    # lines, as after the contest's flush) or read (its clean lines evict the second buffer's dirty ones).
    flush, spare = (torch.ones(256 * 2**20 // 4, dtype=torch.int32, device="cuda") for _ in range(2))
    if args.flush == "read":
        flush.sum()
    else:
        flush.fill_(2)
    del spare
    for _ in range(args.launches):
        launch_empty()
    torch.cuda._sleep(2_000_000)  # about 1 ms of GPU time: both launches queue behind it
    G.gemm(a, bs, ss, config=cfg)
    torch.cuda.synchronize()
    lib, _, module, _ = mma_scratch.load()

    def read(array, count):  # a stamp array of the module, by its mangled name
        name = re.findall(rb"_Z\w*" + array + rb"\w*", G.mma_cubin())[0]
        ptr, size = ctypes.c_uint64(), ctypes.c_size_t()
        G._mma_check(lib, lib.cuModuleGetGlobal_v2(ctypes.byref(ptr), ctypes.byref(size), module, name), "cuModuleGetGlobal")
        buf = (ctypes.c_uint64 * count)()
        G._mma_check(lib, lib.cuMemcpyDtoH_v2(buf, ptr, size), "cuMemcpyDtoH")
        return buf

    blocks = G.mma_gemm_ctas(m, n, k, cfg)
    chunks = -(-k // 128) / cfg.split_k
    if args.waits:
        tw = read(b"g_tw", 8192 * 5)
        mine = chunks / max(1, cfg.warps_k)  # thread 0's warpgroup's chunks
        early = 2 if cfg.warps_k == 2 and 4 <= cfg.num_stages else 1  # chunks decoded before the loop (EARLY)
        per = {"loop": mine, "empty": max(1, chunks - cfg.num_stages), "decode": max(1, mine - early)}
        print(f"{m}x{n}x{k} {G.mma_kernel_name(cfg)} split_k={cfg.split_k} num_stages={cfg.num_stages}: {blocks} "
              f"blocks, clock64 cycles a chunk (WAITS in scripts/mma_timeline.py)")
        for j, what in enumerate(WAITS):
            v = [tw[i * 5 + j] / max(1, per.get(what, mine - 1)) for i in range(blocks)]
            print(f"{what:7s} min {min(v):7.0f} med {statistics.median(v):7.0f} max {max(v):7.0f}")
        return 0
    buf, tq = read(b"g_tl", 8192 * 8), read(b"g_tq", 8192 * 2)
    rows = [[buf[i * 8 + j] for j in range(len(STAMPS))] for i in range(blocks)]
    quant = [(tq[2 * i], tq[2 * i + 1]) for i in range(8192) if tq[2 * i]]
    t0 = min([r[0] for r in rows] + [q[0] for q in quant])
    print(f"{m}x{n}x{k} {G.mma_kernel_name(cfg)} split_k={cfg.split_k} num_stages={cfg.num_stages}: {blocks} blocks"
          f" (quantizer: {len(quant)} blocks)")
    # A stamp the family does not have (wspec's last two; the quantizer's store outside order 2) stays 0.
    columns = [(what, [q[j] for q in quant]) for j, what in enumerate(("quant start", "quant stored"))]
    columns += [(what, [r[j] for r in rows]) for j, what in enumerate(STAMPS)]
    for what, stamps in columns:
        if stamps and all(stamps):
            v = [(x - t0) / 1000 for x in stamps]
            print(f"{what:12s} min {min(v):6.2f} med {statistics.median(v):6.2f} max {max(v):6.2f} us")
    print("per later chunk, median over blocks:",
          round(statistics.median([(r[4] - r[3]) / 1000 / max(1, chunks - 1) for r in rows]), 3), "us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
