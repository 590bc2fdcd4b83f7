"""mxlib.tools.check.checked: one checked call a shape, the line naming what ran."""
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
