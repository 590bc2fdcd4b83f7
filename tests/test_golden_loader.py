"""The golden loader (tests/golden.py) refuses a folder without its GEMM cases, so the tests that loop over
`gemm_cases` cannot pass on an empty loop."""
import os
import random
import shutil

import pytest

from . import golden


@pytest.mark.parametrize("rule", ["rne", "ties_away"])
def test_every_gemm_case_is_there(golden_dir, rule):
    cases = golden.gemm_cases(golden_dir, rule)
    assert set(golden.GEMM_CASES) <= set(cases)
    for name in cases:
        assert golden.contest_tuple(golden.load(golden_dir, rule, name))[0].shape[0] == int(name.split("_")[1].split("x")[0])


def test_a_folder_without_gemm_cases_is_refused(golden_dir, tmp_path):
    """Only the quant files (the case that let 14 GEMM tests pass with nothing checked), then all but one case."""
    rule = tmp_path / "rne"
    rule.mkdir()
    src = os.path.join(golden_dir, "rne")
    for f in os.listdir(src):
        if f.startswith("quant_"):
            shutil.copy(os.path.join(src, f), rule)
    with pytest.raises(FileNotFoundError, match=r"lacks 5 of the 5 golden GEMM cases"):
        golden.gemm_cases(str(tmp_path), "rne")
    dropped = random.SystemRandom().choice(golden.GEMM_CASES)
    for name in golden.GEMM_CASES:
        if name != dropped:
            (rule / (name + ".npz")).touch()
    with pytest.raises(FileNotFoundError, match=f"lacks 1 of the 5 golden GEMM cases: {dropped} "):
        golden.gemm_cases(str(tmp_path), "rne")
    (rule / (dropped + ".npz")).touch()
    assert golden.gemm_cases(str(tmp_path), "rne") == sorted(golden.GEMM_CASES)
