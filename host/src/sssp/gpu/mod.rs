//! The GPU side of shortest paths (helper E1's room). This placeholder only keeps the CPU
//! branch building with the agreed signatures; E1's module replaces it at the merge.

use crate::engine::{GpuGraph, Workspace};
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::sssp::{SsspOptions, SsspRun};

/// Device memory SSSP needs beside the graph, for `engine::prepare`: its per-vertex arrays and
/// worklists for `options.strategy`; `edge_weights: true`.
pub fn workspace(graph: &Graph, _options: &SsspOptions) -> Result<Workspace> {
    Ok(Workspace {
        edge_weights: true,
        ..Workspace::new(16 * graph.num_vertices() as u64, "the SSSP distances, parents and worklists")
    })
}

/// Shortest paths from `source` (internal id) on the placed graph.
pub fn shortest_paths(_graph: &GpuGraph, _source: u32, _options: &SsspOptions) -> Result<SsspRun> {
    Err(Error::InvalidArgument("shortest paths on the GPU are not built in this branch: use --backend cpu".into()))
}
