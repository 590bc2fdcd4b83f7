"""The split-K arrival and release the single-launch paths share (mxlib.kernels.arrival), as compiled.

On AMD a release waits only for the issuing wave's own stores, so before a program publishes (its
split-K arrival, a_once's flags) every wave must release its own: checked in the gfx950 listings of
fused (split-K, a_once) and fused_fp4 (split-K). On NVIDIA the kernels keep the barrier and one
thread's release: their launches carry no per-thread release. The behaviour of the counters (interrupted
launches, replayed generations) is tested with each path, in test_gemm_fused.py and test_gemm_fused_fp4.py.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mxlib.kernels import arrival, common

ROOT = Path(__file__).resolve().parent.parent

_COMPILE = """
import json
from mxlib.tools import isa
isa.prepare()
from mxlib.kernels import gemm_fused as F, gemm_fused_fp4 as F4
from mxlib.spec.reference import generate_input
a, _, _, b_shuffle, b_scale_sh = generate_input(64, 2112, 1024, 0)
out = {}
for name, module, cfg in (("fused split_k", F, F.Config(16, 64, 128, 4)),
                          ("fused a_once", F, F.Config(64, 64, 128, 2, a_once=1)),
                          ("fused_fp4 split_k", F4, F4.Config(16, 64, 256, 2))):
    gemm = lambda: module.gemm(a, b_shuffle, b_scale_sh, config=cfg)
    (amd,) = isa.capture(gemm, "gfx950")
    (nvidia,) = isa.capture(gemm, "sm_90")
    out[name] = dict(asm=isa.compile_launch(amd, "gfx950")[0].asm["amdgcn"],
                     threads={"gfx950": amd.kwargs["RELEASE_THREADS"], "sm_90": nvidia.kwargs["RELEASE_THREADS"]},
                     warps=cfg.num_warps)
print(json.dumps(out))
"""


def source_line(file: str, text: str) -> str:
    """"file.py:LINE" of the one line of mxlib/kernels/<file> holding `text`."""
    lines = (ROOT / "mxlib" / "kernels" / file).read_text().splitlines()
    (number,) = [i + 1 for i, line in enumerate(lines) if text in line]
    return f"{file}:{number}"


def test_every_wave_releases_its_stores_before_a_program_publishes():
    """Compiled for gfx950 (mxlib.tools.isa): every store of a split-K partial or of an a_once unit of A
    (the first publishing, the fallback rewriting) is followed in every wave by an L2 write-back and a wait
    for the wave's own stores before any code that only one lane runs (the arrival, the flag), and the
    AMD launch asks for one release per thread; the sm_90 launch asks for none. In a child process:
    under the interpreter Triton's decorators make interpreted functions, which cannot be compiled."""
    from mxlib.tools import isa

    env = {key: v for key, v in os.environ.items() if key != "TRITON_INTERPRET"}
    proc = subprocess.run([sys.executable, "-c", _COMPILE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    stores = {
        "fused split_k": [source_line("gemm_fused.py", "tl.store(slot + w_off, acc)")],
        "fused a_once": [source_line("gemm_fused.py", "tl.store(slot + w_off, acc)"),
                         source_line("gemm_fused.py", "tl.store(aq_ptr + rows")],
        "fused_fp4 split_k": [source_line("gemm_fused_fp4.py", "tl.store(slot + w_off, acc)")],
    }
    for name, lines in stores.items():
        assert got[name]["threads"] == {"gfx950": 64 * got[name]["warps"], "sm_90": 0}, name
        for line in lines:
            released = isa.amdgcn_stores_released(got[name]["asm"], line)
            assert released and all(released), f"{name}, stores of {line}: {released}"
    # Both a_once publications of A's units: by the producing programs and by a program whose wait ran out.
    assert len(isa.amdgcn_stores_released(got["fused a_once"]["asm"], stores["fused a_once"][1])) >= 2


def test_max_arrivals_follows_the_arrival_bits():
    assert arrival.MAX_ARRIVALS == 2**arrival.ARRIVAL_BITS.value - 1


def test_each_graph_capture_has_counters_of_its_own(monkeypatch):
    """A counter buffer made while a graph is captured is zeroed only when that graph replays, so it serves
    that capture only: a later capture on the same queue gets a zeroed buffer of its own (two graphs replayed
    at once must not share counters), eager launches get one never made under a capture, and every buffer
    stays referenced (a captured graph may still replay on one). CPU: the capture ids set by hand."""
    import torch

    device = torch.device("cpu")
    for capture in (0, 11, 12):
        monkeypatch.setitem(arrival._mx_counters, (device.type, device.index, 7, capture), [])
    state = {"capture": 11}
    monkeypatch.setattr(arrival, "mx_queue_state", lambda dev: (7, state["capture"]))
    first = arrival.mx_counter_buffer(device, 10)
    assert arrival.mx_counter_buffer(device, 10) is first  # the launches of one capture share it
    first.fill_(5)  # what an unreplayed capture's buffer may hold
    state["capture"] = 12
    second = arrival.mx_counter_buffer(device, 10)
    assert second is not first and second.data_ptr() != first.data_ptr() and int(second.count_nonzero()) == 0
    state["capture"] = 0
    eager = arrival.mx_counter_buffer(device, 10)
    assert eager is not first and eager is not second and int(eager.count_nonzero()) == 0
    assert arrival.mx_counter_buffer(device, 10) is eager
    state["capture"] = 11
    assert arrival.mx_counter_buffer(device, 10) is first
    grown = arrival.mx_counter_buffer(device, 5000)  # grown under capture 11, the old one kept
    assert grown.numel() == 5000 and arrival._mx_counters[(device.type, device.index, 7, 11)] == [first, grown]
    state["capture"] = 0
    assert arrival.mx_counter_buffer(device, 10) is eager  # another capture's growth is not the eager buffer's


def test_a_counter_buffer_grows_to_every_counter_a_launch_asks_for(monkeypatch):
    """A launch gets at least `count` counters: a buffer one counter short of it is replaced by a larger
    one, never handed out (the launch would count past its end)."""
    import torch

    device = torch.device("cpu")
    monkeypatch.setitem(arrival._mx_counters, (device.type, device.index, 5, 0), [])
    monkeypatch.setattr(arrival, "mx_queue_state", lambda dev: (5, 0))
    first = arrival.mx_counter_buffer(device, 10)
    held = first.numel()
    assert held >= 10 and arrival.mx_counter_buffer(device, held) is first
    grown = arrival.mx_counter_buffer(device, held + 1)
    assert grown is not first and grown.numel() == held + 1


def test_each_queue_has_counters_of_its_own():
    """Launches on two queues may run at once, so each queue gets its own buffer: in the interpreter a queue
    is the calling thread (a launch runs start to end in it); one thread keeps its buffer from call to call."""
    import threading

    import torch

    device = torch.device("cpu")
    here = arrival.mx_counter_buffer(device, 10)
    assert arrival.mx_counter_buffer(device, 10) is here
    assert common.mx_queue_state(device) == (threading.get_ident(), 0)
    other = []
    worker = threading.Thread(target=lambda: other.append(arrival.mx_counter_buffer(device, 10)))
    worker.start()
    worker.join()
    assert other and other[0] is not here and other[0].data_ptr() != here.data_ptr()


def test_a_capture_id_is_asked_of_the_runtime_torch_runs_on(monkeypatch):
    """`mx_capture_id` answers the id the runtime's capture-info call gives for an active capture and refuses
    anything else (an error code, a queue not capturing, id 0); the call is CUDA's cuStreamGetCaptureInfo in
    libcuda, or HIP's hipStreamGetCaptureInfo on ROCm. CPU: the libraries stood in by hand."""
    import ctypes

    import pytest
    import torch

    answers = {"err": 0, "status": 1, "id": 42}

    def call(queue, status, ident):
        status._obj.value, ident._obj.value = answers["status"], answers["id"]
        return answers["err"]

    monkeypatch.setattr(common, "_MX_CAPTURE_LIB", [call])
    assert common.mx_capture_id(0x1234) == 42
    for bad in ({"err": 900}, {"status": 0}, {"id": 0}):
        answers.update({"err": 0, "status": 1, "id": 42}, **bad)
        with pytest.raises(RuntimeError, match="capture id of queue 0x1234"):
            common.mx_capture_id(0x1234)
    class Library:
        def __init__(self, name):
            self.name = name

        def __getattr__(self, call):
            return (self.name, call)

    monkeypatch.setattr(ctypes, "CDLL", Library)
    for hip, want in ((None, ("libcuda.so.1", "cuStreamGetCaptureInfo")),
                      ("7.1", ("libamdhip64.so", "hipStreamGetCaptureInfo"))):
        monkeypatch.setattr(common, "_MX_CAPTURE_LIB", [])
        monkeypatch.setattr(torch.version, "hip", hip)
        assert common._mx_capture_call() == want


def test_the_queue_and_capture_are_those_of_the_launchs_device(monkeypatch):
    """`mx_queue_state` answers for the device it is given, not the current one: torch says whether the
    current device's queue is capturing, so the question is asked with that device made current (a launch on
    cuda:1 while cuda:0 is current and capturing is not in cuda:0's capture, and the other way round).
    CPU: two devices stood in by hand."""
    import contextlib

    import torch

    state = {"current": 0, "capturing": {0: False, 1: True}}

    @contextlib.contextmanager
    def make_current(device):
        before = state["current"]
        if device != -1:
            state["current"] = torch.device(device).index
        yield
        state["current"] = before

    monkeypatch.setattr(torch.cuda, "current_device", lambda: state["current"])
    monkeypatch.setattr(torch.cuda, "device", make_current)
    monkeypatch.setattr(torch.cuda, "is_current_stream_capturing", lambda: state["capturing"][state["current"]])
    monkeypatch.setattr(common, "mx_capture_id", lambda queue: 7000 + queue)

    def queue_of(index):  # each GPU's current queue: 100 + its index
        return 100 + torch.device("cuda", state["current"] if index is None else index).index

    # torch's raw query where it has one (a CUDA build), else the public Stream object (this CPU build)
    for raw in (lambda index: queue_of(index), None):
        if raw is None:
            monkeypatch.delattr(torch._C, "_cuda_getCurrentRawStream", raising=False)
        else:
            monkeypatch.setattr(torch._C, "_cuda_getCurrentRawStream", raw, raising=False)
        monkeypatch.setattr(torch.cuda, "current_stream",
                            lambda device=None: type("Q", (), {"cuda_stream": queue_of(device)}))
        state["capturing"] = {0: False, 1: True}
        assert common.mx_queue_state(torch.device("cuda", 1)) == (101, 7101) and state["current"] == 0
        assert common.mx_queue_state(torch.device("cuda", 0)) == (100, 0)
        assert common.mx_queue_state(torch.device("cuda")) == (100, 0)  # no index: the current GPU
        state["capturing"] = {0: True, 1: False}
        assert common.mx_queue_state(torch.device("cuda", 1)) == (101, 0) and state["current"] == 0


@pytest.mark.gpu
def test_the_raw_queue_is_torchs_current_stream():
    """`mx_current_queue` (torch's raw query) answers the handle `torch.cuda.current_stream()` does, on the
    default queue and inside a side stream, and `mx_queue_state` with it."""
    import torch

    assert common.mx_current_queue(0) == torch.cuda.current_stream(0).cuda_stream
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        assert common.mx_current_queue(0) == side.cuda_stream != torch.cuda.default_stream(0).cuda_stream
        assert common.mx_queue_state(torch.device("cuda", 0)) == (side.cuda_stream, 0)
