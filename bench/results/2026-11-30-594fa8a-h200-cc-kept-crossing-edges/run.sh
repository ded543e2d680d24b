#!/usr/bin/env bash
# Entry 113: edges between ranges kept in registers (HEAD) against a2de1a3's kernel (cc-h, same host),
# interleaved, with
# ECL-CC and the GAP suite's Afforest on the same files in the same call; cc --verify on every
# graph; then gpu_cc.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
export WARPATH_DATASETS="$PWD/gpu-bin/datasets"
O=${OUT:-gpu-out}; R="$work/r"; rm -rf "$R"; mkdir -p "$O" "$R"
W=gpu-bin/warpath; OLD=.carry/x/cc-h.cubin
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
(bash .peers/build.sh > "$R/peers-build.txt" 2>&1) &
$W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null &
$W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux.wgr" > /dev/null &
$W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads.wgr" > /dev/null &
for spec in kron:22 urand:22 kron:24 grid2d:5000; do $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null & done
wait
echo "converted at $SECONDS s: $(tail -1 "$R/peers-build.txt")"
graphs="ny-u lux usroads kron-22 urand-22 kron-24 grid2d-5000"
for g in $graphs; do ( python3 .peers/eclcc/wgr2egr.py "$work/$g.wgr" "$work/$g.egr"; python3 .peers/gapbs/wgr2sg.py "$work/$g.wgr" "$work/$g.sg" ) >> "$R/peer-inputs.txt" 2>&1 & done
run() { local label=$1 file=$2; shift 2
  timeout 90 $W bench "$file" --algorithm cc --trials 16 --backend gpu "$@" > "$R/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(time|end-to-end): ' "$R/$label.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')| $(grep -A8 'phases of run 1' "$R/$label.txt" | grep -E '^ +[a-z]' | grep -v phase | awk '{printf "%s ", $(NF-4)}') $(tail -n 1 "$R/$label.txt" | grep -i error)"
}
for g in $graphs; do
  f="$work/$g.wgr"
  run $g-new $f --json "$R/cc-$g.json"
  WARPATH_KERNELS=$OLD run $g-old $f
  run $g-new-2 $f
  timeout 30 $W cc "$f" --verify > "$R/verify-$g.txt" 2>&1; echo "verify $g rc=$? $(grep -i verified "$R/verify-$g.txt" | head -1)"
done
echo "variants done at $SECONDS s"
wait
for g in $graphs; do
  timeout 60 .peers/eclcc/eclcc "$work/$g.egr" 17 > "$R/ecl-$g.txt" 2>&1
  echo "ecl-cc $g rc=$? $(grep -E 'event median|PASS|FAIL' "$R/ecl-$g.txt" | tr '\n' ' ')"
  OMP_NUM_THREADS=16 timeout 60 .peers/gapbs/cc -f "$work/$g.sg" -n 16 > "$R/gapbs-cc-$g.txt" 2>&1
  echo "gapbs cc $g rc=$? $(python3 .peers/trial_median.py < "$R/gapbs-cc-$g.txt")"
done
echo "peers done at $SECONDS s"
rm -f "$work"/*.egr "$work"/*.sg
tar -czf "$O/call-s.tar.gz" -C "$R" .
export WARPATH_REQUIRE_GPU=1 WARPATH_SOURCE_TREE="$PWD"
timeout 120 gpu-bin/tests/gpu_cc --test-threads=1 > "$O/gpu_cc.log" 2>&1; echo "gpu_cc rc=$? $(grep -E '^test result' "$O/gpu_cc.log")"
echo "all done at $SECONDS s"
