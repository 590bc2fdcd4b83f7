"""aiter.utility.dtypes: torch's 1-byte fp4x2 / e8m0 types where this torch has them, else uint8."""
import torch

_8bit_fallback = torch.uint8
fp4x2 = getattr(torch, "float4_e2m1fn_x2", _8bit_fallback)
fp8_e8m0 = getattr(torch, "float8_e8m0fnu", _8bit_fallback)
bf16 = torch.bfloat16
fp32 = torch.float32
