#!/usr/bin/env bash
# Issue 51: the cluster kernel v3 (the spill counter cleared only after a step with spills; the
# width 4x near-far's on roads) against v2 (the previous build: carried distances, posted spill
# counts) and near-far, on USA-road-d.NY, usroads-48, luxembourg_osm (1..255), grid2d:1000 and
# grid2d:2000 (1..255); v2 at v3's width on the roads, to separate the two changes.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; R="$work/cluster3"; rm -rf "$R"; mkdir -p "$O" "$R"
W=gpu-bin/warpath; V2=/tmp/warpath-cluster-v2; xz -dc .carry/warpath-cluster-v2.xz > $V2; chmod +x $V2
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } > "$R/machine.txt" 2>&1
cp gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny.gr.gz"
$W convert "$work/ny.gr.gz" "$work/ny.wgr" > /dev/null &
$W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux-w.wgr" --weights uniform:1:255 > /dev/null &
$W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads-w.wgr" --weights uniform:1:255 > /dev/null &
$W convert grid2d:1000 "$work/grid2d-1000-w.wgr" --weights uniform:1:255 > /dev/null &
$W convert grid2d:2000 "$work/grid2d-2000-w.wgr" --weights uniform:1:255 > /dev/null &
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS=gpu-bin/datasets timeout 300 gpu-bin/tests/gpu_sssp --test-threads 1 > "$R/gpu_sssp.txt" 2>&1
  echo "gpu_sssp rc=$? at $SECONDS s: $(grep -E '^test result' "$R/gpu_sssp.txt")"
  grep -E "panicked|FAILED|failed" "$R/gpu_sssp.txt" | head -20
fi
wait
med() { grep -E '^(time|relaxations per edge): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
delta() { grep -m1 '^trace of' "$1" | sed 's/.*(delta \([0-9.]*\)).*/\1/'; }
for pass in 1 2; do
  for g in ny lux-w usroads-w grid2d-1000-w grid2d-2000-w; do
    for b in v2 v3 nf; do
      case $b in v2) bin=$V2; s=cluster;; v3) bin=$W; s=cluster;; nf) bin=$W; s=near-far;; esac
      timeout 90 $bin bench "$work/$g.wgr" --algorithm sssp --roots 16 --backend gpu --sssp-strategy $s --trace > "$R/$g-$b-$pass.txt" 2>&1
      echo "$g $b pass $pass rc=$? $(med "$R/$g-$b-$pass.txt") delta $(delta "$R/$g-$b-$pass.txt")"
    done
    if [ $pass = 1 ] && [ $g != grid2d-1000-w ] && [ $g != grid2d-2000-w ]; then
      d=$(delta "$R/$g-v3-1.txt")
      timeout 90 $V2 bench "$work/$g.wgr" --algorithm sssp --roots 16 --backend gpu --sssp-strategy cluster --delta "$d" > "$R/$g-v2-wide.txt" 2>&1
      echo "$g v2 at v3's delta $d rc=$? $(med "$R/$g-v2-wide.txt")"
    fi
  done
done
echo "done at $SECONDS s"
tar -czf "$O/cluster3.tar.gz" -C "$R" .
