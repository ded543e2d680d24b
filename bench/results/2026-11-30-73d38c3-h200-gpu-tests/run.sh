#!/usr/bin/env bash
# The final commit's GPU tests: gpu_sssp and gpu_cc (every cluster kernel and `auto` rule of
# this session against Dijkstra and the union-find).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
OUTDIR=${OUT:-gpu-out}; mkdir -p "$OUTDIR"
run_folder ${TOPIC:-gpu-tests}
R="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > "$R/machine.txt" 2>&1
place_cli_for_tests
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
for t in gpu_cc gpu_sssp; do
  timeout 150 gpu-bin/tests/$t --test-threads 1 > "$R/$t.txt" 2>&1
  echo "$t rc=$? at $SECONDS s: $(grep -E '^test result' "$R/$t.txt" | tail -1)"
  grep -E "panicked|FAILED" "$R/$t.txt" | head -6
done
