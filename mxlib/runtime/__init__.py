"""The runtime: choosing and calling a GEMM for the contest's inputs.

`paths` (the registry of GEMM paths in `mxlib.kernels`: Triton, and CUDA C++ for mma_sm90), `backends` (which backends can run
here), `dispatch` (`custom_kernel`: backend, path and per-device config tables), `aiter_backend` (whether
and how the seed's own aiter calls run, ROCm only), `aiter_calls` (those calls, shared with the exported
MI355X file), `quant` (the quantizer's implementation choice) and `ops` (the GEMM as a `torch.library`
op). Imports the spec and, only when a path runs, the kernels.
"""
