#!/usr/bin/env bash
# Where cc_cluster's link phase goes on USA-road-d.NY: Nsight Compute's full set on one launch
# (warp states, instruction mix, divergence, scheduler, memory), then the bench as built.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
OUTDIR=${OUT:-gpu-out}; mkdir -p "$OUTDIR"
OUT=$work/runs run_folder ${TOPIC:-cc-cluster-profile}
R="$out"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
$W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU $($NCU --version 2>&1 | tail -1)"
timeout 240 $NCU --kernel-name cc_cluster --launch-count 1 --set full --import-source no \
  $W cc "$work/ny-u.wgr" --backend gpu --local-link cluster > "$R/ncu-ny.txt" 2>&1
echo "ncu rc=$? lines $(wc -l < "$R/ncu-ny.txt")"
grep -E "Duration|Executed Ipc|Issue Slots Busy|Avg. Active Threads Per Warp|Avg. Not Predicated Off|Warp Cycles Per Issued|Stall|Branch Efficiency|Divergent|Executed Instructions |Achieved Occupancy|Registers Per|Theoretical Occupancy|L1/TEX Hit|Memory Throughput|Compute \(SM\) Thr|One or More Eligible|No Eligible|Active Warps Per Scheduler|Eligible Warps" "$R/ncu-ny.txt" | head -60
timeout 60 $W bench "$work/ny-u.wgr" --algorithm cc --trials 16 --backend gpu --local-link cluster > "$R/ny-u-cluster.txt" 2>&1
echo "bench rc=$? $(grep -E '^time: ' "$R/ny-u-cluster.txt")"
echo "done at $SECONDS s"
tar -czf "$OUTDIR/call-b.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
