//! Pieces that every graph algorithm's kernels reuse, above the prelude and below the
//! algorithms, each generic over what the algorithm does per edge ([`gather::EdgeVisitor`]):
//! - [`gather`]: scan+warp+CTA gathering of a tile's adjacency lists (Merrill et al. 2012,
//!   section 4.1), and its warp step on its own;
//! - [`shared_lists`]: grid-shared long lists (ours, bench/NOTES.md entries 38-39), registered
//!   by the warps that find them and gathered by the whole grid in even ranges;
//! - [`frontier`]: the conversions between a frontier queue and a frontier bitmap.

pub mod frontier;
pub mod gather;
pub mod shared_lists;
