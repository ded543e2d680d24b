#!/usr/bin/env bash
# Entry 102, call A: the CC techniques of ed42317 (ECL-CC's init, warp hooks, round compression)
# against 5262c04's kernel (old.cubin) under one host; gpu_cc and gpu_prelude; ECL-CC (HeCBench's
# port, CUDA events per repetition) and the GAP suite's Afforest on the same files.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
place_cli_for_tests
O=${OUT:-gpu-out}; R="$work/r"; mkdir -p "$O" "$R"
W=gpu-bin/warpath; K=.peers/k
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
( $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny.wgr" > /dev/null; $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null ) &
for spec in kron:22 urand:22 kron:24 grid2d:5000; do ( $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null ) & done
timeout 240 gpu-bin/tests/gpu_cc --test-threads=2 > "$R/gpu-cc-tests.log" 2>&1
echo "gpu_cc rc=$? at $SECONDS s: $(grep 'test result' "$R/gpu-cc-tests.log")"; grep -A12 panicked "$R/gpu-cc-tests.log" | head -30
timeout 60 gpu-bin/tests/gpu_prelude --test-threads=2 > "$R/gpu-prelude-tests.log" 2>&1
echo "gpu_prelude rc=$? $(grep 'test result' "$R/gpu-prelude-tests.log")"; grep -A8 panicked "$R/gpu-prelude-tests.log" | head -20
wait
ls -la "$work" > "$R/files.txt"; echo "converted at $SECONDS s"
for g in ny-u kron-22 urand-22 kron-24 grid2d-5000; do ( $W convert "$work/$g.wgr" "$work/$g.el" > /dev/null ) & done
run() { local label=$1 file=$2 trials=$3; shift 3
  timeout 60 $W bench "$file" --algorithm cc --trials $trials --backend gpu "$@" > "$R/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^time: ' "$R/$label.txt" | sed 's/min [^,]*, //; s/, max.*//')"
  grep -A9 '^phases of run 1' "$R/$label.txt" | tail -n +3 | awk '{printf "   %s %s %s | %s %s %s %s\n", $1, $2, $3, $(NF-4), $(NF-3), $(NF-2), $NF}' | head -8
}
for g in ny ny-u kron-22 urand-22 kron-24 grid2d-5000; do
  f="$work/$g.wgr"; t=16; case $g in kron-24|grid2d-5000) t=8;; esac
  WARPATH_KERNELS=$K/old.cubin run $g-old $f $t
  run $g-base $f $t
  run $g-warp $f $t --warp-hooks on
  run $g-init $f $t --cc-init smaller-neighbor
  run $g-rc $f $t --round-compression on
  run $g-init-warp $f $t --cc-init smaller-neighbor --warp-hooks on
  run $g-all $f $t --cc-init smaller-neighbor --warp-hooks on --round-compression on
done
echo "variants done at $SECONDS s"
wait
# (peer input conversion, not recorded) for g in ny-u kron-22 urand-22 kron-24 grid2d-5000; do python3 .peers/eclcc/wgr2egr.py "$work/$g.wgr" "$work/$g.egr" >> "$R/egr.txt" 2>&1; done
ulimit -s unlimited
for g in ny-u kron-22 urand-22 kron-24 grid2d-5000; do
  timeout 60 .peers/eclcc/eclcc "$work/$g.egr" 17 > "$R/ecl-$g.txt" 2>&1
  echo "ecl-cc $g rc=$? $(grep -E 'event median|components|PASS|FAIL' "$R/ecl-$g.txt" | tr '\n' ' ')"
done
for g in ny-u kron-22 urand-22 kron-24 grid2d-5000; do
  OMP_NUM_THREADS=16 timeout 60 .peers/gapbs/cc -f "$work/$g.el" -s -n 16 > "$R/gapbs-cc-$g.txt" 2>&1
  echo "gapbs cc $g rc=$? $(grep -E 'Average Time' "$R/gapbs-cc-$g.txt")"
done
echo "done at $SECONDS s"
tar -czf "$O/exp102a.tar.gz" -C "$R" .
