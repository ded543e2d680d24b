#!/usr/bin/env bash
# Session 2026-12-02 (second), call B, 34099d0 (and 9fa906e's warpath beside it): issue 53 item 7.
# gpu_bfs; then BFS interleaved, two passes, same roots: the engine at 34099d0 (a chosen chunk of
# 1 runs every split level in the word-by-word kernel), the engine at 9fa906e, one partitioned
# rank (`--partitions 1`, 34099d0): kron:26 (8 roots), kron:24, urand:22, USA-road-d.NY (16);
# kron:26's sixth root traced at 34099d0.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder one-gpu-bfs-split-words; B="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; free -g; } > "$B/machine.txt" 2>&1
pack() { tar -czf "$O/call-b.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath; OLD=gpu-bin/warpath-9fa906e
export WARPATH_REQUIRE_GPU=1
( for spec in urand:22 kron:24; do f="$work/${spec//:/-}.wgr"; [ -f "$f" ] || $W convert "$spec" "$f" > /dev/null; done
  [ -f "$work/ny-u.wgr" ] || $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null
  t=$SECONDS; [ -f /dev/shm/kron-26.wgr ] || nice -n 19 $W convert kron:26 /dev/shm/kron-26.wgr > /dev/null
  echo "conversions done rc=$? at $SECONDS s" >> "$B/summary.txt" ) &
place_cli_for_tests
t=$SECONDS; gpu-bin/tests/gpu_bfs --test-threads 1 > "$B/gpu_bfs.txt" 2>&1
echo "gpu_bfs rc=$? in $((SECONDS-t)) s: $(grep -E '^test result' "$B/gpu_bfs.txt")" | tee -a "$B/summary.txt"
pack
wait
bb() { local bin=$1 g=$2 label=$3 roots=$4; shift 4
  local name="bfs-$(basename $g .wgr)-$label"
  timeout 150 $bin bench "$g" --roots $roots "$@" --json "$B/$name.json" > "$B/$name.txt" 2>&1
  echo "$name rc=$? at $SECONDS s | $(grep -E '^time: ' "$B/$name.txt" | head -1)" | tee -a "$B/summary.txt"; pack; }
for pass in 1 2; do
  for g in ny-u urand-22 kron-24; do
    bb $W "$work/$g.wgr" engine-$pass 16; bb $OLD "$work/$g.wgr" engine-9fa906e-$pass 16; bb $W "$work/$g.wgr" rank-$pass 16 --partitions 1
  done
done
for pass in 1 2; do
  bb $W /dev/shm/kron-26.wgr engine-$pass 8; bb $OLD /dev/shm/kron-26.wgr engine-9fa906e-$pass 8; bb $W /dev/shm/kron-26.wgr rank-$pass 8 --partitions 1
done
bb $W /dev/shm/kron-26.wgr engine-trace6 6 --trace-trial 6
bb $W /dev/shm/kron-26.wgr engine-trace3 3 --trace-trial 3
echo "done at $SECONDS s" | tee -a "$B/summary.txt"
pack
