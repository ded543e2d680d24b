#!/usr/bin/env bash
# Session 2026-12-01 (seventh), call G3, at the commit in gpu-bin/COMMIT: gpu_cc while the graphs
# convert; then CC with checked swaps on (the default) and off, and 6b7312c's kernel (before the
# check; WARPATH_KERNELS, the same host), interleaved, two passes, 16 trials.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder cc-checked-swaps; K="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; free -g | head -2; } > "$K/machine.txt" 2>&1
pack() { tar -czf "$O/call-g3.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
BEFORE=$PWD/.carry/old/6b7312c-kernels.cubin
export WARPATH_REQUIRE_GPU=1
for spec in kron:22 urand:22 kron:24 grid2d:5000; do ( $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null ) & done
$W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null &
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
  echo "$name $label rc=$? at $SECONDS s | $(grep -E '^time: ' "$K/$name-$label.txt" | head -1) | $(grep -A5 'phases of run 1' "$K/$name-$label.txt" | sed -n '3,5p' | tr -s ' ' | tr '\n' ' ')" | tee -a "$K/summary.txt"
  pack
}
for pass in 1 2; do
  for g in kron-22 urand-22 kron-24 grid2d-5000 ny-u; do
    bk "$work/$g.wgr" checked-$pass 16
    bk "$work/$g.wgr" unchecked-$pass 16 --checked-swaps off
    WARPATH_KERNELS=$BEFORE bk "$work/$g.wgr" 6b7312c-$pass 16 --checked-swaps off
  done
done
for g in kron-22 urand-22 ny-u; do
  timeout 60 $W cc "$work/$g.wgr" --verify > "$K/verify-$g.txt" 2>&1
  echo "verify $g rc=$? $(grep -i verified "$K/verify-$g.txt" | head -1)" | tee -a "$K/summary.txt"
done
echo "done at $SECONDS s" | tee -a "$K/summary.txt"
pack
