#!/usr/bin/env bash
# Issue 51 experiment at 7e1a6d3: gpu_sssp's tests (recycled vectors); kron:22 and NY end to
# end with recycled vectors; NY's adaptive-width variants (v1: widen below 4,096 a round,
# narrow past 3 relaxations an edge; v2: widen every bucket to 16x) against fixed widths of 1,
# 2, 4 and 8 times the default delta, interleaved twice.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
place_cli_for_tests
O=${OUT:-gpu-out}/exp2; mkdir -p "$O"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$O/machine.txt" 2>&1
f="$work/kron-22"; [ -f "$f.wgr" ] || $W convert kron:22 "$f.wgr" --weights uniform:1:255 > /dev/null &
timeout 200 gpu-bin/tests/gpu_sssp --test-threads=1 > "$O/sssp-tests.log" 2>&1
echo "gpu_sssp rc=$? at $SECONDS s"; grep "test result" "$O/sssp-tests.log"; grep -A12 panicked "$O/sssp-tests.log" | head -30
wait
run() { local label=$1 file=$2; shift 2
  timeout 100 $W bench "$file" --algorithm sssp --roots 16 --backend gpu --json "$O/$label.json" "$@" > "$O/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(time|end-to-end|download|relaxations per edge): ' "$O/$label.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')"
}
ny=gpu-bin/datasets/USA-road-d.NY.gr.gz
run kron-22-e2e "$work/kron-22.wgr"; run kron-22-e2e-distances "$work/kron-22.wgr" --distances-only
for k in 1 2; do
  run ny-fixed-$k $ny; run ny-d2-$k $ny --delta 59936; run ny-d4-$k $ny --delta 119872; run ny-d8-$k $ny --delta 239744
  WARPATH_KERNELS=.carry/v1.cubin run ny-v1-$k $ny --delta-width adaptive $([ $k = 1 ] && echo --trace)
  WARPATH_KERNELS=.carry/v2.cubin run ny-v2-$k $ny --delta-width adaptive $([ $k = 1 ] && echo --trace)
  run ny-nearfar-$k $ny --sssp-strategy near-far
done
echo "done at $SECONDS s"
tar -C "$O/.." -czf /tmp/exp2.tgz exp2 && rm -rf "$O" && mv /tmp/exp2.tgz "${OUT:-gpu-out}/"
