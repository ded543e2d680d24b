#!/usr/bin/env bash
# Session 2026-12-02, call D: gpu_bfs at the commit in gpu-bin/COMMIT (every launch now queued
# through `Launch::run_after`; BFS's kernels unchanged), every dataset but USA-road-d.NY (left out
# of the transfer; its every-dataset tests read what is there).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder gpu-tests-bfs; B="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > "$B/machine.txt" 2>&1
place_cli_for_tests
export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD" WARPATH_REQUIRE_GPU=1
timeout 150 gpu-bin/tests/gpu_bfs --test-threads 1 > "$B/gpu_bfs.txt" 2>&1
echo "gpu_bfs rc=$? at $SECONDS s: $(grep -E '^test result' "$B/gpu_bfs.txt" | tail -1)" | tee -a "$B/summary.txt"
grep -E "panicked|FAILED" "$B/gpu_bfs.txt" | head -6
tar -czf "$O/call-d.tar.gz" -C "$work/runs" "$(basename "$B")"
