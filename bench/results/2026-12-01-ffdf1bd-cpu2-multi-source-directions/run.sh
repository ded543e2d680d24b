#!/usr/bin/env bash
# The CPU's many-source searches on the 2-core development machine (bench/NOTES.md 126): "old" is
# ffdf1bd's binary, "new" a build of its successor's first form (the pull's stop tested at every
# list entry; the CPU's switching pushing small frontiers), two interleaved passes. The closeness
# timings of the final form (the stop tested every 16 entries) are in NOTES 126 only.
set -u
OLD=${OLD:?ffdf1bd build}; NEW=${NEW:?successor build}
for g in kron:16 urand:16; do f=/tmp/${g//:/-}.wgr; [ -f "$f" ] || "$NEW" convert "$g" "$f" > /dev/null; done
for pass in 1 2; do for b in old new; do W=$NEW; [ $b = old ] && W=$OLD
  for g in kron-16 urand-16; do "$W" bench /tmp/$g.wgr --algorithm bfs --roots 64 --batch --backend cpu > $g-$b-$pass.txt 2>/dev/null; done
  for g in /tmp/urand-16.wgr ../shared/datasets/USA-road-d.NY.gr.gz; do
    echo "$(basename $g) $b $pass: $("$W" bench $g --algorithm bfs --roots 64 --batch --backend cpu 2>/dev/null | grep '^batch' | sed 's/.*validated): //')"
  done >> ny-urand.txt
done; done
