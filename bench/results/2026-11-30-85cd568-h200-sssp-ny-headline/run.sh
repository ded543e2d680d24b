#!/usr/bin/env bash
# Issue 51's headline row for USA-road-d.NY at the commit in gpu-bin (the default, auto, takes
# the cluster there), with the GAP suite's sssp on the same file in the same call (built here
# beforehand; its code and build are not part of the results).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
OUTDIR=${OUT:-gpu-out}; mkdir -p "$OUTDIR"
OUT=$work/runs run_folder sssp-ny-headline
R="$out"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
make -C .peers/gapbs -j16 sssp > "$work/build-gapbs.log" 2>&1 &
gunzip -c gpu-bin/datasets/USA-road-d.NY.gr.gz > "$work/ny.gr"
wait
echo "gapbs built at $SECONDS s: $(ls .peers/gapbs/sssp)"
timeout 90 $W bench gpu-bin/datasets/USA-road-d.NY.gr.gz --algorithm sssp --roots 16 --backend gpu --trace --json "$R/sssp-ny.json" > "$R/sssp-ny.txt" 2>&1
echo "warpath ny rc=$? $(grep -E '^(algorithm|time|end-to-end|relaxations per edge): ' "$R/sssp-ny.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')"
OMP_NUM_THREADS=16 timeout 60 .peers/gapbs/sssp -f "$work/ny.gr" -n 16 -d 50000 > "$R/gapbs-ny.txt" 2>&1
echo "gapbs ny rc=$? $(grep -E 'Average Time' "$R/gapbs-ny.txt")"
echo "done at $SECONDS s"
tar -czf "$OUTDIR/ny.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
