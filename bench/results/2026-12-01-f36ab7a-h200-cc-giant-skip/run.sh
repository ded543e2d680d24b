#!/usr/bin/env bash
# Session 2026-12-01 (second), call V, at the commit in gpu-bin/COMMIT: gpu_cc; CC with the giant
# skip (the default) against --giant-skip off on seven graphs (16 trials; two interleaved passes
# on the Kronecker and uniform graphs), phases with bytes read; every default result verified;
# ECL-CC and the GAP suite's Afforest on the same files in the same call (the headline's CC rows).
# Then gpu_bfs's many-source test, the many-source batch switching direction against bottom-up
# only (bench --batch, 64 roots) on kron:22, urand:22 and USA-road-d.NY, and closeness of
# Email-Enron (the CPU path, on this machine's cores).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder cc-giant-skip; C="$out"
OUT=$work/runs run_folder bfs-multi-source-directions; B="$out"
for d in "$C" "$B"; do { cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$d/machine.txt" 2>&1; done
pack() { tar -czf "$O/call-v.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
( bash .peers/build.sh > "$C/peers-build.txt" 2>&1 ) &
for spec in kron:22 urand:22 kron:24 grid2d:5000; do ( $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null ) & done
$W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null &
$W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux.wgr" > /dev/null &
$W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads.wgr" > /dev/null &
place_cli_for_tests
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 150 gpu-bin/tests/gpu_cc --test-threads 1 > "$C/gpu_cc.txt" 2>&1
  echo "gpu_cc rc=$? at $SECONDS s: $(grep -E '^test result' "$C/gpu_cc.txt" | tail -1)" | tee -a "$C/summary.txt"
  grep -E "panicked|FAILED" "$C/gpu_cc.txt" | head -4
  timeout 120 gpu-bin/tests/gpu_bfs --test-threads 1 many_sources > "$B/gpu_bfs-many-sources.txt" 2>&1
  echo "gpu_bfs many_sources rc=$? at $SECONDS s: $(grep -E '^test result' "$B/gpu_bfs-many-sources.txt" | tail -1)" | tee -a "$B/summary.txt"
  grep -E "panicked|FAILED" "$B/gpu_bfs-many-sources.txt" | head -4 )
wait
echo "converted at $SECONDS s" | tee -a "$C/summary.txt"
ccgraphs="ny-u lux usroads kron-22 urand-22 kron-24 grid2d-5000"
( for g in $ccgraphs; do python3 .peers/eclcc/wgr2egr.py "$work/$g.wgr" "$work/$g.egr" & python3 .peers/gapbs/wgr2sg.py "$work/$g.wgr" "$work/$g.sg"; wait; done > "$C/peer-inputs.txt" 2>&1; echo done > "$work/inputs-ready" ) &
med() { grep -E '^(algorithm|time|end-to-end): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
cc() { local label=$1 skip=$2 file=$3; shift 3
  timeout 60 $W bench "$file" --algorithm cc --trials 16 --giant-skip $skip "$@" > "$C/cc-$label-$skip.txt" 2>&1
  echo "cc $label skip $skip rc=$? $(med "$C/cc-$label-$skip.txt")" | tee -a "$C/summary.txt"
}
for g in $ccgraphs; do
  cc $g on "$work/$g.wgr" --json "$C/cc-$g.json"; cc $g off "$work/$g.wgr"
  timeout 30 $W cc "$work/$g.wgr" --verify > "$C/verify-$g.txt" 2>&1; echo "verify $g rc=$? $(grep -i verified "$C/verify-$g.txt" | head -1)" | tee -a "$C/summary.txt"
done
for g in kron-22 urand-22 kron-24; do cc $g-2 off "$work/$g.wgr"; cc $g-2 on "$work/$g.wgr"; done
timeout 60 $W bench "$work/kron-22.wgr" --algorithm bfs --roots 4 --trace > "$C/bfs-kron-22-bandwidths.txt" 2>&1
grep -iE "device copy bandwidth" "$C/bfs-kron-22-bandwidths.txt" | head -2 | tee -a "$C/summary.txt"
bb() { local label=$1 file=$2
  timeout 150 $W bench "$file" --algorithm bfs --roots 64 --batch > "$B/bfs-$label-batch.txt" 2>&1
  echo "bfs batch $label rc=$? at $SECONDS s $(grep -E '^batch' "$B/bfs-$label-batch.txt")" | tee -a "$B/summary.txt"
}
bb kron-22 "$work/kron-22.wgr"; bb urand-22 "$work/urand-22.wgr"; bb ny gpu-bin/datasets/USA-road-d.NY.gr.gz
{ TIMEFORMAT='wall %R s'; time timeout 60 $W closeness gpu-bin/datasets/Email-Enron.txt.gz > "$B/closeness-enron.txt" 2>&1; } 2> "$B/closeness-enron-time.txt"
echo "closeness enron $(grep -iE 'ms|backend' "$B/closeness-enron.txt" | head -4 | tr '\n' ' ') $(cat "$B/closeness-enron-time.txt")" | tee -a "$B/summary.txt"
echo "warpath done at $SECONDS s" | tee -a "$C/summary.txt"
pack
while [ ! -f "$work/inputs-ready" ] && [ $SECONDS -lt 300 ]; do sleep 2; done
for g in $ccgraphs; do
  timeout 30 .peers/eclcc/eclcc "$work/$g.egr" 17 > "$C/ecl-$g.txt" 2>&1
  echo "ecl-cc $g rc=$? $(grep -E 'event median|PASS|FAIL' "$C/ecl-$g.txt" | tr '\n' ' ')" | tee -a "$C/summary.txt"
  OMP_NUM_THREADS=16 timeout 30 .peers/gapbs/cc -f "$work/$g.sg" -n 16 > "$C/gapbs-cc-$g.txt" 2>&1
  echo "gapbs cc $g rc=$? $(python3 .peers/trial_median.py < "$C/gapbs-cc-$g.txt")" | tee -a "$C/summary.txt"
  pack
done
echo "done at $SECONDS s" | tee -a "$C/summary.txt"
pack
