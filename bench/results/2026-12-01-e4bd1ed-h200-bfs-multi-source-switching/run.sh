#!/usr/bin/env bash
# Session 2026-12-01 (second), call W, at the commit in gpu-bin/COMMIT: gpu_bfs (with the
# many-source test over switching, bottom-up and top-down levels), then the many-source batch with
# the narrowed switching rule against bottom-up only (bench --batch, 64 roots) on kron:22,
# urand:22 and USA-road-d.NY.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder bfs-multi-source-switching; B="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$B/machine.txt" 2>&1
pack() { tar -czf "$O/call-w.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
for spec in kron:22 urand:22; do ( $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null ) & done
place_cli_for_tests
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 200 gpu-bin/tests/gpu_bfs --test-threads 1 > "$B/gpu_bfs.txt" 2>&1
  echo "gpu_bfs rc=$? at $SECONDS s: $(grep -E '^test result' "$B/gpu_bfs.txt" | tail -1)" | tee -a "$B/summary.txt"
  grep -E "panicked|FAILED" "$B/gpu_bfs.txt" | head -4 )
wait
pack
bb() { local label=$1 file=$2
  timeout 150 $W bench "$file" --algorithm bfs --roots 64 --batch > "$B/bfs-$label-batch.txt" 2>&1
  echo "bfs batch $label rc=$? at $SECONDS s $(grep -E '^batch' "$B/bfs-$label-batch.txt")" | tee -a "$B/summary.txt"
  pack
}
bb kron-22 "$work/kron-22.wgr"; bb urand-22 "$work/urand-22.wgr"; bb ny gpu-bin/datasets/USA-road-d.NY.gr.gz
echo "done at $SECONDS s" | tee -a "$B/summary.txt"
pack
