#!/usr/bin/env bash
# Issue 51 experiment at ba481d3: gpu_sssp's tests; then on NY, kron:22, urand:22, grid2d:5000
# the new kernel with fixed widths, b5e3dad's kernel (WARPATH_KERNELS, same host), and adaptive
# widths, interleaved twice; kron:24 fixed and adaptive; a BFS bench for the bandwidths.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
place_cli_for_tests
O=${OUT:-gpu-out}/exp; mkdir -p "$O"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$O/machine.txt" 2>&1
for spec in kron:22 urand:22 grid2d:5000 kron:24; do
  f="$work/${spec//:/-}"; [ -f "$f.wgr" ] || $W convert "$spec" "$f.wgr" --weights uniform:1:255 > /dev/null &
done
timeout 240 gpu-bin/tests/gpu_sssp --test-threads=1 > "$O/sssp-tests.log" 2>&1
echo "gpu_sssp rc=$? at $SECONDS s"; grep "test result" "$O/sssp-tests.log"; grep -A12 panicked "$O/sssp-tests.log" | head -30
wait
echo "converted at $SECONDS s"
run() { local label=$1 file=$2; shift 2
  timeout 100 $W bench "$file" --algorithm sssp --roots 16 --backend gpu --json "$O/$label.json" "$@" > "$O/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(time|end-to-end|download|relaxations per edge): ' "$O/$label.txt" | tr '\n' ' ')"
}
for g in ny kron-22 urand-22 grid2d-5000; do
  file="$work/$g.wgr"; [ $g = ny ] && file=gpu-bin/datasets/USA-road-d.NY.gr.gz
  for k in 1 2; do
    run "$g-fixed-$k" "$file" $([ $k = 1 ] && echo --trace)
    WARPATH_KERNELS=.carry/old.cubin run "$g-old-$k" "$file"
    run "$g-adaptive-$k" "$file" --delta-width adaptive $([ $k = 1 ] && echo --trace)
  done
done
run kron-24-fixed "$work/kron-24.wgr" --trace
run kron-24-adaptive "$work/kron-24.wgr" --delta-width adaptive --trace
timeout 60 $W bench "$work/kron-22.wgr" --algorithm bfs --roots 4 --backend gpu --trace > "$O/bfs-kron-22.txt" 2>&1
grep -iE "bandwidth|pinned" "$O/bfs-kron-22.txt" | head -6
echo "done at $SECONDS s"
tar -C "$O/.." -czf /tmp/exp.tgz exp && rm -rf "$O" && mv /tmp/exp.tgz "${OUT:-gpu-out}/"
