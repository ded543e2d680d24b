#!/usr/bin/env bash
# Session 2026-12-01 (fifth), call A2, at the commit in gpu-bin/COMMIT: gpu_bfs's many-source and
# closeness tests (the ring of level words, the first level pushed on skewed graphs) and gpu_cc's
# SCC tests (the pivot searches on the cluster BFS); the 64-root batch on kron:22, urand:22 and
# USA-road-d.NY by 41450f4's binary and this one, interleaved twice, then one traced batch each;
# bench --algorithm scc on USA-road-d.NY with ECL-SCC (its timed copy built here from .peers, never
# committed) in the same call; `scc --json` 5 runs each on usroads-48, luxembourg_osm, grid2d:1000.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder batch-ring-scc-cluster; S="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; free -g | head -2; } > "$S/machine.txt" 2>&1
pack() { tar -czf "$O/call-a2.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
OLD=$work/warpath-41450f4; xz -dc .carry/old/warpath-41450f4.xz > $OLD; chmod +x $OLD
export WARPATH_REQUIRE_GPU=1
place_cli_for_tests
( nvcc -O3 -arch=sm_90 -o .peers/eclscc/eclscc .peers/eclscc/eclscc_timed.cu > "$S/eclscc-build.txt" 2>&1; echo "eclscc build rc=$?" >> "$S/eclscc-build.txt" ) &
for g in USA-road-d.NY usroads-48 luxembourg_osm; do ( $W convert gpu-bin/datasets/$g.*gz "$work/$g.wgr" > /dev/null ) & done
for spec in kron:22 urand:22 grid2d:1000; do ( $W convert $spec "$work/${spec//:/-}.wgr" > /dev/null ) & done
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 200 gpu-bin/tests/gpu_bfs many_sources --test-threads 1 > "$S/gpu_bfs.txt" 2>&1
  timeout 100 gpu-bin/tests/gpu_bfs closeness --test-threads 1 >> "$S/gpu_bfs.txt" 2>&1
  echo "gpu_bfs rc=$? at $SECONDS s: $(grep -E '^test result' "$S/gpu_bfs.txt" | tr '\n' ' ')" | tee -a "$S/summary.txt"
  grep -E "panicked|FAILED" "$S/gpu_bfs.txt" | head -6 )
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 150 gpu-bin/tests/gpu_cc strongly --test-threads 1 > "$S/gpu_cc-scc.txt" 2>&1
  echo "gpu_cc (scc) rc=$? at $SECONDS s: $(grep -E '^test result' "$S/gpu_cc-scc.txt" | tail -1)" | tee -a "$S/summary.txt"
  grep -E "panicked|FAILED" "$S/gpu_cc-scc.txt" | head -6 )
wait
pack
for pass in 1 2; do
  for g in kron-22 urand-22 USA-road-d.NY; do
    for b in old new; do
      bin=$W; [ $b = old ] && bin=$OLD
      timeout 60 $bin bench "$work/$g.wgr" --algorithm bfs --roots 64 --batch --json "$S/batch-$g-$b-$pass.json" > "$S/batch-$g-$b-$pass.txt" 2>&1
      echo "batch $g $b pass $pass rc=$? $(grep -E '^batch' "$S/batch-$g-$b-$pass.txt" | tr '\n' ' ')" | tee -a "$S/summary.txt"
    done
  done
  pack
done
for g in kron-22 urand-22 USA-road-d.NY; do
  timeout 60 $W bench "$work/$g.wgr" --algorithm bfs --roots 64 --batch --trace --json "$S/batch-$g-trace.json" > "$S/batch-$g-trace.txt" 2>&1
  echo "batch trace $g rc=$?" | tee -a "$S/summary.txt"; grep -E '^ *batch' "$S/batch-$g-trace.txt" | head -30 | tee -a "$S/summary.txt"
done
pack
python3 .peers/eclscc/wgr2egr.py "$work/USA-road-d.NY.wgr" "$work/USA-road-d.NY.egr" >> "$S/egr.txt" 2>&1
echo "converted at $SECONDS s; $(tail -1 "$S/eclscc-build.txt")" | tee -a "$S/summary.txt"
timeout 60 $W bench "$work/USA-road-d.NY.wgr" --algorithm scc --trials 16 --json "$S/scc-USA-road-d.NY-gpu.json" > "$S/scc-USA-road-d.NY-gpu.txt" 2>&1
echo "scc USA-road-d.NY gpu rc=$? $(grep -E '^(time|components|tarjan|verified)' "$S/scc-USA-road-d.NY-gpu.txt" | tr '\n' ' ')" | tee -a "$S/summary.txt"
timeout 60 .peers/eclscc/eclscc "$work/USA-road-d.NY.egr" > "$S/eclscc-USA-road-d.NY.txt" 2>&1
echo "eclscc USA-road-d.NY rc=$?: $(grep -h 'event median' "$S/eclscc-USA-road-d.NY.txt"); $(grep -h 'number of SCCs' "$S/eclscc-USA-road-d.NY.txt")" | tee -a "$S/summary.txt"
pack
for g in usroads-48 luxembourg_osm grid2d-1000; do
  for k in $(seq 1 5); do
    timeout 30 $W scc "$work/$g.wgr" --json > "$S/scc-$g-$k.json" 2>> "$S/scc-$g-err.txt"
  done
  med=$(python3 -c "
import json,sys,statistics
t=[json.load(open(f))['time_ms'] for f in sys.argv[1:]]
print(f'median {statistics.median(t):.3f} ms of {len(t)} (min {min(t):.3f}, max {max(t):.3f})')" "$S"/scc-$g-[0-9].json 2>&1)
  echo "scc $g: $med" | tee -a "$S/summary.txt"
  timeout 30 $W scc "$work/$g.wgr" --verify > "$S/scc-$g-verify.txt" 2>&1; echo "verify $g rc=$?" | tee -a "$S/summary.txt"
done
pack
echo "done at $SECONDS s"
