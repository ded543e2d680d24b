//! Warp-based neighbor gathering (Merrill, Garland and Grimshaw, "Scalable GPU Graph
//! Traversal", PPoPP 2012, section 4.1): lanes holding long adjacency lists enlist the whole
//! warp, one list at a time, so a long list costs a few coalesced steps instead of one thread
//! walking it alone.

use crate::prelude::{ballot_sync, ffs, lane_id, shfl_idx_sync, shfl_idx_sync_u64, FULL_MASK, WARP_SIZE};

/// While any lane holds a list `start..end` of at least 32 edges, the warp takes the lowest
/// such lane's list (emptying it: `start = end`) and calls `visit(valid, edge, owner)` on all
/// 32 lanes, 32 consecutive edges per step. All 32 lanes must call it; on return every lane's
/// list is shorter than 32 edges.
#[inline(always)]
pub fn warp_gather(start: &mut u64, end: u64, owner: u32, mut visit: impl FnMut(bool, u64, u32)) {
    warp_gather_batch::<1>(start, end, owner, WARP_SIZE as u64, |valid, edges, owner| visit(valid[0], edges[0], owner));
}

/// [`warp_gather`] taking `K * 32` edges a step, and only lists of at least `min_edges` edges
/// (at least 32; a caller that packs longer lists some other way raises it): lane `i` gets
/// edges `i, i + 32, ...` of the step, so each of the `K` slots is a coalesced row. An edge
/// past the list's end (`valid` false) is replaced by the list's last edge, so a caller may
/// read every slot's edge unconditionally and overlap the `K` reads. On return every lane's
/// list is shorter than `min_edges`.
#[inline(always)]
pub fn warp_gather_batch<const K: usize>(
    start: &mut u64,
    end: u64,
    owner: u32,
    min_edges: u64,
    mut visit: impl FnMut([bool; K], [u64; K], u32),
) {
    let lane = lane_id();
    loop {
        let long_lists = ballot_sync(FULL_MASK, end - *start >= min_edges);
        if long_lists == 0 {
            return;
        }
        let leader = ffs(long_lists) - 1;
        let list_start = shfl_idx_sync_u64(FULL_MASK, *start, leader);
        let list_end = shfl_idx_sync_u64(FULL_MASK, end, leader);
        let list_owner = shfl_idx_sync(FULL_MASK, owner, leader);
        if lane == leader {
            *start = end;
        }
        let mut chunk = list_start;
        while chunk < list_end {
            let edge = |k: usize| chunk + (k as u64) * WARP_SIZE as u64 + lane as u64;
            let valid = core::array::from_fn(|k| edge(k) < list_end);
            let edges = core::array::from_fn(|k| edge(k).min(list_end - 1));
            visit(valid, edges, list_owner);
            chunk += (K as u64) * WARP_SIZE as u64;
        }
    }
}
