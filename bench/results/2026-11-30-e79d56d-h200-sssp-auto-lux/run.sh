#!/usr/bin/env bash
# `auto`'s SSSP rule after the bitmap worklists (e79d56d): luxembourg_osm (average degree 2.09,
# near-far by the rule) by near-far and by the cluster, interleaved, two passes, 16 roots.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz
. scripts/gpu-common
OUTDIR=${OUT:-gpu-out}; mkdir -p "$OUTDIR"
OUT=$work/runs run_folder ${TOPIC:-sssp-auto-lux}
R="$out"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
[ -f "$work/lux-w.wgr" ] || $W convert .carry/datasets/luxembourg_osm.mtx.gz "$work/lux-w.wgr" --weights uniform:1:255 > /dev/null
med() { grep -E '^(algorithm|time|relaxations per edge): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
for pass in 1 2; do
  for s in near-far cluster auto; do
    timeout 60 $W bench "$work/lux-w.wgr" --algorithm sssp --roots 16 --backend gpu --sssp-strategy $s > "$R/lux-w-$s-$pass.txt" 2>&1
    echo "lux-w $s pass $pass rc=$? $(med "$R/lux-w-$s-$pass.txt")" | tee -a "$R/table.txt"
  done
done
echo "done at $SECONDS s"
tar -czf "$OUTDIR/call-g.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
