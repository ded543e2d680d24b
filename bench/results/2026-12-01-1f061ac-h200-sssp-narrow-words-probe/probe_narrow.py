#!/usr/bin/env python3
"""Whether 4-byte distance words would pay: the relaxation's accesses alone (entry 121's probe),
with the target's distance word 8 bytes (as warpath keeps it) or 4, over 2^22 and 2^24 vertices,
targets drawn uniformly or with a Kronecker graph's skew (each of the id's bits set with
probability 0.24, B + D of the GAP suite's generator, the ids then relabelled by a random
permutation, as the generators do). A grid-stride loop over 2^27 edge slots streams a target id
and a weight, reads the target's word at its random place and, in the lowering modes, lowers it
by atomicMin (answer used) where the candidate is smaller (about half of them). Rate: edge slots
a second, median of 5 timed by CUDA events after a warm-up. A measurement probe in CUDA C through
CuPy, not part of warpath."""
import cupy as cp
import numpy as np

SOURCE = r'''
template <typename W>
__device__ void body(const unsigned* __restrict__ targets, const unsigned* __restrict__ weights,
                     W* distances, unsigned long long ops, int mode, unsigned long long base,
                     unsigned long long* sink) {
  unsigned long long acc = 0;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < ops;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    unsigned v = targets[i];
    W candidate = (W)(base + weights[i]);
    if (mode == 0) {
      acc += distances[v] < candidate;
    } else {
      W d = distances[v];
      if (candidate < d) acc += atomicMin(&distances[v], candidate) > candidate;
    }
  }
  if (acc == 0x5555555555555555ull) *sink = acc;
}
extern "C" __global__ void relax64(const unsigned* t, const unsigned* w, unsigned long long* d,
    unsigned long long ops, int mode, unsigned long long base, unsigned long long* sink) {
  body<unsigned long long>(t, w, d, ops, mode, base, sink);
}
extern "C" __global__ void relax32(const unsigned* t, const unsigned* w, unsigned* d,
    unsigned long long ops, int mode, unsigned long long base, unsigned long long* sink) {
  body<unsigned>(t, w, d, ops, mode, base, sink);
}
'''
module = cp.RawModule(code=SOURCE, options=("-arch=sm_90", "-std=c++17"))
kernels = {8: module.get_function("relax64"), 4: module.get_function("relax32")}
device = cp.cuda.Device()
sms = device.attributes["MultiProcessorCount"]
print(f"GPU: {cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}, {sms} SMs, "
      f"L2 {device.attributes['L2CacheSize'] / 2**20:.0f} MiB")


def timed(fn, repeats=5, prepare=lambda: None):
    prepare(); fn()
    times = []
    for _ in range(repeats):
        prepare()
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record(); fn(); stop.record(); stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    return float(np.median(times))


ops = 1 << 27
rng = cp.random.default_rng(1)
weights = rng.integers(1, 256, ops, dtype=cp.uint32)
sink = cp.zeros(1, dtype=cp.uint64)
for log_n in (22, 24):
    n = 1 << log_n
    uniform = rng.integers(0, n, ops, dtype=cp.uint32)
    raw = cp.zeros(ops, dtype=cp.uint32)
    for bit in range(log_n):
        raw |= (rng.random(ops, dtype=cp.float32) < 0.24).astype(cp.uint32) << bit
    skewed = cp.random.RandomState(7).permutation(n).astype(cp.uint32)[raw]
    del raw
    for label, targets in (("uniform", uniform), ("kron-skew", skewed)):
        for mode, name in ((0, "read"), (1, "read + atomicMin, half lower")):
            for width in (8, 4):
                dtype = cp.uint64 if width == 8 else cp.uint32
                initial = rng.integers(0, 1000, n, dtype=cp.uint64).astype(dtype)
                distances = initial.copy()
                base = 500 - 128 if mode == 1 else 100000
                for blocks_per_sm in (3, 8):
                    grid = sms * blocks_per_sm
                    ms = timed(lambda: kernels[width]((grid,), (256,), (targets, weights, distances, cp.uint64(ops),
                                                                         cp.int32(mode), cp.uint64(base), sink)),
                               prepare=lambda: cp.copyto(distances, initial))
                    print(f"n=2^{log_n} {label:9s} {name:30s} {width}-byte words, {blocks_per_sm}x256/SM: "
                          f"{ops / ms / 1e6:6.1f} G slots/s ({ms:.3f} ms)", flush=True)
