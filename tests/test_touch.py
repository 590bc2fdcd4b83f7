"""The touch baseline (mxlib.tools.baselines.touch): it reads every input word (a planted word changes what it
writes) and writes every element of C, in the interpreter without a GPU.

`touch` allocates C with torch.empty; here that allocation is filled with NaN bits first (the module's
`torch` is swapped for a stand-in whose `empty` poisons), so a word the kernel skips stays NaN whatever
the allocator hands out."""

import pytest
import torch

from mxlib.tools.baselines import touch
from mxlib.spec.reference import generate_input

from .helpers import fresh_seed

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
POISON = 0x7FC0  # bf16 NaN bits: the kernel writes int32 words 0 or 1, never this


class _PoisonedTorch:
    """torch, except that `empty` returns memory filled with POISON (and counts its calls)."""

    def __init__(self):
        self.empties = 0

    def __getattr__(self, name):
        return getattr(torch, name)

    def empty(self, *args, **kwargs):
        self.empties += 1
        t = torch.empty(*args, **kwargs)
        t.view(torch.int16).fill_(POISON)
        return t


@pytest.fixture
def poisoned(monkeypatch):
    stand_in = _PoisonedTorch()
    monkeypatch.setattr(touch, "torch", stand_in)
    return stand_in


@pytest.mark.parametrize("where", ["a", "b_shuffle", "b_scale_sh"])
def test_reads_every_word_and_writes_all_of_c(poisoned, where):
    data = generate_input(6, 64, 256, fresh_seed(), device=DEVICE)
    a, _, _, bs, ss = data
    args = {"a": a.clone(), "b_shuffle": bs.clone(), "b_scale_sh": ss.clone()}
    out = touch.touch(args["a"], args["b_shuffle"], args["b_scale_sh"], programs=5, block=128)
    assert poisoned.empties == 1  # C came from the poisoned allocation
    assert out.shape == (6, 64) and out.dtype == torch.bfloat16
    assert (out.view(torch.int16) == 0).all()  # every word written, all zeros (no poison left)
    # Zero the three inputs, then plant the one word whose XOR makes a program write ones into its slice
    # of C: the last word of the chosen input, with one program (so a loop that stopped short misses
    # it), and the first word with several (program 0 owns C's first slice).
    for t in args.values():
        t.view(torch.uint8).zero_()
    words = args[where].view(torch.uint8).reshape(-1).view(torch.int32)
    for index, programs in ((-1, 1), (0, 5)):
        words.zero_()
        words[index] = 0x7F7F7F7F
        out = touch.touch(args["a"], args["b_shuffle"], args["b_scale_sh"], programs=programs, block=128)
        c = out.view(torch.int32).reshape(-1)
        assert ((c == 0) | (c == 1)).all(), (index, programs)  # every word written
        assert (c == 1).any(), (index, programs)
        if programs == 1:
            assert (c == 1).all()  # the one program saw the planted word and owns all of C


def test_bad_arguments():
    a, _, _, bs, ss = generate_input(2, 32, 64, fresh_seed(), device=DEVICE)
    with pytest.raises(ValueError, match="block must be a power of two >= 128, got 100"):
        touch.touch(a, bs, ss, block=100)
    with pytest.raises(ValueError, match="programs must be a positive integer, got 0"):
        touch.touch(a, bs, ss, programs=0)
