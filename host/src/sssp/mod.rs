//! Single-source shortest paths: the strategies of the GPU (Meyer and Sanders' delta-stepping
//! by default; the load-balancing strategies of seed 002 by name), the distances every backend
//! returns and what a run records. The CPU code, the GPU host side and the verifier live in
//! this folder beside each other, as `bfs/` keeps them.

use std::time::Duration;

use crate::error::{Error, Result};
use crate::graph::{Graph, WeightRange};

pub mod cpu_delta;
pub mod cpu_reference;
pub mod finder;
pub mod gpu;
pub mod verify;

pub use cpu_delta::delta_stepping;
pub use cpu_reference::dijkstra;
pub use finder::{shortest_paths, PathFinder, PathsRun};

/// How the GPU distributes the work of a relaxation step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SsspStrategy {
    /// Delta-stepping (Meyer and Sanders) with light/heavy edges, buckets on the device, one
    /// persistent launch.
    #[default]
    DeltaStepping,
    /// Near-far (Davidson et al.): two piles split at a moving threshold.
    NearFar,
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

impl SsspStrategy {
    pub const ALL: [SsspStrategy; 7] = [
        SsspStrategy::DeltaStepping,
        SsspStrategy::NearFar,
        SsspStrategy::NodeBased,
        SsspStrategy::EdgeBased,
        SsspStrategy::WorkloadDecomposition,
        SsspStrategy::NodeSplitting,
        SsspStrategy::Hierarchical,
    ];

    /// The strategy's name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            SsspStrategy::DeltaStepping => "delta-stepping",
            SsspStrategy::NearFar => "near-far",
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
    /// where every list is short (on by default; `false` runs one step of the loop a round).
    pub bucket_fusion: bool,
}

impl Default for SsspOptions {
    fn default() -> SsspOptions {
        SsspOptions {
            strategy: SsspStrategy::default(),
            delta: None,
            split_threshold: None,
            distances_only: false,
            bucket_fusion: true,
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
            return Err(Error::InvalidArgument(format!("the delta-stepping bucket width (delta) must be a positive number, not {d}")))
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
        match self {
            Distances::Int(d) => (d[v] != UNREACHED_INT).then_some(d[v] as f64),
            Distances::Float(d) => d[v].is_finite().then_some(d[v] as f64),
        }
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

    /// The largest distance of a reached vertex, as [`Distances::show`] writes it (`0` when only
    /// the source is reached, `inf` for an empty array).
    pub fn max_reached(&self) -> String {
        let mut best: Option<usize> = None;
        for v in 0..self.len() {
            if let Some(d) = self.get(v) {
                if best.and_then(|b| self.get(b)).is_none_or(|b| d > b) {
                    best = Some(v);
                }
            }
        }
        best.map_or_else(|| "inf".into(), |v| self.show(v))
    }

    /// The directed edges leaving reached vertices: the edges of the reached component, which
    /// Graph500 divides by the time (TEPS).
    pub fn edges_in_component(&self, graph: &Graph) -> u64 {
        use rayon::prelude::*;
        (0..self.len()).into_par_iter().filter(|&v| self.is_reached(v)).map(|v| graph.degree(v as u32)).sum()
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
    let n = graph.num_vertices();
    if (source as usize) < n {
        return Ok(());
    }
    let problem = if n == 0 {
        "is out of range: the graph has no vertices".to_string()
    } else {
        format!(
            "is out of range: the graph has {n} vertices (ids {}..={})",
            graph.external_id(0),
            graph.external_id((n - 1) as u32)
        )
    };
    Err(Error::InvalidSource { vertex: graph.external_id(source), problem })
}

/// What one run returns.
#[derive(Clone, Debug)]
pub struct SsspRun {
    pub distances: Distances,
    /// The shortest-path tree: the source is its own parent, unreached vertices hold
    /// [`crate::graph::UNREACHED`]; empty after a distances-only run.
    pub parents: Vec<u32>,
    /// Time of the kernels (or of the CPU code).
    pub time: Duration,
    /// Edge relaxations performed (an edge relaxed twice counts twice): against the graph's
    /// edges, the work inefficiency.
    pub relaxations: u64,
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
}
