# One device call (nvidia-h100-x4, ran on 4x H200), gpu-bin from
# CARGO_TARGET_DIR=/work/target-nccl GPU_BUILD_FEATURES=nccl GPU_BUILD_TESTS="multi_bfs multi_bfs_2d multi_nccl multi_cc" scripts/gpu-build
R=$OUT; export TEST_LIST="multi_bfs_2d multi_nccl multi_cc multi_bfs"
OUT=/tmp/o1 GRAPHS=kron:26 ROOTS=8 FLAGS="--layout 2d" TOPIC=2d-gpu-ranks DEADLINE=380 bash scripts/gpu-multi > /tmp/o1.log 2>&1
OUT=/tmp/o2 TESTS=0 GRAPHS=kron:26 ROOTS=8 FLAGS="--top-down" TOPIC=1d-top-down DEADLINE=$((570-SECONDS)) bash scripts/gpu-multi > /tmp/o2.log 2>&1
tar czf $R/all.tgz -C /tmp o1 o2
