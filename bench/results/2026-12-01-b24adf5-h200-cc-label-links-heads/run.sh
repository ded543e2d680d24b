#!/usr/bin/env bash
# Call A: gpu_cc (the new option sets) and the CC A/B: links from roots or labels, list heads in
# device memory or not, against the previous commit's kernel (cubin), two interleaved passes.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder cc-label-links-heads; C="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$C/machine.txt" 2>&1
pack() { tar -czf "$O/call-a.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
for spec in kron:22 urand:22 kron:24 grid2d:5000; do
  f="$work/${spec//:/-}"; [ -f "$f.wgr" ] || ( $W convert "$spec" "$f.wgr" > /dev/null ) &
done
[ -f "$work/ny-u.wgr" ] || $W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null &
[ -f "$work/lux.wgr" ] || $W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux.wgr" > /dev/null &
[ -f "$work/usroads.wgr" ] || $W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads.wgr" > /dev/null &
place_cli_for_tests
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 200 gpu-bin/tests/gpu_cc --test-threads 1 > "$C/gpu_cc.txt" 2>&1
  echo "gpu_cc rc=$? at $SECONDS s: $(grep -E '^test result' "$C/gpu_cc.txt" | tail -1)" | tee -a "$C/summary.txt"
  grep -E "panicked|FAILED" "$C/gpu_cc.txt" | head -6 ) &
tests=$!
wait $(jobs -p | grep -v "^$tests$") 2>/dev/null
echo "converted at $SECONDS s" | tee -a "$C/summary.txt"
wait $tests
pack
med() { grep -E '^(time|end-to-end): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
phases() { sed -n '/^phases of run 1/,/^json/p' "$1" | grep -vE "^(phases|json|  *phase)" | awk '{n=""; for(i=1;i<=NF-5;i++) n=n $i " "; printf "%s%s | ", n, $(NF-4)}'; }
arms="head roots labels roots-heads labels-heads"
for pass in 1 2; do
  for g in kron-22 urand-22 kron-24 grid2d-5000 ny-u lux usroads; do
    for arm in $arms; do
      env=(); flags=()
      case $arm in
        head) env=(WARPATH_KERNELS=.carry/cc-head.cubin);;
        labels) flags=(--link-start labels);;
        roots-heads) flags=(--list-heads always);;
        labels-heads) flags=(--link-start labels --list-heads always);;
      esac
      t="$C/cc-$g-$arm-$pass.txt"
      env "${env[@]}" timeout 60 $W bench "$work/$g.wgr" --algorithm cc --trials 16 --trace "${flags[@]}" > "$t" 2>&1
      echo "cc $g $arm pass $pass rc=$? $(med "$t")| $(phases "$t")" | tee -a "$C/summary.txt"
    done
    pack
  done
done
echo "done at $SECONDS s" | tee -a "$C/summary.txt"
pack
