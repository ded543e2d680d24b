//! Direction-optimizing BFS in one persistent kernel: every level, top-down or bottom-up,
//! runs inside a single cooperative launch, separated by grid-wide barriers, so no level
//! costs a launch or a round trip to the host.
//!
//! Techniques, by source:
//! - Direction optimization, by one of three rules (bits 8 and 14 of the flags,
//!   [`SWITCH_XBFS_BIT`] and [`SWITCH_CHECKS_BIT`]).
//!   Beamer's (Beamer et al., SC 2012; as used by Moschou 2026, section 2.3): top-down while
//!   the frontier's edges are few against the unvisited vertices' edges (`m_f * alpha > m_u`
//!   switches), bottom-up while the frontier is large, back to top-down when it shrinks below
//!   `n / beta`. XBFS's (section 4.3): bottom-up exactly while the edge check `m_f` is at least
//!   `alpha * |E|`. Checks (ours): bottom-up while `m_f` is at least `alpha` times an estimate
//!   of the edges the bottom-up pass would check (`warpath_interface::bfs::rule`, `Rule::bottom_up_checks`). The
//!   rule runs on the device, identically in every block, from counters the
//!   previous level accumulated; the trace keeps the counters it decided on.
//! - Top-down neighbor gathering by scan+warp+CTA (Merrill, Garland and Grimshaw, PPoPP 2012,
//!   section 4.1; `operators::gather`): adjacency lists of a block's worth of edges or more are
//!   enlisted by the whole block, lists of 32 or more by a warp, and the rest are packed by a block-wide prefix sum
//!   and shared out edge by edge (each thread finds its edge's owner by binary search over
//!   the scanned offsets). Lists of a block's worth or more are first registered and shared
//!   out to the whole grid in even chunks. On a level too small to give any block a second
//!   tile, lists of 32 edges or more are shared too and no warp enlists: there the slowest
//!   tile is the level's time (bench/NOTES.md entries 38-39).
//! - Status lookup in a visited bitmap (Merrill et al., section 4.2): a plain read of the bit
//!   filters most edges; an atomic OR claims a vertex, so each vertex enters the next frontier
//!   exactly once (no duplicates to cull). Each thread of a gathering round holds two edges and
//!   issues both target reads, then both bitmap reads, before any claim, so their latencies
//!   overlap (`operators::gather::BATCH`); the grid-wide gathering of long lists also reads the next
//!   round's targets before this round's bitmap reads (software pipelining by one round).
//! - Bottom-up with early termination over a frontier bitmap; a warp owns 32 consecutive
//!   vertices, i.e. one bitmap word, so the next frontier's word is the warp's ballot, written
//!   without atomics.
//! - Adaptive frontier generation (XBFS, section 4; bit 9 of the flags,
//!   [`ADAPTIVE_FRONTIER_BIT`]): top-down levels enqueue what they claim with warp-aggregated
//!   appends (scan-free, section 4.1), except the level that the edge-check ratio `lambda`
//!   (equation 1) predicts to be the last before bottom-up: it only marks its discoveries in
//!   the next frontier bitmap (single-scan: the status update is the whole generation, and the
//!   bottom-up level reads the bitmap as it is). A bottom-up level predicted to be the last
//!   before top-down also emits its discoveries straight into the next queue, one
//!   warp-aggregated atomic per bitmap word with discoveries (Moschou 2026, section 3.1:
//!   direct queue emission; XBFS's "no frontier queue generation" for the first top-down
//!   level, Observation 2). When a prediction misses, the frontier is converted once: a bitmap
//!   is packed into a queue by one scan of its words, a queue is scattered into a bitmap. The
//!   trace records which happened at every level. XBFS's double-scan (a sorted queue of
//!   unvisited vertices for bottom-up) has no counterpart: bottom-up reads the visited bitmap
//!   word by word, already sorted and coalesced.
//! - Bottom-up workload balancing (Gaihre, Wu, Yao and Liu, XBFS, HPDC 2019, section 5.1), chosen by
//!   bits 4-5 of the kernels' flags ([`Balance`]): `static` (the mapping above, bitmap words
//!   in grid-stride order), `thread` (words fetched at run time from an atomic work counter,
//!   section 5.1.2, Algorithm 1) and `warp` (fetched the same way, and each unvisited vertex's
//!   in-list searched by the whole warp, 32 neighbors a round; section 5.1.2, Algorithm 2 and
//!   the intra-warp work donation that follows it). Bottom-up work per vertex is not its
//!   degree (early termination, XBFS observation 3), so only run-time fetching balances it.
//! - Asynchronous bottom-up (XBFS, section 5.2, Algorithm 3), behind bit 6 of the flags
//!   ([`ASYNC_BOTTOM_UP_BIT`]): a vertex whose whole in-list holds no neighbor in the current
//!   frontier may still find one in the next frontier, which the same pass is writing; it is
//!   then labeled two levels deeper at once and skips the next pass's search. Such vertices
//!   wait in a third bitmap (`pending`) until the next bottom-up pass puts them into their
//!   frontier, so that pass must be bottom-up (see [`Bfs::bottom_up_level`] for the proof and
//!   the bookkeeping).
//! - Small frontiers (Luo, Wong and Hwu, DAC 2010, section 4: hierarchical kernel arrangement):
//!   while a top-down frontier and its edges fit one block, block 0 runs level after level
//!   alone with block barriers only, and the rest of the grid waits at the next grid barrier.

use crate::prelude::*;
use warpath_interface::bfs::persistent as interface;

mod bottom_up;
mod compressed;
mod top_down;

use crate::operators::gather::TileScratch;
use crate::operators::gather_compressed::Restarts;
use crate::operators::shared_lists::{self, ListWindow};
use interface::{
    split_level_by_words, Balance, BfsPersistentBottomUpParams, BfsPersistentBottomUpWordsParams,
    BfsPersistentCompressedParams, BfsPersistentInitParams, BfsPersistentParams, PersistentControl, PersistentFlags,
    TraceFlags, HANDOFF_BOTTOM_UP, HANDOFF_EMIT_QUEUE, HANDOFF_HAS_BITMAP, HANDOFF_HAS_QUEUE, HEAD_NEIGHBORS,
    SHARED_LIST_EDGES, SHARED_LIST_WORDS, TRACE_FRONTIER_EDGES, TRACE_TIME, TRACE_UNVISITED_EDGES, TRACE_WORDS,
};
use top_down::{Gather, Output, NO_SHARING};
use warpath_interface::bfs::rule::{Rule, RuleKind, SwitchCounters};

// The host sizes the shared-list table by the interface's entry size.
const _: () = assert!(SHARED_LIST_WORDS == shared_lists::ENTRY_WORDS);

/// Threads per block; the host launches with exactly this many.
pub const PERSISTENT_BLOCK: usize = interface::PERSISTENT_BLOCK as usize;
const BLOCK: u32 = interface::PERSISTENT_BLOCK;
/// Largest frontier (vertices and edges) that block 0 expands alone.
const SMALL_FRONTIER_VERTICES: u32 = BLOCK;
const SMALL_FRONTIER_EDGES: u64 = 2 * BLOCK as u64;

/// What a thread read from the graph during a level, for the trace: edges, bytes of offsets
/// and lists, and the bytes that crossed the bus (whole 32-byte sectors of whichever arrays
/// are in mapped host memory; 0 for a graph in device memory).
#[derive(Clone, Copy)]
struct Reads {
    edges: u64,
    bytes: u64,
    bus_bytes: u64,
    offsets_mapped: bool,
    lists_mapped: bool,
}

impl Reads {
    /// `v`'s two offsets and bytes `start..end` of the list array, which hold `edges` edges.
    #[inline(always)]
    fn list(&mut self, v: u32, start: u64, end: u64, edges: u64) {
        let offsets = 8 * v as u64;
        self.edges += edges;
        self.bytes += 16 + (end - start);
        if self.offsets_mapped {
            self.bus_bytes += sector_bytes(offsets, offsets + 16);
        }
        if self.lists_mapped {
            self.bus_bytes += sector_bytes(start, end);
        }
    }

    /// One bottom-up round of a warp, whose lanes own consecutive vertices (`reading` on the
    /// lanes that searched their in-list, which is bytes `start..end`). Their offsets and lists
    /// sit side by side, so the bus moves each shared sector once: count the distinct sectors.
    /// All 32 lanes call it together.
    #[inline(always)]
    fn warp_round(&mut self, reading: bool, v: u32, start: u64, end: u64, edges: u64) {
        self.edges += edges;
        if reading {
            self.bytes += 16 + (end - start);
        }
        let readers = ballot_sync(FULL_MASK, reading);
        if readers == 0 {
            return;
        }
        let lane = lane_id();
        if self.offsets_mapped && lane == ffs(readers) - 1 {
            let last_reader = v - lane + (WARP_SIZE - 1 - readers.leading_zeros());
            self.bus_bytes += sector_bytes(8 * v as u64, 8 * (last_reader as u64 + 2));
        }
        if self.lists_mapped {
            let has_bytes = reading && end > start;
            let (first, last) = (start / 32, end.saturating_sub(1) / 32);
            let earlier = ballot_sync(FULL_MASK, has_bytes) & lanemask_lt();
            let previous_lane = if earlier == 0 { 0 } else { WARP_SIZE - 1 - earlier.leading_zeros() };
            let previous_last = shfl_idx_sync_u64(FULL_MASK, last, previous_lane);
            if has_bytes {
                let shared = earlier != 0 && previous_last == first;
                self.bus_bytes += 32 * (last - first + 1) - 32 * shared as u64;
            }
        }
    }

    /// The warp-centric search of one vertex's in-list (see [`Balance::Warp`]): its two offsets
    /// and bytes `start..end` of the list array, which the warp loaded in whole rounds, with
    /// `edges` neighbors checked. The warp reads together, so lane 0 alone counts. A word's
    /// vertices are searched in ascending order and their lists abut, so a list's first sector
    /// is shared with the previous one searched when it is that list's last sector
    /// (`previous_last_sector`, `u64::MAX` before the word's first search): counted once, as
    /// the cache would fetch it once. Offsets cross the bus per word, in [`Self::word_offsets`].
    #[inline(always)]
    fn warp_search(&mut self, start: u64, end: u64, edges: u64, previous_last_sector: &mut u64) {
        if lane_id() != 0 {
            return;
        }
        self.edges += edges;
        self.bytes += 16 + (end - start);
        if self.lists_mapped && end > start {
            let (first, last) = (start / 32, (end - 1) / 32);
            let shared = *previous_last_sector == first;
            self.bus_bytes += 32 * (last - first + 1) - 32 * shared as u64;
            *previous_last_sector = last;
        }
    }

    /// The offsets of a word's searched vertices `first..=last` over the bus, for the
    /// warp-centric search: they sit side by side, so whole sectors from the first vertex's
    /// offset to the last one's end (lane 0 alone counts).
    #[inline(always)]
    fn word_offsets(&mut self, first: u32, last: u32) {
        if self.offsets_mapped && lane_id() == 0 {
            self.bus_bytes += sector_bytes(8 * first as u64, 8 * (last as u64 + 2));
        }
    }
}

/// Bytes moved to read bytes `start..end` in whole 32-byte sectors.
#[inline(always)]
fn sector_bytes(start: u64, end: u64) -> u64 {
    if end > start {
        (end.div_ceil(32) - start / 32) * 32
    } else {
        0
    }
}

/// The graph as the kernel reads it. `COMPRESSED` (on [`Bfs`]) picks the format of the lists:
/// plain `u32` targets with offsets counting edges, or delta-varint bytes with offsets counting
/// bytes, plus what compressed lists do not carry: the out-degrees and the restart points of
/// long lists.
#[derive(Clone, Copy)]
struct Edges {
    out_offsets: *const u64,
    out_edges: *const u8,
    in_offsets: *const u64,
    in_edges: *const u8,
    degrees: *const u32,
    restarts: Restarts,
    /// The first `HEAD_NEIGHBORS` in-neighbors of every vertex (padded with `UNREACHED`) in
    /// device memory, and for compressed lists the bytes they take; null when the in-lists
    /// themselves are in device memory (see `bottom_up.rs`).
    in_heads: *const u32,
    in_head_skips: *const u8,
}

/// Everything the levels need, gathered once per thread.
struct Bfs<const COMPRESSED: bool> {
    edges: Edges,
    n: u32,
    words: u32,
    max_out_degree: u64,
    distances: *mut u32,
    /// Null, and never touched, when `distances_only`.
    parents: *mut u32,
    /// Flag bit 7: label distances alone. Decoded once from the flags, tested once per claimed
    /// vertex around its parent store (uniform across the grid, so it never diverges); ptxas
    /// reports the same registers, stack and spills for the kernels with it as without.
    distances_only: bool,
    visited: *mut u32,
    frontier_bits: *mut u32,
    queues: *mut u32,
    control: *mut PersistentControl,
    shared_lists: *mut u64,
    shared_list_capacity: u32,
    trace: *mut u64,
    trace_capacity: u32,
    alpha: f32,
    beta: f32,
    allow_bottom_up: bool,
    allow_small: bool,
    /// Where the graph is, for the bus accounting of the trace.
    offsets_mapped: bool,
    lists_mapped: bool,
    /// How bottom-up levels share out the bitmap words.
    balance: Balance,
    /// Bitmap words a warp takes at once bottom-up, or 0 to let [`Bfs::chunk_words`] choose.
    chunk_choice: u32,
    /// Asynchronous bottom-up labeling allowed (XBFS Algorithm 3).
    async_bottom_up: bool,
    /// Which switching rule decides.
    rule_kind: RuleKind,
    /// Adaptive frontier generation (single-scan and direct emission on predicted switches).
    adaptive_frontier: bool,
    /// Bottom-up levels over the double-scan's queue of unvisited vertices.
    double_scan: bool,
    /// The first level of each bottom-up stretch is left to the split-level kernels
    /// ([`PersistentFlags::SPLIT_BOTTOM_UP`]; plain lists, synchronous levels over the bitmap).
    split_bottom_up: bool,
    /// With `split_bottom_up`, every bottom-up level, not only each stretch's first
    /// ([`PersistentFlags::SPLIT_EVERY_BOTTOM_UP`]).
    split_every_bottom_up: bool,
    /// This launch starts where the handoff words say ([`PersistentFlags::RESUME`]).
    resume: bool,
    /// Edges of the graph, `|E|` in XBFS's rule.
    total_edges: u64,
}

/// Level-to-level state every block tracks identically.
#[derive(Clone, Copy)]
struct LevelState {
    level: u32,
    previous_frontier: u32,
    /// Out-edges of the previous frontier (the denominator of XBFS's `lambda`).
    previous_edges: u64,
    /// Out-edges of the vertices in no frontier before this level's (this level's `m_u` plus
    /// its `m_f`).
    unvisited_edges: u64,
    /// Vertices with in-edges in no frontier before this level's (this level's `n_u` plus
    /// its frontier).
    unvisited_vertices: u32,
    /// The previous level went bottom-up.
    bottom_up: bool,
    /// How the previous level left this level's frontier: as a queue, a bitmap, or both.
    has_queue: bool,
    has_bitmap: bool,
}

/// Sets distances and parents to `UNREACHED`, clears the visited bitmap and the three frontier
/// bitmaps (the two frontiers and the pending one), then labels `source` (distance 0, its own
/// parent, visited, alone in the first queue). A null `parents` (a distances-only BFS) is
/// never written.
///
/// `unreachable`, when not null, is a bitmap of the vertices whose in-list is empty: no BFS
/// reaches them but from themselves, so they start out visited, and bottom-up levels, which
/// search the in-list of every unvisited vertex, skip them instead of reading two offsets each
/// level to find nothing (on Kronecker graphs, Graph500's isolated vertices are a third to a
/// half of all; bench/NOTES.md entry 40). Top-down levels never meet them: nothing points to
/// them. The host passes it only with in-lists to match (never the out-lists that a directed
/// graph without its transpose stands in with).
///
/// The frontier bitmaps must start empty for the asynchronous bottom-up: a pass reads the next
/// frontier's bitmap before it has written all of it, and what it finds there unwritten must
/// be an earlier frontier of this traversal (never one of a previous run on the same buffers).
///
/// # Safety
/// `distances` holds `n` words, `parents` `n` words or is null, `visited` `ceil(n / 32)`,
/// `frontier_bits` `3 * ceil(n / 32)` or null (no frontier bitmaps to clear), `queue` at least
/// one, `unreachable` `ceil(n / 32)` or null; `source < n`.
#[inline(always)]
unsafe fn persistent_init(params: BfsPersistentInitParams) {
    let BfsPersistentInitParams { distances, parents, visited, frontier_bits, queue, n, source, unreachable } = params;
    let with_parents = !parents.is_null();
    for v in grid_stride(n as u64) {
        let (distance, parent) = if v == source as u64 { (0, source) } else { (UNREACHED, UNREACHED) };
        // SAFETY: `v < n`; `parents` is written only when it is not null, and then holds n words.
        unsafe {
            *distances.add(v as usize) = distance;
            if with_parents {
                *parents.add(v as usize) = parent;
            }
        }
    }
    for w in grid_stride(n.div_ceil(32) as u64) {
        let source_bit = if w == (source / 32) as u64 { 1u32 << (source % 32) } else { 0 };
        // SAFETY: `w < ceil(n / 32)`, and `unreachable` holds that many words when not null.
        let unreachable_bits = if unreachable.is_null() { 0 } else { unsafe { *unreachable.add(w as usize) } };
        // SAFETY: `w < ceil(n / 32)`.
        unsafe { *visited.add(w as usize) = source_bit | unreachable_bits };
    }
    // The edge-queue kernel has no frontier bitmaps.
    let frontier_words = if frontier_bits.is_null() { 0 } else { 3 * n.div_ceil(32) as u64 };
    for w in grid_stride(frontier_words) {
        // SAFETY: `w < 3 * ceil(n / 32)`.
        unsafe { *frontier_bits.add(w as usize) = 0 };
    }
    if global_idx() == 0 {
        // SAFETY: the queue holds at least one entry.
        unsafe { *queue = source };
    }
}

/// The whole BFS, level after level, in one cooperative launch of `PERSISTENT_BLOCK`-thread
/// blocks (see the module documentation for the techniques), over a plain CSR.
///
/// # Safety
/// Launched cooperatively (all blocks resident) with `PERSISTENT_BLOCK` threads per block,
/// after `bfs_persistent_init`. `out_*` is the CSR (n + 1 offsets, targets < n), `in_*` its
/// transpose (the same arrays for an undirected graph); `distances` holds n words, `parents`
/// n words, or is null when flag bit 7 is set (the kernel then never touches it); `visited`
/// ceil(n/32), `frontier_bits` 3 * ceil(n/32), `queues` 2 * n; `control` is zeroed
/// except `frontier_len[0] = 1` and `frontier_edges[0]` = the source's out-degree;
/// `shared_lists` holds `3 * shared_list_capacity` words, with
/// `shared_list_capacity > total_edges / SHARED_LIST_EDGES` (so every long list of a level
/// finds an entry; a small level shares shorter lists only while its frontier is below the
/// capacity, see `Bfs::share_from`); `max_out_degree` is the largest out-degree; `trace`
/// holds `TRACE_WORDS * (trace_capacity + 1)` zeroed words.
///
/// `flags`: bit 0 allows bottom-up levels, bit 1 the small-frontier path, bits 2 and 3 say the
/// offsets and the lists are in mapped host memory (for the trace's bus figures), bits 4-5
/// pick the bottom-up balancing (`BOTTOM_UP_STATIC`, `BOTTOM_UP_THREAD`, `BOTTOM_UP_WARP`),
/// bit 6 ([`ASYNC_BOTTOM_UP_BIT`]) allows asynchronous bottom-up labeling.
/// Bit 7 ([`DISTANCES_ONLY_FLAG`]) labels distances only: no parent is written. Bit 8
/// ([`SWITCH_XBFS_BIT`]) switches by XBFS's rule, bit 14 ([`SWITCH_CHECKS_BIT`]) by the
/// checks rule, bit 9 ([`ADAPTIVE_FRONTIER_BIT`]) generates frontiers adaptively.
///
/// `in_heads` is null, or holds `HEAD_NEIGHBORS * n` words: the first in-neighbors of every
/// vertex in list order, `UNREACHED` where its list is shorter (for the compressed kernel,
/// `in_head_skips` then holds n bytes: how many bytes of each in-list those neighbors take).
#[inline(always)]
unsafe fn persistent(params: BfsPersistentParams) {
    // SAFETY: forwarded from this kernel's contract.
    unsafe { plain_bfs(params).run() }
}

/// The BFS state over a plain CSR from `bfs_persistent`'s parameters (the split-level kernels'
/// convert to them).
#[inline(always)]
fn plain_bfs(params: BfsPersistentParams) -> Bfs<false> {
    let edges = Edges {
        out_offsets: params.out_offsets,
        out_edges: params.out_targets.cast(),
        in_offsets: params.in_offsets,
        in_edges: params.in_targets.cast(),
        degrees: core::ptr::null(),
        restarts: Restarts::NONE,
        in_heads: params.in_heads,
        in_head_skips: params.in_head_skips,
    };
    let launch = Launch {
        n: params.n,
        total_edges: params.total_edges,
        max_out_degree: params.max_out_degree,
        distances: params.distances,
        parents: params.parents,
        visited: params.visited,
        frontier_bits: params.frontier_bits,
        queues: params.queues,
        control: params.control,
        shared_lists: params.shared_lists,
        shared_list_capacity: params.shared_list_capacity,
        trace: params.trace,
        trace_capacity: params.trace_capacity,
        alpha: params.alpha,
        beta: params.beta,
        flags: params.flags,
    };
    Bfs::<false>::new(edges, launch)
}

/// The one bottom-up level a [`PersistentFlags::SPLIT_BOTTOM_UP`] launch of [`bfs_persistent`]
/// left (level `handoff_level - 1`, emitting its queue too where `handoff_flags` says so), as a
/// launch of its own: any grid, at more warps an SM than the cooperative launch holds under its
/// register cap, in chunks of bitmap words as the persistent kernel's bottom-up levels run,
/// unless [`split_level_by_words`] picks the word-by-word form (a chunk of 1 the host chose, or
/// long searches): [`bfs_persistent_bottom_up_words`] then runs it and this launch returns at
/// once. A big graph's first bottom-up level searches nearly every unvisited vertex's in-list,
/// and more searches in flight shorten it (the partitioned rank runs it so; issue 53, item 7,
/// bench/NOTES.md entries 109, 127, 135 and 142).
///
/// # Safety
/// `Bfs::split_level`'s.
#[inline(always)]
unsafe fn persistent_bottom_up(params: BfsPersistentBottomUpParams) {
    // SAFETY: forwarded from this kernel's contract.
    unsafe { plain_bfs(params.into()).split_level(false) }
}

/// [`bfs_persistent_bottom_up`]'s level word by word, a warp a bitmap word in grid-stride order,
/// in fewer registers for 64 warps an SM, where [`split_level_by_words`] says so (a chunk of 1
/// the host chose, or long searches).
///
/// # Safety
/// `Bfs::split_level`'s.
#[inline(always)]
unsafe fn persistent_bottom_up_words(params: BfsPersistentBottomUpWordsParams) {
    // SAFETY: forwarded from this kernel's contract.
    unsafe { plain_bfs(params.into()).split_level(true) }
}

impl Bfs<false> {
    /// The level a split launch left, if `by_words` is the form [`split_level_by_words`] picks
    /// for it (both split-level kernels are launched; the other returns at once). The one that
    /// runs also clears the barrier word for the resumed launch, which clears `stopped` (this
    /// launch's blocks, in several waves, all read it).
    ///
    /// Launched after every `SPLIT_BOTTOM_UP` launch of `bfs_persistent`, without waiting to
    /// learn whether it stopped: it returns at once where `stopped` is 0, as the `RESUME` launch
    /// after it does where the traversal has ended (`levels` set).
    ///
    /// # Safety
    /// After a `SPLIT_BOTTOM_UP` launch of `bfs_persistent` on the same parameters (which, if it
    /// set `stopped`, left the level's frontier bitmap complete and its counters slot open),
    /// before the `RESUME` launch; any grid of whole warps.
    #[inline(always)]
    unsafe fn split_level(mut self, by_words: bool) {
        let control = self.control;
        // SAFETY: `control` is valid; the persistent launch before this one wrote it.
        if unsafe { (*control).stopped } == 0 {
            // The traversal ended without stopping again: nothing is left to this launch.
            return;
        }
        // SAFETY: as above; the persistent launch before this one wrote the handoff.
        let (level, flags, frontier, unvisited_after) = unsafe {
            (
                (*control).handoff_level - 1,
                (*control).handoff_flags,
                (*control).handoff_previous_frontier,
                (*control).handoff_unvisited_vertices,
            )
        };
        if split_level_by_words(self.chunk_choice, frontier, unvisited_after) != by_words {
            return;
        }
        // The host splits only statically balanced levels of a graph in device memory: fixed
        // here, the other balances' paths and the bus accounting compile away (fewer registers,
        // more warps an SM), and the chunks' too in the word-by-word kernel.
        self.balance = Balance::Static;
        self.offsets_mapped = false;
        self.lists_mapped = false;
        if by_words {
            self.chunk_choice = 1;
        }
        let emit_queue = flags & HANDOFF_EMIT_QUEUE != 0;
        if by_words && !emit_queue && self.edges.in_heads.is_null() {
            // The common word-by-word level (no queue to emit, no list heads) in a copy of its
            // own, where both are known absent: their paths compile away, and the word loop
            // keeps its counts in registers instead of spilling them (bench/NOTES.md entry 142).
            self.edges.in_heads = core::ptr::null();
            // SAFETY: forwarded from this function's contract.
            unsafe { self.bottom_up_level::<false>(level, false, false) };
        } else {
            // SAFETY: forwarded from this function's contract.
            unsafe { self.bottom_up_level::<false>(level, false, emit_queue) };
        }
        if global_idx() == 0 {
            // SAFETY: `control` is valid; nothing in this launch reads the word, and the resumed
            // launch's barriers count from zero.
            unsafe { (*control).barrier_arrivals = 0 };
        }
    }
}

/// [`bfs_persistent`] over a delta-varint compressed CSR (Moschou 2026, section 2.1):
/// `*_offsets` count bytes into `*_bytes`, `degrees` holds the n out-degrees, and the restart
/// points of every list of `SHARED_LIST_EDGES` edges or more are described by `restart_points`,
/// `long_vertices`, `long_first` and `long_count` (see [`Restarts`]).
///
/// # Safety
/// As for [`bfs_persistent`], with the lists in the host's compressed format, both byte arrays
/// 8-byte aligned and padded to a multiple of 8 bytes, and the restart table built from
/// the same lists with `RESTART_EDGES` edges a piece.
#[inline(always)]
unsafe fn persistent_compressed(params: BfsPersistentCompressedParams) {
    let BfsPersistentCompressedParams {
        out_offsets,
        out_bytes,
        in_offsets,
        in_bytes,
        degrees,
        restart_points,
        long_vertices,
        long_first,
        long_count,
        in_heads,
        in_head_skips,
        ..
    } = params;
    let restarts = Restarts { points: restart_points, vertices: long_vertices, first: long_first, count: long_count };
    let edges = Edges {
        out_offsets,
        out_edges: out_bytes,
        in_offsets,
        in_edges: in_bytes,
        degrees,
        restarts,
        in_heads,
        in_head_skips,
    };
    let launch = Launch {
        n: params.n,
        total_edges: params.total_edges,
        max_out_degree: params.max_out_degree,
        distances: params.distances,
        parents: params.parents,
        visited: params.visited,
        frontier_bits: params.frontier_bits,
        queues: params.queues,
        control: params.control,
        shared_lists: params.shared_lists,
        shared_list_capacity: params.shared_list_capacity,
        trace: params.trace,
        trace_capacity: params.trace_capacity,
        alpha: params.alpha,
        beta: params.beta,
        flags: params.flags,
    };
    // SAFETY: forwarded from this kernel's contract.
    unsafe { Bfs::<true>::new(edges, launch).run() }
}

// The entry points, named and with the parameters of their field lists in the interface
// crate; each rebuilds its parameter struct and runs the function of its name above.
warpath_interface::bfs_persistent_init_fields!(warpath_interface::kernel_entry => persistent_init);
warpath_interface::bfs_persistent_fields!(warpath_interface::kernel_entry => persistent);
warpath_interface::bfs_persistent_compressed_fields!(warpath_interface::kernel_entry => persistent_compressed);
warpath_interface::bfs_persistent_bottom_up_fields!(warpath_interface::kernel_entry => persistent_bottom_up);
warpath_interface::bfs_persistent_bottom_up_words_fields!(warpath_interface::kernel_entry => persistent_bottom_up_words);

/// The parameters the two persistent kernels share, as launched (after their graph arrays).
struct Launch {
    n: u32,
    total_edges: u64,
    max_out_degree: u64,
    distances: *mut u32,
    parents: *mut u32,
    visited: *mut u32,
    frontier_bits: *mut u32,
    queues: *mut u32,
    control: *mut PersistentControl,
    shared_lists: *mut u64,
    shared_list_capacity: u32,
    trace: *mut u64,
    trace_capacity: u32,
    alpha: f32,
    beta: f32,
    flags: PersistentFlags,
}

impl<const COMPRESSED: bool> Bfs<COMPRESSED> {
    /// The BFS state of either kernel, with its flags decoded (in one place for both).
    #[inline(always)]
    fn new(edges: Edges, launch: Launch) -> Bfs<COMPRESSED> {
        let flags = launch.flags;
        Bfs {
            edges,
            n: launch.n,
            words: launch.n.div_ceil(32),
            max_out_degree: launch.max_out_degree,
            distances: launch.distances,
            parents: launch.parents,
            distances_only: flags.contains(PersistentFlags::DISTANCES_ONLY),
            visited: launch.visited,
            frontier_bits: launch.frontier_bits,
            queues: launch.queues,
            control: launch.control,
            shared_lists: launch.shared_lists,
            shared_list_capacity: launch.shared_list_capacity,
            trace: launch.trace,
            trace_capacity: launch.trace_capacity,
            alpha: launch.alpha,
            beta: launch.beta,
            allow_bottom_up: flags.contains(PersistentFlags::BOTTOM_UP),
            allow_small: flags.contains(PersistentFlags::SMALL_FRONTIERS),
            offsets_mapped: flags.contains(PersistentFlags::OFFSETS_MAPPED),
            lists_mapped: flags.contains(PersistentFlags::LISTS_MAPPED),
            balance: flags.balance(),
            async_bottom_up: flags.contains(PersistentFlags::ASYNC_BOTTOM_UP),
            rule_kind: flags.rule(),
            adaptive_frontier: flags.contains(PersistentFlags::ADAPTIVE_FRONTIER),
            double_scan: flags.contains(PersistentFlags::DOUBLE_SCAN),
            split_bottom_up: !COMPRESSED
                && flags.contains(PersistentFlags::SPLIT_BOTTOM_UP)
                && !flags.contains(PersistentFlags::ASYNC_BOTTOM_UP)
                && !flags.contains(PersistentFlags::DOUBLE_SCAN),
            split_every_bottom_up: flags.contains(PersistentFlags::SPLIT_EVERY_BOTTOM_UP),
            resume: !COMPRESSED && flags.contains(PersistentFlags::RESUME),
            chunk_choice: flags.chunk().words(),
            total_edges: launch.total_edges,
        }
    }
}

impl<const COMPRESSED: bool> Bfs<COMPRESSED> {
    /// The level loop that both kernels run.
    #[inline(always)]
    unsafe fn run(&self) {
        let bfs = self;
        let control = self.control;
        // SAFETY: declared once each, before any control flow, in each kernel that inlines this.
        let gather = unsafe {
            Gather {
                tile: TileScratch::declare(),
                window: ListWindow::declare(),
                staged: SharedArray::declare(),
                level_state: SharedArray::declare(),
            }
        };
        // SAFETY: the control block's barrier word is zero at launch and reserved for this.
        let mut barrier = unsafe { GridBarrier::new(core::ptr::addr_of_mut!((*control).barrier_arrivals)) };
        // SAFETY: `control` is valid; a finished traversal set `levels` in an earlier launch.
        if self.resume && unsafe { (*control).levels } != 0 {
            // The launch before the split level ended the traversal: nothing to resume.
            return;
        }
        if self.resume && is_grid_leader() {
            // SAFETY: `control` is valid; no other thread of this launch reads the word, and the
            // host reads it after the launch (set again if this launch stops again).
            unsafe { (*control).stopped = 0 };
        }
        let first = if self.resume {
            // SAFETY: `control` is valid; the launch before the split level wrote the handoff.
            unsafe { self.read_resume() }
        } else {
            LevelState {
                level: 0,
                previous_frontier: 0,
                previous_edges: 0,
                unvisited_edges: self.total_edges,
                // SAFETY: `control` is valid; the host wrote this word before the launch.
                unvisited_vertices: unsafe { (*control).in_listed_vertices },
                bottom_up: false,
                has_queue: true,
                has_bitmap: false,
            }
        };
        // Every thread of a block holds the same state, so thread 0 keeps it in shared memory:
        // it writes the next level's (slot `(level + 1) % 2`) as soon as this level has decided,
        // and every thread reads it back after the level's closing barrier. Only the level
        // number stays in registers through the level.
        if thread_idx() == 0 {
            first.store(&gather.level_state);
        }
        sync_threads();
        let mut level = first.level;
        loop {
            let state = LevelState::load(&gather.level_state, level);
            // SAFETY: pointers obey the kernel contract throughout.
            let (frontier, frontier_edges) = unsafe { bfs.frontier_counts(state.level) };
            if frontier == 0 {
                if is_grid_leader() {
                    // SAFETY: as above.
                    unsafe { bfs.finish(state.level) };
                }
                return;
            }
            // SAFETY: as above.
            let async_pending = unsafe { bfs.async_pending(state.level) };
            let counters = state.counters(frontier, frontier_edges);
            let bottom_up = bfs.choose_bottom_up(&counters, async_pending);
            let mut conversion = 0;
            if !bottom_up && !state.has_queue {
                // This frontier exists only as a bitmap: pack it into the queue, one scan.
                // SAFETY: as above.
                unsafe { bfs.build_queue_from_bitmap(&gather, state.level, &mut barrier) };
                conversion = TraceFlags::PACKED_QUEUE.bits();
            }
            if !bottom_up && bfs.allow_small && bfs.is_small(frontier, frontier_edges) {
                // Everyone has read this level's counters once the barrier passes; from then on
                // block 0 owns them until it hands the level loop back.
                barrier.sync();
                if block_idx() == 0 {
                    // SAFETY: as above.
                    unsafe { bfs.expand_small_levels(&gather, state, conversion) };
                }
                barrier.sync();
                // SAFETY: written by block 0 before the barrier.
                let handoff = unsafe { bfs.read_handoff() };
                // Every thread has read this level's slot (the barrier passed); the handoff's
                // slot is this one or the other, which nobody reads until the next level.
                if thread_idx() == 0 {
                    handoff.store(&gather.level_state);
                }
                sync_threads();
                level = handoff.level;
                continue;
            }
            // XBFS's adaptive generation: the level before a predicted switch writes the next
            // frontier the way the next direction reads it.
            let switch_predicted = bfs.adaptive_frontier && bfs.predicts_switch(&counters, bottom_up);
            let (wrote_queue, wrote_bitmap) = match (bottom_up, switch_predicted) {
                (false, false) => (true, false),
                (false, true) => (false, true),
                (true, predicted) => (predicted, true),
            };
            if bottom_up && !state.has_bitmap {
                // SAFETY: as above.
                unsafe { bfs.build_frontier_bitmap(state.level, frontier, &mut barrier) };
                conversion = TraceFlags::BUILT_BITMAP.bits();
            }
            if is_grid_leader() {
                let flags = conversion
                    | if bottom_up { TraceFlags::BOTTOM_UP.bits() } else { 0 }
                    | if wrote_queue { TraceFlags::WROTE_QUEUE.bits() } else { 0 }
                    | if wrote_bitmap { TraceFlags::WROTE_BITMAP.bits() } else { 0 }
                    | if switch_predicted { TraceFlags::PREDICTED_SWITCH.bits() } else { 0 }
                    | if bottom_up && bfs.double_scan && !bfs.async_bottom_up {
                        TraceFlags::DOUBLE_SCAN.bits()
                    } else {
                        0
                    };
                // SAFETY: as above.
                unsafe {
                    bfs.start_level(
                        state.level,
                        flags,
                        frontier,
                        frontier_edges,
                        state.unvisited_edges.saturating_sub(frontier_edges),
                    )
                };
            }
            if bottom_up && bfs.split_bottom_up && (bfs.split_every_bottom_up || !state.bottom_up) {
                // The stretch's first bottom-up level (or each) runs as a launch of its own:
                // leave it the state after it, and return (the frontier's bitmap is complete: it was written
                // before the last barrier, or built above, which ends with one).
                if is_grid_leader() {
                    let after = state.after(frontier, frontier_edges, true, wrote_queue, wrote_bitmap);
                    // SAFETY: as above.
                    unsafe { bfs.stop_before(after, wrote_queue) };
                }
                return;
            }
            let share_from = if bottom_up { NO_SHARING } else { bfs.share_from(frontier, frontier_edges) };
            let share_long_lists = share_from != NO_SHARING;
            let mark_next = !bottom_up && wrote_bitmap;
            if mark_next {
                // Single-scan: the next bitmap must be clear before anyone marks it.
                // SAFETY: as above; nobody reads the next level's bitmap during a top-down level.
                unsafe { bfs.clear_frontier_bitmap(state.level + 1) };
            }
            if share_long_lists {
                // SAFETY: as above.
                unsafe { bfs.register_long_lists(state.level, frontier, share_from) };
            }
            if thread_idx() == 0 {
                state.after(frontier, frontier_edges, bottom_up, wrote_queue, wrote_bitmap).store(&gather.level_state);
            }
            if share_long_lists || mark_next {
                barrier.sync();
            }
            // SAFETY: as above.
            unsafe {
                if bottom_up {
                    // Two copies of the level: without asynchronous labeling, none of its
                    // bookkeeping is left in the loop over the bitmap words.
                    if bfs.async_bottom_up {
                        bfs.bottom_up_level::<true>(state.level, bfs.labels_ahead(frontier), wrote_queue);
                    } else if bfs.double_scan {
                        bfs.build_unvisited_queue(&gather, state.level, &mut barrier);
                        bfs.bottom_up_queue_level(state.level, wrote_queue);
                    } else {
                        bfs.bottom_up_level::<false>(state.level, false, wrote_queue);
                    }
                } else {
                    let output = if mark_next { Output::Bitmap } else { Output::Queue };
                    bfs.expand_top_down(&gather, state.level, frontier, frontier_edges, false, share_from, output);
                }
            }
            level += 1;
            barrier.sync();
        }
    }
}

/// Words of one [`LevelState`] slot in shared memory.
pub const LEVEL_STATE_WORDS: usize = 4;

impl LevelState {
    /// Writes this state into its slot (`level % 2`) of the block's copy.
    #[inline(always)]
    fn store(&self, slots: &SharedArray<u64, { 2 * LEVEL_STATE_WORDS }>) {
        let base = (self.level as usize & 1) * LEVEL_STATE_WORDS;
        let flags = self.bottom_up as u64 | (self.has_queue as u64) << 1 | (self.has_bitmap as u64) << 2;
        slots.set(base, self.previous_frontier as u64 | flags << 32);
        slots.set(base + 1, self.previous_edges);
        slots.set(base + 2, self.unvisited_edges);
        slots.set(base + 3, self.unvisited_vertices as u64);
    }

    /// The state of `level`, from its slot of the block's copy.
    #[inline(always)]
    fn load(slots: &SharedArray<u64, { 2 * LEVEL_STATE_WORDS }>, level: u32) -> LevelState {
        let base = (level as usize & 1) * LEVEL_STATE_WORDS;
        let (first, flags) = (slots.get(base), slots.get(base) >> 32);
        LevelState {
            level,
            previous_frontier: first as u32,
            previous_edges: slots.get(base + 1),
            unvisited_edges: slots.get(base + 2),
            unvisited_vertices: slots.get(base + 3) as u32,
            bottom_up: flags & 1 != 0,
            has_queue: flags & 2 != 0,
            has_bitmap: flags & 4 != 0,
        }
    }

    /// The state the next level starts from, once this level has expanded its frontier of
    /// `frontier` vertices and `frontier_edges` out-edges in the direction `bottom_up`, leaving
    /// the next frontier as a queue, a bitmap or both.
    #[inline(always)]
    fn after(
        &self,
        frontier: u32,
        frontier_edges: u64,
        bottom_up: bool,
        has_queue: bool,
        has_bitmap: bool,
    ) -> LevelState {
        LevelState {
            level: self.level + 1,
            previous_frontier: frontier,
            previous_edges: frontier_edges,
            unvisited_edges: self.unvisited_edges.saturating_sub(frontier_edges),
            unvisited_vertices: self.unvisited_vertices.saturating_sub(frontier),
            bottom_up,
            has_queue,
            has_bitmap,
        }
    }

    /// The switching rule's inputs at this level.
    #[inline(always)]
    fn counters(&self, frontier: u32, frontier_edges: u64) -> SwitchCounters {
        SwitchCounters {
            frontier: frontier as f32,
            previous_frontier: self.previous_frontier as f32,
            frontier_edges: frontier_edges as f32,
            previous_edges: self.previous_edges as f32,
            unvisited_edges: self.unvisited_edges.saturating_sub(frontier_edges) as f32,
            unvisited_vertices: self.unvisited_vertices.saturating_sub(frontier) as f32,
            bottom_up: self.bottom_up,
        }
    }
}

impl<const COMPRESSED: bool> Bfs<COMPRESSED> {
    #[inline(always)]
    fn queue(&self, level: u32) -> *mut u32 {
        // SAFETY (of the pointer arithmetic): `queues` holds 2 * n words.
        unsafe { self.queues.add((level as usize & 1) * self.n as usize) }
    }

    #[inline(always)]
    fn frontier_bitmap(&self, level: u32) -> *mut u32 {
        // SAFETY (of the pointer arithmetic): `frontier_bits` holds 3 * words words.
        unsafe { self.frontier_bits.add((level as usize & 1) * self.words as usize) }
    }

    /// The asynchronous bottom-up's pending bitmap: vertices labeled two levels ahead, waiting
    /// for the next bottom-up pass to put them into their frontier.
    #[inline(always)]
    fn pending_bitmap(&self) -> *mut u32 {
        // SAFETY (of the pointer arithmetic): `frontier_bits` holds 3 * words words.
        unsafe { self.frontier_bits.add(2 * self.words as usize) }
    }

    #[inline(always)]
    fn out_degree(&self, v: u32) -> u64 {
        // SAFETY: `v < n`; `degrees` holds n entries and `out_offsets` n + 1.
        unsafe {
            if COMPRESSED {
                *self.edges.degrees.add(v as usize) as u64
            } else {
                *self.edges.out_offsets.add(v as usize + 1) - *self.edges.out_offsets.add(v as usize)
            }
        }
    }

    /// Where the out-list of `v` starts and ends in `out_edges` (edges or bytes).
    #[inline(always)]
    fn out_range(&self, v: u32) -> (u64, u64) {
        // SAFETY: `v < n` and `out_offsets` holds n + 1 entries.
        unsafe { (*self.edges.out_offsets.add(v as usize), *self.edges.out_offsets.add(v as usize + 1)) }
    }

    /// A zeroed tally of reads, with this graph's placement.
    #[inline(always)]
    fn reads(&self) -> Reads {
        Reads { edges: 0, bytes: 0, bus_bytes: 0, offsets_mapped: self.offsets_mapped, lists_mapped: self.lists_mapped }
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

    /// Vertices the previous bottom-up pass labeled asynchronously into the frontier after
    /// `level` (they sit in the pending bitmap), complete since the last barrier.
    /// Zero without a load when asynchronous bottom-up is off: every level asks, and an
    /// acquire load on that path costs the thousands of tiny levels of a road graph.
    #[inline(always)]
    unsafe fn async_pending(&self, level: u32) -> u64 {
        if !self.async_bottom_up {
            return 0;
        }
        let slot = (level % 3) as usize;
        // SAFETY: `control` is valid.
        unsafe { load_acquire_u64(core::ptr::addr_of!((*self.control).async_pending[slot])) }
    }

    /// Whether this level goes bottom-up. Forced bottom-up while the previous pass left
    /// vertices pending (`async_pending`): they are visited already, so a top-down level would
    /// never put them into their frontier, and only a bottom-up pass moves them there.
    #[inline(always)]
    fn choose_bottom_up(&self, counters: &SwitchCounters, async_pending: u64) -> bool {
        if !self.allow_bottom_up {
            return false;
        }
        async_pending != 0 || self.rule_wants_bottom_up(counters)
    }

    /// The switching rule ([`Rule`], from the interface crate, which the host runs too).
    #[inline(always)]
    fn rule(&self) -> Rule {
        Rule {
            kind: self.rule_kind,
            alpha: self.alpha,
            beta: self.beta,
            n: self.n as f32,
            edges: self.total_edges as f32,
        }
    }

    #[inline(always)]
    fn rule_wants_bottom_up(&self, c: &SwitchCounters) -> bool {
        self.rule().wants_bottom_up(c)
    }

    /// XBFS's lambda prediction ([`Rule::predicts_switch`]), never of a switch to bottom-up
    /// when bottom-up is not allowed.
    #[inline(always)]
    fn predicts_switch(&self, now: &SwitchCounters, bottom_up: bool) -> bool {
        self.allow_bottom_up && self.rule().predicts_switch(now, bottom_up)
    }

    /// Whether a bottom-up pass over a frontier of this size labels asynchronously: only while
    /// the frontier is large (`frontier * beta >= n`, the half of Beamer's rule that keeps
    /// bottom-up whatever the growth). Labeling ahead forces the next level bottom-up. If that
    /// next frontier is large too, Beamer's rule keeps bottom-up there anyway; if it is small,
    /// the forced level is one extra bottom-up level, and it labels nothing ahead itself, so
    /// the chain stops there: at most one forced level per bottom-up stretch. Labeling in every
    /// pass would let a long tail of small frontiers (a road network, a path) force bottom-up
    /// passes over all unvisited vertices level after level.
    #[inline(always)]
    fn labels_ahead(&self, frontier: u32) -> bool {
        self.async_bottom_up && frontier as f32 * self.beta >= self.n as f32
    }

    /// Whether block 0 alone expands a top-down level of this size.
    #[inline(always)]
    fn is_small(&self, frontier: u32, frontier_edges: u64) -> bool {
        frontier <= SMALL_FRONTIER_VERTICES && frontier_edges <= SMALL_FRONTIER_EDGES
    }

    /// The grid leader's per-level bookkeeping: clear the counters two levels ahead and open
    /// the level's trace record (`flags` of the `TRACE_*` bits, and the rule's counters).
    #[inline(always)]
    unsafe fn start_level(&self, level: u32, flags: u64, frontier: u32, frontier_edges: u64, unvisited_edges: u64) {
        let clear = ((level + 2) % 3) as usize;
        // SAFETY: `control` and `trace` are valid; slot `clear` is untouched during `level`.
        unsafe {
            (*self.control).frontier_len[clear] = 0;
            (*self.control).frontier_edges[clear] = 0;
            (*self.control).shared_tally[clear] = 0;
            (*self.control).queue_fill[clear] = 0;
            (*self.control).bottom_up_fetched[clear] = 0;
            (*self.control).async_pending[clear] = 0;
            if level < self.trace_capacity {
                let record = self.trace.add(level as usize * TRACE_WORDS);
                *record = flags;
                *record.add(1) = frontier as u64;
                *record.add(TRACE_FRONTIER_EDGES) = frontier_edges;
                *record.add(TRACE_UNVISITED_EDGES) = unvisited_edges;
                *record.add(TRACE_TIME) = global_timer_ns();
            }
        }
    }

    #[inline(always)]
    unsafe fn finish(&self, levels: u32) {
        // SAFETY: `control` and `trace` (capacity + 1 records) are valid.
        unsafe {
            (*self.control).levels = levels;
            let record = levels.min(self.trace_capacity) as usize * TRACE_WORDS;
            *self.trace.add(record + TRACE_TIME) = global_timer_ns();
        }
    }

    /// Adds this warp's reads to the level's trace record.
    #[inline(always)]
    unsafe fn record_reads(&self, level: u32, reads: Reads) {
        let totals = [warp_sum_u64(reads.edges), warp_sum_u64(reads.bytes), warp_sum_u64(reads.bus_bytes)];
        if lane_id() == 0 && level < self.trace_capacity {
            let record = self.trace.add(level as usize * TRACE_WORDS);
            for (k, total) in totals.into_iter().enumerate() {
                if total > 0 {
                    // SAFETY: the record exists (level < capacity).
                    unsafe { atomic_add_u64(record.add(2 + k), total) };
                }
            }
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

    /// Block 0 alone: expands top-down levels with block barriers only while they stay small,
    /// then records where it stopped for the rest of the grid. `conversion` is the trace flag
    /// of the first level's frontier conversion, if it had one. Small levels always enqueue.
    #[inline(always)]
    unsafe fn expand_small_levels(&self, gather: &Gather, mut state: LevelState, mut conversion: u64) {
        loop {
            // SAFETY: forwarded from the kernel contract.
            let (frontier, frontier_edges) = unsafe { self.frontier_counts(state.level) };
            // SAFETY: forwarded from the kernel contract.
            let async_pending = unsafe { self.async_pending(state.level) };
            let counters = state.counters(frontier, frontier_edges);
            if frontier == 0
                || !self.is_small(frontier, frontier_edges)
                || self.choose_bottom_up(&counters, async_pending)
            {
                break;
            }
            if thread_idx() == 0 {
                let flags = TraceFlags::ALONE.bits() | TraceFlags::WROTE_QUEUE.bits() | conversion;
                // SAFETY: forwarded from the kernel contract.
                unsafe {
                    self.start_level(
                        state.level,
                        flags,
                        frontier,
                        frontier_edges,
                        state.unvisited_edges.saturating_sub(frontier_edges),
                    )
                };
            }
            conversion = 0;
            // SAFETY: forwarded from the kernel contract.
            unsafe {
                self.expand_top_down(gather, state.level, frontier, frontier_edges, true, NO_SHARING, Output::Queue)
            };
            state = state.after(frontier, frontier_edges, false, true, false);
            // The counters this level filled must be complete before the next level reads them.
            sync_threads();
        }
        if thread_idx() == 0 {
            // SAFETY: forwarded from the kernel contract; the rest of the grid reads the words
            // after the barrier.
            unsafe { self.write_handoff(state) };
        }
    }

    /// Writes `state`'s level and counters into the handoff words (not its frontier's form:
    /// [`Self::read_handoff`] takes a queue, [`Self::read_resume`] the form in `handoff_flags`).
    #[inline(always)]
    unsafe fn write_handoff(&self, state: LevelState) {
        // SAFETY: `control` is valid; the caller orders the readers after these writes.
        unsafe {
            (*self.control).handoff_level = state.level;
            (*self.control).handoff_previous_frontier = state.previous_frontier;
            (*self.control).handoff_unvisited_edges = state.unvisited_edges;
            (*self.control).handoff_previous_edges = state.previous_edges;
            (*self.control).handoff_unvisited_vertices = state.unvisited_vertices;
        }
    }

    /// The grid leader, before a level left to the split-level kernels: the state the
    /// resumed launch starts from, the level's queue emission, and `stopped` for the host.
    #[inline(always)]
    unsafe fn stop_before(&self, after: LevelState, emit_queue: bool) {
        let flags = if after.bottom_up { HANDOFF_BOTTOM_UP } else { 0 }
            | if after.has_queue { HANDOFF_HAS_QUEUE } else { 0 }
            | if after.has_bitmap { HANDOFF_HAS_BITMAP } else { 0 }
            | if emit_queue { HANDOFF_EMIT_QUEUE } else { 0 };
        // SAFETY: `control` is valid; the next kernels read these after this launch ends.
        unsafe {
            self.write_handoff(after);
            (*self.control).handoff_flags = flags;
            (*self.control).stopped = 1;
        }
    }

    /// The state a resumed launch starts from (written by [`Self::stop_before`]).
    #[inline(always)]
    unsafe fn read_resume(&self) -> LevelState {
        // SAFETY: `control` is valid; written by an earlier launch.
        let flags = unsafe { (*self.control).handoff_flags };
        LevelState {
            bottom_up: flags & HANDOFF_BOTTOM_UP != 0,
            has_queue: flags & HANDOFF_HAS_QUEUE != 0,
            has_bitmap: flags & HANDOFF_HAS_BITMAP != 0,
            // SAFETY: as above.
            ..unsafe { self.read_handoff() }
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
                previous_edges: load_acquire_u64(core::ptr::addr_of!((*self.control).handoff_previous_edges)),
                unvisited_vertices: load_acquire_u32(core::ptr::addr_of!((*self.control).handoff_unvisited_vertices)),
                bottom_up: false,
                has_queue: true,
                has_bitmap: false,
            }
        }
    }
}
