#!/usr/bin/env bash
# Issue 52's headline at the commit in gpu-bin: warpath's default CC (16 trials, kernel time
# and end to end, `cc --verify`) on USA-road-d.NY (undirected), kron:22, urand:22, kron:24 and
# grid2d:5000, with ECL-CC and the GAP suite's Afforest (16 cores) on the same files in the
# same call. The peers are built beforehand (their code and build are not part of this folder).
set -u
cd "$(dirname "$0")/.."
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1
O=${OUT:-gpu-out}; R="$work/cc"; rm -rf "$R"; mkdir -p "$O" "$R"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
$W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null &
for spec in kron:22 urand:22 kron:24 grid2d:5000; do $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null & done
wait
echo "converted at $SECONDS s"
graphs="ny-u kron-22 urand-22 kron-24 grid2d-5000"
for g in $graphs; do ( python3 .peers/eclcc/wgr2egr.py "$work/$g.wgr" "$work/$g.egr"; python3 .peers/gapbs/wgr2sg.py "$work/$g.wgr" "$work/$g.sg" ) >> "$R/peer-inputs.txt" 2>&1 & done
for g in $graphs; do
  timeout 60 $W bench "$work/$g.wgr" --algorithm cc --trials 16 --backend gpu --json "$R/cc-$g.json" > "$R/cc-$g.txt" 2>&1
  echo "cc $g rc=$? $(grep -E '^(time|end-to-end): ' "$R/cc-$g.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')"
  timeout 30 $W cc "$work/$g.wgr" --verify > "$R/verify-$g.txt" 2>&1; echo "verify $g rc=$? $(grep -i verified "$R/verify-$g.txt" | head -1)"
done
wait
echo "peers from $SECONDS s"
for g in $graphs; do
  timeout 60 .peers/eclcc/eclcc "$work/$g.egr" 17 > "$R/ecl-$g.txt" 2>&1
  echo "ecl-cc $g rc=$? $(grep -E 'event median|components|PASS|FAIL' "$R/ecl-$g.txt" | tr '\n' ' ')"
  OMP_NUM_THREADS=16 timeout 60 .peers/gapbs/cc -f "$work/$g.sg" -n 16 > "$R/gapbs-cc-$g.txt" 2>&1
  echo "gapbs cc $g rc=$? $(python3 .peers/trial_median.py < "$R/gapbs-cc-$g.txt")"
done
echo "done at $SECONDS s"
rm -f "$work"/*.egr "$work"/*.sg
tar -czf "$O/cc-headline.tar.gz" -C "$R" .
