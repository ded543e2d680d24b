//! Where a GPU rank puts its part's lists: the options a partitioned run takes for it, as the
//! single-GPU engine's placement options say for a whole graph. `multi::gpu` places the lists
//! as they say.

use crate::gpu::Placement;

/// Where a GPU rank puts its part's lists, as the single-GPU engine's
/// [`PlacementOptions`](crate::engine::PlacementOptions) say for a whole graph (`--placement`,
/// `--vram-budget`, `--compressed`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartPlacement {
    /// `None` chooses: device memory when the lists fit beside the rank's arrays within the
    /// budget, else zero-copy.
    pub placement: Option<Placement>,
    /// Device bytes each rank may use; `None` is its GPU's free memory less `VRAM_MARGIN` (`multi::gpu`).
    pub vram_budget: Option<u64>,
    /// The lists delta-varint compressed (Moschou 2026, section 2.1): the BFS's GPU ranks read
    /// them with their compressed kernels (the hubs' pieces, where the cut delegates hubs, stay
    /// plain lists), the connected components' with the compressed Afforest kernel.
    pub compressed: bool,
}
