#!/usr/bin/env bash
# Issue 51 experiment at 7e1a6d3: near-far against delta-stepping on grid2d:5000, kron:22 and
# urand:22 (16 roots each, interleaved).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz
. scripts/gpu-common
O=${OUT:-gpu-out}/exp3; mkdir -p "$O"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$O/machine.txt" 2>&1
for spec in kron:22 urand:22 grid2d:5000; do
  f="$work/${spec//:/-}"; [ -f "$f.wgr" ] || $W convert "$spec" "$f.wgr" --weights uniform:1:255 > /dev/null &
done
wait
run() { local label=$1 file=$2; shift 2
  timeout 100 $W bench "$file" --algorithm sssp --roots 16 --backend gpu --json "$O/$label.json" "$@" > "$O/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(time|relaxations per edge): ' "$O/$label.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')"
}
for g in grid2d-5000 kron-22 urand-22; do
  for k in 1 2; do run $g-delta-$k "$work/$g.wgr"; run $g-nearfar-$k "$work/$g.wgr" --sssp-strategy near-far $([ $k = 1 ] && echo --trace); done
done
echo "done at $SECONDS s"
tar -C "$O/.." -czf /tmp/exp3.tgz exp3 && rm -rf "$O" && mv /tmp/exp3.tgz "${OUT:-gpu-out}/"
