#!/usr/bin/env bash
# Issue 51: the cluster kernel with entries that carry their distance (stale ones skipped) and
# spill counts posted (no global read a round), against the first cluster kernel (v1, built
# from the same tree before the change) and near-far; USA-road-d.NY, luxembourg_osm,
# usroads-48 (weights 1..255), grid2d:1000 and grid2d:2000 (weights 1..255); a delta sweep.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; R="$work/cluster2"; rm -rf "$R"; mkdir -p "$O" "$R"
W=gpu-bin/warpath; V1=/tmp/warpath-cluster-v1; xz -dc .carry/warpath-cluster-v1.xz > $V1; chmod +x $V1
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } > "$R/machine.txt" 2>&1
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
NY=gpu-bin/datasets/USA-road-d.NY.gr.gz
for pass in 1 2; do
  for b in v1 new nf; do
    case $b in v1) bin=$V1; s=cluster;; new) bin=$W; s=cluster;; nf) bin=$W; s=near-far;; esac
    timeout 60 $bin bench $NY --algorithm sssp --roots 16 --backend gpu --sssp-strategy $s --trace > "$R/ny-$b-$pass.txt" 2>&1
    echo "ny $b pass $pass rc=$? $(med "$R/ny-$b-$pass.txt")"
  done
done
for d in 45000 60000 90000 120000 240000; do
  timeout 60 $W bench $NY --algorithm sssp --roots 16 --backend gpu --sssp-strategy cluster --delta $d > "$R/ny-new-d$d.txt" 2>&1
  echo "ny new delta $d rc=$? $(med "$R/ny-new-d$d.txt")"
done
echo "ny done at $SECONDS s"
for g in lux-w usroads-w grid2d-1000-w grid2d-2000-w; do
  for s in near-far cluster; do
    timeout 90 $W bench "$work/$g.wgr" --algorithm sssp --roots 16 --backend gpu --sssp-strategy $s --trace > "$R/$g-$s.txt" 2>&1
    echo "$g $s rc=$? $(med "$R/$g-$s.txt") $(grep -m1 '^trace of' "$R/$g-$s.txt" | sed 's/.*(delta/(delta/')"
  done
  for f in 2 4; do
    d=$(grep -m1 '^trace of' "$R/$g-cluster.txt" | sed 's/.*(delta \([0-9]*\)).*/\1/')
    [ -n "$d" ] || continue
    timeout 90 $W bench "$work/$g.wgr" --algorithm sssp --roots 16 --backend gpu --sssp-strategy cluster --delta $((d * f)) > "$R/$g-cluster-x$f.txt" 2>&1
    echo "$g cluster delta x$f ($((d * f))) rc=$? $(med "$R/$g-cluster-x$f.txt")"
  done
done
echo "done at $SECONDS s"
tar -czf "$O/cluster2.tar.gz" -C "$R" .
