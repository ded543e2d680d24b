#!/usr/bin/env bash
# Session 2026-12-01 (fifth), on the 2-core development machine at 6781da5: issue 55's done-when
# on the CPU: `bfs --sources random:64 --verify`, `closeness --verify` and `scc --verify` with
# `--backend cpu` on every dataset (the GPU's are in 2026-12-01-6781da5-h200-verify-every-dataset).
set -u
cd "$(dirname "$0")/../../.."
out=bench/results/2026-12-01-6781da5-cpu2-verify-every-dataset
for f in ../shared/datasets/*.gz; do
  g=$(basename "$f"); g=${g%%.*}
  for cmd in "bfs --sources random:64" closeness scc; do
    name=${cmd%% *}
    timeout 600 target/release/warpath $cmd "$f" --verify --backend cpu > "$out/$name-$g.txt" 2>&1
    echo "$name $g cpu rc=$? $(grep -iE '^(verified|backend|time)' "$out/$name-$g.txt" | tr '\n' ' ')" >> "$out/summary.txt"
  done
done
