//! The in-memory graph: compressed sparse row (CSR) adjacency with `u64` row offsets and
//! `u32` vertex ids, the builder that makes one from an edge list, and its delta-varint
//! compressed form ([`CompressedGraph`]).

mod builder;
pub mod compressed;
mod csr;
pub mod heads;

pub use builder::{EdgeList, GraphBuilder};
pub use compressed::CompressedGraph;
pub use csr::Graph;
pub use heads::ListHeads;

/// The largest vertex count warpath accepts. `u32::MAX` itself is reserved as the
/// "unreached" / "no parent" marker in BFS results, so ids run `0..MAX_VERTICES`.
pub const MAX_VERTICES: u64 = u32::MAX as u64;

/// Marks an unreached vertex in distance and parent arrays.
pub const UNREACHED: u32 = u32::MAX;
