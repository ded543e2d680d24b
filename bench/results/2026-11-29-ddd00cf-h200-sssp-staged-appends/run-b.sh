#!/usr/bin/env bash
# Issue 51, entry 97: warp-staged appends with (A) and without (B) the far bucket's word read
# first, against the kernels of 48431c4 (base), under 4fead3b's host; near-far's delta swept.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}/exp97b; mkdir -p "$O"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$O/machine.txt" 2>&1
for spec in kron:22 urand:22 grid2d:5000 kron:24; do
  f="$work/${spec//:/-}"; [ -f "$f.wgr" ] || $W convert "$spec" "$f.wgr" --weights uniform:1:255 > /dev/null &
done
wait
echo "graphs at $SECONDS s"
ny=gpu-bin/datasets/USA-road-d.NY.gr.gz
WARPATH_KERNELS=.carry/staged-nofilter.cubin timeout 60 $W sssp "$work/kron-22.wgr" --backend gpu --verify > "$O/verify-B-kron-22.txt" 2>&1
echo "verify B kron-22 rc=$? $(grep -i verif "$O/verify-B-kron-22.txt" | head -1)"
WARPATH_KERNELS=.carry/staged-filter.cubin timeout 60 $W sssp "$work/grid2d-5000.wgr" --backend gpu --verify > "$O/verify-A-grid.txt" 2>&1
echo "verify A grid rc=$? $(grep -i verif "$O/verify-A-grid.txt" | head -1)"
run() { local label=$1 file=$2; shift 2
  timeout 100 $W bench "$file" --roots 16 --backend gpu --json "$O/$label.json" "$@" > "$O/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(time|relaxations per edge): ' "$O/$label.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')"
}
for k in 1 2; do
  for g in kron-22 urand-22 ny grid2d-5000; do
    f="$work/$g.wgr"; [ $g = ny ] && f=$ny
    [ $g = grid2d-5000 ] && [ $k = 2 ] && continue
    for v in base staged-filter staged-nofilter; do
      WARPATH_KERNELS=.carry/$v.cubin run $g-$v-$k "$f" --algorithm sssp $([ $k = 1 ] && [ $v != base ] && echo --trace)
    done
  done
done
for d in 8 16 24 32 48; do WARPATH_KERNELS=.carry/staged-filter.cubin run kron-22-A-d$d "$work/kron-22.wgr" --algorithm sssp --delta $d; done
for d in 16 24 32 48; do WARPATH_KERNELS=.carry/staged-filter.cubin run urand-22-A-d$d "$work/urand-22.wgr" --algorithm sssp --delta $d; done
WARPATH_KERNELS=.carry/base.cubin run kron-24-base "$work/kron-24.wgr" --algorithm sssp
for d in default 16 32 48; do
  WARPATH_KERNELS=.carry/staged-filter.cubin run kron-24-A-d$d "$work/kron-24.wgr" --algorithm sssp $([ $d != default ] && echo --delta $d)
done
for d in 1024 4096; do WARPATH_KERNELS=.carry/staged-filter.cubin run grid2d-5000-A-d$d "$work/grid2d-5000.wgr" --algorithm sssp --delta $d; done
echo "done at $SECONDS s"
tar -C "$O/.." -czf /tmp/exp97b.tgz exp97b && rm -rf "$O" && mv /tmp/exp97b.tgz "${OUT:-gpu-out}/"
