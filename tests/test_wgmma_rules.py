"""mxlib.tools.wgmma_rules: no register a wgmma uses (its accumulators or its A operand) is written after its
wgmma.fence, in the library's kernels and in the diagnostic scripts that carry their own wgmma code
(KERNEL_NOTES.md "v19a")."""
import importlib.util
from pathlib import Path

import pytest

from mxlib.kernels import gemm_mma_sm90 as G
from mxlib.tools import wgmma_rules as W

# "late" has the shape of the PTX that NVVM made of v19a's first exactness kernel: a constant operand
# materialized after the fence (line 4), read by the wgmma (line 5). "early" writes its operands before each
# fence (a predicated write too); "again" writes one between two wgmmas that share a fence (line 19); "zeros"
# sets an accumulator to zero after its fence (line 24), and its second wgmma accumulates into registers only
# the first wrote, as PTX allows.
_PTX = """\
.visible .entry late(
	wgmma.fence.sync.aligned;
	ld.shared.u32 	%r7, [%r6];
	mov.u32 	%r100, 1616928864;
	wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 {%r1,%r2}, {%r5,%r100,%r100,%r100}, %rd5, p;
}
.visible .entry early(
	mov.u32 	%r100, 1616928864;
	@%p1 add.s32 	%r5, %r5, 1;
	wgmma.fence.sync.aligned;
	wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 {%r1,%r2}, {%r5,%r100,%r100,%r100}, %rd5, p;
	mov.u32 	%r5, 0;
	wgmma.fence.sync.aligned;
	wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 {%r1,%r2}, {%r5,%r100,%r100,%r100}, %rd5, p;
}
.visible .entry again(
	wgmma.fence.sync.aligned;
	wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 {%r1,%r2}, {%r5,%r100,%r100,%r100}, %rd5, p;
	@%p2 mov.b32 	%r5, 3;
	wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 {%r1,%r2}, {%r5,%r100,%r100,%r100}, %rd5, p;
}
.visible .entry zeros(
	wgmma.fence.sync.aligned;
	mov.f32 	%f2, 0f00000000;
	wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {%f1,%f2}, {%r1,%r2,%r3,%r4}, %rd1, 1, 1, 1, 0;
	wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {%f1,%f2}, {%r1,%r2,%r3,%r4}, %rd2, 1, 1, 1, 0;
}
"""


def test_a_register_written_between_the_fence_and_the_wgmma_is_found():
    found = W.register_writes_after_fence(_PTX)
    assert found == [W.LateWrite("late", 5, "%r100", 4), W.LateWrite("again", 20, "%r5", 19),
                     W.LateWrite("zeros", 25, "%f2", 24), W.LateWrite("zeros", 26, "%f2", 24)]


def _script_source(name: str) -> str:
    spec = importlib.util.spec_from_file_location(name, Path(__file__).parents[1] / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.source()


@pytest.mark.parametrize("name", ["library", "mma_fp8", "mma_contention"])
def test_no_wgmma_operand_is_written_after_its_fence(name):
    nvcc = G.mma_find_nvcc()
    if nvcc is None:
        pytest.skip("no nvcc on this machine (PATH, /usr/local/cuda, $CUDA_HOME, nvidia-cuda-nvcc wheel)")
    ptx = W.mma_ptx(G.mma_source() if name == "library" else _script_source(name), nvcc)
    assert ptx.count("wgmma.mma_async") > 100  # the kernels were compiled, with their wgmmas
    assert W.register_writes_after_fence(ptx) == []
