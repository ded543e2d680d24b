#!/usr/bin/env bash
# The final commit's verify tables: scripts/gpu-run with SKIP_TESTS=1, then the headline rows.
set -u
cd "$(dirname "$0")/.."
export NCCL_NVLS_ENABLE=0
OUT=/tmp/gpu-out-b SKIP_TESTS=1 timeout 420 bash scripts/gpu-run > /tmp/gpu-run-b.txt 2>&1
echo "gpu-run (verify tables) rc=$?"
grep -c "FAILED" /tmp/gpu-out-b/*/*-runs.txt
tail -3 /tmp/gpu-run-b.txt
OUT=/tmp/gpu-out-b timeout 160 bash .peers/final-b.sh
tar -C /tmp/gpu-out-b -czf "$OUT/verify-headline.tgz" . && cp /tmp/gpu-run-b.txt "$OUT/"
