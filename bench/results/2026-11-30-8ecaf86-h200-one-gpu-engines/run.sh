#!/usr/bin/env bash
# Session 2026-11-30: GPU tests at the Ranks commit, the library example on the GPU, the
# partitioned CLI through Ranks, then issue 53 item 7's A/B: the single-GPU engine against the
# partitioned BFS on one rank (--partitions 1: one thread, its part on the GPU).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
TESTS_ONLY=1 bash scripts/gpu-run
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1
O=${OUT:-gpu-out}; R="$work/ranks"; rm -rf "$R"; mkdir -p "$R"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; nproc; } > "$R/machine.txt" 2>&1
gpu-bin/one_graph kron:16 > "$R/example-kron16.txt" 2>&1; echo "example kron:16 rc=$?" | tee -a "$R/summary.txt"
gpu-bin/one_graph gpu-bin/datasets/USA-road-d.NY.gr.gz > "$R/example-ny.txt" 2>&1; echo "example NY rc=$?" | tee -a "$R/summary.txt"
$W bfs kron:20 --partitions 4 --verify > "$R/bfs-p4.txt" 2>&1; echo "bfs --partitions 4 rc=$?" | tee -a "$R/summary.txt"
$W cc kron:20 --partitions 4 --verify > "$R/cc-p4.txt" 2>&1; echo "cc --partitions 4 rc=$?" | tee -a "$R/summary.txt"
$W bench kron:20 --partitions 1,2,4 --roots 4 > "$R/bench-p124.txt" 2>&1; echo "bench --partitions 1,2,4 rc=$?" | tee -a "$R/summary.txt"
tar -czf "$O/ranks.tar.gz" -C "$R" .
# Item 7: interleaved A/B, 16 roots, the same seed: engine (a) against one rank (b).
A="$work/ab"; rm -rf "$A"; mkdir -p "$A"
[ -f "$work/ny-u.wgr" ] || $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null &
for spec in kron:22 urand:22 kron:24 kron:26; do [ -f "$work/${spec//:/-}.wgr" ] || $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null & done
wait
echo "converted at $SECONDS s" | tee -a "$A/summary.txt"
for pass in 1 2; do
  for g in kron-22 urand-22 kron-24 kron-26 ny-u; do
    timeout 90 $W bench "$work/$g.wgr" --roots 16 --json "$A/$g-engine-$pass.json" > "$A/$g-engine-$pass.txt" 2>&1
    e=$(grep -E '^time: ' "$A/$g-engine-$pass.txt" | head -1)
    timeout 120 $W bench "$work/$g.wgr" --partitions 1 --roots 16 --json "$A/$g-rank-$pass.json" > "$A/$g-rank-$pass.txt" 2>&1
    r=$(grep -E '^time: ' "$A/$g-rank-$pass.txt" | head -1)
    echo "$g pass $pass | engine $e | one rank $r" | tee -a "$A/summary.txt"
    tar -czf "$O/ab.tar.gz" -C "$A" .
  done
done
echo "done at $SECONDS s"
