"""Contract tests of mxlib.runtime.aiter_backend against a fake aiter (tests/fake_aiter), on CPU.

No AMD GPU is involved: these tests prove what the backend *sends* (names, argument order, dtypes,
views, shapes, strides, padding, output slicing: the checks of tests/aiter_contract.py, which the exported
MI355X file meets too) and how it refuses platforms and versions; the fake computes results with mxlib's
reference math, so a wrong layout also shows up as wrong numbers. The fake is put on sys.path only inside
these tests and removed afterwards. Every test name contains
"aiter" so that `pytest -k aiter` selects them.
"""
import importlib
import importlib.metadata
import importlib.util
import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from mxlib.runtime import aiter_backend
from mxlib import check_implementation, generate_input
from mxlib.spec import seed as seed_mod
from mxlib.spec import shapes as shapes_mod

from . import aiter_contract as contract
from .helpers import fresh_seed

GFX950 = ("6.4.43483", "gfx950:sramecc+:xnack-")


@pytest.fixture
def fake_aiter(tmp_path, monkeypatch):
    """install(version, platform) puts a fresh copy of the fake on sys.path and makes the backend see
    `platform`; everything is undone after."""
    count = iter(range(100))

    def install(version="0.1.14", platform=GFX950):
        root = contract.install(tmp_path / f"site{next(count)}", monkeypatch, version)
        monkeypatch.setattr(aiter_backend, "_platform", lambda: platform)
        return root

    with contract.aiter_modules_set_aside():
        yield install


aiter_backend_gemm = aiter_backend.gemm


def _data(m, n, k):
    seed = fresh_seed()
    return generate_input(m, n, k, seed), seed


# --- import and availability ---------------------------------------------------------------------


def test_aiter_import_mxlib_imports_neither_aiter_nor_triton():
    code = (
        "import sys, mxlib, mxlib.runtime.aiter_backend as ab; ok, why = ab.available(); "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('aiter', 'triton')]; "
        "assert not bad, bad; print(ok, why)"
    )
    root = Path(__file__).resolve().parent.parent
    res = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr


def test_aiter_available_on_this_cpu_machine():
    ok, why = aiter_backend.available()
    if torch.version.hip is None:
        assert not ok and why.startswith("no ROCm") and torch.__version__ in why
    for path in aiter_backend.PATHS:
        assert aiter_backend.available(path)[0] is ok


@pytest.mark.parametrize(
    "platform, version, expect",
    [
        ((None, None), "0.1.14", "no ROCm"),
        (("6.4.1", None), "0.1.14", "no GPU is visible"),
        (("6.4.1", "gfx942:sramecc+:xnack-"), "0.1.14", "wrong GPU architecture gfx942"),
        (GFX950, None, "is not ROCm's amd-aiter"),
        (GFX950, "0.1.0", "setuptools_scm's fallback"),
        (GFX950, "banana", "not a PEP 440 version"),
        (GFX950, "0.1.9.post1", "older than 0.1.10"),
        (GFX950, "0.1.22", "newer than the newest version"),
    ],
)
def test_aiter_available_refusals(fake_aiter, platform, version, expect):
    fake_aiter(version, platform)
    ok, why = aiter_backend.available()
    assert not ok and expect in why, why
    for path in aiter_backend.PATHS:
        ok_p, why_p = aiter_backend.available(path)
        # splitk may be refused first for a change it cannot take (0.1.22 >= 0.1.16)
        assert not ok_p and (expect in why_p or (path == "splitk" and "ROCm/aiter#3359" in why_p)), why_p
    assert not contract.aiter_modules(), "available() must locate aiter, never import it"


@pytest.mark.parametrize(
    "version, usable, refused_because",
    [
        ("0.1.10", {"asm", "ck", "splitk"}, None),
        ("0.1.14", {"asm", "ck", "splitk"}, None),
        ("0.1.15.post3", {"asm", "ck", "splitk"}, None),
        ("0.1.16", {"asm", "ck"}, "ROCm/aiter#3359"),
        ("0.1.20.post1", {"asm", "ck"}, "ROCm/aiter#3359"),
        ("0.1.21.dev46+ge4048607a5", {"asm", "ck"}, "ROCm/aiter#3359"),
        ("0.1.21.dev46", {"asm", "ck"}, "ROCm/aiter#3359"),  # NEWEST_CHECKED itself is trusted
        ("0.1.14rc1.dev222+ga27de75faa", {"asm", "ck"}, "a build of a commit that has ROCm/aiter#3359"),
        ("0.1.14rc1.dev100+g0123456789", {"asm", "ck"}, "development build of no commit read for this call"),
        ("0.1.10.post4.dev78+gf3be04a12a", {"asm", "ck", "splitk"}, None),  # the contest runner's pin
        ("0.1.10.post4.dev78+g16e9b5a079", {"asm", "ck", "splitk"}, None),  # main's rewritten copy of it
        ("0.1.dev1+gf3be04a12a", {"asm", "ck", "splitk"}, None),  # a clone without tags: placed by its commit
        ("0.1.dev2830+ge4048607a5", {"asm", "ck"}, "a build of a commit that has ROCm/aiter#3359"),
        ("0.1.10.post2.dev7+g768c037adb", {"asm", "ck", "splitk"}, None),
    ],
)
def test_aiter_available_per_path_versions(fake_aiter, version, usable, refused_because):
    fake_aiter(version)
    verdicts = {p: aiter_backend.available(p) for p in aiter_backend.PATHS}
    assert {p for p, (ok, _) in verdicts.items() if ok} == usable
    ok, why = aiter_backend.available()
    assert ok and "gfx950" in why
    if refused_because:
        assert refused_because in verdicts["splitk"][1]
        assert "splitk refused" in why and refused_because in why


def test_aiter_splitk_refuses_a_local_build_of_a_release_number(fake_aiter):
    """A version with a local part (+g<sha>) is a build of some commit, not the release it is numbered
    after: splitk, whose safety depends on which commits a build has, refuses it; asm and ck take it."""
    fake_aiter("0.1.14+gabcdef1234")
    verdicts = {p: aiter_backend.available(p) for p in aiter_backend.PATHS}
    assert {p for p, (ok, _) in verdicts.items() if ok} == {"asm", "ck"}
    assert "development build" in verdicts["splitk"][1]


def test_aiter_views_refuse_strided_bytes_even_where_a_view_would_succeed():
    """B's bytes go to aiter through zero-copy views of contiguous memory: every other byte of a wider
    buffer (a stride torch can still view) is refused naming the operand, never handed over strided."""
    from mxlib.runtime import aiter_calls

    wide = torch.zeros(32, 256, dtype=torch.uint8)
    strided = wide[:, ::2]
    assert strided.view(2, 16 * 128).shape == (2, 2048)  # torch would view it
    with pytest.raises(ValueError, match="B_shuffle must be contiguous"):
        aiter_calls._aiter_view(strided, (2, 16 * 128), "B_shuffle")
    assert aiter_calls._aiter_view(wide[:, :128].contiguous(), (2, 2048), "B_shuffle").shape == (2, 2048)


def _write_metadata(site: Path, version: str) -> None:
    info = site / f"amd_aiter-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: amd-aiter\nVersion: {version}\n")
    importlib.invalidate_caches()


def test_aiter_version_from_distribution_metadata(fake_aiter, tmp_path, monkeypatch):
    site = fake_aiter(version=None)  # no aiter/_version.py: the version must come from the metadata
    _write_metadata(site, "0.1.15.post1")
    ok, why = aiter_backend.available("splitk")
    assert ok and "0.1.15.post1" in why, why
    assert "amd-aiter metadata" in aiter_backend.available()[1]
    # metadata of an amd-aiter installed elsewhere does not vouch for this module
    fake_aiter(version=None)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    _write_metadata(elsewhere, "0.1.14")
    monkeypatch.syspath_prepend(str(elsewhere))
    aiter_backend._status.cache_clear()  # another installation in the same process
    ok, why = aiter_backend.available()
    assert not ok and "is not ROCm's amd-aiter" in why, why


def test_aiter_missing_is_explained(monkeypatch):
    if importlib.util.find_spec("aiter") is not None:
        pytest.skip("a module named aiter is installed here")
    monkeypatch.setattr(aiter_backend, "_platform", lambda: GFX950)
    ok, why = aiter_backend.available()
    assert not ok and why.startswith("aiter is not installed") and "amd-aiter" in why


def test_aiter_calls_gate_reads_no_version(fake_aiter):
    # The exported MI355X file's gate: aiter imports, whatever version it reports (the seed's rule); the
    # backend's own gate also reads the version and refuses this one.
    from mxlib.runtime import aiter_calls

    aiter_calls._aiter_import.cache_clear()
    try:
        if importlib.util.find_spec("aiter") is None:
            ok, why = aiter_calls.aiter_available()
            assert not ok and why.startswith("aiter does not import: ModuleNotFoundError"), why
            aiter_calls._aiter_import.cache_clear()
        fake_aiter("0.1.0")
        assert aiter_calls.aiter_available() == (True, "")
        assert not aiter_backend.available()[0]
    finally:
        aiter_calls._aiter_import.cache_clear()


def test_aiter_calls_gates_are_per_call(fake_aiter):
    """The exported file's gates import only their own calls' modules: an aiter whose Triton GEMM module fails
    to import still makes the ASM and CK calls. (Not the other way round: `import aiter` itself imports
    gemm_op_a4w4, in the fake as in the contest runner's aiter at f3be04a12a.)"""
    from mxlib.runtime import aiter_calls

    for cached in (aiter_calls._aiter_import, aiter_calls._splitk_k_in_bytes):
        cached.cache_clear()
    try:
        root = fake_aiter("0.1.14")
        (root / "aiter" / "ops/triton/gemm/basic/gemm_afp4wfp4.py").write_text("raise ImportError('broken')\n")
        assert aiter_calls.aiter_available() == (True, "")
        assert aiter_calls.aiter_splitk_available() == (False, "aiter does not import: ImportError: broken")
    finally:
        for cached in (aiter_calls._aiter_import, aiter_calls._splitk_k_in_bytes):
            cached.cache_clear()


@pytest.mark.parametrize("version, ok", [("0.1.14", True), ("0.1.15", True), ("0.1.16", False), ("0.1.21", False)])
def test_aiter_splitk_gate_reads_the_signature(fake_aiter, version, ok):
    """The exported file's split-K gate: no version read, the first parameter's name (x, or from ROCm/aiter#3359
    x_fp4) tells the version whose results are wrong."""
    from mxlib.runtime import aiter_calls

    for cached in (aiter_calls._aiter_import, aiter_calls._splitk_k_in_bytes):
        cached.cache_clear()
    try:
        fake_aiter(version)
        assert aiter_calls.aiter_available() == (True, "")
        usable, why = aiter_calls.aiter_splitk_available()
        assert usable is ok
        assert why == "" if ok else "takes 'x_fp4' first, not 'x'" in why and "ROCm/aiter#3359" in why
    finally:
        for cached in (aiter_calls._aiter_import, aiter_calls._splitk_k_in_bytes):
            cached.cache_clear()


def test_aiter_splitk_gate_trusts_only_a_first_parameter_named_x(monkeypatch):
    """The gate trusts `x` (K in bytes) alone: `x_fp4` (K in elements, ROCm/aiter#3359) and any name it was
    never read against are refused. A module holding only the signature stands in for aiter's."""
    import sys
    import types

    from mxlib.runtime import aiter_calls

    name = "aiter.ops.triton.gemm.basic.gemm_afp4wfp4"
    try:
        for first, ok in (("x", True), ("x_fp4", False), ("a", False)):
            module = types.ModuleType(name)
            exec(f"def gemm_afp4wfp4_preshuffle({first}, w, x_scales, w_scales, dtype=None): pass", module.__dict__)
            monkeypatch.setitem(sys.modules, name, module)
            aiter_calls._splitk_k_in_bytes.cache_clear()
            assert aiter_calls._splitk_k_in_bytes()[0] is ok, first
    finally:
        aiter_calls._splitk_k_in_bytes.cache_clear()


def test_aiter_version_table_cites_its_sources():
    changes = {c.name: c for c in aiter_backend.CHANGES}
    assert changes["module_move"].first_release == "0.1.10" and changes["module_move"].pr == "ROCm/aiter#1638"
    assert changes["use_aot_removed"].first_release == "0.1.15" and "2026-05" in changes["use_aot_removed"].date
    assert changes["splitk_k_in_elements"].first_release == "0.1.16"
    assert changes["splitk_k_in_elements"].date.startswith("2026-06")
    assert changes["module_move"].date.startswith("2026-01")
    assert aiter_backend.VERSIONS["splitk"][1] == "0.1.16"
    assert aiter_backend.change("asm_tuned_csv") is changes["asm_tuned_csv"]
    with pytest.raises(ValueError, match="name must be one of module_move, asm_tuned_csv"):
        aiter_backend.change("nothing")
    with pytest.raises(ValueError, match="name must be one of"):
        aiter_backend.change("asm")  # a prefix of asm_tuned_csv: whole names only


def test_kernelbots_aiter_build_is_on_the_0_1_11_line():
    from mxlib.spec import aiter_rules

    assert aiter_rules.aiter_line(aiter_rules.KERNELBOT_AITER).name == "0.1.11"  # placed by the commit it names


# --- gemm refusals -------------------------------------------------------------------------------


def test_aiter_gemm_refuses_an_untrusted_version_before_importing_aiter(fake_aiter):
    fake_aiter("0.1.16")
    data, _ = _data(16, 32, 512)
    with pytest.raises(RuntimeError, match=r"path 'splitk'.*ROCm/aiter#3359"):
        aiter_backend.gemm("splitk", data)
    fake_aiter("0.1.9")
    with pytest.raises(RuntimeError, match="older than 0.1.10"):
        aiter_backend.gemm("asm", data)
    assert not contract.aiter_modules()


def test_aiter_gemm_refuses_on_this_cpu_machine():
    if torch.version.hip is not None:
        pytest.skip("ROCm build")
    data, _ = _data(4, 32, 256)
    with pytest.raises(RuntimeError, match="no ROCm"):
        aiter_backend.gemm("asm", data)


def test_aiter_gemm_bad_arguments(fake_aiter):
    fake_aiter("0.1.14")
    data, _ = _data(4, 48, 320)
    with pytest.raises(ValueError, match="path must be one of"):
        aiter_backend.gemm("cuda", data)
    for path in ("ck", "splitk"):
        for kwargs in ({"tile": "32x128"}, {"log2_k_split": 0}, {"log2_k_split": 1}):  # either alone
            with pytest.raises(ValueError, match="takes neither"):
                aiter_backend.gemm(path, data, **kwargs)
    with pytest.raises(ValueError, match="silently ignored by the 32x128 kernel"):
        aiter_backend.gemm("asm", data, tile="32x128", log2_k_split=1)
    with pytest.raises(ValueError, match="log2_k_split=1 needs a tile"):
        aiter_backend.gemm("asm", data, log2_k_split=1)
    with pytest.raises(ValueError, match="tile must be one of"):
        aiter_backend.gemm("asm", data, tile="16x16")
    with pytest.raises(ValueError, match="N % 512 == 0"):
        aiter_backend.gemm("asm", data, tile="128x512", log2_k_split=1)
    with pytest.raises(ValueError, match="log2_k_split must be an int in 0..4"):
        aiter_backend.gemm("asm", data, tile="256x256", log2_k_split=5)
    for bad in (0.0, False, -1, "1"):  # without a tile too: mxlib names the rule, not the call aiter would get
        with pytest.raises(ValueError, match="log2_k_split must be an int in 0..4"):
            aiter_backend.gemm("asm", data, log2_k_split=bad)
    empty = (data[0][:0],) + data[1:]  # an empty A makes no call, but its arguments are checked as for any M
    with pytest.raises(ValueError, match="tile must be one of"):
        aiter_backend.gemm("asm", empty, tile="bogus")
    with pytest.raises(ValueError, match="log2_k_split must be an int in 0..4"):
        aiter_backend.gemm("asm", empty, tile="256x256", log2_k_split=99)
    assert aiter_backend.gemm("asm", empty).shape == (0, 48)
    assert aiter_backend.gemm("asm", empty, tile="256x256", log2_k_split=4).shape == (0, 48)  # 4 itself
    wide = generate_input(1, 1024, 320, fresh_seed())
    narrow = (wide[0][:0],) + tuple(t[:768] for t in wide[1:])  # N = 768: a multiple of 256, not of 512
    with pytest.raises(ValueError, match="N % 512 == 0"):
        aiter_backend.gemm("asm", narrow, tile="128x512")
    assert aiter_backend.gemm("asm", (wide[0][:0],) + wide[1:], tile="128x512").shape == (0, 1024)
    with pytest.raises(ValueError, match="multiple of 256"):
        aiter_backend.gemm("splitk", data)  # K = 320
    with pytest.raises(ValueError, match="must split evenly under the seed's config"):
        aiter_backend.gemm("splitk", _data(16, 48, 768)[0])  # 2 slices of 512 do not cover 768
    big_m, _ = _data(32, 48, 512)
    with pytest.raises(ValueError, match="needs M < 32"):
        aiter_backend.gemm("splitk", big_m)
    with pytest.raises(TypeError, match="5-tuple"):
        aiter_backend.gemm("asm", data[:4])
    assert not contract.aiter_modules()


@pytest.mark.parametrize("path", ["asm", "ck", "splitk"])
@pytest.mark.parametrize("operand", [3, 4])
def test_aiter_gemm_refuses_strided_weight_bytes_before_any_call(fake_aiter, path, operand):
    """aiter reads B_shuffle and B_scale_sh as positions in storage: a strided one (the same values every
    other byte of a wider buffer) is refused by name on all three paths, and no aiter call is made."""
    fake_aiter("0.1.14")
    data, _ = _data(16, 32, 512)
    t = data[operand]
    wide = torch.zeros(t.shape[0], 2 * t.shape[1], dtype=t.dtype)
    wide[:, ::2] = t
    strided = list(data)
    strided[operand] = wide[:, ::2]
    before = len(contract.calls())
    name = "B_shuffle" if operand == 3 else "B_scale_sh"
    with pytest.raises(ValueError, match=f"{name} must be contiguous"):
        aiter_backend.gemm(path, tuple(strided))
    assert len(contract.calls()) == before


# --- the ASM path --------------------------------------------------------------------------------


def test_aiter_asm_kernel_names():
    # Literal names from aiter's hsa/gfx950/f4gemm/f4gemm_bf16_per1x32Fp4.csv.
    assert aiter_backend.asm_kernel_name("32x128") == "_ZN5aiter41f4gemm_bf16_per1x32Fp4_BpreShuffle_32x128E"
    assert aiter_backend.asm_kernel_name("64x128") == "_ZN5aiter41f4gemm_bf16_per1x32Fp4_BpreShuffle_64x128E"
    assert aiter_backend.asm_kernel_name("128x512") == "_ZN5aiter42f4gemm_bf16_per1x32Fp4_BpreShuffle_128x512E"
    assert aiter_backend.asm_kernel_name("256x256") == "_ZN5aiter42f4gemm_bf16_per1x32Fp4_BpreShuffle_256x256E"
    assert aiter_backend.asm_kernel_name("32x1024") == "_ZN5aiter42f4gemm_bf16_per1x32Fp4_BpreShuffle_32x1024E"
    with pytest.raises(ValueError, match="tile must be one of"):
        aiter_backend.asm_kernel_name("32x64")


def test_aiter_asm_kernel_per_contest_shape():
    # The seed names the 32x128 kernel for three shapes and leaves the others to aiter's heuristic ("").
    named = {(4, 2880, 512), (32, 4096, 512), (32, 2880, 512)}
    for s in shapes_mod.load():
        name, split = aiter_backend.asm_kernel(*s.mnk)
        assert split == 0, s
        assert name == (aiter_backend.asm_kernel_name("32x128") if s.mnk in named else ""), s


@pytest.mark.parametrize("version", ["0.1.10.post4.dev78+gf3be04a12a", "0.1.14"])  # kernelName required, then ""
@pytest.mark.parametrize("m, n, k", [(1, 32, 256), (5, 48, 320), (33, 64, 512)])
def test_aiter_asm_call_contract(fake_aiter, version, m, n, k):
    fake_aiter(version)
    import aiter

    assert (inspect.signature(aiter.gemm_a4w4_asm).parameters["kernelName"].default is inspect.Parameter.empty) \
        is version.startswith("0.1.10")  # the fake has the signature of the version it reports
    data, seed = _data(m, n, k)
    result = aiter_backend.gemm("asm", data)
    (call,) = contract.calls()
    # not a shape the seed names: an empty name, aiter's heuristic picks
    contract.check_asm_call(call, data, result, kernel_name="", label=f"seed {seed}")


def test_aiter_asm_split_kernels_get_log2_k_split(fake_aiter):
    fake_aiter("0.1.14")
    data, seed = _data(1, 512, 256)
    aiter_backend.gemm("asm", data, tile="256x256", log2_k_split=2)
    result = aiter_backend.gemm("asm", data, tile="128x512", log2_k_split=1)
    first, second = contract.calls()
    assert first.args[5] == "_ZN5aiter42f4gemm_bf16_per1x32Fp4_BpreShuffle_256x256E"
    assert first.kwargs["log2_k_split"] == 2 and second.kwargs["log2_k_split"] == 1
    assert second.args[5] == "_ZN5aiter42f4gemm_bf16_per1x32Fp4_BpreShuffle_128x512E"
    assert check_implementation(data, result)[0], seed


def test_aiter_asm_returns_a_fresh_buffer_per_call(fake_aiter):
    fake_aiter("0.1.14")
    data, _ = _data(4, 32, 256)
    r1 = aiter_backend.gemm("asm", data)
    r2 = aiter_backend.gemm("asm", data)
    assert r1.data_ptr() != r2.data_ptr() and torch.equal(r1, r2)


def test_aiter_checks_runs_the_seeds_call_per_shape_or_says_why_not(fake_aiter, monkeypatch):
    """The notebooks' cell for the seed's own call (notebooks 03-05): a reason where aiter is refused, else a
    line per shape with the checker's verdict on aiter's output."""
    from mxlib.tools import path_sections as sections

    small = [shapes_mod.Shape("test", 4, 64, 256, fresh_seed()), shapes_mod.Shape("test", 40, 48, 320, fresh_seed())]
    refused = sections.aiter_checks("asm", small, device="cpu")
    assert refused.startswith("the seed's aiter call is not run here: ") and "\n" not in refused
    fake_aiter("0.1.14")
    lines = sections.aiter_checks("ck", small, device="cpu").splitlines()
    assert [line.split(":")[0] for line in lines] == ["aiter ck 4x64x256", "aiter ck 40x48x320"]
    assert len(contract.calls()) == 2
    assert [line.split(": ", 1)[1] for line in lines] == [f"all {s.m * s.n} elements within atol=0.01 rtol=0.01"
                                                          for s in small]
    monkeypatch.setattr(aiter_backend, "gemm", lambda path, data: torch.zeros_like(aiter_backend_gemm(path, data)))
    wrong = sections.aiter_checks("ck", small[:1], device="cpu")
    assert wrong.startswith("aiter ck 4x64x256: ") and "within" not in wrong and "mismatch" in wrong, wrong


# --- the CK path ---------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["0.1.10.post4.dev78+gf3be04a12a", "0.1.11"])
@pytest.mark.parametrize("m, n, k", [(7, 32, 512), (40, 48, 320)])
def test_aiter_ck_call_contract(fake_aiter, version, m, n, k):
    fake_aiter(version)
    data, seed = _data(m, n, k)
    result = aiter_backend.gemm("ck", data)
    (call,) = contract.calls()
    contract.check_ck_call(call, data, result, label=f"seed {seed}")


# --- the Triton split-K path ---------------------------------------------------------------------


def test_aiter_asm_call_passes_the_seeds_kernel_name(fake_aiter):
    fake_aiter("0.1.14")
    data, seed = _data(4, 2880, 512)
    aiter_backend.gemm("asm", data)
    assert contract.calls()[0].args[5] == "_ZN5aiter41f4gemm_bf16_per1x32Fp4_BpreShuffle_32x128E"


def test_aiter_splitk_seed_config():
    cfg = aiter_backend.SEED_SPLITK_CONFIG
    assert cfg is seed_mod.SEED_SPLITK_CONFIG and cfg["BLOCK_SIZE_K"] == 512 and cfg["num_stages"] == 1
    ctas = lambda splits: splits * -(-16 // cfg["BLOCK_SIZE_M"]) * -(-2112 // cfg["BLOCK_SIZE_N"])  # noqa: E731
    assert cfg["NUM_KSPLIT"] == 7 and ctas(cfg["NUM_KSPLIT"]) == 119
    assert seed_mod.SEED_HEADER_NUM_KSPLIT == 14 and ctas(14) == 238
    assert cfg["BLOCK_SIZE_M"] <= 16  # M < 32: un-shuffled A scales


@pytest.mark.parametrize("version, passes_use_aot", [("0.1.14", True), ("0.1.15", False)])
@pytest.mark.parametrize("m, n, k", [(16, 48, 512), (3, 80, 1024), (5, 48, 256)])  # 256: one slice of BLOCK_SIZE_K 256
def test_aiter_splitk_call_contract(fake_aiter, version, passes_use_aot, m, n, k):
    fake_aiter(version)
    data, seed = _data(m, n, k)
    result = aiter_backend.gemm("splitk", data)
    again = aiter_backend.gemm("splitk", data)
    first, second = contract.calls()
    contract.check_splitk_call(first, data, result, aiter_backend.SEED_SPLITK_CONFIG, passes_use_aot, label=f"seed {seed}")
    # each call gets its own copy of the config, and returns a fresh output
    assert first.kwargs["config_object"] is not second.kwargs["config_object"]
    assert result.data_ptr() != again.data_ptr()


def test_aiter_splitk_reads_the_signature_once(fake_aiter, monkeypatch):
    """Whether gemm_afp4wfp4_preshuffle takes use_aot is read once a process, not inside every timed call."""
    import inspect

    from mxlib.runtime import aiter_calls

    fake_aiter("0.1.14")
    monkeypatch.setattr(aiter_calls, "_PARAMETERS", {})
    reads = []
    real = inspect.signature
    monkeypatch.setattr(inspect, "signature", lambda fn, *a, **kw: reads.append(fn) or real(fn, *a, **kw))
    data, _ = _data(16, 48, 512)
    for _ in range(3):
        aiter_backend.gemm("splitk", data)
    assert len(reads) == 1
    assert all(call.kwargs.get("use_aot") is False for call in contract.calls())


# --- the aiter-Triton baseline (mxlib.tools.baselines.aiter_triton), only where an amd-aiter is at hand -----


def _aiter_site():
    site = os.environ.get("MXLIB_AITER_SITE")
    if site:
        return site
    try:
        importlib.metadata.distribution("amd-aiter")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("no amd-aiter here: install it, or set MXLIB_AITER_SITE to a directory holding its aiter/")
    return None


@pytest.mark.parametrize("m, n, k, sms", [(4, 64, 512, 1), (16, 96, 1024, 8), (40, 64, 512, 4)])
def test_aiter_triton_baseline_by_path_matches_reference(m, n, k, sms):
    from mxlib.tools.baselines import aiter_triton

    kernels = aiter_triton.load(_aiter_site())
    assert not contract.aiter_modules(), "the baseline must load aiter's files without importing aiter"
    data, seed = _data(m, n, k)
    out = torch.full((m, n), float("nan"), dtype=torch.bfloat16)
    result = aiter_triton.gemm(kernels, data, out=out, sms=sms)
    assert result is out
    assert aiter_triton.config(m, n, k, sms)["NUM_KSPLIT"] == {1: 1, 8: 2, 4: 2}[sms]
    ok, msg = check_implementation(data, result)
    assert ok, f"seed {seed}: {msg}"


def test_the_release_ci_installs_is_one_the_baseline_loads():
    from mxlib.tools.baselines import aiter_triton

    assert aiter_triton.SUPPORTED_VERSION.match(aiter_triton.PYPI_RELEASE)


def test_aiter_triton_baseline_refuses_unsafe_shapes():
    from mxlib.tools.baselines import aiter_triton

    with pytest.raises(ValueError, match="multiple of 32"):
        aiter_triton.config(4, 48, 512, 132)  # no 32- or 64-wide tile divides N: the % N wrap would read past B
    with pytest.raises(ValueError, match="multiple of 256"):
        aiter_triton.config(4, 64, 320, 132)
    cfg = aiter_triton.config(16, 2112, 7168, 132)
    assert (cfg["BLOCK_SIZE_M"], cfg["BLOCK_SIZE_N"], cfg["NUM_KSPLIT"], cfg["SPLITK_BLOCK_SIZE"]) == (16, 64, 4, 1792)
