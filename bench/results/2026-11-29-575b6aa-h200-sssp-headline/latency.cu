// Latency probe for bench/NOTES.md entry 99: dependent global accesses from one block, as a
// fused SSSP round on block 0 makes them. Not part of warpath; kept with the run's evidence.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <random>
#include <algorithm>
#include <cuda_runtime.h>

__device__ __forceinline__ uint64_t now() { uint64_t t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }

// mode 0: plain load, 1: volatile load, 2: atomicOr (returns old), 3: 64-bit atomicMin chain
__global__ void chase(uint32_t *next, unsigned long long *next64, int steps, int mode, int threads,
                      volatile int *done, unsigned long long *out) {
  if (blockIdx.x != 0) {
    if (threadIdx.x == 0) { while (*done == 0) __nanosleep(20); }
    return;
  }
  if (threadIdx.x >= threads) return;
  uint32_t p = (threadIdx.x * 7919u) % (1u << 20);
  uint64_t t0 = now();
  for (int i = 0; i < steps; ++i) {
    if (mode == 0) p = next[p];
    else if (mode == 1) p = ((volatile uint32_t *)next)[p];
    else if (mode == 2) p = atomicOr(&next[p], 0u);
    else p = (uint32_t)atomicMin(&next64[p], ~0ull);
  }
  uint64_t t1 = now();
  __syncthreads();
  if (threadIdx.x == 0) { out[0] = t1 - t0; out[1] = p; *done = 1; __threadfence_system(); }
}

__global__ void touch(uint32_t *a, size_t n, unsigned long long *sink) {
  uint32_t s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) s += a[i];
  if (s == 12345) *sink = s;
}

int main() {
  const size_t N = 1u << 22;  // 4M entries: 16 MB (u32), 32 MB (u64): NY's arrays are ~13 MB
  std::vector<uint32_t> perm(N);
  for (size_t i = 0; i < N; ++i) perm[i] = i;
  std::mt19937 rng(1);
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<uint32_t> next(N);
  for (size_t i = 0; i < N; ++i) next[perm[i]] = perm[(i + 1) % N];
  std::vector<unsigned long long> next64(N);
  for (size_t i = 0; i < N; ++i) next64[i] = next[i];
  uint32_t *d; unsigned long long *d64, *out, *sink; int *done;
  cudaMalloc(&d, N * 4); cudaMalloc(&d64, N * 8); cudaMalloc(&out, 16); cudaMalloc(&sink, 8); cudaMalloc(&done, 4);
  cudaMemcpy(d, next.data(), N * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d64, next64.data(), N * 8, cudaMemcpyHostToDevice);
  size_t flushN = (size_t)1 << 28;  // 1 GiB to push the arrays out of L2
  uint32_t *flush; cudaMalloc(&flush, flushN * 4); cudaMemset(flush, 1, flushN * 4);
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const char *names[] = {"load", "volatile load", "atomicOr u32", "atomicMin u64"};
  const int steps = 2000;
  for (int spinners = 0; spinners < 2; ++spinners)
    for (int threads : {1, 32, 256})
      for (int mode = 0; mode < 4; ++mode)
        for (int cold = 1; cold >= 0; --cold) {
          if (cold) { touch<<<sms * 4, 256>>>(flush, flushN, sink); }
          else if (mode == 3) { touch<<<sms * 4, 256>>>((uint32_t *)d64, 2 * N, sink); } else { touch<<<sms * 4, 256>>>(d, N, sink); }
          cudaMemset(done, 0, 4);
          chase<<<spinners ? sms : 1, 256>>>(d, d64, steps, mode, threads, done, out);
          cudaError_t e = cudaDeviceSynchronize();
          unsigned long long h[2]; cudaMemcpy(h, out, 16, cudaMemcpyDeviceToHost);
          printf("%-14s threads %3d %s %s: %7.1f ns a step%s\n", names[mode], threads, cold ? "cold" : "warm",
                 spinners ? "with 131 blocks spinning" : "alone                  ", (double)h[0] / steps,
                 e ? cudaGetErrorString(e) : "");
        }
  return 0;
}
