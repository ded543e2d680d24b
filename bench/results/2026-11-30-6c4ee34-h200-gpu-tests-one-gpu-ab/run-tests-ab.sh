#!/usr/bin/env bash
# Session 2026-11-30 (3), HEAD after issue 53's changes (bench envelope, one placement struct,
# Timed answers, multi/gpu split): the GPU tests the changed host code runs (gpu_cc, gpu_sssp,
# gpu_placement, it, warpath); then issue 53's done-when A/B on one GPU: HEAD against 2725e11
# (the commit the issue was filed at), interleaved, CC and SSSP and BFS, median of 16.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
W=gpu-bin/warpath; OLD=gpu-bin/ab/2725e11/warpath
R="$O/ab"; mkdir -p "$R"
{ cat gpu-bin/COMMIT; cat gpu-bin/ab/*/REVISION; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
# Graphs for the A/B convert while the tests run (CPU only).
( $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null
  $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny.wgr" > /dev/null
  for spec in kron:22 urand:22 kron:24; do $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null; done
  for spec in kron:22 urand:22; do $W convert "$spec" "$work/${spec//:/-}-w.wgr" --weights uniform:1:255 > /dev/null; done
  echo "converted at $SECONDS s" > "$R/converted.txt" ) &
mkdir -p gpu-bin/tests-keep && for t in gpu_bfs gpu_prelude gpu_kernel_forms multi_nccl; do mv gpu-bin/tests/$t gpu-bin/tests-keep/ 2>/dev/null; done
OUT="$O" TESTS_ONLY=1 timeout 400 bash scripts/gpu-run 2>&1 | tail -2
echo "tests done at $SECONDS s"
wait; cat "$R/converted.txt"
med() { sed -n 's/^time: min [^,]*, median \([0-9.]*\) ms.*/\1/p' "$1"; }
ab() { local label=$1; shift
  for round in 1 2; do
    for b in new old; do
      bin=$W; [ $b = old ] && bin=$OLD
      timeout 90 $bin bench "$@" --backend gpu > "$R/$label-$b-$round.txt" 2>&1
      echo "$label $b $round $(med "$R/$label-$b-$round.txt")"
    done
  done
}
for g in ny-u kron-22 urand-22 kron-24; do ab "cc-$g" "$work/$g.wgr" --algorithm cc --trials 16; done
for g in ny kron-22-w urand-22-w; do ab "sssp-$g" "$work/$g.wgr" --algorithm sssp --roots 16; done
for g in ny-u kron-22 urand-22 kron-24; do ab "bfs-$g" "$work/$g.wgr" --roots 16; done
echo "done at $SECONDS s"
