#!/usr/bin/env bash
# Session 2026-11-30 (2), call H: gpu_sssp at 0545117 (splits with plain marks), sssp --verify,
# the interleaved A/B of 0545117's kernel (new, embedded) against 4c4c904's (old: deferral only,
# WARPATH_KERNELS), then the SSSP headline's GAP suite rows in the same call.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
W=gpu-bin/warpath; OLD="$PWD/.carry/x/defer-only-sm90.cubin"
A="$work/split"; rm -rf "$A"; mkdir -p "$A"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$A/machine.txt" 2>&1
( bash .peers/build.sh > "$A/peers-build.txt" 2>&1 ) &
gunzip -c gpu-bin/datasets/USA-road-d.NY.gr.gz > "$work/ny.gr" &
for spec in kron:22 urand:22 kron:24 grid2d:5000; do
  f="$work/${spec//:/-}-w"
  ( [ -f "$f.wgr" ] || $W convert "$spec" "$f.wgr" --weights uniform:1:255 > /dev/null; $W convert "$f.wgr" "$f.wel" > /dev/null ) &
done
TESTS_ONLY=1 bash scripts/gpu-run > "$A/gpu-run.txt" 2>&1; echo "tests rc=$? at $SECONDS s" | tee -a "$A/summary.txt"
cp -r "$O"/*gpu-tests* "$A/" 2>/dev/null
wait
echo "converted at $SECONDS s" | tee -a "$A/summary.txt"; ls -la "$work" > "$A/files.txt"
export WARPATH_REQUIRE_GPU=1
for g in kron-22 urand-22 grid2d-5000; do
  timeout 60 $W sssp "$work/$g-w.wgr" --backend gpu --verify > "$A/verify-$g.txt" 2>&1
  echo "verify $g rc=$? $(grep -i verif "$A/verify-$g.txt" | head -1)" | tee -a "$A/summary.txt"
done
timeout 60 $W sssp gpu-bin/datasets/USA-road-d.NY.gr.gz --backend gpu --verify > "$A/verify-ny.txt" 2>&1
echo "verify ny rc=$? $(grep -i verif "$A/verify-ny.txt" | head -1)" | tee -a "$A/summary.txt"
tar -czf "$O/split.tar.gz" -C "$A" .
for pass in 1 2; do
  for g in kron-22 urand-22 ny kron-24 grid2d-5000; do
    file="$work/$g-w.wgr"; [ $g = ny ] && file=gpu-bin/datasets/USA-road-d.NY.gr.gz
    for k in new old; do
      if [ $k = old ]; then export WARPATH_KERNELS="$OLD"; else unset WARPATH_KERNELS; fi
      extra=(); [ $pass = 1 ] && extra=(--trace)
      timeout 100 $W bench "$file" --algorithm sssp --roots 16 --backend gpu "${extra[@]}" --json "$A/$g-$k-$pass.json" > "$A/$g-$k-$pass.txt" 2>&1
      echo "$g pass $pass $k rc=$? $(grep -E '^(time|end-to-end|relaxations per edge): ' "$A/$g-$k-$pass.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')" | tee -a "$A/summary.txt"
    done
    unset WARPATH_KERNELS
    tar -czf "$O/split.tar.gz" -C "$A" .
  done
done
timeout 60 $W bench "$work/kron-22-w.wgr" --algorithm bfs --roots 4 --backend gpu > "$A/bfs-kron-22-bandwidths.txt" 2>&1
grep -E "copy bandwidth|pinned" "$A/bfs-kron-22-bandwidths.txt" | head -3 | tee -a "$A/summary.txt"
echo "warpath done at $SECONDS s" | tee -a "$A/summary.txt"
gap() { local label=$1 limit=$2 file=$3; shift 3
  OMP_NUM_THREADS=16 timeout $limit .peers/gapbs/sssp -f "$file" -n 16 "$@" > "$A/gapbs-$label.txt" 2>&1
  echo "gapbs $label rc=$? at $SECONDS s $(grep -E 'Average Time' "$A/gapbs-$label.txt")" | tee -a "$A/summary.txt"
  tar -czf "$O/split.tar.gz" -C "$A" .
}
gap ny 30 "$work/ny.gr" -d 50000
gap kron-22 60 "$work/kron-22-w.wel" -s -d 2
gap urand-22 60 "$work/urand-22-w.wel" -s -d 2
gap kron-24 150 "$work/kron-24-w.wel" -s -d 2
gap grid2d-5000 150 "$work/grid2d-5000-w.wel" -s -d 2
echo "done at $SECONDS s" | tee -a "$A/summary.txt"
tar -czf "$O/split.tar.gz" -C "$A" .
