//! Making the GPU context while the graph loads: creating a context (the driver's start, the
//! kernels' module, the pinned staging buffers of large uploads, the device allocator's pool)
//! costs a few hundred milliseconds that owe nothing to the graph, so a program that will place
//! a graph on the GPU starts one on a thread of its own before it reads the file
//! ([`EarlyGpu::start`]) and hands it to the placement in its
//! [`PlacementOptions`](super::PlacementOptions); the placement ([`super::prepare`]) takes the
//! context made instead of making one. It is passed, not kept in a global: two programs in one
//! process, or two tests, never take each other's.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::gpu::{GpuContext, GpuError};

type Making = JoinHandle<Result<GpuContext, GpuError>>;

/// A GPU context being made on a thread of its own, or none ([`EarlyGpu::default`]). Clones
/// share it: the first placement that takes it gets the context (or the error its making met);
/// later ones make their own. When the last clone is dropped with the context untaken (the
/// command failed, or ran on the CPU), the drop waits for the thread: a process must not exit
/// while a thread is still inside the driver's start.
#[derive(Clone, Default)]
pub struct EarlyGpu {
    making: Option<Arc<Slot>>,
}

/// The thread making the context, until a placement takes it.
struct Slot(Mutex<Option<Making>>);

impl EarlyGpu {
    /// Starts making the GPU context, ready for uploads. Without a usable GPU the thread ends
    /// with the error a placement would have met, and the placement meets it then (falling
    /// back to the CPU under `Backend::Auto`, as without an early start).
    pub fn start() -> EarlyGpu {
        let making = std::thread::spawn(|| {
            let gpu = GpuContext::new()?;
            gpu.prepare_uploads()?;
            Ok(gpu)
        });
        EarlyGpu { making: Some(Arc::new(Slot(Mutex::new(Some(making))))) }
    }

    /// Whether a context was started here (taken or not).
    pub fn started(&self) -> bool {
        self.making.is_some()
    }

    /// The context made (or the error met), waiting for it if need be; `None` when none was
    /// started or a placement took it already.
    pub(crate) fn take(&self) -> Option<Result<GpuContext, GpuError>> {
        let handle = self.making.as_ref()?.take()?;
        Some(handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    }
}

impl Slot {
    fn take(&self) -> Option<Making> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take()
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(handle) = self.take() {
            // Its context (or error) is dropped with it; a panic there has nothing to report to.
            let _ = handle.join();
        }
    }
}

/// Options holding the same start (or none) are equal.
impl PartialEq for EarlyGpu {
    fn eq(&self, other: &EarlyGpu) -> bool {
        match (&self.making, &other.making) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Eq for EarlyGpu {}

impl fmt::Debug for EarlyGpu {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EarlyGpu").field("started", &self.started()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_is_taken_once_by_whoever_holds_it_and_by_no_one_else() {
        let none = EarlyGpu::default();
        assert!(!none.started());
        assert!(none.take().is_none());
        assert_eq!(none, EarlyGpu::default());

        let started = EarlyGpu::start();
        let shared = started.clone();
        assert!(started.started() && shared.started());
        assert_eq!(started, shared);
        assert_ne!(started, none);
        // Another start is its own: taking it leaves the first one's context in place.
        let other = EarlyGpu::start();
        assert_ne!(started, other);
        assert!(other.take().is_some());
        // The context where a GPU is usable, the error a placement would meet where none is.
        assert!(shared.take().is_some());
        assert!(started.take().is_none(), "taken once, through either clone");
    }
}
