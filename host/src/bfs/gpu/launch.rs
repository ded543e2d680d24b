//! Typed launchers for the BFS kernels (`device/src/kernels/bfs_*`). Each fills the kernel's
//! parameter struct from the interface crate, checks the kernel's pointer contract (buffer
//! lengths) against it, and launches through [`crate::gpu::launch`], so a wrong call is an
//! error here rather than a memory fault on the device.

use cudarc::driver::{CudaSlice, LaunchConfig};
use warpath_interface::bfs::cluster::{BfsClusterParams, BFS_CLUSTER_BITMAPS};
use warpath_interface::bfs::edge_queue::{
    BfsEdgeQueueParams, EdgeQueueStrategy, EDGE_QUEUE_BLOCK, EDGE_QUEUE_CONTROL_WORDS, EDGE_TRACE_WORDS,
};
use warpath_interface::bfs::multi_source::{
    multi_source_queue_capacity, BfsMultiSourceCountParams, BfsMultiSourceDistancesParams, BfsMultiSourceLevelParams,
    MULTI_SOURCE_BATCH, MULTI_SOURCE_BLOCK, MULTI_SOURCE_LEVEL_COUNTERS, MULTI_SOURCE_LEVEL_RING,
    MULTI_SOURCE_PULL_QUEUED, MULTI_SOURCE_SETTLE_QUEUED,
};
use warpath_interface::bfs::per_level::{BfsInitParams, BfsTopdownExpandParams, PER_LEVEL_BLOCK};
use warpath_interface::bfs::persistent::{
    BfsPersistentBottomUpParams, BfsPersistentBottomUpWordsParams, BfsPersistentCompressedParams,
    BfsPersistentInitParams, BfsPersistentParams, BottomUpChunk, PersistentFlags, CONTROL_WORDS, PERSISTENT_BLOCK,
    SHARED_LIST_EDGES, SHARED_LIST_WORDS, TRACE_WORDS,
};
use warpath_interface::cluster::{cluster_lists, cluster_shared_bytes, cluster_words, CLUSTER_BLOCK, CLUSTER_BLOCKS};
use warpath_interface::names;
use warpath_interface::DeviceAddress;

use crate::bfs::gpu::tuning::{BottomUpLaunch, PersistentParams};
use crate::gpu::launch::{blocks_of, grid_for, require, resident_blocks, Launch, Residency};
use crate::gpu::{DeviceGraph, GpuContext, GpuError, Layout, Placement};

/// `bfs_init`: every vertex unreached, `source` at distance 0 and its own parent.
pub fn bfs_init(
    gpu: &GpuContext,
    distances: &mut CudaSlice<u32>,
    parents: &mut CudaSlice<u32>,
    source: u32,
) -> Result<(), GpuError> {
    let n = distances.len();
    require(names::BFS_INIT, parents.len() == n && (source as usize) < n, || {
        format!("{n} distances, {} parents and source {source}", parents.len())
    })?;
    let mut launch = Launch::new(gpu);
    let params =
        BfsInitParams { distances: launch.write(distances), parents: launch.write(parents), n: n as u32, source };
    launch.run(grid_for(gpu, n as u64, PER_LEVEL_BLOCK), Residency::Any, &params)
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
pub fn bfs_topdown_expand(
    gpu: &GpuContext,
    graph: &DeviceGraph,
    level: u32,
    buffers: LevelBuffers<'_>,
) -> Result<(), GpuError> {
    let kernel = names::BFS_TOPDOWN_EXPAND;
    let n = graph.num_vertices() as usize;
    let LevelBuffers { distances, parents, frontier, frontier_len, next, next_len } = buffers;
    require(kernel, !graph.is_compressed(), || {
        "a compressed graph: the per-level kernel reads only plain CSR lists".to_string()
    })?;
    require(
        kernel,
        distances.len() == n
            && parents.len() == n
            && frontier.len() >= frontier_len as usize
            && next.len() >= n
            && !next_len.is_empty()
            && graph.offsets.len() == n + 1,
        || {
            format!(
                "n = {n}, {} distances, {} parents, frontier {frontier_len} of {}, next {}",
                distances.len(),
                parents.len(),
                frontier.len(),
                next.len()
            )
        },
    )?;
    let stream = gpu.stream();
    let mut launch = Launch::new(gpu);
    let params = BfsTopdownExpandParams {
        offsets: DeviceAddress::new(graph.offsets.device_ptr(stream)),
        targets: DeviceAddress::new(graph.targets.device_ptr(stream)),
        distances: launch.write(distances),
        parents: launch.write(parents),
        frontier: launch.read(frontier),
        frontier_len,
        next: launch.write(next),
        next_len: launch.write(next_len),
        level,
    };
    launch.run(grid_for(gpu, frontier_len as u64, PER_LEVEL_BLOCK), Residency::Any, &params)
}

/// The words of a bit-parallel many-source BFS (`bfs_multi_source_level`): each vertex's seen
/// word, and the ring of levels' new words (`MULTI_SOURCE_LEVEL_RING` slots of `n` words), the
/// level reading slot `frontier` and writing slot `next`.
pub struct MultiSourceBuffers<'a> {
    pub seen: &'a mut CudaSlice<u64>,
    pub ring: &'a mut CudaSlice<u64>,
    pub frontier: usize,
    pub next: usize,
    /// The level's counters (`MULTI_SOURCE_LEVEL_COUNTERS` words from `counts_at`): its reached
    /// vertices, their out-list entries, its queued pieces of long lists.
    pub counts: &'a mut CudaSlice<u64>,
    pub counts_at: usize,
    /// The level's queue of pieces of long lists.
    pub queue: &'a mut CudaSlice<u64>,
}

/// `bfs_multi_source_level`: one pass (`mode`: `MULTI_SOURCE_PULL`, `_PUSH`, `_SETTLE` or a
/// queued lists' pass after them) of a level of `count` sources' searches, walking `lists` (the
/// in-lists to pull, the out-lists to push); `out_lists` gives the reached vertices' out-degrees.
pub fn bfs_multi_source_level(
    gpu: &GpuContext,
    lists: &DeviceGraph,
    out_lists: &DeviceGraph,
    count: u32,
    mode: u32,
    buffers: MultiSourceBuffers<'_>,
) -> Result<(), GpuError> {
    let kernel = names::BFS_MULTI_SOURCE_LEVEL;
    let n = lists.num_vertices() as usize;
    let MultiSourceBuffers { seen, ring, frontier, next, counts, counts_at, queue } = buffers;
    let slots = MULTI_SOURCE_LEVEL_RING as usize;
    require(kernel, !lists.is_compressed(), || "a compressed graph: the searches read plain CSR lists".to_string())?;
    require(
        kernel,
        (1..=MULTI_SOURCE_BATCH).contains(&count)
            && mode <= MULTI_SOURCE_SETTLE_QUEUED
            && seen.len() == n
            && ring.len() == slots * n
            && frontier < slots
            && next < slots
            && frontier != next
            && counts.len() >= counts_at + MULTI_SOURCE_LEVEL_COUNTERS
            && queue.len() as u64 >= multi_source_queue_capacity(lists.num_edges())
            && lists.offsets.len() == n + 1
            && out_lists.offsets.len() == n + 1,
        || {
            format!(
                "n = {n}, {count} sources, mode {mode}, {} seen, a ring of {} words, slots {frontier} and {next}, {} \
                 out-offsets, {} counters from {counts_at}, a queue of {} for {} entries",
                seen.len(),
                ring.len(),
                out_lists.offsets.len(),
                counts.len(),
                queue.len(),
                lists.num_edges()
            )
        },
    )?;
    let queue_len = queue.len() as u64;
    let stream = gpu.stream();
    let mut launch = Launch::new(gpu);
    // Two slots of one buffer, one read and one written: one borrow, two addresses.
    let ring = launch.write(ring);
    let slot = |k: usize| DeviceAddress::new(ring.address + (k * n * std::mem::size_of::<u64>()) as u64);
    let params = BfsMultiSourceLevelParams {
        offsets: DeviceAddress::new(lists.offsets.device_ptr(stream)),
        targets: DeviceAddress::new(lists.targets.device_ptr(stream)),
        out_offsets: DeviceAddress::new(out_lists.offsets.device_ptr(stream)),
        seen: launch.write(seen),
        frontier: slot(frontier),
        next: slot(next),
        counts: launch.write_from(counts, counts_at),
        queue: launch.write(queue),
        n: n as u32,
        count,
        mode,
    };
    // The queued passes: a block a piece (at most the queue's room), or a thread a piece.
    let items = match mode {
        MULTI_SOURCE_SETTLE_QUEUED => queue_len,
        m if m >= MULTI_SOURCE_PULL_QUEUED => queue_len * MULTI_SOURCE_BLOCK as u64,
        _ => n.max(1) as u64,
    };
    launch.run(grid_for(gpu, items, MULTI_SOURCE_BLOCK), Residency::Any, &params)
}

/// `bfs_multi_source_count`: adds to `counts[at + i]` the vertices whose word in `words[from..from
/// + n]` (a slot of the ring) has bit `i`.
pub fn bfs_multi_source_count(
    gpu: &GpuContext,
    words: &CudaSlice<u64>,
    from: usize,
    n: usize,
    counts: &mut CudaSlice<u64>,
    at: usize,
) -> Result<(), GpuError> {
    let kernel = names::BFS_MULTI_SOURCE_COUNT;
    require(
        kernel,
        counts.len() >= at + MULTI_SOURCE_BATCH as usize && n <= u32::MAX as usize && from + n <= words.len(),
        || format!("{n} words from {from} of {}, {} counters from {at}", words.len(), counts.len()),
    )?;
    let mut launch = Launch::new(gpu);
    let params = BfsMultiSourceCountParams {
        words: launch.read_from(words, from),
        counts: launch.write_from(counts, at),
        n: n as u32,
    };
    launch.run(grid_for(gpu, n.max(1) as u64, MULTI_SOURCE_BLOCK), Residency::Any, &params)
}

/// `bfs_multi_source_distances`: `count` sources' distances (`distances[i * n + v]`) from the
/// first `levels` slots of the ring, slot `j` holding level `first_level + j`'s new words; where
/// `fill`, every distance not in the window is written unreached.
#[allow(clippy::too_many_arguments)]
pub fn bfs_multi_source_distances(
    gpu: &GpuContext,
    ring: &CudaSlice<u64>,
    n: usize,
    distances: &mut CudaSlice<u32>,
    count: u32,
    first_level: u32,
    levels: u32,
    fill: bool,
) -> Result<(), GpuError> {
    let kernel = names::BFS_MULTI_SOURCE_DISTANCES;
    require(
        kernel,
        (1..=MULTI_SOURCE_BATCH).contains(&count)
            && (1..=MULTI_SOURCE_LEVEL_RING).contains(&levels)
            && ring.len() >= levels as usize * n
            && distances.len() >= count as usize * n
            && n <= u32::MAX as usize,
        || {
            format!(
                "n = {n}, {count} sources, {levels} levels, a ring of {} words, {} distances",
                ring.len(),
                distances.len()
            )
        },
    )?;
    let mut launch = Launch::new(gpu);
    let params = BfsMultiSourceDistancesParams {
        words: launch.read(ring),
        distances: launch.write(distances),
        n: n as u32,
        count,
        first_level,
        levels,
        fill: fill as u32,
    };
    launch.run(grid_for(gpu, n.max(1) as u64, MULTI_SOURCE_BLOCK), Residency::Any, &params)
}

/// Device buffers of the persistent BFS.
pub struct PersistentBuffers<'a> {
    pub distances: &'a mut CudaSlice<u32>,
    /// None for a distances-only BFS: the kernels then get a null pointer and
    /// [`PersistentFlags::DISTANCES_ONLY`], and write no parent.
    pub parents: Option<&'a mut CudaSlice<u32>>,
    pub visited: &'a mut CudaSlice<u32>,
    pub frontier_bits: &'a mut CudaSlice<u32>,
    pub queues: &'a mut CudaSlice<u32>,
    pub control: &'a mut CudaSlice<u64>,
    pub shared_lists: &'a mut CudaSlice<u64>,
    pub trace: &'a mut CudaSlice<u64>,
}

impl PersistentBuffers<'_> {
    fn check(&self, kernel: &'static str, n: usize) -> Result<(), GpuError> {
        let words = n.div_ceil(32);
        require(
            kernel,
            self.distances.len() >= n
                && self.parents.as_ref().is_none_or(|parents| parents.len() >= n)
                && self.visited.len() >= words
                && self.frontier_bits.len() >= 3 * words
                && self.queues.len() >= 2 * n
                && self.control.len() >= CONTROL_WORDS
                && self.shared_lists.len() >= SHARED_LIST_WORDS
                && self.trace.len() >= TRACE_WORDS,
            || format!("buffers too small for {n} vertices"),
        )
    }
}

/// `bfs_persistent_init`: labels, visited bitmap, cleared frontier bitmaps (the two frontiers
/// and the asynchronous bottom-up's pending one) and first queue for a BFS from `source`.
/// With `in_lists`, the in-lists graph the traversal's bottom-up levels read, the vertices
/// whose in-list is empty start out visited, so those levels skip them (only the true
/// in-lists: a directed graph's out-lists would mark reachable sinks).
pub fn bfs_persistent_init(
    gpu: &GpuContext,
    n: u32,
    source: u32,
    in_lists: Option<&DeviceGraph>,
    buffers: &mut PersistentBuffers<'_>,
) -> Result<(), GpuError> {
    let kernel = names::BFS_PERSISTENT_INIT;
    buffers.check(kernel, n as usize)?;
    require(kernel, source < n, || format!("source {source} of {n} vertices"))?;
    if let Some(in_lists) = in_lists {
        require(kernel, in_lists.num_vertices() == n, || {
            format!("in-lists of {} vertices for a BFS of {n}", in_lists.num_vertices())
        })?;
    }
    let PersistentBuffers { distances, parents, visited, frontier_bits, queues, .. } = buffers;
    let mut launch = Launch::new(gpu);
    let params = BfsPersistentInitParams {
        distances: launch.write(distances),
        parents: launch.write_or_null(parents.as_deref_mut()),
        visited: launch.write(visited),
        frontier_bits: launch.write(frontier_bits),
        queue: launch.write(queues),
        n,
        source,
        // Null: no vertex starts out visited but the source.
        unreachable: launch.read_or_null(in_lists.map(|graph| &graph.empty_lists)),
    };
    launch.run(grid_for(gpu, n as u64, PER_LEVEL_BLOCK), Residency::Any, &params)
}

/// Blocks of the persistent kernel that fit on the GPU at once (a cooperative launch must not
/// ask for more).
pub fn persistent_grid_blocks(gpu: &GpuContext) -> Result<u32, GpuError> {
    resident_blocks(gpu, names::BFS_PERSISTENT, PERSISTENT_BLOCK)
}

/// The persistent kernels' flags for `params` on a graph laid out as `layout`, with or
/// without parents (the launch's own bits, `SPLIT_BOTTOM_UP` and `RESUME`, are the caller's).
fn persistent_flags(params: &PersistentParams, layout: Layout, with_parents: bool) -> PersistentFlags {
    let mapped = |placement: Placement| placement == Placement::ZeroCopy;
    let chunk = BottomUpChunk::from_words(params.bottom_up_chunk).unwrap_or(BottomUpChunk::KERNEL_CHOICE);
    PersistentFlags::NONE
        .with(PersistentFlags::BOTTOM_UP, params.bottom_up)
        .with(PersistentFlags::SMALL_FRONTIERS, params.small_frontiers)
        .with(PersistentFlags::OFFSETS_MAPPED, mapped(layout.offsets))
        .with(PersistentFlags::LISTS_MAPPED, mapped(layout.lists))
        .with_balance(params.bottom_up_balance.kernel_balance())
        .with(PersistentFlags::ASYNC_BOTTOM_UP, params.async_bottom_up)
        .with_rule(params.switch_rule.kind())
        .with(PersistentFlags::ADAPTIVE_FRONTIER, params.adaptive_frontier)
        .with(PersistentFlags::DOUBLE_SCAN, params.double_scan)
        .with_chunk(chunk)
        .with(PersistentFlags::DISTANCES_ONLY, !with_parents)
}

/// Whether a persistent BFS with `params` on `graph` runs the first level of each bottom-up
/// stretch as a launch of its own ([`PersistentParams::splits_bottom_up`]).
pub fn splits_bottom_up(params: &PersistentParams, graph: &DeviceGraph) -> bool {
    let zero_copy = graph.layout().offsets == Placement::ZeroCopy || graph.layout().lists == Placement::ZeroCopy;
    params.splits_bottom_up(graph.num_vertices() as u64, graph.is_compressed(), zero_copy)
}

/// Which of the persistent BFS's launches [`bfs_persistent`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PersistentLaunch {
    /// The first: from the source, after `bfs_persistent_init`.
    First,
    /// The level that a launch with `SPLIT_BOTTOM_UP` stopped before
    /// ([`PersistentParams::splits_bottom_up`]), as a launch of its own: both split-level kernels
    /// (`bfs_persistent_bottom_up` and `bfs_persistent_bottom_up_words`), of which the level
    /// picks one.
    SplitLevel,
    /// The persistent kernel again after that level, from where it stopped.
    Resume,
}

/// `bfs_persistent`: the whole direction-optimizing BFS in one cooperative launch, or (where
/// [`PersistentParams::splits_bottom_up`]) in several, `launch` saying which. `inbound` is the
/// transpose of `graph` (the same graph when undirected).
pub fn bfs_persistent(
    gpu: &GpuContext,
    graph: &DeviceGraph,
    inbound: &DeviceGraph,
    max_out_degree: u64,
    buffers: &mut PersistentBuffers<'_>,
    params: PersistentParams,
    which: PersistentLaunch,
) -> Result<(), GpuError> {
    let split = splits_bottom_up(&params, graph);
    let kernel = match (graph.is_compressed(), which) {
        (true, _) => names::BFS_PERSISTENT_COMPRESSED,
        (false, PersistentLaunch::SplitLevel) => names::BFS_PERSISTENT_BOTTOM_UP,
        (false, _) => names::BFS_PERSISTENT,
    };
    require(kernel, split || which == PersistentLaunch::First, || {
        format!("a {which:?} launch of a traversal that runs in one: {params:?}")
    })?;
    let n = graph.num_vertices();
    buffers.check(kernel, n as usize)?;
    require(kernel, inbound.num_vertices() == n && inbound.num_edges() == graph.num_edges(), || {
        format!("a transpose of {} vertices and {} edges", inbound.num_vertices(), inbound.num_edges())
    })?;
    let trace_capacity = (buffers.trace.len() / TRACE_WORDS - 1) as u32;
    let shared_list_capacity = (buffers.shared_lists.len() / SHARED_LIST_WORDS).min(u32::MAX as usize) as u32;
    require(kernel, shared_list_capacity as u64 > graph.num_edges() / SHARED_LIST_EDGES, || {
        format!("a shared-list table of {shared_list_capacity} entries for {} edges", graph.num_edges())
    })?;
    require(kernel, graph.is_compressed() == inbound.is_compressed() && graph.layout() == inbound.layout(), || {
        "a graph and transpose in different formats or places".to_string()
    })?;
    let zero_copy = graph.layout().offsets == Placement::ZeroCopy || graph.layout().lists == Placement::ZeroCopy;
    require(kernel, params.double_scan_conflict(zero_copy).is_none(), || {
        format!("double-scan parameters it cannot run: {params:?}")
    })?;
    require(kernel, BottomUpChunk::from_words(params.bottom_up_chunk).is_some(), || {
        format!("a bottom-up chunk of {} words (0 or a power of two up to 32)", params.bottom_up_chunk)
    })?;
    let config = blocks_of(persistent_grid_blocks(gpu)?, PERSISTENT_BLOCK);
    let every = split && params.bottom_up_launch.every(graph.num_vertices() as u64);
    // `auto`'s levels apart take a word a warp at a time: on kron:26 the later levels, whose
    // searches end at their first in-neighbors, ran 1.6x faster so than in chunks (NOTES 138).
    let auto_chunk = params.bottom_up_chunk == 0 && params.bottom_up_launch == BottomUpLaunch::Auto;
    let params = if every && auto_chunk { PersistentParams { bottom_up_chunk: 1, ..params } } else { params };
    let flags = persistent_flags(&params, graph.layout(), buffers.parents.is_some())
        .with(PersistentFlags::SPLIT_BOTTOM_UP, split)
        .with(PersistentFlags::SPLIT_EVERY_BOTTOM_UP, every)
        .with(PersistentFlags::RESUME, which == PersistentLaunch::Resume);
    let PersistentBuffers { distances, parents, visited, frontier_bits, queues, control, shared_lists, trace } =
        buffers;
    let stream = gpu.stream();
    let mut launch = Launch::new(gpu);
    let mut common = BfsPersistentParams {
        out_offsets: DeviceAddress::new(graph.offsets.device_ptr(stream)),
        out_targets: DeviceAddress::NULL,
        in_offsets: DeviceAddress::new(inbound.offsets.device_ptr(stream)),
        in_targets: DeviceAddress::NULL,
        n,
        total_edges: graph.num_edges(),
        max_out_degree,
        distances: launch.write(distances),
        parents: launch.write_or_null(parents.as_deref_mut()),
        visited: launch.write(visited),
        frontier_bits: launch.write(frontier_bits),
        queues: launch.write(queues),
        control: DeviceAddress::new(launch.write(control).address),
        shared_lists: launch.write(shared_lists),
        shared_list_capacity,
        trace: launch.write(trace),
        trace_capacity,
        alpha: params.alpha,
        beta: params.beta,
        flags,
        // Null pointers tell the kernel there are no list heads in device memory.
        in_heads: launch.read_or_null(inbound.heads.as_ref().map(|heads| &heads.neighbors)),
        in_head_skips: launch.read_or_null(inbound.heads.as_ref().map(|heads| &heads.skips)),
    };
    match &graph.compressed {
        None => {
            common.out_targets = DeviceAddress::new(graph.targets.device_ptr(stream));
            common.in_targets = DeviceAddress::new(inbound.targets.device_ptr(stream));
            if which != PersistentLaunch::SplitLevel {
                return launch.run(config, Residency::Cooperative, &common);
            }
            // Ordinary launches, at more warps an SM than the persistent kernel's (the point of
            // running the level apart), of a block a 256 vertices up to 32 blocks an SM: several
            // waves of resident blocks, as the partitioned BFS launches its bottom-up levels,
            // where a block that finishes early makes room for the next. Both are queued; the
            // chunk chosen here, else the level's shape, picks the one that runs it
            // (`split_level_by_words`), on the device.
            let grid = grid_for(gpu, n as u64, PERSISTENT_BLOCK);
            launch.run(grid, Residency::Any, &BfsPersistentBottomUpParams::from(common))?;
            // Same stream, same buffers: the guards taken above order them for this launch too.
            Launch::new(gpu).run(grid, Residency::Any, &BfsPersistentBottomUpWordsParams::from(common))
        }
        Some(extras) => {
            let params = BfsPersistentCompressedParams {
                out_offsets: common.out_offsets,
                out_bytes: DeviceAddress::new(graph.targets.device_ptr(stream)),
                in_offsets: common.in_offsets,
                in_bytes: DeviceAddress::new(inbound.targets.device_ptr(stream)),
                degrees: launch.read(&extras.degrees),
                restart_points: launch.read(&extras.restart_points),
                long_vertices: launch.read(&extras.long_vertices),
                long_first: launch.read(&extras.long_first),
                long_count: extras.long_count,
                n: common.n,
                total_edges: common.total_edges,
                max_out_degree: common.max_out_degree,
                distances: common.distances,
                parents: common.parents,
                visited: common.visited,
                frontier_bits: common.frontier_bits,
                queues: common.queues,
                control: common.control,
                shared_lists: common.shared_lists,
                shared_list_capacity: common.shared_list_capacity,
                trace: common.trace,
                trace_capacity: common.trace_capacity,
                alpha: common.alpha,
                beta: common.beta,
                flags: common.flags,
                in_heads: common.in_heads,
                in_head_skips: common.in_head_skips,
            };
            launch.run(config, Residency::Cooperative, &params)
        }
    }
}

/// Device buffers of the edge-queue BFS.
pub struct EdgeQueueBuffers<'a> {
    pub distances: &'a mut CudaSlice<u32>,
    /// None for a distances-only BFS: no parents and no parent queues.
    pub parents: Option<&'a mut CudaSlice<u32>>,
    pub visited: &'a mut CudaSlice<u32>,
    pub vertex_queue: &'a mut CudaSlice<u32>,
    /// Two edge queues of `edge_capacity` entries each, back to back; the parent queues alike.
    pub edge_queues: &'a mut CudaSlice<u32>,
    pub parent_queues: Option<&'a mut CudaSlice<u32>>,
    pub control: &'a mut CudaSlice<u64>,
    pub trace: &'a mut CudaSlice<u64>,
}

/// Blocks of `bfs_edge_queue` that fit on the GPU at once.
pub fn edge_queue_grid_blocks(gpu: &GpuContext) -> Result<u32, GpuError> {
    resident_blocks(gpu, names::BFS_EDGE_QUEUE, EDGE_QUEUE_BLOCK)
}

/// The sub-grid tier's blocks for a grid of `grid_blocks` on `multiprocessors` SMs: one block an
/// SM, where the grid has more (none otherwise: the tier would be the grid), and only on graphs
/// whose tiles are not spread (`spread`: lists of 32 edges or more). There, on roads and grids,
/// the tier took 6-18% off against the whole grid; on the social and web graphs, whose medium
/// levels copy hub lists, it cost 5-15% (bench/NOTES.md 31).
pub fn edge_queue_sub_grid_blocks(grid_blocks: u32, multiprocessors: u32, spread: bool) -> u32 {
    if grid_blocks > multiprocessors && !spread {
        multiprocessors
    } else {
        0
    }
}

/// `bfs_persistent_init` for the edge-queue kernel (no frontier bitmaps), then `bfs_edge_queue`:
/// the whole top-down BFS from `source` by `strategy` in one cooperative launch, with the
/// sub-grid tier of [`edge_queue_sub_grid_blocks`], which this sets in `strategy`.
pub fn bfs_edge_queue(
    gpu: &GpuContext,
    graph: &DeviceGraph,
    source: u32,
    buffers: &mut EdgeQueueBuffers<'_>,
    strategy: EdgeQueueStrategy,
) -> Result<(), GpuError> {
    let kernel = names::BFS_EDGE_QUEUE;
    let n = graph.num_vertices();
    let m = graph.num_edges();
    let EdgeQueueBuffers { distances, parents, visited, vertex_queue, edge_queues, parent_queues, control, trace } =
        buffers;
    let edge_capacity = (edge_queues.len() / 2) as u64;
    require(kernel, !graph.is_compressed(), || "a compressed graph: it reads plain CSR lists".into())?;
    require(
        kernel,
        source < n
            && m < 1 << 32
            && distances.len() >= n as usize
            && parents.as_ref().is_none_or(|p| p.len() >= n as usize)
            && parents.is_some() == parent_queues.is_some()
            && parent_queues.as_ref().is_none_or(|q| q.len() >= edge_queues.len())
            && visited.len() >= (n as usize).div_ceil(32)
            && vertex_queue.len() >= n.max(1) as usize
            && edge_capacity >= m.max(1)
            && control.len() >= EDGE_QUEUE_CONTROL_WORDS
            && trace.len() >= 2 * EDGE_TRACE_WORDS,
        || format!("source {source}, {n} vertices, {m} edges, edge queues of {edge_capacity}, strategy {strategy:?}"),
    )?;
    let trace_capacity = (trace.len() / EDGE_TRACE_WORDS - 1) as u32;
    init_top_down(gpu, distances, parents.as_deref_mut(), visited, vertex_queue, n, source)?;
    let blocks = edge_queue_grid_blocks(gpu)?;
    let sub_grid = edge_queue_sub_grid_blocks(blocks, gpu.multiprocessors(), strategy.spread_tiles());
    let stream = gpu.stream();
    let mut launch = Launch::new(gpu);
    let params = BfsEdgeQueueParams {
        offsets: DeviceAddress::new(graph.offsets.device_ptr(stream)),
        targets: DeviceAddress::new(graph.targets.device_ptr(stream)),
        distances: launch.write(distances),
        parents: launch.write_or_null(parents.as_deref_mut()),
        visited: launch.write(visited),
        vertex_queue: launch.write(vertex_queue),
        edge_queues: launch.write(edge_queues),
        parent_queues: launch.write_or_null(parent_queues.as_deref_mut()),
        edge_capacity,
        control: DeviceAddress::new(launch.write(control).address),
        trace: launch.write(trace),
        trace_capacity,
        strategy: strategy.with_sub_grid_blocks(sub_grid),
    };
    launch.run(blocks_of(blocks, EDGE_QUEUE_BLOCK), Residency::Cooperative, &params)
}

/// `bfs_persistent_init` for the top-down-only kernels (edge queues, cluster): every vertex
/// unreached, `source` labeled and visited and alone in `queue`; no frontier bitmaps, and no
/// vertex visited up front (top-down never meets one with an empty in-list anyway). The caller
/// checked the buffers' lengths for the graph's `n` vertices.
fn init_top_down(
    gpu: &GpuContext,
    distances: &mut CudaSlice<u32>,
    parents: Option<&mut CudaSlice<u32>>,
    visited: &mut CudaSlice<u32>,
    queue: &mut CudaSlice<u32>,
    n: u32,
    source: u32,
) -> Result<(), GpuError> {
    let mut launch = Launch::new(gpu);
    let init = BfsPersistentInitParams {
        distances: launch.write(distances),
        parents: launch.write_or_null(parents),
        visited: launch.write(visited),
        frontier_bits: DeviceAddress::NULL,
        queue: launch.write(queue),
        n,
        source,
        unreachable: DeviceAddress::NULL,
    };
    launch.run(grid_for(gpu, n as u64, PER_LEVEL_BLOCK), Residency::Any, &init)
}

/// The buffers of `bfs_cluster`.
pub struct ClusterBuffers<'a> {
    pub distances: &'a mut CudaSlice<u32>,
    /// With `candidates`, or neither for distances only.
    pub parents: Option<&'a mut CudaSlice<u32>>,
    pub candidates: Option<&'a mut CudaSlice<u32>>,
    /// What `bfs_persistent_init` also writes: a visited bitmap and a one-entry queue, which
    /// the cluster kernel keeps in shared memory instead.
    pub visited: &'a mut CudaSlice<u32>,
    pub queue: &'a mut CudaSlice<u32>,
    pub levels: &'a mut CudaSlice<u32>,
    pub trace: &'a mut CudaSlice<u64>,
}

/// `bfs_persistent_init`, then `bfs_cluster`: the BFS from `source` in one thread-block
/// cluster of a Hopper GPU (refused below compute capability 9.0, and for graphs the cluster's
/// bitmaps cannot hold or of 2^32 edges or more).
pub fn bfs_cluster(
    gpu: &GpuContext,
    graph: &DeviceGraph,
    source: u32,
    buffers: ClusterBuffers<'_>,
) -> Result<(), GpuError> {
    let kernel = names::BFS_CLUSTER;
    let n = graph.num_vertices();
    let m = graph.num_edges();
    let ClusterBuffers { distances, mut parents, candidates, visited, queue, levels, trace } = buffers;
    require(kernel, !graph.is_compressed(), || "a compressed graph: it reads plain CSR lists".into())?;
    let words = cluster_words(n as u64);
    require(
        kernel,
        source < n
            && m < 1 << 32
            && words.is_some()
            && distances.len() >= n as usize
            && parents.as_ref().is_none_or(|p| p.len() >= n as usize)
            && parents.is_some() == candidates.is_some()
            && candidates.as_ref().is_none_or(|c| c.len() >= 2 * n as usize)
            && visited.len() >= (n as usize).div_ceil(32)
            && !queue.is_empty()
            && !levels.is_empty()
            && trace.len() >= 2 * EDGE_TRACE_WORDS,
        || format!("source {source}, {n} vertices, {m} edges"),
    )?;
    let words = words.unwrap_or(1);
    let lists = cluster_lists(n as u64, BFS_CLUSTER_BITMAPS, words);
    let trace_capacity = (trace.len() / EDGE_TRACE_WORDS - 1) as u32;
    init_top_down(gpu, distances, parents.as_deref_mut(), visited, queue, n, source)?;
    let stream = gpu.stream();
    let mut launch = Launch::new(gpu);
    let params = BfsClusterParams {
        offsets: DeviceAddress::new(graph.offsets.device_ptr(stream)),
        targets: DeviceAddress::new(graph.targets.device_ptr(stream)),
        distances: launch.write(distances),
        parents: launch.write_or_null(parents),
        candidates: launch.write_or_null(candidates),
        levels: launch.write(levels),
        trace: launch.write(trace),
        n,
        words,
        lists,
        trace_capacity,
        source,
    };
    let config = LaunchConfig {
        grid_dim: (CLUSTER_BLOCKS, 1, 1),
        block_dim: (CLUSTER_BLOCK, 1, 1),
        shared_mem_bytes: cluster_shared_bytes(BFS_CLUSTER_BITMAPS, words, lists),
    };
    launch.run(config, Residency::Cluster, &params)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::gpu::BottomUpBalance;
    use crate::bfs::switching::SwitchRule;

    /// The flag words the kernels read, bit by bit as `device/src/kernels/bfs_persistent`
    /// decodes them (bit 0 bottom-up, 1 small frontiers, 2-3 mapped offsets and lists, 4-5
    /// balance, 6 async, 7 distances only, 8 XBFS rule, 9 adaptive, 10 double-scan, 11-13
    /// chunk, 14 checks rule).
    #[test]
    fn persistent_flags_pack_the_parameters() {
        let device = Layout::from(Placement::Device);
        let defaults = PersistentParams::default();
        assert_eq!(persistent_flags(&defaults, device, true).bits(), 1 | 2 | 1 << 9 | 1 << 14);
        assert_eq!(persistent_flags(&defaults, device, false).bits(), 1 | 2 | 1 << 7 | 1 << 9 | 1 << 14);
        let every = PersistentParams {
            switch_rule: SwitchRule::Xbfs,
            adaptive_frontier: false,
            small_frontiers: false,
            bottom_up_balance: BottomUpBalance::Warp,
            async_bottom_up: true,
            double_scan: true,
            bottom_up_chunk: 8,
            ..defaults
        };
        let mapped = Layout { offsets: Placement::ZeroCopy, lists: Placement::ZeroCopy };
        assert_eq!(
            persistent_flags(&every, mapped, true).bits(),
            1 | 4 | 8 | 2 << 4 | 1 << 6 | 1 << 8 | 1 << 10 | 4 << 11
        );
        let beamer = PersistentParams {
            switch_rule: SwitchRule::Beamer,
            bottom_up_balance: BottomUpBalance::Thread,
            ..defaults
        };
        assert_eq!(persistent_flags(&beamer, device, true).bits(), 1 | 2 | 1 << 4 | 1 << 9);
    }

    #[test]
    fn the_sub_grid_is_one_block_an_sm_on_graphs_without_spread_tiles() {
        assert_eq!(super::edge_queue_sub_grid_blocks(396, 132, false), 132);
        assert_eq!(super::edge_queue_sub_grid_blocks(396, 132, true), 0);
        assert_eq!(super::edge_queue_sub_grid_blocks(132, 132, false), 0);
    }
}
