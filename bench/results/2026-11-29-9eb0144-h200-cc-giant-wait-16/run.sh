#!/usr/bin/env bash
# Entry 106, call A: giant hooks that wait for a giant (9eb0144) against f462656's kernel
# (old.cubin, under the same host), and giant hooks off; gpu_cc.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
place_cli_for_tests
O=${OUT:-gpu-out}; R="$work/r"; mkdir -p "$O" "$R"
W=gpu-bin/warpath; K=.peers/k
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
( $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null ) &
for spec in kron:22 urand:22 kron:24 grid2d:5000; do ( $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null ) & done
timeout 150 gpu-bin/tests/gpu_cc --test-threads=2 > "$R/gpu-cc-tests.log" 2>&1
echo "gpu_cc rc=$? at $SECONDS s: $(grep 'test result' "$R/gpu-cc-tests.log")"; grep -A12 panicked "$R/gpu-cc-tests.log" | head -30
wait
echo "converted at $SECONDS s"
run() { local label=$1 file=$2; shift 2
  timeout 60 $W bench "$file" --algorithm cc --trials 16 --backend gpu "$@" > "$R/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(time|end-to-end): ' "$R/$label.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ') $(tail -n 1 "$R/$label.txt" | grep error)"
}
for g in ny-u kron-22 urand-22 kron-24 grid2d-5000; do
  f="$work/$g.wgr"
  WARPATH_KERNELS=$K/old.cubin run $g-old $f
  run $g-new $f --json "$R/cc-$g.json"
  run $g-giant-off $f --giant-hooks off
  WARPATH_KERNELS=$K/old.cubin run $g-old-2 $f
  run $g-new-2 $f
done
echo "variants done at $SECONDS s"
for g in ny-u kron-22 urand-22 grid2d-5000; do
  timeout 30 $W cc "$work/$g.wgr" --verify > "$R/verify-$g.txt" 2>&1; echo "verify $g rc=$? $(grep -i verified "$R/verify-$g.txt" | head -2 | tr '\n' ' ')"
done
echo "done at $SECONDS s"
tar -czf "$O/exp106a.tar.gz" -C "$R" .
