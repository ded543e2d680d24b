#!/usr/bin/env bash
# Session 2026-12-01 (fourth), call C, at the commit in gpu-bin/COMMIT: gpu_bfs (with the GPU
# closeness test); exact closeness on the GPU and on the machine's 16 cores: Email-Enron and
# soc-Slashdot0902 (`bench --algorithm closeness`, each run checked at 16 vertices).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder closeness-gpu; M="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; free -g | head -2; } > "$M/machine.txt" 2>&1
pack() { tar -czf "$O/call-c.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
place_cli_for_tests
for g in Email-Enron soc-Slashdot0902; do
  for b in gpu cpu; do
    trials=8; [ $b = cpu ] && trials=3
    timeout 120 $W bench gpu-bin/datasets/$g.txt.gz --algorithm closeness --trials $trials --backend $b --json "$M/closeness-$g-$b.json" > "$M/closeness-$g-$b.txt" 2>&1
    echo "closeness $g $b rc=$? $(grep -E '^(time|verified|mean closeness)' "$M/closeness-$g-$b.txt" | tr '\n' ' ')" | tee -a "$M/summary.txt"
  done
  pack
done
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 300 gpu-bin/tests/gpu_bfs --test-threads 1 > "$M/gpu_bfs.txt" 2>&1
  echo "gpu_bfs rc=$? at $SECONDS s: $(grep -E '^test result' "$M/gpu_bfs.txt" | tail -1)" | tee -a "$M/summary.txt"
  grep -E "panicked|FAILED" "$M/gpu_bfs.txt" | head -6 )
pack
echo "done at $SECONDS s"
