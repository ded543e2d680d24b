//! Graphs built straight into pinned memory (issue 23, item 2): [`PinnedMemory`] is the
//! [`HostMemory`] provider whose blocks are page-locked and mapped into the device's address
//! space. A block is anonymous memory the kernel backs with 2 MiB pages where it can
//! (`MADV_HUGEPAGE`), faulted in by all cores, then registered with the driver
//! (`cuMemHostRegister` with `DEVICEMAP | PORTABLE`): the driver pins a 2 MiB page as one,
//! much faster than `cuMemHostAlloc` pins its own pages on a virtual machine (bench/NOTES.md
//! 68). Zero-copy placements copy ordinary arrays into such blocks too. A graph whose offsets
//! and targets were built or read into such blocks is placed without a host copy: in device
//! memory by one DMA per array at the bus's rate, zero-copy by handing the kernels the mapped
//! address (no allocation, no copy at all). The placed graph holds the blocks it reads, so
//! they live as long as either the host graph or the device graph uses them.

use std::any::Any;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use cudarc::driver::{sys, CudaContext};
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
        let mut block = PinnedBlock::allocate(&self.context, bytes).ok()?;
        block.live = Some(Arc::clone(&self.live));
        self.live.fetch_add(1, Ordering::SeqCst);
        Some(Box::new(block))
    }
}

/// Bytes of the pages the kernel backs a block with where it can (transparent huge pages).
const HUGE_PAGE: usize = 2 << 20;

/// One pinned, device-mapped allocation: zeroed anonymous memory, registered with the driver
/// for as long as the block lives.
pub(crate) struct PinnedBlock {
    /// The context the memory is registered in, made current to unregister it.
    context: Arc<CudaContext>,
    /// The mapping's host address, kept as a number so that the block is `Send` and `Sync`.
    address: usize,
    /// Bytes asked for.
    bytes: usize,
    /// Bytes mapped (at least one; `bytes` rounded up to whole huge pages).
    mapped: usize,
    /// Whether the driver has the mapping registered (unregistered before it is unmapped).
    registered: bool,
    /// The provider's count of live blocks, when a provider made it.
    live: Option<Arc<AtomicUsize>>,
}

impl PinnedBlock {
    /// `bytes` zeroed bytes, pinned and mapped into the device in `context`.
    pub(crate) fn allocate(context: &Arc<CudaContext>, bytes: usize) -> Result<PinnedBlock, GpuError> {
        let mapped = bytes.max(1).div_ceil(HUGE_PAGE) * HUGE_PAGE;
        // SAFETY: a fresh private anonymous mapping (no address hint, no file): it touches no
        // memory of this process, and the kernel zeroes its pages.
        let pointer = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                mapped,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if pointer == libc::MAP_FAILED {
            return Err(GpuError::Driver {
                call: "mmap",
                detail: format!("mapping {mapped} bytes of host memory: {}", std::io::Error::last_os_error()),
            });
        }
        // From here the mapping is the block's: dropping it (on any failure below) unmaps it.
        let mut block = PinnedBlock {
            context: Arc::clone(context),
            address: pointer as usize,
            bytes,
            mapped,
            registered: false,
            live: None,
        };
        // 2 MiB pages where the kernel allows them (THP "always" or "madvise"); without them the
        // block works the same with 4 KiB pages, pinned more slowly.
        #[cfg(target_os = "linux")]
        // SAFETY: advice on the mapping made above, which changes no contents.
        unsafe {
            libc::madvise(pointer, mapped, libc::MADV_HUGEPAGE)
        };
        // Fault the pages in on all cores (the kernel zeroes each in the thread that touches it)
        // rather than in the driver's one thread as it pins them.
        block.mapping_mut().par_chunks_mut(HUGE_PAGE).for_each(|page| {
            page.iter_mut().step_by(4096).for_each(|byte| *byte = 0);
        });
        context.bind_to_thread().map_err(|e| GpuError::driver("cuCtxSetCurrent", e))?;
        let flags = sys::CU_MEMHOSTREGISTER_DEVICEMAP | sys::CU_MEMHOSTREGISTER_PORTABLE;
        // SAFETY: the mapping is this block's, `mapped` bytes long, and stays mapped until the
        // block is dropped, which unregisters it first.
        unsafe { sys::cuMemHostRegister_v2(pointer, mapped, flags) }
            .result()
            .map_err(|e| GpuError::driver("cuMemHostRegister", e))?;
        block.registered = true;
        Ok(block)
    }

    /// The whole mapping, padding included.
    fn mapping_mut(&mut self) -> &mut [u8] {
        // SAFETY: `address` is the start of this block's live mapping, `mapped` bytes long,
        // readable and writable, zero-initialised by the kernel; `&mut self` makes this the
        // only reference to it.
        unsafe { std::slice::from_raw_parts_mut(self.address as *mut u8, self.mapped) }
    }

    /// The address kernels read the block at, in the context current on this thread (with
    /// unified addressing, the host address itself).
    pub(crate) fn device_address(&self) -> Result<u64, GpuError> {
        self.context.bind_to_thread().map_err(|e| GpuError::driver("cuCtxSetCurrent", e))?;
        let mut device_ptr: sys::CUdeviceptr = 0;
        // SAFETY: `address` is registered with DEVICEMAP and PORTABLE for the block's life; the
        // driver writes its device address into `device_ptr`.
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
        // SAFETY: `address` is the start of this block's live mapping, at least `bytes` long,
        // zero-initialised; shared reads while `&self` lives.
        unsafe { std::slice::from_raw_parts(self.address as *const u8, self.bytes) }
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        let bytes = self.bytes;
        &mut self.mapping_mut()[..bytes]
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Drop for PinnedBlock {
    fn drop(&mut self) {
        if self.registered {
            // From whatever thread drops the graph: the context is made current for the driver.
            let _ = self.context.bind_to_thread();
            // SAFETY: registered in `allocate`; nothing reads the block any more (its owners
            // are gone), and the device's copies out of it were waited for by their placements.
            let _ = unsafe { sys::cuMemHostUnregister(self.address as *mut std::ffi::c_void) };
        }
        // SAFETY: the mapping made in `allocate`, unregistered above, referenced by nothing.
        unsafe { libc::munmap(self.address as *mut std::ffi::c_void, self.mapped) };
        if let Some(live) = &self.live {
            live.fetch_sub(1, Ordering::SeqCst);
        }
    }
}
