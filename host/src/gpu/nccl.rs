//! What the NCCL communicator (`multi::nccl`, feature `nccl`) needs of the runtime: whether
//! the library loads, and how many devices there are. cudarc loads libnccl at run time under
//! the names of `cudarc::get_lib_name_candidates("nccl")` (`libnccl.so`, `libnccl.so.12`, ...
//! but not `libnccl.so.2`, the name NCCL's own packages and PyTorch's wheel ship;
//! `scripts/nccl-link` makes the `libnccl.so` link).

use cudarc::driver::CudaContext;

use crate::gpu::GpuError;

/// Whether cudarc can load libnccl by one of its names.
pub fn library_present() -> bool {
    // SAFETY: only tries to dlopen libnccl by cudarc's names; nothing is called from it.
    unsafe { cudarc::nccl::sys::is_culib_present() }
}

/// The number of CUDA devices (0 without a driver).
pub fn device_count() -> Result<usize, GpuError> {
    // SAFETY: only tries to dlopen libcuda by its usual names; nothing is called from it.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Ok(0);
    }
    let count = CudaContext::device_count().map_err(|e| GpuError::driver("cuDeviceGetCount", e))?;
    Ok(count.max(0) as usize)
}
