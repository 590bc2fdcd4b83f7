"""aiter.utility.dtypes: the torch dtypes aiter names (uint8 where this torch lacks the fp4/e8m0 types)."""
import torch

bf16 = torch.bfloat16
fp16 = torch.float16
fp32 = torch.float32
fp4x2 = getattr(torch, "float4_e2m1fn_x2", torch.uint8)
fp8_e8m0 = getattr(torch, "float8_e8m0fnu", torch.uint8)
