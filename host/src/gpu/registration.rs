//! Zero-copy placement of arrays that already exist: the host pages holding an array are
//! registered with the driver (`cuMemHostRegister`, mapped into the device's address space)
//! instead of allocating fresh pinned memory and copying into it (Moschou 2026, section 2.2
//! reads lists over the bus; bench/NOTES.md 50 found the fresh allocation, not the copy, to
//! dominate placement).
//!
//! Registration pins whole pages, so each array registers the page-aligned range covering it.
//! Two arrays may share a page (small arrays, or one ending where the next begins), and the
//! driver refuses to register a page twice: a process-wide registry keeps every registered
//! range with a count of the arrays using it, registers only the pages no range covers yet,
//! and unregisters a range when the last array using it lets go.
//!
//! The registry knows nothing of lifetimes: whoever holds a [`Registration`] guarantees that
//! the array stays allocated and unmoved until it is dropped ([`crate::gpu::DeviceGraph`]
//! borrows the caller's graph, or owns the engine's arrays, for that long).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use cudarc::driver::{sys, CudaContext};

use crate::gpu::GpuError;

/// Granularity of registration: the host's page. 4 KiB pages are what x86-64 Linux gives an
/// allocation; a host with larger pages still works, as the driver rounds to its own pages
/// and a refused overlap falls back to the copy ([`ZeroCopyMode`]).
pub const PAGE_BYTES: usize = 4096;

/// How zero-copy placement puts an array in host memory the device can read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZeroCopyMode {
    /// Registers the pages the array already occupies: nothing allocated, nothing copied.
    Register,
    /// Allocates fresh pinned mapped memory (`cuMemHostAlloc`) and copies the array into it.
    Copy,
}

impl ZeroCopyMode {
    /// `WARPATH_ZERO_COPY` (`register` or `copy`), else the default.
    pub fn from_env() -> ZeroCopyMode {
        match std::env::var("WARPATH_ZERO_COPY").as_deref() {
            Ok("copy") => ZeroCopyMode::Copy,
            Ok("register") => ZeroCopyMode::Register,
            _ => ZeroCopyMode::DEFAULT,
        }
    }

    /// Register, which pinned existing pages about five times faster than allocating pinned
    /// memory on an H100 (bench/NOTES.md 50).
    pub const DEFAULT: ZeroCopyMode = ZeroCopyMode::Register;
}

impl std::fmt::Display for ZeroCopyMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ZeroCopyMode::Register => "register",
            ZeroCopyMode::Copy => "copy",
        })
    }
}

/// One range registered with the driver: its end, how many [`Registration`]s use it, and the
/// context it was registered in (made current again to unregister it).
struct RegisteredRange {
    end: usize,
    users: usize,
    context: Arc<CudaContext>,
}

/// Every range registered by this process, by start address; the ranges never overlap.
static REGISTERED: Mutex<BTreeMap<usize, RegisteredRange>> = Mutex::new(BTreeMap::new());

/// An array's pages, registered and mapped for as long as this lives; the device address of
/// the array's first byte.
pub(crate) struct Registration {
    /// Starts of the registered ranges this array uses.
    ranges: Vec<usize>,
    host_address: usize,
    device_ptr: sys::CUdeviceptr,
}

impl Registration {
    /// Registers the pages covering `bytes` bytes at `address` (not zero bytes), mapped into
    /// the device's address space. The caller keeps the memory allocated and unmoved until
    /// the registration is dropped.
    pub(crate) fn new(context: &Arc<CudaContext>, address: usize, bytes: usize) -> Result<Registration, GpuError> {
        assert!(bytes > 0, "registering an empty array");
        context.bind_to_thread().map_err(|e| GpuError::driver("cuCtxSetCurrent", e))?;
        let start = address / PAGE_BYTES * PAGE_BYTES;
        let end = (address + bytes).div_ceil(PAGE_BYTES) * PAGE_BYTES;
        let mut registered = REGISTERED.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // Ranges already registered that overlap [start, end), in address order.
        let mut overlapping: Vec<usize> =
            registered.range(..end).rev().take_while(|(_, range)| range.end > start).map(|(&s, _)| s).collect();
        overlapping.reverse();
        let mut gaps = Vec::new();
        let mut cursor = start;
        for &range_start in &overlapping {
            if range_start > cursor {
                gaps.push((cursor, range_start));
            }
            cursor = cursor.max(registered[&range_start].end);
        }
        if cursor < end {
            gaps.push((cursor, end));
        }
        let mut newly = Vec::with_capacity(gaps.len());
        for &(gap_start, gap_end) in &gaps {
            // SAFETY: the pages [gap_start, gap_end) hold (part of) the caller's live array or
            // the allocator's slack around it, which the registration only pins and maps: the
            // driver writes nothing there, and the caller keeps the memory allocated until the
            // registration is dropped, which unregisters it. No registered range covers them.
            let result = unsafe {
                sys::cuMemHostRegister_v2(
                    gap_start as *mut std::ffi::c_void,
                    gap_end - gap_start,
                    sys::CU_MEMHOSTREGISTER_DEVICEMAP | sys::CU_MEMHOSTREGISTER_PORTABLE,
                )
            }
            .result();
            if let Err(err) = result {
                for &(undo, _) in &newly {
                    unregister(undo);
                }
                return Err(GpuError::Driver {
                    call: "cuMemHostRegister",
                    detail: format!("registering {} bytes of host memory: {err:?}", gap_end - gap_start),
                });
            }
            newly.push((gap_start, gap_end));
        }
        for &range_start in &overlapping {
            registered.get_mut(&range_start).expect("found above").users += 1;
        }
        for &(gap_start, gap_end) in &newly {
            registered.insert(gap_start, RegisteredRange { end: gap_end, users: 1, context: context.clone() });
        }
        let mut ranges = overlapping;
        ranges.extend(newly.iter().map(|&(s, _)| s));
        let mut registration = Registration { ranges, host_address: address, device_ptr: 0 };
        drop(registered);
        // The device sees the array contiguously only if the ranges it spans map to
        // contiguous device addresses (they do where the device uses host addresses as they
        // are; elsewhere an array over several registrations may not be).
        let first = device_pointer(address)?;
        let last = device_pointer(address + bytes - 1)?;
        if last - first != (bytes - 1) as u64 {
            return Err(GpuError::Unsupported(format!(
                "registered host memory of {bytes} bytes is not contiguous in the device's address space"
            )));
        }
        registration.device_ptr = first;
        Ok(registration)
    }

    /// The device address of the array's first byte.
    pub(crate) fn device_ptr(&self) -> sys::CUdeviceptr {
        self.device_ptr
    }

    /// The host address of the array's first byte.
    pub(crate) fn host_address(&self) -> usize {
        self.host_address
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        let mut registered = REGISTERED.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        for start in &self.ranges {
            let range = registered.get_mut(start).expect("a registration's ranges stay registered while it lives");
            range.users -= 1;
            if range.users == 0 {
                let range = registered.remove(start).expect("present above");
                // A drop cannot report failure; an unregistration that fails leaves pages
                // pinned, which the process's exit undoes.
                if range.context.bind_to_thread().is_ok() {
                    unregister(*start);
                }
            }
        }
    }
}

/// Undoes the registration of the range starting at `start`.
fn unregister(start: usize) {
    // SAFETY: `start` begins a range this module registered, which nothing uses any more (its
    // user count reached zero, or it was registered by a call that failed before handing it out).
    let _ = unsafe { sys::cuMemHostUnregister(start as *mut std::ffi::c_void) };
}

/// The device address of a host address inside a registered range.
fn device_pointer(address: usize) -> Result<sys::CUdeviceptr, GpuError> {
    let mut device_ptr: sys::CUdeviceptr = 0;
    // SAFETY: `address` lies inside a range registered with CU_MEMHOSTREGISTER_DEVICEMAP;
    // the driver writes the device address of it into a live local.
    unsafe { sys::cuMemHostGetDevicePointer_v2(&mut device_ptr, address as *mut std::ffi::c_void, 0) }
        .result()
        .map_err(|e| GpuError::driver("cuMemHostGetDevicePointer", e))?;
    Ok(device_ptr)
}
