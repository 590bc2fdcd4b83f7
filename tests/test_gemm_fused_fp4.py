"""The fused_fp4 path (mxlib.kernels.gemm_fused_fp4): A quantized in the kernel into the exact bytes of
`quantize_mxfp4` (every bf16 value, fp32 values at and next to every midpoint, NaN/Inf/-0/subnormal
blocks, both rules), the GEMM against golden cases and fresh random shapes, relative error over the
whole bf16 range, launch-generation counters that survive an interrupted launch, and the gfx950 build
(native scaled MFMA, no scratch).

Without a GPU the kernel runs in Triton's interpreter (tests/conftest.py), which emulates
``tl.dot_scaled`` on two e2m1 operands in fp32 (no fp16 detour, unlike a bf16 operand). Every output is
passed in as `out=` filled with NaN, so an element the kernel never writes shows.
"""
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import triton
import triton.language as tl

from mxlib.spec.formats import BLOCK_SIZE
from mxlib.kernels import arrival
from mxlib.kernels import gemm_fused_fp4 as F
from mxlib.kernels.common import mx_bits_f32
from mxlib.kernels.gemm_fused_fp4 import _fp4_quantize
from mxlib.spec.layouts import e8m0_shuffle, e8m0_unshuffle, shuffle_weight
from mxlib.spec.quant import dequantize_mxfp4, quantize_mxfp4
from mxlib.spec.reference import check_exact, check_implementation, compare, generate_input

from . import golden
from .helpers import assert_counters_stay_in_their_buffer, assert_default_configs_fit_the_contest_shapes, fresh_seed, run_into_nan

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
ROOT = Path(__file__).resolve().parent.parent
RULES = ("rne", "ties_away")


def run(a, b_shuffle, b_scale_sh, config=None, rounding="rne"):
    return run_into_nan(F.gemm, a, b_shuffle, b_scale_sh, config, rounding)


def run_data(data, config=None, rounding="rne"):
    a, _, _, b_shuffle, b_scale_sh = data
    return run(a, b_shuffle, b_scale_sh, config, rounding)


def weights(b: torch.Tensor):
    """(B_shuffle, B_scale_sh) of a float (N, K) tensor, quantized with "rne"."""
    q, s = quantize_mxfp4(b)
    return shuffle_weight(q).to(DEVICE), e8m0_shuffle(s).to(DEVICE)


# ---------------------------------------------------------------------------------------------
# A's quantization inside the kernel, byte for byte


@triton.jit
def _quantize_probe(x_ptr, q_ptr, s_ptr, C, TIES_AWAY: tl.constexpr):
    """The kernel's own quantizer on the (16, 256) tile (program_id(0), program_id(1)) of an (R, C) input:
    packed codes to q (R, C/2), scale bytes to s (R, C/32)."""
    r = tl.program_id(0) * 16 + tl.arange(0, 16)[:, None]
    c0 = tl.program_id(1) * 256
    q, s = _fp4_quantize(mx_bits_f32(tl.load(x_ptr + r * C + c0 + tl.arange(0, 256)[None, :])), TIES_AWAY)
    tl.store(q_ptr + r * (C // 2) + c0 // 2 + tl.arange(0, 128)[None, :], q)
    tl.store(s_ptr + r * (C // 32) + c0 // 32 + tl.arange(0, 8)[None, :], s)


def assert_quantizes_like_spec(x: torch.Tensor, rule: str, what: str) -> None:
    """The in-kernel quantizer gives quantize_mxfp4's code and scale bytes for every element of x
    ((R, 1024), rows padded with zeros to a multiple of 16)."""
    assert x.shape[1] == 1024
    rows = -(-x.shape[0] // 16) * 16
    xp = torch.zeros((rows, 1024), dtype=x.dtype)
    xp[: x.shape[0]] = x
    want_q, want_s = quantize_mxfp4(xp, rule)
    got_q = torch.full((rows, 512), 0xEE, dtype=torch.uint8, device=DEVICE)
    got_s = torch.full((rows, 32), 0xEE, dtype=torch.uint8, device=DEVICE)
    _quantize_probe[(rows // 16, 4)](xp.to(DEVICE), got_q, got_s, 1024, TIES_AWAY=rule == "ties_away")
    bad_q = (got_q.cpu() != want_q).nonzero()[:4].tolist()
    bad_s = (got_s.cpu() != want_s).nonzero()[:4].tolist()
    assert not bad_q and not bad_s, f"{rule} {what}: codes differ at {bad_q}, scales at {bad_s}"


def pinned_blocks(values: torch.Tensor, exponents) -> torch.Tensor:
    """fp32 (rows, 1024): for each block exponent e, blocks whose first element 6 * 2**e pins the scale
    to 2**e and whose other 31 elements are `values` * 2**e (|values| <= 6), padded with zeros."""
    per = BLOCK_SIZE - 1
    nblk = -(-values.numel() // per)
    body = torch.zeros(nblk * per)
    body[: values.numel()] = values
    body = body.view(nblk, per)
    out = []
    for e in exponents:
        scale = torch.tensor(2.0, dtype=torch.float64) ** e
        blk = torch.cat([torch.full((nblk, 1), 6.0), body], dim=1).double() * scale
        out.append(blk.float())
    flat = torch.cat(out).reshape(-1)
    flat = torch.cat([flat, torch.zeros((-flat.numel()) % 1024)])
    return flat.view(-1, 1024)


@pytest.mark.parametrize("rule", RULES)
def test_quantizer_every_bf16_value(rule):
    """Every finite bf16 value x with |x| <= 6 as an element of blocks whose scale is pinned to 2**e, for
    e at both ends of the E8M0 range and in between (so q = x exactly, every midpoint and its bf16
    neighbours included), as bf16 input."""
    bits = torch.arange(-(2**15), 2**15, dtype=torch.int32).to(torch.int16).view(torch.bfloat16).float()
    vals = bits[bits.isfinite() & (bits.abs() <= 6.0)]
    x = pinned_blocks(vals, (-127, -126, -64, -1, 0, 1, 17, 100, 125))
    assert_quantizes_like_spec(x.to(torch.bfloat16), rule, "all bf16 values")


@pytest.mark.parametrize("rule", RULES)
def test_quantizer_fp32_midpoints_and_neighbours(rule):
    """fp32 input: every grid value and midpoint, one fp32 ulp below and above each, both signs, -0.0,
    under pinned scales 2**-127..2**125; then whole blocks of subnormals, the e = 127 edge, an amax at the
    round-up boundary, underflowing negatives (ties_away's sign) and NaN/Inf blocks."""
    grid = torch.tensor([0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0])
    near = torch.cat([grid, torch.nextafter(grid, torch.tensor(0.0)), torch.nextafter(grid, torch.tensor(7.0))])
    vals = torch.cat([near, -near, torch.tensor([-0.0])])
    x = pinned_blocks(vals, (-127, -126, -125, -100, -3, 0, 5, 90, 124, 125))
    special = torch.zeros(32, 32)
    special[0] = torch.randn(32) * 1e-40  # a block of subnormals (scale from a subnormal amax)
    special[1] = -1e-45
    special[2, 0], special[2, 1:] = 1.75 * 2.0**127, -3e38  # amax rounds up into the Inf exponent: e = 127
    special[3] = torch.linspace(-7.0, 7.0, 32) * 2.0**-100
    special[4, 0], special[4, 1:] = 1.75 - 2**-23, torch.linspace(-1.75, 1.75, 31)  # just below the round-up
    special[5, 0], special[5, 1:] = 2.0**127, -(2.0**-30)  # q underflows to -0.0: ties_away's sign is +
    special[6, 3] = float("nan")
    special[7, 31] = float("-inf")
    special[8, 0] = float("inf")
    special[9] = -0.0
    special[10, ::2] = -0.0
    x = torch.cat([x, special.reshape(-1, 1024)])
    assert_quantizes_like_spec(x, rule, "fp32 midpoints")


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("dtype,bits", [(torch.bfloat16, torch.int16), (torch.float32, torch.int32)])
def test_quantizer_random_bit_patterns(rule, dtype, bits):
    """Random bit patterns of the dtype: every exponent, NaNs and infinities, mixed within blocks."""
    seed = fresh_seed()
    g = torch.Generator().manual_seed(seed)
    info = torch.iinfo(bits)
    x = torch.randint(info.min, info.max, (64, 1024), dtype=bits, generator=g).view(dtype)
    assert_quantizes_like_spec(x, rule, f"seed {seed}")


# ---------------------------------------------------------------------------------------------
# The GEMM


def close_by_magnitude(out, a, b_q, b_scale, rule):
    """(ok, message): out against the fp32 reference, each element within 2**-7 of |ref| (bf16 rounding)
    plus 2**-16 of sum_k |a_k b_k| (fp32 accumulation in another order), computed in fp64 from the
    dequantized operands; NaN must match NaN and +-Inf the same Inf. Unlike the contest's atol, this
    fails an output that is zero where the reference is tiny."""
    a_f = dequantize_mxfp4(*quantize_mxfp4(a.cpu(), rule)).double()
    b_f = dequantize_mxfp4(b_q.cpu(), b_scale.cpu()).double()
    ref = (a_f.float() @ b_f.float().T).to(torch.bfloat16).double()
    mag = a_f.abs().nan_to_num(posinf=1e300) @ b_f.abs().nan_to_num(posinf=1e300).T
    got = out.cpu().double()
    finite = ref.isfinite() & got.isfinite()
    tol = 2.0**-7 * ref.abs() + 2.0**-16 * mag + 2.0**-149 * a.shape[1]
    ok = finite & ((got - ref).abs() <= tol)
    ok |= (got == ref) | (got.isnan() & ref.isnan())
    bad = (~ok).nonzero()
    if bad.numel() == 0:
        return True, "all close"
    i, j = bad[0].tolist()
    return False, f"{len(bad)} of {got.numel()} off; first ({i}, {j}): got {got[i, j].item():.6g}, want {ref[i, j].item():.6g}"


@pytest.mark.parametrize("rule", RULES)
def test_golden_cases(golden_dir, rule):
    """Against the golden C (independent truth), with the default config and with an uneven split."""
    for name in golden.gemm_cases(golden_dir, rule):
        case = golden.load(golden_dir, rule, name)
        data = tuple(t.to(DEVICE) for t in golden.contest_tuple(case))
        for cfg in (None, F.Config(block_m=16, block_n=32, block_k=128, split_k=3)):
            out = run_data(data, cfg, rule)
            ok, msg = compare(out, case["C_bf16_bits"].to(DEVICE))
            assert ok, f"{name} {rule} {cfg}: {msg}"
            ok, msg = check_exact(data, out, rule, F.zero_scale_operands(DEVICE))  # within the exact rule too
            assert ok, f"{name} {rule} {cfg}: {msg}"


def test_random_shapes_and_splits():
    """Fresh shapes and seeds each run: M = 1, odd M over several M tiles, N = 16 and N off the tile,
    K off the iteration (masked tail, and scale columns past K/32 that e8m0_shuffle pads), split
    counts that do not divide the iterations, more splits than iterations (empty ranges add zero),
    and a config with both AMD knobs set (ignored off AMD)."""
    rng = random.SystemRandom()
    odd_m = rng.randrange(17, 48, 2)
    cases = [
        (1, 16, 64, F.Config(block_m=16, block_n=16, block_k=64)),
        (odd_m, 16 * rng.randrange(5, 9), 192, F.Config(block_m=16, block_n=64, block_k=128, split_k=2)),
        (rng.randrange(2, 16), 16, 64 * rng.randrange(5, 8), F.Config(block_m=16, block_n=16, block_k=256, split_k=3)),
        (rng.randrange(1, 33), 48, 320, F.Config(block_m=32, block_n=32, block_k=64, split_k=7)),
        (rng.randrange(33, 70), 80, 576, F.Config(block_m=32, block_n=64, block_k=512, split_k=2,
                                                  waves_per_eu=2, matrix_instr_nonkdim=16, b_cg=1)),
    ]
    for m, n, k, cfg in cases:
        seed = fresh_seed()
        data = generate_input(m, n, k, seed, device=DEVICE)
        out = run_data(data, cfg)
        ok, msg = check_implementation(data, out, "rne")
        assert ok, f"{m}x{n}x{k} {cfg} seed {seed}: {msg}"
        b_scale = e8m0_unshuffle(data[4].cpu(), n, k // BLOCK_SIZE)
        ok, msg = close_by_magnitude(out, data[0], data[2], b_scale, "rne")
        assert ok, f"{m}x{n}x{k} {cfg} seed {seed}: {msg}"


def test_default_config_on_random_shape():
    rng = random.SystemRandom()
    m, n, k = rng.randrange(1, 70), 16 * rng.randrange(1, 9), 64 * rng.randrange(1, 9)
    seed = fresh_seed()
    data = generate_input(m, n, k, seed, device=DEVICE)
    ok, msg = check_implementation(data, run_data(data), "rne")
    assert ok, f"{m}x{n}x{k} seed {seed}: {msg}"


@pytest.mark.parametrize("rule", RULES)
def test_gemm_returns_a_exactly(rule):
    """With B the identity (code 4.0 times scale 2**-2 on the diagonal), C is A's dequantized values,
    which bf16 holds exactly (two significant bits times 2**e): C equals quantize_mxfp4 bit for bit for
    block scales over the whole E8M0 range, subnormal and -0 blocks included, through the MMA path."""
    k = 256
    gen = torch.Generator().manual_seed(fresh_seed())
    a = torch.randn(24, k, generator=gen)
    a = a * torch.exp2(torch.randint(-133, 125, (24, k // 32), generator=gen).float()).repeat_interleave(32, 1)
    a[3, :32] = -0.0
    a[4, 32:64] = 0.0
    a[5, 64:96] = torch.randn(32, generator=gen) * 1e-40
    a = a.to(torch.bfloat16)
    b_shuffle, b_scale_sh = weights(torch.eye(k))
    want = dequantize_mxfp4(*quantize_mxfp4(a, rule)).to(torch.bfloat16)
    got = run(a.to(DEVICE), b_shuffle, b_scale_sh, F.Config(block_m=16, block_n=64, block_k=128, split_k=2), rule)
    diff = (got.cpu().view(torch.int16) != want.view(torch.int16)) & ~(got.cpu().isnan() & want.isnan())
    diff &= ~((got.cpu() == 0) & (want == 0))  # +-0 sums: the sign of a zero sum is the MMA's
    assert not diff.any(), f"{int(diff.sum())} values differ, first at {diff.nonzero()[:4].tolist()}"


@pytest.mark.filterwarnings("ignore:overflow encountered")
@pytest.mark.parametrize("rule", RULES)
def test_relative_error_over_the_bf16_range(rule):
    """A with a different power-of-two scale per 32-block over the whole bf16 range (2**-133 .. 2**125:
    block scale bytes 0..252), B with scales 2**-70 .. 2**-12, so products run from far below fp32's
    subnormals up to 2**118 and no sum can overflow (where it could, the result would depend on the
    summation order in any implementation); rows at one large and one tiny scale, -0 and zero blocks,
    one product that overflows alone (+Inf), NaN and Inf elements. Every output is within bf16
    rounding of the fp32 reference relative to the magnitudes summed (`close_by_magnitude`), NaN where
    the reference has NaN, the same Inf where it has Inf."""
    seed = fresh_seed()
    gen = torch.Generator().manual_seed(seed)
    m, n, k = 20, 48, 512

    def spread(rows, lo, hi):
        x = torch.randn(rows, k, generator=gen)
        return x * torch.exp2(torch.randint(lo, hi, (rows, k // 32), generator=gen).float()).repeat_interleave(32, 1)

    a = spread(m, -133, 124)
    a[:, 0] = 0.0
    a[1] = torch.randn(k, generator=gen) * 2.0**70  # one scale per row: sums of many comparable products,
    a[2] = torch.randn(k, generator=gen) * 2.0**-60  # large, and down in fp32's subnormal range
    a[3, 64:96] = -0.0
    a[4, :] = 0.0
    a[5, 7] = float("nan")
    a[6, 300] = float("-inf")
    a[7, 0] = 2.0**127
    b = spread(n, -70, -12)
    b[10, :32] = 0.0
    b[10, 0] = 2.0**20  # a[7, 0] * b[10, 0] = 2**147 overflows: C[7, 10] = +Inf
    b[9, 33] = float("inf")
    a = a.to(torch.bfloat16)
    b_q, b_s = quantize_mxfp4(b)
    cfg = F.Config(block_m=16, block_n=16, block_k=256, split_k=2)
    out = run(a.to(DEVICE), shuffle_weight(b_q).to(DEVICE), e8m0_shuffle(b_s).to(DEVICE), cfg, rule)
    ok, msg = close_by_magnitude(out, a, b_q, b_s, rule)
    assert ok, f"seed {seed}: {msg}"
    got = out.cpu().float()
    assert got[[5, 6]].isnan().all() and got[:, 9].isnan().all() and got[7, 10] == float("inf")


def test_split_counters_survive_an_interrupted_launch():
    """A launch that stops partway (here: only its first programs ever run, as when Ctrl-C interrupts
    the interpreter or a process dies mid-launch) leaves arrivals in the tile counters; the next call
    must still be right, as must two launches with the same generation (a replayed CUDA graph)."""
    m, n, k = 5, 64, 512
    cfg = F.Config(block_m=16, block_n=32, block_k=64, split_k=4)
    data = generate_input(m, n, k, fresh_seed(), device=DEVICE)
    a, _, _, b_shuffle, b_scale_sh = data
    tiles = F.grid(m, n, k, cfg) // cfg.split_k
    c = torch.empty((m, n), dtype=torch.bfloat16, device=DEVICE)
    F._fp4_launch(a, b_shuffle, b_scale_sh, c, cfg, "rne", arrival.mx_next_generation(), programs=3)  # 3 of 8
    cnt = arrival.mx_counter_buffer(a.device, tiles)
    assert int(cnt[:tiles].count_nonzero()) > 0
    ok, msg = check_implementation(data, run_data(data, cfg), "rne")
    assert ok, f"after an interrupted launch: {msg}"
    gen = arrival.mx_next_generation()
    for _ in range(2):
        c.fill_(float("nan"))
        F._fp4_launch(a, b_shuffle, b_scale_sh, c, cfg, "rne", gen)
        ok, msg = check_implementation(data, c, "rne")
        assert ok, f"replayed generation: {msg}"
    assert int(cnt[:tiles].count_nonzero()) == 0


def test_split_counters_stay_inside_the_buffer_the_launch_asks_for(monkeypatch):
    """A split-K launch asks for one arrival counter per tile, and its kernel uses no more."""
    assert_counters_stay_in_their_buffer(monkeypatch, F, F.Config(16, 64, 64, 2))


def test_bad_input_raises():
    data = generate_input(4, 64, 128, 3, device=DEVICE)
    a, _, _, b_shuffle, b_scale_sh = data
    with pytest.raises(ValueError, match=r"rounding must be one of 'rne', 'ties_away', got 'nearest'"):
        F.gemm(a, b_shuffle, b_scale_sh, rounding="nearest")
    with pytest.raises(TypeError, match="config must be a gemm_fused_fp4.Config, got tuple"):
        F.gemm(a, b_shuffle, b_scale_sh, config=(16, 64, 64, 1))
    with pytest.raises(ValueError, match=r"a.shape\[1\] \(K\) must be a positive multiple of 64, got 96"):
        F.gemm(a[:, :96], b_shuffle[:, :48], b_scale_sh)
    for bad, rule in ((dict(block_k=32), "block_k must be a power of two >= 64"),
                      (dict(block_m=8), "block_m must be a power of two >= 16"),
                      (dict(split_k=0), "split_k must be a positive integer"), (dict(num_warps=1), "num_warps must be >= 2"),
                      (dict(waves_per_eu=9), r"waves_per_eu must be 0\.\.8"),
                      (dict(matrix_instr_nonkdim=8), "matrix_instr_nonkdim must be 0, 16 or 32"),
                      (dict(b_cg=2), "b_cg must be 0 or 1")):
        with pytest.raises(ValueError, match=f"fused_fp4 Config.{rule}.*, got {next(iter(bad.values()))}$"):
            F.Config(**bad)
    F.Config(waves_per_eu=8)  # the bound itself is allowed


def test_default_config_and_grid_for_contest_shapes():
    assert_default_configs_fit_the_contest_shapes(F)


def test_default_loads_b_l2_only_through_m_32():
    """The default loads B ".cg" (L2 only, b_cg 1) up to M = 32, the bound included, as the seed's split-K
    config does, and not above."""
    assert [F.default_config(m, 2112, 7168).b_cg for m in (1, 32, 33)] == [1, 1, 0]


def test_default_n_tile_is_never_narrower_than_half_the_m_tile():
    """Where no N tile reaches DEFAULT_PROGRAMS the default takes the narrowest allowed one, and that is
    block_m / 2: 32 at block_m 64, 16 at block_m 32 (16 at block_m 16, the narrowest there is)."""
    for m, block_m, block_n in ((33, 64, 32), (64, 64, 32), (17, 32, 16), (32, 32, 16), (16, 16, 16)):
        cfg = F.default_config(m, 16, 64)
        assert (cfg.block_m, cfg.block_n) == (block_m, block_n), (m, cfg)


def test_default_n_tile_reaching_exactly_default_programs_is_taken():
    """The default takes the widest N tile whose tiles times K iterations reach DEFAULT_PROGRAMS, equality
    included: N = 128 * DEFAULT_PROGRAMS at M = 16 and one K iteration gives exactly that many 128-wide
    tiles; 16 columns fewer (the shape rule's step) still rounds up to them, one tile fewer falls to the 64-wide
    tile."""
    n = 128 * F.DEFAULT_PROGRAMS
    for cols, block_n in ((n, 128), (n - 16, 128), (n - 128, 64)):
        cfg = F.default_config(16, cols, 256)
        assert (cfg.block_m, cfg.block_k, cfg.block_n) == (16, 256, block_n), (cols, cfg)


# ---------------------------------------------------------------------------------------------
# The MI355X build, compiled offline


_COMPILE = """
import json
from mxlib.tools import isa
isa.prepare()
from mxlib.kernels import arrival
from mxlib.kernels import gemm_fused_fp4 as F
from mxlib.spec.reference import generate_input
F.mx_cuda_backend = lambda: False  # record the AMD options as an AMD launch passes them, on any machine
a, _, _, b_shuffle, b_scale_sh = generate_input(16, 2112, 7168, 0)
out = {}
for nonkdim in (16, 32):
    cfg = F.Config(block_m=nonkdim, block_n=64, block_k=256, split_k=4, waves_per_eu=2, matrix_instr_nonkdim=nonkdim)
    (launch,) = isa.capture(lambda: F.gemm(a, b_shuffle, b_scale_sh, config=cfg))
    kernel, options, _ = isa.compile_launch(launch, "gfx950")
    facts = isa.amdgcn_facts(kernel.asm["amdgcn"])
    out[nonkdim] = dict(mma=sorted(x.split(":")[0] for x in facts["mma"].split(";")), scratch=facts["scratch_bytes"],
                        waves_per_eu=options["waves_per_eu"], nonkdim=options["matrix_instr_nonkdim"])
cfg = F.Config(block_m=16, block_n=64, block_k=128, split_k=8, num_stages=3)  # the H200 table's tiling
(launch,) = isa.capture(lambda: F.gemm(a, b_shuffle, b_scale_sh, config=cfg))
facts = isa.cubin_facts(isa.compile_launch(launch, "sm_90")[0])
out["sm_90"] = dict(mma=sorted(x.split(":")[0] for x in facts["mma"].split(";")), spill=facts["spill_bytes"])
print(json.dumps(out))
"""


def test_gfx950_build_uses_the_native_scaled_mfma():
    """Recorded as `fused_fp4_gemm` launches it on (16, 2112, 7168) and compiled for gfx950 (mxlib.tools.isa),
    with the MFMA's 16- and 32-wide shapes and waves_per_eu 2: only the native FP4 scaled MFMA (A and B
    both e2m1, no bf16 upcast MFMA), the AMD options reach the compiler, no scratch (spills). For sm_90
    (the H200 table's tiling) it builds too, without spills, on bf16 MMAs (Triton emulates the scaled
    dot there). In a child process: under the interpreter Triton's decorators make interpreted
    functions, which cannot be compiled."""
    env = {key: v for key, v in os.environ.items() if key != "TRITON_INTERPRET"}
    proc = subprocess.run([sys.executable, "-c", _COMPILE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    for nonkdim, mfma in (("16", "v_mfma_scale_f32_16x16x128_f8f6f4"), ("32", "v_mfma_scale_f32_32x32x64_f8f6f4")):
        assert got[nonkdim] == dict(mma=[mfma], scratch=0, waves_per_eu=2, nonkdim=int(nonkdim)), got
    assert got["sm_90"]["spill"] == 0 and all(".bf16.bf16." in m for m in got["sm_90"]["mma"]), got  # upcast there
