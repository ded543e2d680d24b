#!/usr/bin/env bash
# Session 2026-12-01 (eighth), call K1, at the commit in gpu-bin/COMMIT (4-byte distance words):
# gpu_sssp while the weighted graphs convert; then SSSP on kron:22, urand:22 and kron:24 (16 roots,
# interleaved, two passes on the 2^22 graphs): distances only in 4-byte words, in 8-byte words,
# and with parents (packed), against 1f061ac's binary (the kernels before, packed and distances
# only); one traced narrow run each. Then the BFS on kron:26: every bottom-up level apart with
# one bitmap word a warp at a time, against each stretch's first apart the same way
# (../2026-12-01-f1d15c1-h200-one-gpu-every-level-by-words/).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
xz -dc .carry/old/warpath-1f061ac.xz > /tmp/warpath-old && chmod +x /tmp/warpath-old
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder sssp-narrow-words; S="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$S/machine.txt" 2>&1
pack() { tar -czf "$O/call-k1.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath; OLD=/tmp/warpath-old
export WARPATH_REQUIRE_GPU=1
for spec in kron:22 urand:22 kron:24; do
  f="$work/${spec//:/-}"; ( $W convert "$spec" "$f-w.wgr" --weights uniform:1:255 > /dev/null ) &
done
( $W convert kron:26 /dev/shm/kron-26.wgr > /dev/null 2>&1 ) &
place_cli_for_tests
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 240 gpu-bin/tests/gpu_sssp --test-threads 1 > "$S/gpu_sssp.txt" 2>&1
  echo "gpu_sssp rc=$? at $SECONDS s: $(grep -E '^test result' "$S/gpu_sssp.txt" | tail -1)" | tee -a "$S/summary.txt"
  grep -E "panicked|FAILED" "$S/gpu_sssp.txt" | head -6 )
wait
echo "converted at $SECONDS s" | tee -a "$S/summary.txt"
pack
med() { grep -E '^(time|end-to-end|relaxations per edge): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
bs() { local bin=$1 g=$2 label=$3; shift 3
  timeout 120 $bin bench "$work/$g-w.wgr" --algorithm sssp --roots 16 "$@" > "$S/$g-$label.txt" 2>&1
  echo "$g $label rc=$? at $SECONDS s | $(med "$S/$g-$label.txt")" | tee -a "$S/summary.txt"
  pack
}
for pass in 1 2; do
  graphs="kron-22 urand-22"; [ $pass = 1 ] && graphs="$graphs kron-24"
  for g in $graphs; do
    bs $W "$g" narrow-$pass --distances-only
    bs $W "$g" wide-$pass --distances-only --distance-words wide
    bs $OLD "$g" old-distances-only-$pass --distances-only
    bs $W "$g" packed-$pass
    bs $OLD "$g" old-packed-$pass
  done
done
for g in kron-22 urand-22 kron-24; do
  bs $W "$g" narrow-traced --distances-only --trace --json "$S/$g-narrow-traced.json"
done
OUT=$work/runs run_folder one-gpu-every-level-by-words; K="$out"
cp "$S/machine.txt" "$K/"
bb() { local label=$1 roots=$2; shift 2
  timeout 90 $W bench /dev/shm/kron-26.wgr --roots "$roots" "$@" --json "$K/kron-26-$label.json" > "$K/kron-26-$label.txt" 2>&1
  echo "kron-26 $label rc=$? at $SECONDS s | $(grep -E '^time: ' "$K/kron-26-$label.txt" | head -1)" | tee -a "$K/summary.txt"
  pack
}
if [ $SECONDS -lt 420 ]; then
  bb every-chunk1 8 --bottom-up-launch every --bottom-up-chunk 1
  bb apart-chunk1 8 --bottom-up-launch apart --bottom-up-chunk 1
  bb every-chunk1-trace3 3 --bottom-up-launch every --bottom-up-chunk 1 --trace-trial 3
  grep -E "^ +[0-9]+ +(top-down|bottom-up)" "$K/kron-26-every-chunk1-trace3.txt" | head -8
fi
echo "done at $SECONDS s" | tee -a "$S/summary.txt"
pack
