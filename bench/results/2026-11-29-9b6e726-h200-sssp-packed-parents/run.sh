#!/usr/bin/env bash
# Entry 98: parents in the distance words. gpu_sssp's tests, then the headline graphs' runs
# (16 roots, kron:22 traced), verified against Dijkstra on one root each.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
place_cli_for_tests
O=${OUT:-gpu-out}/exp98; mkdir -p "$O"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$O/machine.txt" 2>&1
for spec in kron:22 urand:22 kron:24; do
  f="$work/${spec//:/-}"; [ -f "$f.wgr" ] || $W convert "$spec" "$f.wgr" --weights uniform:1:255 > /dev/null &
done
timeout 150 gpu-bin/tests/gpu_sssp --test-threads=1 > "$O/gpu-sssp-tests.log" 2>&1
echo "gpu_sssp rc=$? at $SECONDS s"; grep "test result" "$O/gpu-sssp-tests.log"; grep -A12 panicked "$O/gpu-sssp-tests.log" | head -30
wait
echo "graphs at $SECONDS s"
run() { local label=$1 file=$2; shift 2
  timeout 60 $W bench "$file" --roots 16 --backend gpu --algorithm sssp --json "$O/$label.json" "$@" > "$O/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(time|end-to-end|download|relaxations per edge): ' "$O/$label.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')"
}
for g in kron-22 urand-22; do
  timeout 60 $W sssp "$work/$g.wgr" --backend gpu --verify > "$O/verify-$g.txt" 2>&1; echo "verify $g rc=$? $(grep -i '^verified' "$O/verify-$g.txt")"
done
timeout 60 $W sssp "$work/kron-22.wgr" --backend gpu --sources 1,2,3,100 --verify > "$O/verify-kron-22-sources.txt" 2>&1; echo "verify sources rc=$? $(grep -i '^verified' "$O/verify-kron-22-sources.txt")"
ny=gpu-bin/datasets/USA-road-d.NY.gr.gz
run kron-22 "$work/kron-22.wgr" --trace; run urand-22 "$work/urand-22.wgr"; run ny $ny; run kron-24 "$work/kron-24.wgr"
echo "done at $SECONDS s"
tar -C "$O/.." -czf /tmp/exp98.tgz exp98 && rm -rf "$O" && mv /tmp/exp98.tgz "${OUT:-gpu-out}/"
