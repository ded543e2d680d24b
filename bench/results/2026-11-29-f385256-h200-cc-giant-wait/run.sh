#!/usr/bin/env bash
# Entry 106, call C: connected components with giant hooks that wait for a giant (f385256)
# against f462656's kernel (old.cubin, under the same host) and with giant hooks off, two
# interleaved passes; ECL-CC and the GAP suite's Afforest on the same files in the same call.
# The peers (ECL-CC with a local timing edit, the GAP suite) were built on the device machine
# in the same call; their builds and converters are not recorded.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
export WARPATH_DATASETS="$PWD/gpu-bin/datasets"
O=${OUT:-gpu-out}; R="$work/r"; mkdir -p "$O" "$R"
W=gpu-bin/warpath; K=.peers/k
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
$W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null &
for spec in kron:22 urand:22 kron:24 grid2d:5000; do $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null & done
wait
echo "converted, peers built at $SECONDS s: $(tail -1 "$R/peers-build.txt")"
graphs="ny-u kron-22 urand-22 kron-24 grid2d-5000"
for g in $graphs; do ( python3 .peers/eclcc/wgr2egr.py "$work/$g.wgr" "$work/$g.egr"; python3 .peers/gapbs/wgr2sg.py "$work/$g.wgr" "$work/$g.sg" ) >> "$R/peer-inputs.txt" 2>&1 & done
run() { local label=$1 file=$2; shift 2
  timeout 60 $W bench "$file" --algorithm cc --trials 16 --backend gpu "$@" > "$R/$label.txt" 2>&1
  echo "$label rc=$? $(grep -E '^(time|end-to-end): ' "$R/$label.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ') $(tail -n 1 "$R/$label.txt" | grep error)"
}
for g in $graphs; do
  f="$work/$g.wgr"
  WARPATH_KERNELS=$K/old.cubin run $g-old $f
  run $g-new $f --json "$R/cc-$g.json"
  run $g-giant-off $f --giant-hooks off
  WARPATH_KERNELS=$K/old.cubin run $g-old-2 $f
  run $g-new-2 $f
done
echo "variants done at $SECONDS s"
for g in $graphs; do
  timeout 30 $W cc "$work/$g.wgr" --verify > "$R/verify-$g.txt" 2>&1; echo "verify $g rc=$? $(grep -i verified "$R/verify-$g.txt" | head -1)"
done
wait
echo "peers from $SECONDS s"
for g in $graphs; do
  timeout 60 .peers/eclcc/eclcc "$work/$g.egr" 17 > "$R/ecl-$g.txt" 2>&1
  echo "ecl-cc $g rc=$? $(grep -E 'event median|components|PASS|FAIL' "$R/ecl-$g.txt" | tr '\n' ' ')"
done
for g in $graphs; do
  OMP_NUM_THREADS=16 timeout 60 .peers/gapbs/cc -f "$work/$g.sg" -n 16 > "$R/gapbs-cc-$g.txt" 2>&1
  echo "gapbs cc $g rc=$? $(python3 .peers/trial_median.py < "$R/gapbs-cc-$g.txt")"
done
echo "done at $SECONDS s"
tar -czf "$O/exp106c.tar.gz" -C "$R" .
