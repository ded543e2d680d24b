//! Host-to-device copies at the bus's speed: a copy from pageable memory makes the driver
//! stage it through small pinned buffers of its own, one after the other, at a fraction of
//! the bus's rate. Here the context keeps a few pinned buffers of its own ([`STAGING_BUFFERS`]
//! of [`STAGING_CHUNK`] bytes, allocated at its first large copy and kept): while the DMA
//! engine copies one buffer to the device, all cores fill the next from the host array, so a
//! large array moves at the pinned rate as long as the cores copy faster than the bus.
//!
//! The alternative, [`UploadPath::Registered`], pins the host array itself for the one copy
//! (`cuMemHostRegister`, then a single DMA, then `cuMemHostUnregister`): no second pass over
//! host memory, but every page is pinned first. `WARPATH_UPLOAD=staged|registered` picks one
//! when a context is created (for measuring both on the same machine); the default,
//! [`UploadPath::DEFAULT`], is the one that measured faster (bench/NOTES.md 50).

use std::sync::Arc;

use cudarc::driver::{sys, CudaContext, CudaEvent, CudaStream, PinnedHostSlice};
use rayon::prelude::*;

use crate::gpu::GpuError;

/// Pinned buffers a context keeps for staging: one being copied to the device, one being
/// filled, and one spare so that a fill never waits for the copy before last.
pub const STAGING_BUFFERS: usize = 3;

/// Bytes of each staging buffer: large enough that each DMA runs near the bus's rate, small
/// enough that the first fill (which nothing overlaps) is short.
pub const STAGING_CHUNK: usize = 32 << 20;

/// Arrays below this go in one pageable copy: the staging would cost more than it saves.
pub const STAGED_MIN_BYTES: usize = 4 << 20;

/// Bytes each core copies at a time while filling a staging buffer (the best of 256 KiB to
/// 4 MiB measured: bench/NOTES.md 50).
const FILL_PIECE: usize = 256 << 10;

/// The staging buffers, each with the event recorded after the last copy out of it.
pub(crate) struct Staging {
    buffers: Vec<(PinnedHostSlice<u8>, CudaEvent)>,
}

impl Staging {
    pub(crate) fn new(context: &Arc<CudaContext>) -> Result<Staging, GpuError> {
        let pinned_error = |e| GpuError::driver("cuMemHostAlloc (staging buffers)", e);
        let buffers = (0..STAGING_BUFFERS)
            .map(|_| {
                // SAFETY: a staging buffer's bytes are read (by the DMA engine) only after they
                // were written from the host array, in `copy_to_device`.
                let pinned = unsafe { context.alloc_pinned::<u8>(STAGING_CHUNK) }.map_err(pinned_error)?;
                let done = context.new_event(None).map_err(|e| GpuError::driver("cuEventCreate", e))?;
                Ok((pinned, done))
            })
            .collect::<Result<Vec<_>, GpuError>>()?;
        Ok(Staging { buffers })
    }

    /// Queues the copy of `host` to the device address `device` (which must hold
    /// `host.len()` bytes) on `stream`, chunk by chunk through the staging buffers. Returns
    /// when the last chunk is queued: the caller synchronizes the stream before relying on
    /// the device's copy (`host` may be dropped at once: every byte was staged).
    pub(crate) fn copy_to_device(
        &mut self,
        stream: &CudaStream,
        host: &[u8],
        device: sys::CUdeviceptr,
    ) -> Result<(), GpuError> {
        stream.context().bind_to_thread().map_err(|e| GpuError::driver("cuCtxSetCurrent", e))?;
        for (index, chunk) in host.chunks(STAGING_CHUNK).enumerate() {
            let (pinned, done) = &mut self.buffers[index % STAGING_BUFFERS];
            // The copy queued from this buffer last time round must have read it.
            done.synchronize().map_err(|e| GpuError::driver("cuEventSynchronize (staging)", e))?;
            let staged = &mut pinned.as_mut_slice().map_err(|e| GpuError::driver("staging buffer", e))?[..chunk.len()];
            staged.par_chunks_mut(FILL_PIECE).zip(chunk.par_chunks(FILL_PIECE)).for_each(|(to, from)| {
                to.copy_from_slice(from);
            });
            let offset = (index * STAGING_CHUNK) as u64;
            // SAFETY: `staged` is pinned host memory of this context holding `chunk.len()`
            // bytes, not written again before `done` (recorded right after) has passed; the
            // caller guarantees `device` holds `host.len()` bytes, so `device + offset` holds
            // this chunk's.
            unsafe {
                sys::cuMemcpyHtoDAsync_v2(
                    device + offset,
                    staged.as_ptr() as *const std::ffi::c_void,
                    chunk.len(),
                    stream.cu_stream(),
                )
            }
            .result()
            .map_err(|e| GpuError::driver("cuMemcpyHtoDAsync", e))?;
            done.record(stream).map_err(|e| GpuError::driver("cuEventRecord", e))?;
        }
        Ok(())
    }
}

/// How a context copies large arrays to the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UploadPath {
    /// Through the context's pinned staging buffers, filled by all cores.
    Staged,
    /// From the host array itself, registered (pinned) for the copy.
    Registered,
}

impl UploadPath {
    /// `WARPATH_UPLOAD` (`staged` or `registered`), else the default.
    pub fn from_env() -> UploadPath {
        match std::env::var("WARPATH_UPLOAD").as_deref() {
            Ok("staged") => UploadPath::Staged,
            Ok("registered") => UploadPath::Registered,
            _ => UploadPath::DEFAULT,
        }
    }

    /// Staged, which measured faster on an H100 (bench/NOTES.md 50).
    pub const DEFAULT: UploadPath = UploadPath::Staged;
}

/// Copies `host` to the device address `device` (which must hold `host.len()` bytes) in one
/// DMA from the host array itself, registered with the driver for the copy and unregistered
/// after it; waits for the copy.
pub(crate) fn copy_registered(stream: &CudaStream, host: &[u8], device: sys::CUdeviceptr) -> Result<(), GpuError> {
    stream.context().bind_to_thread().map_err(|e| GpuError::driver("cuCtxSetCurrent", e))?;
    let pointer = host.as_ptr() as *mut std::ffi::c_void;
    // SAFETY: `host` is borrowed for the whole call, so its pages stay mapped and unchanged
    // while registered; the driver only reads them, and the registration is undone below
    // before the borrow ends.
    unsafe { sys::cuMemHostRegister_v2(pointer, host.len(), 0) }
        .result()
        .map_err(|e| GpuError::driver("cuMemHostRegister", e))?;
    // SAFETY: `host` is registered pinned memory of `host.len()` bytes; the caller guarantees
    // `device` holds as many.
    let copied = unsafe { sys::cuMemcpyHtoDAsync_v2(device, pointer, host.len(), stream.cu_stream()) }
        .result()
        .map_err(|e| GpuError::driver("cuMemcpyHtoDAsync", e))
        .and_then(|()| stream.synchronize().map_err(|e| GpuError::driver("cuStreamSynchronize", e)));
    // SAFETY: `pointer` was registered above, and the copy from it has finished (or failed).
    let unregistered =
        unsafe { sys::cuMemHostUnregister(pointer) }.result().map_err(|e| GpuError::driver("cuMemHostUnregister", e));
    copied.and(unregistered)
}
