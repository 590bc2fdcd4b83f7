"""Helpers several test files share."""
import random

import torch

from mxlib.runtime.paths import PATHS, path_module


SEEDS_DRAWN: list[int] = []  # this test's draws, in order: conftest empties it before a test, reports it on failure


def fresh_seed() -> int:
    """A seed drawn fresh each run (not from torch's generator, which a test may have seeded). A failing test's
    report lists every seed it drew (conftest), so the failing draw can be replayed."""
    seed = random.SystemRandom().randrange(2**31)
    SEEDS_DRAWN.append(seed)
    return seed


def run_into_nan(gemm, a, b_shuffle, b_scale_sh, config=None, rounding="rne"):
    """`gemm`'s C written into an `out` filled with NaN (a row or tile it left unwritten shows), checked to be
    that very tensor."""
    out = torch.full((a.shape[0], b_shuffle.shape[0]), float("nan"), dtype=torch.bfloat16, device=a.device)
    assert gemm(a, b_shuffle, b_scale_sh, config=config, rounding=rounding, out=out) is out
    return out


def assert_default_configs_fit_the_contest_shapes(module) -> None:
    """A path module's default config for every contest shape: its own Config, `grid` counting the tiles
    times split_k, and no more splits than K has block_k iterations."""
    from mxlib.spec import shapes

    for s in shapes.load():
        cfg = module.default_config(s.m, s.n, s.k)
        assert isinstance(cfg, module.Config)
        tiles = -(-s.m // cfg.block_m) * -(-s.n // cfg.block_n)
        assert module.grid(s.m, s.n, s.k, cfg) == tiles * cfg.split_k
        assert cfg.split_k <= -(-s.k // cfg.block_k)


def spy_on_paths(monkeypatch) -> list:
    """Wrap every GEMM path module's `gemm` for the test's duration, so that each call appends the path's name
    to the list returned: every path gives the same bits on most inputs, so a test of path selection that
    compared outputs alone would pass with the wrong path."""
    ran = []
    for name in PATHS:
        module = path_module(name)

        def recorded(*args, _name=name, _gemm=module.gemm, **kwargs):
            ran.append(_name)
            return _gemm(*args, **kwargs)

        monkeypatch.setattr(module, "gemm", recorded)
    return ran


SENTINEL = 12345


def fence_counter_buffers(monkeypatch, module) -> list:
    """Make `module`'s launches get counter buffers of exactly the count asked for, followed by one word
    holding SENTINEL, and return the list of buffers handed out: a launch that asks for fewer counters than
    its kernel uses writes the sentinel (the shared buffers are at least the count, so an undercount there
    goes unseen)."""
    handed = []

    def buffer(device, count):
        t = torch.zeros(count + 1, dtype=torch.int64, device=device)
        t[count] = SENTINEL
        handed.append(t)
        return t

    monkeypatch.setattr(module, "mx_counter_buffer", buffer)
    return handed
