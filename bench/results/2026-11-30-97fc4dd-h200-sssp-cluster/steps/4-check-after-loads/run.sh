#!/usr/bin/env bash
# Issue 51 at the commit in gpu-bin: gpu_sssp, gpu_kernel_forms, gpu_prelude, gpu_placement;
# then the cluster kernel as committed (v4: the stale-entry check after the first edges' loads)
# against v1 (16-byte entries, no distance carried), v2 (the check before the loads) and
# near-far, at the committed width, on USA-road-d.NY, usroads-48, luxembourg_osm, grid2d:1000
# and grid2d:2000 (1..255), two interleaved passes; grid2d:5000 once.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; R="$work/cluster4"; rm -rf "$R"; mkdir -p "$O" "$R"
W=gpu-bin/warpath
for v in v1 v2; do xz -dc .carry/warpath-cluster-$v.xz > /tmp/warpath-$v; chmod +x /tmp/warpath-$v; done
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } > "$R/machine.txt" 2>&1
$W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny.wgr" > /dev/null &
$W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux-w.wgr" --weights uniform:1:255 > /dev/null &
$W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads-w.wgr" --weights uniform:1:255 > /dev/null &
for s in 1000 2000 5000; do $W convert grid2d:$s "$work/grid2d-$s-w.wgr" --weights uniform:1:255 > /dev/null & done
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS=gpu-bin/datasets
for t in gpu_sssp gpu_kernel_forms gpu_prelude gpu_placement; do
  timeout 300 gpu-bin/tests/$t --test-threads 1 > "$R/$t.txt" 2>&1
  echo "$t rc=$? at $SECONDS s: $(grep -E '^test result' "$R/$t.txt" | tail -1)"
  grep -E "panicked|FAILED" "$R/$t.txt" | head -10
done
wait
med() { grep -E '^(time|relaxations per edge): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
delta() { grep -m1 '^trace of' "$1" | sed 's/.*(delta \([0-9.]*\)).*/\1/'; }
for pass in 1 2; do
  for g in ny usroads-w lux-w grid2d-1000-w grid2d-2000-w; do
    for b in v4 v1 v2 nf; do
      extra=()
      case $b in v4) bin=$W; s=cluster;; v1|v2) bin=/tmp/warpath-$b; s=cluster; extra=(--delta "$(delta "$R/$g-v4-1.txt")");; nf) bin=$W; s=near-far;; esac
      timeout 90 $bin bench "$work/$g.wgr" --algorithm sssp --roots 16 --backend gpu --sssp-strategy $s --trace "${extra[@]}" > "$R/$g-$b-$pass.txt" 2>&1
      echo "$g $b pass $pass rc=$? $(med "$R/$g-$b-$pass.txt") delta $(delta "$R/$g-$b-$pass.txt")"
    done
  done
done
for s in cluster near-far; do
  timeout 120 $W bench "$work/grid2d-5000-w.wgr" --algorithm sssp --roots 8 --backend gpu --sssp-strategy $s --trace > "$R/grid2d-5000-w-$s.txt" 2>&1
  echo "grid2d-5000-w $s rc=$? $(med "$R/grid2d-5000-w-$s.txt") delta $(delta "$R/grid2d-5000-w-$s.txt")"
done
echo "done at $SECONDS s"
tar -czf "$O/cluster4.tar.gz" -C "$R" .
