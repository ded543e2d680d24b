#!/usr/bin/env bash
# Session 2026-11-27g call E: the first GPU run of 0161f34 (an undirected graph's part gets its
# transpose read off the whole graph): multi_cc and multi_nccl; then `cc kron-28.wgr --gpus all`
# watched every 5 s, 0161f34 against bf8af19 (the transpose sorted out of each part),
# interleaved new, old, new.
set -u
R=$OUT/run; mkdir -p $R
. scripts/gpu-common
eval "$(scripts/nccl-link | grep export)"
export NCCL_NVLS_ENABLE=0 WARPATH_REQUIRE_GPU=1
xz -d gpu-bin/tests/*.xz gpu-bin/ab/*/warpath.xz && chmod +x gpu-bin/tests/* gpu-bin/ab/*/warpath
OLD=$(ls -d gpu-bin/ab/* | head -1)/warpath
{ nvidia-smi -L; nproc; cat gpu-bin/COMMIT gpu-bin/ab/*/REVISION; free -g; } > $R/gpus.txt 2>&1
place_cli_for_tests
( t=$SECONDS; [ -f $work/kron-28.wgr ] || gpu-bin/warpath convert kron:28 $work/kron-28.wgr > /dev/null; echo "kron:28 ready in $((SECONDS-t)) s rc $?" ) > $R/convert.txt 2>&1 &
conv=$!
for t in multi_cc multi_nccl; do
  s=$SECONDS; timeout 150 gpu-bin/tests/$t --test-threads=1 > $R/test-$t.log 2>&1; rc=$?
  echo "rc $rc in $((SECONDS-s)) s" >> $R/test-$t.log
  tar czf $OUT/run.tgz -C $OUT run
done
wait $conv
watched() {
  local name=$1 bin=$2 limit=$3; shift 3
  if [ $((SECONDS + 40)) -gt 570 ]; then echo "$name: skipped at $SECONDS s" >> $R/jobs.txt; return; fi
  [ $((SECONDS + limit)) -gt 570 ] && limit=$((570 - SECONDS))
  local s=$SECONDS
  $bin cc $work/kron-28.wgr "$@" > $R/$name.log 2>&1 &
  local pid=$!
  while kill -0 $pid 2> /dev/null && [ $((SECONDS - s)) -lt $limit ]; do
    { echo "t=$((SECONDS - s)) $(ps -o rss=,pcpu=,nlwp= -p $pid) | $(nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader | tr '\n' ';')"; } >> $R/$name.mon 2>&1
    sleep 2
  done
  kill -0 $pid 2> /dev/null && { echo "killed at $((SECONDS - s)) s" >> $R/$name.log; kill -9 $pid; }
  wait $pid; echo "rc $? in $((SECONDS-s)) s" >> $R/$name.log; echo "$name: $((SECONDS-s)) s" >> $R/jobs.txt
  tar czf $OUT/run.tgz -C $OUT run
}
watched cc-4gpu-new-1 gpu-bin/warpath 120 --gpus all
watched cc-4gpu-old-1 $OLD 120 --gpus all
watched cc-4gpu-new-2 gpu-bin/warpath 120 --gpus all
watched cc-2gpu-new gpu-bin/warpath 120 --gpus 0,1
(cd $R && cat convert.txt jobs.txt; grep -h "test result\|^rc" test-*.log; for f in cc-*.log; do echo "== $f"; cat $f; done)
tar czf $OUT/run.tgz -C $OUT run
