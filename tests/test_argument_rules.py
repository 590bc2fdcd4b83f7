"""Argument rules of the runtime and spec entry points: plan's shape and device checks, the backend an
explicit path implies, config table rows checked where they are read and written, the aiter probe, integer
arguments, format and layout domains; and the atomic file writes of mxlib.tools.files."""

import os
import stat

import numpy as np
import pytest
import torch

from mxlib.runtime import backends, dispatch
from mxlib.spec import devices, formats, ints, layouts, shapes
from mxlib.spec.reference import generate_input, unpack_data
from mxlib.tools import arguments, config_table, files

from .helpers import fresh_seed


@pytest.mark.parametrize("shape, error", [
    ((8, 30, 64), "n must be a multiple of 16"),
    ((-8, 32, 64), "m must be a non-negative integer"),
    ((8, 32, 0), "k must be a positive integer"),
    ((8, 32, 96), "k must be a multiple of 64"),
])
@pytest.mark.parametrize("backend", (None, "torch", "triton"))
def test_plan_checks_the_shape_on_every_branch(shape, error, backend):
    with pytest.raises(ValueError, match=error):
        dispatch.plan(*shape, "cpu", backend=backend)
    with pytest.raises(ValueError, match=error):
        dispatch.plan(*shape, "cpu", backend="triton", path="asm")


def test_plan_takes_an_empty_a():
    assert dispatch.plan(0, 32, 64, "cpu")[0] == "torch"


@pytest.mark.parametrize("device", ("meta", "mps", torch.device("meta")))
def test_devices_other_than_cpu_and_cuda_are_refused_by_name(device):
    for call in (lambda: devices.device_kind(device), lambda: devices.compute_units(device),
                 lambda: dispatch.plan(8, 32, 64, device), lambda: dispatch.select(8, 32, 64, device)):
        with pytest.raises(ValueError, match="device must be 'cpu' or a CUDA/ROCm device"):
            call()


def test_meta_inputs_to_custom_kernel_are_refused():
    data = tuple(t.to("meta") for t in generate_input(8, 32, 64, fresh_seed()))
    with pytest.raises(ValueError, match="device must be 'cpu' or a CUDA/ROCm device, got 'meta'"):
        dispatch.custom_kernel(data)


def test_kind_of_a_name_without_letters_is_refused():
    with pytest.raises(ValueError, match="name must hold a letter or digit"):
        devices.kind_of_name("!!!")


def test_explicit_path_picks_the_backend_that_has_it(monkeypatch):
    """With aiter available and no backend named, a Triton-only path goes to Triton, an aiter path to aiter."""
    status = {"aiter": (True, "fake"), "triton": (True, "fake"), "torch": (True, "")}
    monkeypatch.setattr(dispatch, "backends", lambda: status)
    monkeypatch.setattr(dispatch, "device_kind", lambda device: "h200")
    monkeypatch.setattr(dispatch, "check_device_type", lambda d, name, present: devices.check_device_type(d, name))
    from mxlib.kernels import gemm_fused

    monkeypatch.setattr(gemm_fused, "compute_units", lambda device=None: 132)  # the default asks the GPU's SMs
    backend, path, config = dispatch.plan(8, 32, 64, "cuda", path="fused")
    assert (backend, path) == ("triton", "fused") and config is not None
    assert dispatch.plan(8, 32, 64, "cuda", path="asm")[:2] == ("aiter", "asm")
    status["triton"] = (False, "no triton")
    with pytest.raises(ValueError, match="backend 'torch'"):
        dispatch.plan(8, 32, 64, "cuda", path="fused")


def test_aiter_probe_that_raises_is_an_answer(monkeypatch):
    class Broken:
        @staticmethod
        def available():
            raise RuntimeError("driver exploded")

    backends._aiter_status.cache_clear()
    monkeypatch.setattr(backends.importlib, "import_module", lambda name: Broken)
    try:
        ok, reason = backends._aiter_status()
    finally:
        backends._aiter_status.cache_clear()
    assert ok is False and "available() raised" in reason and "driver exploded" in reason


def test_packaging_is_a_declared_dependency():
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    deps = tomllib.loads((root / "pyproject.toml").read_text())["project"]["dependencies"]
    assert "packaging" in deps
    assert "  - packaging\n" in (root / "environment.yml").read_text()


TABLE = "m,n,k,path,config\n16,64,128,asm,block_m=16\n"


def test_set_row_refuses_rows_the_dispatcher_would_refuse(tmp_path):
    table = tmp_path / "t.csv"
    table.write_text(TABLE)
    for shape, path, config, error in [
        ((16, 64, 128), "fused", "block_m=16 split_k=0", "Config.split_k must be a positive integer"),
        ((16, 64, 128), "fused", "group_m=4", "unexpected keyword argument 'group_m'"),
        ((16, 60, 128), "asm", "block_m=16", "n must be a multiple of 16"),
        ((16, 64), "asm", "block_m=16", r"shape must be \(m, n, k\)"),
    ]:
        with pytest.raises(ValueError, match=error):
            config_table.set_row(table, shape, path, config)
    assert table.read_text() == TABLE
    config_table.set_row(table, (np.int64(16), 64, 128), "fused", "block_m=16 split_k=2", 0)
    assert table.read_text() == "m,n,k,path,config\n16,64,128,fused,block_m=16 split_k=2\n16,64,128,asm,block_m=16\n"
    assert [p.name for p in tmp_path.iterdir()] == ["t.csv"]  # no staging file left


def test_table_rows_are_checked_where_they_are_read(tmp_path):
    (tmp_path / "t.csv").write_text(TABLE + "16,60,128,asm,block_m=16\n")
    with pytest.raises(ValueError, match="t.csv data row 2: n must be a multiple of 16"):
        dispatch.load_table("t", str(tmp_path))


@pytest.mark.parametrize("row, error", [
    ("16,64,128,fused,block_m=16 split_k=0", "config table 't' row for 16x64x128 path 'fused': .*split_k"),
    ("16,64,128,fused,group_m=4", "config table 't' row for 16x64x128 path 'fused': .*group_m"),
])
def test_table_configs_are_checked_where_the_dispatcher_first_uses_them(tmp_path, monkeypatch, row, error):
    """Reading a table needs no Triton (`pip install .` without it reads them); making each row's Config
    does, so the dispatcher checks that when it first uses the table, naming the table and the row."""
    (tmp_path / "t.csv").write_text(TABLE + row + "\n")
    real = dispatch.load_table
    monkeypatch.setattr(dispatch, "load_table", lambda kind: real(kind, str(tmp_path)))
    with pytest.raises(ValueError, match=error):
        dispatch._table_configs("t")


@pytest.mark.parametrize("kind", ["cpu", "h200", "mi355x"])
def test_every_shipped_table_row_makes_its_config(kind):
    configs = dispatch._table_configs(kind)
    assert configs and all(rows for rows in configs.values())


def test_select_names_the_table_for_a_bad_row(monkeypatch):
    monkeypatch.setattr(dispatch, "load_table", lambda kind: {(2, 16, 64): [("asm", {"block_m": 17})]})
    with pytest.raises(ValueError, match="config table 'cpu' row for 2x16x64 path 'asm': .*block_m"):
        dispatch.select(2, 16, 64, "cpu")


def test_a_failed_atomic_write_names_the_file_asked_for(tmp_path, monkeypatch):
    """Not the hidden file staged beside it; and the staged file is gone."""
    def refuse(src, dst):
        raise PermissionError(13, "Permission denied", str(src))

    monkeypatch.setattr(files.os, "replace", refuse)
    target = tmp_path / "y.csv"
    with pytest.raises(PermissionError, match=r"Permission denied \(writing .*y\.csv\)"):
        files.write_text_atomic(target, "a\n")
    assert not any(tmp_path.iterdir())


def test_atomic_writes_replace_whole_or_not_at_all(tmp_path):
    target = tmp_path / "sub" / "x.csv"
    files.write_text_atomic(target, "a\n")
    assert target.read_text() == "a\n"
    with pytest.raises(ZeroDivisionError):
        with files.atomic_open(target, "w") as f:
            f.write("half")
            1 / 0
    assert target.read_text() == "a\n"
    with files.atomic_path(target, suffix=".py") as staged:
        assert staged.parent == target.parent and staged.suffix == ".py" and staged != target
        staged.write_text("b\n")
        assert target.read_text() == "a\n"  # not before the block ends
    assert target.read_text() == "b\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["x.csv"]
    with pytest.raises(ValueError, match="mode must be 'w' or 'wb'"):
        with files.atomic_open(target, "a"):
            pass
    # a target that is a folder or names nothing is refused by its own name, not by the staged file's
    with pytest.raises(IsADirectoryError) as err:
        files.write_text_atomic(tmp_path, "c\n")
    assert err.value.filename == str(tmp_path)
    with pytest.raises(ValueError, match="names no file"):
        files.write_text_atomic("", "c\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sub"]


def test_shape_text_is_read_back_as_written():
    """shapes.parse_mnk, which every --shapes reads MxNxK with, inverts str(Shape) and takes X or spaces;
    anything but three decimal integers is refused by the argument's name (the sizes' rules are gemm_shape's)."""
    assert all(shapes.parse_mnk(str(s)) == s.mnk for s in shapes.load())
    assert shapes.parse_mnk(" 16X2112x7168 ") == shapes.parse_mnk("16 x 2112 x 7168") == (16, 2112, 7168)
    # "²" is a digit to str.isdigit but not to int(); full-width "４" is one to both: neither is a decimal size
    for bad in ("4x4", "1x2x3x4", "4x-64x512", "+4x64x512", "4_0x64x512", "4x64x512:5", "", "4.0x64x512",
                "\u00b2x16x64", "\uff14x16x64"):
        with pytest.raises(ValueError, match=r"--shapes: .* is not MxNxK \(three decimal integers"):
            shapes.parse_mnk(bad, "--shapes")


def test_csv_records_are_written_whole_with_one_line_end(tmp_path):
    """write_csv_atomic: the header, then the rows, each line ending in a bare "\\n"; a missing key is an
    empty cell; a key outside the header fails the write and leaves the old file as it was."""
    target = tmp_path / "r.csv"
    files.write_csv_atomic(target, ("a", "b"), [{"a": 1, "b": 2}, {"a": 3}])
    assert target.read_bytes() == b"a,b\n1,2\n3,\n"
    with pytest.raises(ValueError, match="fields not in fieldnames.*'c'"):
        files.write_csv_atomic(target, ("a", "b"), iter([{"a": 4}, {"a": 5, "c": 6}]))
    assert target.read_bytes() == b"a,b\n1,2\n3,\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a FIFO")
def test_a_file_that_is_not_regular_is_never_replaced(tmp_path):
    """The writers stage a file and rename it over the target: over a FIFO (or a device) that would leave a plain
    file in its place, so such a target is refused before anything is written, and stays what it was."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for write in (lambda: files.write_text_atomic(fifo, "x"), lambda: files.write_csv_atomic(fifo, ("a",), [])):
        with pytest.raises(ValueError, match="fifo is not a regular file"):
            write()
    assert stat.S_ISFIFO(fifo.stat().st_mode) and sorted(p.name for p in tmp_path.iterdir()) == ["fifo"]


def test_output_file_arguments_are_refused_before_any_work(tmp_path):
    """The CLI's file arguments (export OUT, bench --out, harness --csv, isa --out) are read through
    arguments.output_file: a folder, no name, or a path under a file is an argument error at once."""
    import argparse

    (tmp_path / "f").write_text("")
    assert arguments.output_file(str(tmp_path / "new" / "x.csv")) == tmp_path / "new" / "x.csv"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f"]  # trying the folder left nothing behind
    for value, rule in ((str(tmp_path), "is a folder"), ("", "names no file"),
                        (str(tmp_path / "f" / "x.csv"), "is a file, not a folder"),
                        ("/proc/x.csv", "/proc takes no new file"),  # a folder not even root may write in
                        ("/dev/null", "not a regular file")):  # renaming over it would make it a plain file
        with pytest.raises(argparse.ArgumentTypeError, match=rule):
            arguments.output_file(value)
    from mxlib.__main__ import main

    for argv in (["export", str(tmp_path)], ["harness", "sub.py", "test", "--csv", str(tmp_path)],
                 ["bench", "--out", str(tmp_path)], ["isa", "--target", "gfx950", "--out", str(tmp_path)]):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2, argv


def test_output_folder_arguments_are_refused_before_any_work(tmp_path, capsys):
    """sweep --out is read through arguments.output_folder: no name, a file, a path under a file or a place no
    folder can be made is an argument error at once, not after the sweep has timed every config."""
    import argparse

    (tmp_path / "f").write_text("")
    assert arguments.output_folder(str(tmp_path / "new" / "deeper")) == tmp_path / "new" / "deeper"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f"]  # trying the place left nothing behind
    for value, rule in (("", "names no folder"), (str(tmp_path / "f"), "is a file, not a folder"),
                        (str(tmp_path / "f" / "d"), "f is a file, not a folder"), ("/proc/d", "/proc takes no new file")):
        with pytest.raises(argparse.ArgumentTypeError, match=rule):
            arguments.output_folder(value)
    from mxlib.__main__ import main

    with pytest.raises(SystemExit) as exit_:
        main(["sweep", "--dry-run", "--out", str(tmp_path / "f")])
    assert exit_.value.code == 2 and "is a file, not a folder" in capsys.readouterr().err


@pytest.mark.parametrize("argv, words", [
    (["sweep", "--model-only", "--out", "somewhere"], "--out: not an option of --model-only"),
    (["sweep", "--revalidate", "--shapes", "16x64x512"], "--shapes: not an option of --revalidate"),
    (["sweep", "--dry-run", "--splits", "100000"], "--splits 100000: no split_k <= K / 256"),
    (["sweep", "--dry-run", "--tiles", "3x64"], "--tiles 3x64, --splits 1: splitk Config.block_m must be a power of two"),
])
def test_sweep_options_that_cannot_apply_are_refused(argv, words, capsys):
    """Options the chosen mode would ignore, a plan with nothing to sweep and a tile the path refuses are
    errors naming the option, before anything is measured or written."""
    from mxlib.__main__ import main

    assert main(argv) == 2
    assert words in capsys.readouterr().err


def test_count_and_time_arguments_are_refused_before_any_work(capsys):
    """--iters below 1, --warmup below 0 and a negative or infinite --head-start-us are argument errors
    when the arguments are read, not failed rows of a run that then writes its CSV."""
    import argparse

    assert arguments.at_least(1)("3") == 3 and arguments.non_negative_float("0.5") == 0.5
    for parse, value, rule in ((arguments.at_least(1), "0", "must be at least 1, got 0"),
                               (arguments.at_least(0), "-1", "must be at least 0, got -1"),
                               (arguments.at_least(0), "x", "'x' is not an integer"),
                               (arguments.non_negative_float, "-2", "must be a finite number >= 0, got -2"),
                               (arguments.non_negative_float, "inf", "must be a finite number >= 0, got inf")):
        with pytest.raises(argparse.ArgumentTypeError, match=rule):
            parse(value)
    from mxlib.__main__ import main

    for argv in (["bench", "--iters", "0"], ["bench", "--warmup", "-1"], ["bench", "--head-start-us", "-5"],
                 ["sweep", "--iters", "0"], ["workbook", "--timeout", "0"]):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2, argv
        assert "must be" in capsys.readouterr().err, argv


def test_integer_arguments_accept_numpy_and_torch_integers():
    for v in (8, np.int64(8), np.int32(8), torch.tensor(8)):
        ints.positive(v, "x")
        ints.non_negative(v, "x")
    ints.gemm_shape(np.int64(16), np.int64(32), np.int64(64))
    for bad in (True, 0, -1, 1.0, "8", np.float64(8), torch.tensor(True), np.bool_(True), torch.tensor([8]),
                np.array([8]), torch.tensor([[8]])):  # operator.index takes bool and one-element tensors
        with pytest.raises(ValueError, match="x must be a positive integer"):
            ints.positive(bad, "x")
    with pytest.raises(ValueError, match="m must be a positive integer"):
        ints.gemm_shape(0, 16, 64)
    ints.gemm_shape(0, 16, 64, empty_m=True)


def test_gemm_shape_returns_python_ints_usable_as_shape_keys():
    """gemm_shape hands back plain ints whatever integer kind it was given: a 0-d tensor is an integer to
    the rule but would not find its shape in a dict keyed by ints."""
    got = ints.gemm_shape(torch.tensor(16), np.int64(32), np.int32(64))
    assert got == (16, 32, 64) and all(type(v) is int for v in got)
    assert {(16, 32, 64): "row"}[got] == "row"
    from mxlib.spec import seed

    for shape in ((64, 3072, 1536), (8, 2112, 7168), (16, 2112, 7168)):  # ck, asm and splitk: tables keyed by ints
        assert seed.seed_plan(*map(torch.tensor, shape)) == seed.seed_plan(*map(np.int64, shape)) == seed.seed_plan(*shape)
    assert all(torch.equal(x, y) for x, y in zip(generate_input(torch.tensor(4), np.int64(32), 64, 1),
                                                 generate_input(4, 32, 64, 1)))


@pytest.mark.parametrize("path", list(dispatch.PATHS))
def test_every_paths_default_config_and_grid_take_the_shape_rule(path):
    """The path contract's default_config and grid refuse a shape outside `gemm_shape` by name (they raised
    ZeroDivisionError, TypeError or AttributeError from inside, or answered for M = -1)."""
    from mxlib.runtime.paths import path_module

    module = path_module(path)
    cfg = module.default_config(8, 32, 64)
    for shape, words in (((0, 32, 64), "m must be a positive integer"), (("8", 32, 64), "m must be a positive"),
                         ((8.0, 32, 64), "m must be a positive"), ((-1, 32, 64), "m must be a positive"),
                         ((8, 24, 64), "n must be a multiple of 16"), ((8, 32, 96), "k must be a multiple of 64")):
        with pytest.raises(ValueError, match=words):
            module.default_config(*shape)
    assert module.grid(0, 32, 64, cfg) >= 0 and module.grid(np.int64(8), 32, 64, cfg) == module.grid(8, 32, 64, cfg)
    for shape, words in (((8, -16, 64), "n must be a positive integer"), (("8", 32, 64), "m must be a non-negative")):
        with pytest.raises(ValueError, match=words):
            module.grid(*shape, cfg)


def test_layouts_and_shape_rule_share_one_source():
    assert layouts.WEIGHT_TILE_N == ints.N_MULTIPLE and 2 * layouts.WEIGHT_TILE_KB == ints.K_MULTIPLE
    with pytest.raises(ValueError, match="rows must be a non-negative integer"):
        layouts.shuffled_scale_shape(-1, 8)
    with pytest.raises(ValueError, match="cols must be a non-negative integer"):
        layouts.shuffled_scale_shape(8, -3)
    assert layouts.shuffled_scale_shape(0, 0) == (256, 8)


def test_format_helpers_refuse_inputs_outside_their_domain():
    with pytest.raises(ValueError, match=r"exponent must be in \[-127, 127\]"):
        formats.pow2_float32(torch.tensor([0, 128]))
    for bad in (torch.tensor([1.5]), torch.tensor([True, False])):  # a bool is not the exponents 1 and 0
        with pytest.raises(TypeError, match="exponent must be an integer tensor"):
            formats.pow2_float32(bad)
    e = torch.randint(-127, 128, (64,))
    assert torch.equal(formats.pow2_float32(e), torch.exp2(e.double()).float())
    with pytest.raises(TypeError, match="packed must hold bytes"):
        formats.unpack_nibbles(torch.tensor([1, 2], dtype=torch.int32))
    with pytest.raises(ValueError, match="packed must have at least one dimension"):
        formats.unpack_nibbles(torch.tensor(0x21, dtype=torch.uint8))
    codes = torch.randint(0, 16, (3, 8))
    assert torch.equal(formats.unpack_nibbles(formats.pack_nibbles(codes)), codes.to(torch.uint8))


def test_triton_takes_meta_tensors_where_a_gpu_runs_the_kernels(monkeypatch):
    """A meta device (tracing) needs only the Triton backend, on a GPU machine too, where a CPU device is
    refused with a reason that says to move the tensors (simulated here by answering the two probes)."""
    monkeypatch.setattr(backends, "_triton_status", lambda: (True, "triton on a CUDA device (simulated)"))
    monkeypatch.setattr(backends, "_interpreting", lambda: False)
    assert backends.triton_takes(torch.device("meta")) == (True, "")
    ok, why = backends.triton_takes(torch.device("cpu"), "A")
    assert not ok and "move A there" in why


def test_path_zero_scale_operands_is_the_path_modules_answer(monkeypatch):
    """path_zero_scale_operands hands back the module's own zero_scale_operands(device) as a tuple, and () for
    a path without one (every module answers () on this CPU, so a stand-in answers here)."""
    from mxlib.runtime.paths import path_module, path_zero_scale_operands

    asked = []
    monkeypatch.setattr(path_module("fused"), "zero_scale_operands", lambda device: asked.append(device) or ["B"])
    assert path_zero_scale_operands("fused", "cpu") == ("B",) and asked == ["cpu"]
    assert not hasattr(path_module("ck"), "zero_scale_operands") and path_zero_scale_operands("ck", "cpu") == ()


def test_b_must_be_a_float_tensor():
    a, b, bq, bs, bss = generate_input(8, 32, 64, fresh_seed())
    for bad in (b.to(torch.int32), b.to(torch.float64)):
        with pytest.raises(TypeError, match="B must be bfloat16, float16 or float32"):
            unpack_data((a, bad, bq, bs, bss))
    unpack_data((a, b.float(), bq, bs, bss))


@pytest.mark.parametrize("path", ("asm", "ck", "splitk"))
def test_aiter_backend_gives_an_empty_c_for_an_empty_a(tmp_path, monkeypatch, path):
    from mxlib.runtime import aiter_backend

    from . import aiter_contract as contract

    with contract.aiter_modules_set_aside():
        contract.install(tmp_path / "site", monkeypatch, "0.1.14")
        monkeypatch.setattr(aiter_backend, "_platform", lambda: ("6.4.43483", "gfx950:sramecc+:xnack-"))
        a, b, bq, bs, bss = generate_input(16, 32, 256, fresh_seed())
        out = aiter_backend.gemm(path, (a[:0], b, bq, bs, bss))
        assert out.shape == (0, 32) and out.dtype == torch.bfloat16


def test_default_aiter_backend_runs_only_paths_the_installed_aiter_takes(tmp_path, monkeypatch):
    """A development build of a commit the backend has not read is not trusted for splitk: with aiter only
    the default, (16, 2112, 7168) must go to Triton, not to a refused aiter call; asked for by name, aiter
    keeps the seed's route (its call says why not); an empty A is planned too."""
    from mxlib.runtime import aiter_backend, dispatch

    from . import aiter_contract as contract

    with contract.aiter_modules_set_aside():
        contract.install(tmp_path / "site", monkeypatch, "0.1.10.post4.dev78+g0123456789")
        monkeypatch.setattr(aiter_backend, "_platform", lambda: ("6.4.43483", "gfx950:sramecc+:xnack-"))
        monkeypatch.setattr(dispatch, "backends", lambda: {b: (True, "") for b in ("aiter", "triton", "torch")})
        monkeypatch.setattr(dispatch, "device_kind", lambda device: "mi355x")
        monkeypatch.setattr(dispatch, "check_device_type", lambda d, name, present: devices.check_device_type(d, name))
        monkeypatch.setattr(dispatch, "_select", lambda m, n, k, device, path, a_dtype: ("fused_fp4", "cfg"))
        assert not aiter_backend.available("splitk")[0] and aiter_backend.available("asm")[0]
        assert dispatch.plan(16, 2112, 7168, "cuda") == ("triton", "fused_fp4", "cfg")
        assert dispatch.plan(16, 2112, 7168, "cuda", backend="aiter") == ("aiter", "splitk", None)
        assert dispatch.plan(4, 2880, 512, "cuda") == ("aiter", "asm", None)
        assert dispatch.plan(0, 2880, 512, "cuda") == ("aiter", "asm", None)


def test_check_exact_and_compare_argument_errors():
    from mxlib.spec.reference import check_exact, compare, exact_errors, ref_kernel

    data = generate_input(8, 32, 64, fresh_seed())
    out = ref_kernel(data)
    for bad, kind in ((None, TypeError), ("AB", TypeError), (("C",), ValueError)):
        with pytest.raises(kind, match="zero_scale_operands"):
            check_exact(data, out, zero_scale_operands=bad)
    assert check_exact(data, out, zero_scale_operands=["A", "B"])[0]
    # exact_errors measures a bf16 (M, N) output and refuses any other (check_exact answers False for it).
    for bad in (out.float(), out[:, :16]):
        with pytest.raises(ValueError, match=r"output must be a bfloat16 \(8, 32\) tensor"):
            exact_errors(data, bad)
    with pytest.raises(TypeError, match="expected must be a torch.Tensor"):
        compare(out, out.tolist())


@pytest.mark.parametrize("path", ["asm", "ck", "splitk", "fused", "fused_fp4", "mma_sm90"])
def test_every_integer_config_field_refuses_bools_and_floats(path):
    """A Config field that holds an int refuses True and a float equal to a valid value, by name, rather
    than passing them to Triton or the launcher (which fail far from the config, or take them as 1)."""
    import dataclasses

    from mxlib.runtime.paths import path_module

    config = path_module(path).Config
    fields = [f for f in dataclasses.fields(config) if isinstance(f.default, int) and not isinstance(f.default, bool)]
    assert len(fields) >= 5
    for f in fields:
        for bad in (True, float(f.default)):
            with pytest.raises(ValueError, match=rf"Config\.{f.name} must"):
                config(**{f.name: bad})


def test_a_path_named_where_it_cannot_run_is_refused_by_name():
    """An explicit path that cannot run on the device is a ValueError naming it and why, at planning (the
    CLI then prints one line), not an error of another type from inside its launch."""
    with pytest.raises(ValueError, match="path 'mma_sm90' cannot run here"):
        dispatch.plan(64, 128, 256, "cpu", backend="triton", path="mma_sm90")
    with pytest.raises(ValueError, match="path 'mma_sm90' cannot run here"):
        dispatch.select(64, 128, 256, "cpu", path="mma_sm90")


def test_a_path_from_the_environment_that_cannot_run_is_named_as_the_variable(monkeypatch):
    monkeypatch.setenv(dispatch.ENV_PATH, "mma_sm90")
    with pytest.raises(ValueError, match=r"^\$MXLIB_PATH 'mma_sm90' cannot run here"):
        dispatch.plan(64, 128, 256, "cpu", backend="triton")


def test_a_config_tile_past_tritons_largest_block_is_refused_by_name():
    from mxlib.runtime.paths import path_module

    for path in ("asm", "fused", "fused_fp4", "splitk"):
        config = path_module(path).Config
        with pytest.raises(ValueError, match=rf"{path} Config.block_m x Config.block_n must be at most 1048576 "
                                             r"\(Triton's largest block\), got 16384 x 128"):
            config(block_m=2 ** 14, block_n=128, block_k=64)  # A's tile 2**20 exactly, C's twice that
        with pytest.raises(ValueError, match=rf"{path} Config.block_n x Config.block_k must be at most"):
            config(block_n=2 ** 20)
    path_module("fused").Config(block_m=16, block_n=256, block_k=4096)  # 2**20 exactly: taken


def test_select_refuses_an_a_dtype_by_name_as_plan_does():
    from mxlib.runtime import dispatch

    for call in (dispatch.select, dispatch.plan):
        with pytest.raises(TypeError, match=r"a_dtype must be one of .*got 'junk'"):
            call(8, 32, 128, "cpu", a_dtype="junk")


def test_e2m1_table_refuses_a_device_by_name():
    import mxlib

    with pytest.raises(ValueError, match="device must be a device such as 'cpu' or 'cuda', got 'bogus'"):
        mxlib.e2m1_table("bogus")
    assert mxlib.e2m1_table(torch.device("meta")).device.type == "meta"  # a tensor's device, as it is
