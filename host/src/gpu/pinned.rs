//! Graphs built straight into pinned memory (issue 23, item 2): [`PinnedMemory`] is the
//! [`HostMemory`] provider whose blocks are page-locked and mapped into the device's address
//! space (`cuMemHostAlloc` with `DEVICEMAP | PORTABLE`). A graph whose offsets and targets were
//! built or read into such blocks is placed without a host copy: in device memory by one DMA
//! per array at the bus's rate, zero-copy by handing the kernels the mapped address (no
//! allocation, no copy at all). The placed graph holds the blocks it reads, so they live as
//! long as either the host graph or the device graph uses them.

use std::any::Any;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use cudarc::driver::{sys, CudaContext, PinnedHostSlice};
use rayon::prelude::*;

use crate::gpu::GpuError;
use crate::graph::{HostBlock, HostMemory};

/// Pinned, device-mapped host memory of one CUDA device, for a graph's big arrays. Pinning can
/// be refused (the operating system's limit on locked memory, or memory simply short): a
/// refused block is `None`, and the array lives in ordinary memory, placed the usual way.
pub struct PinnedMemory {
    context: Arc<CudaContext>,
    /// Blocks allocated and not yet freed.
    live: Arc<AtomicUsize>,
}

impl std::fmt::Debug for PinnedMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PinnedMemory").field("live_blocks", &self.live_blocks()).finish()
    }
}

/// When graphs are built into pinned memory (`WARPATH_PINNED_BUILD`: `1` always, `0` never,
/// unset or `auto` for zero-copy placements only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PinnedBuild {
    /// Whenever the GPU may run the graph.
    Always,
    /// Only when the graph is to be placed zero-copy: pinning costs as much as the copy it
    /// saves, and a graph bound for device memory loads faster into ordinary memory and goes
    /// through the staging buffers (bench/NOTES.md entry 56).
    ZeroCopyOnly,
    /// Never: ordinary memory, placed through the staging buffers or copied into pinned memory.
    Never,
}

/// [`PinnedBuild`] from `WARPATH_PINNED_BUILD`.
pub fn pinned_build() -> PinnedBuild {
    match std::env::var("WARPATH_PINNED_BUILD").as_deref().map(str::trim) {
        Ok("1") => PinnedBuild::Always,
        Ok("0") => PinnedBuild::Never,
        _ => PinnedBuild::ZeroCopyOnly,
    }
}

impl PinnedMemory {
    /// Pinned memory of CUDA device 0, in its primary context: the one every
    /// [`GpuContext`](crate::gpu::GpuContext) of that device uses, so its blocks are this
    /// process's to place. Fails as a context would ([`GpuError::NoDriver`], ...).
    pub fn new() -> Result<PinnedMemory, GpuError> {
        // SAFETY: only tries to dlopen libcuda by its usual names; nothing is called from it.
        if !unsafe { sys::is_culib_present() } {
            return Err(GpuError::NoDriver);
        }
        let count = CudaContext::device_count().map_err(|e| GpuError::driver("cuDeviceGetCount", e))?;
        if count <= 0 {
            return Err(GpuError::NoDevice);
        }
        let context = CudaContext::new(0).map_err(|e| GpuError::driver("cuCtxCreate", e))?;
        Ok(PinnedMemory { context, live: Arc::new(AtomicUsize::new(0)) })
    }

    /// The process's pinned memory ([`PinnedMemory::new`] made at the first successful call and
    /// kept): what the CLI and the bench build their graphs into.
    pub fn shared() -> Result<&'static PinnedMemory, GpuError> {
        static SHARED: Mutex<Option<&'static PinnedMemory>> = Mutex::new(None);
        let mut shared = SHARED.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(memory) = *shared {
            return Ok(memory);
        }
        let memory: &'static PinnedMemory = Box::leak(Box::new(PinnedMemory::new()?));
        *shared = Some(memory);
        Ok(memory)
    }

    /// Blocks allocated and not yet freed (a test's leak check).
    pub fn live_blocks(&self) -> usize {
        self.live.load(Ordering::SeqCst)
    }
}

impl HostMemory for PinnedMemory {
    fn allocate_zeroed(&self, bytes: usize) -> Option<Box<dyn HostBlock>> {
        let flags = sys::CU_MEMHOSTALLOC_DEVICEMAP | sys::CU_MEMHOSTALLOC_PORTABLE;
        // SAFETY: every byte is zeroed below before the block is handed out.
        let mut pinned = unsafe { self.context.alloc_pinned_with_flags::<u8>(bytes, flags) }.ok()?;
        let address = pinned.as_mut_ptr().ok()? as usize;
        let block = PinnedBlock { pinned, address, bytes, live: Arc::clone(&self.live) };
        self.live.fetch_add(1, Ordering::SeqCst);
        let mut block = Box::new(block);
        // The driver does not promise zeroed pages; all cores zero them (one core writes only a
        // few GB/s).
        block.bytes_mut().par_chunks_mut(1 << 20).for_each(|piece| piece.fill(0));
        Some(block)
    }
}

/// One pinned, device-mapped allocation of [`PinnedMemory`].
pub(crate) struct PinnedBlock {
    /// Owns the allocation (and, through its event, the context): freed when dropped.
    pinned: PinnedHostSlice<u8>,
    /// The allocation's host address, kept as a number so that reading the bytes makes no
    /// driver call (cudarc's accessors synchronize an event each time).
    address: usize,
    bytes: usize,
    live: Arc<AtomicUsize>,
}

impl PinnedBlock {
    /// The address kernels read the block at, in the context current on this thread (with
    /// unified addressing, the host address itself).
    pub(crate) fn device_address(&self) -> Result<u64, GpuError> {
        self.pinned.context().bind_to_thread().map_err(|e| GpuError::driver("cuCtxSetCurrent", e))?;
        let mut device_ptr: sys::CUdeviceptr = 0;
        // SAFETY: `address` is a live allocation made with CU_MEMHOSTALLOC_DEVICEMAP and
        // PORTABLE; the driver writes its device address into `device_ptr`.
        unsafe { sys::cuMemHostGetDevicePointer_v2(&mut device_ptr, self.address as *mut std::ffi::c_void, 0) }
            .result()
            .map_err(|e| GpuError::driver("cuMemHostGetDevicePointer", e))?;
        Ok(device_ptr)
    }

    /// The host address, for a DMA out of the block.
    pub(crate) fn host_address(&self) -> *const std::ffi::c_void {
        self.address as *const std::ffi::c_void
    }
}

impl HostBlock for PinnedBlock {
    fn bytes(&self) -> &[u8] {
        // SAFETY: `address` is the start of the live allocation `pinned` owns, `bytes` long,
        // initialised (zeroed at allocation); shared reads while `&self` lives.
        unsafe { std::slice::from_raw_parts(self.address as *const u8, self.bytes) }
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in `bytes`; `&mut self` makes this the only reference to the bytes.
        unsafe { std::slice::from_raw_parts_mut(self.address as *mut u8, self.bytes) }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Drop for PinnedBlock {
    fn drop(&mut self) {
        // `pinned` frees the allocation right after this, from whatever thread drops the
        // graph: its context is made current here for the driver's free.
        let _ = self.pinned.context().bind_to_thread();
        self.live.fetch_sub(1, Ordering::SeqCst);
    }
}
