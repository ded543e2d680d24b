#!/usr/bin/env bash
# Session 2026-12-01 (sixth), call A3, at the commit in gpu-bin/COMMIT: issue 53 item 7. gpu_bfs
# with the bottom-up-apart variants; each bottom-up stretch's first level as a launch of its own
# (8 blocks an SM: the commit's binary; 6: the same source with other launch bounds)
# against the level inside the persistent kernel and one partitioned rank, interleaved, two
# passes, on kron:22, urand:22, kron:24 (16 roots); USA-road-d.NY against one rank.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
for b in b6; do xz -dc .carry/old/warpath-$b.xz > gpu-bin/warpath-$b; chmod +x gpu-bin/warpath-$b; done
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder one-gpu-bottom-up-apart; K="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; free -g | head -2; } > "$K/machine.txt" 2>&1
pack() { tar -czf "$O/call-a3.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
for spec in kron:22 urand:22 kron:24; do ( $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null ) & done
place_cli_for_tests
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 260 gpu-bin/tests/gpu_bfs --test-threads 1 > "$K/gpu_bfs.txt" 2>&1
  echo "gpu_bfs rc=$? at $SECONDS s: $(grep -E '^test result' "$K/gpu_bfs.txt" | tail -1)" | tee -a "$K/summary.txt"
  grep -E "panicked|FAILED" "$K/gpu_bfs.txt" | head -6 )
wait
pack
bk() { local g=$1 label=$2 roots=$3; shift 3; local bin=$W
  case $label in b6*) bin=gpu-bin/warpath-b6;; b4*) bin=gpu-bin/warpath-b4;; esac
  local name; name=$(basename "${g%%.*}")
  timeout 60 $bin bench "$g" --roots "$roots" "$@" --json "$K/$name-$label.json" > "$K/$name-$label.txt" 2>&1
  echo "$name $label rc=$? at $SECONDS s | $(grep -E '^time: ' "$K/$name-$label.txt" | head -1)" | tee -a "$K/summary.txt"
}
for pass in 1 2; do
  for g in kron-22 urand-22 kron-24; do
    f="$work/$g.wgr"
    bk "$f" "inside-$pass" 16 --bottom-up-launch inside
    bk "$f" "apart-$pass" 16 --bottom-up-launch apart
    bk "$f" "b6-apart-$pass" 16 --bottom-up-launch apart
    bk "$f" "rank-$pass" 16 --partitions 1
    pack
  done
done
bk gpu-bin/datasets/USA-road-d.NY.gr.gz auto 16
bk gpu-bin/datasets/USA-road-d.NY.gr.gz rank 16 --partitions 1
bk "$work/kron-24.wgr" apart-trace 4 --bottom-up-launch apart --trace
bk "$work/kron-24.wgr" inside-trace 4 --bottom-up-launch inside --trace
echo "done at $SECONDS s" | tee -a "$K/summary.txt"
pack
