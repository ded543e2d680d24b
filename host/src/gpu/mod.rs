//! The GPU runtime: a thin, safe layer over cudarc's driver API.
//!
//! - [`GpuContext`] finds the device, creates the context and stream, and loads the kernel
//!   module built from `device/` once (the cubin for the device's architecture, else the PTX);
//! - [`launch`] sizes grids, checks buffer contracts and launches a kernel with its parameter
//!   struct from the interface crate: the one place that calls cudarc's `unsafe` launch for
//!   the algorithms' launchers (`crate::bfs::gpu::launch`), which check each kernel's contract;
//! - [`ptx`] is the embedded module, [`ptxas`] reads its resource usage with NVIDIA's assembler.
//!
//! libcuda is loaded at run time (cudarc's `dynamic-loading`), so warpath builds and runs on
//! machines with no CUDA at all; there [`GpuContext::new`] returns [`GpuError::NoDriver`].

/// Launches `$kernel` with the given positional arguments, mapping failure to
/// [`GpuError::Launch`]. Used only by the prelude's self-test launchers in [`selftest`], which
/// check each kernel's pointer contract first; that check is what makes the `unsafe` launch
/// sound. The algorithms' kernels take a parameter struct instead ([`launch`]).
macro_rules! launch {
    ($gpu:expr, $kernel:expr, $config:expr, [$($arg:expr),* $(,)?]) => {{
        let gpu: &$crate::gpu::GpuContext = $gpu;
        let function = gpu.function($kernel)?;
        #[allow(unused_imports)]
        use cudarc::driver::PushKernelArg as _;
        let mut args = gpu.stream().launch_builder(&function);
        $( args.arg($arg); )*
        // SAFETY: the calling launcher has checked the kernel's documented contract (buffer
        // lengths against the sizes and ids it passes); arguments match the kernel's
        // parameter list in order and type.
        unsafe { args.launch($config) }
            .map(|_| ())
            .map_err(|e| $crate::gpu::GpuError::launch($kernel, e))
    }};
}

mod context;
pub mod launch;
#[cfg(feature = "nccl")]
pub mod nccl;
pub mod pinned;
pub mod ptx;
pub mod ptxas;
pub mod selftest;
pub mod staging;
mod wait;

pub use context::{
    empty_lists_bytes, u64_pairs, CopyPath, CopyStep, DeviceGraph, Download, GpuContext, Layout, PinnedBuffer, Placement,
};
// Defined with the crate's other errors, which hold it: the bottom room imports nothing above it.
pub use crate::error::GpuError;
pub use wait::{StreamWaiter, WaitWatch};
pub use pinned::{pinned_build, PinnedBuild, PinnedMemory};
