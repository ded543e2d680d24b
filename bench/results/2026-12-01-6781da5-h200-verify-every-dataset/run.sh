#!/usr/bin/env bash
# Session 2026-12-01 (fifth), call D4, at the commit in gpu-bin/COMMIT: issue 55's done-when on
# the GPU: `bfs --sources random:64 --verify`, `closeness --verify` and `scc --verify` with
# `--backend gpu` on every dataset.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder verify-every-dataset; S="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; nproc; } > "$S/machine.txt" 2>&1
pack() { tar -czf "$O/call-d4.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
for f in gpu-bin/datasets/*.gz; do
  g=$(basename "$f"); g=${g%%.*}
  for cmd in "bfs --sources random:64" closeness scc; do
    name=${cmd%% *}
    timeout 60 $W $cmd "$f" --verify --backend gpu > "$S/$name-$g.txt" 2>&1
    echo "$name $g gpu rc=$? $(grep -iE '^(verified|backend|warning)' "$S/$name-$g.txt" | tr '\n' ' ')" | tee -a "$S/summary.txt"
  done
  pack
done
echo "done at $SECONDS s"
