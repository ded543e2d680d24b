#!/usr/bin/env bash
# The final commit's GPU tests: scripts/gpu-run with TESTS_ONLY=1 (every test executable,
# the GPU required), its run folder archived into $OUT.
set -u
cd "$(dirname "$0")/.."
export NCCL_NVLS_ENABLE=0
OUT=/tmp/gpu-out TESTS_ONLY=1 bash scripts/gpu-run
rc=$?
echo "gpu-run rc=$rc"
grep -h "^FAILED\|FAILED$\|panicked" /tmp/gpu-out/*/gpu-tests.log | head -30
tar -C /tmp/gpu-out -czf "$OUT/gpu-tests.tgz" .
