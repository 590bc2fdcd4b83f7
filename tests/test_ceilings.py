"""mxlib.tools.ceilings on the CPU: the bytes one call must move and the floors they give. No timings here."""
import pytest

from mxlib.tools import ceilings
from mxlib.spec import shapes

# KERNEL_NOTES.md, "The H200's ceilings (measured)": copy 4.28 TB/s (read+write), bf16 mm 799 TFLOP/s,
# and the floors they give (us).
H200 = {"bandwidth_Bps": 4.28e12, "bf16_flops": 799e12}
NOTES_FLOORS = {(4, 2880, 512): 0.19, (16, 2112, 7168): 1.95, (32, 4096, 512): 0.33, (32, 2880, 512): 0.23,
                (64, 7168, 2048): 2.35, (256, 3072, 1536): 3.02}


def test_floor_bytes_counts_a_bf16_b_fp4_scales_c_bf16():
    m, n, k = 4, 2880, 512
    assert ceilings.floor_bytes(m, n, k) == 2 * 4 * 512 + 2880 * 256 + 2880 * 16 + 2 * 4 * 2880 == 810496


def test_floors_match_the_recorded_h200_floors():
    assert [s.mnk for s in shapes.load("benchmark")] == list(NOTES_FLOORS)
    for mnk, want in NOTES_FLOORS.items():
        assert round(ceilings.floor_us(*mnk, H200), 2) == want, mnk
    # Bandwidth-bound at M=4, compute-bound at M=256.
    assert ceilings.floor_us(4, 2880, 512, H200) == pytest.approx(810496 / 4.28e12 * 1e6)
    assert ceilings.floor_us(256, 3072, 1536, H200) == pytest.approx(2 * 256 * 3072 * 1536 / 799e12 * 1e6)


def test_floor_rejects_bad_ceilings_and_sizes():
    with pytest.raises(ValueError, match="bandwidth_Bps"):
        ceilings.floor_us(4, 64, 64, {"bf16_flops": 1e12})
    with pytest.raises(ValueError, match="bf16_flops"):
        ceilings.floor_us(4, 64, 64, {"bandwidth_Bps": 1e12, "bf16_flops": 0})
    with pytest.raises(ValueError, match="k must be a positive integer"):
        ceilings.floor_us(4, 64, 0, H200)
