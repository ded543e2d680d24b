#!/usr/bin/env bash
# Issue 52 item 4: what ce60794 changed in cc_persistent, one by one: vertices a thread takes at
# once (VERTEX_BATCH 1, 2, 4), blocks a multiprocessor (the register cap: 2 = 128, 3 = 80, 4 = 64
# registers) and the final link's tiles at once (TILE_BATCH 1, 2); each an sm_90 cubin of the
# kernel module loaded by WARPATH_KERNELS under one host, 16 trials, two interleaved passes, on
# the five headline graphs and two roads; ECL-CC and the GAP suite's Afforest in the same call.
set -u
cd "$(dirname "$0")/.."
rm -rf gpu-bin && tar -xJf .carry/gpubin.tar.xz && mkdir -p gpu-bin/datasets && cp .carry/datasets/*.gz gpu-bin/datasets/
. scripts/gpu-common
OUTDIR=${OUT:-gpu-out}; mkdir -p "$OUTDIR"
OUT=$work/runs run_folder ${TOPIC:-cc-batch-registers-sweep}
R="$out"
W=gpu-bin/warpath
{ cat gpu-bin/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nproc; } > "$R/machine.txt" 2>&1
(bash .peers/build.sh > "$R/peers-build.txt" 2>&1) &
$W convert gpu-bin/datasets/USA-road-d.NY.gr.gz "$work/ny-u.wgr" --undirected > /dev/null &
$W convert gpu-bin/datasets/luxembourg_osm.mtx.gz "$work/lux.wgr" > /dev/null &
$W convert gpu-bin/datasets/usroads-48.mtx.gz "$work/usroads.wgr" > /dev/null &
for spec in kron:22 urand:22 kron:24 grid2d:5000; do $W convert "$spec" "$work/${spec//:/-}.wgr" > /dev/null & done
wait
echo "converted at $SECONDS s: $(tail -1 "$R/peers-build.txt")"
graphs="ny-u lux usroads kron-22 urand-22 kron-24 grid2d-5000"
(for g in $graphs; do python3 .peers/eclcc/wgr2egr.py "$work/$g.wgr" "$work/$g.egr"; python3 .peers/gapbs/wgr2sg.py "$work/$g.wgr" "$work/$g.sg"; done >> "$R/peer-inputs.txt" 2>&1) &
tar -C .carry -xJf .carry/ccvar.tar.xz
variants="b4-s4-t2 b4-s3-t2 b4-s2-t2 b2-s4-t2 b2-s3-t2 b2-s2-t2 b1-s4-t2 b1-s3-t2 b1-s2-t2 b4-s4-t1"
for pass in 1 2; do
  for g in $graphs; do
    line="$g pass $pass:"
    for v in $variants; do
      WARPATH_KERNELS=.carry/ccvar/$v.cubin timeout 60 $W bench "$work/$g.wgr" --algorithm cc --trials 16 --backend gpu > "$R/$g-$v-$pass.txt" 2>&1
      t=$(grep -E '^time: ' "$R/$g-$v-$pass.txt" | sed 's/.*median //; s/ ms.*//; s/,.*//')
      line="$line $v=${t:-rc$?}"
    done
    echo "$line" | tee -a "$R/table.txt"
  done
done
echo "variants done at $SECONDS s"
grep -h 'kernels' "$R/ny-u-b4-s3-t2-1.txt" | head -2
wait
for g in $graphs; do
  timeout 60 .peers/eclcc/eclcc "$work/$g.egr" 17 > "$R/ecl-$g.txt" 2>&1
  echo "ecl-cc $g rc=$? $(grep -E 'event median|PASS|FAIL' "$R/ecl-$g.txt" | tr '\n' ' ')" | tee -a "$R/table.txt"
  OMP_NUM_THREADS=16 timeout 60 .peers/gapbs/cc -f "$work/$g.sg" -n 16 > "$R/gapbs-cc-$g.txt" 2>&1
  echo "gapbs cc $g rc=$? $(python3 .peers/trial_median.py < "$R/gapbs-cc-$g.txt")" | tee -a "$R/table.txt"
done
echo "done at $SECONDS s"
tar -czf "$OUTDIR/call-k.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
