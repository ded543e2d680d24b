//! Shortest paths as the harness runs them ([`SsspKernel`]): Graph500's 64 roots (kernel 3
//! shares kernel 2's), every run checked by the kernel-3 verifier, TEPS by Graph500's
//! convention (the edges of the reached component over the time), and the relaxations per edge
//! of the graph (the work inefficiency) beside every trial.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::bench::bfs::{choose_roots, graph500_edges};
use crate::bench::harness::{
    run_kernel, BenchKernel, BenchOptions, BenchRun, Environment, Summarize, Timed, TrialRecord,
};
use crate::bench::json::Report;
use crate::bench::report::{header, once_lines, timing_lines, HeaderLines};
use crate::bench::stats::{gteps, harmonic_mean, Spread};
use crate::error::Result;
use crate::graph::Graph;
use crate::sssp::gpu::GpuSsspTrace;
use crate::sssp::verify::validate;
use crate::sssp::{PathFinder, PathsRun, SsspOptions, SsspRun, SsspStrategy};

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
    /// Reading the results back from the GPU (wall time; 0 on the CPU and in reports written
    /// before it was kept).
    #[serde(default)]
    pub download_ms: f64,
    /// Bytes read back: distances, and parents unless distances only.
    #[serde(default)]
    pub download_bytes: u64,
}

/// SSSP's summary lines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SsspSummary {
    /// Harmonic mean over the roots of `graph500_gteps`.
    pub hmean_graph500_gteps: f64,
    pub relaxations_per_edge: Spread,
    pub reached: Spread,
    /// The spread of the trials' `download_ms` (null in reports written before it was kept).
    #[serde(default)]
    pub download_ms: Option<Spread>,
}

impl Summarize<SsspTrial> for SsspSummary {
    fn of(trials: &[TrialRecord<SsspTrial>]) -> Option<SsspSummary> {
        let column = |f: fn(&TrialRecord<SsspTrial>) -> f64| trials.iter().map(f).collect::<Vec<f64>>();
        Some(SsspSummary {
            hmean_graph500_gteps: harmonic_mean(&column(|r| r.details.graph500_gteps))?,
            relaxations_per_edge: Spread::of(&column(|r| r.details.relaxations_per_edge))?,
            reached: Spread::of(&column(|r| r.details.reached as f64))?,
            download_ms: Spread::of(&column(|r| r.details.download_ms)),
        })
    }
}

/// What an SSSP benchmark reports once per run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SsspPayload {
    /// The GPU strategy asked for (`delta-stepping`, ...); the CPU always runs delta-stepping.
    pub strategy: String,
    /// The bucket width delta-stepping ran with (the narrowest, where it adapts).
    pub delta: f64,
    /// The GPU's buckets adapted their width (`SsspOptions::adaptive_delta`).
    #[serde(default)]
    pub adaptive_delta: bool,
    /// The weights: `u32 weights from 1 to 255`, `f32 weights from ...`, or `none (unit
    /// weights)`.
    pub weights: String,
    /// Distances only, no parents.
    pub distances_only: bool,
    /// With `--trace` on the GPU: the first root run once more with the kernels' trace (not
    /// part of the summary). `None` on the CPU, whose delta-stepping records none.
    #[serde(default)]
    pub trace: Option<SsspTraceRecord>,
}

/// What the GPU's kernels recorded for one source: per bucket (delta-stepping, near-far) or
/// per iteration (seed 002's worklist strategies).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SsspTraceRecord {
    /// The source, numbered as in the input.
    pub source: u64,
    /// The strategy that ran.
    pub strategy: String,
    /// What a record is: `bucket` or `iteration`.
    pub step: String,
    /// The run's kernel time.
    pub time_ms: f64,
    /// The bucket width the kernel used (0 for the worklist strategies).
    pub delta: f64,
    /// Delta-stepping: buckets processed (records beyond the first
    /// [`crate::sssp::gpu::TRACE_BUCKETS`] are counted here, not kept); worklist strategies: 0.
    pub buckets: u32,
    /// Delta-stepping: steps (light rounds, heavy phases, splits); worklist strategies:
    /// iterations.
    pub steps: u32,
    /// Delta-stepping: runs of steps block 0 took alone while the grid waited.
    pub small_runs: u32,
    /// Near-far: light rounds of the grid that deferred their queueing, and of those, the
    /// rounds relaxed in a launch of their own.
    #[serde(default)]
    pub deferred_rounds: u32,
    #[serde(default)]
    pub rounds_apart: u32,
    /// Node splitting's and hierarchical processing's degree threshold (0 otherwise).
    pub split_threshold: u32,
    /// Passes of the parents kernel (0 when distances only, or when the parents rode in the
    /// distance words).
    pub parent_passes: u32,
    /// The parents rode in the distance words, found by the relaxations themselves.
    #[serde(default)]
    pub parents_packed: bool,
    /// The distances were 4-byte words (distances only, where they fit).
    #[serde(default)]
    pub narrow_words: bool,
    /// The run's relaxations: the records' sum when every bucket was kept.
    pub relaxations: u64,
    pub records: Vec<SsspStepRecord>,
}

/// One bucket or iteration of a [`SsspTraceRecord`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SsspStepRecord {
    /// The bucket's index (distance / delta), or the iteration's number.
    pub index: u64,
    /// Vertices the bucket settled, or the iteration's worklist length.
    pub vertices: u64,
    /// The bucket's light rounds (1 for an iteration).
    pub rounds: u32,
    /// Edge relaxations of the bucket or iteration.
    pub relaxations: u64,
    /// To the bucket's or iteration's end: delta-stepping, since the bucket loop began (the
    /// kernel's clock); worklist strategies, since the first launch (the host's clock).
    pub time_ms: f64,
    /// Delta-stepping: the bucket's light rounds (to its heavy phase), and the relaxations of
    /// its heavy phase; 0 for an iteration (and in reports written before they were kept).
    #[serde(default)]
    pub light_ms: f64,
    #[serde(default)]
    pub heavy_relaxations: u64,
    /// Delta-stepping: the bucket's width in multiples of delta (1 unless it adapts); 0 for an
    /// iteration (and in reports written before it was kept).
    #[serde(default)]
    pub span: u32,
}

impl SsspTraceRecord {
    /// The record of `run` from `source` (numbered as in the input), which took `time`, and its
    /// GPU `trace`.
    pub fn of(
        source: u64,
        strategy: SsspStrategy,
        run: &SsspRun,
        time: std::time::Duration,
        trace: &GpuSsspTrace,
    ) -> SsspTraceRecord {
        let worklist = !strategy.is_bucketed();
        SsspTraceRecord {
            source,
            strategy: strategy.name().into(),
            step: if worklist { "iteration" } else { "bucket" }.into(),
            time_ms: time.as_secs_f64() * 1e3,
            delta: trace.delta,
            buckets: trace.buckets,
            steps: trace.steps,
            small_runs: trace.small_runs,
            deferred_rounds: trace.deferred_rounds,
            rounds_apart: trace.rounds_apart,
            split_threshold: trace.mdt,
            parent_passes: trace.parent_passes,
            parents_packed: trace.parents_packed,
            narrow_words: trace.narrow_words,
            relaxations: run.relaxations,
            records: trace
                .records
                .iter()
                .map(|r| SsspStepRecord {
                    index: r.index,
                    vertices: r.vertices,
                    rounds: r.rounds,
                    relaxations: r.relaxations,
                    time_ms: r.ns as f64 / 1e6,
                    light_ms: r.light_ns as f64 / 1e6,
                    heavy_relaxations: r.heavy_relaxations,
                    span: r.span,
                })
                .collect(),
        }
    }
}

/// Rows of a trace table printed whole; a longer trace shows its first and last rows (the JSON
/// keeps them all).
const TRACE_ROWS_SHOWN: usize = 240;

/// A trace as text: one line of totals, then one row per bucket or iteration.
pub fn render_trace(trace: &SsspTraceRecord) -> String {
    let mut out = String::new();
    let how = if trace.step == "bucket" {
        format!(
            "{} (delta {}): {} buckets in {} steps, {} runs of block 0 alone, {} deferred rounds ({} apart)",
            trace.strategy,
            trace.delta,
            trace.buckets,
            trace.steps,
            trace.small_runs,
            trace.deferred_rounds,
            trace.rounds_apart
        )
    } else if trace.split_threshold > 0 {
        format!("{} (degree threshold {}): {} iterations", trace.strategy, trace.split_threshold, trace.steps)
    } else {
        format!("{}: {} iterations", trace.strategy, trace.steps)
    };
    let _ = writeln!(out, "trace of source {} on the GPU, {how}", trace.source);
    let parents = match trace.parent_passes {
        0 if trace.parents_packed => "parents in the distance words".to_string(),
        0 if trace.narrow_words => "no parents (distances only, in 4-byte words)".to_string(),
        0 => "no parents (distances only)".to_string(),
        passes => format!("parents in {passes} passes"),
    };
    let _ = writeln!(out, "time: {:.3} ms, {} relaxations, {parents}", trace.time_ms, trace.relaxations);
    // Buckets add their light rounds' time and their heavy phase's relaxations.
    let buckets = trace.step == "bucket";
    let _ = write!(out, "{:>10} {:>12} {:>7} {:>14} {:>12}", trace.step, "vertices", "rounds", "relaxations", "ms");
    let _ = writeln!(
        out,
        "{}",
        if buckets { format!(" {:>10} {:>14} {:>6}", "light ms", "heavy relax.", "width") } else { String::new() }
    );
    let row = |out: &mut String, r: &SsspStepRecord| {
        let _ =
            write!(out, "{:>10} {:>12} {:>7} {:>14} {:>12.3}", r.index, r.vertices, r.rounds, r.relaxations, r.time_ms);
        let _ = if buckets {
            writeln!(out, " {:>10.3} {:>14} {:>5}x", r.light_ms, r.heavy_relaxations, r.span)
        } else {
            writeln!(out)
        };
    };
    let records = &trace.records;
    if records.len() <= TRACE_ROWS_SHOWN {
        records.iter().for_each(|r| row(&mut out, r));
    } else {
        let tail = TRACE_ROWS_SHOWN / 8;
        records[..TRACE_ROWS_SHOWN - tail].iter().for_each(|r| row(&mut out, r));
        let _ = writeln!(out, "{:>10} ({} rows more in the JSON)", "...", records.len() - TRACE_ROWS_SHOWN);
        records[records.len() - tail..].iter().for_each(|r| row(&mut out, r));
    }
    if trace.step == "bucket" && (trace.buckets as usize) > records.len() {
        let _ = writeln!(out, "({} later buckets counted, not recorded)", trace.buckets as usize - records.len());
    }
    out
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
    /// The last trial's run, whose vectors the next one's results are copied into.
    spare: SsspRun,
}

impl<'f, 'g> SsspKernel<'f, 'g> {
    pub fn new(graph: &'g Graph, finder: &'f PathFinder<'g>, options: SsspOptions) -> Self {
        // The strategy that runs, for the report (`auto` names one on the GPU).
        SsspKernel { graph, finder, options: finder.resolved(&options), spare: SsspRun::default() }
    }
}

impl BenchKernel for SsspKernel<'_, '_> {
    const ALGORITHM: &'static str = "sssp";
    type Input = u32;
    type Output = PathsRun;
    type Details = SsspTrial;
    type SummaryDetails = SsspSummary;
    type Payload = SsspPayload;

    fn inputs(&self, trials: usize, seed: u64) -> Result<Vec<u32>> {
        choose_roots(self.graph, seed, trials)
    }

    fn source(&self, root: u32) -> Option<u64> {
        Some(self.graph.external_id(root))
    }

    /// A run read back in place ([`PathFinder::run_pinned`]), timed so, then copied out for the
    /// checks.
    fn run(&mut self, root: u32) -> Result<Timed<PathsRun>> {
        let found = self.finder.run_pinned(root, &self.options)?.into_run(std::mem::take(&mut self.spare))?;
        Ok(Timed { time: found.time, end_to_end: found.end_to_end_time, output: found })
    }

    /// Graph500 kernel 3's checks ([`crate::sssp::verify::validate`]).
    fn validate(&self, _root: u32, found: &PathsRun) -> Result<()> {
        validate(self.graph, &found.result)
    }

    fn counted_edges(&self, _root: u32, found: &PathsRun) -> u64 {
        found.result.distances.edges_in_component(self.graph)
    }

    fn details(&self, root: u32, found: &PathsRun, seconds: f64) -> SsspTrial {
        let graph500 = graph500_edges(self.graph, self.counted_edges(root, found));
        let run = &found.result;
        let max_distance = run.distances.farthest().and_then(|v| run.distances.get(v)).unwrap_or(0.0);
        SsspTrial {
            reached: run.distances.reached(),
            max_distance,
            relaxations: run.relaxations,
            relaxations_per_edge: run.relaxations as f64 / self.graph.num_edges().max(1) as f64,
            graph500_edges: graph500,
            graph500_gteps: gteps(graph500, seconds),
            download_ms: found.download.time.as_secs_f64() * 1e3,
            download_bytes: found.download.bytes,
        }
    }

    fn recycle(&mut self, found: PathsRun) {
        self.spare = found.result;
    }

    /// With `options.trace` on the GPU, the first root once more with the kernels' trace,
    /// validated as the trials are.
    fn payload(&mut self, first: u32, options: &BenchOptions) -> Result<SsspPayload> {
        let trace = match (options.trace, self.finder.placed()) {
            (true, Some(_)) => {
                let (found, trace) = self.finder.run_traced(first, &self.options)?;
                validate(self.graph, &found.result)?;
                let source = self.graph.external_id(first);
                trace.map(|trace| SsspTraceRecord::of(source, self.options.strategy, &found.result, found.time, &trace))
            }
            _ => None,
        };
        Ok(SsspPayload {
            strategy: self.options.strategy.name().into(),
            delta: self.finder.delta(&self.options)?,
            // Only the bucket loop's kernels adapt their widths (not the cluster's, nor the
            // seed's worklist strategies).
            adaptive_delta: self.options.adaptive_delta
                && self.finder.placed().is_some()
                && matches!(self.options.strategy, SsspStrategy::DeltaStepping | SsspStrategy::NearFar),
            weights: self.graph.weight_range().map_or_else(|| "none (unit weights)".into(), |r| r.to_string()),
            distances_only: self.options.distances_only,
            trace,
        })
    }

    fn environment(&self) -> Environment {
        let finder = self.finder;
        let graph = self.graph;
        let workspace = crate::sssp::gpu::workspace(graph, &self.options).map(|w| w.bytes).unwrap_or(0);
        Environment::of_placement(
            graph,
            finder.backend(),
            finder.warnings().to_vec(),
            finder.placed(),
            workspace,
            self.options.strategy.name(),
        )
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
    let bucketed = SsspStrategy::ALL.iter().any(|s| s.is_bucketed() && s.name() == p.strategy);
    let how_it_ran = if on_gpu && !bucketed {
        format!("algorithm: {} on the GPU\nweights: {}\n", p.strategy, p.weights)
    } else {
        format!(
            "algorithm: {} on the {} (delta {}{})\nweights: {}\n",
            if on_gpu { p.strategy.as_str() } else { SsspStrategy::DeltaStepping.name() },
            if on_gpu { "GPU" } else { "CPU" },
            p.delta,
            if p.adaptive_delta { ", widths adaptive" } else { "" },
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
    let _ = writeln!(
        out,
        "\n{:>12} {:>10} {:>12} {:>12} {:>10} {:>10}",
        "root", "reached", "max dist", "relax/edge", "ms", "GTEPS"
    );
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
    let _ = writeln!(
        out,
        "Graph500 GTEPS: {:.3} (harmonic mean; undirected edges counted once)",
        s.details.hmean_graph500_gteps
    );
    let r = &s.details.relaxations_per_edge;
    let _ = writeln!(out, "relaxations per edge: {:.2} median ({:.2} to {:.2})", r.median, r.min, r.max);
    let bytes = report.trials.first().map_or(0, |t| t.details.download_bytes);
    if let (Some(download), true) = (&s.details.download_ms, bytes > 0) {
        let _ = writeln!(
            out,
            "download: {:.3} ms median for {:.1} MB ({:.1} GB/s)",
            download.median,
            bytes as f64 / 1e6,
            bytes as f64 / (download.median * 1e6).max(f64::MIN_POSITIVE)
        );
    }
    out.push_str(&once_lines(report));
    match &p.trace {
        Some(trace) => {
            out.push('\n');
            out.push_str(&render_trace(trace));
        }
        None if report.flags.trace => out.push_str(NO_CPU_TRACE),
        None => {}
    }
    out
}

/// What `--trace` prints where the CPU ran.
pub const NO_CPU_TRACE: &str = "\ntrace: none (the CPU's delta-stepping records no buckets; the GPU's kernels do)\n";

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
        let bench = BenchOptions { trials: 6, seed: 3, trace: true, traced: 0 };
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
        assert_eq!((run.environment.gpu_kernel.as_ref(), run.payload.trace.as_ref()), (None, None), "no CPU trace");
        let flags = crate::bench::json::Flags::new(6, 3, "cpu", false, true);
        let report = Report::new("tiny", &g, flags, crate::bench::LoadStage::default(), run);
        let text = render(&report);
        assert!(text.contains("delta-stepping on the CPU") && text.contains("relaxations per edge"), "{text}");
        assert!(text.ends_with(NO_CPU_TRACE), "{text}");
        let json = serde_json::to_string(&report).unwrap();
        let back: SsspReport = crate::bench::json::parse_report_of("sssp", &json).unwrap();
        assert_eq!(back, report);
    }

    /// The kernels' time of [`bucket_trace`]'s run.
    const KERNEL_TIME: std::time::Duration = std::time::Duration::from_micros(80);

    /// A GPU trace as the kernels return it: three buckets of delta-stepping.
    fn bucket_trace() -> (SsspRun, GpuSsspTrace) {
        let step = |index, vertices, rounds, relaxations, ns| StepTrace {
            index,
            vertices,
            rounds,
            relaxations,
            ns,
            light_ns: ns * 2 / 5,
            heavy_relaxations: relaxations / 4,
            span: 1,
        };
        let trace = GpuSsspTrace {
            delta: 16.0,
            buckets: 3,
            steps: 9,
            small_runs: 2,
            deferred_rounds: 1,
            rounds_apart: 1,
            records: vec![step(0, 1, 1, 4, 0), step(1, 40, 3, 120, 25_000), step(3, 9, 1, 36, 61_500)],
            mdt: 0,
            parent_passes: 4,
            parents_packed: false,
            narrow_words: false,
        };
        let run = SsspRun {
            distances: crate::sssp::Distances::Int(vec![0; 50]),
            parents: Vec::new(),
            relaxations: 160,
            sources: vec![0],
            nearest_source: Vec::new(),
            reach: None,
        };
        (run, trace)
    }

    use crate::sssp::gpu::StepTrace;

    #[test]
    fn a_gpu_trace_renders_per_bucket_and_round_trips_through_json() {
        let (run, gpu_trace) = bucket_trace();
        let trace = SsspTraceRecord::of(7, SsspStrategy::DeltaStepping, &run, KERNEL_TIME, &gpu_trace);
        assert_eq!((trace.step.as_str(), trace.records.len(), trace.relaxations), ("bucket", 3, 160));
        assert_eq!(trace.records.iter().map(|r| r.relaxations).sum::<u64>(), trace.relaxations);
        assert_eq!((trace.records[2].index, trace.records[2].time_ms), (3, 0.0615));
        let text = render_trace(&trace);
        assert!(
            text.starts_with("trace of source 7 on the GPU, delta-stepping (delta 16): 3 buckets in 9 steps"),
            "{text}"
        );
        assert!(text.contains("parents in 4 passes") && text.contains("time: 0.080 ms, 160 relaxations"), "{text}");
        let rows: Vec<&str> = text.lines().skip(3).collect();
        assert_eq!(rows.len(), 3, "{text}");
        assert_eq!(
            rows[1].split_whitespace().collect::<Vec<_>>(),
            ["1", "40", "3", "120", "0.025", "0.010", "30", "1x"]
        );

        // In a report's payload: rendered after the summary, and read back whole.
        let g = GraphBuilder::new()
            .build(EdgeList::new(2, vec![(0, 1)], true).with_weights(Weights::U32(vec![3])))
            .unwrap();
        let options = SsspOptions::default();
        let finder = PathFinder::new(&g, Backend::Cpu, &options).unwrap();
        let bench = BenchOptions { trials: 2, seed: 1, trace: false, traced: 0 };
        let mut run = run_sssp_bench(&g, &finder, options, &bench, &mut |_| {}).unwrap();
        run.payload.trace = Some(trace.clone());
        let flags = crate::bench::json::Flags::new(2, 1, "gpu", false, true);
        let report = Report::new("tiny", &g, flags, crate::bench::LoadStage::default(), run);
        assert!(render(&report).ends_with(&text), "{}", render(&report));
        let json = serde_json::to_string(&report).unwrap();
        let back: SsspReport = crate::bench::json::parse_report_of("sssp", &json).unwrap();
        assert_eq!(back.payload.trace, Some(trace));
    }

    #[test]
    fn long_traces_show_their_ends_and_iterations_name_their_threshold() {
        let (run, mut gpu_trace) = bucket_trace();
        let one = gpu_trace.records[1];
        gpu_trace.records = (0..1000).map(|i| StepTrace { index: i, ..one }).collect();
        gpu_trace.buckets = 1200;
        let text = render_trace(&SsspTraceRecord::of(1, SsspStrategy::NearFar, &run, KERNEL_TIME, &gpu_trace));
        assert!(text.contains("(760 rows more in the JSON)") && text.contains("(200 later buckets counted"), "{text}");
        assert!(text.lines().any(|l| l.trim_start().starts_with("999 ")), "the last row is shown: {text}");
        gpu_trace.mdt = 32;
        let iterations = SsspTraceRecord::of(1, SsspStrategy::NodeSplitting, &run, KERNEL_TIME, &gpu_trace);
        assert_eq!(iterations.step, "iteration");
        assert!(render_trace(&iterations).contains("node-splitting (degree threshold 32): 9 iterations"));
    }
}
