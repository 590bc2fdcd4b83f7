"""The touch baseline (mxlib.tools.baselines.touch): it reads every input word (a planted word changes what it
writes) and writes every element of C, in the interpreter without a GPU."""
import pytest
import torch

from mxlib.tools.baselines import touch
from mxlib.spec.reference import generate_input

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


@pytest.mark.parametrize("where", ["a", "b_shuffle", "b_scale_sh"])
def test_reads_every_word_and_writes_all_of_c(where):
    data = generate_input(6, 64, 256, 11, device=DEVICE)
    a, _, _, bs, ss = data
    args = {"a": a.clone(), "b_shuffle": bs.clone(), "b_scale_sh": ss.clone()}
    out = touch.touch(args["a"], args["b_shuffle"], args["b_scale_sh"], programs=5, block=128)
    assert out.shape == (6, 64) and out.dtype == torch.bfloat16
    assert not out.isnan().any() and out.abs().sum() == 0
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
        assert (out.float() != 0).any(), (index, programs)


def test_bad_arguments():
    a, _, _, bs, ss = generate_input(2, 32, 64, 1, device=DEVICE)
    with pytest.raises(ValueError, match="block"):
        touch.touch(a, bs, ss, block=100)
    with pytest.raises(ValueError, match="programs"):
        touch.touch(a, bs, ss, programs=0)
