#!/usr/bin/env bash
# Session 2026-11-27g call A: the first GPU run of 7334f0a (a part without ghosts runs undirected
# with no transpose), 34d84d5 (expanded_queue) and 78ce39d (every part of an undirected graph
# runs undirected on its lists with its ghosts' rows mirrored): multi_nccl, multi_bfs_2d,
# multi_cc, multi_bfs beside kron:26's conversion; then the partitioned components of kron:26
# on 1, 2, 4 GPUs, interleaved A/B against bf8af19 (each part with its transpose; the one rank too).
set -u
R=$OUT/run; mkdir -p $R
. scripts/gpu-common
eval "$(scripts/nccl-link | grep export)"
export NCCL_NVLS_ENABLE=0 WARPATH_REQUIRE_GPU=1
{ nvidia-smi -L; nproc; cat gpu-bin/COMMIT; free -g; } > $R/gpus.txt 2>&1
xz -d gpu-bin/tests/*.xz gpu-bin/ab/*/warpath.xz && chmod +x gpu-bin/tests/* gpu-bin/ab/*/warpath
place_cli_for_tests
( s=$SECONDS; gpu-bin/warpath convert kron:26 $work/kron-26.wgr > /dev/null; echo "kron:26 ready in $((SECONDS-s)) s rc $?" ) > $R/convert.txt 2>&1 &
conv=$!
for t in multi_cc multi_nccl multi_bfs_2d multi_bfs; do
  s=$SECONDS; timeout 200 gpu-bin/tests/$t --test-threads=1 > $R/test-$t.log 2>&1; rc=$?
  echo "rc $rc in $((SECONDS-s)) s" >> $R/test-$t.log
  tar czf $OUT/run.tgz -C $OUT run
done
wait $conv
cat > $work/rss.py <<'PY'
import resource, subprocess, sys, time
started = time.time()
done = subprocess.run(sys.argv[2:])
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
open(sys.argv[1], "w").write(f"peak_rss_mib {peak // 1024} rc {done.returncode} wall_s {time.time() - started:.1f}\n")
sys.exit(done.returncode)
PY
old=$(ls gpu-bin/ab | head -1)
bench() {
  local name=$1 bin=$2 limit=$3; shift 3
  if [ $((SECONDS + limit)) -gt 560 ]; then echo "$name: skipped at $SECONDS s" >> $R/jobs.txt; return; fi
  local s=$SECONDS; timeout $limit python3 $work/rss.py $R/$name.rss $bin bench $work/kron-26.wgr --algorithm cc --gpus all --roots 4 --json $R/$name.json "$@" > $R/$name.log 2>&1
  echo "rc $? in $((SECONDS-s)) s" >> $R/$name.log; echo "$name: $((SECONDS-s)) s" >> $R/jobs.txt
  tar czf $OUT/run.tgz -C $OUT run
}
bench cc-new-1 gpu-bin/warpath 120
bench cc-old-1 gpu-bin/ab/$old/warpath 120
bench cc-new-2 gpu-bin/warpath 120
bench cc-old-2 gpu-bin/ab/$old/warpath 120
(cd $R && cat convert.txt jobs.txt; grep -H . *.rss; grep -h "test result\|^rc" test-*.log)
tar czf $OUT/run.tgz -C $OUT run
