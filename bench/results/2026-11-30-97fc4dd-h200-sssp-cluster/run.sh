#!/usr/bin/env bash
# Issue 51 at the commit in gpu-bin (the cluster kernel in its first form, 16-byte entries):
# gpu_sssp; then --strategy cluster against near-far on USA-road-d.NY, usroads-48,
# luxembourg_osm, grid2d:1000, grid2d:2000 (1..255; 16 roots, two interleaved passes) and
# grid2d:5000 (8 roots), traced.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
OUTDIR=${OUT:-gpu-out}; mkdir -p "$OUTDIR"
OUT=$work/runs run_folder sssp-cluster
R="$out"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } > "$R/machine.txt" 2>&1
$W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny.wgr" > /dev/null &
$W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux-w.wgr" --weights uniform:1:255 > /dev/null &
$W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads-w.wgr" --weights uniform:1:255 > /dev/null &
for s in 1000 2000 5000; do $W convert grid2d:$s "$work/grid2d-$s-w.wgr" --weights uniform:1:255 > /dev/null & done
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS=gpu-bin/datasets
timeout 300 gpu-bin/tests/gpu_sssp --test-threads 1 > "$R/gpu_sssp.txt" 2>&1
echo "gpu_sssp rc=$? at $SECONDS s: $(grep -E '^test result' "$R/gpu_sssp.txt" | tail -1)"
grep -E "panicked|FAILED" "$R/gpu_sssp.txt" | head -10
wait
med() { grep -E '^(time|relaxations per edge): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
delta() { grep -m1 '^trace of' "$1" | sed 's/.*(delta \([0-9.]*\)).*/\1/'; }
for pass in 1 2; do
  for g in ny usroads-w lux-w grid2d-1000-w grid2d-2000-w; do
    for s in cluster near-far; do
      timeout 90 $W bench "$work/$g.wgr" --algorithm sssp --roots 16 --backend gpu --sssp-strategy $s --trace > "$R/$g-$s-$pass.txt" 2>&1
      echo "$g $s pass $pass rc=$? $(med "$R/$g-$s-$pass.txt") delta $(delta "$R/$g-$s-$pass.txt")" | tee -a "$R/table.txt"
    done
  done
done
for s in cluster near-far; do
  timeout 120 $W bench "$work/grid2d-5000-w.wgr" --algorithm sssp --roots 8 --backend gpu --sssp-strategy $s --trace > "$R/grid2d-5000-w-$s.txt" 2>&1
  echo "grid2d-5000-w $s rc=$? $(med "$R/grid2d-5000-w-$s.txt") delta $(delta "$R/grid2d-5000-w-$s.txt")" | tee -a "$R/table.txt"
done
echo "done at $SECONDS s"
tar -czf "$OUTDIR/final.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
