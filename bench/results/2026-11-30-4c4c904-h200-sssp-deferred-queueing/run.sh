#!/usr/bin/env bash
# Session 2026-11-30 (2): GPU tests of gpu_sssp and gpu_prelude at the deferred-queueing commit,
# sssp --verify with every grid round deferred, then the interleaved A/B of --defer-queueing.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
W=gpu-bin/warpath
A="$work/defer"; rm -rf "$A"; mkdir -p "$A"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$A/machine.txt" 2>&1
for spec in kron:22 urand:22 kron:24 grid2d:5000; do
  f="$work/${spec//:/-}-w.wgr"; [ -f "$f" ] || $W convert "$spec" "$f" --weights uniform:1:255 > /dev/null &
done
TESTS_ONLY=1 bash scripts/gpu-run > "$A/gpu-run.txt" 2>&1; echo "tests rc=$? at $SECONDS s" | tee -a "$A/summary.txt"
cp -r "$O"/*gpu-tests* "$A/" 2>/dev/null
wait
echo "converted at $SECONDS s" | tee -a "$A/summary.txt"
export WARPATH_REQUIRE_GPU=1
for g in kron-22 urand-22; do
  for d in 0 never; do
    timeout 60 $W sssp "$work/$g-w.wgr" --backend gpu --defer-queueing $d --verify --trace > "$A/verify-$g-$d.txt" 2>&1
    echo "verify $g defer $d rc=$? $(grep -iE 'verif|deferred' "$A/verify-$g-$d.txt" | head -2 | tr '\n' ' ')" | tee -a "$A/summary.txt"
  done
done
timeout 60 $W sssp gpu-bin/datasets/USA-road-d.NY.gr.gz --backend gpu --defer-queueing 0 --verify > "$A/verify-ny-0.txt" 2>&1
echo "verify ny defer 0 rc=$?" | tee -a "$A/summary.txt"
tar -czf "$O/defer.tar.gz" -C "$A" .
for pass in 1 2; do
  for g in kron-22 urand-22 ny kron-24 grid2d-5000; do
    file="$work/$g-w.wgr"; [ $g = ny ] && file=gpu-bin/datasets/USA-road-d.NY.gr.gz
    for d in never auto 2048 262144; do
      extra=(); [ $pass = 1 ] && [ $d = auto ] && extra=(--trace)
      timeout 100 $W bench "$file" --algorithm sssp --roots 16 --backend gpu --defer-queueing $d "${extra[@]}" --json "$A/$g-$d-$pass.json" > "$A/$g-$d-$pass.txt" 2>&1
      echo "$g pass $pass defer $d rc=$? $(grep -E '^(time|relaxations per edge): ' "$A/$g-$d-$pass.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ') $(grep -oE '[0-9]+ deferred rounds' "$A/$g-$d-$pass.txt" | head -1)" | tee -a "$A/summary.txt"
    done
    tar -czf "$O/defer.tar.gz" -C "$A" .
  done
done
echo "done at $SECONDS s" | tee -a "$A/summary.txt"
tar -czf "$O/defer.tar.gz" -C "$A" .
