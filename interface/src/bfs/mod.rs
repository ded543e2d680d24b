//! The BFS kernels' interface: the persistent direction-optimizing kernels ([`persistent`]),
//! the edge-queue kernel ([`edge_queue`]), the one-cluster kernel for Hopper ([`cluster`]),
//! the per-level kernels ([`per_level`]), the bit-parallel many-source BFS ([`multi_source`]), the
//! partitioned BFS's per-rank kernels ([`partitioned`]), and the
//! direction-switching rule both the persistent kernels and the host evaluate ([`rule`]).

pub mod cluster;
pub mod edge_queue;
pub mod multi_source;
pub mod partitioned;
pub mod per_level;
pub mod persistent;
pub mod rule;

/// The label of a vertex no BFS has reached (distance and parent alike).
pub const UNREACHED: u32 = u32::MAX;
