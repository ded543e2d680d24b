//! GPU top-down BFS over edge queues in one persistent kernel (`bfs_edge_queue` in
//! `device/src/kernels/bfs_edge_queue.rs`, which documents the techniques): Merrill et al.'s
//! contract-expand, two-phase and hybrid strategies. The host allocates the queues,
//! launches once, and reads back the labels and a per-level trace.

use std::time::Duration;

use cudarc::driver::CudaSlice;

use crate::bfs::trace::{Direction, LevelTrace};
use warpath_interface::bfs::edge_queue::{
    EdgeQueueControl, EdgeQueueKind, EdgeQueueStrategy, EdgeTraceFlags, EdgeTraceRecord, EDGE_QUEUE_CONTROL_WORDS,
    EDGE_TRACE_WORDS,
};
use warpath_interface::names;

use crate::bfs::gpu::launch::{self as kernels, EdgeQueueBuffers};
use crate::bfs::gpu::persistent::{download_labels, LabelsTarget, PersistentRun};
use crate::bfs::strategy::TopDownStrategy;
use crate::bfs::BfsResult;
use crate::gpu::launch::time_on_device;
use crate::gpu::{DeviceGraph, GpuContext, GpuError};
use crate::graph::Graph;

/// Levels recorded in the trace; deeper levels still run, untraced.
const TRACE_CAPACITY: usize = 1 << 16;

/// Whether the kernel should spread a small level's queue items over the warps of every
/// block, for a graph whose longest out-list has `max_out_degree` edges: when some list is long
/// enough for a warp to enlist it (32 edges), which a warp then copies alone. Where every list
/// is shorter (roads, grids), the block-wide packed copy does not care where an item sits, and
/// contiguous tiles measured faster (bench/NOTES.md 28).
pub fn spreads_tiles(max_out_degree: u64) -> bool {
    max_out_degree >= 32
}

/// The edge-queue kernel's device arrays (labels, visited bitmap, queues, control block,
/// trace), owned apart from the graph they serve so that a prepared graph (`bfs::Traverser`)
/// keeps them from one traversal to the next: every run resets what it reads.
pub struct EdgeQueueArrays {
    distances: CudaSlice<u32>,
    parents: Option<CudaSlice<u32>>,
    visited: CudaSlice<u32>,
    vertex_queue: CudaSlice<u32>,
    edge_queues: CudaSlice<u32>,
    parent_queues: Option<CudaSlice<u32>>,
    control: CudaSlice<u64>,
    trace: CudaSlice<u64>,
}

impl EdgeQueueArrays {
    /// Allocates the arrays, or says why not: a compressed graph, 2^32 edges or more, or
    /// queues that do not fit in the free device memory (each error names the way out).
    pub fn new(
        gpu: &GpuContext,
        graph: &Graph,
        device_graph: &DeviceGraph,
        distances_only: bool,
    ) -> Result<Self, GpuError> {
        if device_graph.is_compressed() {
            return Err(GpuError::Unsupported(
                "the edge-queue strategies read plain CSR lists, and this graph is compressed: place it \
                 uncompressed, or use the top-down kernel (expand-contract)"
                    .into(),
            ));
        }
        let m = graph.num_edges();
        if m >= 1 << 32 {
            return Err(GpuError::Unsupported(format!(
                "{m} edges: the edge-queue strategies count a level's queue in 32 bits; use the top-down kernel \
                 (expand-contract)"
            )));
        }
        let n = graph.num_vertices().max(1);
        gpu.ensure_free(
            GpuEdgeQueue::bytes_needed(n as u32, m, distances_only),
            "the edge queues of the contract-expand/two-phase/hybrid strategies (the top-down kernel, expand-contract, \
             needs none)",
        )?;
        let capacity = 2 * m.max(1) as usize;
        Ok(EdgeQueueArrays {
            distances: gpu.alloc_zeros(n, "BFS distances")?,
            parents: if distances_only { None } else { Some(gpu.alloc_zeros(n, "BFS parents")?) },
            visited: gpu.alloc_zeros(n.div_ceil(32), "the visited bitmap")?,
            vertex_queue: gpu.alloc_zeros(n, "the vertex queue")?,
            edge_queues: gpu.alloc_zeros(capacity, "the edge queues")?,
            parent_queues: if distances_only { None } else { Some(gpu.alloc_zeros(capacity, "the parent queues")?) },
            control: gpu.alloc_zeros(EDGE_QUEUE_CONTROL_WORDS, "the BFS control block")?,
            trace: gpu.alloc_zeros(EDGE_TRACE_WORDS * (TRACE_CAPACITY + 1), "the level trace")?,
        })
    }

    /// Whether these arrays label distances only (no parents array).
    pub fn distances_only(&self) -> bool {
        self.parents.is_none()
    }
}

/// Device buffers for repeated edge-queue BFS runs on one graph.
pub struct GpuEdgeQueue<'g> {
    gpu: &'g GpuContext,
    graph: &'g Graph,
    device_graph: &'g DeviceGraph,
    arrays: EdgeQueueArrays,
    /// [`spreads_tiles`] of the graph.
    spread_tiles: bool,
}

impl<'g> GpuEdgeQueue<'g> {
    /// Device bytes for `n` vertices and `m` edges: labels, visited bitmap, vertex queue, and
    /// two edge queues of `m` entries (and two parent queues unless `distances_only`).
    pub fn bytes_needed(n: u32, m: u64, distances_only: bool) -> u64 {
        let n = n.max(1) as u64;
        let labels = if distances_only { 1 } else { 2 };
        let queues = if distances_only { 2 } else { 4 };
        4 * (labels * n + n.div_ceil(32) + n)
            + 4 * queues * m.max(1)
            + 8 * (EDGE_QUEUE_CONTROL_WORDS + EDGE_TRACE_WORDS * (TRACE_CAPACITY + 1)) as u64
    }

    /// Allocates the buffers, or says why not ([`EdgeQueueArrays::new`]).
    pub fn new(
        gpu: &'g GpuContext,
        graph: &'g Graph,
        device_graph: &'g DeviceGraph,
        distances_only: bool,
    ) -> Result<Self, GpuError> {
        Self::with_max_out_degree(gpu, graph, device_graph, graph.max_degree(), distances_only)
    }

    /// [`new`](Self::new) with the graph's largest out-degree already known (the `Traverser`
    /// keeps it), sparing a pass over the offsets for every traversal.
    pub fn with_max_out_degree(
        gpu: &'g GpuContext,
        graph: &'g Graph,
        device_graph: &'g DeviceGraph,
        max_out_degree: u64,
        distances_only: bool,
    ) -> Result<Self, GpuError> {
        let arrays = EdgeQueueArrays::new(gpu, graph, device_graph, distances_only)?;
        Ok(Self::with_arrays(gpu, graph, device_graph, max_out_degree, arrays))
    }

    /// [`with_max_out_degree`](Self::with_max_out_degree) over arrays made earlier for the
    /// same graph ([`into_arrays`](Self::into_arrays) gives them back after the runs).
    pub fn with_arrays(
        gpu: &'g GpuContext,
        graph: &'g Graph,
        device_graph: &'g DeviceGraph,
        max_out_degree: u64,
        arrays: EdgeQueueArrays,
    ) -> Self {
        GpuEdgeQueue { gpu, graph, device_graph, arrays, spread_tiles: spreads_tiles(max_out_degree) }
    }

    /// The device arrays, to keep for the next runs on the same graph.
    pub fn into_arrays(self) -> EdgeQueueArrays {
        self.arrays
    }

    /// A BFS from `source` (an internal id `< n`; the caller checks it) by `strategy`, one of
    /// the three edge-queue strategies, with its per-level trace.
    pub fn run(&mut self, source: u32, strategy: TopDownStrategy) -> Result<PersistentRun, GpuError> {
        let labels = BfsResult { source, distances: Vec::new(), parents: Vec::new() };
        self.run_reusing(source, strategy, true, LabelsTarget::Vectors(labels))
    }

    /// [`run`](Self::run), reading the labels back where `labels` says (a previous result's
    /// vectors, their memory reused, or pinned buffers), and the trace only when `trace`
    /// (else `levels` is empty).
    pub fn run_reusing(
        &mut self,
        source: u32,
        strategy: TopDownStrategy,
        trace: bool,
        labels: LabelsTarget<'_>,
    ) -> Result<PersistentRun, GpuError> {
        let kind = match strategy {
            TopDownStrategy::ContractExpand => EdgeQueueKind::ContractExpand,
            TopDownStrategy::TwoPhase => EdgeQueueKind::TwoPhase,
            TopDownStrategy::Hybrid => EdgeQueueKind::Hybrid,
            other => {
                return Err(GpuError::Contract {
                    kernel: names::BFS_EDGE_QUEUE,
                    problem: format!("strategy {other}, which does not run over an edge queue"),
                })
            }
        };
        let code = EdgeQueueStrategy::new(kind, self.spread_tiles);
        let gpu = self.gpu;
        let n = self.graph.num_vertices();
        let arrays = &mut self.arrays;
        gpu.zero(&mut arrays.control)?;
        gpu.zero(&mut arrays.trace)?;
        let mut buffers = EdgeQueueBuffers {
            distances: &mut arrays.distances,
            parents: arrays.parents.as_mut(),
            visited: &mut arrays.visited,
            vertex_queue: &mut arrays.vertex_queue,
            edge_queues: &mut arrays.edge_queues,
            parent_queues: arrays.parent_queues.as_mut(),
            control: &mut arrays.control,
            trace: &mut arrays.trace,
        };
        let launch = || kernels::bfs_edge_queue(gpu, self.device_graph, source, &mut buffers, code);
        let kernel_ms = time_on_device(gpu, names::BFS_EDGE_QUEUE, launch)?.as_secs_f64() * 1e3;
        let (result, download) = download_labels(gpu, source, &arrays.distances, arrays.parents.as_ref(), n, labels)?;
        let levels = if trace {
            let control: EdgeQueueControl =
                *bytemuck::from_bytes(bytemuck::cast_slice(&gpu.download(&arrays.control)?));
            let mut records = vec![0u64; EDGE_TRACE_WORDS * ((control.levels as usize).min(TRACE_CAPACITY) + 1)];
            gpu.download_into(&arrays.trace, &mut records)?;
            decode_edge_trace(&records, control.levels as usize)
        } else {
            Vec::new()
        };
        Ok(PersistentRun { result, kernel_ms, levels, download })
    }
}

/// Turns the kernel's trace records into [`LevelTrace`]s: level `l` expanded the `claimed`
/// vertices of its frontier and inspected (contracted) the edge-queue items its level held;
/// `decision` says whether it ran fused (contract-expand, and then whether block 0 ran it
/// alone or the sub-grid ran it) or in two phases, or in one cluster (the cluster kernel
/// writes these records too). The
/// frontiers' out-edges come from the queue sizes: level `l + 1` contracts what `l` expanded,
/// and the record after the last level holds no items.
pub fn decode_edge_trace(trace: &[u64], levels: usize) -> Vec<LevelTrace> {
    let recorded = levels.min(TRACE_CAPACITY);
    let records: &[EdgeTraceRecord] = bytemuck::cast_slice(trace);
    (0..recorded)
        .map(|level| {
            let (this, next) = (&records[level], &records[level + 1]);
            LevelTrace {
                level: level as u32,
                direction: Direction::TopDown,
                frontier: this.claimed,
                edges_inspected: this.items,
                bytes_read: 0,
                bus_bytes: 0,
                time: Duration::from_nanos(next.start_time.saturating_sub(this.start_time)),
                frontier_edges: next.items,
                unvisited_edges: 0,
                generation: None,
                decision: Some(
                    if EdgeTraceFlags(this.flags).contains(EdgeTraceFlags::CLUSTER) {
                        "one cluster"
                    } else if !EdgeTraceFlags(this.flags).contains(EdgeTraceFlags::FUSED) {
                        "two-phase"
                    } else if EdgeTraceFlags(this.flags).contains(EdgeTraceFlags::ALONE) {
                        "contract-expand, one block"
                    } else if EdgeTraceFlags(this.flags).contains(EdgeTraceFlags::SUB_GRID) {
                        "contract-expand, sub-grid"
                    } else {
                        "contract-expand"
                    }
                    .to_string(),
                ),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoding_reads_items_claims_times_and_the_fused_flag() {
        // Level 0 (the source) expands 2 edges; level 1 contracts them, two-phase, claims 2
        // and expands 4; level 2 contracts those fused, claims 3 and expands 3; block 0 alone
        // contracts those at level 3 and claims none; the end record.
        let trace = [
            [0, 0, 1, 1_000],
            [0, 2, 2, 3_000],
            [EdgeTraceFlags::FUSED.bits(), 4, 3, 4_000],
            [EdgeTraceFlags::FUSED.bits() | EdgeTraceFlags::ALONE.bits(), 3, 0, 4_500],
            [EdgeTraceFlags::FUSED.bits() | EdgeTraceFlags::SUB_GRID.bits(), 0, 0, 4_550],
            [0, 0, 0, 4_600],
        ]
        .concat();
        let levels = decode_edge_trace(&trace, 5);
        let frontiers: Vec<u64> = levels.iter().map(|l| l.frontier).collect();
        assert_eq!(frontiers, [1, 2, 3, 0, 0]);
        let inspected: Vec<u64> = levels.iter().map(|l| l.edges_inspected).collect();
        assert_eq!(inspected, [0, 2, 4, 3, 0]);
        assert_eq!(levels[4].decision.as_deref(), Some("contract-expand, sub-grid"));
        assert_eq!((levels[0].frontier_edges, levels[1].frontier_edges), (2, 4));
        assert_eq!(levels[1].time, Duration::from_nanos(1_000));
        assert_eq!(levels[2].time, Duration::from_nanos(500));
        assert_eq!(levels[1].decision.as_deref(), Some("two-phase"));
        assert_eq!(levels[2].decision.as_deref(), Some("contract-expand"));
        assert_eq!(levels[3].decision.as_deref(), Some("contract-expand, one block"));
    }

    #[test]
    fn the_cluster_kernels_records_decode_as_one_cluster() {
        let flags = EdgeTraceFlags::CLUSTER.bits();
        let trace = [[flags, 0, 1, 1_000], [flags, 3, 0, 1_700], [0, 0, 0, 2_000]].concat();
        let levels = decode_edge_trace(&trace, 2);
        assert_eq!(levels[0].decision.as_deref(), Some("one cluster"));
        assert_eq!((levels[0].frontier_edges, levels[1].edges_inspected), (3, 3));
        assert_eq!(levels[1].time, Duration::from_nanos(300));
    }

    #[test]
    fn tiles_spread_on_graphs_with_lists_a_warp_enlists() {
        use crate::generate::{generate, GeneratorSpec};
        let graph = |spec: &str| generate(&spec.parse::<GeneratorSpec>().unwrap(), 1).unwrap();
        // Every vertex of a grid has at most 4 neighbors; a Kronecker graph has hubs.
        assert!(!spreads_tiles(graph("grid2d:20").max_degree()));
        assert!(spreads_tiles(graph("kron:12").max_degree()));
        let star = crate::graph::GraphBuilder::new()
            .build(crate::graph::EdgeList::new(33, (1..33).map(|v| (0, v)).collect(), true))
            .unwrap();
        assert!(spreads_tiles(star.max_degree()));
    }
}
