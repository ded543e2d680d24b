//! Making the GPU context while the graph loads: creating a context (the driver's start, the
//! kernels' module, the pinned staging buffers of large uploads, the device allocator's pool)
//! costs a few hundred milliseconds that owe nothing to the graph, so a command that will place
//! a graph on the GPU starts it on a thread of its own before it reads the file
//! ([`start_gpu_early`]), and the placement ([`super::prepare`]) takes the context made instead
//! of making one.

use std::sync::Mutex;
use std::thread::JoinHandle;

use crate::gpu::{GpuContext, GpuError};

/// The context being made, until a placement takes it.
static EARLY_GPU: Mutex<Option<JoinHandle<Result<GpuContext, GpuError>>>> = Mutex::new(None);

/// Starts making the GPU context, ready for uploads, on a thread of its own; the next
/// [`super::prepare`] that places a graph on the GPU takes it (waiting for it if need be)
/// instead of making its own. A second call before that does nothing. Without a usable GPU the
/// thread ends with the error a placement would have met, and the placement meets it then
/// (falling back to the CPU under `Backend::Auto`, as without an early start).
pub fn start_gpu_early() {
    let mut early = EARLY_GPU.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if early.is_none() {
        *early = Some(std::thread::spawn(|| {
            let gpu = GpuContext::new()?;
            gpu.prepare_uploads()?;
            Ok(gpu)
        }));
    }
}

/// The context [`start_gpu_early`] made (or the error it met), if one was started and not yet
/// taken.
pub(crate) fn take_early_gpu() -> Option<Result<GpuContext, GpuError>> {
    let handle = EARLY_GPU.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take()?;
    Some(handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
}

/// Waits for a context [`start_gpu_early`] began that no placement took (the command failed
/// or ran on the CPU) and drops it: a process must not exit while a thread is still inside the
/// driver's start.
pub fn settle_gpu_early() {
    drop(take_early_gpu());
}
