#!/usr/bin/env bash
# bench/NOTES.md entry 103: the road-round probe, one call per variant set (eight calls; the
# variant list in roundprobe.cu's main was edited between calls, see summary.md). The probe is
# our own CUDA, kept with the evidence and never built into warpath. Call 1 also ran warpath's
# own SSSP bench on the same file (the gpu-bin of that session).
set -u
O=${OUT:-gpu-out}; mkdir -p "$O"
gunzip -c .carry/datasets/USA-road-d.NY.gr.gz > /tmp/ny.gr
nvcc -O3 -std=c++17 -arch=sm_90 roundprobe.cu -o roundprobe -lz
timeout 300 ./roundprobe /tmp/ny.gr | tee "$O/roundprobe.txt"
# call 1 only:
gpu-bin/warpath bench USA-road-d.NY.gr.gz --algorithm sssp --backend gpu --roots 16 > "$O/warpath-ny.txt"
