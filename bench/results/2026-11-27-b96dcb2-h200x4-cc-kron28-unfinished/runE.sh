#!/usr/bin/env bash
# Session 2026-11-27f call E: the partitioned connected components of kron:28 (never measured
# at this size): one `cc --gpus 0` run and one `cc --gpus all --verify` run (each with its
# untimed first run), binaries of b96dcb2.
set -u
R=$OUT/run; mkdir -p $R
. scripts/gpu-common
eval "$(scripts/nccl-link | grep export)"
export NCCL_NVLS_ENABLE=0 WARPATH_REQUIRE_GPU=1
{ nvidia-smi -L; nproc; cat gpu-bin/COMMIT; free -g; } > $R/gpus.txt 2>&1
( t=$SECONDS; [ -f $work/kron-28.wgr ] || gpu-bin/warpath convert kron:28 $work/kron-28.wgr > /dev/null; echo "kron:28 ready in $((SECONDS-t)) s rc $?" ) >> $R/convert.txt 2>&1
run() {
  local name=$1 limit=$2; shift 2
  if [ $((SECONDS + limit)) -gt 330 ]; then echo "$name: skipped at $SECONDS s" >> $R/jobs.txt; return; fi
  local s=$SECONDS; timeout $limit gpu-bin/warpath cc $work/kron-28.wgr "$@" > $R/$name.log 2>&1
  echo "rc $? in $((SECONDS-s)) s" >> $R/$name.log; echo "$name: $((SECONDS-s)) s" >> $R/jobs.txt
  tar czf $OUT/run.tgz -C $OUT run
}
run cc-1gpu 60 --gpus 0
run cc-4gpu-verify 150 --gpus all --verify
run cc-4gpu 60 --gpus all
(cd $R && cat convert.txt jobs.txt; for f in cc-*.log; do echo "== $f"; cat $f; done)
tar czf $OUT/run.tgz -C $OUT run
