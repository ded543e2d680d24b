#!/usr/bin/env bash
# Where kron:22's SSSP time goes: ncu over one run, and timing variants.
set -u
W=.carry/warpath
O=$OUT/prof; mkdir -p $O
work=/tmp/g; mkdir -p $work
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; which ncu; ncu --version; } > $O/machine.txt 2>&1
for spec in kron:22 urand:22; do
  f=$work/${spec//:/-}.wgr
  $W convert $spec $f --weights uniform:1:255 > /dev/null
done
echo "converted $SECONDS s"
gunzip -c .carry/datasets/USA-road-d.NY.gr.gz > $work/ny.gr
# variants: Δ, distances only, near-far, edge-based
for g in kron-22 urand-22; do
  for d in 16 32 64 134 255 512 100000; do
    timeout 60 $W bench $work/$g.wgr --algorithm sssp --roots 8 --backend gpu --delta $d --distances-only > $O/$g-d$d.txt 2>&1
    echo "$g delta $d: $(grep -E '^time' $O/$g-d$d.txt | head -1)"
  done
  timeout 60 $W bench $work/$g.wgr --algorithm sssp --roots 8 --backend gpu > $O/$g-default.txt 2>&1
  echo "$g default (parents): $(grep -E '^time' $O/$g-default.txt | head -1)"
  # (a near-far row here failed: bench spells it --gpu-kernel, not --strategy)
  timeout 60 $W bench $work/$g.wgr --algorithm bfs --roots 8 --backend gpu > $O/$g-bfs.txt 2>&1
  echo "$g bfs: $(grep -E '^time' $O/$g-bfs.txt | head -1)"
done
echo "variants $SECONDS s"
timeout 200 ncu --clock-control none --set full --import-source no -k regex:delta_stepping -c 1 -o $O/kron22 \
  $W sssp $work/kron-22.wgr --backend gpu --distances-only -r 2376331 > $O/ncu-log.txt 2>&1
echo "ncu rc=$? $SECONDS s"
ncu -i $O/kron22.ncu-rep --page details > $O/details.txt 2>&1
ncu -i $O/kron22.ncu-rep --page source --csv --print-source sass > $O/sass.csv 2>&1
echo "printed $SECONDS s"
cd $OUT && tar czf prof.tgz prof && rm -rf prof
