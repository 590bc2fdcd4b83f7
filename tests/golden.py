"""Loading the shared golden vectors (../shared/golden, see its README) as torch tensors."""
import os

import numpy as np
import torch


def bf16(bits: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(bits.astype(np.int16)).view(torch.bfloat16)


def load(golden_dir: str, rule: str, name: str) -> dict:
    d = np.load(os.path.join(golden_dir, rule, name + ".npz"), allow_pickle=False)
    return {k: (bf16(v) if k.endswith("_bf16_bits") else torch.from_numpy(v)) for k, v in d.items()}


def gemm_cases(golden_dir: str, rule: str):
    """Names of the gemm_MxNxK cases for one rule, sorted."""
    return sorted(f[:-4] for f in os.listdir(os.path.join(golden_dir, rule)) if f.startswith("gemm_"))


def contest_tuple(case: dict):
    """The contest's (A, B, B_q, B_shuffle, B_scale_sh) from a golden gemm case."""
    return (case["A_bf16_bits"], case["B_bf16_bits"], case["B_fp4x2"], case["B_shuffle"], case["B_scale_shuffled"])
