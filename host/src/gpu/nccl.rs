//! What the NCCL communicator (`multi::nccl`, feature `nccl`) needs of the runtime: whether
//! the library loads, how many devices there are, and [`NcclComm`], the communicator's calls
//! (cudarc's result layer, under a lock that an abort from another thread takes). cudarc loads libnccl at run time under
//! the names of `cudarc::get_lib_name_candidates("nccl")` (`libnccl.so`, `libnccl.so.12`, ...
//! but not `libnccl.so.2`, the name NCCL's own packages and PyTorch's wheel ship;
//! `scripts/nccl-link` makes the `libnccl.so` link).

use std::mem::MaybeUninit;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use cudarc::driver::{CudaContext, CudaStream, DevicePtr, DevicePtrMut};
use cudarc::nccl::{result, sys, Id, NcclType};

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

/// A communicator handle that NCCL's calls may take from any thread, one call at a time.
struct RawComm(sys::ncclComm_t);

// SAFETY: an NCCL communicator is not tied to the thread that made it; `Shared`'s mutex lets
// one thread at a time call NCCL with it, and whoever takes it out of the mutex (an abort, the
// drop) is the last to use it.
unsafe impl Send for RawComm {}

struct Shared {
    /// `None` once aborted.
    comm: Mutex<Option<RawComm>>,
    rank: usize,
    world: usize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Option<RawComm>> {
        self.comm.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// One rank of an NCCL communicator, its collectives queued on one stream. cudarc's own
/// `Comm` keeps its handle to itself; this one can be aborted from any thread
/// ([`CommAbort`]): what a rank does when a peer failed, so that its own collectives, which
/// wait for that peer, end instead of waiting for ever.
pub struct NcclComm {
    shared: Arc<Shared>,
    stream: Arc<CudaStream>,
}

/// Aborts an [`NcclComm`] from any thread: NCCL ends its kernels still running, and every later
/// call on the communicator fails.
#[derive(Clone)]
pub struct CommAbort(Arc<Shared>);

impl CommAbort {
    /// Aborts the communicator unless it was already; returns whether it was aborted within
    /// `patience`. NCCL raises its abort flag first, which ends its kernels, then closes its
    /// connections, which can wait for ever on a peer that is alive but stopped (a process
    /// under SIGSTOP, a hung host): the abort runs on a thread of its own, and after `patience`
    /// the caller goes on without it. Waits for a call another thread is making on the
    /// communicator to return first.
    pub fn abort(&self, patience: Duration) -> bool {
        // Out of the mutex before NCCL is called: a drop or another abort then finds nothing
        // to do instead of waiting for this one.
        let Some(raw) = self.0.lock().take() else { return false };
        let (done, finished) = std::sync::mpsc::channel();
        let aborting = std::thread::Builder::new().name("warpath-nccl-abort".into()).spawn(move || {
            // The whole handle moves here (a closure would take only its pointer, not `Send`).
            let raw = raw;
            // SAFETY: `raw` came out of the mutex, so no other call uses it now or later.
            let _ = unsafe { result::comm_abort(raw.0) };
            let _ = done.send(());
        });
        aborting.is_ok() && finished.recv_timeout(patience).is_ok()
    }
}

/// How long a rank waits for NCCL's abort of its communicator before it goes on
/// ([`CommAbort::abort`]).
pub const ABORT_PATIENCE: Duration = Duration::from_secs(5);

/// NCCL's reductions that warpath uses.
#[derive(Clone, Copy, Debug)]
pub enum NcclReduce {
    Sum,
    Max,
}

fn nccl_error(call: &'static str, err: result::NcclError) -> GpuError {
    GpuError::Driver { call, detail: format!("{:?}", err.0) }
}

impl NcclComm {
    /// Joins rank `rank` of `world` on the communicator of `id`, its collectives on `stream`;
    /// returns once all `world` ranks have joined.
    pub fn join(stream: Arc<CudaStream>, rank: usize, world: usize, id: &Id) -> Result<NcclComm, GpuError> {
        let too_many = |_| GpuError::Driver { call: "ncclCommInitRank", detail: format!("{world} ranks are too many") };
        let (ranks, me) = (i32::try_from(world).map_err(too_many)?, i32::try_from(rank).map_err(too_many)?);
        let unique = sys::ncclUniqueId { internal: *id.internal() };
        let mut comm = MaybeUninit::uninit();
        // SAFETY: NCCL writes the handle before returning success; `unique` is a whole id.
        unsafe { result::comm_init_rank(comm.as_mut_ptr(), ranks, unique, me) }
            .map_err(|e| nccl_error("ncclCommInitRank", e))?;
        // SAFETY: written by the successful call above.
        let comm = unsafe { comm.assume_init() };
        let shared = Shared { comm: Mutex::new(Some(RawComm(comm))), rank, world };
        Ok(NcclComm { shared: Arc::new(shared), stream })
    }

    pub fn rank(&self) -> usize {
        self.shared.rank
    }

    pub fn world_size(&self) -> usize {
        self.shared.world
    }

    /// The stream the collectives are queued on.
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// What aborts this communicator from another thread.
    pub fn abort_handle(&self) -> CommAbort {
        CommAbort(Arc::clone(&self.shared))
    }

    /// `call` with the communicator's handle and the stream's, unless it was aborted.
    fn with_comm(
        &self,
        call: &'static str,
        f: impl FnOnce(sys::ncclComm_t, sys::cudaStream_t) -> Result<result::NcclStatus, result::NcclError>,
    ) -> Result<(), GpuError> {
        let guard = self.shared.lock();
        let Some(raw) = guard.as_ref() else {
            return Err(GpuError::Driver { call, detail: "the communicator was aborted".into() });
        };
        f(raw.0, self.stream.cu_stream() as sys::cudaStream_t).map(drop).map_err(|e| nccl_error(call, e))
    }

    /// Every rank's `send`, in rank order, into `receive` (`world` times as long).
    pub fn all_gather<T: NcclType>(
        &self,
        send: &impl DevicePtr<T>,
        receive: &mut impl DevicePtrMut<T>,
    ) -> Result<(), GpuError> {
        let count = send.len();
        if receive.len() != count * self.shared.world {
            return Err(GpuError::Contract {
                kernel: "ncclAllGather",
                problem: format!(
                    "{count} elements a rank gathered into {} on {} ranks",
                    receive.len(),
                    self.shared.world
                ),
            });
        }
        let (from, _read) = send.device_ptr(&self.stream);
        let (to, _written) = receive.device_ptr_mut(&self.stream);
        self.with_comm("ncclAllGather", |comm, stream| {
            // SAFETY: both pointers are live device buffers of the lengths checked above, kept
            // alive by their owners' borrows until the call has queued the collective.
            unsafe { result::all_gather(from as _, to as _, count, T::as_nccl_type(), comm, stream) }
        })
    }

    /// Every rank's `send` reduced by `op` into `receive`, of the same length.
    pub fn all_reduce<T: NcclType>(
        &self,
        send: &impl DevicePtr<T>,
        receive: &mut impl DevicePtrMut<T>,
        op: NcclReduce,
    ) -> Result<(), GpuError> {
        let count = send.len();
        if receive.len() != count {
            return Err(GpuError::Contract {
                kernel: "ncclAllReduce",
                problem: format!("{count} elements reduced into {}", receive.len()),
            });
        }
        let (from, _read) = send.device_ptr(&self.stream);
        let (to, _written) = receive.device_ptr_mut(&self.stream);
        self.reduce(from, to, count, T::as_nccl_type(), op)
    }

    /// [`all_reduce`](Self::all_reduce) with `buffer` as both.
    pub fn all_reduce_in_place<T: NcclType>(
        &self,
        buffer: &mut impl DevicePtrMut<T>,
        op: NcclReduce,
    ) -> Result<(), GpuError> {
        let count = buffer.len();
        let (at, _written) = buffer.device_ptr_mut(&self.stream);
        self.reduce(at, at, count, T::as_nccl_type(), op)
    }

    fn reduce(
        &self,
        from: u64,
        to: u64,
        count: usize,
        kind: sys::ncclDataType_t,
        op: NcclReduce,
    ) -> Result<(), GpuError> {
        let op = match op {
            NcclReduce::Sum => sys::ncclRedOp_t::ncclSum,
            NcclReduce::Max => sys::ncclRedOp_t::ncclMax,
        };
        self.with_comm("ncclAllReduce", |comm, stream| {
            // SAFETY: the callers hand pointers to live device buffers of `count` elements,
            // borrowed until the collective is queued.
            unsafe { result::all_reduce(from as _, to as _, count, kind, op, comm, stream) }
        })
    }

    /// Sends and receives between pairs of ranks, all queued as one group (`ncclGroupStart`
    /// .. `ncclGroupEnd`), which NCCL schedules together: what `queue` adds to the [`P2pGroup`].
    pub fn group(&self, queue: impl FnOnce(&mut P2pGroup<'_>) -> Result<(), GpuError>) -> Result<(), GpuError> {
        let guard = self.shared.lock();
        let Some(raw) = guard.as_ref() else {
            return Err(GpuError::Driver { call: "ncclGroupStart", detail: "the communicator was aborted".into() });
        };
        result::group_start().map_err(|e| nccl_error("ncclGroupStart", e))?;
        let mut group = P2pGroup { comm: raw.0, stream: &self.stream };
        let queued = queue(&mut group);
        // The group ends even where a call in it failed: NCCL would otherwise hold the next
        // calls in the group.
        let ended = result::group_end().map(drop).map_err(|e| nccl_error("ncclGroupEnd", e));
        queued.and(ended)
    }
}

impl Drop for NcclComm {
    fn drop(&mut self) {
        // Abort rather than destroy: destroying waits for pending work, which a failed peer
        // would never finish.
        self.abort_handle().abort(ABORT_PATIENCE);
    }
}

/// The sends and receives of one [`NcclComm::group`].
pub struct P2pGroup<'g> {
    comm: sys::ncclComm_t,
    stream: &'g Arc<CudaStream>,
}

/// `peer` as NCCL numbers ranks, or `call`'s error where it cannot be one.
fn peer_number(peer: usize, call: &'static str) -> Result<i32, GpuError> {
    i32::try_from(peer).map_err(|_| nccl_error(call, result::NcclError(sys::ncclResult_t::ncclInvalidArgument)))
}

impl P2pGroup<'_> {
    /// Sends `data` to rank `peer`.
    pub fn send<T: NcclType>(&mut self, data: &impl DevicePtr<T>, peer: usize) -> Result<(), GpuError> {
        let (from, _read) = data.device_ptr(self.stream);
        let peer = peer_number(peer, "ncclSend")?;
        // SAFETY: a live device buffer of `data.len()` elements, borrowed until the group ends;
        // the handle is held under the communicator's lock by `NcclComm::group`.
        unsafe { result::send(from as _, data.len(), T::as_nccl_type(), peer, self.comm, self.stream.cu_stream() as _) }
            .map(drop)
            .map_err(|e| nccl_error("ncclSend", e))
    }

    /// Receives into `data` from rank `peer`.
    pub fn recv<T: NcclType>(&mut self, data: &mut impl DevicePtrMut<T>, peer: usize) -> Result<(), GpuError> {
        let count = data.len();
        let (to, _written) = data.device_ptr_mut(self.stream);
        let peer = peer_number(peer, "ncclRecv")?;
        // SAFETY: as for `send`.
        unsafe { result::recv(to as _, count, T::as_nccl_type(), peer, self.comm, self.stream.cu_stream() as _) }
            .map(drop)
            .map_err(|e| nccl_error("ncclRecv", e))
    }
}
