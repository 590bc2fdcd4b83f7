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


def _run(argv, monkeypatch, capsys, failing=()):
    """`python -m mxlib check ARGV` on the CPU with `checked` stood in, its rows of an M in `failing` failed:
    (exit code, stdout, the backend that run() handed to checked)."""
    from mxlib.__main__ import main

    handed = []

    def fake_checked(rows, device, backend=None, path=None):
        handed.append(backend)
        for kind, m, n, k, seed in rows:
            yield f"{kind} {m} {n} {k} {seed}", m not in failing

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


def test_a_failed_row_fails_the_command(monkeypatch, capsys):
    """The exit status is what CI reads (`.ci/run`): one wrong output among passing ones makes it 1."""
    code, out, _ = _run([], monkeypatch, capsys)
    assert code == 0 and " 0 failed" in out
    rows = len(check.SMALL_SHAPES)
    m = check.SMALL_SHAPES[0][0]
    failed = sum(1 for s in check.SMALL_SHAPES if s[0] == m)
    code, out, _ = _run([], monkeypatch, capsys, failing={m})
    assert code == 1 and f"{rows - failed} passed, {failed} failed" in out


def test_the_variable_stays_for_kernels_imported_under_it():
    """A fresh process whose kernels the command imported under its TRITON_INTERPRET=1 keeps the variable:
    they were built for the interpreter, and a later Triton call there needs it still set."""
    import subprocess
    import sys

    code = (
        "import os, sys\n"
        "from mxlib.tools import check\n"
        "assert 'TRITON_INTERPRET' not in os.environ and 'mxlib.kernels.common' not in sys.modules\n"
        "def fake(rows, device, backend=None, path=None):\n"
        "    import mxlib.kernels.common\n"
        "    yield 'small', True\n"
        "check.checked = fake\n"
        "check.backends = lambda: {'triton': (True, ''), 'torch': (True, ''), 'aiter': (False, '')}\n"
        "from mxlib.__main__ import main\n"
        "assert main(['check', '--device', 'cpu']) == 0\n"
        "print(os.environ.get('TRITON_INTERPRET'))\n")
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=root, timeout=300)
    assert got.returncode == 0 and got.stdout.strip().splitlines()[-1] == "1", got.stderr[-2000:]
