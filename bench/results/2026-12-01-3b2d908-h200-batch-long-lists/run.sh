#!/usr/bin/env bash
# Session 2026-12-01 (fifth), call B2, at the commit in gpu-bin/COMMIT: gpu_bfs's many-source and
# closeness tests (long lists queued in pieces for the grid); the 64-root batch on kron:22,
# urand:22 and USA-road-d.NY by ca594b2's binary (the ring, warps walking long lists), this one,
# and this one with skewed graphs' later small frontiers pushed (a host-only variant, not
# committed), interleaved twice; one traced batch of each variant; kron:24 once.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder batch-long-lists; S="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; free -g | head -2; } > "$S/machine.txt" 2>&1
pack() { tar -czf "$O/call-b2.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
for b in ca594b2 skewpush; do xz -dc .carry/old/warpath-$b.xz > $work/warpath-$b; chmod +x $work/warpath-$b; done
export WARPATH_REQUIRE_GPU=1
place_cli_for_tests
for spec in kron:22 urand:22 kron:24; do [ -f "$work/${spec//:/-}.wgr" ] || ( $W convert $spec "$work/${spec//:/-}.wgr" > /dev/null ) & done
[ -f "$work/USA-road-d.NY.wgr" ] || ( $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/USA-road-d.NY.wgr" > /dev/null ) &
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 200 gpu-bin/tests/gpu_bfs many_sources --test-threads 1 > "$S/gpu_bfs.txt" 2>&1
  timeout 100 gpu-bin/tests/gpu_bfs closeness --test-threads 1 >> "$S/gpu_bfs.txt" 2>&1
  echo "gpu_bfs rc=$? at $SECONDS s: $(grep -E '^test result' "$S/gpu_bfs.txt" | tr '\n' ' ')" | tee -a "$S/summary.txt"
  grep -E "panicked|FAILED" "$S/gpu_bfs.txt" | head -6 )
wait
pack
for pass in 1 2; do
  for g in kron-22 urand-22 USA-road-d.NY; do
    for b in ca594b2 new skewpush; do
      [ $g = USA-road-d.NY ] && [ $b = skewpush ] && continue
      bin=$W; [ $b != new ] && bin=$work/warpath-$b
      timeout 60 $bin bench "$work/$g.wgr" --algorithm bfs --roots 64 --batch --json "$S/batch-$g-$b-$pass.json" > "$S/batch-$g-$b-$pass.txt" 2>&1
      echo "batch $g $b pass $pass rc=$? $(grep -E '^batch' "$S/batch-$g-$b-$pass.txt" | tr '\n' ' ')" | tee -a "$S/summary.txt"
    done
  done
  pack
done
for g in kron-22 urand-22; do
  for b in new skewpush; do
    bin=$W; [ $b != new ] && bin=$work/warpath-$b
    timeout 60 $bin bench "$work/$g.wgr" --algorithm bfs --roots 64 --batch --trace --json "$S/batch-$g-$b-trace.json" > "$S/batch-$g-$b-trace.txt" 2>&1
    echo "batch trace $g $b rc=$?" | tee -a "$S/summary.txt"; grep -E '^ *batch' "$S/batch-$g-$b-trace.txt" | head -12 | tee -a "$S/summary.txt"
  done
done
pack
timeout 100 $W bench "$work/kron-24.wgr" --algorithm bfs --roots 64 --batch --trace --json "$S/batch-kron-24-new-trace.json" > "$S/batch-kron-24-new-trace.txt" 2>&1
echo "batch trace kron-24 new rc=$?" | tee -a "$S/summary.txt"; grep -E '^ *batch' "$S/batch-kron-24-new-trace.txt" | head -12 | tee -a "$S/summary.txt"
pack
echo "done at $SECONDS s"
