#!/usr/bin/env bash
# PlacedGraph on the GPU: gpu_placement (its test among them) and gpu_cc, then the library
# example on kron:16 and USA-road-d.NY.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
place_cli_for_tests
R="$OUT/placed"; mkdir -p "$R"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > "$R/machine.txt" 2>&1
for t in gpu_placement gpu_cc; do
  timeout 200 gpu-bin/tests/$t --test-threads=1 > "$R/$t.log" 2>&1
  echo "$t rc=$? $(grep 'test result' "$R/$t.log")"; grep -A12 panicked "$R/$t.log" | head -20
done
for g in kron:16 gpu-bin/datasets/USA-road-d.NY.gr.gz; do
  timeout 60 .carry/one_graph "$g" > "$R/example-$(basename $g).txt" 2>&1; echo "example $g rc=$?"; cat "$R/example-$(basename $g).txt"
done
