#!/usr/bin/env bash
# Session 2026-12-02, call A, 17ce94a's binary (the CC and BFS kernels of 5d7f6cc):
# 1. issue 52: what a launch costs CC on the road (.carry/probe/launch.cu: empty kernels, ordinary
#    and cooperative, CC's grid shapes, with grid barriers, timed by events as warpath times CC);
#    CC on tiny graphs (bcsstk13, kron:10, grid2d:64), block-local and Afforest, against their traced
#    phases: the fixed cost outside the phases; NY and the roads traced again in the same call;
# 2. issue 53 item 7: BFS, the one-GPU engine (default) against one partitioned rank
#    (`--partitions 1`), interleaved, same roots: USA-road-d.NY, urand:22, kron:24, kron:26 (8 roots),
#    (kron:28 has a call of its own: its conversion takes most of the host's memory).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder launch-cost-and-one-gpu-bfs; A="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; free -g; df -h /tmp /dev/shm; } > "$A/machine.txt" 2>&1
pack() { tar -czf "$O/call-a.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
# Graphs: the small ones, then kron:26 in memory; kron:28 on disk after it (one at a time: memory).
( for spec in urand:22 kron:24 kron:10 grid2d:64; do f="$work/${spec//:/-}.wgr"; [ -f "$f" ] || $W convert "$spec" "$f" > /dev/null; done
  [ -f "$work/ny-u.wgr" ] || $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null
  [ -f "$work/lux.wgr" ] || $W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux.wgr" > /dev/null
  [ -f "$work/usroads.wgr" ] || $W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads.wgr" > /dev/null
  [ -f "$work/bcsstk13.wgr" ] || $W convert gpu-bin/datasets/bcsstk13.mtx.gz "$work/bcsstk13.wgr" > /dev/null
  echo "small graphs at $SECONDS s" >> "$A/summary.txt"
  t=$SECONDS; [ -f /dev/shm/kron-26.wgr ] || nice -n 19 /usr/bin/time -v $W convert kron:26 /dev/shm/kron-26.wgr > /dev/null 2>> "$A/convert.txt"
  echo "kron:26 converted rc=$? in $((SECONDS-t)) s" >> "$A/summary.txt"
  ) &
# 1. The launch probe.
( cd .carry/probe && nvcc -O3 -arch=sm_90 -o launch launch.cu ) > "$A/probe-build.txt" 2>&1 && .carry/probe/launch > "$A/launch-probe.txt" 2>&1
cat "$A/launch-probe.txt" | tee -a "$A/summary.txt"
pack
while [ ! -f "$work/bcsstk13.wgr" ] && [ $SECONDS -lt 200 ]; do sleep 1; done
sleep 2
med() { grep -E '^(time|end-to-end): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
for g in bcsstk13 kron-10 grid2d-64 ny-u lux usroads; do
  for ll in auto 256 off; do
    timeout 60 $W bench "$work/$g.wgr" --algorithm cc --trials 16 --trace --local-link $ll > "$A/cc-$g-$ll.txt" 2>&1
    echo "cc $g local-link $ll rc=$? $(med "$A/cc-$g-$ll.txt")" | tee -a "$A/summary.txt"
  done
done
pack
# 2. BFS: the engine against one rank, interleaved, two passes.
bb() { local g=$1 label=$2 roots=$3; shift 3
  timeout 150 $W bench "$g" --roots $roots "$@" --json "$A/bfs-$(basename $g .wgr)-$label.json" > "$A/bfs-$(basename $g .wgr)-$label.txt" 2>&1
  echo "bfs $(basename $g .wgr) $label rc=$? at $SECONDS s | $(grep -E '^time: ' "$A/bfs-$(basename $g .wgr)-$label.txt" | head -1)" | tee -a "$A/summary.txt"; pack; }
for pass in 1 2; do
  for g in ny-u urand-22 kron-24; do
    bb "$work/$g.wgr" engine-$pass 16; bb "$work/$g.wgr" rank-$pass 16 --partitions 1
  done
done
while [ ! -f /dev/shm/kron-26.wgr ] && [ $SECONDS -lt 300 ]; do sleep 2; done
sleep 3
for pass in 1 2; do bb /dev/shm/kron-26.wgr engine-$pass 8; bb /dev/shm/kron-26.wgr rank-$pass 8 --partitions 1; done
rm -f /dev/shm/kron-26.wgr
echo "done at $SECONDS s" | tee -a "$A/summary.txt"
pack
