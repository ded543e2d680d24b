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
//! ranks all-gathered, at each in-neighbor's global id (a copy of the in-lists with global ids,
//! `bfs_part_global_targets`), or, without that copy, at local ids (the bitmap copied first
//! onto the in-list graph's ghosts, or a ghost's global id read as met). Every discovery sets
//! bits only, with no shared counter in the expansion: an owned vertex's in the rank's share
//! of the next bitmap, a ghost's in the level's ghost bits; the frontier operators' pack (a
//! block scan and one atomic a block and round) then makes the queue a top-down level reads
//! and the pairs each owner receives (the queue emission of Moschou 2026, section 3.2, moved
//! out of the expansion: one append a warp step on one counter serialised the hub levels).
//! Hubs' lists are cut by their targets' owners (vertex delegates: Pearce, Gokhale and Amato,
//! SC 2014): at a top-down level every rank expands its own piece of each hub in the frontier,
//! which the hub's owner flags (`bfs_part_hub_flags`), so a hub's edges are spread over the
//! ranks and none becomes a pair for another rank.
//!
//! Local ids: `0..owned` are the rank's vertices, `owned..` the ghosts its out-lists name
//! (their lists empty). A ghost is labelled locally when first reached, which is what makes it
//! go to its owner once per traversal. Parents are global ids throughout.
//!
//! A rank of a 2D partition (Buluç and Madduri, SC 2011: the host's `multi::partition_2d`)
//! runs the same top-down kernels over its block of the adjacency matrix: its ghosts are the
//! other blocks of its processor row (targets, lists empty) and of its processor column (lists
//! of their edges into the row, never targets); its frontier is the column's, received from
//! the column's ranks and shifted onto its local ids (`bfs_part_shift_ids`), so a frontier
//! vertex may be a ghost, whose global id is then the parent written.

use crate::operators::frontier::{pack_bitmap_words, pack_bitmap_words_with};
use crate::operators::gather::{warp_gather, EdgeVisitor, BATCH};
use crate::operators::gather_compressed::{gather_compressed_lists, gather_compressed_pieces, Restarts, TargetVisitor};
use crate::operators::shared_lists::{ListWindow, SharedLists, Tally, ENTRY_WORDS};
use crate::prelude::*;
use warpath_interface::bfs::partitioned::counters::{
    FOUND_EDGES, HUBS, HUB_TALLY, INSPECTED, LONG_TALLY, NEXT_LEN, WORDS as COUNTER_WORDS,
};
use warpath_interface::bfs::partitioned::lookup::{GLOBAL_IDS, LOCAL_FRONTIER};
use warpath_interface::bfs::partitioned::{
    BfsPartBeginLevelParams, BfsPartBottomUpCompressedParams, BfsPartBottomUpParams, BfsPartGlobalTargetsParams,
    BfsPartHubFlagsParams, BfsPartHubListsParams, BfsPartInitParams, BfsPartLocalFrontierParams,
    BfsPartPackGhostsParams, BfsPartPackQueueParams, BfsPartReceiveParams, BfsPartScatterIdsParams,
    BfsPartShiftIdsParams, BfsPartTopDownCompressedParams, BfsPartTopDownLongCompressedParams,
    BfsPartTopDownLongParams, BfsPartTopDownParams, LONG_LIST_EDGES, LONG_LIST_WORDS, NO_PAIR, PARTITIONED_BLOCK,
};
use warpath_interface::compressed::RESTART_EDGES;

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

/// Where the out-degrees come from: the differences of a plain CSR's offsets, or, where
/// `degrees` is not null, that array (a compressed list's byte offsets say nothing of its
/// length).
#[derive(Clone, Copy)]
struct OutDegrees {
    offsets: *const u64,
    degrees: *const u32,
}

impl OutDegrees {
    /// A compressed part's: its lists' lengths (`degrees`), or a 2D part's whole-graph
    /// out-degrees (`column_degrees`, where not null: its lists hold only their block's share).
    #[inline(always)]
    fn compressed(byte_offsets: *const u64, degrees: *const u32, column_degrees: *const u32) -> OutDegrees {
        let degrees = if column_degrees.is_null() { degrees } else { column_degrees };
        OutDegrees { offsets: byte_offsets, degrees }
    }

    /// The out-degree of local vertex `v`.
    ///
    /// # Safety
    /// `degrees` is null and `offsets` has an entry at `v + 1`, or `degrees` has one at `v`.
    #[inline(always)]
    unsafe fn of(&self, v: u32) -> u64 {
        // SAFETY: the caller's contract.
        unsafe {
            if self.degrees.is_null() {
                *self.offsets.add(v as usize + 1) - *self.offsets.add(v as usize)
            } else {
                *self.degrees.add(v as usize) as u64
            }
        }
    }
}

/// Sets bit `i` of `bits` by atomic OR (other threads set bits of the same word).
///
/// # Safety
/// `bits` has a bit at `i`.
#[inline(always)]
unsafe fn set_bit(bits: *mut u32, i: u32) {
    // SAFETY: the caller's contract.
    unsafe { atomic_or_u32(bits.add(i as usize / 32), 1 << (i % 32)) };
}

/// Whether bit `i` of `bits` is set.
///
/// # Safety
/// `bits` has a bit at `i`.
#[inline(always)]
unsafe fn bit_is_set(bits: *const u32, i: u32) -> bool {
    // SAFETY: the caller's contract.
    unsafe { *bits.add(i as usize / 32) & (1 << (i % 32)) != 0 }
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

/// What a thread found: owned vertices claimed and their out-degrees, summed in registers and
/// added to the counters once a warp, at the kernel's end (a counter every warp updated at
/// every step was the hot spot of the levels that expand the hubs: bench/NOTES.md 71).
#[derive(Clone, Copy, Default)]
struct Found {
    vertices: u32,
    edges: u64,
    /// Edges of the frontier's lists, where the kernel counts them (`count_inspected`).
    inspected: u64,
}

impl Found {
    /// Adds the warp's counts to `NEXT_LEN` and `FOUND_EDGES`. Every lane calls it.
    ///
    /// # Safety
    /// `counters` is the counters block.
    #[inline(always)]
    unsafe fn add_to(self, counters: *mut u32) {
        // SAFETY: the caller's contract; `NEXT_LEN` is a `u32` count.
        unsafe {
            add_warp_count(counters, FOUND_EDGES, self.edges);
            add_warp_count(counters, INSPECTED, self.inspected);
            let vertices = warp_sum_u64(self.vertices as u64);
            if lane_id() == 0 && vertices != 0 {
                atomic_add_u32(counters.add(NEXT_LEN), vertices as u32);
            }
        }
    }
}

/// What a top-down edge visit needs, shared by the frontier kernel and the long-list kernel.
#[derive(Clone, Copy)]
struct Expand {
    out_degrees: OutDegrees,
    /// The plain lists' targets (unused over compressed lists, which the operators decode).
    targets: *const u32,
    labels: Labels,
    next_bits: *mut u32,
    ghost_bits: *mut u32,
    ghost_globals: *const u32,
    seen_bits: *const u32,
    first: u32,
    owned: u32,
    level: u32,
}

impl Expand {
    /// Whether ghost `v` (a local id past `owned`) was reached already as far as this rank
    /// knows without asking: claimed here, or set in a frontier all-gathered earlier in the
    /// traversal (`seen_bits`, null before the first). After a bottom-up level most ghosts a
    /// top-down level meets were reached by their owners, which this rank never saw: without
    /// the gathered bits it would claim them and send their owners pairs they drop.
    ///
    /// # Safety
    /// `v` is a ghost's local id; the pointers obey `bfs_part_top_down`'s contract.
    #[inline(always)]
    unsafe fn ghost_seen(&self, v: u32) -> bool {
        // SAFETY: the caller's contract: `v` indexes the visited bits and, less `owned`, the
        // ghosts' global ids, whose bits the gathered frontier holds.
        unsafe {
            !self.seen_bits.is_null()
                && (bit_is_set(self.labels.visited, v)
                    || bit_is_set(self.seen_bits, *self.ghost_globals.add((v - self.owned) as usize)))
        }
    }

    /// The global id of frontier vertex `owner`: `first + owner` for an owned one (and for a
    /// hub's piece, whose entries name the hub's global id with `first` 0 and no ghosts), a
    /// ghost's from `ghost_globals` (a 2D rank's column frontier holds ghosts).
    ///
    /// # Safety
    /// `owner` is owned, or `ghost_globals` is null, or it holds ghost `owner - owned`.
    #[inline(always)]
    unsafe fn parent_id(&self, owner: u32) -> u32 {
        if owner < self.owned || self.ghost_globals.is_null() {
            self.first + owner
        } else {
            // SAFETY: the caller's contract.
            unsafe { *self.ghost_globals.add((owner - self.owned) as usize) }
        }
    }

    /// Visits target `v` (a local id) of frontier vertex `owner` when `valid`: claims it; an
    /// owned one joins the next frontier's share bits, a ghost this level's ghost bits, which
    /// `bfs_part_pack_ghosts` turns into pairs for its owner. No atomic on a shared counter.
    ///
    /// # Safety
    /// When `valid`, `v` is a target of `owner`; the pointers obey `bfs_part_top_down`'s
    /// contract.
    #[inline(always)]
    unsafe fn visit_target(&self, valid: bool, v: u32, owner: u32, found: &mut Found) {
        // SAFETY: forwarded from the caller's contract: `v` is a local id, `owner` a frontier
        // vertex (owned, or a ghost of a 2D rank's column, or a hub with no ghosts passed).
        unsafe {
            if !valid
                || (v >= self.owned && self.ghost_seen(v))
                || !self.labels.claim(v, self.level + 1, self.parent_id(owner))
            {
                return;
            }
            if v < self.owned {
                set_bit(self.next_bits, v);
                found.vertices += 1;
                found.edges += self.out_degrees.of(v);
            } else {
                set_bit(self.ghost_bits, v - self.owned);
            }
        }
    }

    /// Visits edge `edge` of owned vertex `owner` when `valid` ([`visit_target`](Self::visit_target)).
    ///
    /// # Safety
    /// When `valid`, `edge` is an edge of `owner`; the pointers obey `bfs_part_top_down`'s
    /// contract.
    #[inline(always)]
    unsafe fn visit(&self, valid: bool, edge: u64, owner: u32, found: &mut Found) {
        // SAFETY: a valid edge indexes the targets (the caller's contract).
        unsafe {
            if valid {
                self.visit_target(true, *self.targets.add(edge as usize), owner, found);
            }
        }
    }
}

/// Edges as the operators hand them out (`operators::shared_lists`' long lists by edge, or
/// `operators::gather_compressed`'s decoded targets): each visit goes through [`Expand`], the
/// counts summed in registers.
struct Visits {
    expand: Expand,
    found: Found,
}

impl TargetVisitor for Visits {
    #[inline(always)]
    unsafe fn visit_target(&mut self, valid: bool, target: u32, owner: u32) {
        // SAFETY: forwarded from the caller (a decoded target of `owner`'s list).
        unsafe { self.expand.visit_target(valid, target, owner, &mut self.found) };
    }
}

impl EdgeVisitor for Visits {
    /// The batch's targets.
    type Loaded = [u32; BATCH];

    #[inline(always)]
    unsafe fn visit(&mut self, valid: bool, edge: u64, owner: u32) {
        // SAFETY: forwarded from the caller (an edge of a registered list).
        unsafe { self.expand.visit(valid, edge, owner, &mut self.found) };
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
            unsafe { self.expand.visit_target(valid[k], targets[k], owners[k], &mut self.found) };
        }
    }
}

/// Expands one top-down level of the rank's frontier (distance `level`): neighbors are claimed
/// in the visited bits, owned ones set in the next frontier's share bits, ghosts in this
/// level's ghost bits (`bfs_part_pack_ghosts` then writes the pairs for their owners; the next
/// queue is packed from the share bits when a top-down level reads it), except ghosts a
/// frontier gathered earlier holds (`seen_bits`: reached by their owners). A warp takes 32
/// frontier vertices; lists of 32 edges or more it reads together, one at a time (Merrill et
/// al.'s warp gathering), the shorter ones a thread each; lists of `LONG_LIST_EDGES` or more it
/// registers in the table of long lists (`operators::shared_lists`) for
/// `bfs_part_top_down_long`, so that no warp holds the level up with a hub's list. A list of
/// `hub_degree` edges or more is skipped: it is a hub's, whose pieces every rank expands
/// (vertex delegates, `interface::bfs::partitioned::delegates`).
///
/// # Safety
/// `offsets` has `owned + ghosts + 1` entries, ghosts' lists empty, targets local ids; labels
/// hold `owned + ghosts` entries, `visited` a bit each; `frontier` holds `frontier_len` owned
/// ids; `long_table` has room for every list of `LONG_LIST_EDGES` or more (`long_capacity`
/// entries), whose tally in the counters is zero; `next_bits` has a bit for every owned vertex,
/// `ghost_bits` for every ghost; `seen_bits` is null or has a bit for every global id, and then
/// `ghost_globals` holds every ghost's; `counters` is the counters block. The block size is a
/// multiple of 32.
#[inline(always)]
unsafe fn top_down(params: BfsPartTopDownParams) {
    let BfsPartTopDownParams {
        offsets,
        degrees,
        targets,
        distances,
        parents,
        visited,
        frontier,
        frontier_len,
        next_bits,
        ghost_bits,
        ghost_globals,
        seen_bits,
        long_table,
        long_capacity,
        counters,
        first,
        owned,
        level,
        count_inspected,
        hub_degree,
    } = params;
    let labels = Labels { distances, parents, visited };
    let out_degrees = OutDegrees { offsets, degrees };
    let expand =
        Expand { out_degrees, targets, labels, next_bits, ghost_bits, ghost_globals, seen_bits, first, owned, level };
    let long_lists = SharedLists { table: long_table, capacity: long_capacity };
    let lane = lane_id();
    let mut found = Found::default();
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
        if count_inspected != 0 {
            found.inspected += end - start;
        }
        // A hub's list: every rank expands its own piece of it.
        if end - start >= hub_degree {
            start = end;
        }
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
        warp_gather(&mut start, end, vertex, |valid, edge, owner| unsafe {
            expand.visit(valid, edge, owner, &mut found)
        });
        let steps = warp_max((end - start) as u32);
        for step in 0..steps as u64 {
            // SAFETY: as above.
            unsafe { expand.visit(start + step < end, start + step, vertex, &mut found) };
        }
        warp_base += global_threads();
    }
    // SAFETY: the counters block (this kernel's contract); every lane of the warp is here.
    unsafe { found.add_to(counters) };
}

/// The long lists `bfs_part_top_down` registered at this level, or the hubs' pieces
/// `bfs_part_hub_lists` registered (vertex delegates: `targets` the pieces', `first` 0 and each
/// entry's owner the hub's global id, so the parent written is the hub): their edges, packed
/// end to end, cut into one even range a block and walked in block-wide rows, two rows in
/// flight (`operators::shared_lists`: the load-balancing paper's edge-based split, applied to
/// node splitting; Merrill et al., section 4.1, CTA gathering). However many hubs a level holds
/// and however long each, every block visits the same number of their edges. Over a compressed
/// part only the hubs' pieces come here (plain lists), the out-degrees from `degrees`.
///
/// # Safety
/// As for `bfs_part_top_down`, launched after the kernel that registered the table's entries
/// at the same level, with its counters (the tally at word `tally_word`) and table, with
/// `PARTITIONED_BLOCK` threads a block; every target of a hub's piece is owned; `degrees` is
/// null (the offsets are a plain CSR's) or has an entry a local vertex.
#[inline(always)]
unsafe fn top_down_long(params: BfsPartTopDownLongParams) {
    // SAFETY: declared once, before any control flow.
    let window = unsafe { ListWindow::declare() };
    let BfsPartTopDownLongParams {
        offsets,
        degrees,
        targets,
        distances,
        parents,
        visited,
        long_table,
        tally_word,
        next_bits,
        ghost_bits,
        ghost_globals,
        seen_bits,
        counters,
        first,
        owned,
        level,
    } = params;
    let labels = Labels { distances, parents, visited };
    let out_degrees = OutDegrees { offsets, degrees };
    let expand =
        Expand { out_degrees, targets, labels, next_bits, ghost_bits, ghost_globals, seen_bits, first, owned, level };
    // Gathering only reads the table; its capacity mattered to registering.
    let long_lists = SharedLists { table: long_table as *mut u64, capacity: 0 };
    let mut visitor = Visits { expand, found: Found::default() };
    // SAFETY: the previous launch registered the lists and the tally (launch order is the
    // grid barrier); every registered list is an owned vertex's or a hub's piece of owned
    // targets; the visits' contracts are this kernel's. Every thread of every block calls
    // `gather`.
    unsafe {
        let tally = Tally::read(counters.add(tally_word as usize) as *const u64);
        long_lists.gather::<{ PARTITIONED_BLOCK as usize }, _>(tally, &window, &mut visitor);
        visitor.found.add_to(counters);
    }
}

/// `bfs_part_top_down` over delta-varint out-lists (Moschou 2026, section 2.1: the lists
/// stored as gaps and decoded where they are read, so that a part fits a smaller budget or
/// moves fewer bytes over the bus when zero-copy). A warp takes 32 frontier vertices and
/// decodes their lists with `operators::gather_compressed` (a medium list by the whole warp, a
/// short one by its own thread); a list of `LONG_LIST_EDGES` or more is registered by its
/// pieces between restart points (`long_vertices`, `long_first`) in the table of long lists,
/// which `bfs_part_top_down_long_compressed` then decodes a piece a warp. A list of
/// `hub_degree` edges or more is skipped, as by `bfs_part_top_down`: the hubs' pieces are plain
/// lists, which `bfs_part_top_down_long` walks.
///
/// # Safety
/// `byte_offsets` has `owned + ghosts + 1` entries into `bytes` (padded to a multiple of 8
/// bytes), each list encoded relative to its local id with local-id targets, ghosts' lists
/// empty; `degrees` an entry a local vertex; every list of `RESTART_MIN_EDGES` edges or more in
/// the restart table; the rest as for `bfs_part_top_down`.
#[inline(always)]
unsafe fn top_down_compressed(params: BfsPartTopDownCompressedParams) {
    let BfsPartTopDownCompressedParams {
        byte_offsets,
        bytes,
        degrees,
        column_degrees,
        long_vertices,
        long_first,
        long_count,
        distances,
        parents,
        visited,
        frontier,
        frontier_len,
        next_bits,
        ghost_bits,
        ghost_globals,
        seen_bits,
        long_table,
        long_capacity,
        counters,
        first,
        owned,
        level,
        count_inspected,
        hub_degree,
    } = params;
    let labels = Labels { distances, parents, visited };
    let out_degrees = OutDegrees::compressed(byte_offsets, degrees, column_degrees);
    let targets = core::ptr::null();
    let expand =
        Expand { out_degrees, targets, labels, next_bits, ghost_bits, ghost_globals, seen_bits, first, owned, level };
    let restarts =
        Restarts { points: core::ptr::null(), vertices: long_vertices, first: long_first, count: long_count };
    let long_lists = SharedLists { table: long_table, capacity: long_capacity };
    let mut visits = Visits { expand, found: Found::default() };
    let lane = lane_id();
    // By warp, so that every lane reaches the full-mask votes together.
    let mut warp_base = global_idx() - lane;
    while warp_base < frontier_len {
        let slot = warp_base + lane;
        let (mut start, end, vertex, mut degree) = if slot < frontier_len {
            // SAFETY: `slot < frontier_len`; the vertex is a local one (owned, or a 2D column's
            // ghost), with entries in the offsets and the degrees.
            unsafe {
                let u = *frontier.add(slot as usize);
                (*byte_offsets.add(u as usize), *byte_offsets.add(u as usize + 1), u, *degrees.add(u as usize) as u64)
            }
        } else {
            (0, 0, 0, 0)
        };
        if count_inspected != 0 {
            visits.found.inspected += degree;
        }
        // A hub's list: every rank expands its own piece of it (plain, `bfs_part_top_down_long`).
        if degree >= hub_degree {
            (start, degree) = (end, 0);
        }
        let long = degree >= LONG_LIST_EDGES;
        let long_lanes = ballot_sync(FULL_MASK, long);
        if long_lanes != 0 {
            // A long list is registered as its pieces, its entry's start the index of its first
            // restart point.
            // SAFETY: a list of `LONG_LIST_EDGES` (at least `RESTART_MIN_EDGES`) edges has
            // restart points; the tally is a `u64` of the counters block and the table holds
            // every long list of the level (this kernel's contract); all 32 lanes are here.
            unsafe {
                let (point, pieces) =
                    if long { (restarts.first_point(vertex) as u64, degree.div_ceil(RESTART_EDGES)) } else { (0, 0) };
                let tally = counters.add(LONG_TALLY) as *mut u64;
                long_lists.register(tally, long_lanes, long, point, pieces, vertex);
            }
        }
        if long {
            start = end;
        }
        // SAFETY: each lane's list lies inside the byte array; visits are forwarded from this
        // kernel's contract.
        unsafe { gather_compressed_lists(bytes, vertex, start, end, &mut visits) };
        warp_base += global_threads();
    }
    // SAFETY: the counters block (this kernel's contract); every lane of the warp is here.
    unsafe { visits.found.add_to(counters) };
}

/// The pieces of the long compressed lists `bfs_part_top_down_compressed` registered at this
/// level, a piece (`RESTART_EDGES` edges, decoded from its restart point) a warp at a time
/// (`operators::gather_compressed`; node splitting of the load-balancing paper at restart
/// points), so that no hub's list is one warp's serial job.
///
/// # Safety
/// As for `bfs_part_top_down_compressed`, launched after it at the same level with its
/// counters and table; `restart_points` holds the table's points. The block size is a multiple
/// of 32.
#[inline(always)]
unsafe fn top_down_long_compressed(params: BfsPartTopDownLongCompressedParams) {
    let BfsPartTopDownLongCompressedParams {
        byte_offsets,
        bytes,
        degrees,
        column_degrees,
        restart_points,
        distances,
        parents,
        visited,
        long_table,
        next_bits,
        ghost_bits,
        ghost_globals,
        seen_bits,
        counters,
        first,
        owned,
        level,
    } = params;
    let labels = Labels { distances, parents, visited };
    let out_degrees = OutDegrees::compressed(byte_offsets, degrees, column_degrees);
    let targets = core::ptr::null();
    let expand =
        Expand { out_degrees, targets, labels, next_bits, ghost_bits, ghost_globals, seen_bits, first, owned, level };
    let restarts = Restarts { points: restart_points, ..Restarts::NONE };
    // Decoding only reads the table; its capacity mattered to registering.
    let long_lists = SharedLists { table: long_table as *mut u64, capacity: 0 };
    let mut visits = Visits { expand, found: Found::default() };
    // SAFETY: the byte offsets have an entry past every registered (owned) vertex.
    let list_range = |v: u32| unsafe { (*byte_offsets.add(v as usize), *byte_offsets.add(v as usize + 1)) };
    // SAFETY: the previous launch registered the pieces and the tally (launch order is the grid
    // barrier); each registered list's restart points are in `restart_points`; the visits'
    // contracts are this kernel's. Every lane of every warp calls it.
    unsafe {
        let tally = Tally::read(counters.add(LONG_TALLY) as *const u64);
        let (first_warp, warp_stride) = (global_idx() / WARP_SIZE, global_threads() / WARP_SIZE);
        gather_compressed_pieces(long_lists, tally, &restarts, bytes, list_range, first_warp, warp_stride, &mut visits);
        visits.found.add_to(counters);
    }
}

/// The hubs of the rank's next frontier, at a level's end: each owned hub whose share bit is
/// set sets its bit of `flags` (a bit a hub of the graph; only a hub's owner sets it, so the
/// ranks' sum of the words is their OR) and is counted in `HUBS`, which tells every rank whether
/// the next top-down level expands hubs' pieces (vertex delegates, Pearce et al.). A thread an
/// owned hub, grid-stride by warps.
///
/// # Safety
/// `owned_hubs` holds `owned_len` owned local ids, `next_bits` a bit for each, `flags` a bit for
/// hub indices `first_hub..first_hub + owned_len`; `counters` is the counters block. The block
/// size is a multiple of 32.
#[inline(always)]
unsafe fn hub_flags(params: BfsPartHubFlagsParams) {
    let BfsPartHubFlagsParams { owned_hubs, owned_len, first_hub, next_bits, flags, counters } = params;
    let lane = lane_id();
    let mut found = 0u64;
    let mut warp_base = global_idx() - lane;
    while warp_base < owned_len {
        let i = warp_base + lane;
        // SAFETY: `i < owned_len`, an index of `owned_hubs`, whose ids have bits in `next_bits`
        // and whose hub indices bits in `flags`.
        unsafe {
            if i < owned_len && bit_is_set(next_bits, *owned_hubs.add(i as usize)) {
                set_bit(flags, first_hub + i);
                found += 1;
            }
        }
        warp_base += global_threads();
    }
    // SAFETY: the counters block (the contract); every lane of the warp is here.
    unsafe { add_warp_count(counters, HUBS, found) };
}

/// Registers this rank's pieces of the frontier's hubs' lists (vertex delegates, Pearce et
/// al.; the pieces are node splitting by target owner) in a table of their own, which
/// `bfs_part_top_down_long` then walks as it walks the long lists: a warp takes 32 hubs, and
/// the flagged ones with a non-empty piece register with one warp scan and one atomic
/// (`operators::shared_lists`).
///
/// # Safety
/// `flags` has a bit for each of the `hubs` hubs (`u64` words), `hub_globals` an entry each,
/// `piece_offsets` `hubs + 1` ascending entries; `table` room for `capacity` entries, at least
/// one a hub; the counters block's `HUB_TALLY` zeroed. The block size is a multiple of 32.
#[inline(always)]
unsafe fn hub_lists(params: BfsPartHubListsParams) {
    let BfsPartHubListsParams { flags, hubs, hub_globals, piece_offsets, table, capacity, counters } = params;
    let lists = SharedLists { table, capacity };
    let lane = lane_id();
    // By warp, so that every lane reaches the full-mask vote together.
    let mut warp_base = global_idx() - lane;
    while warp_base < hubs {
        let i = warp_base + lane;
        // SAFETY: `i < hubs`, with a bit in `flags`, entries `i` and `i + 1` in `piece_offsets`
        // and an entry in `hub_globals`.
        let (start, edges, hub) = unsafe {
            if i < hubs && *flags.add(i as usize / 64) & (1 << (i % 64)) != 0 {
                let start = *piece_offsets.add(i as usize);
                (start, *piece_offsets.add(i as usize + 1) - start, *hub_globals.add(i as usize))
            } else {
                (0, 0, 0)
            }
        };
        let listed = edges > 0;
        let lanes = ballot_sync(FULL_MASK, listed);
        if lanes != 0 {
            // SAFETY: the tally is a `u64` of the counters block, the table holds an entry for
            // every hub (the contract); all 32 lanes are here.
            unsafe { lists.register(counters.add(HUB_TALLY) as *mut u64, lanes, listed, start, edges, hub) };
        }
        warp_base += global_threads();
    }
}

/// The ghosts a top-down level claimed, as (global vertex, global parent) pairs for their
/// owners: for each rank `r`, the set bits of its ghosts (indices `ghost_regions[r]..ghost_regions[r
/// + 1]`) packed into its region of `sent` from pair `ghost_regions[r]` on, counted in
/// `sent_counts[r]` (the frontier operators' pack: a block-wide scan and one atomic a block and
/// round). The parent is the one the claim wrote.
///
/// # Safety
/// `ghost_bits` has a bit for every ghost, `ghost_globals` and the labels past `owned` an entry
/// each; `ghost_regions` `world + 1` ascending ghost indices from 0 to the ghost count; `sent`
/// room for two words a ghost, `sent_counts` a zeroed word a rank. Launched with
/// `PARTITIONED_BLOCK` threads a block.
#[inline(always)]
unsafe fn pack_ghosts(params: BfsPartPackGhostsParams) {
    let BfsPartPackGhostsParams { ghost_bits, ghost_globals, parents, owned, ghost_regions, world, sent, sent_counts } =
        params;
    // SAFETY: declared once, at the top of the kernel, before any control flow.
    let (scan, base) = unsafe { (ScanScratch::declare(), SharedArray::<u32, 2>::declare()) };
    for rank in 0..world {
        // SAFETY: `rank < world`, with entries `rank` and `rank + 1` in `ghost_regions`.
        let (from, to) = unsafe { (*ghost_regions.add(rank as usize), *ghost_regions.add(rank as usize + 1)) };
        if from == to {
            continue;
        }
        let first_word = from / 32;
        let words = (to - 1) / 32 + 1 - first_word;
        // The region's bits of word `first_word + w`, those of other ranks' ghosts masked off.
        let word_at = |w: u32| -> u32 {
            let at = first_word + w;
            // SAFETY: `at` is a word of a ghost index below the ghost count.
            let mut word = unsafe { *ghost_bits.add(at as usize) };
            if at * 32 < from {
                word &= u32::MAX << (from % 32);
            }
            if (at + 1) * 32 > to {
                word &= u32::MAX >> (32 - (to - at * 32));
            }
            word
        };
        // SAFETY: every thread calls it; the region holds every ghost of `rank`, so each
        // position stays inside it; `ghost` (bit `b` of word `first_word + w`) is a ghost index.
        unsafe {
            pack_bitmap_words_with::<PARTITIONED_BLOCK>(
                words,
                sent_counts.add(rank as usize),
                &scan,
                &base,
                word_at,
                |position, bit| {
                    let ghost = first_word * 32 + bit;
                    let pair = 2 * (from + position) as usize;
                    *sent.add(pair) = *ghost_globals.add(ghost as usize);
                    *sent.add(pair + 1) = *parents.add((owned + ghost) as usize);
                },
            )
        };
    }
}

/// Labels the pairs other ranks sent this one at distance `level + 1` where still unvisited,
/// setting their share bits; passes over the slots marked [`NO_PAIR`] (a top-down level's
/// fixed-size exchange: Merrill et al., section 6, the level's frontier exchanged between
/// owners).
///
/// # Safety
/// `pairs` holds `2 * pairs_len` words, each vertex owned by this rank (`first..first +
/// owned`) or `NO_PAIR`; the rest as for `bfs_part_top_down`. The block size is a multiple of
/// 32.
#[inline(always)]
unsafe fn receive(params: BfsPartReceiveParams) {
    let BfsPartReceiveParams {
        offsets,
        degrees,
        pairs,
        pairs_len,
        distances,
        parents,
        visited,
        next_bits,
        counters,
        first,
        level,
    } = params;
    let labels = Labels { distances, parents, visited };
    let out_degrees = OutDegrees { offsets, degrees };
    let mut found = Found::default();
    // By warp, so that every lane reaches the warp sums together.
    let lane = lane_id();
    let mut warp_base = global_idx() - lane;
    while warp_base < pairs_len {
        let slot = warp_base + lane;
        if slot < pairs_len {
            // SAFETY: `slot < pairs_len`; the vertex is owned or `NO_PAIR` (the contract).
            unsafe {
                let vertex = *pairs.add(2 * slot as usize);
                let v = vertex.wrapping_sub(first);
                if vertex != NO_PAIR && labels.claim(v, level + 1, *pairs.add(2 * slot as usize + 1)) {
                    set_bit(next_bits, v);
                    found.vertices += 1;
                    found.edges += out_degrees.of(v);
                }
            }
        }
        warp_base += global_threads();
    }
    // SAFETY: the counters block (this kernel's contract); every lane of the warp is here.
    unsafe { found.add_to(counters) };
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
                bit_is_set(share_bits, local)
            } else if local < local_n {
                bit_is_set(global_bits, *ghost_globals.add((local - owned) as usize))
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

/// An in-list graph's targets as global ids, once when a part is placed, for bottom-up levels
/// that read every in-neighbor in the global bitmap as one GPU does (Beamer et al.'s bottom-up
/// over Merrill et al.'s section 6 striping), with no pass over the ghosts a level and no
/// ghost's global id read at random: an owned target `t` is `first + t`, a ghost's id is read
/// from `ghost_globals`, in the targets' order. One thread a target, grid-stride.
///
/// # Safety
/// `targets` and `global_targets` hold `edges` entries; every target is under `owned` plus the
/// length of `ghost_globals`.
#[inline(always)]
unsafe fn global_targets(params: BfsPartGlobalTargetsParams) {
    let BfsPartGlobalTargetsParams { targets, edges, ghost_globals, first, owned, global_targets } = params;
    for i in grid_stride(edges) {
        // SAFETY: `i < edges` and the targets' range, the contract's.
        unsafe {
            let t = *targets.add(i as usize);
            *global_targets.add(i as usize) =
                if t < owned { first + t } else { *ghost_globals.add((t - owned) as usize) };
        }
    }
}

/// Clears what a level's kernels count and mark into, in one launch where the host issued a
/// memset or a copy for each (five to seven a level on two ranks, each a driver call and a gap
/// on the stream): the counters with the top-down frontier's out-edges already in
/// `INSPECTED`, the per-rank send counts, the next share bits, the claimed ghosts' bits, the
/// queue's fill, and the fixed-size pair slots marked empty (every word [`NO_PAIR`]). The
/// start of a level of Merrill et al.'s section 6 striping, whose exchange the slots carry at
/// a fixed size. Every range grid-stride, one thread a word.
///
/// # Safety
/// `counters` is the counters block; `sent_counts` holds `world` words, `next_bits`
/// `next_words`, `ghost_bits` `ghost_words`, `pack_fill` one; when `slot_pairs` is not 0,
/// `ghost_regions` holds `world + 1` ascending entries and `sent` two words a ghost, through
/// the last region's end.
#[inline(always)]
unsafe fn begin_level(params: BfsPartBeginLevelParams) {
    let BfsPartBeginLevelParams {
        counters,
        inspected,
        sent_counts,
        world,
        rank,
        next_bits,
        next_words,
        ghost_bits,
        ghost_words,
        pack_fill,
        ghost_regions,
        slot_pairs,
        sent,
    } = params;
    for w in grid_stride(COUNTER_WORDS as u64) {
        let word = match w as usize {
            INSPECTED => inspected as u32,
            w if w == INSPECTED + 1 => (inspected >> 32) as u32,
            _ => 0,
        };
        // SAFETY: `w` is below the counters block's length.
        unsafe { *counters.add(w as usize) = word };
    }
    for r in grid_stride(world as u64) {
        // SAFETY: `r < world`, the send counts' length.
        unsafe { *sent_counts.add(r as usize) = 0 };
    }
    for w in grid_stride(next_words as u64) {
        // SAFETY: `w < next_words`.
        unsafe { *next_bits.add(w as usize) = 0 };
    }
    for w in grid_stride(ghost_words as u64) {
        // SAFETY: `w < ghost_words`.
        unsafe { *ghost_bits.add(w as usize) = 0 };
    }
    for _ in grid_stride(1) {
        // SAFETY: the fill is one word.
        unsafe { *pack_fill = 0 };
    }
    if slot_pairs == 0 {
        return;
    }
    for r in (0..world).filter(|&r| r != rank) {
        // SAFETY: `r + 1 <= world`: the regions hold `world + 1` entries.
        let (start, end) = unsafe { (*ghost_regions.add(r as usize), *ghost_regions.add(r as usize + 1)) };
        let words = 2 * (end - start).min(slot_pairs) as u64;
        for w in grid_stride(words) {
            // SAFETY: the slot lies within rank `r`'s region of `sent`, two words a ghost.
            unsafe { *sent.add(2 * start as usize + w as usize) = NO_PAIR };
        }
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

/// Adds `add` to each of the `len` ids at `ids`: a 2D rank's column frontier, as received from
/// one rank of its column (that rank's owned local ids), becomes the receiver's local ids of
/// that rank's block (a ghost stretch of whole blocks: `owned` plus where it starts).
///
/// # Safety
/// `ids` holds `len` elements.
#[inline(always)]
unsafe fn shift_ids(params: BfsPartShiftIdsParams) {
    let BfsPartShiftIdsParams { ids, len, add } = params;
    for i in grid_stride(len as u64) {
        // SAFETY: `i < len` (the contract).
        unsafe { *ids.add(i as usize) += add };
    }
}

/// Sets the bit of `ids[i] + add` in `bits` for each of the `len` ids: a bottom-up frontier
/// traded as the ranks' queues (sparse, a few vertices in a hundred or fewer) lands in the
/// global bitmap, one sender's queue of owned local ids a launch, `add` its first vertex (the
/// frontier representation chosen by size, as XBFS's adaptive frontiers choose theirs).
///
/// # Safety
/// `ids` holds `len` elements, and `bits` a bit for each `ids[i] + add`.
#[inline(always)]
unsafe fn scatter_ids(params: BfsPartScatterIdsParams) {
    let BfsPartScatterIdsParams { ids, len, add, bits } = params;
    for i in grid_stride(len as u64) {
        // SAFETY: `i < len`, and the bit exists (the contract).
        unsafe { set_bit(bits, *ids.add(i as usize) + add) };
    }
}

/// One bottom-up level: every owned unvisited vertex reads its in-list until it finds a vertex
/// of the frontier, which becomes its parent. A warp's 32 vertices are one word of the visited
/// bits, read once (a word of visited vertices is skipped whole), and one word of the next share
/// bits, which its ballot writes whole; the counts are summed in registers and added once a
/// warp at the end, so no counter is an address every warp contends for at every step.
/// A launch covers the owned vertices `begin..end`, whole words of the bitmaps, so a level may
/// run as several launches whose finished words are traded while the next one runs
/// (`multi::gpu`'s chunked bottom-up levels).
///
/// How an in-neighbor is looked up (`lookup`): with global-id targets
/// (`bfs_part_global_targets`' copy), in the global bitmap, as on one GPU; with local ids, an
/// owned one in the frontier's share (`share_bits`) and a ghost either in `frontier_bits` (the
/// frontier over the in-list graph's local ids, `bfs_part_local_frontier`: one pass over every
/// ghost a level) or in the global bitmap at its global id (a read of `in_ghost_globals` an
/// inspected ghost: cheaper on the last levels, which inspect few edges).
///
/// # Safety
/// `in_offsets` has an entry for every owned vertex and one more, its targets global ids (when
/// `lookup` is `GLOBAL_IDS`) or local ids of the in-list graph (ghosts' global ids in
/// `in_ghost_globals`); `out_offsets` has `owned + 1` entries at least; labels hold `owned`
/// entries at least, `visited` a bit each; `share_bits` has a bit for every owned vertex,
/// `frontier_bits` for every local id of the in-list graph (when `lookup` is
/// `LOCAL_FRONTIER`), `global_bits` for every global vertex, the rank's own share included
/// (when `lookup` is `GLOBAL_IDS`); `next_bits` a zeroed bit for every owned vertex; `counters`
/// is the counters block; `begin <= end <= owned`, `begin` a multiple of 32 and `end` one too or
/// `owned`. The block size is a multiple of 32.
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
        lookup,
        next_bits,
        counters,
        first,
        owned,
        begin,
        end,
        level,
    } = params;
    let level_pass = BottomUp {
        in_ghost_globals,
        out_degrees: OutDegrees { offsets: out_offsets, degrees: core::ptr::null() },
        labels: Labels { distances, parents, visited },
        share_bits,
        frontier_bits,
        global_bits,
        lookup,
        next_bits,
        counters,
        first,
        owned,
        begin,
        end,
        level,
    };
    // SAFETY: this kernel's contract is `BottomUp::run`'s, the in-lists plain.
    unsafe { level_pass.run(PlainInLists { offsets: in_offsets, targets: in_targets }) };
}

/// `bfs_part_bottom_up` over delta-varint in-lists (Moschou 2026, section 2.1): each thread
/// decodes its vertex's in-list with its own decoder, stopping at the first frontier vertex as
/// the plain search does.
///
/// # Safety
/// `in_byte_offsets` has an entry for every owned vertex and one more, into `in_bytes` (padded
/// to a multiple of 8 bytes), each list encoded relative to its local id; `out_degrees` an
/// entry an owned vertex; the rest as for `bfs_part_bottom_up`.
#[inline(always)]
unsafe fn bottom_up_compressed(params: BfsPartBottomUpCompressedParams) {
    let BfsPartBottomUpCompressedParams {
        in_byte_offsets,
        in_bytes,
        in_ghost_globals,
        out_degrees,
        distances,
        parents,
        visited,
        share_bits,
        frontier_bits,
        global_bits,
        lookup,
        next_bits,
        counters,
        first,
        owned,
        begin,
        end,
        level,
    } = params;
    let level_pass = BottomUp {
        in_ghost_globals,
        out_degrees: OutDegrees { offsets: core::ptr::null(), degrees: out_degrees },
        labels: Labels { distances, parents, visited },
        share_bits,
        frontier_bits,
        global_bits,
        lookup,
        next_bits,
        counters,
        first,
        owned,
        begin,
        end,
        level,
    };
    // SAFETY: this kernel's contract is `BottomUp::run`'s, the in-lists compressed.
    unsafe { level_pass.run(CompressedInLists { byte_offsets: in_byte_offsets, bytes: in_bytes }) };
}

/// How a bottom-up level reads an owned vertex's in-list.
trait InLists {
    /// Reads the in-list of owned vertex `v` in order until `in_frontier` holds for an entry:
    /// that entry, if one did, and the entries read.
    ///
    /// # Safety
    /// `v` has an in-list.
    unsafe fn search(&self, v: u32, in_frontier: impl FnMut(u32) -> bool) -> (Option<u32>, u64);
}

/// Plain in-lists: `targets[offsets[v]..offsets[v + 1]]`.
struct PlainInLists {
    offsets: *const u64,
    targets: *const u32,
}

impl InLists for PlainInLists {
    #[inline(always)]
    unsafe fn search(&self, v: u32, mut in_frontier: impl FnMut(u32) -> bool) -> (Option<u32>, u64) {
        // SAFETY: `v` has entries `v` and `v + 1` in the offsets, which bound its list.
        unsafe {
            let (start, end) = (*self.offsets.add(v as usize), *self.offsets.add(v as usize + 1));
            for edge in start..end {
                let u = *self.targets.add(edge as usize);
                if in_frontier(u) {
                    return (Some(u), edge + 1 - start);
                }
            }
            (None, end - start)
        }
    }
}

/// Delta-varint in-lists: bytes `byte_offsets[v]..byte_offsets[v + 1]` of `bytes`, encoded
/// relative to `v`.
struct CompressedInLists {
    byte_offsets: *const u64,
    bytes: *const u8,
}

impl InLists for CompressedInLists {
    #[inline(always)]
    unsafe fn search(&self, v: u32, mut in_frontier: impl FnMut(u32) -> bool) -> (Option<u32>, u64) {
        // SAFETY: `v` has entries `v` and `v + 1` in the byte offsets, which bound its list, a
        // whole number of varints inside the padded bytes.
        let mut decoder = unsafe {
            let (start, end) = (*self.byte_offsets.add(v as usize), *self.byte_offsets.add(v as usize + 1));
            ThreadDecoder::new(self.bytes, start, end, ListStart::list(v))
        };
        let mut read = 0;
        while decoder.has_next() {
            let u = decoder.next();
            read += 1;
            if in_frontier(u) {
                return (Some(u), read);
            }
        }
        (None, read)
    }
}

/// What a bottom-up level reads and writes beside the in-lists (`bfs_part_bottom_up`'s
/// parameters).
#[derive(Clone, Copy)]
struct BottomUp {
    in_ghost_globals: *const u32,
    out_degrees: OutDegrees,
    labels: Labels,
    share_bits: *const u32,
    frontier_bits: *const u32,
    global_bits: *const u32,
    lookup: u32,
    next_bits: *mut u32,
    counters: *mut u32,
    first: u32,
    owned: u32,
    /// The owned vertices this launch covers: `begin` a multiple of 32, `end` one too or
    /// `owned`.
    begin: u32,
    end: u32,
    level: u32,
}

impl BottomUp {
    /// The level over `lists` (see `bfs_part_bottom_up`).
    ///
    /// # Safety
    /// `bfs_part_bottom_up`'s contract, the in-lists read through `lists`.
    #[inline(always)]
    unsafe fn run<L: InLists>(&self, lists: L) {
        let BottomUp {
            in_ghost_globals,
            out_degrees,
            labels: Labels { distances, parents, visited },
            share_bits,
            frontier_bits,
            global_bits,
            lookup,
            next_bits,
            counters,
            first,
            owned,
            begin,
            end,
            level,
        } = *self;
        // SAFETY (of each read): every in-list entry is a global id (`GLOBAL_IDS`) or a local id
        // of the in-list graph, an owned vertex or a ghost of `in_ghost_globals`, whose bits the
        // bitmaps hold (the contract).
        let in_frontier = |u: u32| unsafe {
            if lookup == GLOBAL_IDS {
                bit_is_set(global_bits, u)
            } else if u < owned {
                bit_is_set(share_bits, u)
            } else if lookup == LOCAL_FRONTIER {
                bit_is_set(frontier_bits, u)
            } else {
                bit_is_set(global_bits, *in_ghost_globals.add((u - owned) as usize))
            }
        };
        // SAFETY: as above.
        let global_id = |u: u32| unsafe {
            if lookup == GLOBAL_IDS {
                u
            } else if u < owned {
                first + u
            } else {
                *in_ghost_globals.add((u - owned) as usize)
            }
        };
        let lane = lane_id();
        let (mut found, mut inspected) = (Found::default(), 0u64);
        // Warps start at multiples of 32 and stride by the grid's threads, also a multiple of 32:
        // each warp's vertices are one word of the bitmaps, inside `begin..end`'s words.
        let mut warp_base = begin + global_idx() - lane;
        while warp_base < end {
            let v = warp_base + lane;
            let word_at = warp_base as usize / 32;
            // SAFETY: the word of owned vertices `warp_base..`, which only this warp writes here.
            let seen = unsafe { *visited.add(word_at) };
            if seen == u32::MAX {
                warp_base += global_threads();
                continue;
            }
            let mut is_found = false;
            if v < end && seen & (1 << lane) == 0 {
                // SAFETY: `v < end <= owned`: it has an in-list, labels and an out-degree.
                unsafe {
                    let (parent, read) = lists.search(v, in_frontier);
                    inspected += read;
                    if let Some(u) = parent {
                        // Only this thread labels owned vertex `v` in a bottom-up level.
                        *distances.add(v as usize) = level + 1;
                        *parents.add(v as usize) = global_id(u);
                        is_found = true;
                        found.vertices += 1;
                        found.edges += out_degrees.of(v);
                    }
                }
            }
            let word = ballot_sync(FULL_MASK, is_found);
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
        // SAFETY: the counters block (the contract); every lane of the warp is here.
        unsafe {
            found.add_to(counters);
            add_warp_count(counters, INSPECTED, inspected);
        }
    }
}

warpath_interface::bfs_part_init_fields!(warpath_interface::kernel_entry => init);
warpath_interface::bfs_part_top_down_fields!(warpath_interface::kernel_entry => top_down);
warpath_interface::bfs_part_top_down_long_fields!(warpath_interface::kernel_entry => top_down_long);
warpath_interface::bfs_part_top_down_compressed_fields!(warpath_interface::kernel_entry => top_down_compressed);
warpath_interface::bfs_part_top_down_long_compressed_fields!(warpath_interface::kernel_entry => top_down_long_compressed);
warpath_interface::bfs_part_hub_flags_fields!(warpath_interface::kernel_entry => hub_flags);
warpath_interface::bfs_part_hub_lists_fields!(warpath_interface::kernel_entry => hub_lists);
warpath_interface::bfs_part_pack_ghosts_fields!(warpath_interface::kernel_entry => pack_ghosts);
warpath_interface::bfs_part_receive_fields!(warpath_interface::kernel_entry => receive);
warpath_interface::bfs_part_local_frontier_fields!(warpath_interface::kernel_entry => local_frontier);
warpath_interface::bfs_part_global_targets_fields!(warpath_interface::kernel_entry => global_targets);
warpath_interface::bfs_part_begin_level_fields!(warpath_interface::kernel_entry => begin_level);
warpath_interface::bfs_part_pack_queue_fields!(warpath_interface::kernel_entry => pack_queue);
warpath_interface::bfs_part_shift_ids_fields!(warpath_interface::kernel_entry => shift_ids);
warpath_interface::bfs_part_scatter_ids_fields!(warpath_interface::kernel_entry => scatter_ids);
warpath_interface::bfs_part_bottom_up_fields!(warpath_interface::kernel_entry => bottom_up);
warpath_interface::bfs_part_bottom_up_compressed_fields!(warpath_interface::kernel_entry => bottom_up_compressed);
