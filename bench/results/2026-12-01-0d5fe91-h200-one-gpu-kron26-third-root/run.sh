#!/usr/bin/env bash
# Session 2026-12-01 (seventh), call I1, at the commit in gpu-bin/COMMIT (bench --trace-trial):
# issue 53 item 7's kron:26 third root (29814099), which the engine lost by 0.6 ms at 27df4c3:
# the engine's levels (the defaults: the first bottom-up level apart) traced by --trace-trial 3,
# and one partitioned rank's levels of its last root, both over the same first three roots.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder one-gpu-kron26-third-root; K="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } > "$K/machine.txt" 2>&1
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
$W convert kron:26 /dev/shm/kron-26.wgr > "$K/convert.txt" 2>&1; echo "converted rc=$? at $SECONDS s" | tee -a "$K/summary.txt"
timeout 60 $W bench /dev/shm/kron-26.wgr --roots 3 --trace-trial 3 --json "$K/engine.json" > "$K/engine.txt" 2>&1
echo "engine rc=$? at $SECONDS s" | tee -a "$K/summary.txt"
timeout 60 $W bench /dev/shm/kron-26.wgr --roots 3 --partitions 1 --json "$K/rank.json" > "$K/rank.txt" 2>&1
echo "rank rc=$? at $SECONDS s" | tee -a "$K/summary.txt"
grep -E "^time:|^  *[0-9]+ +(top-down|bottom-up)" "$K/engine.txt" | head -12
grep -E "^time:|levels of the last root|^ +[0-9]+  (top-down|bottom-up)" "$K/rank.txt" | head -12
tar -czf "$O/call-i1.tar.gz" -C "$work/runs" .
