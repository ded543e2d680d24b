//! One level of the bit-parallel many-source BFS (MS-BFS: Then, Kaufmann, Chirigati et al.,
//! "The More the Merrier: Efficient Multi-Source Graph Traversal", VLDB 2015, section 3; on the
//! GPU as iBFS's joint frontier with bitwise status, Liu, Huang et al., SIGMOD 2016, section 4):
//! up to 64 sources share every pass over the graph, each vertex holding a 64-bit word of the
//! sources that have reached it and one of those that reached it at the last level. A level is a
//! pull over the in-lists, one thread a vertex (the `bfs::multi_source` CPU code's loop): a
//! vertex ORs its in-neighbors' frontier words, stops once every source it has not seen is
//! there, and keeps the new bits. Only its own thread writes a vertex's words, so no atomics but
//! the level's flag; the frontier read and the next written are two arrays the host swaps.
//! Blocks are whole warps (`MULTI_SOURCE_BLOCK`).

use crate::prelude::*;
use warpath_interface::bfs::multi_source::BfsMultiSourceLevelParams;

/// `bfs_multi_source_level`: finds the vertices the `count` sources reach at `level`.
///
/// # Safety
/// `offsets` has `n + 1` entries and `targets` `offsets[n]`, every target `< n`; `seen`,
/// `frontier` and `next` hold `n` words and `next` is not `frontier`; `distances` holds `count *
/// n` entries, `count <= 64`; `reached` a word. Blocks of a multiple of 32 threads.
#[inline(always)]
unsafe fn level(params: BfsMultiSourceLevelParams) {
    let BfsMultiSourceLevelParams { offsets, targets, seen, frontier, next, distances, reached, n, count, level } =
        params;
    let sources = if count >= 64 { u64::MAX } else { (1u64 << count) - 1 };
    let mut found = false;
    for v in grid_stride(n as u64) {
        let v = v as usize;
        // SAFETY: `v < n`; the arrays hold what the contract says; only this thread writes
        // `seen[v]`, `next[v]` and vertex `v`'s distances.
        unsafe {
            let had = *seen.add(v);
            if level == 1 {
                // The first level labels every source's distance: 0 at itself, else unreached
                // until a later write.
                for i in 0..count as usize {
                    let own = had & (1 << i) != 0;
                    *distances.add(i * n as usize + v) = if own { 0 } else { UNREACHED };
                }
            }
            let unseen = !had & sources;
            let mut gathered = 0u64;
            if unseen != 0 {
                let (start, end) = (*offsets.add(v), *offsets.add(v + 1));
                let mut e = start;
                while e < end && gathered & unseen != unseen {
                    let u = *targets.add(e as usize);
                    gathered |= *frontier.add(u as usize);
                    e += 1;
                }
            }
            let new = gathered & unseen;
            *next.add(v) = new;
            if new != 0 {
                *seen.add(v) = had | new;
                let mut bits = new;
                while bits != 0 {
                    let i = bits.trailing_zeros() as usize;
                    *distances.add(i * n as usize + v) = level;
                    bits &= bits - 1;
                }
                found = true;
            }
        }
    }
    // One atomic a warp, not a thread: every lane has left the loop (blocks are whole warps).
    if ballot_sync(FULL_MASK, found) != 0 && lane_id() == 0 {
        // SAFETY: `reached` is a word of global memory.
        unsafe { atomic_or_u32(reached, 1) };
    }
}

warpath_interface::bfs_multi_source_level_fields!(warpath_interface::kernel_entry => level);
