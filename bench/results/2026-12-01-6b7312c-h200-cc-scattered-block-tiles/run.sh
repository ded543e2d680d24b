#!/usr/bin/env bash
# Session 2026-12-01 (seventh), call G2, at the commit in gpu-bin/COMMIT: gpu_cc while the graphs
# convert; then CC's scattered rounds in a block's tiles of 256 ids (this commit) against a warp's
# tiles of 32 (0caf3ee's kernel, WARPATH_KERNELS, the same host) and by id, interleaved, two
# passes, 16 trials.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder cc-scattered-block-tiles; K="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; free -g | head -2; } > "$K/machine.txt" 2>&1
pack() { tar -czf "$O/call-g2.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
WARP_TILES=$PWD/.carry/old/0caf3ee-kernels.cubin
export WARPATH_REQUIRE_GPU=1
for spec in kron:22 urand:22 grid2d:5000 grid2d:2000 grid2d:1000; do ( $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null ) & done
place_cli_for_tests
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 200 gpu-bin/tests/gpu_cc --test-threads 1 > "$K/gpu_cc.txt" 2>&1
  echo "gpu_cc rc=$? at $SECONDS s: $(grep -E '^test result' "$K/gpu_cc.txt" | tail -1)" | tee -a "$K/summary.txt"
  grep -E "panicked|FAILED" "$K/gpu_cc.txt" | head -6 )
wait
echo "converted at $SECONDS s" | tee -a "$K/summary.txt"
pack
bk() { local g=$1 label=$2 trials=$3; shift 3
  local name; name=$(basename "${g%%.*}")
  timeout 60 $W bench "$g" --algorithm cc --trials "$trials" "$@" --json "$K/$name-$label.json" > "$K/$name-$label.txt" 2>&1
  echo "$name $label rc=$? at $SECONDS s | $(grep -E '^time: ' "$K/$name-$label.txt" | head -1) | $(grep -A4 'phases of run 1' "$K/$name-$label.txt" | sed -n '3p;4p' | tr -s ' ' | tr '\n' ' ')" | tee -a "$K/summary.txt"
  pack
}
for pass in 1 2; do
  for g in grid2d-5000 grid2d-2000 grid2d-1000 kron-22 urand-22; do
    bk "$work/$g.wgr" block-tiles-$pass 16 --round-order scattered
    WARPATH_KERNELS=$WARP_TILES bk "$work/$g.wgr" warp-tiles-$pass 16 --round-order scattered
    bk "$work/$g.wgr" ids-$pass 16 --round-order ids
  done
done
echo "done at $SECONDS s" | tee -a "$K/summary.txt"
pack
