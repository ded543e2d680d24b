#!/usr/bin/env bash
# Entry 105, call A: fused rounds whose entries carry their lists, and no 64-bit division on
# near pushes: gpu_sssp at the new build; NY, grid2d:5000 and kron:22 SSSP, old (.carry, fb8df70)
# against new (.carry/new), alternating, 16 roots; NY's fusion variants; NY traced.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin old && mkdir old && tar -xJf .carry/gpubin.tar.xz -C old && tar -xJf .carry/new.tar.xz
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1
O=${OUT:-gpu-out}/r105; mkdir -p "$O"
{ cat gpu-bin/COMMIT old/gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } > "$O/machine.txt" 2>&1
NY=.carry/datasets/USA-road-d.NY.gr.gz
( gpu-bin/warpath convert grid2d:5000 "$work/grid.wgr" --weights uniform:1:255 > /dev/null ) &
( gpu-bin/warpath convert kron:22 "$work/kron22.wgr" --weights uniform:1:255 > /dev/null ) &
timeout 200 gpu-bin/tests/gpu_sssp --test-threads 1 > "$O/gpu_sssp.txt" 2>&1
echo "gpu_sssp rc=$? $(grep -E '^test result' "$O/gpu_sssp.txt")"
wait
b() { local label=$1 bin=$2 file=$3; shift 3
  timeout 60 $bin bench "$file" --algorithm sssp --roots 16 --backend gpu "$@" > "$O/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(time|relaxations per edge): ' "$O/$label.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')"
}
for rep in 1 2; do
  b ny-old-$rep old/gpu-bin/warpath $NY
  b ny-new-$rep gpu-bin/warpath $NY
done
for f in off rounds async; do b ny-new-fusion-$f gpu-bin/warpath $NY --fusion $f; b ny-old-fusion-$f old/gpu-bin/warpath $NY --fusion $f; done
for d in 60000 120000; do b ny-new-delta-$d gpu-bin/warpath $NY --delta $d; b ny-old-delta-$d old/gpu-bin/warpath $NY --delta $d; done
b ny-new-trace gpu-bin/warpath $NY --trace
b grid-old old/gpu-bin/warpath "$work/grid.wgr"
b grid-new gpu-bin/warpath "$work/grid.wgr"
b kron22-old old/gpu-bin/warpath "$work/kron22.wgr"
b kron22-new gpu-bin/warpath "$work/kron22.wgr"
echo "done at $SECONDS s"
cd "${OUT:-gpu-out}" && tar -czf r105.tgz r105 && rm -rf r105
