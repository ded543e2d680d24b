#!/usr/bin/env bash
# Session 2026-12-01 (sixth), call B3, at the commit in gpu-bin/COMMIT: issue 53 item 7 on kron:26
# (8 roots): the first bottom-up level apart (8 and 6 blocks an SM) against inside and one
# partitioned rank, interleaved, two passes; then traced runs of 4 roots apart and inside.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz
for b in b6; do xz -dc .carry/old/warpath-$b.xz > gpu-bin/warpath-$b; chmod +x gpu-bin/warpath-$b; done
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder one-gpu-bottom-up-apart-kron26; K="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; free -g | head -2; } > "$K/machine.txt" 2>&1
pack() { tar -czf "$O/call-b3.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
s=$SECONDS; [ -f /dev/shm/kron-26.wgr ] || $W convert kron:26 /dev/shm/kron-26.wgr > "$K/convert.txt" 2>&1; echo "kron:26 ready rc=$? in $((SECONDS - s)) s" | tee -a "$K/summary.txt"
bk() { local label=$1 roots=$2; shift 2; local bin=$W
  case $label in b6*) bin=gpu-bin/warpath-b6;; esac
  timeout 60 $bin bench /dev/shm/kron-26.wgr --roots "$roots" "$@" --json "$K/kron-26-$label.json" > "$K/kron-26-$label.txt" 2>&1
  echo "kron-26 $label rc=$? at $SECONDS s | $(grep -E '^time: ' "$K/kron-26-$label.txt" | head -1)" | tee -a "$K/summary.txt"
  pack
}
for pass in 1 2; do
  bk "inside-$pass" 8 --bottom-up-launch inside
  bk "apart-$pass" 8 --bottom-up-launch apart
  bk "b6-apart-$pass" 8 --bottom-up-launch apart
  bk "rank-$pass" 8 --partitions 1
done
bk apart-trace 4 --bottom-up-launch apart --trace
bk inside-trace 4 --bottom-up-launch inside --trace
echo "done at $SECONDS s" | tee -a "$K/summary.txt"
pack
