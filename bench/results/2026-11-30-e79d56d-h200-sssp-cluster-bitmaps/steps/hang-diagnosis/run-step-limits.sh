#!/usr/bin/env bash
# 540ade4's cluster SSSP (with WARPATH_HOPPER_KERNELS on its binary) stopped after 0, 1, 2, 3
# and 2,000 steps, each block leaving its state in the trace: where the hang begins.
set -u
cd "$(dirname "$0")/.."
. scripts/gpu-common
OUTDIR=${OUT:-gpu-out}; mkdir -p "$OUTDIR"
xz -dkc .carry/x/warpath-540d.xz > "$work/warpath-540d"; chmod +x "$work/warpath-540d"
for v in s0 s1 s2 s3 base; do
  WARPATH_HOPPER_KERNELS=.carry/x/sssp540-$v.ptx timeout 15 "$work/warpath-540d" sssp grid2d:2 --backend gpu --strategy cluster --delta 1000000 > "$OUTDIR/diag-$v.txt" 2>&1
  echo "== $v rc=$?"; grep -E "DIAG block [0-3]:|DIAG control|rror" "$OUTDIR/diag-$v.txt" | cut -c1-400 | head -6
done
