#!/usr/bin/env bash
# Session 2026-12-01 (seventh), call H1, at the commit in gpu-bin/COMMIT (the session's final
# kernels): the headline rows, as call U of 64932db. SSSP on the five graphs (16 roots, one pass
# traced per bucket) with the GAP suite's delta-stepping on 16 cores; CC on the five graphs and two
# roads (16 trials, phases with bytes read) with ECL-CC and the GAP suite's Afforest; every
# result verified; the copy bandwidth of the same run (BFS bench, traced).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder sssp-headline; S="$out"
OUT=$work/runs run_folder cc-headline; C="$out"
for d in "$S" "$C"; do { cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$d/machine.txt" 2>&1; done
pack() { tar -czf "$O/call-h1.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
( bash .peers/build.sh > "$C/peers-build.txt" 2>&1 ) &
gunzip -c gpu-bin/datasets/USA-road-d.NY.gr.gz > "$work/ny.gr" &
for spec in kron:22 urand:22 kron:24 grid2d:5000; do
  f="$work/${spec//:/-}"
  ( $W convert "$spec" "$f-w.wgr" --weights uniform:1:255 > /dev/null; $W convert "$f-w.wgr" "$f-w.wel" > /dev/null ) &
  ( $W convert "$spec" "$f.wgr" > /dev/null ) &
done
$W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null &
$W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux.wgr" > /dev/null &
$W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads.wgr" > /dev/null &
wait
echo "converted at $SECONDS s" | tee -a "$S/summary.txt"
ccgraphs="ny-u lux usroads kron-22 urand-22 kron-24 grid2d-5000"
( for g in $ccgraphs; do python3 .peers/eclcc/wgr2egr.py "$work/$g.wgr" "$work/$g.egr" & python3 .peers/gapbs/wgr2sg.py "$work/$g.wgr" "$work/$g.sg"; wait; done > "$C/peer-inputs.txt" 2>&1; echo done > "$work/inputs-ready" ) &
med() { grep -E '^(algorithm|time|end-to-end|relaxations per edge): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
for pass in 1; do
  for g in kron-22 urand-22 ny kron-24 grid2d-5000; do
    file="$work/$g-w.wgr"; [ $g = ny ] && file=gpu-bin/datasets/USA-road-d.NY.gr.gz
    extra=(); [ $pass = 1 ] && extra=(--trace --json "$S/sssp-$g.json")
    timeout 100 $W bench "$file" --algorithm sssp --roots 16 "${extra[@]}" > "$S/sssp-$g-$pass.txt" 2>&1
    echo "sssp $g pass $pass rc=$? $(med "$S/sssp-$g-$pass.txt")" | tee -a "$S/summary.txt"
  done
  pack
done
for g in kron-22 urand-22 grid2d-5000; do
  timeout 60 $W sssp "$work/$g-w.wgr" --verify > "$S/verify-$g.txt" 2>&1; echo "verify $g rc=$? $(grep -i verif "$S/verify-$g.txt" | head -1)" | tee -a "$S/summary.txt"
done
timeout 60 $W sssp gpu-bin/datasets/USA-road-d.NY.gr.gz --verify > "$S/verify-ny.txt" 2>&1; echo "verify ny rc=$? $(grep -i verif "$S/verify-ny.txt" | head -1)" | tee -a "$S/summary.txt"
for g in $ccgraphs; do
  timeout 90 $W bench "$work/$g.wgr" --algorithm cc --trials 16 --json "$C/cc-$g.json" > "$C/cc-$g.txt" 2>&1
  echo "cc $g rc=$? $(med "$C/cc-$g.txt")" | tee -a "$C/summary.txt"
  timeout 30 $W cc "$work/$g.wgr" --verify > "$C/verify-$g.txt" 2>&1; echo "verify $g rc=$? $(grep -i verified "$C/verify-$g.txt" | head -1)" | tee -a "$C/summary.txt"
done
timeout 60 $W bench "$work/kron-22.wgr" --algorithm bfs --roots 4 --trace > "$S/bfs-kron-22-bandwidths.txt" 2>&1
grep -iE "copy bandwidth|pinned" "$S/bfs-kron-22-bandwidths.txt" | head -3 | tee -a "$S/summary.txt"
cp "$S/bfs-kron-22-bandwidths.txt" "$C/"
echo "warpath done at $SECONDS s" | tee -a "$S/summary.txt"
pack
gap() { local label=$1 limit=$2 file=$3; shift 3
  OMP_NUM_THREADS=16 timeout $limit .peers/gapbs/sssp -f "$file" -n 16 "$@" > "$S/gapbs-$label.txt" 2>&1
  echo "gapbs sssp $label rc=$? at $SECONDS s $(python3 .peers/trial_median.py < "$S/gapbs-$label.txt")" | tee -a "$S/summary.txt"
  pack
}
gap ny 30 "$work/ny.gr" -d 50000
gap kron-22 60 "$work/kron-22-w.wel" -s -d 2
gap urand-22 60 "$work/urand-22-w.wel" -s -d 2
while [ ! -f "$work/inputs-ready" ] && [ $SECONDS -lt 380 ]; do sleep 2; done
for g in $ccgraphs; do
  [ $SECONDS -lt 430 ] || { echo "cc peers cut at $SECONDS s"; break; }
  timeout 30 .peers/eclcc/eclcc "$work/$g.egr" 17 > "$C/ecl-$g.txt" 2>&1
  echo "ecl-cc $g rc=$? $(grep -E 'event median|PASS|FAIL' "$C/ecl-$g.txt" | tr '\n' ' ')" | tee -a "$C/summary.txt"
  OMP_NUM_THREADS=16 timeout 30 .peers/gapbs/cc -f "$work/$g.sg" -n 16 > "$C/gapbs-cc-$g.txt" 2>&1
  echo "gapbs cc $g rc=$? $(python3 .peers/trial_median.py < "$C/gapbs-cc-$g.txt")" | tee -a "$C/summary.txt"
  pack
done
[ $SECONDS -lt 400 ] && gap kron-24 100 "$work/kron-24-w.wel" -s -d 2
[ $SECONDS -lt 470 ] && gap grid2d-5000 90 "$work/grid2d-5000-w.wel" -s -d 2
echo "done at $SECONDS s" | tee -a "$S/summary.txt"
pack
