#!/usr/bin/env bash
# Session 2026-12-01 (eighth), call L1, at the commit in gpu-bin/COMMIT (one delta-stepping loop
# per word width; the BFS's auto split of every bottom-up level): gpu_sssp and gpu_bfs while the
# graphs convert; SSSP on kron:22, urand:22 and kron:24 (16 roots): distances only (4-byte words)
# and with parents, against 1f061ac's binary (the kernels before) both ways; the BFS on kron:26,
# 8 roots, by the defaults against one partitioned rank.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
xz -dc .carry/old/warpath-1f061ac.xz > /tmp/warpath-old && chmod +x /tmp/warpath-old
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder sssp-narrow-words-two-loops; S="$out"
OUT=$work/runs run_folder one-gpu-bfs-auto-every-level; K="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$S/machine.txt" 2>&1
cp "$S/machine.txt" "$K/"
pack() { tar -czf "$O/call-l1.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath; OLD=/tmp/warpath-old
export WARPATH_REQUIRE_GPU=1
for spec in kron:22 urand:22 kron:24; do
  f="$work/${spec//:/-}"; ( $W convert "$spec" "$f-w.wgr" --weights uniform:1:255 > /dev/null ) &
done
( $W convert kron:26 /dev/shm/kron-26.wgr > /dev/null 2>&1 ) &
place_cli_for_tests
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  for t in gpu_sssp gpu_bfs; do
    d=$S; [ $t = gpu_bfs ] && d=$K
    timeout 240 gpu-bin/tests/$t --test-threads 1 > "$d/$t.txt" 2>&1
    echo "$t rc=$? at $SECONDS s: $(grep -E '^test result' "$d/$t.txt" | tail -1)" | tee -a "$d/summary.txt"
    grep -E "panicked|FAILED" "$d/$t.txt" | head -6
  done )
wait
echo "converted at $SECONDS s" | tee -a "$S/summary.txt"
pack
med() { grep -E '^(time|end-to-end|relaxations per edge): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
bs() { local bin=$1 g=$2 label=$3; shift 3
  timeout 120 $bin bench "$work/$g-w.wgr" --algorithm sssp --roots 16 "$@" > "$S/$g-$label.txt" 2>&1
  echo "$g $label rc=$? at $SECONDS s | $(med "$S/$g-$label.txt")" | tee -a "$S/summary.txt"
  pack
}
for g in kron-22 urand-22 kron-24; do
  bs $W "$g" narrow --distances-only
  bs $OLD "$g" old-distances-only --distances-only
  bs $W "$g" packed
  bs $OLD "$g" old-packed
done
bb() { local label=$1; shift
  timeout 90 $W bench /dev/shm/kron-26.wgr --roots 8 "$@" --json "$K/kron-26-$label.json" > "$K/kron-26-$label.txt" 2>&1
  echo "kron-26 $label rc=$? at $SECONDS s | $(grep -E '^time: ' "$K/kron-26-$label.txt" | head -1)" | tee -a "$K/summary.txt"
  pack
}
bb auto
bb rank --partitions 1
echo "done at $SECONDS s" | tee -a "$S/summary.txt"
pack
