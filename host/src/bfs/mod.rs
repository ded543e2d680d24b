//! Breadth-first search: the result type every traversal returns, source selection, the
//! traversals, CPU and GPU (one file each, as in the GAP Benchmark Suite), their trace, the
//! [`Traverser`] that runs them on the [engine](crate::engine), and beside them the verifier
//! ([`verify`]), which no traversal calls on its own work.

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::generate::rng::SplitMix64;
use crate::graph::{Degrees, Graph, UNREACHED};

pub mod cpu_parallel;
pub mod cpu_reference;
pub mod gpu;
pub mod kernel_name;
pub mod multi_source;
pub mod strategy;
pub mod switching;
pub mod trace;
pub mod traverser;
pub mod verify;

pub use crate::engine::{Backend, BackendUsed};
pub use cpu_parallel::{bfs_parallel, bfs_parallel_with, DirectionParams};
pub use cpu_reference::bfs_sequential;
pub use kernel_name::KernelName;
pub use strategy::TopDownStrategy;
pub use switching::{switch_inputs, SwitchInputs, SwitchRule, Switching};
pub use trace::{Direction, FrontierConversion, FrontierOutput, Generation, LevelTrace};
pub use traverser::{bfs, GpuKernel, GpuOptions, PinnedTraversal, Traversal, Traverser};

/// The BFS tree of one traversal, in internal vertex ids.
///
/// `distances` has one entry per vertex, and so has `parents`, except after a distances-only
/// traversal ([`GpuOptions::distances_only`]), when `parents` is empty: check
/// [`has_parents`](Self::has_parents) before indexing it. Unreached vertices hold
/// [`UNREACHED`]; the source is its own parent at distance 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BfsResult {
    pub source: u32,
    pub distances: Vec<u32>,
    pub parents: Vec<u32>,
}

impl BfsResult {
    /// Whether the traversal labelled parents (false after a distances-only run, whose
    /// `parents` is empty).
    pub fn has_parents(&self) -> bool {
        !self.parents.is_empty() || self.distances.is_empty()
    }

    /// Drops the parents, making this a distances-only result.
    pub fn without_parents(mut self) -> BfsResult {
        self.parents = Vec::new();
        self
    }

    /// The largest finite distance: the number of levels below the source.
    pub fn depth(&self) -> u32 {
        self.distances.par_iter().copied().filter(|&d| d != UNREACHED).max().unwrap_or(0)
    }

    /// How many vertices the traversal reached, the source included.
    pub fn reached(&self) -> u64 {
        self.distances.par_iter().filter(|&&d| d != UNREACHED).count() as u64
    }

    /// The directed edges leaving reached vertices: the edges of the reached component,
    /// which is what Graph500 divides by the time to get traversed edges per second (TEPS).
    /// An undirected edge inside the component counts twice, as it is stored twice.
    pub fn edges_in_component(&self, g: &Graph) -> u64 {
        self.edges_in_component_in(g.degrees())
    }

    /// [`edges_in_component`](Self::edges_in_component) from the graph's degrees alone.
    pub fn edges_in_component_in(&self, g: Degrees) -> u64 {
        assert_eq!(self.distances.len(), g.num_vertices(), "BFS result is for a different graph");
        self.distances.par_iter().enumerate().filter(|&(_, &d)| d != UNREACHED).map(|(v, _)| g.degree(v as u32)).sum()
    }
}

/// Checks that `source` (an internal id) can start a useful BFS: it must be a vertex, and it
/// must have an outgoing edge, since otherwise the traversal is trivially just the source
/// (Graph500 likewise only samples roots of non-zero degree).
pub fn check_source(g: &Graph, source: u32) -> Result<()> {
    check_source_in(g.degrees(), source)
}

/// [`check_source`] from the graph's degrees alone.
pub fn check_source_in(g: Degrees, source: u32) -> Result<()> {
    let n = g.num_vertices();
    if source as usize >= n {
        return Err(Error::InvalidSource { vertex: g.external_id(source), problem: g.out_of_range() });
    }
    if g.degree(source) == 0 {
        return Err(Error::InvalidSource {
            vertex: g.external_id(source),
            problem: "has no outgoing edges, so the BFS would reach only itself; pick another source".into(),
        });
    }
    Ok(())
}

/// A seeded random vertex with at least one outgoing edge, as Graph500 picks its search
/// keys; `None` when the graph has no edges. The same graph and seed always give the same
/// vertex, and it is the first of [`random_sources`] for that seed.
pub fn random_source(g: &Graph, seed: u64) -> Option<u32> {
    random_sources(g, seed, 1).first().copied()
}

/// `count` seeded random sources, each with at least one outgoing edge, for benchmark runs.
///
/// They are distinct while the graph has enough vertices with edges; after that every such
/// vertex has been used once and the list repeats them in the same order. Empty for an
/// edgeless graph.
pub fn random_sources(g: &Graph, seed: u64, count: usize) -> Vec<u32> {
    random_sources_in(g.degrees(), seed, count)
}

/// [`random_sources`] from the graph's degrees alone: the same sources.
pub fn random_sources_in(g: Degrees, seed: u64, count: usize) -> Vec<u32> {
    let n = g.num_vertices() as u64;
    if count == 0 || g.num_edges() == 0 {
        return Vec::new();
    }
    let mut rng = SplitMix64::new(seed);
    let mut chosen = Vec::with_capacity(count);
    let mut taken = std::collections::HashSet::with_capacity(count);
    // Rejection sampling is fast when most vertices have edges, which is the usual case.
    // The bound keeps a graph with only a handful of non-isolated vertices from spinning;
    // those are finished by the scan below.
    let mut attempts_left = 64 * count as u64 + 1024;
    while chosen.len() < count && attempts_left > 0 {
        attempts_left -= 1;
        let v = rng.next_below(n) as u32;
        if g.degree(v) > 0 && taken.insert(v) {
            chosen.push(v);
        }
    }
    if chosen.len() < count {
        // Scan from a random start so the fallback still depends on the seed.
        let start = rng.next_below(n);
        let unused: Vec<u32> = (0..n)
            .map(|i| ((start + i) % n) as u32)
            .filter(|&v| g.degree(v) > 0 && !taken.contains(&v))
            .take(count - chosen.len())
            .collect();
        chosen.extend(unused);
    }
    // Fewer candidates than requested: repeat them rather than return a short list, so a
    // harness asking for 64 roots always runs 64 searches.
    let distinct = chosen.len();
    for i in distinct..count {
        chosen.push(chosen[i % distinct]);
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{EdgeList, GraphBuilder};

    /// The values below were computed from the SplitMix64 copies as they were before the
    /// library kept one: the generator, and so every chosen root, must stay bit-identical.
    #[test]
    fn seeded_sequences_and_roots_are_pinned() {
        let mut rng = SplitMix64::new(42);
        let words: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(words, [0xbdd7_3226_2feb_6e95, 0x28ef_e333_b266_f103, 0x4752_6757_130f_9f52]);
        let mut rng = SplitMix64::new(42);
        assert_eq!((0..5).map(|_| rng.next_below(1000)).collect::<Vec<_>>(), [741, 159, 278, 344, 38]);
        let mut rng = SplitMix64::new(42);
        assert_eq!([rng.next_f64(), rng.next_f64()], [0.7415648787718233, 0.1599103928769201]);
        let mut rng = SplitMix64::new(7);
        assert_eq!([rng.next_u32(), rng.next_u32(), rng.next_u32()], [1674306020, 72105175, 3868737664]);

        let edges = (1..1000).map(|v| (v - 1, v)).collect();
        let path = GraphBuilder::new().build(EdgeList::new(1000, edges, true)).unwrap();
        assert_eq!(random_sources(&path, 7, 5), [389, 16, 900, 582, 452]);
    }
}
