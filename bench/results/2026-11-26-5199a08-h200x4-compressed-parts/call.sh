# Device tool, kind nvidia-h100-x4 (ran on 4x H200), gpu-bin (5199a08) carried. Call 1: the GPU
# tests, then the compressed kron:28 bench (the kron:26 benches of this call were skipped by
# the script's deadline):
R=$OUT; OUT=$R/c TOPIC=compressed-kron26 GRAPHS=kron:26 ROOTS=8 FLAGS=--compressed DEADLINE=250 bash scripts/gpu-multi
OUT=$R/k TOPIC=compressed-kron28 TESTS=0 GRAPHS=kron:28 ROOTS=8 FLAGS=--compressed DEADLINE=$((575 - SECONDS)) bash scripts/gpu-multi
# Call 2, same machine: kron:26 compressed, then plain
OUT=$R/c TOPIC=compressed-kron26 TESTS=0 GRAPHS=kron:26 ROOTS=8 FLAGS=--compressed DEADLINE=280 bash scripts/gpu-multi
OUT=$R/p TOPIC=plain-kron26 TESTS=0 GRAPHS=kron:26 ROOTS=8 DEADLINE=$((560 - SECONDS)) bash scripts/gpu-multi
# Call 3, same machine: one GPU, the persistent kernel over compressed lists
gpu-bin/warpath bench /tmp/warpath-graphs/kron-28.wgr --compressed --roots 8 --json $OUT/single-compressed-kron28.json
