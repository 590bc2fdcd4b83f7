#!/usr/bin/env bash
# The H200 calls that check and time the merged tree, in two parts that each fit one device call.
#   checks: the GPU tests, the special-value rule on every path that runs there, fused_fp4 on random and
#           scaled shapes;
#   speed:  the project's benchmark with every mxlib path beside cuBLAS bf16, touch over its grids and the
#           empty kernel; the NVIDIA submission file exported and run through the harness's three modes;
#           fused_fp4 against fused on the contest shapes.
# Each step has its own time limit, so a slow step cuts itself short instead of the whole call; results
# are packed into OUT_DIR/results.tgz after every step (the device returns at most 8 files).
#   scripts/h200_final.sh OUT_DIR checks|speed         (MXLIB_CACHE_DIR may hold a carried mma_sm90 cubin)
set -uo pipefail
OUT="${1:?OUT_DIR}"
PART="${2:?PART (checks or speed)}"
W="$OUT/work"
mkdir -p "$W"
export PYTHONUNBUFFERED=1
export MXLIB_CACHE_DIR="${MXLIB_CACHE_DIR:-$PWD/.mxcache}"
FAILED=""  # the steps that failed: the script's status says whether any did
pack() { tar czf "$OUT/results.tgz" -C "$W" . ; }
step() {  # step NAME SECONDS COMMAND...: run it with a limit, log it, pack
  local name=$1 limit=$2; shift 2
  local t0=$SECONDS
  timeout "$limit" "$@" > "$W/$name.log" 2>&1
  local rc=$?
  echo "$name rc=$rc in $((SECONDS - t0)) s (limit $limit)" | tee -a "$W/steps.txt"
  [ "$rc" -eq 0 ] || FAILED="$FAILED $name"
  tail -4 "$W/$name.log"
  pack
}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; nvcc --version | tail -2
  python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"; date -u
  git log -1 --format='commit %H' 2>/dev/null; echo "command: scripts/h200_final.sh $*"; } > "$W/env.txt" 2>&1
cat "$W/env.txt"
case "$PART" in
  checks)
    step pytest_gpu 200 python3 -m pytest -q -m gpu -p no:cacheprovider
    step special_values 90 python3 scripts/h200_special_values.py --out "$W/special_values" --max-seconds 75
    step fused_fp4_random 100 python3 scripts/h200_fused_fp4.py --out "$W/fused_fp4_random" --part random --random 300 --no-timing
    ;;
  speed)
    PROVS="mxlib,mxlib:fused,mxlib:fused_fp4,mxlib:mma_sm90,cublas_bf16,touch,touch:132x2048,touch:264x2048,touch:264x4096,touch:528x2048,touch:1056x512,touch:1056x1024,empty"
    step bench 160 python3 -m mxlib bench --shapes benchmark --providers "$PROVS" --iters 100 --no-graph --out "$W/bench.csv"
    step export 60 python3 -m mxlib export "$W/submission_nvidia.py" --target nvidia
    for mode in test benchmark leaderboard; do
      step "harness_$mode" 90 python3 -m mxlib harness "$W/submission_nvidia.py" "$mode"
    done
    step fused_fp4_contest 120 python3 scripts/h200_fused_fp4.py --out "$W/fused_fp4_contest" --part contest --iters 30
    ;;
  *) echo "PART must be checks or speed, got $PART" >&2; exit 2 ;;
esac
if [ "$PART" = speed ]; then grep -A40 "contest mean us" "$W/bench.log" | head -30; fi
if [ -n "$FAILED" ]; then echo "failed steps:$FAILED" >&2; exit 1; fi
