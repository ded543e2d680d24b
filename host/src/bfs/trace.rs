//! What a traversal did, level by level: the trace every BFS (CPU or GPU) can return beside
//! its result, and that `bench --trace` prints and the JSON report records.

use std::fmt;
use std::time::Duration;

use crate::bfs::switching::Generation;

/// Which way one BFS level was expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Frontier vertices push to their out-neighbors.
    TopDown,
    /// Unvisited vertices look for a parent among their in-neighbors.
    BottomUp,
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::TopDown => "top-down",
            Direction::BottomUp => "bottom-up",
        })
    }
}

/// What one level of a traversal did ([`crate::bfs::bfs_parallel_with`], or a GPU kernel's trace).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelTrace {
    /// The distance of the frontier vertices this level expanded from.
    pub level: u32,
    pub direction: Direction,
    /// Vertices in the frontier at the start of the level.
    pub frontier: u64,
    /// Edges actually looked at: every out-edge of the frontier top-down; in-edges up to the
    /// first parent found bottom-up (the early exit that makes bottom-up pay).
    pub edges_inspected: u64,
    /// Graph bytes the level read (offsets and lists, as stored: compressed lists count their
    /// varint bytes), and the same reads in whole 32-byte sectors, which is what crosses the
    /// bus when the graph is in mapped host memory. Counted by the GPU kernels; 0 on the CPU.
    pub bytes_read: u64,
    pub bus_bytes: u64,
    /// Wall time of the level, including any conversion between queue and bitmap.
    pub time: Duration,
    /// `m_f` and `m_u` as the switching rule saw them: out-edges of the frontier and of the
    /// vertices in no frontier yet (0 where the traversal does not record them).
    pub frontier_edges: u64,
    pub unvisited_edges: u64,
    /// How the frontier was generated, where the traversal records it (the persistent GPU
    /// kernel).
    pub generation: Option<Generation>,
    /// The switching rule's verdict in words, where the traversal records it.
    pub decision: Option<String>,
}
