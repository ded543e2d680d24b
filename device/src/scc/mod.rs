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
//!   workshops 2000): the vertex of the largest in-degree times out-degree alone pushes a key,
//!   larger than every vertex's ([`SCC_PIVOT`]), so the first propagation is its two searches,
//!   every vertex they reach rising once, and finds the giant component of a web or social
//!   graph; the vertices it reached forward only, backward only, or neither, are three groups
//!   for the coloring;
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
//! (its stamp) pushes, and one raised in this round pushes in the next with its newest key. A
//! list longer than [`WARP_LIST`] is walked by the lane's whole warp
//! ([`crate::operators::warp_lists`]).

use crate::operators::warp_lists::warp_walk_long_lists;
use crate::prelude::*;
use warpath_interface::scc::{
    scc_group, scc_word, SccPassParams, SCC_CONTROL_DECIDED, SCC_CONTROL_PIVOT, SCC_CONTROL_UNDECIDED, SCC_DECIDE,
    SCC_DECIDED_GROUP, SCC_IDLE, SCC_INIT, SCC_LABEL, SCC_NAME, SCC_NO_KEY, SCC_PIVOT, SCC_PROPAGATE, SCC_ROUND_RING,
};

/// Lists longer than this are walked by the whole warp.
const WARP_LIST: u64 = 64;

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

/// Raises `words[w]` to `word` where `w` is in `word`'s group and holds a smaller key; stamps
/// it with `round` where it rose. Returns 1 where it rose.
///
/// # Safety
/// `w` indexes `words` and `stamps`.
#[inline(always)]
unsafe fn raise(words: *mut u64, stamps: *mut u32, w: u32, word: u64, round: u32) -> u64 {
    // SAFETY: the caller's contract. The plain read only filters: a word only rises within its
    // group during propagation, so a stale read sends an atomic that changes nothing.
    unsafe {
        let at = core::ptr::read_volatile(words.add(w as usize));
        if group_of(at) != group_of(word) || at >= word {
            return 0;
        }
        if atomic_max_u64(words.add(w as usize), word) < word {
            *stamps.add(w as usize) = round;
            return 1;
        }
    }
    0
}

/// One direction of a propagation round for the warp's vertices (`v` on this lane, `valid`
/// where `v < n`): each whose word rose in the last round pushes it along its lists.
///
/// # Safety
/// `offsets` has `n + 1` entries and `targets` `offsets[n]`, every target `< n`; `words` and
/// `stamps` hold `n` entries. Every lane of the warp calls it.
#[inline(always)]
unsafe fn push_direction(
    offsets: *const u64,
    targets: *const u32,
    words: *mut u64,
    stamps: *mut u32,
    v: usize,
    valid: bool,
    round: u32,
) -> u64 {
    let lane = lane_id() as u64;
    let mut raised = 0u64;
    // SAFETY: `v < n` where valid; the contract's arrays; list entries are `< n`.
    unsafe {
        let mut word = 0u64;
        let (mut start, mut end) = (0u64, 0u64);
        if valid && *stamps.add(v) == round - 1 {
            word = core::ptr::read_volatile(words.add(v));
            if group_of(word) != SCC_DECIDED_GROUP {
                (start, end) = (*offsets.add(v), *offsets.add(v + 1));
            }
        }
        let long = end - start > WARP_LIST;
        if !long {
            for e in start..end {
                raised += raise(words, stamps, *targets.add(e as usize), word, round);
            }
        }
        warp_walk_long_lists(long, start, end, word, |from, to, word, _| {
            let mut e = from + lane;
            while e < to {
                raised += raise(words, stamps, *targets.add(e as usize), word, round);
                e += WARP_SIZE as u64;
            }
        });
    }
    raised
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
/// drives them: `SCC_INIT` (with the control block zeroed), `SCC_PIVOT`, then propagation
/// rounds from 1 and `SCC_DECIDE` with the last round's number until none is undecided, then
/// `SCC_NAME` and `SCC_LABEL`.
#[inline(always)]
unsafe fn pass(params: SccPassParams) {
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
        control,
        n,
        round,
        mode,
    } = params;
    let (mut decided, mut undecided, mut raised) = (0u64, 0u64, 0u64);
    let mut pivot = 0u64;
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
        SCC_PIVOT => {
            if global_idx() == 0 {
                // SAFETY: the pivot is a vertex `< n` where one was found.
                unsafe {
                    let chosen = *control.add(SCC_CONTROL_PIVOT);
                    if chosen != 0 {
                        let v = chosen as u32 as usize;
                        *in_words.add(v) = scc_word(0, n + 1);
                        *out_words.add(v) = scc_word(0, n + 1);
                        *in_stamps.add(v) = 0;
                        *out_stamps.add(v) = 0;
                    }
                }
            }
        }
        SCC_PROPAGATE => {
            let lane = lane_id() as u64;
            let threads = global_threads() as u64;
            // The warp's first vertex: every lane takes the same turns, so the warp can share
            // lists.
            let mut base = global_idx() as u64 - lane;
            while base < n as u64 {
                let v = (base + lane) as usize;
                let valid = v < n as usize;
                // SAFETY: forwarded from the kernel's contract; every lane takes this turn.
                unsafe {
                    raised += push_direction(out_offsets, out_targets, in_words, in_stamps, v, valid, round);
                    raised += push_direction(in_offsets, in_targets, out_words, out_stamps, v, valid, round);
                }
                base += threads;
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
    let pivot = warp_max_u64(pivot);
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
        }
    }
}

warpath_interface::scc_pass_fields!(warpath_interface::kernel_entry => pass);
