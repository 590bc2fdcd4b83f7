"""mxlib: MXFP4 GEMM for the `amd-mxfp4-mm` problem, as a library the workbook imports.

The spec lives in `mxlib.spec.quant` (quantization), `mxlib.spec.layouts` (the preshuffled layouts) and
`mxlib.spec.reference` (the contest's inputs, reference and check); everything else must agree with them.
Importing mxlib registers the custom op `torch.ops.mxlib.mxfp4_gemm` (`mxlib.mxfp4_gemm` calls it;
`mxlib.runtime.ops`) and imports neither Triton nor aiter.
"""
from .runtime.backends import backends
from .runtime.dispatch import custom_kernel
from .spec.formats import BLOCK_SIZE, E2M1_MAGNITUDES, e2m1_table, e8m0_to_float32
from .spec.layouts import e8m0_shuffle, e8m0_unshuffle, shuffle_weight, unshuffle_weight
from .runtime.ops import mxfp4_gemm
from .runtime.paths import PATHS
from .runtime.quant import quantize_mxfp4, quantize_mxfp4_shuffled
from .spec.quant import ROUNDINGS, dequantize_mxfp4
from .spec.reference import check_exact, check_implementation, generate_input, ref_kernel
from .spec.seed import seed_plan

__version__ = "0.1.0"

__all__ = [
    "BLOCK_SIZE",
    "E2M1_MAGNITUDES",
    "PATHS",
    "ROUNDINGS",
    "backends",
    "check_exact",
    "check_implementation",
    "custom_kernel",
    "dequantize_mxfp4",
    "e2m1_table",
    "e8m0_shuffle",
    "e8m0_to_float32",
    "e8m0_unshuffle",
    "generate_input",
    "mxfp4_gemm",
    "quantize_mxfp4",
    "quantize_mxfp4_shuffled",
    "ref_kernel",
    "seed_plan",
    "shuffle_weight",
    "unshuffle_weight",
]
