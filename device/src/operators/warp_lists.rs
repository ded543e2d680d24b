//! A warp's long adjacency lists walked by the whole warp, one list after another (Merrill,
//! Garland and Grimshaw, PPoPP 2012, section 4.1, warp gathering, for kernels that take one
//! vertex a lane): a hub's list walked by its own lane alone would hold the launch up (a
//! Kronecker graph's largest lists are 10^5 entries), while short lists stay with their lanes.
//! The many-source BFS (`bfs::multi_source`) uses it.

use crate::prelude::*;

/// Hands the warp's lists that are `long` (on their lanes) to the whole warp, one after
/// another: `walk(from, to, tag, leader)` runs on every lane with the bounds and the `tag` (what
/// the lane pushes, or wants) of lane `leader`'s list. Every lane of the warp calls it.
#[inline(always)]
pub fn warp_walk_long_lists(long: bool, start: u64, end: u64, tag: u64, mut walk: impl FnMut(u64, u64, u64, u32)) {
    let mut longs = ballot_sync(FULL_MASK, long);
    while longs != 0 {
        let leader = longs.trailing_zeros();
        let from = shfl_idx_sync_u64(FULL_MASK, start, leader);
        let to = shfl_idx_sync_u64(FULL_MASK, end, leader);
        walk(from, to, shfl_idx_sync_u64(FULL_MASK, tag, leader), leader);
        longs &= longs - 1;
    }
}
