#!/usr/bin/env bash
# Session 2026-12-01 (third), call Z, under 250e84f's host: SSSP kernels as sm_90 cubins by
# WARPATH_KERNELS, interleaved: base (080ebad), reads (250e84f: deferred rounds' four reads
# together, and both owners' words first in the other rounds) and deferred (the deferred rounds'
# change alone): grid2d:5000 (8 roots), kron:22 and urand:22 (16 roots), two passes.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs TOPIC=sssp-batch-reads-variants run_folder x; A="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$A/machine.txt" 2>&1
pack() { tar -czf "$O/call-z.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
for spec in kron:22 urand:22 grid2d:5000; do
  ( $W convert "$spec" "$work/${spec//:/-}-w.wgr" --weights uniform:1:255 > /dev/null ) &
done
wait
echo "converted at $SECONDS s" | tee -a "$A/summary.txt"
med() { grep -E '^(time|relaxations per edge): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
ab() { local label=$1 kernels=$2 file=$3 roots=$4
  WARPATH_KERNELS=".carry/ab/$kernels.cubin" timeout 150 $W bench "$file" --algorithm sssp --roots "$roots" > "$A/$label-$kernels.txt" 2>&1
  echo "sssp $label $kernels rc=$? at $SECONDS s $(med "$A/$label-$kernels.txt")" | tee -a "$A/summary.txt"
}
ab grid2d-5000-1 base "$work/grid2d-5000-w.wgr" 8; ab grid2d-5000-1 reads "$work/grid2d-5000-w.wgr" 8; ab grid2d-5000-1 deferred "$work/grid2d-5000-w.wgr" 8
ab grid2d-5000-2 deferred "$work/grid2d-5000-w.wgr" 8; ab grid2d-5000-2 reads "$work/grid2d-5000-w.wgr" 8; ab grid2d-5000-2 base "$work/grid2d-5000-w.wgr" 8
pack
for g in kron-22 urand-22; do
  ab $g-1 base "$work/$g-w.wgr" 16; ab $g-1 reads "$work/$g-w.wgr" 16; ab $g-1 deferred "$work/$g-w.wgr" 16
  ab $g-2 deferred "$work/$g-w.wgr" 16; ab $g-2 reads "$work/$g-w.wgr" 16; ab $g-2 base "$work/$g-w.wgr" 16
  pack
done
echo "done at $SECONDS s" | tee -a "$A/summary.txt"
pack
