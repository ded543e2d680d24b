#!/usr/bin/env bash
# The neighbor rounds alone take one vertex a thread on dense graphs (the compressions and the
# naming keep four): the new kernel module (a cubin loaded by WARPATH_KERNELS under 456d9aa's
# host) against 456d9aa's own, gpu_cc on the new one, 16 trials, two interleaved passes.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
xz -dkc .carry/x/cc-new.cubin.xz > /tmp/cc-new.cubin
. scripts/gpu-common
OUTDIR=${OUT:-gpu-out}; mkdir -p "$OUTDIR"
OUT=$work/runs run_folder ${TOPIC:-cc-rounds-single-vertices}
R="$out"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; echo "new kernels: the next commit's module, as a cubin"; date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > "$R/machine.txt" 2>&1
for spec in kron:22 urand:22 kron:24; do $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null & done
place_cli_for_tests
export WARPATH_REQUIRE_GPU=1 WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
WARPATH_KERNELS=/tmp/cc-new.cubin timeout 90 gpu-bin/tests/gpu_cc --test-threads 1 > "$R/gpu_cc.txt" 2>&1
echo "gpu_cc (new kernels) rc=$? at $SECONDS s: $(grep -E '^test result' "$R/gpu_cc.txt" | tail -1)"
grep -E "panicked|FAILED" "$R/gpu_cc.txt" | head -6
wait
for pass in 1 2; do
  for g in kron-22 urand-22 kron-24; do
    for form in new old; do
      case $form in new) env="WARPATH_KERNELS=/tmp/cc-new.cubin";; old) env=;; esac
      env $env timeout 20 $W bench "$work/$g.wgr" --algorithm cc --trials 16 --backend gpu > "$R/$g-$form-$pass.txt" 2>&1
      echo "$g $form pass $pass rc=$? $(grep -E '^time: ' "$R/$g-$form-$pass.txt" | sed 's/min [^,]*, //; s/, max.*//') | $(grep -A7 'phases of run 1' "$R/$g-$form-$pass.txt" | grep -E '^ +(neighbor|sampling|final|compression)' | awk '{printf "%s ", $(NF-4)}')" | tee -a "$R/table.txt"
    done
  done
done
timeout 20 env WARPATH_KERNELS=/tmp/cc-new.cubin $W cc "$work/kron-22.wgr" --verify > "$R/verify-kron-22.txt" 2>&1; echo "verify kron-22 rc=$? $(grep -i verified "$R/verify-kron-22.txt")"
echo "done at $SECONDS s"
tar -czf "$OUTDIR/call-n.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
