#!/usr/bin/env bash
# Session 2026-12-01 (sixth), call C3, at the commit in gpu-bin/COMMIT: issue 53 item 7. gpu_bfs
# (the split level's launches queued without waiting, in waves); kron:26 (8 roots), interleaved,
# two passes: the first bottom-up level inside, apart (waves of up to 32 blocks an SM), apart on
# resident blocks only (the same source, another grid), apart word by word, one partitioned
# rank; kron:22 and kron:24 inside and apart.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
xz -dc .carry/old/warpath-resident.xz > gpu-bin/warpath-resident; chmod +x gpu-bin/warpath-resident
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder one-gpu-bottom-up-waves; K="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; free -g | head -2; } > "$K/machine.txt" 2>&1
pack() { tar -czf "$O/call-c3.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
for spec in kron:22 kron:24; do ( $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null ) & done
( s=$SECONDS; [ -f /dev/shm/kron-26.wgr ] || $W convert kron:26 /dev/shm/kron-26.wgr > "$K/convert.txt" 2>&1; echo "kron:26 ready rc=$? in $((SECONDS - s)) s" >> "$K/summary.txt" ) &
place_cli_for_tests
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 240 gpu-bin/tests/gpu_bfs --test-threads 1 > "$K/gpu_bfs.txt" 2>&1
  echo "gpu_bfs rc=$? at $SECONDS s: $(grep -E '^test result' "$K/gpu_bfs.txt" | tail -1)" | tee -a "$K/summary.txt"
  grep -E "panicked|FAILED" "$K/gpu_bfs.txt" | head -6 )
wait
pack
bk() { local g=$1 label=$2 roots=$3; shift 3; local bin=$W
  case $label in resident*) bin=gpu-bin/warpath-resident;; esac
  local name; name=$(basename "${g%%.*}")
  timeout 60 $bin bench "$g" --roots "$roots" "$@" --json "$K/$name-$label.json" > "$K/$name-$label.txt" 2>&1
  echo "$name $label rc=$? at $SECONDS s | $(grep -E '^time: ' "$K/$name-$label.txt" | head -1)" | tee -a "$K/summary.txt"
  pack
}
for g in kron-22 kron-24; do
  bk "$work/$g.wgr" inside 16 --bottom-up-launch inside
  bk "$work/$g.wgr" apart 16 --bottom-up-launch apart
done
for pass in 1 2; do
  bk /dev/shm/kron-26.wgr "inside-$pass" 8 --bottom-up-launch inside
  bk /dev/shm/kron-26.wgr "apart-$pass" 8 --bottom-up-launch apart
  bk /dev/shm/kron-26.wgr "resident-apart-$pass" 8 --bottom-up-launch apart
  bk /dev/shm/kron-26.wgr "apart-chunk-1-$pass" 8 --bottom-up-launch apart --bottom-up-chunk 1
  bk /dev/shm/kron-26.wgr "rank-$pass" 8 --partitions 1
done
echo "done at $SECONDS s" | tee -a "$K/summary.txt"
pack
