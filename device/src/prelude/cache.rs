//! Global loads with a cache policy that rustc's plain loads cannot ask for.

use core::arch::asm;

/// Reads a `u32` that this kernel reads once and never writes (`ld.global.cs`: evict first),
/// so a stream of such reads, an adjacency list's targets, does not push the lines that are
/// read again (the visited bitmap's) out of L1.
///
/// # Safety
/// `ptr` is a valid, aligned global-memory address.
#[inline(always)]
pub unsafe fn load_streaming_u32(ptr: *const u32) -> u32 {
    let value: u32;
    // SAFETY: the caller guarantees `ptr`; `readonly` because the kernel writes no graph array.
    unsafe {
        asm!("{{ .reg .u64 g; cvta.to.global.u64 g, {p}; ld.global.cs.u32 {v}, [g]; }}",
            p = in(reg64) ptr, v = out(reg32) value, options(pure, readonly, nostack))
    };
    value
}

/// Reads a `u64` that other threads may be lowering meanwhile, through this multiprocessor's
/// L1 (`ld.global.ca`, a weak load): the value is one that was stored there at some point
/// since L1 was last invalidated, never a torn one (an aligned 8-byte access). For words that
/// only decrease, a caller whose grid barrier invalidated L1 (an acquire fence) reads at most
/// the value they had when the barrier opened.
///
/// # Safety
/// `ptr` is a valid, 8-byte aligned global-memory address.
#[inline(always)]
pub unsafe fn load_cached_u64(ptr: *const u64) -> u64 {
    let value: u64;
    // SAFETY: the caller guarantees `ptr`. Not `pure`: two reads of a word others lower may
    // differ, so none may be merged or dropped.
    unsafe {
        asm!("{{ .reg .u64 g; cvta.to.global.u64 g, {p}; ld.global.ca.u64 {v}, [g]; }}",
            p = in(reg64) ptr, v = out(reg64) value, options(readonly, nostack))
    };
    value
}

/// Reads a `u32` through L1 (`ld.global.ca`): for labels that only ever move toward a root, where
/// a stale copy is an older ancestor and a walk from it still ends at a root (see
/// `cc::Labels::find_all`).
///
/// # Safety
/// `ptr` is a valid, 4-byte aligned global-memory address.
#[inline(always)]
pub unsafe fn load_cached_u32(ptr: *const u32) -> u32 {
    let value: u32;
    // SAFETY: the caller guarantees `ptr`. Not `pure`: two reads of a word others change may
    // differ, so none may be merged or dropped.
    unsafe {
        asm!("{{ .reg .u64 g; cvta.to.global.u64 g, {p}; ld.global.ca.u32 {v}, [g]; }}",
            p = in(reg64) ptr, v = out(reg32) value, options(readonly, nostack))
    };
    value
}
