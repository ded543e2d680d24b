#!/usr/bin/env bash
# Session 2026-11-27f call C: where a --rank process's cut by rows spends its time on kron:28
# over 4 processes on one 64-core host: every process's rayon pool of every core
# (RAYON_NUM_THREADS=64, as before this commit) against the new default, the host's
# cores shared out over its ranks (16 each), bfs jobs whose every rank reads its own lists,
# twice each, interleaved; multi_nccl first (the commit's binaries).
set -u
R=$OUT/run; mkdir -p $R
. scripts/gpu-common
eval "$(scripts/nccl-link | grep export)"
export NCCL_NVLS_ENABLE=0 WARPATH_REQUIRE_GPU=1
{ nvidia-smi -L; nproc; cat gpu-bin/COMMIT; free -g; } > $R/gpus.txt 2>&1
( t=$SECONDS; [ -f $work/kron-28.wgr ] || gpu-bin/warpath convert kron:28 $work/kron-28.wgr > /dev/null; echo "kron:28 ready in $((SECONDS-t)) s rc $?" ) >> $R/convert.txt 2>&1 &
conv=$!
cat > $work/rss.py <<'PY'
import resource, subprocess, sys, time
started = time.time()
done = subprocess.run(sys.argv[2:])
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
open(sys.argv[1], "w").write(f"peak_rss_mib {peak // 1024} rc {done.returncode} wall_s {time.time() - started:.1f}\n")
sys.exit(done.returncode)
PY
W=$(nvidia-smi -L | wc -l)
place_cli_for_tests
s=$SECONDS; timeout 100 gpu-bin/tests/multi_nccl --test-threads=1 > $R/test-multi_nccl.log 2>&1; echo "rc $? in $((SECONDS-s)) s" >> $R/test-multi_nccl.log
wait $conv
job() {
  local name=$1 threads=$2; shift 2; rm -f $work/job.id*; local s=$SECONDS
  if [ $((SECONDS + 100)) -gt 580 ]; then echo "$name: skipped at $SECONDS s" >> $R/jobs.txt; return; fi
  for r in $(seq 0 $((W-1))); do
    ( env ${threads:+RAYON_NUM_THREADS=$threads} timeout 150 python3 $work/rss.py $R/$name-rank$r.rss gpu-bin/warpath "$@" $work/kron-28.wgr --rank $r --world-size $W --nccl-id $work/job.id > $R/$name-rank$r.log 2>&1; echo "exit $?" >> $R/$name-rank$r.log ) &
  done
  wait; echo "$name: $((SECONDS-s)) s" >> $R/jobs.txt; tar czf $OUT/run.tgz -C $OUT run
}
job all-cores-1 64 bfs --json
job shared-1 "" bfs --json
job all-cores-2 64 bfs --json
job shared-2 "" bfs --json
(cd $R && cat convert.txt jobs.txt; grep -H . *.rss; for f in *-rank*.log; do echo "$f: $(grep -o '"load_ms":[0-9.]*\|"partition_ms":[0-9.]*\|"reached":[0-9]*\|"time_ms":[0-9.]*,"gteps' $f | head -4 | paste -sd' ') $(tail -1 $f)"; done)
tar czf $OUT/run.tgz -C $OUT run
