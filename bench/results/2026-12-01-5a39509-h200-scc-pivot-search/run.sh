#!/usr/bin/env bash
# Session 2026-12-01 (fourth), call P, at the commit in gpu-bin/COMMIT: the GPU SCC's pivot search
# auto / bfs / off (`scc --pivot-search`, 5 runs a choice, the median of each run's device time
# from --json) on USA-road-d.NY, usroads-48, luxembourg_osm, grid2d:1000, web-NotreDame,
# soc-Slashdot0902 and dkron:22; gpu_cc's SCC tests (every choice).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder scc-pivot-search; S="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$S/machine.txt" 2>&1
pack() { tar -czf "$O/call-p.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
place_cli_for_tests
for g in web-NotreDame soc-Slashdot0902 USA-road-d.NY usroads-48 luxembourg_osm; do
  ( $W convert gpu-bin/datasets/$g.*gz "$work/$g.wgr" > /dev/null ) &
done
for spec in dkron:22 grid2d:1000; do ( $W convert $spec "$work/${spec//:/-}.wgr" > /dev/null ) & done
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 150 gpu-bin/tests/gpu_cc strongly --test-threads 1 > "$S/gpu_cc-scc.txt" 2>&1
  echo "gpu_cc (scc) rc=$? at $SECONDS s: $(grep -E '^test result' "$S/gpu_cc-scc.txt" | tail -1)" | tee -a "$S/summary.txt"
  grep -E "panicked|FAILED" "$S/gpu_cc-scc.txt" | head -6 )
wait
pack
for g in USA-road-d.NY usroads-48 luxembourg_osm grid2d-1000 web-NotreDame soc-Slashdot0902 dkron-22; do
  for choice in auto bfs off; do
    for k in $(seq 1 5); do
      timeout 60 $W scc "$work/$g.wgr" --pivot-search $choice --json > "$S/scc-$g-$choice-$k.json" 2>> "$S/scc-$g-$choice-err.txt"
    done
    med=$(python3 -c "
import json,sys,statistics
t=[json.load(open(f))['time_ms'] for f in sys.argv[1:]]
print(f'median {statistics.median(t):.3f} ms of {len(t)} (min {min(t):.3f}, max {max(t):.3f})')" "$S"/scc-$g-$choice-[0-9].json 2>&1)
    echo "scc $g $choice: $med" | tee -a "$S/summary.txt"
  done
  timeout 60 $W scc "$work/$g.wgr" --pivot-search auto --verify > "$S/scc-$g-verify.txt" 2>&1; echo "verify $g rc=$?" | tee -a "$S/summary.txt"
  pack
done
echo "done at $SECONDS s"
