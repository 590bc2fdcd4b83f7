"""mxlib.tools.timing and the ceilings refuse a machine without a GPU, saying what they need. No timings here."""
import pytest
import torch

from mxlib.tools import ceilings, timing


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the CPU refusal")
def test_gpu_timing_refuses_cpu_clearly():
    for fn in (lambda: timing.time_contest(lambda: None), lambda: timing.time_graph(lambda: None),
               lambda: ceilings.measure_ceilings(), lambda: timing.L2Flush()):
        with pytest.raises(RuntimeError, match="needs a CUDA"):
            fn()
