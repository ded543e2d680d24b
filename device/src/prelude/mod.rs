//! The device prelude: what every kernel needs from the hardware, as safe-where-possible Rust.
//!
//! Everything here is `#[inline(always)]`: a wrapper that survived as a call would cost a
//! function call per warp vote.

mod atomic;
mod block_scan;
mod gather;
mod grid_stride;
mod index;
mod shared;
mod sync;
mod varint;
mod warp;

pub use atomic::*;
pub use block_scan::*;
pub use gather::{warp_gather, warp_gather_batch};
pub use grid_stride::grid_stride;
pub use index::*;
pub use shared::SharedArray;
pub use sync::*;
pub use varint::*;
pub use warp::*;

/// Marks an unreached vertex or a missing parent; the host uses the same value.
pub const UNREACHED: u32 = u32::MAX;
