"""Argument rules every GEMM path shares (mxlib.kernels.common) and the one-launch paths' launch limits:
`out` sharing memory with an input, split_k bounds, int32 workspace guards. Small shapes, CPU interpreter."""
import dataclasses

import pytest
import torch

from mxlib.kernels import common
from mxlib.kernels import gemm_fused as F
from mxlib.kernels import gemm_fused_fp4 as F4
from mxlib.runtime.paths import PATHS, path_module
from mxlib.spec.reference import generate_input, ref_kernel

from .helpers import fresh_seed

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def data(m=16, n=128, k=128):
    return generate_input(m, n, k, fresh_seed(), device=DEVICE)


@pytest.mark.parametrize("path", tuple(PATHS))
def test_out_aliasing_a_is_refused_on_every_path(path):
    a, _, _, bs, bss = data()  # N == K: an (M, N) bf16 out fits A exactly
    a0 = a.clone()
    with pytest.raises(ValueError, match="out must not share memory with a"):
        path_module(path).gemm(a, bs, bss, out=a)
    assert torch.equal(a, a0)  # refused before anything ran


@pytest.mark.parametrize("path", tuple(PATHS))
def test_out_partly_overlapping_a_or_b_is_refused(path):
    a, _, _, bs, bss = data()
    buf = torch.cat([a, a]).contiguous()
    with pytest.raises(ValueError, match="out must not share memory with a"):
        path_module(path).gemm(buf[8:24], bs, bss, out=buf[:16])  # rows 8..15 are both
    b_bytes = bs.view(torch.uint8).clone()  # (128, 64) bytes = 8192, out needs 16 * 128 * 2 = 4096
    out = b_bytes.view(-1)[:4096].view(torch.bfloat16).view(16, 128)
    with pytest.raises(ValueError, match="out must not share memory with b_shuffle"):
        path_module(path).gemm(a, b_bytes, bss, out=out)


@pytest.mark.parametrize("path", ("splitk", "fused", "fused_fp4"))
def test_out_in_the_same_storage_without_overlap_is_fine(path):
    d = data()
    a, _, _, bs, bss = d
    buf = torch.cat([a, torch.full_like(a, float("nan"))]).contiguous()
    got = path_module(path).gemm(buf[:16], bs, bss, out=buf[16:])
    assert got.data_ptr() == buf[16:].data_ptr()
    assert torch.equal(got, ref_kernel(d))


def test_byte_spans_of_strided_and_empty_tensors():
    t = torch.zeros(4, 6, dtype=torch.float32)
    common.mx_check_no_overlap(t[:, :3], other=t[:, 3:].contiguous())  # a copy: no shared memory
    with pytest.raises(ValueError, match="out must not share memory with col"):
        common.mx_check_no_overlap(t[:2], col=t[:, 5])  # column 5 spans rows 0..3
    common.mx_check_no_overlap(t[:0], x=t)  # empty out occupies nothing
    common.mx_check_no_overlap(t[:1, :3], x=t[1:, :3])
    common.mx_check_no_overlap(t[:2], x=t[2:])  # out ends where x starts: nothing shared
    with pytest.raises(ValueError, match="out must not share memory with x"):
        common.mx_check_no_overlap(t[:2], x=t.view(-1)[11:])  # x starts at out's last element


@pytest.mark.parametrize("mod", (F, F4))
def test_split_k_is_bounded_by_the_unrolled_reduction(mod):
    name = mod.__name__.rsplit("gemm_", 1)[1]
    mod.Config(block_k=64, split_k=common.MAX_UNROLLED_SPLIT_K)
    with pytest.raises(ValueError, match=rf"{name} Config.split_k must be at most {common.MAX_UNROLLED_SPLIT_K}"):
        mod.Config(block_k=64, split_k=common.MAX_UNROLLED_SPLIT_K + 1)
    with pytest.raises(ValueError, match="Config.split_k must be a positive integer"):
        mod.Config(split_k=True)
    # The default rules stay within the bound for any K.
    for m in (1, 16, 64, 256):
        assert 1 <= mod.default_config(m, 64, 2**22).split_k <= common.MAX_UNROLLED_SPLIT_K


class _Resolved(Exception):
    pass


@pytest.mark.parametrize("path", tuple(PATHS))
def test_every_path_asks_its_default_for_the_operands_device(path, monkeypatch):
    """A call without a config gets the default made for the GPU its operands are on, not the current one
    (fused and mma_sm90 size their split-K by that GPU's SMs): the path hands a.device to its default, and
    the dispatcher hands its device on."""
    mod = path_module(path)
    name = next(k for k, v in vars(mod).items() if v is mod.default_config and k != "default_config")
    seen = []

    def recording(m, n, k, device=None):
        seen.append(device)
        raise _Resolved

    monkeypatch.setattr(mod, name, recording)
    a, _, _, bs, bss = data()
    with pytest.raises(_Resolved):
        mod.gemm(a, bs, bss)
    assert seen == [a.device]


def test_the_dispatcher_asks_the_default_for_its_device(monkeypatch):
    from mxlib.runtime import dispatch

    seen = []
    monkeypatch.setattr(F, "compute_units", lambda device=None: seen.append(device) or 132)
    path, cfg = dispatch.select(64, 7168, 2048, "cpu", path="fused")
    assert seen == ["cpu"] and cfg == F.default_config(64, 7168, 2048, "cpu")


@pytest.mark.parametrize("mod, check", ((F, F.fused_check_launch), (F4, F4.fused_fp4_check_launch)))
def test_workspace_past_int32_is_refused_from_the_arithmetic(mod, check):
    cfg = mod.Config(block_m=16, block_n=64, block_k=64, split_k=64)
    check(16, 64, 64 * 64, cfg)  # 64 * 16 * 64 elements: fine
    # M*N = 2**25 (below 2**31) but split_k * M * N = 2**31: the workspace, not the operands, overflows.
    with pytest.raises(ValueError, match="split-K workspace .* must stay below 2\\*\\*31"):
        check(2**15, 2**10, 64 * 64, cfg)
    check(2**15, 2**10, 64 * 64, mod.Config(block_m=16, block_n=64, block_k=64, split_k=1))


@pytest.mark.parametrize("mod, check", ((F, F.fused_check_launch), (F4, F4.fused_fp4_check_launch)))
def test_the_split_k_workspace_is_checked_from_two_splits(mod, check):
    """Any split_k above 1 has a workspace, so split 2 is held to int32 offsets too: 2**14 x 2**16 in
    16x64 tiles is 2**20 tiles, times 2 splits of 16 * 64 elements = 2**31, refused; one row less is fine."""
    cfg = mod.Config(block_m=16, block_n=64, block_k=64, split_k=2)
    with pytest.raises(ValueError, match="split-K workspace .* must stay below 2\\*\\*31"):
        check(2**14, 2**16, 64, cfg)
    check(2**14 - 16, 2**16, 64, cfg)


def test_splitk_workspace_past_int32_is_refused_before_it_is_allocated(monkeypatch):
    """splitk's (split_k, M, N) fp32 workspace stays within int32 offsets: M * N = 2**28 is fine alone, but
    split 8 makes it 2**31, refused before the workspace exists or a kernel runs (A here is one row
    broadcast, and the quantizer is stubbed: only the arithmetic is checked)."""
    from mxlib.kernels import gemm_splitk as SK

    m, n, k = 2**16, 2**12, 64
    a = torch.zeros(1, k, dtype=torch.bfloat16).expand(m, k)
    bs = torch.zeros(n, k // 2, dtype=torch.uint8)
    bss = torch.zeros(n, 8, dtype=torch.uint8)
    monkeypatch.setattr(SK, "mxq_quantize", lambda x, rounding: (torch.zeros(1, 1, dtype=torch.uint8),) * 2)

    class _NoLaunch:
        def __getitem__(self, grid):
            raise AssertionError(f"a kernel was launched on grid {grid}")

    monkeypatch.setattr(SK, "_splitk_kernel", _NoLaunch())
    with pytest.raises(ValueError, match=r"split-K workspace \(split_k \* M \* N = 8 \* 65536 \* 4096 elements\)"):
        SK.splitk_gemm(a, bs, bss, config=SK.SplitkConfig(split_k=8))


def test_a_once_workspace_past_int32_is_refused():
    cfg = F.Config(block_m=128, block_n=64, block_k=128, split_k=1, a_once=1)
    F.fused_check_launch(256, 64, 128, cfg)
    with pytest.raises(ValueError, match="a_once's workspace"):
        F.fused_check_launch(2**18 - 1, 64, 2**13, cfg)  # M*K < 2**31, padded M * K = 2**31


def test_a_once_takes_as_many_programs_as_one_counter_counts():
    """a_once's programs all arrive at one counter: MAX_ARRIVALS programs fit, one more is refused."""
    from mxlib.kernels.arrival import MAX_ARRIVALS

    cfg = F.Config(block_m=16, block_n=64, block_k=64, split_k=1, a_once=1)
    F.fused_check_launch(16 * MAX_ARRIVALS, 64, 64, cfg)
    with pytest.raises(ValueError, match=f"a_once needs at most {MAX_ARRIVALS} programs, this launch has {MAX_ARRIVALS + 1}"):
        F.fused_check_launch(16 * (MAX_ARRIVALS + 1), 64, 64, cfg)


def test_a_once_waits_on_at_most_one_triton_block_of_flags():
    """An a_once program waits on its K range's flags as one block: block_m / 16 per K iteration, the
    iterations rounded up to a power of two. 2**17 iterations of 8 flags is Triton's largest block; one
    iteration more doubles the block and is refused by name (Triton would fail compiling the kernel);
    split_k 2 halves it, and without a_once there are no flags."""
    cfg = F.Config(block_m=128, block_n=64, block_k=64, split_k=1, a_once=1)
    F.fused_check_launch(128, 64, 2**23, cfg)
    with pytest.raises(ValueError, match=r"a_once watches .* at most 1048576 .*needs 2097152: raise split_k"):
        F.fused_check_launch(128, 64, 2**23 + 64, cfg)
    F.fused_check_launch(128, 64, 2**23 + 64, dataclasses.replace(cfg, split_k=2))
    F.fused_check_launch(128, 64, 2**23 + 64, dataclasses.replace(cfg, a_once=0))


@pytest.mark.parametrize("m", (33, 64, 128, 1024))
@pytest.mark.parametrize("n", (64, 2**12, 2**14))
def test_fused_default_passes_its_launch_checks_at_the_longest_k(m, n):
    """The default config of the longest K the int32 rule leaves each shape passes the launch's own checks
    (a_once's flag block among them), so the default never picks a config its launch refuses."""
    k = (2**31 - 1) // max(m, n) // 64 * 64
    F.fused_check_launch(m, n, k, F.default_config(m, n, k, "cpu"))


def test_int32_helpers():
    common.mx_check_int32(2**31 - 1, "x")
    with pytest.raises(ValueError, match="widgets must stay below 2\\*\\*31"):
        common.mx_check_int32(2**31, "widgets")
    t = torch.zeros(1, 8).expand(2**29, 8)  # stride 0: no memory, offsets stay small
    common.mx_check_strided_int32(t, "t")
    # Meta tensors (shape and strides only): a (2, 2) view's largest offset is the sum of its strides, so a
    # last element at 2**31 - 1 passes and one at 2**31 fails.
    common.mx_check_strided_int32(torch.empty_strided((2, 2), (2**31 - 2, 1), device="meta"), "t")
    t = torch.empty_strided((2, 2), (2**31 - 1, 1), device="meta")
    with pytest.raises(ValueError, match="t of shape"):
        common.mx_check_strided_int32(t, "t")


def test_the_quantizer_refuses_packed_codes_past_int32_offsets():
    """A whose rows share memory (stride 0) spans little of it, but its packed codes are M*K/2 bytes of their
    own: 2**27 rows of 64 values would need 2**32, and are refused by name before anything is allocated."""
    from mxlib.kernels.quant_triton import mxq_quantize

    x = torch.zeros(1, 64, dtype=torch.bfloat16).expand(2**27, 64)
    with pytest.raises(ValueError, match=r"x's packed codes \(M\*K/2 bytes\) must stay below 2\*\*31"):
        mxq_quantize(x, "rne")
