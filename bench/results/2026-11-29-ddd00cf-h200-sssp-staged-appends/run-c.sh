#!/usr/bin/env bash
# Entry 97: near-far's narrow default delta against the old rule's on small and mid-size graphs.
set -u
cd "$(dirname "$0")/.."
[ -x gpu-bin/warpath ] || { rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/; }
. scripts/gpu-common
O=${OUT:-gpu-out}/exp97c; mkdir -p "$O"
W=gpu-bin/warpath
run() { local label=$1 file=$2; shift 2
  timeout 60 $W bench "$file" --roots 16 --backend gpu --algorithm sssp --json "$O/$label.json" "$@" > "$O/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(algorithm|time|relaxations per edge): ' "$O/$label.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')"
}
d=gpu-bin/datasets
for k in 1 2; do
  run slashdot-new-$k $d/soc-Slashdot0902.txt.gz --weights uniform:1:255; run slashdot-old-$k $d/soc-Slashdot0902.txt.gz --weights uniform:1:255 --delta 387
  run enron-new-$k $d/Email-Enron.txt.gz --weights uniform:1:255; run enron-old-$k $d/Email-Enron.txt.gz --weights uniform:1:255 --delta 409
  for s in 16 18 20; do run kron$s-new-$k kron:$s --weights uniform:1:255; run kron$s-old-$k kron:$s --weights uniform:1:255 --delta 136; done
done
echo "done at $SECONDS s"
tar -C "$O/.." -czf /tmp/exp97c.tgz exp97c && rm -rf "$O" && mv /tmp/exp97c.tgz "${OUT:-gpu-out}/"
