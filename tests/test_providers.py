"""mxlib.tools.providers on the CPU: the registry, the naive dot_scaled baseline (interpreter), and every
checked provider against the reference."""
import random

import pytest
import torch

from mxlib.tools import providers
from mxlib.spec.reference import check_implementation, generate_input

from .helpers import fresh_seed


def test_registry_names_and_selection():
    from mxlib.runtime.paths import PATHS

    reg = providers.providers()
    touch = {"touch"} | {f"touch:{g}x{b}" for g, b in providers.TOUCH_GRIDS} - {"touch:528x1024"}
    humming = {"humming_bf16", "humming_fp8"}
    fixed = {"empty", "mxlib", "cublas_bf16", "cublas_fp8", "torch_dequant", "naive_dot_scaled"} | touch | humming
    assert set(reg) == fixed | {f"mxlib:{p}" for p in PATHS}
    assert {p.name for p in providers.select_providers("mxlib:*", reg)} == {f"mxlib:{p}" for p in PATHS}
    assert [p.name for p in providers.select_providers("cublas_bf16, empty,cublas_bf16", reg)] == ["cublas_bf16", "empty"]
    assert {p.name for p in reg.values() if p.needs} == humming and {reg[h].needs for h in humming} == {"humming"}
    with pytest.raises(ValueError, match="unknown provider 'cublas'"):
        providers.select_providers("cublas", reg)
    # Only results that are MXFP4 GEMMs are checked; cuBLAS on unquantized B, the empty and touch kernels are not.
    assert {p.name for p in reg.values() if not p.checked} == {"empty", "cublas_bf16", "cublas_fp8"} | touch | humming
    assert not reg["torch_dequant"].graph  # its torch.tensor(...) constants copy from the host: not capturable
    assert {name for name, p in reg.items() if not p.graph} == {"torch_dequant"} | humming  # every other is captured


@pytest.mark.parametrize("installed", [False, True])
def test_all_leaves_out_a_provider_whose_module_is_missing(monkeypatch, installed):
    """"all" takes a provider with `needs` only where that module imports; named outright, it is taken anyway
    (its bench row then says why it failed)."""
    import importlib.util

    reg = providers.providers()
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: (real("torch") if installed else None) if name == "humming" else real(name, *a))
    names = [p.name for p in providers.select_providers("all", reg)]
    assert names == [p for p in reg if installed or not reg[p].needs]
    assert [p.name for p in providers.select_providers("humming_bf16", reg)] == ["humming_bf16"]


# The interpreter on CPU tensors, or the GPU when there is one (conftest sets TRITON_INTERPRET only without one).
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def _tiny_data():
    r = random.Random()
    m, n, k = r.choice([(1, 16, 64), (5, 80, 320), (17, 64, 256), (16, 96, 512)])
    return (m, n, k), generate_input(m, n, k, fresh_seed(), device=DEVICE)


def test_naive_dot_scaled_small_shapes():
    """Edges in every dimension: M < BLOCK_M, N % BLOCK_N != 0, K % BLOCK_K != 0."""
    from mxlib.tools.baselines import naive_dot_scaled as nds

    for m, n, k in [(5, 80, 320), (1, 16, 64), (16, 64, 256)]:
        data = generate_input(m, n, k, fresh_seed(), device=DEVICE)
        ops = nds.prepare(data)
        out = nds.gemm(*ops)
        ok, msg = check_implementation(data, out)
        assert ok, ((m, n, k), msg)
        assert out.data_ptr() != nds.gemm(*ops).data_ptr()  # a fresh output every call
    with pytest.raises(ValueError, match="b_scale must have shape"):
        nds.gemm(ops[0], ops[1], ops[2], ops[3][:, :-1].contiguous())


def test_checked_providers_agree_with_the_reference():
    """Every checked provider on a small shape (on CPU: the paths in the interpreter, and the dispatcher's
    CPU default, the torch reference)."""
    from mxlib.runtime.paths import path_available

    reg = providers.providers()
    (m, n, k), data = _tiny_data()
    for p in reg.values():
        if p.checked and (not p.name.startswith("mxlib:") or path_available(p.name[6:], DEVICE)[0]):
            ok, msg = check_implementation(data, p.make(data)())
            assert ok, (p.name, (m, n, k), msg)
            path, _ = p.describe(m, n, k, DEVICE)
            assert isinstance(path, str) and path


@pytest.mark.parametrize("m", [4, 16, 17])
def test_cublas_fp8_is_the_product_of_both_operands_in_e4m3(m):
    """The FP8 reference: (M, N) however A's rows are padded, the product of A and B each rounded to e4m3. Within
    bf16's rounding of the result plus 2**-10 of the sum of the products' magnitudes: on a GPU the fast
    accumulation keeps about 13 bits below a sum's largest term (KERNEL_NOTES.md, "v16"), so a sum that cancels
    may move by more than its own bf16 step. Operands rounded to bf16 instead of e4m3 would be off by about
    2**-4 of a product times sqrt(K), several times that bound."""
    n, k = 32, 64
    data = generate_input(m, n, k, fresh_seed(), device=DEVICE)
    out = providers.providers()["cublas_fp8"].make(data)()
    a8, b8 = (t.to(torch.float8_e4m3fn).double() for t in data[:2])
    assert out.shape == (m, n) and out.dtype == torch.bfloat16
    ref = a8 @ b8.t()
    bound = 2 ** -8 * ref.abs() + 2 ** -10 * (a8.abs() @ b8.abs().t())
    assert ((out.double() - ref).abs() <= bound).all(), (out.double() - ref).abs().max()


@pytest.mark.parametrize("env", [{}, {"MXLIB_BACKEND": "triton"}, {"MXLIB_BACKEND": "triton", "MXLIB_PATH": "fused"},
                                 {"MXLIB_PATH": "splitk", "MXLIB_BACKEND": "triton"}])
def test_the_mxlib_row_names_what_the_dispatcher_runs(monkeypatch, env):
    """The bench CSV's path and config for `mxlib` are `dispatch.plan`'s, environment variables included."""
    from mxlib.runtime.dispatch import ENV_BACKEND, ENV_PATH, plan

    for var in (ENV_BACKEND, ENV_PATH):
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    backend, path, config = plan(4, 2880, 512, "cpu")
    described = providers.providers()["mxlib"].describe(4, 2880, 512, "cpu")
    if backend == "torch":
        assert described == ("torch reference", "")
    else:
        assert described == (path, providers.config_text(config))
        if "MXLIB_PATH" in env:
            assert path == env["MXLIB_PATH"]


def test_touch_grid_providers_pass_programs_and_block_in_order(monkeypatch):
    """`touch:<programs>x<block>` launches touch with programs=<programs> and block=<block>."""
    from mxlib.tools.baselines import touch

    seen = []
    monkeypatch.setattr(touch, "touch", lambda a, b_shuffle, b_scale_sh, **kw: seen.append(kw))
    data = generate_input(4, 64, 128, 1)
    reg = providers.providers()
    for g, b in providers.TOUCH_GRIDS:
        if (g, b) != (touch.DEFAULT_PROGRAMS, touch.DEFAULT_BLOCK):
            reg[f"touch:{g}x{b}"].make(data)()
            assert seen[-1] == {"programs": g, "block": b}
    reg["touch"].make(data)()
    assert seen[-1] == {}  # the default grid: touch's own defaults


def test_touch_and_naive_describe_their_grids():
    """The CSV's config of the touch providers and of the naive kernel names their real grid and blocks."""
    from mxlib.tools.baselines import naive_dot_scaled as nds
    from mxlib.tools.baselines import touch

    reg = providers.providers()
    assert reg["touch"].describe(4, 64, 128, "cpu") == (
        "touch kernel", f"programs={touch.DEFAULT_PROGRAMS} block={touch.DEFAULT_BLOCK}")
    assert reg["touch:132x2048"].describe(4, 64, 128, "cpu") == ("touch kernel", "programs=132 block=2048")
    assert reg["naive_dot_scaled"].describe(4, 64, 128, "cpu") == (
        "triton naive dot_scaled", f"block_m={nds.BLOCK_M} block_n={nds.BLOCK_N} block_k={nds.BLOCK_K}")
    assert (nds.BLOCK_M, nds.BLOCK_N) == (16, 64)


def test_cublas_bf16_is_a_times_b_transposed():
    """cublas_bf16 computes A @ B^T on the unquantized bf16 B, (M, N)."""
    data = generate_input(4, 64, 128, 3)
    out = providers.providers()["cublas_bf16"].make(data)()
    a, b = data[0], data[1]
    assert out.shape == (4, 64)
    torch.testing.assert_close(out.float(), (a.float() @ b.float().t()), rtol=2e-2, atol=2e-2)


def test_cublas_fp8_asks_for_fast_accumulation(monkeypatch):
    """The FP8 reference is cuBLASLt's fast-accumulation GEMM, as its description says (on the CPU the
    flag changes nothing in the result, so the call's arguments are read)."""
    seen = {}

    def fake_scaled_mm(a, b, **kw):
        seen.update(kw, a_shape=tuple(a.shape), b_shape=tuple(b.shape))
        return torch.zeros(a.shape[0], b.shape[1], dtype=torch.bfloat16)

    monkeypatch.setattr(torch, "_scaled_mm", fake_scaled_mm)
    data = generate_input(4, 64, 128, 3)
    out = providers.providers()["cublas_fp8"].make(data)()
    assert out.shape == (4, 64)
    assert seen["use_fast_accum"] is True and seen["out_dtype"] == torch.bfloat16
    assert seen["a_shape"] == (providers.FP8_ROWS, 128) and seen["b_shape"] == (128, 64)
    assert "fast accum" in providers.providers()["cublas_fp8"].describe(4, 64, 128, "cpu")[1]


def test_select_providers_spellings():
    """None and " all " are "all"; empty items of a comma list are skipped; a list naming nothing is refused."""
    reg = providers.providers()
    every = [p.name for p in providers.select_providers("all", reg)]
    assert [p.name for p in providers.select_providers(None, reg)] == every
    assert [p.name for p in providers.select_providers("  all ", reg)] == every
    assert [p.name for p in providers.select_providers("empty,,cublas_bf16,", reg)] == ["empty", "cublas_bf16"]
    for spec in ("", " , ", ","):
        with pytest.raises(ValueError, match="--providers must name at least one provider"):
            providers.select_providers(spec, reg)


def test_check_call_poisons_the_outputs_size_and_checks_rne(monkeypatch):
    """check_call fills the allocator with NaN blocks of the bf16 output's 2 * M * N bytes, and checks with
    rne (the GPU calls are recorded, not made)."""
    seen = {}
    monkeypatch.setattr(providers, "poison_allocator", lambda nbytes: seen.setdefault("poison", nbytes))
    monkeypatch.setattr(torch.cuda, "synchronize", lambda *a, **k: None)
    monkeypatch.setattr(providers, "check_implementation",
                        lambda data, out, rounding: (seen.setdefault("rounding", rounding), (True, "ok"))[1])
    assert providers.check_call(lambda: "out", "data", 5, 48) == (True, "ok")
    assert seen == {"poison": 2 * 5 * 48, "rounding": "rne"}
