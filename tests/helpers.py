"""Helpers several test files share."""
import random

from mxlib.runtime.paths import PATHS, path_module


def fresh_seed() -> int:
    """A seed drawn fresh each run (not from torch's generator, which a test may have seeded); tests put it in
    their failure messages, so a failing draw can be replayed."""
    return random.SystemRandom().randrange(2**31)


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
