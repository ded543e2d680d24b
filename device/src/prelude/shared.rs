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
///
/// The array is held by its 32-bit address in the shared window and read and written with
/// `ld.shared`/`st.shared`. A generic pointer (what `cvta.shared` gives, and all that rustc can
/// dereference) compiles to generic loads, which ptxas cannot turn into shared ones: each then
/// waits on the long scoreboard like a global load and needs 64-bit address arithmetic.
///
/// A copy is the same array (the handle is its address): for a value that a thread carries
/// in registers, such as CC's per-phase work.
#[derive(Clone, Copy)]
pub struct SharedArray<T: SharedWord, const N: usize> {
    base: u32,
    _not_send: PhantomData<*mut T>,
}

/// A type that one `ld.shared`/`st.shared` moves: `u32` and `u64`.
pub trait SharedWord: Copy {
    /// Reads the value at shared-window address `address`.
    ///
    /// # Safety
    /// `address` is aligned and lies inside a `.shared` variable of this block.
    unsafe fn load(address: u32) -> Self;

    /// Writes `value` at shared-window address `address`.
    ///
    /// # Safety
    /// As for [`SharedWord::load`].
    unsafe fn store(address: u32, value: Self);
    /// Reads the value at shared-window address `address` as `ld.volatile.shared`: every call
    /// reads memory (a spin loop on a word another warp writes is not folded into one read).
    ///
    /// # Safety
    /// As for [`SharedWord::load`].
    unsafe fn load_volatile(address: u32) -> Self;
    /// Writes `value` at shared-window address `address` as `st.volatile.shared`.
    ///
    /// # Safety
    /// As for [`SharedWord::load`].
    unsafe fn store_volatile(address: u32, value: Self);
    /// Atomically writes `value` at shared-window address `address` and returns what it held.
    ///
    /// # Safety
    /// As for [`SharedWord::load`].
    unsafe fn exchange(address: u32, value: Self) -> Self;
    /// Atomically writes `new` at shared-window address `address` if it holds `expected`, and
    /// returns what it held.
    ///
    /// # Safety
    /// As for [`SharedWord::load`].
    unsafe fn compare_exchange(address: u32, expected: Self, new: Self) -> Self;
    /// Atomically adds `value` at shared-window address `address` and returns what it held.
    ///
    /// # Safety
    /// As for [`SharedWord::load`].
    unsafe fn fetch_add(address: u32, value: Self) -> Self;
    /// Atomically lowers the value at shared-window address `address` to `value` if that is
    /// smaller (unsigned) and returns what it held.
    ///
    /// # Safety
    /// As for [`SharedWord::load`].
    unsafe fn fetch_min(address: u32, value: Self) -> Self;
}

macro_rules! shared_word {
    ($t:ty, $bits:literal, $class:ident) => {
        impl SharedWord for $t {
            #[inline(always)]
            unsafe fn load(address: u32) -> $t {
                let value: $t;
                // SAFETY: the caller guarantees `address`. `readonly` lets the compiler drop an
                // unused load but not move one across a barrier or a store, which are asm blocks
                // that may write memory.
                unsafe {
                    asm!(concat!("ld.shared.u", $bits, " {v}, [{a}];"), a = in(reg32) address,
                        v = out($class) value, options(pure, readonly, nostack))
                };
                value
            }

            #[inline(always)]
            unsafe fn store(address: u32, value: $t) {
                // SAFETY: the caller guarantees `address`.
                unsafe {
                    asm!(concat!("st.shared.u", $bits, " [{a}], {v};"), a = in(reg32) address,
                        v = in($class) value, options(nostack))
                };
            }

            #[inline(always)]
            unsafe fn load_volatile(address: u32) -> $t {
                let value: $t;
                // SAFETY: the caller guarantees `address`. Not `pure`: each call reads again.
                unsafe {
                    asm!(concat!("ld.volatile.shared.u", $bits, " {v}, [{a}];"), a = in(reg32) address,
                        v = out($class) value, options(nostack))
                };
                value
            }

            #[inline(always)]
            unsafe fn store_volatile(address: u32, value: $t) {
                // SAFETY: the caller guarantees `address`.
                unsafe {
                    asm!(concat!("st.volatile.shared.u", $bits, " [{a}], {v};"), a = in(reg32) address,
                        v = in($class) value, options(nostack))
                };
            }

            #[inline(always)]
            unsafe fn exchange(address: u32, value: $t) -> $t {
                let old: $t;
                // SAFETY: the caller guarantees `address`.
                unsafe {
                    asm!(concat!("atom.shared.exch.b", $bits, " {old}, [{a}], {v};"), a = in(reg32) address,
                        v = in($class) value, old = out($class) old, options(nostack))
                };
                old
            }

            #[inline(always)]
            unsafe fn compare_exchange(address: u32, expected: $t, new: $t) -> $t {
                let old: $t;
                // SAFETY: the caller guarantees `address`.
                unsafe {
                    asm!(concat!("atom.shared.cas.b", $bits, " {old}, [{a}], {e}, {n};"), a = in(reg32) address,
                        e = in($class) expected, n = in($class) new, old = out($class) old, options(nostack))
                };
                old
            }

            #[inline(always)]
            unsafe fn fetch_add(address: u32, value: $t) -> $t {
                let old: $t;
                // SAFETY: the caller guarantees `address`.
                unsafe {
                    asm!(concat!("atom.shared.add.u", $bits, " {old}, [{a}], {v};"), a = in(reg32) address,
                        v = in($class) value, old = out($class) old, options(nostack))
                };
                old
            }

            #[inline(always)]
            unsafe fn fetch_min(address: u32, value: $t) -> $t {
                let old: $t;
                // SAFETY: the caller guarantees `address`.
                unsafe {
                    asm!(concat!("atom.shared.min.u", $bits, " {old}, [{a}], {v};"), a = in(reg32) address,
                        v = in($class) value, old = out($class) old, options(nostack))
                };
                old
            }
        }
    };
}

shared_word!(u32, "32", reg32);
shared_word!(u64, "64", reg64);

impl<T: SharedWord, const N: usize> SharedArray<T, N> {
    const BYTES: usize = N * core::mem::size_of::<T>();

    /// Declares the array.
    ///
    /// # Safety
    /// Call once per array at the top level of a kernel, before any control flow, so that
    /// every thread of the block receives the address of the same `.shared` variable.
    /// The contents start uninitialised.
    #[inline(always)]
    pub unsafe fn declare() -> Self {
        let base: u32;
        // SAFETY: declares a fresh `.shared` variable in a nested scope and takes its
        // shared-window address; touches no existing memory.
        unsafe {
            asm!(
                "{{ .shared .align 16 .b8 warpath_shared[{bytes}]; mov.u32 {base}, warpath_shared; }}",
                bytes = const Self::BYTES,
                base = out(reg32) base,
                options(nomem, nostack)
            )
        };
        SharedArray { base, _not_send: PhantomData }
    }

    pub const fn len(&self) -> usize {
        N
    }

    pub const fn is_empty(&self) -> bool {
        N == 0
    }

    /// The shared-window address of element `i < N` (the array is under 4 GiB, so the
    /// offset fits the 32-bit window).
    #[inline(always)]
    fn address(&self, i: usize) -> u32 {
        self.base + (i * core::mem::size_of::<T>()) as u32
    }

    /// The shared-window address of element `i`, for another block of a cluster to reach it
    /// (`map_shared_rank`); traps when `i >= N`.
    #[inline(always)]
    pub fn address_of(&self, i: usize) -> u32 {
        assert!(i < N);
        self.address(i)
    }

    /// Element `i`; traps (aborting the launch) when `i >= N`.
    #[inline(always)]
    pub fn get(&self, i: usize) -> T {
        assert!(i < N);
        // SAFETY: `i < N`, so the address is an aligned element of this block's array.
        unsafe { T::load(self.address(i)) }
    }

    /// Stores `value` at element `i`; traps when `i >= N`.
    #[inline(always)]
    pub fn set(&self, i: usize, value: T) {
        assert!(i < N);
        // SAFETY: `i < N`, so the address is an aligned element of this block's array.
        unsafe { T::store(self.address(i), value) }
    }

    /// Element `i`, read from memory at every call (`ld.volatile.shared`): for a word that
    /// another warp writes while this one waits on it, without a barrier between; traps when
    /// `i >= N`.
    #[inline(always)]
    pub fn get_volatile(&self, i: usize) -> T {
        assert!(i < N);
        // SAFETY: `i < N`, so the address is an aligned element of this block's array.
        unsafe { T::load_volatile(self.address(i)) }
    }

    /// Stores `value` at element `i` as `st.volatile.shared` (the writer's side of
    /// [`SharedArray::get_volatile`]); traps when `i >= N`.
    #[inline(always)]
    pub fn set_volatile(&self, i: usize, value: T) {
        assert!(i < N);
        // SAFETY: `i < N`, so the address is an aligned element of this block's array.
        unsafe { T::store_volatile(self.address(i), value) }
    }

    /// Stores `value` at element `i` as one atomic exchange and returns what the element held;
    /// traps when `i >= N`. Threads that may write the same element in one barrier interval
    /// (a shared hash, an election) use this instead of `get` and `set`: atomics are ordered
    /// among themselves, so no warp or block barrier is needed and racecheck sees no hazard.
    #[inline(always)]
    pub fn exchange(&self, i: usize, value: T) -> T {
        assert!(i < N);
        // SAFETY: `i < N`, so the address is an aligned element of this block's array.
        unsafe { T::exchange(self.address(i), value) }
    }

    /// Stores `new` at element `i` if it holds `expected`, as one atomic compare-and-swap, and
    /// returns what the element held; traps when `i >= N`. For elements that several threads
    /// may write in one barrier interval, as [`SharedArray::exchange`].
    #[inline(always)]
    pub fn compare_exchange(&self, i: usize, expected: T, new: T) -> T {
        assert!(i < N);
        // SAFETY: `i < N`, so the address is an aligned element of this block's array.
        unsafe { T::compare_exchange(self.address(i), expected, new) }
    }

    /// Adds `value` to element `i` as one atomic addition and returns what the element held;
    /// traps when `i >= N`. For elements that several threads may write in one barrier
    /// interval, as [`SharedArray::exchange`].
    #[inline(always)]
    pub fn fetch_add(&self, i: usize, value: T) -> T {
        assert!(i < N);
        // SAFETY: `i < N`, so the address is an aligned element of this block's array.
        unsafe { T::fetch_add(self.address(i), value) }
    }

    /// Lowers element `i` to `value` (unsigned) as one atomic and returns what it held; traps
    /// when `i >= N`.
    #[inline(always)]
    pub fn fetch_min(&self, i: usize, value: T) -> T {
        assert!(i < N);
        // SAFETY: `i < N`, so the address is an aligned element of this block's array.
        unsafe { T::fetch_min(self.address(i), value) }
    }
}
