#!/usr/bin/env bash
# The H200 run for issues 6 and 8: benchmark, export, and the exported file through the harness's
# three modes, everything written under OUT_DIR (default data/results/h200).
#   scripts/h200_bench.sh [OUT_DIR]        PYTHON=... overrides the interpreter
# Expected: bench 2-5 min (Triton compilation included), each harness mode under a minute, GPU tests
# under a minute. Every step runs even if an earlier one fails; the exit status says whether all passed.
set -uo pipefail
OUT="${1:-data/results/h200}"
PY="${PYTHON:-python}"
mkdir -p "$OUT"
failed=()
step() {  # step NAME LOG COMMAND...: run, tee stdout+stderr to LOG, remember a failure
  local name="$1" log="$2"; shift 2
  echo "+ $*" >&2
  "$@" 2>&1 | tee "$log" || failed+=("$name")
}

# 1. All providers on all 13 shapes, contest-style and graph replay; summary, baseline goal and speed targets last.
step bench "$OUT/bench.txt" "$PY" -m mxlib bench --out "$OUT/bench.csv"
# 2. The single-file submission, imported alone once by the exporter.
step export "$OUT/export.txt" "$PY" -m mxlib export --target nvidia "$OUT/submission.py"
# 3. The exported file through the contest's protocol: test shapes; benchmark shapes timed; leaderboard
#    (fresh seeds every call, B included, every output rechecked).
for mode in test benchmark leaderboard; do
  step "harness $mode" "$OUT/harness_$mode.txt" \
    "$PY" -m mxlib harness "$OUT/submission.py" "$mode" --csv "$OUT/harness_$mode.csv"
done
# 4. The GPU-only tests of bench and harness.
step "gpu tests" "$OUT/pytest_gpu.txt" "$PY" -m pytest -q -m gpu tests/test_bench.py tests/test_harness.py

if ((${#failed[@]})); then
  echo "FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "all steps passed; outputs in $OUT" >&2
