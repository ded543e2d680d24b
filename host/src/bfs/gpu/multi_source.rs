//! The bit-parallel many-source BFS on the GPU: up to 64 sources a batch, the host driving one
//! `bfs_multi_source_level` launch a level and reading back whether it reached anything (MS-BFS
//! and iBFS's joint frontier; the CPU's `bfs::multi_source` is the same search).

use std::time::{Duration, Instant};

use cudarc::driver::CudaSlice;
use warpath_interface::bfs::multi_source::MULTI_SOURCE_BATCH;

use crate::bfs::gpu::launch::{self as kernels, MultiSourceBuffers};
use crate::gpu::{DeviceGraph, Download, GpuContext, GpuError};

/// Device words and labels for batches of sources over one graph's in-lists, allocated once.
pub struct GpuMultiSource<'g> {
    gpu: &'g GpuContext,
    in_lists: &'g DeviceGraph,
    seen: CudaSlice<u64>,
    frontier: CudaSlice<u64>,
    next: CudaSlice<u64>,
    distances: CudaSlice<u32>,
    reached: CudaSlice<u32>,
}

/// One batch's distances (`distances[i][v]`: source `i`, vertex `v`), its device time (CUDA
/// events, from the first level to the last) and the download.
pub struct MultiSourceBatch {
    pub distances: Vec<Vec<u32>>,
    pub time: Duration,
    pub download: Download,
}

impl<'g> GpuMultiSource<'g> {
    /// Device bytes for a graph of `n` vertices: three words and 64 distances a vertex.
    pub fn bytes_needed(n: u32) -> u64 {
        (3 * 8 + 4 * MULTI_SOURCE_BATCH as u64) * n.max(1) as u64 + 4
    }

    /// Buffers for searches over `in_lists` (a directed graph's transpose, an undirected graph's
    /// own lists).
    pub fn new(gpu: &'g GpuContext, in_lists: &'g DeviceGraph) -> Result<Self, GpuError> {
        let n = in_lists.num_vertices().max(1) as usize;
        gpu.ensure_free(Self::bytes_needed(in_lists.num_vertices()), "the many-source BFS's words and distances")?;
        Ok(GpuMultiSource {
            gpu,
            in_lists,
            seen: gpu.alloc_zeros(n, "the many-source BFS's seen words")?,
            frontier: gpu.alloc_zeros(n, "the many-source BFS's frontier words")?,
            next: gpu.alloc_zeros(n, "the many-source BFS's next words")?,
            distances: gpu.alloc_zeros(MULTI_SOURCE_BATCH as usize * n, "the many-source BFS's distances")?,
            reached: gpu.alloc_zeros(1, "the many-source BFS's level flag")?,
        })
    }

    /// The searches from `sources` (internal ids `< n`, at most 64; the caller checks them).
    pub fn run(&mut self, sources: &[u32]) -> Result<MultiSourceBatch, GpuError> {
        let gpu = self.gpu;
        let n = self.in_lists.num_vertices() as usize;
        let count = sources.len() as u32;
        let mut words = vec![0u64; n];
        for (bit, &s) in sources.iter().enumerate() {
            words[s as usize] |= 1 << bit;
        }
        gpu.copy_into(&words, &mut self.seen)?;
        gpu.copy_into(&words, &mut self.frontier)?;
        let start = gpu.record_event()?;
        let mut level = 1;
        loop {
            gpu.zero(&mut self.reached)?;
            kernels::bfs_multi_source_level(
                gpu,
                self.in_lists,
                count,
                level,
                MultiSourceBuffers {
                    seen: &mut self.seen,
                    frontier: &self.frontier,
                    next: &mut self.next,
                    distances: &mut self.distances,
                    reached: &mut self.reached,
                },
            )?;
            std::mem::swap(&mut self.frontier, &mut self.next);
            if gpu.read_counter(&self.reached)? == 0 {
                break;
            }
            level += 1;
        }
        let end = gpu.record_event()?;
        end.synchronize().map_err(|e| GpuError::driver("cuEventSynchronize", e))?;
        let ms = start.elapsed_ms(&end).map_err(|e| GpuError::driver("cuEventElapsedTime", e))?;
        let downloading = Instant::now();
        let all = gpu.download(&self.distances)?;
        let download = Download { time: downloading.elapsed(), bytes: (all.len() * 4) as u64 };
        let distances = all.chunks(n.max(1)).take(sources.len()).map(<[u32]>::to_vec).collect();
        Ok(MultiSourceBatch { distances, time: Duration::from_secs_f64(f64::from(ms) / 1e3), download })
    }
}
