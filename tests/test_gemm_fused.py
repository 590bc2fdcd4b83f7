"""The fused single-launch path (mxlib.kernels.gemm_fused): golden cases, fresh random shapes and
split counts, A's quantization bit for bit, NaN/Inf blocks, self-resetting split-K counters, bad input.

Without a GPU the kernel runs in Triton's interpreter (tests/conftest.py), the same kernel as on the
GPU. Every output is passed in as `out=` filled with NaN, so an element the kernel never writes shows.
"""
import random

import pytest
import torch
import triton
import triton.language as tl

from mxlib.kernels import arrival
from mxlib.kernels import gemm_fused as F
from mxlib.kernels.common import mx_bits_f32
from mxlib.kernels.gemm_fused import _fused_dequantize, _fused_quantize
from mxlib.spec.layouts import e8m0_shuffle, shuffle_weight
from mxlib.spec.quant import dequantize_mxfp4, quantize_mxfp4
from mxlib.spec.reference import check_exact, check_implementation, compare, generate_input

from . import golden
from .helpers import assert_counters_stay_in_their_buffer, assert_default_configs_fit_the_contest_shapes, fresh_seed, run_into_nan

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def run(a, b_shuffle, b_scale_sh, config=None, rounding="rne"):
    return run_into_nan(F.gemm, a, b_shuffle, b_scale_sh, config, rounding)


def run_data(data, config=None, rounding="rne"):
    a, _, _, b_shuffle, b_scale_sh = data
    return run(a, b_shuffle, b_scale_sh, config, rounding)


def weights(b: torch.Tensor, rounding="rne"):
    """(B_shuffle, B_scale_sh) of a float (N, K) tensor."""
    q, s = quantize_mxfp4(b, rounding)
    return shuffle_weight(q).to(DEVICE), e8m0_shuffle(s).to(DEVICE)


@pytest.mark.parametrize("rule", ["rne", "ties_away"])
def test_golden_cases(golden_dir, rule):
    """Against the golden C (independent truth), with the default config and with an uneven split."""
    for name in golden.gemm_cases(golden_dir, rule):
        case = golden.load(golden_dir, rule, name)
        data = tuple(t.to(DEVICE) for t in golden.contest_tuple(case))
        for cfg in (None, F.Config(block_m=16, block_n=64, block_k=128, split_k=3)):
            out = run_data(data, cfg, rule)
            ok, msg = compare(out, case["C_bf16_bits"].to(DEVICE))
            assert ok, f"{name} {rule} {cfg}: {msg}"
            ok, msg = check_exact(data, out, rule, F.zero_scale_operands(DEVICE))  # within the exact rule too
            assert ok, f"{name} {rule} {cfg}: {msg}"


def test_random_shapes_and_splits():
    """Fresh shapes and seeds each run: M = 1, odd M over several M tiles, N = 16 and N off the tile,
    K off the iteration (masked tail), split counts that do not divide the iterations, and more
    splits than iterations (empty ranges add zero)."""
    rng = random.SystemRandom()
    odd_m = rng.randrange(17, 48, 2)
    cases = [
        (1, 16, 64, F.Config(block_m=16, block_n=64, block_k=64, split_k=1)),
        (odd_m, 16 * rng.randrange(5, 9), 192, F.Config(block_m=16, block_n=64, block_k=128, split_k=2)),
        (rng.randrange(2, 16), 16, 64 * rng.randrange(5, 8), F.Config(block_m=16, block_n=64, block_k=64, split_k=3)),
        (rng.randrange(1, 33), 32, 128, F.Config(block_m=32, block_n=64, block_k=64, split_k=5)),
        (rng.randrange(17, 40), 80, 192, F.Config(block_m=16, block_n=128, block_k=64, split_k=2)),
    ]
    for m, n, k, cfg in cases:
        seed = fresh_seed()
        data = generate_input(m, n, k, seed, device=DEVICE)
        ok, msg = check_implementation(data, run_data(data, cfg), "rne")
        assert ok, f"{m}x{n}x{k} {cfg} seed {seed}: {msg}"


def test_default_config_on_random_shape():
    rng = random.SystemRandom()
    m, n, k = rng.randrange(1, 40), 16 * rng.randrange(1, 6), 64 * rng.randrange(1, 5)
    seed = fresh_seed()
    data = generate_input(m, n, k, seed, device=DEVICE)
    ok, msg = check_implementation(data, run_data(data), "rne")
    assert ok, f"{m}x{n}x{k} seed {seed}: {msg}"


def adversarial_a(rows: int, k: int, gen: torch.Generator, max_exp: int) -> torch.Tensor:
    """fp32 (rows, k): every E2M1 midpoint and grid value, both signs, -0.0, amaxes at the
    power-of-two round-up edge, saturating values, plain randn; each 32-block scaled by 2**p for a
    random p in [-max_exp, max_exp]. No NaN/Inf."""
    grid = torch.tensor([0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0])
    x = torch.randn(rows, k, generator=gen)
    for r in range(rows):
        for b in range(k // 32):
            scale = 2.0 ** int(torch.randint(-max_exp, max_exp + 1, (1,), generator=gen))
            kind = (r + b) % 5
            if kind == 0:  # grid values and midpoints, random signs; amax 6 makes q = x exactly
                v = grid[torch.randint(0, len(grid), (32,), generator=gen)]
                v[0] = 6.0
                v = v * torch.where(torch.rand(32, generator=gen) < 0.5, -1.0, 1.0)
            elif kind == 1:  # amax 1.75 rounds up to 2: e = -1, so q = 2x and 0.125 * n hits midpoints
                v = torch.randint(-14, 15, (32,), generator=gen).float() * 0.125
                v[0] = 1.75
            elif kind == 2:  # signed zeros and tiny values beside a normal amax
                v = torch.randn(32, generator=gen) * 1e-6
                v[::3] = -0.0
                v[1] = 3.0
            elif kind == 3:  # values just above 6 * 2**e saturate
                v = torch.rand(32, generator=gen) * 8.0 - 4.0
                v[0] = 7.9
            else:
                v = torch.randn(32, generator=gen)
            x[r, b * 32:(b + 1) * 32] = v * scale
    return x


@triton.jit
def _quantize_probe(x_ptr, out_ptr, R: tl.constexpr, C: tl.constexpr, TIES_AWAY: tl.constexpr):
    """The kernel's own quantizer on an (R, C) tile, storing the dequantized fp32 values."""
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    r, sbyte = _fused_quantize(mx_bits_f32(tl.load(x_ptr + offs)), TIES_AWAY)
    tl.store(out_ptr + offs, _fused_dequantize(r, sbyte))


def differ(got: torch.Tensor, want: torch.Tensor) -> torch.Tensor:
    """Positions where two float tensors differ as values (NaN equals NaN; -0.0 equals 0.0)."""
    got, want = got.cpu().float(), want.cpu().float()
    return (~((got == want) | (got.isnan() & want.isnan()))).nonzero()


def differ_in_bits(got: torch.Tensor, want: torch.Tensor) -> torch.Tensor:
    """Positions where two fp32 tensors differ in their bits (-0.0 is not 0.0), any NaN equal to any NaN."""
    got, want = got.cpu().float(), want.cpu().float()
    same = (got.view(torch.int32) == want.view(torch.int32)) | (got.isnan() & want.isnan())
    return (~same).nonzero()


@pytest.mark.parametrize("rounding", ["rne", "ties_away"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_quantizer_bit_exact_full_range(rounding, dtype):
    """The kernel's quantizer, on scales over the whole E8M0 range (subnormal input, the e = 127
    edge, NaN and Inf blocks), gives mxlib.spec.quant's dequantized values bit for bit, but for one
    departure under rne: a -0 (code 8) comes out +0 (`_fused_quantize` says why C cannot show it)."""
    gen = torch.Generator().manual_seed(fresh_seed())
    x = adversarial_a(32, 128, gen, max_exp=140)
    x[3, 40] = float("nan")
    x[5, 70] = float("inf")
    x[6, 0:32] = 1e-40  # a subnormal block
    x[7, 32:64] = 3.3e38  # amax rounds up past 2**128: e = 127
    x = x.to(dtype)
    want = dequantize_mxfp4(*quantize_mxfp4(x, rounding))
    xd = x.to(DEVICE)
    got = torch.full(xd.shape, float("nan"), dtype=torch.float32, device=DEVICE)
    _quantize_probe[(1,)](xd, got, R=32, C=128, TIES_AWAY=rounding == "ties_away")
    diff = differ_in_bits(got, want)  # the probe stores the dequantized values, so -0 is not 0 here
    if rounding == "rne":
        i, j = diff.unbind(1)
        signed_zero = (want[i, j] == 0) & want[i, j].signbit() & (got.cpu()[i, j] == 0) & ~got.cpu()[i, j].signbit()
        diff = diff[~signed_zero]
    assert diff.numel() == 0, f"{len(diff)} values differ, first at {diff[:4].tolist()}"


@pytest.mark.parametrize("rounding", ["rne", "ties_away"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_gemm_quantizes_a_bit_exact(rounding, dtype):
    """With B the identity, C = A's dequantized values exactly (two significant bits times a power
    of two: bf16 holds them), so the GEMM's quantization of A equals mxlib.spec.quant bit for bit, for
    block scales 2**-124..2**124 (subnormal results included; past that a dequantized value is Inf,
    and Inf times the identity's zeros is NaN by mxlib's rule)."""
    gen = torch.Generator().manual_seed(fresh_seed())
    k = 128
    a = adversarial_a(20, k, gen, max_exp=124).to(dtype)
    b_shuffle, b_scale_sh = weights(torch.eye(k))
    want = dequantize_mxfp4(*quantize_mxfp4(a, rounding)).to(torch.bfloat16)
    cfg = F.Config(block_m=16, block_n=64, block_k=64, split_k=2)
    diff = differ(run(a.to(DEVICE), b_shuffle, b_scale_sh, cfg, rounding), want)
    assert diff.numel() == 0, f"{len(diff)} values differ, first at {diff[:4].tolist()}"


@pytest.mark.filterwarnings("ignore:overflow encountered")
def test_nan_and_inf_blocks_propagate():
    """mxlib's rule: a block holding NaN or Inf has scale 255, so its row of A (or of B) is NaN in C."""
    gen = torch.Generator().manual_seed(fresh_seed())
    m, n, k = 6, 32, 128
    a = torch.randn(m, k, generator=gen)
    a[1, 5] = float("nan")
    a[3, 70] = float("inf")
    a[4, 100] = float("-inf")
    b = torch.randn(n, k, generator=gen)
    b[7, 40] = float("nan")
    b_shuffle, b_scale_sh = weights(b)
    keep = torch.ones(m, dtype=torch.bool)
    keep[[1, 3, 4]] = False
    out = run(a.to(DEVICE).to(torch.bfloat16), b_shuffle, b_scale_sh,
              F.Config(block_m=16, block_n=64, block_k=64, split_k=2)).cpu().float()
    nan = out.isnan()
    assert nan[[1, 3, 4]].all() and nan[:, 7].all()
    assert not nan[keep][:, torch.arange(n) != 7].any()


def test_split_counters_reset_between_calls():
    """Two calls in a row on fresh inputs, both right: the last arrival of each tile resets its counter."""
    cfg = F.Config(block_m=16, block_n=64, block_k=64, split_k=4)
    for _ in range(2):
        seed = fresh_seed()
        data = generate_input(5, 128, 256, seed, device=DEVICE)
        ok, msg = check_implementation(data, run_data(data, cfg), "rne")
        assert ok, f"seed {seed}: {msg}"
    assert all(int(buf.abs().sum()) == 0 for bufs in arrival._mx_counters.values() for buf in bufs)


@pytest.mark.parametrize("cfg", [F.Config(16, 64, 64, 2), F.Config(16, 64, 128, 2, a_once=1)], ids=["split_k", "a_once"])
def test_counters_stay_inside_the_buffer_the_launch_asks_for(monkeypatch, cfg):
    """The counters a launch asks for hold all its kernel uses: split-K arrivals, and with a_once the
    launch-done counter and every unit's flag after them."""
    assert_counters_stay_in_their_buffer(monkeypatch, F, cfg)


@pytest.mark.skipif(torch.cuda.is_available(), reason="interrupts the interpreter between two programs")
@pytest.mark.parametrize("cfg", [F.Config(16, 64, 128, 4), F.Config(16, 64, 128, 2, a_once=1)],
                         ids=["split_k", "a_once"])
def test_interrupted_call_does_not_poison_later_ones(monkeypatch, cfg):
    """Ctrl-C partway through a launch (KeyboardInterrupt as the interpreter, which runs programs in
    order, starts the one after tile 2's first split: tiles 0 and 1 done, one arrival on tile 2, some
    a_once flags up) leaves counters and flags set with that launch's generation. Later calls on other
    inputs are right all the same, and leave every counter buffer at zero."""
    from triton.runtime import interpreter

    m, n, k = 16, 256, 1024
    start = interpreter.interpreter_builder.set_grid_idx

    def interrupt(x, y, z):
        if x == 2 * cfg.split_k + 1:
            raise KeyboardInterrupt
        return start(x, y, z)

    monkeypatch.setattr(interpreter.interpreter_builder, "set_grid_idx", interrupt)
    with pytest.raises(KeyboardInterrupt):
        run_data(generate_input(m, n, k, fresh_seed(), device=DEVICE), cfg)
    monkeypatch.undo()
    for _ in range(2):
        seed = fresh_seed()
        data = generate_input(m, n, k, seed, device=DEVICE)
        ok, msg = check_implementation(data, run_data(data, cfg), "rne")
        assert ok, f"seed {seed}: {msg}"
    assert all(int(buf.abs().sum()) == 0 for bufs in arrival._mx_counters.values() for buf in bufs)


@pytest.mark.parametrize("rounding", ["rne", "ties_away"])
def test_a_once_equals_per_program_quantization(rounding):
    """a_once=1 (A quantized once per launch, shared through flags) gives the same bits as a_once=0 on
    fresh shapes: several M and N tiles, split K, a masked K tail, an N tile count that does not
    divide the iterations. In the interpreter programs run one after another, so both the producer
    path (flags already up) and the fallback (polls run out, the program quantizes itself) run.
    Every flag and counter is back at 0 afterwards."""
    rng = random.SystemRandom()
    cases = [
        (rng.randrange(17, 40), 64 * rng.randrange(2, 4), 384, F.Config(16, 64, 128, 1, a_once=1)),
        (rng.randrange(1, 16), 64 * rng.randrange(2, 5), 512, F.Config(16, 64, 128, 2, a_once=1)),
        (rng.randrange(1, 33), 128, 64 * rng.randrange(5, 9), F.Config(32, 64, 64, 3, a_once=1)),
    ]
    for m, n, k, cfg in cases:
        seed = fresh_seed()
        data = generate_input(m, n, k, seed, device=DEVICE)
        got = run_data(data, cfg, rounding)
        want = run_data(data, F.Config(cfg.block_m, cfg.block_n, cfg.block_k, cfg.split_k), rounding)
        assert torch.equal(got.view(torch.int16), want.view(torch.int16)), f"{m}x{n}x{k} {cfg} seed {seed}"
        ok, msg = check_implementation(data, got, rounding)
        assert ok, f"{m}x{n}x{k} {cfg} seed {seed}: {msg}"
    assert all(int(buf.abs().sum()) == 0 for bufs in arrival._mx_counters.values() for buf in bufs)


@pytest.mark.parametrize("k, split_k", ((192, 2), (320, 3), (64, 2)))
def test_a_once_waits_on_the_longest_range_when_split_k_leaves_ranges_uneven(k, split_k):
    """Where split_k does not divide the K iterations (3 in 2, 5 in 3; 1 in 2 leaves a range empty), a
    program's flag window covers the longest range, not the average one. With 16-row tiles (one unit per
    iteration) and two N tiles, N tile 0 quantizes every other unit of its range and finds its first flag
    up: a window one iteration short would take the second unit's stale workspace as ready."""
    data = generate_input(16, 128, k, fresh_seed(), device=DEVICE)
    ok, msg = check_implementation(data, run_data(data, F.Config(16, 64, 64, split_k, a_once=1)), "rne")
    assert ok, msg


def test_a_once_without_split_k_still_releases_every_threads_stores(monkeypatch):
    """a_once alone (split_k 1) publishes flags, so its launch asks for mx_release_threads' per-thread
    releases (AMD's and the interpreter's form; here stubbed to a count every backend would show) as a
    split-K launch does, not none."""
    seen = {}

    class Launch:
        def __getitem__(self, grid):
            return lambda *args, **kwargs: seen.update(kwargs)

    monkeypatch.setattr(F, "_fused_gemm_kernel", Launch())
    monkeypatch.setattr(F, "mx_release_threads", lambda num_warps: 7 * num_warps)
    data = generate_input(20, 128, 256, 1, device=DEVICE)
    F.gemm(data[0], data[3], data[4], config=F.Config(16, 64, 128, 1, num_warps=4, a_once=1))
    assert seen["A_ONCE"] and seen["RELEASE_THREADS"] == 28


@pytest.mark.gpu
def test_a_once_under_real_concurrency():
    """On a GPU the programs of an a_once launch really run at once and wait on each other's flags:
    60 fresh launches (contest-like and random shapes, 1-2 waves of programs, split K or not, back to
    back on one queue) each equal the a_once=0 result bit for bit, and leave every flag at 0."""
    rng = random.SystemRandom()
    shapes = [(16, 2112, 7168, F.Config(16, 64, 128, 8, a_once=1)), (64, 7168, 2048, F.Config(64, 128, 128, 2, 8, a_once=1)),
              (256, 3072, 1536, F.Config(64, 128, 128, 1, 8, a_once=1)), (4, 2880, 512, F.Config(16, 64, 128, 4, a_once=1))]
    for _ in range(60):
        if rng.random() < 0.5:
            m, n, k, cfg = rng.choice(shapes)
        else:
            m, n, k = rng.randrange(1, 300), 64 * rng.randrange(1, 60), 128 * rng.randrange(1, 40)
            cfg = rng.choice([F.Config(16, 64, 128, 3, a_once=1), F.Config(64, 64, 128, 2, a_once=1)])
        data = generate_input(m, n, k, fresh_seed(), device=DEVICE)
        got = run_data(data, cfg)
        want = run_data(data, F.Config(cfg.block_m, cfg.block_n, cfg.block_k, cfg.split_k, cfg.num_warps))
        assert torch.equal(got.view(torch.int16), want.view(torch.int16)), f"{m}x{n}x{k} {cfg}"
    torch.cuda.synchronize()
    assert all(int(buf.abs().sum()) == 0 for bufs in arrival._mx_counters.values() for buf in bufs)


@pytest.mark.gpu
def test_each_graph_capture_makes_counters_that_no_other_call_shares():
    """Each CUDA graph capture of a split-K launch makes a counter buffer of its own, zeroed at every replay:
    an eager call on the capture queue before any replay is right (it does not use a capture's unset
    buffer), and two graphs captured on one queue, replayed at the same time on two queues (a graph replays
    on the queue current at replay), are right in every replay (when captures shared the queue's buffer, an
    H100 gave 1000 wrong outputs in 1000 such replays). Outputs bit-exact against eager calls."""
    queue = torch.cuda.Stream()
    m, n, k, cfg = 16, 512, 16384, F.Config(16, 64, 128, 8)
    datas = [generate_input(m, n, k, fresh_seed(), device=DEVICE) for _ in range(2)]
    wants = [run_data(data, cfg) for data in datas]  # compiled and reference outputs, before any capture
    torch.cuda.synchronize()
    for data, want in zip(datas, wants):
        ok, msg = check_implementation(data, want, "rne")
        assert ok, msg
    known = set(arrival._mx_counters)
    outs = [torch.empty((m, n), dtype=torch.bfloat16, device=DEVICE) for _ in datas]
    graphs = []
    for (a, _, _, b_shuffle, b_scale_sh), c in zip(datas, outs):
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, stream=queue):
            F.gemm(a, b_shuffle, b_scale_sh, config=cfg, out=c)
        graphs.append(graph)
    made = [key for key in arrival._mx_counters if key not in known and key[2] == queue.cuda_stream]
    assert len(made) == 2 and all(key[3] for key in made), made  # one buffer per capture, keyed on its id
    for key in made:
        arrival._mx_counters[key][0].fill_(12345)  # what an unreplayed capture's buffer might hold
    with torch.cuda.stream(queue):
        got = run_data(datas[0], cfg)
    queue.synchronize()
    assert torch.equal(got.view(torch.int16), wants[0].view(torch.int16)), "eager call after the captures"
    replay_queues = [torch.cuda.Stream(), torch.cuda.Stream()]
    wrong = [0, 0]
    for _ in range(200):
        for c in outs:
            c.fill_(float("nan"))
        torch.cuda._sleep(200_000)  # holds both queues until the two replays are queued, then releases both
        gate = torch.cuda.current_stream().record_event()
        for graph, q in zip(graphs, replay_queues):
            q.wait_event(gate)
            with torch.cuda.stream(q):
                graph.replay()
        torch.cuda.synchronize()
        for i, (c, want) in enumerate(zip(outs, wants)):
            wrong[i] += not torch.equal(c.view(torch.int16), want.view(torch.int16))
    assert wrong == [0, 0], f"replays with a wrong output, each graph: {wrong} of 200"


@pytest.mark.gpu
def test_split_k_launches_on_two_queues_at_once():
    """Two split-K launches on two queues may run at the same time: each queue has counters of its own, so
    neither discards the other's arrivals. Many alternating launches, each queue on its own inputs."""
    m, n, k, cfg = 16, 512, 2048, F.Config(16, 64, 128, 8)
    queues = [torch.cuda.Stream(), torch.cuda.Stream()]
    datas = [generate_input(m, n, k, fresh_seed(), device=DEVICE) for _ in queues]
    run_data(datas[0], cfg)  # compiled once, before the interleaved launches
    torch.cuda.synchronize()
    outs = [[], []]
    for _ in range(20):
        for i, queue in enumerate(queues):
            with torch.cuda.stream(queue):
                outs[i].append(run_data(datas[i], cfg))
    torch.cuda.synchronize()
    keys = {(DEVICE, torch.device(DEVICE).index or 0, q.cuda_stream, 0) for q in queues}
    assert keys <= set(arrival._mx_counters)
    for data, got in zip(datas, outs):
        for c in got:
            ok, msg = check_implementation(data, c, "rne")
            assert ok, msg


def test_bad_input_raises():
    data = generate_input(4, 64, 128, 3, device=DEVICE)
    a, _, _, b_shuffle, b_scale_sh = data
    with pytest.raises(ValueError, match=r"rounding must be one of 'rne', 'ties_away', got 'nearest'"):
        F.gemm(a, b_shuffle, b_scale_sh, rounding="nearest")
    with pytest.raises(TypeError, match="config must be a gemm_fused.Config, got tuple"):
        F.gemm(a, b_shuffle, b_scale_sh, config=(16, 64, 64, 1))
    with pytest.raises(ValueError, match=r"a.shape\[1\] \(K\) must be a positive multiple of 64, got 96"):
        F.gemm(a[:, :96], b_shuffle[:, :48], b_scale_sh)
    with pytest.raises(ValueError, match=r"b_scale_sh must have shape \(ceil256\(N\), ceil8\(K/32\)\) = \(256, 8\)"):
        F.gemm(a, b_shuffle, b_scale_sh[:, :2])
    with pytest.raises(ValueError, match="fused Config.block_k must be a power of two >= 64, got 32"):
        F.Config(block_k=32)
    with pytest.raises(ValueError, match="fused Config.block_n must be a power of two >= 64"):
        F.Config(block_n=32)
    with pytest.raises(ValueError, match="fused Config.split_k must be a positive integer, got 0"):
        F.Config(split_k=0)
    with pytest.raises(ValueError, match="fused Config.a_once must be 0 or 1, got 2"):
        F.Config(a_once=2)



def test_default_config_and_grid_for_contest_shapes():
    assert_default_configs_fit_the_contest_shapes(F)


def test_default_config_up_to_m_32_aims_at_two_programs_per_unit_and_quantizes_a_per_program():
    """The default's small-M rule holds through M = 32: one M tile, split_k aiming at two programs per SM
    or CU, and A quantized by each program (a_once 0), as the H200's winners for those shapes are."""
    from mxlib.kernels.common import MAX_UNROLLED_SPLIT_K
    from mxlib.spec.devices import compute_units

    for m in (1, 16, 17, 32):
        cfg = F.default_config(m, 2112, 7168)
        tiles = -(-2112 // cfg.block_n)
        assert cfg.block_m == max(16, 1 << (m - 1).bit_length()) and cfg.a_once == 0, (m, cfg)
        assert cfg.split_k == max(1, min(7168 // 128, round(2 * compute_units() / tiles), MAX_UNROLLED_SPLIT_K)), (m, cfg)


def test_default_split_reaches_every_k_iteration_of_a_short_k(monkeypatch):
    """Where few programs leave room, the default split_k is K's number of block_k iterations, counting a
    partial last one (K = 192 at block_k 128: two), never fewer."""
    monkeypatch.setattr(F, "compute_units", lambda device=None: 132)
    assert F.default_config(16, 64, 192).split_k == 2
    assert F.default_config(16, 64, 256).split_k == 2 and F.default_config(16, 64, 320).split_k == 3


def test_default_a_once_holds_at_exactly_two_programs_per_unit(monkeypatch):
    """From M = 64 the default quantizes A once when the launch has at most two programs per unit, the
    bound included: 264 programs on 132 SMs is a_once, 265 would not be."""
    monkeypatch.setattr(F, "compute_units", lambda device=None: 132)
    cfg = F.default_config(64, 264 * 64, 2048)
    assert F.grid(64, 264 * 64, 2048, cfg) == 264 and cfg.a_once == 1
    cfg = F.default_config(64, 265 * 64, 2048)
    assert F.grid(64, 265 * 64, 2048, cfg) == 265 and cfg.a_once == 0


def test_h200_table_a_once_rows_fit_on_the_gpu_at_once():
    """a_once pays off only when every program of the launch is resident (its programs wait on each
    other): every H200 table row with a_once=1 launches at most two programs per SM, as the default
    config requires too."""
    from mxlib.runtime import dispatch

    rows = [(mnk, cfg) for mnk, entries in dispatch.load_table("h200").items()
            for path, cfg in entries if path == "fused" and cfg.get("a_once")]
    assert rows, "the H200 table has no a_once row"
    for (m, n, k), cfg in rows:
        assert F.grid(m, n, k, F.Config(**cfg)) <= 2 * 132, f"{m}x{n}x{k} {cfg}"
    for m, n, k in ((64, 7168, 2048), (300, 8000, 4096), (1, 64, 64)):
        cfg = F.default_config(m, n, k)
        assert not cfg.a_once or F.grid(m, n, k, cfg) <= 2 * 132
