//! `sssp_cluster`: near-far (Davidson et al. 2014) in one Hopper thread-block cluster, for
//! graphs whose light rounds are small and many (roads, meshes). The issue's "small frontiers
//! on one multiprocessor, or a thread-block cluster sharing distributed shared memory"; the
//! load-balancing paper's node-based distribution (seed 002, section II-A: a thread a queued
//! vertex) with its worklist in shared memory instead of global memory.
//!
//! Why a cluster (bench/NOTES.md entries 99 and 103): a road's round is one hop of its
//! shortest-path tree, a chain of dependent accesses a vertex. Block 0 alone (256 threads)
//! walks several chains a thread one after another; the whole grid pays a grid step's fixed
//! cost (5-8 µs). A cluster of 16 blocks of 1,024 threads gives each vertex of a round its own
//! thread, and `barrier.cluster` (0.3 µs) separates the rounds. The probe of entry 103 took
//! USA-road-d.NY from 11.2 to 6.8 ms this way.
//!
//! The design, round by round:
//! - the worklist is a bitmap (`operators::cluster`, as the cluster BFS's frontiers, NOTES
//!   116): a queued vertex is a bit in its owner block's (`v % 16`) shared memory, set by a
//!   posted `red.shared::cluster.or`. A vertex lowered twice in a round is queued once, nothing
//!   overflows, and a push waits on nothing (NOTES 117: the queue of 16-byte entries it
//!   replaced took a shared atomic and a remote store a push, and spilled);
//! - a round: each thread takes its words of the round's bitmap and relaxes each vertex in
//!   them from its current distance, its list bounds from shared memory where they fit;
//! - what lands beyond the bucket goes to the far pile in global memory, once (a mark per
//!   vertex); each thread keeps the smallest such distance in a register;
//! - each block posts whether it queued anything into every block before the cluster barrier;
//!   when no block did, the cluster splits: the piles' smallest distance opens the next bucket
//!   `[lo, lo + delta)`, and one pass over the pile queues what lies in it, drops what was
//!   settled since, and keeps the rest in the other pile.
//!
//! No division on any path: a distance is compared with the bucket's end. Sources need no
//! special case: the host puts them in the first far pile, and the first split queues them.

use core::ptr::{addr_of, addr_of_mut};

use warpath_interface::cluster::{CLUSTER_BLOCK, CLUSTER_BLOCKS};
use warpath_interface::sssp::{
    flags, packed_distance, packed_word, weight_kind, DeltaControl, SsspClusterParams, DELTA_TRACE_WORDS, NO_TARGET,
    SSSP_CLUSTER_BITMAPS, UNREACHED_DISTANCE,
};

use crate::operators::cluster::ClusterVertices;
use crate::prelude::*;
use crate::sssp::{distance_of, warp_min_u64, WeightReader};

const BLOCKS: usize = CLUSTER_BLOCKS as usize;
/// Edges of a list relaxed together: their loads, then their atomics, then their pushes, so
/// that a thread has four chains in flight.
const EDGES_AT_ONCE: u32 = 4;

/// The block's shared bookkeeping (the worklists are in dynamic shared memory).
#[derive(Clone, Copy)]
struct Shared {
    /// `[parity * BLOCKS + producer]`: whether the producer queued anything into the worklist
    /// of that parity (posted by the producer at the end of the step that filled it).
    queued: SharedArray<u32, { 2 * BLOCKS }>,
    /// At a split: `[0]` the block's smallest far distance, `[1]` its relaxations, `[2]` its
    /// entries relaxed.
    words: SharedArray<u64, 3>,
}

/// What every thread carries from step to step (the same on every thread but the sums).
struct State {
    step: u32,
    /// The far pile that far pushes fill.
    pile: usize,
    /// The current bucket's end (a distance in the kernels' form): what lands below it is
    /// queued, what lands at or beyond it goes to the far pile.
    bucket_end: u64,
    /// The current bucket's index in widths of `delta`, for the trace.
    bucket: u64,
    buckets: u32,
    rounds: u32,
    /// The pile the last split emptied, whose counters are cleared after its cluster barrier.
    emptied: Option<usize>,
    /// This thread's smallest distance pushed to (or kept in) the far pile since the last split.
    far_lo: u64,
    relaxed: u64,
    visited: u64,
    /// Whether this thread queued a vertex this step.
    queued: bool,
}

struct Cluster {
    targets: *const u32,
    reader: WeightReader,
    distances: *mut u64,
    far_marks: *mut u32,
    far: *mut u32,
    control: *mut DeltaControl,
    trace: *mut u64,
    delta: u64,
    limit: u64,
    n: usize,
    trace_capacity: u32,
    target: u32,
    packed: bool,
    float: bool,
    vertices: ClusterVertices,
    shared: Shared,
}

impl Cluster {
    /// The distance a word holds (packed words carry a parent in their low half).
    #[inline(always)]
    fn key(&self, word: u64) -> u64 {
        if self.packed {
            packed_distance(word)
        } else {
            word
        }
    }

    /// The end of the bucket that starts at `lo`, always beyond it.
    #[inline(always)]
    fn bucket_end_from(&self, lo: u64) -> u64 {
        let end = if self.float {
            (f32::from_bits(lo as u32) + f32::from_bits(self.delta as u32)).to_bits() as u64
        } else {
            lo.saturating_add(self.delta)
        };
        end.max(lo + 1)
    }

    /// Queues `v` for the step after `state.step`: its bit in the worklist of that step's
    /// parity.
    ///
    /// # Safety
    /// `v < n`.
    #[inline(always)]
    unsafe fn push(&self, state: &mut State, v: u32) {
        // SAFETY: `v < n`; pushes go only to the next step's worklist, which nobody reads or
        // clears before the barrier.
        unsafe { self.vertices.push((state.step + 1) & 1, v) };
        state.queued = true;
    }

    /// Puts `v`, lowered to `distance` beyond the bucket, in the far pile (once).
    #[inline(always)]
    unsafe fn push_far(&self, state: &mut State, v: u32, distance: u64) {
        state.far_lo = state.far_lo.min(distance);
        // SAFETY: the kernel contract: `far_marks` has `n` words, and the mark keeps a vertex
        // in a pile once.
        unsafe {
            if atomic_exch_u32(self.far_marks.add(v as usize), 1) == 0 {
                self.append_far(state.pile, v);
            }
        }
    }

    /// Appends `v` to far pile `pile`.
    ///
    /// # Safety
    /// `v` is in no pile `pile` holds (its mark), so the pile stays within its `n` entries.
    #[inline(always)]
    unsafe fn append_far(&self, pile: usize, v: u32) {
        // SAFETY: the kernel contract gives `far` two piles of `n`; the caller's, `at < n`.
        unsafe {
            let at = atomic_add_u32(addr_of_mut!((*self.control).far_len[pile]), 1);
            *self.far.add(pile * self.n + at as usize) = v;
        }
    }

    /// Relaxes the edges `begin..end` of `v`, at `v`'s current distance.
    #[inline(always)]
    unsafe fn relax_list(&self, state: &mut State, v: u32, begin: u64, end: u64) {
        // SAFETY (throughout): the kernel contract bounds every index: `v < n`, its list in
        // `targets` and `weights`, every target `< n`.
        let from = self.key(unsafe { distance_of(self.distances, v) });
        state.visited += 1;
        let mut edge = begin;
        while edge < end {
            let count = (end - edge).min(EDGES_AT_ONCE as u64) as u32;
            let mut target = [0u32; EDGES_AT_ONCE as usize];
            let mut weight = [0u32; EDGES_AT_ONCE as usize];
            for j in 0..EDGES_AT_ONCE as usize {
                if (j as u32) < count {
                    unsafe {
                        target[j] = *self.targets.add(edge as usize + j);
                        weight[j] = self.reader.weight(edge + j as u64);
                    }
                }
            }
            let mut candidate = [0u64; EDGES_AT_ONCE as usize];
            let mut old = [0u64; EDGES_AT_ONCE as usize];
            for j in 0..EDGES_AT_ONCE as usize {
                if (j as u32) < count {
                    candidate[j] = self.reader.extend(from, weight[j]);
                    let word = if self.packed { packed_word(candidate[j], v) } else { candidate[j] };
                    old[j] = unsafe { atomic_min_u64(self.distances.add(target[j] as usize), word) };
                }
            }
            for j in 0..EDGES_AT_ONCE as usize {
                if (j as u32) < count {
                    state.relaxed += 1;
                    // A packed word lowered to the same distance changed only its parent: the
                    // vertex's edges would give what they gave.
                    if candidate[j] < self.key(old[j]) {
                        if candidate[j] < state.bucket_end {
                            unsafe { self.push(state, target[j]) };
                        } else {
                            unsafe { self.push_far(state, target[j], candidate[j]) };
                        }
                    }
                }
            }
            edge += count as u64;
        }
    }

    /// Whether any block queued a vertex for this step (what the blocks posted before the
    /// barrier that ended the last one). Every thread reads it for itself.
    #[inline(always)]
    fn any_queued(&self, state: &State) -> bool {
        let lane = lane_id() as usize;
        let parity = (state.step & 1) as usize;
        let queued = lane < BLOCKS && self.shared.queued.get(parity * BLOCKS + lane) != 0;
        ballot_sync(FULL_MASK, queued) != 0
    }

    /// One round: every vertex of this block's words of the step's worklist, relaxed.
    #[inline(always)]
    unsafe fn round(&self, state: &mut State) {
        let current = state.step & 1;
        let mut word = thread_idx();
        while word < self.vertices.words() {
            // SAFETY: the word is this thread's in this block, and pushes go to the other
            // worklist this step.
            let mut bits = unsafe { self.vertices.take(current, word) };
            while bits != 0 {
                let (v, local) = self.vertices.vertex(word, ffs(bits) - 1);
                bits &= bits - 1;
                // SAFETY: only vertices of the graph are queued, all of this block's words.
                unsafe {
                    let (begin, end) = self.vertices.list_of(v, local);
                    self.relax_list(state, v, begin, end);
                }
            }
            word += CLUSTER_BLOCK;
        }
        state.rounds += 1;
    }

    /// The cluster's round is empty: opens the next bucket from the far pile, or returns false
    /// when there is none to open (the pile is empty, or the next bucket starts beyond the
    /// limit, or beyond the target once it is settled).
    #[inline(always)]
    unsafe fn split(&self, state: &mut State) -> bool {
        let sh = &self.shared;
        let c = self.control;
        let lowest = warp_min_u64(state.far_lo);
        let relaxed = warp_sum_u64(state.relaxed);
        let visited = warp_sum_u64(state.visited);
        if lane_id() == 0 {
            sh.words.fetch_min(0, lowest);
            sh.words.fetch_add(1, relaxed);
            sh.words.fetch_add(2, visited);
        }
        state.relaxed = 0;
        state.visited = 0;
        sync_threads();
        let first = self.vertices.rank() == 0 && thread_idx() == 0;
        if thread_idx() == 0 {
            // SAFETY: the control block is valid; these words take atomics only until the
            // cluster barrier below.
            unsafe {
                atomic_min_u64(addr_of_mut!((*c).far_min[state.pile]), sh.words.get(0));
                atomic_add_u64(addr_of_mut!((*c).relaxations), sh.words.get(1));
                atomic_add_u32(addr_of_mut!((*c).settled_len), sh.words.get(2) as u32);
            }
        }
        cluster_sync();
        if thread_idx() == 0 {
            // Read above, before the barrier; the next split adds after barriers of its own.
            sh.words.set(0, UNREACHED_DISTANCE);
            sh.words.set(1, 0);
            sh.words.set(2, 0);
        }
        // SAFETY: complete at the barrier; nobody writes it before the next split's barrier.
        let lo = unsafe { load_acquire_u64(addr_of!((*c).far_min[state.pile])) };
        if first && state.buckets > 0 {
            // SAFETY: as above.
            unsafe { self.record_bucket(state) };
        }
        let target_settled = self.target != NO_TARGET
            // SAFETY: `target < n` (the contract); no distance changes until the next round.
            && self.key(unsafe { distance_of(self.distances, self.target) }) < lo;
        if lo == UNREACHED_DISTANCE || lo > self.limit || target_settled {
            return false;
        }
        let end = self.bucket_end_from(lo);
        state.bucket = self.reader.bucket(lo, self.delta);
        state.buckets += 1;
        state.rounds = 0;
        // SAFETY: as above; the pile's length is final at the barrier.
        let length = unsafe { load_relaxed_u32(addr_of!((*c).far_len[state.pile])) };
        let other = state.pile ^ 1;
        let mut kept_lo = UNREACHED_DISTANCE;
        let threads = CLUSTER_BLOCKS * CLUSTER_BLOCK;
        let mut i = self.vertices.rank() * CLUSTER_BLOCK + thread_idx();
        while i < length {
            // SAFETY: entries below the pile's length hold vertices; the other pile is empty
            // (cleared after the last split) and takes each vertex once (its mark stays set).
            unsafe {
                let v = *self.far.add(state.pile * self.n + i as usize);
                let distance = self.key(distance_of(self.distances, v));
                if distance < end {
                    *self.far_marks.add(v as usize) = 0;
                    if distance >= state.bucket_end {
                        self.push(state, v);
                    }
                } else {
                    self.append_far(other, v);
                    kept_lo = kept_lo.min(distance);
                }
            }
            i += threads;
        }
        state.far_lo = kept_lo;
        state.bucket_end = end;
        state.emptied = Some(state.pile);
        state.pile = other;
        true
    }

    /// Trace record of the bucket just finished (the first thread of the cluster, after the
    /// split's barrier: the totals are complete).
    #[inline(always)]
    unsafe fn record_bucket(&self, state: &State) {
        let index = state.buckets - 1;
        let c = self.control;
        // SAFETY: the control block and the trace obey the kernel contract.
        unsafe {
            let visited = load_relaxed_u32(addr_of!((*c).settled_len));
            (*c).settled_len = 0;
            if index < self.trace_capacity {
                let record = self.trace.add(index as usize * DELTA_TRACE_WORDS);
                *record = state.bucket;
                *record.add(1) = visited as u64;
                *record.add(2) = state.rounds as u64;
                *record.add(3) = load_acquire_u64(addr_of!((*c).relaxations));
                *record.add(4) = global_timer_ns();
                *record.add(7) = 1;
            }
        }
    }

    /// Ends a step: posts whether this block queued anything into every block of the
    /// cluster, then the cluster barrier.
    #[inline(always)]
    unsafe fn post(&self, state: &mut State) {
        let queued = sync_threads_or(state.queued);
        state.queued = false;
        let t = thread_idx();
        if t < CLUSTER_BLOCKS {
            let slot = ((state.step + 1) & 1) as usize * BLOCKS + self.vertices.rank() as usize;
            // SAFETY: this block's own word in block `t`'s array for the next step's parity,
            // which that block reads after the barrier and nobody else writes.
            unsafe { store_cluster_u32(map_shared_rank(self.shared.queued.address_of(slot), t), queued as u32) };
        }
        cluster_sync();
    }

    /// The bucket loop.
    #[inline(always)]
    unsafe fn run(&self) {
        let t = thread_idx();
        let first = self.vertices.rank() == 0 && t == 0;
        let c = self.control;
        // SAFETY: the contract sizes the shared memory for the worklists and lists; no vertex
        // is queued up front (the sources are in the first far pile).
        unsafe { self.vertices.prepare(0, u32::MAX) };
        if t < 2 * BLOCKS as u32 {
            self.shared.queued.set(t as usize, 0);
        }
        if t == 0 {
            self.shared.words.set(0, UNREACHED_DISTANCE);
            self.shared.words.set(1, 0);
            self.shared.words.set(2, 0);
        }
        if first {
            // SAFETY: the control block is valid; the host reads it after the kernel.
            unsafe { core::ptr::write_volatile(addr_of_mut!((*c).started_ns), global_timer_ns()) };
        }
        cluster_sync();
        let mut state = State {
            step: 0,
            pile: 0,
            bucket_end: 0,
            bucket: 0,
            buckets: 0,
            rounds: 0,
            emptied: None,
            far_lo: UNREACHED_DISTANCE,
            relaxed: 0,
            visited: 0,
            queued: false,
        };
        loop {
            if !self.any_queued(&state) {
                // SAFETY (throughout): pointers obey the kernel contract.
                if !unsafe { self.split(&mut state) } {
                    break;
                }
            } else {
                // SAFETY: as above.
                unsafe { self.round(&mut state) };
            }
            // SAFETY: as above.
            unsafe { self.post(&mut state) };
            if let Some(pile) = state.emptied.take() {
                if first {
                    // SAFETY: every block finished reading the pile before the barrier; the
                    // next split fills it only after a barrier of its own.
                    unsafe {
                        core::ptr::write_volatile(addr_of_mut!((*c).far_len[pile]), 0);
                        core::ptr::write_volatile(addr_of_mut!((*c).far_min[pile]), UNREACHED_DISTANCE);
                    }
                }
            }
            state.step += 1;
        }
        if first {
            // SAFETY: as above.
            unsafe {
                (*c).buckets = state.buckets;
                (*c).steps = state.step;
                (*c).trace_records = state.buckets.min(self.trace_capacity);
            }
        }
    }
}

/// `sssp_cluster`: shortest paths from the sources in the first far pile (see the module
/// documentation).
///
/// # Safety
/// Launched as one cluster of `CLUSTER_BLOCKS` blocks of `CLUSTER_BLOCK` threads (the grid
/// being the cluster) with `cluster_shared_bytes(SSSP_CLUSTER_BITMAPS, words, lists)` of
/// dynamic shared memory a block. `offsets` has `n + 1` entries and `targets` (and `weights`,
/// unless the flags say unit weights) `offsets[n]` below 2^32, every target `< n`; `words` is
/// `cluster_words(n)` and `lists` 0 or `ceil(n / 16)`; `distances` holds `n` entries set by
/// `sssp_init`, `marks` `n` words zeroed; `far` holds `2 n` entries, the first `far_len[0]`
/// the sources; `control` is a `DeltaControl` as the parameter list says; `trace` holds
/// `trace_capacity` records; `delta` is positive (an integer, or a finite `f32`'s bits for
/// float weights); `target` is below `n` or `NO_TARGET`.
#[inline(always)]
pub unsafe fn cluster(params: SsspClusterParams) {
    // SAFETY: declared once each, before any control flow.
    let shared = unsafe { Shared { queued: SharedArray::declare(), words: SharedArray::declare() } };
    let kernel = Cluster {
        targets: params.targets,
        reader: WeightReader { kind: weight_kind(params.flags), weights: params.weights },
        distances: params.distances,
        far_marks: params.marks,
        far: params.far,
        control: params.control.cast(),
        trace: params.trace,
        delta: params.delta,
        limit: params.limit,
        n: params.n as usize,
        trace_capacity: params.trace_capacity,
        target: params.target,
        packed: params.flags & flags::PACKED_PARENTS != 0,
        float: weight_kind(params.flags) == flags::WEIGHTS_F32,
        vertices: ClusterVertices::new(
            params.offsets,
            params.n as usize,
            params.words,
            SSSP_CLUSTER_BITMAPS,
            params.lists,
        ),
        shared,
    };
    // SAFETY: forwarded from the caller.
    unsafe { kernel.run() };
}

warpath_interface::sssp_cluster_fields!(warpath_interface::kernel_entry => cluster);
