#!/usr/bin/env bash
# Session 2026-12-02 (second), call D, d212a6b (34099d0's warpath beside it): issue 53 item 7.
# gpu_bfs; BFS interleaved, same roots: d212a6b (the word-by-word split level in a copy without
# emission or heads, static words without claim state) against 34099d0, on USA-road-d.NY,
# urand:22, kron:24 (16 roots, one pass) and kron:26 (8 roots, two passes of d212a6b and one
# partitioned rank, one of 34099d0); kron:28 (entry 92's 4 roots) d212a6b against one rank, third root traced.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder one-gpu-bfs-split-words-lean; D="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; free -g; } > "$D/machine.txt" 2>&1
pack() { tar -czf "$O/call-d.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath; OLD=gpu-bin/warpath-34099d0
export WARPATH_REQUIRE_GPU=1
( t=$SECONDS; [ -f "$work/kron-28.wgr" ] || nice -n 19 $W convert kron:28 "$work/kron-28.wgr.part" > /dev/null 2> "$D/convert-kron-28.txt" && mv "$work/kron-28.wgr.part" "$work/kron-28.wgr"
  echo "kron:28 converted rc=$? in $((SECONDS-t)) s, at $SECONDS s" >> "$D/summary.txt" ) &
( for spec in urand:22 kron:24; do f="$work/${spec//:/-}.wgr"; [ -f "$f" ] || $W convert "$spec" "$f" > /dev/null; done
  [ -f "$work/ny-u.wgr" ] || $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null
  [ -f /dev/shm/kron-26.wgr ] || $W convert kron:26 /dev/shm/kron-26.wgr.part > /dev/null && mv /dev/shm/kron-26.wgr.part /dev/shm/kron-26.wgr
  echo "small and kron:26 converted at $SECONDS s" >> "$D/summary.txt" ) &
place_cli_for_tests
t=$SECONDS; gpu-bin/tests/gpu_bfs --test-threads 1 > "$D/gpu_bfs.txt" 2>&1
echo "gpu_bfs rc=$? in $((SECONDS-t)) s: $(grep -E '^test result' "$D/gpu_bfs.txt")" | tee -a "$D/summary.txt"
pack
bb() { local bin=$1 g=$2 label=$3 roots=$4; shift 4
  local name="bfs-$(basename $g .wgr)-$label"
  timeout 120 $bin bench "$g" --roots $roots "$@" --json "$D/$name.json" > "$D/$name.txt" 2>&1
  echo "$name rc=$? at $SECONDS s | $(grep -E '^time: ' "$D/$name.txt" | head -1)" | tee -a "$D/summary.txt"; pack; }
while [ ! -f /dev/shm/kron-26.wgr ] && [ $SECONDS -lt 200 ]; do sleep 1; done; sleep 2
for g in ny-u urand-22 kron-24; do
  bb $W "$work/$g.wgr" engine-1 16; bb $OLD "$work/$g.wgr" engine-34099d0-1 16
done
bb $W /dev/shm/kron-26.wgr engine-1 8; bb $OLD /dev/shm/kron-26.wgr engine-34099d0-1 8; bb $W /dev/shm/kron-26.wgr rank-1 8 --partitions 1
bb $W /dev/shm/kron-26.wgr engine-2 8; bb $W /dev/shm/kron-26.wgr rank-2 8 --partitions 1
rm -f /dev/shm/kron-26.wgr
while [ ! -f "$work/kron-28.wgr" ] && [ $SECONDS -lt 300 ]; do sleep 2; done
if [ -f "$work/kron-28.wgr" ] && [ $SECONDS -lt 300 ]; then
  bb $W "$work/kron-28.wgr" engine-trace3 4 --trace-trial 3
  [ $SECONDS -lt 360 ] && bb $W "$work/kron-28.wgr" rank 4 --partitions 1
else echo "kron:28 skipped at $SECONDS s" | tee -a "$D/summary.txt"; fi
echo "done at $SECONDS s" | tee -a "$D/summary.txt"
pack

# Call D wrote its conversions to `*.wgr.part` names, which `convert` refuses (it picks the
# format by the extension: `convert-kron-28.txt`), so kron:26 and kron:28 were never converted and
# every kron:26 bench above exited 2 (`bfs-kron-26-*-1.txt`, `-2.txt`); kron:28 was skipped. With
# the session's last 127 s of device time, on the same warm machine, call E ran kron:26 alone:
#   W=gpu-bin/warpath; export WARPATH_REQUIRE_GPU=1
#   $W convert kron:26 /dev/shm/kron-26.wgr > /dev/null
#   for x in "$W engine-k1" "$W rank-k1 --partitions 1" "gpu-bin/warpath-34099d0 engine-34099d0-k1"; do
#     set -- $x; b=$1; l=$2; shift 2
#     timeout 40 $b bench /dev/shm/kron-26.wgr --roots 8 "$@" --json $D/bfs-kron-26-$l.json > $D/bfs-kron-26-$l.txt 2>&1
#   done
