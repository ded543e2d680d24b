#!/usr/bin/env bash
# Entry 113 probe: block 0's steps inside the local phase (cc-probe.cubin: extra trace records).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz
. scripts/gpu-common
O=${OUT:-gpu-out}; R="$work/r"; rm -rf "$R"; mkdir -p "$O" "$R"
W=gpu-bin/warpath; P=.carry/x/cc-probe.cubin
$W convert .carry/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null &
$W convert .carry/datasets/luxembourg_osm.mtx.gz "$work/lux.wgr" > /dev/null &
wait
for g in ny-u lux; do for r in 512 2048; do
  WARPATH_KERNELS=$P timeout 60 $W bench "$work/$g.wgr" --algorithm cc --trials 4 --backend gpu --local-link $r > "$R/$g-p$r.txt" 2>&1
  echo "== $g $r rc=$?"; grep -A16 'phases of run 1' "$R/$g-p$r.txt"
done; done
tar -czf "$O/call-m.tar.gz" -C "$R" .
