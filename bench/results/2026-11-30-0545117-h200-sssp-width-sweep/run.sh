#!/usr/bin/env bash
# Session 2026-11-30 (2), call I: near-far's bucket width swept again now that big rounds defer
# their queueing (0545117's binary), 16 roots, two interleaved passes, graphs generated in memory.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
W=gpu-bin/warpath
A="$work/delta"; rm -rf "$A"; mkdir -p "$A"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; nproc; } > "$A/machine.txt" 2>&1
export WARPATH_REQUIRE_GPU=1
for spec in kron:22 urand:22 kron:24; do
  f="$work/${spec//:/-}-w.wgr"; [ -f "$f" ] || $W convert "$spec" "$f" --weights uniform:1:255 > /dev/null &
done
wait
echo "converted at $SECONDS s" | tee -a "$A/summary.txt"
run() { local g=$1 d=$2 pass=$3
  timeout 60 $W bench "$work/$g-w.wgr" --algorithm sssp --roots 16 --backend gpu ${d:+--delta $d} --json "$A/$g-${d:-rule}-$pass.json" > "$A/$g-${d:-rule}-$pass.txt" 2>&1
  echo "$g delta ${d:-rule} pass $pass rc=$? $(grep -E '^(time|relaxations per edge|delta): ' "$A/$g-${d:-rule}-$pass.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')" | tee -a "$A/summary.txt"
}
for pass in 1 2; do
  for d in "" 8 12 16 28; do run kron-22 "$d" $pass; done
  for d in "" 16 24 48; do run urand-22 "$d" $pass; done
  for d in "" 8 12 24; do run kron-24 "$d" $pass; done
  tar -czf "$O/delta.tar.gz" -C "$A" .
done
echo "done at $SECONDS s" | tee -a "$A/summary.txt"
tar -czf "$O/delta.tar.gz" -C "$A" .
