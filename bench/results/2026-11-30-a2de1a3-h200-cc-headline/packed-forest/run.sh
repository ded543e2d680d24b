#!/usr/bin/env bash
# Entry 113: the local forest in the sampling's table (cc-d, 23.8 KB of shared memory a block)
# against its own 8 KB array (cc-h, a2de1a3's kernel, 32 KB) and c9012fd's kernel (cc-old,
# --local-link off), under a2de1a3's host, interleaved twice.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz
. scripts/gpu-common
O=${OUT:-gpu-out}; R="$work/r"; rm -rf "$R"; mkdir -p "$O" "$R"
W=gpu-bin/warpath
$W convert .carry/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null &
$W convert .carry/datasets/luxembourg_osm.mtx.gz "$work/lux.wgr" > /dev/null &
for spec in kron:22 urand:22; do $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null & done
wait
echo "converted at $SECONDS s"
run() { local label=$1 file=$2; shift 2
  timeout 90 $W bench "$file" --algorithm cc --trials 16 --backend gpu "$@" > "$R/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(time): ' "$R/$label.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')| $(grep -A8 'phases of run 1' "$R/$label.txt" | grep -E '^ +[a-z]' | grep -v phase | awk '{printf "%s ", $(NF-4)}') $(tail -n 1 "$R/$label.txt" | grep -i error)"
}
for pass in 1 2; do for g in urand-22 kron-22 ny-u lux; do
  WARPATH_KERNELS=.carry/x/cc-old-c9012fd.cubin run $g-old-$pass "$work/$g.wgr" --local-link off
  WARPATH_KERNELS=.carry/x/cc-h.cubin run $g-h-$pass "$work/$g.wgr"
  WARPATH_KERNELS=.carry/x/cc-d.cubin run $g-d-$pass "$work/$g.wgr"
done; done
for g in ny-u lux; do WARPATH_KERNELS=.carry/x/cc-d.cubin timeout 30 $W cc "$work/$g.wgr" --verify | grep -i verified; done
echo "done at $SECONDS s"
tar -czf "$O/call-r.tar.gz" -C "$R" .
