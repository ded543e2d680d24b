#!/usr/bin/env bash
# Issue 51, entry 97: warp-staged appends and the far bucket's word read first (staged.cubin)
# against the kernels of 48431c4 (base.cubin), under 4fead3b's host; near-far's delta swept.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}/exp97a; mkdir -p "$O"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$O/machine.txt" 2>&1
for spec in kron:22 urand:22 grid2d:5000; do
  f="$work/${spec//:/-}"; [ -f "$f.wgr" ] || $W convert "$spec" "$f.wgr" --weights uniform:1:255 > /dev/null &
done
wait
echo "graphs at $SECONDS s"
ny=gpu-bin/datasets/USA-road-d.NY.gr.gz
for g in "$work/kron-22.wgr" "$work/urand-22.wgr" $ny; do
  WARPATH_KERNELS=.carry/staged.cubin timeout 60 $W sssp "$g" --backend gpu --verify > "$O/verify-$(basename $g).txt" 2>&1
  echo "verify $(basename $g) rc=$? $(grep -i verif "$O/verify-$(basename $g).txt" | head -2 | tr '\n' ' ')"
done
run() { local label=$1 file=$2; shift 2
  timeout 100 $W bench "$file" --roots 16 --backend gpu --json "$O/$label.json" "$@" > "$O/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(time|relaxations per edge): ' "$O/$label.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')"
}
for k in 1 2; do
  for g in kron-22 urand-22 ny grid2d-5000; do
    f="$work/$g.wgr"; [ $g = ny ] && f=$ny
    [ $g = grid2d-5000 ] && [ $k = 2 ] && continue
    WARPATH_KERNELS=.carry/base.cubin run $g-base-$k "$f" --algorithm sssp
    WARPATH_KERNELS=.carry/staged.cubin run $g-staged-$k "$f" --algorithm sssp $([ $k = 1 ] && echo --trace)
  done
done
for g in kron-22 urand-22; do
  for d in 32 64 96 200; do WARPATH_KERNELS=.carry/staged.cubin run $g-staged-d$d "$work/$g.wgr" --algorithm sssp --delta $d; done
done
for k in 1 2; do
  WARPATH_KERNELS=.carry/base.cubin run bfs-kron-22-base-$k "$work/kron-22.wgr" --algorithm bfs
  WARPATH_KERNELS=.carry/staged.cubin run bfs-kron-22-staged-$k "$work/kron-22.wgr" --algorithm bfs
  WARPATH_KERNELS=.carry/base.cubin run bfs-ny-base-$k $ny --algorithm bfs
  WARPATH_KERNELS=.carry/staged.cubin run bfs-ny-staged-$k $ny --algorithm bfs
done
echo "done at $SECONDS s"
tar -C "$O/.." -czf /tmp/exp97a.tgz exp97a && rm -rf "$O" && mv /tmp/exp97a.tgz "${OUT:-gpu-out}/"
