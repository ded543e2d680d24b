//! Typed launchers for the traversal kernels in `device/src/kernels/`. Each checks the
//! kernel's pointer contract (buffer lengths) before the launch, so a wrong call is an error
//! here rather than a memory fault on the device.

use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DevicePtrMut, LaunchConfig, SyncOnDrop};

use crate::gpu::{DeviceGraph, GpuContext, GpuError, Placement};

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
pub fn bfs_init(
    gpu: &GpuContext,
    distances: &mut CudaSlice<u32>,
    parents: &mut CudaSlice<u32>,
    source: u32,
) -> Result<(), GpuError> {
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
pub fn bfs_topdown_expand(
    gpu: &GpuContext,
    graph: &DeviceGraph,
    level: u32,
    buffers: LevelBuffers<'_>,
) -> Result<(), GpuError> {
    let n = graph.num_vertices() as usize;
    let LevelBuffers { distances, parents, frontier, frontier_len, next, next_len } = buffers;
    require("bfs_topdown_expand", !graph.is_compressed(), || {
        "a compressed graph: the per-level kernel reads only plain CSR lists".to_string()
    })?;
    require(
        "bfs_topdown_expand",
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
    let (offsets, targets) = (graph.offsets.device_ptr(gpu.stream()), graph.targets.device_ptr(gpu.stream()));
    launch!(
        gpu,
        "bfs_topdown_expand",
        grid_for(gpu, frontier_len as u64, BFS_BLOCK),
        [&offsets, &targets, distances, parents, frontier, &frontier_len, next, next_len, &level]
    )
}

/// Threads per block of the persistent BFS kernel (`PERSISTENT_BLOCK` in the device crate).
pub const PERSISTENT_BLOCK: u32 = 256;

/// Adjacency lists this long or longer are shared out to the whole grid (`SHARED_LIST_EDGES`
/// in the device crate); the table needs at most `edges / SHARED_LIST_EDGES` entries a level.
pub const SHARED_LIST_EDGES: u64 = PERSISTENT_BLOCK as u64;

/// Words per shared-list entry (`SHARED_LIST_WORDS` in the device crate).
pub const SHARED_LIST_WORDS: usize = 3;

/// The persistent BFS's control block, laid out as `BfsControl` in
/// `device/src/kernels/bfs_persistent/mod.rs` (10 words of 32 bits, then 14 of 64).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, bytemuck::Pod, bytemuck::Zeroable)]
pub struct PersistentControl {
    pub barrier_arrivals: u32,
    pub frontier_len: [u32; 3],
    pub queue_fill: [u32; 3],
    pub levels: u32,
    pub handoff_level: u32,
    pub handoff_previous_frontier: u32,
    pub handoff_unvisited_vertices: u32,
    pub in_listed_vertices: u32,
    pub frontier_edges: [u64; 3],
    pub shared_tally: [u64; 3],
    pub handoff_unvisited_edges: u64,
    pub bottom_up_fetched: [u64; 3],
    pub async_pending: [u64; 3],
    pub handoff_previous_edges: u64,
}

/// Words of 64 bits that hold a [`PersistentControl`] on the device.
pub const CONTROL_WORDS: usize = std::mem::size_of::<PersistentControl>() / 8;

/// Words per trace record (`TRACE_WORDS` in the device crate): flags, frontier, edges
/// inspected, bytes read, bus bytes, `m_f`, `m_u`, start time.
pub const TRACE_WORDS: usize = 8;

/// Bits of a trace record's flags word (`TRACE_*` in the device crate).
pub const TRACE_BOTTOM_UP: u64 = 1;
pub const TRACE_ALONE: u64 = 2;
pub const TRACE_PACKED_QUEUE: u64 = 4;
pub const TRACE_BUILT_BITMAP: u64 = 8;
pub const TRACE_WROTE_QUEUE: u64 = 16;
pub const TRACE_WROTE_BITMAP: u64 = 32;
pub const TRACE_PREDICTED_SWITCH: u64 = 64;
/// Trace flag: a bottom-up level ran over the double-scan's queue of unvisited vertices.
pub const TRACE_DOUBLE_SCAN: u64 = 128;

/// Edges between restart points of a long compressed list (`RESTART_EDGES` in the device
/// crate), and the list length from which the kernel cuts lists into pieces there (its
/// `SHARED_LIST_EDGES`).
pub const RESTART_EDGES: u64 = 256;
pub const RESTART_MIN_EDGES: u64 = SHARED_LIST_EDGES;

/// Device buffers of the persistent BFS.
pub struct PersistentBuffers<'a> {
    pub distances: &'a mut CudaSlice<u32>,
    /// None for a distances-only BFS: the kernels then get a null pointer and
    /// [`DISTANCES_ONLY_FLAG`], and write no parent.
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
    buffers.check("bfs_persistent_init", n as usize)?;
    require("bfs_persistent_init", source < n, || format!("source {source} of {n} vertices"))?;
    if let Some(in_lists) = in_lists {
        require("bfs_persistent_init", in_lists.num_vertices() == n, || {
            format!("in-lists of {} vertices for a BFS of {n}", in_lists.num_vertices())
        })?;
    }
    let config = grid_for(gpu, n as u64, BFS_BLOCK);
    let PersistentBuffers { distances, parents, visited, frontier_bits, queues, .. } = buffers;
    let stream = gpu.stream();
    let (parents, _parents_written) = parents_pointer(parents, stream);
    // Null: no vertex starts out visited but the source.
    let unreachable = in_lists.map_or(0u64, |graph| graph.empty_lists.device_ptr(stream).0);
    launch!(
        gpu,
        "bfs_persistent_init",
        config,
        [&mut **distances, &parents, &mut **visited, &mut **frontier_bits, &mut **queues, &n, &source, &unreachable]
    )
}

/// The kernels' `parents` argument: the buffer's address, or null for a distances-only BFS
/// (the kernels' contract: with [`DISTANCES_ONLY_FLAG`] they never touch it). Keep the guard
/// until after the launch: dropping it records the kernel's write for cudarc's stream tracking.
fn parents_pointer<'s>(
    parents: &'s mut Option<&mut CudaSlice<u32>>,
    stream: &'s CudaStream,
) -> (u64, Option<SyncOnDrop<'s>>) {
    match parents {
        Some(parents) => {
            let (pointer, written) = parents.device_ptr_mut(stream);
            (pointer, Some(written))
        }
        None => (0, None),
    }
}

/// The persistent kernels' flag bit for a distances-only BFS (`DISTANCES_ONLY_BIT` in the
/// device crate): set exactly when the buffers hold no parents.
pub const DISTANCES_ONLY_BIT: u32 = 7;
pub const DISTANCES_ONLY_FLAG: u32 = 1 << DISTANCES_ONLY_BIT;

/// Where the persistent kernel's flags hold the bottom-up balancing, and its values
/// (`BOTTOM_UP_BALANCE_SHIFT`, `BOTTOM_UP_STATIC`, `BOTTOM_UP_THREAD`, `BOTTOM_UP_WARP` in
/// the device crate).
pub const BOTTOM_UP_BALANCE_SHIFT: u32 = 4;
pub const BOTTOM_UP_STATIC: u32 = 0;
pub const BOTTOM_UP_THREAD: u32 = 1;
pub const BOTTOM_UP_WARP: u32 = 2;

/// The bit of the persistent kernel's flags that allows asynchronous bottom-up labeling
/// (`ASYNC_BOTTOM_UP_BIT` in the device crate; XBFS section 5.2, Algorithm 3).
pub const ASYNC_BOTTOM_UP_BIT: u32 = 6;

/// The bits of the persistent kernel's flags that pick XBFS's switching rule and turn on
/// adaptive frontier generation (`SWITCH_XBFS_BIT`, `ADAPTIVE_FRONTIER_BIT` in the device
/// crate).
pub const SWITCH_XBFS_BIT: u32 = 8;
pub const SWITCH_CHECKS_BIT: u32 = 14;
pub const ADAPTIVE_FRONTIER_BIT: u32 = 9;
/// The flag bit for XBFS's double-scan bottom-up levels (`DOUBLE_SCAN_BIT`).
pub const DOUBLE_SCAN_BIT: u32 = 10;
/// Where the flags hold the bottom-up chunk width (`BOTTOM_UP_CHUNK_SHIFT`): 0 for the
/// kernel's choice, `k` for `2^(k - 1)` bitmap words.
pub const BOTTOM_UP_CHUNK_SHIFT: u32 = 11;

/// The bottom-up chunk widths the kernel takes: 0 (its choice) and the powers of two to 32.
pub const BOTTOM_UP_CHUNKS: [u32; 7] = [0, 1, 2, 4, 8, 16, 32];

/// The flag bits for a bottom-up chunk of `words` bitmap words (one of [`BOTTOM_UP_CHUNKS`]).
fn chunk_flag_bits(words: u32) -> u32 {
    let code = if words == 0 { 0 } else { words.trailing_zeros() + 1 };
    code << BOTTOM_UP_CHUNK_SHIFT
}

pub use crate::bfs::switching::SwitchRule;

/// How the persistent kernel's bottom-up levels share the bitmap words (32 vertices each)
/// out among warps (XBFS, Gaihre et al., HPDC 2019, section 5.1; the device crate's `Balance`
/// documents each).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BottomUpBalance {
    /// Words in grid-stride order, one lane per vertex (XBFS's static solution).
    #[default]
    Static,
    /// Words fetched from an atomic work counter as warps finish, one lane per vertex
    /// (XBFS Algorithm 1, thread-centric dynamic balancing).
    Thread,
    /// Words fetched from the work counter, each vertex's in-list searched by the whole warp
    /// (XBFS Algorithm 2, warp-centric).
    Warp,
}

impl BottomUpBalance {
    pub const ALL: [BottomUpBalance; 3] = [BottomUpBalance::Static, BottomUpBalance::Thread, BottomUpBalance::Warp];

    /// The name used on the command line, in reports and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            BottomUpBalance::Static => "static",
            BottomUpBalance::Thread => "thread",
            BottomUpBalance::Warp => "warp",
        }
    }

    /// The value of bits 4-5 of the kernel's flags.
    fn flag_bits(self) -> u32 {
        let value = match self {
            BottomUpBalance::Static => BOTTOM_UP_STATIC,
            BottomUpBalance::Thread => BOTTOM_UP_THREAD,
            BottomUpBalance::Warp => BOTTOM_UP_WARP,
        };
        value << BOTTOM_UP_BALANCE_SHIFT
    }
}

impl std::fmt::Display for BottomUpBalance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for BottomUpBalance {
    type Err = crate::Error;

    fn from_str(s: &str) -> crate::Result<Self> {
        BottomUpBalance::ALL.into_iter().find(|b| b.name() == s).ok_or_else(|| {
            crate::Error::InvalidArgument(format!("unknown bottom-up balance `{s}`: expected static, thread or warp"))
        })
    }
}

/// Tuning of the persistent BFS.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PersistentParams {
    /// Which rule picks each level's direction; `alpha` and `beta` are its parameters
    /// (XBFS's rule has only `alpha`, a fraction of the edges).
    pub switch_rule: SwitchRule,
    pub alpha: f32,
    pub beta: f32,
    /// Adaptive frontier generation (XBFS section 4): the level before a predicted switch
    /// writes the next frontier the way the next direction reads it.
    pub adaptive_frontier: bool,
    pub bottom_up: bool,
    pub small_frontiers: bool,
    /// How bottom-up levels balance their work.
    pub bottom_up_balance: BottomUpBalance,
    /// Asynchronous bottom-up (XBFS section 5.2, Algorithm 3): a bottom-up pass over a large
    /// frontier also labels, two levels deep, the vertices it finds with no parent in the
    /// frontier but one in the next frontier being written, so the next pass skips them.
    pub async_bottom_up: bool,
    /// XBFS's double-scan (section 4.2): bottom-up levels run over a packed queue of the
    /// unvisited vertices instead of the visited bitmap's words. Synchronous, static balance
    /// and a graph in device memory only.
    pub double_scan: bool,
    /// Bitmap words a warp takes at once in synchronous, statically balanced bottom-up levels
    /// (a power of two up to 32; 1 is the word-by-word loop), or 0 to let the kernel choose
    /// from the graph's size. Graphs read over the bus always take 1.
    pub bottom_up_chunk: u32,
}

/// Blocks of the persistent kernel that fit on the GPU at once (a cooperative launch must not
/// ask for more).
pub fn persistent_grid_blocks(gpu: &GpuContext) -> Result<u32, GpuError> {
    resident_blocks(gpu, "bfs_persistent", PERSISTENT_BLOCK)
}

/// Blocks of `block` threads of `kernel` that fit on the GPU at once, by the driver's
/// occupancy calculator.
fn resident_blocks(gpu: &GpuContext, kernel: &'static str, block: u32) -> Result<u32, GpuError> {
    let per_sm = gpu
        .function(kernel)?
        .occupancy_max_active_blocks_per_multiprocessor(block, 0, None)
        .map_err(|e| GpuError::driver("cuOccupancyMaxActiveBlocksPerMultiprocessor", e))?;
    Ok(per_sm.max(1) * gpu.multiprocessors())
}

/// `bfs_persistent`: the whole direction-optimizing BFS in one cooperative launch. `inbound`
/// is the transpose of `graph` (the same graph when undirected).
pub fn bfs_persistent(
    gpu: &GpuContext,
    graph: &DeviceGraph,
    inbound: &DeviceGraph,
    max_out_degree: u64,
    buffers: &mut PersistentBuffers<'_>,
    params: PersistentParams,
) -> Result<(), GpuError> {
    let n = graph.num_vertices();
    buffers.check("bfs_persistent", n as usize)?;
    require("bfs_persistent", inbound.num_vertices() == n && inbound.num_edges() == graph.num_edges(), || {
        format!("a transpose of {} vertices and {} edges", inbound.num_vertices(), inbound.num_edges())
    })?;
    let trace_capacity = (buffers.trace.len() / TRACE_WORDS - 1) as u32;
    let shared_list_capacity = (buffers.shared_lists.len() / SHARED_LIST_WORDS).min(u32::MAX as usize) as u32;
    require("bfs_persistent", shared_list_capacity as u64 > graph.num_edges() / SHARED_LIST_EDGES, || {
        format!("a shared-list table of {shared_list_capacity} entries for {} edges", graph.num_edges())
    })?;
    require(
        "bfs_persistent",
        graph.is_compressed() == inbound.is_compressed() && graph.layout() == inbound.layout(),
        || "a graph and transpose in different formats or places".to_string(),
    )?;
    let zero_copy = graph.layout().offsets == Placement::ZeroCopy || graph.layout().lists == Placement::ZeroCopy;
    require("bfs_persistent", params.double_scan_conflict(zero_copy).is_none(), || {
        format!("double-scan parameters it cannot run: {params:?}")
    })?;
    require("bfs_persistent", BOTTOM_UP_CHUNKS.contains(&params.bottom_up_chunk), || {
        format!("a bottom-up chunk of {} words (0 or a power of two up to 32)", params.bottom_up_chunk)
    })?;
    let blocks = persistent_grid_blocks(gpu)?;
    let config = LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (PERSISTENT_BLOCK, 1, 1), shared_mem_bytes: 0 };
    let total_edges = graph.num_edges();
    // Bits 2 and 3 tell the trace which arrays are read over the bus; bits 4-5 pick the
    // bottom-up balancing; bit 6 allows asynchronous bottom-up labeling; bit 7 says there is no
    // parents buffer to write; bit 8 picks XBFS's switching rule, bit 14 the checks rule; bit 9
    // adaptive generation; bit 10 double-scan bottom-up levels; bits 11-13 the bottom-up chunk
    // width.
    let mapped = |placement: Placement| placement == Placement::ZeroCopy;
    let layout = graph.layout();
    let flags = params.bottom_up as u32
        | (params.small_frontiers as u32) << 1
        | (mapped(layout.offsets) as u32) << 2
        | (mapped(layout.lists) as u32) << 3
        | params.bottom_up_balance.flag_bits()
        | (params.async_bottom_up as u32) << ASYNC_BOTTOM_UP_BIT
        | ((params.switch_rule == SwitchRule::Xbfs) as u32) << SWITCH_XBFS_BIT
        | ((params.switch_rule == SwitchRule::Checks) as u32) << SWITCH_CHECKS_BIT
        | (params.adaptive_frontier as u32) << ADAPTIVE_FRONTIER_BIT
        | (params.double_scan as u32) << DOUBLE_SCAN_BIT
        | chunk_flag_bits(params.bottom_up_chunk)
        | if buffers.parents.is_none() { DISTANCES_ONLY_FLAG } else { 0 };
    let PersistentBuffers { distances, parents, visited, frontier_bits, queues, control, shared_lists, trace } =
        buffers;
    let stream = gpu.stream();
    let (parents, _parents_written) = parents_pointer(parents, stream);
    let (out_offsets, out_edges) = (graph.offsets.device_ptr(stream), graph.targets.device_ptr(stream));
    let (in_offsets, in_edges) = (inbound.offsets.device_ptr(stream), inbound.targets.device_ptr(stream));
    // Null pointers tell the kernel there are no list heads in device memory.
    let (in_heads, in_head_skips) = match &inbound.heads {
        Some(heads) => (heads.neighbors.device_ptr(stream).0, heads.skips.device_ptr(stream).0),
        None => (0u64, 0u64),
    };
    match &graph.compressed {
        None => launch!(cooperative gpu, "bfs_persistent", config, [
            &out_offsets, &out_edges, &in_offsets, &in_edges,
            &n, &total_edges, &max_out_degree,
            &mut **distances, &parents, &mut **visited, &mut **frontier_bits, &mut **queues,
            &mut **control, &mut **shared_lists, &shared_list_capacity, &mut **trace, &trace_capacity,
            &params.alpha, &params.beta, &flags, &in_heads, &in_head_skips,
        ]),
        Some(extras) => launch!(cooperative gpu, "bfs_persistent_compressed", config, [
            &out_offsets, &out_edges, &in_offsets, &in_edges,
            &extras.degrees, &extras.restart_points, &extras.long_vertices, &extras.long_first, &extras.long_count,
            &n, &total_edges, &max_out_degree,
            &mut **distances, &parents, &mut **visited, &mut **frontier_bits, &mut **queues,
            &mut **control, &mut **shared_lists, &shared_list_capacity, &mut **trace, &trace_capacity,
            &params.alpha, &params.beta, &flags, &in_heads, &in_head_skips,
        ]),
    }
}

/// Threads per block of the edge-queue BFS kernel (`EDGE_QUEUE_BLOCK` in the device crate).
pub const EDGE_QUEUE_BLOCK: u32 = 256;

/// The `strategy` argument of `bfs_edge_queue` (`STRATEGY_*` in the device crate).
pub const STRATEGY_CONTRACT_EXPAND: u32 = 0;
pub const STRATEGY_TWO_PHASE: u32 = 1;
pub const STRATEGY_HYBRID: u32 = 2;
/// The bit of `strategy` that spreads a small level's tiles over the warps of every block
/// (`SPREAD_TILES_BIT`), for graphs with lists that a warp enlists.
pub const SPREAD_TILES_BIT: u32 = 8;
/// Where `strategy` holds the sub-grid tier's block count (`SUB_GRID_SHIFT`; 0: no tier).
pub const SUB_GRID_SHIFT: u32 = 16;

/// Words per trace record of the edge-queue kernel (`EDGE_TRACE_WORDS`): flags, edge-queue
/// items contracted, vertices claimed, start time; and the flags of a fused level and of one
/// block 0 ran alone.
pub const EDGE_TRACE_WORDS: usize = 4;
pub const EDGE_TRACE_FUSED: u64 = 1;
pub const EDGE_TRACE_ALONE: u64 = 2;
/// The flag of a level the sub-grid ran.
pub const EDGE_TRACE_SUB_GRID: u64 = 4;

/// The edge-queue BFS's control block, laid out as `EdgeQueueControl` in
/// `device/src/kernels/bfs_edge_queue.rs`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, bytemuck::Pod, bytemuck::Zeroable)]
pub struct EdgeQueueControl {
    pub barrier_arrivals: u32,
    pub vertex_count: [u32; 3],
    pub edge_count: [u64; 3],
    pub levels: u32,
    pub handoff_level: u32,
    pub sub_grid_arrivals: u32,
    pub spare: u32,
}

/// Words of 64 bits that hold an [`EdgeQueueControl`] on the device.
pub const EDGE_QUEUE_CONTROL_WORDS: usize = std::mem::size_of::<EdgeQueueControl>() / 8;

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
    resident_blocks(gpu, "bfs_edge_queue", EDGE_QUEUE_BLOCK)
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
/// the whole top-down BFS from `source` by `strategy` (`STRATEGY_*`, optionally with bit
/// `SPREAD_TILES_BIT`) in one cooperative launch, with the sub-grid tier of
/// [`edge_queue_sub_grid_blocks`], which this sets in `strategy`'s high bits.
pub fn bfs_edge_queue(
    gpu: &GpuContext,
    graph: &DeviceGraph,
    source: u32,
    buffers: &mut EdgeQueueBuffers<'_>,
    strategy: u32,
) -> Result<(), GpuError> {
    let n = graph.num_vertices();
    let m = graph.num_edges();
    let EdgeQueueBuffers { distances, parents, visited, vertex_queue, edge_queues, parent_queues, control, trace } =
        buffers;
    let edge_capacity = (edge_queues.len() / 2) as u64;
    require("bfs_edge_queue", !graph.is_compressed(), || "a compressed graph: it reads plain CSR lists".into())?;
    require(
        "bfs_edge_queue",
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
            && trace.len() >= 2 * EDGE_TRACE_WORDS
            && strategy & 0xff <= STRATEGY_HYBRID
            && strategy >> SPREAD_TILES_BIT <= 1,
        || format!("source {source}, {n} vertices, {m} edges, edge queues of {edge_capacity}, strategy {strategy}"),
    )?;
    let trace_capacity = (trace.len() / EDGE_TRACE_WORDS - 1) as u32;
    let stream = gpu.stream();
    let (parents_ptr, _parents_written) = parents_pointer(parents, stream);
    let (parent_queues_ptr, _queues_written) = parents_pointer(parent_queues, stream);
    // Null: no frontier bitmaps, and no vertex visited up front (top-down never meets one
    // with an empty in-list anyway).
    let null = 0u64;
    launch!(
        gpu,
        "bfs_persistent_init",
        grid_for(gpu, n as u64, BFS_BLOCK),
        [&mut **distances, &parents_ptr, &mut **visited, &null, &mut **vertex_queue, &n, &source, &null]
    )?;
    let blocks = edge_queue_grid_blocks(gpu)?;
    let spread = strategy >> SPREAD_TILES_BIT != 0;
    let strategy = strategy | edge_queue_sub_grid_blocks(blocks, gpu.multiprocessors(), spread) << SUB_GRID_SHIFT;
    let config = LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (EDGE_QUEUE_BLOCK, 1, 1), shared_mem_bytes: 0 };
    let (offsets, targets) = (graph.offsets.device_ptr(stream), graph.targets.device_ptr(stream));
    launch!(cooperative gpu, "bfs_edge_queue", config, [
        &offsets, &targets, &mut **distances, &parents_ptr, &mut **visited, &mut **vertex_queue,
        &mut **edge_queues, &parent_queues_ptr, &edge_capacity, &mut **control, &mut **trace, &trace_capacity,
        &strategy,
    ])
}

#[cfg(test)]
mod tests {
    /// The constants this file mirrors, read from the device crate's source: a mismatch would
    /// make the host misread the kernels' buffers (as a 5-word trace read against 6 once did).
    /// The value of `pub const NAME: T = VALUE;` in a device source file.
    fn device_const(source: &str, name: &str) -> u64 {
        let line = source
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("pub const {name}:")))
            .unwrap_or_else(|| panic!("no `pub const {name}` in the device crate"));
        line.rsplit('=').next().unwrap().trim().trim_end_matches(';').parse().unwrap()
    }

    /// The `pub` fields of `pub struct NAME` in a device source file, as `name:type`.
    fn device_struct_fields(source: &str, name: &str) -> Vec<String> {
        let body = source.split(&format!("pub struct {name} {{")).nth(1).unwrap().split("\n}").next().unwrap();
        body.lines()
            .filter_map(|l| l.trim().strip_prefix("pub "))
            .map(|l| l.trim_end_matches(',').replace(' ', ""))
            .collect()
    }

    #[test]
    fn mirrored_constants_match_the_device_crate() {
        let sources = [
            include_str!("../../../device/src/kernels/bfs_persistent/mod.rs"),
            include_str!("../../../device/src/kernels/bfs_persistent/compressed.rs"),
        ]
        .concat();
        let device_value = |name: &str| device_const(&sources, name);
        assert_eq!(device_value("PERSISTENT_BLOCK"), super::PERSISTENT_BLOCK as u64);
        assert_eq!(device_value("SHARED_LIST_WORDS"), super::SHARED_LIST_WORDS as u64);
        assert_eq!(device_value("TRACE_WORDS"), super::TRACE_WORDS as u64);
        assert_eq!(device_value("RESTART_EDGES"), super::RESTART_EDGES);
        assert_eq!(device_value("BOTTOM_UP_BALANCE_SHIFT"), super::BOTTOM_UP_BALANCE_SHIFT as u64);
        assert_eq!(device_value("BOTTOM_UP_STATIC"), super::BOTTOM_UP_STATIC as u64);
        assert_eq!(device_value("BOTTOM_UP_THREAD"), super::BOTTOM_UP_THREAD as u64);
        assert_eq!(device_value("BOTTOM_UP_WARP"), super::BOTTOM_UP_WARP as u64);
        assert_eq!(device_value("ASYNC_BOTTOM_UP_BIT"), super::ASYNC_BOTTOM_UP_BIT as u64);
        assert_eq!(device_value("DISTANCES_ONLY_BIT"), super::DISTANCES_ONLY_BIT as u64);
        assert_eq!(device_value("SWITCH_XBFS_BIT"), super::SWITCH_XBFS_BIT as u64);
        assert_eq!(device_value("SWITCH_CHECKS_BIT"), super::SWITCH_CHECKS_BIT as u64);
        assert_eq!(device_value("ADAPTIVE_FRONTIER_BIT"), super::ADAPTIVE_FRONTIER_BIT as u64);
        assert_eq!(device_value("DOUBLE_SCAN_BIT"), super::DOUBLE_SCAN_BIT as u64);
        assert_eq!(device_value("BOTTOM_UP_CHUNK_SHIFT"), super::BOTTOM_UP_CHUNK_SHIFT as u64);
        assert_eq!(device_value("TRACE_BOTTOM_UP"), super::TRACE_BOTTOM_UP);
        assert_eq!(device_value("TRACE_ALONE"), super::TRACE_ALONE);
        assert_eq!(device_value("TRACE_PACKED_QUEUE"), super::TRACE_PACKED_QUEUE);
        assert_eq!(device_value("TRACE_BUILT_BITMAP"), super::TRACE_BUILT_BITMAP);
        assert_eq!(device_value("TRACE_WROTE_QUEUE"), super::TRACE_WROTE_QUEUE);
        assert_eq!(device_value("TRACE_WROTE_BITMAP"), super::TRACE_WROTE_BITMAP);
        assert_eq!(device_value("TRACE_PREDICTED_SWITCH"), super::TRACE_PREDICTED_SWITCH);
        assert_eq!(device_value("TRACE_DOUBLE_SCAN"), super::TRACE_DOUBLE_SCAN);
    }

    #[test]
    fn the_sub_grid_is_one_block_an_sm_on_graphs_without_spread_tiles() {
        assert_eq!(super::edge_queue_sub_grid_blocks(396, 132, false), 132);
        assert_eq!(super::edge_queue_sub_grid_blocks(396, 132, true), 0);
        assert_eq!(super::edge_queue_sub_grid_blocks(132, 132, false), 0);
    }

    #[test]
    fn edge_queue_constants_and_control_block_match_the_device_crate() {
        let source = include_str!("../../../device/src/kernels/bfs_edge_queue.rs");
        let device_value = |name: &str| device_const(source, name);
        assert_eq!(device_value("EDGE_QUEUE_BLOCK"), super::EDGE_QUEUE_BLOCK as u64);
        assert_eq!(device_value("STRATEGY_CONTRACT_EXPAND"), super::STRATEGY_CONTRACT_EXPAND as u64);
        assert_eq!(device_value("STRATEGY_TWO_PHASE"), super::STRATEGY_TWO_PHASE as u64);
        assert_eq!(device_value("STRATEGY_HYBRID"), super::STRATEGY_HYBRID as u64);
        assert_eq!(device_value("SPREAD_TILES_BIT"), super::SPREAD_TILES_BIT as u64);
        assert_eq!(device_value("EDGE_TRACE_WORDS"), super::EDGE_TRACE_WORDS as u64);
        assert_eq!(device_value("EDGE_TRACE_FUSED"), super::EDGE_TRACE_FUSED);
        assert_eq!(device_value("EDGE_TRACE_ALONE"), super::EDGE_TRACE_ALONE);
        assert_eq!(device_value("EDGE_TRACE_SUB_GRID"), super::EDGE_TRACE_SUB_GRID);
        assert_eq!(device_value("SUB_GRID_SHIFT"), super::SUB_GRID_SHIFT as u64);
        let fields = device_struct_fields(source, "EdgeQueueControl");
        assert_eq!(
            fields,
            [
                "barrier_arrivals:u32",
                "vertex_count:[u32;3]",
                "edge_count:[u64;3]",
                "levels:u32",
                "handoff_level:u32",
                "sub_grid_arrivals:u32",
                "spare:u32"
            ]
        );
        assert_eq!(super::EDGE_QUEUE_CONTROL_WORDS, 7);
    }

    #[test]
    fn bottom_up_balance_names_round_trip() {
        use super::BottomUpBalance;
        for balance in BottomUpBalance::ALL {
            assert_eq!(balance.name().parse::<BottomUpBalance>().unwrap(), balance);
            assert_eq!(serde_json::to_string(&balance).unwrap(), format!("\"{balance}\""));
        }
        assert_eq!(BottomUpBalance::default(), BottomUpBalance::Static);
        let flags: Vec<u32> =
            BottomUpBalance::ALL.iter().map(|b| b.flag_bits() >> super::BOTTOM_UP_BALANCE_SHIFT).collect();
        assert_eq!(flags, [super::BOTTOM_UP_STATIC, super::BOTTOM_UP_THREAD, super::BOTTOM_UP_WARP]);
        let err = "dynamic".parse::<BottomUpBalance>().unwrap_err().to_string();
        assert!(err.contains("`dynamic`") && err.contains("static, thread or warp"), "{err}");
    }

    /// The control block's fields, in order, as the device crate declares them: the host
    /// zeroes and seeds it by this layout.
    #[test]
    fn control_block_fields_match_the_device_crate() {
        let source = include_str!("../../../device/src/kernels/bfs_persistent/mod.rs");
        let fields = device_struct_fields(source, "BfsControl");
        assert_eq!(
            fields,
            [
                "barrier_arrivals:u32",
                "frontier_len:[u32;3]",
                "queue_fill:[u32;3]",
                "levels:u32",
                "handoff_level:u32",
                "handoff_previous_frontier:u32",
                "handoff_unvisited_vertices:u32",
                "in_listed_vertices:u32",
                "frontier_edges:[u64;3]",
                "shared_tally:[u64;3]",
                "handoff_unvisited_edges:u64",
                "bottom_up_fetched:[u64;3]",
                "async_pending:[u64;3]",
                "handoff_previous_edges:u64",
            ]
        );
        assert_eq!(super::CONTROL_WORDS, 6 + 14);
    }
}
