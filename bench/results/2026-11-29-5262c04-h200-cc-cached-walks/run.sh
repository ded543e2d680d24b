#!/usr/bin/env bash
# Entry 101: CC walks reading labels through L1 (new.cubin) against 852bc71's kernel (old.cubin),
# under 852bc71's host binary; gpu_cc with the new kernel.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
place_cli_for_tests
O=${OUT:-gpu-out}; R="$work/r"; mkdir -p "$O" "$R"
W=gpu-bin/warpath; K=.peers/k
for spec in kron:22 urand:22 kron:24; do ( $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null ) & done
WARPATH_KERNELS=$K/new.cubin timeout 90 gpu-bin/tests/gpu_cc --test-threads=2 > "$R/gpu-cc-tests.log" 2>&1
echo "gpu_cc rc=$? at $SECONDS s"; grep "test result" "$R/gpu-cc-tests.log"; grep -A10 panicked "$R/gpu-cc-tests.log" | head -20
wait
echo "converted at $SECONDS s"
run() { local label=$1 kern=$2 file=$3
  WARPATH_KERNELS=$K/$kern.cubin timeout 40 $W bench "$file" --algorithm cc --trials 16 --backend gpu > "$R/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(time): ' "$R/$label.txt" | sed 's/min [^,]*, //; s/, max.*//') | $(grep -A6 '^phases of run 1' "$R/$label.txt" | tail -5 | awk '{print $(NF-1)}' | tr '\n' ' ')"
}
NY=gpu-bin/datasets/USA-road-d.NY.gr.gz
for pass in 1 2; do
  for g in ny kron-22 urand-22 kron-24; do
    f="$work/$g.wgr"; [ $g = ny ] && f=$NY
    run $g-old-$pass old $f; run $g-new-$pass new $f
  done
done
WARPATH_KERNELS=$K/new.cubin timeout 30 $W cc "$work/kron-22.wgr" --verify > "$R/verify-kron-22.txt" 2>&1; echo "verify kron:22 rc=$? $(grep verified "$R/verify-kron-22.txt")"
WARPATH_KERNELS=$K/new.cubin timeout 30 $W cc $NY --verify > "$R/verify-ny.txt" 2>&1; echo "verify NY rc=$? $(grep verified "$R/verify-ny.txt")"
echo "done at $SECONDS s"
tar -czf "$O/exp100b.tar.gz" -C "$R" .
