//! Block-shared arrays: PTX `.shared` variables declared by inline asm.
//!
//! rustc has no address-space attribute for statics, so each array is declared inside a
//! nested PTX scope by the asm block that returns its address. Each *expansion* of that asm
//! block is a distinct array, which gives the one rule of this module: declare every array
//! once, at the top of the kernel, before any branch or loop, and pass it down by reference.

use core::arch::asm;
use core::marker::PhantomData;

/// `N` elements of `T` in the block's shared memory, visible to every thread of the block.
///
/// Threads may write different elements at once; reading what another thread wrote needs a
/// [`sync_threads`](crate::prelude::sync_threads) in between, exactly as in CUDA.
pub struct SharedArray<T: Copy, const N: usize> {
    base: *mut T,
    _not_send: PhantomData<*mut T>,
}

impl<T: Copy, const N: usize> SharedArray<T, N> {
    const BYTES: usize = N * core::mem::size_of::<T>();

    /// Declares the array.
    ///
    /// # Safety
    /// Call once per array at the top level of a kernel, before any control flow, so that
    /// every thread of the block receives the address of the same `.shared` variable.
    /// The contents start uninitialised.
    #[inline(always)]
    pub unsafe fn declare() -> Self {
        let base: u64;
        // SAFETY: declares a fresh `.shared` variable in a nested scope and converts its
        // shared-window address to a generic pointer; touches no existing memory.
        unsafe {
            asm!(
                "{{ .shared .align 16 .b8 warpath_shared[{bytes}]; cvta.shared.u64 {base}, warpath_shared; }}",
                bytes = const Self::BYTES,
                base = out(reg64) base,
                options(nomem, nostack)
            )
        };
        SharedArray { base: base as *mut T, _not_send: PhantomData }
    }

    pub const fn len(&self) -> usize {
        N
    }

    pub const fn is_empty(&self) -> bool {
        N == 0
    }

    /// Element `i`; traps (aborting the launch) when `i >= N`.
    #[inline(always)]
    pub fn get(&self, i: usize) -> T {
        assert!(i < N);
        // SAFETY: `i < N` and `base` addresses N elements of the block's shared memory.
        unsafe { self.base.add(i).read() }
    }

    /// Stores `value` at element `i`; traps when `i >= N`.
    #[inline(always)]
    pub fn set(&self, i: usize, value: T) {
        assert!(i < N);
        // SAFETY: `i < N` and `base` addresses N elements of the block's shared memory.
        unsafe { self.base.add(i).write(value) }
    }

    pub fn as_ptr(&self) -> *mut T {
        self.base
    }
}
