use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cudarc::driver::sys::CUdevice_attribute;
use cudarc::driver::{
    sys, CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, CudaView, DevicePtr, DevicePtrMut, DeviceRepr,
    PinnedHostSlice, ValidAsZeroBits,
};
use cudarc::nvrtc::Ptx;

use rayon::prelude::*;

use crate::gpu::launch::{grid_for, require, time_on_device, Launch, Residency};
use crate::gpu::pinned::PinnedBlock;
use crate::gpu::ptx::{self, KernelForm, LoadedKernels};
use crate::gpu::staging::{copy_registered, Staging, UploadPath, STAGED_MIN_BYTES};
use crate::gpu::wait::{StreamWaiter, WaitWatch};
use crate::gpu::GpuError;
use crate::graph::heads::HEAD_NEIGHBORS;
use crate::graph::{CompressedGraph, Graph, HostArray, HostBlock, ListHeads, WeightKind, Weights};
use warpath_interface::compressed::{RESTART_EDGES, RESTART_MIN_EDGES};
use warpath_interface::graph::{GraphListHeadsParams, GRAPH_BLOCK};
use warpath_interface::{names, DeviceAddress};

/// Loads the kernel module: the file `form` names, as it is, or else the cubin matching
/// `compute_capability` or the PTX ([`load_cubin_or_ptx`]; the PTX when `form` asks for it).
fn load_kernels(
    context: &Arc<CudaContext>,
    form: KernelForm,
    compute_capability: (i32, i32),
) -> Result<(Arc<CudaModule>, LoadedKernels), GpuError> {
    if let KernelForm::File(path) = &form {
        return Ok((load_module_file(context, path)?, LoadedKernels::File));
    }
    load_cubin_or_ptx(context, &ptx::CUBINS, ptx::PTX, compute_capability, form == KernelForm::Ptx)
}

/// The module in the file at `path`: a cubin (an ELF image) or PTX text.
fn load_module_file(context: &Arc<CudaContext>, path: &std::path::Path) -> Result<Arc<CudaModule>, GpuError> {
    let failed = |detail: String| GpuError::ModuleLoad { detail: format!("{}: {detail}", path.display()) };
    let bytes = std::fs::read(path).map_err(|e| failed(e.to_string()))?;
    let module = if bytes.starts_with(b"\x7fELF") {
        Ptx::from_binary(bytes)
    } else {
        Ptx::from_src(String::from_utf8(bytes).map_err(|_| failed("neither a cubin nor PTX text".into()))?)
    };
    context.load_module(module).map_err(|e| failed(e.to_string()))
}

/// The module whose PTX is `ptx`: the one of its `cubins` matching `compute_capability` unless
/// `jit`, and the PTX where none matches or the driver refuses the cubin (a driver older than
/// the ptxas that made it), so that a cubin can only ever save time.
fn load_cubin_or_ptx(
    context: &Arc<CudaContext>,
    cubins: &[ptx::Cubin],
    ptx: &'static str,
    compute_capability: (i32, i32),
    jit: bool,
) -> Result<(Arc<CudaModule>, LoadedKernels), GpuError> {
    if !jit {
        if let Some(cubin) = ptx::matching_cubin(cubins, compute_capability) {
            if let Ok(module) = context.load_module(Ptx::from_binary(cubin.image.to_vec())) {
                return Ok((module, LoadedKernels::Cubin { major: cubin.major, minor: cubin.minor }));
            }
        }
    }
    let module =
        context.load_module(Ptx::from_src(ptx)).map_err(|e| GpuError::ModuleLoad { detail: format!("{e}") })?;
    Ok((module, LoadedKernels::Ptx))
}

/// Loads the Hopper module ([`ptx::HOPPER_PTX`]): the file `WARPATH_HOPPER_KERNELS` names (a
/// cubin or PTX, for trying a change to a cluster kernel without rebuilding warpath, as
/// `WARPATH_KERNELS` for the other module), else its sm_90 cubin where the device matches and
/// `jit` is false, else the PTX. An [`GpuError::Unsupported`] below compute capability 9.0.
fn load_hopper_kernels(
    context: &Arc<CudaContext>,
    compute_capability: (i32, i32),
    jit: bool,
    name: &str,
) -> Result<Arc<CudaModule>, GpuError> {
    let (major, minor) = compute_capability;
    if major < 9 {
        return Err(GpuError::Unsupported(format!(
            "{name} needs a GPU of compute capability 9.0 or newer (Hopper's thread-block clusters); this one is {major}.{minor}"
        )));
    }
    if let Some(path) = std::env::var_os("WARPATH_HOPPER_KERNELS").filter(|path| !path.is_empty()) {
        return load_module_file(context, std::path::Path::new(&path));
    }
    Ok(load_cubin_or_ptx(context, &ptx::HOPPER_CUBINS, ptx::HOPPER_PTX, compute_capability, jit)?.0)
}

/// One CUDA device with warpath's kernels loaded: the handle every GPU traversal takes.
///
/// Create it once and reuse it: creation loads the driver, makes a context and loads the
/// kernels: the cubin made at build time for the device's architecture where there is one
/// (milliseconds), else the PTX, which the driver JIT-compiles (seconds at a machine's first
/// process, then from the driver's cache).
pub struct GpuContext {
    context: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    /// A second stream, made at its first use ([`GpuContext::side_waits_for_main`]): kernels
    /// queued there ([`Launch::on_side`](crate::gpu::launch::Launch::on_side)) run beside what
    /// the first stream does meanwhile (a collective of the partitioned BFS).
    side: std::sync::OnceLock<Arc<CudaStream>>,
    /// How the host waits for `stream`: the driver's blocking wait, or a watched one
    /// ([`GpuContext::watch_waits`]).
    waiter: StreamWaiter,
    module: Arc<CudaModule>,
    /// The Hopper module, loaded at the first launch of one of its kernels (most runs need
    /// none, and its PTX would cost a JIT where no cubin matches).
    hopper: std::sync::OnceLock<Arc<CudaModule>>,
    /// Whether the kernels load as PTX even where a cubin matches (`WARPATH_JIT=1`).
    jit: bool,
    functions: Mutex<HashMap<&'static str, CudaFunction>>,
    /// Blocks of a kernel that fit on one multiprocessor, by kernel and block size: asked of
    /// the driver once ([`GpuContext::blocks_per_multiprocessor`]).
    occupancy: Mutex<HashMap<(&'static str, u32), u32>>,
    /// Pinned buffers for large host-to-device copies, allocated at the first one and kept
    /// ([`crate::gpu::staging`]).
    staging: Mutex<Option<Staging>>,
    upload_path: UploadPath,
    /// The copies made while [`GpuContext::record_copies`] runs, else `None` (nothing kept).
    copies: Mutex<Option<Vec<CopyStep>>>,
    name: String,
    multiprocessors: u32,
    compute_capability: (i32, i32),
    loaded_kernels: LoadedKernels,
}

impl GpuContext {
    /// Opens the first CUDA device.
    pub fn new() -> Result<Self, GpuError> {
        Self::with_device(0)
    }

    /// Opens CUDA device `ordinal`, loading the kernels as [`KernelForm::from_env`] says
    /// (`WARPATH_JIT=1` forces the PTX, `WARPATH_KERNELS=FILE` loads that module).
    pub fn with_device(ordinal: usize) -> Result<Self, GpuError> {
        Self::with_device_and_kernels(ordinal, KernelForm::from_env())
    }

    /// Opens CUDA device `ordinal` and loads the kernels in the form `form` asks for.
    pub fn with_device_and_kernels(ordinal: usize, form: KernelForm) -> Result<Self, GpuError> {
        // SAFETY: only tries to dlopen libcuda by its usual names; nothing is called from it.
        if !unsafe { cudarc::driver::sys::is_culib_present() } {
            return Err(GpuError::NoDriver);
        }
        let count = CudaContext::device_count().map_err(|e| GpuError::driver("cuDeviceGetCount", e))?;
        if count <= 0 {
            return Err(GpuError::NoDevice);
        }
        if ordinal >= count as usize {
            return Err(GpuError::Driver {
                call: "cuDeviceGet",
                detail: format!("device {ordinal} requested, but only {count} device(s) exist"),
            });
        }
        let context = CudaContext::new(ordinal).map_err(|e| GpuError::driver("cuCtxCreate", e))?;
        // SAFETY: warpath issues all work on the one stream below, so cudarc's cross-stream
        // event tracking is unnecessary; turning it off saves two event records per buffer per
        // launch, which matters for BFS's thousands of small per-level launches.
        unsafe { context.disable_event_tracking() };
        let stream = context.default_stream();
        let compute_capability =
            context.compute_capability().map_err(|e| GpuError::driver("cuDeviceGetAttribute", e))?;
        let jit = form == KernelForm::Ptx;
        let (module, loaded_kernels) = load_kernels(&context, form, compute_capability)?;
        let name = context.name().map_err(|e| GpuError::driver("cuDeviceGetName", e))?;
        let multiprocessors = context
            .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
            .map_err(|e| GpuError::driver("cuDeviceGetAttribute", e))? as u32;
        Ok(GpuContext {
            context,
            waiter: StreamWaiter::new(stream.clone()),
            stream,
            side: std::sync::OnceLock::new(),
            module,
            hopper: std::sync::OnceLock::new(),
            jit,
            functions: Mutex::new(HashMap::new()),
            occupancy: Mutex::new(HashMap::new()),
            staging: Mutex::new(None),
            upload_path: UploadPath::from_env(),
            copies: Mutex::new(None),
            name,
            multiprocessors,
            compute_capability,
            loaded_kernels,
        })
    }

    /// Which form of the kernels this context loaded: "cubin sm_90" or the PTX.
    pub fn loaded_kernels(&self) -> LoadedKernels {
        self.loaded_kernels
    }

    /// How large arrays are copied to the device ([`UploadPath`]; `WARPATH_UPLOAD` sets it
    /// when the context is created).
    pub fn upload_path(&self) -> UploadPath {
        self.upload_path
    }

    pub fn set_upload_path(&mut self, path: UploadPath) {
        self.upload_path = path;
    }

    /// The device's marketing name, e.g. "NVIDIA H200".
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn multiprocessors(&self) -> u32 {
        self.multiprocessors
    }

    pub fn compute_capability(&self) -> (i32, i32) {
        self.compute_capability
    }

    /// (free, total) device memory in bytes.
    pub fn memory_info(&self) -> Result<(u64, u64), GpuError> {
        let (free, total) = self.context.mem_get_info().map_err(|e| GpuError::driver("cuMemGetInfo", e))?;
        Ok((free as u64, total as u64))
    }

    /// The CUDA version the installed driver supports, as (major, minor), e.g. (12, 8), from
    /// `cuDriverGetVersion` (not the NVIDIA driver's release number, which `nvidia-smi` shows).
    pub fn driver_version(&self) -> Result<(i32, i32), GpuError> {
        let mut version: std::ffi::c_int = 0;
        // SAFETY: the driver library is loaded (this context exists), and the call writes one
        // int through a pointer to a live local.
        unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut version) }
            .result()
            .map_err(|e| GpuError::driver("cuDriverGetVersion", e))?;
        Ok((version / 1000, version % 1000 / 10))
    }

    /// Fails with [`GpuError::OutOfMemory`] unless `bytes` are free, so a traversal can refuse
    /// up front, naming what it needed, instead of failing half-way through its allocations.
    pub fn ensure_free(&self, bytes: u64, what: &str) -> Result<(), GpuError> {
        let (free, _) = self.memory_info()?;
        if bytes > free {
            return Err(GpuError::OutOfMemory { what: what.to_string(), needed: bytes, free });
        }
        Ok(())
    }

    pub(crate) fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// The kernel `name` from the module, looked up once and cached.
    pub(crate) fn function(&self, name: &'static str) -> Result<CudaFunction, GpuError> {
        let mut functions = self.functions.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(function) = functions.get(name) {
            return Ok(function.clone());
        }
        let module = if warpath_interface::names::HOPPER.contains(&name) {
            match self.hopper.get() {
                Some(module) => module,
                None => {
                    let module = load_hopper_kernels(&self.context, self.compute_capability, self.jit, name)?;
                    self.hopper.get_or_init(|| module)
                }
            }
        } else {
            &self.module
        };
        let function = module.load_function(name).map_err(|e| GpuError::driver("cuModuleGetFunction", e))?;
        functions.insert(name, function.clone());
        Ok(function)
    }

    /// Blocks of `block` threads of `kernel` that fit on one multiprocessor at once (without
    /// dynamic shared memory), asked of the driver at the first call and kept: a launch that
    /// sizes its grid by it then costs no driver call.
    pub(crate) fn blocks_per_multiprocessor(&self, kernel: &'static str, block: u32) -> Result<u32, GpuError> {
        let mut occupancy = self.occupancy.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(&blocks) = occupancy.get(&(kernel, block)) {
            return Ok(blocks);
        }
        let blocks = self
            .function(kernel)?
            .occupancy_max_active_blocks_per_multiprocessor(block, 0, None)
            .map_err(|e| GpuError::driver("cuOccupancyMaxActiveBlocksPerMultiprocessor", e))?;
        occupancy.insert((kernel, block), blocks);
        Ok(blocks)
    }

    /// A zeroed device buffer of `len` elements; `what` names it in an out-of-memory error.
    pub fn alloc_zeros<T: DeviceRepr + ValidAsZeroBits>(
        &self,
        len: usize,
        what: &str,
    ) -> Result<CudaSlice<T>, GpuError> {
        self.stream.alloc_zeros::<T>(len).map_err(|e| self.allocation_error(e, len * std::mem::size_of::<T>(), what))
    }

    /// Copies `host` to a new device buffer; a large array goes through the context's pinned
    /// staging buffers, at the bus's rate ([`crate::gpu::staging`]).
    pub fn upload<T: DeviceRepr + ValidAsZeroBits + bytemuck::Pod>(
        &self,
        host: &[T],
        what: &str,
    ) -> Result<CudaSlice<T>, GpuError> {
        if size_of_val(host) < STAGED_MIN_BYTES {
            let started = Instant::now();
            let device = self.stream.clone_htod(host).map_err(|e| self.allocation_error(e, size_of_val(host), what))?;
            self.note_copy(what, size_of_val(host), CopyPath::Pageable, Duration::ZERO, started.elapsed());
            return Ok(device);
        }
        self.upload_padded(host, host.len(), what)
    }

    /// Copies `host` to the start of a new device buffer of `len >= host.len()` elements, the
    /// rest zero, through the staging buffers.
    fn upload_padded<T: DeviceRepr + ValidAsZeroBits + bytemuck::Pod>(
        &self,
        host: &[T],
        len: usize,
        what: &str,
    ) -> Result<CudaSlice<T>, GpuError> {
        let bytes = len * std::mem::size_of::<T>();
        let started = Instant::now();
        let mut device = if len > host.len() {
            self.alloc_zeros::<T>(len, what)?
        } else {
            // SAFETY: every element is written by the copy below before anything reads it.
            unsafe { self.stream.alloc::<T>(len) }.map_err(|e| self.allocation_error(e, bytes, what))?
        };
        let allocated = started.elapsed();
        {
            let (device_ptr, _record) = device.device_ptr_mut(&self.stream);
            self.copy_staged(bytemuck::cast_slice(host), device_ptr)?;
        }
        self.synchronize()?;
        let path = match self.upload_path {
            UploadPath::Staged => CopyPath::Staged,
            UploadPath::Registered => CopyPath::Registered,
        };
        self.note_copy(what, size_of_val(host), path, allocated, started.elapsed() - allocated);
        Ok(device)
    }

    /// Readies the context for a graph's uploads before they come (a thread can do it while
    /// the graph loads): allocates the pinned staging buffers now rather than at the first
    /// large upload (pinning runs at a few GB/s on a virtual machine: tens of milliseconds),
    /// when uploads go through them, and makes the first device allocation, which sets up the
    /// stream-ordered allocator's pool (bench/NOTES.md 68).
    pub fn prepare_uploads(&self) -> Result<(), GpuError> {
        if self.upload_path == UploadPath::Staged {
            self.with_staging(|_| Ok(()))?;
        }
        drop(self.alloc_zeros::<u64>(1, "the allocator's first buffer")?);
        self.synchronize()
    }

    /// Runs `work` on the staging buffers, allocating them first if this is their first use.
    fn with_staging<R>(&self, work: impl FnOnce(&mut Staging) -> Result<R, GpuError>) -> Result<R, GpuError> {
        let mut staging = self.staging.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if staging.is_none() {
            *staging = Some(Staging::new(&self.context)?);
        }
        work(staging.as_mut().expect("allocated above"))
    }

    /// Runs `work` (a placement) and returns, with its result, every array it copied to the GPU
    /// or pinned for it, each with its time: where a placement's time goes (the bench's stage
    /// table). Copies made outside such a call are not kept.
    pub fn record_copies<R>(&self, work: impl FnOnce() -> R) -> (R, Vec<CopyStep>) {
        *self.copies.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(Vec::new());
        let result = work();
        let copies = self.copies.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take();
        (result, copies.unwrap_or_default())
    }

    /// Keeps one copy's record while [`record_copies`](Self::record_copies) runs.
    fn note_copy(&self, what: &str, bytes: usize, path: CopyPath, allocate: Duration, copy: Duration) {
        if let Some(copies) = self.copies.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).as_mut() {
            copies.push(CopyStep { what: what.to_string(), bytes: bytes as u64, path, allocate, copy });
        }
    }

    /// Queues the copy of `host` to `device` through the staging buffers (allocated on first
    /// use). The caller guarantees `device` holds `host.len()` bytes and synchronizes.
    fn copy_staged(&self, host: &[u8], device: sys::CUdeviceptr) -> Result<(), GpuError> {
        if self.upload_path == UploadPath::Registered {
            return copy_registered(&self.stream, host, device);
        }
        self.with_staging(|staging| staging.copy_to_device(&self.stream, host, device))
    }

    /// Copies `host` into the start of an existing device buffer.
    pub fn copy_into<T: DeviceRepr>(&self, host: &[T], device: &mut CudaSlice<T>) -> Result<(), GpuError> {
        if host.len() > device.len() {
            return Err(GpuError::Contract {
                kernel: "cuMemcpyHtoD",
                problem: format!("{} elements copied into a buffer of {}", host.len(), device.len()),
            });
        }
        self.stream.memcpy_htod(host, device).map_err(|e| GpuError::driver("cuMemcpyHtoD", e))
    }

    /// Copies `host` into `device` from element `at` on.
    pub fn copy_into_at<T: DeviceRepr>(
        &self,
        host: &[T],
        device: &mut CudaSlice<T>,
        at: usize,
    ) -> Result<(), GpuError> {
        if at + host.len() > device.len() {
            return Err(GpuError::Contract {
                kernel: "cuMemcpyHtoD",
                problem: format!("{} elements copied to element {at} of a buffer of {}", host.len(), device.len()),
            });
        }
        let mut view = device.slice_mut(at..at + host.len());
        self.stream.memcpy_htod(host, &mut view).map_err(|e| GpuError::driver("cuMemcpyHtoD", e))
    }

    /// Copies `len` elements of `from`, starting at `from_at`, into `to` at `to_at`, on the
    /// device, in stream order.
    pub fn copy_on_device<T: DeviceRepr>(
        &self,
        from: &CudaSlice<T>,
        from_at: usize,
        to: &mut CudaSlice<T>,
        to_at: usize,
        len: usize,
    ) -> Result<(), GpuError> {
        if from_at + len > from.len() || to_at + len > to.len() {
            return Err(GpuError::Contract {
                kernel: "cuMemcpyDtoD",
                problem: format!(
                    "{len} elements from element {from_at} of {} to element {to_at} of {}",
                    from.len(),
                    to.len()
                ),
            });
        }
        if len == 0 {
            return Ok(());
        }
        let source = from.slice(from_at..from_at + len);
        let mut target = to.slice_mut(to_at..to_at + len);
        self.stream.memcpy_dtod(&source, &mut target).map_err(|e| GpuError::driver("cuMemcpyDtoD", e))
    }

    /// The side stream (made now if this is its first use). Non-blocking: the first stream is the
    /// context's legacy default stream, which would otherwise wait for it and it for that one.
    pub(crate) fn side_stream(&self) -> Result<&Arc<CudaStream>, GpuError> {
        if let Some(side) = self.side.get() {
            return Ok(side);
        }
        let side = self.context.new_stream().map_err(|e| GpuError::driver("cuStreamCreate", e))?;
        Ok(self.side.get_or_init(|| side))
    }

    /// Work queued on the side stream from now on waits for everything queued on the first
    /// stream so far.
    pub fn side_waits_for_main(&self) -> Result<(), GpuError> {
        self.side_stream()?.join(&self.stream).map_err(|e| GpuError::driver("cuStreamWaitEvent", e))
    }

    /// Work queued on the first stream from now on waits for everything queued on the side
    /// stream so far (nothing where the side stream was never used).
    pub fn main_waits_for_side(&self) -> Result<(), GpuError> {
        match self.side.get() {
            Some(side) => self.stream.join(side).map_err(|e| GpuError::driver("cuStreamWaitEvent", e)),
            None => Ok(()),
        }
    }

    /// The device time from `start` to `end`, two events this context recorded
    /// ([`record_event`](Self::record_event)), `end` already reached.
    pub fn time_between(
        start: &cudarc::driver::CudaEvent,
        end: &cudarc::driver::CudaEvent,
    ) -> Result<std::time::Duration, GpuError> {
        let ms = start.elapsed_ms(end).map_err(|e| GpuError::driver("cuEventElapsedTime", e))?;
        Ok(std::time::Duration::from_secs_f64(f64::from(ms) / 1e3))
    }

    /// A timing event recorded on warpath's stream now.
    pub fn record_event(&self) -> Result<cudarc::driver::CudaEvent, GpuError> {
        let event = self
            .context
            .new_event(Some(cudarc::driver::sys::CUevent_flags::CU_EVENT_DEFAULT))
            .map_err(|e| GpuError::driver("cuEventCreate", e))?;
        event.record(&self.stream).map_err(|e| GpuError::driver("cuEventRecord", e))?;
        Ok(event)
    }

    /// Copies `host.len()` elements of a device buffer, from element `at` on, into `host`,
    /// waiting for all work queued before it.
    pub fn download_at<T: DeviceRepr>(&self, device: &CudaSlice<T>, at: usize, host: &mut [T]) -> Result<(), GpuError> {
        if at + host.len() > device.len() {
            return Err(GpuError::Contract {
                kernel: "cuMemcpyDtoH",
                problem: format!("{} elements read from element {at} of a buffer of {}", host.len(), device.len()),
            });
        }
        if host.is_empty() {
            return Ok(());
        }
        self.waiter.copy_to_host(&device.slice(at..at + host.len()), host)?;
        self.synchronize()
    }

    /// Copies a device buffer back to the host, waiting for all work queued before it.
    pub fn download<T: DeviceRepr>(&self, device: &CudaSlice<T>) -> Result<Vec<T>, GpuError> {
        let host = self.waiter.clone_to_host(device)?;
        self.synchronize()?;
        Ok(host)
    }

    /// Copies the first `host.len()` elements of a device buffer into `host` (memory the
    /// caller reuses, so the copy pays no page faults), waiting for all work queued before it.
    pub fn download_into<T: DeviceRepr>(&self, device: &CudaSlice<T>, host: &mut [T]) -> Result<(), GpuError> {
        if host.len() > device.len() {
            return Err(GpuError::Contract {
                kernel: "cuMemcpyDtoH",
                problem: format!("{} elements read from a buffer of {}", host.len(), device.len()),
            });
        }
        self.waiter.copy_to_host(&device.slice(..host.len()), host)?;
        self.synchronize()
    }

    /// A zeroed buffer of `len` elements in pinned (page-locked, not write-combined) host
    /// memory, which device-to-host copies fill at the bus's rate.
    pub fn pinned_zeros<T: DeviceRepr + ValidAsZeroBits + bytemuck::Zeroable + Clone>(
        &self,
        len: usize,
        what: &str,
    ) -> Result<PinnedBuffer<T>, GpuError> {
        let pinned_error = |e: cudarc::driver::DriverError| GpuError::Driver {
            call: "cuMemHostAlloc",
            detail: format!("pinning {} bytes of host memory for {what}: {e:?}", len * std::mem::size_of::<T>()),
        };
        // SAFETY: zeroed below before anything reads it.
        let mut pinned = unsafe { self.context.alloc_pinned_with_flags::<T>(len.max(1), 0) }.map_err(pinned_error)?;
        pinned.as_mut_slice().map_err(pinned_error)?.fill(T::zeroed());
        Ok(PinnedBuffer { pinned, len })
    }

    /// The pinned buffer of `len` elements kept in `slot`: made ([`pinned_zeros`](Self::pinned_zeros))
    /// at its first use, or again when `len` changed, then reused.
    pub fn pinned_in<'a, T: DeviceRepr + ValidAsZeroBits + bytemuck::Zeroable + Clone>(
        &self,
        slot: &'a mut Option<PinnedBuffer<T>>,
        len: usize,
        what: &str,
    ) -> Result<&'a mut PinnedBuffer<T>, GpuError> {
        if slot.as_ref().is_some_and(|pinned| pinned.len != len) {
            *slot = None;
        }
        Ok(match slot {
            Some(pinned) => pinned,
            None => slot.insert(self.pinned_zeros(len, what)?),
        })
    }

    /// Copies the first `host.len()` elements of a device buffer into pinned host memory,
    /// waiting for all work queued before it.
    pub fn download_to_pinned<T: DeviceRepr + ValidAsZeroBits>(
        &self,
        device: &CudaSlice<T>,
        host: &mut PinnedBuffer<T>,
    ) -> Result<(), GpuError> {
        let len = host.len;
        if len > device.len() {
            return Err(GpuError::Contract {
                kernel: "cuMemcpyDtoH",
                problem: format!("{len} elements read from a buffer of {}", device.len()),
            });
        }
        let target = host.pinned.as_mut_slice().map_err(|e| GpuError::driver("pinned host memory", e))?;
        self.stream
            .memcpy_dtoh(&device.slice(..len), &mut target[..len])
            .map_err(|e| GpuError::driver("cuMemcpyDtoH", e))?;
        self.synchronize()
    }

    /// Copies the first `pinned.len` elements of a device buffer into `pinned` at the bus's
    /// rate, then into `host` on every core, reusing its memory where it has room: a vector the
    /// caller owns, filled faster than by a pageable copy, which the driver stages through its
    /// own buffers on one thread (7 GB/s against the bus's 55, bench/NOTES.md entry 50). Waits
    /// for all work queued before it.
    pub fn download_through_pinned<T: DeviceRepr + ValidAsZeroBits + Copy + Send + Sync>(
        &self,
        device: &CudaSlice<T>,
        pinned: &mut PinnedBuffer<T>,
        host: &mut Vec<T>,
    ) -> Result<(), GpuError> {
        self.download_to_pinned(device, pinned)?;
        host.clear();
        host.par_extend(pinned.as_slice()?.par_iter().with_min_len(1 << 16).copied());
        Ok(())
    }

    /// Copies two whole device buffers into pinned host memory at least as long, both copies
    /// queued before one wait: small buffers read back behind the same work cost the host one
    /// round trip instead of two. (The contexts run without cudarc's event tracking, so the
    /// pinned buffers record no event of their own: the wait is the stream's.)
    pub fn download_two_to_pinned<A: DeviceRepr + ValidAsZeroBits, B: DeviceRepr + ValidAsZeroBits>(
        &self,
        first: (&CudaSlice<A>, &mut PinnedBuffer<A>),
        second: (&CudaSlice<B>, &mut PinnedBuffer<B>),
    ) -> Result<(), GpuError> {
        for (device, host) in [(first.0.len(), first.1.len), (second.0.len(), second.1.len)] {
            if device > host {
                return Err(GpuError::Contract {
                    kernel: "cuMemcpyDtoHAsync",
                    problem: format!("{device} elements read into pinned memory of {host}"),
                });
            }
        }
        let copy_failed = |e| GpuError::driver("cuMemcpyDtoHAsync", e);
        self.stream.memcpy_dtoh(first.0, &mut first.1.pinned).map_err(copy_failed)?;
        self.stream.memcpy_dtoh(second.0, &mut second.1.pinned).map_err(copy_failed)?;
        self.synchronize()
    }

    /// Reads one `u32` (a counter) back, waiting for the work queued before it.
    pub fn read_counter(&self, device: &CudaSlice<u32>) -> Result<u32, GpuError> {
        let mut value = [0u32; 1];
        self.waiter.copy_to_host(device, &mut value)?;
        self.synchronize()?;
        Ok(value[0])
    }

    /// Sets a device buffer to zero bytes.
    pub fn zero<T: DeviceRepr + ValidAsZeroBits>(&self, device: &mut CudaSlice<T>) -> Result<(), GpuError> {
        self.stream.memset_zeros(device).map_err(|e| GpuError::driver("cuMemsetD8", e))
    }

    /// Sets elements `range` of a device buffer to zero bytes.
    pub fn zero_range<T: DeviceRepr + ValidAsZeroBits>(
        &self,
        device: &mut CudaSlice<T>,
        range: std::ops::Range<usize>,
    ) -> Result<(), GpuError> {
        if range.start > range.end || range.end > device.len() {
            return Err(GpuError::Contract {
                kernel: "cuMemsetD8",
                problem: format!("elements {range:?} of a buffer of {}", device.len()),
            });
        }
        self.stream.memset_zeros(&mut device.slice_mut(range)).map_err(|e| GpuError::driver("cuMemsetD8", e))
    }

    /// Waits for all queued work; a kernel that faulted reports here, and where waits are
    /// watched ([`watch_waits`](Self::watch_waits)), a watch that calls the wait off.
    pub fn synchronize(&self) -> Result<(), GpuError> {
        self.waiter.wait()
    }

    /// From now on every wait for this context's stream asks `watch` whether to go on (a
    /// rank of a partitioned run, whose waits include collectives that a failed peer would
    /// never finish: `multi::watch`).
    pub fn watch_waits(&self, watch: Arc<dyn WaitWatch>) -> Result<(), GpuError> {
        self.waiter.set_watch(&self.context, watch)
    }

    /// How the host waits for this context's stream, for others that queue work on it (a
    /// communicator).
    pub fn waiter(&self) -> &StreamWaiter {
        &self.waiter
    }

    fn allocation_error(&self, err: cudarc::driver::DriverError, bytes: usize, what: &str) -> GpuError {
        if err.0 == cudarc::driver::sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY {
            let free = self.memory_info().map(|(free, _)| free).unwrap_or(0);
            GpuError::OutOfMemory { what: what.to_string(), needed: bytes as u64, free }
        } else {
            GpuError::driver("cuMemAlloc", err)
        }
    }

    /// Device-to-device copy bandwidth in bytes per second, counting bytes read plus bytes
    /// written (the usual ceiling for memory-bound kernels): one warm-up copy of `bytes`, then
    /// five timed with CUDA events.
    pub fn copy_bandwidth(&self, bytes: usize) -> Result<f64, GpuError> {
        let words = (bytes / 4).max(1);
        self.ensure_free(2 * 4 * words as u64, "the copy-bandwidth probe")?;
        let source = self.alloc_zeros::<u32>(words, "the copy-bandwidth probe")?;
        let mut target = self.alloc_zeros::<u32>(words, "the copy-bandwidth probe")?;
        let copy = || self.stream.memcpy_dtod(&source, &mut target).map_err(|e| GpuError::driver("cuMemcpyDtoD", e));
        // Each copy reads and writes its bytes.
        Ok(2.0 * self.copy_rate(4 * words, copy)?)
    }

    /// Bytes per second of `copy`, which moves `bytes`: one warm-up copy, then five timed
    /// together with CUDA events.
    fn copy_rate(&self, bytes: usize, mut copy: impl FnMut() -> Result<(), GpuError>) -> Result<f64, GpuError> {
        const REPEATS: usize = 5;
        copy()?;
        let time = time_on_device(self, "the bandwidth probe's copies", || (0..REPEATS).try_for_each(|_| copy()))?;
        Ok((bytes * REPEATS) as f64 / time.as_secs_f64())
    }

    /// Copies a graph's CSR arrays into device memory.
    pub fn upload_graph(&self, graph: &Graph) -> Result<DeviceGraph, GpuError> {
        self.place_graph(graph, Placement::Device)
    }

    /// Puts a graph's CSR arrays where `layout` says (a [`Placement`] puts both arrays there):
    /// device memory, or pinned host memory mapped into the device's address space (zero-copy:
    /// kernels read it over the bus, so a graph larger than the GPU's memory can still be
    /// traversed). Arrays the graph holds in [`PinnedMemory`](crate::gpu::PinnedMemory) are
    /// not copied on the host: zero-copy reads them where they are (the placed graph keeps
    /// them alive), device memory gets them by one DMA each.
    pub fn place_graph(&self, graph: &Graph, layout: impl Into<Layout>) -> Result<DeviceGraph, GpuError> {
        let layout = layout.into();
        // cuMemAlloc refuses zero bytes: an edgeless graph still gets a one-element buffer.
        let targets = if graph.targets().is_empty() { &[0u32][..] } else { graph.targets() };
        self.ensure_free(
            layout.device_bytes(size_of_val(graph.offsets()), size_of_val(targets))
                + empty_lists_bytes(graph.num_vertices()),
            "the graph's CSR arrays",
        )?;
        let (empty_bits, arrays) = beside_empty_list_bits(graph.offsets(), || {
            // A pinned array's DMA is left running while the lists' memory is allocated.
            let offsets = match pinned_block(graph.offsets_array()) {
                Some(block) => self.place_pinned(block, layout.offsets, "the graph's row offsets", Wait::No)?,
                None => self.place_array(graph.offsets(), layout.offsets, "the graph's row offsets")?,
            };
            let targets = match pinned_block(graph.targets_array()) {
                Some(block) => self.place_pinned::<u8>(block, layout.lists, "the graph's neighbor lists", Wait::Yes)?,
                None => self.place_array(bytemuck::cast_slice(targets), layout.lists, "the graph's neighbor lists")?,
            };
            Ok((offsets, targets))
        });
        let (offsets, targets) = arrays?;
        // Every copy out of the graph's arrays is done before they may be dropped.
        self.synchronize()?;
        let (empty_lists, nonempty_lists) = self.upload_empty_lists(&empty_bits, graph.num_vertices() as u32)?;
        Ok(DeviceGraph {
            offsets,
            targets,
            compressed: None,
            heads: None,
            weights: None,
            empty_lists,
            nonempty_lists,
            layout,
            num_vertices: graph.num_vertices() as u32,
            num_edges: graph.num_edges(),
        })
    }

    /// Puts a delta-varint compressed graph where `placement` says (its byte offsets and
    /// lists; the bytes padded with zeros to a multiple of 8, as the kernels' aligned reads
    /// need), with its out-degrees and the restart points of its long lists in device memory
    /// whatever the placement: both are small, and read at random.
    pub fn place_compressed(
        &self,
        graph: &CompressedGraph,
        layout: impl Into<Layout>,
    ) -> Result<DeviceGraph, GpuError> {
        let layout = layout.into();
        let degrees = graph.degrees();
        let restarts = graph.restart_points(&degrees, RESTART_MIN_EDGES, RESTART_EDGES);
        let padded = graph.bytes().len().div_ceil(8).max(1) * 8;
        let extras_bytes =
            4 * degrees.len() as u64 + 8 * restarts.points.len() as u64 + 8 * restarts.vertices.len() as u64;
        self.ensure_free(
            extras_bytes
                + layout.device_bytes(size_of_val(graph.byte_offsets()), padded)
                + empty_lists_bytes(graph.num_vertices()),
            "the compressed graph",
        )?;
        // cuMemAlloc refuses zero bytes: empty arrays get one unused element.
        let nonempty_u32 = |v: Vec<u32>| if v.is_empty() { vec![0] } else { v };
        let long_count = restarts.vertices.len() as u32;
        let extras = CompressedExtras {
            degrees: self.upload(&nonempty_u32(degrees), "the compressed graph's out-degrees")?,
            restart_points: self.upload(
                if restarts.points.is_empty() { &[0u64][..] } else { &restarts.points },
                "the compressed graph's restart points",
            )?,
            long_vertices: self.upload(&nonempty_u32(restarts.vertices), "the compressed graph's long lists")?,
            long_first: self.upload(&restarts.first, "the compressed graph's long lists")?,
            long_count,
        };
        let (empty_bits, arrays) = beside_empty_list_bits(graph.byte_offsets(), || {
            let offsets =
                self.place_array(graph.byte_offsets(), layout.offsets, "the compressed graph's byte offsets")?;
            let targets =
                self.place_array_padded(graph.bytes(), padded, layout.lists, "the compressed graph's lists")?;
            Ok((offsets, targets))
        });
        let (offsets, targets) = arrays?;
        let (empty_lists, nonempty_lists) = self.upload_empty_lists(&empty_bits, graph.num_vertices() as u32)?;
        Ok(DeviceGraph {
            offsets,
            targets,
            compressed: Some(extras),
            heads: None,
            weights: None,
            empty_lists,
            nonempty_lists,
            layout,
            num_vertices: graph.num_vertices() as u32,
            num_edges: graph.num_edges(),
        })
    }

    /// The bitmap of empty lists ([`crate::graph::empty_list_bits`]) of a graph of `n`
    /// vertices in device memory, with the count of lists that are not empty.
    fn upload_empty_lists(&self, bits: &[u32], n: u32) -> Result<(CudaSlice<u32>, u32), GpuError> {
        // The count of lists that are not empty, read off the same bitmap rather than a second
        // pass over the offsets.
        let empty: u32 = bits.iter().map(|word| word.count_ones()).sum();
        // cuMemAlloc refuses zero bytes: a graph without vertices still gets one word.
        Ok((self.upload(if bits.is_empty() { &[0u32][..] } else { bits }, "the bitmap of empty lists")?, n - empty))
    }

    /// Copies the first neighbors of `graph`'s lists into device memory beside it, for the
    /// bottom-up steps to try before reading a list over the bus. `heads` must be the heads of
    /// the lists `graph` holds, in its format (plain or compressed, with skips).
    pub fn attach_list_heads(&self, graph: &mut DeviceGraph, heads: &ListHeads) -> Result<(), GpuError> {
        let n = graph.num_vertices() as usize;
        let consistent = heads.neighbors.len() == HEAD_NEIGHBORS * n
            && heads.skips.as_ref().map(Vec::len) == graph.is_compressed().then_some(n);
        if !consistent {
            return Err(GpuError::Contract {
                kernel: "placement",
                problem: format!(
                    "list heads for {} vertices do not match a graph of {n}",
                    heads.neighbors.len() / HEAD_NEIGHBORS
                ),
            });
        }
        let skips = heads.skips.as_deref().filter(|s| !s.is_empty()).unwrap_or(&[0u8]);
        let neighbors = if heads.neighbors.is_empty() { &[0u32][..] } else { &heads.neighbors };
        self.ensure_free(4 * neighbors.len() as u64 + skips.len() as u64, "the first neighbors of the lists")?;
        graph.heads = Some(DeviceListHeads {
            neighbors: self.upload(neighbors, "the first neighbors of the lists")?,
            skips: self.upload(skips, "where the compressed lists resume after their first neighbors")?,
        });
        Ok(())
    }

    /// Gathers the first neighbors of `graph`'s lists on the device (`graph_list_heads`) and
    /// keeps them beside it, as [`GpuContext::attach_list_heads`] keeps heads the host built:
    /// no pass of the host's over every list and no copy across the bus (bench/NOTES.md 141).
    /// Plain lists in device memory only: over the bus, each vertex's sector would cross it.
    pub fn gather_list_heads(&self, graph: &mut DeviceGraph) -> Result<(), GpuError> {
        let kernel = names::GRAPH_LIST_HEADS;
        require(kernel, !graph.is_compressed() && graph.layout == Layout::from(Placement::Device), || {
            "list heads are gathered on the device from plain lists in device memory only".to_string()
        })?;
        let n = graph.num_vertices;
        let words = (HEAD_NEIGHBORS * n as usize).max(1);
        self.ensure_free(4 * words as u64 + 1, "the first neighbors of the lists")?;
        let mut neighbors = self.alloc_zeros::<u32>(words, "the first neighbors of the lists")?;
        let stream = self.stream();
        let mut launch = Launch::new(self);
        let params = GraphListHeadsParams {
            offsets: DeviceAddress::new(graph.offsets.device_ptr(stream)),
            targets: DeviceAddress::new(graph.targets.device_ptr(stream)),
            heads: launch.write(&mut neighbors),
            n,
        };
        launch.run(grid_for(self, n.max(1) as u64, GRAPH_BLOCK), Residency::Any, &params)?;
        let skips = self.upload(&[0u8], "where the compressed lists resume after their first neighbors")?;
        graph.heads = Some(DeviceListHeads { neighbors, skips });
        Ok(())
    }

    /// Places `weights` (one per edge of `graph`, in list order) beside `graph`'s lists, in the
    /// same memory: read with the lists, so over the bus when they are.
    pub fn attach_weights(&self, graph: &mut DeviceGraph, weights: &Weights) -> Result<(), GpuError> {
        if graph.is_compressed() || weights.len() as u64 != graph.num_edges() {
            return Err(GpuError::Contract {
                kernel: "placement",
                problem: format!(
                    "{} weights for a {}graph of {} edges",
                    weights.len(),
                    if graph.is_compressed() { "compressed " } else { "" },
                    graph.num_edges()
                ),
            });
        }
        let words: &[u32] = match weights {
            Weights::U32(values) => values,
            Weights::F32(values) => bytemuck::cast_slice(values),
        };
        // cuMemAlloc refuses zero bytes: an edgeless graph still gets one word.
        let words = if words.is_empty() { &[0u32][..] } else { words };
        let placement = graph.layout.lists;
        if placement == Placement::Device {
            self.ensure_free(size_of_val(words) as u64, "the edge weights")?;
        }
        graph.weights = Some((self.place_array(words, placement, "the edge weights")?, weights.kind()));
        Ok(())
    }

    /// A pinned, device-mapped block of a graph array where `placement` says: zero-copy, the
    /// block itself at its mapped address (kept alive by the placed array); device memory, one
    /// DMA from it at the bus's rate, waited for unless `wait` says not (the caller then
    /// synchronizes before the block may be dropped; the copy's record holds only its queueing,
    /// and the next waited copy's holds the rest).
    fn place_pinned<T: DeviceRepr + ValidAsZeroBits>(
        &self,
        block: &Arc<dyn HostBlock>,
        placement: Placement,
        what: &str,
        wait: Wait,
    ) -> Result<GraphArray<T>, GpuError> {
        let pinned = block.as_any().downcast_ref::<PinnedBlock>().expect("only pinned blocks are placed in place");
        let bytes = block.bytes().len();
        let len = bytes / std::mem::size_of::<T>();
        match placement {
            Placement::ZeroCopy => {
                self.note_copy(what, bytes, CopyPath::InPlace, Duration::ZERO, Duration::ZERO);
                Ok(GraphArray::Pinned { block: Arc::clone(block), device_ptr: pinned.device_address()?, len })
            }
            Placement::Device => {
                let started = Instant::now();
                // SAFETY: every byte is written by the copy below, queued on the one stream
                // before any kernel that reads it.
                let mut device =
                    unsafe { self.stream.alloc::<T>(len) }.map_err(|e| self.allocation_error(e, bytes, what))?;
                let allocated = started.elapsed();
                {
                    let (device_ptr, _record) = device.device_ptr_mut(&self.stream);
                    // SAFETY: the source is pinned host memory of `bytes` bytes, alive (the
                    // caller holds the block) until the synchronize below or, with `Wait::No`,
                    // the caller's; `device` holds `len` elements, `bytes` bytes.
                    unsafe {
                        sys::cuMemcpyHtoDAsync_v2(device_ptr, pinned.host_address(), bytes, self.stream.cu_stream())
                    }
                    .result()
                    .map_err(|e| GpuError::driver("cuMemcpyHtoDAsync", e))?;
                }
                if wait == Wait::Yes {
                    self.synchronize()?;
                }
                self.note_copy(what, bytes, CopyPath::PinnedDma, allocated, started.elapsed() - allocated);
                Ok(GraphArray::Device(device))
            }
        }
    }

    /// One graph array in device memory or, for zero-copy, in mapped pinned host memory.
    fn place_array<T: DeviceRepr + ValidAsZeroBits + bytemuck::Pod + Send + Sync>(
        &self,
        host: &[T],
        placement: Placement,
        what: &str,
    ) -> Result<GraphArray<T>, GpuError> {
        self.place_array_padded(host, host.len(), placement, what)
    }

    /// [`place_array`](Self::place_array) padded with zeros to `len >= host.len()` elements.
    fn place_array_padded<T: DeviceRepr + ValidAsZeroBits + bytemuck::Pod + Send + Sync>(
        &self,
        host: &[T],
        len: usize,
        placement: Placement,
        what: &str,
    ) -> Result<GraphArray<T>, GpuError> {
        match placement {
            Placement::Device if len == host.len() => Ok(GraphArray::Device(self.upload(host, what)?)),
            Placement::Device => Ok(GraphArray::Device(self.upload_padded(host, len, what)?)),
            Placement::ZeroCopy => self.map_host_copy(host, len, what),
        }
    }

    /// Host-to-device copy bandwidth from pinned memory, in bytes per second: one warm-up
    /// copy of `bytes`, then five timed with CUDA events. This is the bus's practical ceiling
    /// for a zero-copy graph.
    pub fn host_to_device_bandwidth(&self, bytes: usize) -> Result<f64, GpuError> {
        let words = (bytes / 4).max(1);
        self.ensure_free(4 * words as u64, "the bus-bandwidth probe")?;
        let pinned_error = |e: cudarc::driver::DriverError| GpuError::driver("cuMemHostAlloc (bus-bandwidth probe)", e);
        // SAFETY: the probe's contents are never read; the copies only time the transfer.
        let source = unsafe { self.context.alloc_pinned::<u32>(words) }.map_err(pinned_error)?;
        let mut target = self.alloc_zeros::<u32>(words, "the bus-bandwidth probe")?;
        let copy = || self.stream.memcpy_htod(&source, &mut target).map_err(|e| GpuError::driver("cuMemcpyHtoD", e));
        self.copy_rate(4 * words, copy)
    }

    /// Device-to-host copy bandwidth into pinned memory, in bytes per second, measured as
    /// [`host_to_device_bandwidth`](Self::host_to_device_bandwidth): the ceiling for reading
    /// results back.
    pub fn device_to_host_bandwidth(&self, bytes: usize) -> Result<f64, GpuError> {
        let words = (bytes / 4).max(1);
        self.ensure_free(4 * words as u64, "the bus-bandwidth probe")?;
        let pinned_error = |e: cudarc::driver::DriverError| GpuError::driver("cuMemHostAlloc (bus-bandwidth probe)", e);
        let source = self.alloc_zeros::<u32>(words, "the bus-bandwidth probe")?;
        // Not write-combined: the host reads what comes back. SAFETY: the probe's contents are
        // never read; the copies only time the transfer.
        let mut target = unsafe { self.context.alloc_pinned_with_flags::<u32>(words, 0) }.map_err(pinned_error)?;
        let copy = || self.stream.memcpy_dtoh(&source, &mut target).map_err(|e| GpuError::driver("cuMemcpyDtoH", e));
        self.copy_rate(4 * words, copy)
    }

    /// A copy of `host` in pinned host memory that the device can address directly, padded
    /// with zeros to `len >= host.len()` elements.
    fn map_host_copy<T: DeviceRepr + ValidAsZeroBits + bytemuck::Pod + Send + Sync>(
        &self,
        host: &[T],
        len: usize,
        what: &str,
    ) -> Result<GraphArray<T>, GpuError> {
        let started = Instant::now();
        let bytes = len * std::mem::size_of::<T>();
        let mut block = PinnedBlock::allocate(&self.context, bytes).map_err(|err| GpuError::Driver {
            call: "cuMemHostRegister",
            detail: format!("pinning {bytes} bytes of host memory for {what}: {err}"),
        })?;
        let allocated = started.elapsed();
        // The block is zeroed: only the copy is written (the padding stays zero).
        let copied: &mut [T] = bytemuck::cast_slice_mut(&mut block.bytes_mut()[..size_of_val(host)]);
        // All cores copy: one core moves a few GB/s, and a zero-copy graph is the biggest kind.
        const PIECE: usize = 1 << 20;
        let piece = (PIECE / std::mem::size_of::<T>().max(1)).max(1);
        copied.par_chunks_mut(piece).zip(host.par_chunks(piece)).for_each(|(to, from)| to.copy_from_slice(from));
        self.note_copy(what, size_of_val(host), CopyPath::MappedCopy, allocated, started.elapsed() - allocated);
        let device_ptr = block.device_address()?;
        Ok(GraphArray::Pinned { block: Arc::new(block), device_ptr, len })
    }
}

/// Whether a placement waits for an array's copy before it goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wait {
    Yes,
    No,
}

/// How an array reached the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyPath {
    /// One copy from pageable memory, staged by the driver (small arrays).
    Pageable,
    /// Through the context's pinned staging buffers, filled by all cores.
    Staged,
    /// From the host array itself, pinned for the copy (`WARPATH_UPLOAD=registered`).
    Registered,
    /// One DMA from the pinned memory the graph was built in.
    PinnedDma,
    /// Copied by all cores into fresh pinned memory mapped into the GPU (zero-copy).
    MappedCopy,
    /// Left where it was built, in pinned mapped memory (zero-copy, nothing moved).
    InPlace,
}

impl CopyPath {
    pub fn name(self) -> &'static str {
        match self {
            CopyPath::Pageable => "pageable",
            CopyPath::Staged => "staged",
            CopyPath::Registered => "registered",
            CopyPath::PinnedDma => "pinned DMA",
            CopyPath::MappedCopy => "mapped copy",
            CopyPath::InPlace => "in place",
        }
    }
}

/// One array copied (or pinned) during [`GpuContext::record_copies`]: the device allocation
/// (or the pinned allocation, for zero-copy), then the copy, timed apart.
#[derive(Clone, Debug, PartialEq)]
pub struct CopyStep {
    /// The array, as out-of-memory errors name it ("the graph's neighbor lists").
    pub what: String,
    pub bytes: u64,
    pub path: CopyPath,
    pub allocate: Duration,
    /// The copy and the wait for it.
    pub copy: Duration,
}

/// Reading a run's results back to the host: wall time and bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Download {
    pub time: Duration,
    pub bytes: u64,
}

/// Host memory pinned for device-to-host copies ([`GpuContext::pinned_zeros`]), kept and
/// refilled: results read back into it at the bus's rate and are read in place.
pub struct PinnedBuffer<T> {
    pinned: PinnedHostSlice<T>,
    len: usize,
}

impl<T> PinnedBuffer<T> {
    /// Elements the buffer holds.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<T: ValidAsZeroBits> PinnedBuffer<T> {
    /// The elements, as the last copy into them left them.
    pub fn as_slice(&self) -> Result<&[T], GpuError> {
        let all = self.pinned.as_slice().map_err(|e| GpuError::driver("pinned host memory", e))?;
        Ok(&all[..self.len])
    }
}

/// Where a graph's CSR arrays live while the GPU traverses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// In device memory (fastest; needs room for the whole graph).
    Device,
    /// In pinned host memory mapped into the device (Moschou 2026, section 2.2): reads cross
    /// the bus, but the graph only needs to fit in host memory.
    ZeroCopy,
}

impl std::fmt::Display for Placement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Placement::Device => "device",
            Placement::ZeroCopy => "zero-copy",
        })
    }
}

/// Where each of a graph's two big arrays goes: the offsets (one or two words a vertex, read
/// by every bottom-up step for every unvisited vertex) and the lists. Offsets are worth keeping
/// in device memory whenever they fit: read over the bus, they would cost a 32-byte sector for
/// every 16 bytes wanted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub offsets: Placement,
    pub lists: Placement,
}

impl From<Placement> for Layout {
    fn from(placement: Placement) -> Layout {
        Layout { offsets: placement, lists: placement }
    }
}

impl Layout {
    /// Device bytes this layout needs for offsets and lists of these sizes.
    fn device_bytes(&self, offsets: usize, lists: usize) -> u64 {
        let on_device =
            |placement: Placement, bytes: usize| if placement == Placement::Device { bytes as u64 } else { 0 };
        on_device(self.offsets, offsets) + on_device(self.lists, lists)
    }
}

/// Runs `copies` (a placement's array copies) on this thread while another makes the bitmap
/// of empty lists of `offsets` on the other cores: host work that would otherwise wait for the
/// copies (the DMA of a pinned array leaves the cores idle).
fn beside_empty_list_bits<R: Send>(offsets: &[u64], copies: impl FnOnce() -> R) -> (Vec<u32>, R) {
    std::thread::scope(|scope| {
        let bits = scope.spawn(|| crate::graph::empty_list_bits(offsets));
        let copied = copies();
        (bits.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)), copied)
    })
}

/// The pinned block holding `array`, when it was built into [`crate::gpu::PinnedMemory`].
fn pinned_block<T: bytemuck::Pod + Send + Sync>(array: &HostArray<T>) -> Option<&Arc<dyn HostBlock>> {
    array.block().filter(|block| block.as_any().is::<PinnedBlock>())
}

/// One CSR array, in device memory or in mapped pinned host memory: a copy made at placement,
/// or the very block the host graph was built into (kept alive here as long as it is placed).
pub(crate) enum GraphArray<T> {
    Device(CudaSlice<T>),
    Pinned { block: Arc<dyn HostBlock>, device_ptr: u64, len: usize },
}

impl<T> GraphArray<T> {
    /// The address kernels use for element 0.
    pub(crate) fn device_ptr(&self, stream: &CudaStream) -> u64 {
        match self {
            GraphArray::Device(slice) => slice.device_ptr(stream).0,
            GraphArray::Pinned { device_ptr, .. } => *device_ptr,
        }
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            GraphArray::Device(slice) => slice.len(),
            GraphArray::Pinned { len, .. } => *len,
        }
    }

    fn bytes(&self) -> u64 {
        (self.len() * std::mem::size_of::<T>()) as u64
    }
}

impl<T: DeviceRepr + ValidAsZeroBits + bytemuck::Pod> GraphArray<T> {
    /// The array's elements, copied back from wherever they are.
    fn read_back(&self, gpu: &GpuContext) -> Result<Vec<T>, GpuError> {
        match self {
            GraphArray::Device(slice) => gpu.download(slice),
            GraphArray::Pinned { block, .. } => {
                gpu.synchronize()?;
                Ok(bytemuck::cast_slice(block.bytes()).to_vec())
            }
        }
    }
}

/// What a compressed graph's kernels read beside its lists, always in device memory.
pub(crate) struct CompressedExtras {
    pub(crate) degrees: CudaSlice<u32>,
    pub(crate) restart_points: CudaSlice<u64>,
    pub(crate) long_vertices: CudaSlice<u32>,
    pub(crate) long_first: CudaSlice<u32>,
    pub(crate) long_count: u32,
}

impl CompressedExtras {
    fn bytes(&self) -> u64 {
        4 * self.degrees.len() as u64
            + 8 * self.restart_points.len() as u64
            + 4 * (self.long_vertices.len() + self.long_first.len()) as u64
    }
}

/// The first neighbors of every list ([`ListHeads`]) in device memory, beside lists that are
/// read over the bus.
pub(crate) struct DeviceListHeads {
    pub(crate) neighbors: CudaSlice<u32>,
    /// Compressed lists only (otherwise one unused byte).
    pub(crate) skips: CudaSlice<u8>,
}

impl DeviceListHeads {
    fn bytes(&self) -> u64 {
        4 * self.neighbors.len() as u64 + self.skips.len() as u64
    }
}

/// A graph's CSR arrays where the GPU can read them: plain (`u32` targets, viewed as bytes) or
/// delta-varint compressed (with [`CompressedExtras`]).
pub struct DeviceGraph {
    pub(crate) offsets: GraphArray<u64>,
    pub(crate) targets: GraphArray<u8>,
    pub(crate) compressed: Option<CompressedExtras>,
    pub(crate) heads: Option<DeviceListHeads>,
    /// One weight per edge beside the lists, in the lists' memory, as 32-bit words (`f32`
    /// weights by their bits), when the algorithm asked for them.
    pub(crate) weights: Option<(GraphArray<u32>, WeightKind)>,
    /// Which lists are empty ([`crate::graph::empty_list_bits`]), always in device memory: of an
    /// in-lists graph, the vertices that bottom-up levels need not search.
    pub(crate) empty_lists: CudaSlice<u32>,
    /// How many lists are not empty: of an in-lists graph, the vertices a bottom-up pass
    /// searches at the first level.
    nonempty_lists: u32,
    layout: Layout,
    num_vertices: u32,
    num_edges: u64,
}

impl DeviceGraph {
    pub fn num_vertices(&self) -> u32 {
        self.num_vertices
    }

    pub fn num_edges(&self) -> u64 {
        self.num_edges
    }

    /// Vertices whose list is not empty.
    pub fn nonempty_lists(&self) -> u32 {
        self.nonempty_lists
    }

    /// Where the lists are (the offsets may be in device memory when the lists are not).
    pub fn placement(&self) -> Placement {
        self.layout.lists
    }

    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Whether the lists are delta-varint compressed.
    pub fn is_compressed(&self) -> bool {
        self.compressed.is_some()
    }

    /// Device memory held: the arrays in device memory (a compressed graph's degrees and
    /// restart points always are).
    pub fn bytes(&self) -> u64 {
        let extras = self.compressed.as_ref().map_or(0, CompressedExtras::bytes);
        let heads = self.heads.as_ref().map_or(0, DeviceListHeads::bytes);
        let lists = self.targets.bytes() + self.weights.as_ref().map_or(0, |(weights, _)| weights.bytes());
        self.layout.device_bytes(self.offsets.bytes() as usize, lists as usize)
            + extras
            + heads
            + empty_lists_bytes(self.num_vertices as usize)
    }

    /// Whether the first neighbors of the lists are in device memory too.
    pub fn has_list_heads(&self) -> bool {
        self.heads.is_some()
    }

    /// Bytes of the offsets and lists (and weights, when placed) wherever they are.
    pub fn csr_bytes(&self) -> u64 {
        self.offsets.bytes() + self.targets.bytes() + self.weights.as_ref().map_or(0, |(weights, _)| weights.bytes())
    }

    /// The edge weights placed beside the lists, read back as 32-bit words (`f32` weights by
    /// their bits), or None when none were placed.
    pub fn read_weights(&self, gpu: &GpuContext) -> Result<Option<Vec<u32>>, GpuError> {
        let Some((weights, _)) = &self.weights else { return Ok(None) };
        let mut words = weights.read_back(gpu)?;
        words.truncate(self.num_edges as usize);
        Ok(Some(words))
    }

    /// The offsets of the lists (`n + 1`), read back wherever they are placed: for tests of
    /// placement and for algorithms that transform the lists once on the host (SSSP's node
    /// splitting).
    pub fn read_offsets(&self, gpu: &GpuContext) -> Result<Vec<u64>, GpuError> {
        let mut offsets = self.offsets.read_back(gpu)?;
        offsets.truncate(self.num_vertices as usize + 1);
        Ok(offsets)
    }

    /// The lists as placed, read back as bytes from wherever they are: `u32` targets of a plain
    /// graph, the varint bytes of a compressed one (with their zero padding to 8 bytes).
    pub fn read_lists(&self, gpu: &GpuContext) -> Result<Vec<u8>, GpuError> {
        self.targets.read_back(gpu)
    }

    /// The list heads kept beside the lists, read back (`HEAD_NEIGHBORS` words a vertex), or
    /// None where none are kept: for tests of placement.
    pub fn read_list_heads(&self, gpu: &GpuContext) -> Result<Option<Vec<u32>>, GpuError> {
        let Some(heads) = &self.heads else { return Ok(None) };
        let mut neighbors = gpu.download(&heads.neighbors)?;
        neighbors.truncate(HEAD_NEIGHBORS * self.num_vertices as usize);
        Ok(Some(neighbors))
    }

    /// The kind of the edge weights placed beside the lists, if any.
    pub fn weight_kind(&self) -> Option<WeightKind> {
        self.weights.as_ref().map(|(_, kind)| *kind)
    }
}

/// Words `start..start + 2 * len` of `words` read as `len` `u64`s, each pair low word first:
/// the kernels' 64-bit counters, which the interface puts at even words of a `u32` block.
/// `None` when `start` is odd or the words run past the end.
pub fn u64_pairs(words: &CudaSlice<u32>, start: usize, len: usize) -> Option<CudaView<'_, u64>> {
    if start % 2 != 0 || start + 2 * len > words.len() {
        return None;
    }
    let view = words.slice(start..start + 2 * len);
    // SAFETY: every bit pattern is a `u64`; the view starts at an even word of an allocation
    // that cuMemAlloc aligned to 256 bytes, so at 8 bytes, and its `2 * len` words are `len`
    // `u64`s.
    unsafe { view.transmute::<u64>(len) }
}

/// Device bytes of the bitmap of empty lists that every placed graph keeps in device memory,
/// whatever its placement (n / 8 bytes; the bottom-up levels skip the vertices whose in-list
/// is empty).
pub fn empty_lists_bytes(vertices: usize) -> u64 {
    4 * vertices.div_ceil(32).max(1) as u64
}
