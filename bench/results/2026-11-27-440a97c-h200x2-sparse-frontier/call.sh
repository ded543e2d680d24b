# One device call (nvidia-h200-x2), gpu-bin from
# CARGO_TARGET_DIR=/work/target-nccl GPU_BUILD_FEATURES=nccl GPU_BUILD_TESTS="multi_bfs multi_bfs_2d multi_nccl" scripts/gpu-build
R=$OUT; export TEST_LIST="multi_bfs multi_nccl multi_bfs_2d"
OUT=/tmp/o1 GRAPHS=kron:28 ROOTS=8 TOPIC=sparse-frontier DEADLINE=380 bash scripts/gpu-multi > /tmp/o1.log 2>&1
OUT=/tmp/o2 TESTS=0 GRAPHS=kron:28 ROOTS=8 FLAGS="--sparse-frontier-share 0" TOPIC=bitmap-frontier DEADLINE=$((585-SECONDS)) bash scripts/gpu-multi > /tmp/o2.log 2>&1
tar czf $R/all.tgz -C /tmp o1 o2
