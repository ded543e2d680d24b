//! Single-source shortest paths: the strategies of the GPU (Meyer and Sanders' delta-stepping
//! by default; the load-balancing strategies of seed 002 by name), the distances every backend
//! returns and what a run records. The CPU code, the GPU host side and the verifier live in
//! this folder beside each other, as `bfs/` keeps them.

use crate::error::{Error, Result};
use crate::graph::{Graph, WeightRange};

pub mod cpu_delta;
pub mod cpu_reference;
pub mod finder;
pub mod gpu;
pub mod verify;

pub use crate::engine::{Backend, BackendUsed};
pub use cpu_delta::{delta_stepping, delta_stepping_from};
pub use cpu_reference::{dijkstra, dijkstra_from};
pub use finder::{shortest_paths, PathFinder, PathsRun, PinnedPaths};

/// How the GPU distributes the work of a relaxation step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SsspStrategy {
    /// The default: near-far on one thread-block cluster where the GPU has them and the graph
    /// is a road or mesh of the size the cluster was measured faster on, near-far elsewhere
    /// (`sssp::gpu::auto_strategy` has the rule; `sssp::gpu::resolve` applies it to a placed
    /// graph).
    #[default]
    Auto,
    /// Delta-stepping (Meyer and Sanders) with light/heavy edges, buckets on the device, one
    /// persistent launch.
    DeltaStepping,
    /// Near-far (Davidson et al.): two piles split at a moving threshold; delta-stepping's
    /// loop with every edge relaxed in the rounds and no heavy phase. The fastest measured on
    /// every graph class but the roads and meshes [`SsspStrategy::Cluster`] serves (bench/NOTES.md
    /// entries 96 and 115).
    NearFar,
    /// Near-far in one Hopper thread-block cluster (16 blocks of 1,024 threads): a thread a
    /// queued vertex, the queues in the blocks' shared memory, a cluster barrier between
    /// rounds, no grid step. For graphs whose rounds are small and many (roads, meshes); needs
    /// a GPU of compute capability 9.0 or newer.
    Cluster,
    /// Seed 002: a thread per active vertex.
    NodeBased,
    /// Seed 002: a thread per edge of the graph.
    EdgeBased,
    /// Seed 002: the active vertices' edges split evenly over threads by a prefix sum.
    WorkloadDecomposition,
    /// Seed 002: vertices above a degree threshold split into virtual vertices.
    NodeSplitting,
    /// Seed 002: a super worklist split into sub-worklists by degree, threads in proportion.
    Hierarchical,
}

/// Bucket fusion on the GPU (delta-stepping and near-far): how block 0, running a small light
/// step alone on a graph whose lists are all short, relaxes what it puts back into the current
/// bucket.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Fusion {
    /// No fusion: every light round is a step of the bucket loop, its queue in global memory.
    Off,
    /// Rounds of block 0's own, their queue in shared memory, a block barrier between rounds
    /// (GraphIt's bucket fusion, CGO 2020).
    #[default]
    Rounds,
    /// One asynchronous worklist in shared memory: each warp takes queued entries as soon as
    /// they are queued, with no barrier between rounds.
    Async,
}

/// Near-far on the GPU: which light rounds of the whole grid defer their queueing. A deferred
/// round relaxes with atomics whose answer no thread waits for and leaves a mark on each target
/// it lowers; one pass over every vertex's mark then queues them. It trades the pass (a read of
/// `n` marks) for the round trips a queueing relaxation waits on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DeferredQueueing {
    /// Rounds big enough by the graph's shape (`sssp::gpu::defer_from`).
    #[default]
    Auto,
    /// No round: every relaxation queues what it lowers itself.
    Never,
    /// Rounds over at least this many vertices.
    From(u32),
}

/// Near-far on the GPU: which deferred rounds (see [`DeferredQueueing`]) run their relaxations
/// as a launch of their own, at more warps an SM than the bucket loop's one launch holds, the
/// loop stopping before each and carrying on after it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RoundsApart {
    /// Rounds big enough by the graph's shape (`sssp::gpu::apart_from`).
    #[default]
    Auto,
    /// No round: every deferred round runs inside the bucket loop's launch.
    Never,
    /// Deferred rounds over at least this many vertices.
    From(u32),
}

impl SsspStrategy {
    /// Every strategy a run can take ([`SsspStrategy::Auto`] takes one of them).
    pub const ALL: [SsspStrategy; 8] = [
        SsspStrategy::DeltaStepping,
        SsspStrategy::NearFar,
        SsspStrategy::Cluster,
        SsspStrategy::NodeBased,
        SsspStrategy::EdgeBased,
        SsspStrategy::WorkloadDecomposition,
        SsspStrategy::NodeSplitting,
        SsspStrategy::Hierarchical,
    ];

    /// Whether the strategy keeps buckets (delta-stepping, near-far, near-far on a cluster):
    /// it takes a delta, stops at a target or a cutoff on the device, and traces buckets.
    pub fn is_bucketed(self) -> bool {
        matches!(self, SsspStrategy::Auto | SsspStrategy::DeltaStepping | SsspStrategy::NearFar | SsspStrategy::Cluster)
    }

    /// Whether the strategy is near-far (on the grid or on a cluster): every edge relaxed in
    /// the rounds, no heavy phase.
    pub fn is_near_far(self) -> bool {
        matches!(self, SsspStrategy::Auto | SsspStrategy::NearFar | SsspStrategy::Cluster)
    }

    /// The strategy's name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            SsspStrategy::Auto => "auto",
            SsspStrategy::DeltaStepping => "delta-stepping",
            SsspStrategy::NearFar => "near-far",
            SsspStrategy::Cluster => "cluster",
            SsspStrategy::NodeBased => "node-based",
            SsspStrategy::EdgeBased => "edge-based",
            SsspStrategy::WorkloadDecomposition => "workload-decomposition",
            SsspStrategy::NodeSplitting => "node-splitting",
            SsspStrategy::Hierarchical => "hierarchical",
        }
    }
}

impl std::fmt::Display for SsspStrategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a shortest-paths run is asked to do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SsspOptions {
    pub strategy: SsspStrategy,
    /// Delta-stepping's bucket width; `None` chooses it from the graph's average weight and
    /// degree.
    pub delta: Option<f64>,
    /// Node splitting's degree threshold; `None` takes it from the degree histogram.
    pub split_threshold: Option<u32>,
    /// Do not record parents.
    pub distances_only: bool,
    /// Delta-stepping and near-far on the GPU: bucket fusion on block 0's small light steps,
    /// where every list is short.
    pub fusion: Fusion,
    /// Delta-stepping and near-far on the GPU: each bucket's width adapts on the device to the
    /// work in flight, in multiples of `delta` (ADDS's dynamic Δ; near-far widens its tail's
    /// buckets; `false` keeps every bucket `delta` wide). The default. The CPU's buckets keep
    /// their width.
    pub adaptive_delta: bool,
    /// Near-far on the GPU: which big light rounds defer their queueing.
    pub deferred_queueing: DeferredQueueing,
    /// Near-far on the GPU: which deferred rounds run their relaxations apart.
    pub rounds_apart: RoundsApart,
    /// Near-far on the GPU with adaptive widths: how many times wider than the one before a
    /// bucket in the tail spans (at least 2; above 2 the widest grows from 16 buckets of
    /// `delta` to 1,024). None (the default) chooses by the graph's shape
    /// (`sssp::gpu::auto_tail_growth`).
    pub tail_growth: Option<u32>,
    /// Delta-stepping and near-far on the GPU, distances only: 4-byte distance words where
    /// every distance fits them (the default), so each relaxation's random read and atomic
    /// touch half the bytes; `false` keeps 8-byte words.
    pub narrow_words: bool,
    /// Stop once this vertex (an internal id) is settled: vertices no farther than it get exact
    /// distances, the rest are reported unreached (as with a cutoff at its distance). A target
    /// no source reaches stops nothing.
    pub target: Option<u32>,
    /// Settle nothing farther than this distance: vertices within it get exact distances, the
    /// rest are reported unreached. Non-negative; a whole number for integer and unit weights.
    pub cutoff: Option<f64>,
}

impl Default for SsspOptions {
    fn default() -> SsspOptions {
        SsspOptions {
            strategy: SsspStrategy::default(),
            delta: None,
            split_threshold: None,
            distances_only: false,
            fusion: Fusion::default(),
            adaptive_delta: true,
            deferred_queueing: DeferredQueueing::default(),
            rounds_apart: RoundsApart::default(),
            tail_growth: None,
            narrow_words: true,
            target: None,
            cutoff: None,
        }
    }
}

/// Distances from the source, by vertex (internal ids). Integer weights give exact `u64`
/// sums (no overflow on any graph of `u32` ids and `u32` weights), real weights `f32`; an
/// unweighted graph runs with unit weights and gives integers.
#[derive(Clone, Debug, PartialEq)]
pub enum Distances {
    /// Unreached vertices hold [`UNREACHED_INT`].
    Int(Vec<u64>),
    /// Unreached vertices hold `f32::INFINITY`.
    Float(Vec<f32>),
}

/// Delta-stepping's bucket width for `graph` when none is given: the average edge weight
/// times [`DELTA_EDGES`] over the average out-degree, so that a bucket's light edges reach
/// about as far as [`DELTA_EDGES`] average edges would (Meyer and Sanders, "Δ-stepping", J.
/// Algorithms 2003, section 4: Δ = Θ(1/d) for random weights in [0, 1] and degree d), never
/// below the smallest positive weight; 1 for an unweighted graph (buckets are then BFS levels).
/// Integer weights take it rounded up to an integer ([`delta_for`]).
pub fn default_delta(graph: &Graph) -> f64 {
    let (Some(weights), Some(range)) = (graph.weights(), graph.weight_range()) else {
        return 1.0;
    };
    let edges = weights.len().max(1) as f64;
    let total: f64 = match weights.as_slice() {
        crate::graph::WeightSlice::U32(w) => {
            use rayon::prelude::*;
            w.par_iter().map(|&x| x as f64).sum()
        }
        crate::graph::WeightSlice::F32(w) => {
            use rayon::prelude::*;
            w.par_iter().map(|&x| x as f64).sum()
        }
    };
    let average_weight = total / edges;
    let vertices_with_edges = crate::graph::nonempty_lists(graph.offsets()).max(1) as f64;
    let average_degree = (edges / vertices_with_edges).max(1.0);
    let delta = average_weight * DELTA_EDGES / average_degree;
    let smallest_positive = match range {
        WeightRange::U32 { .. } => 1.0,
        WeightRange::F32 { .. } => f32::MIN_POSITIVE as f64,
    };
    if delta.is_finite() && delta > smallest_positive {
        delta
    } else {
        range.max().max(smallest_positive)
    }
}

/// How many average edges a bucket of the default Δ spans ([`default_delta`]).
pub const DELTA_EDGES: f64 = 8.0;

/// The Δ a run on `graph` uses: `requested` when given (refused unless positive and finite),
/// else [`default_delta`]; for integer (and unit) weights rounded up to a whole number.
pub fn delta_for(graph: &Graph, requested: Option<f64>) -> Result<f64> {
    let delta = match requested {
        Some(d) if !(d.is_finite() && d > 0.0) => {
            return Err(Error::InvalidArgument(format!(
                "the delta-stepping bucket width (delta) must be a positive number, not {d}"
            )))
        }
        Some(d) => d,
        None => default_delta(graph),
    };
    Ok(match graph.weight_kind() {
        Some(crate::graph::WeightKind::F32) => delta,
        _ => delta.ceil(),
    })
}

/// The distance of a vertex the source does not reach, in [`Distances::Int`].
pub const UNREACHED_INT: u64 = u64::MAX;

impl Distances {
    pub fn len(&self) -> usize {
        match self {
            Distances::Int(d) => d.len(),
            Distances::Float(d) => d.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the source reaches `v`.
    pub fn is_reached(&self, v: usize) -> bool {
        match self {
            Distances::Int(d) => d[v] != UNREACHED_INT,
            Distances::Float(d) => d[v].is_finite(),
        }
    }

    /// Vertices the source reaches, itself included.
    pub fn reached(&self) -> u64 {
        (0..self.len()).filter(|&v| self.is_reached(v)).count() as u64
    }

    /// The distance of `v` as an `f64` (exact for `f32`, and for integer sums below 2^53);
    /// `None` when unreached.
    pub fn get(&self, v: usize) -> Option<f64> {
        self.view().get(v)
    }

    /// The distance of `v` as the output file writes it: the integer or the real, `inf` when
    /// unreached.
    pub fn show(&self, v: usize) -> String {
        match self {
            Distances::Int(d) if d[v] == UNREACHED_INT => "inf".into(),
            Distances::Int(d) => d[v].to_string(),
            Distances::Float(d) => d[v].to_string(),
        }
    }

    /// The reached vertex farthest from the sources (the first of them, where several tie);
    /// `None` when none is reached. [`Distances::get`] gives its distance as a number,
    /// [`Distances::show`] as the output files write it.
    pub fn farthest(&self) -> Option<usize> {
        let mut best: Option<(usize, f64)> = None;
        for v in 0..self.len() {
            if let Some(d) = self.get(v) {
                if best.is_none_or(|(_, b)| d > b) {
                    best = Some((v, d));
                }
            }
        }
        best.map(|(v, _)| v)
    }

    /// The directed edges leaving reached vertices: the edges of the reached component, which
    /// Graph500 divides by the time (TEPS).
    pub fn edges_in_component(&self, graph: &Graph) -> u64 {
        use rayon::prelude::*;
        (0..self.len()).into_par_iter().filter(|&v| self.is_reached(v)).map(|v| graph.degree(v as u32)).sum()
    }
}

impl Default for Distances {
    fn default() -> Distances {
        Distances::Int(Vec::new())
    }
}

impl Distances {
    /// The distances read in place, as a slice of their kind.
    pub fn view(&self) -> DistancesRef<'_> {
        match self {
            Distances::Int(d) => DistancesRef::Int(d),
            Distances::Float(d) => DistancesRef::Float(d),
        }
    }
}

/// Distances read where they lie ([`PinnedPaths::distances`]), with [`Distances`]'
/// conventions: [`UNREACHED_INT`] or `f32::INFINITY` where unreached.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DistancesRef<'a> {
    Int(&'a [u64]),
    Float(&'a [f32]),
}

impl DistancesRef<'_> {
    pub fn len(&self) -> usize {
        match self {
            DistancesRef::Int(d) => d.len(),
            DistancesRef::Float(d) => d.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The distance of `v` as [`Distances::get`] gives it; `None` when unreached.
    pub fn get(&self, v: usize) -> Option<f64> {
        match self {
            DistancesRef::Int(d) => (d[v] != UNREACHED_INT).then_some(d[v] as f64),
            DistancesRef::Float(d) => d[v].is_finite().then_some(d[v] as f64),
        }
    }

    /// The distances copied into owned vectors, `reuse`'s memory reused where it has the kind.
    pub fn copy_into(self, reuse: Distances) -> Distances {
        match (self, reuse) {
            (DistancesRef::Int(d), Distances::Int(mut v)) => {
                v.clear();
                v.extend_from_slice(d);
                Distances::Int(v)
            }
            (DistancesRef::Float(d), Distances::Float(mut v)) => {
                v.clear();
                v.extend_from_slice(d);
                Distances::Float(v)
            }
            (DistancesRef::Int(d), _) => Distances::Int(d.to_vec()),
            (DistancesRef::Float(d), _) => Distances::Float(d.to_vec()),
        }
    }
}

/// A distance as the CPU code sums it: `u64` for integer and unit weights, `f32` for real ones.
/// Both have an order-preserving bit pattern for non-negative values (an `f32`'s bits compare
/// as its value does), which the parallel code's atomic minimum relies on.
pub(crate) trait Distance: Copy + PartialOrd + Send + Sync + std::fmt::Debug + 'static {
    const ZERO: Self;
    const INFINITY: Self;
    fn add(self, weight: Self) -> Self;
    fn to_bits(self) -> u64;
    fn from_bits(bits: u64) -> Self;
    /// The delta-stepping bucket of this distance.
    fn bucket(self, delta: Self) -> u64;
    /// Δ, from the `f64` of [`delta_for`].
    fn delta(delta: f64) -> Self;
    fn into_distances(values: Vec<Self>) -> Distances;
    /// The largest distance no farther than `limit` (non-negative): what a cutoff keeps.
    fn at_most(limit: f64) -> Self;
    /// The distance as an `f64` (exact for `f32`, and for integers below 2^53).
    fn as_f64(self) -> f64;
}

impl Distance for u64 {
    const ZERO: u64 = 0;
    const INFINITY: u64 = UNREACHED_INT;
    fn add(self, weight: u64) -> u64 {
        // Sums of u32 weights over fewer than 2^32 edges never reach u64::MAX.
        self + weight
    }
    fn to_bits(self) -> u64 {
        self
    }
    fn from_bits(bits: u64) -> u64 {
        bits
    }
    fn bucket(self, delta: u64) -> u64 {
        self / delta
    }
    fn delta(delta: f64) -> u64 {
        (delta as u64).max(1)
    }
    fn into_distances(values: Vec<u64>) -> Distances {
        Distances::Int(values)
    }
    fn at_most(limit: f64) -> u64 {
        // Saturating: a limit beyond every sum keeps every reached vertex.
        limit.floor() as u64
    }
    fn as_f64(self) -> f64 {
        self as f64
    }
}

impl Distance for f32 {
    const ZERO: f32 = 0.0;
    const INFINITY: f32 = f32::INFINITY;
    fn add(self, weight: f32) -> f32 {
        self + weight
    }
    fn to_bits(self) -> u64 {
        f32::to_bits(self) as u64
    }
    fn from_bits(bits: u64) -> f32 {
        f32::from_bits(bits as u32)
    }
    fn bucket(self, delta: f32) -> u64 {
        (self / delta) as u64
    }
    fn delta(delta: f64) -> f32 {
        (delta as f32).max(f32::MIN_POSITIVE)
    }
    fn into_distances(values: Vec<f32>) -> Distances {
        Distances::Float(values)
    }
    fn at_most(limit: f64) -> f32 {
        let nearest = limit as f32;
        if nearest as f64 > limit {
            // Rounded up (or to infinity): the float below it is the largest within the limit.
            f32::from_bits(nearest.to_bits() - 1)
        } else {
            nearest
        }
    }
    fn as_f64(self) -> f64 {
        self as f64
    }
}

/// Runs `$body` with `$weight` bound to the edge-weight function of `$graph` (by edge index)
/// and `$zero` to a value of its distance type: `u64` unit weights for an unweighted graph,
/// `u64` for `u32` weights, `f32` for `f32` weights.
macro_rules! with_weights {
    ($graph:expr, |$weight:ident| $body:expr) => {
        match $graph.weights() {
            None => {
                let $weight = |_: usize| 1u64;
                $body
            }
            Some($crate::graph::Weights::U32(w)) => {
                let $weight = |e: usize| w[e] as u64;
                $body
            }
            Some($crate::graph::Weights::F32(w)) => {
                let $weight = |e: usize| w[e];
                $body
            }
        }
    };
}
pub(crate) use with_weights;

/// Checks that `source` (an internal id) is a vertex of `graph`.
pub fn check_source(graph: &Graph, source: u32) -> Result<()> {
    if (source as usize) < graph.num_vertices() {
        return Ok(());
    }
    Err(Error::InvalidSource { vertex: graph.external_id(source), problem: graph.degrees().out_of_range() })
}

/// `sources` (internal ids) sorted, each once: the form every backend runs. An empty list or
/// one out of range is an error.
pub fn check_sources(graph: &Graph, sources: &[u32]) -> Result<Vec<u32>> {
    if sources.is_empty() {
        return Err(Error::InvalidArgument("shortest paths need at least one source vertex".into()));
    }
    for &source in sources {
        check_source(graph, source)?;
    }
    Ok(sorted_once(sources))
}

/// `sources` sorted, each once: the form the backends run and report.
pub(crate) fn sorted_once(sources: &[u32]) -> Vec<u32> {
    let mut sorted = sources.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    sorted
}

/// Checks `options.target` and `options.cutoff` against `graph`: the target a vertex, the
/// cutoff non-negative (and whole for integer and unit weights). Errors name the option.
pub fn check_limits(graph: &Graph, options: &SsspOptions) -> Result<()> {
    if let Some(target) = options.target {
        check_vertex(graph, target, "target")?;
    }
    if let Some(cutoff) = options.cutoff {
        if cutoff.is_nan() || cutoff < 0.0 {
            return Err(Error::InvalidArgument(format!("the cutoff must be a non-negative distance, not {cutoff}")));
        }
        let integer = !matches!(graph.weight_kind(), Some(crate::graph::WeightKind::F32));
        if integer && cutoff.is_finite() && cutoff.fract() != 0.0 {
            return Err(Error::InvalidArgument(format!(
                "the cutoff must be a whole number: this graph's distances are integers, and {cutoff} is not"
            )));
        }
    }
    Ok(())
}

/// Checks that `v` (an internal id), named `what` in the error, is a vertex of `graph`.
pub fn check_vertex(graph: &Graph, v: u32, what: &str) -> Result<()> {
    if (v as usize) < graph.num_vertices() {
        return Ok(());
    }
    let problem = graph.degrees().out_of_range();
    Err(Error::InvalidArgument(format!("{what} vertex {} {problem}", graph.external_id(v))))
}

/// The distance beyond which a run with `options` reports vertices unreached, given the
/// target's distance (`None` when unreached): the cutoff, or the target's distance when nearer;
/// `None` when neither limits the run.
pub fn reach_of(options: &SsspOptions, target_distance: Option<f64>) -> Option<f64> {
    let target = options.target.and(target_distance);
    match (options.cutoff, target) {
        (Some(cutoff), Some(target)) => Some(cutoff.min(target)),
        (cutoff, target) => cutoff.or(target),
    }
}

/// The reach of a finished run with `options` ([`reach_of`]), every distance beyond it marked
/// unreached.
pub(crate) fn cut_to_reach<D: Distance>(options: &SsspOptions, distances: &mut [D]) -> Option<f64> {
    let target_distance = options.target.map(|t| distances[t as usize]).filter(|&d| d != D::INFINITY);
    let reach = reach_of(options, target_distance.map(D::as_f64));
    if let Some(reach) = reach {
        cut_beyond(distances, reach);
    }
    reach
}

/// Marks every distance beyond `reach` unreached.
pub(crate) fn cut_beyond<D: Distance>(distances: &mut [D], reach: f64) {
    use rayon::prelude::*;
    let limit = D::at_most(reach);
    distances.par_iter_mut().for_each(|d| {
        if *d > limit {
            *d = D::INFINITY;
        }
    });
}

impl Distances {
    /// Marks every distance beyond `reach` unreached (what a cutoff or a target leaves out).
    pub fn cut_beyond(&mut self, reach: f64) {
        match self {
            Distances::Int(d) => cut_beyond(d, reach),
            Distances::Float(d) => cut_beyond(d, reach),
        }
    }

    /// Sets the parent of every unreached vertex to [`crate::graph::UNREACHED`] (after a cut,
    /// the vertices beyond the reach keep no parent).
    pub(crate) fn clear_unreached_parents(&self, parents: &mut [u32]) {
        for (v, parent) in parents.iter_mut().enumerate() {
            if !self.is_reached(v) {
                *parent = crate::graph::UNREACHED;
            }
        }
    }
}

/// Per vertex, the root its `parents` lead to (a vertex that is its own parent), or
/// [`crate::graph::UNREACHED`] for a vertex without a parent: with a source per root, the
/// nearest source. Each vertex is walked once; parents that lead around a cycle are an error.
pub fn roots_of(parents: &[u32]) -> Result<Vec<u32>> {
    use crate::graph::UNREACHED;
    let mut roots = vec![UNREACHED; parents.len()];
    let mut walk = Vec::new();
    for start in 0..parents.len() {
        let mut v = start;
        // Up to a vertex whose root is known, a root, or a vertex without a parent.
        while roots[v] == UNREACHED && parents[v] != UNREACHED && parents[v] as usize != v {
            walk.push(v);
            if walk.len() > parents.len() {
                return Err(Error::Verification(format!("the parents of vertex {start} lead around a cycle")));
            }
            v = parents[v] as usize;
        }
        let root = match parents[v] {
            UNREACHED => UNREACHED,
            p if p as usize == v => p,
            _ => roots[v],
        };
        roots[v] = root;
        for &w in &walk {
            roots[w] = root;
        }
        walk.clear();
    }
    Ok(roots)
}

/// What one run finds. The run's time is the [`crate::engine::Run`]'s that holds it (the
/// backends return it beside).
#[derive(Clone, Debug, Default)]
pub struct SsspRun {
    pub distances: Distances,
    /// The shortest-path tree: every source is its own parent, unreached vertices hold
    /// [`crate::graph::UNREACHED`]; empty after a distances-only run.
    pub parents: Vec<u32>,
    /// Edge relaxations performed (an edge relaxed twice counts twice): against the graph's
    /// edges, the work inefficiency.
    pub relaxations: u64,
    /// The sources (internal ids), sorted, each once.
    pub sources: Vec<u32>,
    /// With several sources: per vertex, the source nearest to it (internal id; the root of its
    /// parents), [`crate::graph::UNREACHED`] where unreached. Empty after a run from one source,
    /// which is every reached vertex's nearest.
    pub nearest_source: Vec<u32>,
    /// The distance beyond which vertices were reported unreached (the cutoff, or the target's
    /// distance when nearer); `None` when the run settled every vertex the sources reach.
    pub reach: Option<f64>,
}

impl SsspRun {
    /// The shortest path from the nearest source to `v` (internal ids, the source first, `v`
    /// last); `None` when `v` is unreached. An error after a distances-only run (no parents) or
    /// for a `v` that is not a vertex.
    pub fn path_to(&self, v: u32) -> Result<Option<Vec<u32>>> {
        use crate::graph::UNREACHED;
        if self.parents.is_empty() {
            return Err(Error::InvalidArgument(
                "a path needs the parents, and this run computed distances only".into(),
            ));
        }
        if v as usize >= self.parents.len() {
            return Err(Error::InvalidArgument(format!(
                "vertex {v} is not a vertex: the run has {} (internal ids)",
                self.parents.len()
            )));
        }
        if self.parents[v as usize] == UNREACHED {
            return Ok(None);
        }
        let mut path = vec![v];
        let mut at = v;
        while self.parents[at as usize] != at {
            at = self.parents[at as usize];
            if at == UNREACHED || path.len() > self.parents.len() {
                return Err(Error::Verification(format!("the parents of vertex {v} lead to no source")));
            }
            path.push(at);
        }
        path.reverse();
        Ok(Some(path))
    }

    /// Fills [`SsspRun::nearest_source`] from the parents when the run had several sources.
    pub(crate) fn find_nearest_sources(&mut self) -> Result<()> {
        if self.sources.len() > 1 {
            self.nearest_source = roots_of(&self.parents)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reached_counts_finite_distances_of_both_kinds() {
        let ints = Distances::Int(vec![0, UNREACHED_INT, 7]);
        assert_eq!(ints.reached(), 2);
        assert!(!ints.is_reached(1));
        let floats = Distances::Float(vec![0.5, f32::INFINITY]);
        assert_eq!(floats.reached(), 1);
        assert_eq!(floats.len(), 2);
    }

    #[test]
    fn roots_and_paths_follow_the_parents_to_their_source() {
        use crate::graph::UNREACHED;
        // Sources 0 and 4: 0 <- 1 <- 2, 4 <- 3; 5 unreached.
        let parents = vec![0, 0, 1, 4, 4, UNREACHED];
        assert_eq!(roots_of(&parents).unwrap(), vec![0, 0, 0, 4, 4, UNREACHED]);
        assert!(roots_of(&[1, 2, 1]).is_err(), "a cycle leads to no root");
        let run = SsspRun {
            distances: Distances::Int(vec![0, 1, 2, 1, 0, UNREACHED_INT]),
            parents,
            relaxations: 0,
            sources: vec![0, 4],
            nearest_source: Vec::new(),
            reach: None,
        };
        assert_eq!(run.path_to(2).unwrap(), Some(vec![0, 1, 2]));
        assert_eq!(run.path_to(4).unwrap(), Some(vec![4]));
        assert_eq!(run.path_to(5).unwrap(), None);
        assert!(run.path_to(6).is_err());
        let distances_only = SsspRun { parents: Vec::new(), ..run };
        assert!(distances_only.path_to(2).unwrap_err().to_string().contains("distances only"));
    }

    #[test]
    fn a_cutoff_keeps_the_distances_within_it_in_either_arithmetic() {
        let mut ints = Distances::Int(vec![0, 3, 4, UNREACHED_INT]);
        ints.cut_beyond(3.9);
        assert_eq!(ints, Distances::Int(vec![0, 3, UNREACHED_INT, UNREACHED_INT]));
        // 0.1 rounds up as an f32: the float nearest 0.1 lies beyond a cutoff of 0.1.
        assert!(0.1f32 as f64 > 0.1);
        let mut floats = Distances::Float(vec![0.0, 0.1, 0.099_999_99]);
        floats.cut_beyond(0.1);
        assert_eq!(floats, Distances::Float(vec![0.0, f32::INFINITY, 0.099_999_99]));
        let options = SsspOptions { cutoff: Some(5.0), target: Some(1), ..SsspOptions::default() };
        assert_eq!(reach_of(&options, Some(3.0)), Some(3.0));
        assert_eq!(reach_of(&options, None), Some(5.0), "an unreached target stops nothing");
        assert_eq!(reach_of(&SsspOptions::default(), Some(3.0)), None);
    }
}
