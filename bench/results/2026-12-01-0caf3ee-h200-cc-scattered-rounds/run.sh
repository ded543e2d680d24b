#!/usr/bin/env bash
# Session 2026-12-01 (seventh), call G1, at the commit in gpu-bin/COMMIT: gpu_cc (the scattered
# neighbor rounds among its option sets) while the graphs convert; then CC with the rounds by id,
# scattered, and be48d4b's kernel (WARPATH_KERNELS, the same host, by id), interleaved, two
# passes, 16 trials; `cc --verify` scattered; kron:26 under a 6 GB budget (issue 52's target).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder cc-scattered-rounds; K="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; free -g | head -2; } > "$K/machine.txt" 2>&1
pack() { tar -czf "$O/call-g1.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
OLD=$PWD/.carry/old/be48d4b-kernels.cubin
export WARPATH_REQUIRE_GPU=1
for spec in kron:22 urand:22 kron:24 grid2d:5000 grid2d:2000; do ( $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null ) & done
( $W convert kron:26 /dev/shm/kron-26.wgr > /dev/null 2>&1 ) &
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
  echo "$name $label rc=$? at $SECONDS s | $(grep -E '^time: ' "$K/$name-$label.txt" | head -1) | $(grep -A3 'phases of run 1' "$K/$name-$label.txt" | sed -n 3p | tr -s ' ')" | tee -a "$K/summary.txt"
  pack
}
for pass in 1 2; do
  graphs="grid2d-5000 kron-22 urand-22 kron-24"; [ $pass = 1 ] && graphs="$graphs grid2d-2000"
  for g in $graphs; do
    bk "$work/$g.wgr" ids-$pass 16 --round-order ids
    bk "$work/$g.wgr" scattered-$pass 16 --round-order scattered
    WARPATH_KERNELS=$OLD bk "$work/$g.wgr" be48d4b-$pass 16 --round-order ids
  done
done
for g in grid2d-5000 kron-22; do
  timeout 60 $W cc "$work/$g.wgr" --verify --round-order scattered > "$K/verify-$g.txt" 2>&1
  echo "verify $g rc=$? $(grep -i verified "$K/verify-$g.txt" | head -1)" | tee -a "$K/summary.txt"
done
if [ $SECONDS -lt 420 ]; then
  bk /dev/shm/kron-26.wgr 6G-default 8 --vram-budget 6G
  [ $SECONDS -lt 500 ] && WARPATH_KERNELS=$OLD bk /dev/shm/kron-26.wgr 6G-be48d4b 8 --vram-budget 6G
fi
echo "done at $SECONDS s" | tee -a "$K/summary.txt"
pack
