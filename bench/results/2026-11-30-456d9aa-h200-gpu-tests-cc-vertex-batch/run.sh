#!/usr/bin/env bash
# The final commit: gpu_cc (every option set with one vertex a thread and four), gpu_sssp and
# gpu_bfs; then CC's new default (--vertex-batch auto) against four vertices a thread (the
# default before), interleaved, 16 trials, on the five headline graphs and two roads, cc --verify
# on each, with ECL-CC and the GAP suite's Afforest on the same files in the same call.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
OUTDIR=${OUT:-gpu-out}; mkdir -p "$OUTDIR"
OUT=$work/runs run_folder ${TOPIC:-gpu-tests-cc-vertex-batch}
R="$out"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
graphs="ny-u lux usroads kron-22 urand-22 kron-24 grid2d-5000"
(
  bash .peers/build.sh > "$R/peers-build.txt" 2>&1 &
  $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null &
  $W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux.wgr" > /dev/null &
  $W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads.wgr" > /dev/null &
  for spec in kron:22 urand:22 kron:24 grid2d:5000; do $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null & done
  wait
  for g in $graphs; do python3 .peers/eclcc/wgr2egr.py "$work/$g.wgr" "$work/$g.egr" & python3 .peers/gapbs/wgr2sg.py "$work/$g.wgr" "$work/$g.sg"; wait; done > "$R/peer-inputs.txt" 2>&1
  echo done > "$work/inputs-ready"
) &
place_cli_for_tests
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
for t in gpu_cc gpu_sssp gpu_bfs; do
  timeout 200 gpu-bin/tests/$t --test-threads 1 > "$R/$t.txt" 2>&1
  echo "$t rc=$? at $SECONDS s: $(grep -E '^test result' "$R/$t.txt" | tail -1)"
  grep -E "panicked|FAILED" "$R/$t.txt" | head -6
done
while [ ! -f "$work/kron-24.wgr" ] || [ ! -f "$work/grid2d-5000.wgr" ] || pgrep -f 'warpath convert' > /dev/null; do sleep 2; done
echo "graphs ready at $SECONDS s"
run() { local label=$1 file=$2; shift 2
  timeout 90 $W bench "$file" --algorithm cc --trials 16 --backend gpu "$@" > "$R/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(time|end-to-end): ' "$R/$label.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')" | tee -a "$R/table.txt"
}
for g in $graphs; do
  f="$work/$g.wgr"
  run $g-auto $f --json "$R/cc-$g.json"
  run $g-four $f --vertex-batch 4
  run $g-auto-2 $f
  run $g-four-2 $f --vertex-batch 4
  timeout 30 $W cc "$f" --verify > "$R/verify-$g.txt" 2>&1; echo "verify $g rc=$? $(grep -i verified "$R/verify-$g.txt" | head -1)"
done
echo "warpath done at $SECONDS s"
while [ ! -f "$work/inputs-ready" ] && [ $SECONDS -lt 470 ]; do sleep 2; done
for g in $graphs; do
  [ $SECONDS -lt 540 ] || { echo "peers cut at $SECONDS s"; break; }
  timeout 30 .peers/eclcc/eclcc "$work/$g.egr" 17 > "$R/ecl-$g.txt" 2>&1
  echo "ecl-cc $g rc=$? $(grep -E 'event median|PASS|FAIL' "$R/ecl-$g.txt" | tr '\n' ' ')" | tee -a "$R/table.txt"
  OMP_NUM_THREADS=16 timeout 30 .peers/gapbs/cc -f "$work/$g.sg" -n 16 > "$R/gapbs-cc-$g.txt" 2>&1
  echo "gapbs cc $g rc=$? $(python3 .peers/trial_median.py < "$R/gapbs-cc-$g.txt")" | tee -a "$R/table.txt"
done
echo "done at $SECONDS s"
tar -czf "$OUTDIR/call-m.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
