//! Single-source shortest paths: the strategies of the GPU (Meyer and Sanders' delta-stepping
//! by default; the load-balancing strategies of seed 002 by name), the distances every backend
//! returns and what a run records. The CPU code, the GPU host side and the verifier live in
//! this folder beside each other, as `bfs/` keeps them.

pub mod gpu;

use std::time::Duration;

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

/// What a shortest-paths run is asked to do.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SsspOptions {
    pub strategy: SsspStrategy,
    /// Delta-stepping's bucket width; `None` chooses it from the graph's average weight and
    /// degree.
    pub delta: Option<f64>,
    /// Node splitting's degree threshold; `None` takes it from the degree histogram.
    pub split_threshold: Option<u32>,
    /// Do not record parents.
    pub distances_only: bool,
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
