"""The repository's promises about itself: one dependency list, CI running the README's commands, and a
command line that says what it is for."""
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONDA_NAMES = {"torch": "pytorch"}  # PyPI name -> conda-forge name where they differ


def _names(reqs):
    return {re.split(r"[<>=!~\[ ;]", r, maxsplit=1)[0].strip().lower() for r in reqs}


def test_environment_yml_mirrors_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    wanted = _names(project["dependencies"]) | _names(extras["notebooks"]) | _names(extras["test"])
    wanted = {CONDA_NAMES.get(n, n) for n in wanted}
    text = (ROOT / "environment.yml").read_text()
    deps = text.split("\ndependencies:\n", 1)[1]
    conda = set(re.findall(r"^  - ([A-Za-z0-9_.-]+)", deps, flags=re.M)) - {"python", "pip"}
    assert conda == wanted
    assert "- -e .[test,notebooks]" in text
    python = re.search(r"^  - python>=([0-9.]+)$", deps, flags=re.M).group(1)
    assert project["requires-python"] == f">={python}", "environment.yml's python must be pyproject's"


def test_ci_runs_the_readme_commands():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    block = re.search(r"```(?:bash|sh)?\n(.*?)```", readme, flags=re.S).group(1)
    commands = [line.split("#")[0].strip() for line in block.splitlines() if line.strip()]
    assert commands == ["make workbook", "make test"], commands
    assert "make test" in ci
    # The workbook runs in CI in its checking mode: the same runner and notebooks as `make workbook`, compared
    # with the committed outputs instead of written over them (a stale notebook fails CI).
    assert "make workbook-check" in ci
    makefile = (ROOT / "Makefile").read_text()
    for target in ("workbook", "workbook-check", "test"):
        assert re.search(rf"^{target}:", makefile, flags=re.M)
    assert re.search(r"^workbook-check: setup\n\t\$\(PY\) -m mxlib workbook --check$", makefile, flags=re.M)
    assert re.search(r"^workbook: setup\n\t\$\(PY\) -m mxlib workbook$", makefile, flags=re.M)


def test_the_package_data_ships_every_file_the_package_reads():
    """`pip install .` copies only the Python files and `package-data`'s patterns: every other file tracked under
    mxlib/ (config tables, the CUDA path's source) must match one, or an installed mxlib cannot find it."""
    import fnmatch
    import subprocess

    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["mxlib"]
    tracked = subprocess.run(["git", "ls-files", "mxlib"], cwd=ROOT, capture_output=True, text=True, check=True)
    others = [p.removeprefix("mxlib/") for p in tracked.stdout.split() if not p.endswith(".py")]
    assert "kernels/csrc/mxfp4_mma_sm90.cu" in others
    assert [p for p in others if not any(fnmatch.fnmatch(p, pat) for pat in patterns)] == []


def test_every_command_has_help(capsys):
    from mxlib.__main__ import COMMANDS, main

    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    assert "amd-mxfp4-mm" in text and all(name in text for name in COMMANDS)
    for name in COMMANDS:
        with pytest.raises(SystemExit) as exit_:
            main([name, "--help"])
        assert exit_.value.code == 0, name
        assert f"usage: python -m mxlib {name}" in capsys.readouterr().out


def test_without_triton_the_tables_load_and_the_reference_runs():
    """`pip install .` brings no Triton (the `test` extra does): reading the shipped config tables and
    `python -m mxlib check` must not import it; on the torch backend the check passes, and by default it runs
    the reference too but fails, saying the kernels were not checked."""
    import subprocess
    import sys

    def without_triton(argv):
        code = ("import sys; sys.modules['triton'] = None\n"
                "from mxlib.runtime import dispatch\n"
                "assert all(dispatch.load_table(kind) for kind in ('cpu', 'h200', 'mi355x'))\n"
                "from mxlib.__main__ import main\n"
                f"sys.exit(main({argv!r}))\n")
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)

    done = without_triton(["check", "--backend", "torch"])
    assert done.returncode == 0 and "5 passed, 0 failed" in done.stdout, done.stderr[-2000:]
    done = without_triton(["check"])
    assert done.returncode == 1, done.stderr[-2000:]
    assert "FAILED: the kernels were not checked (triton is not installed" in done.stdout


def test_the_package_version_is_written_once():
    """pyproject.toml reads the version from mxlib.__version__ (one place), and the installed metadata has it."""
    import importlib.metadata

    import mxlib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "mxlib.__version__"}
    assert importlib.metadata.version("mxlib") == mxlib.__version__
