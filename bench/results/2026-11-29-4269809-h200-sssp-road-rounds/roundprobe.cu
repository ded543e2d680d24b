// Probe for bench/NOTES.md entry 103: what a road round costs when a round's vertices are
// spread over many more threads than block 0 has, without a grid step's machinery. Near-far
// SSSP on USA-road-d.NY, three ways:
//   team T: T blocks of 1024 threads, queues and counters in global memory, a software barrier
//           among the T blocks (portable, any GPU);
//   cluster C: one thread-block cluster of C blocks of 1024 threads (Hopper), each block's
//           queue in its shared memory, a vertex queued on block v % C through distributed
//           shared memory, barrier.cluster between rounds.
// Not part of warpath; kept with the run's evidence, never built into it.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
#include <queue>
#include <algorithm>
#include <zlib.h>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define TPB 1024
#define UNREACHED (~0ull)
__device__ __forceinline__ uint64_t now() { uint64_t t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__device__ __forceinline__ unsigned ld_acquire(const unsigned *p) { unsigned v; asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }

struct Out { unsigned long long ns, rounds, splits, relax, overflow, maxw; };

struct Graph { const uint64_t *off; const uint32_t *tgt, *wt; unsigned n; };
struct Far { uint32_t *pile[2]; unsigned *len; unsigned long long *min; uint32_t *mark; }; // len[2], min[2]

// Relax u's list: all loads of a chunk of 4 edges, then their atomics.
template <class Push>
__device__ __forceinline__ unsigned relax_list(Graph g, unsigned long long *dist, uint32_t u, unsigned long long bucket,
    unsigned long long delta, Far far, int fp, Push push) {
  unsigned long long du = __ldcg(&dist[u]);
  uint64_t s = __ldg(&g.off[u]), e = __ldg(&g.off[u + 1]);
  unsigned n = 0;
  for (uint64_t k = s; k < e; k += 4) {
    uint32_t v[4]; unsigned long long c[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) if (k + j < e) { v[j] = __ldg(&g.tgt[k + j]); c[j] = du + __ldg(&g.wt[k + j]); }
    unsigned long long old[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) if (k + j < e) old[j] = atomicMin(&dist[v[j]], c[j]);
#pragma unroll
    for (int j = 0; j < 4; ++j) if (k + j < e) {
      n++;
      if (c[j] < old[j]) {
        unsigned long long vb = c[j] / delta;
        if (vb == bucket) push(v[j]);
        else { if (atomicExch(&far.mark[v[j]], 1) == 0) { unsigned sl = atomicAdd(&far.len[fp], 1); far.pile[fp][sl] = v[j]; } atomicMin(&far.min[fp], vb); }
      }
    }
  }
  return n;
}

// ---------------- team: global queues, software barrier ----------------
struct TeamSync { unsigned count, gen; };
__device__ __forceinline__ void team_sync(TeamSync *ts, unsigned blocks, unsigned &gen) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    if (atomicAdd(&ts->count, 1) == blocks - 1) { ts->count = 0; __threadfence(); atomicExch(&ts->gen, gen + 1); }
    else while (ld_acquire(&ts->gen) == gen) {}
  }
  gen++;
  __syncthreads();
}

__global__ void __launch_bounds__(TPB) team(Graph g, unsigned long long *dist, Far far, uint32_t *q0, uint32_t *q1, uint32_t *q2,
    unsigned *qlen /*3*/, TeamSync *ts, uint32_t src, unsigned long long delta, Out *out) {
  uint32_t *q[3] = {q0, q1, q2};
  unsigned blocks = gridDim.x, tid = blockIdx.x * TPB + threadIdx.x, threads = blocks * TPB;
  unsigned gen = 0; uint64_t t0 = now();
  unsigned long long relax = 0, bucket = 0; unsigned r = 0, rounds = 0, splits = 0, fp = 0, maxw = 0;
  // The host set dist[src] = 0, q0 = {src}, qlen = {1,0,0}, far empty.
  while (true) {
    unsigned len = ld_acquire(&qlen[r % 3]);
    if (len == 0) {
      unsigned long long b = *(volatile unsigned long long *)&far.min[fp]; unsigned flen = *(volatile unsigned *)&far.len[fp];
      if (b == UNREACHED) break;
      if (tid == 0) { far.len[fp ^ 1] = 0; far.min[fp ^ 1] = UNREACHED; }
      team_sync(ts, blocks, gen);
      for (unsigned i = tid; i < flen; i += threads) {
        uint32_t v = __ldcg(&far.pile[fp][i]); unsigned long long vb = __ldcg(&dist[v]) / delta;
        far.mark[v] = 0;
        if (vb == b) { unsigned s = atomicAdd(&qlen[r % 3], 1); q[r % 3][s] = v; }
        else if (vb > b) { unsigned s = atomicAdd(&far.len[fp ^ 1], 1); far.pile[fp ^ 1][s] = v; far.mark[v] = 1; atomicMin(&far.min[fp ^ 1], vb); }
      }
      bucket = b; fp ^= 1; splits++;
      team_sync(ts, blocks, gen);
      continue;
    }
    if (tid == 0) qlen[(r + 2) % 3] = 0;
    maxw = max(maxw, len);
    uint32_t *next = q[(r + 1) % 3]; unsigned *nlen = &qlen[(r + 1) % 3];
    for (unsigned i = tid; i < len; i += threads) {
      uint32_t u = __ldcg(&q[r % 3][i]);
      relax += relax_list(g, dist, u, bucket, delta, far, fp, [&](uint32_t v) { unsigned s = atomicAdd(nlen, 1); next[s] = v; });
    }
    team_sync(ts, blocks, gen);
    r++; rounds++;
  }
  atomicAdd(&out->relax, relax);
  if (tid == 0) { out->ns = now() - t0; out->rounds = rounds; out->splits = splits; out->maxw = maxw; }
}

// ---------------- cluster: queues in distributed shared memory ----------------
// CARRY: a queue entry carries the distance that queued it and the vertex's list bounds, read
// by the pusher beside the atomic that lowered it, so a round's chain starts at the edges.
#define CCAP 4096
__device__ unsigned long long prof[10];
struct Entry { uint32_t v, d, b, e; };
template <int MODE>
__global__ void __launch_bounds__(TPB) cluster(Graph g, unsigned long long *dist, Far far, uint32_t src, unsigned long long delta, Out *out, unsigned long long *split_ns) {
  extern __shared__ uint4 smq[];                 // 3 queues of CCAP entries
  __shared__ unsigned cnt[3];
  __shared__ unsigned total, overflow;
  cg::cluster_group cl = cg::this_cluster();
  unsigned C = cl.num_blocks(), me = cl.block_rank();
  unsigned tid = me * TPB + threadIdx.x, threads = C * TPB;
  uint64_t t0 = now(), tsplit = 0;
  if (threadIdx.x == 0) {
    cnt[0] = (src % C == me); cnt[1] = cnt[2] = 0; overflow = 0;
    if (src % C == me) smq[0] = make_uint4(src, 0, (unsigned)g.off[src], (unsigned)g.off[src + 1]);
  }
  cl.sync();
  unsigned long long relax = 0, bucket = 0; unsigned r = 0, rounds = 0, splits = 0, fp = 0, maxw = 0;
  constexpr bool CARRY = MODE >= 1, LEAN = MODE == 2, PROF = MODE == 3 || MODE == 5, IMPLICIT = MODE >= 4;
  constexpr int CH = IMPLICIT ? 8 : 4;
  __shared__ unsigned long long smax;
  unsigned long long p_load = 0, p_atomic = 0, p_push = 0, p_chain = 0, p_chains = 0, p_round = 0, p_tail = 0, p_count = 0, t_sync = 0;
  uint64_t c0 = clock64(), g0 = now();
  if (PROF && threadIdx.x == 0) smax = 0;
  __shared__ unsigned bmin;
  unsigned lane = threadIdx.x % 32;
  auto push_to = [&](uint4 x, unsigned slot) {
    unsigned owner = x.x % C;
    unsigned s;
    if (LEAN) {
      // One remote atomic for the lanes that queue on the same block.
      unsigned act = __activemask(), peers = __match_any_sync(act, owner);
      unsigned leader = __ffs(peers) - 1;
      if (lane == leader) s = atomicAdd(cl.map_shared_rank(&cnt[slot], owner), __popc(peers));
      s = __shfl_sync(act, s, leader) + __popc(peers & ((1u << lane) - 1));
    } else s = atomicAdd(cl.map_shared_rank(&cnt[slot], owner), 1);
    if (s < CCAP) { uint4 *rq = cl.map_shared_rank(smq + slot * CCAP, owner); rq[s] = x; } else atomicAdd(&overflow, 1);
  };
  while (true) {
    if (threadIdx.x < 32) {
      unsigned l = threadIdx.x < C ? *cl.map_shared_rank(&cnt[r % 3], threadIdx.x) : 0;
      for (int o = 16; o; o >>= 1) l += __shfl_xor_sync(~0u, l, o);
      if (threadIdx.x == 0) total = l;
    }
    __syncthreads();
    unsigned all = total, len = min(cnt[r % 3], (unsigned)CCAP);
    uint64_t tr0 = PROF ? clock64() : 0;
    if (PROF && threadIdx.x == 0 && t_sync) p_count += tr0 - t_sync;
    if (all == 0) {
      uint64_t ts = now();
      if (LEAN) {
        // The far pile's nearest bucket, found here rather than by an atomic a push.
        unsigned flen0 = *(volatile unsigned *)&far.len[fp];
        if (threadIdx.x == 0) bmin = ~0u;
        __syncthreads();
        unsigned m = ~0u;
        for (unsigned i = tid; i < flen0; i += threads) {
          unsigned long long vb = __ldcg(&dist[__ldcg(&far.pile[fp][i])]) / delta;
          if (vb > bucket) m = min(m, (unsigned)vb);
        }
        m = __reduce_min_sync(~0u, m);
        if (lane == 0 && m != ~0u) atomicMin(&bmin, m);
        __syncthreads();
        if (threadIdx.x == 0 && bmin != ~0u) atomicMin(&far.min[fp], (unsigned long long)bmin);
        cl.sync();
      }
      if (IMPLICIT) {
        // No far pile: the nearest bucket beyond is found by reading every distance.
        if (threadIdx.x == 0) bmin = ~0u;
        __syncthreads();
        unsigned m = ~0u;
        for (unsigned v = tid; v < g.n; v += threads) {
          unsigned long long d = __ldcg(&dist[v]);
          if (d != UNREACHED && d / delta > bucket) m = min(m, (unsigned)(d / delta));
        }
        m = __reduce_min_sync(~0u, m);
        if (lane == 0 && m != ~0u) atomicMin(&bmin, m);
        __syncthreads();
        if (threadIdx.x == 0 && bmin != ~0u) atomicMin(&far.min[fp], (unsigned long long)bmin);
        cl.sync();
        unsigned long long b = *(volatile unsigned long long *)&far.min[fp];
        if (b == UNREACHED) break;
        if (tid == 0) far.min[fp ^ 1] = UNREACHED;
        for (unsigned v = tid; v < g.n; v += threads) {
          unsigned long long d = __ldcg(&dist[v]);
          if (d != UNREACHED && d / delta == b) push_to(make_uint4(v, (unsigned)d, (unsigned)__ldg(&g.off[v]), (unsigned)__ldg(&g.off[v + 1])), r % 3);
        }
        bucket = b; fp ^= 1; splits++;
        cl.sync();
        tsplit += now() - ts;
        continue;
      }
      unsigned long long b = *(volatile unsigned long long *)&far.min[fp]; unsigned flen = *(volatile unsigned *)&far.len[fp];
      if (b == UNREACHED) break;
      if (tid == 0) { far.len[fp ^ 1] = 0; far.min[fp ^ 1] = UNREACHED; }
      cl.sync();
      for (unsigned i = tid; i < flen; i += threads) {
        uint32_t v = __ldcg(&far.pile[fp][i]); unsigned long long dv = __ldcg(&dist[v]), vb = dv / delta;
        far.mark[v] = 0;
        if (vb == b) push_to(make_uint4(v, (unsigned)dv, (unsigned)__ldg(&g.off[v]), (unsigned)__ldg(&g.off[v + 1])), r % 3);
        else if (vb > b) { unsigned s = atomicAdd(&far.len[fp ^ 1], 1); far.pile[fp ^ 1][s] = v; far.mark[v] = 1; atomicMin(&far.min[fp ^ 1], vb); }
      }
      bucket = b; fp ^= 1; splits++;
      cl.sync();
      tsplit += now() - ts;
      continue;
    }
    if (threadIdx.x == 0) cnt[(r + 2) % 3] = 0;
    maxw = max(maxw, all);
    const uint4 *cur = smq + (r % 3) * CCAP; unsigned slot = (r + 1) % 3;
    uint64_t td = 0;
    for (unsigned i = threadIdx.x; i < len; i += TPB) {
      uint64_t ta = PROF ? clock64() : 0, tb = 0, tc = 0;
      uint4 x = cur[i];
      unsigned long long du; uint64_t s, e; unsigned long long current = 0;
      if (CARRY) { du = x.y; s = x.z; e = x.w; if (LEAN) current = __ldcg(&dist[x.x]); }
      else { du = __ldcg(&dist[x.x]); s = __ldg(&g.off[x.x]); e = __ldg(&g.off[x.x + 1]); }
      for (uint64_t k = s; k < e; k += CH) {
        uint32_t v[CH]; unsigned long long c[CH]; uint32_t vb_[CH], ve_[CH];
#pragma unroll
        for (int j = 0; j < CH; ++j) if (k + j < e) { v[j] = __ldg(&g.tgt[k + j]); c[j] = du + __ldg(&g.wt[k + j]); }
        // A stale entry (its vertex lowered again since, and queued again): nothing to relax.
        if (LEAN && current < du) break;
        if (PROF && k == s) tb = (c[0] != 12345) ? clock64() : 0;
        unsigned long long old[CH];
#pragma unroll
        for (int j = 0; j < CH; ++j) if (k + j < e) {
          if (CARRY) { vb_[j] = (unsigned)__ldg(&g.off[v[j]]); ve_[j] = (unsigned)__ldg(&g.off[v[j] + 1]); }
          old[j] = atomicMin(&dist[v[j]], c[j]);
        }
        if (PROF && k == s) tc = (old[0] != 12345) ? clock64() : 0;
#pragma unroll
        for (int j = 0; j < CH; ++j) if (k + j < e) {
          relax++;
          if (c[j] < old[j]) {
            unsigned long long vb = c[j] / delta;
            if (vb == bucket) push_to(make_uint4(v[j], (unsigned)c[j], CARRY ? vb_[j] : 0, CARRY ? ve_[j] : 0), slot);
            else if (IMPLICIT) {}
            else if (LEAN) {
              if (atomicExch(&far.mark[v[j]], 1) == 0) {
                cg::coalesced_group active = cg::coalesced_threads();
                unsigned sl = 0;
                if (active.thread_rank() == 0) sl = atomicAdd(&far.len[fp], active.size());
                far.pile[fp][active.shfl(sl, 0) + active.thread_rank()] = v[j];
              }
            }
            else { if (atomicExch(&far.mark[v[j]], 1) == 0) { unsigned sl = atomicAdd(&far.len[fp], 1); far.pile[fp][sl] = v[j]; } atomicMin(&far.min[fp], vb); }
          }
        }
      }
      if (PROF) {
        td = clock64();
        if (tb) { p_load += tb - ta; p_atomic += tc - tb; p_push += td - tc; p_chain += td - ta; p_chains++; }
      }
    }
    if (PROF && td) atomicMax(&smax, (unsigned long long)(td - tr0));
    cl.sync();
    if (PROF && threadIdx.x == 0) { t_sync = clock64(); p_round += t_sync - tr0; p_tail += smax; smax = 0; }
    r++; rounds++;
  }
  atomicAdd(&out->relax, relax);
  if (threadIdx.x == 0) atomicAdd(&out->overflow, overflow);
  if (tid == 0) { out->ns = now() - t0; out->rounds = rounds; out->splits = splits; out->maxw = maxw; *split_ns = tsplit; }
  if (PROF) {
    atomicAdd(&prof[0], p_load); atomicAdd(&prof[1], p_atomic); atomicAdd(&prof[2], p_push); atomicAdd(&prof[3], p_chain); atomicAdd(&prof[4], p_chains);
    if (threadIdx.x == 0) { atomicAdd(&prof[5], p_round); atomicAdd(&prof[6], p_tail); atomicAdd(&prof[7], p_count); }
    if (tid == 0) { prof[8] = clock64() - c0; prof[9] = now() - g0; }
  }
}


// ---------------- scatter: every push a local atomic and a posted remote store ----------------
// Block d's queue holds C regions, one a producer block; a producer reserves a slot in its
// region of d's queue with an atomic on its own shared counter and writes the entry there by a
// remote store nobody waits for. At the round's end each producer posts its counts into every
// block's shared memory; after barrier.cluster a block finds its entries and the round's total
// in its own shared memory: no remote access on any chain.
#define SCAP 6144
template <bool PROF, int BUDGET>
__global__ void __launch_bounds__(TPB) scatter(Graph g, unsigned long long *dist, unsigned long long *gmin, uint32_t src, unsigned long long delta, Out *out, unsigned long long *split_ns) {
  extern __shared__ uint4 sq[];                  // 2 buffers of SCAP entries: C regions of capb
  __shared__ unsigned incoming[2][16], sent[2][16], cnt[16], pre[17], total, overflow;
  __shared__ unsigned long long bmin;
  __shared__ unsigned long long smax;
  cg::cluster_group cl = cg::this_cluster();
  unsigned C = cl.num_blocks(), me = cl.block_rank(), capb = SCAP / C, lane = threadIdx.x % 32;
  unsigned tid = me * TPB + threadIdx.x, threads = C * TPB;
  uint64_t t0 = now(), tsplit = 0, c0 = clock64(), g0 = now();
  unsigned long long p_load = 0, p_atomic = 0, p_push = 0, p_chain = 0, p_chains = 0, p_round = 0, p_tail = 0, p_count = 0, t_sync = 0;
  if (threadIdx.x < 16) { incoming[0][threadIdx.x] = incoming[1][threadIdx.x] = 0; sent[0][threadIdx.x] = sent[1][threadIdx.x] = 0; }
  if (threadIdx.x == 0) {
    overflow = 0; smax = 0; sent[0][0] = 1;
    if (src % C == me) { incoming[0][0] = 1; sq[0] = make_uint4(src, 0, (unsigned)g.off[src], (unsigned)g.off[src + 1]); }
  }
  cl.sync();
  unsigned long long relax = 0, bucket = 0, bucket_end = delta; unsigned r = 0, rounds = 0, splits = 0, sp = 0, maxw = 0;
  // Queue v's entry for buffer q; the counts are posted by post().
  auto push = [&](uint4 x, unsigned q) {
    unsigned d = x.x % C, s = atomicAdd(&cnt[d], 1);
    if (s < capb) { uint4 *rq = cl.map_shared_rank(sq + q * SCAP, d); rq[me * capb + s] = x; } else atomicAdd(&overflow, 1);
  };
  auto post = [&](unsigned q) {
    __syncthreads();
    if (threadIdx.x < 32) {
      unsigned c = threadIdx.x < C ? min(cnt[threadIdx.x], capb) : 0, all = c;
      for (int o = 16; o; o >>= 1) all += __shfl_xor_sync(~0u, all, o);
      if (threadIdx.x < C) {
        *cl.map_shared_rank(&incoming[q][me], threadIdx.x) = c;
        *cl.map_shared_rank(&sent[q][me], threadIdx.x) = all;
      }
    }
    cl.sync();
  };
  while (true) {
    unsigned p = r & 1;
    if (threadIdx.x < 32) {
      unsigned s = threadIdx.x < C ? sent[p][threadIdx.x] : 0, in = threadIdx.x < C ? incoming[p][threadIdx.x] : 0, x = in;
      for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(~0u, s, o);
      for (int o = 1; o < 32; o <<= 1) { unsigned y = __shfl_up_sync(~0u, x, o); if (lane >= o) x += y; }
      if (threadIdx.x <= C) pre[threadIdx.x] = x - in;   // exclusive prefix; pre[C] = all
      if (threadIdx.x == 0) total = s;
      if (threadIdx.x < 16) cnt[threadIdx.x] = 0;
    }
    __syncthreads();
    unsigned all = total, mine = pre[C];
    uint64_t tr0 = PROF ? clock64() : 0;
    if (PROF && threadIdx.x == 0 && t_sync) p_count += tr0 - t_sync;
    if (all == 0) {
      uint64_t ts = now();
      // No division on any path: a distance is compared with the bucket's bounds.
      if (threadIdx.x == 0) bmin = UNREACHED;
      __syncthreads();
      unsigned long long m = UNREACHED;
      for (unsigned v = tid; v < g.n; v += threads) {
        unsigned long long d = __ldcg(&dist[v]);
        if (d >= bucket_end && d < m) m = d;
      }
      for (int o = 16; o; o >>= 1) m = min(m, (unsigned long long)__shfl_xor_sync(~0u, m, o));
      if (lane == 0 && m != UNREACHED) atomicMin(&bmin, m);
      __syncthreads();
      if (threadIdx.x == 0 && bmin != UNREACHED) atomicMin(&gmin[sp], bmin);
      cl.sync();
      unsigned long long dmin = *(volatile unsigned long long *)&gmin[sp];
      if (dmin == UNREACHED) break;
      unsigned long long b = dmin / delta, lo = b * delta, hi = lo + delta;
      if (tid == 0) gmin[sp ^ 1] = UNREACHED;
      for (unsigned v = tid; v < g.n; v += threads) {
        unsigned long long d = __ldcg(&dist[v]);
        if (d >= lo && d < hi) push(make_uint4(v, (unsigned)d, (unsigned)__ldg(&g.off[v]), (unsigned)__ldg(&g.off[v + 1])), p);
      }
      post(p);
      bucket = b; bucket_end = hi; sp ^= 1; splits++;
      tsplit += now() - ts;
      continue;
    }
    maxw = max(maxw, all);
    uint64_t td = 0;
    const uint4 *cur = sq + p * SCAP;
    // Thread-local fusion (BUDGET > 0): what a thread lowers into the current bucket it relaxes
    // itself, from a stack of its own, up to BUDGET more vertices a round; the rest is queued.
    constexpr int LS = 8;
    uint4 stack[LS > 0 ? LS : 1]; int top = 0;
    auto visit = [&](uint4 x, bool first, uint64_t ta) {
      uint64_t tb = 0, tc = 0;
      unsigned long long du = x.y; uint64_t s = x.z, e = x.w;
      unsigned long long current = BUDGET ? __ldcg(&dist[x.x]) : 0;
      for (uint64_t k = s; k < e; k += 8) {
        uint32_t v[8], vb_[8], ve_[8]; unsigned long long c[8], old[8];
#pragma unroll
        for (int j = 0; j < 8; ++j) if (k + j < e) { v[j] = __ldg(&g.tgt[k + j]); c[j] = du + __ldg(&g.wt[k + j]); }
        if (BUDGET && current < du) break;
        if (PROF && first && k == s) tb = (c[0] != 12345) ? clock64() : 0;
#pragma unroll
        for (int j = 0; j < 8; ++j) if (k + j < e) {
          vb_[j] = (unsigned)__ldg(&g.off[v[j]]); ve_[j] = (unsigned)__ldg(&g.off[v[j] + 1]);
          old[j] = atomicMin(&dist[v[j]], c[j]);
        }
        if (PROF && first && k == s) tc = (old[0] != 12345) ? clock64() : 0;
#pragma unroll
        for (int j = 0; j < 8; ++j) if (k + j < e) {
          relax++;
          if (c[j] < old[j] && c[j] < bucket_end) {
            uint4 y = make_uint4(v[j], (unsigned)c[j], vb_[j], ve_[j]);
            if (BUDGET && top < LS) stack[top++] = y; else push(y, p ^ 1);
          }
        }
      }
      if (PROF && first) {
        td = clock64();
        if (tb) { p_load += tb - ta; p_atomic += tc - tb; p_push += td - tc; p_chain += td - ta; p_chains++; }
      }
    };
    for (unsigned i = threadIdx.x; i < mine; i += TPB) {
      uint64_t ta = PROF ? clock64() : 0;
      unsigned b = 0;
      while (b + 1 < C && pre[b + 1] <= i) ++b;
      visit(cur[b * capb + (i - pre[b])], true, ta);
    }
    if (BUDGET) {
      int budget = BUDGET;
      while (top > 0 && budget-- > 0) visit(stack[--top], false, 0);
      while (top > 0) push(stack[--top], p ^ 1);
      if (PROF) td = clock64();
    }
    if (PROF && td) atomicMax(&smax, (unsigned long long)(td - tr0));
    post(p ^ 1);
    if (PROF && threadIdx.x == 0) { t_sync = clock64(); p_round += t_sync - tr0; p_tail += smax; smax = 0; }
    r++; rounds++;
  }
  atomicAdd(&out->relax, relax);
  if (threadIdx.x == 0) atomicAdd(&out->overflow, overflow);
  if (tid == 0) { out->ns = now() - t0; out->rounds = rounds; out->splits = splits; out->maxw = maxw; *split_ns = tsplit; }
  if (PROF) {
    atomicAdd(&prof[0], p_load); atomicAdd(&prof[1], p_atomic); atomicAdd(&prof[2], p_push); atomicAdd(&prof[3], p_chain); atomicAdd(&prof[4], p_chains);
    if (threadIdx.x == 0) { atomicAdd(&prof[5], p_round); atomicAdd(&prof[6], p_tail); atomicAdd(&prof[7], p_count); }
    if (tid == 0) { prof[8] = clock64() - c0; prof[9] = now() - g0; }
  }
}

// What the barriers alone cost: `loops` rounds of nothing but the barrier.
__global__ void __launch_bounds__(TPB) cluster_barriers(unsigned loops, unsigned long long *ns) {
  cg::cluster_group cl = cg::this_cluster();
  uint64_t t0 = now();
  for (unsigned i = 0; i < loops; ++i) cl.sync();
  if (cl.block_rank() == 0 && threadIdx.x == 0) *ns = now() - t0;
}
__global__ void __launch_bounds__(TPB) team_barriers(TeamSync *ts, unsigned loops, unsigned long long *ns) {
  unsigned gen = 0; uint64_t t0 = now();
  for (unsigned i = 0; i < loops; ++i) team_sync(ts, gridDim.x, gen);
  if (blockIdx.x == 0 && threadIdx.x == 0) *ns = now() - t0;
}

static std::vector<unsigned long long> dijkstra(const std::vector<uint64_t> &off, const std::vector<uint32_t> &tgt, const std::vector<uint32_t> &wt, uint32_t s) {
  std::vector<unsigned long long> d(off.size() - 1, UNREACHED);
  std::priority_queue<std::pair<unsigned long long, uint32_t>, std::vector<std::pair<unsigned long long, uint32_t>>, std::greater<>> pq;
  d[s] = 0; pq.push({0, s});
  while (!pq.empty()) {
    auto [du, u] = pq.top(); pq.pop();
    if (du > d[u]) continue;
    for (uint64_t k = off[u]; k < off[u + 1]; ++k) if (du + wt[k] < d[tgt[k]]) { d[tgt[k]] = du + wt[k]; pq.push({d[tgt[k]], tgt[k]}); }
  }
  return d;
}

#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); } } while (0)

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
  uint64_t *doff; uint32_t *dtgt, *dwt, *mark, *f0, *f1, *q0, *q1, *q2; unsigned *flen, *qlen; unsigned long long *fmin, *dist; Out *out; TeamSync *ts;
  CK(cudaMalloc(&doff, 8 * (n + 1))); cudaMalloc(&dtgt, 4 * arcs.size()); cudaMalloc(&dwt, 4 * arcs.size());
  cudaMalloc(&dist, 8 * n); cudaMalloc(&mark, 4 * n); cudaMalloc(&f0, 4 * n); cudaMalloc(&f1, 4 * n);
  cudaMalloc(&q0, 4 * n); cudaMalloc(&q1, 4 * n); cudaMalloc(&q2, 4 * n);
  cudaMalloc(&flen, 8); cudaMalloc(&fmin, 16); cudaMalloc(&qlen, 12); cudaMalloc(&out, sizeof(Out)); cudaMalloc(&ts, sizeof(TeamSync));
  cudaMemcpy(doff, off.data(), 8 * (n + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(dtgt, tgt.data(), 4 * arcs.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(dwt, wt.data(), 4 * arcs.size(), cudaMemcpyHostToDevice);
  Graph g{doff, dtgt, dwt, (unsigned)n}; Far far{{f0, f1}, flen, fmin, mark};
  size_t csm = 3 * CCAP * 16;
  CK(cudaFuncSetAttribute(cluster<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)csm));
  CK(cudaFuncSetAttribute(cluster<0>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  CK(cudaFuncSetAttribute(cluster<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)csm));
  CK(cudaFuncSetAttribute(cluster<1>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  CK(cudaFuncSetAttribute(cluster<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)csm));
  CK(cudaFuncSetAttribute(cluster<2>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  CK(cudaFuncSetAttribute(cluster<3>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)csm));
  CK(cudaFuncSetAttribute(cluster<3>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  for (auto k : {cluster<4>, cluster<5>}) { CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)csm)); CK(cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1)); }
  for (auto k : {scatter<false, 0>, scatter<true, 0>, scatter<false, 4>, scatter<false, 16>, scatter<false, 64>, scatter<true, 16>}) { CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 2 * SCAP * 16)); CK(cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1)); }
  CK(cudaFuncSetAttribute(cluster_barriers, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  unsigned long long *dns; cudaMalloc(&dns, 8);
  for (int c : {1, 2, 4, 8, 16}) {
    cudaLaunchConfig_t cfg = {}; cfg.gridDim = dim3(c); cfg.blockDim = dim3(TPB);
    cudaLaunchAttribute at[1]; at[0].id = cudaLaunchAttributeClusterDimension; at[0].val.clusterDim.x = c; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
    cfg.attrs = at; cfg.numAttrs = 1;
    CK(cudaLaunchKernelEx(&cfg, cluster_barriers, 10000u, dns)); CK(cudaDeviceSynchronize());
    unsigned long long h; cudaMemcpy(&h, dns, 8, cudaMemcpyDeviceToHost);
    cudaMemset(ts, 0, sizeof(TeamSync)); team_barriers<<<c, TPB>>>(ts, 10000u, dns); CK(cudaDeviceSynchronize());
    unsigned long long h2; cudaMemcpy(&h2, dns, 8, cudaMemcpyDeviceToHost);
    printf("barrier alone, %2d blocks of %d: cluster %.3f us, team %.3f us\n", c, TPB, h / 1e4 / 1e3, h2 / 1e4 / 1e3);
  }
  uint32_t srcs[] = {149769 - 1, 197145 - 1, 256681 - 1, 117465 - 1};
  std::vector<std::vector<unsigned long long>> ref;
  for (uint32_t s : srcs) ref.push_back(dijkstra(off, tgt, wt, s));
  struct V { const char *kind; int size; };
  std::vector<V> variants = {{"carry", 16}, {"scatter", 8}, {"scatter", 16}, {"xscatter", 16}, {"f4", 16}, {"f16", 8}, {"f16", 16}, {"f64", 16}, {"xf16", 16}};
  for (unsigned long long delta : {29968ull, 60000ull, 120000ull})
    for (auto var : variants) {
      std::vector<double> ms, sms; std::vector<unsigned long long> rounds, relax; bool ok = true; unsigned long long ovf = 0, maxw = 0; const char *err = "";
      for (int rep = 0; rep < 2; ++rep)
        for (int si = 0; si < 4; ++si) {
          uint32_t src = srcs[si];
          cudaMemset(dist, 0xff, 8 * n); cudaMemset(mark, 0, 4 * n); cudaMemset(out, 0, sizeof(Out)); cudaMemset(ts, 0, sizeof(TeamSync));
          unsigned long long zero = 0; unsigned fl[2] = {0, 0}, ql[3] = {1, 0, 0}; unsigned long long fm[2] = {UNREACHED, UNREACHED};
          cudaMemcpy(dist + src, &zero, 8, cudaMemcpyHostToDevice); cudaMemcpy(flen, fl, 8, cudaMemcpyHostToDevice);
          cudaMemcpy(fmin, fm, 16, cudaMemcpyHostToDevice); cudaMemcpy(qlen, ql, 12, cudaMemcpyHostToDevice); cudaMemcpy(q0, &src, 4, cudaMemcpyHostToDevice);
          cudaError_t e;
          if (var.kind[0] == 't') { team<<<var.size, TPB>>>(g, dist, far, q0, q1, q2, qlen, ts, src, delta, out); }
          else {
            cudaLaunchConfig_t cfg = {}; cfg.gridDim = dim3(var.size); cfg.blockDim = dim3(TPB); cfg.dynamicSmemBytes = csm;
            cudaLaunchAttribute at[1]; at[0].id = cudaLaunchAttributeClusterDimension; at[0].val.clusterDim.x = var.size; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
            cfg.attrs = at; cfg.numAttrs = 1;
            if (var.kind[0] == 's') { cfg.dynamicSmemBytes = 2 * SCAP * 16; e = cudaLaunchKernelEx(&cfg, scatter<false, 0>, g, dist, fmin, src, delta, out, dns); }
            else if (var.kind[0] == 'f') { cfg.dynamicSmemBytes = 2 * SCAP * 16;
              auto kf = var.kind[1] == '4' ? scatter<false, 4> : var.kind[1] == '1' ? scatter<false, 16> : scatter<false, 64>;
              e = cudaLaunchKernelEx(&cfg, kf, g, dist, fmin, src, delta, out, dns); }
            else if (var.kind[1] == 'l') e = cudaLaunchKernelEx(&cfg, cluster<0>, g, dist, far, src, delta, out, dns);
            else if (var.kind[1] == 'a') e = cudaLaunchKernelEx(&cfg, cluster<1>, g, dist, far, src, delta, out, dns);
            else if (var.kind[1] == 'e') e = cudaLaunchKernelEx(&cfg, cluster<2>, g, dist, far, src, delta, out, dns);
            else if (var.kind[1] == 'm') e = cudaLaunchKernelEx(&cfg, cluster<4>, g, dist, far, src, delta, out, dns);
            else {
              unsigned long long z[10] = {}; cudaMemcpyToSymbol(prof, z, sizeof z);
              if (var.kind[1] == 'r') e = cudaLaunchKernelEx(&cfg, cluster<3>, g, dist, far, src, delta, out, dns);
              else if (var.kind[1] == 's') { cfg.dynamicSmemBytes = 2 * SCAP * 16; e = cudaLaunchKernelEx(&cfg, scatter<true, 0>, g, dist, fmin, src, delta, out, dns); }
              else if (var.kind[1] == 'f') { cfg.dynamicSmemBytes = 2 * SCAP * 16; e = cudaLaunchKernelEx(&cfg, scatter<true, 16>, g, dist, fmin, src, delta, out, dns); }
              else e = cudaLaunchKernelEx(&cfg, cluster<5>, g, dist, far, src, delta, out, dns);
              cudaDeviceSynchronize(); unsigned long long p[10]; cudaMemcpyFromSymbol(p, prof, sizeof p);
              double cyc = (double)p[8] / p[9]; Out h; cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
              double ch = p[4] ? 1.0 / p[4] / cyc : 0, rr = 1.0 / h.rounds / cyc / var.size;
              if (rep == 0) printf("  %s %2d blocks, delta %llu, src %u: %.2f GHz; a vertex's first chunk: loads %.0f ns, atomics %.0f ns, pushes %.0f ns, whole vertex %.0f ns; a round: %.0f ns from start to after the barrier, of which the block's slowest thread %.0f ns; the count %.0f ns\n",
                var.kind, var.size, delta, src + 1, cyc, p[0] * ch, p[1] * ch, p[2] * ch, p[3] * ch, p[5] * rr, p[6] * rr, p[7] * rr);
            }
            if (e) err = cudaGetErrorString(e);
          }
          e = cudaDeviceSynchronize(); if (e) { err = cudaGetErrorString(e); ok = false; }
          Out h; cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
          std::vector<unsigned long long> d(n); cudaMemcpy(d.data(), dist, 8 * n, cudaMemcpyDeviceToHost);
          if (d != ref[si]) ok = false;
          unsigned long long sns = 0; if (var.kind[0] != 't') cudaMemcpy(&sns, dns, 8, cudaMemcpyDeviceToHost); sms.push_back(sns / 1e6);
          ms.push_back(h.ns / 1e6); rounds.push_back(h.rounds); relax.push_back(h.relax); ovf += h.overflow; maxw = std::max(maxw, h.maxw);
        }
      std::vector<double> s = ms; std::sort(s.begin(), s.end());
      double rsum = 0, xsum = 0, msum = 0, ssum = 0; for (int i = 0; i < 4; ++i) { rsum += rounds[i]; xsum += relax[i]; msum += ms[i]; ssum += sms[i]; }
      printf("delta %6llu %-7s %2d x %d: median %.3f ms (min %.3f), splits %.3f ms, %.0f rounds, %.2f us a round (splits out), %.2f relax/edge, max round %llu, overflow %llu, %s %s\n",
             delta, var.kind, var.size, TPB, (s[3] + s[4]) / 2, s[0], ssum / 4, rsum / 4, (msum - ssum) / rsum * 1e3, xsum / 4 / arcs.size(), maxw, ovf, ok ? "distances equal Dijkstra" : "WRONG", err);
      fflush(stdout);
    }
  return 0;
}
