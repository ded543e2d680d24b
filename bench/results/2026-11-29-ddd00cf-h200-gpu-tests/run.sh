#!/usr/bin/env bash
# The GPU tests at the commit in .carry (entry 97).
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
TESTS_ONLY=1 OUT="${OUT:-gpu-out}/tests" timeout 580 bash scripts/gpu-run > "${OUT:-gpu-out}/gpu-run-tests.txt" 2>&1; echo "tests rc=$? at $SECONDS s"
tail -25 "${OUT:-gpu-out}/gpu-run-tests.txt"
cd "${OUT:-gpu-out}" && tar -czf tests.tgz tests gpu-run-tests.txt && rm -rf tests
