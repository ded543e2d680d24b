#!/usr/bin/env bash
# Issue 51 at the commit in gpu-bin: `auto` the default strategy. gpu_sssp, then the default
# (no --sssp-strategy) on the six graphs of NOTES 115: which strategy it names and its time.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
OUTDIR=${OUT:-gpu-out}; mkdir -p "$OUTDIR"
OUT=$work/runs run_folder sssp-auto
R="$out"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } > "$R/machine.txt" 2>&1
$W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny.wgr" > /dev/null &
$W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux-w.wgr" --weights uniform:1:255 > /dev/null &
$W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads-w.wgr" --weights uniform:1:255 > /dev/null &
for s in 1000 2000 5000; do $W convert grid2d:$s "$work/grid2d-$s-w.wgr" --weights uniform:1:255 > /dev/null & done
$W convert kron:22 "$work/kron-22-w.wgr" --weights uniform:1:255 > /dev/null &
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS=gpu-bin/datasets
timeout 300 gpu-bin/tests/gpu_sssp --test-threads 1 > "$R/gpu_sssp.txt" 2>&1
echo "gpu_sssp rc=$? at $SECONDS s: $(grep -E '^test result' "$R/gpu_sssp.txt" | tail -1)"
grep -E "panicked|FAILED" "$R/gpu_sssp.txt" | head -10
wait
med() { grep -E '^(time|relaxations per edge): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
for g in ny usroads-w lux-w grid2d-1000-w grid2d-2000-w grid2d-5000-w kron-22-w; do
  roots=16; [ $g = grid2d-5000-w ] && roots=8
  timeout 120 $W bench "$work/$g.wgr" --algorithm sssp --roots $roots --backend gpu --trace > "$R/$g-default.txt" 2>&1
  echo "$g default rc=$? $(grep -m1 '^algorithm' "$R/$g-default.txt") $(med "$R/$g-default.txt")" | tee -a "$R/table.txt"
done
timeout 60 $W sssp "$work/ny.wgr" --source 1 --backend gpu --verify > "$R/ny-sssp-cli.txt" 2>&1
echo "sssp cli rc=$? $(grep -E '^(algorithm|verified)' "$R/ny-sssp-cli.txt" | tr '\n' ' ')" | tee -a "$R/table.txt"
echo "done at $SECONDS s"
tar -czf "$OUTDIR/auto.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
