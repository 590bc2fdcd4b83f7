"""Split-K reduced inside one launch: the arrival counters and the releases the single-launch paths share
(`gemm_fused`, `gemm_fused_fp4`).

A program of a split-K tile stores its fp32 partial into its slot of a per-call workspace, then arrives
at the tile's counter; the arrival that completes the tile sums the slots in split order and writes C,
so the result does not depend on which program finished first. fused's a_once counts the launch's
programs on a counter of the same kind and stamps its per-unit flags with the same generation.

Launch-generation counters. A counter is an int64 word ``generation << ARRIVAL_BITS | arrivals`` in one
zeroed buffer per device and queue (`mx_counter_buffer`); the host hands every launch a generation larger than any
before it (`mx_next_generation`; the kernels take it as an argument Triton does not specialize, so one
compile serves every call). A program raises the word to ``generation << ARRIVAL_BITS`` when it starts
(`mx_arrival_open`: an atomic max, relaxed, whose result nobody waits for), and arrives when its part is
stored (`mx_arrive`: an atomic add, acq_rel); the arrival that finds ``generation << ARRIVAL_BITS |
count - 1`` is the last and sets the word back to 0. Whatever a launch that stopped early left in a
counter (Ctrl-C in the interpreter, which runs the programs one after another; a launch of only some
of its programs) carries an older generation, which the next launch's first max discards: no call
can poison a later one, and nothing on the host has to notice that a launch stopped. A replayed CUDA
graph, whose generation was fixed at capture, finds the 0 its previous run left. Why this scheme and
not a pool of buffers retired when a launch call raises: KERNEL_NOTES.md, "Split-K arrival: one
mechanism for both single-launch paths".

Releases. What a program publishes (an arrival, an a_once flag) must follow every thread's stores at
device scope. On NVIDIA the CTA barrier plus one thread's release does it (PTX's release is cumulative).
On AMD a release fence waits only for the issuing wave's own memory operations and Triton's barrier
waits for none, so every thread first releases its own stores (`mx_release_own_stores`) before the
barrier; `mx_release_threads` says how many threads do (none on CUDA, whose kernels stay as they were).
KERNEL_NOTES.md, "Every wave releases its own stores (AMD)", has the gfx950 listings.

Queues and graphs. Launches on one queue run one after another; launches on two may run at the same
time, and a later launch's first max would discard an earlier one's arrivals. So each queue has buffers
of its own (`common.mx_queue_state`): on a GPU the current CUDA queue, in the interpreter the calling
thread (a launch runs there, start to end, in the thread that makes it). And each CUDA graph capture has
buffers of its own, made during that capture: their zeroing is captured with the launches, so the graph
zeroes its counters each time it replays. A graph replays on the queue current at replay, not the one it
was captured on; with counters shared between captures, two graphs captured on one queue and replayed at
the same time on two queues gave wrong tiles (seen on an H100 with the fused path, split 8: 1000 of 1000
replays wrong), and a graph captured onto another's buffer read it unset if replayed first. A graph does
not run beside itself (CUDA orders the replays of one graph), so nothing is shared that can race.

Limits: a graph captured before an interrupted launch of a later generation is replayed against that
launch's leftovers (only the interpreter can be interrupted midway, and it has no graphs). Every buffer
stays referenced for the life of the process (a graph may replay on it at any time): 32 KiB or more a
capture that launches a split-K path.
"""
from __future__ import annotations

import itertools

import torch
import triton
import triton.language as tl

from .common import mx_cuda_backend, mx_queue_state

ARRIVAL_BITS = tl.constexpr(20)  # low bits of a counter word: the arrivals of its launch
MAX_ARRIVALS = 2**ARRIVAL_BITS.value - 1  # the most arrivals one counter can count


@triton.jit
def mx_arrival_open(cnt_ptr, GEN):
    """Raise the counter to launch GEN's generation (atomic max, relaxed): what an earlier launch left is
    discarded. Every program that will arrive at the counter calls it first; issued when the program
    starts, its round trip overlaps the program's work."""
    tl.atomic_max(cnt_ptr, GEN.to(tl.int64) << ARRIVAL_BITS, sem="relaxed", scope="gpu")


@triton.jit
def mx_arrive(cnt_ptr, GEN, COUNT):
    """One arrival at the counter (atomic add, acq_rel): True for the COUNT-th arrival of launch GEN, which
    sees every store the other arrivals released and sets the counter back to 0."""
    old = tl.atomic_add(cnt_ptr, 1, sem="acq_rel", scope="gpu")
    last = old == (GEN.to(tl.int64) << ARRIVAL_BITS) + (COUNT - 1)
    if last:
        tl.atomic_xchg(cnt_ptr, 0, sem="relaxed", scope="gpu")
    return last


@triton.jit
def mx_release_own_stores(word_ptr, SPAN: tl.constexpr, THREADS: tl.constexpr):
    """Every thread's own release at device scope: an atomic add of 0 (release) to one of the SPAN int32
    words from `word_ptr`, memory whose bits no other program changes (adding 0 leaves them as they are),
    spread so that the THREADS threads of a program (one element each) do not all hit one word. Each
    wave then waits for its own stores to leave before the barrier that follows."""
    offs = tl.arange(0, THREADS) % SPAN
    tl.atomic_add(word_ptr.to(tl.pointer_type(tl.int32)) + offs, 0, sem="release", scope="gpu")


def mx_release_threads(num_warps: int) -> int:
    """Threads per program that release their own stores before the program publishes: none on CUDA (the
    barrier and one thread's release suffice there), all of them elsewhere: 64 a wave on AMD, and in the
    interpreter, which then runs the AMD form of the kernels so that the CPU tests cover it."""
    return 0 if mx_cuda_backend() else 64 * num_warps


_mx_counters: dict = {}
_mx_generations = itertools.count(1)


def mx_next_generation() -> int:
    """A generation larger than any handed out before in this process: one per launch."""
    return next(_mx_generations)


def mx_counter_buffer(device: torch.device, count: int) -> torch.Tensor:
    """The int64 counters of the queue and graph capture a launch made now on `device` joins
    (`mx_queue_state`), at least `count` of them: allocated zeroed once and grown when a launch needs more
    (a grown-out buffer is kept: a captured CUDA graph may still use it). Under a capture the zeroing is
    part of that graph, so each capture has buffers of its own, zeroed at every replay, and no eager launch
    uses them. Keyed on the device, queue and capture, never on an input; what a stopped launch left in it
    is harmless (module docstring)."""
    queue, capture = mx_queue_state(device)
    bufs = _mx_counters.setdefault((device.type, device.index, queue, capture), [])
    if not bufs or bufs[-1].numel() < count:
        size = max(count, 4096, bufs[-1].numel() if bufs else 0)
        bufs.append(torch.zeros(size, dtype=torch.int64, device=device))
    return bufs[-1]
