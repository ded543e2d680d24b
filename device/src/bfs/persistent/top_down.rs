//! Top-down levels (over a plain CSR; `compressed.rs` has the compressed counterparts): the
//! BFS's visit of a gathered edge ([`TopDown`]: bitmap status lookup, claim, staged queue
//! appends), the tiles each block takes and the grid-wide gathering of long lists. The
//! scan+warp+CTA gathering itself is `operators::gather` (see the module documentation of
//! [`super`] for the techniques and their sources).

use super::*;
use crate::operators::gather::{gather_tile, EdgeVisitor, TileScratch, BATCH};
use crate::operators::gather_compressed::TargetVisitor;
use crate::operators::shared_lists::{ListWindow, SharedLists, Tally};
use crate::operators::warp_queue::{stage_base, stage_words, WarpQueue};
use warpath_interface::bfs::persistent::RESTART_EDGES;

/// Block-shared arrays for top-down gathering, declared once at the kernel's top.
pub(super) struct Gather {
    /// Scan+warp+CTA gathering's arrays (also lent to the bitmap-to-queue conversion).
    pub(super) tile: TileScratch<PERSISTENT_BLOCK>,
    /// Shared-list gathering's window of entries.
    pub(super) window: ListWindow,
    /// Per-warp staging of discovered vertices (see [`WarpQueue`]).
    pub(super) staged: SharedArray<u32, STAGING_WORDS>,
    /// The level loop's state, one copy per block in two slots by level parity (see
    /// `Bfs::run`): kept here rather than in every thread's registers, where it would be live
    /// through the gathering loops and push them into spilling.
    pub(super) level_state: SharedArray<u64, { 2 * super::LEVEL_STATE_WORDS }>,
}

/// `share_from` of a top-down level that shares no list with the grid.
pub(super) const NO_SHARING: u64 = u64::MAX;
/// Lists this long or longer are shared with the grid on small levels ([`Bfs::share_from`]).
const SMALL_LEVEL_SHARED_LIST_EDGES: u64 = WARP_SIZE as u64;

pub(super) const WARPS_PER_BLOCK: usize = PERSISTENT_BLOCK / WARP_SIZE as usize;
/// Each warp stages the next frontier's vertices (`operators::warp_queue`).
pub(super) const STAGING_WORDS: usize = stage_words(WARPS_PER_BLOCK, 1);

/// How a top-down level writes the next frontier (XBFS section 4.1).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Output {
    /// Scan-free: every claimed vertex is appended to the next queue (staged per warp).
    Queue,
    /// Single-scan: a claimed vertex is only marked in the next frontier bitmap, which a
    /// bottom-up level reads as it is; no queue is written.
    Bitmap,
}

/// What a thread carries through one top-down level.
pub(super) struct Expansion<'a> {
    pub(super) gather: &'a Gather,
    pub(super) queue: WarpQueue,
    pub(super) output: Output,
    /// Vertices this thread claimed (counted for the next frontier's size when they are not
    /// appended to a queue, whose appends count them).
    pub(super) claimed: u32,
    /// Out-degree sum of the vertices this thread claimed.
    pub(super) next_edges: u64,
}

impl<'a> Expansion<'a> {
    #[inline(always)]
    pub(super) fn new(gather: &'a Gather, output: Output) -> Expansion<'a> {
        Expansion { gather, queue: WarpQueue::new(), output, claimed: 0, next_edges: 0 }
    }
}

/// The top-down BFS's visit of a gathered edge (the [`EdgeVisitor`] of the gathering
/// operators): a plain read of the target's visited bit filters the edge, an atomic OR claims
/// the target, which is labeled and put into the next frontier. A batch issues every slot's
/// target read, then every slot's bitmap read, before any claim, so their latencies overlap:
/// a thread of the one-edge loops waits out a DRAM load and an L2 load per edge, which kept
/// kron:24's busiest level near 50 G edges/s (NOTES 27).
pub(super) struct TopDown<'v, 'g, const COMPRESSED: bool> {
    pub(super) bfs: &'v Bfs<COMPRESSED>,
    pub(super) level: u32,
    pub(super) exp: &'v mut Expansion<'g>,
}

impl<const COMPRESSED: bool> TargetVisitor for TopDown<'_, '_, COMPRESSED> {
    #[inline(always)]
    unsafe fn visit_target(&mut self, valid: bool, target: u32, owner: u32) {
        // SAFETY: decoded neighbors are vertices.
        unsafe { self.bfs.visit_vertex(valid, target, owner, self.level, self.exp) };
    }
}

impl<const COMPRESSED: bool> EdgeVisitor for TopDown<'_, '_, COMPRESSED> {
    /// The batch's targets.
    type Loaded = [u32; BATCH];

    #[inline(always)]
    unsafe fn visit(&mut self, valid: bool, edge: u64, owner: u32) {
        // SAFETY: forwarded from the caller: a valid edge indexes the plain CSR's targets.
        unsafe { self.bfs.visit(valid, edge, owner, self.level, self.exp) };
    }

    #[inline(always)]
    unsafe fn load(&mut self, edges: [u64; BATCH]) -> [u32; BATCH] {
        // SAFETY: every `edges[k]` indexes the plain CSR's targets (caller's contract).
        unsafe { self.bfs.targets_of(edges) }
    }

    #[inline(always)]
    unsafe fn visit_loaded(&mut self, valid: [bool; BATCH], targets: [u32; BATCH], owners: [u32; BATCH]) {
        // SAFETY: targets of the CSR are vertices.
        unsafe { self.bfs.visit_targets(valid, targets, owners, self.level, self.exp) };
    }
}

/// Which tiles of a top-down frontier a block expands: `first, first + stride, ...`, each of
/// `size` frontier vertices.
#[derive(Clone, Copy)]
pub(super) struct Tiles {
    frontier: u32,
    size: u32,
    first: u32,
    stride: u32,
}

impl Tiles {
    /// Whether no block gets a second tile: then the slowest tile is the level's time.
    #[inline(always)]
    fn one_per_block(&self) -> bool {
        self.frontier.div_ceil(self.size) <= self.stride
    }
}

impl<const COMPRESSED: bool> Bfs<COMPRESSED> {
    /// One top-down level, by the whole grid or (`alone`) by block 0. Unless `share_from` is
    /// [`NO_SHARING`], the lists of `share_from` edges or more were registered
    /// (`register_long_lists`) and a grid barrier passed.
    #[inline(always)]
    pub(super) unsafe fn expand_top_down(
        &self,
        gather: &Gather,
        level: u32,
        frontier: u32,
        frontier_edges: u64,
        alone: bool,
        share_from: u64,
        output: Output,
    ) {
        let exp = Expansion::new(gather, output);
        let share_long_lists = share_from != NO_SHARING;
        // SAFETY (of both calls): forwarded from the kernel contract.
        if COMPRESSED {
            let warps = WARPS_PER_BLOCK as u32;
            let (first_warp, warp_stride) =
                if alone { (warp_in_block(), warps) } else { (global_idx() / WARP_SIZE, grid_dim() * warps) };
            unsafe { self.top_down_level_compressed(exp, level, frontier, first_warp, warp_stride, share_long_lists) };
        } else {
            let tiles = if alone {
                Tiles { frontier, size: BLOCK, first: 0, stride: 1 }
            } else {
                self.grid_tiles(frontier, frontier_edges)
            };
            unsafe { self.top_down_level(exp, level, tiles, share_from) };
        }
    }

    /// The shortest list a top-down level shares with the grid (`register_long_lists`), or
    /// [`NO_SHARING`] when it can hold no list that long. Lists of a block or more are shared
    /// on every level. On a level where no block gets a second tile (a small frontier: the
    /// neighbors of a Kronecker root, most levels of a small social graph), lists of 32 edges
    /// or more are shared too: there, each list a tile keeps is gathered by that one block
    /// while the rest of the grid waits at the level's barrier, so the slowest tile is the
    /// level's time (NOTES 39). Compressed lists keep the one threshold, which their restart
    /// table is built for. Every frontier vertex registers at most one entry, so a level of
    /// fewer vertices than the table's capacity cannot overflow it.
    pub(super) fn share_from(&self, frontier: u32, frontier_edges: u64) -> u64 {
        // The cheap tests first: roads and grids, with no list of 32 edges, never pay for the
        // tile arithmetic below (its 64-bit division) on their thousands of levels.
        if self.max_out_degree < SMALL_LEVEL_SHARED_LIST_EDGES || frontier_edges < SMALL_LEVEL_SHARED_LIST_EDGES {
            return NO_SHARING;
        }
        let small_level = !COMPRESSED
            && self.grid_tiles(frontier, frontier_edges).one_per_block()
            && frontier < self.shared_list_capacity;
        let from = if small_level { SMALL_LEVEL_SHARED_LIST_EDGES } else { SHARED_LIST_EDGES };
        if self.max_out_degree >= from && frontier_edges >= from {
            from
        } else {
            NO_SHARING
        }
    }

    /// The tiles of a level the whole grid expands, block `b` taking tiles `b, b + blocks, ...`.
    #[inline(always)]
    fn grid_tiles(&self, frontier: u32, frontier_edges: u64) -> Tiles {
        Tiles { frontier, size: self.tile_size(frontier, frontier_edges), first: block_idx(), stride: grid_dim() }
    }

    /// Frontier vertices per tile. A tile of BLOCK vertices of average degree `d < 32` takes
    /// about `d` rounds of scan-based gathering, each a chain of dependent memory accesses; for
    /// `d <= 8` the tile shrinks to about BLOCK / d vertices so that a level of low-degree
    /// vertices (roads, grids) spreads over more blocks gathering in one round each. Higher
    /// degrees keep full tiles: their long lists go to warps and blocks anyway, and small tiles
    /// would only multiply the per-tile barriers.
    pub(super) fn tile_size(&self, frontier: u32, frontier_edges: u64) -> u32 {
        let per_vertex = frontier_edges.div_ceil(frontier.max(1) as u64).max(1);
        if per_vertex > 8 {
            return BLOCK;
        }
        let tile = (BLOCK as u64 / per_vertex).max(BLOCK as u64 / 8) as u32;
        tile / WARP_SIZE * WARP_SIZE
    }

    /// Whether `v`'s visited bit is set, by a plain read (it may lag an atomic OR by another
    /// thread, never lead it: a clear bit only sends the caller on to the atomic).
    ///
    /// # Safety
    /// `v < n`.
    #[inline(always)]
    pub(super) unsafe fn seen(&self, v: u32) -> bool {
        // SAFETY: `v < n`, so its word indexes `visited`.
        unsafe { *self.visited.add(v as usize / 32) & (1 << (v % 32)) != 0 }
    }

    /// Claims `v`, whose visited bit a plain read found clear, by atomic OR; labels it and
    /// returns true if this thread won it.
    ///
    /// # Safety
    /// `v < n`.
    #[inline(always)]
    pub(super) unsafe fn claim_unseen(&self, v: u32, parent: u32, level: u32) -> bool {
        let bit = 1u32 << (v % 32);
        // SAFETY: `v < n`, so its word indexes `visited`; distances hold n words.
        unsafe {
            if atomic_or_u32(self.visited.add(v as usize / 32), bit) & bit != 0 {
                return false;
            }
            *self.distances.add(v as usize) = level + 1;
            self.record_parent(v, parent);
        }
        true
    }

    /// Stores `parent` as `v`'s parent, unless the BFS labels distances only (then `parents`
    /// may be null and is left alone).
    ///
    /// # Safety
    /// `v < n`.
    #[inline(always)]
    pub(super) unsafe fn record_parent(&self, v: u32, parent: u32) {
        if !self.distances_only {
            // SAFETY: `v < n`, and `parents` holds n words unless `distances_only` (kernel contract).
            unsafe { *self.parents.add(v as usize) = parent };
        }
    }

    /// Visits out-edge `edge` of `owner` when `valid`; all 32 lanes call it together.
    #[inline(always)]
    pub(super) unsafe fn visit(&self, valid: bool, edge: u64, owner: u32, level: u32, exp: &mut Expansion) {
        // SAFETY: a valid `edge` indexes the plain CSR's targets.
        let v = if valid { unsafe { self.target_of(edge) } } else { 0 };
        // SAFETY: forwarded from the caller; targets are vertices.
        unsafe { self.visit_vertex(valid, v, owner, level, exp) };
    }

    /// Visits neighbor `v` of `owner` when `valid`; all 32 lanes call it together.
    #[inline(always)]
    pub(super) unsafe fn visit_vertex(&self, valid: bool, v: u32, owner: u32, level: u32, exp: &mut Expansion) {
        // SAFETY: a valid `v` is a vertex.
        let unseen = valid && !unsafe { self.seen(v) };
        // SAFETY: forwarded from the caller.
        unsafe { self.visit_unseen(unseen, v, owner, level, exp) };
    }

    /// Reads the targets of out-edges `edges`, which must index the plain CSR's targets.
    #[inline(always)]
    pub(super) unsafe fn targets_of(&self, edges: [u64; BATCH]) -> [u32; BATCH] {
        // SAFETY: every `edges[k]` indexes the plain CSR's targets (caller's contract).
        core::array::from_fn(|k| unsafe { self.target_of(edges[k]) })
    }

    /// Reads the target of out-edge `edge`, which must index the plain CSR's targets. A level
    /// reads each target once, so the read streams (evict first) rather than crowd the visited
    /// bitmap's words out of L1.
    #[inline(always)]
    unsafe fn target_of(&self, edge: u64) -> u32 {
        // SAFETY: `edge` indexes the plain CSR's targets (caller's contract).
        unsafe { load_streaming_u32(self.edges.out_edges.cast::<u32>().add(edge as usize)) }
    }

    /// Visits neighbors `targets` of `owners` where `valid`: their bitmap reads back to back,
    /// then the claims. All 32 lanes call it together.
    #[inline(always)]
    pub(super) unsafe fn visit_targets(
        &self,
        valid: [bool; BATCH],
        targets: [u32; BATCH],
        owners: [u32; BATCH],
        level: u32,
        exp: &mut Expansion,
    ) {
        // SAFETY: targets are vertices.
        let seen: [bool; BATCH] = core::array::from_fn(|k| unsafe { self.seen(targets[k]) });
        for k in 0..BATCH {
            // SAFETY: forwarded from the caller; targets are vertices.
            unsafe { self.visit_unseen(valid[k] && !seen[k], targets[k], owners[k], level, exp) };
        }
    }

    /// Visits neighbor `v` of `owner`, whose visited bit a plain read found clear when
    /// `unseen`; all 32 lanes call it together.
    #[inline(always)]
    unsafe fn visit_unseen(&self, unseen: bool, v: u32, owner: u32, level: u32, exp: &mut Expansion) {
        let mut claimed = false;
        if unseen {
            // SAFETY: `v` is a vertex.
            claimed = unsafe { self.claim_unseen(v, owner, level) };
            if claimed {
                exp.next_edges += self.out_degree(v);
            }
        }
        if exp.output == Output::Bitmap {
            if claimed {
                exp.claimed += 1;
                // SAFETY: `v < n`; the next frontier's bitmap holds `words` words and was
                // cleared before this level (single-scan).
                unsafe { atomic_or_u32(self.frontier_bitmap(level + 1).add(v as usize / 32), 1 << (v % 32)) };
            }
            return;
        }
        // SAFETY: each claimed vertex gets one of at most n slots in the next queue.
        unsafe { self.stage(exp, claimed, v, level) };
    }

    /// Ends a top-down level for this thread: appends what its warp still stages, or counts
    /// the vertices it marked, and adds its next-frontier edges and its reads to the totals.
    /// All lanes call it together.
    #[inline(always)]
    pub(super) unsafe fn finish_expansion(&self, exp: &mut Expansion, level: u32, reads: Reads) {
        // SAFETY (of all three): forwarded from the kernel contract.
        unsafe {
            if exp.output == Output::Bitmap {
                let marked = warp_sum_u64(exp.claimed as u64);
                if lane_id() == 0 && marked > 0 {
                    let slot = ((level + 1) % 3) as usize;
                    atomic_add_u32(core::ptr::addr_of_mut!((*self.control).frontier_len[slot]), marked as u32);
                }
            } else {
                self.flush_staged(exp, level);
            }
            self.record_next_edges(level, exp.next_edges);
            self.record_reads(level, reads);
        }
    }

    /// Stages `v` (when `claimed`) in the warp's queue, appending 32 to the next frontier once
    /// 32 or more are staged. All 32 lanes call it together.
    #[inline(always)]
    pub(super) unsafe fn stage(&self, staging: &mut Expansion, claimed: bool, v: u32, level: u32) {
        // SAFETY: at most n vertices are ever claimed, the size of the next queue.
        unsafe { staging.queue.stage(&staging.gather.staged, stage_base(0, 1), claimed, v, || self.next_queue(level)) };
    }

    /// Appends whatever the warp still stages; called by all lanes at the end of a level.
    #[inline(always)]
    pub(super) unsafe fn flush_staged(&self, staging: &mut Expansion, level: u32) {
        // SAFETY: as for `stage`.
        unsafe { staging.queue.flush(&staging.gather.staged, stage_base(0, 1), || self.next_queue(level)) };
    }

    /// The queue of level `level + 1` and its length word.
    #[inline(always)]
    fn next_queue(&self, level: u32) -> (*mut u32, *mut u32) {
        let slot = ((level + 1) % 3) as usize;
        // SAFETY (pointer arithmetic only): `control` is valid.
        (self.queue(level + 1), unsafe { core::ptr::addr_of_mut!((*self.control).frontier_len[slot]) })
    }

    /// Expands the frontier of `level` top-down, taking the tiles of frontier vertices that
    /// `tiles` assigns to this block. Unless `share_from` is [`NO_SHARING`], the lists of
    /// `share_from` edges or more were registered for the grid (`register_long_lists`): this
    /// block first takes chunks of them, then skips them in its tiles.
    #[inline(always)]
    pub(super) unsafe fn top_down_level(&self, mut exp: Expansion, level: u32, tiles: Tiles, share_from: u64) {
        let Tiles { frontier, size: tile_size, first: first_tile, stride: tile_stride } = tiles;
        let tid = thread_idx();
        let queue = self.queue(level);
        let one_per_block = tiles.one_per_block();
        let tiles = frontier.div_ceil(tile_size);
        // Warp enlistment (lists of 32 or more edges) pays on levels where each block expands
        // many tiles: no owner search per edge, and a warp that draws several such lists in one
        // tile is evened out by the next tiles. When no block gets a second tile (a small
        // frontier of long lists, or block 0 alone), the slowest tile is the level's time, and
        // a warp walking its lanes' lists one after another while seven warps wait at the scan
        // barrier sets it; the block-wide scan packs those lists over all 256 threads instead
        // (NOTES 38). Block enlistment has already taken every list of BLOCK edges or more.
        let warp_list_edges = if one_per_block { BLOCK as u64 } else { WARP_SIZE as u64 };
        let gather = exp.gather;
        let mut reads = self.reads();
        let mut visitor = TopDown { bfs: self, level, exp: &mut exp };
        if share_from != NO_SHARING {
            // SAFETY: the registrations happened before the last grid barrier; registered
            // lists are frontier vertices' lists; visits are forwarded from the kernel contract.
            unsafe {
                let tally = Tally::read(self.shared_tally(level));
                self.shared_lists().gather::<PERSISTENT_BLOCK, _>(tally, &gather.window, &mut visitor)
            };
        }
        let mut tile = first_tile;
        while tile < tiles {
            let slot = tile * tile_size + tid;
            let (vertex, mut start, end) = if tid < tile_size && slot < frontier {
                // SAFETY: `slot < frontier`, the queue's length; its entries are vertices.
                let u = unsafe { *queue.add(slot as usize) };
                let (start, end) = self.out_range(u);
                (u, start, end)
            } else {
                (0, 0, 0)
            };
            if tid < tile_size && slot < frontier {
                reads.list(vertex, 4 * start, 4 * end, end - start);
            }
            if end - start >= share_from {
                start = end; // registered: the grid expands it in chunks
            }

            // SAFETY: forwarded from the kernel contract; every list is a frontier vertex's.
            unsafe { gather_tile(&gather.tile, vertex, start, end, warp_list_edges, &mut visitor) };
            tile += tile_stride;
        }
        // SAFETY: forwarded from the kernel contract.
        unsafe { self.finish_expansion(&mut exp, level, reads) };
    }

    /// Registers every frontier list of `share_from` or more edges in the shared-list table
    /// (`operators::shared_lists`: one atomic per warp; their edges, or their pieces for
    /// compressed lists, placed end to end). The caller passes a grid barrier before anyone
    /// gathers, so every block sees every list.
    #[inline(always)]
    pub(super) unsafe fn register_long_lists(&self, level: u32, frontier: u32, share_from: u64) {
        let queue = self.queue(level);
        let lane = lane_id();
        let tally = self.shared_tally(level);
        let mut warp_base = global_idx() - lane;
        while warp_base < frontier {
            let i = warp_base + lane;
            let (mut v, mut start, mut end) = (0, 0, 0);
            if i < frontier {
                // SAFETY: `i < frontier`; queue entries are vertices.
                v = unsafe { *queue.add(i as usize) };
                (start, end) = self.out_range(v);
            }
            let degree = if COMPRESSED {
                if i < frontier {
                    self.out_degree(v)
                } else {
                    0
                }
            } else {
                end - start
            };
            let long = degree >= share_from;
            let long_lanes = ballot_sync(FULL_MASK, long);
            if long_lanes != 0 {
                // A compressed list is shared out as pieces between restart points, each decoded
                // by one warp; `start` becomes the index of its first restart point.
                let length = match (long, COMPRESSED) {
                    (false, _) => 0,
                    (true, false) => degree,
                    (true, true) => {
                        // SAFETY: `v` has a list this long, so it is in the restart table.
                        start = unsafe { self.edges.restarts.first_point(v) } as u64;
                        degree.div_ceil(RESTART_EDGES)
                    }
                };
                // SAFETY: `tally` is valid; every frontier vertex registers at most one entry,
                // which the table's capacity allows (kernel contract).
                unsafe { self.shared_lists().register(tally, long_lanes, long, start, length, v) };
            }
            warp_base += global_threads();
        }
    }

    /// The shared-list table of the level's long lists.
    #[inline(always)]
    pub(super) fn shared_lists(&self) -> SharedLists {
        SharedLists { table: self.shared_lists, capacity: self.shared_list_capacity }
    }

    /// The word that tallies level `level`'s shared lists (three slots rotate, as the
    /// frontier counters do).
    #[inline(always)]
    pub(super) fn shared_tally(&self, level: u32) -> *mut u64 {
        // SAFETY: `control` is valid (kernel contract); no reference is made.
        unsafe { core::ptr::addr_of_mut!((*self.control).shared_tally[(level % 3) as usize]) }
    }
}
