#!/usr/bin/env python3
"""What one relaxation's memory accesses cost on this GPU when nothing else does: a grid-stride
loop over `ops` edge slots, each reading a target id and a weight (streamed, 8 bytes) and then
the target's 8-byte distance word at a random place, and, in the modes that write, lowering it by
`atomicMin` (with its answer awaited, as a relaxation that queues what it lowers does) or by a
reduction (no answer, as a deferred round does). Distances are 2^22 or 2^24 words (kron:22's and
kron:24's 32 and 128 MB). The rate is edge slots a second, the whole loop timed by CUDA events,
median of 5 after a warm-up; the copy bandwidth is a device-to-device copy of 1 GiB timed alike.
A measurement probe in CUDA C through CuPy, not part of warpath."""
import cupy as cp
import numpy as np

SOURCE = r'''
extern "C" __global__ void relax(const unsigned* __restrict__ targets, const unsigned* __restrict__ weights,
                                 unsigned long long* distances, unsigned long long ops, int mode,
                                 unsigned long long base, unsigned long long* sink) {
  unsigned long long acc = 0;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < ops;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    unsigned v = targets[i];
    unsigned long long candidate = base + weights[i];
    if (mode == 0) {            // stream only
      acc += v + candidate;
    } else if (mode == 1) {     // the distance read alone
      acc += distances[v] < candidate;
    } else if (mode == 2) {     // read, then atomicMin whose answer is used where it lowers
      unsigned long long d = distances[v];
      if (candidate < d) acc += atomicMin(&distances[v], candidate) > candidate;
    } else if (mode == 3) {     // read, then a reduction (no answer) where it lowers
      unsigned long long d = distances[v];
      if (candidate < d) atomicMin(&distances[v], candidate);  // result unused: RED
    } else {                    // atomicMin with its answer, no read first
      acc += atomicMin(&distances[v], candidate) > candidate;
    }
  }
  if (acc == 0x5555555555555555ull) *sink = acc;
}
'''
kernel = cp.RawKernel(SOURCE, "relax", options=("-arch=sm_90",))
device = cp.cuda.Device()
sms = device.attributes["MultiProcessorCount"]
print(f"GPU: {cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}, {sms} SMs")


def timed(fn, repeats=5, prepare=lambda: None):
    prepare(); fn()
    times = []
    for _ in range(repeats):
        prepare()
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record(); fn(); stop.record(); stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    return float(np.median(times))


src = cp.zeros(1 << 28, dtype=cp.float32); dst = cp.empty_like(src)
ms = timed(lambda: cp.copyto(dst, src))
print(f"device-to-device copy: {2 * src.nbytes / ms / 1e6:.0f} GB/s (read + write)")
del src, dst

ops = 1 << 27
rng = cp.random.default_rng(1)
weights = rng.integers(1, 256, ops, dtype=cp.uint32)
sink = cp.zeros(1, dtype=cp.uint64)
modes = ["stream ids and weights", "+ the target's distance read", "+ atomicMin where it lowers (answer used)",
         "+ a reduction where it lowers (no answer)", "atomicMin on every slot, no read"]
for log_n in (22, 24):
    n = 1 << log_n
    targets = rng.integers(0, n, ops, dtype=cp.uint32)
    for lowering in (0.0, 0.1, 0.5):
        for mode, name in enumerate(modes):
            if lowering > 0 and mode < 2:
                continue
            # Distances spread over 0..1000, restored before every run; candidates base + 1..255,
            # the base putting about `lowering` of them below their target's distance.
            initial = rng.integers(0, 1000, n, dtype=cp.uint64)
            distances = initial.copy()
            base = int(1000 * (1 - lowering)) - 128 if lowering > 0 else 100000
            for blocks_per_sm, threads in ((3, 256), (8, 256)):
                grid = sms * blocks_per_sm
                ms = timed(lambda: kernel((grid,), (threads,), (targets, weights, distances, cp.uint64(ops), cp.int32(mode),
                                                                   cp.uint64(base), sink)),
                           prepare=lambda: cp.copyto(distances, initial))
                print(f"n=2^{log_n} lowering~{lowering:.1f} {name:45s} grid {blocks_per_sm}x{threads}/SM: "
                      f"{ops / ms / 1e6:6.1f} G slots/s ({ms:.3f} ms)")
