#!/usr/bin/env bash
# Session 2026-12-01 (second), call S, at the commit in gpu-bin/COMMIT: gpu_bfs's many-source test
# and gpu_sssp's adaptive-width test; SSSP near-far with fixed and adaptive widths (16 roots, two
# interleaved passes on the 2^22 graphs, one trace each); CC's first-smaller-neighbor start on the
# skewed graphs; bench --batch (64 roots as one bit-parallel batch) on kron:22 and USA-road-d.NY.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder sssp-near-far-adaptive; A="$out"
OUT=$work/runs run_folder bfs-multi-source; B="$out"
OUT=$work/runs run_folder cc-smaller-neighbor; C="$out"
for d in "$A" "$B" "$C"; do { cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$d/machine.txt" 2>&1; done
pack() { tar -czf "$O/call-s.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
for spec in kron:22 urand:22 kron:24 grid2d:5000; do
  f="$work/${spec//:/-}"
  ( [ -f "$f-w.wgr" ] || $W convert "$spec" "$f-w.wgr" --weights uniform:1:255 > /dev/null ) &
  ( [ -f "$f.wgr" ] || $W convert "$spec" "$f.wgr" > /dev/null ) &
done
place_cli_for_tests
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
timeout 120 gpu-bin/tests/gpu_bfs --test-threads 1 many_sources > "$B/gpu_bfs-many-sources.txt" 2>&1
echo "gpu_bfs many_sources rc=$? at $SECONDS s: $(grep -E '^test result' "$B/gpu_bfs-many-sources.txt" | tail -1)" | tee -a "$B/summary.txt"
grep -E "panicked|FAILED" "$B/gpu_bfs-many-sources.txt" | head -4
timeout 150 gpu-bin/tests/gpu_sssp --test-threads 1 adaptive > "$A/gpu_sssp-adaptive.txt" 2>&1
echo "gpu_sssp adaptive rc=$? at $SECONDS s: $(grep -E '^test result' "$A/gpu_sssp-adaptive.txt" | tail -1)" | tee -a "$A/summary.txt"
grep -E "panicked|FAILED" "$A/gpu_sssp-adaptive.txt" | head -4
wait
echo "converted at $SECONDS s" | tee -a "$A/summary.txt"
pack
med() { grep -E '^(time|end-to-end|relaxations per edge|batch[^:]*): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
ss() { local label=$1 w=$2 file=$3; shift 3
  timeout 120 $W bench "$file" --algorithm sssp --roots 16 --delta-width $w "$@" > "$A/$label-$w.txt" 2>&1
  echo "sssp $label $w rc=$? at $SECONDS s $(med "$A/$label-$w.txt")" | tee -a "$A/summary.txt"
}
for g in kron-22 urand-22; do
  ss $g-1 fixed "$work/$g-w.wgr"; ss $g-1 adaptive "$work/$g-w.wgr" --trace --json "$A/sssp-$g-adaptive.json"
  ss $g-2 adaptive "$work/$g-w.wgr"; ss $g-2 fixed "$work/$g-w.wgr"
done
pack
ss kron-24-1 fixed "$work/kron-24-w.wgr"; ss kron-24-1 adaptive "$work/kron-24-w.wgr" --trace --json "$A/sssp-kron-24-adaptive.json"
pack
ss grid2d-5000-1 adaptive "$work/grid2d-5000-w.wgr"; ss grid2d-5000-1 fixed "$work/grid2d-5000-w.wgr"
pack
cc() { local label=$1 init=$2 file=$3
  timeout 60 $W bench "$file" --algorithm cc --trials 16 --cc-init $init > "$C/$label-$init.txt" 2>&1
  echo "cc $label $init rc=$? $(med "$C/$label-$init.txt")" | tee -a "$C/summary.txt"
}
for pass in 1 2; do for g in kron-22 urand-22 kron-24; do
  cc $g-$pass vertex "$work/$g.wgr"; cc $g-$pass smaller-neighbor "$work/$g.wgr"
done; done
pack
timeout 120 $W bench "$work/kron-22.wgr" --algorithm bfs --roots 64 --batch > "$B/bfs-kron-22-batch.txt" 2>&1
echo "bfs batch kron-22 rc=$? $(med "$B/bfs-kron-22-batch.txt")" | tee -a "$B/summary.txt"
timeout 120 $W bench gpu-bin/datasets/USA-road-d.NY.gr.gz --algorithm bfs --roots 64 --batch > "$B/bfs-ny-batch.txt" 2>&1
echo "bfs batch ny rc=$? $(med "$B/bfs-ny-batch.txt")" | tee -a "$B/summary.txt"
timeout 60 $W bfs "$work/kron-22.wgr" --sources random:64 --verify > "$B/bfs-sources-kron-22.txt" 2>&1
echo "bfs --sources kron-22 rc=$? $(grep -iE 'verif|batch|GPU' "$B/bfs-sources-kron-22.txt" | head -3 | tr '\n' ' ')" | tee -a "$B/summary.txt"
echo "done at $SECONDS s" | tee -a "$A/summary.txt"
pack
