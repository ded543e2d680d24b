//! Pieces that every graph algorithm's kernels reuse, above the prelude and below the
//! algorithms, each generic over what the algorithm does per edge ([`gather::EdgeVisitor`]):
//! - [`gather`]: scan+warp+CTA gathering of a tile's adjacency lists (Merrill et al. 2012,
//!   section 4.1), and its warp step on its own;
//! - [`frontier`]: the conversions between a frontier queue and a frontier bitmap.

pub mod frontier;
pub mod gather;
