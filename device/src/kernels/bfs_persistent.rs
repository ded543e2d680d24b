//! Direction-optimizing BFS in one persistent kernel: every level, top-down or bottom-up,
//! runs inside a single cooperative launch, separated by grid-wide barriers, so no level
//! costs a launch or a round trip to the host.
//!
//! Techniques, by source:
//! - Direction optimization (Beamer et al., SC 2012; as used by Moschou 2026, section 2.3):
//!   top-down while the frontier's edges are few against the unvisited vertices' edges
//!   (`m_f * alpha > m_u` switches), bottom-up while the frontier is large, back to top-down
//!   when it shrinks below `n / beta`. The rule runs on the device, identically in every
//!   block, from counters the previous level accumulated.
//! - Top-down neighbor gathering by scan+warp+CTA (Merrill, Garland and Grimshaw, PPoPP 2012,
//!   section 4.1): adjacency lists of a block's worth of edges or more are enlisted by the whole
//!   block, lists of 32 or more by a warp, and the rest are packed by a block-wide prefix sum
//!   and shared out edge by edge (each thread finds its edge's owner by binary search over
//!   the scanned offsets).
//! - Status lookup in a visited bitmap (Merrill et al., section 4.2): a plain read of the bit
//!   filters most edges; an atomic OR claims a vertex, so each vertex enters the next frontier
//!   exactly once (no duplicates to cull).
//! - Bottom-up with early termination over a frontier bitmap; a warp owns 32 consecutive
//!   vertices, i.e. one bitmap word, so the next frontier's word is the warp's ballot, written
//!   without atomics. Discovered vertices are also emitted straight into the next queue with
//!   warp-aggregated atomics (Moschou 2026, section 3.1: direct queue emission), so a switch
//!   back to top-down needs no O(n) scan.
//! - Small frontiers (Luo, Wong and Hwu, DAC 2010, section 4: hierarchical kernel arrangement):
//!   while a top-down frontier and its edges fit one block, block 0 runs level after level
//!   alone with block barriers only, and the rest of the grid waits at the next grid barrier.

use crate::prelude::*;

/// Threads per block; the host launches with exactly this many.
pub const PERSISTENT_BLOCK: usize = 512;
const BLOCK: u32 = PERSISTENT_BLOCK as u32;
/// Largest frontier (vertices and edges) that block 0 expands alone.
const SMALL_FRONTIER_VERTICES: u32 = BLOCK;
const SMALL_FRONTIER_EDGES: u64 = 2 * BLOCK as u64;
/// Adjacency lists at least this long are shared out to the whole grid (in a small frontier, a
/// few lists of a few thousand edges would otherwise keep one block busy for the whole level).
/// At least a block long, so one block-wide round of edges spans at most two shared lists.
const SHARED_LIST_EDGES: u64 = BLOCK as u64;
/// Words per entry of the shared-list table: the list's first edge in the level's packed edge
/// space, its first edge in the CSR, its owner.
pub const SHARED_LIST_WORDS: usize = 3;
/// The shared-list tally packs entries (high bits) and edges (low bits) into one word, so a
/// single atomic numbers an entry and places its edges consistently.
const TALLY_EDGE_BITS: u32 = 40;

/// Bookkeeping shared by the grid, in global memory; the host zeroes it and seeds level 0.
/// Counters rotate over three slots by level: level `l` reads slot `l % 3`, fills slot
/// `(l + 1) % 3`, and clears slot `(l + 2) % 3`, which nobody touches during level `l`.
#[repr(C)]
pub struct BfsControl {
    /// Grid-barrier arrivals (see [`GridBarrier`]).
    pub barrier_arrivals: u32,
    /// Vertices in the frontier of the levels using each slot.
    pub frontier_len: [u32; 3],
    /// Vertices packed so far into the queue of a level that follows a bottom-up level.
    pub queue_fill: [u32; 3],
    /// Output: levels with a non-empty frontier (depth + 1).
    pub levels: u32,
    /// Where block 0 left off after expanding small frontiers alone.
    pub handoff_level: u32,
    pub handoff_previous_frontier: u32,
    /// Out-degree sums of the frontiers of the levels using each slot.
    pub frontier_edges: [u64; 3],
    /// Shared lists registered by the levels using each slot: entries << 40 | edges.
    pub shared_tally: [u64; 3],
    pub handoff_unvisited_edges: u64,
}

/// Per-level trace records, 4 words each: flags (bit 0 bottom-up, bit 1 expanded by block 0
/// alone), frontier vertices, edges inspected, `%globaltimer` at the level's start. The record
/// after the last level holds only the end time.
pub const TRACE_WORDS: usize = 4;

/// Everything the levels need, gathered once per thread.
struct Bfs {
    out_offsets: *const u64,
    out_targets: *const u32,
    in_offsets: *const u64,
    in_targets: *const u32,
    n: u32,
    words: u32,
    max_out_degree: u64,
    distances: *mut u32,
    parents: *mut u32,
    visited: *mut u32,
    frontier_bits: *mut u32,
    queues: *mut u32,
    control: *mut BfsControl,
    shared_lists: *mut u64,
    shared_list_capacity: u32,
    trace: *mut u64,
    trace_capacity: u32,
    alpha: f32,
    beta: f32,
    allow_bottom_up: bool,
    allow_small: bool,
}

/// Block-shared arrays for top-down gathering, declared once at the kernel's top.
struct Gather {
    scan: ScanScratch,
    prefix: SharedArray<u32, PERSISTENT_BLOCK>,
    owners: SharedArray<u32, PERSISTENT_BLOCK>,
    starts: SharedArray<u64, PERSISTENT_BLOCK>,
    /// Block enlistment: [elected thread, list owner] and [list start, list end]. Shared-list
    /// gathering: the owners and [packed base, CSR start] of the current and next entry.
    enlisted: SharedArray<u32, 2>,
    enlisted_range: SharedArray<u64, 4>,
    /// Per-warp staging of discovered vertices (see [`WarpQueue`]).
    staged: SharedArray<u32, STAGING_WORDS>,
}

const WARPS_PER_BLOCK: usize = PERSISTENT_BLOCK / WARP_SIZE as usize;
/// Each warp stages up to 63 vertices: fewer than 32 between flushes, plus one round's 32.
const STAGING_PER_WARP: usize = 2 * WARP_SIZE as usize;
const STAGING_WORDS: usize = WARPS_PER_BLOCK * STAGING_PER_WARP;

/// A warp's share of the next frontier queue, staged in shared memory and appended 32 vertices
/// at a time: one global atomic per 32 discoveries, where warp-aggregated appends cost one per
/// round with any discovery. On a big top-down level most rounds discover a vertex or two, and
/// millions of atomics on the one queue counter serialize in L2.
struct WarpQueue {
    /// Vertices staged; the same on every lane.
    fill: u32,
}

/// What a thread carries through one top-down level.
struct Expansion<'a> {
    gather: &'a Gather,
    queue: WarpQueue,
    /// Out-degree sum of the vertices this thread claimed.
    next_edges: u64,
}

/// Which tiles of a top-down frontier a block expands: `first, first + stride, ...`, each of
/// `size` frontier vertices.
#[derive(Clone, Copy)]
struct Tiles {
    frontier: u32,
    size: u32,
    first: u32,
    stride: u32,
}

/// Level-to-level state every block tracks identically.
#[derive(Clone, Copy)]
struct LevelState {
    level: u32,
    previous_frontier: u32,
    unvisited_edges: u64,
    bottom_up: bool,
}

/// Sets distances and parents to `UNREACHED`, clears the visited bitmap, then labels
/// `source` (distance 0, its own parent, visited, alone in the first queue).
///
/// # Safety
/// `distances`, `parents` hold `n` words, `visited` `ceil(n / 32)`, `queue` at least one;
/// `source < n`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn bfs_persistent_init(
    distances: *mut u32,
    parents: *mut u32,
    visited: *mut u32,
    queue: *mut u32,
    n: u32,
    source: u32,
) {
    for v in grid_stride(n as u64) {
        let (distance, parent) = if v == source as u64 { (0, source) } else { (UNREACHED, UNREACHED) };
        // SAFETY: `v < n`.
        unsafe {
            *distances.add(v as usize) = distance;
            *parents.add(v as usize) = parent;
        }
    }
    for w in grid_stride(n.div_ceil(32) as u64) {
        let bits = if w == (source / 32) as u64 { 1u32 << (source % 32) } else { 0 };
        // SAFETY: `w < ceil(n / 32)`.
        unsafe { *visited.add(w as usize) = bits };
    }
    if global_idx() == 0 {
        // SAFETY: the queue holds at least one entry.
        unsafe { *queue = source };
    }
}

/// The whole BFS, level after level, in one cooperative launch of `PERSISTENT_BLOCK`-thread
/// blocks (see the module documentation for the techniques).
///
/// # Safety
/// Launched cooperatively (all blocks resident) with `PERSISTENT_BLOCK` threads per block,
/// after `bfs_persistent_init`. `out_*` is the CSR (n + 1 offsets, targets < n), `in_*` its
/// transpose (the same arrays for an undirected graph); `distances`, `parents` hold n words,
/// `visited` ceil(n/32), `frontier_bits` 2 * ceil(n/32), `queues` 2 * n; `control` is zeroed
/// except `frontier_len[0] = 1` and `frontier_edges[0]` = the source's out-degree;
/// `shared_lists` holds `3 * shared_list_capacity` words, with
/// `shared_list_capacity > total_edges / SHARED_LIST_EDGES` (so every long list of a level
/// finds an entry); `max_out_degree` is the largest out-degree; `trace`
/// holds `4 * (trace_capacity + 1)` zeroed words.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn bfs_persistent(
    out_offsets: *const u64,
    out_targets: *const u32,
    in_offsets: *const u64,
    in_targets: *const u32,
    n: u32,
    total_edges: u64,
    max_out_degree: u64,
    distances: *mut u32,
    parents: *mut u32,
    visited: *mut u32,
    frontier_bits: *mut u32,
    queues: *mut u32,
    control: *mut BfsControl,
    shared_lists: *mut u64,
    shared_list_capacity: u32,
    trace: *mut u64,
    trace_capacity: u32,
    alpha: f32,
    beta: f32,
    flags: u32,
) {
    // SAFETY: declared once each, before any control flow.
    let gather = unsafe {
        Gather {
            scan: SharedArray::declare(),
            prefix: SharedArray::declare(),
            owners: SharedArray::declare(),
            starts: SharedArray::declare(),
            enlisted: SharedArray::declare(),
            enlisted_range: SharedArray::declare(),
            staged: SharedArray::declare(),
        }
    };
    let bfs = Bfs {
        out_offsets,
        out_targets,
        in_offsets,
        in_targets,
        n,
        words: n.div_ceil(32),
        max_out_degree,
        distances,
        parents,
        visited,
        frontier_bits,
        queues,
        control,
        shared_lists,
        shared_list_capacity,
        trace,
        trace_capacity,
        alpha,
        beta,
        allow_bottom_up: flags & 1 != 0,
        allow_small: flags & 2 != 0,
    };
    // SAFETY: the control block's barrier word is zero at launch and reserved for this.
    let mut barrier = unsafe { GridBarrier::new(core::ptr::addr_of_mut!((*control).barrier_arrivals)) };
    // SAFETY: `control` is valid (kernel contract).
    let first_edges = unsafe { load_acquire_u64(core::ptr::addr_of!((*control).frontier_edges[0])) };
    let mut state =
        LevelState { level: 0, previous_frontier: 0, unvisited_edges: total_edges - first_edges, bottom_up: false };
    loop {
        // SAFETY: pointers obey the kernel contract throughout.
        let (frontier, frontier_edges) = unsafe { bfs.frontier_counts(state.level) };
        if frontier == 0 {
            if is_grid_leader() {
                // SAFETY: as above.
                unsafe { bfs.finish(state.level) };
            }
            return;
        }
        let bottom_up = bfs.choose_bottom_up(&state, frontier, frontier_edges);
        if state.bottom_up && !bottom_up {
            // Leaving bottom-up: this frontier exists only as a bitmap; pack it into the queue.
            // SAFETY: as above.
            unsafe { bfs.build_queue_from_bitmap(&gather, state.level, &mut barrier) };
            state.bottom_up = false;
        }
        if !bottom_up && bfs.allow_small && bfs.is_small(frontier, frontier_edges) {
            // Everyone has read this level's counters once the barrier passes; from then on
            // block 0 owns them until it hands the level loop back.
            barrier.sync();
            if block_idx() == 0 {
                // SAFETY: as above.
                unsafe { bfs.expand_small_levels(&gather, state) };
            }
            barrier.sync();
            // SAFETY: written by block 0 before the barrier.
            state = unsafe { bfs.read_handoff() };
            continue;
        }
        if is_grid_leader() {
            // SAFETY: as above.
            unsafe { bfs.start_level(state.level, bottom_up, false, frontier) };
        }
        if bottom_up && !state.bottom_up {
            // SAFETY: as above.
            unsafe { bfs.build_frontier_bitmap(state.level, frontier, &mut barrier) };
        }
        let share_long_lists = !bottom_up && bfs.may_have_long_lists(frontier_edges);
        if share_long_lists {
            // SAFETY: as above.
            unsafe { bfs.register_long_lists(state.level, frontier) };
            barrier.sync();
        }
        // SAFETY: as above.
        unsafe {
            if bottom_up {
                bfs.bottom_up_level(state.level);
            } else {
                let tile = bfs.tile_size(frontier, frontier_edges);
                let tiles = Tiles { frontier, size: tile, first: block_idx(), stride: grid_dim() };
                bfs.top_down_level(&gather, state.level, tiles, share_long_lists);
            }
        }
        state = LevelState {
            level: state.level + 1,
            previous_frontier: frontier,
            unvisited_edges: state.unvisited_edges.saturating_sub(frontier_edges),
            bottom_up,
        };
        barrier.sync();
    }
}

impl Bfs {
    #[inline(always)]
    fn queue(&self, level: u32) -> *mut u32 {
        // SAFETY (of the pointer arithmetic): `queues` holds 2 * n words.
        unsafe { self.queues.add((level as usize & 1) * self.n as usize) }
    }

    #[inline(always)]
    fn frontier_bitmap(&self, level: u32) -> *mut u32 {
        // SAFETY (of the pointer arithmetic): `frontier_bits` holds 2 * words words.
        unsafe { self.frontier_bits.add((level as usize & 1) * self.words as usize) }
    }

    #[inline(always)]
    fn out_degree(&self, v: u32) -> u64 {
        // SAFETY: `v < n` and `out_offsets` holds n + 1 entries.
        unsafe { *self.out_offsets.add(v as usize + 1) - *self.out_offsets.add(v as usize) }
    }

    /// Frontier size and out-degree sum of `level`, complete since the last barrier.
    #[inline(always)]
    unsafe fn frontier_counts(&self, level: u32) -> (u32, u64) {
        let slot = (level % 3) as usize;
        // SAFETY: `control` is valid.
        unsafe {
            (
                load_acquire_u32(core::ptr::addr_of!((*self.control).frontier_len[slot])),
                load_acquire_u64(core::ptr::addr_of!((*self.control).frontier_edges[slot])),
            )
        }
    }

    /// Beamer's rule: go bottom-up when the frontier's edges outweigh the unvisited edges
    /// divided by alpha and the frontier is growing; return to top-down once the frontier
    /// is shrinking and smaller than n / beta.
    #[inline(always)]
    fn choose_bottom_up(&self, state: &LevelState, frontier: u32, frontier_edges: u64) -> bool {
        if !self.allow_bottom_up {
            return false;
        }
        let growing = frontier > state.previous_frontier;
        if state.bottom_up {
            !(frontier as f32 * self.beta < self.n as f32 && !growing)
        } else {
            growing && frontier_edges as f32 * self.alpha > state.unvisited_edges as f32
        }
    }

    #[inline(always)]
    fn is_small(&self, frontier: u32, frontier_edges: u64) -> bool {
        frontier <= SMALL_FRONTIER_VERTICES && frontier_edges <= SMALL_FRONTIER_EDGES
    }

    /// Whether a top-down level can hold a list long enough to share with the grid.
    fn may_have_long_lists(&self, frontier_edges: u64) -> bool {
        self.max_out_degree >= SHARED_LIST_EDGES && frontier_edges >= SHARED_LIST_EDGES
    }

    /// Frontier vertices per tile. A tile of BLOCK vertices of average degree `d < 32` takes
    /// about `d` rounds of scan-based gathering, each a chain of dependent memory accesses; for
    /// `d <= 8` the tile shrinks to about BLOCK / d vertices so that a level of low-degree
    /// vertices (roads, grids) spreads over more blocks gathering in one round each. Higher
    /// degrees keep full tiles: their long lists go to warps and blocks anyway, and small tiles
    /// would only multiply the per-tile barriers.
    fn tile_size(&self, frontier: u32, frontier_edges: u64) -> u32 {
        let per_vertex = frontier_edges.div_ceil(frontier.max(1) as u64).max(1);
        if per_vertex > 8 {
            return BLOCK;
        }
        let tile = (BLOCK as u64 / per_vertex).max(BLOCK as u64 / 8) as u32;
        tile / WARP_SIZE * WARP_SIZE
    }

    /// The grid leader's per-level bookkeeping: clear the counters two levels ahead and open
    /// the level's trace record.
    #[inline(always)]
    unsafe fn start_level(&self, level: u32, bottom_up: bool, small: bool, frontier: u32) {
        let clear = ((level + 2) % 3) as usize;
        // SAFETY: `control` and `trace` are valid; slot `clear` is untouched during `level`.
        unsafe {
            (*self.control).frontier_len[clear] = 0;
            (*self.control).frontier_edges[clear] = 0;
            (*self.control).shared_tally[clear] = 0;
            (*self.control).queue_fill[clear] = 0;
            if level < self.trace_capacity {
                let record = self.trace.add(level as usize * TRACE_WORDS);
                *record = bottom_up as u64 | (small as u64) << 1;
                *record.add(1) = frontier as u64;
                *record.add(3) = global_timer_ns();
            }
        }
    }

    #[inline(always)]
    unsafe fn finish(&self, levels: u32) {
        // SAFETY: `control` and `trace` (capacity + 1 records) are valid.
        unsafe {
            (*self.control).levels = levels;
            let record = levels.min(self.trace_capacity) as usize * TRACE_WORDS;
            *self.trace.add(record + 3) = global_timer_ns();
        }
    }

    /// Adds this warp's edges-inspected count to the level's trace record.
    #[inline(always)]
    unsafe fn record_inspected(&self, level: u32, inspected: u64) {
        let total = warp_sum_u64(inspected);
        if lane_id() == 0 && total > 0 && level < self.trace_capacity {
            // SAFETY: the record exists (level < capacity).
            unsafe { atomic_add_u64(self.trace.add(level as usize * TRACE_WORDS + 2), total) };
        }
    }

    /// Adds this warp's discovered out-degree sum to the next level's counter.
    #[inline(always)]
    unsafe fn record_next_edges(&self, level: u32, edges: u64) {
        let total = warp_sum_u64(edges);
        if lane_id() == 0 && total > 0 {
            let slot = ((level + 1) % 3) as usize;
            // SAFETY: `control` is valid.
            unsafe { atomic_add_u64(core::ptr::addr_of_mut!((*self.control).frontier_edges[slot]), total) };
        }
    }

    /// Claims `v` for `level + 1` through the visited bitmap; true if this thread won it.
    #[inline(always)]
    unsafe fn claim(&self, v: u32, parent: u32, level: u32) -> bool {
        let word = (v / 32) as usize;
        let bit = 1u32 << (v % 32);
        // SAFETY: `v < n`, so `word` indexes `visited`; distances and parents hold n words.
        unsafe {
            // Bitmap status lookup: the plain read settles most edges without an atomic.
            if *self.visited.add(word) & bit != 0 || atomic_or_u32(self.visited.add(word), bit) & bit != 0 {
                return false;
            }
            *self.distances.add(v as usize) = level + 1;
            *self.parents.add(v as usize) = parent;
        }
        true
    }

    /// Visits out-edge `edge` of `owner` when `valid`; all 32 lanes call it together.
    #[inline(always)]
    unsafe fn visit(&self, valid: bool, edge: u64, owner: u32, level: u32, exp: &mut Expansion) {
        let mut claimed = false;
        let mut v = 0;
        if valid {
            // SAFETY: `edge` indexes `out_targets`; targets are vertices.
            unsafe {
                v = *self.out_targets.add(edge as usize);
                claimed = self.claim(v, owner, level);
            }
            if claimed {
                exp.next_edges += self.out_degree(v);
            }
        }
        // SAFETY: each claimed vertex gets one of at most n slots in the next queue.
        unsafe { self.stage(exp, claimed, v, level) };
    }

    /// Stages `v` (when `claimed`) in the warp's queue, appending 32 to the next frontier once
    /// 32 or more are staged. All 32 lanes call it together.
    #[inline(always)]
    unsafe fn stage(&self, staging: &mut Expansion, claimed: bool, v: u32, level: u32) {
        let wanting = ballot_sync(FULL_MASK, claimed);
        if wanting == 0 {
            return;
        }
        let (queue, gather) = (&mut staging.queue, staging.gather);
        let base = warp_in_block() as usize * STAGING_PER_WARP;
        if claimed {
            gather.staged.set(base + (queue.fill + popc(wanting & lanemask_lt())) as usize, v);
        }
        queue.fill += popc(wanting);
        if queue.fill >= WARP_SIZE {
            sync_warp(FULL_MASK);
            // SAFETY: forwarded from the caller.
            unsafe { self.append_staged(gather, base, WARP_SIZE, level) };
            let lane = lane_id() as usize;
            let left = (queue.fill - WARP_SIZE) as usize;
            let carried = if lane < left { gather.staged.get(base + WARP_SIZE as usize + lane) } else { 0 };
            sync_warp(FULL_MASK);
            if lane < left {
                gather.staged.set(base + lane, carried);
            }
            queue.fill -= WARP_SIZE;
        }
    }

    /// Appends the first `count` (at most 32) staged vertices of the warp at `base` to the next
    /// frontier with one atomic. All 32 lanes call it together, after a `sync_warp`.
    #[inline(always)]
    unsafe fn append_staged(&self, gather: &Gather, base: usize, count: u32, level: u32) {
        let lane = lane_id();
        let mut position = 0;
        if lane == 0 {
            let slot = ((level + 1) % 3) as usize;
            // SAFETY: `control` is valid.
            position = unsafe { atomic_add_u32(core::ptr::addr_of_mut!((*self.control).frontier_len[slot]), count) };
        }
        position = shfl_idx_sync(FULL_MASK, position, 0);
        if lane < count {
            // SAFETY: at most n vertices are ever claimed, the size of the next queue.
            unsafe { *self.queue(level + 1).add((position + lane) as usize) = gather.staged.get(base + lane as usize) };
        }
    }

    /// Appends whatever the warp still stages; called by all lanes at the end of a level.
    #[inline(always)]
    unsafe fn flush_staged(&self, staging: &mut Expansion, level: u32) {
        if staging.queue.fill > 0 {
            sync_warp(FULL_MASK);
            let base = warp_in_block() as usize * STAGING_PER_WARP;
            // SAFETY: forwarded from the caller.
            unsafe { self.append_staged(staging.gather, base, staging.queue.fill, level) };
            staging.queue.fill = 0;
        }
    }

    /// Expands the frontier of `level` top-down, taking the tiles of frontier vertices that
    /// `tiles` assigns to this block. With `share_long_lists`, the lists of
    /// `SHARED_LIST_EDGES` or more were registered for the grid (`register_long_lists`): this
    /// block first takes chunks of them, then skips them in its tiles.
    #[inline(always)]
    unsafe fn top_down_level(&self, gather: &Gather, level: u32, tiles: Tiles, share_long_lists: bool) {
        let Tiles { frontier, size: tile_size, first: first_tile, stride: tile_stride } = tiles;
        let tid = thread_idx();
        let queue = self.queue(level);
        let tiles = frontier.div_ceil(tile_size);
        let mut exp = Expansion { gather, queue: WarpQueue { fill: 0 }, next_edges: 0 };
        let mut inspected = 0u64;
        if share_long_lists {
            // SAFETY: forwarded from the kernel contract.
            unsafe { self.gather_shared_lists(level, &mut exp) };
        }
        let mut tile = first_tile;
        while tile < tiles {
            let slot = tile * tile_size + tid;
            let (vertex, mut start, end) = if tid < tile_size && slot < frontier {
                // SAFETY: `slot < frontier`, the queue's length; its entries are vertices.
                unsafe {
                    let u = *queue.add(slot as usize);
                    (u, *self.out_offsets.add(u as usize), *self.out_offsets.add(u as usize + 1))
                }
            } else {
                (0, 0, 0)
            };
            inspected += end - start;
            if share_long_lists && end - start >= SHARED_LIST_EDGES {
                start = end; // registered: the grid expands it in chunks
            }

            // Block enlistment: one list of >= BLOCK edges at a time, BLOCK edges per step.
            // The first test is one barrier with a reduction: most tiles have no such list.
            let mut any_long = sync_threads_or(end - start >= BLOCK as u64);
            while any_long {
                if end - start >= BLOCK as u64 {
                    gather.enlisted.set(0, tid);
                }
                sync_threads();
                let elected = gather.enlisted.get(0);
                if tid == elected {
                    gather.enlisted.set(1, vertex);
                    gather.enlisted_range.set(0, start);
                    gather.enlisted_range.set(1, end);
                    start = end;
                }
                sync_threads();
                let (owner, list_start, list_end) =
                    (gather.enlisted.get(1), gather.enlisted_range.get(0), gather.enlisted_range.get(1));
                // SAFETY: forwarded from the kernel contract.
                unsafe { self.visit_block_range(list_start, list_end, owner, level, &mut exp) };
                any_long = sync_threads_or(end - start >= BLOCK as u64);
            }

            // Warp enlistment: lists of >= 32 edges, 32 edges per step.
            // SAFETY (of each visit): forwarded from the kernel contract.
            warp_gather(&mut start, end, vertex, |valid, edge, owner| unsafe {
                self.visit(valid, edge, owner, level, &mut exp)
            });

            // Scan-based gathering of the short lists that remain (each < 32 edges).
            let degree = (end - start) as u32;
            let (offset, total) = block_exclusive_scan(degree, &gather.scan);
            gather.prefix.set(tid as usize, offset);
            gather.owners.set(tid as usize, vertex);
            gather.starts.set(tid as usize, start);
            sync_threads();
            let mut packed = 0;
            while packed < total {
                let e = packed + tid;
                let valid = e < total;
                let (mut edge, mut owner) = (0, 0);
                if valid {
                    let j = last_at_most(&gather.prefix, e);
                    edge = gather.starts.get(j) + (e - gather.prefix.get(j)) as u64;
                    owner = gather.owners.get(j);
                }
                // SAFETY: forwarded from the kernel contract.
                unsafe { self.visit(valid, edge, owner, level, &mut exp) };
                packed += BLOCK;
            }
            sync_threads();
            tile += tile_stride;
        }
        // SAFETY: forwarded from the kernel contract.
        unsafe {
            self.flush_staged(&mut exp, level);
            self.record_next_edges(level, exp.next_edges);
            self.record_inspected(level, inspected);
        }
    }

    /// The whole block visits edges `start..end` of `owner`, `BLOCK` at a time.
    #[inline(always)]
    unsafe fn visit_block_range(&self, start: u64, end: u64, owner: u32, level: u32, exp: &mut Expansion) {
        let mut chunk = start;
        while chunk < end {
            let edge = chunk + thread_idx() as u64;
            // SAFETY: forwarded from the kernel contract.
            unsafe { self.visit(edge < end, edge, owner, level, exp) };
            chunk += BLOCK as u64;
        }
    }

    /// Registers every frontier list of `SHARED_LIST_EDGES` or more edges in the shared-list
    /// table, one atomic per warp: a warp scan numbers its long lists and places their edges,
    /// and one add on the tally reserves entries and edge space for all of them (an entry's
    /// index and place still grow together, as gathering needs). The caller passes a grid
    /// barrier before anyone gathers, so every block sees every list.
    #[inline(always)]
    unsafe fn register_long_lists(&self, level: u32, frontier: u32) {
        let queue = self.queue(level);
        let lane = lane_id();
        let tally = core::ptr::addr_of_mut!((*self.control).shared_tally[(level % 3) as usize]);
        let mut warp_base = global_idx() - lane;
        while warp_base < frontier {
            let i = warp_base + lane;
            let (mut v, mut start, mut end) = (0, 0, 0);
            if i < frontier {
                // SAFETY: `i < frontier`; queue entries are vertices.
                unsafe {
                    v = *queue.add(i as usize);
                    (start, end) = (*self.out_offsets.add(v as usize), *self.out_offsets.add(v as usize + 1));
                }
            }
            let long = end - start >= SHARED_LIST_EDGES;
            let long_lanes = ballot_sync(FULL_MASK, long);
            if long_lanes != 0 {
                let length = if long { end - start } else { 0 };
                let through = warp_inclusive_scan_u64(length);
                let warp_total = shfl_idx_sync_u64(FULL_MASK, through, WARP_SIZE - 1);
                let mut old = 0;
                if lane == 0 {
                    // SAFETY: `control` is valid.
                    old = unsafe { atomic_add_u64(tally, ((popc(long_lanes) as u64) << TALLY_EDGE_BITS) | warp_total) };
                }
                let old = shfl_idx_sync_u64(FULL_MASK, old, 0);
                if long {
                    let entry = (old >> TALLY_EDGE_BITS) + popc(long_lanes & lanemask_lt()) as u64;
                    let packed = (old & ((1 << TALLY_EDGE_BITS) - 1)) + through - length;
                    if entry >= self.shared_list_capacity as u64 {
                        // Unreachable under the contract; trap rather than lose the list.
                        // SAFETY: `trap` takes no operands and never returns.
                        unsafe { core::arch::asm!("trap;", options(noreturn)) };
                    }
                    // SAFETY: `entry` is below the capacity.
                    unsafe {
                        let record = self.shared_lists.add(entry as usize * SHARED_LIST_WORDS);
                        *record = packed;
                        *record.add(1) = start;
                        *record.add(2) = v as u64;
                    }
                }
            }
            warp_base += global_threads();
        }
    }

    /// Grid-level load-balanced gathering of the shared lists: their edges, packed end to end,
    /// are cut into one contiguous range per block, so every block expands the same number of
    /// edges with no atomics. A block finds its first entry by binary search, then walks its
    /// range one block-wide round at a time; since every shared list is longer than a round,
    /// a round touches at most two entries.
    #[inline(always)]
    unsafe fn gather_shared_lists(&self, level: u32, exp: &mut Expansion) {
        let gather = exp.gather;
        let tid = thread_idx();
        // SAFETY: `control` is valid; the registrations happened before the last grid barrier.
        let tally = unsafe { load_acquire_u64(core::ptr::addr_of!((*self.control).shared_tally[(level % 3) as usize])) };
        let entries = tally >> TALLY_EDGE_BITS;
        let total = tally & ((1 << TALLY_EDGE_BITS) - 1);
        if entries == 0 {
            return;
        }
        let blocks = grid_dim() as u64;
        let first = total * block_idx() as u64 / blocks;
        let last = total * (block_idx() as u64 + 1) / blocks;
        let base_of = |entry: u64| -> u64 {
            // SAFETY: entries below `entries` were written before the barrier.
            if entry < entries { unsafe { *self.shared_lists.add(entry as usize * SHARED_LIST_WORDS) } } else { total }
        };
        // Thread 0 keeps the cursor: the entry holding the round's first edge.
        let mut cursor = 0u64;
        if tid == 0 {
            let (mut low, mut high) = (0u64, entries);
            while high - low > 1 {
                let middle = (low + high) / 2;
                if base_of(middle) <= first {
                    low = middle;
                } else {
                    high = middle;
                }
            }
            cursor = low;
        }
        let mut round = first;
        while round < last {
            if tid == 0 {
                while base_of(cursor + 1) <= round {
                    cursor += 1;
                }
                for (k, entry) in [cursor, cursor + 1].into_iter().enumerate() {
                    if entry < entries {
                        // SAFETY: as above.
                        unsafe {
                            let record = self.shared_lists.add(entry as usize * SHARED_LIST_WORDS);
                            gather.enlisted_range.set(2 * k, *record);
                            gather.enlisted_range.set(2 * k + 1, *record.add(1));
                            gather.enlisted.set(k, *record.add(2) as u32);
                        }
                    } else {
                        gather.enlisted_range.set(2 * k, total);
                    }
                }
            }
            sync_threads();
            let packed = round + tid as u64;
            let valid = packed < last;
            let which = (packed >= gather.enlisted_range.get(2)) as usize;
            let edge = gather.enlisted_range.get(2 * which + 1) + (packed - gather.enlisted_range.get(2 * which));
            let owner = gather.enlisted.get(which);
            // SAFETY: `valid` edges lie inside a registered list, hence inside `out_targets`.
            unsafe { self.visit(valid, edge, owner, level, exp) };
            sync_threads();
            round += BLOCK as u64;
        }
    }

    /// Fills the frontier bitmap of `level` from its queue: clear, barrier, set, barrier.
    #[inline(always)]
    unsafe fn build_frontier_bitmap(&self, level: u32, frontier: u32, barrier: &mut GridBarrier) {
        let bits = self.frontier_bitmap(level);
        let queue = self.queue(level);
        for w in grid_stride(self.words as u64) {
            // SAFETY: `w < words`.
            unsafe { *bits.add(w as usize) = 0 };
        }
        barrier.sync();
        for i in grid_stride(frontier as u64) {
            // SAFETY: `i < frontier`, the queue's length; entries are vertices.
            unsafe {
                let v = *queue.add(i as usize);
                atomic_or_u32(bits.add(v as usize / 32), 1 << (v % 32));
            }
        }
        barrier.sync();
    }

    /// One bottom-up level: every unvisited vertex looks for a parent among its in-neighbors
    /// in the frontier bitmap of `level`, stopping at the first. Each warp owns bitmap words.
    #[inline(always)]
    unsafe fn bottom_up_level(&self, level: u32) {
        let lane = lane_id();
        let current = self.frontier_bitmap(level);
        let next = self.frontier_bitmap(level + 1);
        let warps = global_threads() / WARP_SIZE;
        let mut word = global_idx() / WARP_SIZE;
        let mut next_edges = 0u64;
        let mut inspected = 0u64;
        let mut discovered_total = 0u64;
        while word < self.words {
            // SAFETY: `word < words`; every bitmap holds `words` words.
            let seen = unsafe { *self.visited.add(word as usize) };
            if seen == u32::MAX {
                if lane == 0 {
                    // SAFETY: as above.
                    unsafe { *next.add(word as usize) = 0 };
                }
                word += warps;
                continue;
            }
            let v = word * WARP_SIZE + lane;
            let mut parent = UNREACHED;
            if v < self.n && seen & (1 << lane) == 0 {
                // SAFETY: `v < n`; in-neighbors are vertices, so their words exist.
                unsafe {
                    let end = *self.in_offsets.add(v as usize + 1);
                    let mut edge = *self.in_offsets.add(v as usize);
                    while edge < end {
                        let u = *self.in_targets.add(edge as usize);
                        inspected += 1;
                        if *current.add(u as usize / 32) & (1 << (u % 32)) != 0 {
                            parent = u;
                            break;
                        }
                        edge += 1;
                    }
                }
            }
            let found = parent != UNREACHED;
            let discovered = ballot_sync(FULL_MASK, found);
            if lane == 0 {
                // SAFETY: this warp alone writes `word` of these bitmaps during the level.
                unsafe {
                    *next.add(word as usize) = discovered;
                    if discovered != 0 {
                        *self.visited.add(word as usize) = seen | discovered;
                    }
                }
            }
            if found {
                // SAFETY: `v < n`.
                unsafe {
                    *self.distances.add(v as usize) = level + 1;
                    *self.parents.add(v as usize) = parent;
                }
                next_edges += self.out_degree(v);
            }
            if lane == 0 {
                discovered_total += popc(discovered) as u64;
            }
            word += warps;
        }
        // SAFETY: forwarded from the kernel contract.
        unsafe {
            self.record_next_edges(level, next_edges);
            self.record_inspected(level, inspected);
            let total = warp_sum_u64(discovered_total);
            let slot = ((level + 1) % 3) as usize;
            if lane == 0 && total > 0 {
                atomic_add_u32(core::ptr::addr_of_mut!((*self.control).frontier_len[slot]), total as u32);
            }
        }
    }

    /// Packs the frontier bitmap of `level` into its queue: each block takes `BLOCK` words at a
    /// time, a block-wide scan of their popcounts places every vertex, and one atomic per block
    /// and round reserves the space. Ends with a grid barrier.
    ///
    /// Bottom-up levels only count what they discover: a queue is needed only when top-down
    /// resumes, and packing it once from the bitmap costs a few hundred atomics, where emitting
    /// it from every bottom-up level cost one per warp and word (hundreds of thousands).
    #[inline(always)]
    unsafe fn build_queue_from_bitmap(&self, gather: &Gather, level: u32, barrier: &mut GridBarrier) {
        let tid = thread_idx();
        let bits = self.frontier_bitmap(level);
        let queue = self.queue(level);
        let fill = core::ptr::addr_of_mut!((*self.control).queue_fill[(level % 3) as usize]);
        let rounds = self.words.div_ceil(BLOCK);
        let mut round = block_idx();
        while round < rounds {
            let w = round * BLOCK + tid;
            // SAFETY: `w < words`.
            let word = if w < self.words { unsafe { *bits.add(w as usize) } } else { 0 };
            let (offset, total) = block_exclusive_scan(popc(word), &gather.scan);
            if tid == 0 && total > 0 {
                // SAFETY: `fill` is this level's zeroed counter.
                gather.enlisted.set(0, unsafe { atomic_add_u32(fill, total) });
            }
            sync_threads();
            let mut position = gather.enlisted.get(0).wrapping_add(offset);
            let mut remaining = word;
            while remaining != 0 {
                // SAFETY: the bitmap holds exactly the frontier's vertices, fewer than n.
                unsafe { *queue.add(position as usize) = w * 32 + remaining.trailing_zeros() };
                position += 1;
                remaining &= remaining - 1;
            }
            sync_threads();
            round += grid_dim();
        }
        barrier.sync();
    }

    /// Block 0 alone: expands top-down levels with block barriers only while they stay small,
    /// then records where it stopped for the rest of the grid.
    #[inline(always)]
    unsafe fn expand_small_levels(&self, gather: &Gather, mut state: LevelState) {
        loop {
            // SAFETY: forwarded from the kernel contract.
            let (frontier, frontier_edges) = unsafe { self.frontier_counts(state.level) };
            if frontier == 0
                || !self.is_small(frontier, frontier_edges)
                || self.choose_bottom_up(&state, frontier, frontier_edges)
            {
                break;
            }
            if thread_idx() == 0 {
                // SAFETY: forwarded from the kernel contract.
                unsafe { self.start_level(state.level, false, true, frontier) };
            }
            let tiles = Tiles { frontier, size: BLOCK, first: 0, stride: 1 };
            // SAFETY: forwarded from the kernel contract.
            unsafe { self.top_down_level(gather, state.level, tiles, false) };
            state = LevelState {
                level: state.level + 1,
                previous_frontier: frontier,
                unvisited_edges: state.unvisited_edges.saturating_sub(frontier_edges),
                bottom_up: false,
            };
            // The counters this level filled must be complete before the next level reads them.
            sync_threads();
        }
        if thread_idx() == 0 {
            // SAFETY: `control` is valid; the rest of the grid reads these after the barrier.
            unsafe {
                (*self.control).handoff_level = state.level;
                (*self.control).handoff_previous_frontier = state.previous_frontier;
                (*self.control).handoff_unvisited_edges = state.unvisited_edges;
            }
        }
    }

    #[inline(always)]
    unsafe fn read_handoff(&self) -> LevelState {
        // SAFETY: `control` is valid.
        unsafe {
            LevelState {
                level: load_acquire_u32(core::ptr::addr_of!((*self.control).handoff_level)),
                previous_frontier: load_acquire_u32(core::ptr::addr_of!((*self.control).handoff_previous_frontier)),
                unvisited_edges: load_acquire_u64(core::ptr::addr_of!((*self.control).handoff_unvisited_edges)),
                bottom_up: false,
            }
        }
    }
}

/// The last index `j` with `prefix[j] <= e` in a non-decreasing array whose first entry is 0.
#[inline(always)]
fn last_at_most(prefix: &SharedArray<u32, PERSISTENT_BLOCK>, e: u32) -> usize {
    let (mut low, mut high) = (0usize, PERSISTENT_BLOCK);
    while high - low > 1 {
        let middle = (low + high) / 2;
        if prefix.get(middle) <= e {
            low = middle;
        } else {
            high = middle;
        }
    }
    low
}
