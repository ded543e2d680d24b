#!/usr/bin/env bash
# Session 2026-12-01 (third), call Y, at the commit in gpu-bin/COMMIT (250e84f): gpu_sssp; SSSP's
# batch reads in flight together (reads.cubin, 250e84f's kernels) against 080ebad's (base.cubin),
# both sm_90 cubins under 250e84f's host by WARPATH_KERNELS, interleaved: kron:22 and urand:22
# (16 roots, two passes), kron:24 (16 roots), grid2d:5000 (8 roots); a trace and an Nsight Compute
# profile of the new kernel.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder sssp-batch-reads; A="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$A/machine.txt" 2>&1
pack() { tar -czf "$O/call-y.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
for spec in kron:22 urand:22 kron:24 grid2d:5000; do
  ( $W convert "$spec" "$work/${spec//:/-}-w.wgr" --weights uniform:1:255 > /dev/null ) &
done
place_cli_for_tests
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 240 gpu-bin/tests/gpu_sssp --test-threads 1 > "$A/gpu_sssp.txt" 2>&1
  echo "gpu_sssp rc=$? at $SECONDS s: $(grep -E '^test result' "$A/gpu_sssp.txt" | tail -1)" | tee -a "$A/summary.txt"
  grep -E "panicked|FAILED" "$A/gpu_sssp.txt" | head -4 )
wait
echo "converted, tested at $SECONDS s" | tee -a "$A/summary.txt"
pack
med() { grep -E '^(time|relaxations per edge): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
ab() { local label=$1 kernels=$2 file=$3 roots=$4
  WARPATH_KERNELS=".carry/ab/$kernels.cubin" timeout 150 $W bench "$file" --algorithm sssp --roots "$roots" > "$A/$label-$kernels.txt" 2>&1
  echo "sssp $label $kernels rc=$? at $SECONDS s $(med "$A/$label-$kernels.txt")" | tee -a "$A/summary.txt"
}
for g in kron-22 urand-22; do
  ab $g-1 base "$work/$g-w.wgr" 16; ab $g-1 reads "$work/$g-w.wgr" 16
  ab $g-2 reads "$work/$g-w.wgr" 16; ab $g-2 base "$work/$g-w.wgr" 16
  pack
done
ab kron-24 reads "$work/kron-24-w.wgr" 16; ab kron-24 base "$work/kron-24-w.wgr" 16
pack
ab grid2d-5000 base "$work/grid2d-5000-w.wgr" 8; ab grid2d-5000 reads "$work/grid2d-5000-w.wgr" 8
pack
for g in kron-22 urand-22 kron-24; do
  timeout 60 $W sssp "$work/$g-w.wgr" --backend gpu --trace --verify > "$A/$g-trace.txt" 2>&1
  echo "trace $g rc=$?" | tee -a "$A/summary.txt"
done
pack
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
for g in urand-22 kron-22; do
  timeout 100 $NCU --clock-control none --set full --import-source no -k regex:sssp_delta_stepping -c 1 -o "$A/$g" \
    $W sssp "$work/$g-w.wgr" --backend gpu > "$A/$g-ncu-log.txt" 2>&1
  echo "ncu $g rc=$? at $SECONDS s" | tee -a "$A/summary.txt"
  $NCU -i "$A/$g.ncu-rep" --page details > "$A/$g-details.txt" 2>&1
  $NCU -i "$A/$g.ncu-rep" --page source --csv --print-source sass | gzip -9 > "$A/$g-sass.csv.gz"
  $NCU -i "$A/$g.ncu-rep" --page raw --csv | gzip -9 > "$A/$g-raw.csv.gz"
  rm -f "$A/$g.ncu-rep"
  pack
done
echo "done at $SECONDS s" | tee -a "$A/summary.txt"
pack
