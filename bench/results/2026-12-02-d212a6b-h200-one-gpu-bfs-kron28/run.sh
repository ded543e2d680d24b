#!/usr/bin/env bash
# Session 2026-12-02 (third), the session's first call, d212a6b (prepared by the session before,
# NOTES 142's last paragraph): issue 53 item 7 on kron:28 on one H200 host, the one-GPU engine
# against one partitioned rank over entry 92's 4 roots, interleaved (engine, rank, engine), the
# engine traced on its third and fourth roots; the rank's JSON keeps every root's levels. `convert`
# picks the output format by the file's extension, so it writes the .wgr name directly.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder one-gpu-bfs-kron28; K="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; nproc; free -g; } > "$K/machine.txt" 2>&1
pack() { tar -czf "$O/kron28.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
t=$SECONDS; [ -f "$work/kron-28.wgr" ] || $W convert kron:28 "$work/kron-28.wgr" > /dev/null 2> "$K/convert.txt"
echo "kron:28 converted rc=$? in $((SECONDS-t)) s" | tee -a "$K/summary.txt"
b() { local label=$1; shift
  timeout 120 $W bench "$work/kron-28.wgr" --roots 4 "$@" --json "$K/$label.json" > "$K/$label.txt" 2>&1
  echo "$label rc=$? at $SECONDS s | $(grep -E '^time: ' "$K/$label.txt" | head -1)" | tee -a "$K/summary.txt"; pack; }
b engine-trace3 --trace-trial 3
b rank --partitions 1
b engine-2 --trace-trial 4
pack
