//! The benchmark harness, apart from the kernels and the verifiers (as in the GAP Benchmark
//! Suite): one harness runs any algorithm that implements [`BenchKernel`] (trials, warm-up,
//! validation of every trial, statistics, a JSON report with the algorithm's payload), and
//! reports times, rates and BFS's per-level traces as text, JSON, SVG plots and the markdown
//! table of the standard suite.
//!
//! - [`partitioned`]: the partitioned BFS as a [`BenchKernel`], and the scaling of several rank
//!   counts on the same roots against one partition;
//! - [`stats`]: minimum, median, maximum, harmonic mean;
//! - [`harness`]: the [`BenchKernel`] trait and [`run_kernel`]: warm-up, trials, validation,
//!   records and the summary, for every algorithm;
//! - [`bfs`]: BFS as a [`BenchKernel`] (roots, Graph500 counts, trace, bus);
//! - [`cc`](mod@cc): connected components as a [`BenchKernel`] (trials, per-phase times);
//! - [`sssp`](mod@sssp): shortest paths as a [`BenchKernel`] (Graph500's roots, kernel-3 checks,
//!   relaxations per edge);
//! - [`closeness`](mod@closeness): exact closeness centrality as a [`BenchKernel`] (every
//!   vertex's, checked at seeded vertices against one search each);
//! - [`scc`](mod@scc): strongly connected components as a [`BenchKernel`] (trials checked against
//!   Tarjan's algorithm, which is timed once beside them, per-phase times);
//! - [`report`]: text tables;
//! - [`stages`]: read, build and placement once per run, traversal and download per trial, against
//!   the pinned bus bandwidths measured in the same run;
//! - [`json`]: the JSON report (schema in `bench/SCHEMA.md`);
//! - `plot` (the `plot` feature, which `cli` turns on): the per-level frontier plot (SVG);
//! - [`suite`]: the standard suite of graphs and its markdown table;
//! - [`meta`]: commit, date and driver of a result.

pub mod bfs;
pub mod cc;
pub mod closeness;
pub mod harness;
pub mod json;
pub mod meta;
pub mod partitioned;
#[cfg(feature = "plot")]
pub mod plot;
pub mod report;
pub mod scc;
pub mod sssp;
pub mod stages;
pub mod stats;
pub mod suite;

pub use bfs::{run_bench, BfsKernel, BfsPayload, BfsRun, BfsSummary, BfsTrial, LevelRecord, RootRecord, TraceRecord};
pub use cc::{run_cc_bench, CcKernel, CcPayload, CcReport, CcSummary, CcTrial};
pub use harness::{run_kernel, BenchKernel, BenchOptions, BenchRun, Environment, Summary, Timed, TrialRecord};
pub use json::{read_report, write_report, AnyReport, BenchReport, Report, SCHEMA_VERSION};
pub use partitioned::{run_scaling, PartitionedBenchReport, RankSet, ScalingOptions, ScalingStage};
pub use closeness::{ClosenessKernel, ClosenessPayload, ClosenessReport, ClosenessSummary, ClosenessTrial};
pub use scc::{run_scc_bench, SccKernel, SccPayload, SccReport, SccSummary, SccTrial};
pub use stages::{LoadStage, PlacementStage};
