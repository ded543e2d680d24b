//! The partitioned BFS ([`crate::multi`]) as a [`BenchKernel`]: the graph cut once into as
//! many parts as ranks (vertex ranges, or over a grid for a 2D rank set), then the harness's
//! warm-up, timed roots (Graph500's, the same as the single-GPU bench's for a seed), each
//! traversal validated, and the report of schema
//! [`SCHEMA_VERSION`](crate::bench::json::SCHEMA_VERSION) with algorithm [`ALGORITHM`]: per
//! root its time, rate, exchange bytes and levels; per run the ranks, where they ran, the
//! partition's bounds and the speedup over one partition.
//!
//! [`run_scaling`] measures several rank counts on the same roots in one process, the one-
//! partition baseline first, and fills every report's [`Scaling`] against it. The baseline's
//! trees pass the Graph500 checks; every later rank count's trees are checked against the
//! baseline's levels of the same root ([`verify::validate_bfs_tree_against`]: the tree rules,
//! the same reached count and distance sum), which proves as much without reading every edge
//! again. Where the ranks run is a [`RankSet`] (the library's [`Ranks`]: threads of this
//! process, GPUs through NCCL): the harness knows no communicator.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::bench::bfs::choose_roots;
use crate::bench::harness::{
    run_kernel, BenchKernel, BenchOptions, Environment, GraphOnGpu, Summarize, Timed, TrialRecord,
};
use crate::bench::json::{Flags, Report};
use crate::bench::stages::LoadStage;
use crate::bench::stats::Spread;
use crate::bfs::verify::{self, ValidatedLevels};
use crate::bfs::BackendUsed;
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::multi::{
    cut, Delegation, Grid, PartLists, Partition, PartitionedLevel, PartitionedOptions, PartitionedTraversal, RankKind,
    Ranks,
};

/// The `algorithm` of a partitioned BFS report: not `bfs`, so that a reader of single-GPU
/// reports refuses it by name instead of misreading it.
pub const ALGORITHM: &str = "bfs-partitioned";

/// A partitioned bench's report: one rank count on one graph.
pub type PartitionedBenchReport = Report<PartitionedTrial, PartitionedSummary, PartitionedPayload>;

/// Where one rank count's traversals run: the library's [`Ranks`] (threads, GPUs through NCCL),
/// or a test's own, so that the harness needs no communicator of its own.
pub trait RankSet {
    /// How many ranks: the graph is cut into as many parts.
    fn ranks(&self) -> usize;
    /// Where they run, in words, for the reports.
    fn name(&self) -> String;
    /// What the traversal's work runs on, for the report's `device`.
    fn backend(&self) -> BackendUsed;
    /// The partitioned BFS from global vertex `source` over `partition`, cut into
    /// [`ranks`](RankSet::ranks) parts, gathered.
    fn traverse(
        &self,
        partition: &Partition,
        source: u32,
        options: &PartitionedOptions,
    ) -> Result<PartitionedTraversal>;
    /// The partitioned BFS from each of `sources`, in order: a rank set whose ranks place their
    /// parts on GPUs places them once for all.
    fn traverse_many(
        &self,
        partition: &Partition,
        sources: &[u32],
        options: &PartitionedOptions,
    ) -> Result<Vec<PartitionedTraversal>> {
        sources.iter().map(|&source| self.traverse(partition, source, options)).collect()
    }
    /// The grid of ranks, where these ranks cut the adjacency matrix in 2D instead of vertex
    /// ranges: the harness then cuts the graph over it ([`cut`]) and the ranks run the 2D BFS
    /// on that partition (top-down, `multi::bfs_2d`), whatever they run on.
    fn grid(&self) -> Option<Grid> {
        None
    }
}

/// The library's ranks as the harness runs them: every rank in this process (threads, or one
/// thread a GPU), since a process of a one-process-per-GPU job has nothing to report.
impl RankSet for Ranks {
    fn ranks(&self) -> usize {
        self.count()
    }

    fn name(&self) -> String {
        self.describe()
    }

    fn backend(&self) -> BackendUsed {
        match self.kind() {
            RankKind::Threads { on_gpu: false, parts } => BackendUsed::Cpu { threads: *parts },
            _ => BackendUsed::Gpu { device: self.describe() },
        }
    }

    fn traverse(
        &self,
        partition: &Partition,
        source: u32,
        options: &PartitionedOptions,
    ) -> Result<PartitionedTraversal> {
        self.traverse_many(partition, &[source], options)?.pop().ok_or_else(|| {
            Error::InvalidArgument(
                "a benchmark runs every rank in this process: threads, or one thread a GPU, not one process a GPU"
                    .into(),
            )
        })
    }

    fn traverse_many(
        &self,
        partition: &Partition,
        sources: &[u32],
        options: &PartitionedOptions,
    ) -> Result<Vec<PartitionedTraversal>> {
        self.run(partition, sources, options)
    }

    fn grid(&self) -> Option<Grid> {
        Ranks::grid(self)
    }
}

/// One level of a partitioned traversal as the reports give it (the `bfs --partitions` report
/// and every root of a partitioned bench).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelRow {
    pub level: u32,
    /// `top-down` or `bottom-up`.
    pub direction: String,
    /// Vertices in the level's frontier, over all ranks.
    pub frontier: u64,
    /// Edges the ranks inspected in the level, summed.
    pub edges_inspected: u64,
    /// Frontier exchange of the level, summed over the ranks.
    pub exchange_bytes: u64,
    /// The slowest rank's time in the exchange, waiting for the others included.
    pub exchange_ms: f64,
    /// The slowest rank's time in the level.
    pub time_ms: f64,
}

impl LevelRow {
    pub fn of(level: &PartitionedLevel) -> LevelRow {
        LevelRow {
            level: level.trace.level,
            direction: level.trace.direction.to_string(),
            frontier: level.trace.frontier,
            edges_inspected: level.trace.edges_inspected,
            exchange_bytes: level.exchange_bytes,
            exchange_ms: level.exchange_time.as_secs_f64() * 1e3,
            time_ms: level.trace.time.as_secs_f64() * 1e3,
        }
    }

    /// Every level of `traversal`.
    pub fn all(traversal: &PartitionedTraversal) -> Vec<LevelRow> {
        traversal.levels.iter().map(LevelRow::of).collect()
    }
}

/// A partitioned root's own columns, beside the harness's time and rate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PartitionedTrial {
    pub depth: u32,
    pub reached: u64,
    /// Frontier exchange between ranks, summed over ranks and levels.
    pub exchange_bytes: u64,
    pub levels: Vec<LevelRow>,
}

/// A partitioned run's own summary line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PartitionedSummary {
    /// Bytes exchanged per traversal, over the roots.
    pub exchange_bytes: Spread,
}

impl Summarize<PartitionedTrial> for PartitionedSummary {
    fn of(trials: &[TrialRecord<PartitionedTrial>]) -> Option<PartitionedSummary> {
        let bytes: Vec<f64> = trials.iter().map(|t| t.details.exchange_bytes as f64).collect();
        Some(PartitionedSummary { exchange_bytes: Spread::of(&bytes)? })
    }
}

/// What a partitioned run reports once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PartitionedPayload {
    pub ranks: usize,
    /// Where the ranks ran, in words ([`RankSet::name`]).
    pub backend: String,
    /// `ranks + 1` vertex ids: rank `r` owns `bounds[r]..bounds[r + 1]`.
    pub bounds: Vec<u32>,
    /// Cutting the graph into the parts, once per run.
    pub partition_ms: f64,
    /// False: top-down levels only.
    pub bottom_up: bool,
    /// The hubs the cut delegated (vertex delegates); `None` where it delegated none.
    #[serde(default)]
    pub hubs: Option<DelegatedHubs>,
    /// Against one partition on the same roots in the same process; `null` where no baseline ran.
    pub scaling: Option<Scaling>,
}

/// The hubs a 1D cut delegated ([`Hubs`](crate::multi::Hubs)).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DelegatedHubs {
    /// The out-degree from which a vertex is a hub.
    pub degree: u64,
    pub count: u64,
    /// Their out-lists' edges: what the pieces add over the parts.
    pub edges: u64,
}

impl DelegatedHubs {
    fn of(partition: &Partition) -> Option<DelegatedHubs> {
        let first = partition.parts.first()?.hubs.as_ref()?;
        let edges = partition.parts.iter().filter_map(|p| p.hubs.as_ref()).map(|h| h.targets.len() as u64).sum();
        Some(DelegatedHubs { degree: first.degree, count: first.globals.len() as u64, edges })
    }
}

/// A rank count's speed against the one-partition baseline of the same run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scaling {
    /// The baseline's median traversal time, in milliseconds.
    pub baseline_median_ms: f64,
    /// The baseline's median time over this run's median time.
    pub speedup: f64,
    /// `speedup / ranks`: 1 is perfect scaling.
    pub efficiency: f64,
}

/// The partitioned BFS on a graph cut for one [`RankSet`].
pub struct PartitionedKernel<'a> {
    graph: &'a Graph,
    ranks: &'a dyn RankSet,
    partition: Partition,
    partition_ms: f64,
    options: PartitionedOptions,
    /// The roots the harness will ask for ([`BenchKernel::inputs`] of `trials`, `seed`), all
    /// traversed in one [`RankSet::traverse_many`] at the first `run` and handed out from here.
    planned: (usize, u64),
    traversed: HashMap<u32, Vec<Timed<PartitionedTraversal>>>,
    /// The levels of validated traversals from earlier in the process, by root: a tree from a
    /// root here is checked against them, not by every edge again.
    reference: Option<&'a HashMap<u32, ValidatedLevels>>,
    /// The levels of the trees this kernel validated by every edge, by root.
    validated: Mutex<HashMap<u32, ValidatedLevels>>,
    /// How the GPU ranks held their parts' lists (none for CPU ranks).
    lists: Vec<PartLists>,
}

impl<'a> PartitionedKernel<'a> {
    /// Cuts `graph` into `ranks.ranks()` parts, timed, for a bench of `trials` roots chosen
    /// with `seed`.
    pub fn new(
        graph: &'a Graph,
        ranks: &'a dyn RankSet,
        options: PartitionedOptions,
        trials: usize,
        seed: u64,
    ) -> Result<Self> {
        let cutting = Instant::now();
        // Only GPU ranks expand hubs from pieces: for CPU ranks the cut makes none.
        let delegation = match ranks.backend() {
            BackendUsed::Gpu { .. } => options.delegation,
            BackendUsed::Cpu { .. } => Delegation::Off,
        };
        let partition = cut(graph, ranks.ranks(), ranks.grid(), delegation)?;
        let partition_ms = cutting.elapsed().as_secs_f64() * 1e3;
        Ok(PartitionedKernel {
            graph,
            ranks,
            partition,
            partition_ms,
            options,
            planned: (trials, seed),
            traversed: HashMap::new(),
            reference: None,
            validated: Mutex::default(),
            lists: Vec::new(),
        })
    }

    /// Checks each tree whose root `reference` holds against those validated levels
    /// ([`verify::validate_bfs_tree_against`]), the others by every edge.
    pub fn with_reference(self, reference: &'a HashMap<u32, ValidatedLevels>) -> Self {
        PartitionedKernel { reference: Some(reference), ..self }
    }

    /// The levels of the trees this kernel validated by every edge, by root.
    pub fn into_validated(self) -> HashMap<u32, ValidatedLevels> {
        self.validated.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl BenchKernel for PartitionedKernel<'_> {
    const ALGORITHM: &'static str = ALGORITHM;
    type Input = u32;
    type Output = PartitionedTraversal;
    type Details = PartitionedTrial;
    type SummaryDetails = PartitionedSummary;
    type Payload = PartitionedPayload;

    fn inputs(&self, trials: usize, seed: u64) -> Result<Vec<u32>> {
        choose_roots(self.graph, seed, trials)
    }

    fn source(&self, root: u32) -> Option<u64> {
        Some(self.graph.external_id(root))
    }

    /// The time is the slowest rank's traversal; end to end adds starting the ranks, placing
    /// the parts and gathering their labels into one tree, shared out over the roots of the
    /// batch. The first call traverses this root and every planned one in one batch (the
    /// harness's warm-up comes first, so the batch's first traversal pays what is paid once).
    fn run(&mut self, root: u32) -> Result<Timed<PartitionedTraversal>> {
        if let Some(timed) = self.traversed.get_mut(&root).and_then(Vec::pop) {
            return Ok(timed);
        }
        let (trials, seed) = self.planned;
        let mut batch = vec![root];
        if self.traversed.is_empty() {
            batch.extend(choose_roots(self.graph, seed, trials)?);
        }
        let started = Instant::now();
        let traversals = self.ranks.traverse_many(&self.partition, &batch, &self.options)?;
        let end_to_end = started.elapsed() / batch.len() as u32;
        let mut traversals = traversals.into_iter().zip(&batch);
        let (first, _) = traversals.next().expect("one traversal a root");
        self.lists.clone_from(&first.lists);
        for (traversal, &root) in traversals.rev() {
            self.traversed.entry(root).or_default().push(Timed { time: traversal.time, end_to_end, output: traversal });
        }
        Ok(Timed { time: first.time, end_to_end, output: first })
    }

    fn validate(&self, root: u32, traversal: &PartitionedTraversal) -> Result<()> {
        let result = &traversal.result;
        match self.reference.and_then(|levels| levels.get(&root)) {
            Some(levels) if result.has_parents() => verify::validate_bfs_tree_against(self.graph, result, levels),
            _ => {
                verify::validate(self.graph, result)?;
                let mut validated = self.validated.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                validated.insert(root, ValidatedLevels::of(result));
                Ok(())
            }
        }
    }

    fn counted_edges(&self, _root: u32, traversal: &PartitionedTraversal) -> u64 {
        traversal.result.edges_in_component(self.graph)
    }

    fn details(&self, _root: u32, traversal: &PartitionedTraversal, _seconds: f64) -> PartitionedTrial {
        PartitionedTrial {
            depth: traversal.result.depth(),
            reached: traversal.result.reached(),
            exchange_bytes: traversal.exchange_bytes(),
            levels: LevelRow::all(traversal),
        }
    }

    fn payload(&mut self, _first: u32, _options: &BenchOptions) -> Result<PartitionedPayload> {
        Ok(PartitionedPayload {
            ranks: self.ranks.ranks(),
            backend: self.ranks.name(),
            bounds: self.partition.bounds.clone(),
            partition_ms: self.partition_ms,
            // The 2D BFS is top-down only.
            bottom_up: self.options.bottom_up && self.partition.grid().is_none(),
            hubs: DelegatedHubs::of(&self.partition),
            scaling: None,
        })
    }

    /// The backend, and for GPU ranks their parts' lists over every rank: the device bytes
    /// they hold, where they lie and in what format.
    fn environment(&self) -> Environment {
        let mut environment = Environment::without_gpu(self.ranks.backend());
        if !self.lists.is_empty() {
            environment.device_graph_bytes = Some(self.lists.iter().map(|lists| lists.device_bytes).sum());
            environment.graph_on_gpu = Some(parts_on_gpu(&self.lists));
        }
        environment
    }
}

/// The GPU ranks' `lists` as one graph on the GPU: their bytes summed, their placement if they
/// agree (each rank chooses by its own budget), else each rank's in rank order.
pub fn parts_on_gpu(lists: &[PartLists]) -> GraphOnGpu {
    let placement = match lists.iter().all(|l| l.placement == lists[0].placement) {
        true => lists[0].placement.to_string(),
        false => lists.iter().map(|l| l.placement.to_string()).collect::<Vec<_>>().join(", "),
    };
    GraphOnGpu {
        placement,
        offsets_placement: None,
        compressed: lists.iter().any(|l| l.compressed),
        stored_bytes: lists.iter().map(|l| l.stored_bytes).sum(),
        plain_bytes: lists.iter().map(|l| l.plain_bytes).sum(),
        list_heads: false,
    }
}

/// What [`run_scaling`] is doing, for progress displays.
#[derive(Clone, Copy, Debug)]
pub enum ScalingStage<'a> {
    /// Running `roots` roots on the ranks named `ranks` ([`RankSet::name`]).
    Running { ranks: &'a str, roots: usize },
    /// `done` roots finished on the current ranks.
    Root { done: usize },
}

/// How [`run_scaling`] runs: the roots, and the options of every traversal.
#[derive(Clone, Debug, PartialEq)]
pub struct ScalingOptions {
    /// Timed roots per rank count (the same roots for every count).
    pub roots: usize,
    pub seed: u64,
    pub traversal: PartitionedOptions,
    /// The report's flags: the backend asked for, `--undirected`.
    pub flags: Flags,
}

/// Benchmarks `baseline` (one rank: the graph whole) and then each of `sets` on the same roots
/// of `graph` (named `name`, loaded in `load`), in this process, one after the other; every
/// report's [`Scaling`] is against the baseline's median. The baseline's report comes first.
pub fn run_scaling(
    name: &str,
    graph: &Graph,
    load: LoadStage,
    baseline: &dyn RankSet,
    sets: &[&dyn RankSet],
    options: &ScalingOptions,
    progress: &mut dyn FnMut(ScalingStage<'_>),
) -> Result<Vec<PartitionedBenchReport>> {
    if baseline.ranks() != 1 {
        return Err(Error::InvalidArgument(format!(
            "the scaling baseline runs on one rank, not {} ({})",
            baseline.ranks(),
            baseline.name()
        )));
    }
    let bench = BenchOptions { trials: options.roots, seed: options.seed, trace: false, traced: 0 };
    let mut reports = Vec::with_capacity(1 + sets.len());
    // The baseline's trees are validated by every edge; the later sets' against its levels.
    let mut reference = HashMap::new();
    for (index, &ranks) in std::iter::once(&baseline).chain(sets).enumerate() {
        let ranks_name = ranks.name();
        progress(ScalingStage::Running { ranks: &ranks_name, roots: options.roots });
        let mut kernel = PartitionedKernel::new(graph, ranks, options.traversal.clone(), options.roots, options.seed)?;
        if index > 0 {
            kernel = kernel.with_reference(&reference);
        }
        let run = run_kernel(&mut kernel, &bench, &mut |done| progress(ScalingStage::Root { done }))?;
        reports.push(PartitionedBenchReport::new(name, graph, options.flags.clone(), load, run));
        if index == 0 {
            reference = kernel.into_validated();
        }
    }
    let baseline_median_ms = reports[0].summary.time_ms.median;
    for report in &mut reports {
        let speedup = baseline_median_ms / report.summary.time_ms.median;
        let efficiency = speedup / report.payload.ranks as f64;
        report.payload.scaling = Some(Scaling { baseline_median_ms, speedup, efficiency });
    }
    Ok(reports)
}

/// The columns of a scaling table.
const SCALING_COLUMNS: [&str; 7] = ["ranks", "median ms", "GTEPS", "speedup", "efficiency", "exchange B", "backend"];

/// One line of a scaling table, in the order of [`SCALING_COLUMNS`]: ranks, median time,
/// harmonic-mean GTEPS, speedup and efficiency against one partition (`n/a` without a
/// baseline), median exchange bytes, where the ranks ran.
fn scaling_cells(report: &PartitionedBenchReport) -> [String; 7] {
    let scaling = report.payload.scaling;
    let optional = |value: Option<f64>| value.map_or_else(|| "n/a".into(), |v| format!("{v:.2}"));
    [
        report.payload.ranks.to_string(),
        format!("{:.3}", report.summary.time_ms.median),
        format!("{:.3}", report.summary.hmean_gteps),
        optional(scaling.map(|s| s.speedup)),
        optional(scaling.map(|s| s.efficiency)),
        format!("{:.0}", report.summary.details.exchange_bytes.median),
        report.payload.backend.clone(),
    ]
}

/// The scaling table as text, a line per report.
pub fn render_scaling(reports: &[PartitionedBenchReport]) -> String {
    let line = |cells: &[String; 7]| {
        let [ranks, median, gteps, speedup, efficiency, bytes, backend] = cells;
        format!("{ranks:>5}  {median:>10}  {gteps:>8}  {speedup:>7}  {efficiency:>10}  {bytes:>14}  {backend}\n")
    };
    let mut text = line(&SCALING_COLUMNS.map(String::from));
    for report in reports {
        text.push_str(&line(&scaling_cells(report)));
    }
    text
}

/// The scaling of several graphs as one markdown table, a row per graph and rank count.
pub fn scaling_markdown<'a>(graphs: impl IntoIterator<Item = (&'a str, &'a [PartitionedBenchReport])>) -> String {
    let mut md = format!("| graph | {} |\n|---|---:|---:|---:|---:|---:|---:|---|\n", SCALING_COLUMNS.join(" | "));
    for (graph, reports) in graphs {
        for report in reports {
            let cells = scaling_cells(report).map(|cell| cell.replace('|', "/"));
            let _ = writeln!(md, "| {graph} | {} |", cells.join(" | "));
        }
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::Placement;
    use crate::graph::UNREACHED;
    use crate::multi::bfs_in_process;

    /// The ranks' lists summed into one graph on the GPU, the placement named once where the
    /// ranks agree and rank by rank where they do not.
    #[test]
    fn parts_on_gpu_sum_the_ranks_lists() {
        let lists = |placement, compressed| PartLists {
            placement,
            compressed,
            stored_bytes: 100,
            plain_bytes: 300,
            device_bytes: 120,
        };
        let agreed = parts_on_gpu(&[lists(Placement::Device, true), lists(Placement::Device, true)]);
        assert_eq!((agreed.placement.as_str(), agreed.compressed), ("device", true));
        assert_eq!((agreed.stored_bytes, agreed.plain_bytes), (200, 600));
        let mixed = parts_on_gpu(&[lists(Placement::Device, false), lists(Placement::ZeroCopy, false)]);
        assert_eq!((mixed.placement.as_str(), mixed.compressed), ("device, zero-copy", false));
    }

    /// Ranks as threads of this process, over `grid` where there is one (the harness then cuts
    /// the graph in 2D); with `deep_leaf`, each tree then hangs one leaf a level too deep
    /// ([`hang_a_leaf_too_deep`]).
    struct Threads {
        ranks: usize,
        deep_leaf: bool,
        grid: Option<Grid>,
    }

    fn threads(ranks: usize) -> Threads {
        Threads { ranks, deep_leaf: false, grid: None }
    }

    impl RankSet for Threads {
        fn ranks(&self) -> usize {
            self.ranks
        }
        fn name(&self) -> String {
            match self.grid {
                Some(grid) => format!("{grid} grid"),
                None => format!("{} threads", self.ranks),
            }
        }
        fn backend(&self) -> BackendUsed {
            BackendUsed::Cpu { threads: self.ranks }
        }
        fn traverse(
            &self,
            partition: &Partition,
            source: u32,
            options: &PartitionedOptions,
        ) -> Result<PartitionedTraversal> {
            let mut traversal = bfs_in_process(partition, source, options)?;
            if self.deep_leaf {
                hang_a_leaf_too_deep(&mut traversal.result)?;
            }
            Ok(traversal)
        }
        fn grid(&self) -> Option<Grid> {
            self.grid
        }
    }

    fn options(roots: usize) -> ScalingOptions {
        ScalingOptions {
            roots,
            seed: 3,
            traversal: PartitionedOptions::default(),
            flags: Flags::new(roots, 3, "cpu", false, false),
        }
    }

    #[test]
    fn every_count_runs_the_same_validated_roots_against_one_partition() {
        let graph = crate::input::load_graph("kron:9", &Default::default()).unwrap();
        let (two, three) = (threads(2), threads(3));
        let mut stages = 0;
        let reports =
            run_scaling("kron:9", &graph, LoadStage::default(), &threads(1), &[&two, &three], &options(4), &mut |_| {
                stages += 1
            })
            .unwrap();
        assert_eq!(reports.iter().map(|r| r.payload.ranks).collect::<Vec<_>>(), [1, 2, 3]);
        assert!(stages >= 3 * 5, "a start and four roots a count: {stages}");
        let roots = |r: &PartitionedBenchReport| r.trials.iter().map(|t| t.source).collect::<Vec<_>>();
        for report in &reports {
            assert_eq!((report.algorithm.as_str(), report.summary.validated), (ALGORITHM, 4));
            assert_eq!(roots(report), roots(&reports[0]));
            assert_eq!(report.payload.bounds.len(), report.payload.ranks + 1);
            let scaling = report.payload.scaling.unwrap();
            assert_eq!(scaling.baseline_median_ms, reports[0].summary.time_ms.median);
            assert!(
                scaling.speedup > 0.0
                    && (scaling.efficiency * report.payload.ranks as f64 - scaling.speedup).abs() < 1e-9
            );
            for trial in &report.trials {
                assert_eq!(trial.details.levels.len() as u32, trial.details.depth + 1);
                let bytes: u64 = trial.details.levels.iter().map(|l| l.exchange_bytes).sum();
                assert_eq!(bytes, trial.details.exchange_bytes);
            }
        }
        // One rank exchanges nothing; more ranks do.
        assert!(reports[0].trials.iter().all(|t| t.details.exchange_bytes == 0));
        assert!(reports[1].trials.iter().all(|t| t.details.exchange_bytes > 0));
        let table = render_scaling(&reports);
        assert_eq!(table.lines().count(), 4, "{table}");
        assert!(table.lines().nth(1).unwrap().contains(" 1.00 "), "{table}");
        let md = scaling_markdown([("kron:9", reports.as_slice())]);
        assert_eq!(md.lines().filter(|l| l.starts_with("| kron:9 |")).count(), 3, "{md}");
    }

    #[test]
    fn a_grid_rank_set_runs_the_2d_bfs_on_the_same_roots() {
        let graph = crate::input::load_graph("kron:9", &Default::default()).unwrap();
        let grid = Threads { grid: Some(Grid::new(2, 3).unwrap()), ..threads(6) };
        let reports =
            run_scaling("kron:9", &graph, LoadStage::default(), &threads(1), &[&grid], &options(3), &mut |_| {})
                .unwrap();
        let report = &reports[1];
        assert_eq!((report.payload.ranks, report.summary.validated), (6, 3));
        assert_eq!(report.payload.bounds.len(), 7);
        assert!(!report.payload.bottom_up, "the 2D BFS is top-down only");
        let roots = |r: &PartitionedBenchReport| r.trials.iter().map(|t| t.source).collect::<Vec<_>>();
        assert_eq!(roots(report), roots(&reports[0]));
        for trial in &report.trials {
            assert!(trial.details.exchange_bytes > 0);
            assert!(trial.details.levels.iter().all(|l| l.direction == "top-down"));
        }
    }

    /// Hangs one leaf of a kron:9 tree a level too deep, under a neighbor at its own level:
    /// every tree edge is still a graph edge one level down.
    fn hang_a_leaf_too_deep(result: &mut crate::bfs::BfsResult) -> Result<()> {
        let graph = crate::input::load_graph("kron:9", &Default::default())?;
        let n = graph.num_vertices() as u32;
        let has_child = |v: u32| (0..n).any(|c| c != result.source && result.parents[c as usize] == v);
        let level_mate = |v: u32| {
            let d = result.distances[v as usize];
            graph.neighbors(v).iter().copied().find(|&q| q != v && result.distances[q as usize] == d)
        };
        let (leaf, mate) = (0..n)
            .filter(|&v| v != result.source && result.distances[v as usize] != UNREACHED && !has_child(v))
            .find_map(|v| level_mate(v).map(|q| (v, q)))
            .expect("kron:9 has a leaf with a neighbor at its own level");
        result.parents[leaf as usize] = mate;
        result.distances[leaf as usize] += 1;
        Ok(())
    }

    /// The sets after the baseline are checked against its levels, and that check still catches
    /// a tree whose every edge is right but one distance is not.
    #[test]
    fn later_counts_are_checked_against_the_baselines_levels() {
        let graph = crate::input::load_graph("kron:9", &Default::default()).unwrap();
        let err = run_scaling(
            "kron:9",
            &graph,
            LoadStage::default(),
            &threads(1),
            &[&Threads { deep_leaf: true, ..threads(2) }],
            &options(2),
            &mut |_| {},
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("distances sum to") && err.contains("validated traversal"), "{err}");
        // As a baseline, the same trees fail the edge rule.
        let err = run_scaling(
            "kron:9",
            &graph,
            LoadStage::default(),
            &Threads { deep_leaf: true, ..threads(1) },
            &[],
            &options(2),
            &mut |_| {},
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("at most one more"), "{err}");
    }

    #[test]
    fn the_baseline_is_one_rank() {
        let graph = crate::input::load_graph("kron:6", &Default::default()).unwrap();
        let err = run_scaling("kron:6", &graph, LoadStage::default(), &threads(2), &[], &options(1), &mut |_| {});
        assert!(matches!(err, Err(Error::InvalidArgument(m)) if m.contains("one rank")));
    }
}
