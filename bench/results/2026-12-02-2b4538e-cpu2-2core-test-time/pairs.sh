#!/usr/bin/env bash
# pairs.sh OUT LABEL:CLONE LABEL:CLONE ...: each run in turn, the file cache warmed first
# (prefetch.sh, not timed), then scripts/test in the clone (run-one.sh, timed by /usr/bin/time,
# pinned to cores 0 and 1). One line per run appended to OUT: label wall user sys rc.
out=$1; shift
for spec in "$@"; do
  label=${spec%%:*}; clone=${spec#*:}
  /tmp/tt/prefetch.sh
  t0=$(date +%s)
  /usr/bin/time -o /tmp/tt/time.$$ -f "%e %U %S" taskset -c 0,1 /tmp/tt/run-one.sh "$clone" "/tmp/tt/$label.log"
  rc=$?
  echo "$label $(cat /tmp/tt/time.$$) rc=$rc start=$t0" >> "$out"
done
