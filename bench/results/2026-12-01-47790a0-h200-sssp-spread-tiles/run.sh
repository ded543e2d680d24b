#!/usr/bin/env bash
# Session 2026-12-01, call R: SSSP's tiles spread over every block on mid-sized steps (spread),
# and that with lists under 64 edges left to the block's scan on big steps (wl64), as sm_90
# cubins under 47790a0's host (WARPATH_KERNELS), against 47790a0's own (base): gpu_sssp on wl64,
# then 16 roots on urand:22 (two interleaved passes), kron:22 and grid2d:5000 (one). Beside
# gpu_sssp, the Python wheel (32f1204's package) with NetworkX's suites on the GPU.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
for v in spread wl64; do xz -dc .carry/x/$v.cubin.xz > /tmp/$v.cubin; done
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder sssp-spread-tiles; A="$out"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; echo "kernels: base (embedded), spread and wl64 (cubins)"; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$A/machine.txt" 2>&1
pack() { tar -czf "$O/call-r.tar.gz" -C "$work/runs" .; }
for spec in kron:22 urand:22 grid2d:5000; do
  f="$work/${spec//:/-}-w"; ( [ -f "$f.wgr" ] || $W convert "$spec" "$f.wgr" --weights uniform:1:255 > /dev/null ) &
done
(
  P=/tmp/pylib; rm -rf $P; python3 -m pip install -q --no-deps --no-index --target $P .carry/py/*.whl > "$A/py-install.txt" 2>&1
  export PYTHONPATH=$P
  (cd /tmp && python3 -m pytest -q -p no:cacheprovider -W ignore::UserWarning "$OLDPWD/python/tests") > "$A/py-package-tests.txt" 2>&1
  echo "package tests rc=$?" >> "$A/py-package-tests.txt"
  (cd /tmp && NETWORKX_TEST_BACKEND=warpath NETWORKX_FALLBACK_TO_NX=True python3 -m pytest -q -p no:cacheprovider -W ignore::UserWarning \
    --pyargs networkx.algorithms.traversal networkx.algorithms.components networkx.algorithms.shortest_paths) > "$A/py-networkx-tests.txt" 2>&1
  echo "networkx tests rc=$?" >> "$A/py-networkx-tests.txt"
) &
pypid=$!
place_cli_for_tests
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
WARPATH_KERNELS=/tmp/wl64.cubin timeout 200 gpu-bin/tests/gpu_sssp --test-threads 1 > "$A/gpu_sssp-wl64.txt" 2>&1
echo "gpu_sssp (wl64) rc=$? at $SECONDS s: $(grep -E '^test result' "$A/gpu_sssp-wl64.txt" | tail -1)" | tee -a "$A/summary.txt"
grep -E "panicked|FAILED" "$A/gpu_sssp-wl64.txt" | head -4
wait $pypid
echo "python at $SECONDS s: $(grep -E 'passed|failed' "$A/py-package-tests.txt" | tail -1) / $(grep -E 'passed|failed' "$A/py-networkx-tests.txt" | tail -1)" | tee -a "$A/summary.txt"
wait
pack
bench() { local label=$1 v=$2; shift 2
  local env=(); [ $v = base ] || env=(WARPATH_KERNELS=/tmp/$v.cubin)
  env "${env[@]}" timeout 100 $W bench "$@" --algorithm sssp --roots 16 > "$A/$label-$v.txt" 2>&1
  echo "$label $v rc=$? $(grep -E '^(time|relaxations per edge): ' "$A/$label-$v.txt" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' ')" | tee -a "$A/summary.txt"
}
for v in base spread wl64; do bench urand-22-1 $v "$work/urand-22-w.wgr"; done
for v in base spread wl64; do bench kron-22-1 $v "$work/kron-22-w.wgr"; done
pack
for v in base spread; do bench grid2d-5000-1 $v "$work/grid2d-5000-w.wgr"; done
pack
for v in wl64 spread base; do bench urand-22-2 $v "$work/urand-22-w.wgr"; done
echo "done at $SECONDS s" | tee -a "$A/summary.txt"
pack
