#!/usr/bin/env bash
# Session 2026-12-01 (ninth), call A2, at the commit in gpu-bin/COMMIT: (1) rounds apart never
# against c2b39aa's binary (the kernels before, one launch), interleaved, 16 roots, distances
# only: did the refactor around the deferred batch move anything; (2) Nsight Compute over the
# first round apart of at least 500,000 vertices (kron:22's and urand:22's biggest), the apart
# kernel at 6 blocks an SM (40 registers, no spills; WARPATH_KERNELS); (3) kron:24 rounds apart
# at 6 and 8 blocks an SM against never.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz
xz -dc .carry/variants/apart6.cubin.xz > /tmp/apart6.cubin
xz -dc .carry/old/warpath-c2b39aa.xz > /tmp/warpath-old && chmod +x /tmp/warpath-old
. scripts/gpu-common
O=${OUT:-gpu-out}; mkdir -p "$O"
OUT=$work/runs run_folder sssp-rounds-apart-profile; S="$out"
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$S/machine.txt" 2>&1
pack() { tar -czf "$O/call-a2.tar.gz" -C "$work/runs" .; }
W=gpu-bin/warpath; OLD=/tmp/warpath-old
export WARPATH_REQUIRE_GPU=1
for spec in kron:22 urand:22 kron:24; do
  f="$work/${spec//:/-}"; [ -f "$f-w.wgr" ] || ( $W convert "$spec" "$f-w.wgr" --weights uniform:1:255 > /dev/null ) &
done
wait
echo "converted at $SECONDS s" | tee -a "$S/summary.txt"
med() { grep -E '^(time|end-to-end|relaxations per edge): ' "$1" | sed 's/min [^,]*, //; s/, max.*//; s/ median (.*//' | tr '\n' ' '; }
bs() { local bin=$1 g=$2 label=$3; shift 3
  timeout 100 $bin bench "$work/$g-w.wgr" --algorithm sssp --roots 16 "$@" > "$S/$g-$label.txt" 2>&1
  echo "$g $label rc=$? at $SECONDS s | $(med "$S/$g-$label.txt")" | tee -a "$S/summary.txt"
  pack
}
for g in kron-22 urand-22; do
  for pass in 1 2; do
    bs $W "$g" never-$pass --distances-only --rounds-apart never
    bs $OLD "$g" old-$pass --distances-only
  done
done
bs $W kron-24 never --distances-only --rounds-apart never
bs $OLD kron-24 old --distances-only
WARPATH_KERNELS=/tmp/apart6.cubin bs $W kron-24 auto-6 --distances-only
bs $W kron-24 auto --distances-only
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU $($NCU --version 2>&1 | tail -1)" | tee -a "$S/summary.txt"
prof() { local g=$1 label=$2
  timeout 150 $NCU --clock-control none --set full --import-source no -k regex:sssp_relax_apart -c 1 -o "$S/$g-$label" \
    $W sssp "$work/$g-w.wgr" --backend gpu --distances-only --rounds-apart 500000 --trace > "$S/$g-$label-ncu-log.txt" 2>&1
  echo "ncu $g $label rc=$? at $SECONDS s" | tee -a "$S/summary.txt"
  $NCU -i "$S/$g-$label.ncu-rep" --page details > "$S/$g-$label-details.txt" 2>&1
  $NCU -i "$S/$g-$label.ncu-rep" --page source --csv --print-source sass > "$S/$g-$label-sass.csv" 2>&1
  gzip -9 "$S/$g-$label-sass.csv"; rm -f "$S/$g-$label.ncu-rep"
  pack
}
for g in kron-22 urand-22; do
  WARPATH_KERNELS=/tmp/apart6.cubin prof $g apart6
done
echo "done at $SECONDS s" | tee -a "$S/summary.txt"
pack
