#!/usr/bin/env bash
# Session 2026-11-27f call D: the first GPU run of 6b7e517 (--gpus ranks' last resort):
# multi_nccl (its new test waits out STUCK_PATIENCE twice) beside kron:28's conversion; then
# the partitioned connected components of kron:28 on 1, 2 and 4 GPUs (never measured at this
# size), every run checked.
set -u
R=$OUT/run; mkdir -p $R
. scripts/gpu-common
eval "$(scripts/nccl-link | grep export)"
export NCCL_NVLS_ENABLE=0 WARPATH_REQUIRE_GPU=1
{ nvidia-smi -L; nproc; cat gpu-bin/COMMIT; free -g; } > $R/gpus.txt 2>&1
place_cli_for_tests
( t=$SECONDS; [ -f $work/kron-28.wgr ] || gpu-bin/warpath convert kron:28 $work/kron-28.wgr > /dev/null; echo "kron:28 ready in $((SECONDS-t)) s rc $?" ) >> $R/convert.txt 2>&1 &
conv=$!
ok=1
s=$SECONDS; timeout 200 gpu-bin/tests/multi_nccl --test-threads=1 > $R/test-multi_nccl.log 2>&1; rc=$?
echo "rc $rc in $((SECONDS-s)) s" >> $R/test-multi_nccl.log; [ $rc = 0 ] || ok=0
tar czf $OUT/run.tgz -C $OUT run
wait $conv
s=$SECONDS; timeout 300 gpu-bin/warpath bench $work/kron-28.wgr --algorithm cc --gpus all --trials 4 --json $R/bench-kron-28-cc.json > $R/bench-kron-28-cc.log 2>&1
echo "rc $? in $((SECONDS-s)) s" >> $R/bench-kron-28-cc.log
(cd $R && cat convert.txt; grep -h "test result\|^rc" test-*.log; grep -B2 -A12 "^scaling" bench-kron-28-cc.log; tail -3 bench-kron-28-cc.log)
tar czf $OUT/run.tgz -C $OUT run
[ $ok = 1 ] || { echo tests failed; exit 1; }
