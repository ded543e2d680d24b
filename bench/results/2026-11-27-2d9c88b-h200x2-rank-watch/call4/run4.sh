#!/usr/bin/env bash
# Session 2026-11-27e call 4: 2d9c88b (NCCL's abort on a thread of its own, waited for 5 s),
# after call 3's stopped rank (SIGSTOP) left the other waiting. multi_nccl beside kron:26's
# conversion; --rank jobs on kron:26 whose last rank is killed (SIGKILL) or stopped (SIGSTOP) a
# second into its load, with WARPATH_PEER_SILENCE=5: the others must stop with exit 2 within
# seconds.
set -u
R=$OUT/run; mkdir -p $R
. scripts/gpu-common
eval "$(scripts/nccl-link | grep export)"
export NCCL_NVLS_ENABLE=0 WARPATH_REQUIRE_GPU=1
{ nvidia-smi -L; nproc; cat gpu-bin/COMMIT; } > $R/gpus.txt 2>&1
place_cli_for_tests
W=$(nvidia-smi -L | wc -l); last=$((W-1))
( s=$SECONDS; gpu-bin/warpath convert kron:26 $work/kron-26.wgr > /dev/null; echo "kron:26 ready in $((SECONDS-s)) s"
 ) > $R/convert.txt 2>&1 &
conv=$!
ok=1
for t in multi_nccl; do
  s=$SECONDS; timeout 200 gpu-bin/tests/$t --test-threads=1 > $R/test-$t.log 2>&1; rc=$?
  echo "rc $rc in $((SECONDS-s)) s" >> $R/test-$t.log; [ $rc = 0 ] || ok=0
  tar czf $OUT/run.tgz -C $OUT run
done
timeout 120 bash -c "until grep -q 'kron:26 ready' $R/convert.txt; do sleep 0.5; done"
killed_job() {
  local name=$1 after=$2 signal=$3; shift 3; rm -f $work/job.id; local s=$SECONDS; local pids=()
  for r in $(seq 0 $last); do
    ( WARPATH_PEER_SILENCE=5 timeout 60 gpu-bin/warpath "$@" $work/kron-26.wgr --rank $r --world-size $W --nccl-id $work/job.id > $R/$name-rank$r.log 2>&1; echo "exit $? after $((SECONDS-s)) s" >> $R/$name-rank$r.log ) &
    pids+=($!)
  done
  # After it joined NCCL and the files (its own appears), $after s into its load.
  timeout 60 bash -c "until [ -f $work/job.id.rank$last ]; do sleep 0.1; done"; echo "$name: rank $last beating at $((SECONDS-s)) s" >> $R/jobs.txt
  sleep $after
  pkill -$signal -f -- "warpath .*--rank $last --world-size $W" && echo "$name: rank $last sent SIG$signal at $((SECONDS-s)) s" >> $R/jobs.txt
  for r in $(seq 0 $((last-1))); do timeout 60 bash -c "until grep -q '^exit' $R/$name-rank$r.log 2> /dev/null; do sleep 0.2; done"; done
  echo "$name: ranks 0-$((last-1)) ended at $((SECONDS-s)) s" >> $R/jobs.txt
  pkill -KILL -f -- "warpath .*--rank $last --world-size $W"
  wait "${pids[@]}"; echo "$name: $((SECONDS-s)) s" >> $R/jobs.txt; ls $work/job.id* >> $R/jobs.txt 2>&1; tar czf $OUT/run.tgz -C $OUT run
}
killed_job kill-during-load 1 KILL bfs --json
killed_job stop-during-load 1 STOP cc --json
killed_job stop-during-load-bfs 1 STOP bfs --json
wait $conv
(cd $R && cat convert.txt jobs.txt; grep -h "test result\|^rc" test-*.log; for f in kill-*.log stop-*.log; do echo "$f: $(tail -2 $f | tr '\n' ' ')"; done; grep -H "^time:\|^ \+[124] \|^rc" bench-*.log)
tar czf $OUT/run.tgz -C $OUT run
[ $ok = 1 ] || { echo tests failed; exit 1; }
