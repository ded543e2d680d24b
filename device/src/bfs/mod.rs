//! Breadth-first search: the persistent direction-optimizing kernels ([`persistent`]), the
//! edge-queue kernel of Merrill et al.'s contract-expand, two-phase and hybrid strategies
//! ([`edge_queue`]), the per-level baseline ([`per_level`]), and one rank's levels of the
//! partitioned BFS ([`partitioned`]). Their names and parameters
//! are declared in the interface crate (`warpath_interface::bfs`).

pub mod edge_queue;
pub mod partitioned;
pub mod per_level;
pub mod persistent;
