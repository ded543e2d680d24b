//! Placeholder for the GPU side of connected components (its kernels and launchers are built
//! beside this branch): the two functions the runner calls, with their final signatures, so
//! that the CPU side builds. Replaced whole when the GPU side is merged.

use crate::cc::{CcOptions, CcRun};
use crate::engine::{GpuGraph, Workspace};
use crate::error::{Error, Result};
use crate::graph::Graph;

/// Device memory CC needs beside the graph, for `engine::prepare`: its per-vertex arrays;
/// `in_lists: true` when the graph is directed (weakly connected components link in-edges too).
pub fn workspace(graph: &Graph, _options: &CcOptions) -> Workspace {
    Workspace {
        in_lists: !graph.is_undirected(),
        ..Workspace::new(4 * graph.num_vertices() as u64, "the connected-components labels")
    }
}

/// Components of the placed graph (plain or compressed lists, device or zero-copy placement).
/// Labels are canonical: each component named by its smallest vertex.
pub fn components(_graph: &GpuGraph, _options: &CcOptions) -> Result<CcRun> {
    Err(Error::InvalidArgument(
        "connected components on the GPU are not built in this version: use --backend cpu".into(),
    ))
}
