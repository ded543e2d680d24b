//! Shortest paths on the GPU: the host side of the kernels in `device/src/sssp/`.
//!
//! [`workspace`] tells `engine::prepare` what a strategy needs beside the graph;
//! [`shortest_paths`] runs one: delta-stepping (or near-far) in one cooperative launch, or one
//! of seed 002's strategies as worklist iterations, then, unless distances only, the parents
//! passes; distances and parents are downloaded once. [`shortest_paths_traced`] also returns
//! what the kernels recorded (per bucket, or per iteration).
//!
//! Delta, unless given, comes from the graph: `32 * average weight / average out-degree` (a
//! bucket then holds about a warp's worth of a vertex's light edges), rounded up for integer
//! weights (`sssp_weight_sum` gives the sum on the device); unit weights take 1, so every edge
//! is heavy and a bucket is a BFS level. Graphs of average out-degree below
//! [`LOW_DEGREE`] (roads, grids: long paths, no hubs) take [`LOW_DEGREE_DELTA_FACTOR`] times
//! that: their buckets are many and thin (hundreds of vertices a light round), and each bucket
//! costs a heavy phase and a split on the whole grid beside its light rounds, so fewer, fuller
//! buckets cut steps the light rounds do not replace (Meyer and Sanders, section 4: any
//! Δ up to the bucket's path length keeps the work near linear on bounded-degree graphs).
//! Near-far on the other graphs of [`NEAR_FAR_NARROW_FROM_EDGES`] edges or more takes
//! [`NEAR_FAR_DELTA_EDGES`] average edges over the degree of the vertices that have edges
//! ([`NEAR_FAR_SKEWED_DELTA_EDGES`] on skewed graphs, whose hubs' targets are lowered again more
//! often inside a wide bucket): its rounds relax every edge of a vertex each time the vertex is
//! queued again inside its bucket, and on a graph that big the relaxations a narrower bucket
//! saves cost more than its extra rounds; on smaller ones the rounds' latency wins (the sweeps of
//! bench/NOTES.md entry 97).
//! The cluster kernel (`--strategy cluster`) takes [`CLUSTER_ROAD_DELTA_FACTOR`] times
//! near-far's width on graphs of average out-degree below [`CLUSTER_WIDER_BELOW_DEGREE`]. `--delta`
//! overrides the rule.

pub mod launch;
pub mod split;

use std::time::{Duration, Instant};

use bytemuck::Zeroable;
use cudarc::driver::{CudaEvent, CudaSlice, DeviceRepr, ValidAsZeroBits};
use rayon::prelude::*;
use warpath_interface::names;
use warpath_interface::sssp::{
    flags, packed_distance, shared_list_capacity, worklist_mode, DeltaControl, WorklistControl, DELTA_CONTROL_WORDS,
    DELTA_TRACE_WORDS, FLOAT_WEIGHT_SCALE, NEVER_APART, NEVER_DEFER, NO_TARGET, SHARED_LIST_WORDS, SMALL_QUEUE,
    SSSP_BLOCK, UNREACHED_DISTANCE, WORKLIST_CONTROL_WORDS,
};

use crate::engine::Answer;
use crate::engine::{GpuGraph, Workspace};
use crate::error::{Error, Result};
use crate::gpu::launch::cluster_refusal;
use crate::gpu::{Download, GpuContext, GpuError, PinnedBuffer};
use crate::graph::{Graph, WeightKind};
use crate::sssp::{
    reach_of, sorted_once, DeferredQueueing, Distance, Distances, DistancesRef, Fusion, RoundsApart, SsspOptions,
    SsspRun, SsspStrategy,
};

use launch::{
    ClusterBuffers, DecomposedBuffers, DeltaBuffers, DeltaLaunch, DeltaSettings, DeltaStop, DevicePieces,
    DistanceWords, GraphView, WorklistBuffers, WorklistLaunch,
};

/// Edges a vertex on average, as the GPU's rules read a graph's shape (0 for an empty graph).
fn average_degree(n: u64, m: u64) -> f64 {
    m as f64 / n.max(1) as f64
}

/// Below this average out-degree the GPU's Δ rule widens buckets (see the module documentation).
pub const LOW_DEGREE: f64 = 8.0;
/// How much wider (bench/NOTES.md entry 53 has the road and grid traces that ask for it: many
/// light rounds a bucket, and two more steps for its heavy phase and split).
pub const LOW_DEGREE_DELTA_FACTOR: f64 = 2.0;
/// The average edges a near-far bucket spans on graphs of degree [`LOW_DEGREE`] or more:
/// kron:22, urand:22 and kron:24 get about 27, 44 and 25. Entry 97's sweep had a flat bottom
/// from 16 to 48 and took 8 (the CPU's [`crate::sssp::DELTA_EDGES`]: 20, 32 and 18); since big
/// rounds defer their queueing (entry 111) fewer, fuller rounds pay, and the sweep again found
/// 28, 44-48 and 24-25 3-6% faster than 8's widths, for up to 0.1 more relaxations an edge.
pub const NEAR_FAR_DELTA_EDGES: f64 = 11.0;
/// The average edges a near-far bucket spans on skewed graphs ([`crate::graph::is_skewed`]: a
/// largest list at least 64 times the average of the vertices with edges). Since adaptive widths
/// fold a Kronecker graph's tail into a few wide buckets, the narrower first buckets no longer
/// pay for the many thin ones after them, and save relaxations; graphs of even lists stay
/// fastest at [`NEAR_FAR_DELTA_EDGES`] (the sweep: bench/NOTES.md 123).
pub const NEAR_FAR_SKEWED_DELTA_EDGES: f64 = 6.5;
/// How much wider the cluster kernel's buckets are than near-far's on roads (average out-degree
/// below [`CLUSTER_WIDER_BELOW_DEGREE`]): a round there costs the same whatever its size, up to
/// the cluster's threads, so fewer, fuller rounds pay for the relaxations they repeat
/// (bench/NOTES.md 115: USA-road-d.NY, usroads-48 and luxembourg_osm 9-14% faster at 4x, the
/// grids of degree 4 slower at 2x).
pub const CLUSTER_ROAD_DELTA_FACTOR: f64 = 4.0;
/// The average out-degree below which the cluster kernel widens its buckets (roads, not grids).
pub const CLUSTER_WIDER_BELOW_DEGREE: f64 = 3.5;

/// [`SsspStrategy::Auto`] runs the cluster kernel on graphs of average out-degree from this to
/// below [`LOW_DEGREE`]: roads and meshes. Since its worklists are bitmaps (bench/NOTES.md
/// 119) it beats near-far on luxembourg_osm too (2.09, whose many vertices of degree 2 had
/// given block 0's fused rounds the edge), as on usroads-48 (2.57) and USA-road-d.NY (2.76);
/// sparser graphs (forests) were not measured.
pub const CLUSTER_MIN_DEGREE: f64 = 2.0;
/// ... and of at most this many vertices: beyond, a round holds more vertices than 16
/// multiprocessors relax faster than the whole GPU (grid2d:2000, 4M vertices: the cluster 1.57x
/// faster; grid2d:5000, 25M: near-far 1.36x faster; bench/NOTES.md 115). The rule's cap, below
/// the cluster kernel's own limit (`warpath_interface::cluster::CLUSTER_MAX_VERTICES`, 2^23).
pub const CLUSTER_AUTO_MAX_VERTICES: u64 = 1 << 23;

/// The strategy [`SsspStrategy::Auto`] takes on a graph of `n` vertices and `m` edges, on a GPU
/// with thread-block clusters (`hopper`: compute capability 9.0 or newer) or without.
pub fn auto_strategy(hopper: bool, n: u64, m: u64) -> SsspStrategy {
    let degree = average_degree(n, m);
    if hopper && (CLUSTER_MIN_DEGREE..LOW_DEGREE).contains(&degree) && n <= CLUSTER_AUTO_MAX_VERTICES {
        SsspStrategy::Cluster
    } else {
        SsspStrategy::NearFar
    }
}

/// `options` with [`SsspStrategy::Auto`] replaced by the strategy it takes on the placed
/// `graph` ([`auto_strategy`]); other strategies as they are.
pub fn resolve(graph: &GpuGraph, options: &SsspOptions) -> SsspOptions {
    let strategy = match options.strategy {
        SsspStrategy::Auto => {
            let placed = graph.graph();
            let hopper = graph.gpu().compute_capability().0 >= 9;
            auto_strategy(hopper, placed.num_vertices() as u64, placed.num_edges())
        }
        strategy => strategy,
    };
    SsspOptions { strategy, ..*options }
}

/// The edges from which near-far's buckets narrow (about 100 M): entry 97 measured the narrow
/// width 4-10% faster on kron:22, urand:22 and kron:24 (128-520 M edges), even with the old on
/// kron:21 and urand:20 (63 and 33 M), 3% slower on urand:21 (67 M), and 12-53% slower on
/// kron:20 and smaller Kronecker graphs and on the social datasets.
pub const NEAR_FAR_NARROW_FROM_EDGES: u64 = 3 << 25;

/// Near-far's rule for deferred queueing ([`DeferredQueueing::Auto`]): a light round of the
/// grid defers where its vertices' edges, by the average degree, reach `n` over this: its
/// random reads then outweigh the deferred pass's coalesced read of `n` marks.
pub const DEFER_EDGES_DIVISOR: u64 = 8;

/// The smallest near-far round of the grid that defers its queueing on a graph of `n`
/// vertices and `m` edges, as the kernel's `defer_from` (`NEVER_DEFER`: none does).
pub fn defer_from(choice: DeferredQueueing, n: u32, m: u64) -> u32 {
    match choice {
        DeferredQueueing::Never => NEVER_DEFER,
        DeferredQueueing::From(vertices) => vertices,
        DeferredQueueing::Auto => {
            let vertices = (n as u64 * n as u64).div_ceil((DEFER_EDGES_DIVISOR * m).max(1));
            vertices.clamp(SMALL_QUEUE as u64, NEVER_DEFER as u64) as u32
        }
    }
}

/// Near-far's rule for rounds apart ([`RoundsApart::Auto`]): on graphs of at least
/// [`APART_MIN_VERTICES`], a deferred round runs apart where it holds at least `n` over this
/// many vertices, so that the two launches around it (a few microseconds each) are small beside
/// its relaxations.
pub const APART_VERTICES_DIVISOR: u64 = 32;

/// The smallest graph whose rounds `auto` runs apart: kron:24 (2^24 vertices) ran 2% faster so,
/// kron:22 and urand:22 5% slower (bench/NOTES.md 139: their big rounds, like kron:24's, are bound
/// by L2 throughput, not by warps in flight, and their tails pay the launches).
pub const APART_MIN_VERTICES: u32 = 1 << 24;

/// Near-far's tail growth where none is asked for ([`SsspOptions::tail_growth`]): 8 on graphs of
/// [`LOW_DEGREE`] or more edges a vertex, where it folded kron:22's tail of seven buckets into four
/// (9% faster), kron:24's 5%, urand:22 unchanged (bench/NOTES.md 139); 2, the rule before, on
/// sparser graphs (roads and meshes), where it was not measured.
pub fn auto_tail_growth(n: u32, m: u64) -> u32 {
    if average_degree(n as u64, m) >= LOW_DEGREE {
        8
    } else {
        2
    }
}

/// Pairs of launches (`sssp_relax_apart`, then the resumed loop) queued at once before the host
/// reads whether the loop stopped again: the unneeded ones return at once.
const APART_PAIRS_QUEUED: usize = 4;

/// The smallest deferred round that runs apart on a graph of `n` vertices whose rounds defer
/// from `defer_from` vertices, as the kernel's `apart_from` (`NEVER_APART`: none does).
pub fn apart_from(choice: RoundsApart, defer_from: u32, n: u32) -> u32 {
    if defer_from == NEVER_DEFER {
        return NEVER_APART;
    }
    match choice {
        RoundsApart::Never => NEVER_APART,
        RoundsApart::From(vertices) => vertices.max(defer_from),
        RoundsApart::Auto if n < APART_MIN_VERTICES => NEVER_APART,
        RoundsApart::Auto => (n as u64 / APART_VERTICES_DIVISOR).clamp(defer_from as u64, NEVER_APART as u64) as u32,
    }
}

/// Buckets the delta-stepping trace holds (later buckets are counted, not recorded).
pub const TRACE_BUCKETS: usize = 1 << 16;

/// Device memory SSSP needs beside the graph, for `engine::prepare`: its per-vertex arrays and
/// worklists for `options.strategy` (the edge-based strategy's per-edge arrays included);
/// `edge_weights: true`. An error (`Error` naming the strategy and both sizes) where it can
/// never fit.
pub fn workspace(graph: &Graph, options: &SsspOptions) -> Result<Workspace> {
    let n = graph.num_vertices() as u64;
    let m = graph.num_edges();
    // Distances, and parents with their levels; float distances split for a download in place.
    let floats = if graph.weight_kind() == Some(WeightKind::F32) { 4 * n } else { 0 };
    let labels = 8 * n + if options.distances_only { 0 } else { 8 * n } + floats;
    // Delta-stepping's and near-far's 4-byte distance words, for distances only.
    let narrow = if options.distances_only && options.narrow_words { 4 * n } else { 0 };
    let (bytes, what) = match options.strategy {
        // The cluster kernel runs in the same arrays (fewer of them).
        SsspStrategy::Auto | SsspStrategy::DeltaStepping | SsspStrategy::NearFar | SsspStrategy::Cluster => (
            labels
                + narrow
                + 12 * n
                + 4 * 5 * n
                + 8 * (DELTA_CONTROL_WORDS + TRACE_BUCKETS * DELTA_TRACE_WORDS) as u64
                + 8 * SHARED_LIST_WORDS as u64 * shared_list_capacity(n, m),
            "the shortest-path distances, marks, near queues, settled list, far piles and shared-list table",
        ),
        SsspStrategy::NodeBased => (labels + 12 * n, "the shortest-path distances, marks and worklists"),
        SsspStrategy::EdgeBased => {
            (labels + 4 * n + 4 * m, "the shortest-path distances and marks and the edge-based strategy's edge sources")
        }
        SsspStrategy::WorkloadDecomposition => {
            check_decomposable(m, "workload decomposition")?;
            (labels + 16 * n + 4096, "the shortest-path distances, marks, worklists and degree prefix sums")
        }
        SsspStrategy::Hierarchical => {
            check_decomposable(m, "hierarchical processing")?;
            (labels + 36 * n + 4096, "the shortest-path distances, marks, worklists, sub-lists and progress")
        }
        SsspStrategy::NodeSplitting => {
            let mdt = options.split_threshold.unwrap_or_else(|| split::histogram_threshold(graph.offsets()));
            let pieces = split_pieces(graph.offsets(), mdt)?;
            (
                labels + 4 * n + 4 * (n + 1) + 12 * pieces,
                "the shortest-path distances and marks, node splitting's pieces and worklists of pieces",
            )
        }
    };
    Ok(Workspace { edge_weights: true, ..Workspace::new(bytes, what) })
}

/// The number of pieces node splitting makes with threshold `mdt`, or the error that they
/// outnumber `u32` ids.
fn split_pieces(offsets: &[u64], mdt: u32) -> Result<u64> {
    let pieces: u64 = offsets.windows(2).map(|w| (w[1] - w[0]).div_ceil(mdt.max(1) as u64)).sum();
    if pieces > u32::MAX as u64 {
        return Err(Error::InvalidArgument(format!(
            "node splitting with threshold {mdt} needs {pieces} pieces, more than the {} a u32 id can name: \
             choose a larger split threshold",
            u32::MAX
        )));
    }
    Ok(pieces)
}

/// Workload decomposition's prefix sums are 32-bit.
fn check_decomposable(m: u64, strategy: &str) -> Result<()> {
    if m > u32::MAX as u64 {
        return Err(Error::InvalidArgument(format!(
            "{strategy} sums the active vertices' degrees in 32 bits, and this graph has {m} edges (at most {}): \
             choose another strategy",
            u32::MAX
        )));
    }
    Ok(())
}

/// Shortest paths from `source` (internal id) on the placed graph: u32 weights ->
/// Distances::Int (exact, u64), f32 -> Distances::Float, unweighted -> unit weights,
/// Distances::Int.
pub fn shortest_paths(graph: &GpuGraph, source: u32, options: &SsspOptions) -> Result<Answer<SsspRun>> {
    Ok(shortest_paths_traced(graph, source, options)?.0)
}

/// What a GPU run recorded beside its result.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GpuSsspTrace {
    /// The bucket width used (delta-stepping and near-far; 0 for the worklist strategies).
    pub delta: f64,
    /// Delta-stepping: buckets processed and steps taken (light rounds, heavy phases, splits),
    /// and runs of steps block 0 took alone. Worklist strategies: iterations (in `steps`).
    pub buckets: u32,
    pub steps: u32,
    pub small_runs: u32,
    /// Near-far: light rounds of the grid that deferred their queueing
    /// ([`crate::sssp::DeferredQueueing`]), and of those, the rounds run apart
    /// ([`crate::sssp::RoundsApart`]).
    pub deferred_rounds: u32,
    pub rounds_apart: u32,
    /// One record per bucket (the first [`TRACE_BUCKETS`]) or per worklist iteration.
    pub records: Vec<StepTrace>,
    /// Node splitting's and hierarchical processing's threshold (0 otherwise).
    pub mdt: u32,
    /// Passes of the parents kernel (0 when distances only, or packed).
    pub parent_passes: u32,
    /// The parents rode in the distance words (`flags::PACKED_PARENTS`): no pass was needed.
    pub parents_packed: bool,
    /// The distances were 4-byte words (`flags::NARROW_DISTANCES`).
    pub narrow_words: bool,
}

/// One bucket (delta-stepping) or one iteration (worklist strategies).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepTrace {
    /// The bucket's index (distance / delta); the iteration's number.
    pub index: u64,
    /// Vertices the bucket settled; the iteration's worklist length.
    pub vertices: u64,
    /// Light rounds of the bucket (1 for an iteration).
    pub rounds: u32,
    /// Edge relaxations of the bucket or iteration.
    pub relaxations: u64,
    /// Nanoseconds to the end of the bucket or iteration: delta-stepping, since the bucket
    /// loop began (the kernel's `%globaltimer`); worklist strategies, since the first launch
    /// (the host's clock: every iteration waits for its kernels).
    pub ns: u64,
    /// Delta-stepping: nanoseconds of the bucket's light rounds (from the previous bucket's
    /// end, or the loop's start, to its heavy phase; the whole bucket where it had none). 0
    /// for an iteration.
    pub light_ns: u64,
    /// Delta-stepping: relaxations of the bucket's heavy phase (0 without one, and for an
    /// iteration).
    pub heavy_relaxations: u64,
    /// Delta-stepping: the bucket's width in multiples of delta (1 unless it adapts; 0 for an
    /// iteration).
    pub span: u32,
}

/// [`shortest_paths`] with the kernels' trace.
pub fn shortest_paths_traced(
    graph: &GpuGraph,
    source: u32,
    options: &SsspOptions,
) -> Result<(Answer<SsspRun>, GpuSsspTrace)> {
    shortest_paths_traced_from(graph, &[source], options)
}

/// [`shortest_paths_traced`] from the nearest of several `sources` (internal ids, any order,
/// repeats counted once), with `options.cutoff` and `options.target`: delta-stepping and
/// near-far stop before a bucket beyond them, seed 002's strategies run to the end; either way
/// the distances beyond the reach are reported unreached. With several sources the parents
/// passes run even for distances only, for the nearest source of every vertex.
pub fn shortest_paths_traced_from(
    graph: &GpuGraph,
    sources: &[u32],
    options: &SsspOptions,
) -> Result<(Answer<SsspRun>, GpuSsspTrace)> {
    let (run, trace, _) = shortest_paths_in(graph, &mut SsspArrays::default(), sources, options)?;
    Ok((run, trace))
}

/// The device arrays of GPU runs on one placed graph, each made by the first run that needs
/// it and kept for the next (a [`crate::sssp::PathFinder`] holds one), so that a run on a
/// placed graph pays for its kernels and its downloads, not for allocations. Nothing carries
/// over from one run to the next: the init kernel resets the distances and marks, the parents'
/// first pass the parents and levels, the host the control blocks; the trace and the lists are
/// read only as far as the run's own counters say.
#[derive(Default)]
pub struct SsspArrays {
    /// Vertices and edges of the graph the arrays were made for (others start afresh).
    shape: (u32, u64),
    distances: Option<CudaSlice<u64>>,
    /// 4-byte distance words, widened into `distances` after the run (`narrow_words`).
    narrow: Option<CudaSlice<u32>>,
    parents: Option<ParentBuffers>,
    delta: Option<DeltaArrays>,
    /// The placed weights' sum, smallest and largest ([`weight_totals`]), read once.
    totals: Option<Option<WeightTotals>>,
    /// Pinned host memory the results come back through from the second run on (a one-shot
    /// run reads them straight into its vectors: pinning costs more than it would save once).
    pinned_distances: Option<PinnedBuffer<u64>>,
    pinned_parents: Option<PinnedBuffer<u32>>,
    /// Float distances split from their words for a download in place
    /// ([`shortest_paths_pinned`]).
    floats: Option<CudaSlice<f32>>,
    runs: u32,
    /// Vectors of recycled runs ([`recycle`](Self::recycle)), and the raw distances of float
    /// runs, which the next results are read into.
    spare_raw: Vec<u64>,
    spare_floats: Vec<f32>,
    spare_parents: Vec<u32>,
}

impl SsspArrays {
    /// Starts afresh unless the arrays were made for a graph of `n` vertices and `m` edges.
    fn fit(&mut self, n: u32, m: u64) {
        if self.shape != (n, m) {
            *self = SsspArrays { shape: (n, m), ..SsspArrays::default() };
        }
    }

    /// Reads `device` back into `host` (its memory reused where it has room): through pinned
    /// memory from the second run on, else straight.
    fn download<T: DeviceRepr + ValidAsZeroBits + Zeroable + Copy + Send + Sync>(
        gpu: &GpuContext,
        device: &CudaSlice<T>,
        pinned: &mut Option<PinnedBuffer<T>>,
        repeated: bool,
        host: &mut Vec<T>,
        what: &str,
    ) -> Result<(), GpuError> {
        if !repeated {
            *host = gpu.download(device)?;
            return Ok(());
        }
        gpu.download_through_pinned(device, gpu.pinned_in(pinned, device.len(), what)?, host)
    }

    /// Takes back a finished run's vectors, whose memory the next run's results are read into
    /// (sparing the download an allocation and its page faults).
    pub fn recycle(&mut self, run: SsspRun) {
        match run.distances {
            Distances::Int(distances) => self.spare_raw = distances,
            Distances::Float(distances) => self.spare_floats = distances,
        }
        self.spare_parents = run.parents;
    }
}

/// What one run's kernels left on the device, before anything is read back.
struct Settled {
    /// The sources, sorted, each once.
    sources: Vec<u32>,
    /// The distance words (packed with their parents where `packed`).
    distances: CudaSlice<u64>,
    relaxations: u64,
    trace: GpuSsspTrace,
    /// The kernels' time, by events.
    time: Duration,
    packed: bool,
    float: bool,
    /// The parents passes ran: the parents are in `arrays.parents`.
    parents_passed: bool,
}

/// Runs the kernels of one run in `arrays` (made or grown as needed): the distances, and the
/// parents where asked for or where several sources need them, left on the device.
fn settle(graph: &GpuGraph, arrays: &mut SsspArrays, sources: &[u32], options: &SsspOptions) -> Result<Settled> {
    let options = &resolve(graph, options);
    let gpu = graph.gpu();
    let view = GraphView::of(gpu, graph.graph())?;
    let n = view.n;
    let sources = sorted_once(sources);
    let problem = || format!("is not below {n}, the vertex count");
    match sources.last() {
        None => return Err(Error::InvalidArgument("shortest paths need at least one source vertex".into())),
        Some(&last) if last >= n => return Err(Error::InvalidSource { vertex: last as u64, problem: problem() }),
        Some(_) => {}
    }
    if let Some(target) = options.target.filter(|&t| t >= n) {
        return Err(Error::InvalidArgument(format!("target vertex {target} {}", problem())));
    }
    arrays.fit(n, view.m);
    let device_sources = gpu.upload(&sources, "the sources")?;
    let mut distances = match arrays.distances.take() {
        Some(distances) => distances,
        None => gpu.alloc_zeros(n.max(1) as usize, "the shortest-path distances")?,
    };
    // With several sources the parents name each vertex's nearest source.
    let needs_parents = !options.distances_only || sources.len() > 1;
    // Each run records the start once its buffers are ready, so the time is the kernels'
    // (with the worklist strategies' host loop, which is part of them).
    if needs_parents && arrays.parents.is_none() {
        arrays.parents = Some(ParentBuffers::new(gpu, n)?);
    }
    let totals = match arrays.totals {
        Some(totals) => totals,
        None => *arrays.totals.insert(weight_totals(gpu, &view)?),
    };
    let float = view.weight_flags == flags::WEIGHTS_F32;
    let packed = needs_parents && options.strategy.is_bucketed() && packs_parents(&view, totals);
    let narrow_words = !needs_parents
        && options.narrow_words
        && matches!(options.strategy, SsspStrategy::DeltaStepping | SsspStrategy::NearFar)
        && distances_fit_narrow_words(&view, totals);
    if narrow_words && arrays.narrow.is_none() {
        arrays.narrow = Some(gpu.alloc_zeros(n.max(1) as usize, "the 4-byte shortest-path distances")?);
    }
    let (relaxations, mut trace, start) = match options.strategy {
        SsspStrategy::Auto | SsspStrategy::DeltaStepping | SsspStrategy::NearFar | SsspStrategy::Cluster => {
            let limit = match options.cutoff {
                None => UNREACHED_DISTANCE,
                Some(cutoff) if float => <f32 as Distance>::at_most(cutoff).to_bits() as u64,
                Some(cutoff) => <u64 as Distance>::at_most(cutoff).min(UNREACHED_DISTANCE - 1),
            };
            let stop = DeltaStop { limit, target: options.target.unwrap_or(NO_TARGET) };
            let starts = Starts { host: &sources, device: &device_sources };
            let lists = match &mut arrays.delta {
                Some(lists) => lists,
                None => arrays.delta.insert(DeltaArrays::new(gpu, &view)?),
            };
            let kernel = DeltaKernel { max_degree: graph.max_out_degree(), totals, packed, stop };
            if options.strategy == SsspStrategy::Cluster {
                // Its bitmaps keep a bit a vertex in the cluster's shared memory.
                let most = warpath_interface::cluster::CLUSTER_MAX_VERTICES;
                if let Some(refusal) = cluster_refusal(gpu, graph.graph(), "the cluster strategy", most) {
                    return Err(GpuError::Unsupported(format!("{refusal}; use near-far")).into());
                }
                run_cluster(gpu, &view, kernel, starts, options, lists, &mut distances)?
            } else {
                let narrow = arrays.narrow.as_mut().filter(|_| narrow_words);
                run_delta(gpu, &view, kernel, starts, options, lists, &mut distances, narrow)?
            }
        }
        _ => run_worklist(
            gpu,
            graph,
            &view,
            Starts { host: &sources, device: &device_sources },
            options,
            &mut distances,
        )?,
    };
    let parents_passed = match arrays.parents.as_mut().filter(|_| needs_parents && !packed) {
        Some(buffers) => {
            let one_pass = tight_edges_ascend(&view, totals);
            trace.parent_passes = find_parents(gpu, &view, &device_sources, &distances, buffers, one_pass)?;
            true
        }
        None => false,
    };
    trace.parents_packed = packed;
    trace.narrow_words = narrow_words;
    let end = gpu.record_event()?;
    end.synchronize().map_err(|e| GpuError::driver("cuEventSynchronize", e))?;
    let ms = start.elapsed_ms(&end).map_err(|e| GpuError::driver("cuEventElapsedTime", e))? as f64;
    let time = Duration::from_secs_f64(ms / 1e3);
    Ok(Settled { sources, distances, relaxations, trace, time, packed, float, parents_passed })
}

/// [`shortest_paths_traced_from`] in `arrays` (made or grown as needed, then kept), with the
/// results' download: its wall time and bytes.
pub fn shortest_paths_in(
    graph: &GpuGraph,
    arrays: &mut SsspArrays,
    sources: &[u32],
    options: &SsspOptions,
) -> Result<(Answer<SsspRun>, GpuSsspTrace, Download)> {
    let gpu = graph.gpu();
    let n = graph.graph().num_vertices();
    let Settled { sources, distances, relaxations, trace, time, packed, float, parents_passed } =
        settle(graph, arrays, sources, options)?;
    // Only what was asked comes back: the parents of a one-source run for distances only stay.
    let downloading = Instant::now();
    let repeated = arrays.runs > 0;
    arrays.runs += 1;
    let mut raw = std::mem::take(&mut arrays.spare_raw);
    // With several sources the parents come back even for distances only: they name the
    // nearest sources.
    let mut parents_back = std::mem::take(&mut arrays.spare_parents);
    parents_back.clear();
    if packed && repeated {
        // One pass on every core splits the packed words in pinned memory straight into the two
        // vectors, where a copy into `raw` and a split of it made two.
        let pinned = gpu.pinned_in(&mut arrays.pinned_distances, distances.len(), "the shortest-path distances")?;
        gpu.download_to_pinned(&distances, pinned)?;
        pinned.as_slice()?[..n as usize]
            .par_iter()
            .with_min_len(1 << 16)
            .map(|&word| unpack(word))
            .unzip_into_vecs(&mut raw, &mut parents_back);
    } else {
        let what = "the shortest-path distances";
        SsspArrays::download(gpu, &distances, &mut arrays.pinned_distances, repeated, &mut raw, what)?;
        raw.truncate(n as usize);
        if packed {
            unpack_parents(&mut raw, &mut parents_back);
        }
    }
    if let Some(buffers) = arrays.parents.as_ref().filter(|_| parents_passed) {
        let pinned = &mut arrays.pinned_parents;
        SsspArrays::download(gpu, &buffers.parents, pinned, repeated, &mut parents_back, "the shortest-path parents")?;
        parents_back.truncate(n as usize);
    }
    let parent_bytes = if packed { 0 } else { 4 * parents_back.len() };
    let download = Download { time: downloading.elapsed(), bytes: (8 * raw.len() + parent_bytes) as u64 };
    arrays.distances = Some(distances);
    let distances = if float {
        let mut floats = std::mem::take(&mut arrays.spare_floats);
        floats.clear();
        floats.par_extend(raw.par_iter().with_min_len(1 << 16).map(|&d| {
            if d == UNREACHED_DISTANCE {
                f32::INFINITY
            } else {
                f32::from_bits(d as u32)
            }
        }));
        arrays.spare_raw = raw;
        Distances::Float(floats)
    } else {
        Distances::Int(raw)
    };
    let parents = parents_back;
    let mut run = SsspRun { distances, parents, relaxations, sources, nearest_source: Vec::new(), reach: None };
    // Beyond the reach, distances are tentative (delta-stepping stopped) or not asked for.
    run.reach = reach_of(options, options.target.and_then(|t| run.distances.get(t as usize)));
    if let Some(reach) = run.reach {
        run.distances.cut_beyond(reach);
        run.distances.clear_unreached_parents(&mut run.parents);
    }
    run.find_nearest_sources()?;
    if options.distances_only {
        run.parents = Vec::new();
    }
    Ok((Answer { result: run, time }, trace, download))
}

/// Pinned host memory a run's results are read back into and read in place from
/// ([`crate::sssp::PathFinder::run_pinned`]): the distances as the caller reads them (integers
/// or floats) and the parents, split on the device first (`sssp_unpack`), so the host makes no
/// pass over them (bench/NOTES.md 104 and 107). Made by the first run, kept for the next.
#[derive(Default)]
pub struct PinnedResults {
    ints: Option<PinnedBuffer<u64>>,
    floats: Option<PinnedBuffer<f32>>,
    parents: Option<PinnedBuffer<u32>>,
    /// What the last run left: float distances (else integers), and whether parents.
    last: Option<(bool, bool)>,
}

impl PinnedResults {
    /// The last run's distances (empty before any).
    pub fn distances(&self) -> Result<DistancesRef<'_>, GpuError> {
        Ok(match (self.last, &self.ints, &self.floats) {
            (Some((false, _)), Some(ints), _) => DistancesRef::Int(ints.as_slice()?),
            (Some((true, _)), _, Some(floats)) => DistancesRef::Float(floats.as_slice()?),
            _ => DistancesRef::Int(&[]),
        })
    }

    /// The last run's parents; `None` after a distances-only run.
    pub fn parents(&self) -> Result<Option<&[u32]>, GpuError> {
        match (self.last, &self.parents) {
            (Some((_, true)), Some(parents)) => Ok(Some(parents.as_slice()?)),
            _ => Ok(None),
        }
    }
}

/// One source's shortest paths with the results left in `results` (see [`PinnedResults`]):
/// the returned run's distances and parents are empty. No cutoff or target (their reach is
/// cut on the host): the caller runs [`shortest_paths_in`] for those.
pub fn shortest_paths_pinned(
    graph: &GpuGraph,
    arrays: &mut SsspArrays,
    results: &mut PinnedResults,
    source: u32,
    options: &SsspOptions,
) -> Result<(Answer<SsspRun>, GpuSsspTrace, Download)> {
    if options.cutoff.is_some() || options.target.is_some() {
        return Err(Error::InvalidArgument(
            "results read in place take no cutoff or target: run them into vectors".into(),
        ));
    }
    let gpu = graph.gpu();
    let n = graph.graph().num_vertices();
    let Settled { sources, mut distances, relaxations, trace, time, packed, float, parents_passed } =
        settle(graph, arrays, &[source], options)?;
    let downloading = Instant::now();
    results.last = None;
    let with_parents = !options.distances_only;
    if packed || float {
        if float && arrays.floats.is_none() {
            arrays.floats = Some(gpu.alloc_zeros(n.max(1) as usize, "the float distances read back")?);
        }
        let parents = arrays.parents.as_mut().filter(|_| packed && with_parents).map(|buffers| &mut buffers.parents);
        let floats = arrays.floats.as_mut().filter(|_| float);
        launch::sssp_unpack(gpu, n, None, &mut distances, packed, parents, floats)?;
    }
    let n = n as usize;
    let parents = arrays.parents.as_ref().filter(|_| with_parents && (packed || parents_passed));
    let mut bytes = 0;
    match (float, parents) {
        (false, Some(buffers)) => {
            let ints = gpu.pinned_in(&mut results.ints, n, "the shortest-path distances")?;
            let pinned_parents = gpu.pinned_in(&mut results.parents, n, "the shortest-path parents")?;
            gpu.download_two_to_pinned((&distances, ints), (&buffers.parents, pinned_parents))?;
            bytes += 12 * n;
        }
        (false, None) => {
            gpu.download_to_pinned(&distances, gpu.pinned_in(&mut results.ints, n, "the shortest-path distances")?)?;
            bytes += 8 * n;
        }
        (true, parents) => {
            let floats = arrays.floats.as_ref().expect("made above");
            let pinned_floats = gpu.pinned_in(&mut results.floats, n, "the shortest-path float distances")?;
            match parents {
                Some(buffers) => {
                    let pinned_parents = gpu.pinned_in(&mut results.parents, n, "the shortest-path parents")?;
                    gpu.download_two_to_pinned((floats, pinned_floats), (&buffers.parents, pinned_parents))?;
                    bytes += 8 * n;
                }
                None => {
                    gpu.download_to_pinned(floats, pinned_floats)?;
                    bytes += 4 * n;
                }
            }
        }
    }
    results.last = Some((float, parents.is_some()));
    let download = Download { time: downloading.elapsed(), bytes: bytes as u64 };
    arrays.distances = Some(distances);
    arrays.runs += 1;
    let distances = if float { Distances::Float(Vec::new()) } else { Distances::default() };
    let run = SsspRun { distances, relaxations, sources, ..SsspRun::default() };
    Ok((Answer { result: run, time }, trace, download))
}

/// The sources, sorted and each once, on the host and on the device.
#[derive(Clone, Copy)]
struct Starts<'a> {
    host: &'a [u32],
    device: &'a CudaSlice<u32>,
}

/// The bucket width delta-stepping and near-far use on the placed `graph` with `options`: the
/// requested one (rounded up for integer and unit weights) or the GPU's rule (see the module
/// documentation), as the kernels will run it.
pub fn delta(graph: &GpuGraph, options: &SsspOptions) -> Result<f64> {
    let gpu = graph.gpu();
    let view = GraphView::of(gpu, graph.graph())?;
    Ok(kernel_delta(&view, graph.max_out_degree(), weight_totals(gpu, &view)?, &resolve(graph, options))?.1)
}

/// The placed weights' sum, smallest and largest (floats in units of 2^-16).
#[derive(Clone, Copy, Debug)]
struct WeightTotals {
    sum: u64,
    smallest: u64,
    largest: u64,
}

/// Whether delta-stepping and near-far keep each vertex's parent in its distance word
/// (`flags::PACKED_PARENTS`), sparing the parents pass: where every tight edge ascends and no
/// distance can reach `u32::MAX` (the largest weight times the longest simple path's
/// `n - 1` edges stays below it). Integer weights and unit weights only: a float sum can
/// round to its owner's distance, and then a tight edge need not ascend.
fn packs_parents(view: &GraphView, totals: Option<WeightTotals>) -> bool {
    tight_edges_ascend(view, totals) && distances_fit_narrow_words(view, totals)
}

/// Whether every distance fits a 4-byte word below `u32::MAX` (`flags::NARROW_DISTANCES`, and
/// the distance half of a packed word): float distances (their bits), or integer ones whose
/// largest weight times the longest simple path's `n - 1` edges stays below it.
fn distances_fit_narrow_words(view: &GraphView, totals: Option<WeightTotals>) -> bool {
    if view.weight_flags == flags::WEIGHTS_F32 {
        return true;
    }
    let largest = totals.map_or(1, |totals| totals.largest);
    (largest as u128) * (view.n.max(1) as u128 - 1) < u32::MAX as u128
}

/// Splits packed distance words (`flags::PACKED_PARENTS`) into `words`' distances and
/// `parents` ([`crate::graph::UNREACHED`] for an unreached vertex), on every core.
fn unpack_parents(words: &mut [u64], parents: &mut Vec<u32>) {
    parents.par_extend(words.par_iter_mut().with_min_len(1 << 16).map(|w| {
        let (distance, parent) = unpack(*w);
        *w = distance;
        parent
    }));
}

/// A packed distance word's distance and parent ([`crate::graph::UNREACHED`] for an unreached
/// vertex).
fn unpack(word: u64) -> (u64, u32) {
    let parent = if word == UNREACHED_DISTANCE { crate::graph::UNREACHED } else { word as u32 };
    (packed_distance(word), parent)
}

/// The sum, the smallest and the largest of the weights (floats in units of 2^-16), by the
/// weight-sum kernel; None for unit weights.
fn weight_totals(gpu: &GpuContext, view: &GraphView) -> Result<Option<WeightTotals>> {
    Ok(match view.weight_flags {
        flags::WEIGHTS_UNIT => None,
        _ if view.m == 0 => Some(WeightTotals { sum: 0, smallest: 0, largest: 0 }),
        _ => {
            let (sum, smallest, largest) = launch::sssp_weight_sum(gpu, view)?;
            Some(WeightTotals { sum, smallest, largest })
        }
    })
}

/// Whether every edge on a shortest path leads to a strictly larger distance: unit weights, or
/// integer weights of at least 1. Then a tight edge can close no cycle, and the first parents
/// pass sets every reached vertex's parent (see `find_parents`).
fn tight_edges_ascend(view: &GraphView, totals: Option<WeightTotals>) -> bool {
    match (view.weight_flags, totals) {
        (flags::WEIGHTS_UNIT, _) => true,
        (flags::WEIGHTS_F32, _) => false,
        (_, Some(totals)) => totals.smallest >= 1,
        (_, None) => false,
    }
}

/// The bucket width in the kernels' form (an integer, or an `f32`'s bits), as a number, and
/// whether it leaves no edge light.
fn kernel_delta(
    view: &GraphView,
    max_degree: u64,
    totals: Option<WeightTotals>,
    options: &SsspOptions,
) -> Result<(u64, f64, bool)> {
    let shape = Shape { n: view.n, m: view.m, with_edges: view.with_edges, max_degree };
    let near_far = options.strategy.is_near_far();
    let float = view.weight_flags == flags::WEIGHTS_F32;
    let chosen = choose_delta(float, totals, shape, near_far, options.delta)?;
    let degree = average_degree(view.n as u64, view.m);
    if options.strategy == SsspStrategy::Cluster && options.delta.is_none() && degree < CLUSTER_WIDER_BELOW_DEGREE {
        return choose_delta(float, totals, shape, near_far, Some(chosen.1 * CLUSTER_ROAD_DELTA_FACTOR));
    }
    Ok(chosen)
}

/// What the Δ rule reads of a graph's shape: vertices, edges, vertices with edges and the
/// longest list.
#[derive(Clone, Copy)]
struct Shape {
    n: u32,
    m: u64,
    with_edges: u32,
    max_degree: u64,
}

/// Delta for a graph of `shape` whose weights are `totals` (their sum and smallest, floats in
/// units of 2^-16; None for unit weights), for near-far or delta-stepping, or the `requested`
/// one: `(kernel form, value, no light edge)`. Integer widths round up; a width that is not a
/// positive finite number is an error.
fn choose_delta(
    float: bool,
    totals: Option<WeightTotals>,
    shape: Shape,
    near_far: bool,
    requested: Option<f64>,
) -> Result<(u64, f64, bool)> {
    let Shape { n, m, with_edges, max_degree } = shape;
    let bad = |delta: f64| {
        Error::InvalidArgument(format!("delta must be a positive, finite number of weight units, not {delta}"))
    };
    let Some(WeightTotals { sum, smallest, .. }) = totals else {
        let delta = requested.unwrap_or(1.0);
        if !(delta.is_finite() && delta > 0.0) {
            return Err(bad(delta));
        }
        let whole = (delta.ceil() as u64).max(1);
        return Ok((whole, whole as f64, whole <= 1));
    };
    let scale = if float { FLOAT_WEIGHT_SCALE as f64 } else { 1.0 };
    let delta = requested.unwrap_or_else(|| {
        let average_weight = sum as f64 / scale / m.max(1) as f64;
        let average_degree = average_degree(n as u64, m).max(1.0);
        let chosen = if average_degree < LOW_DEGREE {
            32.0 * average_weight / average_degree * LOW_DEGREE_DELTA_FACTOR
        } else if near_far && m >= NEAR_FAR_NARROW_FROM_EDGES {
            let degree = (m as f64 / with_edges.max(1) as f64).max(1.0);
            let skewed = crate::graph::is_skewed(max_degree, m, with_edges as u64);
            let edges = if skewed { NEAR_FAR_SKEWED_DELTA_EDGES } else { NEAR_FAR_DELTA_EDGES };
            edges * average_weight / degree
        } else {
            32.0 * average_weight / average_degree
        };
        // All weights zero: any width settles everything in one bucket.
        if chosen > 0.0 {
            chosen
        } else {
            1.0
        }
    });
    if !(delta.is_finite() && delta > 0.0) {
        return Err(bad(delta));
    }
    // The smallest weight in the sum's units is at most the true one, so "no light edge" is
    // only claimed when it holds.
    let smallest = smallest as f64 / scale;
    if float {
        let value = (delta as f32).max(f32::MIN_POSITIVE);
        Ok((value.to_bits() as u64, value as f64, (value as f64) <= smallest))
    } else {
        let whole = (delta.ceil() as u64).max(1);
        Ok((whole, whole as f64, whole as f64 <= smallest))
    }
}

fn write_control<T: bytemuck::Pod>(gpu: &GpuContext, control: &T, device: &mut CudaSlice<u64>) -> Result<(), GpuError> {
    gpu.copy_into(bytemuck::cast_slice::<T, u64>(std::slice::from_ref(control)), device)
}

fn read_control<T: bytemuck::Pod>(gpu: &GpuContext, device: &CudaSlice<u64>) -> Result<T, GpuError> {
    let words = gpu.download(device)?;
    Ok(bytemuck::pod_read_unaligned(&bytemuck::cast_slice::<u64, u8>(&words)[..std::mem::size_of::<T>()]))
}

/// What a delta-stepping launch takes beside its arrays: the graph's largest out-degree, the
/// weights' totals, whether parents ride in the distance words ([`packs_parents`]), and
/// where it stops.
struct DeltaKernel {
    max_degree: u64,
    totals: Option<WeightTotals>,
    packed: bool,
    stop: DeltaStop,
}

/// Delta-stepping or near-far in one launch; returns the relaxations and the trace. With
/// `narrow`, the kernel keeps 4-byte distance words there, widened into `distances` after it.
#[allow(clippy::too_many_arguments)]
fn run_delta(
    gpu: &GpuContext,
    view: &GraphView,
    kernel: DeltaKernel,
    starts: Starts,
    options: &SsspOptions,
    lists: &mut DeltaArrays,
    distances: &mut CudaSlice<u64>,
    mut narrow: Option<&mut CudaSlice<u32>>,
) -> Result<(u64, GpuSsspTrace, CudaEvent)> {
    let DeltaKernel { max_degree, totals, packed, stop } = kernel;
    let (delta, delta_value, all_heavy) = kernel_delta(view, max_degree, totals, options)?;
    let near_far = options.strategy == SsspStrategy::NearFar;
    let DeltaArrays { marks, near, settled, far, control, trace, shared_lists } = lists;
    gpu.copy_into(starts.host, near)?;
    let mut initial = DeltaControl { far_min: [u64::MAX; 3], ..DeltaControl::default() };
    initial.near_len[0] = starts.host.len() as u32;
    write_control(gpu, &initial, control)?;
    let start = gpu.record_event()?;
    launch::sssp_init(gpu, view.n, starts.device, DistanceWords::of(narrow.as_deref_mut(), distances, packed), marks)?;
    // The distance words' flags (packed, narrow) come with the words themselves.
    let flag_word = view.weight_flags
        | flags::SMALL_PATH
        | match options.fusion {
            Fusion::Off => 0,
            Fusion::Rounds => flags::BUCKET_FUSION,
            Fusion::Async => flags::BUCKET_FUSION | flags::ASYNC_FUSION,
        }
        // The kernel ignores it with near-far and all-heavy edges (the flag's contract).
        | if options.adaptive_delta { flags::ADAPTIVE_DELTA } else { 0 }
        | if near_far { flags::NEAR_FAR } else { 0 }
        | if all_heavy && !near_far { flags::ALL_HEAVY } else { 0 };
    // The kernel defers near-far's rounds only (the parameter's contract), and runs apart only
    // rounds it defers.
    let defer_from = defer_from(options.deferred_queueing, view.n, view.m);
    let settings = DeltaSettings {
        delta,
        max_degree,
        flag_word,
        defer_from,
        apart_from: if near_far { apart_from(options.rounds_apart, defer_from, view.n) } else { NEVER_APART },
        tail_growth: options.tail_growth.unwrap_or_else(|| auto_tail_growth(view.n, view.m)).max(2),
    };
    let mut launch = |which, control: &mut CudaSlice<u64>| {
        let buffers = DeltaBuffers {
            distances: DistanceWords::of(narrow.as_deref_mut(), distances, packed),
            marks: &mut *marks,
            near: &mut *near,
            settled: &mut *settled,
            far: &mut *far,
            control,
            trace: &mut *trace,
            shared_lists: &mut *shared_lists,
        };
        launch::sssp_delta_stepping(gpu, view, buffers, settings, stop, which)
    };
    launch(DeltaLaunch::First, control)?;
    if settings.apart_from != NEVER_APART {
        // The loop stops before each round apart; a pair of launches relaxes that round and
        // carries on. Pairs are queued without waiting on each stop (each launch returns at
        // once where nothing stopped), a few at a time, and the control block says whether
        // another stop is pending.
        loop {
            for _ in 0..APART_PAIRS_QUEUED {
                launch(DeltaLaunch::Apart, control)?;
                launch(DeltaLaunch::Resume, control)?;
            }
            if read_control::<DeltaControl>(gpu, control)?.stopped == 0 {
                break;
            }
        }
    }
    if let Some(narrow) = narrow {
        launch::sssp_unpack(gpu, view.n, Some(narrow), distances, false, None, None)?;
    }
    let (relaxations, trace) = read_bucket_trace(gpu, control, trace, delta_value)?;
    Ok((relaxations, trace, start))
}

/// Near-far in one thread-block cluster (`sssp_cluster`), in delta-stepping's arrays: the
/// sources go in the first far pile, which the kernel's first split queues.
fn run_cluster(
    gpu: &GpuContext,
    view: &GraphView,
    kernel: DeltaKernel,
    starts: Starts,
    options: &SsspOptions,
    lists: &mut DeltaArrays,
    distances: &mut CudaSlice<u64>,
) -> Result<(u64, GpuSsspTrace, CudaEvent)> {
    let DeltaKernel { max_degree, totals, packed, stop } = kernel;
    let (delta, delta_value, _) = kernel_delta(view, max_degree, totals, options)?;
    let DeltaArrays { marks, far, control, trace, .. } = lists;
    gpu.copy_into(starts.host, far)?;
    let mut initial = DeltaControl { far_min: [0, u64::MAX, u64::MAX], ..DeltaControl::default() };
    initial.far_len[0] = starts.host.len() as u32;
    write_control(gpu, &initial, control)?;
    let start = gpu.record_event()?;
    launch::sssp_init(gpu, view.n, starts.device, DistanceWords::Wide { words: distances, packed }, marks)?;
    let flag_word = view.weight_flags | if packed { flags::PACKED_PARENTS } else { 0 };
    let buffers = ClusterBuffers { distances, marks, far, control, trace };
    launch::sssp_cluster(gpu, view, buffers, delta, flag_word, stop)?;
    let (relaxations, trace) = read_bucket_trace(gpu, control, trace, delta_value)?;
    Ok((relaxations, trace, start))
}

/// The relaxations a bucketed kernel counted and its trace at width `delta`, from the control
/// block it left and its bucket records (only those written: the trace has room for far more
/// buckets than most runs take). The cluster kernel leaves `small_runs` and `deferred_rounds`
/// as the host wrote them, zero.
fn read_bucket_trace(
    gpu: &GpuContext,
    control: &CudaSlice<u64>,
    trace: &CudaSlice<u64>,
    delta: f64,
) -> Result<(u64, GpuSsspTrace), GpuError> {
    let done: DeltaControl = read_control(gpu, control)?;
    let written = (done.trace_records as usize * DELTA_TRACE_WORDS).min(trace.len());
    let words = gpu.stream().clone_dtoh(&trace.slice(..written)).map_err(|e| GpuError::driver("cuMemcpyDtoH", e))?;
    gpu.synchronize()?;
    let trace = GpuSsspTrace {
        delta,
        buckets: done.buckets,
        steps: done.steps,
        small_runs: done.small_runs,
        deferred_rounds: done.deferred_rounds as u32,
        rounds_apart: done.rounds_apart,
        records: decode_delta_trace(&words, done.trace_records as usize, done.started_ns),
        mdt: 0,
        parent_passes: 0,
        parents_packed: false,
        narrow_words: false,
    };
    Ok((done.relaxations, trace))
}

/// Delta-stepping's lists beside the distances: the queue marks, near queues, settled list,
/// far piles, control block, trace and shared-list table.
struct DeltaArrays {
    marks: CudaSlice<u32>,
    near: CudaSlice<u32>,
    settled: CudaSlice<u32>,
    far: CudaSlice<u32>,
    control: CudaSlice<u64>,
    trace: CudaSlice<u64>,
    shared_lists: CudaSlice<u64>,
}

impl DeltaArrays {
    fn new(gpu: &GpuContext, view: &GraphView) -> Result<DeltaArrays, GpuError> {
        let n = view.n.max(1) as usize;
        let table_words = SHARED_LIST_WORDS * shared_list_capacity(view.n as u64, view.m) as usize;
        Ok(DeltaArrays {
            marks: gpu.alloc_zeros(3 * n, "the shortest-path queue marks")?,
            near: gpu.alloc_zeros(2 * n, "the near queues")?,
            settled: gpu.alloc_zeros(n, "the settled list")?,
            far: gpu.alloc_zeros(2 * n, "the far piles")?,
            control: gpu.alloc_zeros(DELTA_CONTROL_WORDS, "the delta-stepping control block")?,
            trace: gpu.alloc_zeros(TRACE_BUCKETS * DELTA_TRACE_WORDS, "the delta-stepping trace")?,
            shared_lists: gpu.alloc_zeros(table_words.max(1), "the shared-list table")?,
        })
    }
}

/// The delta-stepping kernel's bucket records (see `DELTA_TRACE_WORDS`): relaxations per
/// bucket from the running totals, times from `started_ns`, the kernel's clock when the bucket
/// loop began.
pub fn decode_delta_trace(words: &[u64], records: usize, started_ns: u64) -> Vec<StepTrace> {
    let records = records.min(words.len() / DELTA_TRACE_WORDS);
    let (mut relaxations_before, mut ended) = (0, started_ns);
    words
        .chunks_exact(DELTA_TRACE_WORDS)
        .take(records)
        .map(|r| {
            let heavy = r[5] != 0;
            let light_end = if heavy { r[5] } else { r[4] };
            let step = StepTrace {
                index: r[0],
                vertices: r[1],
                rounds: r[2] as u32,
                relaxations: r[3].saturating_sub(relaxations_before),
                ns: r[4].saturating_sub(started_ns),
                light_ns: light_end.saturating_sub(ended),
                heavy_relaxations: if heavy { r[3].saturating_sub(r[6]) } else { 0 },
                span: r[7] as u32,
            };
            (relaxations_before, ended) = (r[3], r[4]);
            step
        })
        .collect()
}

/// The parents, their levels and the passes' counter, allocated before the run is timed.
struct ParentBuffers {
    parents: CudaSlice<u32>,
    levels: CudaSlice<u32>,
    control: CudaSlice<u64>,
}

impl ParentBuffers {
    fn new(gpu: &GpuContext, n: u32) -> Result<ParentBuffers, GpuError> {
        let n = n.max(1) as usize;
        Ok(ParentBuffers {
            parents: gpu.alloc_zeros(n, "the shortest-path parents")?,
            levels: gpu.alloc_zeros(n, "the parents' levels")?,
            control: gpu.alloc_zeros(1, "the parents counter")?,
        })
    }
}

/// The parents passes; returns the parents and the passes run. Passes repeat until one sets
/// no parent, except where `one_pass` says every tight edge ascends ([`tight_edges_ascend`]):
/// then the first pass sets every reached vertex's parent, reading no levels (the owner of
/// any tight edge will do), and the pass that would confirm it (a second read of every list)
/// is skipped.
fn find_parents(
    gpu: &GpuContext,
    view: &GraphView,
    sources: &CudaSlice<u32>,
    distances: &CudaSlice<u64>,
    buffers: &mut ParentBuffers,
    one_pass: bool,
) -> Result<u32> {
    let n = view.n as usize;
    let ParentBuffers { parents, levels, control } = buffers;
    launch::sssp_parents(gpu, view, sources, 0, one_pass, distances, parents, levels, control)?;
    let mut pass = 1;
    loop {
        gpu.zero(control)?;
        launch::sssp_parents(gpu, view, sources, pass, one_pass, distances, parents, levels, control)?;
        if one_pass {
            return Ok(pass);
        }
        let set = gpu.download(control)?[0];
        if set == 0 || pass as usize > n {
            return Ok(pass);
        }
        pass += 1;
    }
}

/// The device lists of seed 002's strategies: marks, the worklist and the output worklist,
/// and hierarchical processing's progress and sub-lists (one word each otherwise).
struct Worklists {
    marks: CudaSlice<u32>,
    items: CudaSlice<u32>,
    out: CudaSlice<u32>,
    progress: CudaSlice<u64>,
    sub: CudaSlice<u32>,
    sub_next: CudaSlice<u32>,
}

/// Which list an `sssp_worklist` launch reads.
#[derive(Clone, Copy)]
enum Input {
    /// The worklist, writing vertices with edges left to the sub-list.
    Items,
    /// The sub-list (hierarchical processing's later sub-iterations), writing the next one.
    SubList,
}

impl Worklists {
    /// The buffers of one `sssp_worklist` launch over `items_len` items of `input`.
    fn buffers<'a>(
        &'a mut self,
        distances: &'a mut CudaSlice<u64>,
        control: &'a mut CudaSlice<u64>,
        input: Input,
        items_len: u32,
    ) -> WorklistBuffers<'a> {
        let (items, sub) = match input {
            Input::Items => (&self.items, &mut self.sub),
            Input::SubList => (&self.sub, &mut self.sub_next),
        };
        WorklistBuffers {
            distances,
            marks: &mut self.marks,
            progress: &mut self.progress,
            items,
            items_len,
            out: &mut self.out,
            sub,
            control,
        }
    }
}

/// Seed 002's strategies as worklist iterations; returns the relaxations and the trace.
fn run_worklist(
    gpu: &GpuContext,
    graph: &GpuGraph,
    view: &GraphView,
    starts: Starts,
    options: &SsspOptions,
    distances: &mut CudaSlice<u64>,
) -> Result<(u64, GpuSsspTrace, CudaEvent)> {
    let n = view.n as usize;
    let strategy = options.strategy;
    let hierarchical = strategy == SsspStrategy::Hierarchical;
    let decomposed = strategy == SsspStrategy::WorkloadDecomposition || hierarchical;
    let mut trace = GpuSsspTrace::default();
    // Node splitting's pieces, and the threshold hierarchical processing shares.
    let offsets = if strategy == SsspStrategy::NodeSplitting || hierarchical {
        Some(graph.graph().read_offsets(gpu)?)
    } else {
        None
    };
    let mdt = match &offsets {
        Some(offsets) => options.split_threshold.unwrap_or_else(|| split::histogram_threshold(offsets)).max(1),
        None => 0,
    };
    trace.mdt = mdt;
    let mut source_pieces = Vec::new();
    let pieces = match (&offsets, strategy) {
        (Some(offsets), SsspStrategy::NodeSplitting) => {
            let pieces = split::split_lists(offsets, mdt)?;
            let count = pieces.owner.len() as u32;
            for &source in starts.host {
                source_pieces.extend(pieces.first[source as usize]..pieces.first[source as usize + 1]);
            }
            Some(DevicePieces {
                first: gpu.upload(&pieces.first, "node splitting's pieces")?,
                owner: gpu
                    .upload(if pieces.owner.is_empty() { &[0][..] } else { &pieces.owner }, "the pieces' owners")?,
                count,
                mdt,
            })
        }
        _ => None,
    };
    let sources = if strategy == SsspStrategy::EdgeBased {
        let offsets = graph.graph().read_offsets(gpu)?;
        let mut sources = Vec::with_capacity(view.m as usize);
        for (v, w) in offsets.windows(2).enumerate() {
            sources.extend(std::iter::repeat_n(v as u32, (w[1] - w[0]) as usize));
        }
        if sources.is_empty() {
            sources.push(0);
        }
        Some(gpu.upload(&sources, "the edge-based strategy's edge sources")?)
    } else {
        None
    };
    let list_room = pieces.as_ref().map_or(n, |p| p.count as usize).max(1);
    let side = if hierarchical { n.max(1) } else { 1 };
    let mut lists = Worklists {
        marks: gpu.alloc_zeros(n.max(1), "the worklist marks")?,
        items: gpu.alloc_zeros(list_room, "the worklist")?,
        out: gpu.alloc_zeros(list_room, "the output worklist")?,
        progress: gpu.alloc_zeros(side, "the sub-lists' progress")?,
        sub: gpu.alloc_zeros(side, "the sub-list")?,
        sub_next: gpu.alloc_zeros(side, "the next sub-list")?,
    };
    let mut prefix: CudaSlice<u32> =
        gpu.alloc_zeros(if decomposed { n.max(1) } else { 1 }, "the degree prefix sums")?;
    let blocks = if decomposed { launch::cooperative_blocks(gpu, names::SSSP_DECOMPOSED)? as usize } else { 1 };
    let mut block_sums: CudaSlice<u32> = gpu.alloc_zeros(blocks, "the block sums")?;
    let mut control: CudaSlice<u64> = gpu.alloc_zeros(WORKLIST_CONTROL_WORDS, "the worklist control block")?;
    let start = gpu.record_event()?;
    let clock = std::time::Instant::now();
    let words = DistanceWords::Wide { words: distances, packed: false };
    launch::sssp_init(gpu, view.n, starts.device, words, &mut lists.marks)?;
    // The first worklist: the sources (node splitting: their pieces).
    let first = if pieces.is_some() { &source_pieces[..] } else { starts.host };
    if !first.is_empty() {
        gpu.copy_into(first, &mut lists.items)?;
    }
    let mut items_len = first.len() as u32;
    let relaxations = std::cell::Cell::new(0u64);
    // The edge-based strategy holds every vertex active in iteration 0 (marks are 0); only the
    // sources are reached, so only their edges relax. The others start at 1, their marks at 2.
    let mut iteration = if strategy == SsspStrategy::EdgeBased { 0 } else { 1 };
    // One launch with the control block as `carry` leaves it; returns what the kernel left.
    let launch_with = |carry: WorklistControl,
                       control: &mut CudaSlice<u64>,
                       run: &mut dyn FnMut(&mut CudaSlice<u64>) -> Result<(), GpuError>|
     -> Result<WorklistControl> {
        let fresh = WorklistControl { barrier_arrivals: 0, sub_len: 0, relaxations: 0, changed: 0, ..carry };
        write_control(gpu, &fresh, control)?;
        run(control)?;
        let left: WorklistControl = read_control(gpu, control)?;
        relaxations.set(relaxations.get() + left.relaxations);
        Ok(left)
    };
    loop {
        let before = relaxations.get();
        let mut left = WorklistControl::default();
        let worklist = |mode: u32, iteration: u32| WorklistLaunch {
            mode,
            iteration,
            mdt,
            flags: 0,
            sources: sources.as_ref(),
            pieces: pieces.as_ref(),
        };
        match strategy {
            SsspStrategy::NodeBased | SsspStrategy::NodeSplitting | SsspStrategy::EdgeBased => {
                let mode = match strategy {
                    SsspStrategy::NodeBased => worklist_mode::NODE,
                    SsspStrategy::NodeSplitting => worklist_mode::PIECES,
                    _ => worklist_mode::EDGE,
                };
                left = launch_with(left, &mut control, &mut |control| {
                    let buffers = lists.buffers(distances, control, Input::Items, items_len);
                    launch::sssp_worklist(gpu, view, buffers, worklist(mode, iteration))
                })?;
            }
            _ => {
                // Workload decomposition, or hierarchical processing's super list when it is
                // smaller than a block; otherwise sub-iterations until the sub-list is.
                let mut sub_len = 0;
                let whole = !hierarchical || items_len < SSSP_BLOCK;
                if !whole {
                    left = launch_with(left, &mut control, &mut |control| {
                        let mut what = worklist(worklist_mode::SUB_ITERATION, iteration);
                        what.flags = flags::FIRST_SUB;
                        let buffers = lists.buffers(distances, control, Input::Items, items_len);
                        launch::sssp_worklist(gpu, view, buffers, what)
                    })?;
                    sub_len = left.sub_len;
                    while sub_len >= SSSP_BLOCK {
                        left = launch_with(left, &mut control, &mut |control| {
                            let buffers = lists.buffers(distances, control, Input::SubList, sub_len);
                            launch::sssp_worklist(gpu, view, buffers, worklist(worklist_mode::SUB_ITERATION, iteration))
                        })?;
                        sub_len = left.sub_len;
                        std::mem::swap(&mut lists.sub, &mut lists.sub_next);
                    }
                }
                if whole || sub_len > 0 {
                    let Worklists { marks, items, out, progress, sub, .. } = &mut lists;
                    let (list, len, from) =
                        if whole { (&*items, items_len, None) } else { (&*sub, sub_len, Some(&*progress)) };
                    left = launch_with(left, &mut control, &mut |control| {
                        launch::sssp_decomposed(
                            gpu,
                            view,
                            DecomposedBuffers {
                                distances,
                                marks: &mut *marks,
                                progress: from,
                                items: list,
                                items_len: len,
                                prefix: &mut prefix,
                                block_sums: &mut block_sums,
                                out: &mut *out,
                                control,
                            },
                            iteration,
                        )
                    })?;
                }
            }
        }
        trace.records.push(StepTrace {
            index: iteration as u64,
            vertices: items_len as u64,
            rounds: 1,
            relaxations: relaxations.get() - before,
            ns: clock.elapsed().as_nanos() as u64,
            ..StepTrace::default()
        });
        iteration += 1;
        if strategy == SsspStrategy::EdgeBased {
            if left.changed == 0 {
                break;
            }
        } else {
            items_len = left.out_len;
            std::mem::swap(&mut lists.items, &mut lists.out);
            if items_len == 0 {
                break;
            }
        }
    }
    trace.steps = trace.records.len() as u32;
    Ok((relaxations.get(), trace, start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{EdgeList, GraphBuilder};
    use warpath_interface::sssp::packed_word;
    use warpath_interface::DeviceAddress;

    /// Weights of `sum` and `smallest`; their largest, which the rules these tests call do not
    /// read, as large as it can be.
    fn sum_and_smallest(sum: u64, smallest: u64) -> Option<WeightTotals> {
        Some(WeightTotals { sum, smallest, largest: u64::MAX })
    }

    fn graph(n: u64, edges: Vec<(u32, u32)>) -> Graph {
        GraphBuilder::new().build(EdgeList::new(n, edges, true)).unwrap()
    }

    #[test]
    fn auto_takes_the_cluster_only_on_hopper_for_roads_and_meshes_of_its_size() {
        // The six graphs the rule was measured on (bench/NOTES.md 115, 119), by vertices and
        // edges.
        let ny = (264_346, 730_100);
        let usroads = (126_146, 323_900);
        let luxembourg = (114_599, 239_332);
        let grid = |side: u64| (side * side, 4 * side * (side - 1));
        for (graph, cluster) in [
            (ny, true),
            (usroads, true),
            (luxembourg, true),
            (grid(1000), true),
            (grid(2000), true),
            (grid(5000), false),
        ] {
            let expected = if cluster { SsspStrategy::Cluster } else { SsspStrategy::NearFar };
            assert_eq!(auto_strategy(true, graph.0, graph.1), expected, "{graph:?}");
            assert_eq!(auto_strategy(false, graph.0, graph.1), SsspStrategy::NearFar, "no clusters before Hopper");
        }
        // Kronecker and uniform graphs: far above the degree.
        assert_eq!(auto_strategy(true, 1 << 22, 64 << 22), SsspStrategy::NearFar);
        assert_eq!(auto_strategy(true, 0, 0), SsspStrategy::NearFar);
    }

    #[test]
    fn low_degree_graphs_take_two_blocks_a_multiprocessor_and_the_others_all() {
        use warpath_interface::sssp::FUSED_MAX_DEGREE;
        let low = FUSED_MAX_DEGREE as u64;
        assert_eq!(launch::delta_stepping_blocks(528, 132, low), 264);
        assert_eq!(launch::delta_stepping_blocks(528, 132, low + 1), 528);
        // Never more than fit, never none.
        assert_eq!(launch::delta_stepping_blocks(132, 132, 4), 132);
        assert_eq!(launch::delta_stepping_blocks(0, 132, 4), 1);
    }

    #[test]
    fn the_tail_grows_faster_only_on_dense_graphs() {
        // kron:22 (about 30 edges a vertex) and urand:22 (32) take 8; a mesh (4) and a road (2.8)
        // keep 2.
        assert_eq!(auto_tail_growth(1 << 22, 128_303_788), 8);
        assert_eq!(auto_tail_growth(1 << 22, 134_217_728), 8);
        assert_eq!(auto_tail_growth(25_000_000, 99_980_000), 2);
        assert_eq!(auto_tail_growth(264_346, 730_100), 2);
        assert_eq!(auto_tail_growth(0, 0), 2);
    }

    #[test]
    fn rounds_run_apart_only_among_deferred_ones() {
        let n = 1 << 22;
        // No round defers: none runs apart, whatever is asked.
        for choice in [RoundsApart::Auto, RoundsApart::From(0), RoundsApart::Never] {
            assert_eq!(apart_from(choice, NEVER_DEFER, n), NEVER_APART);
        }
        // `auto` runs none apart below 2^24 vertices, and from there rounds of n / 32 or more
        // (kron:24's deferred rounds start at about 67,700 vertices).
        assert_eq!(apart_from(RoundsApart::Auto, 17_097, n), NEVER_APART);
        assert_eq!(apart_from(RoundsApart::Auto, 67_700, 1 << 24), 1 << 19);
        assert_eq!(apart_from(RoundsApart::Auto, 1 << 20, 1 << 24), 1 << 20);
        assert_eq!(apart_from(RoundsApart::From(0), 17_097, n), 17_097);
        assert_eq!(apart_from(RoundsApart::From(50_000), 17_097, n), 50_000);
        assert_eq!(apart_from(RoundsApart::Never, 17_097, n), NEVER_APART);
    }

    #[test]
    fn parents_ride_in_the_distance_words_only_where_every_distance_fits_and_edges_ascend() {
        let view = |weight_flags, n| GraphView {
            offsets: DeviceAddress::NULL,
            targets: DeviceAddress::NULL,
            weights: DeviceAddress::NULL,
            n,
            m: 6,
            with_edges: n,
            weight_flags,
        };
        let totals = |smallest, largest| Some(WeightTotals { sum: 0, smallest, largest });
        assert!(packs_parents(&view(flags::WEIGHTS_UNIT, u32::MAX), None));
        // kron:24's 2^24 vertices and weights up to 255: 255 * (2^24 - 1) < 2^32 - 1.
        assert!(packs_parents(&view(flags::WEIGHTS_U32, 1 << 24), totals(1, 255)));
        assert!(!packs_parents(&view(flags::WEIGHTS_U32, 1 << 24), totals(1, 257)), "a distance could reach 2^32");
        assert!(!packs_parents(&view(flags::WEIGHTS_U32, 100), totals(0, 5)), "a zero weight can close a cycle");
        assert!(!packs_parents(&view(flags::WEIGHTS_F32, 100), totals(1 << 16, 2 << 16)), "rounding");
        // 4-byte distance words need only the bound: zero weights and float sums are fine.
        assert!(distances_fit_narrow_words(&view(flags::WEIGHTS_U32, 100), totals(0, 5)));
        assert!(distances_fit_narrow_words(&view(flags::WEIGHTS_F32, u32::MAX), totals(1 << 16, u64::MAX)));
        assert!(distances_fit_narrow_words(&view(flags::WEIGHTS_U32, 1 << 24), totals(1, 255)));
        assert!(!distances_fit_narrow_words(&view(flags::WEIGHTS_U32, 1 << 24), totals(1, 257)));
        // grid2d:5000's 25M vertices with weights up to 255 do not fit.
        assert!(!distances_fit_narrow_words(&view(flags::WEIGHTS_U32, 25_000_000), totals(1, 255)));
    }

    #[test]
    fn packed_words_split_into_distances_and_parents() {
        let mut words = vec![packed_word(0, 0), packed_word(7, 0), UNREACHED_DISTANCE, packed_word(12, 1)];
        let mut parents = Vec::new();
        unpack_parents(&mut words, &mut parents);
        assert_eq!(words, [0, 7, UNREACHED_DISTANCE, 12]);
        assert_eq!(parents, [0, 0, crate::graph::UNREACHED, 1]);
    }

    #[test]
    fn the_confirming_parents_pass_is_skipped_only_where_tight_edges_ascend() {
        let view = |weight_flags| GraphView {
            offsets: DeviceAddress::NULL,
            targets: DeviceAddress::NULL,
            weights: DeviceAddress::NULL,
            n: 4,
            m: 6,
            with_edges: 4,
            weight_flags,
        };
        assert!(tight_edges_ascend(&view(flags::WEIGHTS_UNIT), None));
        assert!(tight_edges_ascend(&view(flags::WEIGHTS_U32), sum_and_smallest(30, 1)));
        assert!(
            !tight_edges_ascend(&view(flags::WEIGHTS_U32), sum_and_smallest(30, 0)),
            "a zero weight can close a cycle"
        );
        assert!(!tight_edges_ascend(&view(flags::WEIGHTS_F32), sum_and_smallest(30 << 16, 1 << 16)), "rounding");
    }

    #[test]
    fn workspaces_grow_with_what_each_strategy_keeps() {
        let g = graph(100, (0..99).map(|v| (v, v + 1)).collect());
        let bytes = |strategy, distances_only| {
            let options = SsspOptions { strategy, distances_only, ..SsspOptions::default() };
            let asked = workspace(&g, &options).unwrap();
            assert!(asked.edge_weights && !asked.in_lists, "{strategy:?}");
            asked.bytes
        };
        let node = bytes(SsspStrategy::NodeBased, false);
        assert_eq!(node - bytes(SsspStrategy::NodeBased, true), 8 * 100, "parents and their levels");
        // The edge-based strategy's sources: 4 bytes an edge (198 stored edges).
        assert_eq!(bytes(SsspStrategy::EdgeBased, false), node - 8 * 100 + 4 * 198);
        assert!(bytes(SsspStrategy::DeltaStepping, false) > node);
        assert!(bytes(SsspStrategy::Hierarchical, false) > bytes(SsspStrategy::WorkloadDecomposition, false));
        let split =
            SsspOptions { strategy: SsspStrategy::NodeSplitting, split_threshold: Some(1), ..SsspOptions::default() };
        let coarse = SsspOptions { split_threshold: Some(64), ..split };
        assert!(workspace(&g, &split).unwrap().bytes > workspace(&g, &coarse).unwrap().bytes, "more pieces");
    }

    #[test]
    fn delta_comes_from_the_average_weight_and_degree_or_as_asked() {
        // Delta-stepping's rule, on graphs whose every vertex has edges.
        let stepping = |float, totals, n, m, requested| {
            choose_delta(float, totals, Shape { n, m, with_edges: n, max_degree: 0 }, false, requested)
        };
        // 1000 vertices, 32000 edges of average weight 128: 32 * 128 / 32.
        assert_eq!(stepping(false, sum_and_smallest(128 * 32000, 1), 1000, 32000, None).unwrap(), (128, 128.0, false));
        // Integer widths round up; one at most the smallest weight leaves no light edge.
        assert_eq!(stepping(false, sum_and_smallest(100, 5), 10, 20, Some(4.2)).unwrap(), (5, 5.0, true));
        // Unit weights: 1 (every edge heavy, buckets are BFS levels) unless asked.
        assert_eq!(stepping(false, None, 10, 20, None).unwrap(), (1, 1.0, true));
        assert_eq!(stepping(false, None, 10, 20, Some(3.0)).unwrap(), (3, 3.0, false));
        // Floats (graph500's [0, 1), average 0.5, degree 32): delta 0.5 as f32 bits.
        let half = (0.5 * FLOAT_WEIGHT_SCALE as f64 * 3200.0) as u64;
        let float_half = stepping(true, sum_and_smallest(half, 0), 100, 3200, None).unwrap();
        assert_eq!(float_half, (0.5f32.to_bits() as u64, 0.5, false));
        // Average out-degree below LOW_DEGREE (a road): twice the width, 2 * 32 * 100 / 2.5.
        assert_eq!(stepping(false, sum_and_smallest(100 * 2500, 1), 1000, 2500, None).unwrap(), (2560, 2560.0, false));
        // Asked for, it is taken as it is.
        assert_eq!(stepping(false, sum_and_smallest(100 * 2500, 1), 1000, 2500, Some(700.0)).unwrap().0, 700);
        // All-zero weights still get a positive width.
        assert_eq!(stepping(false, sum_and_smallest(0, 0), 10, 20, None).unwrap().0, 1);
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let err = stepping(false, sum_and_smallest(10, 1), 10, 20, Some(bad)).unwrap_err().to_string();
            assert!(err.contains("delta must be a positive, finite number"), "{err}");
        }
        // Near-far on a big graph: 11 average edges over the degree of the vertices with edges
        // (a third of the 2^27 vertices have 96 edges each: 11 * 128 / 96 rounds up to 15),...
        let (n, m) = (1 << 27, 32 << 27);
        let even = Shape { n, m, with_edges: n / 3, max_degree: 192 };
        assert_eq!(choose_delta(false, sum_and_smallest(128 * m, 1), even, true, None).unwrap().0, 15);
        // ...6.5 where the longest list is 64 times the average or more (6.5 * 128 / 96 up to 9).
        let kron_like = Shape { max_degree: 100 * 96, ..even };
        assert_eq!(choose_delta(false, sum_and_smallest(128 * m, 1), kron_like, true, None).unwrap().0, 9);
        // ...but delta-stepping's rule below NEAR_FAR_NARROW_FROM_EDGES edges, low-degree graphs
        // keep the widened rule, and a width asked for is taken.
        let small = Shape { n: 1000, m: 32000, with_edges: 333, max_degree: 1000 };
        assert_eq!(choose_delta(false, sum_and_smallest(128 * 32000, 1), small, true, None).unwrap().0, 128);
        let road = Shape { n: 1 << 27, m: 5 << 26, with_edges: 1 << 27, max_degree: 8 };
        assert_eq!(choose_delta(false, sum_and_smallest(100 * (5 << 26), 1), road, true, None).unwrap().0, 2560);
        assert_eq!(choose_delta(false, sum_and_smallest(128 * m, 1), kron_like, true, Some(64.0)).unwrap().0, 64);
    }

    #[test]
    fn the_delta_trace_decodes_per_bucket_relaxations_and_times() {
        // Bucket 0: heavy phase at 800 ns after 3 relaxations; bucket 3, twice delta wide: none
        // (near-far).
        let words = [0, 1, 1, 4, 1000, 800, 3, 1, 3, 10, 2, 54, 1500, 0, 0, 2, 9, 9, 9, 9, 9, 9, 9, 9];
        let records = decode_delta_trace(&words, 2, 100);
        assert_eq!(records.len(), 2);
        let first = StepTrace {
            index: 0,
            vertices: 1,
            rounds: 1,
            relaxations: 4,
            ns: 900,
            light_ns: 700,
            heavy_relaxations: 1,
            span: 1,
        };
        assert_eq!(records[0], first);
        let second = StepTrace {
            index: 3,
            vertices: 10,
            rounds: 2,
            relaxations: 50,
            ns: 1400,
            light_ns: 500,
            heavy_relaxations: 0,
            span: 2,
        };
        assert_eq!(records[1], second);
        assert_eq!(decode_delta_trace(&words, 7, 100).len(), 3, "never past the words");
    }
}
