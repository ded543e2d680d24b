//! The BFS on the GPU: the kernels' launchers ([`launch`]), and a runner per kernel family
//! that owns its device buffers: [`persistent`] (the direction-optimizing persistent kernels),
//! [`edge_queue`] (Merrill et al.'s edge-queue strategies), [`cluster`] (one Hopper
//! thread-block cluster), [`per_level`] (one launch a level) and [`multi_source`] (64 sources a
//! batch, bit-parallel).

pub mod cluster;
pub mod edge_queue;
pub mod launch;
pub mod multi_source;
pub mod per_level;
pub mod persistent;
pub mod tuning;

pub use cluster::{cluster_refusal, ClusterArrays, GpuCluster};
pub use edge_queue::{EdgeQueueArrays, GpuEdgeQueue};
pub use multi_source::{GpuMultiSource, MultiSourceBatch};
pub use per_level::GpuTopDown;
pub use persistent::{GpuPersistent, LabelsTarget, PersistentArrays, PersistentRun, PinnedLabels};
pub use tuning::{BottomUpBalance, BottomUpLaunch, DoubleScanConflict, PersistentParams};
