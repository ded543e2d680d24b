#!/usr/bin/env bash
# Session 2026-11-27e call 2 (written for 4 GPUs, run where 2 were lent: the last rank is the one stopped): ranks that watch each other (5673046), first run on GPUs.
# multi_nccl (two new tests: a --gpus rank that fails; --rank ranks told through their files)
# beside kron:26's conversion; then --rank jobs on kron:26 whose rank 2 is killed (kill -9)
# while the others wait for it: during the load (the others meet it at the placement's
# agreement), and a cc job whose rank 2 is stopped (SIGSTOP: a hung process, killed after); the others must stop with exit 2 within the
# silence (WARPATH_PEER_SILENCE=5). Then kron:26 bench --gpus all --roots 8, 2c3d6e9's binary
# against this one's, interleaved twice (the watched waits' cost).
set -u
R=$OUT/run; mkdir -p $R
. scripts/gpu-common
eval "$(scripts/nccl-link | grep export)"
export NCCL_NVLS_ENABLE=0 WARPATH_REQUIRE_GPU=1
{ nvidia-smi -L; nproc; cat gpu-bin/COMMIT; } > $R/gpus.txt 2>&1
place_cli_for_tests
W=$(nvidia-smi -L | wc -l); last=$((W-1))
( s=$SECONDS; gpu-bin/warpath convert kron:26 $work/kron-26.wgr > /dev/null; echo "kron:26 ready in $((SECONDS-s)) s" ) > $R/convert.txt 2>&1 &
conv=$!
ok=1
s=$SECONDS; timeout 240 gpu-bin/tests/multi_nccl --test-threads=1 > $R/test-multi_nccl.log 2>&1; rc=$?
echo "rc $rc in $((SECONDS-s)) s" >> $R/test-multi_nccl.log; [ $rc = 0 ] || ok=0
wait $conv
tar czf $OUT/run.tgz -C $OUT run
killed_job() {
  local name=$1 after=$2 signal=$3; shift 3; rm -f $work/job.id; local s=$SECONDS
  for r in $(seq 0 $last); do
    ( WARPATH_PEER_SILENCE=5 timeout 150 gpu-bin/warpath "$@" $work/kron-26.wgr --rank $r --world-size $W --nccl-id $work/job.id > $R/$name-rank$r.log 2>&1; echo "exit $? after $((SECONDS-s)) s" >> $R/$name-rank$r.log ) &
  done
  # After it joined NCCL and the files (its own appears), $after s into its load.
  timeout 60 bash -c "until [ -f $work/job.id.rank$last ]; do sleep 0.1; done"; echo "$name: rank $last beating at $((SECONDS-s)) s" >> $R/jobs.txt
  sleep $after
  pkill -$signal -f -- "warpath .*--rank $last --world-size $W" && echo "$name: rank $last sent SIG$signal at $((SECONDS-s)) s" >> $R/jobs.txt
  for r in $(seq 0 $((last-1))); do timeout 90 bash -c "until grep -q '^exit' $R/$name-rank$r.log 2> /dev/null; do sleep 0.2; done"; done
  echo "$name: ranks 0-$((last-1)) ended at $((SECONDS-s)) s" >> $R/jobs.txt
  pkill -KILL -f -- "warpath .*--rank $last --world-size $W"
  wait; echo "$name: $((SECONDS-s)) s" >> $R/jobs.txt; ls $work/job.id* >> $R/jobs.txt 2>&1; tar czf $OUT/run.tgz -C $OUT run
}
killed_job kill-during-load 1 KILL bfs --json
killed_job stop-during-load 1 STOP cc --json
bench() { local name=$1 bin=$2; local s=$SECONDS; timeout 150 $bin bench $work/kron-26.wgr --gpus all --roots 8 --json $R/bench-$name.json > $R/bench-$name.log 2>&1; echo "rc $? in $((SECONDS-s)) s" >> $R/bench-$name.log; tar czf $OUT/run.tgz -C $OUT run; }
bench old-1 gpu-bin/ab/warpath-2c3d6e9
bench new-1 gpu-bin/warpath
bench old-2 gpu-bin/ab/warpath-2c3d6e9
bench new-2 gpu-bin/warpath
(cd $R && cat convert.txt jobs.txt; grep -h "test result\|^rc" test-*.log; for f in kill-*.log; do echo "$f: $(tail -2 $f | tr '\n' ' ')"; done; grep -H "^time:\|^ \+[124] \|^rc" bench-*.log)
tar czf $OUT/run.tgz -C $OUT run
[ $ok = 1 ] || { echo tests failed; exit 1; }
