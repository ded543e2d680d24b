//! The device prelude: what every kernel needs from the hardware, as safe-where-possible Rust.
//!
//! Everything here is `#[inline(always)]`: a wrapper that survived as a call would cost a
//! function call per warp vote.

mod atomic;
mod block_scan;
mod cache;
#[cfg(feature = "hopper")]
mod cluster;
mod grid_stride;
mod index;
mod shared;
mod sync;
mod varint;
mod warp;

pub use atomic::*;
pub use block_scan::*;
pub use cache::*;
#[cfg(feature = "hopper")]
pub use cluster::*;
pub use grid_stride::grid_stride;
pub use index::*;
pub use shared::{SharedArray, SharedWord};
pub use sync::*;
pub use varint::*;
pub use warp::*;

/// The last index `i < len` for which `at_most(i)` holds, by binary search: `at_most` must hold
/// at 0 and, once false, stay false (a sorted array's "entry `i` is at most the key"), and is
/// only asked about indices below `len`. The gathering loops use it to find which list, or
/// which shared-list entry, holds an edge.
///
/// Branch-free halving (the answer lies in `low..low + size`): with a constant `len` the loop
/// unrolls into `log2(len)` probes with no branch between them, and the 32-bit indices need
/// none of the 64-bit arithmetic a `usize` search costs on the GPU.
#[inline(always)]
pub fn last_at_most(len: u32, at_most: impl Fn(u32) -> bool) -> u32 {
    let (mut low, mut size) = (0u32, len);
    while size > 1 {
        let half = size / 2;
        if at_most(low + half) {
            low += half;
        }
        size -= half;
    }
    low
}

/// Marks an unreached vertex or a missing parent; the host uses the same value.
pub const UNREACHED: u32 = u32::MAX;
