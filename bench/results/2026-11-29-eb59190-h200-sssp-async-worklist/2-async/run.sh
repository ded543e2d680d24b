#!/usr/bin/env bash
# Entry 99, call 2: the asynchronous worklist (--fusion async) against fused rounds, and the
# new kernel's rounds against 575b6aa's kernel, under one host binary (WARPATH_KERNELS).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
place_cli_for_tests
O=${OUT:-gpu-out}; R="$work/r"; mkdir -p "$O" "$R"
W=gpu-bin/warpath; K=.peers/k
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } > "$R/machine.txt" 2>&1
( $W convert grid2d:5000 "$work/grid.wgr" --weights uniform:1:255 > /dev/null ) &
( $W convert kron:22 "$work/kron.wgr" --weights uniform:1:255 > /dev/null ) &
WARPATH_KERNELS=$K/new.cubin timeout 150 gpu-bin/tests/gpu_sssp --test-threads=1 > "$R/gpu-sssp-tests.log" 2>&1
echo "gpu_sssp rc=$? at $SECONDS s"; grep "test result" "$R/gpu-sssp-tests.log"; grep -A12 panicked "$R/gpu-sssp-tests.log" | head -30
NY=gpu-bin/datasets/USA-road-d.NY.gr.gz
run() { local label=$1 kern=$2 file=$3; shift 3
  WARPATH_KERNELS=$K/$kern.cubin timeout 60 $W bench "$file" --algorithm sssp --backend gpu "$@" > "$R/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(time|relaxations per edge): ' "$R/$label.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')"
}
for pass in 1 2; do
  tr=""; [ $pass = 1 ] && tr="--trace"
  run ny-old-rounds-$pass old $NY --roots 16 $tr
  run ny-new-rounds-$pass new $NY --roots 16 $tr
  run ny-new-async-$pass new $NY --roots 16 --fusion async $tr
  run ny-new-off-$pass new $NY --roots 16 --fusion off
done
run ny-async-ds new $NY --roots 16 --fusion async --sssp-strategy delta-stepping
wait
echo "generated at $SECONDS s"
for pass in 1 2; do
  tr=""; [ $pass = 1 ] && tr="--trace"
  run grid-old-rounds-$pass old "$work/grid.wgr" --roots 8 $tr
  run grid-new-rounds-$pass new "$work/grid.wgr" --roots 8 $tr
  run grid-new-async-$pass new "$work/grid.wgr" --roots 8 --fusion async $tr
  run kron-old-$pass old "$work/kron.wgr" --roots 16
  run kron-new-$pass new "$work/kron.wgr" --roots 16
done
echo "done at $SECONDS s"
tar -czf "$O/exp99a.tar.gz" -C "$R" .
