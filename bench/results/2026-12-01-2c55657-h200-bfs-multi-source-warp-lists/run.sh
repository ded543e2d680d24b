#!/usr/bin/env bash
# Session 2026-12-01 (second), call T, at the commit in gpu-bin/COMMIT: the GPU tests (gpu_bfs,
# gpu_sssp, gpu_cc); near-far's width swept under adaptive widths (16 roots, one pass each); the
# many-source batch with warp-shared long lists (bench --batch, 64 roots) on kron:22, urand:22 and
# USA-road-d.NY.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder gpu-tests; T="$out"
OUT=$work/runs run_folder sssp-width-sweep-adaptive; A="$out"
OUT=$work/runs run_folder bfs-multi-source-warp-lists; B="$out"
for d in "$T" "$A" "$B"; do { cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$d/machine.txt" 2>&1; done
pack() { tar -czf "$O/call-t.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
for spec in kron:22 urand:22 kron:24; do
  f="$work/${spec//:/-}"
  ( [ -f "$f-w.wgr" ] || $W convert "$spec" "$f-w.wgr" --weights uniform:1:255 > /dev/null ) &
done
for spec in kron:22 urand:22; do f="$work/${spec//:/-}"; ( [ -f "$f.wgr" ] || $W convert "$spec" "$f.wgr" > /dev/null ) & done
place_cli_for_tests
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
for t in gpu_sssp gpu_bfs gpu_cc; do
  timeout 240 gpu-bin/tests/$t --test-threads 1 > "$T/$t.txt" 2>&1
  echo "$t rc=$? at $SECONDS s: $(grep -E '^test result' "$T/$t.txt" | tail -1)" | tee -a "$T/summary.txt"
  grep -E "panicked|FAILED" "$T/$t.txt" | head -4
  pack
done
wait
echo "converted at $SECONDS s" | tee -a "$A/summary.txt"
med() { grep -E '^(time|end-to-end|relaxations per edge|batch[^:]*): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
ss() { local label=$1 d=$2 file=$3; shift 3
  local dd=(); [ "$d" = default ] || dd=(--delta $d)
  timeout 120 $W bench "$file" --algorithm sssp --roots 16 "${dd[@]}" "$@" > "$A/$label-d$d.txt" 2>&1
  echo "sssp $label delta $d rc=$? at $SECONDS s $(med "$A/$label-d$d.txt")" | tee -a "$A/summary.txt"
}
for d in default 12 16 20; do ss kron-22 $d "$work/kron-22-w.wgr"; done
for d in default 32 64; do ss urand-22 $d "$work/urand-22-w.wgr"; done
pack
for d in default 12 16; do ss kron-24 $d "$work/kron-24-w.wgr"; done
ss kron-22 12 "$work/kron-22-w.wgr" --trace
pack
bb() { local label=$1 file=$2
  timeout 150 $W bench "$file" --algorithm bfs --roots 64 --batch > "$B/bfs-$label-batch.txt" 2>&1
  echo "bfs batch $label rc=$? at $SECONDS s $(med "$B/bfs-$label-batch.txt")" | tee -a "$B/summary.txt"
}
bb kron-22 "$work/kron-22.wgr"; bb urand-22 "$work/urand-22.wgr"; bb ny gpu-bin/datasets/USA-road-d.NY.gr.gz
echo "done at $SECONDS s" | tee -a "$A/summary.txt"
pack
