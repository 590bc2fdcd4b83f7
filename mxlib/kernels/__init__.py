"""mxlib's Triton kernels: quantization (`quant_triton`) and one module per GEMM path (`gemm_*`),
with shared @triton.jit helpers in `common`. Importing this package imports no kernel module and so
not Triton; `mxlib.runtime.paths.path_module(name)` loads a path when it is used."""
