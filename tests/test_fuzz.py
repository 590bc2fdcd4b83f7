"""Seeded fuzz: random valid shapes and configs, block scales over the whole bf16 range, NaN, Inf,
-0.0 and zero blocks, every path against mxlib's rule (the torch backend's reference) by relative error
(`check_exact`), round by round under each rounding rule in turn. Outputs are passed in as `out=` filled
with a finite sentinel (NaN would hide a skipped write where the answer is NaN). Each run draws a fresh
seed and names it on failure; MXLIB_FUZZ_SEED=<seed> replays it. Without a GPU the Triton paths run in
the interpreter, so the shapes stay small.
"""
import os
import random

import pytest
import torch

from mxlib.runtime.paths import PATHS, path_available, path_module, path_zero_scale_operands
from mxlib.spec.layouts import e8m0_shuffle, shuffle_weight
from mxlib.spec.quant import ROUNDINGS, quantize_mxfp4
from mxlib.spec.reference import check_exact

from .helpers import fresh_seed

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROUNDS = 2  # round r quantizes with ROUNDINGS[r % 2]: "rne", then "ties_away"
# bf16 bits of +-3.39e38 (the largest finite magnitude), the output's fill before each call: an element the
# kernel skips keeps it, which the rule rejects wherever the exact result is NaN, +-Inf or finite and not that.
SENTINELS = (0x7F7F, -0x0081)

# numpy (the interpreter) warns on the Inf and NaN these inputs are made to produce.
pytestmark = [pytest.mark.filterwarnings("ignore:overflow encountered"),
              pytest.mark.filterwarnings("ignore:invalid value encountered")]


def fuzz_matrix(rng: random.Random, rows: int, k: int) -> torch.Tensor:
    """fp32 (rows, k): randn blocks of 32 each scaled by 2**p, p near 0 for half the blocks and
    anywhere in bf16's range (-133..127, subnormal to overflowing) for the other half; a few blocks
    all zero, all -0.0, or holding a NaN, +Inf or -Inf."""
    gen = torch.Generator().manual_seed(fresh_seed())
    x = torch.randn(rows, k, generator=gen)
    for r in range(rows):
        for b in range(k // 32):
            block = x[r, b * 32:(b + 1) * 32]
            p = rng.randint(-10, 10) if rng.random() < 0.5 else rng.randint(-133, 127)
            block.mul_(2.0**p)
            kind = rng.random()
            if kind < 0.02:
                block.zero_()
            elif kind < 0.04:
                block.fill_(-0.0)
            elif kind < 0.05:
                block[rng.randrange(32)] = rng.choice((float("nan"), float("inf"), float("-inf")))
    return x


def fuzz_case(rng: random.Random, rounding: str = "rne"):
    """(data, configs): one random case, B quantized with `rounding` (A is quantized by the callee)."""
    m, n, k = rng.randint(1, 40), 16 * rng.randint(1, 6), 64 * rng.randint(1, 4)
    a = fuzz_matrix(rng, m, k).to(torch.bfloat16)
    b_q, b_s = quantize_mxfp4(fuzz_matrix(rng, n, k).to(torch.bfloat16), rounding)
    data = (a, torch.zeros(n, k, dtype=torch.bfloat16), b_q, shuffle_weight(b_q), e8m0_shuffle(b_s))
    configs = {
        "asm": None,
        "ck": None,
        "splitk": path_module("splitk").Config(block_m=16, block_n=rng.choice((32, 64)),
                                               block_k=rng.choice((64, 128)), split_k=rng.randint(1, 3)),
        "fused": path_module("fused").Config(block_m=rng.choice((16, 32)), block_n=64, block_k=rng.choice((64, 128)),
                                             split_k=rng.randint(1, 4), a_once=rng.randint(0, 1)),
        "fused_fp4": path_module("fused_fp4").Config(block_m=rng.choice((16, 32)), block_n=rng.choice((16, 64)),
                                                     block_k=rng.choice((64, 128)), split_k=rng.randint(1, 4)),
    }
    return tuple(t.to(DEVICE) for t in data), configs


def runnable_configs(configs: dict, device) -> dict:
    """`configs` for every path that can run on `device`, with the default config (None) for a path
    `fuzz_case` draws no config for."""
    return {name: configs.get(name) for name in PATHS if path_available(name, device)[0]}


def test_fuzz_every_path_follows_the_rule():
    seed = int(os.environ.get("MXLIB_FUZZ_SEED") or fresh_seed())
    rng = random.Random(seed)
    for round_ in range(ROUNDS):
        rounding = ROUNDINGS[round_ % len(ROUNDINGS)]
        data, configs = fuzz_case(rng, rounding)
        configs = runnable_configs(configs, DEVICE)
        a, _, _, b_shuffle, b_scale_sh = data
        shape = f"{a.shape[0]}x{b_shuffle.shape[0]}x{a.shape[1]} {rounding}"
        for path, cfg in configs.items():
            out = torch.full((a.shape[0], b_shuffle.shape[0]), SENTINELS[round_ % 2], dtype=torch.int16,
                             device=DEVICE).view(torch.bfloat16)
            assert path_module(path).gemm(a, b_shuffle, b_scale_sh, config=cfg, rounding=rounding, out=out) is out
            ok, msg = check_exact(data, out, rounding, zero_scale_operands=path_zero_scale_operands(path, DEVICE))
            assert ok, f"MXLIB_FUZZ_SEED={seed} round {round_} {shape} {path} {cfg}: {msg}"
