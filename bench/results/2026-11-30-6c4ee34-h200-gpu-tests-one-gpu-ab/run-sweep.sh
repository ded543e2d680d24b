#!/usr/bin/env bash
# Issue 52, item 4 for block-local linking: the range of ids a block joins (--local-link off,
# 256, 512, 1024, 2048) on the three road datasets and grid2d:5000, CC bench (16 trials),
# two interleaved passes, at the commit in gpu-bin (6c4ee34: a2de1a3's kernel).
set -u
cd "$(dirname "$0")/.."
[ -x gpu-bin/warpath ] || { rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/; }
. scripts/gpu-common
O=${OUT:-gpu-out}; R="$work/sweep"; rm -rf "$R"; mkdir -p "$O" "$R"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } > "$R/machine.txt" 2>&1
[ -f "$work/ny-u.wgr" ] || $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null &
$W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux.wgr" > /dev/null &
$W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads.wgr" > /dev/null &
$W convert grid2d:5000 "$work/grid2d-5000.wgr" > /dev/null &
wait
echo "converted at $SECONDS s"
med() { sed -n 's/^time: min [^,]*, median \([0-9.]*\) ms.*/\1/p' "$1"; }
for round in 1 2; do
  for g in ny-u lux usroads grid2d-5000; do
    line="$g round $round:"
    for l in auto off 256 512 1024 2048; do
      timeout 60 $W bench "$work/$g.wgr" --algorithm cc --trials 16 --backend gpu --local-link $l > "$R/$g-$l-$round.txt" 2>&1
      line="$line $l=$(med "$R/$g-$l-$round.txt")"
    done
    echo "$line" | tee -a "$R/sweep.txt"
  done
done
echo "done at $SECONDS s"
tar -czf "$O/sweep.tar.gz" -C "$R" .
