"""What the wgmma family's loop costs without its B decode or without its MMAs, and the wspec family's
without its ring: diagnostic variants of the kernel, timed beside the real one (KERNEL_NOTES.md, "v5",
"v11"). Their outputs are wrong by design and are never checked; only their times mean something.

    python3 scripts/mma_ablate.py --variant no_decode --cache DIR --out OUT.csv [--build-only]

Variants (text substitutions in wgmma_decode_chunk and wgmma_chunk, the chunk work of the families wgmma
and wspec, in a copy of the source; the library's cubin is untouched):
  full         the kernel as shipped, compiled the same way (the baseline of the same run);
  no_decode    B's fragments are the raw words read from shared memory: no decode_word, no scale
               factors, no multiplies (the copies, barriers and wgmmas stay);
  no_mma       the decode stays (its words folded into one accumulator's bits), no wgmma is issued;
  skeleton     neither: the ring's copies, waits and barriers, the prologue, the reduction and store;
  resident     family wspec only: every chunk of a consumer warpgroup reads that warpgroup's first stage
               again (the producer fills one stage a warpgroup along K once and stops; the consumers wait
               once; no second chunk is decoded before A lands), so the chunk work runs on data already in
               shared memory: the SM's own rate, without the copies' latency or bandwidth;
  resident_no_decode, resident_no_mma, resident_skeleton   resident with the no_decode, no_mma or both cuts.
Each variant's cubin is built into --cache (an explicit scratch directory, reused when it is already
there: --build-only builds it without a GPU). On a GPU, every benchmark shape whose H200 table row is
a wgmma or wspec config is timed contest-style (L2 flushed, events around one call: median and mean) and by
graph replay, one CSV row per shape with device, versions and date.
"""
from __future__ import annotations

import argparse
import datetime
import os
import sys
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from mxlib.kernels import gemm_mma_sm90 as G  # noqa: E402
from mxlib.tools import mma_scratch  # noqa: E402

VARIANTS = ("full", "no_decode", "no_mma", "skeleton", "resident", "resident_no_decode", "resident_no_mma",
            "resident_skeleton")

START = "// The wgmma families' work on one chunk."  # the cuts apply from here on
# wgmma_decode_chunk's decode and scaling, from the scale factors to the function's end (exclusive)
_DECODE_FROM = "  const uint32_t f1g = scale_f1(sg), f1h = scale_f1(sh);"
_DECODE_TO = "\n}\n\n// wgmma_chunk:"
_RAW_WORDS = """  (void)sg;
  (void)sh;
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    const uint32_t wg = q == 0 ? bg.x : q == 1 ? bg.y : q == 2 ? bg.z : bg.w;
    const uint32_t wh = q == 0 ? bh.x : q == 1 ? bh.y : q == 2 ? bh.z : bh.w;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      frag[2 * q + h][0] = wg ^ (2u * h);
      frag[2 * q + h][1] = wh ^ (2u * h);
      frag[2 * q + h][2] = wg ^ (2u * h + 1u);
      frag[2 * q + h][3] = wh ^ (2u * h + 1u);
    }
  }"""
# family wspec's consumers moving to the next stage, and its producer's refills
_NEXT_STAGE = "          slot += KW;\n"
_REFILLS = "    for (int i = S; i < n; ++i) {\n"
_FIRST = "n = c_end - c_begin, first = min(S, n);"
_EARLY2 = "bool decoded = EARLY == 2 && c_begin + kw + KW < c_end;"
_MMA_LOOP = """#pragma unroll
  for (int s = 0; s < 8; ++s)
    wgmma_bf16<BM>(acc, frag[s], (d0 & 0xFFFFFFFF00000000ull) | (lo + (s / 4) * BM * 8 + (s % 4) * 2));
"""
_NO_MMA = """  (void)a_stage;
  (void)d0;
  (void)lo;
  uint32_t sink = 0;  // the fragments feed the accumulators' bits, so the decode is not dead code
#pragma unroll
  for (int s = 0; s < 8; ++s) sink ^= frag[s][0] ^ frag[s][1] ^ frag[s][2] ^ frag[s][3];
  acc[0] = __uint_as_float(__float_as_uint(acc[0]) ^ sink);
"""


def variant_source(variant: str) -> str:
    """The CUDA source with `variant`'s substitutions in the wgmma families' chunk work (fails loudly if an
    anchor moved)."""
    if variant not in VARIANTS:
        raise SystemExit(f"mma_ablate: --variant must be one of {', '.join(VARIANTS)}, got {variant!r}")
    src = G.mma_source()
    start = src.index(START)
    head, body = src[:start], src[start:]
    if variant.startswith("resident"):
        if any(body.count(anchor) != 1 for anchor in (_NEXT_STAGE, _REFILLS, _FIRST, _EARLY2)):
            raise SystemExit("mma_ablate: wspec's stage step, first fills, refill loop or early decode not found")
        body = body.replace(_NEXT_STAGE, "          slot += 0 * KW;\n").replace(_REFILLS, "    for (int i = n; i < n; ++i) {\n")
        # One stage a warpgroup along K, filled once, and no second chunk decoded before A (its stage is not
        # filled): every copy issued is waited for, none is left in flight at the end.
        body = body.replace(_FIRST, "n = c_end - c_begin, first = min(KW, n);")
        body = body.replace(_EARLY2, "bool decoded = false;")
        variant = variant[len("resident_"):] if variant != "resident" else "full"
    if variant in ("no_decode", "skeleton"):
        a, b = body.find(_DECODE_FROM), body.find(_DECODE_TO)
        if a < 0 or b < a:
            raise SystemExit("mma_ablate: the decode not found in wgmma_decode_chunk")
        body = body[:a] + _RAW_WORDS + body[b:]
    if variant in ("no_mma", "skeleton"):
        if _MMA_LOOP not in body:
            raise SystemExit("mma_ablate: the wgmma loop not found in wgmma_chunk")
        body = body.replace(_MMA_LOOP, _NO_MMA, 1)
    return head + body


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--variant", required=True)
    p.add_argument("--cache", type=Path, required=True, help="scratch directory for the variant's cubin")
    p.add_argument("--out", type=Path, help="CSV to append the rows to (needed unless --build-only)")
    p.add_argument("--build-only", action="store_true")
    p.add_argument("--iters", type=int, default=50)
    args = p.parse_args()
    if mma_scratch.use_source(variant_source(args.variant), args.cache, args.build_only, "mma_ablate"):
        print(f"mma_ablate: {args.variant} built into {args.cache}")
        return 0
    if args.out is None:
        raise SystemExit("mma_ablate: --out is needed to time (or pass --build-only)")

    import torch

    from mxlib.runtime.dispatch import load_table
    from mxlib.spec import shapes as shapes_mod
    from mxlib.spec.reference import generate_input
    from mxlib.tools.providers import config_text
    from mxlib.tools.timing import L2Flush, time_contest, time_graph

    flush = L2Flush()
    rows = []
    table = load_table("h200")
    for s in shapes_mod.load("benchmark"):
        cfgs = [G.Config(**f) for path, f in table.get(s.mnk, []) if path == "mma_sm90"]
        if not cfgs or not cfgs[0].wgmma:
            continue
        cfg = cfgs[0]
        a, _, _, bs, ss = generate_input(*s.mnk, s.seed, device="cuda")

        def call(a=a, bs=bs, ss=ss, cfg=cfg):
            return G.gemm(a, bs, ss, config=cfg)

        call()
        t = time_contest(call, iters=args.iters, warmup=3, flush=flush)
        g = time_graph(call)
        rows.append({"variant": args.variant, "m": s.m, "n": s.n, "k": s.k, "config": config_text(cfg),
                     "median_us": round(t["median_us"], 3), "mean_us": round(t["mean_us"], 3),
                     "graph_us": round(g["median_us"], 3), "device": torch.cuda.get_device_name(),
                     "torch": torch.__version__,
                     "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")})
        print(f"{args.variant:10s} {s.m:>4} {s.n:>5} {s.k:>5}  contest mean {t['mean_us']:7.2f}  "
              f"median {t['median_us']:7.2f}  graph {g['median_us']:7.2f} us")
    mma_scratch.append_rows(rows, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
