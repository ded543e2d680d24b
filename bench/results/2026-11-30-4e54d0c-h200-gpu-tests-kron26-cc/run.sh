#!/usr/bin/env bash
# Session 2026-11-30 (3): every GPU test executable at 4e54d0c (the review's PTX, not run on a GPU
# before), while kron:26 converts; then CC on kron:26 under a 6 GB budget (issue 52's target).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; R="$O/k26"; mkdir -p "$O" "$R"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv; nproc; free -g; } > "$R/machine.txt" 2>&1
( $W convert kron:26 "$work/kron-26.wgr" > "$R/convert.txt" 2>&1; echo "convert rc=$? at $SECONDS s" >> "$R/convert.txt" ) &
OUT="$O" TESTS_ONLY=1 timeout 420 bash scripts/gpu-run 2>&1 | tail -3
echo "tests done at $SECONDS s"
wait
cat "$R/convert.txt" | tail -2
for i in 1 2; do
  timeout 60 $W bench "$work/kron-26.wgr" --algorithm cc --trials 8 --backend gpu --vram-budget 6G --trace > "$R/cc-6G-$i.txt" 2>&1
  echo "cc kron:26 6G rc=$? $(grep -E '^(time|end-to-end|placement): ' "$R/cc-6G-$i.txt" | tr '\n' ' ')"
done
timeout 60 $W bench "$work/kron-26.wgr" --algorithm cc --trials 8 --backend gpu --trace > "$R/cc-whole.txt" 2>&1
echo "cc kron:26 whole rc=$? $(grep -E '^(time|end-to-end): ' "$R/cc-whole.txt" | tr '\n' ' ')"
echo "done at $SECONDS s"
