// MXFP4 GEMM for NVIDIA Hopper (sm_90a) on mma.sync and wgmma: C = dequant(quantize_mxfp4(A)) @ dequant(B)^T.
//
// Loaded by mxlib/kernels/gemm_mma_sm90.py (compiled with nvcc to a cubin, launched through the CUDA
// driver API); that module's docstring says what each kernel argument is. The numbers behind the
// design are in KERNEL_NOTES.md ("The CUDA path").
//
// The idea: every value that reaches the tensor cores is exact in bf16. A's quantized value
// r * 2^e (r on the E2M1 grid, two significant bits) and B's code * 2^(scale - 127) both have two
// significant bits and an exponent inside bf16's (= fp32's) range, so the scales are folded into
// the operands and one bf16 mma.sync (m16n8k16, fp32 accumulation) computes the whole K range: no
// per-block rescaling of the accumulators. Products are exact; only the fp32 summation order
// differs from mxlib.spec.reference.
//
// Swap-AB: the MMA's 16-row side is N (B's rows, decoded in registers), its 8-column side is M (A's
// rows, quantized once per CTA into shared memory), so M = 4..256 pays for at most 7 padding rows.
//
// K order inside a chunk. A chunk is 128 K values = four 32-value scale blocks. Thread t (0..3) of a
// quad owns block t of the chunk, for B (rows g and g+8 of the 16-row tile: one 16-byte run each in
// the (16,16) shuffle) and for A (row g of the 8-row tile). Word j of a B run holds nibbles
// n0..n7 = K values 8j..8j+7; the decode pairs them (n0,n4) (n1,n5) (n2,n6) (n3,n7), which is a
// permutation of K that A's shared-memory copy repeats, so both operands agree on every k.
//
// Work split: grid (N tiles, M tiles, split). The `split` CTAs of an output tile form a thread block
// cluster and split its K chunks; their fp32 partials are summed through distributed shared memory in
// rank order (deterministic) before one bf16 store. Nothing is kept between launches and nothing
// outside C is written but the ring families' per-call A buffer (allocated by the caller for one
// call): an interrupted or failed launch cannot leave state that a later one reads.
// Five families share the decode and the reduction: "staged" (B's runs copied to shared memory with
// A's, warps owning several 16-row tiles), "direct" (B loaded straight into registers, each warp one
// 16-row tile and a share of the chunks, partials summed in shared memory), "pipelined" (A quantized
// once per call by mxfp4_quant_a_sm90, then a ring of one-chunk cp.async stages) on mma.sync,
// "wgmma" (the pipelined ring feeding Hopper's warpgroup MMA, A read from shared memory by the MMA)
// and "wspec" (wgmma's chunk work with the ring filled by one producer warp's bulk copies).
#include <cstdint>

namespace {

constexpr int kMaxSplit = 8;  // the largest portable cluster: the most CTAs that split one tile's K


__device__ __forceinline__ uint32_t bf16x2_mul(uint32_t a, uint32_t b) {
  uint32_t d;
  asm("mul.rn.bf16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}

__device__ __forceinline__ uint32_t bf16x2_add(uint32_t a, uint32_t b) {
  uint32_t d;
  asm("add.rn.bf16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}

__device__ __forceinline__ uint32_t bf16x2_sub(uint32_t a, uint32_t b) {
  uint32_t d;
  asm("sub.rn.bf16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}

__device__ __forceinline__ uint32_t max_u16x2(uint32_t a, uint32_t b) {
  uint32_t d;
  asm("max.u16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}

__device__ __forceinline__ uint32_t prmt(uint32_t a, uint32_t b, uint32_t sel) {
  uint32_t d;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(sel));
  return d;
}

// bf16 bits of 2^k for k in [-127, 127], in both halves (2^-127 is the subnormal 0x0040).
__device__ __forceinline__ uint32_t pow2_bf16x2(int k) {
  uint32_t h = k == -127 ? 0x0040u : uint32_t(k + 127) << 7;
  return h | (h << 16);
}

// fp32 2^k for k in [-127, 127] (2^-127 is the subnormal 0x00400000).
__device__ __forceinline__ float pow2_f32(int k) {
  return __uint_as_float(k == -127 ? 0x00400000u : uint32_t(k + 127) << 23);
}

__device__ __forceinline__ void mma_bf16(float (&c)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                         uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

__device__ __forceinline__ void cp_async16(uint32_t dst, const void* src, bool valid) {
  // src-size 0 writes 16 zero bytes and reads nothing.
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(valid ? 16 : 0));
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }

// Wait until at most `pending` of this thread's committed cp.async groups are still in flight.
template <int pending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(pending) : "memory");
}

__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// A peer CTA's shared memory at the same offset as `local_addr` here. Volatile (kept after the cluster
// barrier, in program order) but without a memory clobber, so consecutive loads are all in flight at once.
__device__ __forceinline__ float4 ld_cluster_f4(uint32_t local_addr, uint32_t rank) {
  uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local_addr), "r"(rank));
  float4 v;
  asm volatile("ld.shared::cluster.v4.f32 {%0,%1,%2,%3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "r"(remote));
  return v;
}

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// quantize_mxfp4 of one 32-value block (16 bf16 pairs, natural order), returned as the bf16 values
// r * 2^e (exact), or NaN for a block holding NaN or Inf (scale byte 255, mxlib's rule).
// Scale: e = clamp(floor(log2(amax rounded up at mantissa >= 0.75)) - 2, -127, 127).
// "rne": q = x * 2^-e (exact), then q + m - m with m = 1.5 * 2^7 * s in bf16 (s the grid step at |q|:
// 0.5 below 2, 1 below 4, else 2) rounds q to a multiple of s, ties to the even multiple, which is the
// even code. "ties_away": floor(|q| / s + 1/2) * s in fp32 (exact there).
__device__ __forceinline__ void quantize_block(const uint32_t (&x)[16], uint32_t (&out)[16], bool ties_away) {
  uint32_t mx = 0;
#pragma unroll
  for (int i = 0; i < 16; ++i) mx = max_u16x2(mx, x[i] & 0x7FFF7FFFu);
  const uint32_t amax = max(mx & 0xFFFFu, mx >> 16);  // NaN and Inf have the largest magnitude bits
  const int field = int((((amax << 16) + 0x200000u) >> 23) & 0xFFu);
  const int e = field == 255 ? 127 : min(max(field - 129, -127), 127);
  if (amax >= 0x7F80u) {
#pragma unroll
    for (int i = 0; i < 16; ++i) out[i] = 0x7FC07FC0u;
    return;
  }
  if (!ties_away) {
    const uint32_t inv = pow2_bf16x2(-e), scale = pow2_bf16x2(e);
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      const uint32_t q = bf16x2_mul(x[i], inv);
      // |q| < 7, so its exponent field is at most 0x4080; 2^max(E, 0) -> m = that * 96.
      const uint32_t magic = max_u16x2(q & 0x7F807F80u, 0x3F803F80u) + 0x03400340u;
      out[i] = bf16x2_mul(bf16x2_sub(bf16x2_add(q, magic), magic), scale);
    }
  } else {
    const float inv = pow2_f32(-e), scale = pow2_f32(e);
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      uint32_t pair = 0;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const float q = __uint_as_float(((x[i] >> (16 * h)) & 0xFFFFu) << 16) * inv;
        const uint32_t two_s = max(__float_as_uint(q) & 0x7F800000u, 0x3F800000u);  // 2^max(E, 0) = 2s
        const float s = __uint_as_float(two_s - 0x00800000u);
        const float inv_s = __uint_as_float(0x7F800000u - two_s);
        float r = floorf(fabsf(q) * inv_s + 0.5f) * s;
        r = q < 0.0f ? -r : r;
        pair |= (__float_as_uint(r * scale) >> 16) << (16 * h);
      }
      out[i] = pair;
    }
  }
}

// B: four bf16 pairs of one 32-bit word of a 16-byte run (nibbles n0..n7, low first), as
// (n0,n4) (n1,n5) (n2,n6) (n3,n7), each value code * 2^-126: the code's magnitude bits go to the two
// low exponent bits and the top mantissa bit (code 1 = 0.5 lands on the subnormal 2^-127), the sign
// to the sign bit.
__device__ __forceinline__ void decode_word(uint32_t w, uint32_t (&d)[4]) {
  d[0] = ((w << 6) & 0x01C001C0u) | ((w << 12) & 0x80008000u);
  d[1] = ((w << 2) & 0x01C001C0u) | ((w << 8) & 0x80008000u);
  d[2] = ((w >> 2) & 0x01C001C0u) | ((w << 4) & 0x80008000u);
  d[3] = ((w >> 6) & 0x01C001C0u) | (w & 0x80008000u);
}

// The factor 2^(s - 1) = 2^126 * 2^(s - 127) that turns code * 2^-126 into code * 2^(s - 127), as two
// bf16 factors (f1 = 2^min(s - 1, 127), f2 = 2^max(s - 128, 0); NaN for s = 255). f2 is 1 unless s > 128.
// Each factor's exponent field (at most 254) times 0x00800080 lands in both halves (<< 7 and << 23).
__device__ __forceinline__ uint32_t scale_f1(uint32_t s) { return min(s + 126u, 254u) * 0x00800080u; }
__device__ __forceinline__ uint32_t scale_f2(uint32_t s) {
  return s == 255u ? 0x7FC07FC0u : (max(s, 128u) - 1u) * 0x00800080u;
}

// Words wg and wh (rows g and g+8, one 8-value slice each; scale bytes sg and sh) decoded (decode_word)
// and scaled to code * 2^(s - 127): times f1 (scale_f1 of the bytes), then times f2 only where `wide` (a
// scale byte above 128 in the warp; f2 is computed there, off the common path).
__device__ __forceinline__ void decode_scaled(uint32_t wg, uint32_t wh, uint32_t f1g, uint32_t f1h, uint32_t sg,
                                              uint32_t sh, bool wide, uint32_t (&dg)[4], uint32_t (&dh)[4]) {
  decode_word(wg, dg);
  decode_word(wh, dh);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    dg[i] = bf16x2_mul(dg[i], f1g);
    dh[i] = bf16x2_mul(dh[i], f1h);
  }
  if (wide) {
    const uint32_t f2g = scale_f2(sg), f2h = scale_f2(sh);
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      dg[i] = bf16x2_mul(dg[i], f2g);
      dh[i] = bf16x2_mul(dh[i], f2h);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Pieces the kernel families share.

// The warp's index, through a shuffle so that the compiler knows it is the same in every lane: branches
// on it stay warp-uniform, and arithmetic on it (a stage's or a descriptor's address) can run on the
// uniform registers.
__device__ __forceinline__ int warp_index() { return __shfl_sync(0xFFFFFFFFu, threadIdx.x >> 5, 0); }

// The first chunk of rank r's share when `split` CTAs split `chunks` chunks (rank split is the end).
__device__ __forceinline__ int chunk_bound(int r, int chunks, int split) {
  return r * chunks / split;  // r <= 8 and chunks < 2^24 (K < 2^31): no overflow, no 64-bit division
}

// A ring family CTA's share of K: chunks c_begin .. c_end - 1 of its tile's `split` (rank `rank`, the
// cluster's CTAs along z), and the chunk pairs pair0 .. pair0 + SP - 1 its scales span.
struct KRange {
  int split, rank, kb32, c_begin, c_end, pair0, SP;
  __device__ __forceinline__ explicit KRange(int K) : split(gridDim.z), rank(blockIdx.z), kb32(K / 32) {
    const int chunks = (kb32 + 3) / 4;
    c_begin = chunk_bound(rank, chunks, split);
    c_end = chunk_bound(rank + 1, chunks, split);
    pair0 = c_begin / 2;
    SP = (c_end - 1) / 2 - pair0 + 1;
  }
};

// B's scale tiles for the chunk pairs pair0 .. pair0+SP-1 of the CTA's G32 32-row groups into s_sm by
// cp.async: [G32][SP][256 B], as the shuffled scale layout stores a pair of chunks of 32 rows. Groups
// past N and pairs past the scales' columns (sn) are zero-filled.
template <int G32, int NT>
__device__ __forceinline__ void scales_load(uint8_t* s_sm, const uint8_t* __restrict__ BS, int tid, int n0, int N,
                                            int sn, int pair0, int SP) {
  for (int i = tid; i < G32 * SP * 16; i += NT) {
    const int gl = i / (SP * 16), pl = (i / 16) % SP, v = i % 16;
    const bool valid = n0 + gl * 32 < N && (pair0 + pl) * 8 < sn;
    const uint8_t* src = BS + (valid ? (size_t)(n0 / 32 + gl) * 32 * sn + (size_t)(pair0 + pl) * 256 + v * 16 : 0);
    cp_async16(smem_addr(s_sm + (gl * SP + pl) * 256 + v * 16), src, valid);
  }
}

// A's rows of one round (chunks cr0 .. cr0+rc-1) into a_sm by cp.async, natural order: block bl of row
// m at (m * 4R + bl) * 64. Rows past M and blocks past K are zero-filled (they quantize to zeros).
template <int BM, int NT>
__device__ __forceinline__ void a_round_load(uint8_t* a_sm, const uint16_t* __restrict__ A, int tid, int m0,
                                             int M, int lda, int kb32, int cr0, int rc, int R) {
  for (int i = tid; i < BM * rc * 16; i += NT) {
    const int m = i / (rc * 16), bl = (i / 4) % (rc * 4), j = i % 4;
    const int blk = 4 * cr0 + bl;
    const bool valid = m0 + m < M && blk < kb32;
    const uint16_t* src = A + (valid ? (size_t)(m0 + m) * lda + (size_t)blk * 32 + j * 8 : 0);
    cp_async16(smem_addr(a_sm + (m * R * 4 + bl) * 64 + j * 16), src, valid);
  }
}

// A quantized in place: each thread takes whole 32-value blocks and rewrites each in the decode's K
// order: piece j (16 B) = (x0,x4) (x1,x5) (x2,x6) (x3,x7) of values 8j..8j+7, the pieces of a block
// rotated by (bl % 4) / 2 + 2 * (m % 2) so that the MMA loop's 16-byte reads do not conflict.
template <int BM, int NT>
__device__ __forceinline__ void a_round_quantize(uint8_t* a_sm, int tid, int rc, int R, bool ties_away) {
  for (int i = tid; i < BM * rc * 4; i += NT) {
    const int m = i / (rc * 4), bl = i % (rc * 4);
    uint8_t* blk = a_sm + (m * R * 4 + bl) * 64;
    uint32_t x[16], o[16];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const uint4 v = reinterpret_cast<const uint4*>(blk)[j];
      x[4 * j] = v.x;
      x[4 * j + 1] = v.y;
      x[4 * j + 2] = v.z;
      x[4 * j + 3] = v.w;
    }
    quantize_block(x, o, ties_away);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      uint4 piece;
      piece.x = prmt(o[4 * j], o[4 * j + 2], 0x5410);
      piece.y = prmt(o[4 * j], o[4 * j + 2], 0x7632);
      piece.z = prmt(o[4 * j + 1], o[4 * j + 3], 0x5410);
      piece.w = prmt(o[4 * j + 1], o[4 * j + 3], 0x7632);
      *reinterpret_cast<uint4*>(blk + ((j + (bl % 4) / 2 + 2 * (m % 2)) % 4) * 16) = piece;
    }
  }
}

// The MMAs of one 16-row tile of B and one chunk, for all MT 8-row tiles of A. bg / bh: this thread's
// 16-byte runs (rows g and g+8, block t); sg / sh: their scale bytes (127 for a block past K, whose
// run is zeros); a_blk: this thread's block (row g, block t of the chunk) in a_sm; a_mt: bytes from
// one 8-row tile of A to the next.
template <int MT, int NACC>
__device__ __forceinline__ void mma_tile_chunk(float (&acc)[NACC][MT][4], uint4 bg, uint4 bh, uint32_t sg,
                                               uint32_t sh, const uint8_t* a_blk, int a_mt, int g, int t) {
  const uint32_t f1g = scale_f1(sg), f1h = scale_f1(sh);
  const bool wide = __any_sync(0xFFFFFFFFu, sg > 128u || sh > 128u);
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    uint4 af[MT];
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
      af[mt] = *reinterpret_cast<const uint4*>(a_blk + mt * a_mt + ((q + t / 2 + 2 * (g % 2)) % 4) * 16);
    const uint32_t wg = q == 0 ? bg.x : q == 1 ? bg.y : q == 2 ? bg.z : bg.w;
    const uint32_t wh = q == 0 ? bh.x : q == 1 ? bh.y : q == 2 ? bh.z : bh.w;
    uint32_t dg[4], dh[4];
    decode_scaled(wg, wh, f1g, f1h, sg, sh, wide, dg, dh);
#pragma unroll
    for (int mt = 0; mt < MT; ++mt) {
      mma_bf16(acc[0][mt], dg[0], dh[0], dg[1], dh[1], af[mt].x, af[mt].y);
      mma_bf16(acc[NACC - 1][mt], dg[2], dh[2], dg[3], dh[3], af[mt].z, af[mt].w);
    }
  }
}

// One warp's accumulators for one 16-row tile (column block n of the CTA's tile) into an fp32 tile
// ct[BM][CP] (pitch CP = NR + 4 floats: conflict-free for these stores).
template <int MT, int NACC, int CP>
__device__ __forceinline__ void store_partial(float* ct, const float (&acc)[NACC][MT][4], int n, int g, int t) {
#pragma unroll
  for (int mt = 0; mt < MT; ++mt) {
    const int m = mt * 8 + 2 * t;
    float v[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) v[i] = NACC == 2 ? acc[0][mt][i] + acc[NACC - 1][mt][i] : acc[0][mt][i];
    ct[m * CP + n + g] = v[0];
    ct[(m + 1) * CP + n + g] = v[1];
    ct[m * CP + n + g + 8] = v[2];
    ct[(m + 1) * CP + n + g + 8] = v[3];
  }
}

__device__ __forceinline__ void add4(float4& a, const float4& b) {
  a.x += b.x;
  a.y += b.y;
  a.z += b.z;
  a.w += b.w;
}

// The end of a launch. ct holds KW fp32 partial tiles [KW][BM][CP] of this CTA (KW warps along K).
// They are summed in order 0..KW-1; with split > 1 the cluster's CTA sums are then summed in rank
// order through distributed shared memory, each CTA storing 1/split of the tile. Deterministic.
template <int BM, int NR, int NT, int KW>
__device__ __forceinline__ void reduce_store(float* ct, uint16_t* __restrict__ C, int tid, int m0, int n0, int M,
                                             int N, int split, int rank) {
  constexpr int CP = NR + 4, V = BM * NR / 8;  // V: 8-column pieces of the tile
  if (split > 1) {
    if (KW > 1) {
      for (int v = tid; v < V; v += NT) {
        float* p = ct + (v / (NR / 8)) * CP + (v % (NR / 8)) * 8;
        float4 lo = reinterpret_cast<float4*>(p)[0], hi = reinterpret_cast<float4*>(p)[1];
#pragma unroll
        for (int k = 1; k < KW; ++k) {
          add4(lo, reinterpret_cast<const float4*>(p + k * BM * CP)[0]);
          add4(hi, reinterpret_cast<const float4*>(p + k * BM * CP)[1]);
        }
        reinterpret_cast<float4*>(p)[0] = lo;
        reinterpret_cast<float4*>(p)[1] = hi;
      }
    }
    cluster_sync();
  } else {
    __syncthreads();
  }
  const int v_end = (rank + 1) * V / split;  // (rank + 1) * V <= 8 * 2048: no overflow
  for (int v = rank * V / split + tid; v < v_end; v += NT) {
    const int m = v / (NR / 8), n = (v % (NR / 8)) * 8;
    if (m0 + m >= M || n0 + n >= N) continue;
    const float* p = ct + m * CP + n;
    float4 lo, hi;
    if (split > 1) {
      // All of the cluster's loads first (up to 8 ranks), then the sum in rank order.
      const uint32_t addr = smem_addr(p);
      float4 pa[kMaxSplit], pb[kMaxSplit];
#pragma unroll
      for (int r = 0; r < kMaxSplit; ++r) {
        if (r < split) {
          pa[r] = ld_cluster_f4(addr, r);
          pb[r] = ld_cluster_f4(addr + 16, r);
        }
      }
      lo = pa[0];
      hi = pb[0];
#pragma unroll
      for (int r = 1; r < kMaxSplit; ++r) {
        if (r < split) {
          add4(lo, pa[r]);
          add4(hi, pb[r]);
        }
      }
    } else {
      lo = reinterpret_cast<const float4*>(p)[0];
      hi = reinterpret_cast<const float4*>(p)[1];
#pragma unroll
      for (int k = 1; k < KW; ++k) {
        add4(lo, reinterpret_cast<const float4*>(p + k * BM * CP)[0]);
        add4(hi, reinterpret_cast<const float4*>(p + k * BM * CP)[1]);
      }
    }
    uint4 packed;
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(packed.x) : "f"(lo.y), "f"(lo.x));
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(packed.y) : "f"(lo.w), "f"(lo.z));
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(packed.z) : "f"(hi.y), "f"(hi.x));
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(packed.w) : "f"(hi.w), "f"(hi.z));
    *reinterpret_cast<uint4*>(C + (size_t)(m0 + m) * N + n0 + n) = packed;
  }
  if (split > 1) cluster_sync();  // peers may still read this CTA's tile
}

// ---------------------------------------------------------------------------------------------
// Family "staged": B's runs and scales staged in shared memory by the round's cp.async burst; NW warps
// each own WN 16-row tiles of B and the CTA's whole K range.

template <int BM, int WN, int NW>
__device__ __forceinline__ void mma_gemm_staged(const uint16_t* __restrict__ A, const uint8_t* __restrict__ B,
                                                const uint8_t* __restrict__ BS, uint16_t* __restrict__ C, int M,
                                                int N, int K, int lda, int sn, int round_chunks, int ties_away) {
  constexpr int NT = NW * 32;       // threads
  constexpr int MT = BM / 8;        // 8-row tiles of A (MMA columns)
  constexpr int P16 = NW * WN;      // 16-row tiles of B per CTA
  constexpr int NR = P16 * 16;      // rows of B (columns of C) per CTA
  constexpr int G32 = NR / 32;      // 32-row groups of the scale layout per CTA
  constexpr int CP = NR + 4;
  // Two accumulator sets (even and odd MMA steps) where registers allow: halves the dependent HMMA chain.
  constexpr int NACC = WN * MT <= 4 ? 2 : 1;
  extern __shared__ __align__(16) uint8_t smem[];

  const int tid = threadIdx.x, warp = warp_index(), lane = tid & 31, g = lane >> 2, t = lane & 3;
  const int n0 = blockIdx.x * NR, m0 = blockIdx.y * BM;
  const int split = gridDim.z, rank = blockIdx.z;
  const int kb32 = K / 32, kbytes = K / 2;
  const int chunks = (kb32 + 3) / 4;
  const int c_begin = chunk_bound(rank, chunks, split), c_end = chunk_bound(rank + 1, chunks, split);
  const int R = round_chunks;
  const int SP = R / 2 + 2;  // chunk pairs a round's scales can span

  uint8_t* a_sm = smem;                     // [BM][4R blocks][4 pieces of 16 B]
  uint8_t* b_sm = a_sm + BM * R * 256;      // [R][P16][64 runs of 16 B], swizzled
  uint8_t* s_sm = b_sm + R * P16 * 1024;    // [G32][SP][256 B]

  float acc[WN][NACC][MT][4];
#pragma unroll
  for (int w = 0; w < WN; ++w)
#pragma unroll
    for (int h = 0; h < NACC; ++h)
#pragma unroll
      for (int mt = 0; mt < MT; ++mt)
#pragma unroll
        for (int i = 0; i < 4; ++i) acc[w][h][mt][i] = 0.0f;

  for (int cr0 = c_begin; cr0 < c_end; cr0 += R) {
    const int rc = min(R, c_end - cr0);  // chunks this round
    if (cr0 != c_begin) __syncthreads();  // the previous round's shared memory is free again

    // Every global load of the round at once: A first (its own group, quantized while B's group is
    // still in flight), then B's runs and the scale tiles.
    a_round_load<BM, NT>(a_sm, A, tid, m0, M, lda, kb32, cr0, rc, R);
    cp_async_commit();
    for (int i = tid; i < rc * P16 * 64; i += NT) {
      const int r = i / (P16 * 64), p = (i / 64) % P16, u = i % 64;
      const int run_t = u / 16, row = u % 16, c = cr0 + r;
      const int n16 = n0 / 16 + p;
      const bool valid = n16 < N / 16 && 4 * c + run_t < kb32;
      const uint8_t* src = B + (valid ? (size_t)n16 * 16 * kbytes + (size_t)c * 1024 + u * 16 : 0);
      cp_async16(smem_addr(b_sm + ((r * P16 + p) * 64 + run_t * 16 + (row ^ (2 * run_t))) * 16), src, valid);
    }
    const int pair0 = cr0 / 2;
    scales_load<G32, NT>(s_sm, BS, tid, n0, N, sn, pair0, SP);
    cp_async_commit();
    cp_async_wait<1>();
    __syncthreads();
    a_round_quantize<BM, NT>(a_sm, tid, rc, R, ties_away != 0);
    cp_async_wait<0>();
    __syncthreads();

    for (int r = 0; r < rc; ++r) {
      const int c = cr0 + r;
      const bool live = 4 * c + t < kb32;
#pragma unroll
      for (int w = 0; w < WN; ++w) {
        const int p = warp * WN + w;
        const uint8_t* run = b_sm + (r * P16 + p) * 1024 + t * 256;
        const uint8_t* sc = s_sm + ((p / 2) * SP + (c / 2 - pair0)) * 256 + t * 64 + (c % 2) * 2 + (p % 2);
        mma_tile_chunk<MT, NACC>(acc[w], *reinterpret_cast<const uint4*>(run + (g ^ (2 * t)) * 16),
                                 *reinterpret_cast<const uint4*>(run + ((g + 8) ^ (2 * t)) * 16),
                                 live ? sc[g * 4] : 127u, live ? sc[(g + 8) * 4] : 127u,
                                 a_sm + (g * R * 4 + 4 * r + t) * 64, R * 2048, g, t);
      }
    }
  }

  __syncthreads();
  float* ct = reinterpret_cast<float*>(smem);  // [BM][CP]
#pragma unroll
  for (int w = 0; w < WN; ++w) store_partial<MT, NACC, CP>(ct, acc[w], (warp * WN + w) * 16, g, t);
  reduce_store<BM, NR, NT, 1>(ct, C, tid, m0, n0, M, N, split, rank);
}

// ---------------------------------------------------------------------------------------------
// Family "direct": B read straight into registers; the CTA's P16 x KW warps each own one 16-row tile
// of B and 1/KW of the round's chunks (more warps per SM, shorter chains), their partials summed in
// shared memory at the end. A warp loads up to CMAX chunks of B at once (before A's quantization for
// the round's first group).

template <int BM, int P16, int KW>
__device__ __forceinline__ void mma_gemm_direct(const uint16_t* __restrict__ A, const uint8_t* __restrict__ B,
                                                const uint8_t* __restrict__ BS, uint16_t* __restrict__ C, int M,
                                                int N, int K, int lda, int sn, int round_chunks, int ties_away) {
  constexpr int NW = P16 * KW, NT = NW * 32, MT = BM / 8, NR = P16 * 16, CP = NR + 4;
  constexpr int NACC = MT <= 4 ? 2 : 1;
  constexpr int CMAX = MT >= 4 ? 2 : 4;  // chunks of B in registers at once (128 registers a thread)
  extern __shared__ __align__(16) uint8_t smem[];

  const int tid = threadIdx.x, warp = warp_index(), lane = tid & 31, g = lane >> 2, t = lane & 3;
  const int p = warp % P16, kw = warp / P16;
  const int n0 = blockIdx.x * NR, m0 = blockIdx.y * BM;
  const int split = gridDim.z, rank = blockIdx.z;
  const int kb32 = K / 32, kbytes = K / 2;
  const int chunks = (kb32 + 3) / 4;
  const int c_begin = chunk_bound(rank, chunks, split), c_end = chunk_bound(rank + 1, chunks, split);
  const int R = round_chunks;
  uint8_t* a_sm = smem;  // [BM][4R blocks][4 pieces of 16 B]

  const int n16 = n0 / 16 + p;
  const bool tile_live = n16 < N / 16;
  // This thread's run of row g in chunk 0 (row g+8 is 128 bytes on), and its scale byte of row g in
  // chunk 0 (+ (c/2)*256 + (c%2)*2 for chunk c; row g+8 is 32 bytes on).
  const uint8_t* b_run = B + (size_t)(tile_live ? n16 : 0) * 16 * kbytes + t * 256 + g * 16;
  const uint8_t* s_run = BS + (size_t)(tile_live ? n16 / 2 : 0) * 32 * sn + t * 64 + (n16 % 2) + g * 4;

  float acc[NACC][MT][4];
#pragma unroll
  for (int h = 0; h < NACC; ++h)
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
      for (int i = 0; i < 4; ++i) acc[h][mt][i] = 0.0f;

  uint4 bg[CMAX], bh[CMAX];
  uint32_t sg[CMAX], sh[CMAX];
  auto load_group = [&](int c0, int cnt) {
#pragma unroll
    for (int j = 0; j < CMAX; ++j) {
      const int c = c0 + j;
      if (tile_live && j < cnt && 4 * c + t < kb32) {
        const uint8_t* run = b_run + (size_t)c * 1024;
        bg[j] = __ldg(reinterpret_cast<const uint4*>(run));
        bh[j] = __ldg(reinterpret_cast<const uint4*>(run + 128));
        const uint8_t* sc = s_run + (c / 2) * 256 + (c % 2) * 2;
        sg[j] = __ldg(sc);
        sh[j] = __ldg(sc + 32);
      } else {
        bg[j] = make_uint4(0u, 0u, 0u, 0u);
        bh[j] = bg[j];
        sg[j] = 127u;
        sh[j] = 127u;
      }
    }
  };

  for (int cr0 = c_begin; cr0 < c_end; cr0 += R) {
    const int rc = min(R, c_end - cr0);  // chunks this round
    const int lo = cr0 + kw * rc / KW, hi = cr0 + (kw + 1) * rc / KW;  // this warp's chunks
    if (cr0 != c_begin) __syncthreads();  // the previous round's shared memory is free again
    a_round_load<BM, NT>(a_sm, A, tid, m0, M, lda, kb32, cr0, rc, R);
    cp_async_commit();
    load_group(lo, min(CMAX, hi - lo));  // B's first group flies while A is quantized
    cp_async_wait<0>();
    __syncthreads();
    a_round_quantize<BM, NT>(a_sm, tid, rc, R, ties_away != 0);
    __syncthreads();
    for (int c0 = lo; c0 < hi; c0 += CMAX) {
      const int cnt = min(CMAX, hi - c0);
      if (c0 != lo) load_group(c0, cnt);
#pragma unroll
      for (int j = 0; j < CMAX; ++j) {
        if (j < cnt) {
          mma_tile_chunk<MT, NACC>(acc, bg[j], bh[j], sg[j], sh[j],
                                   a_sm + (g * R * 4 + 4 * (c0 + j - cr0) + t) * 64, R * 2048, g, t);
        }
      }
    }
  }

  __syncthreads();
  float* ct = reinterpret_cast<float*>(smem);  // [KW][BM][CP]
  store_partial<MT, NACC, CP>(ct + kw * BM * CP, acc, p * 16, g, t);
  __syncthreads();
  reduce_store<BM, NR, NT, KW>(ct, C, tid, m0, n0, M, N, split, rank);
}

// ---------------------------------------------------------------------------------------------
// Family "pipelined": A quantized once per launch by mxfp4_quant_a_sm90 into a_q (bf16 values in the
// MMA loop's K order, 64 bytes a 32-value block, each row padded to whole chunks with zeros); the GEMM
// runs a ring of S shared-memory stages of one chunk each (A's quantized slice and B's runs, by
// cp.async), S - 1 chunks in flight while the MMAs of one run. NW warps each own WN 16-row tiles of B
// and share each A fragment between them. The GEMM is launched as the quantizer's programmatic
// dependent: it loads B's scales and first S - 1 chunks of B before `griddepcontrol.wait`, so B's
// loads overlap A's quantization, and A's values are read only after the quantizer's writes are visible.

__device__ __forceinline__ void grid_dependency_wait() { asm volatile("griddepcontrol.wait;" ::: "memory"); }

__device__ __forceinline__ void cp_async_wait_pending(int pending) {
  // cp.async.wait_group takes an immediate: the ring depths the launcher allows (2..6 stages).
  switch (pending) {
    case 0: cp_async_wait<0>(); break;
    case 1: cp_async_wait<1>(); break;
    case 2: cp_async_wait<2>(); break;
    case 3: cp_async_wait<3>(); break;
    default: cp_async_wait<4>(); break;
  }
}

// The MMAs of WN 16-row tiles of B and one chunk, for all MT 8-row tiles of A: each A fragment is read
// from shared memory once and used by every tile; the two MMAs of one accumulator in a k16 step are
// WN * MT MMAs apart. bg / bh / sg / sh as in mma_tile_chunk, one per tile; a_blk: row g, block t.
template <int MT, int WN>
__device__ __forceinline__ void mma_tiles_chunk(float (&acc)[WN][1][MT][4], const uint4 (&bg)[WN],
                                                const uint4 (&bh)[WN], const uint32_t (&sg)[WN],
                                                const uint32_t (&sh)[WN], const uint8_t* a_blk, int g, int t) {
  uint32_t f1g[WN], f1h[WN];
  bool wide = false;
#pragma unroll
  for (int w = 0; w < WN; ++w) {
    f1g[w] = scale_f1(sg[w]);
    f1h[w] = scale_f1(sh[w]);
    wide = wide || sg[w] > 128u || sh[w] > 128u;
  }
  wide = __any_sync(0xFFFFFFFFu, wide);
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    uint32_t dg[WN][4], dh[WN][4];
#pragma unroll
    for (int w = 0; w < WN; ++w) {
      const uint32_t wg = q == 0 ? bg[w].x : q == 1 ? bg[w].y : q == 2 ? bg[w].z : bg[w].w;
      const uint32_t wh = q == 0 ? bh[w].x : q == 1 ? bh[w].y : q == 2 ? bh[w].z : bh[w].w;
      decode_scaled(wg, wh, f1g[w], f1h[w], sg[w], sh[w], wide, dg[w], dh[w]);
    }
    uint4 af[MT];
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
      af[mt] = *reinterpret_cast<const uint4*>(a_blk + mt * 2048 + ((q + t / 2 + 2 * (g % 2)) % 4) * 16);
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
      for (int w = 0; w < WN; ++w) mma_bf16(acc[w][0][mt], dg[w][0], dh[w][0], dg[w][1], dh[w][1], af[mt].x, af[mt].y);
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
      for (int w = 0; w < WN; ++w) mma_bf16(acc[w][0][mt], dg[w][2], dh[w][2], dg[w][3], dh[w][3], af[mt].z, af[mt].w);
  }
}

// The ring of families "pipelined" and "wgmma": a CTA's copies of one chunk into stage `slot`, the
// addresses computed once per thread so that a chunk only adds its offset. Each thread copies RA
// 16-byte pieces of A's quantized buffer (piece tid % 16 of rows tid / 16 + r * A_ROWS) and RB runs of
// B (run tid % 64 of the 16-row tiles tid / 64 + r * B_TILES); rows past M and tiles past N are
// zero-filled. SWZ: A's stage is the wgmma operand (two k64 halves [BM][128 B], piece j of row r at
// j ^ (r % 8); A_ROWS is a multiple of 8, so all of a thread's rows share one swizzle), else each row
// is 256 contiguous bytes.
template <int BM, int P16, int NT, bool SWZ>
struct RingCopies {
  static constexpr int RA = BM * 16 / NT, A_ROWS = NT / 16, RB = P16 * 64 / NT, B_TILES = NT / 64;
  static constexpr int A_STAGE = BM * 256, B_STAGE = P16 * 1024, A_ROW = SWZ ? 128 : 256;
  static_assert(RA >= 1 && RA <= 32 && RB >= 1 && NT % 64 == 0 && (!SWZ || A_ROWS % 8 == 0), "tiling");
  const uint8_t* aq;
  const uint8_t* b;
  const uint8_t* a_src;
  const uint8_t* b_src;
  size_t a_step, b_step;
  uint32_t a_dst, b_dst, a_live = 0, b_live = 0;
  int b_run_t, kb32;

  __device__ __forceinline__ RingCopies(const uint8_t* AQ, const uint8_t* B, const uint8_t* a_sm, const uint8_t* b_sm,
                                        int tid, int m0, int n0, int M, int N, int K, int kb_pad)
      : aq(AQ), b(B), b_run_t(tid % 64 / 16), kb32(K / 32) {
    const int a_row = tid / 16, piece = tid % 16, b_u = tid % 64, kbytes = K / 2;
    a_src = AQ + (size_t)(m0 + a_row) * kb_pad * 64 + piece * 16;
    a_step = (size_t)A_ROWS * kb_pad * 64;
    a_dst = smem_addr(a_sm) + (SWZ ? (piece / 8) * BM * 128 + a_row * 128 + ((piece % 8) ^ (a_row % 8)) * 16
                                   : a_row * 256 + piece * 16);
    b_src = B + (size_t)(n0 / 16 + tid / 64) * 16 * kbytes + b_u * 16;
    b_step = (size_t)B_TILES * 16 * kbytes;
    b_dst = smem_addr(b_sm) + ((tid / 64) * 64 + b_run_t * 16 + ((b_u % 16) ^ (2 * b_run_t))) * 16;
#pragma unroll
    for (int r = 0; r < RA; ++r) a_live |= uint32_t(m0 + a_row + r * A_ROWS < M) << r;
#pragma unroll
    for (int r = 0; r < RB; ++r) b_live |= uint32_t(n0 / 16 + tid / 64 + r * B_TILES < N / 16) << r;
  }

  __device__ __forceinline__ void load_b(int c, int slot) const {
    const bool k_live = 4 * c + b_run_t < kb32;
#pragma unroll
    for (int r = 0; r < RB; ++r) {
      const bool v = k_live && ((b_live >> r) & 1u);
      cp_async16(b_dst + r * B_TILES * 1024 + slot * B_STAGE, v ? b_src + r * b_step + (size_t)c * 1024 : b, v);
    }
  }

  __device__ __forceinline__ void load_a(int c, int slot) const {
#pragma unroll
    for (int r = 0; r < RA; ++r) {
      const bool v = (a_live >> r) & 1u;
      cp_async16(a_dst + r * A_ROWS * A_ROW + slot * A_STAGE, v ? a_src + r * a_step + (size_t)c * 256 : aq, v);
    }
  }

  // B's scales and first S - 1 chunks (one group), the wait for A's quantizer, then A's first S - 1
  // chunks (a group each): cp.async group j + 1 carries chunk c_begin + j's A.
  template <int G32>
  __device__ __forceinline__ void prologue(uint8_t* s_sm, const uint8_t* BS, int tid, int n0, int N, int sn,
                                           int pair0, int SP, int c_begin, int c_end, int S) const {
    scales_load<G32, NT>(s_sm, BS, tid, n0, N, sn, pair0, SP);
    for (int s = 0; s < S - 1; ++s)
      if (c_begin + s < c_end) load_b(c_begin + s, s);
    cp_async_commit();
    grid_dependency_wait();
    for (int s = 0; s < S - 1; ++s) {
      if (c_begin + s < c_end) load_a(c_begin + s, s);
      cp_async_commit();
    }
  }
};

template <int BM, int WN, int NW>
__device__ __forceinline__ void mma_gemm_pipelined(const uint8_t* __restrict__ AQ, const uint8_t* __restrict__ B,
                                                   const uint8_t* __restrict__ BS, uint16_t* __restrict__ C, int M,
                                                   int N, int K, int kb_pad, int sn, int stages) {
  constexpr int NT = NW * 32, MT = BM / 8, P16 = NW * WN, NR = P16 * 16, G32 = NR / 32, CP = NR + 4;
  using Copies = RingCopies<BM, P16, NT, false>;
  constexpr int A_STAGE = Copies::A_STAGE, B_STAGE = Copies::B_STAGE;
  extern __shared__ __align__(16) uint8_t smem[];

  const int tid = threadIdx.x, warp = warp_index(), lane = tid & 31, g = lane >> 2, t = lane & 3;
  const int n0 = blockIdx.x * NR, m0 = blockIdx.y * BM;
  const KRange kr(K);
  const int split = kr.split, rank = kr.rank, kb32 = kr.kb32, c_begin = kr.c_begin, c_end = kr.c_end;
  const int pair0 = kr.pair0, SP = kr.SP;
  const int S = stages;

  uint8_t* a_sm = smem;                          // [S][BM][4 blocks][4 pieces of 16 B]
  uint8_t* b_sm = a_sm + S * A_STAGE;            // [S][P16][64 runs of 16 B], swizzled
  uint8_t* s_sm = b_sm + S * B_STAGE;            // [G32][SP][256 B]
  const Copies copies(AQ, B, a_sm, b_sm, tid, m0, n0, M, N, K, kb_pad);

  // Every loop iteration commits one group, so "chunk c landed" is always "at most S - 2 groups pending".
  copies.template prologue<G32>(s_sm, BS, tid, n0, N, sn, pair0, SP, c_begin, c_end, S);

  float acc[WN][1][MT][4];
#pragma unroll
  for (int w = 0; w < WN; ++w)
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
      for (int i = 0; i < 4; ++i) acc[w][0][mt][i] = 0.0f;

  // This thread's fragments inside a stage: B's runs (rows g and g+8 of each tile, block t), its scale
  // bytes (per tile; + the chunk's pair and half), A's block (row g, block t).
  const uint8_t* s_thr = s_sm + t * 64 + g * 4;
  const int b_g = t * 256 + (g ^ (2 * t)) * 16, b_h = t * 256 + ((g + 8) ^ (2 * t)) * 16;
  const int a_thr = (g * 4 + t) * 64;

  int slot = 0, fill = S - 1;  // the slot chunk c is in; the slot chunk c + S - 1 goes to
  for (int c = c_begin; c < c_end; ++c) {
    cp_async_wait_pending(S - 2);
    __syncthreads();  // chunk c is in shared memory for everyone, and chunk c - 1's slot is free
    if (c + S - 1 < c_end) {
      copies.load_b(c + S - 1, fill);
      copies.load_a(c + S - 1, fill);
    }
    cp_async_commit();

    const bool live = 4 * c + t < kb32;
    const int s_off = (c / 2 - pair0) * 256 + (c % 2) * 2;
    uint4 bg[WN], bh[WN];
    uint32_t sg[WN], sh[WN];
#pragma unroll
    for (int w = 0; w < WN; ++w) {
      const int p = warp * WN + w;
      const uint8_t* run = b_sm + slot * B_STAGE + p * 1024;
      const uint8_t* sc = s_thr + (p / 2) * SP * 256 + (p % 2) + s_off;
      bg[w] = *reinterpret_cast<const uint4*>(run + b_g);
      bh[w] = *reinterpret_cast<const uint4*>(run + b_h);
      sg[w] = live ? sc[0] : 127u;
      sh[w] = live ? sc[32] : 127u;
    }
    mma_tiles_chunk<MT, WN>(acc, bg, bh, sg, sh, a_sm + slot * A_STAGE + a_thr, g, t);
    slot = slot + 1 == S ? 0 : slot + 1;
    fill = fill + 1 == S ? 0 : fill + 1;
  }

  cp_async_wait<0>();
  __syncthreads();
  float* ct = reinterpret_cast<float*>(smem);  // [BM][CP]
#pragma unroll
  for (int w = 0; w < WN; ++w) store_partial<MT, 1, CP>(ct, acc[w], (warp * WN + w) * 16, g, t);
  reduce_store<BM, NR, NT, 1>(ct, C, tid, m0, n0, M, N, split, rank);
}


// ---------------------------------------------------------------------------------------------
// Family "wgmma": the pipelined family's ring with Hopper's warpgroup MMA. A warpgroup's four warps
// decode their 16-row tiles of B into registers as the other families do (the register operand: 64
// rows of B); A's quantized chunk is the shared-memory operand, read by the tensor cores themselves
// (no ld.shared of A fragments), so one wgmma m64nBMk16 replaces BM / 2 mma.sync and BM / 4 shared
// loads of each warp. The wgmmas are asynchronous: while chunk c's wgmmas run, the warp waits for chunk
// c + 1, refills the ring and decodes c + 1's B into the other of two fragment sets.
// A's buffer (mxfp4_quant_a_sm90, order 1) holds each chunk row as 8 k16 steps of 32 bytes, step
// 2q + h slot k = 32-value block k % 8 / 2, value 8q + 2h + k / 8 + 4 (k % 2): the K order the B decode
// produces. A stage's A is two k64 halves [BM rows][128 B] in the 128-byte swizzle (16-byte piece j of
// row r at j ^ (r % 8)), the layout a wgmma descriptor with swizzle mode 1 reads.

// The shared-memory matrix descriptor of a K-major bf16 tile in the 128-byte swizzle starting at
// `addr` (8-row atoms 1024 bytes apart; the leading offset is unused in this mode).
__device__ __forceinline__ uint64_t wgmma_desc(uint32_t addr) {
  return uint64_t((addr & 0x3FFFFu) >> 4) | (uint64_t(1) << 16) | (uint64_t(1024 >> 4) << 32) | (uint64_t(1) << 62);
}

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_wait_all() { asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory"); }

#define WG_D4(d, o) "+f"(d[o]), "+f"(d[o + 1]), "+f"(d[o + 2]), "+f"(d[o + 3])
#define WG_D8(d, o) WG_D4(d, o), WG_D4(d, o + 4)
#define WG_A(a) "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3])

// D[64 x N] += A[64 x 16] (registers, bf16) * B[16 x N] (shared memory, K-major), fp32 accumulation:
// N / 2 accumulator registers (the list D), A's four, the descriptor (operand number DESC).
template <int N>
__device__ __forceinline__ void wgmma_bf16(float* d, const uint32_t (&a)[4], uint64_t desc);

#define WGMMA_BF16(N, D, A, DESC, ...)                                                                        \
  template <>                                                                                               \
  __device__ __forceinline__ void wgmma_bf16<N>(float* d, const uint32_t (&a)[4], uint64_t desc) {          \
    asm volatile("wgmma.mma_async.sync.aligned.m64n" #N "k16.f32.bf16.bf16 {" D "}, {" A "}, " DESC          \
                 ", 1, 1, 1, 0;"                                                                            \
                 : __VA_ARGS__                                                                              \
                 : WG_A(a), "l"(desc));                                                                     \
  }

WGMMA_BF16(16, "%0,%1,%2,%3,%4,%5,%6,%7", "%8,%9,%10,%11", "%12", WG_D8(d, 0))
WGMMA_BF16(32, "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15", "%16,%17,%18,%19", "%20", WG_D8(d, 0),
           WG_D8(d, 8))
WGMMA_BF16(64,
           "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,"
           "%28,%29,%30,%31",
           "%32,%33,%34,%35", "%36", WG_D8(d, 0), WG_D8(d, 8), WG_D8(d, 16), WG_D8(d, 24))
WGMMA_BF16(128,
           "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,"
           "%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,"
           "%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63",
           "%64,%65,%66,%67", "%68", WG_D8(d, 0), WG_D8(d, 8), WG_D8(d, 16), WG_D8(d, 24), WG_D8(d, 32), WG_D8(d, 40),
           WG_D8(d, 48), WG_D8(d, 56))

// Keeps the compiler from moving reads of the accumulators above the wait for the wgmmas writing them.
template <int R>
__device__ __forceinline__ void wgmma_fence_acc(float* d) {
#pragma unroll
  for (int i = 0; i < R; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// The wgmma families' work on one chunk. wgmma_decode_chunk: this thread's B fragments of chunk c from
// the stage at b_stage (b_g / b_h: byte offsets of its 16-byte runs there, rows g and g + 8, block t;
// s_thr: its scale byte of row g in the CTA's first chunk pair): k16 step 2q + h, rows g and g + 8 at
// k slots 2t, 2t + 1 and 2t + 8, 2t + 9 (the wgmma register operand's layout, mma.sync's A layout).
__device__ __forceinline__ void wgmma_decode_chunk(uint32_t (&frag)[8][4], const uint8_t* b_stage, int b_g, int b_h,
                                                   const uint8_t* s_thr, int c, int pair0, int kb32, int t) {
  const bool live = 4 * c + t < kb32;
  const uint8_t* sc = s_thr + (int(uint32_t(c) >> 1) - pair0) * 256 + (c & 1) * 2;  // c >= 0: no signed division
  const uint32_t sg = live ? sc[0] : 127u, sh = live ? sc[32] : 127u;
  const uint4 bg = *reinterpret_cast<const uint4*>(b_stage + b_g);
  const uint4 bh = *reinterpret_cast<const uint4*>(b_stage + b_h);
  const uint32_t f1g = scale_f1(sg), f1h = scale_f1(sh);  // f2 only in the rare branch below
  const bool wide = __any_sync(0xFFFFFFFFu, sg > 128u || sh > 128u);
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    uint32_t dg[4], dh[4];
    decode_word(q == 0 ? bg.x : q == 1 ? bg.y : q == 2 ? bg.z : bg.w, dg);
    decode_word(q == 0 ? bh.x : q == 1 ? bh.y : q == 2 ? bh.z : bh.w, dh);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      frag[2 * q + h][0] = bf16x2_mul(dg[2 * h], f1g);
      frag[2 * q + h][1] = bf16x2_mul(dh[2 * h], f1h);
      frag[2 * q + h][2] = bf16x2_mul(dg[2 * h + 1], f1g);
      frag[2 * q + h][3] = bf16x2_mul(dh[2 * h + 1], f1h);
    }
  }
  // The second factor in a branch of its own, taken by the whole warp or by none: folded into the
  // loop above, the compiler predicates its 32 multiplies, and they take issue slots even when off.
  if (__builtin_expect(wide, false)) {
    const uint32_t f2g = scale_f2(sg), f2h = scale_f2(sh);
#pragma unroll
    for (int s = 0; s < 8; ++s) {
      frag[s][0] = bf16x2_mul(frag[s][0], f2g);
      frag[s][1] = bf16x2_mul(frag[s][1], f2h);
      frag[s][2] = bf16x2_mul(frag[s][2], f2g);
      frag[s][3] = bf16x2_mul(frag[s][3], f2h);
    }
  }
}

// wgmma_chunk: one chunk's wgmmas (one commit group): the accumulators of BM columns (BM / 2 registers)
// += the fragments times A's stage at shared address a_stage; one wgmma of width BM per k16 step.
template <int BM>
__device__ __forceinline__ void wgmma_chunk(float* acc, uint32_t a_stage, const uint32_t (&frag)[8][4]) {
  static_assert(BM <= 128, "one wgmma of width BM (16..128) per k16 step");
  // The descriptor of step s is the stage's plus the step's offset in 16-byte units, added to its low
  // word only (a shared address fits the 14-bit field with room to spare): one add a step.
  const uint64_t d0 = wgmma_desc(a_stage);
  const uint32_t lo = uint32_t(d0);
  wgmma_fence();
#pragma unroll
  for (int s = 0; s < 8; ++s)
    wgmma_bf16<BM>(acc, frag[s], (d0 & 0xFFFFFFFF00000000ull) | (lo + (s / 4) * BM * 8 + (s % 4) * 2));
  wgmma_commit();
}

template <int BM, int NWG>
__device__ __forceinline__ void mma_gemm_wgmma(const uint8_t* __restrict__ AQ, const uint8_t* __restrict__ B,
                                               const uint8_t* __restrict__ BS, uint16_t* __restrict__ C, int M,
                                               int N, int K, int kb_pad, int sn, int stages) {
  constexpr int NT = NWG * 128, MT = BM / 8, P16 = NWG * 4, NR = P16 * 16, G32 = NR / 32, CP = NR + 4;
  using Copies = RingCopies<BM, P16, NT, true>;
  constexpr int A_STAGE = Copies::A_STAGE, B_STAGE = Copies::B_STAGE;
  static_assert(BM % 16 == 0, "tiling");
  extern __shared__ __align__(16) uint8_t smem_raw[];
  // The swizzle repeats every 1024 bytes and the descriptors assume a stage starts on one.
  uint8_t* smem = smem_raw + ((1024 - (smem_addr(smem_raw) & 1023u)) & 1023u);

  const int tid = threadIdx.x, warp = warp_index(), lane = tid & 31, g = lane >> 2, t = lane & 3;
  const int n0 = blockIdx.x * NR, m0 = blockIdx.y * BM;
  const KRange kr(K);
  const int split = kr.split, rank = kr.rank, kb32 = kr.kb32, c_begin = kr.c_begin, c_end = kr.c_end;
  const int pair0 = kr.pair0, SP = kr.SP;
  const int S = stages;

  uint8_t* a_sm = smem;                // [S][2 halves][BM][128 B], swizzled
  uint8_t* b_sm = a_sm + S * A_STAGE;  // [S][P16][64 runs of 16 B], swizzled
  uint8_t* s_sm = b_sm + S * B_STAGE;  // [G32][SP][256 B]
  const Copies copies(AQ, B, a_sm, b_sm, tid, m0, n0, M, N, K, kb_pad);

  const uint8_t* s_thr = s_sm + t * 64 + g * 4 + (warp / 2) * SP * 256 + (warp % 2);
  const int b_g = warp * 1024 + t * 256 + (g ^ (2 * t)) * 16, b_h = warp * 1024 + t * 256 + ((g + 8) ^ (2 * t)) * 16;
  auto decode_chunk = [&](int c, int slot, uint32_t (&frag)[8][4]) {
    wgmma_decode_chunk(frag, b_sm + slot * B_STAGE, b_g, b_h, s_thr, c, pair0, kb32, t);
  };

  float acc[MT * 4];
#pragma unroll
  for (int i = 0; i < MT * 4; ++i) acc[i] = 0.0f;
  const uint32_t a_base = smem_addr(a_sm);
  auto mma_chunk = [&](int slot, const uint32_t (&frag)[8][4]) { wgmma_chunk<BM>(acc, a_base + slot * A_STAGE, frag); };

  // "Chunk c + 1 landed" during chunk c is "at most S - 3 groups pending" (the prologue's groups, then
  // one per chunk).
  copies.template prologue<G32>(s_sm, BS, tid, n0, N, sn, pair0, SP, c_begin, c_end, S);
  cp_async_wait_pending(S - 2);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // cp.async's writes, read by the wgmmas
  __syncthreads();

  uint32_t frag0[8][4], frag1[8][4];
  if (c_begin < c_end) decode_chunk(c_begin, 0, frag0);  // a rank without chunks loaded none to decode
  // One chunk: its wgmmas (fragments `cur`); then, while they run, chunk c + 1: wait for it, refill the
  // slot of chunk c - 1 (its wgmmas are done: wait_group 1 here, then the barrier) with chunk c + S - 1,
  // and decode c + 1's B into `next`.
  auto step = [&](int c, int& slot, int& fill, const uint32_t (&cur)[8][4], uint32_t (&next)[8][4]) {
    mma_chunk(slot, cur);
    slot = slot + 1 == S ? 0 : slot + 1;
    if (c + 1 < c_end) {
      asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
      cp_async_wait_pending(S - 3);
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      __syncthreads();
      if (c + S - 1 < c_end) {
        copies.load_b(c + S - 1, fill);
        copies.load_a(c + S - 1, fill);
      }
      cp_async_commit();
      fill = fill + 1 == S ? 0 : fill + 1;
      decode_chunk(c + 1, slot, next);
    }
  };
  int slot = 0, fill = S - 1;
  for (int c = c_begin; c < c_end; c += 2) {
    step(c, slot, fill, frag0, frag1);
    if (c + 1 < c_end) step(c + 1, slot, fill, frag1, frag0);
  }
  wgmma_wait_all();
  wgmma_fence_acc<MT * 4>(acc);

  cp_async_wait<0>();
  __syncthreads();
  float* ct = reinterpret_cast<float*>(smem);  // [BM][CP]
  // The accumulator layout of m64nBM is mma.sync's m16n8 tile repeated: register 4j + i of warp w is
  // row 16 (w % 4) + g (+8 for i >= 2) of the warpgroup's 64 and column 8j + 2t (+1 for odd i).
  store_partial<MT, 1, CP>(ct, *reinterpret_cast<const float(*)[1][MT][4]>(acc), warp * 16, g, t);
  reduce_store<BM, NR, NT, 1>(ct, C, tid, m0, n0, M, N, split, rank);
}

// ---------------------------------------------------------------------------------------------
// Family "wspec": the wgmma family's chunk work, warp-specialized. One producer warp fills the ring by
// bulk copies (cp.async.bulk, the copy engine's non-tensor mode) that complete on their stage's
// mbarrier; the 4 * NWG consumer warps wait for a stage, decode B, issue the wgmmas and release the
// stage once its wgmmas are done: per chunk they issue no copy, meet no CTA barrier and need no proxy
// fence. Every copy is one contiguous run: A's buffer (mxfp4_quant_a_sm90, order 2) holds a CTA's
// chunk of A as BM * 256 bytes already in the stage's swizzled layout; a 16-row tile's chunk of B is
// 1024 contiguous bytes of B_shuffle (copied as they are, so the decode's two 16-byte reads a chunk
// meet 4-way bank conflicts); the scales of the CTA's K range are SP * 256 bytes per 32-row group.
// With KW = 2 two warpgroups share one set of B rows and take alternate chunks (twice the warps to hide
// the decode's latency), their partial tiles summed in shared memory at the end. B's first stages are
// copied before the wait for A's quantizer and land about 1 us before A's: each warpgroup decodes its
// first chunk (two with KW = 2) from a barrier that counts B alone, and waits for A before its wgmmas.

__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

// One arrival that also announces `bytes` of copies completing on the barrier's current phase.
__device__ __forceinline__ void mbar_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

// Until the barrier's phase of parity `parity` has completed (a fresh barrier counts its phase 1 as done).
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
  asm volatile(
      "{\n.reg .pred done;\nWAIT:\nmbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n@!done bra WAIT;\n}" ::"r"(bar),
      "r"(parity)
      : "memory");
}

// True in one lane of the (converged) warp, false in the others.
__device__ __forceinline__ bool elect_one() {
  uint32_t elected;
  asm volatile("{\n.reg .pred p;\nelect.sync _|p, 0xFFFFFFFF;\nselp.u32 %0, 1, 0, p;\n}" : "=r"(elected));
  return elected != 0;
}

// `bytes` (a multiple of 16, both addresses 16-byte aligned) from global `src` to shared `dst`, completing on `bar`.
__device__ __forceinline__ void bulk_copy(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
               "l"(src), "r"(bytes), "r"(bar)
               : "memory");
}

template <int BM, int NWG, int KW>
__device__ __forceinline__ void mma_gemm_wspec(const uint8_t* __restrict__ AQ, const uint8_t* __restrict__ B,
                                               const uint8_t* __restrict__ BS, uint16_t* __restrict__ C, int M,
                                               int N, int K, int kb_pad, int sn, int stages) {
  constexpr int NC = NWG * KW * 4, NT = NC * 32 + 32, MT = BM / 8, P16 = NWG * 4, NR = P16 * 16, G32 = NR / 32;
  constexpr int CP = NR + 4, A_STAGE = BM * 256, B_STAGE = P16 * 1024;
  static_assert(BM % 16 == 0 && (KW == 1 || KW == 2), "tiling");
  extern __shared__ __align__(16) uint8_t smem_raw[];
  uint8_t* smem = smem_raw + ((1024 - (smem_addr(smem_raw) & 1023u)) & 1023u);  // the swizzle's period

  const int tid = threadIdx.x, warp = warp_index(), lane = tid & 31, g = lane >> 2, t = lane & 3;
  const int n0 = blockIdx.x * NR, m0 = blockIdx.y * BM;
  const KRange kr(K);
  const int split = kr.split, rank = kr.rank, kb32 = kr.kb32, c_begin = kr.c_begin, c_end = kr.c_end;
  const int pair0 = kr.pair0, SP = kr.SP;
  const int S = stages;
  // Chunks a warpgroup decodes before its first A lands (at most one per fragment set): two with two
  // warpgroups along K, where the second paid, one otherwise, where it cost (KERNEL_NOTES, v15c).
  const int EARLY = KW == 2 && 2 * KW <= S ? 2 : 1;

  uint8_t* a_sm = smem;                // [S][2 halves][BM][128 B], swizzled
  uint8_t* b_sm = a_sm + S * A_STAGE;  // [S][P16][1024 B of B_shuffle]
  uint8_t* s_sm = b_sm + S * B_STAGE;  // [G32][SP][256 B]
  // The mbarriers, past the ring and the output tiles: full[S] (the producer's arrival and the stage's
  // bytes), empty[S] (one arrival per warp of the consuming warpgroups), the scales' barrier, then
  // bfirst[2 KW]: B's bytes of chunk c_begin + i (i < EARLY * KW: each warpgroup's first EARLY chunks),
  // which that chunk's full[] does not count, so that their decode runs while A is still awaited.
  const uint32_t bars = smem_addr(smem) + max(S * (A_STAGE + B_STAGE) + G32 * SP * 256, KW * BM * CP * 4);
  const uint32_t sbar = bars + 16 * S, bfirst = sbar + 8;
  const int g_live = min(G32, (N - n0 + 31) / 32);  // 32-row scale groups that exist
  if (tid == 0) {
    for (int s = 0; s < S; ++s) {
      mbar_init(bars + 8 * s, 1);
      mbar_init(bars + 8 * (S + s), NC / KW);
    }
    mbar_init(sbar, 1);
    for (int i = 0; i < EARLY * KW; ++i) mbar_init(bfirst + 8 * i, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  for (int i = g_live * SP * 256 + tid; i < G32 * SP * 256; i += NT) s_sm[i] = 127;  // groups past N: scale 1
  __syncthreads();

  float acc[MT * 4];
#pragma unroll
  for (int i = 0; i < MT * 4; ++i) acc[i] = 0.0f;

  if (c_end == c_begin) {
    // A rank without chunks (split_k above the chunks) adds zeros to its cluster's sum.
  } else if (warp == NC) {
    // The producer. The warp runs the loop together on warp-uniform values and one elected lane
    // announces each stage's bytes and issues its copies, so the copies' operands sit in uniform
    // registers (no loop over lanes), and the stage, its parity and the sources advance by additions:
    // the producer shares a scheduler with a consumer warp, and every instruction it issues is one that
    // warp waits for. B's scales and first S chunks are copied before the wait for A's quantizer, A's
    // first S chunks right after it.
    const int p_live = min(P16, N / 16 - n0 / 16), n = c_end - c_begin, first = min(S, n);
    const size_t b_tile = (size_t)8 * K;  // bytes from one 16-row tile of B to the next
    const uint8_t* a_src = AQ + ((size_t)blockIdx.y * (kb_pad / 4) + c_begin) * A_STAGE;  // chunk c_begin + i at + i * A_STAGE
    const uint8_t* b_src = B + (size_t)(n0 / 16) * b_tile + (size_t)c_begin * 1024;      // tile p, chunk c_begin + i at + p * b_tile + i * 1024
    const uint32_t a_dst = smem_addr(a_sm), b_dst = smem_addr(b_sm);
    auto fill_b = [&](int i, int slot) {  // chunk c_begin + i into stage `slot`: its bytes announced, then B
      const uint32_t bytes = min(4, kb32 - 4 * (c_begin + i)) * 256;  // a tile's runs inside K
      uint32_t bar = bars + 8 * slot;
      if (i < EARLY * KW) {  // decoded before A: B on bfirst, A alone on full
        mbar_expect_tx(bar, A_STAGE);
        bar = bfirst + 8 * i;
        mbar_expect_tx(bar, p_live * bytes);
      } else {
        mbar_expect_tx(bar, A_STAGE + p_live * bytes);
      }
#pragma unroll
      for (int p = 0; p < P16; ++p)
        if (p < p_live) bulk_copy(b_dst + slot * B_STAGE + p * 1024, b_src + p * b_tile + (size_t)i * 1024, bytes, bar);
    };
    auto fill_a = [&](int i, int slot) {
      bulk_copy(a_dst + slot * A_STAGE, a_src + (size_t)i * A_STAGE, A_STAGE, bars + 8 * slot);
    };
    if (elect_one()) {
      mbar_expect_tx(sbar, g_live * SP * 256);
#pragma unroll
      for (int gi = 0; gi < G32; ++gi)
        if (gi < g_live)
          bulk_copy(smem_addr(s_sm) + gi * SP * 256, BS + (size_t)(n0 / 32 + gi) * 32 * sn + pair0 * 256, SP * 256, sbar);
      for (int i = 0; i < first; ++i) fill_b(i, i);
    }
    __syncwarp();
    grid_dependency_wait();
    if (elect_one())
      for (int i = 0; i < first; ++i) fill_a(i, i);
    __syncwarp();
    int slot = 0;         // chunk i's stage (i % S)
    uint32_t parity = 0;  // the parity of that stage's release of chunk i - S (i / S - 1, mod 2)
    for (int i = S; i < n; ++i) {
      mbar_wait(bars + 8 * (S + slot), parity);  // the consumers released chunk i - S's stage
      if (elect_one()) {
        fill_b(i, slot);
        fill_a(i, slot);
      }
      __syncwarp();
      if (++slot == S) {
        slot = 0;
        parity ^= 1u;
      }
    }
  } else {
    // The consumers, as the wgmma family's loop: warpgroup kw takes chunks c_begin + kw, + KW, ...; its
    // chunk c's wgmmas run while its next chunk is awaited and decoded into the other fragment set, and
    // its previous chunk's stage is released once that chunk's wgmmas are done.
    const int kw = warp / (4 * NWG), w = warp % (4 * NWG);  // warpgroup along K; warp among the B rows
    const uint8_t* s_thr = s_sm + t * 64 + g * 4 + (w / 2) * SP * 256 + (w % 2);
    const int b_g = w * 1024 + t * 256 + g * 16, b_h = b_g + 128;
    const uint32_t a_base = smem_addr(a_sm);
    uint32_t frag0[8][4], frag1[8][4];
    mbar_wait(sbar, 0);
    if (c_begin + kw < c_end) {
      int slot = kw, last = -1;  // this warpgroup's current chunk's stage; its previous chunk's (-1: none)
      uint32_t phase = 0;        // parity of the current chunk's use of its stage
      // The first EARLY chunks' B, decoded before their A has landed (the second into frag1, the
      // fragment set the loop's first step would decode it into).
      bool decoded = EARLY == 2 && c_begin + kw + KW < c_end;
      mbar_wait(bfirst + 8 * kw, 0);
      wgmma_decode_chunk(frag0, b_sm + slot * B_STAGE, b_g, b_h, s_thr, c_begin + kw, pair0, kb32, t);
      if (decoded) {
        mbar_wait(bfirst + 8 * (kw + KW), 0);
        wgmma_decode_chunk(frag1, b_sm + (kw + KW) * B_STAGE, b_g, b_h, s_thr, c_begin + kw + KW, pair0, kb32, t);
      }
      mbar_wait(bars + 8 * slot, phase);
      // With KW = 2 a warpgroup's previous chunk is released even when it has no next one: the producer
      // may be waiting for that stage to fill the other warpgroup's last chunk.
      auto step = [&](int c, const uint32_t (&cur)[8][4], uint32_t (&next)[8][4]) {
        wgmma_chunk<BM>(acc, a_base + slot * A_STAGE, cur);
        if (KW > 1 || c + KW < c_end) {
          asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
          if (last >= 0 && lane == 0) mbar_arrive(bars + 8 * (S + last));
        }
        if (c + KW < c_end) {
          last = slot;
          slot += KW;
          if (slot >= S) {
            slot -= S;
            phase ^= 1u;
          }
          mbar_wait(bars + 8 * slot, phase);
          if (decoded)
            decoded = false;
          else
            wgmma_decode_chunk(next, b_sm + slot * B_STAGE, b_g, b_h, s_thr, c + KW, pair0, kb32, t);
        }
      };
      for (int c = c_begin + kw; c < c_end; c += 2 * KW) {
        step(c, frag0, frag1);
        if (c + KW < c_end) step(c + KW, frag1, frag0);
      }
      wgmma_wait_all();
      wgmma_fence_acc<MT * 4>(acc);
    }
  }

  __syncthreads();  // every copy has landed (the consumers waited for each) and every wgmma is done
  float* ct = reinterpret_cast<float*>(smem);  // [KW][BM][CP]
  if (warp < NC)
    store_partial<MT, 1, CP>(ct + (warp / (4 * NWG)) * BM * CP, *reinterpret_cast<const float(*)[1][MT][4]>(acc),
                             warp % (4 * NWG) * 16, g, t);
  if (KW > 1) __syncthreads();
  reduce_store<BM, NR, NT, KW>(ct, C, tid, m0, n0, M, N, split, rank);
}

}  // namespace

// A quantized once per launch for families "pipelined", "wgmma" and "wspec": thread i takes 32-value
// block (row, bl) = (i / kb_pad, i % kb_pad) of A (rows past m and blocks past K are zeros; rows < `rows`)
// and writes its bf16 values r * 2^e into row `row`'s chunk bl / 4.
// order 0 (pipelined): the 256 bytes at a_q + (i - bl % 4) * 64, the block's 64 at (bl % 4) * 64 in the
// MMA loop's K order and rotation (as a_round_quantize does in shared memory).
// order 1 (wgmma): the same 256 bytes, word bl % 4 (first value pair) and bl % 4 + 4 (second) of each of
// the chunk's eight 32-byte k16 steps, the order mma_gemm_wgmma's shared-memory operand has.
// order 2 (wspec): order 1's words, tiled: tile_m rows' chunk is tile_m * 256 contiguous bytes in the
// wgmma stage's layout (two k64 halves [tile_m][128 B], 16-byte piece j of row r at j ^ (r % 8)), so one
// bulk copy fills a stage; `rows` is m rounded up to tile_m.
// It lets its dependent GEMM launch at once (the GEMM waits for this grid's writes before it reads them).
extern "C" __global__ void __launch_bounds__(256) mxfp4_quant_a_sm90(const uint16_t* __restrict__ a,
                                                                     uint8_t* __restrict__ a_q, int m, int k,
                                                                     int lda, int kb_pad, int ties_away, int order,
                                                                     int rows, int tile_m) {
  asm volatile("griddepcontrol.launch_dependents;");
  const int i = blockIdx.x * 256 + threadIdx.x;
  if (i >= rows * kb_pad) return;
  const int row = i / kb_pad, bl = i % kb_pad;
  uint32_t x[16], o[16];
  if (row < m && bl < k / 32) {
    const uint4* src = reinterpret_cast<const uint4*>(a + (size_t)row * lda + (size_t)bl * 32);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const uint4 v = __ldg(src + j);
      x[4 * j] = v.x;
      x[4 * j + 1] = v.y;
      x[4 * j + 2] = v.z;
      x[4 * j + 3] = v.w;
    }
  } else {
#pragma unroll
    for (int j = 0; j < 16; ++j) x[j] = 0u;
  }
  quantize_block(x, o, ties_away != 0);
  if (order == 2) {
    const int r = row % tile_m;
    uint8_t* dst = a_q + ((size_t)(row / tile_m) * (kb_pad / 4) + bl / 4) * tile_m * 256 + r * 128 + (bl % 4) * 4;
#pragma unroll
    for (int s = 0; s < 8; ++s) {  // step s = 2q + h: pieces 2 (s % 4) and 2 (s % 4) + 1 of half s / 4
      const int q = s / 2, h = s % 2, j = 2 * (s % 4);
      uint8_t* half = dst + (s / 4) * tile_m * 128;
      *reinterpret_cast<uint32_t*>(half + (j ^ (r % 8)) * 16) = prmt(o[4 * q + h], o[4 * q + h + 2], 0x5410);
      *reinterpret_cast<uint32_t*>(half + ((j + 1) ^ (r % 8)) * 16) = prmt(o[4 * q + h], o[4 * q + h + 2], 0x7632);
    }
    return;
  }
  if (order) {
    // step 2q + h holds the block's values 8q + 2h + (0, 4) in word bl % 4 and 8q + 2h + (1, 5) in word bl % 4 + 4
    uint32_t* dst = reinterpret_cast<uint32_t*>(a_q + (size_t)(i - bl % 4) * 64) + bl % 4;
#pragma unroll
    for (int q = 0; q < 4; ++q)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        dst[(2 * q + h) * 8] = prmt(o[4 * q + h], o[4 * q + h + 2], 0x5410);
        dst[(2 * q + h) * 8 + 4] = prmt(o[4 * q + h], o[4 * q + h + 2], 0x7632);
      }
    return;
  }
  uint8_t* dst = a_q + (size_t)i * 64;
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    uint4 piece;
    piece.x = prmt(o[4 * j], o[4 * j + 2], 0x5410);
    piece.y = prmt(o[4 * j], o[4 * j + 2], 0x7632);
    piece.z = prmt(o[4 * j + 1], o[4 * j + 3], 0x5410);
    piece.w = prmt(o[4 * j + 1], o[4 * j + 3], 0x7632);
    *reinterpret_cast<uint4*>(dst + ((j + (bl % 4) / 2 + 2 * (row % 2)) % 4) * 16) = piece;
  }
}

// One kernel per tiling and family. Arguments: A (bf16, row pitch lda elements), B_shuffle, B_scale_sh
// (sn columns), C (bf16, M x N), M, N, K, lda, sn, chunks per round, ties_away (0: rne).
#define MXFP4_MMA_SM90_ARGS                                                                                 \
  const uint16_t *__restrict__ a, const uint8_t *__restrict__ b, const uint8_t *__restrict__ bs,             \
      uint16_t *__restrict__ c, int m, int n, int k, int lda, int sn, int round_chunks, int ties_away

// mxfp4_mma_sm90_s<BM>_w<WN>_x<NW>: staged B, BM rows of A, NW warps of WN 16-row tiles of B.
#define MXFP4_MMA_SM90_STAGED(BM, WN, NW)                                                                   \
  extern "C" __global__ void __launch_bounds__(NW * 32, 1)                                                  \
      mxfp4_mma_sm90_s##BM##_w##WN##_x##NW(MXFP4_MMA_SM90_ARGS) {                                           \
    mma_gemm_staged<BM, WN, NW>(a, b, bs, c, m, n, k, lda, sn, round_chunks, ties_away);                     \
  }

// mxfp4_mma_sm90_d<BM>_p<P16>_k<KW>: direct B, BM rows of A, P16 16-row tiles of B x KW warps along K;
// at most 128 registers, so that 16 warps fit on an SM.
#define MXFP4_MMA_SM90_DIRECT(BM, P16, KW)                                                                  \
  extern "C" __global__ void __launch_bounds__(P16 * KW * 32, 16 / (P16 * KW))                              \
      mxfp4_mma_sm90_d##BM##_p##P16##_k##KW(MXFP4_MMA_SM90_ARGS) {                                          \
    mma_gemm_direct<BM, P16, KW>(a, b, bs, c, m, n, k, lda, sn, round_chunks, ties_away);                    \
  }

MXFP4_MMA_SM90_STAGED(8, 1, 4)
MXFP4_MMA_SM90_STAGED(16, 1, 4)
MXFP4_MMA_SM90_STAGED(16, 2, 4)
MXFP4_MMA_SM90_STAGED(32, 1, 4)
MXFP4_MMA_SM90_STAGED(32, 2, 4)
MXFP4_MMA_SM90_STAGED(64, 2, 4)
MXFP4_MMA_SM90_STAGED(64, 2, 8)
MXFP4_MMA_SM90_STAGED(128, 1, 8)
MXFP4_MMA_SM90_DIRECT(8, 4, 4)
MXFP4_MMA_SM90_DIRECT(8, 2, 4)
MXFP4_MMA_SM90_DIRECT(16, 4, 4)
MXFP4_MMA_SM90_DIRECT(16, 2, 4)
MXFP4_MMA_SM90_DIRECT(16, 4, 2)
MXFP4_MMA_SM90_DIRECT(32, 4, 4)
MXFP4_MMA_SM90_DIRECT(32, 4, 2)
MXFP4_MMA_SM90_DIRECT(32, 8, 1)
MXFP4_MMA_SM90_DIRECT(64, 4, 2)
MXFP4_MMA_SM90_DIRECT(64, 8, 1)
MXFP4_MMA_SM90_DIRECT(64, 4, 1)

// mxfp4_mma_sm90_p<BM>_w<WN>_x<NW>: pipelined, A quantized beforehand (a_q, kb_pad blocks a row), BM
// rows of A, NW warps of WN 16-row tiles of B, `stages` shared-memory stages of one chunk.
#define MXFP4_MMA_SM90_PIPELINED(BM, WN, NW)                                                                \
  extern "C" __global__ void __launch_bounds__(NW * 32, 8 / NW) mxfp4_mma_sm90_p##BM##_w##WN##_x##NW(              \
      const uint8_t *__restrict__ a_q, const uint8_t *__restrict__ b, const uint8_t *__restrict__ bs,         \
      uint16_t *__restrict__ c, int m, int n, int k, int kb_pad, int sn, int stages) {                        \
    mma_gemm_pipelined<BM, WN, NW>(a_q, b, bs, c, m, n, k, kb_pad, sn, stages);                               \
  }

MXFP4_MMA_SM90_PIPELINED(16, 1, 4)
MXFP4_MMA_SM90_PIPELINED(16, 2, 4)
MXFP4_MMA_SM90_PIPELINED(32, 1, 4)
MXFP4_MMA_SM90_PIPELINED(32, 2, 4)
MXFP4_MMA_SM90_PIPELINED(64, 1, 4)
MXFP4_MMA_SM90_PIPELINED(64, 2, 4)
MXFP4_MMA_SM90_PIPELINED(64, 1, 8)
MXFP4_MMA_SM90_PIPELINED(64, 2, 8)
MXFP4_MMA_SM90_PIPELINED(128, 1, 4)
MXFP4_MMA_SM90_PIPELINED(128, 1, 8)

// mxfp4_mma_sm90_g<BM>_x<NWG>: wgmma, A quantized beforehand (order 1), BM rows of A, NWG warpgroups
// of 64 rows of B, `stages` (3..6) shared-memory stages of one chunk.
#define MXFP4_MMA_SM90_WGMMA(BM, NWG)                                                                       \
  extern "C" __global__ void __launch_bounds__(NWG * 128, 1) mxfp4_mma_sm90_g##BM##_x##NWG(                    \
      const uint8_t *__restrict__ a_q, const uint8_t *__restrict__ b, const uint8_t *__restrict__ bs,         \
      uint16_t *__restrict__ c, int m, int n, int k, int kb_pad, int sn, int stages) {                        \
    mma_gemm_wgmma<BM, NWG>(a_q, b, bs, c, m, n, k, kb_pad, sn, stages);                                      \
  }

MXFP4_MMA_SM90_WGMMA(16, 1)
MXFP4_MMA_SM90_WGMMA(32, 1)
MXFP4_MMA_SM90_WGMMA(64, 1)
MXFP4_MMA_SM90_WGMMA(128, 1)
MXFP4_MMA_SM90_WGMMA(16, 2)
MXFP4_MMA_SM90_WGMMA(32, 2)
MXFP4_MMA_SM90_WGMMA(64, 2)
MXFP4_MMA_SM90_WGMMA(128, 2)

// mxfp4_mma_sm90_t<BM>_x<NWG>_k<KW>: wspec, A quantized beforehand (order 2, tiles of BM rows), BM rows
// of A, NWG x KW consumer warpgroups (NWG of 64 rows of B, KW along K) and one producer warp, `stages`
// (2..8) ring stages; at least CTAS of them on an SM (registers capped to fit).
#define MXFP4_MMA_SM90_WSPEC(BM, NWG, KW, CTAS)                                                             \
  extern "C" __global__ void __launch_bounds__(NWG * KW * 128 + 32, CTAS) mxfp4_mma_sm90_t##BM##_x##NWG##_k##KW( \
      const uint8_t *__restrict__ a_q, const uint8_t *__restrict__ b, const uint8_t *__restrict__ bs,         \
      uint16_t *__restrict__ c, int m, int n, int k, int kb_pad, int sn, int stages) {                        \
    mma_gemm_wspec<BM, NWG, KW>(a_q, b, bs, c, m, n, k, kb_pad, sn, stages);                                  \
  }

MXFP4_MMA_SM90_WSPEC(16, 1, 1, 3)
MXFP4_MMA_SM90_WSPEC(32, 1, 1, 3)
MXFP4_MMA_SM90_WSPEC(64, 1, 1, 3)
MXFP4_MMA_SM90_WSPEC(128, 1, 1, 1)
MXFP4_MMA_SM90_WSPEC(16, 2, 1, 1)
MXFP4_MMA_SM90_WSPEC(32, 2, 1, 1)
MXFP4_MMA_SM90_WSPEC(64, 2, 1, 1)
MXFP4_MMA_SM90_WSPEC(128, 2, 1, 1)
MXFP4_MMA_SM90_WSPEC(16, 1, 2, 1)
MXFP4_MMA_SM90_WSPEC(32, 1, 2, 1)
MXFP4_MMA_SM90_WSPEC(64, 1, 2, 1)
MXFP4_MMA_SM90_WSPEC(128, 1, 2, 1)
