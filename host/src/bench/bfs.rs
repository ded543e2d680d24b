//! BFS as the harness runs it ([`BfsKernel`]): Graph500's roots, each traversal validated as a
//! BFS tree (or by the distance rules when only distances are labelled), GTEPS over the directed
//! edges of the component reached, and a payload with the GPU kernel's tuning, the per-level
//! trace of the first root and, for a graph in mapped host memory, what crossed the bus.

use serde::{Deserialize, Serialize};

use crate::bench::harness::{
    run_kernel, BenchKernel, BenchOptions, BenchRun, Environment, GraphOnGpu, Summarize, Timed, TrialRecord,
};
use crate::bench::stages::BUS_PROBE_BYTES;
use crate::bench::stats::{gteps, harmonic_mean, Spread};
use crate::bfs::gpu::{BottomUpBalance, BottomUpLaunch};
use crate::bfs::multi_source::ManyDirections;
use crate::bfs::verify::validate;
use crate::bfs::{random_sources, BfsResult, GpuKernel, KernelName, LevelTrace, SwitchRule, Traversal, Traverser};
use crate::error::{Error, Result};
use crate::gpu::Placement;
use crate::graph::Graph;

/// BFS's columns of a trial record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BfsTrial {
    pub depth: u32,
    /// Vertices reached, the root included.
    pub reached: u64,
    /// Graph500's count: undirected input edges in the component (`edges / 2`) for an
    /// undirected graph, the directed edges for a directed one.
    pub graph500_edges: u64,
    /// `graph500_edges / time`, in 10^9 edges per second.
    pub graph500_gteps: f64,
    /// Reading the labels back from the GPU (wall time; 0 on the CPU and in reports written
    /// before schema version 4).
    #[serde(default)]
    pub download_ms: f64,
    /// Bytes read back: distances, and parents unless distances only.
    #[serde(default)]
    pub download_bytes: u64,
}

/// One timed BFS: the root is its `source`, the directed edges of its component its `edges`.
pub type RootRecord = TrialRecord<BfsTrial>;

/// BFS's summary lines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BfsSummary {
    /// Harmonic mean over the roots of `graph500_gteps`.
    pub hmean_graph500_gteps: f64,
    pub depth: Spread,
    pub reached: Spread,
    /// The spread of the trials' `download_ms` (null in reports written before schema
    /// version 4).
    #[serde(default)]
    pub download_ms: Option<Spread>,
}

impl Summarize<BfsTrial> for BfsSummary {
    fn of(trials: &[RootRecord]) -> Option<BfsSummary> {
        let column = |f: fn(&RootRecord) -> f64| trials.iter().map(f).collect::<Vec<f64>>();
        Some(BfsSummary {
            hmean_graph500_gteps: harmonic_mean(&column(|r| r.details.graph500_gteps))?,
            depth: Spread::of(&column(|r| r.details.depth as f64))?,
            reached: Spread::of(&column(|r| r.details.reached as f64))?,
            download_ms: Spread::of(&column(|r| r.details.download_ms)),
        })
    }
}

/// What a BFS benchmark reports once per run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BfsPayload {
    /// The persistent kernel's tuning; `null` for the per-level kernel, the edge-queue
    /// strategies and on the CPU.
    #[serde(default)]
    pub gpu_params: Option<GpuParams>,
    /// `--distances-only`: the traversals labelled distances only (no parents; validated by the
    /// distance rules). False in reports written before the option existed.
    #[serde(default)]
    pub distances_only: bool,
    /// The per-level trace of the first root, with `--trace` or `--plot`.
    #[serde(default)]
    pub trace: Option<TraceRecord>,
    /// Bus traffic of the traced BFS against the measured host-to-device bandwidth; only for
    /// a zero-copy graph with a trace.
    #[serde(default)]
    pub bus: Option<BusRecord>,
    /// The same roots searched as one batch (`--batch`); `null` without it.
    #[serde(default)]
    pub batch: Option<BatchRecord>,
}

/// The roots searched as one batch by [`Traverser::run_many`] (`bench --batch`): 64 sources a
/// pass, bit-parallel, beside the single traversals of the trials.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BatchRecord {
    pub roots: usize,
    /// `bit-parallel`, or `one traversal a source` (a GPU graph without plain in-lists).
    pub searches: String,
    /// Timed batches, after one untimed warm-up whose distances were validated.
    pub runs: usize,
    /// The batch's time (kernels on the GPU, wall on the CPU) and its end-to-end time.
    pub time_ms: Spread,
    pub end_to_end_ms: Spread,
    /// On the GPU, bit-parallel: the same batch with every level bottom-up
    /// ([`ManyDirections::BottomUp`]), beside the default's switching; `null` otherwise (the
    /// CPU's switching pulls every level).
    #[serde(default)]
    pub bottom_up_time_ms: Option<Spread>,
    /// With `--trace`, on the GPU bit-parallel: one more batch of the first 64 roots, each level
    /// timed apart; `null` otherwise.
    #[serde(default)]
    pub levels: Option<Vec<BatchLevelRecord>>,
}

/// One level of a traced batch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BatchLevelRecord {
    pub level: u32,
    /// `top-down` (a push and a settle) or `bottom-up` (a pull).
    pub direction: String,
    /// Vertices that gained a source at the level, and their out-list entries.
    pub reached: u64,
    pub reached_edges: u64,
    /// CUDA events around the level's launches (the distances written before it included).
    pub time_ms: f64,
}

/// Searches `roots` as one batch `runs` times after a warm-up, every root's distances of the
/// warm-up validated by the Graph500 rules without the tree; on the GPU, bit-parallel, also
/// with every level bottom-up (validated the same way); where `trace`, one more batch traced
/// level by level.
pub fn run_batch(graph: &Graph, traverser: &Traverser, roots: &[u32], runs: usize, trace: bool) -> Result<BatchRecord> {
    // A validated warm-up, then the timed batches: kernel and end-to-end times.
    let timed = |directions: ManyDirections| -> Result<(Vec<f64>, Vec<f64>)> {
        let warm_up = traverser.run_many_with(roots, directions)?;
        for (&root, distances) in roots.iter().zip(warm_up.result) {
            validate(graph, &BfsResult { source: root, distances, parents: Vec::new() })?;
        }
        let (mut times, mut ends) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
        for _ in 0..runs.max(1) {
            let run = traverser.run_many_with(roots, directions)?;
            times.push(run.time.as_secs_f64() * 1e3);
            ends.push(run.end_to_end_time.as_secs_f64() * 1e3);
        }
        Ok((times, ends))
    };
    let (times, ends) = timed(ManyDirections::Switching)?;
    let bottom_up_time_ms = if traverser.runs_many_bit_parallel() && traverser.gpu().is_some() {
        Spread::of(&timed(ManyDirections::BottomUp)?.0)
    } else {
        None
    };
    let levels = match trace {
        true => traverser.trace_many(roots, ManyDirections::Switching)?.map(|levels| {
            levels
                .into_iter()
                .map(|level| BatchLevelRecord {
                    level: level.level,
                    direction: if level.pushed { "top-down" } else { "bottom-up" }.to_string(),
                    reached: level.reached,
                    reached_edges: level.reached_edges,
                    time_ms: level.time.as_secs_f64() * 1e3,
                })
                .collect()
        }),
        false => None,
    };
    Ok(BatchRecord {
        roots: roots.len(),
        searches: traverser.many_searches().to_string(),
        runs: times.len(),
        time_ms: Spread::of(&times).expect("at least one run"),
        end_to_end_ms: Spread::of(&ends).expect("at least one run"),
        bottom_up_time_ms,
        levels,
    })
}

/// Tuning of the persistent GPU kernel, as run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GpuParams {
    /// The switching rule (`beamer` in reports written before there was a choice).
    #[serde(default)]
    pub switch_rule: SwitchRule,
    /// The rule's alpha. Beamer's: bottom-up when frontier edges x alpha exceed the unvisited
    /// edges; XBFS's: bottom-up while frontier edges >= alpha x all edges.
    pub alpha: f32,
    /// Beamer's beta: back to top-down when the frontier x beta is below the vertex count.
    pub beta: f32,
    pub bottom_up: bool,
    /// Small frontiers handed to a single block.
    pub small_frontiers: bool,
    /// How bottom-up levels balance their work (`static` in reports written before it existed).
    #[serde(default)]
    pub bottom_up_balance: BottomUpBalance,
    /// Asynchronous bottom-up labeling (`--async-bottom-up`; false in reports written before
    /// it existed).
    #[serde(default)]
    pub async_bottom_up: bool,
    /// Adaptive frontier generation (`--frontier-generation adaptive`; false, i.e. fixed, in
    /// reports written before it existed).
    #[serde(default)]
    pub adaptive_frontier: bool,
    /// Bitmap words a warp takes at once bottom-up (`--bottom-up-chunk`; 0 for the kernel's
    /// choice, also in reports written before it existed).
    #[serde(default)]
    pub bottom_up_chunk: u32,
    /// Where each bottom-up stretch's first level runs (`--bottom-up-launch`; `auto` in reports
    /// written before it existed).
    #[serde(default)]
    pub bottom_up_launch: BottomUpLaunch,
}

impl GpuParams {
    /// The tuning of `kernel` when it is the persistent one.
    pub fn of(kernel: &GpuKernel) -> Option<GpuParams> {
        match kernel {
            GpuKernel::Persistent(p) | GpuKernel::Auto(p) => Some(GpuParams {
                switch_rule: p.switch_rule,
                adaptive_frontier: p.adaptive_frontier,
                alpha: p.alpha,
                beta: p.beta,
                bottom_up: p.bottom_up,
                small_frontiers: p.small_frontiers,
                bottom_up_balance: p.bottom_up_balance,
                async_bottom_up: p.async_bottom_up,
                bottom_up_chunk: p.bottom_up_chunk,
                bottom_up_launch: p.bottom_up_launch,
            }),
            GpuKernel::PerLevel | GpuKernel::TopDown(_) | GpuKernel::Cluster => None,
        }
    }
}

/// One level of a traced traversal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelRecord {
    pub level: u32,
    /// `top-down` or `bottom-up`.
    pub direction: String,
    /// Vertices in the frontier at the start of the level.
    pub frontier: u64,
    pub edges_inspected: u64,
    /// Graph bytes read and the same in whole 32-byte sectors (bus bytes when the graph is
    /// zero-copy); counted by the GPU kernels, 0 on the CPU and in reports written before
    /// they were recorded.
    #[serde(default)]
    pub bytes_read: u64,
    #[serde(default)]
    pub bus_bytes: u64,
    pub time_ms: f64,
    /// `m_f` and `m_u` as the switching rule saw them (0 where not recorded).
    #[serde(default)]
    pub frontier_edges: u64,
    #[serde(default)]
    pub unvisited_edges: u64,
    /// How the persistent kernel generated the frontier (`packed > scan-free`,
    /// `single-scan (predicted)`, ...); `null` on the CPU and the per-level kernel.
    #[serde(default)]
    pub generation: Option<String>,
    /// The switching rule's verdict in words; `null` where not recorded.
    #[serde(default)]
    pub decision: Option<String>,
}

impl From<&LevelTrace> for LevelRecord {
    fn from(t: &LevelTrace) -> Self {
        LevelRecord {
            level: t.level,
            direction: t.direction.to_string(),
            frontier: t.frontier,
            edges_inspected: t.edges_inspected,
            bytes_read: t.bytes_read,
            bus_bytes: t.bus_bytes,
            time_ms: t.time.as_secs_f64() * 1e3,
            frontier_edges: t.frontier_edges,
            unvisited_edges: t.unvisited_edges,
            generation: t.generation.map(|g| g.to_string()),
            decision: t.decision.clone(),
        }
    }
}

/// The per-level trace of one root.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceRecord {
    /// The root, numbered as in the input.
    pub source: u64,
    /// Time of the traced run (per-level events on the GPU add a little to it).
    pub time_ms: f64,
    pub levels: Vec<LevelRecord>,
    /// Vertices the levels enqueued (their frontiers, as the traversal counted them) over the
    /// vertices the result shows reached: 1.0 means no vertex was expanded twice (Merrill et
    /// al.'s redundant expansion factor). `null` in reports from before it was recorded.
    #[serde(default)]
    pub redundant_expansion: Option<f64>,
}

/// The bus, for a graph in mapped host memory: what the traced BFS read and how fast, against
/// the host-to-device copy bandwidth measured in the same run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BusRecord {
    /// Pinned host-to-device `cuMemcpy` bandwidth, bytes per second, this run.
    pub copy_bytes_per_s: f64,
    /// Graph bytes the traced BFS read (offsets and lists as stored), summed over its levels.
    pub list_bytes: u64,
    /// The same reads in whole 32-byte sectors: the bytes over the bus.
    pub bus_bytes: u64,
    /// The traced BFS's time.
    pub time_ms: f64,
    /// Of `list_bytes`, the neighbor lists alone (see [`edge_list_bytes`]); 0 in reports
    /// written before it was recorded.
    #[serde(default)]
    pub edge_list_bytes: u64,
}

/// Bytes of neighbor lists (offsets left out) that the traced levels read, from each level's
/// `bytes_read`: the kernels count 16 bytes of offsets for every vertex whose list they open,
/// which is each frontier vertex top-down and each unvisited vertex bottom-up (the vertices
/// not in this or an earlier frontier). With asynchronous bottom-up, vertices labeled ahead of
/// their level count as unvisited until their frontier, so this undercounts by 16 bytes each.
pub fn edge_list_bytes(levels: &[LevelRecord], vertices: u64) -> u64 {
    let mut visited = 0u64;
    let mut lists = 0u64;
    for level in levels {
        visited += level.frontier;
        let opened = if level.direction == "bottom-up" { vertices.saturating_sub(visited) } else { level.frontier };
        lists += level.bytes_read.saturating_sub(16 * opened);
    }
    lists
}

/// Graph500's edge count for a component with `edges_in_component` directed edges: an
/// undirected graph stores each input edge twice (self-loops are dropped when building), so
/// half; a directed graph's edges are its input edges.
pub fn graph500_edges(graph: &Graph, edges_in_component: u64) -> u64 {
    if graph.is_undirected() {
        edges_in_component / 2
    } else {
        edges_in_component
    }
}

/// The roots Graph500 would pick: `count` seeded random vertices of non-zero out-degree.
pub fn choose_roots(graph: &Graph, seed: u64, count: usize) -> Result<Vec<u32>> {
    if count == 0 {
        return Err(Error::InvalidArgument("the benchmark needs at least one root".into()));
    }
    let roots = random_sources(graph, seed, count);
    if roots.is_empty() {
        return Err(Error::InvalidArgument("the graph has no edges, so there is no root to start from".into()));
    }
    Ok(roots)
}

/// BFS on a prepared [`Traverser`].
pub struct BfsKernel<'t, 'g> {
    graph: &'g Graph,
    traverser: &'t Traverser<'g>,
    /// The last trial's result, whose vectors the next trial reads its labels into.
    spare: Option<BfsResult>,
}

impl<'t, 'g> BfsKernel<'t, 'g> {
    pub fn new(graph: &'g Graph, traverser: &'t Traverser<'g>) -> Self {
        BfsKernel { graph, traverser, spare: None }
    }
}

impl BenchKernel for BfsKernel<'_, '_> {
    const ALGORITHM: &'static str = "bfs";
    type Input = u32;
    type Output = Traversal;
    type Details = BfsTrial;
    type SummaryDetails = BfsSummary;
    type Payload = BfsPayload;

    fn inputs(&self, trials: usize, seed: u64) -> Result<Vec<u32>> {
        choose_roots(self.graph, seed, trials)
    }

    fn source(&self, root: u32) -> Option<u64> {
        Some(self.graph.external_id(root))
    }

    fn run(&mut self, root: u32) -> Result<Timed<Traversal>> {
        // The labels land in the traverser's pinned buffers, at the bus's rate; the copy into
        // a result for the verifier comes after the times were taken.
        let spare = self.spare.take().unwrap_or(BfsResult { source: root, distances: Vec::new(), parents: Vec::new() });
        let traversal = self.traverser.run_pinned(root)?.into_run(spare)?;
        let (time, end_to_end) = (traversal.time, traversal.end_to_end_time);
        Ok(Timed { output: traversal, time, end_to_end })
    }

    /// Graph500-style validation of the BFS tree; distances-only results by the distance rules
    /// ([`crate::verify::validate_distances`]).
    fn validate(&self, _root: u32, traversal: &Traversal) -> Result<()> {
        validate(self.graph, &traversal.result)
    }

    fn counted_edges(&self, _root: u32, traversal: &Traversal) -> u64 {
        traversal.result.edges_in_component(self.graph)
    }

    fn details(&self, root: u32, traversal: &Traversal, seconds: f64) -> BfsTrial {
        let result = &traversal.result;
        let graph500 = graph500_edges(self.graph, self.counted_edges(root, traversal));
        BfsTrial {
            depth: result.depth(),
            reached: result.reached(),
            graph500_edges: graph500,
            graph500_gteps: gteps(graph500, seconds),
            download_ms: traversal.download.time.as_secs_f64() * 1e3,
            download_bytes: traversal.download.bytes,
        }
    }

    fn recycle(&mut self, traversal: Traversal) {
        self.spare = Some(traversal.result);
    }

    fn payload(&mut self, first: u32, options: &BenchOptions) -> Result<BfsPayload> {
        let traverser = self.traverser;
        let trace = if options.trace {
            let (traversal, levels) = traverser.run_traced(first)?;
            validate(self.graph, &traversal.result)?;
            Some(TraceRecord {
                source: self.graph.external_id(first),
                time_ms: traversal.time.as_secs_f64() * 1e3,
                levels: levels.iter().map(LevelRecord::from).collect(),
                redundant_expansion: Some(
                    levels.iter().map(|l| l.frontier).sum::<u64>() as f64 / traversal.result.reached().max(1) as f64,
                ),
            })
        } else {
            None
        };
        let bus = match (traverser.gpu(), &trace, traverser.placement()) {
            (Some(gpu), Some(trace), Some(Placement::ZeroCopy)) => Some(BusRecord {
                copy_bytes_per_s: gpu.host_to_device_bandwidth(BUS_PROBE_BYTES)?,
                list_bytes: trace.levels.iter().map(|l| l.bytes_read).sum(),
                bus_bytes: trace.levels.iter().map(|l| l.bus_bytes).sum(),
                time_ms: trace.time_ms,
                edge_list_bytes: edge_list_bytes(&trace.levels, self.graph.num_vertices() as u64),
            }),
            _ => None,
        };
        Ok(BfsPayload {
            gpu_params: traverser.gpu().and_then(|_| GpuParams::of(&traverser.resolved_gpu_kernel())),
            distances_only: traverser.distances_only(),
            trace,
            bus,
            batch: None,
        })
    }

    fn environment(&self) -> Environment {
        let traverser = self.traverser;
        let graph = self.graph;
        Environment {
            backend: traverser.backend(),
            warnings: traverser.warnings().to_vec(),
            gpu_kernel: traverser.gpu().map(|_| KernelName::of(&traverser.resolved_gpu_kernel()).name().to_string()),
            device_graph_bytes: traverser.device_graph_bytes(),
            device_bytes: traverser.device_bytes(),
            cuda_driver: traverser
                .gpu()
                .and_then(|gpu| gpu.driver_version().ok())
                .map(|(major, minor)| format!("{major}.{minor}")),
            graph_on_gpu: traverser.placement().zip(traverser.gpu_graph_stored_bytes()).map(
                |(placement, stored_bytes)| GraphOnGpu {
                    placement: placement.to_string(),
                    offsets_placement: traverser.layout().map(|layout| layout.offsets.to_string()),
                    compressed: traverser.is_compressed(),
                    stored_bytes,
                    plain_bytes: GraphOnGpu::plain_bytes_of(graph),
                    list_heads: traverser.has_list_heads(),
                },
            ),
        }
    }
}

/// A finished BFS benchmark.
pub type BfsRun = BenchRun<BfsTrial, BfsSummary, BfsPayload>;

/// Runs the BFS benchmark on `traverser` through [`run_kernel`]: `options.trials` roots, each
/// traversal validated; `progress` is called after each timed root with the number done.
pub fn run_bench(
    graph: &Graph,
    traverser: &Traverser<'_>,
    options: &BenchOptions,
    progress: &mut dyn FnMut(usize),
) -> Result<BfsRun> {
    run_kernel(&mut BfsKernel::new(graph, traverser), options, progress)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::Backend;
    use crate::graph::{EdgeList, GraphBuilder};

    fn build(n: u64, edges: Vec<(u32, u32)>, undirected: bool) -> Graph {
        GraphBuilder::new().build(EdgeList::new(n, edges, undirected)).unwrap()
    }

    #[test]
    fn edge_list_bytes_leaves_out_the_offsets_of_every_opened_list() {
        // kron:22's plain zero-copy trace on an H100 (bench/results/2026-11-23-23d39a2-h100-compressed): plain
        // lists take 4 bytes an edge, so what remains must be exactly 4 x edges inspected.
        let level = |direction: &str, frontier: u64, edges_inspected: u64, bytes_read: u64| LevelRecord {
            level: 0,
            direction: direction.to_string(),
            frontier,
            edges_inspected,
            bytes_read,
            bus_bytes: 0,
            time_ms: 0.0,
            frontier_edges: 0,
            unvisited_edges: 0,
            generation: None,
            decision: None,
        };
        let levels = [
            level("top-down", 1, 2, 24),
            level("top-down", 2, 5927, 23740),
            level("bottom-up", 5729, 9256835, 104044492),
            level("bottom-up", 1383397, 1018970, 48958680),
            level("bottom-up", 996840, 9806, 28972584),
            level("top-down", 8265, 8392, 165808),
            level("top-down", 25, 25, 500),
        ];
        let vertices = 4194304;
        let edges: u64 = levels.iter().map(|l| l.edges_inspected).sum();
        assert_eq!(edge_list_bytes(&levels, vertices), 4 * edges);
    }

    #[test]
    fn graph500_count_halves_undirected_edges_only() {
        let undirected = build(4, vec![(0, 1), (1, 2)], true);
        assert_eq!(undirected.num_edges(), 4);
        assert_eq!(graph500_edges(&undirected, 4), 2);
        let directed = build(4, vec![(0, 1), (1, 2)], false);
        assert_eq!(graph500_edges(&directed, 2), 2);
    }

    #[test]
    fn records_count_the_component_by_hand() {
        // Two components: a triangle 0-1-2 plus a pendant 3 on 2, and a separate edge 4-5.
        // From any root in the first: 4 vertices reached, 4 undirected edges, 8 directed.
        let g = build(6, vec![(0, 1), (1, 2), (2, 0), (2, 3), (4, 5)], true);
        let traverser = Traverser::new(&g, Backend::Cpu).unwrap();
        let mut ticks = Vec::new();
        let run =
            run_bench(&g, &traverser, &BenchOptions { trials: 6, seed: 3, trace: true, traced: 0 }, &mut |done| {
                ticks.push(done)
            })
            .unwrap();
        assert_eq!((ticks, run.algorithm), (vec![1, 2, 3, 4, 5, 6], "bfs"));
        assert_eq!(run.trials.len(), 6);
        for r in &run.trials {
            let source = r.source.unwrap();
            let d = &r.details;
            if source >= 4 {
                assert_eq!((d.reached, r.edges, d.graph500_edges, d.depth), (2, 2, 1, 1));
            } else {
                assert_eq!((d.reached, r.edges, d.graph500_edges), (4, 8, 4));
                let expected_depth = match source {
                    0 | 1 => 2, // 0 -> 2 -> 3
                    2 => 1,
                    _ => 2, // 3 -> 2 -> {0, 1}
                };
                assert_eq!(d.depth, expected_depth, "root {source}");
            }
            assert!((d.graph500_gteps * 2.0 - r.gteps).abs() <= 1e-9 * r.gteps.max(1.0) || source >= 4);
        }
        // All six vertices have edges, so the six roots are the six vertices.
        let mut sources: Vec<u64> = run.trials.iter().map(|r| r.source.unwrap()).collect();
        sources.sort();
        assert_eq!(sources, vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(run.summary.details.reached, Spread { min: 2.0, median: 4.0, max: 4.0 });
        let trace = run.payload.trace.unwrap();
        assert_eq!(Some(trace.source), run.trials[0].source);
        assert_eq!(trace.levels.iter().map(|l| l.frontier).sum::<u64>(), run.trials[0].details.reached);
        assert_eq!(trace.redundant_expansion, Some(1.0));
        // On the CPU: no GPU kernel, tuning or bus.
        assert_eq!((run.environment.gpu_kernel, run.payload.gpu_params, run.payload.bus), (None, None, None));
    }

    #[test]
    fn no_roots_is_an_error() {
        let g = build(3, vec![(0, 1)], true);
        let traverser = Traverser::new(&g, Backend::Cpu).unwrap();
        let err = run_bench(&g, &traverser, &BenchOptions { trials: 0, seed: 1, trace: false, traced: 0 }, &mut |_| {});
        assert!(matches!(err, Err(Error::InvalidArgument(_))));
        let empty = build(3, vec![], true);
        assert!(choose_roots(&empty, 1, 4).is_err());
    }
}
