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

use warpath_interface::bfs::cluster::{BfsClusterParams, BFS_CLUSTER_BLOCK, BFS_CLUSTER_BLOCKS};
use warpath_interface::bfs::edge_queue::{
    EdgeTraceFlags, EDGE_TRACE_CLAIMED, EDGE_TRACE_FLAGS, EDGE_TRACE_ITEMS, EDGE_TRACE_TIME, EDGE_TRACE_WORDS,
};

use crate::prelude::*;

const BLOCKS: usize = BFS_CLUSTER_BLOCKS as usize;
/// A vertex's owner is its id's low bits; its local index the rest.
const OWNER_MASK: u32 = BFS_CLUSTER_BLOCKS - 1;
const OWNER_SHIFT: u32 = BFS_CLUSTER_BLOCKS.trailing_zeros();
const _: () = assert!(BFS_CLUSTER_BLOCKS.is_power_of_two());
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
    offsets: *const u64,
    targets: *const u32,
    distances: *mut u32,
    /// Null for a distances-only search (then `candidates` is unused).
    parents: *mut u32,
    candidates: *mut u32,
    trace: *mut u64,
    n: usize,
    trace_capacity: u32,
    source: u32,
    rank: u32,
    words: u32,
    /// `log2(words)`.
    word_shift: u32,
    /// List bounds of this block's vertices kept in shared memory (after the bitmaps), or 0:
    /// read from `offsets`.
    lists: u32,
    /// Shared-window address of this block's visited bitmap; the two candidate bitmaps follow.
    visited: u32,
    shared: Shared,
}

impl ClusterBfs {
    /// Shared-window address of word `word` of bitmap `bitmap` (0 visited, 1 + parity the
    /// candidates of a level of that parity) in this block.
    #[inline(always)]
    fn word_address(&self, bitmap: u32, word: u32) -> u32 {
        self.visited + 4 * (bitmap * self.words + word)
    }

    /// Shared-window address of the list bounds of this block's vertex `local`.
    #[inline(always)]
    fn list_address(&self, local: u32) -> u32 {
        self.visited + 4 * 3 * self.words + 8 * local
    }

    /// Copies this block's vertices' list bounds (first edge, degree) into shared memory.
    ///
    /// # Safety
    /// `lists` entries fit the dynamic shared memory after the bitmaps; `offsets` has `n + 1`
    /// entries below 2^32.
    #[inline(always)]
    unsafe fn load_lists(&self) {
        let mut local = thread_idx();
        while local < self.lists {
            let v = (local << OWNER_SHIFT | self.rank) as usize;
            if v < self.n {
                // SAFETY: `v < n`; the entry is inside this block's lists (the contract).
                unsafe {
                    let (begin, end) = (*self.offsets.add(v), *self.offsets.add(v + 1));
                    let at = self.list_address(local);
                    store_shared_u32(at, begin as u32);
                    store_shared_u32(at + 4, (end - begin) as u32);
                }
            }
            local += BFS_CLUSTER_BLOCK;
        }
    }

    /// `v`'s first edge and the end of its list (`local` its index in its owner, this block).
    ///
    /// # Safety
    /// `v < n`.
    #[inline(always)]
    unsafe fn list_of(&self, v: u32, local: u32) -> (u64, u64) {
        if self.lists != 0 {
            let at = self.list_address(local);
            // SAFETY: `local < lists` for a vertex of this block; written before the first
            // barrier and never after.
            let (begin, degree) = unsafe { (load_shared_u32(at), load_shared_u32(at + 4)) };
            (begin as u64, begin as u64 + degree as u64)
        } else {
            // SAFETY: `offsets` has `n + 1` entries (the contract).
            unsafe { (*self.offsets.add(v as usize), *self.offsets.add(v as usize + 1)) }
        }
    }

    /// Labels `v` (this block's vertex `local`), claimed at `level`, and pushes its neighbors
    /// into the next level's candidates; returns its degree.
    ///
    /// # Safety
    /// `v < n`, claimed once, at its distance.
    #[inline(always)]
    unsafe fn expand(&self, v: u32, local: u32, level: u32) -> u32 {
        let parity = (level & 1) as usize;
        let next = 1 + (parity as u32 ^ 1);
        // SAFETY: `v < n` (the caller's contract).
        let (begin, end) = unsafe { self.list_of(v, local) };
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
                    let local = u >> OWNER_SHIFT;
                    let word = self.word_address(next, local & (self.words - 1));
                    // SAFETY: `u < n`, so its local index fits its owner's bitmaps (the host
                    // sized `words` for `n`); only these reductions touch the next level's
                    // candidates before the barrier.
                    unsafe { or_cluster_u32(map_shared_rank(word, u & OWNER_MASK), 1 << (local >> self.word_shift)) };
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
        let current = 1 + (level & 1);
        let (mut claimed, mut expanded) = (0u32, 0u32);
        let mut word = thread_idx();
        while word < self.words {
            let at = self.word_address(current, word);
            // SAFETY: the word is this thread's alone in this block (words go to threads by
            // their index), and remote pushes go to the other candidate bitmap this level.
            let candidates = unsafe { load_shared_u32(at) };
            if candidates != 0 {
                let seen_at = self.word_address(0, word);
                // SAFETY: as above.
                let seen = unsafe {
                    store_shared_u32(at, 0);
                    load_shared_u32(seen_at)
                };
                let mut fresh = candidates & !seen;
                if fresh != 0 {
                    // SAFETY: as above.
                    unsafe { store_shared_u32(seen_at, seen | fresh) };
                }
                while fresh != 0 {
                    let bit = ffs(fresh) - 1;
                    fresh &= fresh - 1;
                    let local = bit << self.word_shift | word;
                    let v = (local << OWNER_SHIFT) | self.rank;
                    claimed += 1;
                    // SAFETY: only vertices of the graph get candidate bits (the source and
                    // targets, all below n); a bit is claimed once (visited).
                    expanded = expanded.wrapping_add(unsafe { self.expand(v, local, level) });
                }
            }
            word += BFS_CLUSTER_BLOCK;
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
        if t < BFS_CLUSTER_BLOCKS {
            let slot = parity * BLOCKS + self.rank as usize;
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
        let leader = self.rank == 0 && t == 0;
        let source_owner = self.source & OWNER_MASK;
        let source_local = self.source >> OWNER_SHIFT;
        // The level-0 candidates hold the source alone; every other bit starts clear.
        let source_word = self.words + (source_local & (self.words - 1));
        let mut word = t;
        while word < 3 * self.words {
            let bits = if self.rank == source_owner && word == source_word {
                1 << (source_local >> self.word_shift)
            } else {
                0
            };
            // SAFETY: inside the block's three bitmaps; no other thread touches this word
            // before the barrier below.
            unsafe { store_shared_u32(self.visited + 4 * word, bits) };
            word += BFS_CLUSTER_BLOCK;
        }
        // SAFETY: the contract sizes the shared memory for `lists`.
        unsafe { self.load_lists() };
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
/// Launched as one cluster of `BFS_CLUSTER_BLOCKS` blocks of `BFS_CLUSTER_BLOCK` threads (the
/// grid being the cluster), with `bfs_cluster_shared_bytes(words, lists)` of dynamic shared
/// memory a block, after `bfs_persistent_init` labeled the source. `offsets` has `n + 1`
/// entries and `targets` `offsets[n]` (below 2^32), every target `< n`; `words` is
/// `bfs_cluster_words(n)` and `lists` 0 or `ceil(n / 16)`; `distances` holds `n` words,
/// `parents` `n` words or is null, and then `candidates` `2 n` words; `levels` one word;
/// `trace` `trace_capacity + 1` records of `EDGE_TRACE_WORDS`; `source < n`.
#[inline(always)]
pub unsafe fn cluster(params: BfsClusterParams) {
    // SAFETY: declared once each, before any control flow.
    let shared = unsafe {
        Shared { claimed: SharedArray::declare(), expanded: SharedArray::declare(), sums: SharedArray::declare() }
    };
    let words = params.words.max(1);
    let kernel = ClusterBfs {
        offsets: params.offsets,
        targets: params.targets,
        distances: params.distances,
        parents: params.parents,
        candidates: if params.parents.is_null() { null_mut() } else { params.candidates },
        trace: params.trace,
        n: params.n as usize,
        trace_capacity: params.trace_capacity,
        source: params.source,
        rank: cluster_rank(),
        words,
        word_shift: words.trailing_zeros(),
        lists: params.lists,
        visited: dynamic_shared_base(),
        shared,
    };
    // SAFETY: forwarded from the caller.
    let levels = unsafe { kernel.run() };
    if kernel.rank == 0 && thread_idx() == 0 {
        // SAFETY: `levels` holds one word (the contract).
        unsafe { *params.levels = levels };
    }
}

warpath_interface::bfs_cluster_fields!(warpath_interface::kernel_entry => cluster);
