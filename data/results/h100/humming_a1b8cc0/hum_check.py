"""Humming on the contest's weight: is the conversion right? Each output against A @ dequant(B)^T in fp64, beside
cuBLAS bf16 on the same dequantized B (the yardstick: fp32 accumulation, bf16 output)."""
import time
import torch
from mxlib.spec.reference import generate_input
from mxlib.spec.quant import dequantize_mxfp4
from mxlib.spec.layouts import e8m0_unshuffle
from mxlib.spec import validate
from mxlib.tools.baselines import humming

print("humming-kernels", humming.version(), flush=True)


def stats(out, ref):
    err = (out.double() - ref).abs()
    return (f"max|err|/max|ref| {(err.max() / ref.abs().max()).item():.2e}, "
            f"fail(rtol=atol=1e-2) {(~torch.isclose(out.double(), ref, rtol=1e-2, atol=1e-2)).double().mean().item():.4f}, "
            f"nan {out.isnan().sum().item()}")


for (m, n, k) in [(4, 2880, 512), (16, 2112, 7168), (32, 4096, 512), (64, 7168, 2048), (256, 3072, 1536), (5, 128, 256)]:
    data = generate_input(m, n, k, 1234 + m, device="cuda")
    a, b, b_q, b_sh, b_ssh = data
    b_scale = e8m0_unshuffle(validate.as_bytes(b_ssh), n, k // 32)
    wdq = dequantize_mxfp4(validate.as_bytes(b_q), b_scale)  # (N, K) fp32, exact in bf16
    ref = a.double() @ wdq.double().t()
    print(f"{m}x{n}x{k} cublas bf16: {stats(torch.mm(a, wdq.bfloat16().t()), ref)}", flush=True)
    for act in humming.ACTIVATIONS:
        t = time.time()
        try:
            call = humming.make(data, act)
            out = call(); torch.cuda.synchronize()
        except Exception as exc:
            print(f"{m}x{n}x{k} {act}: FAIL {type(exc).__name__}: {str(exc)[:600]}", flush=True); continue
        print(f"{m}x{n}x{k} humming {act}: {tuple(out.shape)} {out.dtype} contiguous {out.is_contiguous()}, "
              f"first call {time.time() - t:.1f}s, {stats(out, ref)}", flush=True)
