//! Graphs partitioned over several ranks (GPUs, or threads standing in for them): the
//! [communicator](comm) the ranks trade frontiers through, [1D partitions](partition) by
//! vertex ranges, the [partitioned direction-optimizing BFS](bfs) and the partitioned
//! [connected components](cc). The design for many hosts, and what it costs per level, is in
//! `docs/multi-gpu.md`.
//!
//! Communicators: [`InProcess`] (ranks as threads of this process, for tests and for the CPU)
//! and, with the `nccl` feature, `nccl::Nccl` (one rank a GPU, one process for all of a host's
//! GPUs or one process each).

pub mod bfs;
pub mod cc;
pub mod comm;
pub mod gpu;
pub mod in_process;
#[cfg(feature = "nccl")]
pub mod nccl;
pub mod partition;

pub use bfs::{bfs_in_process, bfs_rank, PartitionedLevel, PartitionedOptions, PartitionedTraversal, RankTraversal};
pub use comm::{Communicator, ReduceOp};
pub use in_process::{run_ranks, InProcess};
pub use partition::{partition_1d, GlobalSizes, LocalGraph, Part, Partition};
