#!/usr/bin/env bash
# Entry 99, call 3: far-pile marks claimed together (far.cubin) in rounds and in the
# asynchronous worklist, against 575b6aa's kernel (old.cubin) and call 2's (new.cubin).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
place_cli_for_tests
O=${OUT:-gpu-out}; R="$work/r"; mkdir -p "$O" "$R"
W=gpu-bin/warpath; K=.peers/k
( $W convert grid2d:5000 "$work/grid.wgr" --weights uniform:1:255 > /dev/null ) &
( $W convert kron:22 "$work/kron.wgr" --weights uniform:1:255 > /dev/null ) &
WARPATH_KERNELS=$K/far.cubin timeout 100 gpu-bin/tests/gpu_sssp --test-threads=1 fusion > "$R/gpu-sssp-tests.log" 2>&1
echo "gpu_sssp fusion rc=$? at $SECONDS s"; grep "test result" "$R/gpu-sssp-tests.log"; grep -A12 panicked "$R/gpu-sssp-tests.log" | head -30
NY=gpu-bin/datasets/USA-road-d.NY.gr.gz
for f in rounds async; do for s in near-far delta-stepping; do
  WARPATH_KERNELS=$K/far.cubin timeout 30 $W sssp $NY --fusion $f --strategy $s --verify > "$R/verify-$f-$s.txt" 2>&1
  echo "verify $f $s rc=$? $(grep -E '^verified' "$R/verify-$f-$s.txt")"
done; done
run() { local label=$1 kern=$2 file=$3; shift 3
  WARPATH_KERNELS=$K/$kern.cubin timeout 60 $W bench "$file" --algorithm sssp --backend gpu "$@" > "$R/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(time|relaxations per edge): ' "$R/$label.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')"
}
for pass in 1 2; do
  tr=""; [ $pass = 1 ] && tr="--trace"
  run ny-old-rounds-$pass old $NY --roots 16 $tr
  run ny-far-rounds-$pass far $NY --roots 16 $tr
  run ny-far-async-$pass far $NY --roots 16 --fusion async $tr
  run ny-new-async-$pass new $NY --roots 16 --fusion async
done
wait
echo "generated at $SECONDS s"
for pass in 1 2; do
  tr=""; [ $pass = 1 ] && tr="--trace"
  run grid-old-rounds-$pass old "$work/grid.wgr" --roots 8 $tr
  run grid-far-rounds-$pass far "$work/grid.wgr" --roots 8 $tr
  run kron-old-$pass old "$work/kron.wgr" --roots 16
  run kron-far-$pass far "$work/kron.wgr" --roots 16
done
echo "done at $SECONDS s"
tar -czf "$O/exp99b.tar.gz" -C "$R" .
