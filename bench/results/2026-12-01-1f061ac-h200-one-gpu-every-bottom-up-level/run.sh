#!/usr/bin/env bash
# Session 2026-12-01 (eighth), call J1, at the commit in gpu-bin/COMMIT (--bottom-up-launch every):
# gpu_bfs while kron:26 converts; the narrow-words probe (4- against 8-byte distance words);
# then the BFS on kron:26 with each stretch's first bottom-up level apart against every level
# apart, interleaved, two passes of 8 roots, the third root traced under `every`; kron:22/24 too.
# (The probe failed here on a CuPy call, rng.permutation; fixed, it ran in a second call on the
# same warm machine: ../2026-12-01-1f061ac-h200-sssp-narrow-words-probe/.)
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder one-gpu-every-bottom-up-level; K="$out"
OUT=$work/runs run_folder sssp-narrow-words-probe; P="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; free -g | head -2; } > "$K/machine.txt" 2>&1
cp "$K/machine.txt" "$P/"
pack() { tar -czf "$O/call-j1.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
( $W convert kron:26 /dev/shm/kron-26.wgr > /dev/null 2>&1 ) &
for spec in kron:22 kron:24; do ( $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null ) & done
place_cli_for_tests
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 200 gpu-bin/tests/gpu_bfs --test-threads 1 > "$K/gpu_bfs.txt" 2>&1
  echo "gpu_bfs rc=$? at $SECONDS s: $(grep -E '^test result' "$K/gpu_bfs.txt" | tail -1)" | tee -a "$K/summary.txt"
  grep -E "panicked|FAILED" "$K/gpu_bfs.txt" | head -6 )
wait
echo "converted at $SECONDS s" | tee -a "$K/summary.txt"
pack
timeout 150 python3 .carry/probe_narrow.py > "$P/probe.txt" 2>&1
echo "probe rc=$? at $SECONDS s" | tee -a "$P/summary.txt"
cat "$P/probe.txt"
pack
bb() { local g=$1 label=$2 roots=$3; shift 3
  local name; name=$(basename "${g%%.*}")
  timeout 90 $W bench "$g" --roots "$roots" "$@" --json "$K/$name-$label.json" > "$K/$name-$label.txt" 2>&1
  echo "$name $label rc=$? at $SECONDS s | $(grep -E '^time: ' "$K/$name-$label.txt" | head -1)" | tee -a "$K/summary.txt"
  pack
}
for pass in 1 2; do
  bb /dev/shm/kron-26.wgr apart-$pass 8 --bottom-up-launch apart
  bb /dev/shm/kron-26.wgr every-$pass 8 --bottom-up-launch every
done
bb /dev/shm/kron-26.wgr every-trace3 3 --bottom-up-launch every --trace-trial 3
grep -E "^ +[0-9]+ +(top-down|bottom-up)" "$K/kron-26-every-trace3.txt" | head -12
for g in kron-22 kron-24; do
  for pass in 1 2; do
    bb "$work/$g.wgr" inside-$pass 16 --bottom-up-launch inside
    bb "$work/$g.wgr" apart-$pass 16 --bottom-up-launch apart
    bb "$work/$g.wgr" every-$pass 16 --bottom-up-launch every
  done
done
[ $SECONDS -lt 480 ] && bb /dev/shm/kron-26.wgr rank 8 --partitions 1
echo "done at $SECONDS s" | tee -a "$K/summary.txt"
pack
