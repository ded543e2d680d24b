#!/usr/bin/env bash
# Issue 51 item 2 at the commit in gpu-bin: gpu_bfs (the cluster kernel against the CPU
# reference on every graph and dataset), then BFS by the cluster against auto's pick
# (contract-expand) on USA-road-d.NY, usroads-48, luxembourg_osm, grid2d:1000/2000/5000 and
# kron:20 (16 roots, 8 on grid2d:5000, two interleaved passes), traced; the GAP suite's BFS on
# NY in the same call (built here beforehand; its code and build are not part of the results).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
OUTDIR=${OUT:-gpu-out}; mkdir -p "$OUTDIR"
OUT=$work/runs run_folder bfs-cluster
R="$out"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
make -C .peers/gapbs -j16 bfs > "$work/build-gapbs.log" 2>&1 &
gunzip -c gpu-bin/datasets/USA-road-d.NY.gr.gz > "$work/ny.gr" &
$W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny.wgr" > /dev/null &
$W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux.wgr" > /dev/null &
$W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads.wgr" > /dev/null &
for s in 1000 2000 5000; do $W convert grid2d:$s "$work/grid2d-$s.wgr" > /dev/null & done
$W convert kron:20 "$work/kron-20.wgr" > /dev/null &
place_cli_for_tests
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
timeout ${TEST_LIMIT:-240} gpu-bin/tests/gpu_bfs --test-threads 1 > "$R/gpu_bfs.txt" 2>&1
echo "gpu_bfs rc=$? at $SECONDS s: $(grep -E '^test result' "$R/gpu_bfs.txt" | tail -1)"
grep -E "panicked|FAILED" "$R/gpu_bfs.txt" | head -10
wait
med() { grep -E '^(time|levels|depth): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
for pass in 1 2; do
  for g in ny usroads lux grid2d-1000 grid2d-2000 kron-20; do
    for k in cluster auto; do
      timeout 60 $W bench "$work/$g.wgr" --roots 16 --backend gpu --gpu-kernel $k --trace > "$R/$g-$k-$pass.txt" 2>&1
      echo "$g $k pass $pass rc=$? $(med "$R/$g-$k-$pass.txt")" | tee -a "$R/table.txt"
    done
  done
done
for k in cluster auto; do
  timeout 60 $W bench "$work/grid2d-5000.wgr" --roots 8 --backend gpu --gpu-kernel $k --trace > "$R/grid2d-5000-$k.txt" 2>&1
  echo "grid2d-5000 $k rc=$? $(med "$R/grid2d-5000-$k.txt")" | tee -a "$R/table.txt"
done
echo "gapbs built: $(ls .peers/gapbs/bfs 2>&1)"
OMP_NUM_THREADS=16 timeout 60 .peers/gapbs/bfs -f "$work/ny.gr" -s -n 16 > "$R/gapbs-bfs-ny.txt" 2>&1
echo "gapbs bfs ny rc=$? $(grep -E 'Average Time' "$R/gapbs-bfs-ny.txt") $(python3 .peers/trial_median.py < "$R/gapbs-bfs-ny.txt")" | tee -a "$R/table.txt"
echo "done at $SECONDS s"
tar -czf "$OUTDIR/final.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
