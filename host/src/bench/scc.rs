//! Strongly connected components as the harness runs them ([`SccKernel`]): trials without an
//! input (each labels the whole graph, placed once before the first), every one compared with Tarjan's algorithm (run once,
//! sequentially, before the trials and timed: the report's reference line, issue 55's comparison
//! where no other GPU code runs), a rate over the graph's edges as stored, and the first timed
//! trial's phases.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::bench::harness::{
    run_kernel, BenchKernel, BenchOptions, BenchRun, Environment, Summarize, Timed, TrialRecord,
};
use crate::bench::json::Report;
use crate::bench::report::{header, once_lines, timing_lines, HeaderLines};
use crate::cc::Components;
use crate::engine::{Backend, BackendUsed};
use crate::error::Result;
use crate::graph::Graph;
use crate::scc::cpu_reference::tarjan;
use crate::scc::verify::compare_with_reference;
use crate::scc::{SccFinder, SccPhase, SccRun};

/// SCC's columns of a trial record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SccTrial {
    pub components: u64,
    /// Vertices in the largest component.
    pub largest_component: u64,
}

/// SCC's summary lines (every trial finds the same components: validation saw to it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SccSummary {
    pub components: u64,
    pub largest_component: u64,
}

impl Summarize<SccTrial> for SccSummary {
    fn of(trials: &[TrialRecord<SccTrial>]) -> Option<SccSummary> {
        let first = &trials.first()?.details;
        Some(SccSummary { components: first.components, largest_component: first.largest_component })
    }
}

/// One phase of the first timed trial.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SccPhaseRecord {
    /// `trimming`, `forward-backward`, `coloring` or `tarjan`.
    pub phase: String,
    pub time_ms: f64,
    /// Vertices whose component the phase decided.
    pub decided: u64,
    /// The GPU's propagation rounds in the phase (0 on the CPU; absent in reports before them).
    #[serde(default)]
    pub rounds: u32,
}

impl From<&SccPhase> for SccPhaseRecord {
    fn from(p: &SccPhase) -> Self {
        SccPhaseRecord {
            phase: p.name.to_string(),
            time_ms: p.time.as_secs_f64() * 1e3,
            decided: p.decided,
            rounds: p.rounds,
        }
    }
}

/// What an SCC benchmark reports once per run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SccPayload {
    /// Tarjan's algorithm (sequential, one core) on the same graph, once: the reference every
    /// trial is checked against and timed against.
    pub tarjan_ms: f64,
    /// Components of one vertex.
    pub single_vertex_components: u64,
    /// The phases of the first timed trial.
    pub phases: Vec<SccPhaseRecord>,
}

/// An SCC report, as `warpath bench --algorithm scc` writes it.
pub type SccReport = Report<SccTrial, SccSummary, SccPayload>;

/// A finished SCC benchmark.
pub type SccBenchRun = BenchRun<SccTrial, SccSummary, SccPayload>;

/// Strongly connected components of one graph, on the backend asked for.
pub struct SccKernel<'g> {
    graph: &'g Graph,
    finder: SccFinder<'g>,
    /// Tarjan's components, and how long they took.
    reference: Components,
    tarjan_time: Duration,
    /// Where the last run ran, and what it warned of.
    ran_on: BackendUsed,
    warnings: Vec<String>,
    /// Runs so far (the first is the harness's warm-up).
    runs: usize,
    first_timed_phases: Vec<SccPhase>,
}

impl<'g> SccKernel<'g> {
    /// Runs on `backend`, the graph placed here; Tarjan's algorithm runs here, once.
    pub fn new(graph: &'g Graph, backend: Backend) -> Result<Self> {
        let finder = SccFinder::new(graph, backend)?;
        let started = Instant::now();
        let reference = tarjan(graph);
        let tarjan_time = started.elapsed();
        Ok(SccKernel {
            graph,
            finder,
            reference,
            tarjan_time,
            ran_on: BackendUsed::Cpu { threads: rayon::current_num_threads() },
            warnings: Vec::new(),
            runs: 0,
            first_timed_phases: Vec::new(),
        })
    }
}

impl BenchKernel for SccKernel<'_> {
    const ALGORITHM: &'static str = "scc";
    type Input = ();
    type Output = SccRun;
    type Details = SccTrial;
    type SummaryDetails = SccSummary;
    type Payload = SccPayload;

    fn inputs(&self, trials: usize, _seed: u64) -> Result<Vec<()>> {
        Ok(vec![(); trials])
    }

    fn source(&self, _: ()) -> Option<u64> {
        None
    }

    fn run(&mut self, _: ()) -> Result<Timed<SccRun>> {
        let found = self.finder.run()?;
        self.runs += 1;
        if self.runs == 2 {
            self.first_timed_phases = found.result.phases.clone();
        }
        self.ran_on = found.backend;
        self.warnings = found.warnings;
        Ok(Timed { output: found.result, time: found.time, end_to_end: found.end_to_end_time })
    }

    fn validate(&self, _: (), run: &SccRun) -> Result<()> {
        compare_with_reference(&run.components, &self.reference)
    }

    /// Every edge as stored: what a run may read.
    fn counted_edges(&self, _: (), _: &SccRun) -> u64 {
        self.graph.num_edges()
    }

    fn details(&self, _: (), run: &SccRun, _seconds: f64) -> SccTrial {
        let largest = run.components.largest().map_or(0, |(_, size)| size);
        SccTrial { components: run.components.count(), largest_component: largest }
    }

    fn payload(&mut self, _: (), _options: &BenchOptions) -> Result<SccPayload> {
        let singles = self.reference.sizes().iter().filter(|&&size| size == 1).count() as u64;
        Ok(SccPayload {
            tarjan_ms: self.tarjan_time.as_secs_f64() * 1e3,
            single_vertex_components: singles,
            phases: self.first_timed_phases.iter().map(SccPhaseRecord::from).collect(),
        })
    }

    fn environment(&self) -> Environment {
        let placed = self.finder.placed().filter(|_| matches!(self.ran_on, BackendUsed::Gpu { .. }));
        let workspace = crate::scc::gpu::bytes_needed(self.graph.num_vertices() as u64, self.graph.num_edges());
        Environment::of_placement(self.graph, self.ran_on.clone(), self.warnings.clone(), placed, workspace, "coloring")
    }
}

/// Runs the SCC benchmark through [`run_kernel`]: `options.trials` runs over the whole graph,
/// each checked against Tarjan's components; `progress` is called after each timed run.
pub fn run_scc_bench(
    graph: &Graph,
    backend: Backend,
    options: &BenchOptions,
    progress: &mut dyn FnMut(usize),
) -> Result<SccBenchRun> {
    run_kernel(&mut SccKernel::new(graph, backend)?, options, progress)
}

/// An SCC report as text: the shared [`header`], one row per trial, the summary lines, Tarjan's
/// time and the phases of the first timed trial.
pub fn render(report: &SccReport) -> String {
    let p = &report.payload;
    let s = &report.summary;
    let lines = HeaderLines {
        how_it_ran: if report.flags.gpu_kernel.is_some() {
            "scc algorithm: trimming, forward-backward from the pivot, two-way coloring (GPU)\n"
        } else {
            "scc algorithm: trimming, forward-backward from the pivot, coloring, Tarjan's for the rest\n"
        },
        directed_edges: "directed",
        workspace: "SCC labels",
    };
    let mut out = header(report, &lines);
    let _ = writeln!(out);
    let _ = writeln!(out, "{:>5} {:>10} {:>12} {:>14} {:>8}", "run", "time (ms)", "components", "largest", "GTEPS");
    for (i, t) in report.trials.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>5} {:>10.3} {:>12} {:>14} {:>8.3}",
            i + 1,
            t.time_ms,
            t.details.components,
            t.details.largest_component,
            t.gteps
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "trials: {} (one untimed warm-up)", s.trials);
    out.push_str(&timing_lines(s, "GTEPS", "edges as stored / time"));
    let share = 100.0 * s.details.largest_component as f64 / report.graph.vertices.max(1) as f64;
    let _ = writeln!(out, "components: {} ({} of one vertex)", s.details.components, p.single_vertex_components);
    let _ = writeln!(out, "largest component: {} vertices ({share:.2}%)", s.details.largest_component);
    let _ = writeln!(
        out,
        "tarjan: {:.3} ms (sequential, once; {:.1}x the median run)",
        p.tarjan_ms,
        p.tarjan_ms / s.time_ms.median.max(f64::MIN_POSITIVE)
    );
    let _ = writeln!(out, "verified: ok ({}/{} runs equal to Tarjan's)", s.validated, s.trials);
    out.push_str(&once_lines(report));
    if !p.phases.is_empty() {
        let _ = writeln!(out);
        let _ = writeln!(out, "phases of run 1:");
        let _ = writeln!(out, "{:>18} {:>10} {:>10} {:>7}", "phase", "time (ms)", "decided", "rounds");
        for phase in &p.phases {
            let _ =
                writeln!(out, "{:>18} {:>10.3} {:>10} {:>7}", phase.phase, phase.time_ms, phase.decided, phase.rounds);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{EdgeList, GraphBuilder};

    #[test]
    fn trials_count_tarjans_components_and_the_payload_has_the_first_timed_phases() {
        // {0, 1, 2} a cycle, 2 -> 3, {3, 4} a cycle, 5 alone.
        let edges = vec![(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 3)];
        let graph = GraphBuilder::new().build(EdgeList::new(6, edges, false)).unwrap();
        let mut ticks = Vec::new();
        let options = BenchOptions { trials: 2, seed: 1, trace: false, traced: 0 };
        let run = run_scc_bench(&graph, Backend::Cpu, &options, &mut |done| ticks.push(done)).unwrap();
        assert_eq!((ticks, run.algorithm), (vec![1, 2], "scc"));
        for trial in &run.trials {
            assert_eq!((trial.source, trial.edges), (None, 6));
            assert_eq!(trial.details, SccTrial { components: 3, largest_component: 3 });
        }
        assert_eq!(run.summary.details, SccSummary { components: 3, largest_component: 3 });
        assert_eq!(run.summary.validated, 2);
        assert_eq!(run.payload.single_vertex_components, 1);
        let decided: u64 = run.payload.phases.iter().map(|p| p.decided).sum();
        assert_eq!(decided, 6, "the phases decide every vertex once");
        assert!(run.environment.warnings.is_empty(), "the CPU asked for, no warning");
    }
}
