"""mxlib.tools.mfma: the scaled MFMA's lane layout for E2M1 operands against the two shuffled layouts."""
import pytest
import torch

from mxlib.spec.layouts import e8m0_shuffle, weight_position
from mxlib.tools import mfma


@pytest.mark.parametrize("shape", list(mfma.SHAPES))
def test_every_lane_holds_one_row_block_and_the_wave_covers_the_operand(shape):
    rows, k = mfma.SHAPES[shape]
    ls = mfma.lanes(shape)
    assert [x.lane for x in ls] == list(range(64))
    covered = {(x.row, x.k_first + j) for x in ls for j in range(mfma.VALUES_PER_LANE)}
    assert covered == {(r, kk) for r in range(rows) for kk in range(k)}  # each (row, K) exactly once: 64*32 = rows*k
    assert all(x.k_first == 32 * x.block for x in ls)


def test_16x16x128_b_operand_is_one_contiguous_kilobyte_of_b_shuffle():
    # lane l reads bytes 16l .. 16l+15 of the 1024-byte run: one coalesced 16-byte load per lane
    for kb_total in (256, 3584):
        for n0, k0 in ((0, 0), (16, 128), (32, 6144)):
            runs = mfma.weight_runs("16x16x128", kb_total, n0=n0, k0=k0)
            base = weight_position(n0, k0 // 2, kb_total)
            assert runs == [base + 16 * l for l in range(64)]


def test_32x32x64_b_operand_is_two_512_byte_runs():
    for kb_total in (256, 3584):
        runs = mfma.weight_runs("32x32x64", kb_total)
        assert runs[:16] == [16 * l for l in range(16)]  # rows 0-15, K 0-31
        assert runs[32:48] == [256 + 16 * l for l in range(16)]  # rows 0-15, K 32-63: right after
        group = 16 * kb_total  # rows 16-31 sit in the next 16-row group
        assert runs[16:32] == [group + 16 * l for l in range(16)]
        assert runs[48:] == [group + 256 + 16 * l for l in range(16)]
        assert mfma.contiguous_runs("32x32x64", kb_total) == [(0, 511), (group, group + 511)]


def test_contiguous_runs_of_16x16x128_is_one_kilobyte():
    for kb_total, n0, k0 in ((256, 16, 128), (3584, 32, 6144)):
        base = weight_position(n0, k0 // 2, kb_total)
        assert mfma.contiguous_runs("16x16x128", kb_total, n0=n0, k0=k0) == [(base, base + 1023)]
    with pytest.raises(ValueError, match="kb_total"):
        mfma.contiguous_runs("16x16x128", 48)


def test_16x16x128_scales_one_word_per_lane_four_mfmas_per_word():
    sn = 8
    for n0 in (0, 16):
        for k0 in (0, 128):
            words = mfma.scale_words("16x16x128", sn, n0=n0, k0=k0)
            assert [w for w, _ in words] == list(range(64))  # lane l: word l of the 256-byte tile
            assert {b for _, b in words} == {n0 // 16 + 2 * (k0 // 128)}


def test_scale_bytes_read_each_lanes_scale_out_of_an_e8m0_shuffled_tensor():
    """Against the shuffle itself: each (row, block) of a (64, 16) scale tensor is numbered (low and high byte
    shuffled apart), and the number at each lane's offset in the shuffled tensors is its row's, for its block."""
    natural = torch.arange(64 * 16).reshape(64, 16)
    low, high = (e8m0_shuffle(part.to(torch.uint8)).flatten() for part in (natural % 256, natural // 256))
    for shape in mfma.SHAPES:
        for n0, k0 in ((0, 0), (32, 256)):
            offsets = mfma.scale_bytes(shape, 16, n0=n0, k0=k0)
            got = (low[offsets].long() + 256 * high[offsets].long()).tolist()
            assert got == [natural[n0 + x.row, (k0 + x.k_first) // 32].item() for x in mfma.lanes(shape)], shape


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="shape must be one of"):
        mfma.lanes("16x16x32")
    with pytest.raises(ValueError, match="n0 must be a multiple of 16"):
        mfma.weight_runs("16x16x128", 256, n0=8)
    with pytest.raises(ValueError, match="k0 must be a multiple of 64"):
        mfma.scale_bytes("32x32x64", 8, k0=32)


def test_bytes_used_per_word_all_four_at_16x16x128_half_at_32x32x64():
    assert mfma.bytes_used_per_word("16x16x128", 8) == 4
    assert mfma.bytes_used_per_word("32x32x64", 8) == 2
    assert mfma.bytes_used_per_word("32x32x64", 224) == 2  # the contest's K = 7168
