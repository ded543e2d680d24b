#!/usr/bin/env bash
# Session 2026-12-02, call B, at the commit in gpu-bin/COMMIT (list heads gathered on the device):
# 1. issue 52: CC's placement with the heads gathered on the device against none (`--list-heads
#    never`), kron:22, urand:22, kron:24, grid2d:5000, on a quiet host (the stage tables), the
#    kernel time beside it;
# 2. gpu_placement (the new kernel's device test) and gpu_cc while kron:28 converts;
# 3. issue 53 item 7: BFS on kron:28, the one-GPU engine against one partitioned rank, same 8
#    roots, interleaved, two passes.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder heads-on-device-and-kron28; B="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; free -g; df -h /tmp /dev/shm; } > "$B/machine.txt" 2>&1
pack() { tar -czf "$O/call-b.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
for spec in kron:22 urand:22 kron:24 grid2d:5000; do
  f="$work/${spec//:/-}"; [ -f "$f.wgr" ] || ( $W convert "$spec" "$f.wgr" > /dev/null ) &
done
wait
echo "converted at $SECONDS s" | tee -a "$B/summary.txt"
med() { grep -E '^(time|end-to-end): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
for g in kron-22 urand-22 kron-24 grid2d-5000; do
  for heads in auto never; do
    timeout 60 $W bench "$work/$g.wgr" --algorithm cc --trials 16 --list-heads $heads > "$B/cc-$g-$heads.txt" 2>&1
    echo "cc $g heads $heads rc=$? $(med "$B/cc-$g-$heads.txt")| $(grep -E '^  place ' "$B/cc-$g-$heads.txt" | tr -s ' ')" | tee -a "$B/summary.txt"
  done
  ( time $W cc "$work/$g.wgr" --verify ) > "$B/cc-oneshot-$g.txt" 2>&1
  echo "cc one-shot $g rc=$? $(grep -E '^real' "$B/cc-oneshot-$g.txt")" | tee -a "$B/summary.txt"
done
pack
( t=$SECONDS; [ -f "$work/kron-28.wgr" ] || nice -n 19 /usr/bin/time -v $W convert kron:28 "$work/kron-28.wgr" > /dev/null 2> "$B/convert-kron-28.txt"
  echo "kron:28 converted rc=$? in $((SECONDS-t)) s, at $SECONDS s" | tee -a "$B/summary.txt"; echo done > "$work/kron28-ready" ) &
place_cli_for_tests
export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
for t in gpu_placement gpu_cc; do
  timeout 220 gpu-bin/tests/$t --test-threads 1 > "$B/$t.txt" 2>&1
  echo "$t rc=$? at $SECONDS s: $(grep -E '^test result' "$B/$t.txt" | tail -1)" | tee -a "$B/summary.txt"
  grep -E "panicked|FAILED" "$B/$t.txt" | head -6
  pack
done
while [ ! -f "$work/kron28-ready" ] && [ $SECONDS -lt 420 ]; do sleep 2; done
grep -E "Maximum resident|Elapsed" "$B/convert-kron-28.txt" | tee -a "$B/summary.txt"
free -g >> "$B/machine.txt"
bb() { local label=$1; shift
  timeout 120 $W bench "$work/kron-28.wgr" --roots 8 "$@" --json "$B/bfs-kron-28-$label.json" > "$B/bfs-kron-28-$label.txt" 2>&1
  echo "bfs kron-28 $label rc=$? at $SECONDS s | $(grep -E '^time: ' "$B/bfs-kron-28-$label.txt" | head -1)" | tee -a "$B/summary.txt"; pack; }
for pass in 1 2; do
  [ $SECONDS -lt 470 ] || { echo "kron:28 pass $pass cut at $SECONDS s" | tee -a "$B/summary.txt"; break; }
  bb engine-$pass; bb rank-$pass --partitions 1
done
echo "done at $SECONDS s" | tee -a "$B/summary.txt"
pack
