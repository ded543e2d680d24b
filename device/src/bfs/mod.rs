//! Breadth-first search: the persistent direction-optimizing kernels ([`persistent`]), the
//! edge-queue kernel of Merrill et al.'s contract-expand, two-phase and hybrid strategies
//! ([`edge_queue`]), the per-level baseline ([`per_level`]), a level of the bit-parallel
//! many-source BFS ([`multi_source`]), one rank's levels of the
//! partitioned BFS ([`partitioned`]), and, in the sm_90 module alone, the whole BFS in one
//! Hopper thread-block cluster (`cluster`). Their names and parameters
//! are declared in the interface crate (`warpath_interface::bfs`).

#[cfg(feature = "hopper")]
pub mod cluster;
#[cfg(not(feature = "hopper"))]
pub mod edge_queue;
#[cfg(not(feature = "hopper"))]
pub mod multi_source;
#[cfg(not(feature = "hopper"))]
pub mod partitioned;
#[cfg(not(feature = "hopper"))]
pub mod per_level;
#[cfg(not(feature = "hopper"))]
pub mod persistent;
