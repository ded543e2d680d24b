//! GPU BFS in one Hopper thread-block cluster (`bfs_cluster` in `device/src/bfs/cluster.rs`,
//! which documents the technique): the host allocates the labels and the parent slots,
//! launches once, and reads back the labels and a per-level trace in the edge-queue kernel's
//! record format.

use cudarc::driver::CudaSlice;
use warpath_interface::bfs::edge_queue::EDGE_TRACE_WORDS;
use warpath_interface::cluster::CLUSTER_MAX_VERTICES;
use warpath_interface::names;

use crate::bfs::gpu::edge_queue::decode_edge_trace;
use crate::bfs::gpu::launch::{self as kernels, ClusterBuffers};
use crate::bfs::gpu::persistent::{download_labels, LabelsTarget, PersistentRun};
use crate::gpu::launch::{self, time_on_device};
use crate::gpu::{DeviceGraph, GpuContext, GpuError};
use crate::graph::Graph;

/// Levels recorded in the trace; deeper levels still run, untraced.
const TRACE_CAPACITY: usize = 1 << 16;

/// Why the cluster kernel cannot run on `device_graph` on `gpu`, or None when it can
/// ([`launch::cluster_refusal`]: compute capability 9.0, plain lists, fewer than 2^32 edges),
/// and at most [`CLUSTER_MAX_VERTICES`] vertices (its bitmaps live in shared memory).
pub fn cluster_refusal(gpu: &GpuContext, device_graph: &DeviceGraph) -> Option<String> {
    launch::cluster_refusal(gpu, device_graph, "the cluster BFS", CLUSTER_MAX_VERTICES)
}

/// The cluster kernel's device arrays (labels, parent slots, the init kernel's bitmap and
/// queue, level count, trace), kept by a prepared graph from one traversal to the next.
pub struct ClusterArrays {
    distances: CudaSlice<u32>,
    parents: Option<CudaSlice<u32>>,
    candidates: Option<CudaSlice<u32>>,
    visited: CudaSlice<u32>,
    queue: CudaSlice<u32>,
    levels: CudaSlice<u32>,
    trace: CudaSlice<u64>,
}

impl ClusterArrays {
    /// Allocates the arrays for `n` vertices, or says why not.
    pub fn new(gpu: &GpuContext, n: usize, distances_only: bool) -> Result<Self, GpuError> {
        let n = n.max(1);
        gpu.ensure_free(GpuCluster::bytes_needed(n as u32, distances_only), "the cluster BFS's labels")?;
        Ok(ClusterArrays {
            distances: gpu.alloc_zeros(n, "BFS distances")?,
            parents: if distances_only { None } else { Some(gpu.alloc_zeros(n, "BFS parents")?) },
            candidates: if distances_only { None } else { Some(gpu.alloc_zeros(2 * n, "the parent slots")?) },
            visited: gpu.alloc_zeros(n.div_ceil(32), "the visited bitmap")?,
            queue: gpu.alloc_zeros(1, "the first queue")?,
            levels: gpu.alloc_zeros(1, "the level count")?,
            trace: gpu.alloc_zeros(EDGE_TRACE_WORDS * (TRACE_CAPACITY + 1), "the level trace")?,
        })
    }

    /// The distances of the last run, on the device (unreached: `u32::MAX`).
    pub fn distances(&self) -> &CudaSlice<u32> {
        &self.distances
    }
}

/// Device buffers for repeated cluster BFS runs on one graph.
pub struct GpuCluster<'g> {
    gpu: &'g GpuContext,
    graph: &'g Graph,
    device_graph: &'g DeviceGraph,
    arrays: ClusterArrays,
}

impl<'g> GpuCluster<'g> {
    /// Device bytes for `n` vertices: labels, two parent slots a vertex (none for distances
    /// only), the init kernel's bitmap, and the trace.
    pub fn bytes_needed(n: u32, distances_only: bool) -> u64 {
        let n = n.max(1) as u64;
        let words = if distances_only { 1 } else { 4 };
        4 * (words * n + n.div_ceil(32) + 2) + 8 * (EDGE_TRACE_WORDS * (TRACE_CAPACITY + 1)) as u64
    }

    /// Allocates the buffers, or says why not (including [`cluster_refusal`]'s reasons).
    pub fn new(
        gpu: &'g GpuContext,
        graph: &'g Graph,
        device_graph: &'g DeviceGraph,
        distances_only: bool,
    ) -> Result<Self, GpuError> {
        if let Some(refusal) = cluster_refusal(gpu, device_graph) {
            return Err(GpuError::Unsupported(refusal));
        }
        let arrays = ClusterArrays::new(gpu, graph.num_vertices(), distances_only)?;
        Ok(Self::with_arrays(gpu, graph, device_graph, arrays))
    }

    /// Over arrays made earlier for the same graph ([`into_arrays`](Self::into_arrays) gives
    /// them back after the runs). The caller has checked [`cluster_refusal`], as [`new`](Self::new)
    /// does, before making them: the runs do not check again.
    pub fn with_arrays(
        gpu: &'g GpuContext,
        graph: &'g Graph,
        device_graph: &'g DeviceGraph,
        arrays: ClusterArrays,
    ) -> Self {
        GpuCluster { gpu, graph, device_graph, arrays }
    }

    /// The device arrays, to keep for the next runs on the same graph.
    pub fn into_arrays(self) -> ClusterArrays {
        self.arrays
    }

    /// A BFS from `source` (an internal id `< n`; the caller checks it), with its trace.
    pub fn run(&mut self, source: u32) -> Result<PersistentRun, GpuError> {
        let labels = crate::bfs::BfsResult { source, distances: Vec::new(), parents: Vec::new() };
        self.run_reusing(source, true, LabelsTarget::Vectors(labels))
    }

    /// A BFS from `source` whose labels stay on the device, read there through
    /// [`ClusterArrays::distances`] by another kernel. Returns the kernel's device time.
    pub fn run_on_device(&mut self, source: u32) -> Result<std::time::Duration, GpuError> {
        let gpu = self.gpu;
        let arrays = &mut self.arrays;
        let buffers = ClusterBuffers {
            distances: &mut arrays.distances,
            parents: arrays.parents.as_mut(),
            candidates: arrays.candidates.as_mut(),
            visited: &mut arrays.visited,
            queue: &mut arrays.queue,
            levels: &mut arrays.levels,
            trace: &mut arrays.trace,
        };
        time_on_device(gpu, names::BFS_CLUSTER, || kernels::bfs_cluster(gpu, self.device_graph, source, buffers))
    }

    /// [`run`](Self::run), reading the labels back where `labels` says, and the trace only
    /// when `trace` (else `levels` is empty).
    pub fn run_reusing(
        &mut self,
        source: u32,
        trace: bool,
        labels: LabelsTarget<'_>,
    ) -> Result<PersistentRun, GpuError> {
        let gpu = self.gpu;
        let n = self.graph.num_vertices();
        let kernel_ms = self.run_on_device(source)?.as_secs_f64() * 1e3;
        let arrays = &self.arrays;
        let (result, download) = download_labels(gpu, source, &arrays.distances, arrays.parents.as_ref(), n, labels)?;
        let levels = if trace {
            let levels = gpu.download(&arrays.levels)?[0] as usize;
            let mut records = vec![0u64; EDGE_TRACE_WORDS * (levels.min(TRACE_CAPACITY) + 1)];
            gpu.download_into(&arrays.trace, &mut records)?;
            decode_edge_trace(&records, levels)
        } else {
            Vec::new()
        };
        Ok(PersistentRun { result, kernel_ms, levels, download })
    }
}
