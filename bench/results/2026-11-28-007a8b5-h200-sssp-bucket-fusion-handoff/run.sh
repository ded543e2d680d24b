#!/usr/bin/env bash
# Issue 51, bucket fusion: GPU tests of gpu_sssp, then fused against unfused (interleaved
# twice) on NY, grid2d:5000, kron:22, urand:22, 16 roots; the GAP suite's sssp on the same files.
set -u
cd "$(dirname "$0")/.."
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
place_cli_for_tests
O=${OUT:-gpu-out}; mkdir -p "$O"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$O/machine.txt" 2>&1
# (the GAP suite's sssp, built from its sources on the device machine in the background: not recorded here)
gapbs_build=0
timeout 400 gpu-bin/tests/gpu_sssp --test-threads=1 > "$O/sssp-tests.log" 2>&1
echo "gpu_sssp rc=$?"; grep "test result" "$O/sssp-tests.log"; grep -B2 -A12 panicked "$O/sssp-tests.log" | head -40
gunzip -c gpu-bin/datasets/USA-road-d.NY.gr.gz > "$work/ny.gr"
for spec in kron:22 urand:22 grid2d:5000; do
  f="$work/${spec//:/-}"
  [ -f "$f.wgr" ] || $W convert "$spec" "$f.wgr" --weights uniform:1:255 > /dev/null
  [ -f "$f.wel" ] || $W convert "$f.wgr" "$f.wel" > /dev/null
done
echo "graphs ready at $SECONDS s"
run() { # LABEL FILE ARGS...
  local label=$1 file=$2; shift 2
  timeout 200 $W bench "$file" --algorithm sssp --roots 16 --backend gpu "$@" > "$O/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^time: ' "$O/$label.txt" | head -1)"
}
for g in ny grid2d-5000 kron-22 urand-22; do
  file="$work/$g.wgr"; [ $g = ny ] && file=gpu-bin/datasets/USA-road-d.NY.gr.gz
  passes="1 2"; case $g in kron-22|urand-22) passes=1 ;; esac
  for pass in $passes; do
    run "$g-fused-$pass" "$file" $( [ $pass = 1 ] && echo "--trace --json $O/trace-$g-fused.json" )
    run "$g-unfused-$pass" "$file" --no-bucket-fusion $( [ $pass = 1 ] && echo "--trace --json $O/trace-$g-unfused.json" )
  done
done
ny=gpu-bin/datasets/USA-road-d.NY.gr.gz
run ny-nearfar-fused "$ny" --sssp-strategy near-far --trace
run ny-nearfar-unfused "$ny" --sssp-strategy near-far --no-bucket-fusion
timeout 100 $W bench gpu-bin/datasets/USA-road-d.NY.gr.gz --roots 16 --backend gpu > "$O/ny-bfs.txt" 2>&1
echo "ny bfs: $(grep -E '^time: ' "$O/ny-bfs.txt" | head -1)"
wait
gap() { # LABEL FILE ARGS
  local label=$1 file=$2; shift 2
  OMP_NUM_THREADS=16 timeout 150 .peers/gapbs/sssp -f "$file" -n 16 "$@" > "$O/gapbs-$label.txt" 2>&1
  echo "gapbs $label rc=$? $(grep -E 'Average Time' "$O/gapbs-$label.txt")"
}
gap ny "$work/ny.gr" -d 50000
gap kron-22 "$work/kron-22.wel" -s -d 2
gap urand-22 "$work/urand-22.wel" -s -d 2
gap grid2d-5000 "$work/grid2d-5000.wel" -s -d 2
echo "done at $SECONDS s"
tar -C "$O" -czf /tmp/all.tgz . && mv /tmp/all.tgz "$O/all.tgz"
