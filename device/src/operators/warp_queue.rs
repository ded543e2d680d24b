//! A warp's share of a queue, staged in shared memory and appended 32 entries at a time: one
//! global atomic per 32 entries, where warp-aggregated appends (one atomic per warp
//! instruction with any entry) cost one per round that queues anything. On a big step of a
//! traversal most rounds queue an entry or two, so millions of atomics on the one queue
//! counter serialize in L2 (the persistent BFS's top-down levels, bench/NOTES.md entry 6;
//! SSSP's grid steps, entry 97). Merrill, Garland and Grimshaw ("Scalable GPU Graph
//! Traversal", PPoPP 2012, section 4.2) reserve a whole CTA's output with one prefix sum and
//! one atomic; staging per warp gets most of that without block barriers, which a visitor
//! called from inside the gathering loops cannot pass.
//!
//! A stage is [`STAGE_WORDS`] words of a block's shared array; [`stage_base`] places the
//! stages of `queues` queues for every warp of the block. Every call takes all 32 lanes.

use crate::prelude::{
    atomic_add_u32, ballot_sync, lane_id, lanemask_lt, popc, shfl_idx_sync, sync_warp, warp_in_block, SharedArray,
    FULL_MASK, WARP_SIZE,
};

/// The words a warp stages for one queue: fewer than 32 between appends, plus one round's 32.
pub const STAGE_WORDS: usize = 2 * WARP_SIZE as usize;

/// The shared words that stage `queues` queues for a block of `warps` warps.
pub const fn stage_words(warps: usize, queues: usize) -> usize {
    warps * queues * STAGE_WORDS
}

/// Where this warp's stage of queue `queue` (of `queues`) begins in the block's array.
#[inline(always)]
pub fn stage_base(queue: usize, queues: usize) -> usize {
    (warp_in_block() as usize * queues + queue) * STAGE_WORDS
}

/// A warp's staged entries of one queue; every lane holds the same copy.
#[derive(Clone, Copy, Default)]
pub struct WarpQueue {
    /// Entries staged (fewer than 32 between calls).
    pub fill: u32,
}

impl WarpQueue {
    pub const fn new() -> WarpQueue {
        WarpQueue { fill: 0 }
    }

    /// Stages `v` where `want`, in the stage at `base` of `staged`, and appends 32 staged
    /// entries to the list that `into` gives (and the global word that counts it) once 32 or
    /// more are staged. All 32 lanes call it together, with the same `base` and `into`, which
    /// runs only to append (so the list's address is worked out off the common path).
    ///
    /// # Safety
    /// `base` is this warp's stage (see [`stage_base`]), inside `staged`; the list has room
    /// for every entry appended; its length word only appends change during the step.
    #[inline(always)]
    pub unsafe fn stage<const N: usize>(
        &mut self,
        staged: &SharedArray<u32, N>,
        base: usize,
        want: bool,
        v: u32,
        into: impl FnOnce() -> (*mut u32, *mut u32),
    ) {
        let wanting = ballot_sync(FULL_MASK, want);
        if wanting == 0 {
            return;
        }
        if want {
            staged.set(base + (self.fill + popc(wanting & lanemask_lt())) as usize, v);
        }
        self.fill += popc(wanting);
        if self.fill >= WARP_SIZE {
            sync_warp(FULL_MASK);
            let (list, len) = into();
            // SAFETY: forwarded from the caller.
            unsafe { append_staged(staged, base, WARP_SIZE, list, len) };
            let lane = lane_id() as usize;
            let left = (self.fill - WARP_SIZE) as usize;
            let carried = if lane < left { staged.get(base + WARP_SIZE as usize + lane) } else { 0 };
            sync_warp(FULL_MASK);
            if lane < left {
                staged.set(base + lane, carried);
            }
            self.fill -= WARP_SIZE;
        }
    }

    /// Appends whatever the warp still stages (at the end of a step). All 32 lanes call it.
    ///
    /// # Safety
    /// As for [`WarpQueue::stage`].
    #[inline(always)]
    pub unsafe fn flush<const N: usize>(
        &mut self,
        staged: &SharedArray<u32, N>,
        base: usize,
        into: impl FnOnce() -> (*mut u32, *mut u32),
    ) {
        if self.fill > 0 {
            sync_warp(FULL_MASK);
            let (list, len) = into();
            // SAFETY: forwarded from the caller.
            unsafe { append_staged(staged, base, self.fill, list, len) };
            self.fill = 0;
        }
    }
}

/// Appends the first `count` (at most 32) entries of the stage at `base` to `list` with one
/// atomic on `len`. All 32 lanes call it together, after a `sync_warp`.
///
/// # Safety
/// As for [`WarpQueue::stage`].
#[inline(always)]
unsafe fn append_staged<const N: usize>(staged: &SharedArray<u32, N>, base: usize, count: u32, list: *mut u32, len: *mut u32) {
    let lane = lane_id();
    let mut position = 0;
    if lane == 0 {
        // SAFETY: forwarded from the caller.
        position = unsafe { atomic_add_u32(len, count) };
    }
    position = shfl_idx_sync(FULL_MASK, position, 0);
    if lane < count {
        // SAFETY: `list` has room for every entry appended (the caller's contract).
        unsafe { *list.add((position + lane) as usize) = staged.get(base + lane as usize) };
    }
}
