//! Device-scope atomics on global memory (`atom.global.*`, whose default scope is `.gpu`).
//!
//! `core::sync::atomic` would emit `.sys` scope, which also orders against the host and other
//! GPUs and costs more; BFS needs agreement among the threads of one GPU only. Every function
//! returns the value the memory held before the operation, like CUDA's `atomicAdd` family.
//!
//! # Safety (all functions)
//! `ptr` must be a valid, aligned pointer into *global* memory (not shared or local memory),
//! and every concurrent access to that location must itself be atomic or tolerate a racy read.

use core::arch::asm;

macro_rules! atomic_rmw {
    ($(#[$doc:meta])* $name:ident, $ty:ty, $reg:ident, $op:literal) => {
        $(#[$doc])*
        #[inline(always)]
        pub unsafe fn $name(ptr: *mut $ty, value: $ty) -> $ty {
            let old: $ty;
            // SAFETY: the caller guarantees `ptr` is a valid global-memory location.
            unsafe {
                asm!(
                    concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {p}; atom.global.", $op, " {old}, [g], {v}; }}"),
                    p = in(reg64) ptr,
                    v = in($reg) value,
                    old = out($reg) old,
                    options(nostack)
                )
            };
            old
        }
    };
}

macro_rules! atomic_cas {
    ($(#[$doc:meta])* $name:ident, $ty:ty, $reg:ident, $op:literal) => {
        $(#[$doc])*
        #[inline(always)]
        pub unsafe fn $name(ptr: *mut $ty, expected: $ty, new: $ty) -> $ty {
            let old: $ty;
            // SAFETY: the caller guarantees `ptr` is a valid global-memory location.
            unsafe {
                asm!(
                    concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {p}; atom.global.", $op, " {old}, [g], {e}, {n}; }}"),
                    p = in(reg64) ptr,
                    e = in($reg) expected,
                    n = in($reg) new,
                    old = out($reg) old,
                    options(nostack)
                )
            };
            old
        }
    };
}

atomic_rmw!(atomic_add_u32, u32, reg32, "add.u32");
atomic_rmw!(atomic_min_u32, u32, reg32, "min.u32");
atomic_rmw!(atomic_max_u32, u32, reg32, "max.u32");
atomic_rmw!(atomic_or_u32, u32, reg32, "or.b32");
atomic_rmw!(atomic_exch_u32, u32, reg32, "exch.b32");
atomic_cas!(
    /// Stores `new` if the location holds `expected`; returns what it held.
    atomic_cas_u32, u32, reg32, "cas.b32");

atomic_rmw!(atomic_add_u64, u64, reg64, "add.u64");
atomic_rmw!(atomic_min_u64, u64, reg64, "min.u64");
atomic_rmw!(atomic_max_u64, u64, reg64, "max.u64");
atomic_rmw!(atomic_or_u64, u64, reg64, "or.b64");
atomic_rmw!(atomic_exch_u64, u64, reg64, "exch.b64");
atomic_cas!(
    /// Stores `new` if the location holds `expected`; returns what it held.
    atomic_cas_u64, u64, reg64, "cas.b64");

/// A reduction (`red.global.*`): the read-modify-write of an atomic without returning what the
/// location held, so the thread goes on at once instead of waiting for L2's answer, for callers
/// that learn the outcome some other way or need not know it.
macro_rules! reduction {
    ($(#[$doc:meta])* $name:ident, $ty:ty, $class:ident, $op:literal) => {
        $(#[$doc])*
        #[inline(always)]
        pub unsafe fn $name(ptr: *mut $ty, value: $ty) {
            // SAFETY: the caller guarantees `ptr` is a valid global-memory location.
            unsafe {
                asm!(
                    concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {p}; red.global.", $op, " [g], {v}; }}"),
                    p = in(reg64) ptr,
                    v = in($class) value,
                    options(nostack)
                )
            };
        }
    };
}

reduction!(
    /// Lowers `*ptr` to `value` where that is smaller, like [`atomic_min_u64`], without returning
    /// what it held.
    reduce_min_u64, u64, reg64, "min.u64");
reduction!(
    /// [`reduce_min_u64`] on a 4-byte word.
    reduce_min_u32, u32, reg32, "min.u32");
reduction!(
    /// Raises `*ptr` to `value` where that is larger, like [`atomic_max_u64`], without returning
    /// what it held.
    reduce_max_u64, u64, reg64, "max.u64");

/// Warp-aggregated append to a global queue: the lanes of `mask` that pass `want` each get a
/// distinct slot, at the cost of one atomic per warp instead of one per lane (ballot, popc,
/// one `atom.add` by the lowest lane, shuffle of the base; Moschou 2026, section 3.2).
/// Returns this lane's slot when `want`, else `None`. Every lane of `mask` must call it.
///
/// # Safety
/// `counter` is a valid global-memory `u32` that only this kind of append modifies during
/// the launch.
#[inline(always)]
pub unsafe fn warp_aggregated_append(mask: u32, want: bool, counter: *mut u32) -> Option<u32> {
    use crate::prelude::{ballot_sync, ffs, lane_id, lanemask_lt, popc, shfl_idx_sync};
    let wanting = ballot_sync(mask, want);
    if wanting == 0 {
        return None;
    }
    let leader = ffs(mask) - 1;
    let mut base = 0;
    if lane_id() == leader {
        // SAFETY: forwarded from the caller's contract on `counter`.
        base = unsafe { atomic_add_u32(counter, popc(wanting)) };
    }
    let base = shfl_idx_sync(mask, base, leader);
    want.then(|| base + popc(wanting & lanemask_lt()))
}
