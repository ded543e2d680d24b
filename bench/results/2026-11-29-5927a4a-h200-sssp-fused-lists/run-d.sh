#!/usr/bin/env bash
# Entry 105, call D: kernel variants by WARPATH_KERNELS, one warpath binary (fb8df70, host
# unchanged): A HEAD, G carried lists (kept), J G with the fused pushes aggregated per warp.
# NY 16 roots, three times alternating; fusion off; grid2d:5000, kron:22; gpu_sssp under J.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1
O=${OUT:-gpu-out}/r105d; mkdir -p "$O"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; md5sum .carry/var/*; } > "$O/machine.txt" 2>&1
NY=.carry/datasets/USA-road-d.NY.gr.gz
( gpu-bin/warpath convert grid2d:5000 "$work/grid.wgr" --weights uniform:1:255 > /dev/null ) &
( gpu-bin/warpath convert kron:22 "$work/kron22.wgr" --weights uniform:1:255 > /dev/null ) &
WARPATH_KERNELS=.carry/var/J.cubin timeout 200 gpu-bin/tests/gpu_sssp --test-threads 1 > "$O/gpu_sssp-J.txt" 2>&1
echo "gpu_sssp J rc=$? $(grep -E '^test result' "$O/gpu_sssp-J.txt")"
wait
b() { local label=$1 v=$2 file=$3; shift 3
  WARPATH_KERNELS=.carry/var/$v.cubin timeout 60 gpu-bin/warpath bench "$file" --algorithm sssp --roots 16 --backend gpu "$@" > "$O/$label-$v.txt" 2>&1
  echo "$label $v rc=$? $(grep -E '^(time|relaxations per edge): ' "$O/$label-$v.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')"
}
for rep in 1 2 3; do for v in A G J; do b ny-$rep $v $NY; done; done
for v in A J; do b ny-off $v $NY --fusion off; done

for v in J; do b ny-trace $v $NY --trace; done
for v in A J G; do b grid $v "$work/grid.wgr"; done
for v in A J; do b kron22 $v "$work/kron22.wgr"; done
echo "done at $SECONDS s"
cd "${OUT:-gpu-out}" && tar -czf r105d.tgz r105d && rm -rf r105d
