#!/usr/bin/env bash
set -u
cd "$(dirname "$0")/.."
O=${OUT:-gpu-out}; mkdir -p "$O"
gunzip -c .carry/datasets/USA-road-d.NY.gr.gz > /tmp/ny.gr
( cd .peers/probe && nvcc -O3 -arch=sm_90 oneblock.cu -o oneblock -lz ) > "$O/build.txt" 2>&1; echo "build rc=$?"; cat "$O/build.txt" | head
timeout 120 .peers/probe/oneblock /tmp/ny.gr 2>&1 | tee "$O/oneblock.txt"
