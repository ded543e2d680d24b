//! Shortest paths as the harness runs them ([`SsspKernel`]): Graph500's 64 roots (kernel 3
//! shares kernel 2's), every run checked by the kernel-3 verifier, TEPS by Graph500's
//! convention (the edges of the reached component over the time), and the relaxations per edge
//! of the graph (the work inefficiency) beside every trial.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::bench::bfs::{choose_roots, graph500_edges};
use crate::bench::harness::{
    run_kernel, BenchKernel, BenchOptions, BenchRun, Environment, GraphOnGpu, Summarize, Timed, TrialRecord,
};
use crate::bench::json::Report;
use crate::bench::report::{header, timing_lines, HeaderLines};
use crate::bench::stats::{gteps, harmonic_mean, Spread};
use crate::error::Result;
use crate::graph::Graph;
use crate::sssp::verify::validate;
use crate::sssp::{delta_for, PathFinder, SsspOptions, SsspRun, SsspStrategy};

/// SSSP's columns of a trial record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SsspTrial {
    /// Vertices reached, the root included.
    pub reached: u64,
    /// The largest distance of a reached vertex.
    pub max_distance: f64,
    /// Edge relaxations the run performed (repeats counted).
    pub relaxations: u64,
    /// `relaxations` over the graph's stored edges: the work inefficiency (1 is one relaxation
    /// per edge; Dijkstra's).
    pub relaxations_per_edge: f64,
    /// Graph500's count: undirected input edges in the component for an undirected graph
    /// (`edges / 2`), the directed edges for a directed one.
    pub graph500_edges: u64,
    /// `graph500_edges / time`, in 10^9 edges per second.
    pub graph500_gteps: f64,
}

/// SSSP's summary lines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SsspSummary {
    /// Harmonic mean over the roots of `graph500_gteps`.
    pub hmean_graph500_gteps: f64,
    pub relaxations_per_edge: Spread,
    pub reached: Spread,
}

impl Summarize<SsspTrial> for SsspSummary {
    fn of(trials: &[TrialRecord<SsspTrial>]) -> Option<SsspSummary> {
        let column = |f: fn(&TrialRecord<SsspTrial>) -> f64| trials.iter().map(f).collect::<Vec<f64>>();
        Some(SsspSummary {
            hmean_graph500_gteps: harmonic_mean(&column(|r| r.details.graph500_gteps))?,
            relaxations_per_edge: Spread::of(&column(|r| r.details.relaxations_per_edge))?,
            reached: Spread::of(&column(|r| r.details.reached as f64))?,
        })
    }
}

/// What an SSSP benchmark reports once per run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SsspPayload {
    /// The GPU strategy asked for (`delta-stepping`, ...); the CPU always runs delta-stepping.
    pub strategy: String,
    /// The bucket width delta-stepping ran with.
    pub delta: f64,
    /// The weights: `u32 weights from 1 to 255`, `f32 weights from ...`, or `none (unit
    /// weights)`.
    pub weights: String,
    /// Distances only, no parents.
    pub distances_only: bool,
}

/// An SSSP report, as `warpath bench --algorithm sssp` writes it.
pub type SsspReport = Report<SsspTrial, SsspSummary, SsspPayload>;

/// A finished SSSP benchmark.
pub type SsspBenchRun = BenchRun<SsspTrial, SsspSummary, SsspPayload>;

/// Shortest paths on a prepared [`PathFinder`].
pub struct SsspKernel<'f, 'g> {
    graph: &'g Graph,
    finder: &'f PathFinder<'g>,
    options: SsspOptions,
}

impl<'f, 'g> SsspKernel<'f, 'g> {
    pub fn new(graph: &'g Graph, finder: &'f PathFinder<'g>, options: SsspOptions) -> Self {
        SsspKernel { graph, finder, options }
    }
}

impl BenchKernel for SsspKernel<'_, '_> {
    const ALGORITHM: &'static str = "sssp";
    type Input = u32;
    type Output = SsspRun;
    type Details = SsspTrial;
    type SummaryDetails = SsspSummary;
    type Payload = SsspPayload;

    fn inputs(&self, trials: usize, seed: u64) -> Result<Vec<u32>> {
        choose_roots(self.graph, seed, trials)
    }

    fn source(&self, root: u32) -> Option<u64> {
        Some(self.graph.external_id(root))
    }

    fn run(&mut self, root: u32) -> Result<Timed<SsspRun>> {
        let found = self.finder.run(root, &self.options)?;
        Ok(Timed { time: found.run.time, end_to_end: found.end_to_end_time, output: found.run })
    }

    /// Graph500 kernel 3's checks ([`crate::sssp::verify::validate`]).
    fn validate(&self, root: u32, run: &SsspRun) -> Result<()> {
        validate(self.graph, root, run)
    }

    fn counted_edges(&self, _root: u32, run: &SsspRun) -> u64 {
        run.distances.edges_in_component(self.graph)
    }

    fn details(&self, root: u32, run: &SsspRun, seconds: f64) -> SsspTrial {
        let graph500 = graph500_edges(self.graph, self.counted_edges(root, run));
        let max_distance = (0..run.distances.len()).filter_map(|v| run.distances.get(v)).fold(0.0, f64::max);
        SsspTrial {
            reached: run.distances.reached(),
            max_distance,
            relaxations: run.relaxations,
            relaxations_per_edge: run.relaxations as f64 / self.graph.num_edges().max(1) as f64,
            graph500_edges: graph500,
            graph500_gteps: gteps(graph500, seconds),
        }
    }

    fn payload(&mut self, _first: u32, _options: &BenchOptions) -> Result<SsspPayload> {
        Ok(SsspPayload {
            strategy: self.options.strategy.name().into(),
            delta: delta_for(self.graph, self.options.delta)?,
            weights: self.graph.weight_range().map_or_else(|| "none (unit weights)".into(), |r| r.to_string()),
            distances_only: self.options.distances_only,
        })
    }

    fn environment(&self) -> Environment {
        let finder = self.finder;
        let graph = self.graph;
        let gpu = finder.gpu();
        let workspace = crate::sssp::gpu::workspace(graph, &self.options).map(|w| w.bytes).unwrap_or(0);
        Environment {
            backend: finder.backend(),
            warnings: finder.warnings().to_vec(),
            gpu_kernel: gpu.map(|_| self.options.strategy.name().to_string()),
            device_graph_bytes: gpu.map(|g| g.bytes()),
            device_bytes: gpu.map(|g| g.bytes() + workspace),
            cuda_driver: gpu
                .and_then(|g| g.gpu().driver_version().ok())
                .map(|(major, minor)| format!("{major}.{minor}")),
            graph_on_gpu: gpu.map(|g| {
                let copies = if graph.is_undirected() { 1 } else { 2 };
                GraphOnGpu {
                    placement: g.graph().placement().to_string(),
                    offsets_placement: Some(g.graph().layout().offsets.to_string()),
                    compressed: g.graph().is_compressed(),
                    stored_bytes: g.stored_bytes(),
                    plain_bytes: copies * (8 * (graph.num_vertices() as u64 + 1) + 4 * graph.num_edges()),
                    list_heads: g.has_list_heads(),
                }
            }),
        }
    }
}

/// Runs the SSSP benchmark on `finder` through [`run_kernel`]: `options.trials` roots, every run
/// validated; `progress` is called after each timed root.
pub fn run_sssp_bench(
    graph: &Graph,
    finder: &PathFinder<'_>,
    sssp: SsspOptions,
    options: &BenchOptions,
    progress: &mut dyn FnMut(usize),
) -> Result<SsspBenchRun> {
    run_kernel(&mut SsspKernel::new(graph, finder, sssp), options, progress)
}

/// An SSSP report as text: the common header, one row per root, the summary.
pub fn render(report: &SsspReport) -> String {
    let p = &report.payload;
    let on_gpu = report.device.cpu_threads.is_none();
    let how_it_ran = if on_gpu && p.strategy != SsspStrategy::DeltaStepping.name() {
        format!("algorithm: {} on the GPU\nweights: {}\n", p.strategy, p.weights)
    } else {
        format!(
            "algorithm: delta-stepping on the {} (delta {})\nweights: {}\n",
            if on_gpu { "GPU" } else { "CPU" },
            p.delta,
            p.weights
        )
    };
    let mut out = header(
        report,
        &HeaderLines {
            how_it_ran: &how_it_ran,
            directed_edges: "directed",
            workspace: "distances, parents and worklists",
        },
    );
    if p.distances_only {
        out.push_str("labels: distances only (no parents)\n");
    }
    let _ = writeln!(out, "\n{:>12} {:>10} {:>12} {:>12} {:>10} {:>10}", "root", "reached", "max dist", "relax/edge", "ms", "GTEPS");
    for t in &report.trials {
        let _ = writeln!(
            out,
            "{:>12} {:>10} {:>12} {:>12.2} {:>10.3} {:>10.3}",
            t.source.map_or_else(String::new, |s| s.to_string()),
            t.details.reached,
            t.details.max_distance,
            t.details.relaxations_per_edge,
            t.time_ms,
            t.gteps
        );
    }
    let s = &report.summary;
    let _ = writeln!(out, "\nroots: {} (all validated by Graph500 kernel 3's rules)", s.trials);
    out.push_str(&timing_lines(s, "GTEPS", "directed edges of the reached component / time"));
    let _ = writeln!(out, "Graph500 GTEPS: {:.3} (harmonic mean; undirected edges counted once)", s.details.hmean_graph500_gteps);
    let r = &s.details.relaxations_per_edge;
    let _ = writeln!(out, "relaxations per edge: {:.2} median ({:.2} to {:.2})", r.median, r.min, r.max);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Backend;
    use crate::graph::{EdgeList, GraphBuilder, Weights};

    #[test]
    fn records_count_the_component_and_the_relaxations() {
        // A weighted triangle with a pendant (4 vertices, 4 undirected edges) and a separate edge.
        let list = EdgeList::new(6, vec![(0, 1), (1, 2), (2, 0), (2, 3), (4, 5)], true)
            .with_weights(Weights::U32(vec![1, 1, 5, 2, 7]));
        let g = GraphBuilder::new().build(list).unwrap();
        let options = SsspOptions::default();
        let finder = PathFinder::new(&g, Backend::Cpu, &options).unwrap();
        let mut ticks = Vec::new();
        let bench = BenchOptions { trials: 6, seed: 3, trace: false };
        let run = run_sssp_bench(&g, &finder, options, &bench, &mut |done| ticks.push(done)).unwrap();
        assert_eq!((ticks, run.algorithm), (vec![1, 2, 3, 4, 5, 6], "sssp"));
        for t in &run.trials {
            let d = &t.details;
            if t.source.unwrap() >= 4 {
                assert_eq!((d.reached, t.edges, d.graph500_edges, d.max_distance), (2, 2, 1, 7.0));
            } else {
                assert_eq!((d.reached, t.edges, d.graph500_edges), (4, 8, 4));
            }
            assert!(d.relaxations >= t.edges && d.relaxations_per_edge == d.relaxations as f64 / 10.0);
        }
        assert_eq!(run.payload.weights, "u32 weights from 1 to 7");
        assert_eq!(run.environment.gpu_kernel, None);
        let report = Report::new("tiny", &g, crate::bench::json::Flags::new(6, 3, "cpu", false, false), 0.0, run);
        let text = render(&report);
        assert!(text.contains("delta-stepping on the CPU") && text.contains("relaxations per edge"), "{text}");
        let json = serde_json::to_string(&report).unwrap();
        let back: SsspReport = crate::bench::json::parse_report_of("sssp", &json).unwrap();
        assert_eq!(back, report);
    }
}
