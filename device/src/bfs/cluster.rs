//! `bfs_cluster`: the whole top-down BFS in one Hopper thread-block cluster, for graphs of
//! many small levels (roads, meshes). The "small-frontier machinery serves BFS too":
//! the cluster that runs near-far's light rounds (`sssp::cluster`), given BFS's levels. It
//! follows Luo, Wong and Hwu (DAC 2010, section 4: hierarchical queues, one block for small
//! frontiers) one level up the hardware's hierarchy: 16 blocks of 1,024 threads on 16
//! multiprocessors, their shared memories one distributed shared memory, `barrier.cluster`
//! (0.3 µs, bench/NOTES.md 103) between levels instead of a grid barrier; and the
//! load-balancing paper's node-based distribution (seed 002, section II-A: a thread a frontier
//! vertex). Status lookup is Merrill et al.'s bitmap (PPoPP 2012, section 4.2), kept in
//! shared memory by each vertex's owner.
//!
//! The design, level by level:
//! - vertex `v` belongs to block `v % 16`, which holds three bitmaps with a bit for each of its
//!   vertices: visited, and the candidates of the current and the next level. Its local index
//!   `v / 16` sits in word `local % words`, bit `local / words` (`words` a power of two): the
//!   vertices of one word lie `16 * words` ids apart, so a frontier of nearby ids falls into
//!   different words;
//! - a level: each thread takes its words of the current candidates, clears them, keeps the
//!   bits not yet visited and marks them visited (no atomics: a word is one thread's), labels
//!   each such vertex with the level (and the parent its slot holds), and expands its list:
//!   each neighbor's bit goes to its owner's next candidates by `red.shared::cluster.or`, a
//!   posted reduction nothing waits for, and the vertex into the neighbor's parent slot in
//!   global memory (slots of two parities, so that a level's pushes never overwrite what the
//!   owner reads in the same level);
//! - at the level's end each block posts the vertices it claimed and the edges it expanded
//!   into every block (sums by `redux.sync`, then a shared atomic a warp), so after the cluster
//!   barrier every thread knows the level's totals: a level that claimed nothing ends the
//!   search.
//!
//! So a level's chain is a list's targets (one trip to L2: the blocks keep their vertices' list
//! bounds in shared memory where they fit beside the bitmaps, as on USA-road-d.NY; else the
//! offsets are a second trip), a posted push and the barrier: no queue counters, no slots,
//! nothing that overflows. Lists are walked by one
//! thread each, four edges at a time; a graph with long lists runs correctly and slowly (the
//! host's `auto` keeps it to low-degree graphs).

use core::ptr::null_mut;

use warpath_interface::bfs::cluster::{BfsClusterParams, BFS_CLUSTER_BITMAPS};
use warpath_interface::bfs::edge_queue::{
    EdgeTraceFlags, EDGE_TRACE_CLAIMED, EDGE_TRACE_FLAGS, EDGE_TRACE_ITEMS, EDGE_TRACE_TIME, EDGE_TRACE_WORDS,
};
use warpath_interface::cluster::{CLUSTER_BLOCK, CLUSTER_BLOCKS};

use crate::operators::cluster::ClusterVertices;
use crate::prelude::*;

const BLOCKS: usize = CLUSTER_BLOCKS as usize;
/// The bitmaps: visited, then the candidates of the levels of each parity.
const VISITED: u32 = 0;
const CANDIDATES: u32 = 1;
/// Edges of a list read together: their loads, then their pushes.
const EDGES_AT_ONCE: usize = 4;

/// The block's shared bookkeeping (the bitmaps are in dynamic shared memory).
#[derive(Clone, Copy)]
struct Shared {
    /// `[parity * BLOCKS + producer]`: the vertices each block claimed at the last level of
    /// that parity, posted by the producer.
    claimed: SharedArray<u32, { 2 * BLOCKS }>,
    /// `[parity * BLOCKS + producer]`: the edges each block expanded at that level.
    expanded: SharedArray<u32, { 2 * BLOCKS }>,
    /// This block's sums at the level of each parity: `[2 * parity]` claimed, `[2 * parity + 1]`
    /// expanded.
    sums: SharedArray<u32, 4>,
}

struct ClusterBfs {
    targets: *const u32,
    distances: *mut u32,
    /// Null for a distances-only search (then `candidates` is unused).
    parents: *mut u32,
    candidates: *mut u32,
    trace: *mut u64,
    n: usize,
    trace_capacity: u32,
    source: u32,
    vertices: ClusterVertices,
    shared: Shared,
}

impl ClusterBfs {
    /// Labels `v` (this block's vertex `local`), claimed at `level`, and pushes its neighbors
    /// into the next level's candidates; returns its degree.
    ///
    /// # Safety
    /// `v < n`, claimed once, at its distance.
    #[inline(always)]
    unsafe fn expand(&self, v: u32, local: u32, level: u32) -> u32 {
        let parity = (level & 1) as usize;
        let next = CANDIDATES + (parity as u32 ^ 1);
        // SAFETY: `v < n` (the caller's contract).
        let (begin, end) = unsafe { self.vertices.list_of(v, local) };
        let with_parents = !self.parents.is_null();
        let parent = if with_parents && level > 0 {
            // SAFETY: `v < n`, and `candidates` holds `2 n` words with parents.
            unsafe { *self.candidates.add(parity * self.n + v as usize) }
        } else {
            v
        };
        // The labels are stored after the first targets are loaded: the parent store waits for
        // its value, the slot's load, and a warp issues in order, so storing first would hold
        // the targets' loads behind that trip: two trips on every level's chain (NOTES 116).
        let mut labeled = false;
        let mut edge = begin;
        loop {
            let count = (end - edge).min(EDGES_AT_ONCE as u64) as usize;
            let mut target = [0u32; EDGES_AT_ONCE];
            for (j, t) in target.iter_mut().enumerate() {
                if j < count {
                    // SAFETY: inside `v`'s list.
                    *t = unsafe { *self.targets.add(edge as usize + j) };
                }
            }
            if !labeled {
                labeled = true;
                // SAFETY: `v < n`; `parents` holds `n` words when not null.
                unsafe {
                    *self.distances.add(v as usize) = level;
                    if with_parents {
                        *self.parents.add(v as usize) = parent;
                    }
                }
            }
            for (j, &u) in target.iter().enumerate() {
                if j < count {
                    // SAFETY: `u < n`; only these reductions touch the next level's candidates
                    // before the barrier.
                    unsafe { self.vertices.push(next, u) };
                    if with_parents {
                        // SAFETY: `u < n`; the owner reads this parity's slots only in the
                        // next level, after the barrier.
                        unsafe { *self.candidates.add((parity ^ 1) * self.n + u as usize) = v };
                    }
                }
            }
            edge += count as u64;
            if edge >= end {
                break;
            }
        }
        (end - begin) as u32
    }

    /// One level: this thread's words of the level's candidates claimed and expanded; returns
    /// the vertices it claimed and the edges it expanded.
    #[inline(always)]
    unsafe fn level(&self, level: u32) -> (u32, u32) {
        let current = CANDIDATES + (level & 1);
        let (mut claimed, mut expanded) = (0u32, 0u32);
        let mut word = thread_idx();
        while word < self.vertices.words() {
            // SAFETY: the word is this thread's alone in this block (words go to threads by
            // their index), and remote pushes go to the other candidate bitmap this level.
            let candidates = unsafe { self.vertices.take(current, word) };
            if candidates != 0 {
                let seen_at = self.vertices.word_address(VISITED, word);
                // SAFETY: as above.
                let seen = unsafe { load_shared_u32(seen_at) };
                let mut fresh = candidates & !seen;
                if fresh != 0 {
                    // SAFETY: as above.
                    unsafe { store_shared_u32(seen_at, seen | fresh) };
                }
                while fresh != 0 {
                    let bit = ffs(fresh) - 1;
                    fresh &= fresh - 1;
                    let (v, local) = self.vertices.vertex(word, bit);
                    claimed += 1;
                    // SAFETY: only vertices of the graph get candidate bits (the source and
                    // targets, all below n); a bit is claimed once (visited).
                    expanded = expanded.wrapping_add(unsafe { self.expand(v, local, level) });
                }
            }
            word += CLUSTER_BLOCK;
        }
        (claimed, expanded)
    }

    /// Posts this block's sums for `level` into every block of the cluster, then the cluster
    /// barrier; returns the level's totals (vertices claimed, edges expanded) on every thread.
    /// The block sums its warps' counts first, so each block receives one store a producer:
    /// warps adding into every block remotely (tried, bench/NOTES.md 116) contend on the
    /// receivers' words where many warps claim.
    #[inline(always)]
    unsafe fn post(&self, level: u32, claimed: u32, expanded: u32) -> (u32, u32) {
        let sh = &self.shared;
        let parity = (level & 1) as usize;
        let claimed = reduce_add_sync(FULL_MASK, claimed);
        let expanded = reduce_add_sync(FULL_MASK, expanded);
        if lane_id() == 0 && claimed != 0 {
            sh.sums.fetch_add(2 * parity, claimed);
            sh.sums.fetch_add(2 * parity + 1, expanded);
        }
        sync_threads();
        let t = thread_idx();
        if t < CLUSTER_BLOCKS {
            let slot = parity * BLOCKS + self.vertices.rank() as usize;
            // SAFETY: this block's own slots in block `t`'s arrays for this parity, which that
            // block reads after the barrier and nobody else writes before the level after next.
            unsafe {
                store_cluster_u32(map_shared_rank(sh.claimed.address_of(slot), t), sh.sums.get(2 * parity));
                store_cluster_u32(map_shared_rank(sh.expanded.address_of(slot), t), sh.sums.get(2 * parity + 1));
            }
        } else if t == 32 {
            // The other parity's sums were posted a level ago and are next added to after the
            // barrier below.
            sh.sums.set(2 * (parity ^ 1), 0);
            sh.sums.set(2 * (parity ^ 1) + 1, 0);
        }
        cluster_sync();
        let lane = lane_id() as usize;
        let mine = lane < BLOCKS;
        let claimed = if mine { sh.claimed.get(parity * BLOCKS + lane) } else { 0 };
        let expanded = if mine { sh.expanded.get(parity * BLOCKS + lane) } else { 0 };
        (reduce_add_sync(FULL_MASK, claimed), reduce_add_sync(FULL_MASK, expanded))
    }

    /// Trace record `index` (the cluster's first thread; nothing else writes the trace).
    #[inline(always)]
    unsafe fn record(&self, index: u32, items: u32, claimed: u32, start: u64) {
        if index <= self.trace_capacity {
            // SAFETY: the trace holds `trace_capacity + 1` records (the kernel contract).
            unsafe {
                let record = self.trace.add(index as usize * EDGE_TRACE_WORDS);
                *record.add(EDGE_TRACE_FLAGS) = EdgeTraceFlags::CLUSTER.bits();
                *record.add(EDGE_TRACE_ITEMS) = items as u64;
                *record.add(EDGE_TRACE_CLAIMED) = claimed as u64;
                *record.add(EDGE_TRACE_TIME) = start;
            }
        }
    }

    /// The level loop; returns the levels run (the last one claims nothing).
    #[inline(always)]
    unsafe fn run(&self) -> u32 {
        let t = thread_idx();
        let leader = self.vertices.rank() == 0 && t == 0;
        // The level-0 candidates hold the source alone; every other bit starts clear.
        // SAFETY: the contract sizes the shared memory for the bitmaps and lists.
        unsafe { self.vertices.prepare(CANDIDATES, self.source) };
        if t < 4 {
            self.shared.sums.set(t as usize, 0);
        }
        cluster_sync();
        let mut level = 0;
        let mut items = 0;
        loop {
            let start = if leader { global_timer_ns() } else { 0 };
            // SAFETY: pointers and sizes obey the kernel contract.
            let (claimed, expanded) = unsafe { self.level(level) };
            // SAFETY: as above.
            let (claimed, expanded) = unsafe { self.post(level, claimed, expanded) };
            if leader {
                // SAFETY: as above.
                unsafe { self.record(level, items, claimed, start) };
            }
            if claimed == 0 {
                break;
            }
            items = expanded;
            level += 1;
        }
        if leader {
            // SAFETY: as above: the record after the last level holds its end time.
            unsafe { self.record(level + 1, 0, 0, global_timer_ns()) };
        }
        level + 1
    }
}

/// `bfs_cluster`: the BFS from `source` (see the module documentation).
///
/// # Safety
/// Launched as one cluster of `CLUSTER_BLOCKS` blocks of `CLUSTER_BLOCK` threads (the grid
/// being the cluster), with `cluster_shared_bytes(BFS_CLUSTER_BITMAPS, words, lists)` of
/// dynamic shared memory a block, after `bfs_persistent_init` labeled the source. `offsets`
/// has `n + 1` entries and `targets` `offsets[n]` (below 2^32), every target `< n`; `words`
/// is `cluster_words(n)` and `lists` 0 or `ceil(n / 16)`; `distances` holds `n` words,
/// `parents` `n` words or is null, and then `candidates` `2 n` words; `levels` one word;
/// `trace` `trace_capacity + 1` records of `EDGE_TRACE_WORDS`; `source < n`.
#[inline(always)]
pub unsafe fn cluster(params: BfsClusterParams) {
    // SAFETY: declared once each, before any control flow.
    let shared = unsafe {
        Shared { claimed: SharedArray::declare(), expanded: SharedArray::declare(), sums: SharedArray::declare() }
    };
    let kernel = ClusterBfs {
        targets: params.targets,
        distances: params.distances,
        parents: params.parents,
        candidates: if params.parents.is_null() { null_mut() } else { params.candidates },
        trace: params.trace,
        n: params.n as usize,
        trace_capacity: params.trace_capacity,
        source: params.source,
        vertices: ClusterVertices::new(
            params.offsets,
            params.n as usize,
            params.words,
            BFS_CLUSTER_BITMAPS,
            params.lists,
        ),
        shared,
    };
    // SAFETY: forwarded from the caller.
    let levels = unsafe { kernel.run() };
    if kernel.vertices.rank() == 0 && thread_idx() == 0 {
        // SAFETY: `levels` holds one word (the contract).
        unsafe { *params.levels = levels };
    }
}

warpath_interface::bfs_cluster_fields!(warpath_interface::kernel_entry => cluster);
