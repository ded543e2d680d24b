#!/usr/bin/env bash
# Session 2026-12-02 (second), call C, 34099d0 (9fa906e's warpath beside it): issue 53 item 7 on
# kron:28 (one H200 host holds its conversion): entry 92's 4 roots, the engine at 34099d0 with its
# third and fourth roots traced, one partitioned rank (its JSON keeps every root's levels), the
# engine at 9fa906e; the first root with level 2 bottom-up (`--alpha 0.2`, traced).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder one-gpu-bfs-kron28; K="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; nproc; free -g; } > "$K/machine.txt" 2>&1
pack() { tar -czf "$O/call-c.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath; OLD=gpu-bin/warpath-9fa906e
export WARPATH_REQUIRE_GPU=1
rm -f /dev/shm/kron-26.wgr
t=$SECONDS; [ -f "$work/kron-28.wgr" ] || $W convert kron:28 "$work/kron-28.wgr" > /dev/null 2> "$K/convert.txt"
echo "kron:28 converted rc=$? in $((SECONDS-t)) s" | tee -a "$K/summary.txt"
b() { local bin=$1 label=$2 limit=$3 roots=$4; shift 4
  timeout $limit $bin bench "$work/kron-28.wgr" --roots $roots "$@" --json "$K/$label.json" > "$K/$label.txt" 2>&1
  echo "$label rc=$? at $SECONDS s | $(grep -E '^time: ' "$K/$label.txt" | head -1)" | tee -a "$K/summary.txt"; pack; }
b $W engine-trace3 100 4 --trace-trial 3
b $W rank 240 4 --partitions 1
b $W engine-trace4 100 4 --trace-trial 4
b $OLD engine-9fa906e 100 4 --trace-trial 3
b $W engine-trace1-alpha02 100 1 --alpha 0.2 --trace-trial 1
echo "done at $SECONDS s" | tee -a "$K/summary.txt"
pack
