#!/usr/bin/env bash
# Entry 104, call C: gpu_sssp at fb8df70 (the packed download split in one pass), then the SSSP
# benches' downloads and end-to-end times on the five graphs (kernel identical to call B's).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
place_cli_for_tests
O=${OUT:-gpu-out}/stages; mkdir -p "$O"
W=gpu-bin/warpath
cat gpu-bin/COMMIT > "$O/machine.txt"
for spec in kron:22 urand:22 grid2d:5000 kron:24; do
  ( $W convert "$spec" "$work/${spec//:/-}.wgr" --weights uniform:1:255 > /dev/null ) &
done
timeout 150 gpu-bin/tests/gpu_sssp --test-threads=1 > "$O/gpu-sssp-tests.log" 2>&1
echo "gpu_sssp rc=$? at $SECONDS s"; grep "test result" "$O/gpu-sssp-tests.log"; grep -A12 panicked "$O/gpu-sssp-tests.log" | head -20
wait
for g in ny kron-22 urand-22 grid2d-5000 kron-24; do
  file="$work/$g.wgr"; [ $g = ny ] && file=gpu-bin/datasets/USA-road-d.NY.gr.gz
  timeout 60 $W bench "$file" --algorithm sssp --roots 16 --backend gpu --json "$O/sssp-$g.json" > "$O/sssp-$g.txt" 2>&1
  echo "sssp $g rc=$? $(grep -E '^(time|end-to-end|download): ' "$O/sssp-$g.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')"
  grep -E 'pinned device-to-host' "$O/sssp-$g.txt" | head -2
done
echo "done at $SECONDS s"
cd "${OUT:-gpu-out}" && tar -czf stages.tgz stages && rm -rf stages
