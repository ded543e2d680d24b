// Probe for bench/NOTES.md entry 99: what one block's rounds cost on USA-road-d.NY when the
// round is nothing but the chain (a plain CUDA near-far SSSP in one block, frontier in shared
// memory). Not part of warpath; kept with the run's evidence, never built into it.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <zlib.h>
#include <cuda_runtime.h>

#define CAP 6144
__device__ __forceinline__ uint64_t now() { uint64_t t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }

struct Out { unsigned long long ns, rounds, splits, relax, overflow, maxw; };

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) oneblock(const uint64_t *off, const uint32_t *tgt, const uint32_t *wt,
    unsigned long long *dist, uint32_t *farmark, uint32_t *far0, uint32_t *far1, int n, uint32_t src,
    unsigned long long delta, Out *out) {
  extern __shared__ uint32_t sm[];
  uint32_t *q[2] = {sm, sm + CAP};
  __shared__ unsigned qlen[2], farlen[2];
  __shared__ unsigned long long farmin[2];
  __shared__ unsigned overflow, maxw;
  uint32_t *far[2] = {far0, far1};
  uint64_t t0 = now();
  unsigned long long relax = 0;
  if (threadIdx.x == 0) { q[0][0] = src; qlen[0] = 1; qlen[1] = 0; farlen[0] = farlen[1] = 0; farmin[0] = farmin[1] = ~0ull; overflow = 0; maxw = 1; dist[src] = 0; }
  __syncthreads();
  unsigned long long bucket = 0; int p = 0, fp = 0; unsigned rounds = 0, splits = 0;
  while (true) {
    unsigned len = qlen[p];
    if (len == 0) {
      // split: the far pile's nearest bucket becomes the frontier
      unsigned long long b = farmin[fp]; unsigned flen = farlen[fp];
      __syncthreads();
      if (b == ~0ull) break;
      if (threadIdx.x == 0) { farlen[fp ^ 1] = 0; farmin[fp ^ 1] = ~0ull; qlen[p] = 0; }
      __syncthreads();
      for (unsigned i = threadIdx.x; i < flen; i += BLOCK) {
        uint32_t v = far[fp][i]; unsigned long long d = dist[v]; unsigned long long vb = d / delta;
        farmark[v] = 0;
        if (vb == b) { unsigned s = atomicAdd(&qlen[p], 1); if (s < CAP) q[p][s] = v; else atomicAdd(&overflow, 1); }
        else if (vb > b) { unsigned s = atomicAdd(&farlen[fp ^ 1], 1); far[fp ^ 1][s] = v; farmark[v] = 1; atomicMin(&farmin[fp ^ 1], vb); }
      }
      __syncthreads();
      bucket = b; fp ^= 1; splits++;
      continue;
    }
    if (threadIdx.x == 0) qlen[p ^ 1] = 0;
    __syncthreads();
    for (unsigned i = threadIdx.x; i < min(len, (unsigned)CAP); i += BLOCK) {
      uint32_t u = q[p][i];
      unsigned long long du = dist[u];
      uint64_t s = off[u], e = off[u + 1];
      for (uint64_t k = s; k < e; ++k) {
        uint32_t v = tgt[k]; unsigned long long c = du + wt[k]; relax++;
        unsigned long long old = atomicMin(&dist[v], c);
        if (c < old) {
          unsigned long long vb = c / delta;
          if (vb == bucket) { unsigned sl = atomicAdd(&qlen[p ^ 1], 1); if (sl < CAP) q[p ^ 1][sl] = v; else atomicAdd(&overflow, 1); }
          else if (atomicExch(&farmark[v], 1) == 0) { unsigned sl = atomicAdd(&farlen[fp], 1); far[fp][sl] = v; atomicMin(&farmin[fp], vb); }
          else atomicMin(&farmin[fp], vb);
        }
      }
    }
    __syncthreads();
    if (threadIdx.x == 0) atomicMax(&maxw, len);
    p ^= 1; rounds++;
  }
  __syncthreads();
  atomicAdd(&out->relax, relax);
  if (threadIdx.x == 0) { out->ns = now() - t0; out->rounds = rounds; out->splits = splits; out->overflow = overflow; out->maxw = maxw; }
}

int main(int argc, char **argv) {
  gzFile f = gzopen(argv[1], "r"); char line[256]; int n = 0; std::vector<std::pair<uint32_t, std::pair<uint32_t, uint32_t>>> arcs;
  while (gzgets(f, line, sizeof line)) {
    if (line[0] == 'p') { long m; sscanf(line, "p sp %d %ld", &n, &m); arcs.reserve(m); }
    else if (line[0] == 'a') { unsigned u, v, w; sscanf(line, "a %u %u %u", &u, &v, &w); arcs.push_back({u - 1, {v - 1, w}}); }
  }
  std::sort(arcs.begin(), arcs.end());
  std::vector<uint64_t> off(n + 1, 0); std::vector<uint32_t> tgt(arcs.size()), wt(arcs.size());
  for (size_t i = 0; i < arcs.size(); ++i) { off[arcs[i].first + 1]++; tgt[i] = arcs[i].second.first; wt[i] = arcs[i].second.second; }
  for (int i = 0; i < n; ++i) off[i + 1] += off[i];
  uint64_t *doff; uint32_t *dtgt, *dwt, *mark, *f0, *f1; unsigned long long *dist; Out *out;
  cudaMalloc(&doff, 8 * (n + 1)); cudaMalloc(&dtgt, 4 * arcs.size()); cudaMalloc(&dwt, 4 * arcs.size());
  cudaMalloc(&dist, 8 * n); cudaMalloc(&mark, 4 * n); cudaMalloc(&f0, 4 * n); cudaMalloc(&f1, 4 * n); cudaMalloc(&out, sizeof(Out));
  cudaMemcpy(doff, off.data(), 8 * (n + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(dtgt, tgt.data(), 4 * arcs.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(dwt, wt.data(), 4 * arcs.size(), cudaMemcpyHostToDevice);
  cudaFuncSetAttribute(oneblock<256>, cudaFuncAttributeMaxDynamicSharedMemorySize, 2 * CAP * 4);
  cudaFuncSetAttribute(oneblock<1024>, cudaFuncAttributeMaxDynamicSharedMemorySize, 2 * CAP * 4);
  uint32_t srcs[] = {149769 - 1, 197145 - 1, 256681 - 1, 117465 - 1};
  for (unsigned long long delta : {29968ull, 50000ull}) for (int block : {256, 1024}) for (uint32_t src : srcs) {
    cudaMemset(dist, 0xff, 8 * n); cudaMemset(mark, 0, 4 * n); cudaMemset(out, 0, sizeof(Out));
    if (block == 256) oneblock<256><<<1, 256, 2 * CAP * 4>>>(doff, dtgt, dwt, dist, mark, f0, f1, n, src, delta, out);
    else oneblock<1024><<<1, 1024, 2 * CAP * 4>>>(doff, dtgt, dwt, dist, mark, f0, f1, n, src, delta, out);
    cudaError_t e = cudaDeviceSynchronize(); Out h; cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
    std::vector<unsigned long long> d(n); cudaMemcpy(d.data(), dist, 8 * n, cudaMemcpyDeviceToHost);
    unsigned long long mx = 0; int reached = 0; for (auto x : d) if (x != ~0ull) { reached++; mx = std::max(mx, x); }
    printf("delta %llu block %4d src %u: %.3f ms, %llu rounds (%.2f us each), %llu splits, %.2f relax/edge, max width %llu, overflow %llu, reached %d, max dist %llu %s\n",
           delta, block, src + 1, h.ns / 1e6, h.rounds, h.ns / 1e3 / std::max(1ull, h.rounds), h.splits, (double)h.relax / arcs.size(), h.maxw, h.overflow, reached, mx,
           e ? cudaGetErrorString(e) : "");
  }
  return 0;
}
