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


_WGMMA_LINE = "\twgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 {%r1,%r2}, {%r5,%r6,%r7,%r8}, %rd5, p;"


def test_a_write_in_one_function_is_not_charged_to_the_next():
    """Fact (PTX ISA: registers are declared per function, so %r5 of one function is not %r5 of the next;
    the module docstring: the check scans each function): a write at the end of `first` is no late write of
    `second`'s wgmma."""
    ptx = "\n".join([".visible .entry first(", "\twgmma.fence.sync.aligned;", _WGMMA_LINE, "\tmov.u32 \t%r5, 0;", "}",
                     ".visible .entry second(", _WGMMA_LINE, "}"])
    assert W.register_writes_after_fence(ptx) == []


def test_a_weak_function_is_named_and_scanned_on_its_own():
    """Fact (PTX ISA: `.weak` is a linking directive of .func/.entry like `.visible`; _ENTRY accepts it): a late
    write in a `.weak .func` is reported under that function's name."""
    ptx = "\n".join([".visible .entry first(", "\tmov.u32 \t%r9, 0;", "}",
                     ".weak .func helper(", "\twgmma.fence.sync.aligned;", "\tmov.u32 \t%r6, 7;", _WGMMA_LINE, "}"])
    assert W.register_writes_after_fence(ptx) == [W.LateWrite("helper", 7, "%r6", 6)]


def test_a_predicated_wgmma_is_checked_too():
    """Fact (PTX ISA: any instruction may carry a guard predicate @p / @!p; the rule holds for every
    wgmma.mma_async): a predicated wgmma reading a register written after its fence is reported."""
    ptx = "\n".join([".visible .entry k(", "\twgmma.fence.sync.aligned;", "\tmov.u32 \t%r7, 1;",
                     "\t@%p1 " + _WGMMA_LINE.strip(), "}"])
    assert W.register_writes_after_fence(ptx) == [W.LateWrite("k", 4, "%r7", 3)]


def test_a_vector_write_after_the_fence_is_found():
    """Fact (PTX ISA: a vector load ld.v2/v4 writes every register of its {...} destination): a vector load
    into the A operand between the fence and the wgmma is a late write of each register it writes."""
    ptx = "\n".join([".visible .entry k(", "\twgmma.fence.sync.aligned;", "\tld.shared.v2.u32 \t{%r6, %r7}, [%r3];",
                     _WGMMA_LINE, "}"])
    assert W.register_writes_after_fence(ptx) == [W.LateWrite("k", 4, "%r6", 3), W.LateWrite("k", 4, "%r7", 3)]
