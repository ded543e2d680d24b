#!/usr/bin/env bash
# Session 2026-12-01 (sixth), call F3, at the commit in gpu-bin/COMMIT (the final one; the
# split-level kernels' parameters by conversion, the same kernels): gpu_bfs; kron:22, urand:22 and
# kron:24 with the defaults (16 roots), kron:26 (8 roots) if time is left.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder one-gpu-bottom-up-final; K="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; free -g | head -2; } > "$K/machine.txt" 2>&1
pack() { tar -czf "$O/call-f3.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
for spec in kron:22 urand:22 kron:24; do ( $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null ) & done
( $W convert kron:26 /dev/shm/kron-26.wgr > /dev/null 2>&1 ) &
place_cli_for_tests
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 170 gpu-bin/tests/gpu_bfs --test-threads 1 > "$K/gpu_bfs.txt" 2>&1
  echo "gpu_bfs rc=$? at $SECONDS s: $(grep -E '^test result' "$K/gpu_bfs.txt" | tail -1)" | tee -a "$K/summary.txt"
  grep -E "panicked|FAILED" "$K/gpu_bfs.txt" | head -6 )
wait
pack
bk() { local g=$1 label=$2 roots=$3; shift 3
  local name; name=$(basename "${g%%.*}")
  timeout 40 $W bench "$g" --roots "$roots" "$@" --json "$K/$name-$label.json" > "$K/$name-$label.txt" 2>&1
  echo "$name $label rc=$? at $SECONDS s | $(grep -E '^time: ' "$K/$name-$label.txt" | head -1)" | tee -a "$K/summary.txt"
  pack
}
for g in kron-22 urand-22 kron-24; do bk "$work/$g.wgr" auto 16; done
[ $SECONDS -lt 185 ] && bk /dev/shm/kron-26.wgr auto 8
echo "done at $SECONDS s" | tee -a "$K/summary.txt"
pack
