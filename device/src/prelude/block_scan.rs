//! Block-wide exclusive prefix sum: the primitive behind scan-based neighbor gathering
//! (Merrill, Garland and Grimshaw 2012, section 2.3 and 4.1): each thread contributes a
//! count and learns where its items start in a block-wide packed array.

use crate::prelude::{
    block_dim, lane_id, shfl_up_sync, sync_threads, warp_in_block, SharedArray, FULL_MASK, WARP_SIZE,
};

/// Scratch for [`block_exclusive_scan`]: one word per warp plus the total.
pub type ScanScratch = SharedArray<u32, 33>;

/// Inclusive prefix sum across the warp (Kogge-Stone with `shfl.up`).
#[inline(always)]
pub fn warp_inclusive_scan(value: u32) -> u32 {
    let lane = lane_id();
    let mut sum = value;
    let mut delta = 1;
    while delta < WARP_SIZE {
        let below = shfl_up_sync(FULL_MASK, sum, delta);
        if lane >= delta {
            sum = sum.wrapping_add(below);
        }
        delta *= 2;
    }
    sum
}

/// Inclusive prefix sum of a `u64` across the warp.
#[inline(always)]
pub fn warp_inclusive_scan_u64(value: u64) -> u64 {
    use crate::prelude::shfl_up_sync;
    let lane = lane_id();
    let mut sum = value;
    let mut delta = 1;
    while delta < WARP_SIZE {
        let lo = shfl_up_sync(FULL_MASK, sum as u32, delta);
        let hi = shfl_up_sync(FULL_MASK, (sum >> 32) as u32, delta);
        if lane >= delta {
            sum = sum.wrapping_add(((hi as u64) << 32) | lo as u64);
        }
        delta *= 2;
    }
    sum
}

/// Returns `(exclusive prefix of value, block total)`. Every thread of the block must call it,
/// the block size must be a multiple of 32 (at most 1024), and the sums must fit in `u32`.
/// Ends with a barrier, so `scratch` may be reused at once.
#[inline(always)]
pub fn block_exclusive_scan(value: u32, scratch: &ScanScratch) -> (u32, u32) {
    let lane = lane_id() as usize;
    let warp = warp_in_block() as usize;
    let warps = (block_dim() / WARP_SIZE) as usize;
    let inclusive = warp_inclusive_scan(value);
    if lane == WARP_SIZE as usize - 1 {
        scratch.set(warp, inclusive);
    }
    sync_threads();
    if warp == 0 {
        let warp_total = if lane < warps { scratch.get(lane) } else { 0 };
        let warp_inclusive = warp_inclusive_scan(warp_total);
        if lane < warps {
            scratch.set(lane, warp_inclusive - warp_total);
        }
        if lane == WARP_SIZE as usize - 1 {
            scratch.set(32, warp_inclusive);
        }
    }
    sync_threads();
    let exclusive = scratch.get(warp).wrapping_add(inclusive - value);
    let total = scratch.get(32);
    sync_threads();
    (exclusive, total)
}
