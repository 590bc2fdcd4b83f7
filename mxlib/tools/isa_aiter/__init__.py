"""A stand-in `aiter` package for `python -m mxlib isa`: put this folder first on sys.path and a submission
that imports aiter loads, so its own Triton kernels can be captured and compiled with no GPU and no ROCm.

What it offers (the names the seed and mxlib's AMD exports import): `aiter.dtypes`, `aiter.gemm_a4w4`,
`aiter.ops.gemm_op_a4w4.gemm_a4w4_asm` (aiter's compiled ASM/CK kernels: recorded in `CALLS`, never
compiled), `aiter.ops.triton.quant._mxfp4_quant_op` (a Triton stand-in, see its docstring) and
`aiter.ops.triton.gemm.basic.gemm_afp4wfp4.gemm_afp4wfp4_preshuffle` (aiter's Triton GEMM: launched from
an installed PyPI amd-aiter's kernel files when there are any, else recorded).
"""
