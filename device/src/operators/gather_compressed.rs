//! Gathering of delta-varint compressed adjacency lists (Moschou 2026, section 2.1: lists
//! stored as gaps and decoded where they are read). A compressed list cannot be indexed by
//! edge, so the scan-based packing of [`super::gather`] does not apply; instead, by length,
//! medium lists are decoded by the whole warp, 32 bytes a round (`prelude::warp_decode`: the
//! warp-cooperative decoding of Moschou's section 2.1), and short ones by their own thread
//! with the warp stepping together. What happens to each neighbor is the algorithm's: it
//! implements [`TargetVisitor`]. (Long lists are cut at restart points and shared with the
//! grid by [`super::shared_lists`]; the restart points are the algorithm's.)

use crate::prelude::{
    any_sync, ballot_sync, ffs, lane_id, shfl_idx_sync, shfl_idx_sync_u64, warp_decode, ListStart, ThreadDecoder,
    FULL_MASK, WARP_SIZE,
};

/// Lists shorter than this many bytes are decoded by one thread, longer ones by the warp.
pub const WARP_DECODE_BYTES: u64 = WARP_SIZE as u64;

/// What an algorithm does with each decoded neighbor of a compressed list. Called on all 32
/// lanes of a warp together; a neighbor is only to be acted on where `valid` is true.
pub trait TargetVisitor {
    /// Visits neighbor `target` of `owner` when `valid`.
    ///
    /// # Safety
    /// The algorithm's kernel contract.
    unsafe fn visit_target(&mut self, valid: bool, target: u32, owner: u32);
}

/// Gathers the compressed lists of a warp's lanes, lane `i` holding bytes `start..end` of
/// `owner`'s list in `bytes` (empty for a lane without one): while any lane's list has
/// [`WARP_DECODE_BYTES`] or more, the warp decodes the lowest such lane's list together; then
/// every lane decodes what it still holds, one neighbor a step. All 32 lanes call it together.
///
/// # Safety
/// Every list lies inside `bytes`, under `prelude::varint`'s alignment and padding rules; the
/// visitor's own contract holds.
#[inline(always)]
pub unsafe fn gather_compressed_lists<V: TargetVisitor>(
    bytes: *const u8,
    owner: u32,
    mut start: u64,
    end: u64,
    visitor: &mut V,
) {
    let lane = lane_id();
    // Medium lists: the whole warp decodes one at a time.
    loop {
        let medium = ballot_sync(FULL_MASK, end - start >= WARP_DECODE_BYTES);
        if medium == 0 {
            break;
        }
        let leader = ffs(medium) - 1;
        let list_start = shfl_idx_sync_u64(FULL_MASK, start, leader);
        let list_end = shfl_idx_sync_u64(FULL_MASK, end, leader);
        let list_owner = shfl_idx_sync(FULL_MASK, owner, leader);
        if lane == leader {
            start = end;
        }
        // SAFETY: the leader's list lies inside the byte array; visits are forwarded from the
        // caller.
        unsafe {
            warp_decode(bytes, list_start, list_end, ListStart::list(list_owner), |valid, v| {
                visitor.visit_target(valid, v, list_owner)
            })
        };
    }
    // Short lists: each thread its own, the warp stepping together.
    // SAFETY: `start..end` is this thread's list (or empty).
    let mut decoder = unsafe { ThreadDecoder::new(bytes, start, end, ListStart::list(owner)) };
    while any_sync(FULL_MASK, decoder.has_next()) {
        let valid = decoder.has_next();
        let v = if valid { decoder.next() } else { 0 };
        // SAFETY: forwarded from the caller.
        unsafe { visitor.visit_target(valid, v, owner) };
    }
}
