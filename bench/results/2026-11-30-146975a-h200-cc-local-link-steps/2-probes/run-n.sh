#!/usr/bin/env bash
# Entry 113 probes: block 0's steps inside the local phase; probe2 walks each thread's own list
# (no gather), probe3 the same loads with no joins (labels wrong: cc --json, no check).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz
. scripts/gpu-common
O=${OUT:-gpu-out}; R="$work/r"; rm -rf "$R"; mkdir -p "$O" "$R"
W=gpu-bin/warpath
$W convert .carry/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null
for p in probe probe2 probe3; do for r in 512 2048; do
  for k in 1 2 3; do WARPATH_KERNELS=.carry/x/cc-$p.cubin timeout 60 $W cc "$work/ny-u.wgr" --backend gpu --local-link $r --json > "$R/ny-$p-$r.json" 2>&1; done
  echo "== $p $r: $(python3 -c "
import json,sys; j=json.load(open('$R/ny-$p-$r.json')); print(round(j['time_ms'],3), ' '.join('%s:%.1f'%(p['phase'].replace('neighbor round ','r'),p['time_ms']*1000) for p in j['result']['phases']))")"
done; done
tar -czf "$O/call-n.tar.gz" -C "$R" .
