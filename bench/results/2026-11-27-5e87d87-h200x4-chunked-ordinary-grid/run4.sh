#!/usr/bin/env bash
# Session 2026-11-27d call 4: chunked bottom-up levels on the ordinary grid (--chunk-spare-sms 0)
# against one launch a level. multi_nccl beside kron:28's conversion, then bench kron-28.wgr
# --gpus all --roots 8: --bottom-up-chunks 1 (the default), then 4 with --chunk-spare-sms 0.
set -u
R=$OUT/run; mkdir -p $R
. scripts/gpu-common
eval "$(scripts/nccl-link | grep export)"
export NCCL_NVLS_ENABLE=0 WARPATH_REQUIRE_GPU=1
{ nvidia-smi -L; nproc; cat gpu-bin/COMMIT; free -g; } > $R/gpus.txt 2>&1
place_cli_for_tests
( s=$SECONDS; [ -f $work/kron-28.wgr ] || gpu-bin/warpath convert kron:28 $work/kron-28.wgr > /dev/null; echo "kron:28 ready in $((SECONDS-s)) s" ) > $R/convert.txt 2>&1 &
s=$SECONDS; timeout 150 gpu-bin/tests/multi_nccl --test-threads=1 > $R/test-multi_nccl.log 2>&1; rc=$?
echo "rc $rc in $((SECONDS-s)) s" >> $R/test-multi_nccl.log
wait
tar czf $OUT/run.tgz -C $OUT run
bench() { local name=$1; shift; local s=$SECONDS; timeout 220 gpu-bin/warpath bench $work/kron-28.wgr --gpus all --roots 8 --json $R/bench-$name.json "$@" > $R/bench-$name.log 2>&1; echo "rc $? in $((SECONDS-s)) s" >> $R/bench-$name.log; tar czf $OUT/run.tgz -C $OUT run; }
if [ $rc = 0 ]; then
  bench chunks1
  bench chunks4-spare0 --bottom-up-chunks 4 --chunk-spare-sms 0
fi
(cd $R && cat convert.txt; grep -h "test result\|^rc" test-*.log; grep -H "^time:\|^ \+[124] \|^rc" bench-*.log)
tar czf $OUT/run.tgz -C $OUT run
