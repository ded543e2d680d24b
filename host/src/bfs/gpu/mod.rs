//! The BFS on the GPU: the kernels' launchers ([`launch`]), and a runner per kernel family
//! that owns its device buffers: [`persistent`] (the direction-optimizing persistent kernels),
//! [`edge_queue`] (Merrill et al.'s edge-queue strategies), [`cluster`] (one Hopper
//! thread-block cluster) and [`per_level`] (one launch a level).

pub mod cluster;
pub mod edge_queue;
pub mod launch;
pub mod per_level;
pub mod persistent;
pub mod tuning;

pub use cluster::{cluster_refusal, ClusterArrays, GpuCluster};
pub use edge_queue::{EdgeQueueArrays, GpuEdgeQueue};
pub use per_level::GpuTopDown;
pub use persistent::{GpuPersistent, LabelsTarget, PersistentArrays, PersistentRun, PinnedLabels};
pub use tuning::{BottomUpBalance, DoubleScanConflict, PersistentParams};
