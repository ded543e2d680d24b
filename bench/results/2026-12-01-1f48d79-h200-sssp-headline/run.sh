#!/usr/bin/env bash
# Session 2026-12-01 (third), call H, at the commit in gpu-bin/COMMIT (1f48d79): gpu_sssp; the SSSP
# headline rows (16 roots, one root traced per bucket, every graph verified) with the GAP suite's
# delta-stepping on 16 cores in the same call; the copy bandwidths (BFS bench); the final kernel
# (final.cubin) against 080ebad's (base.cubin) by WARPATH_KERNELS on grid2d:5000 and kron:22.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder sssp-headline; S="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$S/machine.txt" 2>&1
pack() { tar -czf "$O/call-h.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
( bash .peers/build.sh > "$S/peers-build.txt" 2>&1 ) &
gunzip -c gpu-bin/datasets/USA-road-d.NY.gr.gz > "$work/ny.gr" &
for spec in kron:22 urand:22 kron:24 grid2d:5000; do
  f="$work/${spec//:/-}"
  ( $W convert "$spec" "$f-w.wgr" --weights uniform:1:255 > /dev/null; $W convert "$f-w.wgr" "$f-w.wel" > /dev/null ) &
done
( $W convert kron:22 "$work/kron-22.wgr" > /dev/null ) &
place_cli_for_tests
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 200 gpu-bin/tests/gpu_sssp --test-threads 1 > "$S/gpu_sssp.txt" 2>&1
  echo "gpu_sssp rc=$? at $SECONDS s: $(grep -E '^test result' "$S/gpu_sssp.txt" | tail -1)" | tee -a "$S/summary.txt"
  grep -E "panicked|FAILED" "$S/gpu_sssp.txt" | head -4 ) &
wait
echo "converted, peers built at $SECONDS s: $(tail -1 "$S/peers-build.txt")" | tee -a "$S/summary.txt"
pack
med() { grep -E '^(algorithm|time|end-to-end|relaxations per edge): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
for g in kron-22 urand-22 ny kron-24 grid2d-5000; do
  file="$work/$g-w.wgr"; [ $g = ny ] && file=gpu-bin/datasets/USA-road-d.NY.gr.gz
  timeout 100 $W bench "$file" --algorithm sssp --roots 16 --trace --json "$S/sssp-$g.json" > "$S/sssp-$g-1.txt" 2>&1
  echo "sssp $g rc=$? $(med "$S/sssp-$g-1.txt")" | tee -a "$S/summary.txt"
done
pack
for g in kron-22 urand-22 kron-24 grid2d-5000; do
  timeout 60 $W sssp "$work/$g-w.wgr" --verify > "$S/verify-$g.txt" 2>&1; echo "verify $g rc=$? $(grep -i verif "$S/verify-$g.txt" | head -1)" | tee -a "$S/summary.txt"
done
timeout 60 $W sssp gpu-bin/datasets/USA-road-d.NY.gr.gz --verify > "$S/verify-ny.txt" 2>&1; echo "verify ny rc=$? $(grep -i verif "$S/verify-ny.txt" | head -1)" | tee -a "$S/summary.txt"
timeout 60 $W bench "$work/kron-22.wgr" --algorithm bfs --roots 4 --trace > "$S/bfs-kron-22-bandwidths.txt" 2>&1
grep -iE "copy bandwidth|pinned" "$S/bfs-kron-22-bandwidths.txt" | head -3 | tee -a "$S/summary.txt"
echo "warpath done at $SECONDS s" | tee -a "$S/summary.txt"
pack
gap() { local label=$1 limit=$2 file=$3; shift 3
  OMP_NUM_THREADS=16 timeout $limit .peers/gapbs/sssp -f "$file" -n 16 "$@" > "$S/gapbs-$label.txt" 2>&1
  echo "gapbs sssp $label rc=$? at $SECONDS s $(python3 .peers/trial_median.py < "$S/gapbs-$label.txt")" | tee -a "$S/summary.txt"
  pack
}
gap ny 30 "$work/ny.gr" -d 50000
gap kron-22 60 "$work/kron-22-w.wel" -s -d 2
gap urand-22 60 "$work/urand-22-w.wel" -s -d 2
gap kron-24 100 "$work/kron-24-w.wel" -s -d 2
gap grid2d-5000 90 "$work/grid2d-5000-w.wel" -s -d 2
ab() { local label=$1 kernels=$2 file=$3 roots=$4
  WARPATH_KERNELS=".carry/ab/$kernels.cubin" timeout 100 $W bench "$file" --algorithm sssp --roots "$roots" > "$S/ab-$label-$kernels.txt" 2>&1
  echo "ab sssp $label $kernels rc=$? at $SECONDS s $(med "$S/ab-$label-$kernels.txt")" | tee -a "$S/summary.txt"
}
[ $SECONDS -lt 470 ] && { ab grid2d-5000-1 base "$work/grid2d-5000-w.wgr" 8; ab grid2d-5000-1 final "$work/grid2d-5000-w.wgr" 8; ab grid2d-5000-2 final "$work/grid2d-5000-w.wgr" 8; ab grid2d-5000-2 base "$work/grid2d-5000-w.wgr" 8; pack; }
[ $SECONDS -lt 530 ] && { ab kron-22-1 base "$work/kron-22-w.wgr" 16; ab kron-22-1 final "$work/kron-22-w.wgr" 16; pack; }
echo "done at $SECONDS s" | tee -a "$S/summary.txt"
pack
