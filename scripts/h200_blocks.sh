#!/usr/bin/env bash
# One H200 call for the between-block experiment (KERNEL_NOTES.md, "The between-block effect", v17): blocks of
# contest-style calls of the H200 table's configs with the per-call buffers' addresses recorded
# (scripts/mma_blocks.py): nothing moved between blocks, the allocator's own addresses with fresh inputs (the
# three long shapes, then a one-launch control), then a_q and c placed on purpose.
#   scripts/h200_blocks.sh OUT_DIR        (MXLIB_CACHE_DIR may hold a carried cubin)
# OUT_DIR gets env.txt, blocks.csv (every block of every mode) and blocks.txt (what the script printed).
set -uo pipefail
OUT="${1:?OUT_DIR}"
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
export MXLIB_CACHE_DIR="${MXLIB_CACHE_DIR:-$PWD/.mxcache}"
{ nvidia-smi --query-gpu=name,serial,driver_version,clocks.sm,clocks.mem --format=csv; nvcc --version | tail -2;
  python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"; date -u;
  git rev-parse HEAD 2>/dev/null; } > "$OUT/env.txt" 2>&1
run() { timeout "$1" python3 scripts/mma_blocks.py --out "$OUT/blocks.csv" "${@:2}" 2>&1 | grep -v '^\[' | tee -a "$OUT/blocks.txt"; }
run 120 --mode same --blocks 8
run 180 --mode natural --blocks 16
run 60 --mode natural --blocks 8 --shapes 32x4096x512
run 240 --mode place --repeat 2
