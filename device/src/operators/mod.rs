//! Pieces that every graph algorithm's kernels reuse, above the prelude and below the
//! algorithms. Each is generic over what the algorithm does per edge: the algorithm implements
//! [`gather::EdgeVisitor`] (an edge index and its owner; a weighted algorithm reads
//! `weights[edge]` beside the target) or, for compressed lists, which cannot be indexed by
//! edge, [`gather_compressed::TargetVisitor`] (a decoded neighbor and its owner).
//! - [`gather`]: scan+warp+CTA gathering of a tile's adjacency lists (Merrill, Garland and
//!   Grimshaw, PPoPP 2012, section 4.1), and its warp step on its own;
//! - [`gather_compressed`]: warp and thread decoding of a warp's delta-varint lists (Moschou
//!   2026, section 2.1), and of the pieces between restart points that long lists are shared
//!   out in;
//! - [`shared_lists`]: grid-shared long lists (ours, bench/NOTES.md entries 38-39), registered
//!   by the warps that find them and gathered by the whole grid in even ranges;
//! - [`frontier`]: the conversions between a frontier queue and a frontier bitmap;
//! - [`warp_queue`]: a warp's queue appends staged in shared memory, one atomic per 32;
//! - [`warp_lists`]: a warp's long lists walked by the whole warp, for kernels of one vertex a
//!   lane (the many-source BFS);
//! - `cluster` (the sm_90 module alone): a Hopper thread-block cluster's vertices, their bits
//!   in bitmaps in the owner block's shared memory and their list bounds, which `bfs::cluster`
//!   and `sssp::cluster` share.
//!
//! Every operator is `#[inline(always)]` and monomorphised per visitor, so an algorithm's
//! kernel compiles as if its per-edge work were written inside the loops: moving BFS onto
//! them left the ptxas report of every kernel unchanged (registers, spills, stack, shared),
//! which `warpath kernels` shows. Two places keep the algorithm's hand on purpose:
//! - [`shared_lists::SharedLists::register`] takes the warp's ballot from the caller, which
//!   works out the entries only in a warp that has a long list (BFS looks up a compressed
//!   list's restart points there); taking the ballot inside, behind a closure, changed
//!   `bfs_persistent_compressed`'s spills.
//! - The edge-queue BFS (`bfs/edge_queue.rs`) keeps its own scan+warp+CTA expansion: it copies
//!   each list to a place in the next edge queue (its owner's scanned offset plus the edge's
//!   rank), reserved by one atomic a tile, rather than visiting edges; its warp and block
//!   steps copy `(from, to, length)` ranges and its packed step needs each edge's destination,
//!   which the visitor's (edge, owner) does not carry. Handing every visit a destination would
//!   put per-edge state into the persistent BFS's loops, which sit at their 64-register cap
//!   with spills; an "expand into a queue" operator is the way to share it.

#[cfg(feature = "hopper")]
pub mod cluster;
#[cfg(not(feature = "hopper"))]
pub mod frontier;
#[cfg(not(feature = "hopper"))]
pub mod gather;
#[cfg(not(feature = "hopper"))]
pub mod gather_compressed;
#[cfg(not(feature = "hopper"))]
pub mod shared_lists;
#[cfg(not(feature = "hopper"))]
pub mod warp_lists;
#[cfg(not(feature = "hopper"))]
pub mod warp_queue;
