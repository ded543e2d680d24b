//! warpath: breadth-first search on big sparse graphs, on the GPU when there is one and on
//! all CPU cores when there is not.
//!
//! The rooms of the library, each one folder:
//! - [`graph`]: the CSR graph and its builder;
//! - [`formats`]: readers and writers of graph files;
//! - [`generate`]: seeded synthetic graphs (Graph500 Kronecker, RMAT, uniform, grids);
//! - [`input`]: loading what the user named, a file or a generator spec;
//! - [`memory`]: the guard that refuses a graph too big for the memory available, before allocating;
//! - [`output`]: files written whole or not at all, never over the input graph;
//! - [`gpu`]: the CUDA runtime over cudarc and the PTX built from `device/`;
//! - [`engine`]: backend choice and CPU fallback, placement under the VRAM budget, the graph
//!   prepared for the GPU; shared by every algorithm;
//! - [`bfs`]: breadth-first search: the traversals, CPU and GPU, their traces, and the
//!   Graph500-style verifier beside them;
//! - [`cc`]: connected components (Afforest on the GPU, CPU code, verifier);
//! - [`sssp`]: single-source shortest paths (delta-stepping and seed 002's strategies);
//! - [`PlacedGraph`] (`placed`): one graph placed once, on which every algorithm runs;
//! - [`multi`]: graphs partitioned over several GPUs or threads: the communicator, 1D
//!   partitions, the partitioned BFS;
//! - [`bench`](mod@bench): the benchmark harness (many roots, statistics, JSON, plots, the suite).
//!
//! Features: `cli` (default) is the `warpath` command's (clap, indicatif) and turns on `plot`
//! (plotters, for `bench::plot`). A library user sets `default-features = false`, and the library
//! then builds on stable Rust too (the kernels come from `ptx/` where the pinned nightly is absent).

pub mod bench;
pub mod bfs;
pub mod cc;
pub mod engine;
pub mod error;
pub mod formats;
pub mod generate;
pub mod gpu;
pub mod graph;
pub mod input;
pub mod memory;
pub mod multi;
pub mod output;
pub mod placed;
pub mod scc;
pub mod sssp;

pub use error::{Error, Result};
pub use graph::Graph;
pub use placed::PlacedGraph;

/// The README's Rust examples, compiled and run as doctests so they cannot rot.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
