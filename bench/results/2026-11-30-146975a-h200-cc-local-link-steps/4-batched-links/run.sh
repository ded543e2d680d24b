#!/usr/bin/env bash
# Entry 113: edges between ranges linked in batches of 4 (cc-c4) or 2 (cc-c2) against one by one
# (cc-b, 146975a), roads, ranges of 256 and 512, interleaved twice.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz
. scripts/gpu-common
O=${OUT:-gpu-out}; R="$work/r"; rm -rf "$R"; mkdir -p "$O" "$R"
W=gpu-bin/warpath
$W convert .carry/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null &
$W convert .carry/datasets/luxembourg_osm.mtx.gz "$work/lux.wgr" > /dev/null &
$W convert .carry/datasets/usroads-48.mtx.gz "$work/usroads.wgr" > /dev/null &
wait
run() { local label=$1 file=$2; shift 2
  timeout 90 $W bench "$file" --algorithm cc --trials 16 --backend gpu "$@" > "$R/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(time): ' "$R/$label.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ') | $(grep -A6 'phases of run 1' "$R/$label.txt" | tail -n 4 | awk '{printf "%s ", $(NF-4)}') $(tail -n 1 "$R/$label.txt" | grep -i error)"
}
for pass in 1 2; do for g in ny-u lux usroads; do for r in 256 512; do for k in b c4 c2; do
  WARPATH_KERNELS=.carry/x/cc-$k.cubin run $g-$k-r$r-$pass "$work/$g.wgr" --local-link $r
done; done; done; done
for g in ny-u lux usroads; do WARPATH_KERNELS=.carry/x/cc-c4.cubin timeout 30 $W cc "$work/$g.wgr" --verify --local-link 256 | grep -i verified; done
tar -czf "$O/call-p.tar.gz" -C "$R" .
