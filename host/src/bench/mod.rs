//! The benchmark harness, apart from the kernels and the verifier (as in the GAP Benchmark
//! Suite): it runs many roots on a [`Traverser`](crate::bfs::Traverser), validates each
//! traversal, and reports times, rates and per-level traces as text, JSON, SVG plots and the
//! markdown table of the standard suite.
//!
//! - [`stats`]: minimum, median, maximum, harmonic mean;
//! - [`harness`]: roots, warm-up, validation, per-root records and the summary;
//! - [`report`]: text tables;
//! - [`json`]: the JSON report (schema in `bench/SCHEMA.md`);
//! - [`kernel`]: the names of the GPU traversals a benchmark compares;
//! - [`plot`]: the per-level frontier plot (SVG);
//! - [`suite`]: the standard suite of graphs and its markdown table;
//! - [`meta`]: commit, date and driver of a result.

pub mod harness;
pub mod json;
pub mod kernel;
pub mod meta;
pub mod plot;
pub mod report;
pub mod stats;
pub mod suite;

pub use harness::{run_bench, BenchOptions, BenchRun, LevelRecord, RootRecord, Summary, TraceRecord};
pub use json::{read_report, write_report, BenchReport, SCHEMA_VERSION};
