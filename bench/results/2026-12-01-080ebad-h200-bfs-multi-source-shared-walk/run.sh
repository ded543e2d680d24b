#!/usr/bin/env bash
# Session 2026-12-01 (third), call X, at the commit in gpu-bin/COMMIT: gpu_bfs (the many-source
# kernel's shared long-list walk and warp reductions); bench --batch on kron:22 and urand:22 (the
# direction the skew rule picks); Nsight Compute over one SSSP run of kron:22 and urand:22 (why
# their big buckets run below the relaxation probe's ceiling); issue 53 item 7: the BFS engine's
# bottom-up forms against one partitioned rank on kron:26 (8 roots each).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder bfs-multi-source-shared-walk; B="$out"
OUT=$work/runs run_folder sssp-profile; P="$out"
OUT=$work/runs run_folder one-gpu-bottom-up-forms; K="$out"
for d in "$B" "$P" "$K"; do { cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; free -g | head -2; } > "$d/machine.txt" 2>&1; done
pack() { tar -czf "$O/call-x.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
for spec in kron:22 urand:22; do
  ( $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null ) &
  ( $W convert "$spec" "$work/${spec//:/-}-w.wgr" --weights uniform:1:255 > /dev/null ) &
done
( s=$SECONDS; $W convert kron:26 /dev/shm/kron-26.wgr > "$K/convert.txt" 2>&1; echo "kron:26 converted rc=$? in $((SECONDS - s)) s" >> "$K/summary.txt" ) &
place_cli_for_tests
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 200 gpu-bin/tests/gpu_bfs --test-threads 1 > "$B/gpu_bfs.txt" 2>&1
  echo "gpu_bfs rc=$? at $SECONDS s: $(grep -E '^test result' "$B/gpu_bfs.txt" | tail -1)" | tee -a "$B/summary.txt"
  grep -E "panicked|FAILED" "$B/gpu_bfs.txt" | head -4 )
wait
echo "converted, tests done at $SECONDS s"; cat "$K/summary.txt"
pack
for g in kron-22 urand-22; do
  timeout 100 $W bench "$work/$g.wgr" --algorithm bfs --roots 64 --batch > "$B/bfs-$g-batch.txt" 2>&1
  echo "bfs batch $g rc=$? at $SECONDS s $(grep -E '^batch' "$B/bfs-$g-batch.txt" | tr '\n' ' ')" | tee -a "$B/summary.txt"
done
pack
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU $($NCU --version 2>&1 | tail -1)" | tee -a "$P/summary.txt"
for g in kron-22 urand-22; do
  timeout 60 $W sssp "$work/$g-w.wgr" --backend gpu --trace > "$P/$g-trace.txt" 2>&1
  timeout 150 $NCU --clock-control none --set full --import-source no -k regex:sssp_delta_stepping -c 1 -o "$P/$g" \
    $W sssp "$work/$g-w.wgr" --backend gpu > "$P/$g-ncu-log.txt" 2>&1
  echo "ncu $g rc=$? at $SECONDS s" | tee -a "$P/summary.txt"
  $NCU -i "$P/$g.ncu-rep" --page details > "$P/$g-details.txt" 2>&1
  $NCU -i "$P/$g.ncu-rep" --page source --csv --print-source sass > "$P/$g-sass.csv" 2>&1
  $NCU -i "$P/$g.ncu-rep" --page raw --csv > "$P/$g-raw.csv" 2>&1
  gzip -9 "$P/$g-sass.csv" "$P/$g-raw.csv"; rm -f "$P/$g.ncu-rep"
  pack
done
bk() { local label=$1; shift
  timeout 110 $W bench /dev/shm/kron-26.wgr --roots 8 "$@" --json "$K/kron-26-$label.json" > "$K/kron-26-$label.txt" 2>&1
  echo "kron:26 $label rc=$? at $SECONDS s | $(grep -E '^time: ' "$K/kron-26-$label.txt" | head -1)" | tee -a "$K/summary.txt"
  pack
}
bk engine
bk rank --partitions 1
bk chunk-1 --bottom-up-chunk 1
bk balance-thread --bottom-up-balance thread
bk chunk-8 --bottom-up-chunk 8
bk balance-warp --bottom-up-balance warp
bk engine-2
bk rank-2 --partitions 1
echo "done at $SECONDS s" | tee -a "$K/summary.txt"
pack
