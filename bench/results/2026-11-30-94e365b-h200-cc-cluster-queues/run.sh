#!/usr/bin/env bash
# cc_cluster with warp edge queues (an experiment module: WARPATH_HOPPER_KERNELS) on the binary
# of 94e365b: gpu_cc over it; the bench, the queues against 94e365b's kernel and ranges of 256;
# Nsight Compute's warp statistics of one NY launch.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
OUTDIR=${OUT:-gpu-out}; mkdir -p "$OUTDIR"
OUT=$work/runs run_folder ${TOPIC:-cc-cluster-queues}
R="$out"
W=gpu-bin/warpath
NEW=.carry/x/${MODULE:-cc-q.cubin}
{ cat gpu-bin/COMMIT; echo "experiment module: $NEW"; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
$W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null &
$W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux.wgr" > /dev/null &
$W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads.wgr" > /dev/null &
$W convert grid2d:900 "$work/grid2d-900.wgr" > /dev/null &
place_cli_for_tests
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
WARPATH_HOPPER_KERNELS=$NEW timeout 300 gpu-bin/tests/gpu_cc --test-threads 1 > "$R/gpu_cc.txt" 2>&1
echo "gpu_cc (new module) rc=$? at $SECONDS s: $(grep -E '^test result' "$R/gpu_cc.txt" | tail -1)"
grep -E "panicked|FAILED" "$R/gpu_cc.txt" | head -6
wait
phases() { grep -A6 'phases of run 1' "$1" | grep -E '^ +[a-z]' | grep -v phase | awk '{printf "%s ", $0}' | tr -s ' '; }
for pass in 1 2; do
  for g in ny-u lux usroads grid2d-900; do
    for form in new old 256; do
      case $form in new) env="WARPATH_HOPPER_KERNELS=$NEW"; ll=cluster;; old) env=; ll=cluster;; 256) env=; ll=256;; esac
      env $env timeout 60 $W bench "$work/$g.wgr" --algorithm cc --trials 16 --backend gpu --local-link $ll > "$R/$g-$form-$pass.txt" 2>&1
      echo "$g $form pass $pass rc=$? $(grep -E '^time: ' "$R/$g-$form-$pass.txt" | sed 's/min [^,]*, //; s/, max.*//')| $(phases "$R/$g-$form-$pass.txt")" | tee -a "$R/table.txt"
    done
  done
done
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
WARPATH_HOPPER_KERNELS=$NEW timeout 120 $NCU --kernel-name cc_cluster --launch-count 1 --section WarpStateStats --section InstructionStats --section SchedulerStats --section SpeedOfLight --section LaunchStats \
  $W cc "$work/ny-u.wgr" --backend gpu --local-link cluster > "$R/ncu-ny.txt" 2>&1
grep -E "Duration|Executed Ipc A|Avg. Active Threads Per Warp|Warp Cycles Per Issued|Executed Instructions  |Eligible Warps|Registers Per" "$R/ncu-ny.txt" | head -12
echo "done at $SECONDS s"
tar -czf "$OUTDIR/call-c.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
