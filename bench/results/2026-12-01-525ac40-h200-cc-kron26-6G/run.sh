#!/usr/bin/env bash
# Session 2026-12-01 (seventh), call H2, at the commit in gpu-bin/COMMIT (the session's final
# kernels): issue 52's kron:26 under a 6 GB budget (lists zero-copy), 8 trials.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder cc-kron26-6G; K="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; free -g | head -2; } > "$K/machine.txt" 2>&1
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
$W convert kron:26 /dev/shm/kron-26.wgr > "$K/convert.txt" 2>&1; echo "converted rc=$? at $SECONDS s" | tee -a "$K/summary.txt"
timeout 100 $W bench /dev/shm/kron-26.wgr --algorithm cc --trials 8 --vram-budget 6G --json "$K/cc-kron-26-6G.json" > "$K/cc-kron-26-6G.txt" 2>&1
echo "cc kron-26 6G rc=$? at $SECONDS s $(grep -E '^(time|end-to-end): ' "$K/cc-kron-26-6G.txt" | tr '\n' ' ')" | tee -a "$K/summary.txt"
tar -czf "$O/call-h2.tar.gz" -C "$work/runs" .
