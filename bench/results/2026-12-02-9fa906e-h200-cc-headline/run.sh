#!/usr/bin/env bash
# Session 2026-12-02, call C, at the commit in gpu-bin/COMMIT (CC's kernel time from just before
# its launch is queued; the heads gathered on the device): gpu_placement and gpu_cc while the
# peers build and their inputs convert; the window's A/B, 1a900da's binary (.carry/old-warpath.xz,
# the same kernels) against this one, interleaved, two passes; issue 52's headline: CC on the five
# graphs and two roads (16 trials, traced), `cc --verify` on each, ECL-CC and the GAP suite's
# Afforest in the same call.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
xz -dc .carry/old-warpath.xz > gpu-bin/warpath-1a900da && chmod +x gpu-bin/warpath-1a900da
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder cc-headline; C="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$C/machine.txt" 2>&1
pack() { tar -czf "$O/call-c.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
( [ -x .peers/eclcc/eclcc ] && [ -x .peers/gapbs/cc ] || bash .peers/build.sh > "$C/peers-build.txt" 2>&1 ) &
for spec in kron:22 urand:22 kron:24 grid2d:5000; do
  f="$work/${spec//:/-}"; [ -f "$f.wgr" ] || ( $W convert "$spec" "$f.wgr" > /dev/null ) &
done
[ -f "$work/ny-u.wgr" ] || $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null &
[ -f "$work/lux.wgr" ] || $W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux.wgr" > /dev/null &
[ -f "$work/usroads.wgr" ] || $W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads.wgr" > /dev/null &
place_cli_for_tests
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  for t in gpu_placement gpu_cc; do
    timeout 200 gpu-bin/tests/$t --test-threads 1 > "$C/$t.txt" 2>&1
    echo "$t rc=$? at $SECONDS s: $(grep -E '^test result' "$C/$t.txt" | tail -1)" | tee -a "$C/summary.txt"
    grep -E "panicked|FAILED" "$C/$t.txt" | head -6
  done ) &
tests=$!
wait $(jobs -p | grep -v "^$tests$") 2>/dev/null
echo "converted at $SECONDS s" | tee -a "$C/summary.txt"
ccgraphs="ny-u lux usroads kron-22 urand-22 kron-24 grid2d-5000"
( for g in $ccgraphs; do
    [ -f "$work/$g.egr" ] || python3 .peers/eclcc/wgr2egr.py "$work/$g.wgr" "$work/$g.egr" &
    [ -f "$work/$g.sg" ] || python3 .peers/gapbs/wgr2sg.py "$work/$g.wgr" "$work/$g.sg"; wait
  done > "$C/peer-inputs.txt" 2>&1; echo done > "$work/inputs-ready" ) &
wait $tests
pack
med() { grep -E '^(time|end-to-end): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
for pass in 1 2; do
  for g in ny-u lux usroads kron-22 grid2d-5000; do
    for b in 1a900da new; do
      bin=$W; [ $b = new ] || bin=gpu-bin/warpath-$b
      timeout 60 $bin bench "$work/$g.wgr" --algorithm cc --trials 16 > "$C/window-$g-$b-$pass.txt" 2>&1
      echo "window $g $b pass $pass rc=$? $(med "$C/window-$g-$b-$pass.txt")" | tee -a "$C/summary.txt"
    done
  done
done
pack
for g in $ccgraphs; do
  timeout 90 $W bench "$work/$g.wgr" --algorithm cc --trials 16 --trace --json "$C/cc-$g.json" > "$C/cc-$g.txt" 2>&1
  echo "cc $g rc=$? $(med "$C/cc-$g.txt")" | tee -a "$C/summary.txt"
  timeout 30 $W cc "$work/$g.wgr" --verify > "$C/verify-$g.txt" 2>&1; echo "verify $g rc=$? $(grep -i verified "$C/verify-$g.txt" | head -1)" | tee -a "$C/summary.txt"
done
timeout 60 $W bench "$work/kron-22.wgr" --algorithm bfs --roots 4 --trace > "$C/bfs-kron-22-bandwidths.txt" 2>&1
grep -iE "copy bandwidth|pinned" "$C/bfs-kron-22-bandwidths.txt" | head -3 | tee -a "$C/summary.txt"
echo "warpath done at $SECONDS s" | tee -a "$C/summary.txt"
pack
while [ ! -f "$work/inputs-ready" ] && [ $SECONDS -lt 420 ]; do sleep 2; done
for g in $ccgraphs; do
  [ $SECONDS -lt 520 ] || { echo "cc peers cut at $SECONDS s" | tee -a "$C/summary.txt"; break; }
  timeout 30 .peers/eclcc/eclcc "$work/$g.egr" 17 > "$C/ecl-$g.txt" 2>&1
  echo "ecl-cc $g rc=$? $(grep -E 'event median|verification' "$C/ecl-$g.txt" | tr '\n' ' ')" | tee -a "$C/summary.txt"
  OMP_NUM_THREADS=16 timeout 30 .peers/gapbs/cc -f "$work/$g.sg" -n 16 > "$C/gapbs-cc-$g.txt" 2>&1
  echo "gapbs cc $g rc=$? $(python3 .peers/trial_median.py < "$C/gapbs-cc-$g.txt")" | tee -a "$C/summary.txt"
  pack
done
echo "done at $SECONDS s" | tee -a "$C/summary.txt"
pack
