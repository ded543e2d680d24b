#!/usr/bin/env bash
# Session 2026-12-01 (fourth), call S, at the commit in gpu-bin/COMMIT: the GPU SCC's tests
# (gpu_cc's three), gpu_bfs (the many-source kernel's walk moved to operators, pushes() with the
# small-graph rule); bench --algorithm scc on web-NotreDame, soc-Slashdot0902 and dkron:22 on the
# GPU and on 16 cores, with ECL-SCC (built here from .peers, never committed) on the same files;
# closeness of Email-Enron on 16 cores; bench --batch on kron:22, urand:22 and USA-road-d.NY.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder scc-gpu-ecl-scc; S="$out"
OUT=$work/runs run_folder many-sources-16-cores; M="$out"
for d in "$S" "$M"; do { cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; free -g | head -2; nvcc --version | tail -2; } > "$d/machine.txt" 2>&1; done
pack() { tar -czf "$O/call-s.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
( nvcc -O3 -arch=sm_90 -o .peers/eclscc/eclscc .peers/eclscc/ECL-SCC_10.cu > "$S/eclscc-build.txt" 2>&1; echo "eclscc build rc=$?" >> "$S/eclscc-build.txt" ) &
( $W convert gpu-bin/datasets/web-NotreDame.txt.gz "$work/web-NotreDame.wgr" > /dev/null ) &
( $W convert gpu-bin/datasets/soc-Slashdot0902.txt.gz "$work/soc-Slashdot0902.wgr" > /dev/null ) &
( $W convert dkron:22 "$work/dkron-22.wgr" > /dev/null ) &
for spec in kron:22 urand:22; do ( $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null ) & done
place_cli_for_tests
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 150 gpu-bin/tests/gpu_cc strongly --test-threads 1 > "$S/gpu_cc-scc.txt" 2>&1
  echo "gpu_cc (scc) rc=$? at $SECONDS s: $(grep -E '^test result' "$S/gpu_cc-scc.txt" | tail -1)" | tee -a "$S/summary.txt"
  grep -E "panicked|FAILED" "$S/gpu_cc-scc.txt" | head -6 )
wait
pack
for g in web-NotreDame soc-Slashdot0902 dkron-22; do
  python3 .peers/eclscc/wgr2egr.py "$work/$g.wgr" "$work/$g.egr" >> "$S/egr.txt" 2>&1
done
echo "converted at $SECONDS s; $(tail -1 "$S/eclscc-build.txt")" | tee -a "$S/summary.txt"
for g in web-NotreDame soc-Slashdot0902 dkron-22; do
  timeout 100 $W bench "$work/$g.wgr" --algorithm scc --trials 16 --json "$S/scc-$g-gpu.json" > "$S/scc-$g-gpu.txt" 2>&1
  echo "scc $g gpu rc=$? $(grep -E '^(time|components|tarjan|verified)' "$S/scc-$g-gpu.txt" | tr '\n' ' ')" | tee -a "$S/summary.txt"
  timeout 100 $W bench "$work/$g.wgr" --algorithm scc --trials 16 --backend cpu --json "$S/scc-$g-cpu.json" > "$S/scc-$g-cpu.txt" 2>&1
  echo "scc $g cpu rc=$? $(grep -E '^(time|verified)' "$S/scc-$g-cpu.txt" | tr '\n' ' ')" | tee -a "$S/summary.txt"
  for k in $(seq 1 9); do timeout 60 .peers/eclscc/eclscc "$work/$g.egr" > "$S/eclscc-$g-$k.txt" 2>&1; done
  echo "eclscc $g: $(grep -h 'compute time' "$S"/eclscc-$g-*.txt | awk '{print $3*1000}' | sort -n | tr '\n' ' ') ms; $(grep -h 'number of SCCs' "$S/eclscc-$g-1.txt")" | tee -a "$S/summary.txt"
  pack
done
timeout 100 $W scc "$work/dkron-22.wgr" --verify > "$S/scc-dkron-22-verify.txt" 2>&1; echo "scc dkron-22 verify rc=$?" | tee -a "$S/summary.txt"
timeout 60 $W bench gpu-bin/datasets/Email-Enron.txt.gz --algorithm closeness --trials 3 --json "$M/closeness-enron.json" > "$M/closeness-enron.txt" 2>&1
echo "closeness enron rc=$? $(grep -E '^time' "$M/closeness-enron.txt" | tr '\n' ' ')" | tee -a "$M/summary.txt"
timeout 60 $W info gpu-bin/datasets/Email-Enron.txt.gz --diameter > "$M/diameter-enron.txt" 2>&1; echo "diameter rc=$? $(grep -i diameter "$M/diameter-enron.txt" | tr '\n' ' ')" | tee -a "$M/summary.txt"
pack
for g in kron-22 urand-22 ny; do
  file="$work/$g.wgr"; [ $g = ny ] && file=gpu-bin/datasets/USA-road-d.NY.gr.gz
  timeout 100 $W bench "$file" --algorithm bfs --roots 64 --batch --json "$M/batch-$g.json" > "$M/batch-$g.txt" 2>&1
  echo "bfs batch $g rc=$? $(grep -E '^batch' "$M/batch-$g.txt" | tr '\n' ' ')" | tee -a "$M/summary.txt"
done
pack
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 240 gpu-bin/tests/gpu_bfs --test-threads 1 > "$M/gpu_bfs.txt" 2>&1
  echo "gpu_bfs rc=$? at $SECONDS s: $(grep -E '^test result' "$M/gpu_bfs.txt" | tail -1)" | tee -a "$M/summary.txt"
  grep -E "panicked|FAILED" "$M/gpu_bfs.txt" | head -4 )
pack
echo "done at $SECONDS s"
