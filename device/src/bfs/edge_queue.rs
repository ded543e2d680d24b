//! Top-down BFS over an out-of-core edge queue, in one persistent kernel: Merrill, Garland
//! and Grimshaw's contract-expand, two-phase and hybrid strategies ("Scalable GPU Graph
//! Traversal", PPoPP 2012, sections 5.2-5.4). Their fourth, expand-contract (section 5.1,
//! fused gathering and lookup over a vertex queue), is the top-down path of `bfs_persistent`.
//!
//! A level of every strategy is the same two steps, in the same order:
//! - *contraction*: each item of the edge queue (a neighbor of the previous frontier and the
//!   vertex it was reached from) is filtered by a bitmap status lookup (section 4.2), by warp
//!   culling (here one `match.any` per warp: lanes holding the same vertex keep only the
//!   lowest) and by history culling (a per-block hash of vertices already seen, section 4.2),
//!   and the survivors claim their vertex with an atomic OR on the visited bitmap, so each
//!   vertex is labeled, and expanded, exactly once (the redundant expansion factor is 1);
//! - *expansion*: the claimed vertices' adjacency lists are copied into the next edge queue by
//!   scan+warp+CTA gathering (section 4.1): one block-wide prefix sum over the tile's degrees
//!   places every list in the queue (one atomic per tile reserves the space), lists of a block
//!   or more are copied by the whole block, lists of a warp or more by one warp, and the rest
//!   are packed by a second prefix sum and copied edge by edge, each thread finding its edge's
//!   list by binary search over the packed offsets. A tile with no list of 32 or more (roads,
//!   grids) skips both enlistments and the second sum, and a contracted vertex's offsets are
//!   read before its claim's atomic, so the two round trips overlap.
//!
//! The strategies differ in how the two steps are coupled. Contract-expand fuses them: a block
//! contracts a tile of the edge queue and expands its own survivors at once, from registers
//! and shared memory, with one grid barrier per level; a queue smaller than the grid's threads
//! is cut into smaller tiles, spread over the block's warps, so that every block takes a share
//! ([`Tiles::for_blocks`]). Two-phase separates them by a grid
//! barrier: contraction writes the claimed vertices to a vertex queue (warp-aggregated
//! appends), and after the barrier expansion reads that queue in tiles, so every block expands
//! an even share of the frontier whatever the contraction left in each block. Hybrid picks per
//! level, as section 5.4 does: two-phase when the edge queue holds more items than the grid
//! has threads, contract-expand otherwise.
//!
//! Small queues (Luo, Wong and Hwu, DAC 2010, section 4: hierarchical kernel arrangement): a
//! fused level whose queue fits one tile runs in block 0 alone, and so do the levels after it
//! while their queues stay that small, with block barriers only; the rest of the grid waits
//! at the next grid barrier. Road networks run hundreds of such levels. One level up the same
//! hierarchy, on graphs without long lists, a sub-grid of one block an SM takes the levels of
//! up to a thread's item each of its own, with a barrier among those blocks only ([`SubGrid`]).

use crate::prelude::*;
use warpath_interface::bfs::edge_queue as interface;
use warpath_interface::bfs::edge_queue::{
    BfsEdgeQueueParams, EdgeQueueControl, EdgeQueueKind, EdgeQueueStrategy, EdgeTraceFlags, EDGE_TRACE_CLAIMED,
    EDGE_TRACE_FLAGS, EDGE_TRACE_ITEMS, EDGE_TRACE_TIME, EDGE_TRACE_WORDS,
};

/// Threads per block; the host launches with exactly this many.
pub const EDGE_QUEUE_BLOCK: usize = interface::EDGE_QUEUE_BLOCK as usize;
const BLOCK: u32 = interface::EDGE_QUEUE_BLOCK;
/// Entries of each block's history-culling hash.
const HISTORY_ENTRIES: usize = 1024;
/// Strides of a list that [`EdgeQueueBfs::copy_list`] loads before it stores any.
const COPY_ROUNDS: usize = 2;
/// Largest edge queue that block 0 takes alone (one tile).
const SMALL_QUEUE_ITEMS: u64 = BLOCK as u64;

/// Block-shared arrays, declared once at the kernel's top.
struct Shared {
    scan: ScanScratch,
    /// Per thread of a tile: where its list starts in the tile's share of the queue, where the
    /// packed (short-list) prefix sum puts it, where the list starts in the CSR, and its owner.
    out_offset: SharedArray<u32, EDGE_QUEUE_BLOCK>,
    packed_offset: SharedArray<u32, EDGE_QUEUE_BLOCK>,
    list_start: SharedArray<u64, EDGE_QUEUE_BLOCK>,
    owner: SharedArray<u32, EDGE_QUEUE_BLOCK>,
    /// The tile's base in the next edge queue; the block-enlisted thread.
    tile_base: SharedArray<u64, 1>,
    enlisted: SharedArray<u32, 1>,
    history: SharedArray<u32, HISTORY_ENTRIES>,
}

/// Which tiles of the edge queue a block takes: `first, first + stride, ...`, each of `size`
/// items (at most `EDGE_QUEUE_BLOCK`), held by every `spacing`-th thread.
#[derive(Clone, Copy)]
struct Tiles {
    first: u64,
    stride: u64,
    size: u64,
    spacing: u32,
}

impl Tiles {
    /// Full tiles, one item a thread (block 0's levels alone).
    fn full() -> Tiles {
        Tiles { first: 0, stride: BLOCK as u64, size: BLOCK as u64, spacing: 1 }
    }

    /// The tiles of the first `blocks` blocks of the grid (all of them, or the sub-grid) for a
    /// queue of `items`: full tiles while the queue fills those blocks, else
    /// smaller ones, so that every block takes a share. A block expands the survivors of its
    /// own tile, so in a small level full tiles leave the work to `items / 256` blocks while
    /// the rest of the grid waits at the barrier (NOTES 28).
    /// - `spread` (graphs with lists of a warp or more): tiles just big enough to cover the
    ///   queue with every block, their items held by threads `spacing` apart, in different
    ///   warps. In the first levels of social graphs (Slashdot: 666 items whose survivors
    ///   copy 74,146 edges) the lists that a warp enlists then spread over every warp of
    ///   every block instead of queueing up in one warp of a few blocks.
    /// - otherwise (roads, grids: every list is packed by the block-wide scan, wherever its
    ///   item sits): tiles of a multiple of 32 items, contiguous, so fewer tiles reserve
    ///   space in the next queue; spreading measured 14% slower on grid2d:5000.
    fn for_blocks(items: u64, spread: bool, blocks: u32) -> Tiles {
        let blocks = blocks as u64;
        let (size, spacing) = if spread {
            let size = items.div_ceil(blocks).clamp(1, BLOCK as u64);
            (size, BLOCK / size as u32)
        } else {
            (items.div_ceil(blocks).next_multiple_of(WARP_SIZE as u64).clamp(WARP_SIZE as u64, BLOCK as u64), 1)
        };
        Tiles { first: block_idx() as u64 * size, stride: blocks * size, size, spacing }
    }

    /// The item that thread `tid` holds in the tile starting at `tile`, or `items` (out of
    /// range: none) for a thread that holds none.
    fn item(&self, tile: u64, tid: u32, items: u64) -> u64 {
        let rank = (tid / self.spacing) as u64;
        if tid % self.spacing == 0 && rank < self.size {
            tile + rank
        } else {
            items
        }
    }
}

/// The sub-grid tier: the first `blocks` blocks (0: no tier) take the fused levels of more
/// than a tile's items and at most `items`, one a thread. On roads and grids, thousands of
/// such levels each pay a grid barrier and a reservation per block; with one block an SM for
/// the whole traversal instead of four they took 20-28% less time (NOTES 31), while the big
/// levels of other graphs still want the whole grid.
#[derive(Clone, Copy)]
struct SubGrid {
    blocks: u32,
    items: u64,
    spread: bool,
}

impl SubGrid {
    fn takes(&self, items: u64) -> bool {
        self.blocks > 0 && items > SMALL_QUEUE_ITEMS && items <= self.items
    }
}

/// A vertex's adjacency list in the CSR.
#[derive(Clone, Copy)]
struct List {
    start: u64,
    degree: u32,
}

const NO_LIST: List = List { start: 0, degree: 0 };

/// One edge of a tile's packed short lists: its CSR position, its queue position, its owner.
#[derive(Clone, Copy)]
struct PackedEdge {
    from: u64,
    to: u64,
    owner: u32,
}

/// An edge queue: neighbor ids and, unless distances only, the vertices they were reached from.
#[derive(Clone, Copy)]
struct EdgeQueue {
    targets: *mut u32,
    parents: *mut u32,
}

struct EdgeQueueBfs<'s> {
    offsets: *const u64,
    targets: *const u32,
    distances: *mut u32,
    /// Null, and never touched, for a distances-only BFS.
    parents: *mut u32,
    visited: *mut u32,
    vertex_queue: *mut u32,
    control: *mut EdgeQueueControl,
    trace: *mut u64,
    trace_capacity: u32,
    shared: &'s Shared,
}

/// The whole top-down BFS in one cooperative launch of `EDGE_QUEUE_BLOCK`-thread blocks, by
/// the contract-expand, two-phase or hybrid strategy (`strategy`; see the module
/// documentation).
///
/// # Safety
/// Launched cooperatively (all blocks resident) with `EDGE_QUEUE_BLOCK` threads per block, after
/// `bfs_persistent_init` (with a null frontier bitmap) labeled the source, marked it visited
/// and put it alone in `vertex_queue`. `offsets`/`targets` are the CSR (n + 1 offsets, targets
/// < n) with fewer than 2^32 edges; `distances` holds n words, `parents` n words or is null
/// (then nothing writes parents); `visited` ceil(n / 32) words; `vertex_queue` n words;
/// `edge_queues` and (unless `parents` is null) `parent_queues` `2 * edge_capacity` words each,
/// `edge_capacity` at least the number of edges; `control` zeroed; `trace`
/// `EDGE_TRACE_WORDS * (trace_capacity + 1)` words; `strategy` one of `STRATEGY_*`, with bit
/// `SPREAD_TILES_BIT` optionally set.
#[inline(always)]
unsafe fn edge_queue(params: BfsEdgeQueueParams) {
    let BfsEdgeQueueParams {
        offsets,
        targets,
        distances,
        parents,
        visited,
        vertex_queue,
        edge_queues,
        parent_queues,
        edge_capacity,
        control,
        trace,
        trace_capacity,
        strategy,
    } = params;
    // SAFETY: declared once each, here, before any control flow (the rule of `SharedArray`).
    let shared = unsafe {
        Shared {
            scan: ScanScratch::declare(),
            out_offset: SharedArray::declare(),
            packed_offset: SharedArray::declare(),
            list_start: SharedArray::declare(),
            owner: SharedArray::declare(),
            tile_base: SharedArray::declare(),
            enlisted: SharedArray::declare(),
            history: SharedArray::declare(),
        }
    };
    let bfs = EdgeQueueBfs {
        offsets,
        targets,
        distances,
        parents,
        visited,
        vertex_queue,
        control,
        trace,
        trace_capacity,
        shared: &shared,
    };
    let queue = |half: u64| EdgeQueue {
        // SAFETY: both halves lie inside the `2 * edge_capacity` words of the contract; a null
        // parent queue stays null (it is never dereferenced then).
        targets: unsafe { edge_queues.add((half * edge_capacity) as usize) },
        parents: if parents.is_null() {
            parent_queues
        } else {
            unsafe { parent_queues.add((half * edge_capacity) as usize) }
        },
    };
    // SAFETY: forwarded from this kernel's contract.
    unsafe { bfs.run([queue(0), queue(1)], strategy) }
}

// The entry point, named and with the parameters of its field list in the interface crate.
warpath_interface::bfs_edge_queue_fields!(warpath_interface::kernel_entry => edge_queue);

impl EdgeQueueBfs<'_> {
    #[inline(always)]
    unsafe fn run(&self, queues: [EdgeQueue; 2], strategy: EdgeQueueStrategy) {
        let spread = strategy.spread_tiles();
        let sub_grid_blocks = strategy.sub_grid_blocks().min(grid_dim());
        let kind = strategy.kind();
        let shared = self.shared;
        let mut i = thread_idx() as usize;
        while i < HISTORY_ENTRIES {
            // No vertex has this id, so an empty entry never culls.
            shared.history.set(i, UNREACHED);
            i += BLOCK as usize;
        }
        sync_threads();
        // Level `l` contracts the queue level `l - 1` filled: they alternate by parity.
        // (A select, not an index: a run-time index would put the pair in local memory.)
        let [even, odd] = queues;
        let input = move |level: u32| if level % 2 == 1 { even } else { odd };
        let output = move |level: u32| if level % 2 == 1 { odd } else { even };
        // Raw projections only: every block writes the control block, so no reference to it.
        let control = self.control;
        // SAFETY: `control` is the grid's zeroed control block (kernel contract).
        let mut barrier = unsafe { GridBarrier::new(&raw mut (*control).barrier_arrivals) };
        let resident_threads = grid_dim() as u64 * BLOCK as u64;
        // A sub-grid only where it is smaller than the grid; its blocks alone ever use its
        // barrier.
        let sub_grid = SubGrid {
            blocks: if sub_grid_blocks < grid_dim() { sub_grid_blocks } else { 0 },
            items: sub_grid_blocks as u64 * BLOCK as u64,
            spread,
        };
        // SAFETY: a word of the zeroed control block that nothing else uses.
        let mut sub_barrier =
            unsafe { GridBarrier::first_blocks(&raw mut (*control).sub_grid_arrivals, sub_grid.blocks.max(1)) };
        self.record_level(0, 0, 0);
        if is_grid_leader() {
            // Level 0 claims the source alone.
            self.record_claimed(0, 1);
        }
        // Level 0: the source alone is in the vertex queue; expand it into the first edge queue.
        // SAFETY: forwarded from the kernel contract (the queue holds the source).
        unsafe { self.expand_vertex_queue(1, output(0), self.edge_count(1)) };
        barrier.sync();
        let mut level = 1u32;
        loop {
            // SAFETY: the barrier above made every block's additions visible.
            let items = unsafe { self.edge_count(level).read_volatile() };
            self.begin_level(level);
            if items == 0 {
                if is_grid_leader() {
                    self.record_end(level);
                    // SAFETY: the leader alone writes the output.
                    unsafe { (&raw mut (*control).levels).write_volatile(level) };
                }
                return;
            }
            let fused = match kind {
                EdgeQueueKind::ContractExpand => true,
                EdgeQueueKind::TwoPhase => false,
                EdgeQueueKind::Hybrid => items <= resident_threads,
            };
            if fused && items <= SMALL_QUEUE_ITEMS {
                // Luo et al.'s small-frontier path: block 0 runs level after level alone, with
                // block barriers only, while the queue fits one tile; the grid waits here.
                // Block 0 clears this level's counter slot two levels on, so every block must
                // have read it first: the barrier says so (the persistent kernel's protocol).
                // SAFETY: forwarded from the kernel contract.
                level = self.hand_off(&mut barrier, 1, || unsafe { self.run_alone(level, items, &input, &output) });
                continue;
            }
            if fused && sub_grid.takes(items) {
                // The sub-grid tier: the first blocks run the medium levels (and, through
                // block 0, the small ones among them) with their own barrier, whose cost
                // grows with the blocks arriving; the rest of the grid waits here. Same
                // protocol as block 0's levels alone.
                level = self.hand_off(&mut barrier, sub_grid.blocks, || {
                    // SAFETY: forwarded from the kernel contract.
                    unsafe { self.run_sub_grid(level, items, &input, &output, sub_grid, &mut sub_barrier) }
                });
                continue;
            }
            self.record_level(level, fused as u64 * EdgeTraceFlags::FUSED.bits(), items);
            let (next_count, claimed_count) = (self.edge_count(level + 1), self.vertex_count(level));
            // SAFETY (of the three calls): forwarded from the kernel contract; the counters are
            // this level's.
            if fused {
                unsafe {
                    self.contract_expand(
                        level,
                        input(level),
                        items,
                        output(level),
                        Tiles::for_blocks(items, spread, grid_dim()),
                    )
                };
            } else {
                unsafe { self.contract_to_vertex_queue(level, input(level), items, claimed_count) };
                barrier.sync();
                let frontier = unsafe { claimed_count.read_volatile() };
                unsafe { self.expand_vertex_queue(frontier, output(level), next_count) };
            }
            barrier.sync();
            level += 1;
        }
    }

    /// Block 0's levels alone, from `level` whose queue holds `items` (at most one tile), until
    /// a queue is empty or outgrows a tile: returns the level the grid goes on with (whose
    /// bookkeeping [`Self::begin_level`] may repeat; it is idempotent). All threads of block 0
    /// call it together.
    #[inline(always)]
    unsafe fn run_alone(
        &self,
        mut level: u32,
        mut items: u64,
        input: &impl Fn(u32) -> EdgeQueue,
        output: &impl Fn(u32) -> EdgeQueue,
    ) -> u32 {
        loop {
            self.record_level(level, EdgeTraceFlags::FUSED.bits() | EdgeTraceFlags::ALONE.bits(), items);
            let tiles = Tiles::full();
            // SAFETY: forwarded from the kernel contract.
            unsafe { self.contract_expand(level, input(level), items, output(level), tiles) };
            // Block 0's own atomics are visible to all its threads after the block barrier.
            sync_threads();
            level += 1;
            // SAFETY: this level's counter, complete after the barrier.
            items = unsafe { self.edge_count(level).read_volatile() };
            if items == 0 || items > SMALL_QUEUE_ITEMS {
                return level;
            }
            self.begin_level(level);
            // The leader's clearing of the next counters must land before anyone adds to them.
            sync_threads();
        }
    }

    /// The sub-grid's levels, from `level` whose queue holds `items` (more than a tile, at most
    /// the sub-grid's threads), until a queue is empty or outgrows the sub-grid: returns the
    /// level the grid goes on with, as [`Self::run_alone`] does. Small levels in between go to
    /// block 0 alone while the other blocks of the sub-grid wait at its barrier. All threads of
    /// the sub-grid's blocks call it together, with the barrier of those blocks.
    #[inline(always)]
    unsafe fn run_sub_grid(
        &self,
        mut level: u32,
        mut items: u64,
        input: &impl Fn(u32) -> EdgeQueue,
        output: &impl Fn(u32) -> EdgeQueue,
        sub_grid: SubGrid,
        barrier: &mut GridBarrier,
    ) -> u32 {
        loop {
            if items <= SMALL_QUEUE_ITEMS {
                // Block 0 alone, while the sub-grid's other blocks wait at its barrier.
                // SAFETY: forwarded from the kernel contract.
                level = self.hand_off(barrier, 1, || unsafe { self.run_alone(level, items, input, output) });
                // SAFETY: this level's counter, complete after the barrier.
                items = unsafe { self.edge_count(level).read_volatile() };
                if items == 0 || !sub_grid.takes(items) {
                    return level;
                }
                self.begin_level(level);
            }
            self.record_level(level, EdgeTraceFlags::FUSED.bits() | EdgeTraceFlags::SUB_GRID.bits(), items);
            let tiles = Tiles::for_blocks(items, sub_grid.spread, sub_grid.blocks);
            // SAFETY: forwarded from the kernel contract.
            unsafe { self.contract_expand(level, input(level), items, output(level), tiles) };
            barrier.sync();
            level += 1;
            // SAFETY: this level's counter, complete after the barrier.
            items = unsafe { self.edge_count(level).read_volatile() };
            if items == 0 || (items > SMALL_QUEUE_ITEMS && !sub_grid.takes(items)) {
                return level;
            }
            // The leader's clearing of the slots levels `level + 1` and `level + 2` fill lands
            // before anyone adds to them: the sub-grid's barrier at the end of this level is
            // between.
            self.begin_level(level);
        }
    }

    /// Hands the levels from here to the first `runners` of the blocks meeting at `barrier`
    /// (block 0 alone, or the sub-grid) and returns the level they stop at, on every block:
    /// all pass `barrier` first, so that every block has read this level's count before the
    /// runners, going ahead, clear its slot two levels on; the runners call `levels`, whose
    /// result block 0's thread 0 publishes; all meet at `barrier` again and read it. Every
    /// thread of the blocks meeting at `barrier` calls it together.
    #[inline(always)]
    fn hand_off(&self, barrier: &mut GridBarrier, runners: u32, levels: impl FnOnce() -> u32) -> u32 {
        barrier.sync();
        if block_idx() < runners {
            let next = levels();
            if is_grid_leader() {
                // SAFETY: block 0's thread 0 alone writes it; the barrier publishes it.
                unsafe { (&raw mut (*self.control).handoff_level).write_volatile(next) };
            }
        }
        barrier.sync();
        // SAFETY: written before the barrier.
        unsafe { (&raw const (*self.control).handoff_level).read_volatile() }
    }

    /// The grid leader's bookkeeping at the start of `level`: record the previous level's
    /// claimed vertices, clear the counters that level `level + 1` fills.
    fn begin_level(&self, level: u32) {
        if is_grid_leader() {
            // SAFETY: the leader alone writes these, and nobody touches them during `level`.
            unsafe {
                if level >= 2 {
                    let claimed = self.vertex_count(level - 1).read_volatile();
                    self.record_claimed(level - 1, claimed);
                }
                self.edge_count(level + 2).write_volatile(0);
                self.vertex_count(level + 1).write_volatile(0);
            }
        }
    }

    /// The count of edge-queue items level `level` contracts (filled by level `level - 1`).
    fn edge_count(&self, level: u32) -> *mut u64 {
        // SAFETY (of the projection): `control` is valid for the whole launch.
        unsafe { &raw mut (*self.control).edge_count[(level % 3) as usize] }
    }

    /// The count of vertices level `level` claims.
    fn vertex_count(&self, level: u32) -> *mut u32 {
        // SAFETY (of the projection): `control` is valid for the whole launch.
        unsafe { &raw mut (*self.control).vertex_count[(level % 3) as usize] }
    }

    /// Contract-expand (section 5.2): each block contracts its tiles of the edge queue and
    /// expands its own survivors straight into the next queue.
    #[inline(always)]
    unsafe fn contract_expand(&self, level: u32, input: EdgeQueue, items: u64, output: EdgeQueue, tiles: Tiles) {
        let (next_count, claimed_count) = (self.edge_count(level + 1), self.vertex_count(level));
        let mut tile = tiles.first;
        while tile < items {
            let item = tiles.item(tile, thread_idx(), items);
            // SAFETY (of both calls): forwarded; `item` is checked against the queue's length.
            let (claimed, v, list) = unsafe { self.contract(level, input, item, items) };
            let found = popc(ballot_sync(FULL_MASK, claimed));
            if lane_id() == 0 && found > 0 {
                // SAFETY: this level's counter (kernel contract).
                unsafe { atomic_add_u32(claimed_count, found) };
            }
            unsafe { self.expand_tile(v, list, output, next_count) };
            tile += tiles.stride;
        }
    }

    /// Two-phase's contraction kernel (section 5.3): the claimed vertices go to the vertex
    /// queue, by warp-aggregated appends. Warps stride over the queue together, so that every
    /// lane reaches the warp-wide votes.
    unsafe fn contract_to_vertex_queue(&self, level: u32, input: EdgeQueue, items: u64, claimed_count: *mut u32) {
        let mut warp_base = global_idx() as u64 - lane_id() as u64;
        let stride = global_threads() as u64;
        while warp_base < items {
            let item = warp_base + lane_id() as u64;
            // SAFETY: forwarded; `item` is checked against the queue's length.
            let (claimed, v, _) = unsafe { self.contract(level, input, item, items) };
            // SAFETY: at most n vertices are claimed in a traversal, the queue's length.
            unsafe {
                if let Some(slot) = warp_aggregated_append(FULL_MASK, claimed, claimed_count) {
                    *self.vertex_queue.add(slot as usize) = v;
                }
            }
            warp_base += stride;
        }
    }

    /// Two-phase's expansion kernel, and level 0's: expands the `frontier` vertices of the
    /// vertex queue in block tiles.
    #[inline(always)]
    unsafe fn expand_vertex_queue(&self, frontier: u32, output: EdgeQueue, next_count: *mut u64) {
        let mut tile = block_idx() * BLOCK;
        while tile < frontier {
            let slot = tile + thread_idx();
            let valid = slot < frontier;
            // SAFETY: `slot < frontier`, the vertices written to the queue.
            let v = if valid { unsafe { *self.vertex_queue.add(slot as usize) } } else { 0 };
            // SAFETY: a queued vertex is < n; forwarded from the kernel contract.
            let list = if valid { unsafe { self.list_of(v) } } else { NO_LIST };
            unsafe { self.expand_tile(v, list, output, next_count) };
            tile = tile.saturating_add(grid_dim() * BLOCK);
        }
    }

    /// Contracts item `item` of the edge queue (nothing when `item >= items`): returns whether
    /// this thread claimed its vertex for `level`, and the vertex. All 32 lanes call it together.
    #[inline(always)]
    unsafe fn contract(&self, level: u32, input: EdgeQueue, item: u64, items: u64) -> (bool, u32, List) {
        let valid = item < items;
        let (mut v, mut parent) = (UNREACHED, UNREACHED);
        if valid {
            // SAFETY: `item < items`, the entries written to this queue.
            unsafe {
                v = *input.targets.add(item as usize);
                if !self.parents.is_null() {
                    parent = *input.parents.add(item as usize);
                }
            }
        }
        let word = (v / 32) as usize;
        let bit = 1u32 << (v % 32);
        // Status lookup: a plain read of the visited bitmap settles most items without an atomic.
        // SAFETY: a valid item's vertex is < n, so its word is in the bitmap.
        let mut keep = valid && unsafe { (self.visited.add(word).read_volatile() & bit) == 0 };
        // Warp culling: of the lanes holding the same vertex, only the lowest goes on.
        let same = match_any_sync(FULL_MASK, if keep { v } else { UNREACHED });
        keep &= (same & lanemask_lt()) == 0;
        // History culling: a vertex this block already sent to its claim is claimed by someone.
        // One atomic exchange, not a read and a write: lanes of this warp and of the block's
        // other warps whose vertices share an entry update it in the same barrier interval
        // (racecheck's warp-level hazards), and no warp sync would order the other warps.
        // Writing `v` over an entry that already holds it changes nothing.
        if keep {
            keep = self.shared.history.exchange(v as usize % HISTORY_ENTRIES, v) != v;
        }
        let mut claimed = false;
        let mut list = NO_LIST;
        if keep {
            // SAFETY: as above; `distances` and `parents` (unless null) hold n words.
            unsafe {
                // The list is read before the claim, so that its loads overlap the atomic's
                // round trip instead of following it (a loser's list is dropped below).
                list = self.list_of(v);
                claimed = (atomic_or_u32(self.visited.add(word), bit) & bit) == 0;
                if claimed {
                    *self.distances.add(v as usize) = level;
                    if !self.parents.is_null() {
                        *self.parents.add(v as usize) = parent;
                    }
                }
            }
        }
        (claimed, v, if claimed { list } else { NO_LIST })
    }

    /// Where `v`'s list starts in the CSR, and its length.
    ///
    /// # Safety
    /// `v < n`.
    #[inline(always)]
    unsafe fn list_of(&self, v: u32) -> List {
        // SAFETY: `v < n`, so `v + 1` indexes the n + 1 offsets; fewer than 2^32 edges.
        unsafe {
            let start = *self.offsets.add(v as usize);
            List { start, degree: (*self.offsets.add(v as usize + 1) - start) as u32 }
        }
    }

    /// Expands one tile: every thread's vertex `v`, whose list is `list` (empty for a thread
    /// with nothing to expand), by scan+warp+CTA gathering (see the module documentation).
    /// All threads of the block call it together.
    #[inline(always)]
    unsafe fn expand_tile(&self, v: u32, list: List, output: EdgeQueue, next_count: *mut u64) {
        let shared = self.shared;
        let List { start, degree } = list;
        // Fewer than 2^32 edges (kernel contract), so the tile's sum fits a word.
        let (out_offset, total) = block_exclusive_scan(degree, &shared.scan);
        if total == 0 {
            return;
        }
        if thread_idx() == 0 {
            // SAFETY: this level's counter; the reservation stays within the capacity because
            // every vertex is claimed, so expanded, once.
            shared.tile_base.set(0, unsafe { atomic_add_u64(next_count, total as u64) });
        }
        // The barrier that publishes the tile's base also tells whether any list needs a warp or
        // the block: on roads and grids none does, and the tile skips straight to the packed copy.
        let any_long = sync_threads_or(degree >= WARP_SIZE);
        let base = shared.tile_base.get(0);
        let destination = base + out_offset as u64;
        // CTA-based gathering: the block copies each list of a block or more, one at a time.
        let mut enlist = any_long && degree >= BLOCK;
        while any_long && sync_threads_or(enlist) {
            if enlist {
                // Every enlisting thread writes the word, so by atomic exchange (the last
                // one wins; plain stores to one word would be a write-write race).
                shared.enlisted.exchange(0, thread_idx());
            }
            sync_threads();
            let winner = shared.enlisted.get(0) as usize;
            if thread_idx() as usize == winner {
                enlist = false;
                shared.list_start.set(winner, start);
                shared.out_offset.set(winner, degree);
                shared.owner.set(winner, v);
                shared.packed_offset.set(winner, out_offset);
            }
            sync_threads();
            let (from, length, owner) =
                (shared.list_start.get(winner), shared.out_offset.get(winner), shared.owner.get(winner));
            let to = base + shared.packed_offset.get(winner) as u64;
            // SAFETY: forwarded.
            unsafe { self.copy_list(from, to, length, owner, thread_idx(), BLOCK, output) };
            sync_threads();
        }
        // Warp-based gathering: a warp copies each of its lanes' lists of 32 or more in turn.
        let mut enlist = degree >= WARP_SIZE && degree < BLOCK;
        while any_long {
            let wanting = ballot_sync(FULL_MASK, enlist);
            if wanting == 0 {
                break;
            }
            let leader = ffs(wanting) - 1;
            let from = shfl_idx_sync_u64(FULL_MASK, start, leader);
            let to = shfl_idx_sync_u64(FULL_MASK, destination, leader);
            let length = shfl_idx_sync(FULL_MASK, degree, leader);
            let owner = shfl_idx_sync(FULL_MASK, v, leader);
            if lane_id() == leader {
                enlist = false;
            }
            // SAFETY: forwarded.
            unsafe { self.copy_list(from, to, length, owner, lane_id(), WARP_SIZE, output) };
        }
        // Scan-based gathering: the short lists, packed by a second prefix sum and copied edge
        // by edge.
        let (packed, packed_total) = if any_long {
            block_exclusive_scan(if degree < WARP_SIZE { degree } else { 0 }, &shared.scan)
        } else {
            // Every list is short: the packed positions are the tile's own.
            (out_offset, total)
        };
        let t = thread_idx() as usize;
        shared.packed_offset.set(t, packed);
        shared.out_offset.set(t, out_offset);
        shared.list_start.set(t, start);
        shared.owner.set(t, v);
        sync_threads();
        // Two packed edges a thread at once while two rows remain, so that their loads overlap
        // (as `copy_list` does); then the last row one edge a thread.
        let mut edge = thread_idx();
        while edge + BLOCK < packed_total {
            let (first, second) = (self.packed_edge(edge, base), self.packed_edge(edge + BLOCK, base));
            // SAFETY: both lists hold their ranks; both destinations lie in the tile's reservation.
            unsafe {
                let (a, b) = (*self.targets.add(first.from as usize), *self.targets.add(second.from as usize));
                self.write_item(output, first.to, a, first.owner);
                self.write_item(output, second.to, b, second.owner);
            }
            edge += 2 * BLOCK;
        }
        if edge < packed_total {
            let item = self.packed_edge(edge, base);
            // SAFETY: as above.
            unsafe { self.write_item(output, item.to, *self.targets.add(item.from as usize), item.owner) };
        }
        // The next tile reuses the shared arrays.
        sync_threads();
    }

    /// Where packed edge `edge` of the tile comes from in the CSR and goes to in the next queue
    /// (whose tile reservation starts at `base`), found by binary search over the packed offsets
    /// the tile's threads left in shared memory.
    #[inline(always)]
    fn packed_edge(&self, edge: u32, base: u64) -> PackedEdge {
        let shared = self.shared;
        // The last list starting at or before `edge`: it has a short list (an empty one would
        // share its offset with the next thread's).
        let low = last_at_most(EDGE_QUEUE_BLOCK as u32, |i| shared.packed_offset.get(i as usize) <= edge) as usize;
        let rank = edge - shared.packed_offset.get(low);
        PackedEdge {
            from: shared.list_start.get(low) + rank as u64,
            to: base + (shared.out_offset.get(low) + rank) as u64,
            owner: shared.owner.get(low),
        }
    }

    /// Writes one item of the next edge queue.
    ///
    /// # Safety
    /// `to` lies in the calling tile's reservation.
    #[inline(always)]
    unsafe fn write_item(&self, output: EdgeQueue, to: u64, target: u32, owner: u32) {
        // SAFETY: forwarded from the caller; the parent queue is written only when it exists.
        unsafe {
            *output.targets.add(to as usize) = target;
            if !self.parents.is_null() {
                *output.parents.add(to as usize) = owner;
            }
        }
    }

    /// Copies `length` targets from CSR position `from` to queue position `to`, with `owner`
    /// as their parent, by `threads` threads of which this is number `rank` (coalesced).
    #[inline(always)]
    unsafe fn copy_list(
        &self,
        from: u64,
        to: u64,
        length: u32,
        owner: u32,
        rank: u32,
        threads: u32,
        output: EdgeQueue,
    ) {
        let mut i = rank;
        // Whole rounds of `COPY_ROUNDS` strides: every load is issued before the first store,
        // so a thread waits out one read latency per round instead of one per edge (the
        // stores may alias the loads, as far as the compiler knows, so it cannot overlap a
        // one-edge loop's iterations by itself). A hub's list copied by one block or warp is a
        // chain of such latencies: in the first levels of social and web graphs, whose tiny
        // queues block 0 takes alone, one such list is most of the level (NOTES 31).
        while i + (COPY_ROUNDS as u32 - 1) * threads < length {
            // SAFETY: `from + i + k * threads < from + length`, inside the list.
            let loaded: [u32; COPY_ROUNDS] = core::array::from_fn(|k| unsafe {
                *self.targets.add((from + (i + k as u32 * threads) as u64) as usize)
            });
            for (k, &target) in loaded.iter().enumerate() {
                // SAFETY: `to + i + k * threads` lies in the tile's reservation.
                unsafe { self.write_item(output, to + (i + k as u32 * threads) as u64, target, owner) };
            }
            i += COPY_ROUNDS as u32 * threads;
        }
        while i < length {
            // SAFETY: `from + i` is in the list; `to + i` in the tile's reservation.
            unsafe { self.write_item(output, to + i as u64, *self.targets.add((from + i as u64) as usize), owner) };
            i += threads;
        }
    }

    /// Opens level `level`'s trace record (grid leader only; levels past the capacity are not
    /// recorded).
    fn record_level(&self, level: u32, flags: u64, items: u64) {
        if is_grid_leader() && level < self.trace_capacity {
            let record = level as usize * EDGE_TRACE_WORDS;
            // SAFETY: `level < trace_capacity`, so the record lies in the trace (kernel contract).
            unsafe {
                *self.trace.add(record + EDGE_TRACE_FLAGS) = flags;
                *self.trace.add(record + EDGE_TRACE_ITEMS) = items;
                // The claimed count comes later, from `record_claimed`.
                *self.trace.add(record + EDGE_TRACE_CLAIMED) = 0;
                *self.trace.add(record + EDGE_TRACE_TIME) = global_timer_ns();
            }
        }
    }

    fn record_claimed(&self, level: u32, claimed: u32) {
        if level < self.trace_capacity {
            // SAFETY: as in `record_level`.
            unsafe { *self.trace.add(level as usize * EDGE_TRACE_WORDS + EDGE_TRACE_CLAIMED) = claimed as u64 };
        }
    }

    fn record_end(&self, level: u32) {
        let record = level.min(self.trace_capacity) as usize * EDGE_TRACE_WORDS;
        // SAFETY: the trace holds `trace_capacity + 1` records.
        unsafe { *self.trace.add(record + EDGE_TRACE_TIME) = global_timer_ns() };
    }
}
