#!/usr/bin/env bash
# e79d56d: the cluster barrier without .aligned; the cluster SSSP's bitmap worklists (540ade4's
# kernel) again. gpu_sssp, gpu_bfs, gpu_cc; then SSSP --sssp-strategy cluster by e79d56d (new)
# against b1737d3's queue of entries (old) on the roads and meshes, 16 roots, traced; the default
# SSSP and BFS on NY by both; the GAP suite's SSSP on NY in the same call.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
OUTDIR=${OUT:-gpu-out}; mkdir -p "$OUTDIR"
OUT=$work/runs run_folder ${TOPIC:-sssp-cluster-bitmaps}
R="$out"
W=gpu-bin/warpath
xz -dkc .carry/x/warpath-old.xz > "$work/warpath-old"; chmod +x "$work/warpath-old"; OLD=$work/warpath-old
{ cat gpu-bin/COMMIT; echo "old: b1737d3"; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
(make -C .peers/gapbs -j16 sssp > "$work/build-gapbs.log" 2>&1; gunzip -c gpu-bin/datasets/USA-road-d.NY.gr.gz > "$work/ny.gr") &
$W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-w.wgr" > /dev/null &
$W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux-w.wgr" --weights uniform:1:255 > /dev/null &
$W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads-w.wgr" --weights uniform:1:255 > /dev/null &
for s in 1000 2000; do $W convert grid2d:$s "$work/grid2d-$s-w.wgr" --weights uniform:1:255 > /dev/null & done
place_cli_for_tests
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
for t in gpu_sssp gpu_bfs gpu_cc; do
  timeout 200 gpu-bin/tests/$t --test-threads 1 > "$R/$t.txt" 2>&1
  echo "$t rc=$? at $SECONDS s: $(grep -E '^test result' "$R/$t.txt" | tail -1)"
  grep -E "panicked|FAILED" "$R/$t.txt" | head -6
done
wait
med() { grep -E '^(time|relaxations per edge): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
for g in ny-w usroads-w lux-w grid2d-1000-w grid2d-2000-w; do
  for form in new old; do
    case $form in new) bin=$W;; old) bin=$OLD;; esac
    timeout 60 $bin bench "$work/$g.wgr" --algorithm sssp --roots 16 --backend gpu --sssp-strategy cluster --trace > "$R/$g-$form.txt" 2>&1
    echo "$g $form rc=$? $(med "$R/$g-$form.txt")" | tee -a "$R/table.txt"
  done
done
timeout 60 $W bench gpu-bin/datasets/USA-road-d.NY.gr.gz --algorithm sssp --roots 16 --backend gpu --trace --json "$R/sssp-ny.json" > "$R/sssp-ny.txt" 2>&1
echo "default sssp ny new rc=$? $(grep -E '^(algorithm|time|end-to-end|relaxations per edge): ' "$R/sssp-ny.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')" | tee -a "$R/table.txt"
OMP_NUM_THREADS=16 timeout 60 .peers/gapbs/sssp -f "$work/ny.gr" -n 16 -d 50000 > "$R/gapbs-ny.txt" 2>&1
echo "gapbs sssp ny rc=$? $(grep -E 'Average Time' "$R/gapbs-ny.txt")" | tee -a "$R/table.txt"
for form in new old; do
  case $form in new) bin=$W;; old) bin=$OLD;; esac
  timeout 60 $bin bench gpu-bin/datasets/USA-road-d.NY.gr.gz --roots 16 --backend gpu > "$R/bfs-ny-$form.txt" 2>&1
  echo "bfs ny $form rc=$? $(grep -E '^(gpu kernel|time): ' "$R/bfs-ny-$form.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')" | tee -a "$R/table.txt"
done
echo "done at $SECONDS s"
tar -czf "$OUTDIR/call-f.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
