# Call 1 (device tool, kind nvidia-h100-x4; ran on 4x H200), gpu-bin carried:
GRAPHS="kron:26 kron:27" ROOTS=8 DEADLINE=560 TOPIC=multi-scaling-small bash scripts/gpu-multi
# Call 2, right after, same machine:
GRAPHS="kron:28" ROOTS=8 TESTS=0 DEADLINE=570 TOPIC=multi-scaling-kron28 bash scripts/gpu-multi
