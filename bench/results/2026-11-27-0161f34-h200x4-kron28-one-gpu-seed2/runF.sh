#!/usr/bin/env bash
# Session 2026-11-27g call F: kron:28 on one GPU, the persistent kernel against one rank of the
# partitioned BFS, root by root with the per-level times of both: `bench --roots 1` for seeds 2,
# 3, 4 (a seed picks the roots), `--trace` for the persistent kernel, `--gpus 0 --json` for the
# rank. Binary of 0161f34 (its traversal code is bf8af19's).
set -u
R=$OUT/run; mkdir -p $R
. scripts/gpu-common
eval "$(scripts/nccl-link | grep export)"
export NCCL_NVLS_ENABLE=0 WARPATH_REQUIRE_GPU=1
{ nvidia-smi -L; nproc; cat gpu-bin/COMMIT; } > $R/gpus.txt 2>&1
( t=$SECONDS; gpu-bin/warpath convert kron:28 $work/kron-28.wgr > /dev/null; echo "kron:28 ready in $((SECONDS-t)) s rc $?" ) >> $R/convert.txt 2>&1
tar czf $OUT/run.tgz -C $OUT run
for seed in 2 3 4; do
  [ $SECONDS -gt 150 ] && { echo "seed $seed: skipped at $SECONDS s" >> $R/jobs.txt; break; }
  s=$SECONDS; timeout 40 gpu-bin/warpath bench $work/kron-28.wgr --roots 1 --seed $seed --trace > $R/persistent-seed$seed.log 2>&1; echo "rc $? in $((SECONDS-s)) s" >> $R/persistent-seed$seed.log
  s=$SECONDS; timeout 40 gpu-bin/warpath bench $work/kron-28.wgr --roots 1 --seed $seed --gpus 0 --json $R/rank-seed$seed.json > $R/rank-seed$seed.log 2>&1; echo "rc $? in $((SECONDS-s)) s" >> $R/rank-seed$seed.log
  tar czf $OUT/run.tgz -C $OUT run
done
cat $R/convert.txt $R/jobs.txt 2> /dev/null; grep -h "run  \|^    1 \|rc " $R/*.log
tar czf $OUT/run.tgz -C $OUT run
