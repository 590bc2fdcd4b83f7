"""mxlib.tools.bench on the CPU: floors, the CSV schema, the provider registry, the naive dot_scaled baseline
(interpreter), and the issue-6 acceptance logic on synthetic rows. No timings here."""
import io
import math
import random

import pytest
import torch

from mxlib.tools import bench
from mxlib.spec import shapes
from mxlib.spec.reference import check_implementation, generate_input

# NOTES §6: copy 4.28 TB/s (read+write), bf16 mm 799 TFLOP/s, and the floors they give (us).
H200 = {"bandwidth_Bps": 4.28e12, "bf16_flops": 799e12}
NOTES_FLOORS = {(4, 2880, 512): 0.19, (16, 2112, 7168): 1.95, (32, 4096, 512): 0.33, (32, 2880, 512): 0.23,
                (64, 7168, 2048): 2.35, (256, 3072, 1536): 3.02}


def test_floor_bytes_counts_a_bf16_b_fp4_scales_c_bf16():
    m, n, k = 4, 2880, 512
    assert bench.floor_bytes(m, n, k) == 2 * 4 * 512 + 2880 * 256 + 2880 * 16 + 2 * 4 * 2880 == 810496


def test_floors_match_the_recorded_h200_floors():
    assert [s.mnk for s in shapes.load("benchmark")] == list(NOTES_FLOORS)
    for mnk, want in NOTES_FLOORS.items():
        assert round(bench.floor_us(*mnk, H200), 2) == want, mnk
    # Bandwidth-bound at M=4, compute-bound at M=256.
    assert bench.floor_us(4, 2880, 512, H200) == pytest.approx(810496 / 4.28e12 * 1e6)
    assert bench.floor_us(256, 3072, 1536, H200) == pytest.approx(2 * 256 * 3072 * 1536 / 799e12 * 1e6)


def test_floor_rejects_bad_ceilings_and_sizes():
    with pytest.raises(ValueError, match="bandwidth_Bps"):
        bench.floor_us(4, 64, 64, {"bf16_flops": 1e12})
    with pytest.raises(ValueError, match="bf16_flops"):
        bench.floor_us(4, 64, 64, {"bandwidth_Bps": 1e12, "bf16_flops": 0})
    with pytest.raises(ValueError, match="k must be a positive integer"):
        bench.floor_us(4, 64, 0, H200)


def test_summarize_percentiles():
    vals = list(range(1, 102))  # 1..101
    random.shuffle(vals)
    s = bench.summarize([float(v) for v in vals])
    assert (s["median_us"], s["p20_us"], s["p80_us"], s["mean_us"], s["n"]) == (51.0, 21.0, 81.0, 51.0, 101)
    with pytest.raises(ValueError):
        bench.summarize([])


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the CPU refusal")
def test_gpu_timing_refuses_cpu_clearly():
    for fn in (lambda: bench.time_contest(lambda: None), lambda: bench.time_graph(lambda: None),
               lambda: bench.measure_ceilings(), lambda: bench.L2Flush()):
        with pytest.raises(RuntimeError, match="needs a CUDA"):
            fn()


def test_registry_names_and_selection():
    from mxlib.runtime.paths import PATHS

    reg = bench.providers()
    fixed = ["empty", "touch", "mxlib", "cublas_bf16", "torch_dequant", "naive_dot_scaled"]
    assert set(reg) == set(fixed) | {f"mxlib:{p}" for p in PATHS}
    assert {p.name for p in bench.select_providers("mxlib:*", reg)} == {f"mxlib:{p}" for p in PATHS}
    assert [p.name for p in bench.select_providers("cublas_bf16, empty,cublas_bf16", reg)] == ["cublas_bf16", "empty"]
    assert len(bench.select_providers("all", reg)) == len(reg)
    with pytest.raises(ValueError, match="unknown provider 'cublas'"):
        bench.select_providers("cublas", reg)
    # Only results that are MXFP4 GEMMs are checked; cuBLAS on unquantized B, the empty and touch kernels are not.
    assert {p.name for p in reg.values() if not p.checked} == {"empty", "touch", "cublas_bf16"}
    assert not reg["torch_dequant"].graph  # its torch.tensor(...) constants copy from the host: not capturable


def test_select_shapes():
    got = bench.select_shapes("benchmark,extra")
    assert [s.kind for s in got] == ["benchmark"] * 6 + ["extra"] * 3
    with pytest.raises(ValueError, match="--shapes kind"):
        bench.select_shapes("benchmarks")


# The interpreter on CPU tensors, or the GPU when there is one (conftest sets TRITON_INTERPRET only without one).
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def _tiny_data():
    r = random.Random()
    m, n, k = r.choice([(1, 16, 64), (5, 80, 320), (17, 64, 256), (16, 96, 512)])
    return (m, n, k), generate_input(m, n, k, r.randrange(1 << 30), device=DEVICE)


def test_naive_dot_scaled_small_shapes():
    """Edges in every dimension: M < BLOCK_M, N % BLOCK_N != 0, K % BLOCK_K != 0."""
    from mxlib.tools.baselines import naive_dot_scaled as nds

    for m, n, k in [(5, 80, 320), (1, 16, 64), (16, 64, 256)]:
        data = generate_input(m, n, k, random.randrange(1 << 30), device=DEVICE)
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
    reg = bench.providers()
    (m, n, k), data = _tiny_data()
    for p in reg.values():
        if p.checked:
            ok, msg = check_implementation(data, p.make(data)())
            assert ok, (p.name, (m, n, k), msg)
            path, _ = p.describe(m, n, k, DEVICE)
            assert isinstance(path, str) and path


# ---------------------------------------------------------------------------------------------
# CSV and acceptance on synthetic rows


def _rows(mx=2.0, cublas=8.0, graph=None, empty=3.0, floor=1.0, ok=1):
    """One run's rows: mxlib, cublas_bf16 and empty on every shape of mxlib/data/shapes.csv."""
    rows = []
    for s in shapes.load():
        base = {"kind": s.kind, "m": s.m, "n": s.n, "k": s.k, "seed": s.seed, "floor_us": floor, "empty_us": empty,
                "copy_TBps": 4.28, "bf16_TFLOPs": 799.0, "device": "test", "torch": "t", "triton": "t",
                "date": "2026-01-01T00:00:00Z", "fresh_inputs": 0, "message": "", "p20_us": 0.0, "p80_us": 0.0,
                "mean_us": 0.0, "samples": 10}
        rows.append({**base, "provider": "mxlib", "path": "asm", "timing": "contest", "median_us": mx, "ok": ok})
        rows.append({**base, "provider": "mxlib", "path": "asm", "timing": "graph",
                     "median_us": graph if graph is not None else floor, "ok": ok})
        rows.append({**base, "provider": "cublas_bf16", "path": "torch.mm bf16", "timing": "contest",
                     "median_us": cublas, "ok": ""})
        rows.append({**base, "provider": "empty", "path": "empty kernel", "timing": "contest", "median_us": empty,
                     "ok": ""})
    return rows


def _verdicts(rows):
    return {c.name: c.passed for c in bench.acceptance(rows)}


def test_csv_schema_round_trip(tmp_path):
    rows = _rows()
    path = tmp_path / "sub" / "bench.csv"
    bench.write_csv(rows, path)
    back = bench.read_csv(path)
    required = {"m", "n", "k", "provider", "path", "timing", "median_us", "p20_us", "p80_us", "floor_us", "ok",
                "device", "torch", "triton", "date"}
    assert required <= set(back[0]) and list(back[0]) == list(bench.CSV_FIELDS)
    assert len(back) == len(rows)
    assert {r["timing"] for r in back} == {"contest", "graph"}
    assert _verdicts(back) == _verdicts(rows)  # the checks read rows as written or as read back
    with pytest.raises(ValueError):
        bench.write_csv([{**rows[0], "surprise": 1}], tmp_path / "x.csv")


def test_acceptance_all_pass_and_each_failure():
    v = _verdicts(_rows())  # 2 us everywhere, cuBLAS 8, floor 1, empty 3: all targets met
    assert len(v) == 7 and all(v.values()), v
    # geomean above 4.5 us (and then also above 1.3 x (3 + 1) = 5.2 at 6 us)
    v = _verdicts(_rows(mx=4.6))
    assert not v["mxlib geomean <= 4.5 us"] and v["benchmark shapes: mxlib <= 1.3 x (empty + floor)"]
    v = _verdicts(_rows(mx=5.3, cublas=9.0))
    assert not v["benchmark shapes: mxlib <= 1.3 x (empty + floor)"]
    v = _verdicts(_rows(mx=8.0, cublas=8.0, floor=10.0))  # ties with cuBLAS: fails strict, passes not-slower
    assert not v["benchmark shapes: mxlib faster than cublas_bf16"]
    assert v["test shapes: mxlib not slower than cublas_bf16"] and v["extra shapes: mxlib not slower than cublas_bf16"]
    v = _verdicts(_rows(graph=1.6))
    assert not v["graph replay <= 1.5 x floor"]
    v = _verdicts(_rows(ok=0))
    assert not v["every checked output passes check_implementation (rne)"]


def test_acceptance_one_bad_shape_and_missing_rows():
    rows = _rows()
    for r in rows:  # only (32, 2880, 512) slower than cuBLAS
        if (r["m"], r["n"], r["k"], r["provider"], r["timing"]) == (32, 2880, 512, "mxlib", "contest"):
            r["median_us"] = 9.0
    checks = {c.name: c for c in bench.acceptance(rows)}
    c = checks["benchmark shapes: mxlib faster than cublas_bf16"]
    assert c.passed is False and "32x2880x512 9.00 vs 8.00 FAIL" in c.detail
    # A provider that raised has a row without a time: it fails, it is not skipped.
    for r in rows:
        if r["provider"] == "mxlib" and r["timing"] == "graph":
            r["median_us"] = ""
    assert bench.acceptance(rows)[3].passed is False
    # No cuBLAS rows at all: that check cannot be decided.
    v = _verdicts([r for r in _rows() if r["provider"] != "cublas_bf16"])
    assert v["benchmark shapes: mxlib faster than cublas_bf16"] is None and v["mxlib geomean <= 4.5 us"]


def test_summary_table_has_geomeans_and_checks():
    rows = _rows(mx=2.0, cublas=8.0)
    for r in rows:
        r["mean_us"] = 2.5 if r["provider"] == "mxlib" else 9.0
    text = bench.summary(rows)
    assert "2.000 us of the medians; of the means, as the contest ranks: 2.500 us" in text
    assert "contest median us" in text and "graph median us" in text
    geo = [line for line in text.splitlines() if line.startswith("geomean")]
    assert len(geo) == 2 and "2.00" in geo[0] and "8.00" in geo[0]
    assert text.rstrip().splitlines()[-1].startswith("  [PASS]")
    assert math.isclose(bench.geomean([1.0, 4.0]), 2.0)


def test_progress_bar_plain_text():
    buf = io.StringIO()
    bar = bench.Progress(40, stream=buf)
    for i in range(40):
        bar.step(f"step {i}")
    lines = buf.getvalue().splitlines()
    assert 15 <= len(lines) <= 21 and lines[-1].startswith("[" + "#" * 30 + "] 40/40")


@pytest.mark.gpu
def test_run_bench_rows_on_gpu():
    """A tiny run: every row has the schema, the checked providers pass, graph rows exist where asked."""
    reg = bench.providers()
    shape = shapes.load("benchmark")[0]
    provs = [reg["empty"], reg["mxlib"], reg["cublas_bf16"], reg["torch_dequant"]]
    rows, ceilings = bench.run_bench([shape], provs, iters=3, warmup=1, fresh_inputs=True, progress=False)
    assert ceilings["bandwidth_Bps"] > 0 and ceilings["bf16_flops"] > 0 and ceilings["empty_us"] > 0
    got = {(r["provider"], r["timing"]) for r in rows}
    assert got == {(p.name, t) for p in provs for t in ("contest", "graph") if t == "contest" or p.graph}
    for r in rows:
        assert set(r) <= set(bench.CSV_FIELDS) and r["median_us"] != "", r
        assert r["ok"] == (1 if reg[r["provider"]].checked else ""), r
    assert bench.summary(rows)
