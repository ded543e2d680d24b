//! Hopper's thread-block clusters (sm_90, PTX 8.0): a block's rank in its cluster, the
//! cluster barrier, distributed shared memory (another block's shared memory, reached by
//! `mapa` and the `.shared::cluster` state space), and the block's dynamic shared memory.
//! Only in the sm_90 module (the `hopper` feature, which `build.rs` builds for sm_90): the
//! sm_80 module cannot express any of it.

use core::arch::{asm, global_asm};

// The block's dynamic shared memory: its size is the launch's, its address the start of what
// the launch gave beyond the static `.shared` variables. `.extern` arrays live at module scope,
// which only `global_asm!` reaches.
global_asm!(".extern .shared .align 16 .b8 warpath_dynamic_shared[];");

/// The shared-window address of this block's dynamic shared memory.
#[inline(always)]
pub fn dynamic_shared_base() -> u32 {
    let base: u32;
    // SAFETY: takes the address of the module's `.extern .shared` array; touches no memory.
    unsafe { asm!("mov.u32 {b}, warpath_dynamic_shared;", b = out(reg32) base, options(pure, nomem, nostack)) };
    base
}

/// This block's rank in its cluster (`%cluster_ctarank`).
#[inline(always)]
pub fn cluster_rank() -> u32 {
    let rank: u32;
    // SAFETY: reads a special register.
    unsafe { asm!("mov.u32 {r}, %cluster_ctarank;", r = out(reg32) rank, options(pure, nomem, nostack)) };
    rank
}

/// Every thread of the cluster arrives and waits: what any of them wrote before it (shared
/// memory of any block, global memory) is visible to all after it (`barrier.cluster` with
/// release and acquire semantics at cluster scope). All threads of every block call it, as
/// they call a block barrier.
///
/// Not the `.aligned` form, which requires every lane of a warp to execute the same barrier
/// instruction: LLVM may duplicate this asm into both arms of a branch (it cannot be marked
/// convergent), and did in 540ade4's `sssp_cluster`, where a warp's thread 0 and its other
/// lanes reached two copies after `if thread_idx() == 0 { .. }`; the kernel then never finished
/// (bench/NOTES.md 119).
#[inline(always)]
pub fn cluster_sync() {
    // SAFETY: a barrier has no operands; every thread of the cluster reaches it (the caller's
    // contract, as for a block barrier), in whichever copy of the instruction.
    unsafe { asm!("barrier.cluster.arrive;", "barrier.cluster.wait;", options(nostack)) };
}

/// The `.shared::cluster` address of shared-window address `local` in block `rank` of the
/// cluster: the same variable, in that block's shared memory.
#[inline(always)]
pub fn map_shared_rank(local: u32, rank: u32) -> u32 {
    let remote: u32;
    // SAFETY: computes an address; touches no memory.
    unsafe {
        asm!("mapa.shared::cluster.u32 {d}, {a}, {r};", d = out(reg32) remote, a = in(reg32) local, r = in(reg32) rank,
            options(pure, nomem, nostack))
    };
    remote
}

/// Writes `value` at a `.shared::cluster` address ([`map_shared_rank`]). The store is posted:
/// nothing waits for it, and the cluster barrier makes it visible.
///
/// # Safety
/// `remote` is an aligned address inside a shared variable of a block of this cluster, which
/// no other thread reads or writes before the next [`cluster_sync`].
#[inline(always)]
pub unsafe fn store_cluster_u32(remote: u32, value: u32) {
    // SAFETY: forwarded from the caller.
    unsafe { asm!("st.shared::cluster.u32 [{a}], {v};", a = in(reg32) remote, v = in(reg32) value, options(nostack)) };
}

/// Sets `bits` in the word at a `.shared::cluster` address ([`map_shared_rank`]) as a posted
/// reduction (`red.shared::cluster.or`): atomic against the other writers of the word, and
/// nothing waits for it; the cluster barrier makes it visible.
///
/// # Safety
/// `remote` is an aligned address inside a shared variable of a block of this cluster that
/// nobody reads or writes other than by this reduction before the next [`cluster_sync`].
#[inline(always)]
pub unsafe fn or_cluster_u32(remote: u32, bits: u32) {
    // SAFETY: forwarded from the caller.
    unsafe {
        asm!("red.shared::cluster.or.b32 [{a}], {v};", a = in(reg32) remote, v = in(reg32) bits, options(nostack))
    };
}

/// The word at shared-window address `local` of this block (for dynamic shared memory, which
/// a `SharedArray` does not describe).
///
/// # Safety
/// `local` is an aligned word inside this block's shared memory that no thread writes in the
/// same barrier interval.
#[inline(always)]
pub unsafe fn load_shared_u32(local: u32) -> u32 {
    let value: u32;
    // SAFETY: forwarded from the caller.
    unsafe { asm!("ld.shared.u32 {v}, [{a}];", a = in(reg32) local, v = out(reg32) value, options(readonly, nostack)) };
    value
}

/// Writes the word at shared-window address `local` of this block.
///
/// # Safety
/// `local` is an aligned word inside this block's shared memory that no other thread reads or
/// writes in the same barrier interval.
#[inline(always)]
pub unsafe fn store_shared_u32(local: u32, value: u32) {
    // SAFETY: forwarded from the caller.
    unsafe { asm!("st.shared.u32 [{a}], {v};", a = in(reg32) local, v = in(reg32) value, options(nostack)) };
}

/// Words that threads of the whole cluster read, overwrite and swap at once (a union-find
/// forest in distributed shared memory, `cc::cluster`): relaxed accesses at cluster scope,
/// each to this block's word (`*_shared_*`, a shared-window address) or to another block's
/// (`*_cluster_*`, a `.shared::cluster` address from [`map_shared_rank`]). Compare-and-swaps
/// on one word are atomic against each other whichever block issues them. The two families
/// differ only in the state space.
///
/// A block must not exit while others may reach its shared memory: hence the last cluster
/// barrier of a kernel that uses them.
macro_rules! relaxed_cluster_words {
    ($load:ident, $store:ident, $cas:ident, $space:literal) => {
        #[doc = concat!("The word at a `.", $space, "` address, relaxed at cluster scope.")]
        #[doc = ""]
        #[doc = "# Safety"]
        #[doc = "`address` is an aligned word inside the dynamic shared memory of a block of this cluster, resident until after the next [`cluster_sync`]."]
        #[inline(always)]
        pub unsafe fn $load(address: u32) -> u32 {
            let value: u32;
            // SAFETY: forwarded from the caller.
            unsafe {
                asm!(concat!("ld.relaxed.cluster.", $space, ".u32 {v}, [{a}];"), a = in(reg32) address,
                    v = out(reg32) value, options(nostack))
            };
            value
        }

        #[doc = concat!("Writes the word at a `.", $space, "` address, relaxed at cluster scope.")]
        #[doc = ""]
        #[doc = "# Safety"]
        #[doc = "`address` is an aligned word inside the dynamic shared memory of a block of this cluster, resident until after the next [`cluster_sync`]."]
        #[inline(always)]
        pub unsafe fn $store(address: u32, value: u32) {
            // SAFETY: forwarded from the caller.
            unsafe {
                asm!(concat!("st.relaxed.cluster.", $space, ".u32 [{a}], {v};"), a = in(reg32) address,
                    v = in(reg32) value, options(nostack))
            };
        }

        #[doc = concat!("Swaps in `new` where the word at a `.", $space, "` address holds `expected`; returns what it held.")]
        #[doc = ""]
        #[doc = "# Safety"]
        #[doc = "`address` is an aligned word inside the dynamic shared memory of a block of this cluster, resident until after the next [`cluster_sync`]."]
        #[inline(always)]
        pub unsafe fn $cas(address: u32, expected: u32, new: u32) -> u32 {
            let old: u32;
            // SAFETY: forwarded from the caller.
            unsafe {
                asm!(concat!("atom.relaxed.cluster.", $space, ".cas.b32 {o}, [{a}], {e}, {n};"), a = in(reg32) address,
                    e = in(reg32) expected, n = in(reg32) new, o = out(reg32) old, options(nostack))
            };
            old
        }
    };
}

relaxed_cluster_words!(load_relaxed_shared_u32, store_relaxed_shared_u32, cas_shared_u32, "shared::cta");
relaxed_cluster_words!(load_relaxed_cluster_u32, store_relaxed_cluster_u32, cas_cluster_u32, "shared::cluster");
