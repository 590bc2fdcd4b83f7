#!/usr/bin/env bash
# One H200 call (KERNEL_NOTES.md, rungs 3 and 4): the probe, the dispatcher table rewritten from its
# winners, then the project's benchmark, export and harness run on that table, and the GPU tests.
#   [PROBE_ARGS=--around] scripts/h200_tune_and_bench.sh OUT_DIR
# OUT_DIR gets probe.{csv,log}, timeline.csv, h200.csv, h200_fused.csv and bench_run.tgz (the files
# of scripts/h200_bench.sh and the GPU run of tests/test_gemm_fused.py).
set -uo pipefail
OUT="${1:?OUT_DIR}"
mkdir -p "$OUT" /tmp/bench_run
export PYTHONUNBUFFERED=1
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
timeout 220 python3 scripts/probe_fused.py --out "$OUT" ${PROBE_ARGS:-} 2>&1 | tee "$OUT/probe.log" | grep -v '^\[' | grep -v timeline
python3 scripts/pick_fused_winners.py "$OUT/probe.csv" && cp mxlib/data/configs/h200.csv "$OUT/"
timeout 300 bash scripts/h200_bench.sh /tmp/bench_run 2>&1 | grep -v '^\[' | tail -60
timeout 150 python3 -m pytest -q tests/test_gemm_fused.py -k 'a_once or golden or random' 2>&1 | tee /tmp/bench_run/pytest_gemm_fused.txt | tail -3
tar czf "$OUT/bench_run.tgz" -C /tmp/bench_run .
