"""Helpers several test files share."""
import random

import torch

from mxlib.runtime.paths import PATHS, path_module
from mxlib.spec.layouts import e8m0_shuffle, shuffle_weight
from mxlib.spec.quant import quantize_mxfp4
from mxlib.spec.reference import check_implementation, generate_input


SEEDS_DRAWN: list[int] = []  # this test's draws, in order: conftest empties it before a test, reports it on failure


def fresh_seed() -> int:
    """A seed drawn fresh each run (not from torch's generator, which a test may have seeded). A failing test's
    report lists every seed it drew (conftest), so the failing draw can be replayed."""
    seed = random.SystemRandom().randrange(2**31)
    SEEDS_DRAWN.append(seed)
    return seed


def contest_tuple(a: torch.Tensor, b: torch.Tensor):
    """The contest's input tuple for float A (M, K) and B (N, K), built with the library's quantizer and shuffles."""
    b_q, b_s = quantize_mxfp4(b.to(torch.bfloat16))
    return a.to(torch.bfloat16), b.to(torch.bfloat16), b_q, shuffle_weight(b_q), e8m0_shuffle(b_s)


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


def assert_counters_stay_in_their_buffer(monkeypatch, module, config) -> None:
    """Run `module.gemm` with `config` on a fresh 20x128x256 problem, its launches handed counter buffers of
    exactly the count they ask for followed by one sentinel word: the output must be right and every sentinel
    intact, so a launch that asks for fewer counters than its kernel uses fails (the shared buffers hold at
    least the count, so an undercount there goes unseen)."""
    sentinel, handed = 12345, []

    def buffer(device, count):
        t = torch.zeros(count + 1, dtype=torch.int64, device=device)
        t[count] = sentinel
        handed.append(t)
        return t

    monkeypatch.setattr(module, "mx_counter_buffer", buffer)
    data = generate_input(20, 128, 256, fresh_seed(), device="cuda" if torch.cuda.is_available() else "cpu")
    ok, msg = check_implementation(data, run_into_nan(module.gemm, data[0], data[3], data[4], config), "rne")
    assert ok, msg
    assert handed and all(int(t[-1]) == sentinel for t in handed)


def probe_row(key, variant, config, us, ok="1") -> dict:
    """A row of a probe.csv as csv.DictReader reads it (every cell text): shape `key`, a variant and its config,
    its check's ok and contest time."""
    return {"m": str(key[0]), "n": str(key[1]), "k": str(key[2]), "variant": variant, "config": config, "ok": ok,
            "contest_us": str(us)}
