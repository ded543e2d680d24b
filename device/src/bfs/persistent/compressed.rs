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
//!   (`operators::shared_lists`), and decoded piece by piece by whichever warps take them
//!   (`operators::gather_compressed`). Without restart points a list of a million edges
//!   would be one warp's serial job.

use super::top_down::{Expansion, TopDown};
use super::*;
use crate::operators::gather_compressed::{gather_compressed_lists, gather_compressed_pieces};
use crate::operators::shared_lists::Tally;

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

    /// Decodes the pieces of the registered long lists (`operators::gather_compressed`), warp
    /// `w` taking pieces `w, w + stride, ...`.
    #[inline(always)]
    unsafe fn gather_long_pieces(&self, level: u32, exp: &mut Expansion, first_warp: u32, warp_stride: u32) {
        // SAFETY: the registrations happened before the last grid barrier; each registered
        // list's restart points are in the table; visits are forwarded from the kernel contract.
        unsafe {
            let tally = Tally::read(self.shared_tally(level));
            gather_compressed_pieces(
                self.shared_lists(),
                tally,
                &self.edges.restarts,
                self.edges.out_edges,
                |v| self.out_range(v),
                first_warp,
                warp_stride,
                &mut TopDown { bfs: self, level, exp },
            )
        };
    }
}
