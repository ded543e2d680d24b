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

/// One range registered with the driver: its end, how many users hold it, and what undoing
/// it needs (the context to make current).
struct RegisteredRange<C> {
    end: usize,
    users: usize,
    owner: C,
}

/// Page ranges registered with the driver, by start address, never overlapping: the
/// bookkeeping of the registry, apart from the driver calls it is handed.
struct PageRanges<C> {
    ranges: BTreeMap<usize, RegisteredRange<C>>,
}

impl<C: Clone> PageRanges<C> {
    const fn new() -> Self {
        PageRanges { ranges: BTreeMap::new() }
    }

    /// Makes every page of `[start, end)` registered: counts one more user of each range
    /// already registered there and registers the gaps between them by `register` (the range
    /// given as start and end), undoing those by `unregister` if one fails. Returns the starts
    /// of the ranges the caller now uses, for [`release`](Self::release).
    fn acquire<E>(
        &mut self,
        start: usize,
        end: usize,
        owner: &C,
        mut register: impl FnMut(usize, usize) -> Result<(), E>,
        mut unregister: impl FnMut(usize),
    ) -> Result<Vec<usize>, E> {
        // Ranges already registered that overlap [start, end), in address order.
        let mut overlapping: Vec<usize> =
            self.ranges.range(..end).rev().take_while(|(_, range)| range.end > start).map(|(&s, _)| s).collect();
        overlapping.reverse();
        let mut gaps = Vec::new();
        let mut cursor = start;
        for &range_start in &overlapping {
            if range_start > cursor {
                gaps.push((cursor, range_start));
            }
            cursor = cursor.max(self.ranges[&range_start].end);
        }
        if cursor < end {
            gaps.push((cursor, end));
        }
        for (done, &(gap_start, gap_end)) in gaps.iter().enumerate() {
            if let Err(err) = register(gap_start, gap_end) {
                gaps[..done].iter().for_each(|&(undo, _)| unregister(undo));
                return Err(err);
            }
        }
        for range_start in &overlapping {
            self.ranges.get_mut(range_start).expect("found above").users += 1;
        }
        for &(gap_start, gap_end) in &gaps {
            self.ranges.insert(gap_start, RegisteredRange { end: gap_end, users: 1, owner: owner.clone() });
        }
        overlapping.extend(gaps.iter().map(|&(s, _)| s));
        Ok(overlapping)
    }

    /// Lets go of the ranges `acquire` returned; those no one uses any more are removed and
    /// returned (start and owner) for the caller to unregister.
    fn release(&mut self, starts: &[usize]) -> Vec<(usize, C)> {
        let mut unused = Vec::new();
        for start in starts {
            let range = self.ranges.get_mut(start).expect("a user's ranges stay registered while it holds them");
            range.users -= 1;
            if range.users == 0 {
                let range = self.ranges.remove(start).expect("present above");
                unused.push((*start, range.owner));
            }
        }
        unused
    }
}

/// Every range registered by this process.
static REGISTERED: Mutex<PageRanges<Arc<CudaContext>>> = Mutex::new(PageRanges::new());

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
        let register = |gap_start: usize, gap_end: usize| {
            // SAFETY: the pages [gap_start, gap_end) hold (part of) the caller's live array or
            // the allocator's slack around it, which the registration only pins and maps: the
            // driver writes nothing there, and the caller keeps the memory allocated until the
            // registration is dropped, which unregisters it. No registered range covers them.
            unsafe {
                sys::cuMemHostRegister_v2(
                    gap_start as *mut std::ffi::c_void,
                    gap_end - gap_start,
                    sys::CU_MEMHOSTREGISTER_DEVICEMAP | sys::CU_MEMHOSTREGISTER_PORTABLE,
                )
            }
            .result()
            .map_err(|err| GpuError::Driver {
                call: "cuMemHostRegister",
                detail: format!("registering {} bytes of host memory: {err:?}", gap_end - gap_start),
            })
        };
        let ranges = REGISTERED
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .acquire(start, end, context, register, unregister)?;
        // Dropped on the error paths below, which lets go of the ranges again.
        let mut registration = Registration { ranges, host_address: address, device_ptr: 0 };
        // The device sees the array contiguously only if the ranges it spans map to
        // contiguous device addresses (they do where the device uses host addresses as they
        // are; elsewhere an array over several registrations may not be).
        let first = device_pointer(address)?;
        let last = device_pointer(address + bytes - 1)?;
        if last.wrapping_sub(first) != (bytes - 1) as u64 {
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
        let unused = REGISTERED.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).release(&self.ranges);
        for (start, context) in unused {
            // A drop cannot report failure; an unregistration that fails leaves pages pinned,
            // which the process's exit undoes.
            if context.bind_to_thread().is_ok() {
                unregister(start);
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// A stand-in for the driver: the pages registered now, refusing any page twice (as
    /// `cuMemHostRegister` does) and any unregistration of a range it does not hold.
    #[derive(Default)]
    struct Driver {
        pages: BTreeSet<usize>,
        /// Registered ranges: start and end.
        ranges: BTreeMap<usize, usize>,
        /// Registration fails for any range containing this page.
        refuse: Option<usize>,
    }

    impl Driver {
        fn register(&mut self, start: usize, end: usize) -> Result<(), String> {
            assert!(start < end && start % PAGE_BYTES == 0 && end % PAGE_BYTES == 0);
            let pages: Vec<usize> = (start..end).step_by(PAGE_BYTES).collect();
            if pages.iter().any(|page| self.pages.contains(page) || self.refuse == Some(*page)) {
                return Err(format!("pages of {start:#x}..{end:#x} already registered or refused"));
            }
            self.pages.extend(pages);
            self.ranges.insert(start, end);
            Ok(())
        }

        fn unregister(&mut self, start: usize) {
            let end = self.ranges.remove(&start).expect("unregistering a range that is not registered");
            (start..end).step_by(PAGE_BYTES).for_each(|page| assert!(self.pages.remove(&page)));
        }
    }

    fn acquire(
        ranges: &mut PageRanges<()>,
        driver: &mut std::cell::RefCell<Driver>,
        address: usize,
        bytes: usize,
    ) -> Result<Vec<usize>, String> {
        let start = address / PAGE_BYTES * PAGE_BYTES;
        let end = (address + bytes).div_ceil(PAGE_BYTES) * PAGE_BYTES;
        let driver = &*driver;
        ranges.acquire(
            start,
            end,
            &(),
            |s, e| driver.borrow_mut().register(s, e),
            |s| driver.borrow_mut().unregister(s),
        )
    }

    fn release(ranges: &mut PageRanges<()>, driver: &mut std::cell::RefCell<Driver>, held: &[usize]) {
        for (start, ()) in ranges.release(held) {
            driver.get_mut().unregister(start);
        }
    }

    #[test]
    fn arrays_sharing_pages_register_each_page_once_and_unregister_with_the_last_user() {
        let mut ranges = PageRanges::new();
        let mut driver = std::cell::RefCell::new(Driver::default());
        let page = PAGE_BYTES;
        // Two small arrays in one page, a third ending in the next page, one spanning three
        // pages over all of them, and the first again.
        let a = acquire(&mut ranges, &mut driver, 10 * page + 16, 100).unwrap();
        let b = acquire(&mut ranges, &mut driver, 10 * page + 200, 64).unwrap();
        let c = acquire(&mut ranges, &mut driver, 10 * page + 3000, 2000).unwrap();
        let d = acquire(&mut ranges, &mut driver, 9 * page + 8, 3 * page).unwrap();
        let a_again = acquire(&mut ranges, &mut driver, 10 * page + 16, 100).unwrap();
        assert_eq!(driver.get_mut().pages, (9..=12).map(|p| p * page).collect());
        assert_eq!(a, b);
        assert_eq!(c.len(), 2, "the shared page and the next one: {c:?}");
        assert_eq!(d.len(), 4, "pages 9, 10, 11 and 12 in four ranges: {d:?}");
        // Every page stays registered while anyone holds it.
        for held in [&a, &c, &a_again] {
            release(&mut ranges, &mut driver, held);
        }
        assert_eq!(driver.get_mut().pages, (9..=12).map(|p| p * page).collect());
        release(&mut ranges, &mut driver, &d);
        assert_eq!(driver.get_mut().pages, (10..=10).map(|p| p * page).collect(), "b still holds page 10");
        release(&mut ranges, &mut driver, &b);
        assert!(driver.get_mut().pages.is_empty() && ranges.ranges.is_empty());
    }

    #[test]
    fn a_refused_registration_undoes_the_gaps_it_registered() {
        let mut ranges = PageRanges::new();
        let mut driver = std::cell::RefCell::new(Driver::default());
        let page = PAGE_BYTES;
        let middle = acquire(&mut ranges, &mut driver, 21 * page, page).unwrap();
        driver.get_mut().refuse = Some(22 * page);
        // Gaps: page 20 (registered, then undone), page 22 (refused).
        assert!(acquire(&mut ranges, &mut driver, 20 * page + 1, 2 * page + 100).is_err());
        assert_eq!(driver.get_mut().pages, [21 * page].into_iter().collect());
        assert_eq!(ranges.ranges[&(21 * page)].users, 1, "the refused array holds nothing");
        release(&mut ranges, &mut driver, &middle);
        assert!(driver.get_mut().pages.is_empty());
    }
}
