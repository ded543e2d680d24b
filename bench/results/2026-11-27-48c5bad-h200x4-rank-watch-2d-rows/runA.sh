#!/usr/bin/env bash
# Session 2026-11-27f call A: the first GPU run of 06a57c6 (a heartbeat reads its peers' files
# every beat), d8877f6 (a 2D --rank process reads only its processor column's lists), b79cd22
# (the last resort), aac9d4b (--gpus ranks meet before NCCL's join), 8c5c28f/48c5bad (review).
# multi_nccl, multi_bfs, multi_bfs_2d, multi_cc beside kron:26's conversion; then --rank jobs on
# kron:26: 2D bfs with --verify (rank 0 reads the whole file) and without (every rank its
# column's lists); 1D bfs whose last rank is killed a second into its load (WARPATH_PEER_SILENCE=5);
# and one whose last rank is stopped (SIGSTOP) as soon as its heartbeat file appears, before or
# inside NCCL's join, where only the last resort can end the others.
set -u
R=$OUT/run; mkdir -p $R
. scripts/gpu-common
eval "$(scripts/nccl-link | grep export)"
export NCCL_NVLS_ENABLE=0 WARPATH_REQUIRE_GPU=1
{ nvidia-smi -L; nproc; cat gpu-bin/COMMIT; free -g; } > $R/gpus.txt 2>&1
place_cli_for_tests
W=$(nvidia-smi -L | wc -l); last=$((W-1))
( s=$SECONDS; gpu-bin/warpath convert kron:26 $work/kron-26.wgr > /dev/null; echo "kron:26 ready in $((SECONDS-s)) s rc $?" ) > $R/convert.txt 2>&1 &
conv=$!
ok=1
for t in multi_nccl multi_bfs_2d multi_cc multi_bfs; do
  s=$SECONDS; timeout 200 gpu-bin/tests/$t --test-threads=1 > $R/test-$t.log 2>&1; rc=$?
  echo "rc $rc in $((SECONDS-s)) s" >> $R/test-$t.log; [ $rc = 0 ] || ok=0
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
job() {
  local name=$1; shift; rm -f $work/job.id*; local s=$SECONDS
  for r in $(seq 0 $last); do
    ( timeout 120 python3 $work/rss.py $R/$name-rank$r.rss gpu-bin/warpath "$@" $work/kron-26.wgr --rank $r --world-size $W --nccl-id $work/job.id > $R/$name-rank$r.log 2>&1; echo "exit $?" >> $R/$name-rank$r.log ) &
  done
  wait; echo "$name: $((SECONDS-s)) s" >> $R/jobs.txt; tar czf $OUT/run.tgz -C $OUT run
}
job kron26-2d-bfs-verify bfs --layout 2d --verify --json
job kron26-2d-bfs-rows bfs --layout 2d --json
signalled_job() {
  local name=$1 after=$2 signal=$3; shift 3; rm -f $work/job.id*; local s=$SECONDS; local pids=()
  for r in $(seq 0 $last); do
    ( WARPATH_PEER_SILENCE=5 timeout 60 gpu-bin/warpath "$@" $work/kron-26.wgr --rank $r --world-size $W --nccl-id $work/job.id > $R/$name-rank$r.log 2>&1; echo "exit $? after $((SECONDS-s)) s" >> $R/$name-rank$r.log ) &
    pids+=($!)
  done
  timeout 60 bash -c "until [ -f $work/job.id.rank$last ]; do sleep 0.02; done"; echo "$name: rank $last beating at $((SECONDS-s)) s" >> $R/jobs.txt
  sleep $after
  pkill -$signal -f -- "warpath .*--rank $last --world-size $W" && echo "$name: rank $last sent SIG$signal at $((SECONDS-s)) s" >> $R/jobs.txt
  for r in $(seq 0 $((last-1))); do timeout 60 bash -c "until grep -q '^exit' $R/$name-rank$r.log 2> /dev/null; do sleep 0.2; done"; done
  echo "$name: ranks 0-$((last-1)) ended at $((SECONDS-s)) s" >> $R/jobs.txt
  pkill -KILL -f -- "warpath .*--rank $last --world-size $W"
  wait "${pids[@]}"; echo "$name: $((SECONDS-s)) s" >> $R/jobs.txt; ls $work/job.id* >> $R/jobs.txt 2>&1; tar czf $OUT/run.tgz -C $OUT run
}
signalled_job kill-during-load-bfs 1 KILL bfs --json
signalled_job stop-at-join-bfs 0 STOP bfs --json
(cd $R && cat convert.txt jobs.txt; grep -H . *.rss; grep -h "test result\|^rc" test-*.log
 for f in kron26*-rank0.log; do echo "$f: $(grep -o '"load_ms":[0-9.]*\|"partition_ms":[0-9.]*\|"reached":[0-9]*\|"verified":[a-z]*\|"time_ms":[0-9.]*,"gteps\|"source":[0-9]*' $f | head -8 | paste -sd' ') $(tail -1 $f)"; done
 for f in kron26*-rank[1-9].log; do echo "$f: $(grep -o '"partition_ms":[0-9.]*' $f | head -1) $(tail -1 $f)"; done
 for f in kill-*.log stop-*.log; do echo "$f: $(tail -2 $f | tr '\n' ' ')"; done)
tar czf $OUT/run.tgz -C $OUT run
[ $ok = 1 ] || { echo tests failed; exit 1; }
