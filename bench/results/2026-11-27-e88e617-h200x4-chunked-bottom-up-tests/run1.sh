#!/usr/bin/env bash
# Session 2026-11-27d call 1: chunked bottom-up levels (e88e617). GPU tests multi_nccl and
# multi_bfs (beside kron:28's conversion), then bench kron-28.wgr --gpus all --roots 8: the
# default (4 stretches, 8 spare SMs), --bottom-up-chunks 1 (the level in one launch, as
# before), --chunk-spare-sms 0.
set -u
R=$OUT/run; mkdir -p $R
. scripts/gpu-common
eval "$(scripts/nccl-link | grep export)"
export NCCL_NVLS_ENABLE=0 WARPATH_REQUIRE_GPU=1
{ nvidia-smi -L; nproc; cat gpu-bin/COMMIT; free -g; } > $R/gpus.txt 2>&1
place_cli_for_tests
( s=$SECONDS; gpu-bin/warpath convert kron:28 $work/kron-28.wgr > /dev/null; echo "kron:28 converted in $((SECONDS-s)) s" ) > $R/convert.txt 2>&1 &
ok=1
t() { local s=$SECONDS; timeout 200 gpu-bin/tests/$1 --test-threads=1 > $R/test-$1.log 2>&1; local rc=$?; echo "rc $rc in $((SECONDS-s)) s" >> $R/test-$1.log; echo $rc > $R/rc-$1; }
t multi_nccl & t multi_bfs &
wait
for f in $R/rc-*; do [ "$(cat $f)" = 0 ] || ok=0; done
tar czf $OUT/run.tgz -C $OUT run
bench() { local name=$1; shift; local s=$SECONDS; timeout 170 gpu-bin/warpath bench $work/kron-28.wgr --gpus all --roots 8 --json $R/bench-$name.json "$@" > $R/bench-$name.log 2>&1; echo "rc $? in $((SECONDS-s)) s" >> $R/bench-$name.log; tar czf $OUT/run.tgz -C $OUT run; }
if [ $ok = 1 ]; then
  bench chunks4
  bench chunks1 --bottom-up-chunks 1
  bench chunks4-spare0 --chunk-spare-sms 0
fi
(cd $R && cat convert.txt; grep -h "test result\|^rc" test-*.log; grep -H "^time:\|speedup\|^rc" bench-*.log)
tar czf $OUT/run.tgz -C $OUT run
[ $ok = 1 ] || { echo tests failed; exit 1; }
