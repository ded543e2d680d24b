#!/usr/bin/env bash
# Session 2026-12-01 (fourth), call T4, at the commit in gpu-bin/COMMIT: the GPU SCC with the
# pivot's searches alone first (gpu_cc's three SCC tests); bench --algorithm scc on
# web-NotreDame, soc-Slashdot0902, dkron:22 and dkron:24 with ECL-SCC (its timed copy built here
# from .peers, never committed: 16 runs after a warm-up in one process) on the same files.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder scc-gpu-ecl-scc; S="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; free -g | head -2; nvcc --version | tail -2; } > "$S/machine.txt" 2>&1
pack() { tar -czf "$O/call-t4.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
( nvcc -O3 -arch=sm_90 -o .peers/eclscc/eclscc .peers/eclscc/eclscc_timed.cu > "$S/eclscc-build.txt" 2>&1; echo "eclscc build rc=$?" >> "$S/eclscc-build.txt" ) &
for g in web-NotreDame soc-Slashdot0902; do
  [ -f "$work/$g.wgr" ] || ( $W convert gpu-bin/datasets/$g.txt.gz "$work/$g.wgr" > /dev/null ) &
done
for spec in dkron:22 dkron:24; do [ -f "$work/${spec//:/-}.wgr" ] || ( $W convert $spec "$work/${spec//:/-}.wgr" > /dev/null ) & done
place_cli_for_tests
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 150 gpu-bin/tests/gpu_cc strongly --test-threads 1 > "$S/gpu_cc-scc.txt" 2>&1
  echo "gpu_cc (scc) rc=$? at $SECONDS s: $(grep -E '^test result' "$S/gpu_cc-scc.txt" | tail -1)" | tee -a "$S/summary.txt"
  grep -E "panicked|FAILED" "$S/gpu_cc-scc.txt" | head -6 )
wait
for g in web-NotreDame soc-Slashdot0902 dkron-22 dkron-24; do
  python3 .peers/eclscc/wgr2egr.py "$work/$g.wgr" "$work/$g.egr" >> "$S/egr.txt" 2>&1
done
echo "converted at $SECONDS s; $(tail -1 "$S/eclscc-build.txt")" | tee -a "$S/summary.txt"
pack
for g in web-NotreDame soc-Slashdot0902 dkron-22 dkron-24; do
  trials=16; [ $g = dkron-24 ] && trials=8
  timeout 150 $W bench "$work/$g.wgr" --algorithm scc --trials $trials --json "$S/scc-$g-gpu.json" > "$S/scc-$g-gpu.txt" 2>&1
  echo "scc $g gpu rc=$? $(grep -E '^(time|components|tarjan|verified)' "$S/scc-$g-gpu.txt" | tr '\n' ' ')" | tee -a "$S/summary.txt"
  timeout 120 .peers/eclscc/eclscc "$work/$g.egr" > "$S/eclscc-$g.txt" 2>&1
  echo "eclscc $g rc=$?: $(grep -h 'event median' "$S/eclscc-$g.txt"); $(grep -h 'number of SCCs' "$S/eclscc-$g.txt")" | tee -a "$S/summary.txt"
  pack
done
timeout 100 $W bench "$work/dkron-24.wgr" --algorithm scc --trials 4 --backend cpu --json "$S/scc-dkron-24-cpu.json" > "$S/scc-dkron-24-cpu.txt" 2>&1
echo "scc dkron-24 cpu rc=$? $(grep -E '^(time|verified)' "$S/scc-dkron-24-cpu.txt" | tr '\n' ' ')" | tee -a "$S/summary.txt"
pack
echo "done at $SECONDS s"
