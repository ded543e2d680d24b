//! Memory ordering across the whole GPU: fences, acquire loads, a grid-wide barrier for
//! persistent (cooperatively launched) kernels, and the global nanosecond timer.

use core::arch::asm;

use crate::prelude::{atomic_add_u32, block_idx, sync_threads, thread_idx};

/// `fence.acq_rel.gpu`: orders this thread's earlier and later memory accesses against every
/// other thread of the GPU that synchronizes with it (CUDA's `__threadfence()`).
#[inline(always)]
pub fn fence_gpu() {
    // SAFETY: a fence has no operands.
    unsafe { asm!("fence.acq_rel.gpu;", options(nostack)) };
}

/// `fence.acq_rel.cta`: orders this thread's earlier and later memory accesses against the
/// other threads of its block (CUDA's `__threadfence_block()`), for shared-memory handshakes
/// between warps that pass no barrier.
#[inline(always)]
pub fn fence_block() {
    // SAFETY: a fence has no operands.
    unsafe { asm!("fence.acq_rel.cta;", options(nostack)) };
}

/// Reads a `u32` with acquire semantics at GPU scope: never a stale L1 copy.
///
/// # Safety
/// `ptr` is a valid, aligned global-memory address.
#[inline(always)]
pub unsafe fn load_acquire_u32(ptr: *const u32) -> u32 {
    let value: u32;
    // SAFETY: the caller guarantees `ptr`.
    unsafe {
        asm!("{{ .reg .u64 g; cvta.to.global.u64 g, {p}; ld.acquire.gpu.global.u32 {v}, [g]; }}",
            p = in(reg64) ptr, v = out(reg32) value, options(nostack))
    };
    value
}

/// Reads a `u32` at GPU scope with no ordering (`ld.relaxed.gpu`): never a stale L1 copy, and,
/// unlike an acquire load, no invalidation of the multiprocessor's L1 on every read, which a
/// spinning thread would otherwise inflict on the blocks still working beside it.
///
/// # Safety
/// `ptr` is a valid, aligned global-memory address.
#[inline(always)]
pub unsafe fn load_relaxed_u32(ptr: *const u32) -> u32 {
    let value: u32;
    // SAFETY: the caller guarantees `ptr`.
    unsafe {
        asm!("{{ .reg .u64 g; cvta.to.global.u64 g, {p}; ld.relaxed.gpu.global.u32 {v}, [g]; }}",
            p = in(reg64) ptr, v = out(reg32) value, options(nostack))
    };
    value
}

/// Reads a `u64` with acquire semantics at GPU scope.
///
/// # Safety
/// `ptr` is a valid, aligned global-memory address.
#[inline(always)]
pub unsafe fn load_acquire_u64(ptr: *const u64) -> u64 {
    let value: u64;
    // SAFETY: the caller guarantees `ptr`.
    unsafe {
        asm!("{{ .reg .u64 g; cvta.to.global.u64 g, {p}; ld.acquire.gpu.global.u64 {v}, [g]; }}",
            p = in(reg64) ptr, v = out(reg64) value, options(nostack))
    };
    value
}

/// Nanoseconds from the GPU's global timer (`%globaltimer`; its resolution is about a
/// microsecond on current parts).
#[inline(always)]
pub fn global_timer_ns() -> u64 {
    let t: u64;
    // SAFETY: reads a special register.
    unsafe { asm!("mov.u64 {}, %globaltimer;", out(reg64) t, options(nomem, nostack)) };
    t
}

/// Sleeps the calling thread for about `ns` nanoseconds, so a spinning thread leaves the
/// memory system to the threads doing work.
#[inline(always)]
pub fn nanosleep(ns: u32) {
    // SAFETY: register operand only.
    unsafe { asm!("nanosleep.u32 {};", in(reg32) ns, options(nomem, nostack)) };
}

/// A barrier across every block of a grid, for kernels launched cooperatively (which
/// guarantees all blocks are resident, so spinning cannot deadlock).
///
/// One global arrival counter, 0 at launch, only ever grows: thread 0 of each block adds 1 per
/// barrier, and barrier `k` opens once the counter reaches `k * blocks`. No block resets
/// anything, so an opening costs no extra round trip. Fences before arriving and after
/// leaving make every write before the barrier, by any thread of the grid, visible to every
/// read after it (the scheme of CUDA's cooperative-groups `grid.sync()`). The comparison is
/// done modulo 2^32, so the counter may wrap.
pub struct GridBarrier {
    arrivals: *mut u32,
    passed: u32,
    /// Blocks that take part: the whole grid, or its first `blocks` (see [`Self::first_blocks`]).
    blocks: u32,
}

impl GridBarrier {
    /// # Safety
    /// `arrivals` is a global-memory word, 0 at launch, used by nothing else; the kernel was
    /// launched cooperatively; every thread of the grid constructs one.
    #[inline(always)]
    pub unsafe fn new(arrivals: *mut u32) -> Self {
        GridBarrier { arrivals, passed: 0, blocks: crate::prelude::grid_dim() }
    }

    /// A barrier among blocks `0..blocks` of the grid only: the others never call `sync` on
    /// it. Fewer blocks arrive, so it opens sooner (one same-address atomic per block).
    ///
    /// # Safety
    /// As for [`Self::new`], with `arrivals` a word of its own, and `1 <= blocks <= grid_dim()`;
    /// every thread of those blocks constructs one.
    #[inline(always)]
    pub unsafe fn first_blocks(arrivals: *mut u32, blocks: u32) -> Self {
        GridBarrier { arrivals, passed: 0, blocks }
    }

    /// Waits until every thread of the blocks taking part has called `sync` as many times as
    /// this one. Every thread of each such block must call it (block-uniform control flow).
    #[inline(always)]
    pub fn sync(&mut self) {
        sync_threads();
        self.passed = self.passed.wrapping_add(1);
        if thread_idx() == 0 {
            let target = self.passed.wrapping_mul(self.blocks);
            fence_gpu();
            // SAFETY: the word was handed over in `new`.
            unsafe {
                atomic_add_u32(self.arrivals, 1);
                // Relaxed reads while waiting; the fence after the last one orders it before
                // everything this block reads next (fence-fence synchronization with the
                // arrivals' fences), as an acquire of each read would, without invalidating
                // this SM's L1 at every read.
                while (load_relaxed_u32(self.arrivals).wrapping_sub(target) as i32) < 0 {
                    nanosleep(20);
                }
            }
            fence_gpu();
        }
        sync_threads();
    }
}

/// Block-wide barrier that also returns whether any thread of the block passed `true`
/// (`bar.red.or`, CUDA's `__syncthreads_or`).
#[inline(always)]
pub fn sync_threads_or(predicate: bool) -> bool {
    let any: u32;
    // SAFETY: a barrier with a register operand; it orders memory like `bar.sync`.
    unsafe {
        asm!(
            "{{ .reg .pred p, q; setp.ne.u32 p, {pred}, 0; bar.red.or.pred q, 0, p; selp.u32 {out}, 1, 0, q; }}",
            pred = in(reg32) predicate as u32,
            out = out(reg32) any,
            options(nostack)
        )
    };
    any != 0
}

/// True for the one thread that does the grid's bookkeeping (block 0, thread 0).
#[inline(always)]
pub fn is_grid_leader() -> bool {
    block_idx() == 0 && thread_idx() == 0
}
