#!/usr/bin/env bash
# One H200 call for the CUDA path (KERNEL_NOTES.md, "The CUDA path"): correctness checks and config sweep
# (scripts/mma_probe.py, which rewrites the H200 table from its winners), the project's benchmark on that
# table with cuBLAS, touch over its grids and the empty kernel, the GPU tests, the exported file through
# the harness's three modes, and a compute-sanitizer run over every kernel.
#   scripts/h200_mma.sh OUT_DIR        (MXLIB_CACHE_DIR may hold a carried cubin)
# OUT_DIR gets probe.log, probe.csv, checks.csv, h200.csv, bench.csv, bench.txt, harness.txt, sanitizer.txt.
set -uo pipefail
OUT="${1:?OUT_DIR}"
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
export MXLIB_CACHE_DIR="${MXLIB_CACHE_DIR:-$PWD/.mxcache}"
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; nvcc --version | tail -2;
  python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"; date -u; } 2>&1 | tee "$OUT/probe.log"
timeout 150 python3 scripts/mma_probe.py --out "$OUT" --table ${PROBE_ARGS:-} 2>&1 | tee -a "$OUT/probe.log" | grep -v '^\['
cp mxlib/data/configs/h200.csv "$OUT/h200.csv"
PROVS="mxlib,mxlib:mma_sm90,mxlib:fused,cublas_bf16,touch,touch:132x2048,touch:264x2048,touch:264x4096,touch:528x2048,touch:1056x512,touch:1056x1024,empty"
timeout ${BENCH_TIMEOUT:-150} python3 -m mxlib bench --providers "$PROVS" --out "$OUT/bench.csv" ${BENCH_ARGS:-} 2>&1 | grep -v '^\[' > "$OUT/bench.txt"
tail -62 "$OUT/bench.txt"
timeout 45 python3 -m pytest -q -m gpu tests/test_gemm_mma_sm90.py 2>&1 | tail -4 | tee -a "$OUT/probe.log"
{ timeout 30 python3 -m mxlib export --target nvidia /tmp/submission.py
  for mode in test benchmark leaderboard; do timeout 40 python3 -m mxlib harness /tmp/submission.py "$mode"; done; } > "$OUT/harness.txt" 2>&1
grep -E "passed|score|failed|error" "$OUT/harness.txt"
timeout 60 compute-sanitizer --tool memcheck --print-limit 20 python3 scripts/mma_smoke.py > "$OUT/sanitizer.txt" 2>&1
echo "sanitizer rc=$? $(grep -c ': ok$' "$OUT/sanitizer.txt") ok; $(grep -m1 'ERROR SUMMARY' "$OUT/sanitizer.txt")"
