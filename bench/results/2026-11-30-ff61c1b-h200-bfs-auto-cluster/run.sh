#!/usr/bin/env bash
# Issue 51 item 2 at the commit in gpu-bin (ff61c1b, auto takes the cluster): gpu_bfs and
# gpu_placement; BFS by the default (auto) on the road graphs, grids and kron:20 (16 roots,
# two passes; JSON), so that the pick and its time are what a user gets; the GAP suite's BFS on
# NY in the same call (built here beforehand; its code and build are not part of the results).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
OUTDIR=${OUT:-gpu-out}; mkdir -p "$OUTDIR"
OUT=$work/runs run_folder bfs-auto-cluster
R="$out"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
[ -x .peers/gapbs/bfs ] || make -C .peers/gapbs -j16 bfs > "$work/build-gapbs.log" 2>&1 &
[ -f "$work/ny.gr" ] || gunzip -c gpu-bin/datasets/USA-road-d.NY.gr.gz > "$work/ny.gr" &
[ -f "$work/ny.wgr" ] || $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny.wgr" > /dev/null &
[ -f "$work/lux.wgr" ] || $W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux.wgr" > /dev/null &
[ -f "$work/usroads.wgr" ] || $W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads.wgr" > /dev/null &
for s in 1000 2000; do [ -f "$work/grid2d-$s.wgr" ] || $W convert grid2d:$s "$work/grid2d-$s.wgr" > /dev/null & done
[ -f "$work/kron-20.wgr" ] || $W convert kron:20 "$work/kron-20.wgr" > /dev/null &
place_cli_for_tests
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
for t in gpu_bfs gpu_placement; do
  grep -q "^test result" "$R/$t.txt" 2>/dev/null && { echo "$t: kept from the first attempt: $(grep -E "^test result" "$R/$t.txt")"; continue; }
  timeout 240 gpu-bin/tests/$t --test-threads 1 > "$R/$t.txt" 2>&1
  echo "$t rc=$? at $SECONDS s: $(grep -E '^test result' "$R/$t.txt" | tail -1)"
  grep -E "panicked|FAILED" "$R/$t.txt" | head -10
done
wait
med() { grep -E '^(gpu kernel|time|depth): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//; s/ (.*//' | tr '\n' ' '; }
for pass in 1 2; do
  for g in ny usroads lux grid2d-1000 grid2d-2000 kron-20; do
    timeout 60 $W bench "$work/$g.wgr" --roots 16 --backend gpu --trace --json "$R/$g-$pass.json" > "$R/$g-$pass.txt" 2>&1
    echo "$g pass $pass rc=$? $(med "$R/$g-$pass.txt")" | tee -a "$R/table.txt"
  done
done
OMP_NUM_THREADS=16 timeout 60 .peers/gapbs/bfs -f "$work/ny.gr" -s -n 16 > "$R/gapbs-bfs-ny.txt" 2>&1
echo "gapbs bfs ny rc=$? $(python3 .peers/trial_median.py < "$R/gapbs-bfs-ny.txt")" | tee -a "$R/table.txt"
echo "done at $SECONDS s"
tar -czf "$OUTDIR/final.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
