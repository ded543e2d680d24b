#!/usr/bin/env bash
# Session 2026-11-30, call E: the persistent BFS's plain bottom-up searches read 4 in-list
# entries, then probe their frontier bits, at a time (new, embedded) against one at a time
# (old: 8ecaf86's sm_90 cubin through WARPATH_KERNELS), interleaved, 16 roots, one binary.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin-e.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
O=${OUT:-gpu-out}; R="$O/batch"; mkdir -p "$R"
W=gpu-bin/warpath; OLD="$PWD/.carry/x/old-sm90.cubin"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > "$R/machine.txt" 2>&1
( timeout 200 gpu-bin/tests/gpu_bfs > "$R/gpu_bfs.log" 2>&1; echo "gpu_bfs rc=$?"; grep 'test result' "$R/gpu_bfs.log" ) | tee -a "$R/summary.txt"
$W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null 2>&1
for pass in 1 2; do
  for g in kron:26 kron:24 kron:22 urand:22 ny; do
    f=$g; [ $g = ny ] && f="$work/ny-u.wgr"
    for k in new old; do
      if [ $k = old ]; then export WARPATH_KERNELS="$OLD"; else unset WARPATH_KERNELS; fi
      timeout 120 $W bench "$f" --roots 16 --json "$R/${g//:/-}-$k-$pass.json" > "$R/${g//:/-}-$k-$pass.txt" 2>&1
      echo "$g $k pass $pass rc=$? $(grep -E '^time: ' "$R/${g//:/-}-$k-$pass.txt" | head -1)" | tee -a "$R/summary.txt"
    done
    unset WARPATH_KERNELS
  done
done
echo "done at $SECONDS s" | tee -a "$R/summary.txt"
