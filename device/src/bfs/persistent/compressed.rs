//! Top-down levels over a delta-varint compressed CSR (Moschou 2026, section 2.1: lists stored
//! as gaps, decoded on the fly, so that a graph streamed from host memory moves fewer bytes
//! over the bus).
//!
//! A compressed list cannot be indexed by edge, so the scan-based gathering of the plain
//! kernel does not apply. Instead, by list length:
//! - short lists (under 32 bytes): each thread decodes its own, one neighbor a step, with the
//!   warp stepping together so that discoveries are staged with ballots;
//! - medium lists: the warp decodes one list at a time, 32 bytes a round ([`warp_decode`]:
//!   the warp-cooperative decoding of Moschou's section 2.1);
//!   (both in `operators::gather_compressed`, calling the BFS's visitor)
//! - lists of `SHARED_LIST_EDGES` edges or more: cut at restart points every `RESTART_EDGES`
//!   edges (stored by the host beside the lists: the byte where a piece starts and the
//!   neighbor before it), registered for the grid like the plain kernel's long lists
//!   (`operators::shared_lists`), and decoded piece by piece by whichever warps take them. Without restart points a list of a
//!   million edges would be one warp's serial job.

use super::top_down::{Expansion, TopDown};
use super::*;
use crate::operators::gather_compressed::gather_compressed_lists;
use crate::operators::shared_lists::Tally;

/// Restart points of the compressed lists of `SHARED_LIST_EDGES` edges or more.
///
/// The list of `vertices[i]` (ascending) with `d` edges is cut into `ceil(d / RESTART_EDGES)`
/// pieces; piece `j >= 1` starts at edge `j * RESTART_EDGES`, and its restart point
/// `first[i] + j - 1` is two words in `points`: the byte offset of the piece's first varint,
/// and the neighbor just before it. Piece 0 starts at the list's start.
#[derive(Clone, Copy)]
pub(super) struct Restarts {
    pub(super) points: *const u64,
    pub(super) vertices: *const u32,
    /// `count + 1` entries.
    pub(super) first: *const u32,
    pub(super) count: u32,
}

impl Restarts {
    /// For the plain kernel, which has no restart points.
    pub(super) const NONE: Restarts =
        Restarts { points: core::ptr::null(), vertices: core::ptr::null(), first: core::ptr::null(), count: 0 };

    /// The index of the first restart point of `v`'s list, by binary search of the long
    /// lists' vertices.
    ///
    /// # Safety
    /// `v` has a list of `SHARED_LIST_EDGES` edges or more.
    #[inline(always)]
    pub(super) unsafe fn first_point(&self, v: u32) -> u32 {
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
    unsafe fn point(&self, index: u64) -> (u64, u32) {
        // SAFETY: forwarded from the caller; each point is two words.
        unsafe { (*self.points.add(2 * index as usize), *self.points.add(2 * index as usize + 1) as u32) }
    }
}

impl<const COMPRESSED: bool> Bfs<COMPRESSED> {
    /// One top-down level over compressed lists: warps `first_warp, first_warp + warp_stride,
    /// ...` take 32 frontier vertices at a time (see the module documentation for how each
    /// list length is decoded). With `share_long_lists`, the lists of `SHARED_LIST_EDGES` edges
    /// or more were registered and are decoded piece by piece first.
    #[inline(always)]
    pub(super) unsafe fn top_down_level_compressed(
        &self,
        mut exp: Expansion,
        level: u32,
        frontier: u32,
        first_warp: u32,
        warp_stride: u32,
        share_long_lists: bool,
    ) {
        let lane = lane_id();
        let queue = self.queue(level);
        let bytes = self.edges.out_edges;
        let mut reads = self.reads();
        if share_long_lists {
            // SAFETY: forwarded from the kernel contract.
            unsafe { self.gather_long_pieces(level, &mut exp, first_warp, warp_stride) };
        }
        let mut warp_base = first_warp * WARP_SIZE;
        while warp_base < frontier {
            let i = warp_base + lane;
            let (mut vertex, mut start, mut end) = (0, 0, 0);
            if i < frontier {
                // SAFETY: `i < frontier`, the queue's length; its entries are vertices.
                vertex = unsafe { *queue.add(i as usize) };
                (start, end) = self.out_range(vertex);
                let degree = self.out_degree(vertex);
                reads.list(vertex, start, end, degree);
                if share_long_lists && degree >= SHARED_LIST_EDGES {
                    start = end; // registered: the grid decodes it in pieces
                }
            }
            // SAFETY: each lane's list lies inside the byte array; visits are forwarded from
            // the kernel contract.
            unsafe {
                gather_compressed_lists(bytes, vertex, start, end, &mut TopDown { bfs: self, level, exp: &mut exp })
            };
            warp_base += warp_stride * WARP_SIZE;
        }
        // SAFETY: forwarded from the kernel contract.
        unsafe { self.finish_expansion(&mut exp, level, reads) };
    }

    /// Decodes the pieces of the registered long lists: warp `w` takes pieces `w, w + stride,
    /// ...` of the level's packed piece space, finds each one's list in the shared-list table
    /// (`operators::shared_lists`), and decodes it with [`warp_decode`] from its restart point.
    #[inline(always)]
    unsafe fn gather_long_pieces(&self, level: u32, exp: &mut Expansion, first_warp: u32, warp_stride: u32) {
        let lists = self.shared_lists();
        // SAFETY: the registrations happened before the last grid barrier.
        let tally = unsafe { Tally::read(self.shared_tally(level)) };
        let mut piece = first_warp as u64;
        while piece < tally.total {
            // SAFETY: as above; `piece < total`.
            let entry = unsafe { lists.find(tally, piece) };
            let (first_point, owner) = (entry.start, entry.owner);
            let pieces = entry.next_base - entry.base;
            let j = piece - entry.base;
            let (list_start, list_end) = self.out_range(owner);
            let restarts = &self.edges.restarts;
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
            // SAFETY: the piece lies inside the owner's list; visits are forwarded from the
            // kernel contract.
            unsafe {
                warp_decode(self.edges.out_edges, start, end, list_start_state, |valid, v| {
                    self.visit_vertex(valid, v, owner, level, exp)
                })
            };
            piece += warp_stride as u64;
        }
    }
}
