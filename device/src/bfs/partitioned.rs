//! One rank's share of a partitioned direction-optimizing BFS (the host's `multi::gpu` drives
//! one launch of these a level and trades frontiers between the launches).
//!
//! Technique: Merrill, Garland and Grimshaw ("Scalable GPU Graph Traversal", PPoPP 2012),
//! section 6, for the multi-GPU level structure: each GPU expands the frontier vertices it
//! owns, and the neighbors owned elsewhere go to their owners between levels, which label them
//! if nobody did first; their section 4.1 warp-based gathering for lists of 32 edges or more,
//! one list a thread for shorter ones, and lists of a block's worth of edges or more registered
//! and cut into even ranges over the whole grid (`operators::shared_lists`: node splitting and
//! the edge-based split of the load-balancing paper). Bottom-up levels follow Beamer,
//! Asanović and Patterson (SC 2012) over a 1D partition (Buluç and Madduri's 1D algorithm):
//! every owned unvisited vertex searches its in-list for a vertex of the frontier bitmap the
//! ranks all-gathered, copied first onto the in-list graph's local ids. Top-down discoveries
//! append to the next queue with warp-aggregated atomics (Moschou 2026, section 3.2) and set
//! the vertex's bit in the rank's share of the next bitmap; bottom-up writes the bits alone, and
//! a top-down level after it packs them into a queue first.
//!
//! Local ids: `0..owned` are the rank's vertices, `owned..` the ghosts its out-lists name
//! (their lists empty). A ghost is labelled locally when first reached, which is what makes it
//! go to its owner once per traversal. Parents are global ids throughout.

use crate::operators::frontier::pack_bitmap_words;
use crate::operators::gather::{warp_gather, EdgeVisitor, BATCH};
use crate::operators::shared_lists::{ListWindow, SharedLists, Tally, ENTRY_WORDS};
use crate::prelude::*;
use warpath_interface::bfs::partitioned::counters::{FOUND_EDGES, INSPECTED, LONG_TALLY, NEXT_LEN};
use warpath_interface::bfs::partitioned::{
    BfsPartBottomUpParams, BfsPartInitParams, BfsPartLocalFrontierParams, BfsPartPackQueueParams, BfsPartReceiveParams,
    BfsPartTopDownLongParams, BfsPartTopDownParams, LONG_LIST_EDGES, LONG_LIST_WORDS, PARTITIONED_BLOCK,
};

// The host sizes the long-list table in the operator's entries.
const _: () = assert!(LONG_LIST_WORDS == ENTRY_WORDS);

/// Every local label unreached and every visited bit clear, then the source's (when this rank
/// owns it) at distance 0, its bit set.
///
/// # Safety
/// `distances` and `parents` hold `n` elements, `visited` `n` bits.
#[inline(always)]
unsafe fn init(params: BfsPartInitParams) {
    let BfsPartInitParams { distances, parents, visited, n, source_local, source_global } = params;
    for v in grid_stride(n as u64) {
        let (distance, parent) = if v == source_local as u64 { (0, source_global) } else { (UNREACHED, UNREACHED) };
        // SAFETY: `v < n`, the length of both arrays.
        unsafe {
            *distances.add(v as usize) = distance;
            *parents.add(v as usize) = parent;
        }
    }
    for w in grid_stride(n.div_ceil(32) as u64) {
        let source_bit = if source_local / 32 == w as u32 { 1 << (source_local % 32) } else { 0 };
        // SAFETY: `w` is below `n`'s word count.
        unsafe { *visited.add(w as usize) = source_bit };
    }
}

/// Adds the warp's `value`s to the `u64` counter at word `index` of `counters`, one atomic a
/// warp. Every lane calls it.
///
/// # Safety
/// `counters` holds the counters block (an 8-byte aligned buffer of `counters::WORDS` words).
#[inline(always)]
unsafe fn add_warp_count(counters: *mut u32, index: usize, value: u64) {
    let sum = warp_sum_u64(value);
    if lane_id() == 0 && sum != 0 {
        // SAFETY: words `index, index + 1` form an 8-byte aligned `u64` (the caller's contract).
        unsafe { atomic_add_u64(counters.add(index) as *mut u64, sum) };
    }
}

/// The out-degree of local vertex `v`.
///
/// # Safety
/// `offsets` has an entry at `v + 1`.
#[inline(always)]
unsafe fn degree(offsets: *const u64, v: u32) -> u64 {
    // SAFETY: the caller's contract.
    unsafe { *offsets.add(v as usize + 1) - *offsets.add(v as usize) }
}

/// The local labels and their visited bits.
#[derive(Clone, Copy)]
struct Labels {
    distances: *mut u32,
    parents: *mut u32,
    visited: *mut u32,
}

impl Labels {
    /// Labels local vertex `v` at `distance` with `parent` if unvisited: an atomic OR of its
    /// visited bit decides among racing claims. Returns whether this call claimed it.
    ///
    /// # Safety
    /// `v` indexes the labels and the visited bits.
    #[inline(always)]
    unsafe fn claim(&self, v: u32, distance: u32, parent: u32) -> bool {
        let bit = 1 << (v % 32);
        // SAFETY: the caller's contract.
        unsafe {
            let word = self.visited.add(v as usize / 32);
            // A plain read first: most neighbors of a big frontier are visited already.
            if word.read_volatile() & bit != 0 || atomic_or_u32(word, bit) & bit != 0 {
                return false;
            }
            *self.distances.add(v as usize) = distance;
            *self.parents.add(v as usize) = parent;
        }
        true
    }
}

/// Appends `v` (when `found`) to the next queue and sets its share bit. Every lane calls it.
///
/// # Safety
/// `next` has room for every owned vertex, `next_bits` a bit for each, and `counters` is the
/// counters block.
#[inline(always)]
unsafe fn emit(found: bool, v: u32, next: *mut u32, next_bits: *mut u32, counters: *mut u32) {
    // SAFETY: the caller's contract; a vertex is claimed once, so the queue never overflows.
    unsafe {
        if let Some(slot) = warp_aggregated_append(FULL_MASK, found, counters.add(NEXT_LEN)) {
            *next.add(slot as usize) = v;
            atomic_or_u32(next_bits.add(v as usize / 32), 1 << (v % 32));
        }
    }
}

/// What a top-down edge visit needs, shared by the frontier kernel and the long-list kernel.
#[derive(Clone, Copy)]
struct Expand {
    offsets: *const u64,
    targets: *const u32,
    ghost_globals: *const u32,
    labels: Labels,
    next: *mut u32,
    next_bits: *mut u32,
    sent: *mut u32,
    sent_counts: *mut u32,
    ghost_regions: *const u32,
    world: u32,
    counters: *mut u32,
    first: u32,
    owned: u32,
    level: u32,
}

impl Expand {
    /// Visits target `v` (a local id) of owned vertex `owner` when `valid`: claims it; an owned
    /// one joins the next frontier, a ghost goes out to its owner. All 32 lanes call it.
    /// Returns the out-degree of the owned vertex this lane claimed (0 when none), which the
    /// caller sums in a register and adds to `FOUND_EDGES` once, at its end: one counter
    /// updated by every warp step was a hot spot at the levels that expand the hubs.
    ///
    /// # Safety
    /// When `valid`, `v` is a target of `owner`; the pointers obey `bfs_part_top_down`'s
    /// contract.
    #[inline(always)]
    unsafe fn visit_target(&self, valid: bool, v: u32, owner: u32) -> u64 {
        let Expand { offsets, ghost_globals, labels, next, next_bits, sent, counters, .. } = *self;
        let (first, owned) = (self.first, self.owned);
        // SAFETY: forwarded from the caller's contract.
        unsafe {
            let claimed = valid && labels.claim(v, self.level + 1, first + owner);
            let (is_owned, is_ghost) = (claimed && v < owned, claimed && v >= owned);
            emit(is_owned, v, next, next_bits, counters);
            let found_edges = if is_owned { degree(offsets, v) } else { 0 };
            // A ghost goes to its owner's region of `sent`: the lanes with the same owner
            // reserve their slots with one atomic.
            let (ghost, mut rank) = ((v.wrapping_sub(owned)), u32::MAX);
            if is_ghost {
                rank = 0;
                while rank + 1 < self.world && *self.ghost_regions.add(rank as usize + 1) <= ghost {
                    rank += 1;
                }
            }
            let peers = match_any_sync(FULL_MASK, rank);
            let leader = ffs(peers) - 1;
            let mut base = 0;
            if is_ghost && lane_id() == leader {
                base = atomic_add_u32(self.sent_counts.add(rank as usize), popc(peers));
            }
            let base = shfl_idx_sync(FULL_MASK, base, leader);
            if is_ghost {
                let slot = *self.ghost_regions.add(rank as usize) + base + popc(peers & lanemask_lt());
                *sent.add(2 * slot as usize) = *ghost_globals.add(ghost as usize);
                *sent.add(2 * slot as usize + 1) = first + owner;
            }
            found_edges
        }
    }

    /// Visits edge `edge` of owned vertex `owner` when `valid` ([`visit_target`](Self::visit_target)).
    /// All 32 lanes call it.
    ///
    /// # Safety
    /// When `valid`, `edge` is an edge of `owner`; the pointers obey `bfs_part_top_down`'s
    /// contract.
    #[inline(always)]
    unsafe fn visit(&self, valid: bool, edge: u64, owner: u32) -> u64 {
        // SAFETY: a valid edge indexes the targets (the caller's contract).
        unsafe {
            let v = if valid { *self.targets.add(edge as usize) } else { 0 };
            self.visit_target(valid, v, owner)
        }
    }
}

/// The long lists' edges as `operators::shared_lists` hands them out: each visit goes through
/// [`Expand`], the found edges summed in a register.
struct LongLists {
    expand: Expand,
    found_edges: u64,
}

impl EdgeVisitor for LongLists {
    /// The batch's targets.
    type Loaded = [u32; BATCH];

    #[inline(always)]
    unsafe fn visit(&mut self, valid: bool, edge: u64, owner: u32) {
        // SAFETY: forwarded from the caller (an edge of a registered list).
        self.found_edges += unsafe { self.expand.visit(valid, edge, owner) };
    }

    #[inline(always)]
    unsafe fn load(&mut self, edges: [u64; BATCH]) -> [u32; BATCH] {
        // SAFETY: every `edges[k]` indexes the targets (the caller's contract).
        core::array::from_fn(|k| unsafe { *self.expand.targets.add(edges[k] as usize) })
    }

    #[inline(always)]
    unsafe fn visit_loaded(&mut self, valid: [bool; BATCH], targets: [u32; BATCH], owners: [u32; BATCH]) {
        for k in 0..BATCH {
            // SAFETY: the targets were read from edges of `owners` (the caller's contract).
            self.found_edges += unsafe { self.expand.visit_target(valid[k], targets[k], owners[k]) };
        }
    }
}

/// Expands one top-down level of the rank's frontier (distance `level`): owned neighbors are
/// claimed and emitted, ghosts claimed here for the first time become (global vertex, global
/// parent) pairs in `sent` for their owners. A warp takes 32 frontier vertices; lists of 32
/// edges or more it reads together, one at a time (Merrill et al.'s warp gathering), the
/// shorter ones a thread each; lists of `LONG_LIST_EDGES` or more it registers in the table of
/// long lists (`operators::shared_lists`) for `bfs_part_top_down_long`, so that no warp holds
/// the level up with a hub's list.
///
/// # Safety
/// `offsets` has `owned + ghosts + 1` entries, ghosts' lists empty, targets local ids; labels
/// hold `owned + ghosts` entries; `ghost_globals` holds the ghosts' global ids; `frontier`
/// holds `frontier_len` owned ids; `next` has room for `owned` ids, `long_table` for every
/// list of `LONG_LIST_EDGES` or more (`long_capacity` entries), whose tally in the counters is
/// zero; `next_bits` has `owned` bits; `sent` room for two words a ghost, `sent_counts` a word a rank,
/// `ghost_regions` `world + 1` ascending ghost indices from 0 to the ghost count; `counters`
/// is the counters block. The block size is a multiple of 32.
#[inline(always)]
unsafe fn top_down(params: BfsPartTopDownParams) {
    let BfsPartTopDownParams {
        offsets,
        targets,
        ghost_globals,
        distances,
        parents,
        visited,
        frontier,
        frontier_len,
        next,
        next_bits,
        sent,
        long_table,
        long_capacity,
        sent_counts,
        ghost_regions,
        world,
        counters,
        first,
        owned,
        level,
    } = params;
    let expand = Expand {
        offsets,
        targets,
        ghost_globals,
        labels: Labels { distances, parents, visited },
        next,
        next_bits,
        sent,
        sent_counts,
        ghost_regions,
        world,
        counters,
        first,
        owned,
        level,
    };
    let long_lists = SharedLists { table: long_table, capacity: long_capacity };
    let lane = lane_id();
    let mut found_edges = 0;
    // By warp, so that every lane reaches the full-mask votes together.
    let mut warp_base = global_idx() - lane;
    while warp_base < frontier_len {
        let slot = warp_base + lane;
        let (mut start, end, vertex) = if slot < frontier_len {
            // SAFETY: `slot < frontier_len`; the vertex is owned, with an entry in `offsets`.
            unsafe {
                let u = *frontier.add(slot as usize);
                (*offsets.add(u as usize), *offsets.add(u as usize + 1), u)
            }
        } else {
            (0, 0, 0)
        };
        let edges = end - start;
        let long = edges >= LONG_LIST_EDGES;
        let long_lanes = ballot_sync(FULL_MASK, long);
        if long_lanes != 0 {
            // SAFETY: the tally is a `u64` of the counters block, the table holds every long
            // list of the level (this kernel's contract); all 32 lanes are here.
            unsafe {
                let tally = counters.add(LONG_TALLY) as *mut u64;
                long_lists.register(tally, long_lanes, long, start, if long { edges } else { 0 }, vertex);
            }
        }
        if long {
            start = end;
        }
        // SAFETY (of each visit): forwarded from this kernel's contract.
        warp_gather(&mut start, end, vertex, |valid, edge, owner| {
            found_edges += unsafe { expand.visit(valid, edge, owner) }
        });
        let steps = warp_max((end - start) as u32);
        for step in 0..steps as u64 {
            // SAFETY: as above.
            found_edges += unsafe { expand.visit(start + step < end, start + step, vertex) };
        }
        warp_base += global_threads();
    }
    // SAFETY: the counters block (this kernel's contract); every lane of the warp is here.
    unsafe { add_warp_count(counters, FOUND_EDGES, found_edges) };
}

/// The long lists `bfs_part_top_down` registered at this level: their edges, packed end to
/// end, cut into one even range a block and walked in block-wide rows, two rows in flight
/// (`operators::shared_lists`: the load-balancing paper's edge-based split, applied to node
/// splitting; Merrill et al., section 4.1, CTA gathering). However many hubs a level holds and
/// however long each, every block visits the same number of their edges.
///
/// # Safety
/// As for `bfs_part_top_down`, launched after it at the same level with its counters and
/// table, with `PARTITIONED_BLOCK` threads a block.
#[inline(always)]
unsafe fn top_down_long(params: BfsPartTopDownLongParams) {
    // SAFETY: declared once, before any control flow.
    let window = unsafe { ListWindow::declare() };
    let BfsPartTopDownLongParams {
        offsets,
        targets,
        ghost_globals,
        distances,
        parents,
        visited,
        long_table,
        next,
        next_bits,
        sent,
        sent_counts,
        ghost_regions,
        world,
        counters,
        first,
        owned,
        level,
    } = params;
    let expand = Expand {
        offsets,
        targets,
        ghost_globals,
        labels: Labels { distances, parents, visited },
        next,
        next_bits,
        sent,
        sent_counts,
        ghost_regions,
        world,
        counters,
        first,
        owned,
        level,
    };
    // Gathering only reads the table; its capacity mattered to registering.
    let long_lists = SharedLists { table: long_table as *mut u64, capacity: 0 };
    let mut visitor = LongLists { expand, found_edges: 0 };
    // SAFETY: the previous launch registered the lists and the tally (launch order is the
    // grid barrier); every registered list is an owned vertex's; the visits' contracts are
    // this kernel's. Every thread of every block calls `gather`.
    unsafe {
        let tally = Tally::read(counters.add(LONG_TALLY) as *const u64);
        long_lists.gather::<{ PARTITIONED_BLOCK as usize }, _>(tally, &window, &mut visitor);
        add_warp_count(counters, FOUND_EDGES, visitor.found_edges);
    }
}

/// Labels the pairs other ranks sent this one at distance `level + 1` where still unvisited.
///
/// # Safety
/// `pairs` holds `2 * pairs_len` words, each vertex owned by this rank (`first..first +
/// owned`); the rest as for `bfs_part_top_down`. The block size is a multiple of 32.
#[inline(always)]
unsafe fn receive(params: BfsPartReceiveParams) {
    let BfsPartReceiveParams {
        offsets,
        pairs,
        pairs_len,
        distances,
        parents,
        visited,
        next,
        next_bits,
        counters,
        first,
        level,
    } = params;
    let labels = Labels { distances, parents, visited };
    let lane = lane_id();
    let mut warp_base = global_idx() - lane;
    while warp_base < pairs_len {
        let slot = warp_base + lane;
        let (mut v, mut claimed) = (0, false);
        if slot < pairs_len {
            // SAFETY: `slot < pairs_len`; the vertex is owned (the contract).
            unsafe {
                v = *pairs.add(2 * slot as usize) - first;
                claimed = labels.claim(v, level + 1, *pairs.add(2 * slot as usize + 1));
            }
        }
        // SAFETY: forwarded from this kernel's contract.
        unsafe {
            emit(claimed, v, next, next_bits, counters);
            add_warp_count(counters, FOUND_EDGES, if claimed { degree(offsets, v) } else { 0 });
        }
        warp_base += global_threads();
    }
}

/// The frontier over an in-list graph's ghosts, for a bottom-up level: the all-gathered bitmap
/// at each ghost's global id, a lane a ghost and a warp's ballot a word, in the ghosts' order,
/// so that the bottom-up search reads one local bit an in-neighbor instead of a ghost's global
/// id at random. The words of owned vertices alone are not written (bottom-up reads the share
/// for those); the word where the ghosts begin takes its owned bits from the share.
///
/// # Safety
/// `share_bits` has a bit for every owned vertex, `global_bits` for every global vertex,
/// `ghost_globals` holds `local_n - owned` global ids, `local_bits` has `local_n` bits. The
/// block size is a multiple of 32.
#[inline(always)]
unsafe fn local_frontier(params: BfsPartLocalFrontierParams) {
    let BfsPartLocalFrontierParams { share_bits, global_bits, ghost_globals, local_bits, owned, local_n } = params;
    let lane = lane_id();
    let (first_word, words) = (owned / 32, local_n.div_ceil(32));
    // By warp, a word each: warps start at multiples of 32 threads and stride by the grid.
    let mut w = first_word + (global_idx() - lane) / 32;
    while w < words {
        let local = w * 32 + lane;
        // SAFETY: every index below is under the lengths of the contract.
        let set = unsafe {
            if local < owned {
                *share_bits.add(local as usize / 32) & (1 << (local % 32)) != 0
            } else if local < local_n {
                let global = *ghost_globals.add((local - owned) as usize);
                *global_bits.add(global as usize / 32) & (1 << (global % 32)) != 0
            } else {
                false
            }
        };
        let word = ballot_sync(FULL_MASK, set);
        if lane == 0 {
            // SAFETY: `w < words`, the local bitmap's length.
            unsafe { *local_bits.add(w as usize) = word };
        }
        w += global_threads() / 32;
    }
}

/// Packs the owned vertices of the share `bits` into a frontier queue, for a top-down level
/// after a bottom-up one: a block-wide scan of the words' popcounts places every vertex, one
/// atomic a block and round reserves the space (the frontier operators' pack).
///
/// # Safety
/// `bits` holds `words` words, `queue` room for every vertex they name, `fill` is zero. Launched
/// with `PARTITIONED_BLOCK` threads a block.
#[inline(always)]
unsafe fn pack_queue(params: BfsPartPackQueueParams) {
    let BfsPartPackQueueParams { bits, words, queue, fill } = params;
    // SAFETY: declared once, at the top of the kernel, before any control flow.
    let (scan, base) = unsafe { (ScanScratch::declare(), SharedArray::<u32, 2>::declare()) };
    // SAFETY: every thread calls it; `w < words` indexes `bits`; the contract's room and fill.
    unsafe { pack_bitmap_words::<PARTITIONED_BLOCK>(words, queue, fill, &scan, &base, |w| *bits.add(w as usize)) };
}

/// One bottom-up level: every owned unvisited vertex reads its in-list until it finds a vertex
/// of the frontier, which becomes its parent. A warp's 32 vertices are one word of the visited
/// bits, read once (a word of visited vertices is skipped whole), and one word of the next share
/// bits, which its ballot writes whole; the counts are summed in registers and added once a
/// warp at the end, so no counter is an address every warp contends for at every step.
///
/// An in-neighbor this rank owns is looked up in the frontier's share (`share_bits`); a ghost,
/// when `through_ghost_ids` is 0, in `frontier_bits` (the frontier over the in-list graph's local
/// ids, `bfs_part_local_frontier`: one pass over every ghost a level), else in the global bitmap
/// at its global id (a read of `in_ghost_globals` an inspected ghost: cheaper on the last
/// levels, which inspect few edges).
///
/// # Safety
/// `in_offsets` has an entry for every owned vertex and one more, its targets local ids of the
/// in-list graph (ghosts' global ids in `in_ghost_globals`); `out_offsets` has `owned + 1`
/// entries at least; labels hold `owned` entries at least, `visited` a bit each; `share_bits`
/// has a bit for every owned vertex, `frontier_bits` for every local id of the in-list graph
/// (when `through_ghost_ids` is 0), `global_bits` for every global vertex; `next_bits` a zeroed
/// bit for every owned vertex; `counters` is the counters block. The block size is a multiple
/// of 32.
#[inline(always)]
unsafe fn bottom_up(params: BfsPartBottomUpParams) {
    let BfsPartBottomUpParams {
        in_offsets,
        in_targets,
        in_ghost_globals,
        out_offsets,
        distances,
        parents,
        visited,
        share_bits,
        frontier_bits,
        global_bits,
        through_ghost_ids,
        next_bits,
        counters,
        first,
        owned,
        level,
    } = params;
    let lane = lane_id();
    let (mut found_count, mut found_edges, mut inspected) = (0u64, 0u64, 0u64);
    let is_set = |bits: *const u32, i: u32| -> bool {
        // SAFETY: every caller's index is under its bitmap's length (the contract).
        unsafe { *bits.add(i as usize / 32) & (1 << (i % 32)) != 0 }
    };
    // Warps start at multiples of 32 and stride by the grid's threads, also a multiple of 32.
    let mut warp_base = global_idx() - lane;
    while warp_base < owned {
        let v = warp_base + lane;
        let word_at = warp_base as usize / 32;
        // SAFETY: the word of owned vertices `warp_base..`, which only this warp writes here.
        let seen = unsafe { *visited.add(word_at) };
        if seen == u32::MAX {
            warp_base += global_threads();
            continue;
        }
        let mut found = false;
        // SAFETY: `v < owned`, so it indexes the labels and both offsets; every in-list entry
        // is a local id of the in-list graph: an owned vertex or a ghost of `in_ghost_globals`.
        unsafe {
            if v < owned && seen & (1 << lane) == 0 {
                let (start, end) = (*in_offsets.add(v as usize), *in_offsets.add(v as usize + 1));
                let mut edge = start;
                while edge < end {
                    let u = *in_targets.add(edge as usize);
                    edge += 1;
                    let in_frontier = if u < owned {
                        is_set(share_bits, u)
                    } else if through_ghost_ids == 0 {
                        is_set(frontier_bits, u)
                    } else {
                        is_set(global_bits, *in_ghost_globals.add((u - owned) as usize))
                    };
                    if in_frontier {
                        let global = if u < owned { first + u } else { *in_ghost_globals.add((u - owned) as usize) };
                        // Only this thread labels owned vertex `v` in a bottom-up level.
                        *distances.add(v as usize) = level + 1;
                        *parents.add(v as usize) = global;
                        found = true;
                        break;
                    }
                }
                inspected += edge - start;
                if found {
                    found_count += 1;
                    found_edges += degree(out_offsets, v);
                }
            }
        }
        let word = ballot_sync(FULL_MASK, found);
        if lane == 0 && word != 0 {
            // SAFETY: the words of vertices `warp_base..warp_base + 32`, owned (bits past
            // `owned` are never set) and written by this warp alone.
            unsafe {
                *next_bits.add(word_at) = word;
                *visited.add(word_at) = seen | word;
            }
        }
        warp_base += global_threads();
    }
    // SAFETY: the counters block (the contract); `NEXT_LEN` is a `u32` count.
    unsafe {
        add_warp_count(counters, FOUND_EDGES, found_edges);
        add_warp_count(counters, INSPECTED, inspected);
        let found_total = warp_sum_u64(found_count);
        if lane == 0 && found_total != 0 {
            atomic_add_u32(counters.add(NEXT_LEN), found_total as u32);
        }
    }
}

warpath_interface::bfs_part_init_fields!(warpath_interface::kernel_entry => init);
warpath_interface::bfs_part_top_down_fields!(warpath_interface::kernel_entry => top_down);
warpath_interface::bfs_part_top_down_long_fields!(warpath_interface::kernel_entry => top_down_long);
warpath_interface::bfs_part_receive_fields!(warpath_interface::kernel_entry => receive);
warpath_interface::bfs_part_local_frontier_fields!(warpath_interface::kernel_entry => local_frontier);
warpath_interface::bfs_part_pack_queue_fields!(warpath_interface::kernel_entry => pack_queue);
warpath_interface::bfs_part_bottom_up_fields!(warpath_interface::kernel_entry => bottom_up);
