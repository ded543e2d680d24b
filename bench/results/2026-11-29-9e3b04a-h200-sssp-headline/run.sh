#!/usr/bin/env bash
# Issue 51's headline at the commit in gpu-bin: warpath's default SSSP on USA-road-d.NY,
# kron:22, urand:22, grid2d:5000 and kron:24 (16 roots, traced; kernel and end to end, which
# the bench now takes from results read back in place, bench/NOTES.md 107), the GAP suite's
# sssp on the same files in the same call, and the copy and pinned bandwidths. The GAP suite is
# built beforehand (its code and build are not part of this folder).
set -u
cd "$(dirname "$0")/.."
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1
O=${OUT:-gpu-out}; R="$work/sssp"; rm -rf "$R"; mkdir -p "$O" "$R"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
gunzip -c gpu-bin/datasets/USA-road-d.NY.gr.gz > "$work/ny.gr" &
for spec in kron:22 urand:22 grid2d:5000 kron:24; do
  f="$work/${spec//:/-}-w"
  ( $W convert "$spec" "$f.wgr" --weights uniform:1:255 > /dev/null && $W convert "$f.wgr" "$f.wel" > /dev/null ) &
done
wait
echo "converted at $SECONDS s"; ls -la "$work" > "$R/files.txt"
for g in ny kron-22 urand-22 grid2d-5000 kron-24; do
  file="$work/$g-w.wgr"; [ $g = ny ] && file=gpu-bin/datasets/USA-road-d.NY.gr.gz
  timeout 90 $W bench "$file" --algorithm sssp --roots 16 --backend gpu --trace --json "$R/sssp-$g.json" > "$R/sssp-$g.txt" 2>&1
  echo "sssp $g rc=$? $(grep -E '^(time|end-to-end|download|relaxations per edge): ' "$R/sssp-$g.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')"
done
timeout 60 $W bench "$work/kron-22-w.wgr" --algorithm bfs --roots 4 --backend gpu > "$R/bfs-kron-22-bandwidths.txt" 2>&1
grep -E "copy bandwidth|pinned" "$R/bfs-kron-22-bandwidths.txt" | head -3
echo "warpath done at $SECONDS s"
gap() { local label=$1 limit=$2 file=$3; shift 3
  OMP_NUM_THREADS=16 timeout $limit .peers/gapbs/sssp -f "$file" -n 16 "$@" > "$R/gapbs-$label.txt" 2>&1
  echo "gapbs $label rc=$? at $SECONDS s $(grep -E 'Average Time' "$R/gapbs-$label.txt")"
}
gap ny 30 "$work/ny.gr" -d 50000
gap kron-22 60 "$work/kron-22-w.wel" -s -d 2
gap urand-22 60 "$work/urand-22-w.wel" -s -d 2
gap kron-24 150 "$work/kron-24-w.wel" -s -d 2
gap grid2d-5000 150 "$work/grid2d-5000-w.wel" -s -d 2
echo "done at $SECONDS s"
tar -czf "$O/sssp-headline.tar.gz" -C "$R" .
