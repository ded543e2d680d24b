//! The strongly-connected-components kernel's interface: `scc_pass` runs one pass over every
//! vertex, the host choosing the pass ([`SccPassParams::mode`]) and reading the control block
//! between passes. Here: the block size, the passes, the control block's words and the word
//! that marks a decided vertex.
//!
//! Each vertex holds two words, one a direction: the largest key that reaches it
//! (`in_words`, pushed along out-lists) and the largest it reaches (`out_words`, pushed along
//! in-lists), each beside its group in the high half ([`scc_word`]).

/// Threads per block of `scc_pass` (whole warps: a warp walks its long lists together).
pub const SCC_BLOCK: u32 = 256;

/// A pass: trimming (a vertex without in-edges or without out-edges is a component of its
/// own), every other vertex's words set to [`SCC_NO_KEY`] in group 0 and its stamps to
/// [`SCC_IDLE`], the pivot (largest in-degree times out-degree) picked into
/// [`SCC_CONTROL_PIVOT`], the largest in-degree into [`SCC_CONTROL_MAX_IN_DEGREE`].
pub const SCC_INIT: u32 = 0;
/// A pass after a BFS from the pivot (the out-lists' search for direction 0, the in-lists'
/// for 1, passed as `round`): every undecided vertex the search reached (`reached`, the BFS's
/// distances) takes the pivot's key `n + 1`, larger than every vertex's own, in that
/// direction's word. After both, [`SCC_DECIDE`] decides the pivot's component (reached both
/// ways) and leaves three groups: reached forward only, backward only, neither.
pub const SCC_MARK: u32 = 1;
/// A pass: every undecided vertex whose word of a direction rose in the last round (its stamp
/// is `round - 1`) pushes it to its neighbors of that direction in its group.
pub const SCC_PROPAGATE: u32 = 2;
/// A pass: an undecided vertex whose two words agree on a key (not [`SCC_NO_KEY`]) belongs to
/// that key's component and is decided; every other one takes a new group (a hash of its two
/// keys), its own key (`v + 1`) and the stamp `round`.
pub const SCC_DECIDE: u32 = 3;
/// A pass: each component's smallest vertex, by key ([`SccPassParams`]' `smallest`).
pub const SCC_NAME: u32 = 4;
/// A pass: every vertex's key replaced by its component's smallest vertex.
pub const SCC_LABEL: u32 = 5;
/// A pass, after each [`SCC_PROPAGATE`] of the same round: the whole grid walks the lists of
/// [`SCC_LONG_LIST`] entries or more that the round queued, each split evenly over every
/// thread.
pub const SCC_LONG_LISTS: u32 = 6;

/// Lists of at least this many entries are queued by [`SCC_PROPAGATE`] for
/// [`SCC_LONG_LISTS`] (a block walking a hub's list of 10^5 entries would hold the round up);
/// shorter ones are gathered by the block, its warps or its scan (scan+warp+CTA).
pub const SCC_LONG_LIST: u64 = 4096;

/// Words a queued long list takes in `long_lists`: its first entry, its end, and its owner
/// with the direction (1: the in-lists) in bit 32.
pub const SCC_LONG_LIST_WORDS: usize = 3;

/// Control words (`u64`): the vertices a propagation round raised, one word a round in a ring
/// of this many (round `r` adds to word `r % SCC_ROUND_RING`).
pub const SCC_ROUND_RING: usize = 8;
/// Control word: the pivot's score and id (`min(in * out, 2^32 - 1) << 32 | v`, a maximum).
pub const SCC_CONTROL_PIVOT: usize = SCC_ROUND_RING;
/// Control word: the largest in-degree (a maximum, by [`SCC_INIT`]: the backward search's
/// largest list).
pub const SCC_CONTROL_MAX_IN_DEGREE: usize = SCC_ROUND_RING + 3;
/// Control word: vertices a pass decided (trimmed by [`SCC_INIT`], found by [`SCC_DECIDE`]).
pub const SCC_CONTROL_DECIDED: usize = SCC_ROUND_RING + 1;
/// Control word: vertices a pass left undecided.
pub const SCC_CONTROL_UNDECIDED: usize = SCC_ROUND_RING + 2;
/// Control words: the long lists a round queued, one word a round in a ring of
/// [`SCC_ROUND_RING`] from this one.
pub const SCC_CONTROL_QUEUED: usize = 16;
/// Words of the control block.
pub const SCC_CONTROL_WORDS: usize = SCC_CONTROL_QUEUED + SCC_ROUND_RING;

/// The group of a decided vertex: no undecided vertex's group, so nothing pushes to it.
pub const SCC_DECIDED_GROUP: u32 = u32::MAX;

/// The key of a vertex that nothing has reached yet in the pivot's search: vertex `v`'s own
/// key is `v + 1`, the pivot's `n + 1`.
pub const SCC_NO_KEY: u32 = 0;

/// The stamp of a vertex that has nothing to push: no round is numbered so.
pub const SCC_IDLE: u32 = u32::MAX;

/// A vertex's word: its group in the high half, a key in the low half. Within a group the
/// words order as their keys, so one 64-bit maximum raises a key and keeps the group.
pub const fn scc_word(group: u32, key: u32) -> u64 {
    ((group as u64) << 32) | key as u64
}

/// The group of the vertices whose keys were `forward` (the largest key that reaches them)
/// and `backward` (the largest they reach): a hash of the two, never [`SCC_DECIDED_GROUP`]. Two
/// vertices of one component have the same two keys, so the same group; two pairs that hash
/// alike only share a group, which costs rounds, not correctness.
pub const fn scc_group(forward: u32, backward: u32) -> u32 {
    let hash = forward.wrapping_mul(0x9E37_79B1) ^ backward.wrapping_mul(0x85EB_CA77).rotate_left(16);
    if hash == SCC_DECIDED_GROUP {
        hash - 1
    } else {
        hash
    }
}

/// The field list of `scc_pass`'s parameters.
#[macro_export]
macro_rules! scc_pass_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `scc_pass`'s parameters: the out-lists and the in-lists (a directed graph's
            /// transpose; an undirected graph's own lists), the two words a vertex
            /// ([`scc_word`](crate::scc::scc_word): `in_words` the largest key that reaches
            /// it, `out_words` the largest it reaches), the round each last rose in
            /// (`in_stamps`, `out_stamps`), every vertex's component key (its label after
            /// [`SCC_LABEL`](crate::scc::SCC_LABEL)), each key's smallest vertex (`smallest`,
            /// `n + 2` entries: keys run to the pivot's `n + 1`), a BFS's distances from the
            /// pivot (`reached`, read by [`SCC_MARK`](crate::scc::SCC_MARK) alone; null for
            /// the other passes), the control block
            /// ([`SCC_CONTROL_WORDS`](crate::scc::SCC_CONTROL_WORDS)), the round's queue of
            /// long lists (`long_lists`, room for `long_list_capacity` lists of
            /// [`SCC_LONG_LIST_WORDS`](crate::scc::SCC_LONG_LIST_WORDS) words), the vertices,
            /// the round (propagation rounds count from 1) and the pass (`mode`).
            kernel scc_pass, in [$crate::scc], struct SccPassParams {
                out_offsets: $crate::DevicePtr<u64>,
                out_targets: $crate::DevicePtr<u32>,
                in_offsets: $crate::DevicePtr<u64>,
                in_targets: $crate::DevicePtr<u32>,
                in_words: $crate::DevicePtrMut<u64>,
                out_words: $crate::DevicePtrMut<u64>,
                in_stamps: $crate::DevicePtrMut<u32>,
                out_stamps: $crate::DevicePtrMut<u32>,
                components: $crate::DevicePtrMut<u32>,
                smallest: $crate::DevicePtrMut<u32>,
                reached: $crate::DevicePtr<u32>,
                control: $crate::DevicePtrMut<u64>,
                long_lists: $crate::DevicePtrMut<u64>,
                long_list_capacity: u32,
                n: u32,
                round: u32,
                mode: u32,
            }
            $(=> $run)?
        }
    };
}

crate::scc_pass_fields!(crate::kernel_params);
