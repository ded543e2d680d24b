#!/usr/bin/env bash
# Device call 2 (not committed): A/B of --pair-exchange all-gather vs p2p (same binary), then base again.
set -u
. scripts/gpu-common
eval "$(scripts/nccl-link | grep export)"
export NCCL_NVLS_ENABLE=0 WARPATH_REQUIRE_GPU=1
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/x.tgz -C $OUT r; }
nvidia-smi -L > $R/gpus.txt; cat gpu-bin/COMMIT >> $R/gpus.txt; ls -la /tmp/k28.wgr >> $R/gpus.txt 2>&1
if [ ! -s /tmp/k28.wgr ]; then
  t0=$SECONDS; timeout 240 gpu-bin/warpath-base convert kron:28 /tmp/k28.wgr > $R/convert.log 2>&1; echo "rc $? in $((SECONDS-t0)) s" >> $R/convert.log
fi
bench() { # NAME BINARY ARGS...
  local name=$1 bin=$2; shift 2
  local left=$((590 - SECONDS)); [ $left -gt 60 ] || return
  t0=$SECONDS
  timeout $left $bin bench /tmp/k28.wgr --gpus 0,1 --roots 6 --json $R/bench-$name.json "$@" > $R/bench-$name.log 2> $R/bench-$name.err
  echo "rc $? in $((SECONDS-t0)) s" >> $R/bench-$name.log
  gzip -f $R/bench-$name.err
  pack
}
bench new-ag gpu-bin/warpath --pair-exchange all-gather
bench new-p2p2 gpu-bin/warpath
bench base2 gpu-bin/warpath-base
