//! warpath's GPU kernels, written in `no_std` Rust and compiled to PTX by rustc's own
//! `nvptx64-nvidia-cuda` target (see `build.rs` at the repository root).
//!
//! [`prelude`] is the small layer that CUDA C++ gets from its headers and rust-cuda users get
//! from `cuda_std`: thread indices, warp votes and shuffles, block-shared arrays and
//! device-scope atomics, each a thin inline-asm wrapper. [`operators`] holds the pieces every
//! graph algorithm reuses; each algorithm has its folder of kernels (`bfs`, `cc`, `scc`, [`sssp`]); `graph` the kernels
//! the runtime runs on a placed graph for no algorithm in particular (its list heads); `selftest`
//! holds the kernels that test the prelude on a GPU. Kernels that need Hopper (thread-block
//! clusters: `sssp::cluster`, `bfs::cluster`, `cc::cluster`) are built into a second module, for sm_90, by the `hopper`
//! feature. Kernel names and parameter structs come
//! from the interface crate (`warpath_interface`), which the host builds too.
#![no_std]
#![feature(abi_ptx, asm_experimental_arch, stdarch_nvptx)]
#![cfg_attr(not(feature = "hopper"), feature(stmt_expr_attributes))]
#![allow(clippy::missing_safety_doc)]

// Two modules are built from this crate (build.rs): the sm_80 one, with every kernel but the
// Hopper ones, and, with the `hopper` feature, the sm_90 one, with those alone.
pub mod bfs;
#[cfg(not(feature = "hopper"))]
pub mod cc;
/// The sm_90 module's connected components: `cc/cluster.rs` alone.
#[cfg(feature = "hopper")]
pub mod cc {
    pub mod cluster;
}
#[cfg(not(feature = "hopper"))]
pub mod graph;
pub mod operators;
pub mod prelude;
#[cfg(not(feature = "hopper"))]
pub mod scc;
#[cfg(not(feature = "hopper"))]
pub mod selftest;
pub mod sssp;

/// A kernel that panics cannot unwind or print: trap, which aborts the launch with
/// `CUDA_ERROR_ILLEGAL_INSTRUCTION`, so the host reports the failed kernel by name.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: `trap` takes no operands and never returns.
    unsafe { core::arch::asm!("trap;", options(noreturn)) }
}
