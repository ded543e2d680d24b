#!/usr/bin/env bash
# Session 2026-12-01 (ninth), call A1, at the commit in gpu-bin/COMMIT (near-far's big deferred
# rounds relaxed apart by sssp_relax_apart): gpu_sssp while the graphs convert; SSSP on kron:22,
# urand:22 and kron:24 (16 roots), rounds apart never / auto (n/32) / every deferred round, and
# auto with the apart kernel at 6 blocks an SM (40 registers, a cubin by WARPATH_KERNELS);
# distances only (4-byte words) and with parents; one traced run each.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
xz -dc .carry/variants/apart6.cubin.xz > /tmp/apart6.cubin
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder sssp-rounds-apart; S="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$S/machine.txt" 2>&1
pack() { tar -czf "$O/call-a1.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath
export WARPATH_REQUIRE_GPU=1
for spec in kron:22 urand:22 kron:24; do
  f="$work/${spec//:/-}"; [ -f "$f-w.wgr" ] || ( $W convert "$spec" "$f-w.wgr" --weights uniform:1:255 > /dev/null ) &
done
place_cli_for_tests
( export WARPATH_DATASETS="$PWD/gpu-bin/datasets" WARPATH_SOURCE_TREE="$PWD"
  timeout 300 gpu-bin/tests/gpu_sssp --test-threads 1 > "$S/gpu_sssp.txt" 2>&1
  echo "gpu_sssp rc=$? at $SECONDS s: $(grep -E '^test result' "$S/gpu_sssp.txt" | tail -1)" | tee -a "$S/summary.txt"
  grep -E "panicked|FAILED" "$S/gpu_sssp.txt" | head -6 )
wait
echo "converted at $SECONDS s" | tee -a "$S/summary.txt"
pack
med() { grep -E '^(time|end-to-end|relaxations per edge): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
bs() { local g=$1 label=$2; shift 2
  timeout 100 $W bench "$work/$g-w.wgr" --algorithm sssp --roots 16 "$@" > "$S/$g-$label.txt" 2>&1
  echo "$g $label rc=$? at $SECONDS s | $(med "$S/$g-$label.txt") | $(grep -oE '[0-9]+ deferred rounds \([0-9]+ apart\)' "$S/$g-$label.txt" | head -1)" | tee -a "$S/summary.txt"
  pack
}
for g in kron-22 urand-22; do
  bs "$g" never --distances-only --rounds-apart never
  bs "$g" auto --distances-only
  bs "$g" every --distances-only --rounds-apart 0
  WARPATH_KERNELS=/tmp/apart6.cubin bs "$g" auto-6 --distances-only
  bs "$g" never-2 --distances-only --rounds-apart never
  bs "$g" auto-2 --distances-only
  bs "$g" packed-never --rounds-apart never
  bs "$g" packed-auto
  bs "$g" auto-traced --distances-only --trace --json "$S/$g-auto-traced.json"
done
bs kron-24 never --distances-only --rounds-apart never
bs kron-24 auto --distances-only
bs kron-24 every --distances-only --rounds-apart 0
bs kron-24 packed-auto
echo "done at $SECONDS s" | tee -a "$S/summary.txt"
pack
