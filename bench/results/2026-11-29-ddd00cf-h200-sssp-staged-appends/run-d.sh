#!/usr/bin/env bash
# Entry 97: where near-far's narrow delta starts to pay (kron:21, urand:20, urand:21).
set -u
cd "$(dirname "$0")/.."
[ -x gpu-bin/warpath ] || { rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/; }
. scripts/gpu-common
O=${OUT:-gpu-out}/exp97d; mkdir -p "$O"
W=gpu-bin/warpath
run() { local label=$1 file=$2; shift 2
  timeout 60 $W bench "$file" --roots 16 --backend gpu --algorithm sssp --json "$O/$label.json" "$@" > "$O/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(algorithm|time|relaxations per edge): ' "$O/$label.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')"
}
for k in 1 2; do
  run kron21-new-$k kron:21 --weights uniform:1:255; run kron21-old-$k kron:21 --weights uniform:1:255 --delta 136
  for s in 20 21; do run urand$s-new-$k urand:$s --weights uniform:1:255; run urand$s-old-$k urand:$s --weights uniform:1:255 --delta 128; done
done
echo "done at $SECONDS s"
tar -C "$O/.." -czf /tmp/exp97d.tgz exp97d && rm -rf "$O" && mv /tmp/exp97d.tgz "${OUT:-gpu-out}/"
