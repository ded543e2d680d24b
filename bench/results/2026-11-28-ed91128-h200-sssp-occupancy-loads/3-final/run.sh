#!/usr/bin/env bash
# The working tree's build on the SSSP graphs: timing, traces, verification.
set -u
W=.carry/warpath
O=$OUT/final; mkdir -p $O
work=/tmp/g; mkdir -p $work
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $O/machine.txt 2>&1
for spec in kron:22 urand:22 grid2d:5000; do
  f=$work/${spec//:/-}.wgr
  [ -f $f ] || $W convert $spec $f --weights uniform:1:255 > /dev/null
done
[ -f $work/ny.gr ] || gunzip -c .carry/datasets/USA-road-d.NY.gr.gz > $work/ny.gr
echo "converted $SECONDS s"
for g in kron-22 urand-22 ny grid2d-5000; do
  f=$work/$g.wgr; r=16; [ $g = ny ] && f=$work/ny.gr; [ $g = grid2d-5000 ] && r=8
  timeout 100 $W bench $f --algorithm sssp --roots $r --backend gpu --trace --json $O/trace-$g.json > $O/$g.txt 2>&1
  echo "$g: $(grep -E '^time' $O/$g.txt | head -1)"
  timeout 100 $W bench $f --algorithm sssp --roots $r --backend gpu --distances-only > $O/$g-do.txt 2>&1
  echo "$g distances only: $(grep -E '^time' $O/$g-do.txt | head -1)"
done
for f in kron-22.wgr ny.gr urand-22.wgr grid2d-5000.wgr; do
  timeout 100 $W sssp $work/$f --backend gpu --verify > $O/verify-$f.txt 2>&1
  echo "verify $f rc=$? $(grep -iE 'verif' $O/verify-$f.txt | head -1)"
done
grep -A12 "^trace of" $O/kron-22.txt | head -14
grep -A8 "^trace of" $O/ny.txt | head -9
echo "done $SECONDS s"
cd $OUT && tar czf final.tgz final && rm -rf final
