// Launch-cost probe (issue 52, bench/NOTES.md 141): what an empty kernel costs by CUDA events
// around one launch, as warpath's `time_on_device` times CC, for the grid shapes CC uses:
// ordinary and cooperative launches, 528 x 256 (CC's resident grid on an H200) against
// 132 x 1024 and 132 x 256, with 0 or 24 KB of shared memory, and with 0, 3 or 4 grid barriers
// (an atomic counter, as warpath's GridBarrier). Median of 200 launches after 20 warm-ups.
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

__device__ unsigned int arrivals;

__device__ __forceinline__ void grid_sync(unsigned int &generation) {
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned int blocks = gridDim.x;
    generation += 1;
    __threadfence();
    atomicAdd(&arrivals, 1);
    unsigned int target = generation * blocks;
    while (*(volatile unsigned int *)&arrivals < target) {}
    __threadfence();
  }
  __syncthreads();
}

__global__ void empty_kernel(int barriers, unsigned int *sink) {
  extern __shared__ unsigned int shared[];
  unsigned int generation = 0;
  for (int b = 0; b < barriers; b++) grid_sync(generation);
  if (sink && threadIdx.x == 0 && blockIdx.x == 0) *sink = generation + (shared ? 0 : 1);
}

static float time_once(bool cooperative, int blocks, int threads, int shared, int barriers, unsigned int *sink) {
  cudaEvent_t a, b;
  cudaEventCreate(&a); cudaEventCreate(&b);
  unsigned int zero = 0;
  cudaMemcpyToSymbol(arrivals, &zero, 4);
  cudaEventRecord(a);
  if (cooperative) {
    void *args[] = {&barriers, &sink};
    cudaLaunchCooperativeKernel((void *)empty_kernel, blocks, threads, args, shared, 0);
  } else {
    empty_kernel<<<blocks, threads, shared>>>(barriers, sink);
  }
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  cudaEventDestroy(a); cudaEventDestroy(b);
  return ms;
}

int main() {
  unsigned int *sink;
  cudaMalloc(&sink, 4);
  cudaFuncSetAttribute(empty_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 48 * 1024);
  struct Shape { const char *name; bool coop; int blocks, threads, shared, barriers; };
  std::vector<Shape> shapes = {
    {"ordinary 528x256", false, 528, 256, 0, 0},
    {"cooperative 528x256", true, 528, 256, 0, 0},
    {"cooperative 528x256 24KB", true, 528, 256, 24 * 1024, 0},
    {"cooperative 528x256 3 barriers", true, 528, 256, 24 * 1024, 3},
    {"cooperative 528x256 4 barriers", true, 528, 256, 24 * 1024, 4},
    {"cooperative 132x1024 3 barriers", true, 132, 1024, 24 * 1024, 3},
    {"cooperative 132x256 3 barriers", true, 132, 256, 24 * 1024, 3},
    {"cooperative 528x256 16 barriers", true, 528, 256, 24 * 1024, 16},
    {"ordinary 1x32", false, 1, 32, 0, 0},
  };
  for (auto &s : shapes) {
    std::vector<float> t;
    for (int i = 0; i < 220; i++) {
      float ms = time_once(s.coop, s.blocks, s.threads, s.shared, s.barriers, sink);
      if (i >= 20) t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    cudaError_t e = cudaGetLastError();
    printf("%-36s median %.4f ms  min %.4f  p90 %.4f  %s\n", s.name, t[t.size() / 2], t[0], t[t.size() * 9 / 10],
           e == cudaSuccess ? "ok" : cudaGetErrorString(e));
  }
  return 0;
}
