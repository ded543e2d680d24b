#!/usr/bin/env bash
# Session 2026-12-01 (ninth), call A3, at the commit in gpu-bin/COMMIT: every deferred round of
# one root of kron:22, urand:22 and kron:24 run apart (--rounds-apart 0, the apart kernel at 6
# blocks an SM by WARPATH_KERNELS) and profiled one by one by Nsight Compute (duration, and the
# L2 sectors of each instruction: the lists' targets and weights give the edges, the offsets the
# vertices, the minimums and marks the lowerings), beside the run's bucket trace.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz
xz -dc .carry/variants/apart6.cubin.xz > /tmp/apart6.cubin
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder sssp-rounds-profiled; S="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$S/machine.txt" 2>&1
pack() { tar -czf "$O/call-a3.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
for spec in kron:22 urand:22 kron:24; do
  f="$work/${spec//:/-}"; [ -f "$f-w.wgr" ] || ( $W convert "$spec" "$f-w.wgr" --weights uniform:1:255 > /dev/null ) &
done
wait
echo "converted at $SECONDS s" | tee -a "$S/summary.txt"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
export WARPATH_KERNELS=/tmp/apart6.cubin
for g in kron-22 urand-22 kron-24; do
  timeout 60 $W sssp "$work/$g-w.wgr" --backend gpu --distances-only --rounds-apart 0 --trace > "$S/$g-trace.txt" 2>&1
  timeout 200 $NCU --clock-control none --section SpeedOfLight --section SourceCounters --import-source no \
    -k regex:sssp_relax_apart -c 24 -o "$S/$g" \
    $W sssp "$work/$g-w.wgr" --backend gpu --distances-only --rounds-apart 0 > "$S/$g-ncu-log.txt" 2>&1
  echo "ncu $g rc=$? at $SECONDS s" | tee -a "$S/summary.txt"
  $NCU -i "$S/$g.ncu-rep" --page details --csv > "$S/$g-details.csv" 2>&1
  $NCU -i "$S/$g.ncu-rep" --page source --csv --print-source sass --print-kernel-base function > "$S/$g-sass.csv" 2>&1
  gzip -9 "$S/$g-details.csv" "$S/$g-sass.csv"; rm -f "$S/$g.ncu-rep"
  pack
done
echo "done at $SECONDS s" | tee -a "$S/summary.txt"
pack
