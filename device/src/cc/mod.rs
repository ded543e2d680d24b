//! Connected components in one persistent kernel: every phase of Afforest (Sutton, Ben-Nun
//! and Barak, "Optimizing Parallel Graph Connectivity Computation via Subgraph Sampling",
//! IPDPS 2018, as the GAP Benchmark Suite's `cc` runs it; Moschou 2026, section 5) or of
//! Shiloach-Vishkin runs inside a single cooperative launch, separated by grid-wide barriers,
//! so no phase costs a launch.
//!
//! - Labels form a forest: `labels[v]` is `v`'s parent, a root labels itself. Linking two
//!   vertices hooks the higher of their roots under the lower one with a compare-and-swap
//!   on the root (lock-free; Sutton et al.'s link, GAPBS's `Link`), so a root
//!   only ever takes a smaller label: every tree's root is its smallest vertex, and after the
//!   last compression the labels are canonical without a relabeling pass.
//! - Afforest's neighbor rounds: round `r` links every vertex to its `r`-th
//!   in-neighbor (for an undirected graph the in-lists are its lists), then compresses every
//!   path by pointer jumping. With list heads in device memory (zero-copy lists), rounds 0 and
//!   1 read the neighbor there and never cross the bus.
//! - Sampling: block 0 alone reads the labels of `samples` vertices drawn by
//!   SplitMix64, sorts them in shared memory (bitonic) and takes the longest run: the largest
//!   intermediate component, which the final link skips.
//! - The final link: every vertex outside that component links its remaining
//!   in-neighbors (from index `neighbor_rounds` on) and, for a directed graph, every
//!   out-neighbor (weakly connected components, as GAPBS does for directed inputs). Lists are
//!   gathered by scan+warp+CTA (`operators::gather`, Merrill et al. section 4.1) so a
//!   high-degree vertex is shared out over a warp or the whole block; compressed lists are
//!   decoded by the warp or by their thread by length (`operators::gather_compressed`), from
//!   their start (the first `neighbor_rounds` neighbors are linked again, which changes
//!   nothing). A last compression makes every label its root.
//! - Shiloach-Vishkin (flag [`CcFlags::SHILOACH_VISHKIN`], for comparison; Shiloach and
//!   Vishkin 1982 as GAPBS's `ShiloachVishkin`): hooking passes over every out-edge (a root
//!   label takes the smaller label of an edge's other end) and pointer jumping, until a pass
//!   changes nothing.
//!
//! Block 0's thread 0 writes a trace record per phase (its phase and `%globaltimer` at its
//! start); every thread counts the graph bytes it read, summed by warp and block, and added to
//! the record by one atomic a block.

use core::arch::asm;

use crate::operators::gather::{gather_tile, EdgeVisitor, TileScratch, BATCH};
use crate::operators::gather_compressed::{gather_compressed_lists, TargetVisitor};
use crate::prelude::*;
use warpath_interface::cc::{
    CcControl, CcFlags, CcPersistentCompressedParams, CcPersistentParams, TracePhase, CC_BLOCK, CC_TRACE_BYTES,
    CC_TRACE_PHASE, CC_TRACE_TIME, CC_TRACE_WORDS, HEAD_NEIGHBORS, MAX_SAMPLES, NO_COMPONENT,
};

const BLOCK: usize = CC_BLOCK as usize;
const WARPS: usize = BLOCK / WARP_SIZE as usize;
/// Lists of this many edges or more are gathered by a warp (shorter ones by the block's scan).
const WARP_LIST_EDGES: u64 = WARP_SIZE as u64;

/// Writes a `u32` at GPU scope with no ordering (`st.relaxed.gpu`), the store that matches the
/// relaxed loads other threads read labels with.
///
/// # Safety
/// `ptr` is a valid, aligned global-memory address.
#[inline(always)]
unsafe fn store_relaxed_u32(ptr: *mut u32, value: u32) {
    // SAFETY: the caller guarantees `ptr`.
    unsafe {
        asm!("{{ .reg .u64 g; cvta.to.global.u64 g, {p}; st.relaxed.gpu.global.u32 [g], {v}; }}",
            p = in(reg64) ptr, v = in(reg32) value, options(nostack))
    };
}

/// The label forest, `n` words in global memory. Every access is relaxed at GPU scope: other
/// threads rewrite labels throughout a phase, and a stale L1 copy could keep a link's retry
/// loop from seeing the root that moved.
#[derive(Clone, Copy)]
struct Labels(*mut u32);

impl Labels {
    /// # Safety (all methods)
    /// Every vertex passed is below `n`, and so is every label (the forest's invariant).
    #[inline(always)]
    unsafe fn get(self, v: u32) -> u32 {
        // SAFETY: the caller's contract.
        unsafe { load_relaxed_u32(self.0.add(v as usize)) }
    }

    #[inline(always)]
    unsafe fn set(self, v: u32, label: u32) {
        // SAFETY: the caller's contract.
        unsafe { store_relaxed_u32(self.0.add(v as usize), label) }
    }

    /// Joins the trees of `u` and `v`: hooks the higher root under the lower one by a
    /// compare-and-swap on the higher root, retrying from the roots' new parents when another
    /// thread moved it first (Sutton et al.'s link; GAPBS `Link`).
    #[inline(always)]
    unsafe fn link(self, u: u32, v: u32) {
        // SAFETY (of every access): labels are vertices (the caller's contract).
        unsafe {
            let mut p1 = self.get(u);
            let mut p2 = self.get(v);
            while p1 != p2 {
                let (high, low) = if p1 > p2 { (p1, p2) } else { (p2, p1) };
                let p_high = self.get(high);
                if p_high == low {
                    break;
                }
                if p_high == high && atomic_cas_u32(self.0.add(high as usize), high, low) == high {
                    break;
                }
                p1 = self.get(self.get(high));
                p2 = self.get(low);
            }
        }
    }

    /// Shiloach-Vishkin hooking of the edge `u`-`v`: when their labels differ and the higher
    /// one is a root, it takes the lower label. Returns whether it hooked.
    #[inline(always)]
    unsafe fn hook(self, u: u32, v: u32) -> bool {
        // SAFETY (of every access): labels are vertices.
        unsafe {
            let (lu, lv) = (self.get(u), self.get(v));
            if lu == lv {
                return false;
            }
            let (high, low) = if lu > lv { (lu, lv) } else { (lv, lu) };
            if self.get(high) == high {
                self.set(high, low);
                return true;
            }
            false
        }
    }

    /// Pointer jumping: points `v` at its grandparent until it points at a root.
    #[inline(always)]
    unsafe fn compress(self, v: u32) {
        // SAFETY (of every access): labels are vertices.
        unsafe {
            loop {
                let parent = self.get(v);
                let grandparent = self.get(parent);
                if parent == grandparent {
                    break;
                }
                self.set(v, grandparent);
            }
        }
    }
}

/// What a thread read from the graph during a phase, for the trace: bytes of offsets, lists
/// (as stored), degrees and list heads.
#[derive(Clone, Copy, Default)]
struct Reads {
    bytes: u64,
}

/// Links a gathered edge's target to its owner (Afforest), or hooks them (Shiloach-Vishkin,
/// `HOOK`), over plain `u32` lists.
struct LinkEdges<const HOOK: bool> {
    targets: *const u32,
    labels: Labels,
    reads: Reads,
    /// Shiloach-Vishkin: a hook happened.
    changed: bool,
}

impl<const HOOK: bool> LinkEdges<HOOK> {
    /// Joins `owner` and `target`; the caller counts the bytes that gave `target`.
    #[inline(always)]
    unsafe fn join(&mut self, owner: u32, target: u32) {
        // SAFETY: owner and target are vertices (the lists' contract).
        unsafe {
            if HOOK {
                self.changed |= self.labels.hook(owner, target);
            } else {
                self.labels.link(owner, target);
            }
        }
    }
}

impl<const HOOK: bool> EdgeVisitor for LinkEdges<HOOK> {
    type Loaded = [u32; BATCH];

    #[inline(always)]
    unsafe fn visit(&mut self, valid: bool, edge: u64, owner: u32) {
        if valid {
            // SAFETY: a valid edge lies inside a list.
            unsafe {
                let target = load_streaming_u32(self.targets.add(edge as usize));
                self.reads.bytes += 4;
                self.join(owner, target);
            }
        }
    }

    #[inline(always)]
    unsafe fn load(&mut self, edges: [u64; BATCH]) -> [u32; BATCH] {
        // SAFETY: every slot's edge lies inside a list.
        core::array::from_fn(|k| unsafe { load_streaming_u32(self.targets.add(edges[k] as usize)) })
    }

    #[inline(always)]
    unsafe fn visit_loaded(&mut self, valid: [bool; BATCH], loaded: [u32; BATCH], owners: [u32; BATCH]) {
        for k in 0..BATCH {
            if valid[k] {
                self.reads.bytes += 4;
                // SAFETY: the targets were read from the owners' lists.
                unsafe { self.join(owners[k], loaded[k]) };
            }
        }
    }
}

impl<const HOOK: bool> TargetVisitor for LinkEdges<HOOK> {
    #[inline(always)]
    unsafe fn visit_target(&mut self, valid: bool, target: u32, owner: u32) {
        if valid {
            // SAFETY: a decoded neighbor is a vertex; its bytes are counted by the caller.
            unsafe { self.join(owner, target) };
        }
    }
}

/// One direction of the graph as the kernel reads it: offsets counting edges into `u32`
/// targets, or (compressed) bytes into delta-varint lists with the degrees beside them.
#[derive(Clone, Copy)]
struct Lists {
    offsets: *const u64,
    edges: *const u8,
    degrees: *const u32,
}

impl Lists {
    /// `v`'s list: edges (plain) or bytes (compressed).
    #[inline(always)]
    unsafe fn range(&self, v: u32) -> (u64, u64) {
        // SAFETY: `v < n`; offsets hold n + 1 entries.
        unsafe { (*self.offsets.add(v as usize), *self.offsets.add(v as usize + 1)) }
    }
}

/// Everything the phases need, gathered once per thread.
struct Cc<const COMPRESSED: bool> {
    out_lists: Lists,
    in_lists: Lists,
    /// Null, or the first `HEAD_NEIGHBORS` in-neighbors of every vertex in device memory (and,
    /// compressed, the bytes they take).
    in_heads: *const u32,
    in_head_skips: *const u8,
    n: u32,
    labels: Labels,
    control: *mut CcControl,
    trace: *mut u64,
    trace_capacity: u32,
    neighbor_rounds: u32,
    samples: u32,
    seed: u64,
    directed: bool,
    shiloach_vishkin: bool,
}

/// Block-shared arrays, declared once at the kernel's top.
struct Scratch {
    tile: TileScratch<BLOCK>,
    samples: SharedArray<u32, { MAX_SAMPLES as usize }>,
    /// Per-warp sums of the trace's bytes, and the sampling's per-warp maxima and winner.
    sums: SharedArray<u64, WARPS>,
    best: SharedArray<u32, { WARPS + 1 }>,
}

/// The trace record being filled: uniform across the grid, every thread keeps its own copy.
struct Tracer {
    record: u32,
    /// The first phase's record was opened (with the start time of the whole run) before the
    /// labels were initialized, and waits for its phase word.
    first_pending: bool,
}

/// A SplitMix64 output: the `i`-th of the generator seeded with `seed` (the host's
/// `generate::rng::SplitMix64`).
#[inline(always)]
fn splitmix64(seed: u64, i: u32) -> u64 {
    const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut z = seed.wrapping_add(GAMMA.wrapping_mul(i as u64 + 1));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl<const COMPRESSED: bool> Cc<COMPRESSED> {
    /// The whole computation, in every thread of the grid.
    #[inline(always)]
    unsafe fn run(&self) {
        // SAFETY: declared once each, before any control flow.
        let scratch = unsafe {
            Scratch {
                tile: TileScratch::declare(),
                samples: SharedArray::declare(),
                sums: SharedArray::declare(),
                best: SharedArray::declare(),
            }
        };
        // SAFETY: the control block's barrier word is zero at launch and reserved for this.
        let mut barrier = unsafe { GridBarrier::new(core::ptr::addr_of_mut!((*self.control).barrier_arrivals)) };
        let mut tracer = Tracer { record: 0, first_pending: true };
        if is_grid_leader() && self.trace_capacity > 0 {
            // SAFETY: the trace holds `trace_capacity + 1` records.
            unsafe { *self.trace.add(CC_TRACE_TIME) = global_timer_ns() };
        }
        for v in grid_stride(self.n as u64) {
            // SAFETY: `v < n`.
            unsafe { self.labels.set(v as u32, v as u32) };
        }
        barrier.sync();
        // SAFETY: the kernel's contract holds throughout.
        unsafe {
            if self.shiloach_vishkin {
                self.shiloach_vishkin(&scratch, &mut barrier, &mut tracer);
            } else {
                self.afforest(&scratch, &mut barrier, &mut tracer);
            }
            if is_grid_leader() {
                let records = if tracer.first_pending { 0 } else { tracer.record + 1 };
                (*self.control).records = records;
                let end = records.min(self.trace_capacity) as usize * CC_TRACE_WORDS;
                *self.trace.add(end + CC_TRACE_TIME) = global_timer_ns();
            }
        }
    }

    /// Afforest's phases (see the module documentation).
    #[inline(always)]
    unsafe fn afforest(&self, scratch: &Scratch, barrier: &mut GridBarrier, tracer: &mut Tracer) {
        // SAFETY (of everything below): the kernel's contract.
        unsafe {
            for round in 0..self.neighbor_rounds {
                self.open(tracer, TracePhase::NeighborRound(round));
                let mut reads = Reads::default();
                for v in grid_stride(self.n as u64) {
                    let v = v as u32;
                    if let Some(neighbor) = self.neighbor(v, round, &mut reads) {
                        self.labels.link(v, neighbor);
                    }
                }
                barrier.sync();
                self.compress_all();
                self.record(scratch, tracer, reads);
                barrier.sync();
            }
            let mut largest = NO_COMPONENT;
            if self.samples > 0 && self.n > 0 {
                self.open(tracer, TracePhase::Sampling);
                if block_idx() == 0 {
                    self.sample_largest(scratch);
                }
                barrier.sync();
                largest = load_relaxed_u32(core::ptr::addr_of!((*self.control).largest));
            }
            self.open(tracer, TracePhase::FinalLink);
            let mut linker = LinkEdges::<false> {
                targets: core::ptr::null(),
                labels: self.labels,
                reads: Reads::default(),
                changed: false,
            };
            // The in-lists past the rounds' neighbors; for a directed graph the out-lists too.
            self.link_lists(scratch, &self.in_lists, self.neighbor_rounds as u64, largest, &mut linker);
            if self.directed {
                self.link_lists(scratch, &self.out_lists, 0, largest, &mut linker);
            }
            self.record(scratch, tracer, linker.reads);
            barrier.sync();
            self.open(tracer, TracePhase::Compression);
            self.compress_all();
        }
    }

    /// Shiloach-Vishkin: hooking over every out-edge and pointer jumping, pass after pass,
    /// until a pass hooks nothing.
    #[inline(always)]
    unsafe fn shiloach_vishkin(&self, scratch: &Scratch, barrier: &mut GridBarrier, tracer: &mut Tracer) {
        let mut pass = 0u32;
        // SAFETY (of everything below): the kernel's contract.
        unsafe {
            loop {
                self.open(tracer, TracePhase::FinalLink);
                let changed_words = core::ptr::addr_of_mut!((*self.control).changed) as *mut u32;
                if is_grid_leader() {
                    // Nobody reads this word until the next pass has written it (see `CcControl`).
                    store_relaxed_u32(changed_words.add(((pass + 1) % 3) as usize), 0);
                }
                let mut hooker = LinkEdges::<true> {
                    targets: core::ptr::null(),
                    labels: self.labels,
                    reads: Reads::default(),
                    changed: false,
                };
                self.link_lists(scratch, &self.out_lists, 0, NO_COMPONENT, &mut hooker);
                if sync_threads_or(hooker.changed) && thread_idx() == 0 {
                    store_relaxed_u32(changed_words.add((pass % 3) as usize), 1);
                }
                self.record(scratch, tracer, hooker.reads);
                barrier.sync();
                self.open(tracer, TracePhase::Compression);
                self.compress_all();
                barrier.sync();
                let changed = load_relaxed_u32(changed_words.add((pass % 3) as usize));
                pass += 1;
                if changed == 0 {
                    break;
                }
            }
            if is_grid_leader() {
                (*self.control).passes = pass;
            }
        }
    }

    /// Opens the trace record of `phase` (the grid leader writes it).
    #[inline(always)]
    unsafe fn open(&self, tracer: &mut Tracer, phase: TracePhase) {
        if tracer.first_pending {
            tracer.first_pending = false;
        } else {
            tracer.record += 1;
        }
        if is_grid_leader() && tracer.record < self.trace_capacity {
            // SAFETY: the record exists (below the capacity).
            unsafe {
                let record = self.trace.add(tracer.record as usize * CC_TRACE_WORDS);
                *record.add(CC_TRACE_PHASE) = phase.word();
                if tracer.record > 0 {
                    *record.add(CC_TRACE_TIME) = global_timer_ns();
                }
            }
        }
    }

    /// Adds this block's reads to the open record: warp sums, then one atomic a block.
    /// Every thread of the block calls it.
    #[inline(always)]
    unsafe fn record(&self, scratch: &Scratch, tracer: &Tracer, reads: Reads) {
        let bytes = warp_sum_u64(reads.bytes);
        if lane_id() == 0 {
            scratch.sums.set(warp_in_block() as usize, bytes);
        }
        sync_threads();
        if thread_idx() == 0 && tracer.record < self.trace_capacity {
            let mut bytes = 0;
            for w in 0..WARPS {
                bytes += scratch.sums.get(w);
            }
            if bytes > 0 {
                // SAFETY: the record exists (below the capacity).
                unsafe {
                    atomic_add_u64(self.trace.add(tracer.record as usize * CC_TRACE_WORDS + CC_TRACE_BYTES), bytes)
                };
            }
        }
        sync_threads();
    }

    /// Pointer jumping over every vertex.
    #[inline(always)]
    unsafe fn compress_all(&self) {
        for v in grid_stride(self.n as u64) {
            // SAFETY: `v < n`.
            unsafe { self.labels.compress(v as u32) };
        }
    }

    /// `v`'s in-neighbor number `round`, if its in-list has one: from the list heads in device
    /// memory when they hold it, else from the list (decoded from its start, or from after the
    /// heads, when compressed).
    #[inline(always)]
    unsafe fn neighbor(&self, v: u32, round: u32, reads: &mut Reads) -> Option<u32> {
        let heads = !self.in_heads.is_null();
        // SAFETY (of every read): `v < n`, and the arrays hold what the contract says.
        unsafe {
            if heads && (round as usize) < HEAD_NEIGHBORS {
                reads.bytes += 4;
                let neighbor = *self.in_heads.add(HEAD_NEIGHBORS * v as usize + round as usize);
                return (neighbor != UNREACHED).then_some(neighbor);
            }
            if !COMPRESSED {
                let (start, end) = self.in_lists.range(v);
                reads.bytes += 16;
                if start + (round as u64) < end {
                    reads.bytes += 4;
                    return Some(*(self.in_lists.edges as *const u32).add((start + round as u64) as usize));
                }
                return None;
            }
            reads.bytes += 4;
            if round >= *self.in_lists.degrees.add(v as usize) {
                return None;
            }
            let (start, end) = self.in_lists.range(v);
            reads.bytes += 16;
            // With heads, decoding resumes after the bytes they take, from the second head.
            let (from, list_start, skip) = if heads {
                let resume = start + *self.in_head_skips.add(v as usize) as u64;
                let previous = *self.in_heads.add(HEAD_NEIGHBORS * v as usize + HEAD_NEIGHBORS - 1);
                (resume, ListStart { vertex: v, previous, at_list_start: false }, round - HEAD_NEIGHBORS as u32)
            } else {
                (start, ListStart::list(v), round)
            };
            let mut decoder = ThreadDecoder::new(self.in_lists.edges, from, end, list_start);
            let mut neighbor = decoder.next();
            for _ in 0..skip {
                neighbor = decoder.next();
            }
            reads.bytes += decoder.pos - from;
            Some(neighbor)
        }
    }

    /// Links (or hooks) the edges of `lists` from index `skip` on, of every vertex whose label
    /// is not `largest`; every thread of the grid calls it.
    #[inline(always)]
    unsafe fn link_lists<const HOOK: bool>(
        &self,
        scratch: &Scratch,
        lists: &Lists,
        skip: u64,
        largest: u32,
        linker: &mut LinkEdges<HOOK>,
    ) {
        linker.targets = lists.edges as *const u32;
        // SAFETY (of every read): vertices below `n`, lists inside the graph.
        unsafe {
            if COMPRESSED {
                // A warp's lanes hold consecutive vertices; the warp decodes together.
                let mut first = global_idx() - lane_id();
                while first < self.n {
                    let v = first + lane_id();
                    let (mut start, mut end) = (0, 0);
                    if v < self.n && self.labels.get(v) != largest {
                        (start, end) = lists.range(v);
                        linker.reads.bytes += 16 + (end - start);
                    }
                    gather_compressed_lists(lists.edges, v, start, end, linker);
                    first += global_threads();
                }
            } else {
                let tiles = self.n.div_ceil(CC_BLOCK);
                let mut tile = block_idx();
                while tile < tiles {
                    let v = tile * CC_BLOCK + thread_idx();
                    let (mut start, mut end) = (0, 0);
                    if v < self.n && self.labels.get(v) != largest {
                        (start, end) = lists.range(v);
                        linker.reads.bytes += 16;
                        start = (start + skip).min(end);
                    }
                    gather_tile(&scratch.tile, v, start, end, WARP_LIST_EDGES, linker);
                    tile += grid_dim();
                }
            }
        }
    }

    /// Block 0 alone: the most frequent label among `samples` vertices drawn by SplitMix64,
    /// by a bitonic sort in shared memory and the longest run, into the control block.
    #[inline(always)]
    unsafe fn sample_largest(&self, scratch: &Scratch) {
        let tid = thread_idx();
        let count = self.samples.min(MAX_SAMPLES);
        let size = count.next_power_of_two();
        let mut i = tid;
        while i < size {
            let label = if i < count {
                let v = (splitmix64(self.seed, i) % self.n as u64) as u32;
                // SAFETY: `v < n`.
                unsafe { self.labels.get(v) }
            } else {
                NO_COMPONENT
            };
            scratch.samples.set(i as usize, label);
            i += CC_BLOCK;
        }
        sync_threads();
        let mut k = 2;
        while k <= size {
            let mut j = k / 2;
            while j > 0 {
                let mut i = tid;
                while i < size {
                    let partner = i ^ j;
                    if partner > i {
                        let (a, b) = (scratch.samples.get(i as usize), scratch.samples.get(partner as usize));
                        if (a > b) == ((i & k) == 0) {
                            scratch.samples.set(i as usize, b);
                            scratch.samples.set(partner as usize, a);
                        }
                    }
                    i += CC_BLOCK;
                }
                sync_threads();
                j /= 2;
            }
            k *= 2;
        }
        // Every run's first entry measures its run by binary search for its last entry.
        let (mut best_run, mut best_label) = (0u32, NO_COMPONENT);
        let mut i = tid;
        while i < size {
            let label = scratch.samples.get(i as usize);
            if label != NO_COMPONENT && (i == 0 || scratch.samples.get(i as usize - 1) != label) {
                let last = last_at_most(size, |j| scratch.samples.get(j as usize) <= label);
                let run = last - i + 1;
                if run > best_run {
                    (best_run, best_label) = (run, label);
                }
            }
            i += CC_BLOCK;
        }
        let warp_best = warp_max(best_run);
        if lane_id() == 0 {
            scratch.best.set(warp_in_block() as usize, warp_best);
        }
        sync_threads();
        let mut longest = 0;
        for w in 0..WARPS {
            longest = longest.max(scratch.best.get(w));
        }
        if tid == 0 {
            scratch.best.set(WARPS, NO_COMPONENT);
        }
        sync_threads();
        if longest > 0 && best_run == longest {
            // Any one of the tied labels will do.
            scratch.best.exchange(WARPS, best_label);
        }
        sync_threads();
        if tid == 0 {
            // SAFETY: `control` is valid; the grid barrier after this publishes it.
            unsafe { (*self.control).largest = scratch.best.get(WARPS) };
        }
    }
}

/// Connected components of a plain CSR in one cooperative launch of `CC_BLOCK`-thread blocks
/// (Afforest, Sutton et al., IPDPS 2018, and Moschou 2026, section 5; or Shiloach-Vishkin by
/// flag bit 1; see the module documentation).
///
/// # Safety
/// Launched cooperatively (all blocks resident) with `CC_BLOCK` threads per block.
/// `out_*` is the CSR (n + 1 offsets, targets < n), `in_*` its transpose (the same arrays for
/// an undirected graph, or for a directed one without [`CcFlags::DIRECTED`], whose out-lists
/// then stand in for in-lists: the host turns sampling off for it); `labels` holds n words;
/// `control` is zeroed; `trace` holds `CC_TRACE_WORDS * (trace_capacity + 1)` zeroed words;
/// `in_heads` is null or holds `HEAD_NEIGHBORS * n` words (the first in-neighbors of every
/// vertex in list order, `UNREACHED` where the list is shorter).
#[inline(always)]
unsafe fn persistent(params: CcPersistentParams) {
    let plain =
        |offsets: *const u64, targets: *const u32| Lists { offsets, edges: targets.cast(), degrees: core::ptr::null() };
    let cc = Cc::<false> {
        out_lists: plain(params.out_offsets, params.out_targets),
        in_lists: plain(params.in_offsets, params.in_targets),
        in_heads: params.in_heads,
        in_head_skips: params.in_head_skips,
        n: params.n,
        labels: Labels(params.labels),
        control: params.control,
        trace: params.trace,
        trace_capacity: params.trace_capacity,
        neighbor_rounds: params.neighbor_rounds,
        samples: params.samples,
        seed: params.seed,
        directed: params.flags.contains(CcFlags::DIRECTED),
        shiloach_vishkin: params.flags.contains(CcFlags::SHILOACH_VISHKIN),
    };
    // SAFETY: forwarded from this kernel's contract.
    unsafe { cc.run() }
}

/// [`cc_persistent`] over a delta-varint compressed CSR and its transpose (Moschou 2026,
/// section 2.1): `*_offsets` count bytes into `*_bytes`, `*_degrees` hold the n degrees.
///
/// # Safety
/// As for [`cc_persistent`], with the lists in the host's compressed format, both byte arrays
/// 8-byte aligned and padded to a multiple of 8 bytes; `in_head_skips` is null exactly when
/// `in_heads` is, and otherwise holds n bytes (how many bytes of each in-list its heads take).
#[inline(always)]
unsafe fn persistent_compressed(params: CcPersistentCompressedParams) {
    let cc = Cc::<true> {
        out_lists: Lists { offsets: params.out_offsets, edges: params.out_bytes, degrees: params.out_degrees },
        in_lists: Lists { offsets: params.in_offsets, edges: params.in_bytes, degrees: params.in_degrees },
        in_heads: params.in_heads,
        in_head_skips: params.in_head_skips,
        n: params.n,
        labels: Labels(params.labels),
        control: params.control,
        trace: params.trace,
        trace_capacity: params.trace_capacity,
        neighbor_rounds: params.neighbor_rounds,
        samples: params.samples,
        seed: params.seed,
        directed: params.flags.contains(CcFlags::DIRECTED),
        shiloach_vishkin: params.flags.contains(CcFlags::SHILOACH_VISHKIN),
    };
    // SAFETY: forwarded from this kernel's contract.
    unsafe { cc.run() }
}

// The entry points, named and with the parameters of their field lists in the interface crate.
warpath_interface::cc_persistent_fields!(warpath_interface::kernel_entry => persistent);
warpath_interface::cc_persistent_compressed_fields!(warpath_interface::kernel_entry => persistent_compressed);
