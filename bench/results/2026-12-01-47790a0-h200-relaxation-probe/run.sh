#!/usr/bin/env bash
# Session 2026-12-01, call P, at the commit in gpu-bin/COMMIT: gpu_sssp, gpu_bfs and gpu_cc; the
# relaxation probe (CuPy); then the Python package on the GPU: its tests, NetworkX's suites with
# the backend, and bench/python_speed.py on kron:20 (issue 54, item 4).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder gpu-tests; T="$out"
OUT=$work/runs run_folder relaxation-probe; R="$out"
OUT=$work/runs run_folder python-speed; Y="$out"
for d in "$T" "$R" "$Y"; do { cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; python3 --version; } > "$d/machine.txt" 2>&1; done
pack() { tar -czf "$O/call-p.tar.gz" -C "$work/runs" .; }
place_cli_for_tests
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
for t in gpu_sssp gpu_bfs gpu_cc; do
  timeout 200 gpu-bin/tests/$t --test-threads 1 > "$T/$t.txt" 2>&1
  echo "$t rc=$? at $SECONDS s: $(grep -E '^test result' "$T/$t.txt" | tail -1)" | tee -a "$T/summary.txt"
  grep -E "panicked|FAILED" "$T/$t.txt" | head -4
done
pack
cp .carry/probe/relax_probe.py "$R/"
timeout 120 python3 .carry/probe/relax_probe.py > "$R/probe.txt" 2>&1; echo "probe rc=$? at $SECONDS s" | tee -a "$R/summary.txt"
cat "$R/probe.txt"
pack
P=/tmp/pylib; rm -rf $P; python3 -m pip install -q --no-deps --no-index --target $P .carry/py/*.whl > "$Y/install.txt" 2>&1
export PYTHONPATH=$P
(cd /tmp && python3 -m pytest -q -p no:cacheprovider -W ignore::UserWarning "$OLDPWD/python/tests") > "$Y/package-tests.txt" 2>&1
echo "package tests rc=$? $(tail -1 "$Y/package-tests.txt")" | tee -a "$Y/summary.txt"
(cd /tmp && NETWORKX_TEST_BACKEND=warpath NETWORKX_FALLBACK_TO_NX=True python3 -m pytest -q -p no:cacheprovider -W ignore::UserWarning \
  --pyargs networkx.algorithms.traversal networkx.algorithms.components networkx.algorithms.shortest_paths) > "$Y/networkx-tests.txt" 2>&1
echo "networkx tests rc=$? $(tail -1 "$Y/networkx-tests.txt")" | tee -a "$Y/summary.txt"
pack
timeout 300 python3 bench/python_speed.py kron:20 --repeats 3 > "$Y/kron20.txt" 2>&1; echo "speed rc=$? at $SECONDS s" | tee -a "$Y/summary.txt"
cat "$Y/kron20.txt"
pack
