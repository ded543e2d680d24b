//! Launchers for the test kernels of the device prelude and operators (`device/src/selftest.rs`).
//! Each uploads its inputs, runs one kernel and returns what the device computed, for the
//! GPU tests to compare against values computed on the host.

use cudarc::driver::LaunchConfig;

use warpath_interface::names::selftest;

use crate::gpu::launch::require;
use crate::gpu::{GpuContext, GpuError};
use crate::graph::CompressedGraph;

fn config(grid: u32, block: u32) -> LaunchConfig {
    LaunchConfig { grid_dim: (grid, 1, 1), block_dim: (block, 1, 1), shared_mem_bytes: 0 }
}

fn rows<const W: usize>(flat: Vec<u32>) -> Vec<[u32; W]> {
    flat.chunks_exact(W).map(|c| c.try_into().unwrap()).collect()
}

/// Per thread: thread, block, block size, grid size, lane, warp, total threads, lanemask_lt.
pub fn indices(gpu: &GpuContext, grid: u32, block: u32) -> Result<Vec<[u32; 8]>, GpuError> {
    let n = grid * block;
    let mut out = gpu.alloc_zeros::<u32>(n as usize * 8, "test output")?;
    launch!(gpu, selftest::INDICES, config(grid, block), [&mut out, &n])?;
    Ok(rows(gpu.download(&out)?))
}

/// Per thread: ballot, any, all, the active mask of even lanes, a ballot over that mask.
pub fn warp_vote(gpu: &GpuContext, predicates: &[u32]) -> Result<Vec<[u32; 5]>, GpuError> {
    require(selftest::WARP_VOTE, !predicates.is_empty() && predicates.len().is_multiple_of(32), || {
        format!("{} inputs", predicates.len())
    })?;
    let input = gpu.upload(predicates, "test input")?;
    let mut out = gpu.alloc_zeros::<u32>(predicates.len() * 5, "test output")?;
    launch!(gpu, selftest::WARP_VOTE, config(predicates.len() as u32 / 32, 32), [&input, &mut out])?;
    Ok(rows(gpu.download(&out)?))
}

/// Per thread: the lanes of its warp whose value equals its own (`match_any_sync`), and the
/// lowest lane among them (`reduce_min_sync` over that group).
pub fn warp_match(gpu: &GpuContext, values: &[u32]) -> Result<Vec<[u32; 2]>, GpuError> {
    require(selftest::WARP_MATCH, !values.is_empty() && values.len().is_multiple_of(32), || {
        format!("{} inputs", values.len())
    })?;
    let input = gpu.upload(values, "test input")?;
    let mut out = gpu.alloc_zeros::<u32>(values.len() * 2, "test output")?;
    launch!(gpu, selftest::WARP_MATCH, config(values.len() as u32 / 32, 32), [&input, &mut out])?;
    Ok(rows(gpu.download(&out)?))
}

/// Per thread: shfl idx from lane `delta`, up, down, xor by `delta`, and a 64-bit idx shuffle
/// folded to 32 bits (`value_from_lane ^ index_of_lane`).
pub fn shuffle(gpu: &GpuContext, values: &[u32], delta: u32) -> Result<Vec<[u32; 5]>, GpuError> {
    require(selftest::SHUFFLE, !values.is_empty() && values.len().is_multiple_of(32) && delta < 32, || {
        format!("{} inputs, delta {delta}", values.len())
    })?;
    let input = gpu.upload(values, "test input")?;
    let mut out = gpu.alloc_zeros::<u32>(values.len() * 5, "test output")?;
    launch!(gpu, selftest::SHUFFLE, config(values.len() as u32 / 32, 32), [&input, &mut out, &delta])?;
    Ok(rows(gpu.download(&out)?))
}

/// Per value: popc and ffs.
pub fn bits(gpu: &GpuContext, values: &[u32]) -> Result<Vec<[u32; 2]>, GpuError> {
    let input = gpu.upload(values, "test input")?;
    let mut out = gpu.alloc_zeros::<u32>(values.len() * 2, "test output")?;
    let n = values.len() as u32;
    launch!(gpu, selftest::BITS, config(3, 64), [&input, &mut out, &n])?;
    Ok(rows(gpu.download(&out)?))
}

/// Block size of `test_shared_reverse`.
pub const SHARED_BLOCK: usize = 256;

/// Each 256-element block reversed through shared memory, and each block's wrapping sum.
pub fn shared_reverse(gpu: &GpuContext, values: &[u32]) -> Result<(Vec<u32>, Vec<u32>), GpuError> {
    require(selftest::SHARED_REVERSE, !values.is_empty() && values.len().is_multiple_of(SHARED_BLOCK), || {
        format!("{} inputs", values.len())
    })?;
    let blocks = values.len() / SHARED_BLOCK;
    let input = gpu.upload(values, "test input")?;
    let mut out = gpu.alloc_zeros::<u32>(values.len(), "test output")?;
    let mut sums = gpu.alloc_zeros::<u32>(blocks, "test output")?;
    launch!(gpu, selftest::SHARED_REVERSE, config(blocks as u32, SHARED_BLOCK as u32), [&input, &mut out, &mut sums])?;
    Ok((gpu.download(&out)?, gpu.download(&sums)?))
}

macro_rules! atomics_launcher {
    ($(#[$doc:meta])* $name:ident, $kernel:expr, $ty:ty) => {
        $(#[$doc])*
        pub fn $name(gpu: &GpuContext, values: &[$ty], initial: [$ty; 6]) -> Result<([$ty; 6], Vec<$ty>), GpuError> {
            let input = gpu.upload(values, "test input")?;
            let mut cells = gpu.upload(&initial, "test cells")?;
            let mut exchanged = gpu.alloc_zeros::<$ty>(values.len().max(1), "test output")?;
            let n = values.len() as u32;
            launch!(gpu, $kernel, config(8, 128), [&input, &n, &mut cells, &mut exchanged])?;
            let cells: [$ty; 6] = gpu.download(&cells)?.try_into().unwrap();
            let mut exchanged = gpu.download(&exchanged)?;
            exchanged.truncate(values.len());
            Ok((cells, exchanged))
        }
    };
}

atomics_launcher!(
    /// Cells after add, min, max, or (bit v % 32), exch and a CAS-loop add of every value,
    /// starting from `initial`; and the old value each exch returned.
    atomics_u32, selftest::ATOMICS_U32, u32);
atomics_launcher!(
    /// The 64-bit twin of [`atomics_u32`] (or sets bit v % 64).
    atomics_u64, selftest::ATOMICS_U64, u64);

/// `initial`'s cells after `reduce_min_u64` lowered cell `i % initial.len()` to `values[i]`
/// for every `i`.
pub fn reduce_min_u64(gpu: &GpuContext, values: &[u64], initial: &[u64]) -> Result<Vec<u64>, GpuError> {
    require(selftest::REDUCE_MIN_U64, !initial.is_empty(), || "no cells".into())?;
    let input = gpu.upload(values, "test input")?;
    let mut cells = gpu.upload(initial, "test cells")?;
    let (n, cells_len) = (values.len() as u32, initial.len() as u32);
    launch!(gpu, selftest::REDUCE_MIN_U64, config(8, 128), [&input, &n, &mut cells, &cells_len])?;
    gpu.download(&cells)
}

/// `out[i] = 3i + 1` for `i < n`, written through a grid-stride loop of `grid × block` threads.
pub fn grid_stride(gpu: &GpuContext, n: u32, grid: u32, block: u32) -> Result<Vec<u32>, GpuError> {
    let mut out = gpu.alloc_zeros::<u32>(n.max(1) as usize, "test output")?;
    launch!(gpu, selftest::GRID_STRIDE, config(grid, block), [&mut out, &n])?;
    let mut out = gpu.download(&out)?;
    out.truncate(n as usize);
    Ok(out)
}

/// The indices with a non-zero flag, appended in device order with warp-aggregated atomics.
pub fn warp_append(gpu: &GpuContext, flags: &[u32]) -> Result<Vec<u32>, GpuError> {
    let input = gpu.upload(flags, "test input")?;
    let mut queue = gpu.alloc_zeros::<u32>(flags.len().max(1), "test output")?;
    let mut counter = gpu.alloc_zeros::<u32>(1, "test counter")?;
    let n = flags.len() as u32;
    launch!(gpu, selftest::WARP_APPEND, config(4, 96), [&input, &n, &mut queue, &mut counter])?;
    let len = gpu.read_counter(&counter)? as usize;
    let mut queue = gpu.download(&queue)?;
    queue.truncate(len.min(flags.len()));
    Ok(queue)
}

/// Exclusive prefix sums within blocks of `block` threads, and each block's total.
pub fn block_scan(gpu: &GpuContext, values: &[u32], block: u32) -> Result<(Vec<u32>, Vec<u32>), GpuError> {
    require(
        selftest::BLOCK_SCAN,
        block.is_multiple_of(32) && block <= 1024 && !values.is_empty() && values.len().is_multiple_of(block as usize),
        || format!("{} inputs in blocks of {block}", values.len()),
    )?;
    let blocks = values.len() / block as usize;
    let input = gpu.upload(values, "test input")?;
    let mut out = gpu.alloc_zeros::<u32>(values.len(), "test output")?;
    let mut totals = gpu.alloc_zeros::<u32>(blocks, "test output")?;
    launch!(gpu, selftest::BLOCK_SCAN, config(blocks as u32, block), [&input, &mut out, &mut totals])?;
    Ok((gpu.download(&out)?, gpu.download(&totals)?))
}

/// `test_search`: for each key (a multiple of 256 of them), the last index at most the key in
/// the first 32 of `sorted64` (through shared memory), in `sorted32` (256 entries, through
/// shared memory) and in the first `len` of `sorted64` (global memory).
pub fn search(
    gpu: &GpuContext,
    sorted64: &[u64],
    sorted32: &[u32],
    len: u32,
    keys: &[u64],
) -> Result<Vec<[u32; 3]>, GpuError> {
    require(
        selftest::SEARCH,
        sorted64.len() >= 32
            && sorted64.len() >= len as usize
            && (1..=256).contains(&len)
            && sorted32.len() == 256
            && !keys.is_empty()
            && keys.len().is_multiple_of(256),
        || format!("{} and {} sorted entries, length {len}, {} keys", sorted64.len(), sorted32.len(), keys.len()),
    )?;
    let sorted64 = gpu.upload(sorted64, "test input")?;
    let sorted32 = gpu.upload(sorted32, "test input")?;
    let device_keys = gpu.upload(keys, "test input")?;
    let mut out = gpu.alloc_zeros::<u32>(keys.len() * 3, "test output")?;
    launch!(
        gpu,
        selftest::SEARCH,
        config(keys.len() as u32 / 256, 256),
        [&sorted64, &sorted32, &len, &device_keys, &mut out]
    )?;
    Ok(rows(gpu.download(&out)?))
}

/// `test_varint_decode`: every list of `graph` decoded by one thread and by one warp, each
/// neighbor at its edge index. A list longer than `interval` edges is decoded from its first
/// restart point (edge `interval`), leaving the edges before it 0, as the BFS decodes the
/// pieces of long lists.
pub fn varint_decode(
    gpu: &GpuContext,
    graph: &CompressedGraph,
    interval: u64,
) -> Result<(Vec<u32>, Vec<u32>), GpuError> {
    let n = graph.num_vertices();
    require(selftest::VARINT_DECODE, n > 0 && interval > 0, || format!("{n} vertices, interval {interval}"))?;
    let mut edge_offsets = vec![0u64; n + 1];
    for (v, degree) in graph.degrees().into_iter().enumerate() {
        edge_offsets[v + 1] = edge_offsets[v] + degree as u64;
    }
    let restarts = graph.restart_points(&graph.degrees(), interval + 1, interval);
    let (mut resume, mut resume_previous, mut resume_skip) = (vec![0u64; n], vec![0u32; n], vec![0u32; n]);
    for (i, &v) in restarts.vertices.iter().enumerate() {
        let point = restarts.first[i] as usize;
        resume[v as usize] = restarts.points[2 * point];
        resume_previous[v as usize] = restarts.points[2 * point + 1] as u32;
        resume_skip[v as usize] = interval as u32;
    }
    let mut bytes = graph.bytes().to_vec();
    bytes.resize(bytes.len().div_ceil(8).max(1) * 8, 0);
    let edges = (edge_offsets[n] as usize).max(1);
    let device_bytes = gpu.upload(&bytes, "test input")?;
    let byte_offsets = gpu.upload(graph.byte_offsets(), "test input")?;
    let edge_offsets = gpu.upload(&edge_offsets, "test input")?;
    let resume = gpu.upload(&resume, "test input")?;
    let resume_previous = gpu.upload(&resume_previous, "test input")?;
    let resume_skip = gpu.upload(&resume_skip, "test input")?;
    let mut by_thread = gpu.alloc_zeros::<u32>(edges, "test output")?;
    let mut by_warp = gpu.alloc_zeros::<u32>(edges, "test output")?;
    let n32 = n as u32;
    launch!(
        gpu,
        selftest::VARINT_DECODE,
        config(n.div_ceil(256).min(1024) as u32, 256),
        [
            &device_bytes,
            &byte_offsets,
            &edge_offsets,
            &resume,
            &resume_previous,
            &resume_skip,
            &n32,
            &mut by_thread,
            &mut by_warp,
        ]
    )?;
    Ok((gpu.download(&by_thread)?, gpu.download(&by_warp)?))
}

/// Edges, with their owners, as the operator tests count them: `hits[e]` visits of edge `e`,
/// the last by `owners[e]` (0 where unvisited).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeCounts {
    pub hits: Vec<u32>,
    pub owners: Vec<u32>,
}

/// `offsets` as a CSR's edge offsets: non-empty, non-decreasing, starting at 0.
fn csr_offsets_ok(offsets: &[u64]) -> bool {
    offsets.first() == Some(&0) && offsets.windows(2).all(|w| w[0] <= w[1]) && offsets.len() - 1 <= u32::MAX as usize
}

/// `test_gather_tile`: scan+warp+CTA gathering of the lists of the CSR `offsets` (vertex `v`'s
/// list is edges `offsets[v]..offsets[v + 1]`), 256 vertices a tile and block, warp enlistment
/// from `warp_list_edges` edges on (at least 32).
pub fn gather_tile(gpu: &GpuContext, offsets: &[u64], warp_list_edges: u64) -> Result<EdgeCounts, GpuError> {
    require(selftest::GATHER_TILE, csr_offsets_ok(offsets) && warp_list_edges >= 32, || {
        format!("{} offsets, warp lists from {warp_list_edges} edges", offsets.len())
    })?;
    let vertices = (offsets.len() - 1) as u32;
    let edges = (*offsets.last().unwrap() as usize).max(1);
    let device_offsets = gpu.upload(offsets, "test input")?;
    let mut hits = gpu.alloc_zeros::<u32>(edges, "test output")?;
    let mut owners = gpu.alloc_zeros::<u32>(edges, "test output")?;
    launch!(
        gpu,
        selftest::GATHER_TILE,
        config(vertices.div_ceil(256).max(1), 256),
        [&device_offsets, &vertices, &warp_list_edges, &mut hits, &mut owners]
    )?;
    Ok(EdgeCounts { hits: gpu.download(&hits)?, owners: gpu.download(&owners)? })
}

/// `test_shared_lists`: the lists of `min_edges` edges or more of the CSR `offsets`
/// registered by a grid of `blocks` blocks of 256 threads, then visited twice by the same
/// grid: by the grid-wide even split (first result) and position by position through the
/// table's search (second result).
pub fn shared_lists(
    gpu: &GpuContext,
    offsets: &[u64],
    min_edges: u64,
    blocks: u32,
) -> Result<(EdgeCounts, EdgeCounts), GpuError> {
    require(selftest::SHARED_LISTS, csr_offsets_ok(offsets) && min_edges > 0 && blocks > 0, || {
        format!("{} offsets, lists from {min_edges} edges, {blocks} blocks", offsets.len())
    })?;
    let vertices = (offsets.len() - 1) as u32;
    let edges = (*offsets.last().unwrap() as usize).max(1);
    // One entry a vertex at most, which is what the kernel's capacity must exceed.
    let capacity = vertices + 1;
    let device_offsets = gpu.upload(offsets, "test input")?;
    let mut table = gpu.alloc_zeros::<u64>(capacity as usize * 3, "test table")?;
    let mut tally = gpu.alloc_zeros::<u64>(1, "test tally")?;
    let mut counts = Vec::new();
    for step in 0u32..3 {
        let mut hits = gpu.alloc_zeros::<u32>(edges, "test output")?;
        let mut owners = gpu.alloc_zeros::<u32>(edges, "test output")?;
        launch!(
            gpu,
            selftest::SHARED_LISTS,
            config(blocks, 256),
            [&device_offsets, &vertices, &min_edges, &mut table, &capacity, &mut tally, &step, &mut hits, &mut owners]
        )?;
        if step > 0 {
            counts.push(EdgeCounts { hits: gpu.download(&hits)?, owners: gpu.download(&owners)? });
        }
    }
    let by_search = counts.pop().unwrap();
    let by_split = counts.pop().unwrap();
    Ok((by_split, by_search))
}
