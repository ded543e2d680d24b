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
