#!/usr/bin/env bash
# Session 2026-11-27e call 1: the first GPU run of 8857764 (hubs' pieces read from their lists),
# 8812841 (the balance folded into the read) and 054b81d (directed graphs by rows).
# multi_nccl and multi_bfs beside the conversions (kron:28 undirected; kron:23 written once
# as an edge list and read back directed), then four-rank --rank jobs: kron:28 bfs with every
# rank reading its own lists (the cut by rows timed), kron:28 bfs --verify (rank 0 reads the
# whole file and checks), the directed graph likewise (ranks 1-3 read their in-lists by rows).
set -u
R=$OUT/run; mkdir -p $R
. scripts/gpu-common
eval "$(scripts/nccl-link | grep export)"
export NCCL_NVLS_ENABLE=0 WARPATH_REQUIRE_GPU=1
{ nvidia-smi -L; nproc; cat gpu-bin/COMMIT; free -g; } > $R/gpus.txt 2>&1
place_cli_for_tests
( s=$SECONDS; [ -f $work/kron-28.wgr ] || gpu-bin/warpath convert kron:28 $work/kron-28.wgr > /dev/null; echo "kron:28 ready in $((SECONDS-s)) s"
  s=$SECONDS; gpu-bin/warpath convert kron:23 $work/kron-23.el > /dev/null && gpu-bin/warpath convert $work/kron-23.el $work/kron-23-directed.wgr > /dev/null; echo "kron:23 directed ready in $((SECONDS-s)) s rc $?"; rm -f $work/kron-23.el ) > $R/convert.txt 2>&1 &
conv=$!
ok=1
for t in multi_nccl multi_bfs; do
  s=$SECONDS; timeout 220 gpu-bin/tests/$t --test-threads=1 > $R/test-$t.log 2>&1; rc=$?
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
  local name=$1 file=$2; shift 2; rm -f $work/job.id; local s=$SECONDS
  for r in 0 1 2 3; do
    ( timeout 120 python3 $work/rss.py $R/$name-rank$r.rss gpu-bin/warpath "$@" $file --rank $r --world-size 4 --nccl-id $work/job.id > $R/$name-rank$r.log 2>&1; echo "exit $?" >> $R/$name-rank$r.log ) &
  done
  wait; echo "$name: $((SECONDS-s)) s" >> $R/jobs.txt; tar czf $OUT/run.tgz -C $OUT run
}
job kron28-bfs-all-rows $work/kron-28.wgr bfs --json
job kron28-bfs-verify $work/kron-28.wgr bfs --verify --json
job kron23-directed-bfs-verify $work/kron-23-directed.wgr bfs --verify --json
job kron23-directed-cc-verify $work/kron-23-directed.wgr cc --verify --json
(cd $R && cat convert.txt jobs.txt; grep -H . *.rss; grep -h "test result\|^rc" test-*.log; for f in *-rank0.log; do echo "$f: $(grep -o '"load_ms":[0-9.]*\|"partition_ms":[0-9.]*\|"reached":[0-9]*\|"components":[0-9]*\|"verified":[a-z]*\|"gteps":[0-9.]*\|"time_ms":[0-9.]*,"gteps\|"source":[0-9]*' $f | paste -sd' ') $(tail -1 $f)"; done; for f in *-rank[123].log; do echo "$f: $(grep -o '"partition_ms":[0-9.]*' $f) $(tail -1 $f)"; done)
tar czf $OUT/run.tgz -C $OUT run
[ $ok = 1 ] || { echo tests failed; exit 1; }
