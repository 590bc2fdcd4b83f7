"""Baselines: kernels that are not mxlib's paths, run beside them for comparison, one module each
(each module's docstring says what it is). `aiter_triton` is aiter's own Triton preshuffle MXFP4 GEMM,
loaded by file path from an installed amd-aiter without `import aiter`.

Importing this package imports none of its modules, hence neither Triton nor aiter.
"""
