//! Thread, block, grid and lane indices (x dimension: warpath launches 1-D grids only).

use core::arch::asm;
use core::arch::nvptx;

pub const WARP_SIZE: u32 = 32;

#[inline(always)]
pub fn thread_idx() -> u32 {
    // SAFETY: reads a special register; no memory is touched.
    unsafe { nvptx::_thread_idx_x() as u32 }
}

#[inline(always)]
pub fn block_idx() -> u32 {
    // SAFETY: reads a special register.
    unsafe { nvptx::_block_idx_x() as u32 }
}

#[inline(always)]
pub fn block_dim() -> u32 {
    // SAFETY: reads a special register.
    unsafe { nvptx::_block_dim_x() as u32 }
}

#[inline(always)]
pub fn grid_dim() -> u32 {
    // SAFETY: reads a special register.
    unsafe { nvptx::_grid_dim_x() as u32 }
}

/// This thread's index in the whole grid.
#[inline(always)]
pub fn global_idx() -> u32 {
    block_idx() * block_dim() + thread_idx()
}

/// Threads in the whole grid.
#[inline(always)]
pub fn global_threads() -> u32 {
    grid_dim() * block_dim()
}

/// Position in the warp, 0..32, read from `%laneid` (correct for any block shape).
#[inline(always)]
pub fn lane_id() -> u32 {
    let lane: u32;
    // SAFETY: reads a special register.
    unsafe { asm!("mov.u32 {}, %laneid;", out(reg32) lane, options(pure, nomem, nostack)) };
    lane
}

/// Warp index within the block.
#[inline(always)]
pub fn warp_in_block() -> u32 {
    thread_idx() / WARP_SIZE
}

/// Bits set for the lanes below this one: `popc(ballot & lanemask_lt())` is a lane's rank.
#[inline(always)]
pub fn lanemask_lt() -> u32 {
    let mask: u32;
    // SAFETY: reads a special register.
    unsafe { asm!("mov.u32 {}, %lanemask_lt;", out(reg32) mask, options(pure, nomem, nostack)) };
    mask
}
