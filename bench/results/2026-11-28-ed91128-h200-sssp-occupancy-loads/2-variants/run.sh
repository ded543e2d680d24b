#!/usr/bin/env bash
# A/B after the grid rule and the one-pass parents: kernels (WARPATH_KERNELS) on the SSSP headline graphs.
set -u
W=.carry/warpath
O=$OUT/ab2; mkdir -p $O
work=/tmp/g; mkdir -p $work
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $O/machine.txt 2>&1
for spec in kron:22 urand:22 grid2d:5000; do
  f=$work/${spec//:/-}.wgr
  [ -f $f ] || $W convert $spec $f --weights uniform:1:255 > /dev/null
done
[ -f $work/ny.gr ] || gunzip -c .carry/datasets/USA-road-d.NY.gr.gz > $work/ny.gr
echo "converted $SECONDS s"
run() { # VARIANT GRAPHFILE LABEL ROOTS
  local v=$1 f=$2 g=$3 r=$4 mod=
  [ $v != main ] && mod=.carry/var/$v.cubin
  WARPATH_KERNELS=$mod timeout 100 $W bench $f --algorithm sssp --roots $r --backend gpu ${EXTRA:-} > $O/$g-$v${TAG:-}.txt 2>&1
  echo "$g $v${TAG:-}: $(grep -E '^time' $O/$g-$v${TAG:-}.txt | head -1)"
}
for round in 1 2; do
for v in head v2none v2occ3 main; do
  TAG=-$round run $v $work/kron-22.wgr kron-22 16
  TAG=-$round run $v $work/urand-22.wgr urand-22 16
  TAG=-$round run $v $work/ny.gr ny 16
done
done
for v in head v2none main; do run $v $work/grid2d-5000.wgr grid2d-5000 8; done
for g in kron-22 urand-22; do TAG=-do EXTRA=--distances-only run main $work/$g.wgr $g 16; done
TAG=-do EXTRA=--distances-only run main $work/ny.gr ny 16
for d in 16 32 64 256; do
  for g in kron-22 urand-22; do TAG=-d$d EXTRA="--delta $d" run main $work/$g.wgr $g 16; done
done
for d in 5000 20000 50000; do TAG=-d$d EXTRA="--delta $d" run main $work/ny.gr ny 16; done
TAG=-trace EXTRA="--trace --json $O/trace-kron-22.json" run main $work/kron-22.wgr kron-22 16
TAG=-trace EXTRA="--trace --json $O/trace-ny.json" run main $work/ny.gr ny 16
echo "bench $SECONDS s"
for f in kron-22.wgr ny.gr urand-22.wgr grid2d-5000.wgr; do
  timeout 100 $W sssp $work/$f --backend gpu --verify > $O/verify-$f.txt 2>&1
  echo "verify main $f rc=$? $(grep -iE 'verif' $O/verify-$f.txt | head -1)"
done
echo "done $SECONDS s"
cd $OUT && tar czf ab2.tgz ab2 && rm -rf ab2
