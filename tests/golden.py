"""Loading the golden vectors (tests/golden/, a copy of the team's shared set; see its README) as torch tensors."""
import os

import numpy as np
import torch


def bf16(bits: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(bits.astype(np.int16)).view(torch.bfloat16)


def load(golden_dir: str, rule: str, name: str) -> dict:
    d = np.load(os.path.join(golden_dir, rule, name + ".npz"), allow_pickle=False)
    return {k: (bf16(v) if k.endswith("_bf16_bits") else torch.from_numpy(v)) for k, v in d.items()}


# The GEMM cases of each rule's folder (tests/golden/README.md): a test looping over gemm_cases would pass
# with no case at all, so a folder lacking any of them is an error.
GEMM_CASES = ("gemm_16x128x1024", "gemm_32x96x256", "gemm_4x64x512", "gemm_64x256x512", "gemm_8x32x7168")


def gemm_cases(golden_dir: str, rule: str):
    """Names of the gemm_MxNxK cases for one rule, sorted; FileNotFoundError when any of GEMM_CASES is missing."""
    folder = os.path.join(golden_dir, rule)
    found = sorted(f[:-4] for f in os.listdir(folder) if f.startswith("gemm_") and f.endswith(".npz"))
    missing = sorted(set(GEMM_CASES) - set(found))
    if missing:
        raise FileNotFoundError(f"{folder} lacks {len(missing)} of the {len(GEMM_CASES)} golden GEMM cases: "
                                f"{', '.join(missing)} (tests/golden/README.md lists them; MXLIB_GOLDEN must point "
                                f"at a complete copy)")
    return found


def contest_tuple(case: dict):
    """The contest's (A, B, B_q, B_shuffle, B_scale_sh) from a golden gemm case."""
    return (case["A_bf16_bits"], case["B_bf16_bits"], case["B_fp4x2"], case["B_shuffle"], case["B_scale_shuffled"])
