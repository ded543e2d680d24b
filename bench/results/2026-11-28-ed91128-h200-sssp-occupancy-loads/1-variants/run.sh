#!/usr/bin/env bash
# A/B of kernel modules (WARPATH_KERNELS) on the SSSP headline graphs.
set -u
W=.carry/warpath
O=$OUT/ab; mkdir -p $O
work=/tmp/g; mkdir -p $work
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $O/machine.txt 2>&1
for spec in kron:22 urand:22 grid2d:5000; do
  f=$work/${spec//:/-}.wgr
  [ -f $f ] || $W convert $spec $f --weights uniform:1:255 > /dev/null
done
gunzip -c .carry/datasets/USA-road-d.NY.gr.gz > $work/ny.gr
echo "converted $SECONDS s"
run() { # VARIANT GRAPHFILE LABEL ROOTS
  local v=$1 f=$2 g=$3 r=$4 mod=
  [ $v != base ] && mod=.carry/var/$v.cubin
  WARPATH_KERNELS=$mod timeout 100 $W bench $f --algorithm sssp --roots $r --backend gpu ${EXTRA:-} > $O/$g-$v${TAG:-}.txt 2>&1
  echo "$g $v${TAG:-}: $(grep -E '^time' $O/$g-$v${TAG:-}.txt | head -1)"
}
for round in 1 2; do
for v in base occ3 occ4 v1 v1occ3 v1occ4; do
  TAG=-$round run $v $work/kron-22.wgr kron-22 16
  TAG=-$round run $v $work/urand-22.wgr urand-22 16
  TAG=-$round run $v $work/ny.gr ny 16
done
done
for v in base v1 v1occ3; do run $v $work/grid2d-5000.wgr grid2d-5000 8; done
for v in base v1 v1occ3; do TAG=-do EXTRA=--distances-only run $v $work/kron-22.wgr kron-22 16; done
echo "bench $SECONDS s"
for v in v1 v1occ3 v1occ4; do
  for f in kron-22.wgr ny.gr urand-22.wgr; do
    WARPATH_KERNELS=.carry/var/$v.cubin timeout 100 $W sssp $work/$f --backend gpu --verify > $O/verify-$v-$f.txt 2>&1
    echo "verify $v $f rc=$? $(grep -iE 'verif' $O/verify-$v-$f.txt | head -1)"
  done
done
echo "done $SECONDS s"
cd $OUT && tar czf ab.tgz ab && rm -rf ab
