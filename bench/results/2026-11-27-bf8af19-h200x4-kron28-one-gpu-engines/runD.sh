#!/usr/bin/env bash
# Session 2026-11-27g call D: why the single-GPU persistent BFS takes longer on kron:28 than the
# partitioned BFS on one rank (NOTES 89): the same 4 roots, the persistent kernel with its
# per-level trace, then `--gpus 0` with its per-level rows (JSON). bf8af19's binary.
set -u
R=$OUT/run; mkdir -p $R
. scripts/gpu-common
eval "$(scripts/nccl-link | grep export)"
export NCCL_NVLS_ENABLE=0 WARPATH_REQUIRE_GPU=1
ls gpu-bin/ab/*/*.xz > /dev/null 2>&1 && xz -d gpu-bin/ab/*/*.xz; chmod +x gpu-bin/ab/*/warpath*
W=$(ls -d gpu-bin/ab/* | head -1)/warpath
{ nvidia-smi -L; nproc; cat gpu-bin/ab/*/REVISION; free -g; } > $R/gpus.txt 2>&1
( t=$SECONDS; [ -f $work/kron-28.wgr ] || $W convert kron:28 $work/kron-28.wgr > /dev/null; echo "kron:28 ready in $((SECONDS-t)) s rc $?" ) >> $R/convert.txt 2>&1
b() {
  local name=$1; shift
  local s=$SECONDS; timeout 150 $W bench $work/kron-28.wgr --roots 4 --json $R/$name.json "$@" > $R/$name.log 2>&1
  echo "rc $? in $((SECONDS-s)) s" >> $R/$name.log; tar czf $OUT/run.tgz -C $OUT run
}
b persistent --trace
b lone-rank --gpus 0
(cd $R && cat convert.txt; for f in persistent lone-rank; do echo "== $f"; head -60 $f.log; done)
tar czf $OUT/run.tgz -C $OUT run
