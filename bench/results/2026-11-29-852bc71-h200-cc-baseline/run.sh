#!/usr/bin/env bash
# Entry 100, call 1: connected components at 852bc71 on the issue-52 graphs, one trace each,
# the placement charged once; the GAP suite's Afforest on the same files in the same call.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
place_cli_for_tests
O=${OUT:-gpu-out}; R="$work/r"; mkdir -p "$O" "$R"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
( cd .peers/gapbs && g++ -std=c++11 -O3 -Wall -fopenmp src/cc.cc -o cc ) > "$R/gapbs-build.txt" 2>&1 &
gunzip -c gpu-bin/datasets/USA-road-d.NY.gr.gz > "$work/ny.gr" &
for spec in kron:22 urand:22 kron:24 grid2d:5000; do
  f="$work/${spec//:/-}"
  ( $W convert "$spec" "$f.el" > /dev/null ) &
done
wait
ls -la "$work" > "$R/files.txt"
echo "converted at $SECONDS s"
for g in ny kron-22 urand-22 kron-24 grid2d-5000; do
  file="${g/-/:}"; [ $g = ny ] && file=gpu-bin/datasets/USA-road-d.NY.gr.gz
  timeout 60 $W bench "$file" --algorithm cc --trials 16 --backend gpu --trace --json "$R/cc-$g.json" > "$R/cc-$g.txt" 2>&1
  echo "cc $g rc=$? $(grep -E '^(time|end-to-end): ' "$R/cc-$g.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')"
  grep -A7 "^phases of run 1" "$R/cc-$g.txt" | tail -6
  grep -E "^  place " "$R/cc-$g.txt"
done
for g in ny kron-22 urand-22 kron-24 grid2d-5000; do
  file="$work/$g.el"; extra="-s"; [ $g = ny ] && file="$work/ny.gr"
  OMP_NUM_THREADS=16 timeout 60 .peers/gapbs/cc -f "$file" $extra -n 16 > "$R/gapbs-cc-$g.txt" 2>&1
  echo "gapbs cc $g rc=$? $(grep -E 'Average Time' "$R/gapbs-cc-$g.txt")"
done
echo "done at $SECONDS s"
tar -czf "$O/exp100a.tar.gz" -C "$R" .
