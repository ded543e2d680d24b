//! Graphs partitioned over several ranks (GPUs, or threads standing in for them): the
//! [communicator](comm) the ranks trade frontiers through, [1D partitions](partition) by
//! vertex ranges, the [partitioned direction-optimizing BFS](bfs) and the partitioned
//! [connected components](cc); as an option, the [2D partition](partition_2d) over a grid of
//! ranks and its [top-down BFS](bfs_2d). The design for many hosts, and what it costs per
//! level, is in `docs/multi-gpu.md`.
//!
//! [`Ranks`] is the runtime a partitioned run goes through: where its ranks are (threads, GPUs
//! through NCCL, or one process a GPU), the graph loaded and cut for them, and both algorithms
//! run on them.
//!
//! Communicators: [`InProcess`] (ranks as threads of this process, for tests and for the CPU)
//! and, with the `nccl` feature, `nccl::Nccl` (one rank a GPU, one process for all of a host's
//! GPUs or one process each).

pub mod bfs;
pub mod bfs_2d;
pub mod cc;
pub mod comm;
pub mod exchange;
pub mod gpu;
pub mod host_rows;
pub mod in_process;
pub mod levels;
#[cfg(feature = "nccl")]
pub mod nccl;
pub mod partition;
pub mod partition_2d;
pub mod placement;
pub mod ranks;
pub mod watch;

pub use bfs::{bfs_in_process, bfs_rank};
pub use levels::{
    PartLists, PartitionedLevel, PartitionedOptions, PartitionedTraversal, RankTraversal, BOTTOM_UP_CHUNKS,
    CHUNK_SPARE_SMS, PADDED_PAIRS, SPARSE_FRONTIER_SHARE,
};
pub use comm::{agree_on, agree_with_words, Communicator, ReduceOp};
pub use in_process::{run_ranks, InProcess};
pub use partition::{hub_degree, partition_1d, Delegation, GlobalSizes, Grid, GridPlace, Hubs, LocalGraph, Part, Partition};
pub use ranks::{GraphSource, RankKind, Ranks};
pub use partition_2d::{cut, cut_part, cut_part_by_rows, partition_2d, PartitionLayout, RowSource};
