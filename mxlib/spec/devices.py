"""Facts about the two devices this problem involves, and the rules that read them off a running device.

The contest ranks submissions on the AMD MI355X (gfx950); mxlib's numbers were measured on an NVIDIA
H200 (sm_90), the proving ground (a few on an H100, named as such in data/results/h100/). What the code
needs to know about a device lives here, once:

- `MI355X`, `H200`: compute units (CUs or SMs: what one CTA occupies) and the groups CTAs are dealt
  over round-robin (the MI355X's 8 XCDs), each with its source.
- `UNIT_LIMITS`: what one CU (gfx950) or SM (sm_90) holds at once (registers, waves or warps, shared memory
  and its reserve per CTA, CTAs) and in what steps it is allocated, with sources: the occupancy model's
  residency and mma_sm90's CTAs per SM both read it.
- `device_kind(device)`: the name of a device's config table (`mxlib/data/configs/<kind>.csv`) and of
  its results folder (`data/results/<kind>/`): "cpu", a known device's short name, or the GPU's name
  as a slug.
- `compute_units(device)`: SMs or CUs, read from the device when there is one; otherwise the H200's,
  the device every default config was tuned on.
- `device_name(device)`: the GPU's name as torch reports it, or "cpu".

Why in the spec layer: the kernels need a device fact (the fused path's default config aims its split-K
at the SM count) and may import only the spec, and a device fact is part of the problem's setting as
much as the formats are. The module imports torch only inside the functions that read a running device
(though `import mxlib` itself imports torch).
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from .ints import cdiv


@dataclass(frozen=True)
class DeviceFacts:
    name: str  # as it appears in the GPU's name (torch.cuda.get_device_name)
    kind: str  # its config table's and results folder's name
    units: int  # CUs or SMs: what one CTA (workgroup) occupies
    unit_name: str
    groups: int  # XCDs that CTAs are dealt over round-robin (CTA i to XCD i % groups); 1 without XCDs
    source: str


MI355X = DeviceFacts("MI355X", "mi355x", 256, "CU", 8,
                     "AMD Instinct MI355X (CDNA 4, gfx950): 256 CUs in 8 XCDs of 32, what hipGetDeviceProperties "
                     "reports as multiProcessorCount (ROCm's GPU specifications); never run here")
H200 = DeviceFacts("H200", "h200", 132, "SM", 1,
                   "NVIDIA H200 SXM (sm_90): 132 SMs, as torch.cuda.get_device_properties reports on the H200 "
                   "that measured data/results/h200")
KNOWN = (MI355X, H200)


@dataclass(frozen=True)
class UnitLimits:
    """What one CU (gfx950) or SM (sm_90) holds at once, with where each number comes from."""

    registers: int  # per SIMD lane (AMD: VGPRs incl. AGPRs, one wave uses up to 512) or per SM (NVIDIA)
    register_granule: int  # AMD: VGPRs per allocation step; NVIDIA: registers per warp allocation step
    register_partitions: int  # NVIDIA: equal parts of the file, a warp's registers all in one (1 on AMD)
    simds: int  # AMD SIMDs per CU (1 on NVIDIA)
    waves_per_simd: int  # AMD waves per SIMD; NVIDIA warps per SM
    shared_bytes: int  # LDS per CU / shared memory per SM
    shared_reserved: int  # bytes the runtime reserves per CTA (NVIDIA: 1 KB)
    shared_granule: int  # bytes a CTA's LDS / shared memory (with its reserve) is allocated in
    ctas: int  # hardware limit of resident CTAs (workgroups) per unit
    source: str

    def shared_per_cta(self, nbytes: int) -> int:
        """Bytes of the unit's LDS / shared memory a CTA asking for `nbytes` holds: with the runtime's reserve,
        rounded up to the allocation granule."""
        return cdiv(nbytes + self.shared_reserved, self.shared_granule) * self.shared_granule

    def warps_by_registers(self, registers: int) -> int:
        """NVIDIA: warps an SM's register file holds at `registers` a thread. A warp's registers round up to
        register_granule and come from one of register_partitions equal parts, so each part holds whole warps.
        (AMD's rule is per SIMD: `mxlib.tools.occupancy.residency`.)"""
        per_warp = cdiv(max(registers, 1) * 32, self.register_granule) * self.register_granule
        return self.register_partitions * (self.registers // self.register_partitions // per_warp)


UNIT_LIMITS = {
    "gfx950": UnitLimits(
        registers=512, register_granule=8, register_partitions=1, simds=4, waves_per_simd=8,
        shared_bytes=160 * 1024, shared_reserved=0, shared_granule=1280, ctas=32,
        source="ROCm docs, AMD GPU specifications (MI355X, gfx950: 256 CUs, LDS 160 KiB, VGPR file 512 KiB per CU = "
               "4 SIMDs x 512 VGPRs x 64 lanes x 4 B); LLVM AMDGPUUsage (gfx90a and later: one unified file of "
               "arch VGPRs and AGPRs, allocated in steps of 8, at most 8 waves per SIMD; COMPUTE_PGM_RSRC2.LDS_SIZE "
               "on GFX950: LDS in blocks of 320 dwords, 1280 B); the compiler's own "
               "'; Occupancy:' line agrees with this arithmetic on every kernel `python -m mxlib isa` compiles "
               "without a waves_per_eu hint; a hint caps the compiler's figure, not this arithmetic's (the seed's "
               "split-K GEMM, waves_per_eu=2: the compiler says 2 waves per SIMD, its VGPRs allow 4)"),
    "sm_90": UnitLimits(
        registers=65536, register_granule=256, register_partitions=4, simds=1, waves_per_simd=64,
        shared_bytes=228 * 1024, shared_reserved=1024, shared_granule=128, ctas=32,
        source="CUDA C++ Programming Guide, compute capability 9.0 (65536 32-bit registers, 64 warps, 32 blocks, "
               "228 KB shared memory per SM) and the Hopper tuning guide (1 KB shared memory reserved per block); "
               "NVIDIA's cuda_occupancy.h (CUDA 13.0, cc 9.0: registers per warp in steps of 256, allocated "
               "within 4 sub-partitions of the file; a block's shared memory and reserve in steps of 128 B)"),
}

# The contest's MI355X runner image (gpu-mode/kernelbot:docker/amd-docker.Dockerfile@8127da26, 2026-03-05,
# unchanged through the contest) installs torch 2.10.0+rocm7.1 and no Triton of its own; aiter's
# requirements name none either, so its Triton is the one that torch pins: the 3.6.0 release (torch
# 2.10.0's wheels require triton==3.6.0; the ROCm wheel's pytorch-triton-rocm is that release built by
# PyTorch). mxlib's own gfx950 compiles use its test environment's Triton; tests/test_export.py compiles
# the AMD file with this release too where it is installed (MXLIB_RUNNER_TRITON).
MI355X_RUNNER_TORCH = "2.10.0+rocm7.1"
MI355X_RUNNER_TRITON = "3.6.0"
CPU_KIND = "cpu"


def kind_of_name(name: str) -> str:
    """A GPU's kind from its name: a known device's short name when that name appears in it as a whole word
    (any "NVIDIA H200 ..." is "h200"; a Grace Hopper "NVIDIA GH200 ..." is not), else the name in lowercase
    with every run of other characters as "_"."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"name must be a GPU's name (a non-empty string), got {name!r}")
    for facts in KNOWN:
        if re.search(rf"\b{facts.name}\b", name.upper()):
            return facts.kind
    kind = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
    if not kind:
        raise ValueError(f"name must hold a letter or digit to name a kind by, got {name!r}")
    return kind


def cuda_present() -> bool:
    """Whether torch has a CUDA/ROCm device to use here: `torch.cuda.is_available()`, not asked again once torch
    has initialized CUDA (which it does only where a device exists). The question costs the host about 2 us,
    and the dispatcher's checks would ask it two or three times a call."""
    import torch

    return torch.cuda.is_initialized() or torch.cuda.is_available()


def check_device_type(device, name: str = "device", *, present: bool = False):
    """`device` as a torch.device of type "cpu" or "cuda" (ROCm devices are "cuda" to torch): the only
    devices mxlib runs on; with `present`, a CUDA device only where this machine has one. Anything else
    ("meta", "mps", a string torch cannot read) is a ValueError naming the argument `name`."""
    import torch

    try:
        d = torch.device(device)
    except (RuntimeError, TypeError):
        raise ValueError(f"{name} must be a device such as 'cpu' or 'cuda', got {device!r}") from None
    if d.type not in ("cpu", "cuda"):
        raise ValueError(f"{name} must be 'cpu' or a CUDA/ROCm device, got {d.type!r} ({device!r})")
    if present and d.type == "cuda" and not cuda_present():
        raise ValueError(f"{name} is {str(device)!r}, but this machine has no CUDA/ROCm device")
    return d


def device_kind(device) -> str:
    """The config table's and results folder's name for a torch device (or "cpu", "cuda", "cuda:1"):
    "cpu", or `kind_of_name` of the GPU's name. A table exists only for kinds someone measured. Other
    device types are refused (`check_device_type`)."""
    device = check_device_type(device, present=True)
    if device.type == "cpu":
        return CPU_KIND
    return kind_of_name(gpu_facts(_gpu_index(device))[0])


def device_name(device=None) -> str:
    """The GPU's name as torch reports it ("NVIDIA H200"), or "cpu" for a CPU device or when there is no
    GPU (device None: the current GPU if there is one)."""
    import torch

    if device is None:
        if not cuda_present():
            return CPU_KIND
        device = torch.device("cuda")
    device = check_device_type(device, present=True)
    return CPU_KIND if device.type == "cpu" else gpu_facts(_gpu_index(device))[0]


def compute_units(device=None) -> int:
    """SMs (NVIDIA) or CUs (AMD) of a CUDA/ROCm device, as torch reads them (device None: the current GPU).

    Without a GPU (a CPU device, or none at all: Triton's interpreter) the H200's count: the defaults
    derived from it then stay the ones the H200 runs chose.
    """
    import torch

    if device is None:
        if not cuda_present():
            return H200.units
        device = torch.device("cuda")
    device = check_device_type(device, present=True)
    if device.type != "cuda":
        return H200.units
    return gpu_facts(_gpu_index(device))[1]


def _gpu_index(device) -> int:
    """The index of a CUDA torch.device: its own, or the current device's where it names none ("cuda")."""
    import torch

    return device.index if device.index is not None else torch.cuda.current_device()


@functools.lru_cache(maxsize=None)
def gpu_facts(index: int) -> tuple[str, int]:
    """(name, SMs or CUs) of GPU `index`, as torch reports them, read once per GPU and process: they do not
    change while it runs, and torch's question costs microseconds that the dispatcher would pay on every
    call (`device_kind`, `compute_units`, `device_name` read them here)."""
    import torch

    props = torch.cuda.get_device_properties(index)
    return str(props.name), int(props.multi_processor_count)
