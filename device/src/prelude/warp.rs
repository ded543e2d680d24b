//! Warp votes, shuffles and bit tricks (PTX `vote.sync`, `shfl.sync`, `activemask`).
//!
//! Every `*_sync` call must be reached by all lanes named in `mask`, as in CUDA. None of these
//! touch memory, so they are marked `nomem`; none are `pure`, because a vote's result depends
//! on the other lanes and must not be hoisted or merged across divergent paths.

use crate::prelude::WARP_SIZE;
use core::arch::asm;

pub const FULL_MASK: u32 = 0xffff_ffff;

/// The lanes executing this instruction together.
#[inline(always)]
pub fn active_mask() -> u32 {
    let mask: u32;
    // SAFETY: no operands besides the result.
    unsafe { asm!("activemask.b32 {};", out(reg32) mask, options(nomem, nostack)) };
    mask
}

/// Bit `i` set when lane `i` (in `mask`) passed `predicate == true`.
#[inline(always)]
pub fn ballot_sync(mask: u32, predicate: bool) -> u32 {
    let ballot: u32;
    // SAFETY: register-only; the caller guarantees every lane in `mask` reaches this call.
    unsafe {
        asm!(
            "{{ .reg .pred p; setp.ne.u32 p, {pred}, 0; vote.sync.ballot.b32 {out}, p, {mask}; }}",
            pred = in(reg32) predicate as u32,
            mask = in(reg32) mask,
            out = out(reg32) ballot,
            options(nomem, nostack)
        )
    };
    ballot
}

macro_rules! vote {
    ($(#[$doc:meta])* $name:ident, $mode:literal) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name(mask: u32, predicate: bool) -> bool {
            let result: u32;
            // SAFETY: register-only; every lane in `mask` reaches this call.
            unsafe {
                asm!(
                    concat!("{{ .reg .pred p, q; setp.ne.u32 p, {pred}, 0; vote.sync.", $mode, ".pred q, p, {mask}; selp.u32 {out}, 1, 0, q; }}"),
                    pred = in(reg32) predicate as u32,
                    mask = in(reg32) mask,
                    out = out(reg32) result,
                    options(nomem, nostack)
                )
            };
            result != 0
        }
    };
}

vote!(
    /// True when any lane in `mask` passed `true`.
    any_sync, "any");
vote!(
    /// True when every lane in `mask` passed `true`.
    all_sync, "all");

macro_rules! shuffle {
    ($(#[$doc:meta])* $name:ident, $mode:literal, $clamp:literal) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name(mask: u32, value: u32, lane_or_delta: u32) -> u32 {
            let out: u32;
            // SAFETY: register-only; every lane in `mask` reaches this call.
            unsafe {
                asm!(
                    concat!("shfl.sync.", $mode, ".b32 {out}, {v}, {l}, ", $clamp, ", {m};"),
                    out = out(reg32) out,
                    v = in(reg32) value,
                    l = in(reg32) lane_or_delta,
                    m = in(reg32) mask,
                    options(nomem, nostack)
                )
            };
            out
        }
    };
}

shuffle!(
    /// The value held by lane `lane_or_delta`.
    shfl_idx_sync, "idx", "0x1f");
shuffle!(
    /// The value held by lane `lane - delta` (a lane below `delta` keeps its own).
    shfl_up_sync, "up", "0");
shuffle!(
    /// The value held by lane `lane + delta` (a lane at or above `32 - delta` keeps its own).
    shfl_down_sync, "down", "0x1f");
shuffle!(
    /// The value held by lane `lane ^ mask_bits` (butterfly exchange).
    shfl_xor_sync, "bfly", "0x1f");

/// `shfl_idx_sync` for 64-bit values, as two 32-bit shuffles.
#[inline(always)]
pub fn shfl_idx_sync_u64(mask: u32, value: u64, lane: u32) -> u64 {
    let lo = shfl_idx_sync(mask, value as u32, lane);
    let hi = shfl_idx_sync(mask, (value >> 32) as u32, lane);
    ((hi as u64) << 32) | lo as u64
}

/// The lanes of `mask` whose `value` equals this lane's (PTX `match.any.sync.b32`, CUDA's
/// `__match_any_sync`; sm_70 and later). Warp culling of duplicates takes one instruction.
#[inline(always)]
pub fn match_any_sync(mask: u32, value: u32) -> u32 {
    let same: u32;
    // SAFETY: register-only; the caller guarantees every lane in `mask` reaches this call.
    unsafe {
        asm!(
            "match.any.sync.b32 {out}, {value}, {mask};",
            value = in(reg32) value,
            mask = in(reg32) mask,
            out = out(reg32) same,
            options(nomem, nostack)
        )
    };
    same
}

/// The smallest `value` among the lanes of `mask` (PTX `redux.sync.min.u32`, CUDA's
/// `__reduce_min_sync`; sm_80 and later): one instruction where a shuffle tree takes ten, and
/// `mask` may be any group of lanes, such as one [`match_any_sync`] returned.
#[inline(always)]
pub fn reduce_min_sync(mask: u32, value: u32) -> u32 {
    let min: u32;
    // SAFETY: register-only; the caller guarantees every lane in `mask` reaches this call.
    unsafe {
        asm!(
            "redux.sync.min.u32 {out}, {value}, {mask};",
            value = in(reg32) value,
            mask = in(reg32) mask,
            out = out(reg32) min,
            options(nomem, nostack)
        )
    };
    min
}

/// The sum of `value` over the lanes of `mask` (PTX `redux.sync.add.u32`, CUDA's
/// `__reduce_add_sync`; sm_80 and later), wrapping: one instruction where a shuffle tree
/// takes ten.
#[inline(always)]
pub fn reduce_add_sync(mask: u32, value: u32) -> u32 {
    let sum: u32;
    // SAFETY: register-only; the caller guarantees every lane in `mask` reaches this call.
    unsafe {
        asm!(
            "redux.sync.add.u32 {out}, {value}, {mask};",
            value = in(reg32) value,
            mask = in(reg32) mask,
            out = out(reg32) sum,
            options(nomem, nostack)
        )
    };
    sum
}

/// Number of set bits (PTX `popc`).
#[inline(always)]
pub fn popc(x: u32) -> u32 {
    x.count_ones()
}

/// 1-based position of the lowest set bit, 0 when none (CUDA's `__ffs`).
#[inline(always)]
pub fn ffs(x: u32) -> u32 {
    if x == 0 {
        0
    } else {
        x.trailing_zeros() + 1
    }
}

/// Block-wide barrier (`bar.sync 0`): every thread of the block must reach it.
#[inline(always)]
pub fn sync_threads() {
    // SAFETY: a barrier; it orders memory, so it is not `nomem`.
    unsafe { core::arch::nvptx::_syncthreads() }
}

/// The largest `value` in the warp, on every lane (butterfly reduction).
#[inline(always)]
pub fn warp_max(mut value: u32) -> u32 {
    // A counted loop rather than an array of offsets: an array can land in local memory.
    let mut offset = WARP_SIZE / 2;
    while offset > 0 {
        value = value.max(shfl_xor_sync(FULL_MASK, value, offset));
        offset /= 2;
    }
    value
}

/// `value` combined across the warp by `combine`, on every lane (butterfly reduction over
/// two 32-bit shuffles a step; `combine` must be associative and commutative).
#[inline(always)]
fn warp_reduce_u64(value: u64, combine: impl Fn(u64, u64) -> u64) -> u64 {
    let mut all = value;
    let mut offset = 16;
    while offset > 0 {
        let lo = shfl_xor_sync(FULL_MASK, all as u32, offset);
        let hi = shfl_xor_sync(FULL_MASK, (all >> 32) as u32, offset);
        all = combine(all, ((hi as u64) << 32) | lo as u64);
        offset /= 2;
    }
    all
}

/// Sum of a `u64` across the warp, on every lane.
#[inline(always)]
pub fn warp_sum_u64(value: u64) -> u64 {
    warp_reduce_u64(value, u64::wrapping_add)
}

/// The largest `u64` in the warp, on every lane.
#[inline(always)]
pub fn warp_max_u64(value: u64) -> u64 {
    warp_reduce_u64(value, u64::max)
}

/// Bitwise or of a `u64` across the warp, on every lane.
#[inline(always)]
pub fn warp_or_u64(value: u64) -> u64 {
    warp_reduce_u64(value, |a, b| a | b)
}

/// Warp barrier with memory ordering among the lanes of `mask` (`bar.warp.sync`, CUDA's
/// `__syncwarp`): shared-memory writes before it are visible to those lanes after it.
#[inline(always)]
pub fn sync_warp(mask: u32) {
    // SAFETY: a warp barrier; it orders memory, so it is not `nomem`.
    unsafe { asm!("bar.warp.sync {};", in(reg32) mask, options(nostack)) };
}
