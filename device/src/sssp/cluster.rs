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
//! - a queued vertex lives on block `v % blocks`, in that block's shared memory, as an entry
//!   that carries its list (first edge and degree), read beside the atomic that lowered it, so
//!   a round's chain starts at the edges; the entry does not carry the distance (the vertex's
//!   current one is read beside the first edges), so a vertex lowered twice in a round is
//!   relaxed twice (bench/NOTES.md 115: carrying it to skip such entries measured slower);
//! - a block pushes an entry with an atomic on its own shared counter for the destination and
//!   a posted store into its own region of the destination's buffer (no remote atomic, nothing
//!   waits on the store); at the round's end it posts its counts into every block, so after
//!   the cluster barrier each block finds its entries and the round's total in its own memory;
//! - what a region cannot hold spills to a queue in global memory, once a vertex a round (a
//!   stamp per vertex), which the whole cluster reads in the next round;
//! - what lands beyond the bucket goes to the far pile in global memory, once (a mark per
//!   vertex); each thread keeps the smallest such distance in a register;
//! - when a round's total is zero, the cluster splits: the piles' smallest distance opens the
//!   next bucket `[lo, lo + delta)`, and one pass over the pile queues what lies in it, drops
//!   what was settled since, and keeps the rest in the other pile.
//!
//! No division on any path: a distance is compared with the bucket's end. Sources need no
//! special case: the host puts them in the first far pile, and the first split queues them.

use core::ptr::{addr_of, addr_of_mut};

use warpath_interface::cluster::{CLUSTER_BLOCK, CLUSTER_BLOCKS};
use warpath_interface::sssp::{
    flags, packed_distance, packed_word, weight_kind, DeltaControl, SsspClusterParams, DELTA_TRACE_WORDS, NO_TARGET,
    SSSP_CLUSTER_ENTRY_BYTES, SSSP_CLUSTER_QUEUE, UNREACHED_DISTANCE,
};

use crate::prelude::*;
use crate::sssp::{distance_of, warp_min_u64, WeightReader};

const BLOCKS: usize = CLUSTER_BLOCKS as usize;
/// Edges of a list relaxed together: their loads, then their atomics, then their pushes, so
/// that a thread has four chains in flight (eight would not fit 64 registers a thread).
const EDGES_AT_ONCE: u32 = 4;

/// The block's shared bookkeeping (the queues are in dynamic shared memory).
#[derive(Clone, Copy)]
struct Shared {
    /// This round's entries for each destination block (local atomics).
    counts: SharedArray<u32, BLOCKS>,
    /// `[buffer * BLOCKS + producer]`: the entries each producer wrote into this block's buffer.
    incoming: SharedArray<u32, { 2 * BLOCKS }>,
    /// `[buffer * BLOCKS + producer]`: the entries each producer wrote in all.
    sent: SharedArray<u32, { 2 * BLOCKS }>,
    /// Exclusive prefix of `incoming` for the buffer being read; `[BLOCKS]` its total.
    prefix: SharedArray<u32, { BLOCKS + 1 }>,
    /// `[0]` the cluster's entries this step (queued and spilled), `[1]` those spilled, `[2]`
    /// the block's smallest far distance, `[3]` its relaxations, `[4]` its entries relaxed.
    words: SharedArray<u64, 5>,
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
}

struct Cluster {
    offsets: *const u64,
    targets: *const u32,
    reader: WeightReader,
    distances: *mut u64,
    far_marks: *mut u32,
    spill_marks: *mut u32,
    spill: *mut u32,
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
    rank: u32,
    blocks: u32,
    /// Entries of one producer's region in a buffer.
    region: u32,
    /// Shared-window address of this block's first buffer.
    queues: u32,
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

    /// Shared-window address of entry `slot` of buffer `buffer` in a block.
    #[inline(always)]
    fn entry_address(&self, buffer: u32, slot: u32) -> u32 {
        self.queues + (buffer * SSSP_CLUSTER_QUEUE + slot) * SSSP_CLUSTER_ENTRY_BYTES
    }

    /// Queues `v` (its list from `begin`, `degree` edges) for the step after `state.step`.
    #[inline(always)]
    unsafe fn push(&self, state: &State, v: u32, begin: u64, degree: u32) {
        let owner = v % self.blocks;
        let slot = self.shared.counts.fetch_add(owner as usize, 1);
        let buffer = (state.step + 1) & 1;
        if slot < self.region {
            let local = self.entry_address(buffer, self.rank * self.region + slot);
            // SAFETY: the address is inside the owner's buffer `buffer`, in this block's region,
            // at a slot this thread alone took; the owner reads it after the cluster barrier.
            unsafe { store_cluster_entry(map_shared_rank(local, owner), v, degree, begin) };
        } else {
            let next = state.step + 1;
            // SAFETY: the kernel contract: `spill_marks` has `n` words, `spill` two queues of
            // `n`, and a vertex enters a step's spill once (its stamp), so the slot is below n.
            unsafe {
                let stamp = next + 1;
                if atomic_exch_u32(self.spill_marks.add(v as usize), stamp) != stamp {
                    let length = addr_of_mut!((*self.control).near_len[(next % 3) as usize]);
                    let at = atomic_add_u32(length, 1);
                    *self.spill.add((next & 1) as usize * self.n + at as usize) = v;
                }
            }
        }
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

    /// `v`'s list: its first edge and its degree.
    ///
    /// # Safety
    /// `v < n`.
    #[inline(always)]
    unsafe fn list_of(&self, v: u32) -> (u64, u32) {
        // SAFETY: `offsets` has `n + 1` entries (the kernel contract).
        let (begin, end) = unsafe { (*self.offsets.add(v as usize), *self.offsets.add(v as usize + 1)) };
        (begin, (end - begin) as u32)
    }

    /// Relaxes the `degree` edges of `v` from `begin`, at `v`'s current distance.
    #[inline(always)]
    unsafe fn relax_list(&self, state: &mut State, v: u32, begin: u64, degree: u32) {
        // SAFETY (throughout): the kernel contract bounds every index: `v < n`, its list in
        // `targets` and `weights`, every target `< n`.
        let from = self.key(unsafe { distance_of(self.distances, v) });
        state.visited += 1;
        let mut done = 0;
        while done < degree {
            let count = (degree - done).min(EDGES_AT_ONCE);
            let mut target = [0u32; EDGES_AT_ONCE as usize];
            let mut weight = [0u32; EDGES_AT_ONCE as usize];
            for j in 0..EDGES_AT_ONCE as usize {
                if (j as u32) < count {
                    let edge = begin + (done as u64) + j as u64;
                    unsafe {
                        target[j] = *self.targets.add(edge as usize);
                        weight[j] = self.reader.weight(edge);
                    }
                }
            }
            let mut candidate = [0u64; EDGES_AT_ONCE as usize];
            let mut list = [0u64; EDGES_AT_ONCE as usize];
            let mut list_end = [0u64; EDGES_AT_ONCE as usize];
            let mut old = [0u64; EDGES_AT_ONCE as usize];
            for j in 0..EDGES_AT_ONCE as usize {
                if (j as u32) < count {
                    let t = target[j] as usize;
                    candidate[j] = self.reader.extend(from, weight[j]);
                    let word = if self.packed { packed_word(candidate[j], v) } else { candidate[j] };
                    unsafe {
                        list[j] = *self.offsets.add(t);
                        list_end[j] = *self.offsets.add(t + 1);
                        old[j] = atomic_min_u64(self.distances.add(t), word);
                    }
                }
            }
            for j in 0..EDGES_AT_ONCE as usize {
                if (j as u32) < count {
                    state.relaxed += 1;
                    // A packed word lowered to the same distance changed only its parent: the
                    // vertex's edges would give what they gave.
                    if candidate[j] < self.key(old[j]) {
                        if candidate[j] < state.bucket_end {
                            unsafe { self.push(state, target[j], list[j], (list_end[j] - list[j]) as u32) };
                        } else {
                            unsafe { self.push_far(state, target[j], candidate[j]) };
                        }
                    }
                }
            }
            done += count;
        }
    }

    /// Reads the counts the producers posted for this step: the block's prefix over regions,
    /// the cluster's total and its spill. Ends with a block barrier.
    #[inline(always)]
    unsafe fn read_counts(&self, state: &State) {
        let t = thread_idx();
        let sh = &self.shared;
        if t < 32 {
            let buffer = (state.step & 1) as usize;
            let mine = t < self.blocks;
            let incoming = if mine { sh.incoming.get(buffer * BLOCKS + t as usize) } else { 0 };
            let sent = if mine { sh.sent.get(buffer * BLOCKS + t as usize) } else { 0 };
            let through = warp_inclusive_scan(incoming);
            let all_sent = warp_inclusive_scan(sent);
            if mine {
                sh.prefix.set(t as usize, through - incoming);
                sh.counts.set(t as usize, 0);
            }
            if t == 31 {
                // SAFETY: the control block is valid; this step's spill count was complete at
                // the cluster barrier that ended the last step.
                let spilled = unsafe {
                    load_relaxed_u32(addr_of!((*self.control).near_len[(state.step % 3) as usize]))
                } as u64;
                sh.prefix.set(BLOCKS, through);
                sh.words.set(0, all_sent as u64 + spilled);
                sh.words.set(1, spilled);
                sh.words.set(2, UNREACHED_DISTANCE);
                sh.words.set(3, 0);
                sh.words.set(4, 0);
            }
        }
        sync_threads();
    }

    /// One round: every entry queued on this block, and this thread's share of the spill.
    #[inline(always)]
    unsafe fn round(&self, state: &mut State) {
        let sh = &self.shared;
        let mine = sh.prefix.get(BLOCKS);
        let buffer = state.step & 1;
        let mut i = thread_idx();
        while i < mine {
            let producer = last_at_most(self.blocks, |b| sh.prefix.get(b as usize) <= i);
            let slot = producer * self.region + (i - sh.prefix.get(producer as usize));
            // SAFETY: `slot` is inside the producer's region, below the count it posted: an
            // entry it wrote before the cluster barrier.
            let (v, degree, begin) = unsafe { load_shared_entry(self.entry_address(buffer, slot)) };
            // SAFETY: entries hold vertices of the graph and their lists.
            unsafe { self.relax_list(state, v, begin, degree) };
            i += CLUSTER_BLOCK;
        }
        let spilled = sh.words.get(1) as u32;
        let threads = self.blocks * CLUSTER_BLOCK;
        let mut i = self.rank * CLUSTER_BLOCK + thread_idx();
        while i < spilled {
            // SAFETY: below this step's spill count, in its queue; the vertex's list bounds.
            unsafe {
                let v = *self.spill.add(buffer as usize * self.n + i as usize);
                let (begin, degree) = self.list_of(v);
                self.relax_list(state, v, begin, degree);
            }
            i += threads;
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
            sh.words.fetch_min(2, lowest);
            sh.words.fetch_add(3, relaxed);
            sh.words.fetch_add(4, visited);
        }
        state.relaxed = 0;
        state.visited = 0;
        sync_threads();
        let first = self.rank == 0 && thread_idx() == 0;
        if thread_idx() == 0 {
            // SAFETY: the control block is valid; these words take atomics only until the
            // cluster barrier below.
            unsafe {
                atomic_min_u64(addr_of_mut!((*c).far_min[state.pile]), sh.words.get(2));
                atomic_add_u64(addr_of_mut!((*c).relaxations), sh.words.get(3));
                atomic_add_u32(addr_of_mut!((*c).settled_len), sh.words.get(4) as u32);
            }
        }
        cluster_sync();
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
        let threads = self.blocks * CLUSTER_BLOCK;
        let mut i = self.rank * CLUSTER_BLOCK + thread_idx();
        while i < length {
            // SAFETY: entries below the pile's length hold vertices; the other pile is empty
            // (cleared after the last split) and takes each vertex once (its mark stays set).
            unsafe {
                let v = *self.far.add(state.pile * self.n + i as usize);
                let distance = self.key(distance_of(self.distances, v));
                if distance < end {
                    *self.far_marks.add(v as usize) = 0;
                    if distance >= state.bucket_end {
                        let (begin, degree) = self.list_of(v);
                        self.push(state, v, begin, degree);
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

    /// Ends a step: posts this block's counts into every block of the cluster, then the
    /// cluster barrier.
    #[inline(always)]
    unsafe fn post(&self, state: &State) {
        sync_threads();
        let t = thread_idx();
        let sh = &self.shared;
        if t < 32 {
            let count = if t < self.blocks { sh.counts.get(t as usize).min(self.region) } else { 0 };
            let all = shfl_idx_sync(FULL_MASK, warp_inclusive_scan(count), 31);
            if t < self.blocks {
                let slot = ((state.step + 1) & 1) as usize * BLOCKS + self.rank as usize;
                // SAFETY: this block's own words in block `t`'s arrays for the next step's
                // buffer, which that block reads after the barrier and nobody else writes.
                unsafe {
                    store_cluster_u32(map_shared_rank(sh.incoming.address_of(slot), t), count);
                    store_cluster_u32(map_shared_rank(sh.sent.address_of(slot), t), all);
                }
            }
        }
        cluster_sync();
    }

    /// The bucket loop.
    #[inline(always)]
    unsafe fn run(&self) {
        let t = thread_idx();
        let first = self.rank == 0 && t == 0;
        let c = self.control;
        if t < 2 * BLOCKS as u32 {
            self.shared.incoming.set(t as usize, 0);
            self.shared.sent.set(t as usize, 0);
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
        };
        loop {
            // SAFETY (throughout): pointers obey the kernel contract.
            unsafe { self.read_counts(&state) };
            if self.shared.words.get(0) == 0 {
                // SAFETY: as above.
                if !unsafe { self.split(&mut state) } {
                    break;
                }
            } else {
                // SAFETY: as above.
                unsafe { self.round(&mut state) };
            }
            if first {
                // SAFETY: as above. Two steps ahead: read in the last step, filled in the next.
                unsafe { core::ptr::write_volatile(addr_of_mut!((*c).near_len[((state.step + 2) % 3) as usize]), 0) };
            }
            // SAFETY: as above.
            unsafe { self.post(&state) };
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
/// Launched as one cluster of blocks of `CLUSTER_BLOCK` threads (at most
/// `CLUSTER_BLOCKS` blocks, the grid being the cluster) with `SSSP_CLUSTER_SHARED_BYTES`
/// of dynamic shared memory a block. `offsets` has `n + 1` entries and `targets` (and
/// `weights`, unless the flags say unit weights) `offsets[n]`, every target `< n`, no list
/// longer than `u32::MAX`; `distances` holds `n` entries set by `sssp_init`, `marks` `2 n`
/// words zeroed; `spill` and `far` hold `2 n` entries, the first `far_len[0]` of `far` the
/// sources; `control` is a `DeltaControl` as the parameter list says; `trace` holds
/// `trace_capacity` records; `delta` is positive (an integer, or a finite `f32`'s bits for
/// float weights); `target` is below `n` or `NO_TARGET`.
#[inline(always)]
pub unsafe fn cluster(params: SsspClusterParams) {
    let n = params.n as usize;
    // At least 1, which the hardware guarantees: spares the division checks a panic path.
    let blocks = cluster_blocks().max(1);
    // SAFETY: declared once each, before any control flow.
    let shared = unsafe {
        Shared {
            counts: SharedArray::declare(),
            incoming: SharedArray::declare(),
            sent: SharedArray::declare(),
            prefix: SharedArray::declare(),
            words: SharedArray::declare(),
        }
    };
    let kernel = Cluster {
        offsets: params.offsets,
        targets: params.targets,
        reader: WeightReader { kind: weight_kind(params.flags), weights: params.weights },
        distances: params.distances,
        far_marks: params.marks,
        // Pointer arithmetic only: the contract gives `marks` 2 n words.
        spill_marks: params.marks.wrapping_add(n),
        spill: params.spill,
        far: params.far,
        control: params.control.cast(),
        trace: params.trace,
        delta: params.delta,
        limit: params.limit,
        n,
        trace_capacity: params.trace_capacity,
        target: params.target,
        packed: params.flags & flags::PACKED_PARENTS != 0,
        float: weight_kind(params.flags) == flags::WEIGHTS_F32,
        rank: cluster_rank(),
        blocks,
        region: SSSP_CLUSTER_QUEUE / blocks,
        queues: dynamic_shared_base(),
        shared,
    };
    // SAFETY: forwarded from the caller.
    unsafe { kernel.run() };
}

warpath_interface::sssp_cluster_fields!(warpath_interface::kernel_entry => cluster);
