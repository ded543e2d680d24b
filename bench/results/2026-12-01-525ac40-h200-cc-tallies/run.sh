#!/usr/bin/env bash
# Session 2026-12-01 (seventh), call T1, 525ac40's host with its kernels built with the device
# crate's `cc-tallies` feature (scripts/tallied-cubin; WARPATH_KERNELS): each CC phase's walk
# steps, swaps and failed swaps, on kron:22 and urand:22 (by id, the default) and grid2d:5000 by
# id and scattered. Counting slows the kernel (NOTES 102): the counts, not the times, are the result.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder cc-tallies; K="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } > "$K/machine.txt" 2>&1
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1 WARPATH_KERNELS=$PWD/.carry/old/tallied.cubin
for spec in kron:22 urand:22 grid2d:5000; do ( $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null ) & done
wait
for run in "kron-22 default" "urand-22 default" "grid2d-5000 ids --round-order ids" "grid2d-5000 scattered --round-order scattered"; do
  set -- $run; g=$1; label=$2; shift 2
  timeout 60 $W bench "$work/$g.wgr" --algorithm cc --trials 4 "$@" > "$K/$g-$label.txt" 2>&1
  echo "$g $label rc=$? at $SECONDS s"; sed -n '/phases of run 1/,/^json\|^$/p' "$K/$g-$label.txt"
done | tee -a "$K/summary.txt"
tar -czf "$O/call-t1.tar.gz" -C "$work/runs" .
