//! One level of the bit-parallel many-source BFS (MS-BFS: Then, Kaufmann, Chirigati et al.,
//! "The More the Merrier: Efficient Multi-Source Graph Traversal", VLDB 2015, section 3; on the
//! GPU as iBFS's joint frontier with bitwise status, Liu, Huang et al., SIGMOD 2016, section 4):
//! up to 64 sources share every pass over the graph, each vertex holding a 64-bit word of the
//! sources that have reached it and one of those that reached it at the last level.
//!
//! A level runs in one of two directions over the joint frontier (the host picks by the
//! frontier's out-list entries, as Beamer's direction-optimizing BFS picks for one source;
//! iBFS section 4.3 switches the joint frontier the same way):
//! - bottom-up (`MULTI_SOURCE_PULL`), one thread a vertex (the `bfs::multi_source` CPU code's
//!   loop): a vertex that has not seen every source ORs its in-neighbors' frontier words,
//!   stops once every source it has not seen is there, and keeps the new bits. Only the
//!   vertex's own thread writes its words, so nothing is atomic but the counters.
//! - top-down (`MULTI_SOURCE_PUSH`, then `MULTI_SOURCE_SETTLE`): every vertex with a frontier
//!   word ORs it into its out-neighbors' next words (one atomic where a target gains a bit it
//!   has neither seen nor been given), then every vertex keeps the next bits it had not seen.
//!   Where the frontier is a few vertices (the 64 sources at level 1) this reads their lists
//!   alone instead of every vertex's.
//!
//! A level writes no distance: its new words stay in the host's ring of levels, and
//! `bfs_multi_source_distances` writes each source's distances from a ring of levels at once,
//! source by source, so that the 64 distances of a vertex are 64 coalesced stores over a
//! warp's 32 vertices instead of up to 64 stores a lane, each to another source's array, a
//! level (iBFS's status words, section 4.2, kept until the distances are written).
//!
//! A list longer than [`WARP_LIST`] is walked by its whole warp, 32 entries a lane-step
//! (Merrill et al. 2012's warp gathering, section 4.1), pulling with an or-reduction of the
//! warp's words every [`WARP_BATCH`] steps for the early stop: a hub's list walked by one thread
//! would hold the level up (a Kronecker graph's largest lists are 10^5 entries). A list longer
//! than [`MULTI_SOURCE_GRID_LIST`] is queued instead, in pieces of [`MULTI_SOURCE_PIECE`]
//! entries, each walked by a block in a pass of its own (node splitting: the load-balancing
//! paper's section on it),
//! since one warp walking 10^5 entries, a dependent trip every few hundred, holds the level for
//! a millisecond. Blocks are whole warps (`MULTI_SOURCE_BLOCK`), and every lane of a warp runs
//! the same number of turns of the vertex loop (the warp shares lists).

use crate::operators::warp_lists::warp_walk_long_lists;
use crate::prelude::*;
use warpath_interface::bfs::multi_source::{
    BfsMultiSourceCountParams, BfsMultiSourceDistancesParams, BfsMultiSourceLevelParams, MULTI_SOURCE_GRID_LIST,
    MULTI_SOURCE_LEVEL_RING, MULTI_SOURCE_PIECE, MULTI_SOURCE_PULL, MULTI_SOURCE_PULL_QUEUED, MULTI_SOURCE_PUSH,
    MULTI_SOURCE_PUSH_QUEUED, MULTI_SOURCE_SETTLE_QUEUED,
};

/// Lists longer than this are walked by the whole warp.
const WARP_LIST: u64 = 64;
/// Edges each lane reads between two of the warp's early-stop checks.
const WARP_BATCH: u64 = 4;

/// The sources in `wanted` that reach `start..end`'s in-neighbors at the last level, or a
/// superset of `wanted`'s bits among them once all are found: the whole warp walks the list.
///
/// # Safety
/// `start..end` is a list of `targets`, whose entries index `frontier`. Every lane of the warp
/// calls it with the same arguments.
#[inline(always)]
unsafe fn warp_pull(targets: *const u32, frontier: *const u64, start: u64, end: u64, wanted: u64) -> u64 {
    let lane = lane_id() as u64;
    let mut gathered = 0u64;
    let mut chunk = start;
    while chunk < end {
        for k in 0..WARP_BATCH {
            let e = chunk + k * WARP_SIZE as u64 + lane;
            if e < end {
                // SAFETY: `e` lies in the list; its target indexes `frontier`.
                gathered |= unsafe { *frontier.add(*targets.add(e as usize) as usize) };
            }
        }
        chunk += WARP_BATCH * WARP_SIZE as u64;
        // Every lane reaches it: the loop's bounds and the reduction are the warp's.
        if warp_or_u64(gathered) & wanted == wanted {
            break;
        }
    }
    warp_or_u64(gathered)
}

/// Gives target `v` the bits of `word` it has neither seen nor been given this level.
///
/// # Safety
/// `v` indexes `seen` and `next`.
#[inline(always)]
unsafe fn push_to(seen: *const u64, next: *mut u64, v: u32, word: u64) {
    // SAFETY: the caller's contract. The plain reads only filter: bits are only ever added to
    // both words, so a stale read sends a bit that is already there, which the atomic ignores.
    unsafe {
        let add = word & !(*seen.add(v as usize) | core::ptr::read_volatile(next.add(v as usize)));
        if add != 0 {
            atomic_or_u64(next.add(v as usize), add);
        }
    }
}

/// `bfs_multi_source_level`: one pass of level `level` of the `count` sources' searches.
///
/// # Safety
/// `offsets` has `n + 1` entries and `targets` `offsets[n]`, every target `< n`, and so has
/// `out_offsets`; `seen`, `frontier` and `next` hold `n` words and `next` is not `frontier`
/// (and is zero before a push pass); `count <= 64`; `counts` the level's
/// `MULTI_SOURCE_LEVEL_COUNTERS` words; `queue` room for `multi_source_queue_capacity` of the
/// lists' entries. Blocks of a multiple of 32 threads.
#[inline(always)]
unsafe fn level(params: BfsMultiSourceLevelParams) {
    let BfsMultiSourceLevelParams {
        offsets,
        targets,
        out_offsets,
        seen,
        frontier,
        next,
        counts,
        queue,
        n,
        count,
        mode,
    } = params;
    let sources = if count >= 64 { u64::MAX } else { (1u64 << count) - 1 };
    if mode >= MULTI_SOURCE_PULL_QUEUED {
        // SAFETY: forwarded from the caller; the queue's length is the level's third counter,
        // written by the pass a launch before.
        unsafe { queued_lists(params, sources) };
        return;
    }
    let (mut reached, mut reached_edges) = (0u64, 0u64);
    let lane = lane_id();
    let threads = global_threads() as u64;
    // The warp's first vertex: every lane takes the same turns, so the warp can share lists.
    let mut base = (global_idx() - lane) as u64;
    while base < n as u64 {
        let v = (base + lane as u64) as usize;
        let valid = v < n as usize;
        // SAFETY: `v < n` where valid; the arrays hold what the contract says; only this
        // thread writes `seen[v]`, and `next[v]` outside a push.
        unsafe {
            if mode == MULTI_SOURCE_PUSH {
                let word = if valid { *frontier.add(v) } else { 0 };
                let (start, end) = if word != 0 { (*offsets.add(v), *offsets.add(v + 1)) } else { (0, 0) };
                let start = queue_if_long(counts, queue, v as u32, start, end);
                let long = end - start > WARP_LIST;
                if !long {
                    for e in start..end {
                        push_to(seen, next, *targets.add(e as usize), word);
                    }
                }
                warp_walk_long_lists(long, start, end, word, |from, to, word, _| {
                    let mut e = from + lane as u64;
                    while e < to {
                        // `e` lies in a list of `targets`, whose entries are `< n`.
                        push_to(seen, next, *targets.add(e as usize), word);
                        e += WARP_SIZE as u64;
                    }
                });
                base += threads;
                continue;
            }
            let had = if valid { *seen.add(v) } else { sources };
            let unseen = !had & sources;
            let mut gathered = 0u64;
            if mode == MULTI_SOURCE_PULL {
                let (start, end) = if unseen != 0 { (*offsets.add(v), *offsets.add(v + 1)) } else { (0, 0) };
                // A queued list leaves the vertex's next word 0 here, for the grid's pass to fill.
                let start = queue_if_long(counts, queue, v as u32, start, end);
                let long = end - start > WARP_LIST;
                if !long {
                    let mut e = start;
                    while e < end && gathered & unseen != unseen {
                        gathered |= *frontier.add(*targets.add(e as usize) as usize);
                        e += 1;
                    }
                }
                warp_walk_long_lists(long, start, end, unseen, |from, to, wanted, leader| {
                    // `from..to` is a list of `targets`, the same on every lane.
                    let all = warp_pull(targets, frontier, from, to, wanted);
                    if lane == leader {
                        gathered = all;
                    }
                });
            } else if valid {
                // Settling a push: the pushes are over (a launch apart).
                gathered = *next.add(v);
            }
            let new = gathered & unseen;
            if valid && (mode == MULTI_SOURCE_PULL || gathered != new) {
                *next.add(v) = new;
            }
            if new != 0 {
                *seen.add(v) = had | new;
                reached += 1;
                reached_edges += *out_offsets.add(v + 1) - *out_offsets.add(v);
            }
        }
        base += threads;
    }
    // One atomic a warp and counter, not a thread: every lane has left the loop together.
    let (reached, reached_edges) = (warp_sum_u64(reached), warp_sum_u64(reached_edges));
    if lane == 0 && reached > 0 {
        // SAFETY: `counts` holds the level's counters in global memory.
        unsafe {
            atomic_add_u64(counts, reached);
            atomic_add_u64(counts.add(1), reached_edges);
        }
    }
}

/// Where vertex `v`'s walk of its list `start..end` begins: at `end` where the list is longer
/// than [`MULTI_SOURCE_GRID_LIST`] and queued instead for the grid's pass, as pieces of
/// [`MULTI_SOURCE_PIECE`] entries (`v << 32 | piece`; the level's third counter numbers them),
/// else at `start`.
///
/// # Safety
/// `counts` holds the level's counters, `queue` room for every piece of every list longer than
/// [`MULTI_SOURCE_GRID_LIST`].
#[inline(always)]
unsafe fn queue_if_long(counts: *mut u64, queue: *mut u64, v: u32, start: u64, end: u64) -> u64 {
    if end - start <= MULTI_SOURCE_GRID_LIST {
        return start;
    }
    let pieces = (end - start).div_ceil(MULTI_SOURCE_PIECE);
    // SAFETY: the caller's contract: the queue has room for every piece.
    unsafe {
        let at = atomic_add_u64(counts.add(2), pieces);
        for piece in 0..pieces {
            *queue.add((at + piece) as usize) = (v as u64) << 32 | piece;
        }
    }
    end
}

/// The grid's passes over the level's queued pieces of long lists, a block a piece in turn
/// (Merrill et al.'s CTA gathering over node splitting's pieces; no early stop, since pieces do
/// not see each other's bits). A pull ORs a piece's frontier words and adds them to the vertex's
/// next word (one atomic a warp, only where they hold a bit the vertex has not seen); a push
/// pushes the vertex's frontier word along the piece; a settle (one thread a vertex's first
/// piece) keeps what the pull gave each vertex and counts it.
///
/// # Safety
/// As for [`level`]; `counts[2]` pieces queued in `queue` by this level's first pass.
#[inline(always)]
unsafe fn queued_lists(params: BfsMultiSourceLevelParams, sources: u64) {
    let BfsMultiSourceLevelParams { offsets, targets, out_offsets, seen, frontier, next, counts, queue, mode, .. } =
        params;
    // SAFETY: the level's counters; the first pass ended a launch ago.
    let queued = unsafe { *counts.add(2) } as usize;
    if mode == MULTI_SOURCE_SETTLE_QUEUED {
        let (mut reached, mut reached_edges) = (0u64, 0u64);
        let mut i = global_idx() as usize;
        while i < queued {
            // SAFETY: `i < queued`: a queued vertex `< n`, whose first piece only this thread
            // holds.
            unsafe {
                let entry = *queue.add(i);
                let v = (entry >> 32) as usize;
                if entry as u32 == 0 {
                    let had = *seen.add(v);
                    let new = *next.add(v) & !had & sources;
                    *next.add(v) = new;
                    if new != 0 {
                        *seen.add(v) = had | new;
                        reached += 1;
                        reached_edges += *out_offsets.add(v + 1) - *out_offsets.add(v);
                    }
                }
            }
            i += global_threads() as usize;
        }
        if reached > 0 {
            // SAFETY: the level's counters.
            unsafe {
                atomic_add_u64(counts, reached);
                atomic_add_u64(counts.add(1), reached_edges);
            }
        }
        return;
    }
    let mut p = block_idx() as usize;
    while p < queued {
        // SAFETY: `p < queued`: a queued piece of a vertex `< n`.
        let (v, from, to) = unsafe {
            let entry = *queue.add(p);
            let v = (entry >> 32) as usize;
            let (start, end) = (*offsets.add(v), *offsets.add(v + 1));
            let from = start + (entry & u32::MAX as u64) * MULTI_SOURCE_PIECE;
            (v, from, end.min(from + MULTI_SOURCE_PIECE))
        };
        let mut e = from + thread_idx() as u64;
        if mode == MULTI_SOURCE_PULL_QUEUED {
            // SAFETY: `v < n`; the seen words do not change in this pass.
            let unseen = unsafe { !*seen.add(v) } & sources;
            let mut gathered = 0u64;
            while e < to {
                // SAFETY: `e` lies in `v`'s list; its target indexes `frontier`.
                gathered |= unsafe { *frontier.add(*targets.add(e as usize) as usize) };
                e += block_dim() as u64;
            }
            let add = warp_or_u64(gathered) & unseen;
            if lane_id() == 0 && add != 0 {
                // SAFETY: `v < n`; next words only gain bits in this pass.
                unsafe { atomic_or_u64(next.add(v), add) };
            }
        } else if mode == MULTI_SOURCE_PUSH_QUEUED {
            // SAFETY: `v < n`.
            let word = unsafe { *frontier.add(v) };
            while e < to {
                // SAFETY: `e` lies in `v`'s list, whose entries are `< n`.
                unsafe { push_to(seen, next, *targets.add(e as usize), word) };
                e += block_dim() as u64;
            }
        }
        p += grid_dim() as usize;
    }
}

warpath_interface::bfs_multi_source_level_fields!(warpath_interface::kernel_entry => level);

/// `bfs_multi_source_count`: counts, bit by bit, the vertices whose word has the bit (a level's
/// new words: the vertices each source reached at that level). A warp votes on each bit of its
/// 32 words (one ballot a bit), lane `i` keeping the counts of bits `i` and `i + 32`, and adds
/// them once at the end: two ballots a vertex, 64 atomics a warp.
///
/// # Safety
/// `words` holds `n` words, `counts` 64 counters. Blocks of a multiple of 32 threads.
#[inline(always)]
unsafe fn count(params: BfsMultiSourceCountParams) {
    let BfsMultiSourceCountParams { words, counts, n } = params;
    let lane = lane_id();
    let (mut low, mut high) = (0u64, 0u64);
    // The warp's first vertex: every lane takes the same turns (the ballots are the warp's).
    let mut base = (global_idx() - lane) as u64;
    while base < n as u64 {
        let v = base + lane as u64;
        // SAFETY: `v < n`.
        let word = if v < n as u64 { unsafe { *words.add(v as usize) } } else { 0 };
        if ballot_sync(FULL_MASK, word != 0) != 0 {
            for bit in 0..WARP_SIZE {
                let below = popc(ballot_sync(FULL_MASK, word & (1 << bit) != 0)) as u64;
                let above = popc(ballot_sync(FULL_MASK, word & (1 << (bit + WARP_SIZE)) != 0)) as u64;
                if lane == bit {
                    low += below;
                    high += above;
                }
            }
        }
        base += global_threads() as u64;
    }
    // SAFETY: `counts` holds 64 counters of global memory.
    unsafe {
        if low > 0 {
            atomic_add_u64(counts.add(lane as usize), low);
        }
        if high > 0 {
            atomic_add_u64(counts.add((lane + WARP_SIZE) as usize), high);
        }
    }
}

warpath_interface::bfs_multi_source_count_fields!(warpath_interface::kernel_entry => count);

/// Bits of a vertex's slot in the ring: its four plane words.
const PLANES: usize = 4;
const _: () = assert!(MULTI_SOURCE_LEVEL_RING as usize <= 1 << PLANES);

/// `bfs_multi_source_distances`: each source's distances from a window of levels' new words,
/// one thread a vertex. The thread folds its window into four plane words (bit `i` of plane `k`
/// is bit `k` of the slot where source `i` reached the vertex; each source reaches it at one
/// level at most) and their union, then writes source by source, the warp's 32 vertices of one
/// source a coalesced store: `first_level` plus the slot where the source's bit is there, else
/// unreached where `fill` (the window from level 0, which writes every distance once).
///
/// # Safety
/// `words` holds `levels * n` words, `levels <= MULTI_SOURCE_LEVEL_RING`, `distances` `count *
/// n` entries, `count <= 64`.
#[inline(always)]
unsafe fn distances(params: BfsMultiSourceDistancesParams) {
    let BfsMultiSourceDistancesParams { words, distances, n, count, first_level, levels, fill } = params;
    let n = n as usize;
    let mut v = global_idx() as usize;
    while v < n {
        let mut planes = [0u64; PLANES];
        let mut union = 0u64;
        // A bound the compiler knows: the window's loads all go out before any is used.
        for slot in 0..MULTI_SOURCE_LEVEL_RING as usize {
            if slot >= levels as usize {
                break;
            }
            // SAFETY: `slot < levels` and `v < n`: within `words`.
            let word = unsafe { *words.add(slot * n + v) };
            union |= word;
            for (k, plane) in planes.iter_mut().enumerate() {
                if slot >> k & 1 != 0 {
                    *plane |= word;
                }
            }
        }
        if union != 0 || fill != 0 {
            for i in 0..count as usize {
                let slot = (0..PLANES).fold(0u32, |slot, k| slot | ((planes[k] >> i & 1) as u32) << k);
                let distance = if union >> i & 1 != 0 {
                    Some(first_level + slot)
                } else if fill != 0 {
                    Some(UNREACHED)
                } else {
                    None
                };
                if let Some(distance) = distance {
                    // SAFETY: `i < count` and `v < n`: within `distances`.
                    unsafe { *distances.add(i * n + v) = distance };
                }
            }
        }
        v += global_threads() as usize;
    }
}

warpath_interface::bfs_multi_source_distances_fields!(warpath_interface::kernel_entry => distances);
