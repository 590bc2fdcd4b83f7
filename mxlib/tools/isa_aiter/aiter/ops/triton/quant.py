"""aiter.ops.triton.quant._mxfp4_quant_op, a stand-in written from aiter's documented algorithm.

Per 32-element block: amax rounded up (+0x200000, mantissa cleared) to a power of two, scale exponent
floor(log2(amax)) - 2 clamped to [-127, 127], elements scaled by 2**-e and rounded to E2M1 half to even
(|q| < 1 by adding 2**22 in fp32, 1 <= |q| < 6 by the mantissa bit trick, |q| >= 6 saturating to 6),
the sign in bit 3, the even element in the low nibble. Returns (packed (BLOCK_SIZE_M, BLOCK_SIZE_N / 2)
uint8, scales (BLOCK_SIZE_M, BLOCK_SIZE_N / 32) uint8). Its compiled code is close to, not the same as,
aiter's: `python -m mxlib isa` labels the kernels that call it.
"""
import triton
import triton.language as tl


@triton.jit
def _mxfp4_quant_op(x, BLOCK_SIZE_N, BLOCK_SIZE_M, MXFP4_QUANT_BLOCK_SIZE):
    BLOCKS: tl.constexpr = BLOCK_SIZE_N // MXFP4_QUANT_BLOCK_SIZE
    x = tl.reshape(x, (BLOCK_SIZE_M, BLOCKS, MXFP4_QUANT_BLOCK_SIZE))
    amax = tl.max(tl.abs(x), axis=2, keep_dims=True)
    bits = (amax.to(tl.int32, bitcast=True) + 0x200000) & -0x800000
    e = tl.clamp(tl.floor(tl.log2(bits.to(tl.float32, bitcast=True))) - 2, -127.0, 127.0)
    q = (x * tl.exp2(-e)).to(tl.int32, bitcast=True)
    sign = (q >> 28) & 8
    a = q & 0x7FFFFFFF
    af = a.to(tl.float32, bitcast=True)
    small = ((af + 4194304.0).to(tl.int32, bitcast=True) - (149 << 23))
    normal = (a + (((1 - 127) << 23) + (1 << 21) - 1) + ((a >> 22) & 1)) >> 22
    code = tl.where(af >= 6.0, 7, tl.where(af < 1.0, small, normal)) | sign
    code = tl.reshape(code, (BLOCK_SIZE_M, BLOCK_SIZE_N // 2, 2))
    lo, hi = tl.split(code)
    packed = (lo | (hi << 4)).to(tl.uint8)
    scales = tl.reshape((e.to(tl.int32) + 127).to(tl.uint8), (BLOCK_SIZE_M, BLOCKS))
    return packed, scales
