#!/usr/bin/env bash
# Issue 51: near-far on one Hopper thread-block cluster (--strategy cluster). gpu_sssp (every
# strategy against Dijkstra, the cluster one included), then USA-road-d.NY and grid2d:5000
# (weights 1..255): near-far against cluster, traced, two interleaved passes, and a delta sweep.
set -u
cd "$(dirname "$0")/.."
[ -x gpu-bin/warpath ] || { rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/; }
. scripts/gpu-common
O=${OUT:-gpu-out}; R="$work/cluster"; rm -rf "$R"; mkdir -p "$O" "$R"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } > "$R/machine.txt" 2>&1
[ -f "$work/grid2d-5000-w.wgr" ] || $W convert grid2d:5000 "$work/grid2d-5000-w.wgr" --weights uniform:1:255 > /dev/null &
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS=gpu-bin/datasets timeout 300 gpu-bin/tests/gpu_sssp --test-threads 1 > "$R/gpu_sssp.txt" 2>&1
  echo "gpu_sssp rc=$? at $SECONDS s: $(grep -E '^test result' "$R/gpu_sssp.txt")"
  grep -E "panicked|FAILED|failed" "$R/gpu_sssp.txt" | head -20
fi
wait
med() { grep -E '^(time|end-to-end|relaxations per edge): ' "$1" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' '; }
NY=gpu-bin/datasets/USA-road-d.NY.gr.gz
for pass in 1 2; do
  for s in near-far cluster; do
    timeout 60 $W bench $NY --algorithm sssp --roots 16 --backend gpu --sssp-strategy $s --trace > "$R/ny-$s-$pass.txt" 2>&1
    echo "ny $s pass $pass rc=$? $(med "$R/ny-$s-$pass.txt")"
  done
done
for d in 15000 60000 120000; do
  timeout 60 $W bench $NY --algorithm sssp --roots 16 --backend gpu --sssp-strategy cluster --delta $d > "$R/ny-cluster-d$d.txt" 2>&1
  echo "ny cluster delta $d rc=$? $(med "$R/ny-cluster-d$d.txt")"
done
echo "ny done at $SECONDS s"
G="$work/grid2d-5000-w.wgr"
for pass in 1 2; do
  for s in near-far cluster; do
    timeout 120 $W bench $G --algorithm sssp --roots 8 --backend gpu --sssp-strategy $s --trace > "$R/grid-$s-$pass.txt" 2>&1
    echo "grid $s pass $pass rc=$? $(med "$R/grid-$s-$pass.txt")"
  done
done
echo "done at $SECONDS s"
tar -czf "$O/cluster.tar.gz" -C "$R" .
