"""One empty Triton kernel: the cost of a launch under the contest's timing, the floor under every call."""
from __future__ import annotations

import triton


@triton.jit
def _empty_kernel():
    pass


def launch_empty() -> None:
    """Launch one empty kernel (a single program) on the current device's default queue."""
    _empty_kernel[(1,)]()
