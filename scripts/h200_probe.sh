#!/usr/bin/env bash
# The H200 run behind KERNEL_NOTES.md's probe: scripts/probe_fused.py, then Nsight Compute on two
# shapes' fused kernels if ncu can read the counters there. Everything goes to OUT_DIR.
#   scripts/h200_probe.sh OUT_DIR
set -uo pipefail
OUT="${1:?OUT_DIR}"
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
timeout "${PROBE_TIMEOUT:-400}" python3 scripts/probe_fused.py --out "$OUT" 2>&1 | tee "$OUT/probe.log" | grep -v '^\['
command -v ncu >/dev/null || { echo "no ncu"; exit 0; }
for s in 16x2112x7168 4x2880x512; do
  timeout 60 ncu --clock-control none -k regex:_fused_gemm --launch-skip 3 --launch-count 1 --set full -f \
    -o "/tmp/rep_$s" python3 scripts/probe_fused.py --run "$s" > "/tmp/ncu_$s.log" 2>&1 || tail -3 "/tmp/ncu_$s.log"
  [ -f "/tmp/rep_$s.ncu-rep" ] || continue
  ncu -i "/tmp/rep_$s.ncu-rep" --page details --csv > "$OUT/ncu_details_$s.csv" 2>&1
  ncu -i "/tmp/rep_$s.ncu-rep" --page source --csv --print-source sass > "$OUT/ncu_source_$s.csv" 2>&1
done
ls -la "$OUT"
