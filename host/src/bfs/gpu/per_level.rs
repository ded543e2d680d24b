//! GPU top-down BFS: the host drives one `bfs_topdown_expand` launch per level and reads the
//! next frontier's size back between levels (level-synchronous, Merrill et al. 2012, section 3).
//!
//! The per-level read-back costs a few microseconds per level, which dominates on
//! high-diameter graphs (roads, grids); keeping the level loop on the device is the next step.

use cudarc::driver::CudaSlice;

use crate::bfs::gpu::launch::{self as kernels, LevelBuffers};
use crate::bfs::gpu::persistent::{download_labels, LabelsTarget};
use crate::bfs::BfsResult;
use crate::gpu::{DeviceGraph, Download, GpuContext, GpuError};

/// Device buffers for repeated BFS runs on one graph, allocated once.
pub struct GpuTopDown<'g> {
    gpu: &'g GpuContext,
    graph: &'g DeviceGraph,
    distances: CudaSlice<u32>,
    parents: CudaSlice<u32>,
    frontier: CudaSlice<u32>,
    next: CudaSlice<u32>,
    next_len: CudaSlice<u32>,
}

/// One GPU traversal: the result and how long the device took.
pub struct GpuBfsRun {
    pub result: BfsResult,
    /// Device time from initialisation to the last level, by CUDA events (no transfers of the
    /// graph or of the result).
    pub kernel_ms: f64,
    /// One entry per level expanded (the last found nothing): its frontier size and, when
    /// traced, its device time.
    pub levels: Vec<GpuLevel>,
    /// Reading the labels back.
    pub download: Download,
}

/// One level of a GPU traversal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GpuLevel {
    /// Vertices in the frontier this level expanded.
    pub frontier: u32,
    /// Device time of the level (CUDA events), when the run was traced; else 0.
    pub ms: f64,
}

impl<'g> GpuTopDown<'g> {
    /// Device bytes needed for the per-vertex arrays of a graph of `n` vertices.
    pub fn bytes_needed(n: u32) -> u64 {
        4 * 4 * n.max(1) as u64 + 4
    }

    pub fn new(gpu: &'g GpuContext, graph: &'g DeviceGraph) -> Result<Self, GpuError> {
        let n = graph.num_vertices().max(1) as usize;
        gpu.ensure_free(Self::bytes_needed(graph.num_vertices()), "BFS distances, parents and frontier queues")?;
        Ok(GpuTopDown {
            gpu,
            graph,
            distances: gpu.alloc_zeros(n, "BFS distances")?,
            parents: gpu.alloc_zeros(n, "BFS parents")?,
            frontier: gpu.alloc_zeros(n, "the BFS frontier queue")?,
            next: gpu.alloc_zeros(n, "the BFS next-frontier queue")?,
            next_len: gpu.alloc_zeros(1, "the frontier counter")?,
        })
    }

    /// Runs a BFS from `source` (an internal id `< n`; the caller checks it).
    pub fn run(&mut self, source: u32) -> Result<GpuBfsRun, GpuError> {
        self.run_with(source, false)
    }

    /// Like [`run`](Self::run), timing every level with its own pair of events when `trace`
    /// (which adds a little host work per level to the total).
    pub fn run_with(&mut self, source: u32, trace: bool) -> Result<GpuBfsRun, GpuError> {
        let gpu = self.gpu;
        let start = gpu.record_event()?;
        let mut levels = Vec::new();
        kernels::bfs_init(gpu, &mut self.distances, &mut self.parents, source)?;
        gpu.copy_into(&[source], &mut self.frontier)?;
        let mut frontier_len = 1u32;
        let mut level = 0u32;
        while frontier_len > 0 {
            let level_start = if trace { Some(gpu.record_event()?) } else { None };
            gpu.zero(&mut self.next_len)?;
            kernels::bfs_topdown_expand(
                gpu,
                self.graph,
                level,
                LevelBuffers {
                    distances: &mut self.distances,
                    parents: &mut self.parents,
                    frontier: &self.frontier,
                    frontier_len,
                    next: &mut self.next,
                    next_len: &mut self.next_len,
                },
            )?;
            let expanded = frontier_len;
            frontier_len = gpu.read_counter(&self.next_len)?;
            let ms = match level_start {
                Some(level_start) => {
                    let level_end = gpu.record_event()?;
                    level_end.synchronize().map_err(|e| GpuError::driver("cuEventSynchronize", e))?;
                    level_start.elapsed_ms(&level_end).map_err(|e| GpuError::driver("cuEventElapsedTime", e))? as f64
                }
                None => 0.0,
            };
            levels.push(GpuLevel { frontier: expanded, ms });
            std::mem::swap(&mut self.frontier, &mut self.next);
            level += 1;
        }
        let end = gpu.record_event()?;
        end.synchronize().map_err(|e| GpuError::driver("cuEventSynchronize", e))?;
        let kernel_ms = start.elapsed_ms(&end).map_err(|e| GpuError::driver("cuEventElapsedTime", e))? as f64;
        let n = self.graph.num_vertices() as usize;
        let labels = BfsResult { source, distances: Vec::new(), parents: Vec::new() };
        let (result, download) =
            download_labels(gpu, source, &self.distances, Some(&self.parents), n, LabelsTarget::Vectors(labels))?;
        Ok(GpuBfsRun { result, kernel_ms, levels, download })
    }
}
