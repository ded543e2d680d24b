#!/usr/bin/env bash
# Entry 113: block-local linking with pseudo-random hook order in shared memory (cc-a.cubin)
# under c72527e's host, roads only; the tallied build for walk steps and swaps per phase.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; R="$work/r"; rm -rf "$R"; mkdir -p "$O" "$R"
W=gpu-bin/warpath; A=.carry/x/cc-a.cubin; T=.carry/x/cc-a-tallied.cubin
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
$W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null &
$W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux.wgr" > /dev/null &
$W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads.wgr" > /dev/null &
wait
run() { local label=$1 file=$2; shift 2
  timeout 90 $W bench "$file" --algorithm cc --trials 16 --backend gpu "$@" > "$R/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(time): ' "$R/$label.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ') | $(grep -A4 'phases of run 1' "$R/$label.txt" | tail -3 | awk '{printf "%s ", $(NF-4)}') $(tail -n 1 "$R/$label.txt" | grep -i error)"
}
for g in ny-u lux usroads; do
  f="$work/$g.wgr"
  for r in 256 512 1024 2048; do WARPATH_KERNELS=$A run $g-a-r$r $f --local-link $r; done
  WARPATH_KERNELS=$A run $g-a-off $f --local-link off
  for r in 512 1024; do WARPATH_KERNELS=$T run $g-t-r$r $f --local-link $r; done
  WARPATH_KERNELS=$T run $g-t-off $f --local-link off
  WARPATH_KERNELS=$A timeout 30 $W cc "$f" --verify --local-link 512 > "$R/verify-$g.txt" 2>&1; echo "verify $g rc=$? $(grep -i verified "$R/verify-$g.txt" | head -1)"
done
echo "done at $SECONDS s"
tar -czf "$O/call-l.tar.gz" -C "$R" .
