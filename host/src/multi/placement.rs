//! Where a GPU rank puts its part's lists, by the single-GPU engine's
//! [`PlacementOptions`] for a whole graph ([`place_part_lists`]), for the partitioned BFS and
//! components alike.

use crate::engine::{choose_placement, vram_budget, PlacementOptions, Workspace};
use crate::error::Result;
use crate::gpu::{DeviceGraph, GpuContext};
use crate::graph::{CompressedGraph, Graph};

/// Places a part's `lists` on `gpu` as the single-GPU engine places a graph
/// ([`choose_placement`]), by the same options (`requested`: its placement, budget and
/// compression; a part keeps no list heads and starts no context early, so `list_heads` and
/// `early_gpu` do not apply to it): where `requested` says, or, when it says nothing, in device memory
/// if they fit beside `workspace` (the rank's own arrays, always in device memory) within the
/// budget (`requested`'s, else the free memory less [`VRAM_MARGIN`](crate::engine::VRAM_MARGIN)), else zero-copy (pinned
/// host memory mapped into the GPU, read over the bus): a part larger than its GPU still runs.
/// Compressed where `requested` says so ([`CompressedGraph::encode_unordered`]: local ids are
/// not in order), with each list's out-degree and the long lists' restart points in device
/// memory beside the workspace.
pub fn place_part_lists(
    gpu: &GpuContext,
    lists: &[&Graph],
    mut workspace: Workspace,
    requested: &PlacementOptions,
) -> Result<Vec<DeviceGraph>> {
    let budget = vram_budget(gpu, requested.vram_budget)?;
    if requested.compressed {
        let encoded: Vec<CompressedGraph> = lists.iter().map(|g| CompressedGraph::encode_unordered(g)).collect();
        let graph_bytes: u64 = encoded.iter().map(CompressedGraph::compressed_bytes).sum();
        workspace.bytes += encoded.iter().map(CompressedGraph::resident_extra_bytes).sum::<u64>();
        let placement = choose_placement(graph_bytes, workspace, budget, requested.placement)?;
        return Ok(encoded
            .iter()
            .map(|c| gpu.place_compressed(c, placement))
            .collect::<std::result::Result<_, _>>()?);
    }
    let graph_bytes: u64 = lists.iter().map(|g| g.csr_bytes()).sum();
    let placement = choose_placement(graph_bytes, workspace, budget, requested.placement)?;
    Ok(lists.iter().map(|g| gpu.place_graph(g, placement)).collect::<std::result::Result<_, _>>()?)
}
