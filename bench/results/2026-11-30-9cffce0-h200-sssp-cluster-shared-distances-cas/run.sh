#!/usr/bin/env bash
# Distances in distributed shared memory for the cluster SSSP (issue 51): gpu_sssp, gpu_bfs,
# gpu_cc at the build in gpu-bin; compute-sanitizer on the new layouts; then --sssp-strategy
# cluster with --cluster-distances shared against global on the roads and meshes, 16 roots, two
# interleaved passes, traced; the default SSSP on NY and the GAP suite's SSSP on NY in the same call.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
OUTDIR=${OUT:-gpu-out}; mkdir -p "$OUTDIR"
OUT=$work/runs run_folder ${TOPIC:-sssp-cluster-shared-distances-cas}
R="$out"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
(make -C .peers/gapbs -j16 sssp > "$work/build-gapbs.log" 2>&1; gunzip -c gpu-bin/datasets/USA-road-d.NY.gr.gz > "$work/ny.gr") &
$W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-w.wgr" > /dev/null &
$W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux-w.wgr" --weights uniform:1:255 > /dev/null &
$W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads-w.wgr" --weights uniform:1:255 > /dev/null &
for s in 300 500 1000; do $W convert grid2d:$s "$work/grid2d-$s-w.wgr" --weights uniform:1:255 > /dev/null & done
place_cli_for_tests
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
san=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
for g in grid2d:64 grid2d:500; do
  for tool in memcheck synccheck; do
    timeout 90 $san --tool $tool --error-exitcode 9 $W sssp $g --backend gpu --strategy cluster --verify > "$R/sanitize-$tool-$g.txt" 2>&1
    echo "sanitizer $tool $g rc=$? $(grep -E 'ERROR SUMMARY|verified' "$R/sanitize-$tool-$g.txt" | tr '\n' ' ')"
  done
done
for t in gpu_sssp; do
  timeout 200 gpu-bin/tests/$t --test-threads 1 > "$R/$t.txt" 2>&1
  echo "$t rc=$? at $SECONDS s: $(grep -E '^test result' "$R/$t.txt" | tail -1)"
  grep -E "panicked|FAILED" "$R/$t.txt" | head -6
done
wait
med() { grep -E '^(time|relaxations per edge): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
for pass in 1 2; do
  for g in ny-w usroads-w lux-w grid2d-300-w grid2d-500-w grid2d-1000-w; do
    for form in shared global old; do
      case $form in old) env="WARPATH_HOPPER_KERNELS=.carry/x/hopper-b2e5a58.ptx"; where=global;; *) env=; where=$form;; esac
      env $env timeout 60 $W bench "$work/$g.wgr" --algorithm sssp --roots 16 --backend gpu --sssp-strategy cluster --cluster-distances $where --trace > "$R/$g-$form-$pass.txt" 2>&1
      echo "$g $form pass $pass rc=$? $(med "$R/$g-$form-$pass.txt")" | tee -a "$R/table.txt"
    done
  done
done
for g in ny-w usroads-w lux-w grid2d-500-w; do
  timeout 60 $W sssp "$work/$g.wgr" --backend gpu --strategy cluster --verify > "$R/verify-$g.txt" 2>&1
  echo "verify $g rc=$? $(grep -iE 'verified|error' "$R/verify-$g.txt" | head -1)"
done
timeout 60 $W bench gpu-bin/datasets/USA-road-d.NY.gr.gz --algorithm sssp --roots 16 --backend gpu --trace --json "$R/sssp-ny.json" > "$R/sssp-ny.txt" 2>&1
echo "default sssp ny rc=$? $(grep -E '^(algorithm|time|end-to-end|relaxations per edge): ' "$R/sssp-ny.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')" | tee -a "$R/table.txt"
OMP_NUM_THREADS=16 timeout 60 .peers/gapbs/sssp -f "$work/ny.gr" -n 16 -d 50000 > "$R/gapbs-ny.txt" 2>&1
echo "gapbs sssp ny rc=$? $(grep -E 'Average Time' "$R/gapbs-ny.txt")" | tee -a "$R/table.txt"
echo "done at $SECONDS s"
tar -czf "$OUTDIR/call-l.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
