#!/usr/bin/env bash
# Session 33: wspec's parity race at odd ring depths with two warpgroups along K. demo0/ is 29b4a01's mxlib (odd
# depths accepted), its cubin built on the CPU machine (.dev/c33, the same source); demo/ is the same with the producer
# issuing A's first chunks in reverse order and chunk 0's last after a 400,000-cycle spin (.dev/s33/cdemo).
set -uo pipefail
R=$PWD; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,driver_version --format=csv; date -u
echo "=== the kernel as committed"
(cd .dev/s33/demo0 && PYTHONPATH=$PWD MXLIB_CACHE_DIR=$R/.dev/c33 timeout 200 python3 $R/.dev/s33/t.py 200) 2>&1 | tee $OUT/race_committed.txt
echo "=== chunk 0's A copy issued last"
(cd .dev/s33/demo && PYTHONPATH=$PWD MXLIB_CACHE_DIR=$R/.dev/s33/cdemo timeout 120 python3 $R/.dev/s33/t.py 5) 2>&1 | tee $OUT/race_delayed.txt
cp .dev/s33/demo.sh .dev/s33/t.py $OUT/
