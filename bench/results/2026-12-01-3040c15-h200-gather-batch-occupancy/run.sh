#!/usr/bin/env bash
# Session 2026-12-01, call O: four kernel builds under 3040c15's host (WARPATH_KERNELS):
# base (3040c15), b4 (gather BATCH 4), o4 (sssp_delta_stepping at 4 blocks an SM), b4o4 (both);
# gpu_sssp and gpu_bfs and gpu_cc on b4; SSSP on kron:22, urand:22 (two interleaved passes) and
# kron:24 (one); BFS and CC on kron:22 and kron:24, base against b4. Beside them, in the
# background early on, the Python wheel's tests and NetworkX's suites with the backend on the GPU.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
for v in b4 o4 b4o4; do xz -dc .carry/x/$v.cubin.xz > /tmp/$v.cubin; done
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
A="$work/call-o"; rm -rf "$A"; mkdir -p "$A"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; python3 --version; } > "$A/machine.txt" 2>&1
for spec in kron:22 urand:22 kron:24; do
  f="$work/${spec//:/-}-w"; ( [ -f "$f.wgr" ] || $W convert "$spec" "$f.wgr" --weights uniform:1:255 > /dev/null ) &
done
# Python: the wheel and NetworkX 3.6.1 (pinned as python/requirements-test.txt) into a folder of their own.
(
  P=/tmp/pylib; rm -rf $P; python3 -m pip install -q --no-deps --no-index --target $P .carry/py/*.whl > "$A/py-install.txt" 2>&1
  export PYTHONPATH=$P
  python3 -c 'import warpath, networkx, numpy; print("warpath", warpath.__file__, "gpu", warpath.gpu_available(), "networkx", networkx.__version__, "numpy", numpy.__version__)' > "$A/py-tests.txt" 2>&1
  (cd /tmp && WARPATH_REQUIRE_GPU=1 python3 -m pytest -q -p no:cacheprovider -W ignore::UserWarning "$OLDPWD/python/tests") >> "$A/py-tests.txt" 2>&1
  echo "package tests rc=$?" >> "$A/py-tests.txt"
  (cd /tmp && NETWORKX_TEST_BACKEND=warpath NETWORKX_FALLBACK_TO_NX=True python3 -m pytest -q -p no:cacheprovider -W ignore::UserWarning \
    --pyargs networkx.algorithms.traversal networkx.algorithms.components networkx.algorithms.shortest_paths) > "$A/py-networkx-tests.txt" 2>&1
  echo "networkx tests rc=$?" >> "$A/py-networkx-tests.txt"
) &
pypid=$!
place_cli_for_tests
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
for t in gpu_sssp gpu_bfs gpu_cc; do
  WARPATH_KERNELS=/tmp/b4.cubin timeout 150 gpu-bin/tests/$t --test-threads 1 > "$A/b4-$t.txt" 2>&1
  echo "b4 $t rc=$? at $SECONDS s: $(grep -E '^test result' "$A/b4-$t.txt" | tail -1)" | tee -a "$A/summary.txt"
  grep -E "panicked|FAILED" "$A/b4-$t.txt" | head -4
done
wait $pypid; echo "python at $SECONDS s: $(tail -1 $A/py-tests.txt) / $(grep -E 'passed|failed' $A/py-networkx-tests.txt | tail -1) $(tail -1 $A/py-networkx-tests.txt)" | tee -a "$A/summary.txt"
wait
echo "converted at $SECONDS s" | tee -a "$A/summary.txt"
tar -czf "$O/call-o.tar.gz" -C "$A" .
bench() { local label=$1 v=$2; shift 2
  local env=(); [ $v = base ] || env=(WARPATH_KERNELS=/tmp/$v.cubin)
  env "${env[@]}" timeout 100 $W bench "$@" --backend gpu > "$A/$label-$v.txt" 2>&1
  echo "$label $v rc=$? $(grep -E '^(time|relaxations per edge): ' "$A/$label-$v.txt" | sed 's/min [^,]*, //; s/, max.*//' | tr '\n' ' ')" | tee -a "$A/summary.txt"
}
for pass in 1 2; do
  for g in kron-22 urand-22 kron-24; do
    [ $pass = 2 ] && [ $g = kron-24 ] && continue
    for v in base b4 o4 b4o4; do bench "sssp-$g-$pass" $v "$work/$g-w.wgr" --algorithm sssp --roots 16; done
    tar -czf "$O/call-o.tar.gz" -C "$A" .
  done
done
for g in kron-22 kron-24; do
  for v in base b4 base b4; do bench "bfs-$g" $v "$work/$g-w.wgr" --algorithm bfs --roots 16; done
  for v in base b4 base b4; do bench "cc-$g" $v "$work/$g-w.wgr" --algorithm cc --trials 16; done
done
echo "done at $SECONDS s" | tee -a "$A/summary.txt"
tar -czf "$O/call-o.tar.gz" -C "$A" .
