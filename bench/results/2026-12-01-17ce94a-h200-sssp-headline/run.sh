#!/usr/bin/env bash
# Session 2026-12-01 (tenth), call B, at the commit in gpu-bin/COMMIT (the session's final code):
# gpu_sssp (every dataset) while the graphs convert; issue 51's headline at the final defaults
# (tail growth auto): SSSP on the five graphs (16 roots, traced) with parents, and distances only
# on the three Kronecker and uniform graphs, every result verified; the GAP suite's
# delta-stepping on 16 cores in the same call on all five.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder sssp-headline; S="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$S/machine.txt" 2>&1
pack() { tar -czf "$O/call-b.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
( bash .peers/build.sh > "$S/peers-build.txt" 2>&1 ) &
gunzip -c gpu-bin/datasets/USA-road-d.NY.gr.gz > "$work/ny.gr" &
for spec in kron:22 urand:22 kron:24 grid2d:5000; do
  f="$work/${spec//:/-}"; [ -f "$f-w.wgr" ] || ( $W convert "$spec" "$f-w.wgr" --weights uniform:1:255 > /dev/null ) &
done
place_cli_for_tests
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 240 gpu-bin/tests/gpu_sssp --test-threads 1 > "$S/gpu_sssp.txt" 2>&1
  echo "gpu_sssp rc=$? at $SECONDS s: $(grep -E '^test result' "$S/gpu_sssp.txt" | tail -1)" | tee -a "$S/summary.txt"
  grep -E "panicked|FAILED" "$S/gpu_sssp.txt" | head -6 ) &
tests=$!
wait $(jobs -p | grep -v "^$tests$") 2>/dev/null
echo "converted at $SECONDS s" | tee -a "$S/summary.txt"
for g in kron-22 urand-22 kron-24 grid2d-5000; do
  ( [ -f "$work/$g-w.wel" ] || $W convert "$work/$g-w.wgr" "$work/$g-w.wel" > /dev/null ) &
done
wait $tests
pack
med() { grep -E '^(algorithm|time|end-to-end|relaxations per edge): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
for g in kron-22 urand-22 ny kron-24 grid2d-5000; do
  file="$work/$g-w.wgr"; [ $g = ny ] && file=gpu-bin/datasets/USA-road-d.NY.gr.gz
  timeout 100 $W bench "$file" --algorithm sssp --roots 16 --trace --json "$S/sssp-$g.json" > "$S/sssp-$g-1.txt" 2>&1
  echo "sssp $g rc=$? at $SECONDS s $(med "$S/sssp-$g-1.txt")" | tee -a "$S/summary.txt"
  if [ $g != ny ] && [ $g != grid2d-5000 ]; then
    timeout 100 $W bench "$file" --algorithm sssp --roots 16 --distances-only --json "$S/sssp-$g-distances-only.json" > "$S/sssp-$g-distances-only.txt" 2>&1
    echo "sssp $g distances-only rc=$? at $SECONDS s $(med "$S/sssp-$g-distances-only.txt")" | tee -a "$S/summary.txt"
  fi
  pack
done
wait
echo "warpath done, .wel converted at $SECONDS s" | tee -a "$S/summary.txt"
gap() { local label=$1 limit=$2 file=$3; shift 3
  OMP_NUM_THREADS=16 timeout $limit .peers/gapbs/sssp -f "$file" -n 16 "$@" > "$S/gapbs-$label.txt" 2>&1
  echo "gapbs sssp $label rc=$? at $SECONDS s $(python3 .peers/trial_median.py < "$S/gapbs-$label.txt")" | tee -a "$S/summary.txt"
  pack
}
gap ny 30 "$work/ny.gr" -d 50000
gap kron-22 60 "$work/kron-22-w.wel" -s -d 2
gap urand-22 60 "$work/urand-22-w.wel" -s -d 2
[ $SECONDS -lt 440 ] && gap kron-24 110 "$work/kron-24-w.wel" -s -d 2
[ $SECONDS -lt 480 ] && gap grid2d-5000 95 "$work/grid2d-5000-w.wel" -s -d 2
echo "done at $SECONDS s" | tee -a "$S/summary.txt"
pack
