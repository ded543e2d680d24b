//! The four top-down strategies of Merrill, Garland and Grimshaw ("Scalable GPU Graph
//! Traversal", PPoPP 2012, section 5), by name, and `auto`, which picks one for a graph.

use crate::error::{Error, Result};
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
    /// One of the four, chosen from the graph's shape by [`TopDownStrategy::resolve`].
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

    pub fn name(self) -> &'static str {
        match self {
            TopDownStrategy::ExpandContract => "expand-contract",
            TopDownStrategy::ContractExpand => "contract-expand",
            TopDownStrategy::TwoPhase => "two-phase",
            TopDownStrategy::Hybrid => "hybrid",
            TopDownStrategy::Auto => "auto",
        }
    }

    /// Whether it runs over an edge queue (the `bfs_edge_queue` kernel).
    pub fn uses_edge_queue(self) -> bool {
        matches!(self, TopDownStrategy::ContractExpand | TopDownStrategy::TwoPhase | TopDownStrategy::Hybrid)
    }

    /// The strategy to run on `graph`: itself, or for [`Auto`](Self::Auto) the one chosen by
    /// the graph's average out-degree. Graphs of at least [`AUTO_EDGE_QUEUE_DEGREE`] edges a
    /// vertex (Kronecker, social, web) have few, wide levels, where the balanced expansion of
    /// two-phase pays; sparser ones (roads, grids, meshes) have thousands of narrow levels,
    /// where expand-contract's single barrier per level and its one-block path for tiny
    /// frontiers win. Edge queues need 8 bytes an edge (16 with parents); graphs of 2^32
    /// edges or more stay with expand-contract, which has none.
    pub fn resolve(self, graph: &Graph) -> TopDownStrategy {
        if self != TopDownStrategy::Auto {
            return self;
        }
        let n = graph.num_vertices().max(1) as u64;
        let m = graph.num_edges();
        if m >= AUTO_EDGE_QUEUE_DEGREE * n && m < 1 << 32 {
            TopDownStrategy::TwoPhase
        } else {
            TopDownStrategy::ExpandContract
        }
    }
}

/// The average out-degree from which `auto` picks two-phase (see [`TopDownStrategy::resolve`]).
pub const AUTO_EDGE_QUEUE_DEGREE: u64 = 8;

impl std::fmt::Display for TopDownStrategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for TopDownStrategy {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        TopDownStrategy::ALL.into_iter().find(|k| k.name() == s).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "unknown top-down strategy `{s}`: expected expand-contract, contract-expand, two-phase, hybrid or auto"
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, GeneratorSpec};

    #[test]
    fn names_round_trip_and_unknown_ones_are_refused() {
        for strategy in TopDownStrategy::ALL {
            assert_eq!(strategy.name().parse::<TopDownStrategy>().unwrap(), strategy);
        }
        let err = "fused".parse::<TopDownStrategy>().unwrap_err().to_string();
        assert!(err.contains("`fused`") && err.contains("two-phase"), "{err}");
    }

    #[test]
    fn auto_picks_by_average_degree_and_never_returns_itself() {
        let graph = |spec: &str| generate(&spec.parse::<GeneratorSpec>().unwrap(), 1).unwrap();
        // A grid has 4 edges a vertex at most; a Kronecker graph of edge factor 16 has 32.
        assert_eq!(TopDownStrategy::Auto.resolve(&graph("grid2d:30x30")), TopDownStrategy::ExpandContract);
        assert_eq!(TopDownStrategy::Auto.resolve(&graph("kron:10")), TopDownStrategy::TwoPhase);
        for strategy in TopDownStrategy::ALL {
            assert_ne!(strategy.resolve(&graph("kron:8")), TopDownStrategy::Auto);
        }
        assert_eq!(TopDownStrategy::Hybrid.resolve(&graph("grid2d:30x30")), TopDownStrategy::Hybrid);
    }
}
