#!/usr/bin/env bash
# Issue 51's headline call for entry 97: the headline (warpath's default on
# USA-road-d.NY, kron:22, urand:22, grid2d:5000 and kron:24, 16 roots, traced), the GAP suite's
# sssp on the same files, the copy and pinned bandwidths; then the verify tables.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
place_cli_for_tests
O=${OUT:-gpu-out}/headline; mkdir -p "$O"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$O/machine.txt" 2>&1
( cd .peers/gapbs && g++ -std=c++11 -O3 -Wall -fopenmp src/sssp.cc -o sssp ) > /dev/null 2>&1 &
gunzip -c gpu-bin/datasets/USA-road-d.NY.gr.gz > "$work/ny.gr"
for spec in kron:22 urand:22 grid2d:5000 kron:24; do
  f="$work/${spec//:/-}"
  ( [ -f "$f.wgr" ] || $W convert "$spec" "$f.wgr" --weights uniform:1:255 > /dev/null
    case $spec in kron:22|urand:22) [ -f "$f.wel" ] || $W convert "$f.wgr" "$f.wel" > /dev/null;; esac ) &
done


wait
echo "converted at $SECONDS s"
for g in ny kron-22 urand-22 grid2d-5000 kron-24; do
  file="$work/$g.wgr"; [ $g = ny ] && file=gpu-bin/datasets/USA-road-d.NY.gr.gz
  timeout 120 $W bench "$file" --algorithm sssp --roots 16 --backend gpu --trace --json "$O/sssp-$g.json" > "$O/sssp-$g.txt" 2>&1
  echo "sssp $g rc=$? $(grep -E '^(time|end-to-end|download|relaxations per edge): ' "$O/sssp-$g.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')"
done
timeout 60 $W bench "$work/kron-22.wgr" --algorithm bfs --roots 4 --backend gpu --trace > "$O/bfs-kron-22-bandwidths.txt" 2>&1
grep -E "copy bandwidth|pinned" "$O/bfs-kron-22-bandwidths.txt" | head -3
gap() { local label=$1 file=$2; shift 2
  OMP_NUM_THREADS=16 timeout 100 .peers/gapbs/sssp -f "$file" -n 16 "$@" > "$O/gapbs-$label.txt" 2>&1
  echo "gapbs $label rc=$? $(grep -E 'Average Time' "$O/gapbs-$label.txt")"
}
gap ny "$work/ny.gr" -d 50000; gap kron-22 "$work/kron-22.wel" -s -d 2; gap urand-22 "$work/urand-22.wel" -s -d 2
echo "headline done at $SECONDS s"
SKIP_TESTS=1 OUT="${OUT:-gpu-out}/verify" bash scripts/gpu-run > "$O/gpu-run.txt" 2>&1; echo "verify rc=$? at $SECONDS s"
tail -3 "$O/gpu-run.txt"
cd "${OUT:-gpu-out}" && tar -czf final.tgz headline verify && rm -rf headline verify
