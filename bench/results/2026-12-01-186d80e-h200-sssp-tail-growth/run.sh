#!/usr/bin/env bash
# Session 2026-12-01 (ninth), call T1, at the commit in gpu-bin/COMMIT (near-far's tail buckets
# growing by --tail-growth): gpu_sssp (five of the seven datasets) while the graphs convert; then
# distances only, 16 roots: kron:22 and urand:22 with tail growth 2 (as before), 8 and 4, kron:24
# with 8 and 2 as the device time allows; one traced run of kron:22 at 8.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder sssp-tail-growth; S="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$S/machine.txt" 2>&1
pack() { tar -czf "$O/call-t1.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
for spec in kron:22 urand:22 kron:24; do
  f="$work/${spec//:/-}"; [ -f "$f-w.wgr" ] || ( $W convert "$spec" "$f-w.wgr" --weights uniform:1:255 > /dev/null ) &
done
place_cli_for_tests
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 200 gpu-bin/tests/gpu_sssp --test-threads 1 > "$S/gpu_sssp.txt" 2>&1
  echo "gpu_sssp rc=$? at $SECONDS s: $(grep -E '^test result' "$S/gpu_sssp.txt" | tail -1)" | tee -a "$S/summary.txt"
  grep -E "panicked|FAILED" "$S/gpu_sssp.txt" | head -6 )
wait
echo "converted at $SECONDS s" | tee -a "$S/summary.txt"
pack
med() { grep -E '^(time|end-to-end|relaxations per edge): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
bs() { local g=$1 label=$2; shift 2
  timeout 100 $W bench "$work/$g-w.wgr" --algorithm sssp --roots 16 --distances-only "$@" > "$S/$g-$label.txt" 2>&1
  echo "$g $label rc=$? at $SECONDS s | $(med "$S/$g-$label.txt")" | tee -a "$S/summary.txt"
  pack
}
bs kron-22 growth-2 --tail-growth 2
bs kron-22 growth-8 --tail-growth 8
bs urand-22 growth-2 --tail-growth 2
bs urand-22 growth-8 --tail-growth 8
bs kron-22 growth-4 --tail-growth 4
bs kron-22 growth-8-traced --tail-growth 8 --trace --json "$S/kron-22-growth-8-traced.json"
[ $SECONDS -lt 250 ] && bs kron-24 growth-8 --tail-growth 8
[ $SECONDS -lt 280 ] && bs kron-24 growth-2 --tail-growth 2
echo "done at $SECONDS s" | tee -a "$S/summary.txt"
pack
