//! Typed launchers for the shortest-paths kernels (`device/src/sssp/`). Each fills the
//! kernel's parameter struct from the interface crate, checks the kernel's buffer contract
//! against it, and launches through [`crate::gpu::launch`].

use cudarc::driver::{CudaSlice, LaunchConfig};
use warpath_interface::cluster::{cluster_lists, cluster_shared_bytes, cluster_words, CLUSTER_BLOCK, CLUSTER_BLOCKS};
use warpath_interface::names;
use warpath_interface::sssp::{
    flags, shared_list_capacity, SsspClusterParams, SsspDecomposedParams, SsspDeltaSteppingParams, SsspInitParams,
    SsspParentsParams, SsspRelaxApartParams, SsspUnpackParams, SsspWeightSumParams, SsspWorklistParams,
    DELTA_CONTROL_WORDS, DELTA_TRACE_WORDS, FUSED_MAX_DEGREE, NEVER_APART, NO_TARGET, SHARED_LIST_WORDS, SSSP_BLOCK,
    SSSP_CLUSTER_BITMAPS, WORKLIST_CONTROL_WORDS,
};
use warpath_interface::DeviceAddress;

use crate::gpu::launch::{blocks_of, grid_for, require, resident_blocks, Launch, Residency};
use crate::gpu::{DeviceGraph, GpuContext, GpuError};
use crate::graph::WeightKind;

/// The graph as the kernels read it: plain lists, the weights (null for unit weights) and the
/// flag bits of their kind.
#[derive(Clone, Copy, Debug)]
pub struct GraphView {
    pub offsets: DeviceAddress<u64>,
    pub targets: DeviceAddress<u32>,
    pub weights: DeviceAddress<u32>,
    pub weight_flags: u32,
    pub n: u32,
    pub m: u64,
    /// Vertices whose list is not empty.
    pub with_edges: u32,
}

impl GraphView {
    /// The view of a placed plain graph (compressed lists hold no weights).
    pub fn of(gpu: &GpuContext, graph: &DeviceGraph) -> Result<GraphView, GpuError> {
        require(names::SSSP_DELTA_STEPPING, !graph.is_compressed(), || {
            "a compressed graph: the shortest-paths kernels read plain lists and their weights".to_string()
        })?;
        let stream = gpu.stream();
        let (weights, weight_flags) = match &graph.weights {
            None => (DeviceAddress::NULL, flags::WEIGHTS_UNIT),
            Some((weights, WeightKind::U32)) => (DeviceAddress::new(weights.device_ptr(stream)), flags::WEIGHTS_U32),
            Some((weights, WeightKind::F32)) => (DeviceAddress::new(weights.device_ptr(stream)), flags::WEIGHTS_F32),
        };
        Ok(GraphView {
            offsets: DeviceAddress::new(graph.offsets.device_ptr(stream)),
            targets: DeviceAddress::new(graph.targets.device_ptr(stream)),
            weights,
            weight_flags,
            n: graph.num_vertices(),
            m: graph.num_edges(),
            with_edges: graph.nonempty_lists(),
        })
    }
}

/// A run's distance words: 8 bytes each (with `packed`, each holding its parent too:
/// `flags::PACKED_PARENTS`), or 4 (`flags::NARROW_DISTANCES`: delta-stepping and near-far only,
/// widened by `sssp_unpack` before anything reads them back).
pub enum DistanceWords<'a> {
    Wide { words: &'a mut CudaSlice<u64>, packed: bool },
    Narrow(&'a mut CudaSlice<u32>),
}

impl<'a> DistanceWords<'a> {
    /// `narrow`'s words where given, else `wide`'s.
    pub fn of(narrow: Option<&'a mut CudaSlice<u32>>, wide: &'a mut CudaSlice<u64>, packed: bool) -> Self {
        match narrow {
            Some(narrow) => DistanceWords::Narrow(narrow),
            None => DistanceWords::Wide { words: wide, packed },
        }
    }

    /// The flags that say which words these are.
    pub fn flags(&self) -> u32 {
        match self {
            DistanceWords::Wide { packed: true, .. } => flags::PACKED_PARENTS,
            DistanceWords::Wide { packed: false, .. } => 0,
            DistanceWords::Narrow(_) => flags::NARROW_DISTANCES,
        }
    }

    /// How many words there are room for.
    fn len(&self) -> usize {
        match self {
            DistanceWords::Wide { words, .. } => words.len(),
            DistanceWords::Narrow(words) => words.len(),
        }
    }

    /// The words' address for a kernel that writes them (typed as 8-byte words, which the
    /// kernel reads as 4-byte ones by the flag).
    fn write_in(self, launch: &mut Launch<'a>) -> DeviceAddress<u64> {
        match self {
            DistanceWords::Wide { words, .. } => launch.write(words),
            DistanceWords::Narrow(words) => DeviceAddress::new(launch.write(words).address),
        }
    }
}

/// `sssp_init`: distances unreached but the sources' (`sources`: sorted vertex ids, each once;
/// packed words: each its own parent), marks zeroed.
pub fn sssp_init(
    gpu: &GpuContext,
    n: u32,
    sources: &CudaSlice<u32>,
    distances: DistanceWords<'_>,
    marks: &mut CudaSlice<u32>,
) -> Result<(), GpuError> {
    require(
        names::SSSP_INIT,
        distances.len() >= n as usize && !sources.is_empty() && sources.len() <= n as usize,
        || format!("{} distances for {n} vertices, {} sources", distances.len(), sources.len()),
    )?;
    let mark_words = marks.len() as u64;
    let word_flags = distances.flags();
    let mut launch = Launch::new(gpu);
    let params = SsspInitParams {
        distances: distances.write_in(&mut launch),
        marks: launch.write(marks),
        sources: launch.read(sources),
        mark_words,
        n,
        source_count: sources.len() as u32,
        word_flags,
    };
    launch.run(grid_for(gpu, n.max(1) as u64, SSSP_BLOCK), Residency::Any, &params)
}

/// Where delta-stepping stops early: before a bucket beyond `limit` (a distance in the
/// kernels' form; `UNREACHED_DISTANCE` for none) or beyond `target`'s final distance
/// (`NO_TARGET` for none).
#[derive(Clone, Copy, Debug)]
pub struct DeltaStop {
    pub limit: u64,
    pub target: u32,
}

/// How a delta-stepping launch runs beside its arrays: the bucket width (an integer, or an
/// `f32`'s bits), the graph's largest out-degree, the flag word (without the distance words'
/// bits, `PACKED_PARENTS` and `NARROW_DISTANCES`, which the words give, and `RESUME`, the
/// launch's), the smallest near-far round of the grid that defers its queueing (`NEVER_DEFER`:
/// none), and the smallest deferred round that runs apart (`NEVER_APART`: none).
#[derive(Clone, Copy, Debug)]
pub struct DeltaSettings {
    pub delta: u64,
    pub max_degree: u64,
    pub flag_word: u32,
    pub defer_from: u32,
    pub apart_from: u32,
    /// Near-far's tail growth (`tail_growth`, at least 2).
    pub tail_growth: u32,
}

/// Which launch of a delta-stepping run [`sssp_delta_stepping`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeltaLaunch {
    /// The bucket loop from the sources, after `sssp_init`.
    First,
    /// `sssp_relax_apart`: the relaxations of the round the launch before stopped before, if
    /// it stopped (else it returns at once).
    Apart,
    /// The bucket loop again from that round's queueing (`flags::RESUME`), if it stopped.
    Resume,
}

/// The buffers of the delta-stepping kernel.
pub struct DeltaBuffers<'a> {
    pub distances: DistanceWords<'a>,
    pub marks: &'a mut CudaSlice<u32>,
    pub near: &'a mut CudaSlice<u32>,
    pub settled: &'a mut CudaSlice<u32>,
    pub far: &'a mut CudaSlice<u32>,
    pub control: &'a mut CudaSlice<u64>,
    pub trace: &'a mut CudaSlice<u64>,
    /// The shared-list table: `shared_list_capacity(n, m)` entries or more.
    pub shared_lists: &'a mut CudaSlice<u64>,
}

/// Blocks of a cooperative SSSP kernel that fit on the GPU at once.
pub fn cooperative_blocks(gpu: &GpuContext, kernel: &'static str) -> Result<u32, GpuError> {
    resident_blocks(gpu, kernel, SSSP_BLOCK)
}

/// The blocks `sssp_delta_stepping` runs on, of the `resident` that fit the `multiprocessors`:
/// all of them, except on graphs whose lists are all short enough for bucket fusion (roads and
/// meshes, `FUSED_MAX_DEGREE`), which take two a multiprocessor. Their steps are many and
/// small, so a step's grid barrier (one arrival per block on one word) costs more than the
/// blocks beyond two add; the steps of the other graphs are few and big, and the blocks beyond
/// two hide their latency (bench/NOTES.md entry 95).
pub fn delta_stepping_blocks(resident: u32, multiprocessors: u32, max_degree: u64) -> u32 {
    if max_degree <= FUSED_MAX_DEGREE as u64 {
        resident.min(2 * multiprocessors).max(1)
    } else {
        resident
    }
}

/// `sssp_delta_stepping`: the whole bucket loop in one cooperative launch over a graph whose
/// largest out-degree is `max_degree`, or (with `settings.apart_from`) in several, `which`
/// saying which, with `sssp_relax_apart` between them.
pub fn sssp_delta_stepping(
    gpu: &GpuContext,
    view: &GraphView,
    buffers: DeltaBuffers<'_>,
    settings: DeltaSettings,
    stop: DeltaStop,
    which: DeltaLaunch,
) -> Result<(), GpuError> {
    let DeltaSettings { delta, max_degree, flag_word, defer_from, apart_from, tail_growth } = settings;
    let kernel = names::SSSP_DELTA_STEPPING;
    let n = view.n as usize;
    let DeltaBuffers { distances, marks, near, settled, far, control, trace, shared_lists } = buffers;
    let table_entries = shared_lists.len() / SHARED_LIST_WORDS;
    require(
        kernel,
        distances.len() >= n
            && marks.len() >= 3 * n
            && near.len() >= 2 * n
            && settled.len() >= n
            && far.len() >= 2 * n
            && control.len() >= DELTA_CONTROL_WORDS
            && table_entries as u64 >= shared_list_capacity(view.n as u64, view.m)
            && delta > 0
            && (stop.target == NO_TARGET || stop.target < view.n)
            && flag_word & flags::WEIGHTS_MASK == view.weight_flags
            && flag_word & (flags::PACKED_PARENTS | flags::NARROW_DISTANCES | flags::RESUME) == 0
            && (which == DeltaLaunch::First || apart_from != NEVER_APART),
        || {
            format!(
                "buffers too small for {n} vertices and {} edges ({table_entries} shared-list entries), or delta \
                 {delta}, or flags {flag_word:#x}, or target {}, or a {which:?} launch of a run that no round \
                 stops",
                view.m, stop.target
            )
        },
    )?;
    let trace_capacity = (trace.len() / DELTA_TRACE_WORDS) as u32;
    let blocks = delta_stepping_blocks(cooperative_blocks(gpu, kernel)?, gpu.multiprocessors(), max_degree);
    let word_flags = distances.flags();
    let mut launch = Launch::new(gpu);
    let params = SsspDeltaSteppingParams {
        offsets: view.offsets,
        targets: view.targets,
        weights: view.weights,
        distances: distances.write_in(&mut launch),
        marks: launch.write(marks),
        near: launch.write(near),
        settled: launch.write(settled),
        far: launch.write(far),
        control: launch.write(control),
        trace: launch.write(trace),
        shared_lists: launch.write(shared_lists),
        delta,
        n: view.n,
        trace_capacity,
        flags: flag_word | word_flags | if which == DeltaLaunch::Resume { flags::RESUME } else { 0 },
        shared_list_capacity: table_entries.min(u32::MAX as usize) as u32,
        max_degree: max_degree.min(u32::MAX as u64) as u32,
        target: stop.target,
        defer_from,
        apart_from,
        tail_growth,
        limit: stop.limit,
    };
    if which == DeltaLaunch::Apart {
        // An ordinary launch of the blocks that fit at once at its own register cap (64 warps
        // an SM), each striding over the round's tiles.
        let apart = resident_blocks(gpu, names::SSSP_RELAX_APART, SSSP_BLOCK)?;
        return launch.run(blocks_of(apart, SSSP_BLOCK), Residency::Any, &SsspRelaxApartParams::from(params));
    }
    launch.run(blocks_of(blocks, SSSP_BLOCK), Residency::Cooperative, &params)
}

/// The buffers of the cluster kernel (the delta-stepping kernel's arrays, fewer of them).
pub struct ClusterBuffers<'a> {
    pub distances: &'a mut CudaSlice<u64>,
    /// A word a vertex: in the far pile.
    pub marks: &'a mut CudaSlice<u32>,
    /// Two far piles of `n`, the first holding the sources.
    pub far: &'a mut CudaSlice<u32>,
    pub control: &'a mut CudaSlice<u64>,
    pub trace: &'a mut CudaSlice<u64>,
}

/// `sssp_cluster`: near-far in one thread-block cluster on a Hopper GPU, its worklists as
/// bitmaps in the blocks' shared memory (at most `CLUSTER_MAX_VERTICES` vertices, fewer than
/// 2^32 edges); `delta` as `sssp_delta_stepping`'s, `flag_word` the weight kind and, where
/// the words are packed, `PACKED_PARENTS`.
pub fn sssp_cluster(
    gpu: &GpuContext,
    view: &GraphView,
    buffers: ClusterBuffers<'_>,
    delta: u64,
    flag_word: u32,
    stop: DeltaStop,
) -> Result<(), GpuError> {
    let kernel = names::SSSP_CLUSTER;
    let n = view.n as usize;
    let ClusterBuffers { distances, marks, far, control, trace } = buffers;
    let words = cluster_words(n as u64);
    require(
        kernel,
        words.is_some()
            && view.m < 1 << 32
            && distances.len() >= n
            && marks.len() >= n
            && far.len() >= 2 * n
            && control.len() >= DELTA_CONTROL_WORDS
            && delta > 0
            && (stop.target == NO_TARGET || stop.target < view.n)
            && flag_word & flags::WEIGHTS_MASK == view.weight_flags,
        || {
            format!(
                "buffers too small for {n} vertices and {} edges, or delta {delta}, or flags {flag_word:#x}, or \
                 target {}",
                view.m, stop.target
            )
        },
    )?;
    let words = words.unwrap_or(1);
    let lists = cluster_lists(n as u64, SSSP_CLUSTER_BITMAPS, words);
    let trace_capacity = (trace.len() / DELTA_TRACE_WORDS) as u32;
    let mut launch = Launch::new(gpu);
    let params = SsspClusterParams {
        offsets: view.offsets,
        targets: view.targets,
        weights: view.weights,
        distances: launch.write(distances),
        marks: launch.write(marks),
        far: launch.write(far),
        control: launch.write(control),
        trace: launch.write(trace),
        delta,
        limit: stop.limit,
        n: view.n,
        trace_capacity,
        flags: flag_word,
        target: stop.target,
        words,
        lists,
    };
    let config = LaunchConfig {
        grid_dim: (CLUSTER_BLOCKS, 1, 1),
        block_dim: (CLUSTER_BLOCK, 1, 1),
        shared_mem_bytes: cluster_shared_bytes(SSSP_CLUSTER_BITMAPS, words, lists),
    };
    launch.run(config, Residency::Cluster, &params)
}

/// Node splitting's pieces on the device: the pieces of each vertex (`n + 1` prefix counts)
/// and the owner of each piece.
pub struct DevicePieces {
    pub first: CudaSlice<u32>,
    pub owner: CudaSlice<u32>,
    pub count: u32,
    pub mdt: u32,
}

/// The buffers of one worklist iteration.
pub struct WorklistBuffers<'a> {
    pub distances: &'a mut CudaSlice<u64>,
    pub marks: &'a mut CudaSlice<u32>,
    pub progress: &'a mut CudaSlice<u64>,
    pub items: &'a CudaSlice<u32>,
    pub items_len: u32,
    pub out: &'a mut CudaSlice<u32>,
    pub sub: &'a mut CudaSlice<u32>,
    pub control: &'a mut CudaSlice<u64>,
}

/// What one `sssp_worklist` launch runs.
#[derive(Clone, Copy)]
pub struct WorklistLaunch<'a> {
    pub mode: u32,
    pub iteration: u32,
    pub mdt: u32,
    pub flags: u32,
    /// The COO sources of every edge (edge-based).
    pub sources: Option<&'a CudaSlice<u32>>,
    pub pieces: Option<&'a DevicePieces>,
}

/// `sssp_worklist`: one iteration of a seed-002 mode.
pub fn sssp_worklist(
    gpu: &GpuContext,
    view: &GraphView,
    buffers: WorklistBuffers<'_>,
    what: WorklistLaunch<'_>,
) -> Result<(), GpuError> {
    use warpath_interface::sssp::worklist_mode as mode;
    let kernel = names::SSSP_WORKLIST;
    let n = view.n as usize;
    let WorklistBuffers { distances, marks, progress, items, items_len, out, sub, control } = buffers;
    let out_room = match what.pieces {
        Some(pieces) => pieces.count as usize,
        None => n,
    };
    require(
        kernel,
        distances.len() >= n
            && marks.len() >= n
            && items.len() >= items_len as usize
            && out.len() >= out_room
            && control.len() >= WORKLIST_CONTROL_WORDS
            && match what.mode {
                mode::NODE => true,
                mode::EDGE => what.sources.is_some_and(|s| s.len() as u64 >= view.m),
                mode::PIECES => {
                    what.pieces.is_some_and(|p| p.first.len() > n && p.owner.len() >= p.count as usize && p.mdt >= 1)
                }
                mode::SUB_ITERATION => progress.len() >= n && sub.len() >= n && what.mdt >= 1,
                _ => false,
            },
        || format!("mode {} with buffers too small for {n} vertices ({items_len} items)", what.mode),
    )?;
    let threads = if what.mode == mode::EDGE { view.m } else { items_len as u64 };
    let mut launch = Launch::new(gpu);
    let params = SsspWorklistParams {
        offsets: view.offsets,
        targets: view.targets,
        weights: view.weights,
        sources: launch.read_or_null(what.sources),
        pieces: launch.read_or_null(what.pieces.map(|p| &p.first)),
        piece_owner: launch.read_or_null(what.pieces.map(|p| &p.owner)),
        distances: launch.write(distances),
        marks: launch.write(marks),
        progress: launch.write(progress),
        items: launch.read(items),
        out: launch.write(out),
        sub: launch.write(sub),
        control: launch.write(control),
        m: view.m,
        items_len,
        n: view.n,
        iteration: what.iteration,
        mdt: what.pieces.map_or(what.mdt, |p| p.mdt),
        mode: what.mode,
        flags: what.flags | view.weight_flags,
    };
    launch.run(grid_for(gpu, threads.max(1), SSSP_BLOCK), Residency::Any, &params)
}

/// The buffers of one workload-decomposition iteration.
pub struct DecomposedBuffers<'a> {
    pub distances: &'a mut CudaSlice<u64>,
    pub marks: &'a mut CudaSlice<u32>,
    /// Where each item starts (hierarchical processing's sub-lists), or None: at its list's start.
    pub progress: Option<&'a CudaSlice<u64>>,
    pub items: &'a CudaSlice<u32>,
    pub items_len: u32,
    pub prefix: &'a mut CudaSlice<u32>,
    pub block_sums: &'a mut CudaSlice<u32>,
    pub out: &'a mut CudaSlice<u32>,
    pub control: &'a mut CudaSlice<u64>,
}

/// `sssp_decomposed`: one workload-decomposition iteration, cooperatively.
pub fn sssp_decomposed(
    gpu: &GpuContext,
    view: &GraphView,
    buffers: DecomposedBuffers<'_>,
    iteration: u32,
) -> Result<(), GpuError> {
    let kernel = names::SSSP_DECOMPOSED;
    let n = view.n as usize;
    let DecomposedBuffers { distances, marks, progress, items, items_len, prefix, block_sums, out, control } = buffers;
    let blocks = cooperative_blocks(gpu, kernel)?.min(block_sums.len() as u32);
    require(
        kernel,
        distances.len() >= n
            && marks.len() >= n
            && progress.is_none_or(|p| p.len() >= n)
            && items.len() >= items_len as usize
            && prefix.len() >= items_len as usize
            && blocks >= 1
            && out.len() >= n
            && control.len() >= WORKLIST_CONTROL_WORDS
            && view.m <= u32::MAX as u64,
        || format!("buffers too small for {n} vertices and {items_len} items, or {} edges", view.m),
    )?;
    let mut launch = Launch::new(gpu);
    let params = SsspDecomposedParams {
        offsets: view.offsets,
        targets: view.targets,
        weights: view.weights,
        distances: launch.write(distances),
        marks: launch.write(marks),
        progress: launch.read_or_null(progress),
        items: launch.read(items),
        prefix: launch.write(prefix),
        block_sums: launch.write(block_sums),
        out: launch.write(out),
        control: launch.write(control),
        items_len,
        n: view.n,
        iteration,
        flags: view.weight_flags,
    };
    launch.run(blocks_of(blocks, SSSP_BLOCK), Residency::Cooperative, &params)
}

/// `sssp_parents`: pass `pass` of the shortest-path tree (0 initialises) from `sources` (sorted
/// vertex ids, each once).
#[allow(clippy::too_many_arguments)]
pub fn sssp_parents(
    gpu: &GpuContext,
    view: &GraphView,
    sources: &CudaSlice<u32>,
    pass: u32,
    ascending: bool,
    distances: &CudaSlice<u64>,
    parents: &mut CudaSlice<u32>,
    levels: &mut CudaSlice<u32>,
    control: &mut CudaSlice<u64>,
) -> Result<(), GpuError> {
    let n = view.n as usize;
    require(
        names::SSSP_PARENTS,
        distances.len() >= n
            && parents.len() >= n
            && levels.len() >= n
            && !control.is_empty()
            && !sources.is_empty()
            && sources.len() <= n,
        || format!("buffers too small for {n} vertices, or {} sources", sources.len()),
    )?;
    let mut launch = Launch::new(gpu);
    let params = SsspParentsParams {
        offsets: view.offsets,
        targets: view.targets,
        weights: view.weights,
        distances: launch.read(distances),
        parents: launch.write(parents),
        levels: launch.write(levels),
        control: launch.write(control),
        sources: launch.read(sources),
        n: view.n,
        source_count: sources.len() as u32,
        pass,
        flags: view.weight_flags | if ascending { flags::PARENTS_ASCENDING } else { 0 },
    };
    launch.run(grid_for(gpu, view.n.max(1) as u64, SSSP_BLOCK), Residency::Any, &params)
}

/// `sssp_weight_sum`: the sum, the smallest and the largest of the weights, floats in units of 2^-16.
pub fn sssp_weight_sum(gpu: &GpuContext, view: &GraphView) -> Result<(u64, u64, u64), GpuError> {
    require(names::SSSP_WEIGHT_SUM, view.weight_flags != flags::WEIGHTS_UNIT, || {
        "an unweighted graph: there are no weights to sum".to_string()
    })?;
    let mut sum = gpu.upload(&[0u64, u64::MAX, u64::MAX], "the weight sum")?;
    let mut launch = Launch::new(gpu);
    let params =
        SsspWeightSumParams { weights: view.weights, sum: launch.write(&mut sum), m: view.m, flags: view.weight_flags };
    launch.run(grid_for(gpu, view.m.max(1), SSSP_BLOCK), Residency::Any, &params)?;
    let words = gpu.download(&sum)?;
    Ok((words[0], words[1], u64::MAX - words[2]))
}

/// `sssp_unpack`: the first `n` distance words split for the download. `narrow` words (when
/// given) are first widened into `words`; `packed` words give their parents to `parents` (when
/// given) and keep their distances; `floats` (when given) takes float distances.
pub fn sssp_unpack(
    gpu: &GpuContext,
    n: u32,
    narrow: Option<&CudaSlice<u32>>,
    words: &mut CudaSlice<u64>,
    packed: bool,
    parents: Option<&mut CudaSlice<u32>>,
    floats: Option<&mut CudaSlice<f32>>,
) -> Result<(), GpuError> {
    let fits = |len: Option<usize>| len.is_none_or(|len| len >= n as usize);
    require(
        names::SSSP_UNPACK,
        words.len() >= n as usize
            && fits(parents.as_ref().map(|p| p.len()))
            && fits(floats.as_ref().map(|f| f.len()))
            && fits(narrow.map(|w| w.len()))
            && !(packed && narrow.is_some())
            && (packed || floats.is_some() || narrow.is_some()),
        || format!("buffers too small for {n} vertices, or nothing to split"),
    )?;
    let float = floats.is_some();
    let mut launch = Launch::new(gpu);
    let params = SsspUnpackParams {
        narrow: launch.read_or_null(narrow),
        words: launch.write(words),
        parents: launch.write_or_null(parents),
        floats: launch.write_or_null(floats),
        n,
        flags: if packed { flags::PACKED_PARENTS } else { 0 }
            | if float { flags::WEIGHTS_F32 } else { 0 }
            | if narrow.is_some() { flags::NARROW_DISTANCES } else { 0 },
    };
    launch.run(grid_for(gpu, n.max(1) as u64, SSSP_BLOCK), Residency::Any, &params)
}
