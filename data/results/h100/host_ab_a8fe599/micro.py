"""Host microseconds of the primitives a custom_kernel call is made of (H200, GPU idle)."""
import ctypes, os, sys, time, statistics
sys.path.insert(0, os.getcwd())
import torch
from mxlib.runtime import dispatch, backends
from mxlib.spec import devices, reference
from mxlib.spec.reference import generate_input, unpack_data
from mxlib.kernels import common, gemm_mma_sm90 as G

def t(name, fn, n=2000):
    for _ in range(50): fn()
    torch.cuda.synchronize()
    xs = []
    for _ in range(n):
        t0 = time.perf_counter_ns(); fn(); xs.append(time.perf_counter_ns() - t0)
    torch.cuda.synchronize()
    print(f"{name:<44} median {statistics.median(xs)/1e3:7.2f} us")

dev = torch.device("cuda", 0)
data = generate_input(256, 3072, 1536, 7, device="cuda", rounding="rne")
a, b, _, bsh, bss, _ = unpack_data(data)
_, path, cfg = dispatch.plan(256, 3072, 1536, a.device, a_dtype=a.dtype)
print("plan:", path, cfg)
t("torch.cuda.is_available", torch.cuda.is_available)
t("torch.cuda.current_device", torch.cuda.current_device)
t("torch.cuda.current_stream().cuda_stream", lambda: torch.cuda.current_stream().cuda_stream)
t("torch.cuda.is_current_stream_capturing", torch.cuda.is_current_stream_capturing)
t("torch.device(dev)", lambda: torch.device(dev))
t("os.environ.get x2", lambda: (os.environ.get("MXLIB_BACKEND"), os.environ.get("MXLIB_PATH")))
t("devices.check_device_type(present)", lambda: devices.check_device_type(dev, present=True))
t("devices.device_kind", lambda: devices.device_kind(dev))
t("backends.backends()", backends.backends)
t("dispatch._available_backend", lambda: dispatch._available_backend(dev, None, None))
t("dispatch._select", lambda: dispatch._select(256, 3072, 1536, dev, None, torch.bfloat16))
t("dispatch.usable(mma_sm90)", lambda: dispatch.usable("mma_sm90", dev))
t("dispatch.plan", lambda: dispatch.plan(256, 3072, 1536, dev, a_dtype=torch.bfloat16))
t("G.mma_default_config", lambda: G.mma_default_config(256, 3072, 1536))
t("unpack_data", lambda: unpack_data(data))
t("reference.check_gemm_operands", lambda: reference.check_gemm_operands(a, bsh, bss))
t("common.mx_check_gemm_args", lambda: common.mx_check_gemm_args(a, bsh, bss))
t("common.mx_queue_state", lambda: common.mx_queue_state(a.device))
t("common.mx_launch_device enter/exit", lambda: common.mx_launch_device(a.device).__enter__())
t("torch.empty 256x3072 bf16", lambda: torch.empty(256, 3072, dtype=torch.bfloat16, device=dev))
t("torch.empty uint8 bytes", lambda: torch.empty(256 * 48 * 64, dtype=torch.uint8, device=dev))
t("G.mma_available(dev)", lambda: G.mma_available(a.device))
t("G.mma_aligned_a", lambda: G.mma_aligned_a(a))
t("ctypes 10 c_int32 + 4 c_uint64", lambda: [ctypes.c_int32(i) for i in range(10)] + [ctypes.c_uint64(i) for i in range(4)])
t("G.mma_smem_bytes", lambda: G.mma_smem_bytes(cfg, 12))
t("G.mma_kernel_name", lambda: G.mma_kernel_name(cfg))
c = torch.empty(256, 3072, dtype=torch.bfloat16, device=dev)
t("G.mma_launch (2 launches)", lambda: G.mma_launch(a, bsh.view(torch.uint8), bss.view(torch.uint8), c, cfg, False), 500)
t("G.mma_gemm", lambda: G.mma_gemm(a, bsh, bss, config=cfg), 500)
t("custom_kernel", lambda: dispatch.custom_kernel(data), 500)
t("torch.mm", lambda: torch.mm(a, b.t()), 500)
