//! Neighbor gathering by scan+warp+CTA (Merrill, Garland and Grimshaw, "Scalable GPU Graph
//! Traversal", PPoPP 2012, section 4.1): the adjacency lists of a tile of frontier vertices
//! are shared out so that a long list costs a few coalesced steps instead of one thread
//! walking it alone. Lists of a block's worth of edges or more are enlisted by the whole block
//! ([`gather_tile`]'s CTA step), lists of 32 or more by a warp ([`warp_gather`],
//! [`warp_gather_batch`]), and the rest are packed by a block-wide prefix sum and shared out
//! edge by edge, each thread finding its edge's list by binary search over the scanned
//! offsets.
//!
//! What happens to an edge is the algorithm's: it implements [`EdgeVisitor`]. The operators
//! hand it edge indices into the lists (`u64`), so a visitor over weighted lists reads
//! `weights[edge]` beside `targets[edge]`; lists that cannot be indexed by edge (delta-varint
//! compressed ones) are decoded by the algorithm with the prelude's `varint` decoders instead.

use crate::prelude::{
    ballot_sync, block_exclusive_scan, ffs, lane_id, last_at_most, shfl_idx_sync, shfl_idx_sync_u64, sync_threads,
    sync_threads_or, thread_idx, ScanScratch, SharedArray, FULL_MASK, WARP_SIZE,
};

/// While any lane holds a list `start..end` of at least 32 edges, the warp takes the lowest
/// such lane's list (emptying it: `start = end`) and calls `visit(valid, edge, owner)` on all
/// 32 lanes, 32 consecutive edges per step. All 32 lanes must call it; on return every lane's
/// list is shorter than 32 edges.
#[inline(always)]
pub fn warp_gather(start: &mut u64, end: u64, owner: u32, mut visit: impl FnMut(bool, u64, u32)) {
    warp_gather_batch::<1>(start, end, owner, WARP_SIZE as u64, |valid, edges, owner| visit(valid[0], edges[0], owner));
}

/// [`warp_gather`] taking `K * 32` edges a step, and only lists of at least `min_edges` edges
/// (at least 32; a caller that packs longer lists some other way raises it): lane `i` gets
/// edges `i, i + 32, ...` of the step, so each of the `K` slots is a coalesced row. An edge
/// past the list's end (`valid` false) is replaced by the list's last edge, so a caller may
/// read every slot's edge unconditionally and overlap the `K` reads. On return every lane's
/// list is shorter than `min_edges`.
#[inline(always)]
pub fn warp_gather_batch<const K: usize>(
    start: &mut u64,
    end: u64,
    owner: u32,
    min_edges: u64,
    mut visit: impl FnMut([bool; K], [u64; K], u32),
) {
    let lane = lane_id();
    loop {
        let long_lists = ballot_sync(FULL_MASK, end - *start >= min_edges);
        if long_lists == 0 {
            return;
        }
        let leader = ffs(long_lists) - 1;
        let list_start = shfl_idx_sync_u64(FULL_MASK, *start, leader);
        let list_end = shfl_idx_sync_u64(FULL_MASK, end, leader);
        let list_owner = shfl_idx_sync(FULL_MASK, owner, leader);
        if lane == leader {
            *start = end;
        }
        let mut chunk = list_start;
        while chunk < list_end {
            let edge = |k: usize| chunk + (k as u64) * WARP_SIZE as u64 + lane as u64;
            let valid = core::array::from_fn(|k| edge(k) < list_end);
            let edges = core::array::from_fn(|k| edge(k).min(list_end - 1));
            visit(valid, edges, list_owner);
            chunk += (K as u64) * WARP_SIZE as u64;
        }
    }
}

/// Edges a thread holds at once in the batched gathering loops: [`EdgeVisitor::load`] issues
/// all their reads back to back, so their latencies overlap.
pub const BATCH: usize = 2;

/// What an algorithm does with each gathered edge. The operators call every method on all 32
/// lanes of a warp together (a visitor may use warp votes); an edge is only to be acted on
/// where `valid` is true.
///
/// Edges come in two shapes. [`EdgeVisitor::visit`] takes one edge. Batched loops hand a
/// thread [`BATCH`] edges in two phases: [`EdgeVisitor::load`] reads what the edges point to
/// (their targets; for weighted lists also their weights) for every slot unconditionally, then
/// [`EdgeVisitor::visit_loaded`] acts on them (a BFS probes every slot's bitmap word before it
/// claims any). Splitting the two lets a loop read the next round's edges before this round's
/// visits, as the grid-shared lists do.
pub trait EdgeVisitor {
    /// What [`EdgeVisitor::load`] read for a batch of edges. `Default` stands for a batch that
    /// is never visited (the end of a pipelined loop).
    type Loaded: Copy + Default;

    /// Visits edge `edge` of `owner`'s list when `valid`.
    ///
    /// # Safety
    /// A valid `edge` lies inside `owner`'s list; the rest is the algorithm's kernel contract.
    unsafe fn visit(&mut self, valid: bool, edge: u64, owner: u32);

    /// Reads what `edges` point to, for every slot: the gathering loops point a slot with no
    /// edge of its own at a real edge, so the reads need no branch.
    ///
    /// # Safety
    /// Every `edges[k]` lies inside a list of the graph.
    unsafe fn load(&mut self, edges: [u64; BATCH]) -> Self::Loaded;

    /// Visits the batch that [`EdgeVisitor::load`] read, slot `k` (an edge of `owners[k]`) when
    /// `valid[k]`.
    ///
    /// # Safety
    /// `loaded` came from [`EdgeVisitor::load`] of edges of `owners`.
    unsafe fn visit_loaded(&mut self, valid: [bool; BATCH], loaded: Self::Loaded, owners: [u32; BATCH]);

    /// Both phases for one batch.
    ///
    /// # Safety
    /// As for [`EdgeVisitor::load`].
    #[inline(always)]
    unsafe fn visit_batch(&mut self, valid: [bool; BATCH], edges: [u64; BATCH], owners: [u32; BATCH]) {
        // SAFETY: forwarded from the caller.
        let loaded = unsafe { self.load(edges) };
        // SAFETY: `loaded` is the batch just read.
        unsafe { self.visit_loaded(valid, loaded, owners) };
    }
}

/// Block-shared arrays for [`gather_tile`] with blocks of `BLOCK` threads, declared once at
/// the kernel's top (see `SharedArray`).
pub struct TileScratch<const BLOCK: usize> {
    pub scan: ScanScratch,
    /// The scanned offsets of the packed lists, their owners and their first edges.
    pub prefix: SharedArray<u32, BLOCK>,
    pub owners: SharedArray<u32, BLOCK>,
    pub starts: SharedArray<u64, BLOCK>,
    /// Block enlistment: [elected thread, list owner] and [list start, list end].
    pub enlisted: SharedArray<u32, 2>,
    pub enlisted_range: SharedArray<u64, 2>,
}

impl<const BLOCK: usize> TileScratch<BLOCK> {
    /// Declares the arrays.
    ///
    /// # Safety
    /// As for `SharedArray::declare`: once per kernel, before any control flow.
    #[inline(always)]
    pub unsafe fn declare() -> TileScratch<BLOCK> {
        // SAFETY: forwarded from the caller.
        unsafe {
            TileScratch {
                scan: SharedArray::declare(),
                prefix: SharedArray::declare(),
                owners: SharedArray::declare(),
                starts: SharedArray::declare(),
                enlisted: SharedArray::declare(),
                enlisted_range: SharedArray::declare(),
            }
        }
    }
}

/// Gathers one tile's lists, thread `i` of the block holding list `start..end` of `owner`
/// (empty for a thread without one), by scan+warp+CTA (Merrill et al., section 4.1): the
/// block enlists the lists of `BLOCK` edges or more one at a time, `BLOCK` edges a step; a
/// warp enlists its lanes' lists of `warp_list_edges` edges or more (at least 32; `BLOCK` to
/// leave them to the scan), `BATCH * 32` edges a step; a block-wide scan packs what remains
/// and every thread takes `BATCH` packed edges a round (one when a single row is left). All
/// `BLOCK` threads call it together; it ends with a block barrier, so the next tile may
/// reuse `scratch`.
///
/// # Safety
/// Every list lies inside the graph's lists; the visitor's own contract holds.
#[inline(always)]
pub unsafe fn gather_tile<const BLOCK: usize, V: EdgeVisitor>(
    scratch: &TileScratch<BLOCK>,
    owner: u32,
    mut start: u64,
    end: u64,
    warp_list_edges: u64,
    visitor: &mut V,
) {
    let tid = thread_idx();
    let block = BLOCK as u32;
    // Block enlistment: one list of >= BLOCK edges at a time, BLOCK edges per step.
    // The first test is one barrier with a reduction: most tiles have no such list.
    let mut any_long = sync_threads_or(end - start >= BLOCK as u64);
    while any_long {
        if end - start >= BLOCK as u64 {
            // Every enlisting thread writes the word, so by atomic exchange (the last one
            // wins; plain stores to one word would be a write-write race).
            scratch.enlisted.exchange(0, tid);
        }
        sync_threads();
        let elected = scratch.enlisted.get(0);
        if tid == elected {
            scratch.enlisted.set(1, owner);
            scratch.enlisted_range.set(0, start);
            scratch.enlisted_range.set(1, end);
            start = end;
        }
        sync_threads();
        let (list_owner, list_start, list_end) =
            (scratch.enlisted.get(1), scratch.enlisted_range.get(0), scratch.enlisted_range.get(1));
        // SAFETY: forwarded from the caller.
        unsafe { visit_block_range::<BLOCK, V>(list_start, list_end, list_owner, visitor) };
        any_long = sync_threads_or(end - start >= BLOCK as u64);
    }

    // Warp enlistment: lists of >= `warp_list_edges` edges, BATCH * 32 edges per step.
    // SAFETY (of each visit): forwarded from the caller; every slot's edge lies in the
    // enlisted list.
    // Inlined by force: in one of entry 97's variants of SSSP's kernel (bench/NOTES.md), LLVM
    // kept this closure as a call, with the visitor's state in local memory.
    warp_gather_batch(
        &mut start,
        end,
        owner,
        warp_list_edges,
        #[inline(always)]
        |valid, edges, owner| unsafe { visitor.visit_batch(valid, edges, [owner; BATCH]) },
    );

    // Scan-based gathering of the lists that remain (each < `warp_list_edges` edges).
    let degree = (end - start) as u32;
    let (offset, total) = block_exclusive_scan(degree, &scratch.scan);
    scratch.prefix.set(tid as usize, offset);
    scratch.owners.set(tid as usize, owner);
    scratch.starts.set(tid as usize, start);
    sync_threads();
    let mut packed = 0;
    while packed < total {
        if total - packed <= block {
            // One row left (every round of a small tile, on roads and grids): the one-edge
            // visit, without a batch's idle slots.
            let e = packed + tid;
            let valid = e < total;
            let (mut edge, mut owner) = (0, 0);
            if valid {
                let j = last_at_most(block, |i| scratch.prefix.get(i as usize) <= e) as usize;
                edge = scratch.starts.get(j) + (e - scratch.prefix.get(j)) as u64;
                owner = scratch.owners.get(j);
            }
            // SAFETY: forwarded from the caller.
            unsafe { visitor.visit(valid, edge, owner) };
            break;
        }
        let mut valid = [false; BATCH];
        let mut edges = [0u64; BATCH];
        let mut owners = [0u32; BATCH];
        for k in 0..BATCH {
            let row = packed + k as u32 * block;
            if row >= total {
                // The same for the whole block: no search, and the slot's read repeats
                // slot 0's.
                edges[k] = edges[0];
                continue;
            }
            let e = row + tid;
            valid[k] = e < total;
            let e = e.min(total - 1);
            let j = last_at_most(block, |i| scratch.prefix.get(i as usize) <= e) as usize;
            edges[k] = scratch.starts.get(j) + (e - scratch.prefix.get(j)) as u64;
            owners[k] = scratch.owners.get(j);
        }
        // SAFETY: forwarded from the caller; every slot's edge lies in a packed list.
        unsafe { visitor.visit_batch(valid, edges, owners) };
        packed += BATCH as u32 * block;
    }
    sync_threads();
}

/// The whole block visits edges `start..end` of `owner`, `BLOCK` at a time.
///
/// # Safety
/// `start..end` lies inside `owner`'s list; the visitor's own contract holds.
#[inline(always)]
pub unsafe fn visit_block_range<const BLOCK: usize, V: EdgeVisitor>(start: u64, end: u64, owner: u32, visitor: &mut V) {
    let mut chunk = start;
    while chunk < end {
        let edge = chunk + thread_idx() as u64;
        // SAFETY: forwarded from the caller.
        unsafe { visitor.visit(edge < end, edge, owner) };
        chunk += BLOCK as u64;
    }
}
