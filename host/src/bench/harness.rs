//! Running a benchmark: N roots on one prepared [`Traverser`], one untimed warm-up, every
//! traversal validated, one record per root and a summary.

use serde::{Deserialize, Serialize};

use crate::bench::stats::{gteps, harmonic_mean, Spread};
use crate::bfs::{random_sources, BackendUsed, LevelTrace, Traverser};
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::bfs::verify::validate;

/// What to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchOptions {
    /// Timed traversals, one per root (Graph500 uses 64).
    pub roots: usize,
    /// Seed for choosing the roots.
    pub seed: u64,
    /// Also run the first root once more with a per-level trace (untimed for the summary).
    pub trace: bool,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions { roots: 64, seed: 1, trace: false }
    }
}

/// One timed traversal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RootRecord {
    /// The root, numbered as in the input (1-based for .mtx and .gr files).
    pub source: u64,
    /// The traversal alone: CUDA events around it on the GPU, wall time on the CPU.
    pub time_ms: f64,
    /// Including the graph's upload and the result's download (equal to `time_ms` on the CPU).
    pub end_to_end_ms: f64,
    pub depth: u32,
    /// Vertices reached, the root included.
    pub reached: u64,
    /// Directed edges leaving reached vertices (an undirected edge counts twice): the count the
    /// seed papers divide by the time.
    pub edges_in_component: u64,
    /// Graph500's count: undirected input edges in the component (`edges_in_component / 2`)
    /// for an undirected graph, the directed edges for a directed one.
    pub graph500_edges: u64,
    /// `edges_in_component / time`, in 10^9 edges per second.
    pub gteps: f64,
    /// `graph500_edges / time`, in 10^9 edges per second.
    pub graph500_gteps: f64,
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

/// Summary over all roots.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub roots: usize,
    /// Traversals that passed validation (always `roots`: a failure is an error).
    pub validated: usize,
    pub time_ms: Spread,
    pub end_to_end_ms: Spread,
    /// Harmonic mean over the roots of `gteps`.
    pub hmean_gteps: f64,
    /// Harmonic mean over the roots of `graph500_gteps`.
    pub hmean_graph500_gteps: f64,
    pub depth: Spread,
    pub reached: Spread,
}

impl Summary {
    /// The summary of `records`; `None` when there are none.
    pub fn of(records: &[RootRecord]) -> Option<Summary> {
        let column = |f: fn(&RootRecord) -> f64| records.iter().map(f).collect::<Vec<f64>>();
        Some(Summary {
            roots: records.len(),
            validated: records.len(),
            time_ms: Spread::of(&column(|r| r.time_ms))?,
            end_to_end_ms: Spread::of(&column(|r| r.end_to_end_ms))?,
            hmean_gteps: harmonic_mean(&column(|r| r.gteps))?,
            hmean_graph500_gteps: harmonic_mean(&column(|r| r.graph500_gteps))?,
            depth: Spread::of(&column(|r| r.depth as f64))?,
            reached: Spread::of(&column(|r| r.reached as f64))?,
        })
    }
}

/// How the GPU holds the graph.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GraphOnGpu {
    /// Where the lists are: `device` or `zero-copy`.
    pub placement: String,
    /// Where the offsets are (device memory when they fit, even for zero-copy lists).
    #[serde(default)]
    pub offsets_placement: Option<String>,
    /// Delta-varint compressed lists, decoded by the kernels.
    pub compressed: bool,
    /// Bytes of offsets and lists (graph and transpose) as held: compressed or plain.
    pub stored_bytes: u64,
    /// What the plain CSR takes (`8(n+1) + 4m` per copy), for the compression ratio.
    pub plain_bytes: u64,
    /// The first in-neighbors of every list are in device memory beside zero-copy lists.
    #[serde(default)]
    pub list_heads: bool,
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

/// A finished benchmark on one backend.
#[derive(Clone, Debug)]
pub struct BenchRun {
    pub backend: BackendUsed,
    /// Warnings from preparing the backend (a fallback to the CPU, say).
    pub warnings: Vec<String>,
    /// Device bytes the graph occupies (GPU only).
    pub device_graph_bytes: Option<u64>,
    /// Device bytes warpath allocates for a traversal: graph, transpose and the kernel's
    /// per-vertex arrays ([`Traverser::device_bytes`]; computed, GPU only).
    pub device_bytes: Option<u64>,
    /// The CUDA version the driver supports, e.g. `12.8` (GPU only; `None` if it cannot be asked).
    pub cuda_driver: Option<String>,
    /// Placement and format of the graph (GPU only).
    pub graph_on_gpu: Option<GraphOnGpu>,
    pub roots: Vec<RootRecord>,
    pub summary: Summary,
    pub trace: Option<TraceRecord>,
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
        return Err(Error::InvalidArgument("the benchmark needs at least one root (--roots 1 or more)".into()));
    }
    let roots = random_sources(graph, seed, count);
    if roots.is_empty() {
        return Err(Error::InvalidArgument("the graph has no edges, so there is no root to start from".into()));
    }
    Ok(roots)
}

/// Runs the benchmark: one untimed warm-up from the first root, then one timed traversal per
/// root, each validated Graph500-style (a failure is returned as [`Error::Verification`] naming
/// the root); distances-only traversals by the distance rules
/// ([`crate::bfs::verify::validate_distances`]). `progress` is called after each timed root with the
/// number done so far.
pub fn run_bench(
    graph: &Graph,
    traverser: &Traverser<'_>,
    options: &BenchOptions,
    progress: &mut dyn FnMut(usize),
) -> Result<BenchRun> {
    let roots = choose_roots(graph, options.seed, options.roots)?;
    let warm_up = traverser.run(roots[0])?;
    drop(warm_up);

    let mut records = Vec::with_capacity(roots.len());
    for (i, &root) in roots.iter().enumerate() {
        let traversal = traverser.run(root)?;
        let result = &traversal.result;
        validate(graph, result).map_err(|err| match err {
            Error::Verification(message) => {
                Error::Verification(format!("root {} (run {}): {message}", graph.external_id(root), i + 1))
            }
            other => other,
        })?;
        let seconds = traversal.traversal_time.as_secs_f64();
        let edges_in_component = result.edges_in_component(graph);
        let graph500 = graph500_edges(graph, edges_in_component);
        records.push(RootRecord {
            source: graph.external_id(root),
            time_ms: seconds * 1e3,
            end_to_end_ms: traversal.end_to_end_time.as_secs_f64() * 1e3,
            depth: result.depth(),
            reached: result.reached(),
            edges_in_component,
            graph500_edges: graph500,
            gteps: gteps(edges_in_component, seconds),
            graph500_gteps: gteps(graph500, seconds),
        });
        progress(i + 1);
    }

    let trace = if options.trace {
        let (traversal, levels) = traverser.run_traced(roots[0])?;
        validate(graph, &traversal.result)?;
        Some(TraceRecord {
            source: graph.external_id(roots[0]),
            time_ms: traversal.traversal_time.as_secs_f64() * 1e3,
            levels: levels.iter().map(LevelRecord::from).collect(),
            redundant_expansion: Some(
                levels.iter().map(|l| l.frontier).sum::<u64>() as f64 / traversal.result.reached().max(1) as f64,
            ),
        })
    } else {
        None
    };

    let summary = Summary::of(&records).expect("at least one root was run");
    Ok(BenchRun {
        backend: traverser.backend(),
        warnings: traverser.warnings().to_vec(),
        device_graph_bytes: traverser.device_graph_bytes(),
        device_bytes: traverser.device_bytes(),
        cuda_driver: traverser
            .gpu()
            .and_then(|gpu| gpu.driver_version().ok())
            .map(|(major, minor)| format!("{major}.{minor}")),
        graph_on_gpu: traverser.placement().zip(traverser.gpu_graph_stored_bytes()).map(|(placement, stored_bytes)| {
            let copies = if graph.is_undirected() { 1 } else { 2 };
            GraphOnGpu {
                placement: placement.to_string(),
                offsets_placement: traverser.layout().map(|layout| layout.offsets.to_string()),
                compressed: traverser.is_compressed(),
                stored_bytes,
                plain_bytes: copies * (8 * (graph.num_vertices() as u64 + 1) + 4 * graph.num_edges()),
                list_heads: traverser.has_list_heads(),
            }
        }),
        roots: records,
        summary,
        trace,
    })
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
        // kron:22's plain zero-copy trace on an H100 (bench/results, commit 23d39a2): plain
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
            run_bench(&g, &traverser, &BenchOptions { roots: 6, seed: 3, trace: true }, &mut |done| ticks.push(done))
                .unwrap();
        assert_eq!(ticks, vec![1, 2, 3, 4, 5, 6]);
        assert_eq!(run.roots.len(), 6);
        for r in &run.roots {
            if r.source >= 4 {
                assert_eq!((r.reached, r.edges_in_component, r.graph500_edges, r.depth), (2, 2, 1, 1));
            } else {
                assert_eq!((r.reached, r.edges_in_component, r.graph500_edges), (4, 8, 4));
                let expected_depth = match r.source {
                    0 | 1 => 2, // 0 -> 2 -> 3
                    2 => 1,
                    _ => 2, // 3 -> 2 -> {0, 1}
                };
                assert_eq!(r.depth, expected_depth, "root {}", r.source);
            }
            assert!((r.graph500_gteps * 2.0 - r.gteps).abs() <= 1e-9 * r.gteps.max(1.0) || r.source >= 4);
        }
        // All six vertices have edges, so the six roots are the six vertices.
        let mut sources: Vec<u64> = run.roots.iter().map(|r| r.source).collect();
        sources.sort();
        assert_eq!(sources, vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(run.summary.reached, Spread { min: 2.0, median: 4.0, max: 4.0 });
        let trace = run.trace.unwrap();
        assert_eq!(trace.source, run.roots[0].source);
        assert_eq!(trace.levels.iter().map(|l| l.frontier).sum::<u64>(), run.roots[0].reached);
        assert_eq!(trace.redundant_expansion, Some(1.0));
    }

    #[test]
    fn no_roots_is_an_error() {
        let g = build(3, vec![(0, 1)], true);
        let traverser = Traverser::new(&g, Backend::Cpu).unwrap();
        let err = run_bench(&g, &traverser, &BenchOptions { roots: 0, seed: 1, trace: false }, &mut |_| {});
        assert!(matches!(err, Err(Error::InvalidArgument(_))));
        let empty = build(3, vec![], true);
        assert!(choose_roots(&empty, 1, 4).is_err());
    }
}
