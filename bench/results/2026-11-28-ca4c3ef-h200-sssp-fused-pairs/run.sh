#!/usr/bin/env bash
# Experiment (branch exp-fused-pairs): a fused round's thread walks its two entries together.
# gpu_sssp's tests, then NY fused against unfused, interleaved twice, and near-far once.
set -u
cd "$(dirname "$0")/.."
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
place_cli_for_tests
O=${OUT:-gpu-out}; mkdir -p "$O/exp"
W=gpu-bin/warpath
timeout 200 gpu-bin/tests/gpu_sssp --test-threads=1 > "$O/exp/sssp-tests.log" 2>&1
echo "gpu_sssp rc=$?"; grep "test result" "$O/exp/sssp-tests.log"; grep -A12 panicked "$O/exp/sssp-tests.log" | head -30
ny=gpu-bin/datasets/USA-road-d.NY.gr.gz
run() { local label=$1; shift
  timeout 60 $W bench "$ny" --algorithm sssp --roots 16 --backend gpu "$@" > "$O/exp/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^time: ' "$O/exp/$label.txt" | head -1) $(grep -E 'buckets in' "$O/exp/$label.txt")"
}
run ny-fused-1 --trace; run ny-unfused-1 --no-bucket-fusion; run ny-fused-2; run ny-unfused-2 --no-bucket-fusion
run ny-nearfar-fused --sssp-strategy near-far; run ny-nearfar-unfused --sssp-strategy near-far --no-bucket-fusion
tar -C "$O" -czf /tmp/exp.tgz exp && mv /tmp/exp.tgz "$O/"
