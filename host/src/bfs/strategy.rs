//! The four top-down strategies of Merrill, Garland and Grimshaw ("Scalable GPU Graph
//! Traversal", PPoPP 2012, section 5), by name, and `auto`, which picks one for a graph.

use crate::graph::Graph;

/// How a top-down-only GPU BFS couples neighbor gathering (expansion) with status lookup
/// (contraction).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TopDownStrategy {
    /// Section 5.1: one fused pass per level from a vertex queue to a vertex queue, gathering
    /// and lookup in-core. The persistent kernel's top-down path, with its one-block path
    /// for small frontiers.
    ExpandContract,
    /// Section 5.2: one fused pass per level from an edge queue to an edge queue: contract,
    /// then expand the survivors straight away.
    ContractExpand,
    /// Section 5.3: contraction and expansion separated by a grid barrier, through a vertex
    /// queue, so that expansion is balanced over the whole grid.
    TwoPhase,
    /// Section 5.4: two-phase for levels whose edge queue outnumbers the resident threads,
    /// contract-expand for the others.
    Hybrid,
    /// One of the four, chosen from the graph's size by [`auto_choice`].
    Auto,
}

impl TopDownStrategy {
    pub const ALL: [TopDownStrategy; 5] = [
        TopDownStrategy::ExpandContract,
        TopDownStrategy::ContractExpand,
        TopDownStrategy::TwoPhase,
        TopDownStrategy::Hybrid,
        TopDownStrategy::Auto,
    ];

    /// Merrill et al.'s name for it, as messages and test labels say it (the kernels' names
    /// are [`crate::bfs::KernelName`]).
    pub fn name(self) -> &'static str {
        match self {
            TopDownStrategy::ExpandContract => "expand-contract",
            TopDownStrategy::ContractExpand => "contract-expand",
            TopDownStrategy::TwoPhase => "two-phase",
            TopDownStrategy::Hybrid => "hybrid",
            TopDownStrategy::Auto => "auto",
        }
    }

    /// The strategy to run on `graph`: itself, or for [`Auto`](Self::Auto) the one
    /// [`auto_choice`] picks from its size.
    pub fn resolve(self, graph: &Graph) -> TopDownStrategy {
        match self {
            TopDownStrategy::Auto => auto_choice(graph.num_vertices() as u64, graph.num_edges()),
            chosen => chosen,
        }
    }
}

/// `auto`'s pick for a graph of `n` vertices and `m` edges, from the measured suite
/// (bench/NOTES.md, entry 21): expand-contract on graphs with both many edges
/// ([`AUTO_EXPAND_CONTRACT_EDGES`] or more) and a high average degree
/// ([`AUTO_EXPAND_CONTRACT_DEGREE`] or more), contract-expand on the rest. The big
/// Kronecker and uniform graphs spend their time in a few levels of tens of millions of edges,
/// where contract-expand's edge queue moves 16 more bytes an edge than fused gathering (2x
/// slower on kron:22 and kron:24). Everywhere else, small social graphs and roads and grids of
/// thousands of levels, the time is per-level latency, and contract-expand's single tile
/// pass per level, with block 0 alone on tiny queues, is 1.2-2.5x faster. Graphs of 2^32 edges
/// or more stay with expand-contract, which needs no edge queue.
pub fn auto_choice(n: u64, m: u64) -> TopDownStrategy {
    let dense = m >= AUTO_EXPAND_CONTRACT_DEGREE * n.max(1);
    if (dense && m >= AUTO_EXPAND_CONTRACT_EDGES) || m >= 1 << 32 {
        TopDownStrategy::ExpandContract
    } else {
        TopDownStrategy::ContractExpand
    }
}

/// Whether `auto` runs the whole BFS in one thread-block cluster (`GpuKernel::Cluster`) where
/// its size rule picks contract-expand: on a GPU with clusters (`clusters`: compute capability
/// 9.0 or newer), for graphs of at most [`AUTO_CLUSTER_MAX_VERTICES`] vertices whose lists are
/// all shorter than [`AUTO_CLUSTER_MAX_DEGREE`] (the cluster walks a list with one thread).
/// Fitted to the measured roads and grids (bench/NOTES.md 116): the cluster was 1.45-1.61x
/// faster on USA-road-d.NY, usroads-48, luxembourg_osm and grid2d:1000 (1M vertices), 5%
/// slower on grid2d:2000 (4M), 70x slower on kron:20 (hubs walked by one thread each).
pub fn auto_takes_the_cluster(clusters: bool, n: u64, max_out_degree: u64) -> bool {
    clusters && n <= AUTO_CLUSTER_MAX_VERTICES && max_out_degree < AUTO_CLUSTER_MAX_DEGREE
}

/// The most vertices, and the longest list (exclusive), for which `auto` takes the cluster.
pub const AUTO_CLUSTER_MAX_VERTICES: u64 = 1 << 21;
pub const AUTO_CLUSTER_MAX_DEGREE: u64 = 32;

/// The edge count and average degree from which `auto` picks expand-contract.
pub const AUTO_EXPAND_CONTRACT_EDGES: u64 = 1 << 24;
pub const AUTO_EXPAND_CONTRACT_DEGREE: u64 = 8;

impl std::fmt::Display for TopDownStrategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, GeneratorSpec};

    #[test]
    fn auto_picks_expand_contract_only_for_big_dense_graphs() {
        use TopDownStrategy::*;
        // kron:22 and kron:24 (32 edges a vertex), urand:22: expand-contract.
        assert_eq!(auto_choice(1 << 22, 134_000_000), ExpandContract);
        assert_eq!(auto_choice(1 << 24, 537_000_000), ExpandContract);
        // Social graphs: dense but small. Roads and grids: big but sparse (grid2d:5000).
        assert_eq!(auto_choice(82_168, 948_464), ContractExpand);
        assert_eq!(auto_choice(25_000_000, 99_980_000), ContractExpand);
        assert_eq!(auto_choice(114_599, 239_332), ContractExpand);
        // No edge queue can count 2^32 edges.
        assert_eq!(auto_choice(1 << 28, 1 << 32), ExpandContract);
        let graph = generate(&"grid2d:30x30".parse::<GeneratorSpec>().unwrap(), 1).unwrap();
        assert_eq!(Auto.resolve(&graph), ContractExpand);
        for strategy in TopDownStrategy::ALL {
            assert_ne!(strategy.resolve(&graph), Auto);
        }
        assert_eq!(Hybrid.resolve(&graph), Hybrid);
    }

    #[test]
    fn auto_takes_the_cluster_on_hopper_for_graphs_without_long_lists_up_to_its_size() {
        // USA-road-d.NY (largest degree 8), grid2d:1000.
        assert!(auto_takes_the_cluster(true, 264_346, 8));
        assert!(auto_takes_the_cluster(true, 1_000_000, 4));
        assert!(!auto_takes_the_cluster(false, 264_346, 8), "no clusters before Hopper");
        // grid2d:2000; kron:20's hubs; web-NotreDame's.
        assert!(!auto_takes_the_cluster(true, 4_000_000, 4));
        assert!(!auto_takes_the_cluster(true, 1 << 20, 80_000));
        assert!(!auto_takes_the_cluster(true, 325_729, 3_445));
    }
}
