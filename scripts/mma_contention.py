"""What overlaps with a warpgroup MMA on the H200: does a wgmma with its A operand in registers (RS) keep other
arithmetic from issuing, and one reading both operands from shared memory (SS) not? What does the wspec
consumer's own chain cost? The measurement behind KERNEL_NOTES.md "v14".

    python3 scripts/mma_contention.py [--cache DIR] [--build-only] [--iters N]

One CTA per SM, two warpgroups (and in the "ring" modes a ninth warp). Warpgroup 0 runs N chunks of the wspec
family's MMA work (the library's `wgmma_chunk<64>`: 8 wgmma m64n64k16 as one commit group, then
`wait_group 1`) with A in registers ("rs") or both operands in shared memory ("ss"). "dec" is the decode's
arithmetic of a chunk (the library's `decode_word` and bf16 multiplies on register data: its shifts, LOP3s
and HMUL2s), in warpgroup 1 ("rs+dec", "ss+dec": side by side) or in warpgroup 0 after each chunk's wgmmas
("/1wg"). "chunkdecode" is the wspec consumer's own decode (`wgmma_decode_chunk`: the stage's words and scale
bytes read from shared memory, into the fragment set the next chunk's wgmmas read). "ring": the ninth warp
streams bulk copies into shared memory, 20 KiB at a time, until warpgroup 0 is done. Each warpgroup's thread
0 stamps `clock64` around its loop; the script prints the median over CTAs in cycles a chunk per mode and
warpgroup, and the bytes streamed a chunk. One kernel per mode (`MODES`), built from the library's source
(`csrc/mxfp4_mma_sm90.cu`) plus the ones below into a scratch cache. Needs an sm_90 GPU and nvcc
(`--build-only`: nvcc only).
"""
import argparse
import ctypes
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from mxlib.kernels import gemm_mma_sm90 as G  # noqa: E402
from mxlib.tools import mma_scratch  # noqa: E402

# (mma, dec, ring). mma: 0 none, 1 RS, 2 SS. dec: 0 none, 1 in warpgroup 1, 2 in warpgroup 0 after each
# chunk's wgmmas, 3 as 2 but the wspec consumer's own work: wgmma_decode_chunk from shared memory into the fragment
# set the next chunk's wgmmas read (two sets). ring: a ninth warp streams bulk copies into shared memory
# (20 KiB at a time, t64's stage) until warpgroup 0 is done.
MODES = {"rs": (1, 0, 0), "ss": (2, 0, 0), "dec": (0, 1, 0), "rs+dec": (1, 1, 0), "ss+dec": (2, 1, 0),
         "rs+dec/1wg": (1, 2, 0), "ss+dec/1wg": (2, 2, 0), "rs+chunkdecode/1wg": (1, 3, 0), "rs+ring": (1, 0, 1),
         "rs+chunkdecode/1wg+ring": (1, 3, 1)}
KERNEL = "mma_contention_m{}_d{}_r{}"  # one kernel a mode: no branch around the wgmmas (ptxas would serialize them)
_SOURCE = r'''
namespace {
__device__ __forceinline__ void wgmma_ss64(float* d, uint64_t da, uint64_t db) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,"
               "%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, 1, 1, 1, 0, 0;"
               : WG_D8(d, 0), WG_D8(d, 8), WG_D8(d, 16), WG_D8(d, 24)
               : "l"(da), "l"(db));
}
}  // namespace

template <int MMA, int DEC, int RING>
__device__ __forceinline__ void contention(long long* out, const uint8_t* src, int iters, uint32_t seed) {
  extern __shared__ __align__(1024) uint8_t smem[];  // [A 16 KiB][B operand 16 KiB][raw B + scales 16 KiB][ring 20 KiB]
  __shared__ uint64_t ring_bar;
  __shared__ volatile int done;
  const int tid = threadIdx.x, wg = warp_index() / 4, lane = tid & 31;
  for (int i = tid; i < 3 * 16384 / 4; i += blockDim.x) reinterpret_cast<uint32_t*>(smem)[i] = 0;
  if (tid == 0) {
    done = 0;
    mbar_init(smem_addr(&ring_bar), 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (RING && warp_index() == 8) {  // the streaming warp
    uint32_t phase = 0;
    long long rounds = 0;
    const uint32_t bar = smem_addr(&ring_bar), dst = smem_addr(smem) + 3 * 16384;
    while (!done) {
      if (elect_one()) {
        mbar_expect_tx(bar, 20480);
        for (int i = 0; i < 5; ++i) bulk_copy(dst + i * 4096, src + ((rounds * 5 + i) % 256) * 4096, 4096, bar);
      }
      __syncwarp();
      mbar_wait(bar, phase);
      phase ^= 1u;
      ++rounds;
    }
    if (lane == 0) out[blockIdx.x * 5 + 4] = rounds;
    return;
  }
  const uint32_t base = smem_addr(smem);
  const uint64_t da = wgmma_desc(base), db = wgmma_desc(base + 16384);
  float acc[32];
  for (int i = 0; i < 32; ++i) acc[i] = 0.0f;
  uint32_t frag[8][4], sink = 0;
  uint4 raw = make_uint4(seed * (lane + 1), seed ^ tid, seed + tid, seed * 7u);
  for (int s = 0; s < 8; ++s)
    for (int j = 0; j < 4; ++j) frag[s][j] = 0;
  const long long t0 = clock64();
  auto decode = [&]() {  // the decode's arithmetic on register data (no shared memory): wgmma_decode_chunk's arithmetic
    uint32_t d[8][4];
    const uint32_t f1 = scale_f1(127u + (raw.x & 1u));
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      uint32_t dg[4], dh[4];
      decode_word(q == 0 ? raw.x : q == 1 ? raw.y : q == 2 ? raw.z : raw.w, dg);
      decode_word((q == 0 ? raw.x : q == 1 ? raw.y : q == 2 ? raw.z : raw.w) ^ 0x5A5A5A5Au, dh);
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        d[2 * q + h][0] = bf16x2_mul(dg[2 * h], f1);
        d[2 * q + h][1] = bf16x2_mul(dh[2 * h], f1);
        d[2 * q + h][2] = bf16x2_mul(dg[2 * h + 1], f1);
        d[2 * q + h][3] = bf16x2_mul(dh[2 * h + 1], f1);
      }
    }
#pragma unroll
    for (int s = 0; s < 8; ++s) sink ^= d[s][0] + d[s][1] + d[s][2] + d[s][3];
    raw.x += sink;  // the next chunk depends on this one: nothing is hoisted out of the loop
    raw.y ^= sink >> 3;
  };
  const uint8_t* raw_sm = smem + 2 * 16384;  // the wspec consumer's offsets into a stage and its scales
  const int g = lane >> 2, t = lane & 3, w = warp_index() % 4;
  const int b_g = w * 1024 + t * 256 + g * 16, b_h = b_g + 128;
  const uint8_t* s_thr = raw_sm + 4096 + t * 64 + g * 4 + (w / 2) * 256 + (w % 2);
  auto chunk = [&](int it, const uint32_t (&cur)[8][4], uint32_t (&next)[8][4]) {
    wgmma_chunk<64>(acc, base, cur);
    asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
    wgmma_decode_chunk(next, raw_sm, b_g, b_h, s_thr, it & 1, 0, 1 << 20, t);
  };
  // Each warpgroup's loop is straight-line code: a branch inside it around the wgmmas would make ptxas
  // serialize them.
  if (wg == 0 && DEC == 3) {
    uint32_t frag1[8][4] = {};
#pragma unroll 1
    for (int it = 0; it < iters; it += 2) {
      chunk(it, frag, frag1);
      chunk(it + 1, frag1, frag);
    }
    wgmma_wait_all();
  } else if (wg == 0 && MMA) {
#pragma unroll 1
    for (int it = 0; it < iters; ++it) {
      if (MMA == 1) {
        wgmma_chunk<64>(acc, base, frag);  // the library's chunk: fence, 8 wgmmas, commit
      } else {
        wgmma_fence();
#pragma unroll
        for (int s = 0; s < 8; ++s) wgmma_ss64(acc, da + 2 * s, db + 2 * s);
        wgmma_commit();
      }
      asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
      if (DEC == 2) decode();
    }
    wgmma_wait_all();
  } else if ((DEC == 1 && wg == 1) || (DEC == 2 && wg == 0)) {
#pragma unroll 1
    for (int it = 0; it < iters; ++it) decode();
  }
  const long long t1 = clock64();
  if (tid == 0) done = 1;
  wgmma_fence_acc<32>(acc);
  float keep = 0.0f;
  for (int i = 0; i < 32; ++i) keep += acc[i];
  if ((tid & 127) == 0) {
    out[blockIdx.x * 5 + 2 * wg] = t1 - t0;
    out[blockIdx.x * 5 + 2 * wg + 1] = (long long)(sink + __float_as_uint(keep));
  }
}

#define CONTENTION(M, D, R)                                                                                  \
  extern "C" __global__ void __launch_bounds__(288, 1)                                                       \
      mma_contention_m##M##_d##D##_r##R(long long* out, const uint8_t* src, int iters, uint32_t seed) {      \
    contention<M, D, R>(out, src, iters, seed);                                                              \
  }
CONTENTION(1, 0, 0)
CONTENTION(2, 0, 0)
CONTENTION(0, 1, 0)
CONTENTION(1, 1, 0)
CONTENTION(2, 1, 0)
CONTENTION(1, 2, 0)
CONTENTION(2, 2, 0)
CONTENTION(1, 3, 0)
CONTENTION(1, 0, 1)
CONTENTION(1, 3, 1)
'''


def source() -> str:
    """The library's kernels and the probe kernel, one translation unit."""
    return G.mma_source() + _SOURCE


def main() -> int:
    p = argparse.ArgumentParser()
    mma_scratch.add_arguments(p)
    p.add_argument("--iters", type=int, default=2000, help="chunks per warpgroup (default 2000)")
    args = p.parse_args()
    if args.iters < 2 or args.iters % 2:
        raise SystemExit(f"mma_contention: --iters must be a positive even number (the chunkdecode modes run chunks "
                         f"in pairs), got {args.iters}")
    if mma_scratch.use_source(source(), args.cache, args.build_only, "mma_contention"):
        print(f"mma_contention: cubin built into {args.cache}")
        return 0
    import torch

    lib, ctx, mod, functions = mma_scratch.load()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    out = torch.zeros(sms * 5, dtype=torch.int64, device="cuda")
    src = torch.zeros(1 << 20, dtype=torch.uint8, device="cuda")  # the streaming warp's source (L2-resident)
    smem = 3 * 16384 + 20480 + 1024
    print(f"mma_contention: {sms} CTAs of 2 warpgroups, {args.iters} chunks; clock64 cycles a chunk, median over CTAs")
    with G._MmaContext(lib, ctx):
        for name, (mma, dec, ring) in MODES.items():
            kernel = KERNEL.format(mma, dec, ring)
            fn = G._mma_function(lib, mod, functions, kernel, smem)
            for _ in range(2):  # the first launch warms up
                values = [ctypes.c_uint64(out.data_ptr()), ctypes.c_uint64(src.data_ptr()), ctypes.c_int32(args.iters),
                          ctypes.c_uint32(12345)]
                G._mma_start(lib, fn, kernel, values, [sms, 1, 1], 288 if ring else 256, smem,
                             torch.cuda.current_stream().cuda_stream, [])
                torch.cuda.synchronize()
            v = out.view(sms, 5).cpu()
            wg0 = statistics.median(v[:, 0].tolist()) / args.iters
            wg1 = statistics.median(v[:, 2].tolist()) / args.iters
            streamed = statistics.median(v[:, 4].tolist()) * 20480 / args.iters if ring else 0
            print(f"{name:24s} warpgroup 0 {wg0:7.1f}   warpgroup 1 {wg1:7.1f}   streamed {streamed / 1024:5.1f} KiB a chunk",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
