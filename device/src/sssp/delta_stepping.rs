//! Delta-stepping (Meyer and Sanders, "Delta-stepping: a parallelizable shortest path
//! algorithm", J. Algorithms 2003, sections 2-3) in one cooperative launch: the loop over
//! buckets never returns to the host, as the persistent BFS's level loop does not.
//!
//! Buckets live on the device as a near queue (the current bucket's vertices to relax this
//! round) and a far pile (everything reached beyond the current bucket), GAPBS's bins folded
//! into two as near-far does (Davidson, Baxter, Garland and Owens, IPDPS 2014, section 4.3).
//! Each step is one of:
//! - a light round: every vertex of the near queue is settled into the bucket's list and its
//!   light edges (`w < delta`) are relaxed; a target that falls into the current bucket joins
//!   the next round's near queue, one further out joins the far pile;
//! - a heavy phase, once the near queue is empty: the heavy edges of the vertices the bucket
//!   settled are relaxed, once each (their distances are final);
//! - a split, once both are done: the far pile's smallest bucket (kept as a lower bound by
//!   every push) becomes the current one; its vertices form the near queue, the others a new
//!   far pile, stale entries (whose distance fell into a bucket already settled) are dropped.
//!
//! Queues hold each vertex at most once: a push claims the vertex's mark for that queue by
//! atomic exchange (the near queue of step `s + 1`, the far pile of split `j + 1`, the settled
//! list of bucket `k`), so every queue fits in `n` entries (a split and a deferred round's
//! pass, the only writers of their queues while they run, each meeting a vertex once, store
//! the marks plainly). Frontier expansion is the
//! operators' scan+warp+CTA gathering (Merrill et al. 2012, section 4.1) over tiles of queue
//! entries; on steps of the whole grid, lists of a block's worth of edges or more (32 or more
//! on a step that gives no block a second tile) are first registered and then shared out to
//! every block in even ranges (`operators::shared_lists`, the persistent BFS's grid-shared
//! long lists, bench/NOTES.md entries 38-39), so a hub's list no longer keeps one block busy
//! while the grid waits. Steps whose queue is small (at most `SMALL_QUEUE` vertices holding at
//! most `SMALL_QUEUE_EDGES` edges) run on block 0 alone, with block barriers, while the rest of
//! the grid waits at the grid barrier (the one-block path of the persistent BFS, after Luo,
//! Wong and Hwu, DAC 2010, section 4); there, where the chain of dependent accesses is a step's
//! time, relaxations and marks go straight to their atomics without a filtering read. With
//! bucket fusion (flag `BUCKET_FUSION`; Zhang, Brahmakshatriya, Chen, Dhulipala, Kamil,
//! Amarasinghe and Shun, "Optimizing Ordered Graph Algorithms with GraphIt", CGO 2020, section
//! 4), block 0's light step alone goes on relaxing the vertices it put back into the current
//! bucket, round after round, with their queue in shared memory and block barriers only, so a
//! round costs one chain of list reads and atomics instead of a step of the loop with its
//! queue in global memory (`fused_light`). Near-far (flag `NEAR_FAR`) is the same loop with
//! every edge relaxed in the rounds and no heavy phase.
//!
//! Deferred queueing (near-far's light rounds of the whole grid over at least `defer_from`
//! vertices): a warp that queues what it lowers waits, edge slot by edge slot, on the chain of
//! the atomic minimum's answer, the mark's read and its exchange whenever any of its 32 lanes
//! lowered a target, which in a big round of a Kronecker graph is nearly every slot. A deferred
//! round relaxes with `red.min` (no answer awaited) and a plain store of the target's queued
//! mark, so a slot's chain is the target's distance read alone; after a grid barrier one pass
//! over every vertex's mark queues the lowered ones where `offer` would have (the two-phase
//! "relax, then filter" of frontier-based GPU SSSP, Davidson et al. IPDPS 2014 section 4, and
//! the load-balancing seed's separate compaction, against the pass's read of `n` marks).

use crate::operators::gather::{gather_tile, EdgeVisitor, TileScratch, BATCH};
use crate::operators::shared_lists::{self, ListWindow, SharedLists, Tally};
use crate::operators::warp_queue::{stage_base, stage_words, WarpQueue};
use crate::prelude::*;
use crate::sssp::{
    append, first_to_mark_filtered, warp_min_u64, DistanceWords, WeightReader, UNREACHED as UNREACHED_DISTANCE,
};
use warpath_interface::sssp::{
    flags, packed_distance, packed_word, weight_kind, DeltaControl, SsspDeltaSteppingParams, SsspRelaxApartParams,
    DELTA_TRACE_WORDS, FUSED_MAX_DEGREE, FUSED_QUEUE, MAX_SPAN, MAX_TAIL_SPAN, NEVER_APART, NO_TARGET,
    SHARED_LIST_EDGES, SHARED_LIST_WORDS, SMALL_QUEUE, SMALL_QUEUE_EDGES, SMALL_STEP_SHARED_LIST_EDGES, SSSP_BLOCK,
};

const BLOCK: usize = SSSP_BLOCK as usize;
/// An adaptive bucket widens while its light rounds hold fewer vertices than this (one a
/// thread of block 0, whose fused rounds cost about the same up to it: bench/NOTES.md 94).
const WIDEN_BELOW: u32 = SSSP_BLOCK;
const FUSED: usize = FUSED_QUEUE as usize;
/// Edges a thread of a fused round reads, then relaxes, at a time: their loads, then their
/// atomics, are in flight together.
const FUSED_EDGES: usize = 4;
/// Low bits of a fused queue entry's list word that hold the list's length (the rest its
/// start): fused lists hold at most `FUSED_MAX_DEGREE` edges.
const LIST_LENGTH_BITS: u32 = 6;
const _: () = assert!(FUSED_MAX_DEGREE < 1 << LIST_LENGTH_BITS);
// The host sizes the shared-list table by the interface's entry size.
const _: () = assert!(SHARED_LIST_WORDS == shared_lists::ENTRY_WORDS);
/// `share_from` of a step that shares no list with the grid.
const NO_SHARING: u64 = u64::MAX;
/// Entries of the asynchronous worklist's ring (see [`Delta::async_light`]): bucket fusion's
/// two round queues, taken as one ring.
const RING: usize = 2 * FUSED;
/// The ring's words: tickets taken by consumers, tickets reserved by producers, and entries
/// queued or being relaxed (the run ends when none is).
const RING_HEAD: usize = 0;
const RING_TAIL: usize = 1;
const RING_PENDING: usize = 2;
/// A warp's claim when the run is over.
const RING_DONE: u32 = u32::MAX;
/// Shared words of the warps' staged appends: the next near queue and a far pile.
const STAGED_WORDS: usize = stage_words(BLOCK / WARP_SIZE as usize, 2);

/// Where the bucket loop stands; every thread holds the same copy.
#[derive(Clone, Copy)]
struct State {
    /// Steps taken: the near-queue slot and area.
    step: u32,
    /// Splits taken: the far pile being filled.
    splits: u32,
    /// Entries of the settled list whose heavy edges are relaxed.
    heavy_done: u32,
    /// Light rounds of the current bucket.
    rounds: u32,
    /// The current bucket's sequence number, from 1 (the settled marks).
    seq: u32,
    /// The settled list's length when the current bucket began.
    settled_at_start: u32,
    /// Runs of steps block 0 took alone (the handoff slot).
    small_runs: u32,
    /// The current bucket's first bucket of the host's width (distance / delta), and how many
    /// of them it spans (1 unless the width adapts: see [`Delta::next_span`]).
    bucket: u64,
    span: u32,
    /// The current bucket's width, `span` times delta (an integer, or an `f32`'s bits): edges
    /// lighter than it are its light edges.
    light: u64,
}

impl State {
    /// Whether bucket `b` (of the host's width) lies in the current bucket, or before it.
    #[inline(always)]
    fn current(&self, b: u64) -> bool {
        b < self.bucket + self.span as u64
    }
}

/// The next step, decided by every thread from the same counters.
#[derive(Clone, Copy)]
enum Step {
    Light { len: u32 },
    Heavy { from: u32, to: u32 },
    Split { len: u32, bucket: u64, span: u32 },
    Done,
}

impl Step {
    fn work(self) -> u32 {
        match self {
            Step::Light { len } | Step::Split { len, .. } => len,
            Step::Heavy { from, to } => to - from,
            Step::Done => 0,
        }
    }
}

/// Block-shared arrays of the bucket loop, declared once at the kernel's top.
struct Scratch {
    /// Scan+warp+CTA gathering's arrays (also lent to the small-step edge count).
    tile: TileScratch<BLOCK>,
    /// Shared-list gathering's window of entries.
    window: ListWindow,
    /// Block 0's copy of the queue counters while it runs steps alone.
    local: LocalCounters,
    /// Bucket fusion's queues.
    fused: FusedQueues,
    /// The warps' staged appends on steps of the grid (see [`Appends`]).
    staged: SharedArray<u32, STAGED_WORDS>,
    /// The asynchronous worklist's marks and words (its entries are `fused`'s).
    ring: AsyncRing,
}

/// The asynchronous worklist's bookkeeping in block 0's shared memory. Entry `t` (its ticket)
/// lives in slot `t % RING` of the fused queues; the slot's mark says whose it is:
/// [`published`] once entry `t` is written, [`taken`] once a consumer read it, so the
/// producer of entry `t + RING` may overwrite it.
struct AsyncRing {
    marks: SharedArray<u32, RING>,
    words: SharedArray<u32, 3>,
}

/// A ring slot's mark once entry `ticket` is written into it.
#[inline(always)]
fn published(ticket: u32) -> u32 {
    ticket.wrapping_mul(2).wrapping_add(2)
}

/// A ring slot's mark once entry `ticket` is read out of it.
#[inline(always)]
fn taken(ticket: u32) -> u32 {
    ticket.wrapping_mul(2).wrapping_add(3)
}

/// Where a fused visit queues the targets it lowers into the current bucket.
#[derive(Clone, Copy)]
enum FusedInto<'a> {
    /// Bucket fusion's round queue `out`.
    Round { queues: &'a FusedQueues, out: usize },
    /// The asynchronous worklist.
    Ring { queues: &'a FusedQueues, ring: &'a AsyncRing },
}

/// A step's appends to the next near queue and to a far pile. On steps of the grid each warp
/// stages them in shared memory and appends 32 at a time (`operators::warp_queue`): a big
/// round queues a vertex or two per warp instruction, and one atomic each on the two counters
/// serialized in L2 (bench/NOTES.md entry 97). Block 0's steps alone bump its shared
/// counters, a few cycles away, directly.
struct Appends<'a> {
    staged: Option<&'a SharedArray<u32, STAGED_WORDS>>,
    near: WarpQueue,
    far: WarpQueue,
}

/// The two lists a step appends to: the next near queue and a far pile, with their counts.
#[derive(Clone, Copy)]
struct Targets {
    near: *mut u32,
    near_count: Count,
    far: *mut u32,
    far_count: Count,
}

impl<'a> Appends<'a> {
    /// Staged where `counters` are the grid's, direct where they are block 0's own.
    #[inline(always)]
    fn new(counters: Counters, scratch: &'a Scratch) -> Appends<'a> {
        let staged = if counters.local.is_none() { Some(&scratch.staged) } else { None };
        Appends { staged, near: WarpQueue::new(), far: WarpQueue::new() }
    }

    /// Appends `v` to the near queue where `to_near` and to the far pile where `to_far`. All
    /// lanes of a warp call it together.
    ///
    /// # Safety
    /// `targets` are lists with room for every vertex appended, counted by `counters`.
    #[inline(always)]
    unsafe fn push(&mut self, counters: Counters, targets: Targets, to_near: bool, to_far: bool, v: u32) {
        // SAFETY (throughout): forwarded from the caller; a warp's stages are its own.
        unsafe {
            match self.staged {
                Some(staged) => {
                    let near = move || (targets.near, counters.global(targets.near_count));
                    self.near.stage(staged, stage_base(0, 2), to_near, v, near);
                    let far = move || (targets.far, counters.global(targets.far_count));
                    self.far.stage(staged, stage_base(1, 2), to_far, v, far);
                }
                None => {
                    counters.append(to_near, v, targets.near, targets.near_count);
                    counters.append(to_far, v, targets.far, targets.far_count);
                }
            }
        }
    }

    /// Appends what the warp still stages, at the end of the step. All lanes call it.
    ///
    /// # Safety
    /// As for [`Appends::push`].
    #[inline(always)]
    unsafe fn flush(&mut self, counters: Counters, targets: Targets) {
        if let Some(staged) = self.staged {
            // SAFETY: forwarded from the caller.
            unsafe {
                self.near.flush(staged, stage_base(0, 2), move || (targets.near, counters.global(targets.near_count)));
                self.far.flush(staged, stage_base(1, 2), move || (targets.far, counters.global(targets.far_count)));
            }
        }
    }
}

/// Bucket fusion's two queues in block 0's shared memory, by round parity: a vertex, the
/// distance it was queued with (an entry whose vertex has a shorter distance since is stale:
/// the later entry relaxes it) and its list (see [`list_word`]), and each queue's length
/// (which may pass [`FUSED_QUEUE`]: what did not fit went to the grid's near queue). The entry
/// carries the list so that a round's chain of dependent accesses begins at the edges: the
/// thread that queues a vertex reads its list's bounds beside the atomic that lowered it
/// (bench/NOTES.md 103 and 105).
struct FusedQueues {
    vertices: SharedArray<u32, { 2 * FUSED }>,
    distances: SharedArray<u64, { 2 * FUSED }>,
    lists: SharedArray<u64, { 2 * FUSED }>,
    lengths: SharedArray<u32, 2>,
}

impl FusedQueues {
    /// Writes entry `at`.
    #[inline(always)]
    fn set(&self, at: usize, v: u32, distance: u64, list: u64) {
        self.vertices.set(at, v);
        self.distances.set(at, distance);
        self.lists.set(at, list);
    }

    /// Entry `at`: its vertex, the distance it was queued with, and its list's bounds.
    #[inline(always)]
    fn get(&self, at: usize) -> (u32, u64, (u64, u64)) {
        let list = self.lists.get(at);
        let start = list >> LIST_LENGTH_BITS;
        (self.vertices.get(at), self.distances.get(at), (start, start + (list & ((1 << LIST_LENGTH_BITS) - 1))))
    }
}

/// A fused list's bounds as one word: its start above its length.
#[inline(always)]
fn list_word((start, end): (u64, u64)) -> u64 {
    start << LIST_LENGTH_BITS | (end - start)
}

/// A queue counter of the control block: a near queue's length (by step slot), the settled
/// list's, or a far pile's (by split slot).
#[derive(Clone, Copy)]
enum Count {
    Near(u32),
    Settled,
    Far(u32),
}

impl Count {
    /// Its element in [`LocalCounters::lengths`].
    #[inline(always)]
    fn index(self) -> usize {
        match self {
            Count::Near(step) => (step % 3) as usize,
            Count::Settled => 3,
            Count::Far(split) => 4 + (split % 3) as usize,
        }
    }
}

/// Block 0's shared copy of the control block's queue counters (`near_len`, `settled_len`,
/// `far_len` by [`Count::index`], and `far_min`) while it runs steps alone: its appends then
/// bump a shared word, an atomic a few cycles away, where the control block's counters are an
/// L2 round trip on every step's chain of dependent accesses, and the next step is decided
/// from them without a global load.
struct LocalCounters {
    lengths: SharedArray<u32, 8>,
    far_min: SharedArray<u64, 3>,
}

/// Where a step's queue counters live: the control block (steps of the whole grid), or block
/// 0's [`LocalCounters`] (steps it runs alone; copied in before the first, written back after
/// the last, with the grid waiting at its barrier throughout).
#[derive(Clone, Copy)]
struct Counters<'s> {
    control: *mut DeltaControl,
    local: Option<&'s LocalCounters>,
}

impl Counters<'_> {
    /// The control block's word of `count`.
    #[inline(always)]
    fn global(&self, count: Count) -> *mut u32 {
        let c = self.control;
        // SAFETY (pointer arithmetic only): the control block is valid.
        unsafe {
            match count {
                Count::Near(step) => addr_of_mut!((*c).near_len[(step % 3) as usize]),
                Count::Settled => addr_of_mut!((*c).settled_len),
                Count::Far(split) => addr_of_mut!((*c).far_len[(split % 3) as usize]),
            }
        }
    }

    /// `count`, complete since the last barrier.
    #[inline(always)]
    unsafe fn read(&self, count: Count) -> u32 {
        match self.local {
            Some(local) => local.lengths.get(count.index()),
            // SAFETY: the control block obeys the kernel contract; read at GPU scope.
            None => unsafe { load_relaxed_u32(self.global(count)) },
        }
    }

    /// Appends `v` to `list` where `want`, counted by `count`, one atomic per warp. All lanes
    /// of a warp call it together.
    ///
    /// # Safety
    /// `list` has room for every vertex appended.
    #[inline(always)]
    unsafe fn append(&self, want: bool, v: u32, list: *mut u32, count: Count) {
        let Some(local) = self.local else {
            // SAFETY: forwarded from the caller; the control block obeys the kernel contract.
            unsafe { append(want, v, list, self.global(count)) };
            return;
        };
        let wanting = ballot_sync(FULL_MASK, want);
        if wanting == 0 {
            return;
        }
        let leader = ffs(wanting) - 1;
        let mut base = 0;
        if lane_id() == leader {
            base = local.lengths.fetch_add(count.index(), popc(wanting));
        }
        let base = shfl_idx_sync(FULL_MASK, base, leader);
        if want {
            // SAFETY: forwarded from the caller.
            unsafe { *list.add((base + popc(wanting & lanemask_lt())) as usize) = v };
        }
    }

    /// Appends `v` to `list`, counted by `count`, from one thread alone (bucket fusion's
    /// rounds, whose threads walk lists of different lengths).
    ///
    /// # Safety
    /// `list` has room for every vertex appended.
    #[inline(always)]
    unsafe fn append_one(&self, v: u32, list: *mut u32, count: Count) {
        let slot = match self.local {
            Some(local) => local.lengths.fetch_add(count.index(), 1),
            // SAFETY: the control block obeys the kernel contract.
            None => unsafe { atomic_add_u32(self.global(count), 1) },
        };
        // SAFETY: forwarded from the caller.
        unsafe { *list.add(slot as usize) = v };
    }

    /// Sets `count` to zero (the step's leader, on a slot nobody touches during the step).
    #[inline(always)]
    unsafe fn clear(&self, count: Count) {
        match self.local {
            Some(local) => local.lengths.set(count.index(), 0),
            // SAFETY: the control block obeys the kernel contract.
            None => unsafe { core::ptr::write_volatile(self.global(count), 0) },
        }
    }

    /// The smallest bucket pushed into far pile `split` since it was cleared.
    #[inline(always)]
    unsafe fn far_min(&self, split: u32) -> u64 {
        let slot = (split % 3) as usize;
        match self.local {
            Some(local) => local.far_min.get(slot),
            // SAFETY: the control block obeys the kernel contract; read at GPU scope.
            None => unsafe { load_acquire_u64(addr_of!((*self.control).far_min[slot])) },
        }
    }

    /// Whether `bucket` may lower far pile `split`'s smallest bucket: on steps of the grid its
    /// word is read first (from L2), so the warps that push into a bucket already noted (most,
    /// once the pile's smallest is the next bucket) spare the one hot word their atomics.
    /// During a step the word only falls, so a read that shows it at `bucket` or below is
    /// final.
    #[inline(always)]
    unsafe fn lowers_far_min(&self, split: u32, bucket: u64) -> bool {
        let slot = (split % 3) as usize;
        // SAFETY: the control block obeys the kernel contract.
        self.local.is_some() || bucket < unsafe { core::ptr::read_volatile(addr_of!((*self.control).far_min[slot])) }
    }

    /// Lowers far pile `split`'s smallest bucket to `bucket`.
    #[inline(always)]
    unsafe fn lower_far_min(&self, split: u32, bucket: u64) {
        let slot = (split % 3) as usize;
        match self.local {
            Some(local) => {
                local.far_min.fetch_min(slot, bucket);
            }
            // SAFETY: the control block obeys the kernel contract.
            None => unsafe {
                atomic_min_u64(addr_of_mut!((*self.control).far_min[slot]), bucket);
            },
        }
    }

    /// Empties far pile `split`'s counters (the step's leader, two splits ahead).
    #[inline(always)]
    unsafe fn clear_far(&self, split: u32) {
        let slot = (split % 3) as usize;
        // SAFETY: forwarded; the control block obeys the kernel contract.
        unsafe {
            self.clear(Count::Far(split));
            match self.local {
                Some(local) => local.far_min.set(slot, u64::MAX),
                None => core::ptr::write_volatile(addr_of_mut!((*self.control).far_min[slot]), u64::MAX),
            }
        }
    }
}

impl LocalCounters {
    /// Thread 0 of block 0 copies the control block's counters in, after the grid barrier
    /// that opens a run alone (a block barrier must follow before anyone reads them).
    #[inline(always)]
    unsafe fn copy_in(&self, control: *mut DeltaControl) {
        let grid = Counters { control, local: None };
        // SAFETY: the control block obeys the kernel contract.
        unsafe {
            for k in 0..3u32 {
                self.lengths.set(Count::Near(k).index(), grid.read(Count::Near(k)));
                self.lengths.set(Count::Far(k).index(), grid.read(Count::Far(k)));
                self.far_min.set(k as usize, grid.far_min(k));
            }
            self.lengths.set(Count::Settled.index(), grid.read(Count::Settled));
        }
    }

    /// Thread 0 of block 0 writes the counters back, after the run's last block barrier and
    /// before the grid barrier that hands the loop back.
    #[inline(always)]
    unsafe fn copy_out(&self, control: *mut DeltaControl) {
        let grid = Counters { control, local: None };
        // SAFETY: the control block obeys the kernel contract.
        unsafe {
            for k in 0..3u32 {
                core::ptr::write_volatile(grid.global(Count::Near(k)), self.lengths.get(Count::Near(k).index()));
                core::ptr::write_volatile(grid.global(Count::Far(k)), self.lengths.get(Count::Far(k).index()));
                core::ptr::write_volatile(addr_of_mut!((*control).far_min[k as usize]), self.far_min.get(k as usize));
            }
            core::ptr::write_volatile(grid.global(Count::Settled), self.lengths.get(Count::Settled.index()));
        }
    }
}

/// Which edges a visit relaxes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Edges {
    Light,
    Heavy,
    All,
}

/// Runs `$body` with `$k` bound to each of a fused round's [`FUSED_EDGES`] slots, in
/// straight-line code: a loop LLVM leaves rolled (around a queue's appends) indexes the
/// round's arrays and so keeps them in local memory, whose stores wait for their loads.
macro_rules! for_each_fused_slot {
    (|$k:ident| $body:block) => {{
        const _: () = assert!(FUSED_EDGES == 4, "for_each_fused_slot names each slot");
        {
            let $k = 0usize;
            $body
        }
        {
            let $k = 1usize;
            $body
        }
        {
            let $k = 2usize;
            $body
        }
        {
            let $k = 3usize;
            $body
        }
    }};
}

/// Runs `$body` with `$i` and `$valid` on every thread of the `$blocks` blocks (this one being
/// `$rank`) for entries `0..$len`, one entry a thread a tile of `$tile` entries (a block's worth
/// unless given; `$valid` false past the end and on threads past the tile): whole blocks take
/// every tile together. A macro rather than a closure, which LLVM kept as a call with the
/// kernel's state in local memory.
macro_rules! for_tiles {
    ($len:expr, $blocks:expr, $rank:expr, |$i:ident, $valid:ident| $body:block) => {
        for_tiles!($len, $blocks, $rank, SSSP_BLOCK, |$i, $valid| $body)
    };
    ($len:expr, $blocks:expr, $rank:expr, $tile:expr, |$i:ident, $valid:ident| $body:block) => {{
        let len: u32 = $len;
        let tile: u32 = $tile;
        let tiles = len.div_ceil(tile);
        let mut t = $rank;
        while t < tiles {
            let $i = t * tile + thread_idx();
            let $valid = thread_idx() < tile && $i < len;
            $body
            t += $blocks;
        }
    }};
}

/// Queue entries a block takes at once in a step of `len` entries on `blocks` blocks: a block's
/// worth where the step gives every block a tile, else as few as spread the step over every
/// block, down to a warp's. A mid-sized step (a mesh's wavefront, a bucket's later rounds) then
/// keeps every block busy, each with a short chain of gathering rounds, instead of a few blocks
/// with long ones while the rest wait at the grid barrier; the gathering packs a tile's edges over
/// all the block's threads either way (the persistent BFS shrinks its tiles by degree alike,
/// `bfs::persistent::top_down`).
#[inline(always)]
fn spread_tile(len: u32, blocks: u32) -> u32 {
    let per_block = len.div_ceil(blocks.max(1));
    if per_block >= SSSP_BLOCK {
        SSSP_BLOCK
    } else {
        per_block.div_ceil(WARP_SIZE).max(1) * WARP_SIZE
    }
}

/// The shortest list a warp gathers alone in a step of `len` queue entries on `blocks` blocks.
/// Warp enlistment pays where blocks take many tiles; where none takes a second one, the
/// block-wide scan packs lists of fewer than BLOCK edges over all its threads instead (the
/// persistent BFS's rule, bench/NOTES.md entry 38). On big steps it takes lists of two warps'
/// worth or more: a list of 32 to 63 edges, a uniform graph's typical one, fills a warp's step of
/// `BATCH * 32` slots only half, where the scan packs it (NOTES 122).
#[inline(always)]
fn warp_list_edges(len: u32, blocks: u32) -> u64 {
    if len.div_ceil(SSSP_BLOCK) <= blocks {
        BLOCK as u64
    } else {
        BATCH as u64 * WARP_SIZE as u64
    }
}

struct Delta {
    offsets: *const u64,
    targets: *const u32,
    reader: WeightReader,
    distances: DistanceWords,
    /// Marks: queued (`n`), settled (`n`), far (`n`).
    queued: *mut u32,
    settled_marks: *mut u32,
    far_marks: *mut u32,
    near: *mut u32,
    settled: *mut u32,
    far: *mut u32,
    control: *mut DeltaControl,
    trace: *mut u64,
    shared_lists: *mut u64,
    delta: u64,
    n: u32,
    trace_capacity: u32,
    shared_list_capacity: u32,
    max_degree: u32,
    /// The vertex whose settling ends the run (`NO_TARGET`: none), and the distance beyond
    /// which nothing is settled (`UNREACHED_DISTANCE`: none), for `decide`.
    target: u32,
    limit: u64,
    near_far: bool,
    all_heavy: bool,
    small_path: bool,
    bucket_fusion: bool,
    /// Delta-stepping's bucket width adapts (see [`Delta::next_span`]); never with near-far
    /// (which settles no list to count) or all-heavy edges (whose light rounds read no lists).
    adaptive_delta: bool,
    /// Distance words hold the parent too (`flags::PACKED_PARENTS`): see [`Delta::candidate`].
    packed: bool,
    /// Bucket fusion runs as an asynchronous worklist (`flags::ASYNC_FUSION`).
    async_fusion: bool,
    /// Near-far's light rounds of the grid over at least this many vertices defer their
    /// queueing (see the module documentation).
    defer_from: u32,
    /// Deferred rounds over at least this many vertices run their relaxations apart (see
    /// [`apart`]).
    apart_from: u32,
    /// This launch resumes a run stopped before a round apart (`flags::RESUME`).
    resume: bool,
    /// How many times wider than the one before a near-far bucket in the tail spans, and the
    /// widest it grows (see [`Delta::near_far_span`]).
    tail_growth: u32,
    max_tail_span: u32,
}

/// The visitor of a light round or heavy phase: relaxes the chosen edges and queues the
/// targets it lowers.
struct Relaxer<'a> {
    delta: &'a Delta,
    edges: Edges,
    state: State,
    relaxations: u32,
    /// Where the step's counters live (block 0's shared copy when it runs the step alone).
    counters: Counters<'a>,
    /// The step's appends: the next near queue and the far pile being filled.
    appends: Appends<'a>,
    /// A deferred round (see the module documentation): relaxations leave marks, not appends.
    deferred: bool,
    /// The mark a deferred round stores on what it lowers: the next step's queued mark.
    lowered_mark: u32,
}

impl Relaxer<'_> {
    /// Whether to relax an edge of `weight`.
    #[inline(always)]
    fn takes(&self, weight: u32) -> bool {
        match self.edges {
            Edges::All => true,
            Edges::Light => self.delta.reader.is_light(weight, self.state.light),
            Edges::Heavy => !self.delta.reader.is_light(weight, self.state.light),
        }
    }

    /// The distance of `owner`, whose list the step relaxes: through L1 on steps of the grid
    /// (the owners of a tile's edges repeat), from L2 on block 0's steps alone.
    ///
    /// # Safety
    /// `owner < n`.
    #[inline(always)]
    unsafe fn owner_distance(&self, owner: u32) -> u64 {
        let d = self.delta;
        // SAFETY: forwarded from the caller.
        unsafe {
            match self.counters.local {
                None => d.distances.in_grid_step(owner),
                Some(_) => d.distances.of(owner),
            }
        }
    }

    /// Relaxes slot `k` of a loaded batch. The other rounds read an owner's word here, slot by
    /// slot: reading both slots' first, as the deferred rounds do, did not pay on any graph
    /// measured (bench/NOTES.md 127).
    ///
    /// # Safety
    /// As for `visit_loaded`.
    #[inline(always)]
    unsafe fn visit_slot(&mut self, valid: bool, target: u32, weight: u32, owner: u32) {
        let want = valid && self.takes(weight);
        let mut candidate = 0;
        if want {
            // SAFETY: `owner < n`.
            candidate = self.delta.candidate(unsafe { self.owner_distance(owner) }, weight, owner);
            self.relaxations += 1;
        }
        // SAFETY: the target of a valid edge.
        unsafe { self.offer(want, target, candidate) };
    }

    /// Offers `candidate` to `v` where `want`: a lowered `v` joins the next round's near queue
    /// when it falls into the current bucket, else the far pile. The distance and the marks
    /// are read before their atomics on steps of the grid, not alone (see `relax_filtered`).
    /// All lanes call it. Deferred rounds lower by [`Self::lower_deferred`] instead.
    ///
    /// # Safety
    /// `v < n` where `want`.
    #[inline(always)]
    unsafe fn offer(&mut self, want: bool, v: u32, candidate: u64) {
        let (d, state, counters) = (self.delta, &self.state, self.counters);
        let read_first = counters.local.is_none();
        // SAFETY: `v < n` where `want`; the control block and queues obey the kernel contract.
        unsafe {
            let lowered = want && d.relaxes(v, candidate, read_first);
            let bucket = if lowered { d.reader.bucket(d.distance(candidate), d.delta) } else { u64::MAX };
            let to_near =
                lowered && state.current(bucket) && first_to_mark_filtered(d.queued, v, state.step + 1, read_first);
            let to_far = lowered && !state.current(bucket);
            let far_new = to_far && first_to_mark_filtered(d.far_marks, v, state.splits + 1, read_first);
            d.note_far_bucket(counters, to_far, bucket, state.splits);
            self.appends.push(counters, d.relaxed_into(state), to_near, far_new, v);
        }
    }
}

impl EdgeVisitor for Relaxer<'_> {
    type Loaded = ([u32; BATCH], [u32; BATCH]);

    #[inline(always)]
    unsafe fn visit(&mut self, valid: bool, edge: u64, owner: u32) {
        let d = self.delta;
        let (mut want, mut v, mut weight, mut owner_word, mut old) = (false, 0, 0, 0, 0);
        if valid {
            // SAFETY: a valid edge lies in `owner`'s list.
            weight = unsafe { d.reader.weight(edge) };
            if self.takes(weight) {
                want = true;
                // SAFETY: as above; `owner < n`. A deferred round reads the target's word
                // before the owner's is used, as `visit_loaded` does.
                unsafe {
                    v = *d.targets.add(edge as usize);
                    owner_word = self.owner_distance(owner);
                    if self.deferred {
                        old = d.distances.in_grid_step(v);
                    }
                }
                self.relaxations += 1;
            }
        }
        let candidate = if want { d.candidate(owner_word, weight, owner) } else { 0 };
        // SAFETY: `v` is a target where `want`.
        unsafe {
            if self.deferred {
                d.lower_deferred(want, v, old, candidate, self.lowered_mark);
            } else {
                self.offer(want, v, candidate);
            }
        }
    }

    #[inline(always)]
    unsafe fn load(&mut self, edges: [u64; BATCH]) -> Self::Loaded {
        // SAFETY: forwarded from the caller.
        unsafe { self.delta.load_edges(edges) }
    }

    #[inline(always)]
    unsafe fn visit_loaded(&mut self, valid: [bool; BATCH], loaded: Self::Loaded, owners: [u32; BATCH]) {
        // Slot by slot in straight-line code: a loop over the slots, which LLVM leaves rolled
        // around `offer`'s warp votes, indexes the batch's arrays and so keeps them in local
        // memory.
        const _: () = assert!(BATCH == 2, "visit_loaded names each slot");
        if self.deferred {
            // A deferred round is a step of the grid: the owners' words come through L1.
            let want = [valid[0] && self.takes(loaded.1[0]), valid[1] && self.takes(loaded.1[1])];
            // SAFETY: forwarded from the caller.
            self.relaxations += unsafe { self.delta.relax_deferred_batch(want, loaded, owners, self.lowered_mark) };
            return;
        }
        // SAFETY (both): forwarded from the caller.
        unsafe {
            self.visit_slot(valid[0], loaded.0[0], loaded.1[0], owners[0]);
            self.visit_slot(valid[1], loaded.0[1], loaded.1[1], owners[1]);
        }
    }
}

impl Delta {
    #[inline(always)]
    fn new(params: SsspDeltaSteppingParams, narrow: bool) -> Delta {
        let flag_word = params.flags;
        let n = params.n as usize;
        Delta {
            offsets: params.offsets,
            targets: params.targets,
            reader: WeightReader { kind: weight_kind(flag_word), weights: params.weights },
            distances: DistanceWords { words: params.distances, narrow },
            queued: params.marks,
            // SAFETY (pointer arithmetic only): the kernel contract gives `marks` 3 n words.
            settled_marks: params.marks.wrapping_add(n),
            far_marks: params.marks.wrapping_add(2 * n),
            near: params.near,
            settled: params.settled,
            far: params.far,
            control: params.control.cast(),
            trace: params.trace,
            shared_lists: params.shared_lists,
            delta: params.delta,
            n: params.n,
            trace_capacity: params.trace_capacity,
            shared_list_capacity: params.shared_list_capacity,
            max_degree: params.max_degree,
            target: params.target,
            limit: params.limit,
            near_far: flag_word & flags::NEAR_FAR != 0,
            all_heavy: flag_word & flags::ALL_HEAVY != 0,
            small_path: flag_word & flags::SMALL_PATH != 0,
            bucket_fusion: flag_word & flags::BUCKET_FUSION != 0,
            adaptive_delta: flag_word & flags::ADAPTIVE_DELTA != 0 && flag_word & flags::ALL_HEAVY == 0,
            packed: flag_word & flags::PACKED_PARENTS != 0,
            async_fusion: flag_word & flags::ASYNC_FUSION != 0,
            defer_from: params.defer_from,
            apart_from: params.apart_from,
            resume: flag_word & flags::RESUME != 0,
            tail_growth: params.tail_growth.max(2),
            max_tail_span: if params.tail_growth > 2 { MAX_TAIL_SPAN } else { MAX_SPAN },
        }
    }

    /// The near queue area of step `step`.
    fn near_area(&self, step: u32) -> *mut u32 {
        self.near.wrapping_add((step % 2) as usize * self.n as usize)
    }

    /// The far pile area filled before split `split`.
    fn far_area(&self, split: u32) -> *mut u32 {
        self.far.wrapping_add((split % 2) as usize * self.n as usize)
    }

    /// The distance a distance word holds (the word itself unless packed).
    #[inline(always)]
    fn distance(&self, word: u64) -> u64 {
        if self.packed {
            packed_distance(word)
        } else {
            word
        }
    }

    /// What `owner`, whose word is `owner_word` (reached), offers along an edge of `weight`:
    /// the sum, and with packed parents the owner beside it, so that the atomic minimum that
    /// keeps the shortest distance keeps a vertex it came from (a tight edge: the owner's
    /// distance was final when the sum matched the final one, since no distance falls below
    /// its final value).
    #[inline(always)]
    fn candidate(&self, owner_word: u64, weight: u32, owner: u32) -> u64 {
        if self.packed {
            packed_word(self.reader.extend(owner_word >> 32, weight), owner)
        } else {
            self.reader.extend(owner_word, weight)
        }
    }

    /// Whether an atomic minimum that found `old` lowered the distance to `candidate`'s (with
    /// packed parents, a word that only changed its parent is not lowered: queued already).
    #[inline(always)]
    fn lowered(&self, old: u64, candidate: u64) -> bool {
        if self.packed {
            old >> 32 > candidate >> 32
        } else {
            old > candidate
        }
    }

    /// The targets and weights of a batch of edges.
    ///
    /// # Safety
    /// Every edge lies in a list of the graph.
    #[inline(always)]
    unsafe fn load_edges(&self, edges: [u64; BATCH]) -> ([u32; BATCH], [u32; BATCH]) {
        // SAFETY: forwarded from the caller.
        unsafe {
            (
                core::array::from_fn(|k| *self.targets.add(edges[k] as usize)),
                core::array::from_fn(|k| self.reader.weight(edges[k])),
            )
        }
    }

    /// A deferred round's relaxation of `v`, whose word was read as `old` (at most the word
    /// the step began with, so a candidate below it lowers the distance, by this atomic or a
    /// smaller one): the minimum without awaiting its answer, and `lowered_mark`, the mark the
    /// round's pass over the marks looks for. No warp vote: lanes need not call it together.
    ///
    /// # Safety
    /// `v < n` where `want`.
    #[inline(always)]
    unsafe fn lower_deferred(&self, want: bool, v: u32, old: u64, candidate: u64, lowered_mark: u32) {
        if want && self.lowered(old, candidate) {
            // SAFETY: `v < n`; the marks hold `n` queued words. Every writer of the mark
            // during the step stores the same value.
            unsafe {
                self.distances.reduce_min(v, candidate);
                *self.queued.add(v as usize) = lowered_mark;
            }
        }
    }

    /// A deferred round's batch of edges (targets and weights `loaded`, of `owners`), slot `k`
    /// relaxed where `want[k]`; returns the relaxations. Every word the batch needs, both
    /// owners' and both targets', is read before any is used, so the four reads are in flight
    /// together: a candidate summed between them waits for its owner's word and holds the reads
    /// after it back (the compiler keeps these loads in program order), a chain of three waits
    /// a batch where one will do (bench/NOTES.md 127).
    ///
    /// # Safety
    /// `owners[k] < n` and `loaded.0[k]` the target of an edge of theirs where `want[k]`.
    #[inline(always)]
    unsafe fn relax_deferred_batch(
        &self,
        want: [bool; BATCH],
        loaded: ([u32; BATCH], [u32; BATCH]),
        owners: [u32; BATCH],
        lowered_mark: u32,
    ) -> u32 {
        const _: () = assert!(BATCH == 2, "relax_deferred_batch reads each slot's words in turn");
        let mut owner_words = [0u64; BATCH];
        let mut old = [0u64; BATCH];
        for k in 0..BATCH {
            if want[k] {
                // SAFETY: forwarded from the caller.
                unsafe {
                    owner_words[k] = self.distances.in_grid_step(owners[k]);
                    old[k] = self.distances.in_grid_step(loaded.0[k]);
                }
            }
        }
        let mut relaxed = 0;
        for k in 0..BATCH {
            if want[k] {
                let candidate = self.candidate(owner_words[k], loaded.1[k], owners[k]);
                relaxed += 1;
                // SAFETY: forwarded from the caller.
                unsafe { self.lower_deferred(true, loaded.0[k], old[k], candidate, lowered_mark) };
            }
        }
        relaxed
    }

    /// Offers `candidate` to `v`'s word, reading it first only when `read_first` (see
    /// `relax_filtered`); true when the distance fell.
    ///
    /// # Safety
    /// `v < n`.
    #[inline(always)]
    unsafe fn relaxes(&self, v: u32, candidate: u64, read_first: bool) -> bool {
        if !self.packed {
            // SAFETY: forwarded from the caller.
            return unsafe { self.distances.relax_filtered(v, candidate, read_first) };
        }
        // SAFETY: forwarded from the caller; the distances hold `n` words.
        unsafe {
            let at = self.distances.words.add(v as usize);
            (!read_first || candidate >> 32 < *at >> 32) && self.lowered(atomic_min_u64(at, candidate), candidate)
        }
    }

    /// Where a light round or heavy phase queues what it lowers: the next step's near queue
    /// and the far pile being filled.
    #[inline(always)]
    fn relaxed_into(&self, state: &State) -> Targets {
        Targets {
            near: self.near_area(state.step + 1),
            near_count: Count::Near(state.step + 1),
            far: self.far_area(state.splits),
            far_count: Count::Far(state.splits),
        }
    }

    /// Lowers the far pile `pile`'s smallest bucket to the warp's smallest `bucket` of lanes
    /// with `pushed`, one atomic per warp. All lanes call it.
    #[inline(always)]
    unsafe fn note_far_bucket(&self, counters: Counters, pushed: bool, bucket: u64, pile: u32) {
        let pushing = ballot_sync(FULL_MASK, pushed);
        if pushing != 0 {
            let smallest = warp_min_u64(if pushed { bucket } else { u64::MAX });
            // SAFETY: the control block obeys the kernel contract.
            if lane_id() == ffs(pushing) - 1 && unsafe { counters.lowers_far_min(pile, smallest) } {
                // SAFETY: as above.
                unsafe { counters.lower_far_min(pile, smallest) };
            }
        }
    }

    /// The step the counters call for.
    #[inline(always)]
    unsafe fn decide(&self, state: &State, counters: Counters) -> Step {
        // SAFETY: the control block obeys the kernel contract; its counters are read at GPU scope.
        unsafe {
            let len = counters.read(Count::Near(state.step));
            if len > 0 {
                return Step::Light { len };
            }
            if !self.near_far {
                let settled = counters.read(Count::Settled);
                if settled > state.heavy_done {
                    return Step::Heavy { from: state.heavy_done, to: settled };
                }
            }
            let len = counters.read(Count::Far(state.splits));
            if len == 0 {
                return Step::Done;
            }
            let bucket = counters.far_min(state.splits);
            if self.beyond_reach(bucket) {
                return Step::Done;
            }
            Step::Split { len, bucket, span: self.next_span(state, counters) }
        }
    }

    /// How many buckets of the host's width the next bucket spans: 1, or with an adaptive
    /// width (flag `ADAPTIVE_DELTA`; ADDS's dynamic Δ, Wang, Fussell and Lin, PPoPP 2021, which
    /// sets the width on the device from the work in flight) the current span doubled where
    /// the bucket that ends kept too little in flight (fewer vertices a light round than
    /// [`WIDEN_BELOW`]: block 0's rounds not full, so a wider bucket's rounds cost no more),
    /// halved where it kept more than the grid has threads or relaxed its vertices' edges more
    /// than 1.5 times each (by the average degree: too wide), between 1 and [`MAX_SPAN`]. A
    /// span of `k` makes the bucket `k` times delta wide with `k` times delta as its light
    /// edges' bound, so its heavy edges still lead out of it. Every thread computes it from the
    /// same counters.
    #[inline(always)]
    unsafe fn next_span(&self, state: &State, counters: Counters) -> u32 {
        if !self.adaptive_delta {
            return 1;
        }
        if self.near_far {
            // SAFETY: forwarded.
            return unsafe { self.near_far_span(state) };
        }
        // SAFETY: the control block obeys the kernel contract; read as `decide` reads it.
        let (settled, relaxed) = unsafe {
            (
                counters.read(Count::Settled) - state.settled_at_start,
                load_acquire_u64(addr_of!((*self.control).relaxations))
                    - load_acquire_u64(addr_of!((*self.control).bucket_relaxed)),
            )
        };
        let per_round = settled / state.rounds.max(1);
        // Edges over vertices, rounded up: read here, once a bucket, rather than held in a
        // register through the loop.
        // SAFETY: the kernel contract gives `offsets` n + 1 entries.
        let average_degree = unsafe { *self.offsets.add(self.n as usize) }.div_ceil(self.n.max(1) as u64).max(1);
        let wasteful = 2 * relaxed > 3 * settled as u64 * average_degree;
        if state.span > 1 && (wasteful || per_round > grid_dim() * SSSP_BLOCK) {
            state.span / 2
        } else if !wasteful && per_round < WIDEN_BELOW && state.span < MAX_SPAN {
            state.span * 2
        } else {
            state.span
        }
    }

    /// Near-far's adaptive span (flag `ADAPTIVE_DELTA` with `NEAR_FAR`): near-far settles no
    /// list of its own, so `next_span`'s measure of waste (relaxations against the settled
    /// vertices' edges) does not exist here. Its buckets are instead compared with the one
    /// before: a bucket that relaxed less than half of what the one before it did is in the
    /// tail (a Kronecker graph's buckets after the first few, each a split and two or three
    /// rounds of barriers around a few thousand vertices whose distances are mostly final
    /// once reached), so the next spans `tail_growth` times as many (twice by default); one
    /// that relaxed more than the one before it is growing (a mesh's or a road's wavefront), so
    /// the next spans half as many. Between 1 and [`MAX_SPAN`], or [`MAX_TAIL_SPAN`] with a
    /// `tail_growth` above 2, which folds a Kronecker graph's tail into fewer buckets, each a
    /// split and its rounds fewer (bench/NOTES.md 139). Every thread computes it from the same
    /// counters.
    #[inline(always)]
    unsafe fn near_far_span(&self, state: &State) -> u32 {
        let c = self.control;
        // SAFETY: the control block obeys the kernel contract; read as `decide` reads it.
        let (now, began, before) = unsafe {
            (
                load_acquire_u64(addr_of!((*c).relaxations)),
                load_acquire_u64(addr_of!((*c).bucket_relaxed)),
                load_acquire_u64(addr_of!((*c).previous_bucket_relaxed)),
            )
        };
        let (this, previous) = (now - began, began - before);
        if 2 * this < previous && state.span < self.max_tail_span {
            state.span.saturating_mul(self.tail_growth).min(self.max_tail_span)
        } else if this > previous && state.span > 1 {
            state.span / 2
        } else {
            state.span
        }
    }

    /// The width of a bucket spanning `span` buckets of the host's width (an integer, or an
    /// `f32`'s bits).
    #[inline(always)]
    fn width(&self, span: u32) -> u64 {
        if self.reader.kind == flags::WEIGHTS_F32 {
            (f32::from_bits(self.delta as u32) * span as f32).to_bits() as u64
        } else {
            self.delta.saturating_mul(span as u64)
        }
    }

    /// Whether bucket `next` (the far pile's smallest, a lower bound) starts beyond the
    /// farthest distance the run settles: the limit, or the target's distance once it is
    /// final, in a bucket before `next` (a tentative distance that low is final). Every
    /// distance up to it is final, and every distance in buckets `next` and later lies beyond
    /// it, since a bucket grows with its distance. Every thread reads the same distance: none
    /// changes between the barriers around `decide`.
    #[inline(always)]
    unsafe fn beyond_reach(&self, next: u64) -> bool {
        let mut reach = self.limit;
        if self.target != NO_TARGET {
            // SAFETY: the host passes a target `< n`.
            let at = self.distance(unsafe { self.distances.of(self.target) });
            if at != UNREACHED_DISTANCE && at < reach && self.reader.bucket(at, self.delta) < next {
                reach = at;
            }
        }
        reach != UNREACHED_DISTANCE && next > self.reader.bucket(reach, self.delta)
    }

    /// The queue a light round or heavy phase expands: its entries are `list[from..from + len]`;
    /// None for a step that expands no list (a split, or a light round of `ALL_HEAVY`).
    #[inline(always)]
    fn expanded(&self, step: Step, state: &State) -> Option<(*mut u32, u32, u32)> {
        match step {
            Step::Light { len } if !self.all_heavy => Some((self.near_area(state.step), 0, len)),
            Step::Heavy { from, to } => Some((self.settled, from, to - from)),
            _ => None,
        }
    }

    /// Whether block 0's light steps alone fuse their rounds: asked for, and every list short
    /// enough for one thread to walk (see `FUSED_MAX_DEGREE`).
    #[inline(always)]
    fn fuses(&self) -> bool {
        self.bucket_fusion && !self.all_heavy && self.max_degree <= FUSED_MAX_DEGREE
    }

    /// Bucket fusion: block 0's light step alone over the near queue's `len` vertices, then
    /// rounds of its own over the vertices that step and each round put back into the current
    /// bucket, queued in shared memory, until a round queues none. A round that queues more
    /// than its shared queue holds ends the fusion: its whole queue goes to the near queue of
    /// the loop's next step, marked as `offer` marks it, which the grid takes if it is big (a
    /// frontier that outgrew block 0 is the grid's work, as unfused steps hand it over).
    /// Returns the rounds taken (one light round each, for the trace).
    ///
    /// # Safety
    /// Block 0 alone, every thread of it, with its shared counters; the queues obey the
    /// kernel contract.
    #[inline(always)]
    unsafe fn fused_light(
        &self,
        len: u32,
        state: &State,
        scratch: &Scratch,
        counters: Counters,
        relaxations: &mut u32,
    ) -> u32 {
        let queues = &scratch.fused;
        let input = self.near_area(state.step);
        if thread_idx() == 0 {
            queues.lengths.set(0, 0);
            queues.lengths.set(1, 0);
        }
        sync_threads();
        let (mut rounds, mut parity, mut round_len) = (0u32, 0usize, len);
        loop {
            let out = parity ^ 1;
            for_tiles!(round_len, 1, 0, |i, valid| {
                if valid {
                    let (u, queued_at, list) = if rounds == 0 {
                        // SAFETY: `i < len`, inside the near queue; its entries are vertices.
                        let u = unsafe { *input.add(i as usize) };
                        // SAFETY: `u < n`.
                        unsafe { (u, self.distances.of(u), self.list_of(u)) }
                    } else {
                        queues.get(parity * FUSED + i as usize)
                    };
                    // SAFETY: `u < n` and `list` is its list; forwarded from the caller.
                    unsafe {
                        self.fused_visit(
                            u,
                            queued_at,
                            list,
                            state,
                            counters,
                            FusedInto::Round { queues, out },
                            relaxations,
                        )
                    };
                }
            });
            sync_threads();
            rounds += 1;
            let queued = queues.lengths.get(out);
            if queued == 0 {
                return rounds;
            }
            if queued > FUSED_QUEUE {
                // The entries past the queue's room went to the near queue as they came.
                for_tiles!(FUSED_QUEUE, 1, 0, |i, valid| {
                    let v = if valid { queues.vertices.get(out * FUSED + i as usize) } else { 0 };
                    if valid {
                        // SAFETY: `v < n`.
                        unsafe { self.hand_to_next_step(v, state, counters) };
                    }
                });
                sync_threads();
                return rounds;
            }
            // This round's queue takes the round after next's vertices; its length is read by
            // nobody now (every thread read `queued`, the other one, before the barrier).
            if thread_idx() == 0 {
                queues.lengths.set(parity, 0);
            }
            sync_threads();
            round_len = queued.min(FUSED_QUEUE);
            parity = out;
        }
    }

    /// One vertex of a fused round: settled into the bucket's list, its light edges (every
    /// edge for near-far) relaxed from `queued_at`, the targets it lowers queued in shared
    /// queue `out` (the current bucket) or the far pile. One thread walks the whole list,
    /// `start..end`, which the entry carried. The vertex's distance is read beside the first
    /// edges, so a round's chain is the edges' loads, then the atomics beside the targets'
    /// list bounds (which a queued target carries on).
    ///
    /// # Safety
    /// `u < n` and `start..end` is its list; as for [`Delta::fused_light`].
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn fused_visit(
        &self,
        u: u32,
        queued_at: u64,
        (start, end): (u64, u64),
        state: &State,
        counters: Counters,
        into: FusedInto,
        relaxations: &mut u32,
    ) {
        // SAFETY (throughout): `u < n`, its list's edges lie in the graph, their targets `< n`;
        // the queues obey the kernel contract.
        unsafe {
            let now = self.distances.of(u);
            let mut e = start;
            let (mut taking, mut targets, mut candidates) = self.fused_edges(e, end, u, queued_at, state);
            if self.distance(now) < self.distance(queued_at) {
                return; // stale: queued again with a shorter distance, which that entry relaxes
            }
            // Issued here, its answer used after the list: the mark's round trip overlaps the
            // relaxations instead of coming before them.
            let settle = !self.near_far && first_to_mark_filtered(self.settled_marks, u, state.seq, false);
            loop {
                let mut old = [0u64; FUSED_EDGES];
                for k in 0..FUSED_EDGES {
                    if taking[k] {
                        *relaxations += 1;
                        old[k] = self.distances.atomic_min(targets[k], candidates[k]);
                    }
                }
                // The targets' lists, in flight with the atomics (issued after them, so that
                // nothing waits for them before the atomics leave), for those the atomics lower.
                let mut lists = [(0u64, 0u64); FUSED_EDGES];
                for k in 0..FUSED_EDGES {
                    if taking[k] {
                        lists[k] = self.list_of(targets[k]);
                    }
                }
                let mut lowered = [false; FUSED_EDGES];
                for k in 0..FUSED_EDGES {
                    lowered[k] = taking[k] && self.lowered(old[k], candidates[k]);
                }
                match into {
                    FusedInto::Round { queues, out } => {
                        for_each_fused_slot!(|k| {
                            if lowered[k] {
                                self.fused_queue(targets[k], candidates[k], lists[k], state, counters, queues, out);
                            }
                        });
                    }
                    FusedInto::Ring { queues, ring } => {
                        let mut current = [false; FUSED_EDGES];
                        for k in 0..FUSED_EDGES {
                            if lowered[k] {
                                if self.in_current(state, candidates[k]) {
                                    current[k] = true;
                                } else {
                                    self.far_queue(targets[k], candidates[k], state, counters);
                                }
                            }
                        }
                        self.ring_queue(current, &targets, &candidates, &lists, state, counters, queues, ring);
                    }
                }
                e += FUSED_EDGES as u64;
                if e >= end {
                    break;
                }
                (taking, targets, candidates) = self.fused_edges(e, end, u, queued_at, state);
            }
            if settle {
                counters.append_one(u, self.settled, Count::Settled);
            }
        }
    }

    /// The next [`FUSED_EDGES`] edges of `u`'s list from `e` (up to `end`) a fused round
    /// relaxes: which it takes, their targets, and what `u`, queued at `queued_at`, offers them.
    ///
    /// # Safety
    /// `e..end` lies in `u`'s list.
    #[inline(always)]
    unsafe fn fused_edges(
        &self,
        e: u64,
        end: u64,
        u: u32,
        queued_at: u64,
        state: &State,
    ) -> ([bool; FUSED_EDGES], [u32; FUSED_EDGES], [u64; FUSED_EDGES]) {
        let mut targets = [0u32; FUSED_EDGES];
        let mut candidates = [0u64; FUSED_EDGES];
        let mut taking = [false; FUSED_EDGES];
        for k in 0..FUSED_EDGES {
            let edge = e + k as u64;
            if edge < end {
                // SAFETY: `edge` lies in `u`'s list.
                let weight = unsafe { self.reader.weight(edge) };
                if self.near_far || self.reader.is_light(weight, state.light) {
                    taking[k] = true;
                    // SAFETY: as above.
                    targets[k] = unsafe { *self.targets.add(edge as usize) };
                    candidates[k] = self.candidate(queued_at, weight, u);
                }
            }
        }
        (taking, targets, candidates)
    }

    /// Whether a distance word's distance falls into the current bucket (or before it), for a
    /// fused round's lowered targets. For integer weights by the bucket's end, `d / delta < b`
    /// being `d < b * delta`: the 64-bit division is a subroutine of dozens of instructions on
    /// the round's chain (bench/NOTES.md 103, 105). Steps of the grid still divide: the same
    /// change there measured slower (entry 105).
    #[inline(always)]
    fn in_current(&self, state: &State, word: u64) -> bool {
        let distance = self.distance(word);
        if self.reader.kind == flags::WEIGHTS_F32 {
            state.current(self.reader.bucket(distance, self.delta))
        } else {
            distance < (state.bucket + state.span as u64).saturating_mul(self.delta)
        }
    }

    /// Queues `v`, just lowered to `candidate`, where it fell: the current bucket's shared
    /// queue `out` with its list (or, once that is full, the grid's next near queue), else the
    /// far pile.
    ///
    /// # Safety
    /// `v < n` and `list` is its list; as for [`Delta::fused_light`].
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn fused_queue(
        &self,
        v: u32,
        candidate: u64,
        list: (u64, u64),
        state: &State,
        counters: Counters,
        queues: &FusedQueues,
        out: usize,
    ) {
        // SAFETY (throughout): `v < n`; the queues have room for `n` entries each.
        unsafe {
            if self.in_current(state, candidate) {
                let slot = queues.lengths.fetch_add(out, 1);
                if slot < FUSED_QUEUE {
                    queues.set(out * FUSED + slot as usize, v, candidate, list_word(list));
                } else {
                    self.hand_to_next_step(v, state, counters);
                }
            } else {
                self.far_queue(v, candidate, state, counters);
            }
        }
    }

    /// Queues `v`, lowered into the current bucket where block 0's shared queues have no room
    /// for it, on the near queue of the loop's next step (once: its queued mark).
    ///
    /// # Safety
    /// `v < n`; block 0 alone, with its shared counters.
    #[inline(always)]
    unsafe fn hand_to_next_step(&self, v: u32, state: &State, counters: Counters) {
        // SAFETY: `v < n`; the near queue has room for `n` entries.
        unsafe {
            if first_to_mark_filtered(self.queued, v, state.step + 1, false) {
                counters.append_one(v, self.near_area(state.step + 1), Count::Near(state.step + 1));
            }
        }
    }

    /// Queues `v`, just lowered to `candidate` beyond the current bucket, on the far pile
    /// (once), lowering the pile's smallest bucket.
    ///
    /// # Safety
    /// `v < n`; block 0 alone, with its shared counters.
    #[inline(always)]
    unsafe fn far_queue(&self, v: u32, candidate: u64, state: &State, counters: Counters) {
        // SAFETY: `v < n`; the far pile has room for `n` entries.
        unsafe {
            if first_to_mark_filtered(self.far_marks, v, state.splits + 1, false) {
                counters.append_one(v, self.far_area(state.splits), Count::Far(state.splits));
            }
            counters.lower_far_min(state.splits, self.reader.bucket(self.distance(candidate), self.delta));
        }
    }

    /// Rounds that do not wait for each other: block 0's light step alone over the near
    /// queue's `len` vertices as one asynchronous worklist in shared memory (the worklists of
    /// ADDS, Wang, Fussell and Lin, PPoPP 2021, section 3, on one multiprocessor; bucket fusion's
    /// idea, GraphIt CGO 2020 section 4, without its rounds). Each warp takes up to 32 queued
    /// entries as soon as they are queued, relaxes them as a fused round does, and queues what
    /// it lowers into the current bucket in the ring; a vertex is relaxed once the chain of
    /// accesses that lowered it ends, not when the slowest vertex of its round does. Entries
    /// the ring has no room for go to the near queue of the loop's next step, as a fused round
    /// that overflows hands its queue over. The run ends when no entry is queued or being
    /// relaxed. Returns 1 (one light round, for the trace).
    ///
    /// # Safety
    /// As for [`Delta::fused_light`]; `len <= RING`.
    #[inline(always)]
    unsafe fn async_light(
        &self,
        len: u32,
        state: &State,
        scratch: &Scratch,
        counters: Counters,
        relaxations: &mut u32,
    ) -> u32 {
        let (queues, ring) = (&scratch.fused, &scratch.ring);
        let input = self.near_area(state.step);
        let mut i = thread_idx() as usize;
        while i < RING {
            ring.marks.set(i, 0);
            i += BLOCK;
        }
        let mut i = thread_idx();
        while i < len {
            // SAFETY: `i < len`, inside the near queue; its entries are vertices `< n`.
            let u = unsafe { *input.add(i as usize) };
            // SAFETY: `u < n`.
            let (queued_at, list) = unsafe { (self.distances.of(u), self.list_of(u)) };
            queues.set(i as usize, u, queued_at, list_word(list));
            ring.marks.set(i as usize, published(i));
            i += SSSP_BLOCK;
        }
        if thread_idx() == 0 {
            ring.words.set(RING_HEAD, 0);
            ring.words.set(RING_TAIL, len);
            ring.words.set(RING_PENDING, len);
        }
        sync_threads();
        let lane = lane_id();
        loop {
            let mut claim = 0u32;
            let mut count = 0u32;
            if lane == 0 {
                loop {
                    let head = ring.words.get_volatile(RING_HEAD);
                    let tail = ring.words.get_volatile(RING_TAIL);
                    if head != tail {
                        let take = tail.wrapping_sub(head).min(WARP_SIZE);
                        if ring.words.compare_exchange(RING_HEAD, head, head.wrapping_add(take)) == head {
                            (claim, count) = (head, take);
                            break;
                        }
                    } else if ring.words.get_volatile(RING_PENDING) == 0 {
                        count = RING_DONE;
                        break;
                    }
                }
            }
            let count = shfl_idx_sync(FULL_MASK, count, 0);
            if count == RING_DONE {
                break;
            }
            let ticket = shfl_idx_sync(FULL_MASK, claim, 0).wrapping_add(lane);
            if lane < count {
                let slot = ticket as usize % RING;
                // The producer reserved the ticket before the tail moved; it writes soon.
                while ring.marks.get_volatile(slot) != published(ticket) {}
                fence_block();
                let (u, queued_at, list) = queues.get(slot);
                fence_block();
                ring.marks.set_volatile(slot, taken(ticket));
                // SAFETY: `u < n` and `list` is its list; forwarded from the caller.
                unsafe {
                    self.fused_visit(u, queued_at, list, state, counters, FusedInto::Ring { queues, ring }, relaxations)
                };
            }
            // Every lane's queued entries are counted before this warp's own leave the count.
            sync_warp(FULL_MASK);
            if lane == 0 {
                ring.words.fetch_add(RING_PENDING, count.wrapping_neg());
            }
        }
        sync_threads();
        1
    }

    /// The asynchronous worklist's append: the calling lanes' targets `current` marks (lowered
    /// into the current bucket) take consecutive tickets, reserved by one compare-and-swap for
    /// the warp, and each is written once its slot's previous entry has been read. When the
    /// ring has no room for them, they go to the near queue of the loop's next step.
    ///
    /// # Safety
    /// Targets `< n`; block 0 alone inside [`Delta::async_light`], every active lane calling.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn ring_queue(
        &self,
        current: [bool; FUSED_EDGES],
        targets: &[u32; FUSED_EDGES],
        candidates: &[u64; FUSED_EDGES],
        lists: &[(u64, u64); FUSED_EDGES],
        state: &State,
        counters: Counters,
        queues: &FusedQueues,
        ring: &AsyncRing,
    ) {
        let mask = active_mask();
        let mut ballots = [0u32; FUSED_EDGES];
        let mut total = 0;
        for k in 0..FUSED_EDGES {
            ballots[k] = ballot_sync(mask, current[k]);
            total += popc(ballots[k]);
        }
        if total == 0 {
            return;
        }
        let leader = ffs(mask) - 1;
        let mut base = RING_DONE;
        if lane_id() == leader {
            // Counted first, so the count never shows none while these wait to be queued.
            ring.words.fetch_add(RING_PENDING, total);
            loop {
                let tail = ring.words.get_volatile(RING_TAIL);
                let head = ring.words.get_volatile(RING_HEAD);
                // Entry `t` may take its slot once entry `t - RING` has been claimed.
                if tail.wrapping_add(total).wrapping_sub(head) > RING as u32 {
                    ring.words.fetch_add(RING_PENDING, total.wrapping_neg());
                    break;
                }
                if ring.words.compare_exchange(RING_TAIL, tail, tail.wrapping_add(total)) == tail {
                    base = tail;
                    break;
                }
            }
        }
        let base = shfl_idx_sync(mask, base, leader);
        let below = lanemask_lt();
        let mut offset = 0;
        for k in 0..FUSED_EDGES {
            if current[k] {
                let v = targets[k];
                if base == RING_DONE {
                    // SAFETY: `v < n`.
                    unsafe { self.hand_to_next_step(v, state, counters) };
                } else {
                    let ticket = base.wrapping_add(offset + popc(ballots[k] & below));
                    let slot = ticket as usize % RING;
                    if ticket >= RING as u32 {
                        // Claimed (the reservation saw to it): its consumer reads it soon.
                        while ring.marks.get_volatile(slot) != taken(ticket - RING as u32) {}
                        fence_block();
                    }
                    queues.set(slot, v, candidates[k], list_word(lists[k]));
                    fence_block();
                    ring.marks.set_volatile(slot, published(ticket));
                }
            }
            offset += popc(ballots[k]);
        }
    }

    /// `v`'s list, `start..end` in edges.
    ///
    /// # Safety
    /// `v < n`.
    #[inline(always)]
    unsafe fn list_of(&self, v: u32) -> (u64, u64) {
        // SAFETY: `v < n`; offsets hold n + 1 entries.
        unsafe { (*self.offsets.add(v as usize), *self.offsets.add(v as usize + 1)) }
    }

    /// Whether block 0 runs `step` alone: a queue of at most `SMALL_QUEUE` vertices whose lists
    /// hold at most `SMALL_QUEUE_EDGES` edges. The edges are summed by the whole block (every
    /// block, or block 0 in its run alone, calls it at the same point and reads the same
    /// queue, so all agree) unless no such queue can hold that many (roads, grids).
    #[inline(always)]
    unsafe fn runs_alone(&self, step: Step, state: &State, scratch: &Scratch) -> bool {
        if !self.small_path || step.work() > SMALL_QUEUE {
            return false;
        }
        if self.max_degree as u64 * SMALL_QUEUE as u64 <= SMALL_QUEUE_EDGES {
            return true;
        }
        let Some((list, from, len)) = self.expanded(step, state) else {
            return true;
        };
        let mut edges = 0u32;
        let mut i = thread_idx();
        while i < len {
            // SAFETY: `i < len`, inside the queue; its entries are vertices.
            let (start, end) = unsafe { self.list_of(*list.add((from + i) as usize)) };
            // Capped, so the block's sum (at most SMALL_QUEUE terms) fits 32 bits.
            edges += (end - start).min(SMALL_QUEUE_EDGES + 1) as u32;
            i += SSSP_BLOCK;
        }
        let (_, total) = block_exclusive_scan(edges, &scratch.tile.scan);
        total as u64 <= SMALL_QUEUE_EDGES
    }

    /// The shortest list a step of the whole grid shares with it ([`NO_SHARING`] when it can
    /// hold none): lists of a block's worth of edges or more; on a step whose queue gives no
    /// block a second tile (and fits the table), lists of 32 or more, since there the slowest
    /// tile is the step's time (the persistent BFS's rule, bench/NOTES.md entry 39). Each queue
    /// entry registers at most once, so the table's capacity bounds what a step registers.
    #[inline(always)]
    fn share_from(&self, step: Step, state: &State) -> u64 {
        let max_degree = self.max_degree as u64;
        let Some((_, _, len)) = self.expanded(step, state) else {
            return NO_SHARING;
        };
        if max_degree < SMALL_STEP_SHARED_LIST_EDGES {
            return NO_SHARING;
        }
        let small_step = len.div_ceil(SSSP_BLOCK) <= grid_dim() && len < self.shared_list_capacity;
        let from = if small_step { SMALL_STEP_SHARED_LIST_EDGES } else { SHARED_LIST_EDGES };
        if max_degree >= from {
            from
        } else {
            NO_SHARING
        }
    }

    /// The shared-list table.
    #[inline(always)]
    fn table(&self) -> SharedLists {
        SharedLists { table: self.shared_lists, capacity: self.shared_list_capacity }
    }

    /// The word that tallies step `step`'s shared lists.
    #[inline(always)]
    fn tally(&self, step: u32) -> *mut u64 {
        // SAFETY (pointer arithmetic only): the control block is valid.
        unsafe { addr_of_mut!((*self.control).shared_tally[(step % 3) as usize]) }
    }

    /// Registers every list of `share_from` edges or more of the step's queue in the
    /// shared-list table, one warp ballot and at most one atomic per 32 entries. The caller
    /// passes a grid barrier before anyone gathers.
    #[inline(always)]
    unsafe fn register_long_lists(&self, step: Step, state: &State, share_from: u64) {
        let Some((list, from, len)) = self.expanded(step, state) else {
            return;
        };
        let tally = self.tally(state.step);
        let mut warp_base = global_idx() - lane_id();
        while warp_base < len {
            let i = warp_base + lane_id();
            let (mut v, mut start, mut end) = (0, 0, 0);
            if i < len {
                // SAFETY: `i < len`, inside the queue; its entries are vertices.
                unsafe {
                    v = *list.add((from + i) as usize);
                    (start, end) = self.list_of(v);
                }
            }
            let long = end - start >= share_from;
            let long_lanes = ballot_sync(FULL_MASK, long);
            if long_lanes != 0 {
                let length = if long { end - start } else { 0 };
                // SAFETY: the tally slot was cleared two steps ago; every queue entry registers
                // at most once, within the table's capacity (see `share_from`).
                unsafe { self.table().register(tally, long_lanes, long, start, length, v) };
            }
            warp_base += global_threads();
        }
    }

    /// Adds this thread's `relaxations` to the run's count, one atomic a warp. All lanes call it.
    #[inline(always)]
    fn add_relaxations(&self, relaxations: u32) {
        let total = warp_sum_u64(relaxations as u64);
        if lane_id() == 0 && total > 0 {
            // SAFETY: the control block obeys the kernel contract.
            unsafe { atomic_add_u64(addr_of_mut!((*self.control).relaxations), total) };
        }
    }

    /// Whether `step`, a step of the whole grid, is a deferred round (see the module
    /// documentation). Every thread decides the same.
    #[inline(always)]
    fn defers(&self, step: Step, alone: bool) -> bool {
        match step {
            Step::Light { len } => !alone && self.near_far && !self.all_heavy && len >= self.defer_from,
            _ => false,
        }
    }

    /// A deferred round's queueing, after the grid barrier that ended its relaxations: every
    /// vertex whose queued mark is `lowered_mark` (lowered during the round) joins the next
    /// near queue where its distance falls into the current bucket, else the far pile (once,
    /// by its far mark), as [`Relaxer::offer`] queues what it lowers. One pass over the marks,
    /// in vertex order. All threads of the grid call it.
    ///
    /// # Safety
    /// As for `run_step`, on the whole grid.
    #[inline(always)]
    unsafe fn queue_deferred(&self, state: &State, lowered_mark: u32, counters: Counters, appends: &mut Appends) {
        let targets = self.relaxed_into(state);
        for_tiles!(self.n, grid_dim(), block_idx(), |v, valid| {
            // SAFETY (throughout): `v < n` where `valid`; the marks and distances hold `n`
            // words; the lists have room for `n` entries.
            unsafe {
                let lowered = valid && core::ptr::read_volatile(self.queued.add(v as usize)) == lowered_mark;
                let bucket =
                    if lowered { self.reader.bucket(self.distance(self.distances.of(v)), self.delta) } else { 0 };
                let to_near = lowered && state.current(bucket);
                let to_far = lowered && !state.current(bucket);
                // This pass alone writes far marks during the step, and visits `v` once.
                let far_mark = self.far_marks.add(v as usize);
                let far_new = to_far && *far_mark != state.splits + 1;
                if far_new {
                    *far_mark = state.splits + 1;
                }
                self.note_far_bucket(counters, to_far, bucket, state.splits);
                appends.push(counters, targets, to_near, far_new, v);
            }
        });
    }

    /// Runs one step on `blocks` blocks (this one being `rank`; `alone`: block 0 by itself),
    /// updating `state`. Unless `share_from` is [`NO_SHARING`], the step's lists of
    /// `share_from` edges or more were registered and a grid barrier passed: the grid gathers
    /// them first, then skips them in its tiles. A deferred round (see [`Delta::defers`])
    /// passes `barrier` once more, between its relaxations and its queueing; where
    /// `relaxed_apart`, `sssp_relax_apart` relaxed it (see [`apart`]) and only its queueing is
    /// left.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn run_step(
        &self,
        step: Step,
        state: &mut State,
        blocks: u32,
        rank: u32,
        scratch: &Scratch,
        share_from: u64,
        alone: bool,
        relaxed_apart: bool,
        barrier: &mut GridBarrier,
    ) {
        let c = self.control;
        let counters = Counters { control: c, local: if alone { Some(&scratch.local) } else { None } };
        let appends = Appends::new(counters, scratch);
        let deferred = self.defers(step, alone);
        let mut relaxer = Relaxer {
            delta: self,
            edges: Edges::All,
            state: *state,
            relaxations: 0,
            counters,
            appends,
            deferred,
            lowered_mark: state.step + 1,
        };
        let warp_list_edges = warp_list_edges(step.work(), blocks);
        // SAFETY (throughout): queue entries are vertex ids `< n`; pointers obey the kernel
        // contract; registered lists are the step's queue's lists.
        unsafe {
            if let Step::Heavy { .. } = step {
                if rank == 0 && thread_idx() == 0 {
                    self.record_heavy_start(state);
                }
            }
            if share_from != NO_SHARING {
                relaxer.edges = match step {
                    Step::Heavy { .. } => Edges::Heavy,
                    _ if self.near_far => Edges::All,
                    _ => Edges::Light,
                };
                let tally = Tally::read(self.tally(state.step));
                self.table().gather::<BLOCK, _>(tally, &scratch.window, &mut relaxer);
            }
            let mut light_rounds = 1;
            match step {
                Step::Light { .. } if relaxed_apart => {}
                Step::Light { len } if alone && self.fuses() && self.async_fusion => {
                    light_rounds = self.async_light(len, state, scratch, counters, &mut relaxer.relaxations);
                }
                Step::Light { len } if alone && self.fuses() => {
                    light_rounds = self.fused_light(len, state, scratch, counters, &mut relaxer.relaxations);
                }
                Step::Light { len } => {
                    let input = self.near_area(state.step);
                    relaxer.edges = if self.near_far { Edges::All } else { Edges::Light };
                    for_tiles!(len, blocks, rank, spread_tile(len, blocks), |i, valid| {
                        let u = if valid { *input.add(i as usize) } else { 0 };
                        let relaxing = valid && !self.all_heavy;
                        // The list's bounds are read before the settling atomics, so their
                        // latencies overlap.
                        let (mut start, end) = if relaxing { self.list_of(u) } else { (0, 0) };
                        let settle =
                            valid && !self.near_far && first_to_mark_filtered(self.settled_marks, u, state.seq, !alone);
                        counters.append(settle, u, self.settled, Count::Settled);
                        if end - start >= share_from {
                            start = end; // registered: the grid relaxed it
                        }
                        gather_tile(&scratch.tile, u, start, end, warp_list_edges, &mut relaxer);
                    });
                }
                Step::Heavy { from, to } => {
                    relaxer.edges = Edges::Heavy;
                    for_tiles!(to - from, blocks, rank, spread_tile(to - from, blocks), |i, valid| {
                        let u = if valid { *self.settled.add((from + i) as usize) } else { 0 };
                        let (mut start, end) = if valid { self.list_of(u) } else { (0, 0) };
                        if end - start >= share_from {
                            start = end; // registered: the grid relaxed it
                        }
                        gather_tile(&scratch.tile, u, start, end, warp_list_edges, &mut relaxer);
                    });
                }
                Step::Split { len, bucket, span } => {
                    let input = self.far_area(state.splits);
                    let end = bucket + span as u64;
                    let next_pile = state.splits + 1;
                    let targets = Targets {
                        near: self.near_area(state.step + 1),
                        near_count: Count::Near(state.step + 1),
                        far: self.far_area(next_pile),
                        far_count: Count::Far(next_pile),
                    };
                    let mut appends = Appends::new(counters, scratch);
                    for_tiles!(len, blocks, rank, spread_tile(len, blocks), |i, valid| {
                        let v = if valid { *input.add(i as usize) } else { 0 };
                        let at =
                            if valid { self.reader.bucket(self.distance(self.distances.of(v)), self.delta) } else { 0 };
                        // Below `bucket`: stale (its distance fell into a bucket already settled).
                        let to_near = valid && at >= bucket && at < end;
                        let stays = valid && at >= end;
                        // The pile holds each vertex once (its far mark), and nothing else fills
                        // the next near queue or the next pile during the split: the marks are
                        // plain stores, not claims, so an entry's chain ends at its distance.
                        if to_near {
                            *self.queued.add(v as usize) = state.step + 1;
                        }
                        if stays {
                            *self.far_marks.add(v as usize) = next_pile + 1;
                        }
                        self.note_far_bucket(counters, stays, at, next_pile);
                        appends.push(counters, targets, to_near, stays, v);
                    });
                    appends.flush(counters, targets);
                }
                Step::Done => {}
            }
            if deferred {
                barrier.sync();
                self.queue_deferred(state, relaxer.lowered_mark, counters, &mut relaxer.appends);
            }
            relaxer.appends.flush(counters, self.relaxed_into(state));
            self.add_relaxations(relaxer.relaxations);
            let leader = rank == 0 && thread_idx() == 0;
            if leader {
                if deferred {
                    // Only the grid leader writes it.
                    let rounds = addr_of_mut!((*c).deferred_rounds);
                    core::ptr::write_volatile(rounds, core::ptr::read_volatile(rounds) + 1);
                }
                // Nobody touches this slot during the step (see `DeltaControl`).
                counters.clear(Count::Near(state.step + 2));
                core::ptr::write_volatile(self.tally(state.step + 2), 0);
            }
            match step {
                Step::Light { .. } => state.rounds += light_rounds,
                Step::Heavy { to, .. } => state.heavy_done = to,
                Step::Split { bucket, span, .. } => {
                    let settled = counters.read(Count::Settled);
                    if leader {
                        self.record_bucket(state, settled);
                        counters.clear_far(state.splits + 2);
                        // Complete: every step before this split added its relaxations before
                        // the barrier (or block barrier) that preceded it, and a split adds
                        // none. Read by `next_span` after the next barrier.
                        let relaxed = load_acquire_u64(addr_of!((*c).relaxations));
                        let began = core::ptr::read_volatile(addr_of!((*c).bucket_relaxed));
                        core::ptr::write_volatile(addr_of_mut!((*c).previous_bucket_relaxed), began);
                        core::ptr::write_volatile(addr_of_mut!((*c).bucket_relaxed), relaxed);
                    }
                    state.splits += 1;
                    state.bucket = bucket;
                    state.span = span;
                    state.light = self.width(span);
                    state.seq += 1;
                    state.rounds = 0;
                    state.settled_at_start = settled;
                }
                Step::Done => {}
            }
            state.step += 1;
        }
    }

    /// Block 0's thread 0, as the current bucket's heavy phase begins (one a bucket: its heavy
    /// edges lead out of it): the time and the relaxations so far, in the bucket's trace
    /// record (see `DELTA_TRACE_WORDS`). Every earlier step's relaxations are counted: their
    /// blocks added them before the barrier (or block barrier) that preceded this step.
    #[inline(always)]
    unsafe fn record_heavy_start(&self, state: &State) {
        let index = state.seq - 1;
        if index < self.trace_capacity {
            // SAFETY: the trace holds `trace_capacity` records; the control block is valid.
            unsafe {
                let record = self.trace.add(index as usize * DELTA_TRACE_WORDS);
                *record.add(5) = global_timer_ns();
                *record.add(6) = load_acquire_u64(addr_of!((*self.control).relaxations));
            }
        }
    }

    /// Block 0's thread 0: the trace record of the bucket that ends (see `DELTA_TRACE_WORDS`).
    #[inline(always)]
    unsafe fn record_bucket(&self, state: &State, settled: u32) {
        let index = state.seq - 1;
        if index < self.trace_capacity {
            // SAFETY: the trace holds `trace_capacity` records; the control block is valid.
            unsafe {
                let record = self.trace.add(index as usize * DELTA_TRACE_WORDS);
                *record = state.bucket;
                *record.add(1) = (settled - state.settled_at_start) as u64;
                *record.add(2) = state.rounds as u64;
                *record.add(3) = load_acquire_u64(addr_of!((*self.control).relaxations));
                *record.add(4) = global_timer_ns();
                *record.add(7) = state.span as u64;
            }
        }
    }

    /// The bucket loop.
    #[inline(always)]
    unsafe fn run(&self, scratch: Scratch) {
        let grid_counters = Counters { control: self.control, local: None };
        let c = self.control;
        if is_grid_leader() && !self.resume {
            // SAFETY: the control block is valid; the host reads it after the kernel.
            unsafe { core::ptr::write_volatile(addr_of_mut!((*c).started_ns), global_timer_ns()) };
        }
        // SAFETY: the barrier word is zero at launch and reserved for this (`sssp_relax_apart`
        // clears it for a resumed launch).
        let mut barrier = unsafe { GridBarrier::new(addr_of_mut!((*c).barrier_arrivals)) };
        let mut state = State {
            step: 0,
            splits: 0,
            heavy_done: 0,
            rounds: 0,
            seq: 1,
            settled_at_start: 0,
            small_runs: 0,
            bucket: 0,
            span: 1,
            light: self.delta,
        };
        // The first step of a resumed launch: the round apart's queueing (see [`apart`]).
        let mut relaxed_apart = false;
        if self.resume {
            // SAFETY: the launch before this one wrote the control block.
            match unsafe { self.resumed_state(&mut barrier) } {
                Some(resumed) => (state, relaxed_apart) = (resumed, true),
                None => return,
            }
        }
        loop {
            // SAFETY (throughout): pointers obey the kernel contract. A round apart's near queue
            // is as it was when the launch before stopped.
            let step = unsafe {
                if relaxed_apart {
                    Step::Light { len: grid_counters.read(Count::Near(state.step)) }
                } else {
                    self.decide(&state, grid_counters)
                }
            };
            if let Step::Done = step {
                if is_grid_leader() {
                    // SAFETY: as above.
                    unsafe { self.finish(&state) };
                }
                return;
            }
            // SAFETY: as above.
            if !relaxed_apart && unsafe { self.runs_alone(step, &state, &scratch) } {
                // Every block has read this step's counters once the barrier passes; from then
                // on block 0 owns them until it hands the loop back (a block still deciding
                // while block 0 changed them could take another step).
                barrier.sync();
                let slot = (state.small_runs % 2) as usize;
                if block_idx() == 0 {
                    let local = Counters { control: c, local: Some(&scratch.local) };
                    if thread_idx() == 0 {
                        // SAFETY: as above; the rest of the grid waits at the barrier.
                        unsafe { scratch.local.copy_in(c) };
                    }
                    sync_threads();
                    let mut alone = state;
                    let mut step = step;
                    loop {
                        // SAFETY: as above; block 0 is the whole team.
                        unsafe {
                            self.run_step(step, &mut alone, 1, 0, &scratch, NO_SHARING, true, false, &mut barrier)
                        };
                        sync_threads();
                        // SAFETY: as above.
                        step = unsafe { self.decide(&alone, local) };
                        // SAFETY: as above.
                        if matches!(step, Step::Done) || !unsafe { self.runs_alone(step, &alone, &scratch) } {
                            break;
                        }
                    }
                    if thread_idx() == 0 {
                        // SAFETY: the counters are complete (the block barrier after the last
                        // step); the handoff slot of this run, which nobody reads until the
                        // barrier.
                        unsafe {
                            scratch.local.copy_out(c);
                            store_handoff(c, slot, &alone);
                        }
                    }
                }
                barrier.sync();
                // SAFETY: written by block 0 before the barrier.
                state = unsafe { self.load_handoff(slot) };
                state.small_runs += 1;
                continue;
            }
            let share_from = if relaxed_apart { NO_SHARING } else { self.share_from(step, &state) };
            if share_from != NO_SHARING {
                // SAFETY: as above.
                unsafe { self.register_long_lists(step, &state, share_from) };
                barrier.sync();
            }
            if !relaxed_apart && self.runs_apart(step) {
                // The launch ends here; `sssp_relax_apart` relaxes the round (the launch's end
                // orders the lists registered above before its reads), and a `RESUME` launch
                // queues what it lowered.
                if is_grid_leader() {
                    // SAFETY: as above; nothing else writes these words during the launch.
                    unsafe { self.stop_before_apart(&state, share_from) };
                }
                return;
            }
            // SAFETY: as above.
            unsafe {
                self.run_step(
                    step,
                    &mut state,
                    grid_dim(),
                    block_idx(),
                    &scratch,
                    share_from,
                    false,
                    relaxed_apart,
                    &mut barrier,
                )
            };
            barrier.sync();
            relaxed_apart = false;
        }
    }

    /// Reads handoff slot `slot`, after the grid barrier that follows block 0's run alone.
    #[inline(always)]
    unsafe fn load_handoff(&self, slot: usize) -> State {
        let c = self.control;
        // SAFETY: the control block is valid; read at GPU scope after the barrier.
        unsafe {
            let words = core::array::from_fn(|k| load_relaxed_u32(addr_of!((*c).handoff[slot][k])));
            self.state_of(words, load_acquire_u64(addr_of!((*c).handoff_bucket[slot])))
        }
    }

    /// The state that [`handoff_words`] wrote as `words`, in `bucket`.
    #[inline(always)]
    fn state_of(&self, words: [u32; 8], bucket: u64) -> State {
        State {
            step: words[0],
            splits: words[1],
            heavy_done: words[2],
            rounds: words[3],
            seq: words[4],
            settled_at_start: words[5],
            small_runs: words[6],
            bucket,
            span: words[7],
            light: self.width(words[7]),
        }
    }

    /// The grid leader, once the far pile is empty: the last bucket's record and the totals.
    #[inline(always)]
    unsafe fn finish(&self, state: &State) {
        let c = self.control;
        // SAFETY: the control block obeys the kernel contract.
        unsafe {
            let settled = load_relaxed_u32(addr_of!((*c).settled_len));
            self.record_bucket(state, settled);
            (*c).buckets = state.seq;
            (*c).steps = state.step;
            (*c).trace_records = state.seq.min(self.trace_capacity);
            (*c).small_runs = state.small_runs;
        }
    }
}

/// `state`'s words in a handoff (its bucket aside), as [`Delta::state_of`] reads them.
#[inline(always)]
fn handoff_words(state: &State) -> [u32; 8] {
    [
        state.step,
        state.splits,
        state.heavy_done,
        state.rounds,
        state.seq,
        state.settled_at_start,
        state.small_runs,
        state.span,
    ]
}

/// Writes `state` into handoff slot `slot` (block 0's thread 0, after a run alone).
#[inline(always)]
unsafe fn store_handoff(c: *mut DeltaControl, slot: usize, state: &State) {
    // SAFETY: the control block is valid.
    unsafe {
        for (k, word) in handoff_words(state).into_iter().enumerate() {
            core::ptr::write_volatile(addr_of_mut!((*c).handoff[slot][k]), word);
        }
        core::ptr::write_volatile(addr_of_mut!((*c).handoff_bucket[slot]), state.bucket);
    }
}

use core::ptr::{addr_of, addr_of_mut};

/// `sssp_delta_stepping`: shortest paths from the source `sssp_init` prepared (see the module
/// documentation).
///
/// # Safety
/// Launched cooperatively with blocks of `SSSP_BLOCK` threads. `offsets` has `n + 1` entries
/// and `targets` (and `weights`, unless the flags say unit weights) `offsets[n]`, every target
/// `< n`; `distances` holds `n` entries set by `sssp_init` (4-byte words with
/// `flags::NARROW_DISTANCES`), `marks` `3 n` words zeroed by it;
/// `near` and `far` hold `2 n` entries, `settled` `n`; `control` is a `DeltaControl` with the
/// source alone in near slot 0, the other counters zero and every `far_min` `u64::MAX`;
/// `trace` holds `trace_capacity` records; `delta` is positive (an integer, or a finite
/// `f32`'s bits for float weights); `shared_lists` holds `shared_list_capacity` entries of
/// `SHARED_LIST_WORDS` words, at least `shared_list_capacity(n, m)` (the interface's); every
/// `shared_tally` is zero and `max_degree` is the largest out-degree (capped).
#[inline(always)]
pub unsafe fn delta_stepping(params: SsspDeltaSteppingParams) {
    // SAFETY: declared once each, before any control flow.
    let scratch = unsafe {
        Scratch {
            tile: TileScratch::declare(),
            window: ListWindow::declare(),
            local: LocalCounters { lengths: SharedArray::declare(), far_min: SharedArray::declare() },
            fused: FusedQueues {
                vertices: SharedArray::declare(),
                distances: SharedArray::declare(),
                lists: SharedArray::declare(),
                lengths: SharedArray::declare(),
            },
            staged: SharedArray::declare(),
            ring: AsyncRing { marks: SharedArray::declare(), words: SharedArray::declare() },
        }
    };
    // One copy of the loop for each width of distance word (the flag is the whole grid's, so
    // every block takes the same copy), so that neither carries the other's branches: one loop
    // for both spilled more registers and cost the 8-byte words 3-4% (bench/NOTES.md 138).
    // SAFETY: forwarded from the caller.
    unsafe {
        if params.flags & flags::NARROW_DISTANCES != 0 {
            Delta::new(params, true).run(scratch)
        } else {
            Delta::new(params, false).run(scratch)
        }
    }
}

warpath_interface::sssp_delta_stepping_fields!(warpath_interface::kernel_entry => delta_stepping);

mod apart;
