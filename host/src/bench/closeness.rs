//! Closeness centrality as the harness runs it ([`ClosenessKernel`]): trials without an input,
//! each every vertex's exact closeness and harmonic centrality (one bit-parallel search a vertex,
//! 64 a pass: `bfs::Traverser::centrality`, on the GPU where there is one), every one checked at seeded vertices against one
//! sequential search each, a rate over the edges all those searches would walk one by one.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::bench::harness::{
    run_kernel, BenchKernel, BenchOptions, BenchRun, Environment, Summarize, Timed, TrialRecord,
};
use crate::bench::json::Report;
use crate::bench::report::{header, once_lines, timing_lines, HeaderLines};
use crate::bfs::multi_source::{check_centrality, Centrality, BATCH, CHECKED, CHECK_SEED};
use crate::bfs::{random_sources_in, Traverser};
use crate::engine::{Backend, BackendUsed};
use crate::error::{Error, Result};
use crate::graph::Graph;

/// Closeness's columns of a trial record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClosenessTrial {
    pub mean_closeness: f64,
    pub mean_harmonic: f64,
}

/// Closeness's summary lines (every trial finds the same values: the searches are exact).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClosenessSummary {
    pub mean_closeness: f64,
    pub mean_harmonic: f64,
}

impl Summarize<ClosenessTrial> for ClosenessSummary {
    fn of(trials: &[TrialRecord<ClosenessTrial>]) -> Option<ClosenessSummary> {
        let first = &trials.first()?.details;
        Some(ClosenessSummary { mean_closeness: first.mean_closeness, mean_harmonic: first.mean_harmonic })
    }
}

/// What a closeness benchmark reports once per run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClosenessPayload {
    /// Wasserman and Faust's factor (NetworkX's `wf_improved`).
    pub wf_improved: bool,
    /// Passes of [`BATCH`] searches a trial.
    pub passes: u64,
    /// Vertices every trial was checked at.
    pub checked: u64,
}

/// An exact closeness report, as `warpath bench --algorithm closeness` writes it.
pub type ClosenessReport = Report<ClosenessTrial, ClosenessSummary, ClosenessPayload>;

/// A finished closeness benchmark.
pub type ClosenessBenchRun = BenchRun<ClosenessTrial, ClosenessSummary, ClosenessPayload>;

/// Exact closeness of every vertex of one graph, on the GPU (placed once, before the warm-up)
/// or every CPU core.
pub struct ClosenessKernel<'g> {
    graph: &'g Graph,
    wf_improved: bool,
    /// The vertices each trial is checked at.
    checked: Vec<u32>,
    traverser: Traverser<'g>,
    /// Where the last run ran, and what it warned of.
    ran_on: BackendUsed,
    warnings: Vec<String>,
}

impl<'g> ClosenessKernel<'g> {
    /// Exact closeness, the checked vertices drawn from `seed` as `closeness --verify` draws them;
    /// refused for graphs of fewer than two vertices or more than `exact_up_to`.
    pub fn new(graph: &'g Graph, backend: Backend, wf_improved: bool, seed: u64, exact_up_to: u64) -> Result<Self> {
        let n = graph.num_vertices() as u64;
        if !(2..=exact_up_to).contains(&n) {
            return Err(Error::InvalidArgument(format!(
                "exact closeness takes graphs of 2 to {exact_up_to} vertices (one search a vertex); this one has {n}"
            )));
        }
        let mut checked = random_sources_in(graph.degrees(), seed ^ CHECK_SEED, CHECKED);
        if checked.is_empty() {
            checked.push(0);
        }
        let traverser = Traverser::new(graph, backend)?;
        let (ran_on, warnings) = (traverser.backend(), traverser.warnings().to_vec());
        Ok(ClosenessKernel { graph, wf_improved, checked, traverser, ran_on, warnings })
    }
}

impl BenchKernel for ClosenessKernel<'_> {
    const ALGORITHM: &'static str = "closeness";
    type Input = ();
    type Output = Centrality;
    type Details = ClosenessTrial;
    type SummaryDetails = ClosenessSummary;
    type Payload = ClosenessPayload;

    fn inputs(&self, trials: usize, _seed: u64) -> Result<Vec<()>> {
        Ok(vec![(); trials])
    }

    fn source(&self, _: ()) -> Option<u64> {
        None
    }

    fn run(&mut self, _: ()) -> Result<Timed<Centrality>> {
        let found = self.traverser.centrality(self.wf_improved)?;
        self.ran_on = found.backend;
        self.warnings = found.warnings;
        Ok(Timed { output: found.result, time: found.time, end_to_end: found.end_to_end_time })
    }

    fn validate(&self, _: (), found: &Centrality) -> Result<()> {
        check_centrality(self.graph, self.wf_improved, found, &self.checked, None)
    }

    /// The edges of one search from every vertex: what the searches one by one would walk.
    fn counted_edges(&self, _: (), _: &Centrality) -> u64 {
        self.graph.num_edges().saturating_mul(self.graph.num_vertices() as u64)
    }

    fn details(&self, _: (), found: &Centrality, _seconds: f64) -> ClosenessTrial {
        let n = found.closeness.len().max(1) as f64;
        ClosenessTrial {
            mean_closeness: found.closeness.iter().sum::<f64>() / n,
            mean_harmonic: found.harmonic.iter().sum::<f64>() / n,
        }
    }

    fn payload(&mut self, _: (), _options: &BenchOptions) -> Result<ClosenessPayload> {
        Ok(ClosenessPayload {
            wf_improved: self.wf_improved,
            passes: self.graph.num_vertices().div_ceil(BATCH) as u64,
            checked: self.checked.len() as u64,
        })
    }

    fn environment(&self) -> Environment {
        let placed = self.traverser.placed().filter(|_| matches!(self.ran_on, BackendUsed::Gpu { .. }));
        let workspace =
            crate::bfs::gpu::GpuMultiSource::bytes_needed(self.graph.num_vertices() as u32, self.graph.num_edges());
        Environment::of_placement(
            self.graph,
            self.ran_on.clone(),
            self.warnings.clone(),
            placed,
            workspace,
            "bit-parallel",
        )
    }
}

/// Runs the closeness benchmark through [`run_kernel`]: `options.trials` exact runs, each checked.
pub fn run_closeness_bench(
    kernel: &mut ClosenessKernel<'_>,
    options: &BenchOptions,
    progress: &mut dyn FnMut(usize),
) -> Result<ClosenessBenchRun> {
    run_kernel(kernel, options, progress)
}

/// A closeness report as text: the shared [`header`], one row per trial and the summary lines.
pub fn render(report: &ClosenessReport) -> String {
    let p = &report.payload;
    let s = &report.summary;
    let how_it_ran = format!(
        "closeness: exact, {} passes of {BATCH} bit-parallel searches{}\n",
        p.passes,
        if p.wf_improved { "" } else { " (no wf_improved)" }
    );
    let lines = HeaderLines {
        how_it_ran: &how_it_ran,
        directed_edges: "directed; distances to each vertex, over its in-edges",
        workspace: "search words",
    };
    let mut out = header(report, &lines);
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:>5} {:>10} {:>14} {:>14} {:>8}",
        "run", "time (ms)", "mean closeness", "mean harmonic", "GTEPS"
    );
    for (i, t) in report.trials.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>5} {:>10.3} {:>14.6} {:>14.3} {:>8.3}",
            i + 1,
            t.time_ms,
            t.details.mean_closeness,
            t.details.mean_harmonic,
            t.gteps
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "trials: {} (one untimed warm-up)", s.trials);
    out.push_str(&timing_lines(s, "GTEPS", "a search from every vertex's edges / time"));
    let _ = writeln!(out, "mean closeness: {:.6}", s.details.mean_closeness);
    let _ = writeln!(out, "mean harmonic: {:.3}", s.details.mean_harmonic);
    let _ = writeln!(
        out,
        "verified: ok ({}/{} runs equal to one BFS each at {} vertices)",
        s.validated, s.trials, p.checked
    );
    out.push_str(&once_lines(report));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{EdgeList, GraphBuilder};

    #[test]
    fn trials_are_exact_and_checked_and_big_graphs_are_refused() {
        // A path 0 - 1 - 2 - 3: closeness (n - 1) / sum of distances, 3/6, 3/4, 3/4, 3/6.
        let graph = GraphBuilder::new().build(EdgeList::new(4, vec![(0, 1), (1, 2), (2, 3)], true)).unwrap();
        let mut kernel = ClosenessKernel::new(&graph, Backend::Auto, true, 1, 10).unwrap();
        let options = BenchOptions { trials: 2, seed: 1, trace: false, traced: 0 };
        let run = run_closeness_bench(&mut kernel, &options, &mut |_| {}).unwrap();
        assert_eq!(run.algorithm, "closeness");
        assert_eq!(run.summary.validated, 2);
        assert_eq!(run.summary.details.mean_closeness, (0.5 + 0.75 + 0.75 + 0.5) / 4.0);
        assert_eq!(run.trials[0].edges, 6 * 4, "a search from every vertex walks every edge");
        assert_eq!((run.payload.passes, run.payload.wf_improved), (1, true));
        let fell_back = |w: &String| w.contains("running on the CPU");
        assert!(run.environment.warnings.iter().all(fell_back), "auto: the GPU, or the CPU saying why");
        let refused = ClosenessKernel::new(&graph, Backend::Cpu, true, 1, 3).err().unwrap();
        assert!(refused.to_string().contains("2 to 3 vertices"), "{refused}");
    }
}
