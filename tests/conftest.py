"""Test setup: on a machine without a GPU, Triton kernels run in its interpreter.

TRITON_INTERPRET must be set before triton is first imported, hence here at collection time.
"""
import os
import sys

import pytest
import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")

# A copy of the team's shared golden vectors (see tests/golden/README.md); MXLIB_GOLDEN points elsewhere.
GOLDEN_DIR = os.environ.get("MXLIB_GOLDEN", os.path.join(os.path.dirname(__file__), "golden"))


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a CUDA or ROCm device")


def pytest_collection_modifyitems(config, items):
    if torch.cuda.is_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA or ROCm device")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _seeds_drawn():
    """Each test's fresh seeds listed from empty (tests.helpers.fresh_seed)."""
    from .helpers import SEEDS_DRAWN

    SEEDS_DRAWN.clear()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test's report names the fresh seeds it drew, in order, to replay the inputs that failed."""
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        from .helpers import SEEDS_DRAWN

        if SEEDS_DRAWN:
            report.sections.append(("fresh seeds drawn", ", ".join(map(str, SEEDS_DRAWN))))


@pytest.fixture(autouse=True)
def _no_dispatch_variables(monkeypatch):
    """The caller's $MXLIB_BACKEND and $MXLIB_PATH would change what the dispatcher picks: every test starts without
    them, and a test that means them sets them itself."""
    from mxlib.runtime import dispatch

    monkeypatch.delenv(dispatch.ENV_BACKEND, raising=False)
    monkeypatch.delenv(dispatch.ENV_PATH, raising=False)


@pytest.fixture(autouse=True)
def _fresh_aiter_verdicts():
    """The aiter backend keeps its verdicts for the process (the installation does not change under it);
    tests do change it, installing fake aiters and platforms, so each starts and ends without them."""
    from mxlib.runtime import aiter_backend

    aiter_backend._status.cache_clear()
    yield
    aiter_backend._status.cache_clear()


@pytest.fixture(autouse=True)
def _close_figures():
    """The readings and sections draw a figure a call; pyplot keeps each open until closed, so each test's are
    closed after it (where pyplot is in use at all)."""
    yield
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close("all")


@pytest.fixture
def golden_dir():
    if not os.path.isdir(GOLDEN_DIR):
        pytest.fail(f"golden vectors not found at {GOLDEN_DIR} (set MXLIB_GOLDEN)")
    return GOLDEN_DIR
