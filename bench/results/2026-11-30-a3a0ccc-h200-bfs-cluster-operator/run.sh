#!/usr/bin/env bash
# At the commit in gpu-bin (a3a0ccc: the cluster BFS on operators::cluster, sssp_cluster as at
# ff61c1b): gpu_bfs; BFS by the default on the roads and grid2d:1000 (16 roots, one pass); the
# default SSSP on USA-road-d.NY once (its kernel's PTX is ff61c1b's).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
OUTDIR=${OUT:-gpu-out}; mkdir -p "$OUTDIR"
OUT=$work/runs run_folder bfs-cluster-operator
R="$out"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
$W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny.wgr" > /dev/null &
$W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux.wgr" > /dev/null &
$W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads.wgr" > /dev/null &
$W convert grid2d:1000 "$work/grid2d-1000.wgr" > /dev/null &
place_cli_for_tests
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
timeout 150 gpu-bin/tests/gpu_bfs --test-threads 1 > "$R/gpu_bfs.txt" 2>&1
echo "gpu_bfs rc=$? at $SECONDS s: $(grep -E '^test result' "$R/gpu_bfs.txt" | tail -1)"
grep -E "panicked|FAILED" "$R/gpu_bfs.txt" | head -10
wait
for g in ny usroads lux grid2d-1000; do
  timeout 20 $W bench "$work/$g.wgr" --roots 16 --backend gpu > "$R/$g.txt" 2>&1
  echo "$g rc=$? $(grep -E '^(gpu kernel|time): ' "$R/$g.txt" | sed 's/ (.*//; s/min [^,]*, //; s/, max.*//' | tr '\n' ' ')" | tee -a "$R/table.txt"
done
timeout 20 $W bench gpu-bin/datasets/USA-road-d.NY.gr.gz --algorithm sssp --roots 16 --backend gpu > "$R/sssp-ny.txt" 2>&1
echo "sssp ny rc=$? $(grep -E '^(algorithm|time): ' "$R/sssp-ny.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')" | tee -a "$R/table.txt"
echo "done at $SECONDS s"
tar -czf "$OUTDIR/final.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
