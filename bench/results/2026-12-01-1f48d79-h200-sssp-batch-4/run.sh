#!/usr/bin/env bash
# Session 2026-12-01 (third), call B4, under 1f48d79's host: four edges a thread in the gathering
# (operators::gather::BATCH 2 -> 4; b4.cubin) against 1f48d79's kernels (final.cubin), now that a
# deferred round's reads no longer wait slot by slot: SSSP kron:22, urand:22 (16 roots, two
# interleaved passes), kron:24 (one); BFS and CC on kron:22 beside them.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs TOPIC=sssp-batch-4 run_folder x; A="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$A/machine.txt" 2>&1
pack() { tar -czf "$O/call-b4.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
for spec in kron:22 urand:22 kron:24; do ( $W convert "$spec" "$work/${spec//:/-}-w.wgr" --weights uniform:1:255 > /dev/null ) & done
( $W convert kron:22 "$work/kron-22.wgr" > /dev/null ) &
wait
echo "converted at $SECONDS s" | tee -a "$A/summary.txt"
med() { grep -E '^(time|relaxations per edge): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
ab() { local label=$1 kernels=$2 file=$3; shift 3
  WARPATH_KERNELS=".carry/ab/$kernels.cubin" timeout 100 $W bench "$file" "$@" > "$A/$label-$kernels.txt" 2>&1
  echo "$label $kernels rc=$? at $SECONDS s $(med "$A/$label-$kernels.txt")" | tee -a "$A/summary.txt"
}
for g in kron-22 urand-22; do
  ab sssp-$g-1 final "$work/$g-w.wgr" --algorithm sssp --roots 16; ab sssp-$g-1 b4 "$work/$g-w.wgr" --algorithm sssp --roots 16
  ab sssp-$g-2 b4 "$work/$g-w.wgr" --algorithm sssp --roots 16; ab sssp-$g-2 final "$work/$g-w.wgr" --algorithm sssp --roots 16
  pack
done
ab sssp-kron-24 b4 "$work/kron-24-w.wgr" --algorithm sssp --roots 16; ab sssp-kron-24 final "$work/kron-24-w.wgr" --algorithm sssp --roots 16
ab bfs-kron-22 final "$work/kron-22.wgr" --roots 16; ab bfs-kron-22 b4 "$work/kron-22.wgr" --roots 16
ab cc-kron-22 final "$work/kron-22.wgr" --algorithm cc --trials 16; ab cc-kron-22 b4 "$work/kron-22.wgr" --algorithm cc --trials 16
echo "done at $SECONDS s" | tee -a "$A/summary.txt"
pack
