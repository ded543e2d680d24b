#!/usr/bin/env bash
# Session 2026-11-27g call B: why kron:28's partitioned components never finished (NOTES 91).
# bf8af19's binary (the tree of af82380). kron:28 converted, then `cc --gpus all` watched every
# 5 s (the process's RSS, CPU and threads, each GPU's use and memory) for up to 300 s; if it
# has not ended by then, every thread's stack (gdb, a binary with symbols) before it is killed.
# Then `cc --gpus 0` the same way in what time is left.
set -u
R=$OUT/run; mkdir -p $R
. scripts/gpu-common
eval "$(scripts/nccl-link | grep export)"
export NCCL_NVLS_ENABLE=0 WARPATH_REQUIRE_GPU=1
xz -d gpu-bin/ab/*/*.xz && chmod +x gpu-bin/ab/*/warpath*
W=$(ls -d gpu-bin/ab/* | head -1)/warpath-symbols
{ nvidia-smi -L; nproc; cat gpu-bin/ab/*/REVISION; free -g; which gdb eu-stack perf; } > $R/gpus.txt 2>&1
( t=$SECONDS; [ -f $work/kron-28.wgr ] || $W convert kron:28 $work/kron-28.wgr > /dev/null; echo "kron:28 ready in $((SECONDS-t)) s rc $?" ) >> $R/convert.txt 2>&1
tar czf $OUT/run.tgz -C $OUT run
watched() {
  local name=$1 limit=$2; shift 2
  if [ $((SECONDS + 40)) -gt 570 ]; then echo "$name: skipped at $SECONDS s" >> $R/jobs.txt; return; fi
  [ $((SECONDS + limit)) -gt 570 ] && limit=$((570 - SECONDS))
  local s=$SECONDS
  $W cc $work/kron-28.wgr "$@" > $R/$name.log 2>&1 &
  local pid=$!
  while kill -0 $pid 2> /dev/null && [ $((SECONDS - s)) -lt $limit ]; do
    { echo "t=$((SECONDS - s)) $(ps -o rss=,pcpu=,nlwp= -p $pid) | $(nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader | tr '\n' ';')"; } >> $R/$name.mon 2>&1
    sleep 5
  done
  if kill -0 $pid 2> /dev/null; then
    echo "still running at $((SECONDS - s)) s: stacks" >> $R/$name.log
    timeout 60 gdb -p $pid -batch -ex "thread apply all bt 12" > $R/$name.stacks 2>&1 || top -b -H -n 1 -p $pid > $R/$name.top 2>&1
    kill -9 $pid
  fi
  wait $pid; echo "rc $? in $((SECONDS-s)) s" >> $R/$name.log; echo "$name: $((SECONDS-s)) s" >> $R/jobs.txt
  tar czf $OUT/run.tgz -C $OUT run
}
watched cc-4gpu 300 --gpus all
watched cc-1gpu 200 --gpus 0
(cd $R && cat convert.txt jobs.txt; for f in cc-*.log; do echo "== $f"; cat $f; done; tail -3 cc-*.mon)
tar czf $OUT/run.tgz -C $OUT run
