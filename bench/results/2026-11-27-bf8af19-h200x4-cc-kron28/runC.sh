#!/usr/bin/env bash
# Session 2026-11-27g call C: the partitioned components' scaling on kron:28 (bench --algorithm cc
# --gpus all: 1, 2, 4 GPUs, 4 runs each after one checked against the graph), bf8af19's binary.
set -u
R=$OUT/run; mkdir -p $R
. scripts/gpu-common
eval "$(scripts/nccl-link | grep export)"
export NCCL_NVLS_ENABLE=0 WARPATH_REQUIRE_GPU=1
ls gpu-bin/ab/*/*.xz > /dev/null 2>&1 && xz -d gpu-bin/ab/*/*.xz; chmod +x gpu-bin/ab/*/warpath*
W=$(ls -d gpu-bin/ab/* | head -1)/warpath
{ nvidia-smi -L; nproc; cat gpu-bin/ab/*/REVISION; free -g; } > $R/gpus.txt 2>&1
( t=$SECONDS; [ -f $work/kron-28.wgr ] || $W convert kron:28 $work/kron-28.wgr > /dev/null; echo "kron:28 ready in $((SECONDS-t)) s rc $?" ) >> $R/convert.txt 2>&1
s=$SECONDS; timeout $((570 - SECONDS)) $W bench $work/kron-28.wgr --algorithm cc --gpus all --roots 4 --json $R/cc-bench.json > $R/cc-bench.log 2>&1
echo "rc $? in $((SECONDS-s)) s" >> $R/cc-bench.log
(cd $R && cat convert.txt cc-bench.log)
tar czf $OUT/run.tgz -C $OUT run
