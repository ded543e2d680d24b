//! What goes where under the device-memory budget: the algorithm's own arrays always in
//! device memory, the graph there too when it fits beside them, else in pinned host memory
//! mapped into the GPU (zero-copy).

use crate::engine::early::EarlyGpu;
use crate::gpu::{GpuContext, GpuError, Placement};

/// Where the engine puts the graph for the GPU, and in which form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlacementOptions {
    /// `None` chooses: device memory when the graph and the algorithm's arrays fit the budget,
    /// else zero-copy (the graph in mapped pinned host memory; the arrays stay on the device).
    pub placement: Option<Placement>,
    /// Device bytes warpath may use; `None` is the free memory less [`VRAM_MARGIN`]. A smaller
    /// value lets a big GPU behave like a small one (tests, capacity planning).
    pub vram_budget: Option<u64>,
    /// Give the GPU the delta-varint compressed lists (fewer bytes to hold and to move over the
    /// bus, decoded by the kernels that read them) instead of the plain CSR.
    pub compressed: bool,
    /// When the first in-neighbors of every list are kept in device memory
    /// ([`crate::graph::heads`]).
    pub list_heads: ListHeadsKept,
    /// A GPU context started while the graph loaded, which the placement takes instead of
    /// making one (none by default).
    pub early_gpu: EarlyGpu,
}

/// When the engine keeps each in-list's first [`HEAD_NEIGHBORS`](crate::graph::heads::HEAD_NEIGHBORS)
/// neighbors in device memory beside the lists, where they fit the budget: the bottom-up BFS
/// searches and Afforest's neighbor rounds then read a vertex's first neighbors in one
/// coalesced load, without its offsets and list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ListHeadsKept {
    /// Beside zero-copy lists, so that most bottom-up searches never cross the bus; beside
    /// lists in device memory too where the algorithm asks ([`Workspace::list_heads`]:
    /// Afforest's neighbor rounds, a dependent list read shorter a link, bench/NOTES.md 140).
    #[default]
    Auto,
    /// Whatever the placement of the lists.
    Always,
    /// Never (for measuring what they save).
    Never,
}

impl ListHeadsKept {
    /// `auto`, `always` or `never`.
    pub fn name(self) -> &'static str {
        match self {
            ListHeadsKept::Auto => "auto",
            ListHeadsKept::Always => "always",
            ListHeadsKept::Never => "never",
        }
    }

    /// Whether lists of this placement get their heads, for an algorithm that reads them
    /// (`asked`) or not.
    pub fn kept_for(self, lists: Placement, asked: bool) -> bool {
        match self {
            ListHeadsKept::Auto => lists == Placement::ZeroCopy || asked,
            ListHeadsKept::Always => true,
            ListHeadsKept::Never => false,
        }
    }
}

/// What an algorithm asks of the engine beside the graph's out-lists: the device memory of its
/// per-vertex arrays (labels, bitmaps, queues), which stay in device memory whatever the
/// graph's placement, and which other parts of the graph it reads. The algorithm that asks for
/// a prepared graph supplies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Workspace {
    pub bytes: u64,
    /// What those arrays are, for the error when they do not fit ("the BFS labels, bitmaps
    /// and queues").
    pub what: &'static str,
    /// The algorithm reads in-lists (bottom-up BFS steps, weakly connected components): a
    /// directed graph then brings its transpose, as big again.
    pub in_lists: bool,
    /// The algorithm reads edge weights (shortest paths): a weighted graph's weights are placed
    /// beside its lists, in the same memory. Unweighted graphs and algorithms that do not ask
    /// hold none.
    pub edge_weights: bool,
    /// The algorithm reads each in-list's first neighbors where list heads are kept
    /// (Afforest's neighbor rounds): [`ListHeadsKept::Auto`] keeps them beside lists in device
    /// memory too.
    pub list_heads: bool,
}

impl Workspace {
    /// Arrays of `bytes` described by `what`, for an algorithm that reads out-lists only.
    pub const fn new(bytes: u64, what: &'static str) -> Workspace {
        Workspace { bytes, what, in_lists: false, edge_weights: false, list_heads: false }
    }

    /// A workspace that serves this one's algorithm and `other`'s, one after the other: the
    /// larger of the two arrays, for a graph that holds one algorithm's arrays at a time
    /// (`PlacedGraph` releases one algorithm's before the next allocates its own), and every
    /// part of the graph either reads.
    pub fn covering(self, other: Workspace) -> Workspace {
        let larger = if other.bytes > self.bytes { other } else { self };
        Workspace {
            in_lists: self.in_lists || other.in_lists,
            edge_weights: self.edge_weights || other.edge_weights,
            list_heads: self.list_heads || other.list_heads,
            ..larger
        }
    }
}

/// Device memory left free when the budget is not given: other processes and the driver's own
/// allocations (module, stacks) need some.
pub const VRAM_MARGIN: u64 = 512 << 20;

/// The device bytes warpath may use on `gpu`: `requested` (`--vram-budget`) when given, else
/// the free memory less [`VRAM_MARGIN`].
pub fn vram_budget(gpu: &GpuContext, requested: Option<u64>) -> Result<u64, GpuError> {
    match requested {
        Some(budget) => Ok(budget),
        None => Ok(gpu.memory_info()?.0.saturating_sub(VRAM_MARGIN)),
    }
}

/// Where the graph goes, given what it and the algorithm's arrays (`workspace`, with
/// everything else that must be resident) need and the budget. When the arrays alone do not
/// fit, no placement helps and the answer is an error naming both sizes.
pub fn choose_placement(
    graph_bytes: u64,
    workspace: Workspace,
    budget: u64,
    requested: Option<Placement>,
) -> Result<Placement, GpuError> {
    if workspace.bytes > budget {
        return Err(GpuError::OutOfMemory {
            what: format!("{}, which must be in device memory (the VRAM budget)", workspace.what),
            needed: workspace.bytes,
            free: budget,
        });
    }
    let fits = graph_bytes + workspace.bytes <= budget;
    match requested {
        Some(Placement::Device) if !fits => Err(GpuError::OutOfMemory {
            what: format!(
                "the graph and {} in device memory (the VRAM budget; the zero-copy placement would fit)",
                workspace.what
            ),
            needed: graph_bytes + workspace.bytes,
            free: budget,
        }),
        Some(placement) => Ok(placement),
        None if fits => Ok(Placement::Device),
        None => Ok(Placement::ZeroCopy),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARRAYS: Workspace = Workspace::new(300, "the labels");

    #[test]
    fn placement_prefers_device_memory_and_falls_back_to_zero_copy() {
        assert_eq!(choose_placement(600, ARRAYS, 1000, None).unwrap(), Placement::Device);
        assert_eq!(choose_placement(800, ARRAYS, 1000, None).unwrap(), Placement::ZeroCopy);
        assert_eq!(choose_placement(800, ARRAYS, 1000, Some(Placement::ZeroCopy)).unwrap(), Placement::ZeroCopy);
        assert_eq!(choose_placement(100, ARRAYS, 1000, Some(Placement::ZeroCopy)).unwrap(), Placement::ZeroCopy);
    }

    #[test]
    fn a_covering_workspace_holds_the_larger_arrays_and_reads_what_either_reads() {
        let lists = Workspace { in_lists: true, ..Workspace::new(500, "the BFS arrays") };
        let weights = Workspace { edge_weights: true, list_heads: true, ..ARRAYS };
        let both = lists.covering(weights);
        assert_eq!(
            (both.bytes, both.what, both.in_lists, both.edge_weights, both.list_heads),
            (500, "the BFS arrays", true, true, true)
        );
        assert_eq!(weights.covering(lists), both);
    }

    #[test]
    fn list_heads_beside_zero_copy_lists_and_where_asked() {
        use ListHeadsKept::{Always, Auto, Never};
        assert!(Auto.kept_for(Placement::ZeroCopy, false) && Auto.kept_for(Placement::Device, true));
        assert!(!Auto.kept_for(Placement::Device, false));
        assert!(Always.kept_for(Placement::Device, false) && !Never.kept_for(Placement::ZeroCopy, true));
    }

    #[test]
    fn placement_errors_name_the_sizes_and_the_arrays() {
        let err = choose_placement(800, ARRAYS, 1000, Some(Placement::Device)).unwrap_err();
        assert!(matches!(err, GpuError::OutOfMemory { needed: 1100, free: 1000, .. }), "{err:?}");
        assert!(err.to_string().contains("zero-copy"), "{err}");
        let big = Workspace { bytes: 2000, ..ARRAYS };
        let err = choose_placement(10, big, 1000, None).unwrap_err();
        assert!(matches!(err, GpuError::OutOfMemory { needed: 2000, free: 1000, .. }), "{err:?}");
        assert!(err.to_string().contains("the labels"), "{err}");
    }
}
