//! Pieces that every graph algorithm's kernels reuse, above the prelude and below the
//! algorithms: today the conversions between a frontier queue and a frontier bitmap
//! ([`frontier`]).
//!
//! Scan+warp+CTA gathering and the grid-shared long lists stay in `bfs/persistent/` (and
//! `bfs/edge_queue.rs`) for now: there they are fused with the BFS's per-edge status lookup,
//! its claim and its trace counters, and with the compressed lists' decoding, and the
//! persistent kernels sit at their register cap of 64 with spills (see `tests/ptx.rs`), so
//! lifting them out behind a per-edge trait is a change to measure on its own.

pub mod frontier;
