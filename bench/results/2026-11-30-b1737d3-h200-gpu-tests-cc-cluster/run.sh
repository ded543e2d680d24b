#!/usr/bin/env bash
# gpu_cc at b1737d3 (the final cluster kernel, auto without it); then the diagnosis of 540ade4's
# cluster SSSP with bitmap worklists, which did not finish: which inputs and widths hang, and
# compute-sanitizer's memcheck, synccheck and racecheck on the smallest that does.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
OUTDIR=${OUT:-gpu-out}; mkdir -p "$OUTDIR"
OUT=$work/runs run_folder ${TOPIC:-gpu-tests-cc-cluster}
R="$out"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
place_cli_for_tests
export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
WARPATH_REQUIRE_GPU=1 timeout 300 gpu-bin/tests/gpu_cc --test-threads 1 > "$R/gpu_cc.txt" 2>&1
echo "gpu_cc rc=$? at $SECONDS s: $(grep -E '^test result' "$R/gpu_cc.txt" | tail -1)"
grep -E "panicked|FAILED" "$R/gpu_cc.txt" | head -6
D="$R/sssp-bitmaps-540ade4"; mkdir -p "$D"
xz -dkc .carry/x/warpath-540.xz > "$work/warpath-540"; OLD=$work/warpath-540
chmod +x $OLD
for g in grid2d:2 grid2d:3 grid2d:30; do
  for d in default 1 1000000; do
    extra=; [ $d = default ] || extra="--delta $d"
    timeout 10 $OLD sssp $g --backend gpu --strategy cluster --verify $extra > "$D/$g-$d.txt" 2>&1
    echo "540ade4 sssp $g delta $d rc=$? $(grep -iE 'verified|error' "$D/$g-$d.txt" | head -1)" | tee -a "$D/table.txt"
  done
done
san=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
for tool in memcheck synccheck racecheck; do
  timeout 40 $san --tool $tool --print-limit 20 $OLD sssp grid2d:3 --backend gpu --strategy cluster --verify > "$D/sanitize-$tool.txt" 2>&1
  echo "sanitizer $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|verified' "$D/sanitize-$tool.txt" | tr '\n' ' ')"
  grep -E "^=========  ?(Invalid|Race|Barrier|Error|at |by thread)" "$D/sanitize-$tool.txt" | head -8
done
echo "done at $SECONDS s"
tar -czf "$OUTDIR/call-d.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
