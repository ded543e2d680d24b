#!/usr/bin/env bash
# Entry 99, call 5: middling steps on a team of blocks (--team-blocks N), swept on the road and
# the grid, against 575b6aa's kernel (old.cubin) and fused rounds.
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
NY=gpu-bin/datasets/USA-road-d.NY.gr.gz
for t in 8 32; do for s in near-far delta-stepping; do
  WARPATH_KERNELS=$K/team.cubin timeout 30 $W sssp $NY --team-blocks $t --strategy $s --verify > "$R/verify-$t-$s.txt" 2>&1
  echo "verify team $t $s rc=$? $(grep -E '^verified' "$R/verify-$t-$s.txt")"
done; done
run() { local label=$1 kern=$2 file=$3; shift 3
  WARPATH_KERNELS=$K/$kern.cubin timeout 60 $W bench "$file" --algorithm sssp --backend gpu "$@" > "$R/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(time|relaxations per edge): ' "$R/$label.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')"
}
for pass in 1 2; do
  tr=""; [ $pass = 1 ] && tr="--trace"
  run ny-old-$pass old $NY --roots 16 $tr
  run ny-team0-$pass team $NY --roots 16 $tr
  for t in 2 4 8 16 32 64; do run ny-team$t-$pass team $NY --roots 16 --team-blocks $t $tr; done
done
WARPATH_KERNELS=$K/team.cubin timeout 150 gpu-bin/tests/gpu_sssp --test-threads=1 > "$R/gpu-sssp-tests.log" 2>&1
echo "gpu_sssp rc=$? at $SECONDS s"; grep "test result" "$R/gpu-sssp-tests.log"; grep -A12 panicked "$R/gpu-sssp-tests.log" | head -30
wait
echo "generated at $SECONDS s"
run grid-old-1 old "$work/grid.wgr" --roots 8 --trace
run grid-team0-1 team "$work/grid.wgr" --roots 8 --trace
for t in 8 32; do run grid-team$t-1 team "$work/grid.wgr" --roots 8 --team-blocks $t --trace; done
run kron-old-1 old "$work/kron.wgr" --roots 16
run kron-team-1 team "$work/kron.wgr" --roots 16
echo "done at $SECONDS s"
tar -czf "$O/exp99d.tar.gz" -C "$R" .
