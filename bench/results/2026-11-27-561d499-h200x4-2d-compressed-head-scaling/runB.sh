#!/usr/bin/env bash
# Session 2026-11-27f call B: the first GPU run of 561d499 (2D parts with delta-varint lists),
# then the scaling at the head: multi_nccl and multi_bfs_2d beside the conversions of kron:26,
# 27 and 28; kron:26 2D on 1x1, 1x2, 2x2 grids, plain and compressed; weak scaling kron:26 on
# GPU 0, kron:27 on GPUs 0,1 (kron:28 on 4 from the strong run); strong kron:28 --gpus all;
# last, kron:28 on one GPU by the single-GPU engine (the persistent kernel), for reference.
set -u
R=$OUT/run; mkdir -p $R
. scripts/gpu-common
eval "$(scripts/nccl-link | grep export)"
export NCCL_NVLS_ENABLE=0 WARPATH_REQUIRE_GPU=1
{ nvidia-smi -L; nproc; cat gpu-bin/COMMIT; free -g; } > $R/gpus.txt 2>&1
place_cli_for_tests
for s in 26 27 28; do
  ( t=$SECONDS; [ -f $work/kron-$s.wgr ] || gpu-bin/warpath convert kron:$s $work/kron-$s.wgr > /dev/null; echo "kron:$s ready in $((SECONDS-t)) s rc $?" ) >> $R/convert.txt 2>&1 &
done
ok=1
for t in ${TESTS-multi_nccl multi_bfs_2d}; do
  s=$SECONDS; timeout 200 gpu-bin/tests/$t --test-threads=1 > $R/test-$t.log 2>&1; rc=$?
  echo "rc $rc in $((SECONDS-s)) s" >> $R/test-$t.log; [ $rc = 0 ] || ok=0
  tar czf $OUT/run.tgz -C $OUT run
done
wait
bench() {
  local name=$1 limit=$2; shift 2
  if [ $((SECONDS + limit)) -gt 570 ]; then echo "$name: skipped at $SECONDS s" >> $R/jobs.txt; return; fi
  local s=$SECONDS; timeout $limit gpu-bin/warpath bench "$@" --json $R/bench-$name.json > $R/bench-$name.log 2>&1
  echo "rc $? in $((SECONDS-s)) s" >> $R/bench-$name.log; echo "$name: $((SECONDS-s)) s" >> $R/jobs.txt
  tar czf $OUT/run.tgz -C $OUT run
}
bench kron-26-2d 90 $work/kron-26.wgr --gpus all --layout 2d --roots 4
bench kron-26-2d-compressed 90 $work/kron-26.wgr --gpus all --layout 2d --compressed --roots 4
bench kron-26-1gpu 60 $work/kron-26.wgr --gpus 0 --roots 8
bench kron-27-2gpu 100 $work/kron-27.wgr --gpus 0,1 --roots 8
bench kron-28-all 240 $work/kron-28.wgr --gpus all --roots 8
bench kron-28-single-gpu 90 $work/kron-28.wgr --roots 8
(cd $R && cat convert.txt jobs.txt; grep -h "test result\|^rc" test-*.log; for f in bench-*.log; do echo "== $f"; grep -A8 "^scaling\|^time:" $f | head -14; tail -1 $f; done)
tar czf $OUT/run.tgz -C $OUT run
[ $ok = 1 ] || { echo tests failed; exit 1; }
