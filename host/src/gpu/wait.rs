//! Waits on a stream that someone may call off: [`StreamWaiter`] and the [`WaitWatch`] it asks.
//!
//! A rank of the partitioned algorithms waits on its stream for work that includes collectives,
//! and a collective waits for every rank. Where another rank failed or its process died, that
//! wait would last for ever (NCCL has no timeout of its own). A context given a watch
//! ([`GpuContext::watch_waits`](crate::gpu::GpuContext::watch_waits)) waits by polling an event
//! instead, asking the watch now and then whether to go on; the watch may stop the wait, after
//! doing what unblocks the device (aborting the communicator). Without a watch a wait is the
//! driver's own blocking one, as on one GPU.

use std::sync::{Arc, PoisonError, RwLock};
use std::time::{Duration, Instant};

use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::{CudaContext, CudaEvent, CudaStream, DevicePtr, DeviceRepr, HostSlice};

use crate::gpu::GpuError;

/// What a watched wait asks whether to go on (implemented where ranks know of each other,
/// `multi::watch`).
pub trait WaitWatch: Send + Sync {
    /// Asked about every [`CHECK_EVERY`] while a wait lasts (`done` false) and once as it ends
    /// (`done` true, so that work a stopped peer let finish early is not taken for a result).
    /// `Err(why)` stops the wait: it returns [`GpuError::Stopped`] with `why`.
    fn check(&self, waited: Duration, done: bool) -> Result<(), String>;
}

/// How often a watched wait asks its watch.
const CHECK_EVERY: Duration = Duration::from_millis(1);

/// Spinning on the event stops after this long: from then on the waiting thread yields between
/// polls (the waits of a level are shorter; a longer one is waiting for something slow).
const SPIN_FOR: Duration = Duration::from_millis(1);

/// Waits for the work queued on one stream (a context's: [`GpuContext::waiter`](crate::gpu::GpuContext::waiter)),
/// watched once a watch is set. Clones share the watch.
#[derive(Clone)]
pub struct StreamWaiter {
    shared: Arc<Waiting>,
}

struct Waiting {
    stream: Arc<CudaStream>,
    /// The watch and the event a watched wait records and polls.
    watched: RwLock<Option<(Arc<dyn WaitWatch>, CudaEvent)>>,
}

impl StreamWaiter {
    pub(crate) fn new(stream: Arc<CudaStream>) -> StreamWaiter {
        StreamWaiter { shared: Arc::new(Waiting { stream, watched: RwLock::new(None) }) }
    }

    /// From now on, every wait asks `watch` (replacing any earlier one).
    pub(crate) fn set_watch(&self, context: &Arc<CudaContext>, watch: Arc<dyn WaitWatch>) -> Result<(), GpuError> {
        let event = context
            .new_event(Some(CUevent_flags::CU_EVENT_DISABLE_TIMING))
            .map_err(|e| GpuError::driver("cuEventCreate", e))?;
        *self.shared.watched.write().unwrap_or_else(PoisonError::into_inner) = Some((watch, event));
        Ok(())
    }

    /// Whether waits are watched.
    fn is_watched(&self) -> bool {
        self.shared.watched.read().unwrap_or_else(PoisonError::into_inner).is_some()
    }

    /// Waits for all work queued on the stream so far; a kernel that faulted reports here, and
    /// a watch that calls the wait off ([`WaitWatch::check`]) stops it with
    /// [`GpuError::Stopped`].
    pub fn wait(&self) -> Result<(), GpuError> {
        let watched = self.shared.watched.read().unwrap_or_else(PoisonError::into_inner);
        let Some((watch, event)) = watched.as_ref() else {
            return self
                .shared
                .stream
                .synchronize()
                .map_err(|e| GpuError::driver("cuStreamSynchronize (a kernel faulted)", e));
        };
        event.record(&self.shared.stream).map_err(|e| GpuError::driver("cuEventRecord", e))?;
        let started = Instant::now();
        let mut next_check = CHECK_EVERY;
        loop {
            if event.try_is_complete().map_err(|e| GpuError::driver("cuEventQuery (a kernel faulted)", e))? {
                return watch.check(started.elapsed(), true).map_err(GpuError::Stopped);
            }
            let waited = started.elapsed();
            if waited >= next_check {
                watch.check(waited, false).map_err(GpuError::Stopped)?;
                next_check = waited + CHECK_EVERY;
            }
            if waited < SPIN_FOR {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }

    /// [`wait`](Self::wait) where waits are watched, nothing otherwise: before a copy into
    /// pageable host memory, which the driver makes wait for the stream without asking anyone.
    fn wait_if_watched(&self) -> Result<(), GpuError> {
        if self.is_watched() {
            self.wait()
        } else {
            Ok(())
        }
    }

    /// Copies `device` into `host` (pageable memory at least as long), after the work queued
    /// before it: where waits are watched, that work is waited for by a watched wait first.
    pub fn copy_to_host<T: DeviceRepr, S: DevicePtr<T>, H: HostSlice<T> + ?Sized>(
        &self,
        device: &S,
        host: &mut H,
    ) -> Result<(), GpuError> {
        self.wait_if_watched()?;
        self.shared.stream.memcpy_dtoh(device, host).map_err(|e| GpuError::driver("cuMemcpyDtoH", e))
    }

    /// [`copy_to_host`](Self::copy_to_host) into a new vector.
    pub fn clone_to_host<T: DeviceRepr, S: DevicePtr<T>>(&self, device: &S) -> Result<Vec<T>, GpuError> {
        self.wait_if_watched()?;
        self.shared.stream.clone_dtoh(device).map_err(|e| GpuError::driver("cuMemcpyDtoH", e))
    }
}
