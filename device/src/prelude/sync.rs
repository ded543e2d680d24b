//! Memory ordering across the whole GPU: fences, acquire loads, a grid-wide barrier for
//! persistent (cooperatively launched) kernels, and the global nanosecond timer.

use core::arch::asm;

use crate::prelude::{atomic_add_u32, atomic_exch_u32, block_idx, sync_threads, thread_idx};

/// `fence.acq_rel.gpu`: orders this thread's earlier and later memory accesses against every
/// other thread of the GPU that synchronizes with it (CUDA's `__threadfence()`).
#[inline(always)]
pub fn fence_gpu() {
    // SAFETY: a fence has no operands.
    unsafe { asm!("fence.acq_rel.gpu;", options(nostack)) };
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
/// Arrival counter and generation live in global memory, both 0 before the launch. Thread 0
/// of each block arrives with one atomic; the last to arrive resets the counter and bumps
/// the generation, which the others wait for. The fences make every write before the barrier,
/// by any thread of the grid, visible to every read after it (the scheme of CUDA's
/// cooperative-groups `grid.sync()`).
pub struct GridBarrier {
    count: *mut u32,
    generation: *mut u32,
    passed: u32,
}

impl GridBarrier {
    /// # Safety
    /// `count` and `generation` are global-memory words, 0 at launch, used by nothing else;
    /// the kernel was launched cooperatively; every thread of the grid constructs one.
    #[inline(always)]
    pub unsafe fn new(count: *mut u32, generation: *mut u32) -> Self {
        GridBarrier { count, generation, passed: 0 }
    }

    /// Waits until every thread of the grid has called `sync` as many times as this one.
    /// Every thread of every block must call it (block-uniform control flow).
    #[inline(always)]
    pub fn sync(&mut self) {
        sync_threads();
        let target = self.passed.wrapping_add(1);
        if thread_idx() == 0 {
            fence_gpu();
            // SAFETY: the words were handed over in `new`.
            unsafe {
                let blocks = crate::prelude::grid_dim();
                if atomic_add_u32(self.count, 1) == blocks - 1 {
                    *self.count = 0;
                    fence_gpu();
                    atomic_exch_u32(self.generation, target);
                } else {
                    while load_acquire_u32(self.generation) != target {
                        nanosleep(32);
                    }
                }
            }
            fence_gpu();
        }
        self.passed = target;
        sync_threads();
    }
}

/// True for the one thread that does the grid's bookkeeping (block 0, thread 0).
#[inline(always)]
pub fn is_grid_leader() -> bool {
    block_idx() == 0 && thread_idx() == 0
}
