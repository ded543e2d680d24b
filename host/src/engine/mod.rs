//! The engine every algorithm runs on: which backend (the GPU or all CPU cores, and the
//! fallback from one to the other), where the graph goes under the device-memory budget, and
//! the graph prepared for the GPU (its lists, the transpose, the list heads).
//!
//! It knows no algorithm: each one states what its own device arrays need ([`Workspace`]),
//! asks for a [`Prepared`] graph, and picks its kernels itself (the BFS `Traverser`, for one).

pub mod backend;
pub mod early;
pub(crate) mod kept;
pub mod placement;
pub mod prepared;
pub mod run;

pub use backend::{Backend, BackendUsed};
pub use early::EarlyGpu;
pub use placement::{choose_placement, vram_budget, ListHeadsKept, PlacementOptions, Workspace, VRAM_MARGIN};
pub use prepared::{id_locality_of, prepare, GpuGraph, Prepared, LOCALITY_MIN_RANGES, LOCALITY_RANGE};
pub use run::{Answer, Run};
