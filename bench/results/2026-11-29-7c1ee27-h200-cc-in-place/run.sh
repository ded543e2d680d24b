#!/usr/bin/env bash
# Connected components read back in place (bench/NOTES.md 108): warpath's default CC, 16
# trials, kernel time, end to end and the labels' download, on USA-road-d.NY (undirected),
# kron:22, urand:22, kron:24 and grid2d:5000, and the pinned bandwidth of the same call.
set -u
cd "$(dirname "$0")/.."
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1
O=${OUT:-gpu-out}; R="$work/cc-inplace"; rm -rf "$R"; mkdir -p "$O" "$R"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
[ -f "$work/ny-u.wgr" ] || $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null &
for spec in kron:22 urand:22 kron:24 grid2d:5000; do [ -f "$work/${spec//:/-}.wgr" ] || $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null & done
wait
echo "converted at $SECONDS s"
for g in ny-u kron-22 urand-22 kron-24 grid2d-5000; do
  timeout 60 $W bench "$work/$g.wgr" --algorithm cc --trials 16 --backend gpu --json "$R/cc-$g.json" > "$R/cc-$g.txt" 2>&1
  echo "cc $g rc=$? $(grep -E '^(time|end-to-end|download): ' "$R/cc-$g.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')"
done
timeout 60 $W bench "$work/kron-22.wgr" --algorithm bfs --roots 4 --backend gpu > "$R/bfs-kron-22-bandwidths.txt" 2>&1
grep -E "pinned" "$R/bfs-kron-22-bandwidths.txt" | head -3
echo "done at $SECONDS s"
tar -czf "$O/cc-inplace.tar.gz" -C "$R" .
