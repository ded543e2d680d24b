//! Kernel entry points, one file per family. Names are `#[no_mangle]` so the host loads them
//! by the same string (`warpath_interface::names`; the BFS entry points are declared from the
//! interface crate's field lists).

pub mod bfs_edge_queue;
pub mod bfs_persistent;
pub mod bfs_topdown;
pub mod prelude_tests;
