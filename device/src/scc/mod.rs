//! Strongly connected components: `scc_pass`, one pass over every vertex a launch, the host
//! choosing the pass and reading the control block between them (`host/src/scc/gpu.rs` drives
//! the passes).
//!
//! The method is the CPU's (`host/src/scc/cpu.rs`) done for every component at once:
//! - trimming ([`SCC_INIT`]): a vertex with no in-edge or no out-edge is a component of its own
//!   (McLendon et al.'s trimming, as in Slota, Rajamanickam and Madduri, "BFS and
//!   coloring-based parallel algorithms for strongly connected components", IPDPS 2014,
//!   section 3.1);
//! - forward-backward reachability from a pivot (Fleischer, Hendrickson and Pınar, IPDPS
//!   workshops 2000), the vertex of the largest in-degree times out-degree: the BFS's own
//!   kernel searches from it forward (out-lists) and backward (in-lists), and [`SCC_MARK`]
//!   gives every vertex each search reached the pivot's key, larger than every vertex's; the
//!   vertices reached both ways are its component (the giant of a web or social graph), and
//!   those reached forward only, backward only, or neither, are three groups for the coloring;
//! - coloring (Orzan's label propagation, Slota et al. section 3.3) in both directions at once,
//!   as ECL-SCC does (Alabandi, Sands, Biros and Burtscher, SC 2023, section 3): every vertex
//!   propagates the largest key that reaches it along its out-lists and the largest it reaches
//!   along its in-lists ([`SCC_PROPAGATE`], rounds until none rises); a vertex whose two keys
//!   agree lies on a cycle through that key's vertex, so in its component ([`SCC_DECIDE`]); the
//!   others restart from their own keys, each group of vertices that had the same two keys
//!   apart from the others (ECL-SCC's removal of the edges between them: a component's vertices
//!   always share both keys). The largest undecided key of every group is decided each time,
//!   so the loop ends.
//!
//! Labels are each component's smallest vertex ([`SCC_NAME`], [`SCC_LABEL`]), as the CPU's
//! are. A propagation round is data-driven: only a vertex whose key rose in the last round
//! (its stamp) pushes, and one raised in this round pushes in the next with its newest key.
//! Its tiles' lists are gathered by scan+warp+CTA (Merrill, Garland and Grimshaw, PPoPP 2012,
//! section 4.1: the BFS's [`gather_tile`]); a list of [`SCC_LONG_LIST`] entries or more is
//! queued instead and walked by the whole grid in the round's second pass ([`SCC_LONG_LISTS`]),
//! as the BFS's grid-shared long lists are (bench/NOTES.md 38-39).

use crate::operators::gather::{gather_tile, EdgeVisitor, TileScratch, BATCH};
use crate::prelude::*;
use warpath_interface::scc::{
    scc_group, scc_word, SccPassParams, SCC_BLOCK, SCC_CONTROL_DECIDED, SCC_CONTROL_MAX_IN_DEGREE, SCC_CONTROL_PIVOT,
    SCC_CONTROL_QUEUED, SCC_CONTROL_UNDECIDED, SCC_DECIDE, SCC_DECIDED_GROUP, SCC_IDLE, SCC_INIT, SCC_LABEL,
    SCC_LONG_LIST, SCC_LONG_LISTS, SCC_LONG_LIST_WORDS, SCC_MARK, SCC_NAME, SCC_NO_KEY, SCC_PROPAGATE, SCC_ROUND_RING,
};

/// Threads a block: a tile of vertices.
const BLOCK: usize = SCC_BLOCK as usize;

/// The word of a decided vertex: its group matches no pusher's.
const DECIDED_WORD: u64 = scc_word(SCC_DECIDED_GROUP, 0);

#[inline(always)]
fn group_of(word: u64) -> u32 {
    (word >> 32) as u32
}

#[inline(always)]
fn key_of(word: u64) -> u32 {
    word as u32
}

/// One direction of a propagation round: the lists it walks, the words it raises and their
/// stamps.
#[derive(Clone, Copy)]
struct Direction {
    offsets: *const u64,
    targets: *const u32,
    words: *mut u64,
    stamps: *mut u32,
}

/// Pushes owners' words to their lists' targets in one direction (the algorithm of the edge
/// operators: [`gather_tile`] and the long lists' walk hand it edges): a target in the owner's
/// group that holds a smaller key is raised to the owner's word by a posted 64-bit maximum and
/// stamped with the round, so that it pushes in the next one.
///
/// The maximum returns nothing (`red`), so a thread does not wait for it: a target whose plain
/// read showed a smaller key is stamped whether or not this edge's maximum is the one that
/// raised it, which costs at most a push of a word that did not change (every stamp follows a
/// read that was below a word the target now holds, so rounds still end).
struct Raise {
    direction: Direction,
    round: u32,
    /// Targets stamped.
    raised: u64,
}

impl Raise {
    /// Raises `target` to `owner`'s word where it is in its group with a smaller key (see the
    /// type), given the target's word as read (`at`).
    ///
    /// # Safety
    /// `owner` and `target` index the direction's words and stamps.
    #[inline(always)]
    unsafe fn offer(&mut self, target: u32, at: u64, owner: u32) {
        let Direction { words, stamps, .. } = self.direction;
        // SAFETY: the caller's contract. The owner's word is read as it is now: one that rose
        // since its stamp pushes the newer key, which the next round would have pushed.
        unsafe {
            let word = core::ptr::read_volatile(words.add(owner as usize));
            if group_of(at) == group_of(word) && at < word {
                reduce_max_u64(words.add(target as usize), word);
                *stamps.add(target as usize) = self.round;
                self.raised += 1;
            }
        }
    }
}

impl EdgeVisitor for Raise {
    type Loaded = ([u32; BATCH], [u64; BATCH]);

    #[inline(always)]
    unsafe fn visit(&mut self, valid: bool, edge: u64, owner: u32) {
        if valid {
            // SAFETY: a valid edge lies in `owner`'s list; targets are vertices.
            unsafe {
                let target = *self.direction.targets.add(edge as usize);
                let at = core::ptr::read_volatile(self.direction.words.add(target as usize));
                self.offer(target, at, owner);
            }
        }
    }

    #[inline(always)]
    unsafe fn load(&mut self, edges: [u64; BATCH]) -> Self::Loaded {
        // SAFETY: every edge lies in a list of the graph; its target is a vertex.
        unsafe {
            let targets: [u32; BATCH] = core::array::from_fn(|k| *self.direction.targets.add(edges[k] as usize));
            let words =
                core::array::from_fn(|k| core::ptr::read_volatile(self.direction.words.add(targets[k] as usize)));
            (targets, words)
        }
    }

    #[inline(always)]
    unsafe fn visit_loaded(&mut self, valid: [bool; BATCH], loaded: Self::Loaded, owners: [u32; BATCH]) {
        // Slot by slot (a rolled loop can keep the batch's arrays in local memory).
        const _: () = assert!(BATCH == 2, "visit_loaded names each slot");
        // SAFETY (both): targets of the graph's edges, owners of its lists.
        unsafe {
            if valid[0] {
                self.offer(loaded.0[0], loaded.1[0], owners[0]);
            }
            if valid[1] {
                self.offer(loaded.0[1], loaded.1[1], owners[1]);
            }
        }
    }
}

/// One direction of a propagation round over one tile (`v` this thread's vertex): a vertex
/// whose word rose in the last round pushes it along its list, queued (`queued` counts the
/// round's queue) where it holds [`SCC_LONG_LIST`] entries or more, else gathered by the
/// tile. Returns the targets this thread stamped. Every thread of the block calls it.
///
/// # Safety
/// As for [`pass`]: `direction` holds its lists and arrays, `queued` is the round's ring word
/// of the control block, `long_lists` has room for `capacity` lists; `k` is the direction's
/// bit (0 forward, 1 backward).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn propagate_tile(
    scratch: &TileScratch<BLOCK>,
    direction: Direction,
    k: u64,
    v: u32,
    n: u32,
    round: u32,
    queued: *mut u64,
    long_lists: *mut u64,
    capacity: u32,
) -> u64 {
    // SAFETY: `v < n` where read; the contract's arrays.
    let (mut start, end) = unsafe {
        let pushes = v < n
            && *direction.stamps.add(v as usize) == round - 1
            && group_of(core::ptr::read_volatile(direction.words.add(v as usize))) != SCC_DECIDED_GROUP;
        if pushes {
            (*direction.offsets.add(v as usize), *direction.offsets.add(v as usize + 1))
        } else {
            (0, 0)
        }
    };
    if end - start >= SCC_LONG_LIST {
        // SAFETY: the contract's queue (a full queue leaves the list to the tile).
        unsafe {
            let at = atomic_add_u64(queued, 1);
            if at < capacity as u64 {
                let entry = long_lists.add(at as usize * SCC_LONG_LIST_WORDS);
                *entry = start;
                *entry.add(1) = end;
                *entry.add(2) = (k << 32) | v as u64;
                start = end;
            }
        }
    }
    // Most tiles of a late round push nothing: one barrier, not the gathering's scan and
    // barriers.
    if !sync_threads_or(start < end) {
        return 0;
    }
    let mut visitor = Raise { direction, round, raised: 0 };
    // SAFETY: the lists of the graph, of vertices `< n`.
    unsafe { gather_tile(scratch, v, start, end, WARP_SIZE as u64, &mut visitor) };
    visitor.raised
}

/// `scc_pass`: the pass `mode` says (see the module documentation and the interface's
/// `SCC_*` passes).
///
/// # Safety
/// `out_offsets` and `in_offsets` have `n + 1` entries, `out_targets` and `in_targets` as many
/// as their offsets' last, every target `< n`, the in-lists the out-lists' transpose (or the
/// same lists, undirected); `in_words`, `out_words`, `in_stamps`, `out_stamps` and
/// `components` hold `n` entries, `smallest` `n + 2`, `control` `SCC_CONTROL_WORDS`; `n + 1 <
/// u32::MAX`. Blocks of a multiple of 32 threads. The passes run in the order the host
/// drives them: `SCC_INIT` (with the control block zeroed), `SCC_MARK` after each of the
/// pivot's two searches, `SCC_DECIDE`, then propagation rounds and `SCC_DECIDE` with the last
/// round's number until none is undecided, then `SCC_NAME` and `SCC_LABEL`; `reached` holds
/// `n` distances for `SCC_MARK`.
#[inline(always)]
unsafe fn pass(params: SccPassParams) {
    // SAFETY: declared once, before any control flow.
    let scratch = unsafe { TileScratch::<BLOCK>::declare() };
    let SccPassParams {
        out_offsets,
        out_targets,
        in_offsets,
        in_targets,
        in_words,
        out_words,
        in_stamps,
        out_stamps,
        components,
        smallest,
        reached,
        control,
        long_lists,
        long_list_capacity,
        n,
        round,
        mode,
    } = params;
    // Forward keys go along out-lists, backward keys along in-lists (the queue's direction bit).
    let directions = [
        Direction { offsets: out_offsets, targets: out_targets, words: in_words, stamps: in_stamps },
        Direction { offsets: in_offsets, targets: in_targets, words: out_words, stamps: out_stamps },
    ];
    let (mut decided, mut undecided, mut raised) = (0u64, 0u64, 0u64);
    let (mut pivot, mut max_in_degree) = (0u64, 0u64);
    match mode {
        SCC_INIT => {
            for v in grid_stride(n as u64 + 2) {
                let v = v as usize;
                // SAFETY: `v <= n + 1`: `smallest` holds `n + 2` entries, the rest `n`.
                unsafe {
                    *smallest.add(v) = u32::MAX;
                    if v >= n as usize {
                        continue;
                    }
                    let out = *out_offsets.add(v + 1) - *out_offsets.add(v);
                    let inward = *in_offsets.add(v + 1) - *in_offsets.add(v);
                    max_in_degree = max_in_degree.max(inward);
                    if out == 0 || inward == 0 {
                        *components.add(v) = v as u32 + 1;
                        *in_words.add(v) = DECIDED_WORD;
                        *out_words.add(v) = DECIDED_WORD;
                        decided += 1;
                    } else {
                        *in_words.add(v) = scc_word(0, SCC_NO_KEY);
                        *out_words.add(v) = scc_word(0, SCC_NO_KEY);
                        *in_stamps.add(v) = SCC_IDLE;
                        *out_stamps.add(v) = SCC_IDLE;
                        undecided += 1;
                        let score = out.saturating_mul(inward).min(u32::MAX as u64);
                        pivot = pivot.max((score << 32) | v as u64);
                    }
                }
            }
        }
        SCC_MARK => {
            let words = if round == 0 { in_words } else { out_words };
            for v in grid_stride(n as u64) {
                let v = v as usize;
                // SAFETY: `v < n`; `reached` holds the BFS's `n` distances.
                unsafe {
                    if *reached.add(v) != UNREACHED && group_of(*words.add(v)) != SCC_DECIDED_GROUP {
                        *words.add(v) = scc_word(0, n + 1);
                    }
                }
            }
        }
        SCC_PROPAGATE => {
            let slot = SCC_CONTROL_QUEUED + round as usize % SCC_ROUND_RING;
            let tiles = n.div_ceil(SCC_BLOCK);
            let mut tile = block_idx();
            // Block-uniform: every thread of a block takes the same tiles (the gathering's
            // barriers).
            while tile < tiles {
                let v = tile * SCC_BLOCK + thread_idx();
                // Both directions, each walking its own lists (two calls, not a loop over
                // the array: indexing it by a loop variable put it in local memory).
                // SAFETY: forwarded from the kernel's contract.
                unsafe {
                    raised += propagate_tile(
                        &scratch,
                        directions[0],
                        0,
                        v,
                        n,
                        round,
                        control.add(slot),
                        long_lists,
                        long_list_capacity,
                    );
                    raised += propagate_tile(
                        &scratch,
                        directions[1],
                        1,
                        v,
                        n,
                        round,
                        control.add(slot),
                        long_lists,
                        long_list_capacity,
                    );
                }
                tile += grid_dim();
            }
        }
        SCC_LONG_LISTS => {
            // SAFETY: the ring's word for this round, written by the round's propagation.
            let queued = unsafe { *control.add(SCC_CONTROL_QUEUED + round as usize % SCC_ROUND_RING) };
            let threads = global_threads() as u64;
            for i in 0..queued.min(long_list_capacity as u64) as usize {
                // SAFETY: the propagation wrote `queued` entries (within the capacity).
                let (start, end, tag) = unsafe {
                    let entry = long_lists.add(i * SCC_LONG_LIST_WORDS);
                    (*entry, *entry.add(1), *entry.add(2))
                };
                let direction = if tag >> 32 == 0 { directions[0] } else { directions[1] };
                let mut visitor = Raise { direction, round, raised: 0 };
                let mut e = start + global_idx() as u64;
                while e < end {
                    // SAFETY: `e` lies in the owner's list.
                    unsafe { visitor.visit(true, e, tag as u32) };
                    e += threads;
                }
                raised += visitor.raised;
            }
        }
        SCC_DECIDE => {
            for v in grid_stride(n as u64) {
                let v = v as usize;
                // SAFETY: `v < n`.
                unsafe {
                    let (forward, backward) = (*in_words.add(v), *out_words.add(v));
                    if group_of(forward) == SCC_DECIDED_GROUP {
                        continue;
                    }
                    if key_of(forward) == key_of(backward) && key_of(forward) != SCC_NO_KEY {
                        *components.add(v) = key_of(forward);
                        *in_words.add(v) = DECIDED_WORD;
                        *out_words.add(v) = DECIDED_WORD;
                        decided += 1;
                    } else {
                        let own = scc_word(scc_group(key_of(forward), key_of(backward)), v as u32 + 1);
                        *in_words.add(v) = own;
                        *out_words.add(v) = own;
                        *in_stamps.add(v) = round;
                        *out_stamps.add(v) = round;
                        undecided += 1;
                    }
                }
            }
        }
        SCC_NAME => {
            let mut base = global_idx() as u64 - lane_id() as u64;
            let threads = global_threads() as u64;
            while base < n as u64 {
                let v = base + lane_id() as u64;
                let key = if v < n as u64 {
                    // SAFETY: `v < n`.
                    unsafe { *components.add(v as usize) }
                } else {
                    u32::MAX
                };
                // The warp's lanes hold ascending vertices: of those with one key, the lowest
                // lane holds the smallest and alone lowers the key's word (a giant component's
                // vertices would otherwise queue on one word).
                let peers = match_any_sync(FULL_MASK, key);
                if key != u32::MAX && lane_id() == peers.trailing_zeros() {
                    // SAFETY: keys run to the pivot's `n + 1`: `smallest` holds `n + 2`.
                    unsafe {
                        let slot = smallest.add(key as usize);
                        if (v as u32) < core::ptr::read_volatile(slot) {
                            atomic_min_u32(slot, v as u32);
                        }
                    }
                }
                base += threads;
            }
        }
        SCC_LABEL => {
            for v in grid_stride(n as u64) {
                // SAFETY: `v < n`; keys index `smallest`.
                unsafe {
                    let key = *components.add(v as usize);
                    *components.add(v as usize) = *smallest.add(key as usize);
                }
            }
        }
        _ => {}
    }
    // One atomic a warp and counter: every lane of the warp has left the loops.
    let (decided, undecided, raised) = (warp_sum_u64(decided), warp_sum_u64(undecided), warp_sum_u64(raised));
    let (pivot, max_in_degree) = (warp_max_u64(pivot), warp_max_u64(max_in_degree));
    if lane_id() == 0 {
        // SAFETY: `control` holds `SCC_CONTROL_WORDS` words of global memory.
        unsafe {
            if decided > 0 {
                atomic_add_u64(control.add(SCC_CONTROL_DECIDED), decided);
            }
            if undecided > 0 {
                atomic_add_u64(control.add(SCC_CONTROL_UNDECIDED), undecided);
            }
            if raised > 0 {
                atomic_add_u64(control.add(round as usize % SCC_ROUND_RING), raised);
            }
            if pivot > *control.add(SCC_CONTROL_PIVOT) {
                atomic_max_u64(control.add(SCC_CONTROL_PIVOT), pivot);
            }
            if max_in_degree > *control.add(SCC_CONTROL_MAX_IN_DEGREE) {
                atomic_max_u64(control.add(SCC_CONTROL_MAX_IN_DEGREE), max_in_degree);
            }
        }
    }
}

warpath_interface::scc_pass_fields!(warpath_interface::kernel_entry => pass);
