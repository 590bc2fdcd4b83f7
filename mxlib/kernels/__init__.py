"""mxlib's Triton kernels: quantization (`quant_triton`) and one module per GEMM path (`gemm_asm`, `gemm_ck`,
`gemm_splitk`, `gemm_fused`, `gemm_fused_fp4`, `gemm_mma_sm90`), with shared @triton.jit helpers in `common`.
Paths "asm" and "ck" are two configurations of one portable tiled kernel (`gemm_tiled`); "splitk", "fused"
and "fused_fp4" have kernels of their own, the two
one-launch paths reducing split-K through `arrival` (launch-generation counters). Path "mma_sm90"
(`gemm_mma_sm90`) is CUDA C++ for Hopper instead, its source in `csrc/`, built with nvcc on first use.
Importing this package imports no kernel module and so not Triton; `mxlib.runtime.paths.path_module(name)`
loads a path when it is used.
"""
