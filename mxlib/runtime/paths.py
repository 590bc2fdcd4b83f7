"""The registry of GEMM paths: name -> module (imported only when used, so `import mxlib` stays light).

Each path module exposes the same contract:
  gemm(a, b_shuffle, b_scale_sh, *, config=None, rounding="rne", out=None) -> bf16 (M, N), fresh unless `out`;
  Config, a frozen dataclass with at least block_m, block_n, block_k, split_k, num_warps, num_stages;
  default_config(m, n, k, device=None) -> Config, shaped for the GPU `device` (None: the current GPU, the H200
  without one) where the path's default depends on the GPU's size, `device` unread where it does not;
  grid(m, n, k, config) -> CTAs launched per call, all launches summed (for the occupancy model);
  both taking the shape as `mxlib.spec.ints.gemm_shape` does (M = 0 too for grid), ValueError naming the argument
  otherwise;
  optionally available(device) -> (bool, one-line reason), for a path that runs only where it can be
  built (`path_available`; the Triton paths run wherever Triton does);
  optionally zero_scale_operands(device) -> the operands ("A", "B") whose blocks with E8M0 scale byte 0
  the path reads as zero on `device`, the rule's one documented departure (mxlib.spec.reference;
  `path_zero_scale_operands`).
Adding a path is one line here.
"""
from __future__ import annotations

import importlib

from ..spec import validate

PATHS = {
    "asm": "mxlib.kernels.gemm_asm",
    "ck": "mxlib.kernels.gemm_ck",
    "splitk": "mxlib.kernels.gemm_splitk",
    "fused": "mxlib.kernels.gemm_fused",
    "fused_fp4": "mxlib.kernels.gemm_fused_fp4",
    "mma_sm90": "mxlib.kernels.gemm_mma_sm90",
}

# Paths whose kernels are CUDA C++ built by nvcc, not Triton (mxlib.tools.isa compiles the Triton ones;
# tests/test_gemm_mma_sm90.py compiles these).
CUDA_PATHS = ("mma_sm90",)


# Path name -> its module, once an import of it has finished (`path_module`).
_IMPORTED: dict = {}


def path_module(name: str):
    """The module implementing path `name` (imports Triton). One this function imported before is looked up, not
    imported again: the dispatcher asks three times a call, and the import machinery costs the host about 2 us
    each. Not looked up in sys.modules: while one thread imports a path, sys.modules holds it half made, and
    a second thread must wait in `importlib.import_module` for the import to finish."""
    module = _IMPORTED.get(name) if isinstance(name, str) else None
    if module is None:
        validate.choice(name, "path", tuple(PATHS))
        module = _IMPORTED[name] = importlib.import_module(PATHS[name])
    return module


def path_available(name: str, device) -> tuple[bool, str]:
    """(can path `name` run on `device`, one line saying why not): the module's own `available`
    where it has one (paths that need a compiler or a GPU generation), else (True, "")."""
    check = getattr(path_module(name), "available", None)
    return (True, "") if check is None else check(device)


def path_zero_scale_operands(name: str, device) -> tuple:
    """The operands whose blocks with scale byte 0 path `name` reads as zero on `device` (the module's own
    `zero_scale_operands`; () for a path without one): what `mxlib.spec.reference.check_exact` takes as
    `zero_scale_operands` to check that path's output there."""
    check = getattr(path_module(name), "zero_scale_operands", None)
    return () if check is None else tuple(check(device))
