#!/usr/bin/env bash
# Device call 1 (not committed): GPU tests of `both` (level0-slots + pairs-all-gather), kron:28 .wgr, A/B new(p2p) vs base.
set -u
. scripts/gpu-common
eval "$(scripts/nccl-link | grep export)"
export NCCL_NVLS_ENABLE=0 WARPATH_REQUIRE_GPU=1
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/x.tgz -C $OUT r; }
nvidia-smi -L > $R/gpus.txt; nproc >> $R/gpus.txt; df -h /tmp >> $R/gpus.txt; cat gpu-bin/COMMIT >> $R/gpus.txt
place_cli_for_tests
fail=0
for t in multi_bfs multi_nccl; do
  t0=$SECONDS; timeout 120 gpu-bin/tests/$t --test-threads=1 > $R/test-$t.log 2>&1; rc=$?; echo "rc $rc in $((SECONDS-t0)) s" >> $R/test-$t.log
  [ $rc = 0 ] || fail=1
done
pack
[ $fail = 0 ] || exit 3
t0=$SECONDS; timeout 240 gpu-bin/warpath-base convert kron:28 /tmp/k28.wgr > $R/convert.log 2>&1; echo "rc $? in $((SECONDS-t0)) s" >> $R/convert.log
pack
bench() { # NAME BINARY ARGS...
  local name=$1 bin=$2; shift 2
  local left=$((585 - SECONDS)); [ $left -gt 60 ] || return
  t0=$SECONDS
  timeout $left $bin bench /tmp/k28.wgr --gpus 0,1 --roots 6 --json $R/bench-$name.json "$@" > $R/bench-$name.log 2> $R/bench-$name.err
  echo "rc $? in $((SECONDS-t0)) s" >> $R/bench-$name.log
  gzip -f $R/bench-$name.err
  pack
}
bench new-p2p gpu-bin/warpath
bench base gpu-bin/warpath-base
