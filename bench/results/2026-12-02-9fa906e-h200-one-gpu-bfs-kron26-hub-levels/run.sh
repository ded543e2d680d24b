#!/usr/bin/env bash
# Session 2026-12-02 (second), call A, 9fa906e's binary (BFS as at HEAD): issue 53 item 7.
# kron:26's roots 4-6, which the one-GPU engine loses to one partitioned rank (entry 141):
# the engine's per-level trace of roots 4 and 6 (`--trace-trial`), the rank's levels of roots
# 1-6 (its JSON keeps every trial's); root 4 with level 2 bottom-up (`--alpha 0.2`); ncu on the
# rank's top-down kernels of roots 1-4 (the long-list kernel carries the hubs' level 2).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder one-gpu-bfs-kron26-hub-levels; A="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; free -g; which ncu; } > "$A/machine.txt" 2>&1
pack() { tar -czf "$O/call-a.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
t=$SECONDS; [ -f /dev/shm/kron-26.wgr ] || $W convert kron:26 /dev/shm/kron-26.wgr > /dev/null 2> "$A/convert.txt"
echo "kron:26 converted rc=$? in $((SECONDS-t)) s" | tee -a "$A/summary.txt"
G=/dev/shm/kron-26.wgr
b() { local label=$1; shift
  timeout 120 $W bench $G "$@" --json "$A/$label.json" > "$A/$label.txt" 2>&1
  echo "$label rc=$? at $SECONDS s | $(grep -E '^time: ' "$A/$label.txt" | head -1)" | tee -a "$A/summary.txt"; pack; }
b engine-trace4 --roots 4 --trace-trial 4
b rank-6 --roots 6 --partitions 1
b engine-trace6 --roots 6 --trace-trial 6
b engine-trace4-alpha02 --roots 4 --trace-trial 4 --alpha 0.2
b engine-trace4-distonly --roots 4 --trace-trial 4 --distances-only
# ncu: every launch of the rank's top-down kernels over the warm-up and roots 1-4.
timeout 240 ncu --clock-control none --kernel-name regex:'bfs_part_top_down' --launch-count 40 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
  --section WarpStateStats --section SchedulerStats \
  --metrics lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct \
  $W bench $G --roots 4 --partitions 1 > "$A/ncu-rank-top-down.txt" 2>&1
echo "ncu rc=$? at $SECONDS s" | tee -a "$A/summary.txt"
pack
echo "done at $SECONDS s" | tee -a "$A/summary.txt"
pack
