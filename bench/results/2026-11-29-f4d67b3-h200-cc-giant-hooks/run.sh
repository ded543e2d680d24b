#!/usr/bin/env bash
# Entry 102, call C: f4d67b3's CC (giant hooks the default) against 5262c04's kernel and with
# giant hooks off, a tallied build for the phase counts; ECL-CC and the GAP suite's Afforest on
# the same files in the same call (the headline rows); gpu_cc and gpu_prelude.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
place_cli_for_tests
O=${OUT:-gpu-out}; R="$work/r"; mkdir -p "$O" "$R"
W=gpu-bin/warpath; K=.peers/k
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
( $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null
  $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-plain.wgr" --undirected --ignore-weights > /dev/null ) &
for spec in kron:22 urand:22 kron:24 grid2d:5000; do ( $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null ) & done
timeout 120 gpu-bin/tests/gpu_cc --test-threads=2 > "$R/gpu-cc-tests.log" 2>&1
echo "gpu_cc rc=$? at $SECONDS s: $(grep 'test result' "$R/gpu-cc-tests.log")"; grep -A12 panicked "$R/gpu-cc-tests.log" | head -30
timeout 60 gpu-bin/tests/gpu_prelude --test-threads=2 > "$R/gpu-prelude-tests.log" 2>&1
echo "gpu_prelude rc=$? $(grep 'test result' "$R/gpu-prelude-tests.log")"
wait
echo "converted at $SECONDS s"
( for g in ny-plain kron-22 urand-22 kron-24 grid2d-5000; do $W convert "$work/$g.wgr" "$work/$g.el" > /dev/null; python3 .peers/eclcc/wgr2egr.py "$work/$g.wgr" "$work/$g.egr" >> "$R/egr.txt" 2>&1; done ) &
run() { local label=$1 file=$2; shift 2
  timeout 60 $W bench "$file" --algorithm cc --trials 16 --backend gpu "$@" > "$R/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(time|end-to-end): ' "$R/$label.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ') $(tail -n 1 "$R/$label.txt" | grep error)"
}
for g in ny-u kron-22 urand-22 kron-24 grid2d-5000; do
  f="$work/$g.wgr"
  WARPATH_KERNELS=$K/old.cubin run $g-old $f --giant-hooks off
  run $g-default $f --json "$R/cc-$g.json"
  run $g-giant-off $f --giant-hooks off
  WARPATH_KERNELS=$K/tallied.cubin run $g-tallied $f
  WARPATH_KERNELS=$K/tallied.cubin run $g-tallied-giant-off $f --giant-hooks off
  case $g in kron-22|kron-24) run $g-init $f --cc-init smaller-neighbor;; esac
  run $g-default-2 $f
  WARPATH_KERNELS=$K/old.cubin run $g-old-2 $f --giant-hooks off
done
echo "variants done at $SECONDS s"
timeout 30 $W cc "$work/kron-22.wgr" --verify > "$R/verify-kron-22.txt" 2>&1; echo "verify kron:22 rc=$? $(grep verified "$R/verify-kron-22.txt")"
timeout 30 $W cc gpu-bin/datasets/USA-road-d.NY.gr.gz --verify > "$R/verify-ny.txt" 2>&1; echo "verify NY rc=$? $(grep verified "$R/verify-ny.txt")"
timeout 30 $W cc "$work/grid2d-5000.wgr" --verify > "$R/verify-grid.txt" 2>&1; echo "verify grid rc=$? $(grep verified "$R/verify-grid.txt")"
wait
echo "peers from $SECONDS s"
ulimit -s unlimited
for g in ny-plain kron-22 urand-22 kron-24 grid2d-5000; do
  timeout 60 .peers/eclcc/eclcc "$work/$g.egr" 17 > "$R/ecl-$g.txt" 2>&1
  echo "ecl-cc $g rc=$? $(grep -E 'event median|components|PASS|FAIL' "$R/ecl-$g.txt" | tr '\n' ' ')"
done
for g in ny-plain kron-22 urand-22 kron-24 grid2d-5000; do
  OMP_NUM_THREADS=16 timeout 60 .peers/gapbs/cc -f "$work/$g.el" -s -n 16 > "$R/gapbs-cc-$g.txt" 2>&1
  echo "gapbs cc $g rc=$? $(grep -E 'Average Time' "$R/gapbs-cc-$g.txt")"
done
echo "done at $SECONDS s"
tar -czf "$O/exp102c.tar.gz" -C "$R" .
