//! Typed launchers for the traversal kernels in `device/src/kernels/`. Each checks the
//! kernel's pointer contract (buffer lengths) before the launch, so a wrong call is an error
//! here rather than a memory fault on the device.

use cudarc::driver::{CudaSlice, LaunchConfig};

use crate::gpu::{DeviceGraph, GpuContext, GpuError};

/// Threads per block for the BFS kernels: a multiple of 32, as the kernels require.
pub const BFS_BLOCK: u32 = 256;

/// A 1-D launch of `block`-thread blocks covering `items` threads, capped at 32 blocks per
/// multiprocessor (enough to fill the GPU; grid-stride loops cover the rest).
pub fn grid_for(gpu: &GpuContext, items: u64, block: u32) -> LaunchConfig {
    let wanted = items.div_ceil(block as u64).max(1);
    let cap = gpu.multiprocessors() as u64 * 32;
    LaunchConfig { grid_dim: (wanted.min(cap) as u32, 1, 1), block_dim: (block, 1, 1), shared_mem_bytes: 0 }
}

pub(crate) fn require(kernel: &'static str, ok: bool, problem: impl FnOnce() -> String) -> Result<(), GpuError> {
    if ok {
        Ok(())
    } else {
        Err(GpuError::Contract { kernel, problem: problem() })
    }
}

/// `bfs_init`: every vertex unreached, `source` at distance 0 and its own parent.
pub fn bfs_init(gpu: &GpuContext, distances: &mut CudaSlice<u32>, parents: &mut CudaSlice<u32>, source: u32) -> Result<(), GpuError> {
    let n = distances.len();
    require("bfs_init", parents.len() == n && (source as usize) < n, || {
        format!("{n} distances, {} parents and source {source}", parents.len())
    })?;
    let n32 = n as u32;
    launch!(gpu, "bfs_init", grid_for(gpu, n as u64, BFS_BLOCK), [distances, parents, &n32, &source])
}

/// The per-level buffers of a top-down BFS.
pub struct LevelBuffers<'a> {
    pub distances: &'a mut CudaSlice<u32>,
    pub parents: &'a mut CudaSlice<u32>,
    pub frontier: &'a CudaSlice<u32>,
    pub frontier_len: u32,
    pub next: &'a mut CudaSlice<u32>,
    pub next_len: &'a mut CudaSlice<u32>,
}

/// `bfs_topdown_expand`: expands the vertices of `frontier` (at distance `level`).
pub fn bfs_topdown_expand(gpu: &GpuContext, graph: &DeviceGraph, level: u32, buffers: LevelBuffers<'_>) -> Result<(), GpuError> {
    let n = graph.num_vertices() as usize;
    let LevelBuffers { distances, parents, frontier, frontier_len, next, next_len } = buffers;
    require(
        "bfs_topdown_expand",
        distances.len() == n
            && parents.len() == n
            && frontier.len() >= frontier_len as usize
            && next.len() >= n
            && !next_len.is_empty()
            && graph.offsets.len() == n + 1,
        || format!("n = {n}, {} distances, {} parents, frontier {frontier_len} of {}, next {}", distances.len(), parents.len(), frontier.len(), next.len()),
    )?;
    launch!(
        gpu,
        "bfs_topdown_expand",
        grid_for(gpu, frontier_len as u64, BFS_BLOCK),
        [&graph.offsets, &graph.targets, distances, parents, frontier, &frontier_len, next, next_len, &level]
    )
}
