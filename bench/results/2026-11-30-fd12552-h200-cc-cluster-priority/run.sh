#!/usr/bin/env bash
# Issue 52 item 2 at the commit in gpu-bin: gpu_cc (the cluster kernel on every graph and
# placement); compute-sanitizer memcheck and synccheck on the cluster kernel; then CC in the
# bench harness, the cluster against block-local linking over ranges of 256 (a2de1a3's auto)
# and Afforest, on the roads, a mesh and two social graphs; cc --verify by the cluster on each.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
OUTDIR=${OUT:-gpu-out}; mkdir -p "$OUTDIR"
OUT=$work/runs run_folder ${TOPIC:-cc-cluster}
R="$out"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
(bash .peers/build.sh > "$R/peers-build.txt" 2>&1) &
$W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null &
$W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux.wgr" > /dev/null &
$W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads.wgr" > /dev/null &
$W convert gpu-bin/datasets/Email-Enron.txt.gz "$work/enron.wgr" > /dev/null &
$W convert gpu-bin/datasets/soc-Slashdot0902.txt.gz "$work/slashdot.wgr" > /dev/null &
$W convert grid2d:900 "$work/grid2d-900.wgr" > /dev/null &
place_cli_for_tests
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
san=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
for tool in memcheck synccheck; do
  timeout 60 $san --tool $tool --error-exitcode 9 $W cc grid2d:64 --backend gpu --local-link cluster --verify > "$R/sanitize-$tool.txt" 2>&1
  echo "sanitizer $tool rc=$? $(grep -E 'ERROR SUMMARY|verified' "$R/sanitize-$tool.txt" | tr '\n' ' ')"
done
timeout 300 gpu-bin/tests/gpu_cc --test-threads 1 > "$R/gpu_cc.txt" 2>&1
echo "gpu_cc rc=$? at $SECONDS s: $(grep -E '^test result' "$R/gpu_cc.txt" | tail -1)"
grep -E "panicked|FAILED" "$R/gpu_cc.txt" | head -10
wait
med() { grep -E '^(time|end-to-end): ' "$1" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' '; }
phases() { grep -A6 'phases of run 1' "$1" | grep -E '^ +[a-z]' | grep -v phase | awk '{printf "%s ", $0}' | tr -s ' '; }
for pass in 1 2; do
  for g in ny-u lux usroads grid2d-900 enron slashdot; do
    for ll in cluster 256 off; do
      timeout 60 $W bench "$work/$g.wgr" --algorithm cc --trials 16 --backend gpu --local-link $ll > "$R/$g-$ll-$pass.txt" 2>&1
      echo "$g $ll pass $pass rc=$? $(med "$R/$g-$ll-$pass.txt")| $(phases "$R/$g-$ll-$pass.txt")" | tee -a "$R/table.txt"
    done
  done
done
for g in ny-u lux usroads grid2d-900 enron slashdot; do
  timeout 60 $W cc "$work/$g.wgr" --backend gpu --local-link cluster --verify > "$R/verify-$g.txt" 2>&1
  echo "verify $g rc=$? $(grep -iE 'verified|error' "$R/verify-$g.txt" | head -1)"
done
echo "warpath done at $SECONDS s: $(tail -1 "$R/peers-build.txt")"
for g in ny-u lux usroads grid2d-900; do
  python3 .peers/eclcc/wgr2egr.py "$work/$g.wgr" "$work/$g.egr" > /dev/null 2>&1
  python3 .peers/gapbs/wgr2sg.py "$work/$g.wgr" "$work/$g.sg" > /dev/null 2>&1
  timeout 60 .peers/eclcc/eclcc "$work/$g.egr" 17 > "$R/ecl-$g.txt" 2>&1
  echo "ecl-cc $g rc=$? $(grep -E 'event median|PASS|FAIL' "$R/ecl-$g.txt" | tr '\n' ' ')" | tee -a "$R/table.txt"
  OMP_NUM_THREADS=16 timeout 60 .peers/gapbs/cc -f "$work/$g.sg" -n 16 > "$R/gapbs-cc-$g.txt" 2>&1
  echo "gapbs cc $g rc=$? $(python3 .peers/trial_median.py < "$R/gapbs-cc-$g.txt")" | tee -a "$R/table.txt"
done
echo "done at $SECONDS s"
tar -czf "$OUTDIR/call-a.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
