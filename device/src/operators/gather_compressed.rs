//! Gathering of delta-varint compressed adjacency lists (Moschou 2026, section 2.1: lists
//! stored as gaps and decoded where they are read). A compressed list cannot be indexed by
//! edge, so the scan-based packing of [`super::gather`] does not apply; instead, by length,
//! medium lists are decoded by the whole warp, 32 bytes a round (`prelude::warp_decode`: the
//! warp-cooperative decoding of Moschou's section 2.1), and short ones by their own thread
//! with the warp stepping together. What happens to each neighbor is the algorithm's: it
//! implements [`TargetVisitor`]. Long lists are cut into pieces at restart points
//! ([`Restarts`], stored by the host), registered piece by piece with
//! [`super::shared_lists`], and decoded by whichever warps take them
//! ([`gather_compressed_pieces`]): without restart points a list of a million edges would be
//! one warp's serial job.

use super::shared_lists::{SharedLists, Tally};
use crate::prelude::{
    any_sync, ballot_sync, ffs, lane_id, shfl_idx_sync, shfl_idx_sync_u64, warp_decode, ListStart, ThreadDecoder,
    FULL_MASK, WARP_SIZE,
};

/// Restart points of the long compressed lists (the host stores them beside the lists).
///
/// The list of `vertices[i]` (ascending) with `d` edges is cut into `ceil(d / RESTART_EDGES)`
/// pieces; piece `j >= 1` starts at edge `j * RESTART_EDGES` (the interface's constants), and its restart point
/// `first[i] + j - 1` is two words in `points`: the byte offset of the piece's first varint,
/// and the neighbor just before it. Piece 0 starts at the list's start.
#[derive(Clone, Copy)]
pub struct Restarts {
    pub points: *const u64,
    pub vertices: *const u32,
    /// `count + 1` entries.
    pub first: *const u32,
    pub count: u32,
}

impl Restarts {
    /// For plain lists, which have no restart points.
    pub const NONE: Restarts =
        Restarts { points: core::ptr::null(), vertices: core::ptr::null(), first: core::ptr::null(), count: 0 };

    /// The index of the first restart point of `v`'s list, by binary search of the long
    /// lists' vertices.
    ///
    /// # Safety
    /// `v` has restart points (a list of the host's `RESTART_MIN_EDGES` edges or more).
    #[inline(always)]
    pub unsafe fn first_point(&self, v: u32) -> u32 {
        let (mut low, mut high) = (0u32, self.count);
        while high - low > 1 {
            let middle = (low + high) / 2;
            // SAFETY: `middle < count`.
            if unsafe { *self.vertices.add(middle as usize) } <= v {
                low = middle;
            } else {
                high = middle;
            }
        }
        // SAFETY: `low < count`; `first` holds `count + 1` entries.
        unsafe { *self.first.add(low as usize) }
    }

    /// Restart point `index`: (byte offset, neighbor before it).
    ///
    /// # Safety
    /// `index` is below the table's length.
    #[inline(always)]
    pub unsafe fn point(&self, index: u64) -> (u64, u32) {
        // SAFETY: forwarded from the caller; each point is two words.
        unsafe { (*self.points.add(2 * index as usize), *self.points.add(2 * index as usize + 1) as u32) }
    }
}

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

/// Decodes the pieces of the long lists registered in `lists` (each entry's second word the
/// index of its list's first restart point, its length the list's pieces): warp `w` takes
/// pieces `first_warp, first_warp + warp_stride, ...` of the level's packed piece space, finds
/// each one's list with [`SharedLists::find`], and decodes it with `warp_decode` from its
/// restart point (piece 0 from the list's start, `list_range(owner)` in `bytes`). All 32 lanes
/// of every warp call it together.
///
/// # Safety
/// `tally` was read after the registrations' grid barrier; each registered list's restart
/// points are in `restarts`; as for [`gather_compressed_lists`] otherwise.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub unsafe fn gather_compressed_pieces<V: TargetVisitor>(
    lists: SharedLists,
    tally: Tally,
    restarts: &Restarts,
    bytes: *const u8,
    list_range: impl Fn(u32) -> (u64, u64),
    first_warp: u32,
    warp_stride: u32,
    visitor: &mut V,
) {
    let mut piece = first_warp as u64;
    while piece < tally.total {
        // SAFETY: forwarded from the caller; `piece < total`.
        let entry = unsafe { lists.find(tally, piece) };
        let (first_point, owner) = (entry.start, entry.owner);
        let pieces = entry.next_base - entry.base;
        let j = piece - entry.base;
        let (list_start, list_end) = list_range(owner);
        // SAFETY: a list of `pieces` pieces has `pieces - 1` restart points from
        // `first_point` on.
        let (start, list_start_state) = if j == 0 {
            (list_start, ListStart::list(owner))
        } else {
            let (byte, previous) = unsafe { restarts.point(first_point + j - 1) };
            (byte, ListStart { vertex: owner, previous, at_list_start: false })
        };
        // SAFETY: as above.
        let end = if j + 1 == pieces { list_end } else { unsafe { restarts.point(first_point + j).0 } };
        // SAFETY: the piece lies inside the owner's list; visits are forwarded from the caller.
        unsafe { warp_decode(bytes, start, end, list_start_state, |valid, v| visitor.visit_target(valid, v, owner)) };
        piece += warp_stride as u64;
    }
}
