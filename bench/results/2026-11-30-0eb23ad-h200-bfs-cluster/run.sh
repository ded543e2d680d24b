#!/usr/bin/env bash
# Issue 51 item 2 at the commit in gpu-bin (0eb23ad): gpu_bfs; then the cluster BFS in three
# forms (warpath-a: de84f78's; warpath-e: d28fadb's, warps adding their counts remotely, list
# bounds in shared memory, labels stored before the first targets' loads; warpath: 0eb23ad, labels
# after them, block sums by redux.sync) against auto's pick, on the road graphs and grids (16
# roots, two interleaved passes), traced; the GAP suite's BFS on NY in the same call.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
OUTDIR=${OUT:-gpu-out}; mkdir -p "$OUTDIR"
OUT=$work/runs run_folder bfs-cluster-chain
R="$out"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
[ -x .peers/gapbs/bfs ] || make -C .peers/gapbs -j16 bfs > "$work/build-gapbs.log" 2>&1 &
[ -f "$work/ny.gr" ] || gunzip -c gpu-bin/datasets/USA-road-d.NY.gr.gz > "$work/ny.gr" &
[ -f "$work/ny.wgr" ] || $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny.wgr" > /dev/null &
[ -f "$work/lux.wgr" ] || $W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux.wgr" > /dev/null &
[ -f "$work/usroads.wgr" ] || $W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads.wgr" > /dev/null &
for s in 1000 2000; do [ -f "$work/grid2d-$s.wgr" ] || $W convert grid2d:$s "$work/grid2d-$s.wgr" > /dev/null & done
place_cli_for_tests
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
timeout 240 gpu-bin/tests/gpu_bfs --test-threads 1 > "$R/gpu_bfs.txt" 2>&1
echo "gpu_bfs rc=$? at $SECONDS s: $(grep -E '^test result' "$R/gpu_bfs.txt" | tail -1)"
grep -E "panicked|FAILED" "$R/gpu_bfs.txt" | head -10
wait
med() { grep -E '^(time|depth): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
for pass in 1 2; do
  for g in ny usroads lux grid2d-1000 grid2d-2000; do
    for form in a e final auto; do
      case $form in a) bin=gpu-bin/warpath-a; k=cluster;; e) bin=gpu-bin/warpath-e; k=cluster;; final) bin=$W; k=cluster;; auto) bin=$W; k=auto;; esac
      timeout 60 $bin bench "$work/$g.wgr" --roots 16 --backend gpu --gpu-kernel $k --trace > "$R/$g-$form-$pass.txt" 2>&1
      echo "$g $form pass $pass rc=$? $(med "$R/$g-$form-$pass.txt")" | tee -a "$R/table.txt"
    done
  done
done
OMP_NUM_THREADS=16 timeout 60 .peers/gapbs/bfs -f "$work/ny.gr" -s -n 16 > "$R/gapbs-bfs-ny.txt" 2>&1
echo "gapbs bfs ny rc=$? $(python3 .peers/trial_median.py < "$R/gapbs-bfs-ny.txt")" | tee -a "$R/table.txt"
echo "done at $SECONDS s"
tar -czf "$OUTDIR/final.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
