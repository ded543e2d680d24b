#!/usr/bin/env bash
# Entry 102, call B: giant hooks (sampling after round 1, trees meeting the giant hooked under
# it) and the fixed warp hooks; the kernel with its tallies compiled out (notally.cubin) and
# 5262c04's (old.cubin) under one host; gpu_cc with the new kernel; ECL-CC on NY.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
place_cli_for_tests
O=${OUT:-gpu-out}; R="$work/r"; mkdir -p "$O" "$R"
W=gpu-bin/warpath; K=.peers/k
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
( $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny.wgr" > /dev/null; $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null;
  $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-plain.wgr" --undirected --ignore-weights > /dev/null ) &
for spec in kron:22 urand:22 kron:24 grid2d:5000; do ( $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null ) & done
timeout 300 gpu-bin/tests/gpu_cc --test-threads=2 > "$R/gpu-cc-tests.log" 2>&1
echo "gpu_cc rc=$? at $SECONDS s: $(grep 'test result' "$R/gpu-cc-tests.log")"; grep -A12 panicked "$R/gpu-cc-tests.log" | head -30
timeout 60 gpu-bin/tests/gpu_prelude --test-threads=2 > "$R/gpu-prelude-tests.log" 2>&1
echo "gpu_prelude rc=$? $(grep 'test result' "$R/gpu-prelude-tests.log")"
wait
echo "converted at $SECONDS s"
run() { local label=$1 file=$2 trials=$3; shift 3
  timeout 60 $W bench "$file" --algorithm cc --trials $trials --backend gpu "$@" > "$R/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^time: ' "$R/$label.txt" | sed 's/min [^,]*, //; s/, max.*//') $(tail -n 1 "$R/$label.txt" | grep error)"
}
for g in ny-u kron-22 urand-22 kron-24 grid2d-5000 ny; do
  f="$work/$g.wgr"; t=16; case $g in kron-24|grid2d-5000) t=8;; esac
  WARPATH_KERNELS=$K/old.cubin run $g-old $f $t
  run $g-base $f $t
  WARPATH_KERNELS=$K/notally.cubin run $g-notally $f $t
  run $g-giant $f $t --giant-hooks on
  WARPATH_KERNELS=$K/notally.cubin run $g-giant-notally $f $t --giant-hooks on
  run $g-giant-warp $f $t --giant-hooks on --warp-hooks on
  run $g-warp $f $t --warp-hooks on
  run $g-giant-rc $f $t --giant-hooks on --round-compression on
  case $g in kron-22|kron-24) run $g-giant-init $f $t --giant-hooks on --cc-init smaller-neighbor;; esac
done
echo "variants done at $SECONDS s"
# (peer input conversion, not recorded) python3 .peers/eclcc/wgr2egr.py "$work/ny-plain.wgr" "$work/ny-plain.egr" >> "$R/egr.txt" 2>&1
ulimit -s unlimited
timeout 60 .peers/eclcc/eclcc "$work/ny-plain.egr" 17 > "$R/ecl-ny.txt" 2>&1
echo "ecl-cc ny rc=$? $(grep -E 'event median|components|PASS|FAIL' "$R/ecl-ny.txt" | tr '\n' ' ')"
WARPATH_KERNELS=$K/notally.cubin timeout 30 $W cc "$work/ny-plain.wgr" --giant-hooks on --verify > "$R/verify-ny-giant.txt" 2>&1; echo "verify ny giant rc=$? $(grep -E 'verified|components:' "$R/verify-ny-giant.txt" | tr '\n' ' ')"
echo "done at $SECONDS s"
tar -czf "$O/exp102b.tar.gz" -C "$R" .
