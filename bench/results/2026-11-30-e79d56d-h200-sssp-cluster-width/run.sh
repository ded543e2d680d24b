#!/usr/bin/env bash
# The cluster SSSP's bucket width after its bitmap worklists (e79d56d): --delta at 1/4 to 8
# times the width it takes now, on the roads (4x near-far's) and grid2d:1000 (near-far's), 16 roots.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz
. scripts/gpu-common
OUTDIR=${OUT:-gpu-out}; mkdir -p "$OUTDIR"
OUT=$work/runs run_folder ${TOPIC:-sssp-cluster-width}
R="$out"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
[ -f "$work/ny-w.wgr" ] || $W convert .carry/datasets/USA-road-d.NY.gr.gz "$work/ny-w.wgr" > /dev/null &
[ -f "$work/lux-w.wgr" ] || $W convert .carry/datasets/luxembourg_osm.mtx.gz "$work/lux-w.wgr" --weights uniform:1:255 > /dev/null &
[ -f "$work/usroads-w.wgr" ] || $W convert .carry/datasets/usroads-48.mtx.gz "$work/usroads-w.wgr" --weights uniform:1:255 > /dev/null &
[ -f "$work/grid2d-1000-w.wgr" ] || $W convert grid2d:1000 "$work/grid2d-1000-w.wgr" --weights uniform:1:255 > /dev/null &
wait
med() { grep -E '^(algorithm|time|relaxations per edge): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
for g in ny-w usroads-w lux-w grid2d-1000-w; do
  timeout 60 $W bench "$work/$g.wgr" --algorithm sssp --roots 16 --backend gpu --sssp-strategy cluster > "$R/$g-base.txt" 2>&1
  base=$(grep -oE 'delta [0-9]+' "$R/$g-base.txt" | head -1 | cut -d' ' -f2)
  echo "$g base delta $base: $(med "$R/$g-base.txt")" | tee -a "$R/table.txt"
  for f in 0.25 0.5 2 4 8; do
    d=$(python3 -c "print(max(1, round($base * $f)))")
    timeout 60 $W bench "$work/$g.wgr" --algorithm sssp --roots 16 --backend gpu --sssp-strategy cluster --delta $d > "$R/$g-x$f.txt" 2>&1
    echo "$g x$f (delta $d) rc=$? $(med "$R/$g-x$f.txt")" | tee -a "$R/table.txt"
  done
done
echo "done at $SECONDS s"
tar -czf "$OUTDIR/call-h.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
