"""mxlib.tools.check.checked: one checked call a shape, the line naming what ran; `python -m mxlib check`'s
choice of backend and its verdict when no kernel was checked."""
import os

import pytest
import torch

from mxlib.runtime import dispatch
from mxlib.tools import check


def test_checked_names_what_ran_and_fails_a_wrong_output(monkeypatch):
    rows = [("small", 4, 64, 512, 11), ("small", 8, 32, 256, 12)]
    got = list(check.checked(rows, "cpu", backend="torch"))
    assert [ok for _, ok in got] == [True, True]
    assert got[0][0].split()[:7] == ["small", "4", "64", "512", "11", "torch", "-"] and " yes " in got[0][0]
    real = dispatch.custom_kernel
    monkeypatch.setattr(dispatch, "custom_kernel", lambda data, **kw: real(data, **kw) + 1.0)  # every output off by 1
    (line, ok), = check.checked(rows[:1], "cpu", backend="torch")
    assert not ok and " NO " in line and len(check.HEADER.split()) == 10
    monkeypatch.undo()
    (line, ok), = check.checked(rows[1:], "cpu", backend="torch", timed=False)
    assert ok and line.split()[8] == "-"


def test_checked_passes_backend_and_path_and_names_what_ran(monkeypatch):
    seen, real = [], dispatch.custom_kernel
    monkeypatch.setattr(dispatch, "custom_kernel", lambda data, **kw: seen.append(kw) or real(data, backend="torch"))
    (line, ok), = check.checked([("small", 4, 64, 512, 11)], "cpu", backend="triton", path="splitk")
    assert ok and seen == [{"backend": "triton", "path": "splitk"}] and line.split()[5:7] == ["triton", "splitk"]
    (line, ok), = check.checked([("small", 4, 64, 512, 11)], "cpu", backend="triton")
    assert line.split()[5] == "triton"  # what ran, not the CPU's default backend


def _run(argv, monkeypatch, capsys):
    """`python -m mxlib check ARGV` on the CPU with `checked` stood in: (exit code, stdout, the backend that
    run() handed to checked)."""
    from mxlib.__main__ import main

    handed = []

    def fake_checked(rows, device, backend=None, path=None):
        handed.append(backend)
        for kind, m, n, k, seed in rows:
            yield f"{kind} {m} {n} {k} {seed}", True

    monkeypatch.setattr(check, "checked", fake_checked)
    monkeypatch.setattr(check, "backends", lambda: {"triton": (True, ""), "torch": (True, ""), "aiter": (False, "")})
    code = main(["check", "--device", "cpu", *argv])
    return code, capsys.readouterr().out, handed[0] if handed else None


def test_a_set_aside_environment_backend_does_not_beat_the_commands_default(monkeypatch, capsys):
    """$MXLIB_BACKEND=torch is set aside for --path fused (torch has no paths), as custom_kernel sets it aside,
    so check's own CPU default (triton) holds; without --path the variable applies."""
    monkeypatch.setenv(dispatch.ENV_BACKEND, "torch")
    assert _run(["--path", "fused"], monkeypatch, capsys)[::2] == (0, "triton")
    assert _run([], monkeypatch, capsys)[::2] == (0, None)  # None: the variable fills it in, in the dispatcher


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the CPU default")
def test_a_check_that_checked_no_kernel_fails(monkeypatch, capsys):
    """Without Triton the CPU default falls back to the reference, which then checks itself: that run says so
    and fails, unless the reference was what --backend asked for."""
    from mxlib.__main__ import main

    monkeypatch.setattr(check, "backends", lambda: {"triton": (False, "triton is not installed")})
    assert main(["check"]) == 1  # it ran, on the reference, but checked no kernel
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.startswith("small")]
    assert rows and all(r[5] == "torch" for r in rows)
    assert "FAILED: the kernels were not checked (triton is not installed)" in out
    assert main(["check", "--backend", "torch"]) == 0
    assert "FAILED" not in capsys.readouterr().out


def test_a_failed_check_leaves_no_triton_interpret_behind(monkeypatch, capsys):
    """The variable the command sets for the interpreter goes again when no kernel was imported under it (here a
    path the CPU cannot run, refused before any import): the process is as the call found it."""
    from mxlib.__main__ import main

    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    assert main(["check", "--device", "cpu", "--path", "mma_sm90"]) == 2
    assert "TRITON_INTERPRET" not in os.environ, capsys.readouterr()
