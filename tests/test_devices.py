"""mxlib.spec.devices: the table-name rule and the compute-unit count, on names and on the CPU."""
import pytest
import torch

from mxlib.spec import devices


def test_kind_of_name():
    assert devices.kind_of_name("NVIDIA H200") == "h200"
    assert devices.kind_of_name("NVIDIA H200 NVL") == "h200"
    assert devices.kind_of_name("NVIDIA GH200 480GB") == "nvidia_gh200_480gb"  # Grace Hopper: an H100-class GPU
    assert devices.kind_of_name("AMD Instinct MI355X") == "mi355x"
    assert devices.kind_of_name("NVIDIA GeForce RTX 4090") == "nvidia_geforce_rtx_4090"
    with pytest.raises(ValueError, match="name must be a GPU's name"):
        devices.kind_of_name("")


def test_cpu_device_facts():
    assert devices.device_kind("cpu") == "cpu"
    assert devices.device_name("cpu") == "cpu"
    assert devices.compute_units("cpu") == devices.H200.units == 132
    assert (devices.MI355X.units, devices.MI355X.groups) == (256, 8)


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the fallback without a GPU")
def test_without_a_gpu_the_h200_count_is_the_default():
    assert devices.compute_units() == devices.H200.units
    assert devices.device_name() == "cpu"


@pytest.mark.gpu
def test_gpu_facts_are_read_from_the_device():
    props = torch.cuda.get_device_properties(0)
    assert devices.compute_units("cuda:0") == props.multi_processor_count
    assert devices.device_kind("cuda:0") == devices.kind_of_name(props.name)


def test_a_gpus_facts_are_asked_of_torch_once_per_gpu(monkeypatch):
    """`gpu_facts` reads a GPU's name and unit count once per index; "cuda" without an index is the current
    GPU (two stand-in GPUs, no real one needed)."""
    asked = []

    class Props:
        def __init__(self, index):
            self.name = ("NVIDIA H200", "AMD Instinct MI355X")[index]
            self.multi_processor_count = (132, 256)[index]

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 1)
    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda index: asked.append(index) or Props(index))
    devices.gpu_facts.cache_clear()
    try:
        assert devices.device_kind("cuda:0") == "h200" and devices.compute_units("cuda:0") == 132
        assert devices.device_kind("cuda") == "mi355x" and devices.compute_units() == 256
        assert devices.device_name("cuda:1") == "AMD Instinct MI355X" and devices.device_kind("cuda:0") == "h200"
        assert asked == [0, 1]
    finally:
        devices.gpu_facts.cache_clear()


def test_cuda_is_not_asked_for_again_once_torch_has_initialized_it(monkeypatch):
    """`cuda_present` answers from torch's initialized state where it can (initialized means a device exists),
    and asks `torch.cuda.is_available()` only before that: no device here, then a stand-in initialized one."""
    monkeypatch.setattr(torch.cuda, "is_initialized", lambda: False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert devices.cuda_present() is False
    monkeypatch.setattr(torch.cuda, "is_initialized", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: pytest.fail("asked again"))
    assert devices.cuda_present() is True
