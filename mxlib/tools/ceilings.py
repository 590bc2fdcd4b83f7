"""What this GPU can do, measured now, and the floor under one call that follows from it.

Ceilings (`measure_ceilings`): device-to-device copy bandwidth, bf16 matmul throughput and one empty
kernel's contest-style time, best of a few runs each, measured in the same run as the times they bound.

Recorded (`recorded_ceilings`): what every recorded run measured, read from its CSV (no GPU).

Floors (`floor_us`): max(bytes / copy bandwidth, 2*M*N*K / bf16 peak). Bytes are what one call must move
at least: A in bf16 (2*M*K), B_shuffle in fp4 (N*K/2), B's scales without padding (N*K/32) and C in bf16
(2*M*N). The bf16 peak is the right compute ceiling on sm_90, where MXFP4 dot products run as bf16 MMAs.
"""
from __future__ import annotations

import csv
import math
from pathlib import Path

import torch

from ..spec import validate
from ..spec.devices import compute_units, device_name
from .occupancy import traffic_bytes
from .provenance import run_metadata
from .repo import RESULTS_DIR
from .timing import DEFAULT_ITERS, L2Flush, require_cuda, time_contest


def measure_ceilings(*, flush: L2Flush | None = None, iters: int = DEFAULT_ITERS, copy_bytes: int = 1 << 30,
                     matmul_size: int = 8192, reps: int = 10) -> dict:
    """This GPU's ceilings, measured now: best of `reps` each.

    bandwidth_Bps: device-to-device copy of `copy_bytes`, counting read + write bytes.
    bf16_flops: torch.mm of two random bf16 (matmul_size,)*2 matrices, 2*n^3 flops.
    empty_us: one empty kernel's contest-style median time.
    """
    require_cuda("measure_ceilings")
    from .baselines.empty import launch_empty

    def best_ms(fn) -> float:
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        fn()
        best = math.inf
        for _ in range(reps):
            torch.cuda.synchronize()
            start.record()
            fn()
            end.record()
            torch.cuda.synchronize()
            best = min(best, start.elapsed_time(end))
        return best

    src = torch.ones(copy_bytes, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    bandwidth = 2 * copy_bytes / (best_ms(lambda: dst.copy_(src)) * 1e-3)
    del src, dst
    a = torch.randn(matmul_size, matmul_size, dtype=torch.bfloat16, device="cuda")
    b = torch.randn(matmul_size, matmul_size, dtype=torch.bfloat16, device="cuda")
    flops = 2 * matmul_size**3 / (best_ms(lambda: torch.mm(a, b)) * 1e-3)
    del a, b
    empty = time_contest(launch_empty, iters=iters, flush=flush)
    return {
        "bandwidth_Bps": bandwidth, "bf16_flops": flops, "empty_us": empty["median_us"],
        "l2_bytes": int(torch.cuda.get_device_properties(None).L2_cache_size), "sms": compute_units(),
        "device": device_name(),
    }


def ceilings_text(ceilings: dict) -> str:
    """One line naming the GPU and the ceilings `measure_ceilings` measured on it."""
    return (f"{ceilings['device']}: {ceilings['sms']} SMs, L2 {ceilings['l2_bytes'] / 2**20:.0f} MiB, "
            f"copy {ceilings['bandwidth_Bps'] / 1e12:.2f} TB/s (read+write), bf16 mm "
            f"{ceilings['bf16_flops'] / 1e12:.0f} TFLOP/s, empty kernel {ceilings['empty_us']:.2f} us")


# `measure_ceilings`' numbers as a run's CSV carries them: column -> the names it has there (`python -m mxlib
# bench` writes empty_us, `python -m mxlib sweep` launch_us for the same lone empty kernel).
RECORDED_COLUMNS = {"copy_TBps": ("copy_TBps",), "bf16_TFLOPs": ("bf16_TFLOPs",), "empty_us": ("empty_us", "launch_us")}


def recorded_ceilings(folder=RESULTS_DIR / "h200") -> list[dict]:
    """The ceilings each recorded run under `folder` measured: one dict (file relative to `folder`, date,
    and RECORDED_COLUMNS' keys as floats) per distinct set in every CSV, at any depth, that carries them
    (bench runs, the split-K sweep), in file order."""
    folder = Path(folder)
    runs = []
    for path in sorted(folder.glob("**/*.csv")):
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            names = {key: next((c for c in cols if c in (reader.fieldnames or ())), None)
                     for key, cols in RECORDED_COLUMNS.items()}
            if None in names.values():
                continue
            seen = set()
            for row in reader:
                values = tuple(row[c] for c in names.values())
                if values in seen or "" in values:
                    continue
                seen.add(values)
                runs.append(dict(file=path.relative_to(folder).as_posix(), date=row.get("date", "")[:10],
                                 **{key: float(v) for key, v in zip(names, values)}))
    return runs


def measure_run(flush: L2Flush | None = None, iters: int = DEFAULT_ITERS) -> tuple[dict, dict]:
    """The ceilings measured now, and the columns every row of a run carries: device, torch and
    Triton versions, date (UTC)."""
    ceilings = measure_ceilings(flush=flush, iters=iters)
    return ceilings, run_metadata(ceilings["device"])


def floor_bytes(m: int, n: int, k: int) -> int:
    """Bytes one call must move: A bf16 + B_shuffle fp4 + B's scales (unpadded E8M0) + C bf16, i.e. the
    occupancy model's traffic without split-K partials."""
    return traffic_bytes(m, n, k)


def floor_us(m: int, n: int, k: int, ceilings: dict) -> float:
    """max(floor_bytes / bandwidth, 2*M*N*K / bf16 peak) in microseconds, from `measure_ceilings`' dict."""
    for v, name in ((m, "m"), (n, "n"), (k, "k")):
        validate.positive(v, name)
    for key in ("bandwidth_Bps", "bf16_flops"):
        if not ceilings.get(key, 0) > 0:
            raise ValueError(f"ceilings[{key!r}] must be a positive number, got {ceilings.get(key)!r}")
    return 1e6 * max(floor_bytes(m, n, k) / ceilings["bandwidth_Bps"], 2 * m * n * k / ceilings["bf16_flops"])
