#!/usr/bin/env bash
# Call J: the widths the rule would give with 11 edges a bucket (urand:22 44, kron:24 25), beside the rule's.
set -u
cd "$(dirname "$0")/.."
[ -x gpu-bin/warpath ] || tar -xJf .carry/gpubin.tar.xz
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"; W=gpu-bin/warpath; A="$work/delta2"; rm -rf "$A"; mkdir -p "$A"
export WARPATH_REQUIRE_GPU=1
for spec in urand:22 kron:24; do f="$work/${spec//:/-}-w.wgr"; [ -f "$f" ] || $W convert "$spec" "$f" --weights uniform:1:255 > /dev/null & done; wait
for g in urand-22:44 kron-24:25; do n=${g%%:*}; d=${g##*:}
  for x in "" $d; do
    timeout 40 $W bench "$work/$n-w.wgr" --algorithm sssp --roots 16 --backend gpu ${x:+--delta $x} --json "$A/$n-${x:-rule}.json" > "$A/$n-${x:-rule}.txt" 2>&1
    echo "$n delta ${x:-rule} rc=$? $(grep -E '^(time|relaxations per edge): ' "$A/$n-${x:-rule}.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')" | tee -a "$A/summary.txt"
  done
done
tar -czf "$O/delta2.tar.gz" -C "$A" .
