#!/usr/bin/env bash
# The shortest-path headline rows at the final commit: warpath's default on the four graphs
# (16 roots, weights 1..255, NY its own lengths), the GAP suite's sssp on the same files, and
# the device's copy bandwidth from a traced BFS in the same call (the GAP suite's build left out).
set -u
. scripts/gpu-common
O=${OUT:-gpu-out}/headline; mkdir -p "$O"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$O/machine.txt" 2>&1
gunzip -c gpu-bin/datasets/USA-road-d.NY.gr.gz > "$work/ny.gr"
for spec in kron:22 urand:22 grid2d:5000; do
  f="$work/${spec//:/-}"
  [ -f "$f.wgr" ] || $W convert "$spec" "$f.wgr" --weights uniform:1:255 > /dev/null
  [ -f "$f.wel" ] || [ $spec = grid2d:5000 ] || $W convert "$f.wgr" "$f.wel" > /dev/null
done
for g in ny kron-22 urand-22 grid2d-5000; do
  file="$work/$g.wgr"; [ $g = ny ] && file=gpu-bin/datasets/USA-road-d.NY.gr.gz
  timeout 120 $W bench "$file" --algorithm sssp --roots 16 --backend gpu --trace --json "$O/sssp-$g.json" > "$O/sssp-$g.txt" 2>&1
  echo "sssp $g rc=$? $(grep -E '^time: ' "$O/sssp-$g.txt" | head -1)"
done
timeout 60 $W bench "$work/kron-22.wgr" --algorithm bfs --roots 4 --backend gpu --trace > "$O/bfs-kron-22-copy-bandwidth.txt" 2>&1
grep -E "copy bandwidth" "$O/bfs-kron-22-copy-bandwidth.txt" | head -2
wait
gap() { # LABEL FILE ARGS
  local label=$1 file=$2; shift 2
  OMP_NUM_THREADS=16 timeout 100 .peers/gapbs/sssp -f "$file" -n 16 "$@" > "$O/gapbs-$label.txt" 2>&1
  echo "gapbs $label rc=$? $(grep -E 'Average Time' "$O/gapbs-$label.txt")"
}
gap ny "$work/ny.gr" -d 50000
gap kron-22 "$work/kron-22.wel" -s -d 2
gap urand-22 "$work/urand-22.wel" -s -d 2
echo "done at $SECONDS s"
