#!/usr/bin/env bash
# Entry 99's first call (copy of final98.sh plus the latency probe): gpu_sssp's tests at the final commit, then the headline rows of
# kron:22, urand:22 and USA-road-d.NY with the GAP suite in the same call (outputs straight
# into $OUT, so a call cut short still returns what it finished).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
place_cli_for_tests
O=${OUT:-gpu-out}; mkdir -p "$O"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$O/machine.txt" 2>&1
( cd .peers/probe && nvcc -O3 -arch=sm_90 latency.cu -o latency ) > "$O/probe-build.txt" 2>&1 &
( cd .peers/gapbs && g++ -std=c++11 -O3 -Wall -fopenmp src/sssp.cc -o sssp ) > /dev/null 2>&1 &
gunzip -c gpu-bin/datasets/USA-road-d.NY.gr.gz > "$work/ny.gr" &
for spec in kron:22 urand:22; do
  f="$work/${spec//:/-}"
  ( $W convert "$spec" "$f.wgr" --weights uniform:1:255 > /dev/null && $W convert "$f.wgr" "$f.wel" > /dev/null ) &
done
timeout 130 gpu-bin/tests/gpu_sssp --test-threads=1 > "$O/gpu-sssp-tests.log" 2>&1
echo "gpu_sssp rc=$? at $SECONDS s"; grep "test result" "$O/gpu-sssp-tests.log"; grep -A12 panicked "$O/gpu-sssp-tests.log" | head -30
wait
echo "converted at $SECONDS s"
timeout 60 .peers/probe/latency > "$O/latency.txt" 2>&1; echo "probe rc=$?"; cat "$O/latency.txt"
for g in kron-22 urand-22 ny; do
  file="$work/$g.wgr"; [ $g = ny ] && file=gpu-bin/datasets/USA-road-d.NY.gr.gz
  timeout 40 $W bench "$file" --algorithm sssp --roots 16 --backend gpu --trace --json "$O/sssp-$g.json" > "$O/sssp-$g.txt" 2>&1
  echo "sssp $g rc=$? $(grep -E '^(time|end-to-end|relaxations per edge): ' "$O/sssp-$g.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')"
done
gap() { local label=$1 file=$2; shift 2
  OMP_NUM_THREADS=16 timeout 40 .peers/gapbs/sssp -f "$file" -n 16 "$@" > "$O/gapbs-$label.txt" 2>&1
  echo "gapbs $label rc=$? $(grep -E 'Average Time' "$O/gapbs-$label.txt")"
}
gap ny "$work/ny.gr" -d 50000; gap kron-22 "$work/kron-22.wel" -s -d 2; gap urand-22 "$work/urand-22.wel" -s -d 2
echo "done at $SECONDS s"
