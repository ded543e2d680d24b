//! Connected components as the harness runs it ([`CcKernel`]): trials without an input (each
//! labels the whole graph), every one checked by [`crate::cc::verify`] against the sequential
//! reference's count (computed once), a rate over the graph's edges as stored, and a payload
//! with the options run and the first timed trial's phases (neighbor rounds, sampling, final
//! link, compression) with the graph bytes each read.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::bench::harness::{
    run_kernel, BenchKernel, BenchOptions, BenchRun, Environment, GraphOnGpu, Summarize, Timed, TrialRecord,
};
use crate::bench::json::Report;
use crate::bench::report::{header, once_lines, timing_lines, HeaderLines};
use crate::cc::verify::validate_with_count;
use crate::cc::{components_sequential, isolated_vertices, CcOptions, CcRun, ComponentFinder, PhaseTrace};
use crate::error::Result;
use crate::graph::Graph;

/// CC's columns of a trial record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CcTrial {
    /// Components, isolated vertices included.
    pub components: u64,
    /// Vertices in the largest component.
    pub largest_component: u64,
}

/// CC's summary lines (every trial finds the same components: validation saw to it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CcSummary {
    pub components: u64,
    pub largest_component: u64,
}

impl Summarize<CcTrial> for CcSummary {
    fn of(trials: &[TrialRecord<CcTrial>]) -> Option<CcSummary> {
        let first = &trials.first()?.details;
        Some(CcSummary { components: first.components, largest_component: first.largest_component })
    }
}

/// One phase of the first timed trial.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhaseRecord {
    /// `neighbor round 1`, ..., `sampling`, `final link`, `compression`.
    pub phase: String,
    pub time_ms: f64,
    /// Offsets and lists the phase read (labels apart).
    pub graph_bytes_read: u64,
    /// The GPU's label reads of walks to roots; absent on the CPU.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub walk_steps: Option<u64>,
    /// The GPU's compare-and-swaps on roots; absent on the CPU.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swaps: Option<u64>,
    /// Of those, the ones that found the root already hooked; absent on the CPU.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_swaps: Option<u64>,
}

impl From<&PhaseTrace> for PhaseRecord {
    fn from(p: &PhaseTrace) -> Self {
        PhaseRecord {
            phase: p.phase.name(),
            time_ms: p.time.as_secs_f64() * 1e3,
            graph_bytes_read: p.graph_bytes_read,
            walk_steps: p.links.map(|l| l.steps),
            swaps: p.links.map(|l| l.swaps),
            failed_swaps: p.links.map(|l| l.failed_swaps),
        }
    }
}

/// What a CC benchmark reports once per run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CcPayload {
    /// `afforest` or `shiloach-vishkin`.
    pub cc_algorithm: String,
    pub neighbor_rounds: u32,
    pub samples: u32,
    pub sample_seed: u64,
    /// How the GPU's Afforest starts its labels: `vertex` or `smaller-neighbor`.
    #[serde(default)]
    pub init: String,
    /// GPU Afforest's compression after every neighbor round but the last.
    #[serde(default)]
    pub round_compression: bool,
    /// GPU Afforest's giant hooks.
    #[serde(default)]
    pub giant_hooks: bool,
    /// GPU block-local linking as asked: `auto`, `off` or a range of ids (whether it ran: a
    /// `local link` phase).
    #[serde(default)]
    pub local_link: String,
    /// GPU vertices a thread takes at once in the neighbor rounds, as asked: `auto`, `1`, `4`.
    #[serde(default)]
    pub vertex_batch: String,
    /// The GPU neighbor rounds' order, as asked: `auto`, `ids`, `scattered`.
    #[serde(default)]
    pub round_order: String,
    /// Vertices without any edge (each its own component).
    pub isolated_vertices: u64,
    /// The phases of the first timed trial.
    pub phases: Vec<PhaseRecord>,
}

/// A CC report, as `warpath bench --algorithm cc` and `warpath suite` write it.
pub type CcReport = Report<CcTrial, CcSummary, CcPayload>;

/// A finished CC benchmark.
pub type CcBenchRun = BenchRun<CcTrial, CcSummary, CcPayload>;

/// Connected components on a prepared [`ComponentFinder`].
pub struct CcKernel<'f, 'g> {
    graph: &'g Graph,
    finder: &'f ComponentFinder<'g>,
    options: CcOptions,
    /// The sequential reference's count of components, for every trial's validation.
    reference_count: u64,
    /// Runs so far (the first is the harness's warm-up).
    runs: usize,
    first_timed_phases: Vec<PhaseTrace>,
    /// The last trial's run, whose label vector the next trial's are copied into.
    spare: CcRun,
}

impl<'f, 'g> CcKernel<'f, 'g> {
    /// Runs `options` on `finder`; the reference count is computed here, once.
    pub fn new(graph: &'g Graph, finder: &'f ComponentFinder<'g>, options: CcOptions) -> Self {
        Self::with_reference_count(graph, finder, options, components_sequential(graph).count())
    }

    /// [`new`](Self::new) with the reference's count of components computed before (the suite
    /// checks both backends against one count).
    pub fn with_reference_count(
        graph: &'g Graph,
        finder: &'f ComponentFinder<'g>,
        options: CcOptions,
        reference_count: u64,
    ) -> Self {
        CcKernel {
            graph,
            finder,
            options,
            reference_count,
            runs: 0,
            first_timed_phases: Vec::new(),
            spare: CcRun::default(),
        }
    }
}

impl BenchKernel for CcKernel<'_, '_> {
    const ALGORITHM: &'static str = "cc";
    type Input = ();
    type Output = CcRun;
    type Details = CcTrial;
    type SummaryDetails = CcSummary;
    type Payload = CcPayload;

    fn inputs(&self, trials: usize, _seed: u64) -> Result<Vec<()>> {
        Ok(vec![(); trials])
    }

    fn source(&self, _: ()) -> Option<u64> {
        None
    }

    /// A run read back in place ([`ComponentFinder::run_pinned`]), timed so, then copied out
    /// for the checks. The placement is paid once, before the first run: the report's
    /// placement stage.
    fn run(&mut self, _: ()) -> Result<Timed<CcRun>> {
        let found = self.finder.run_pinned(&self.options)?;
        let (time, end_to_end) = (found.run.time, found.run.end_to_end_time);
        let run = found.into_run(std::mem::take(&mut self.spare))?.result;
        self.runs += 1;
        if self.runs == 2 {
            self.first_timed_phases = run.phases.clone();
        }
        Ok(Timed { output: run, time, end_to_end })
    }

    fn recycle(&mut self, run: CcRun) {
        self.spare = run;
    }

    fn validate(&self, _: (), run: &CcRun) -> Result<()> {
        validate_with_count(self.graph, &run.components, self.reference_count)
    }

    /// Every edge as stored (an undirected edge twice): what a run may read.
    fn counted_edges(&self, _: (), _: &CcRun) -> u64 {
        self.graph.num_edges()
    }

    fn details(&self, _: (), run: &CcRun, _seconds: f64) -> CcTrial {
        let largest = run.components.largest().map_or(0, |(_, size)| size);
        CcTrial { components: run.components.count(), largest_component: largest }
    }

    fn payload(&mut self, _: (), _options: &BenchOptions) -> Result<CcPayload> {
        let isolated = isolated_vertices(self.graph);
        Ok(CcPayload {
            cc_algorithm: self.options.algorithm.name().into(),
            neighbor_rounds: self.options.neighbor_rounds,
            samples: self.options.samples,
            sample_seed: self.options.seed,
            init: self.options.init.name().into(),
            round_compression: self.options.round_compression,
            giant_hooks: self.options.giant_hooks,
            local_link: self.options.local_link.name(),
            vertex_batch: self.options.vertex_batch.name().into(),
            round_order: self.options.round_order.name().into(),
            isolated_vertices: isolated,
            phases: self.first_timed_phases.iter().map(PhaseRecord::from).collect(),
        })
    }

    fn environment(&self) -> Environment {
        let finder = self.finder;
        let graph = self.graph;
        Environment {
            backend: finder.backend(),
            warnings: finder.warnings().to_vec(),
            gpu_kernel: finder.gpu().map(|_| self.options.algorithm.name().to_string()),
            device_graph_bytes: finder.device_graph_bytes(),
            device_bytes: finder.device_bytes(),
            cuda_driver: finder
                .gpu()
                .and_then(|gpu| gpu.driver_version().ok())
                .map(|(major, minor)| format!("{major}.{minor}")),
            graph_on_gpu: finder.placement().zip(finder.gpu_graph_stored_bytes()).map(|(placement, stored_bytes)| {
                GraphOnGpu {
                    placement: placement.to_string(),
                    offsets_placement: finder.layout().map(|layout| layout.offsets.to_string()),
                    compressed: finder.is_compressed(),
                    stored_bytes,
                    plain_bytes: GraphOnGpu::plain_bytes_of(graph),
                    list_heads: finder.has_list_heads(),
                }
            }),
        }
    }
}

/// Runs the CC benchmark on `finder` through [`run_kernel`]: `options.trials` runs of `cc`,
/// each validated; `progress` is called after each timed run with the number done.
pub fn run_cc_bench(
    graph: &Graph,
    finder: &ComponentFinder<'_>,
    cc: CcOptions,
    options: &BenchOptions,
    progress: &mut dyn FnMut(usize),
) -> Result<CcBenchRun> {
    run_kernel(&mut CcKernel::new(graph, finder, cc), options, progress)
}

/// A CC report as text: the shared [`header`], one row per trial, the summary lines and the
/// phases of the first timed trial.
pub fn render(report: &CcReport) -> String {
    let p = &report.payload;
    let s = &report.summary;
    let mut how_it_ran = String::new();
    let _ = writeln!(
        how_it_ran,
        "cc algorithm: {} (neighbor rounds {}, samples {}{}{})",
        p.cc_algorithm,
        p.neighbor_rounds,
        p.samples,
        if p.samples == 0 { ": sampling off" } else { "" },
        gpu_tuning(p)
    );
    let lines = HeaderLines {
        how_it_ran: &how_it_ran,
        directed_edges: "directed; weakly connected components, in-edges read from its transpose",
        workspace: "CC labels",
    };
    let mut out = header(report, &lines);
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:>5} {:>10} {:>14} {:>12} {:>14} {:>8}",
        "run", "time (ms)", "end-to-end", "components", "largest", "GTEPS"
    );
    for (i, t) in report.trials.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>5} {:>10.3} {:>14.3} {:>12} {:>14} {:>8.3}",
            i + 1,
            t.time_ms,
            t.end_to_end_ms,
            t.details.components,
            t.details.largest_component,
            t.gteps
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "trials: {} (one untimed warm-up)", s.trials);
    out.push_str(&timing_lines(s, "GTEPS", "edges as stored / time"));
    let share = 100.0 * s.details.largest_component as f64 / report.graph.vertices.max(1) as f64;
    let _ = writeln!(out, "components: {}", s.details.components);
    let _ = writeln!(out, "largest component: {} vertices ({share:.2}%)", s.details.largest_component);
    let _ = writeln!(out, "isolated vertices: {}", p.isolated_vertices);
    let _ = writeln!(out, "verified: ok ({}/{} runs validated)", s.validated, s.trials);
    out.push_str(&once_lines(report));
    if !p.phases.is_empty() {
        let _ = writeln!(out);
        let _ = writeln!(out, "phases of run 1:");
        let _ = writeln!(
            out,
            "{:>18} {:>10} {:>16} {:>12} {:>10} {:>12}",
            "phase", "time (ms)", "graph bytes read", "walk steps", "swaps", "failed swaps"
        );
        let count = |c: Option<u64>| c.map_or("-".to_string(), |c| c.to_string());
        for phase in &p.phases {
            let _ = writeln!(
                out,
                "{:>18} {:>10.3} {:>16} {:>12} {:>10} {:>12}",
                phase.phase,
                phase.time_ms,
                phase.graph_bytes_read,
                count(phase.walk_steps),
                count(phase.swaps),
                count(phase.failed_swaps)
            );
        }
    }
    out
}

/// The GPU Afforest's choices that differ from the defaults, for the header line.
fn gpu_tuning(p: &CcPayload) -> String {
    let defaults = CcOptions::default();
    let mut parts = Vec::new();
    if !p.init.is_empty() && p.init != defaults.init.name() {
        parts.push(format!("init {}", p.init));
    }
    if p.round_compression != defaults.round_compression {
        parts.push(format!("round compression {}", if p.round_compression { "on" } else { "off" }));
    }
    if p.giant_hooks != defaults.giant_hooks {
        parts.push(format!("giant hooks {}", if p.giant_hooks { "on" } else { "off" }));
    }
    if !p.local_link.is_empty() && p.local_link != defaults.local_link.name() {
        parts.push(format!("local link {}", p.local_link));
    }
    if !p.vertex_batch.is_empty() && p.vertex_batch != defaults.vertex_batch.name() {
        parts.push(format!("vertex batch {}", p.vertex_batch));
    }
    if !p.round_order.is_empty() && p.round_order != defaults.round_order.name() {
        parts.push(format!("round order {}", p.round_order));
    }
    parts.iter().map(|part| format!(", {part}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::Backend;
    use crate::graph::{EdgeList, GraphBuilder};

    #[test]
    fn records_count_components_and_the_payload_has_the_first_timed_phases() {
        // {0, 1, 2}, {3, 4}, {5} isolated.
        let graph = GraphBuilder::new().build(EdgeList::new(6, vec![(0, 1), (1, 2), (3, 4)], true)).unwrap();
        let finder = ComponentFinder::new(&graph, Backend::Cpu).unwrap();
        let mut ticks = Vec::new();
        let options = BenchOptions { trials: 3, seed: 1, trace: false, traced: 0 };
        let run = run_cc_bench(&graph, &finder, CcOptions::default(), &options, &mut |done| ticks.push(done)).unwrap();
        assert_eq!((ticks, run.algorithm), (vec![1, 2, 3], "cc"));
        for trial in &run.trials {
            assert_eq!((trial.source, trial.edges), (None, 6));
            assert_eq!(trial.details, CcTrial { components: 3, largest_component: 3 });
        }
        assert_eq!(run.summary.details, CcSummary { components: 3, largest_component: 3 });
        assert_eq!(run.summary.validated, 3);
        let p = &run.payload;
        assert_eq!(
            (p.cc_algorithm.as_str(), p.neighbor_rounds, p.samples, p.isolated_vertices),
            ("afforest", 2, 1024, 1)
        );
        let names: Vec<&str> = p.phases.iter().map(|r| r.phase.as_str()).collect();
        assert_eq!(names, ["neighbor round 1", "neighbor round 2", "sampling", "final link", "compression"]);
        assert_eq!(run.environment.gpu_kernel, None);
    }
}
