//! Launching kernels: grid sizing, buffer-contract checks, occupancy, and the one safe entry to
//! cudarc's `unsafe` launch for kernels that take a parameter struct of the interface crate
//! ([`KernelParams`]). The launchers of each algorithm (`crate::bfs::gpu`) fill the struct
//! with device addresses taken through a [`Launch`], check the kernel's documented contract
//! with [`require`], and launch.

use cudarc::driver::{
    CudaFunction, CudaSlice, CudaStream, DevicePtr, DevicePtrMut, DeviceRepr, LaunchConfig, SyncOnDrop,
};
use warpath_interface::{DeviceAddress, KernelParams};

use crate::gpu::{DeviceGraph, GpuContext, GpuError};

/// A 1-D launch of `block`-thread blocks covering `items` threads, capped at 32 blocks per
/// multiprocessor (enough to fill the GPU; grid-stride loops cover the rest).
pub fn grid_for(gpu: &GpuContext, items: u64, block: u32) -> LaunchConfig {
    let wanted = items.div_ceil(block as u64).max(1);
    let cap = gpu.multiprocessors() as u64 * 32;
    LaunchConfig { grid_dim: (wanted.min(cap) as u32, 1, 1), block_dim: (block, 1, 1), shared_mem_bytes: 0 }
}

/// A launch of `blocks` blocks of `block` threads.
pub fn blocks_of(blocks: u32, block: u32) -> LaunchConfig {
    LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (block, 1, 1), shared_mem_bytes: 0 }
}

/// Why a kernel that runs a whole graph in one thread-block cluster ([`Residency::Cluster`])
/// cannot run on `lists` on `gpu`, in one line naming it as `kernel`, or None when it can.
/// Every such kernel needs thread-block clusters (compute capability 9.0), plain lists and
/// fewer than 2^32 edges (it counts and indexes edges in 32 bits); each holds at most
/// `most_vertices` vertices in the cluster's shared memory.
pub fn cluster_refusal(gpu: &GpuContext, lists: &DeviceGraph, kernel: &str, most_vertices: u64) -> Option<String> {
    let (major, minor) = gpu.compute_capability();
    let (n, m) = (lists.num_vertices() as u64, lists.num_edges());
    if major < 9 {
        Some(format!(
            "{kernel} needs thread-block clusters (compute capability 9.0 or newer); this GPU has {major}.{minor}"
        ))
    } else if lists.is_compressed() {
        Some(format!("{kernel} reads plain CSR lists, and this graph is compressed: place it uncompressed"))
    } else if n > most_vertices {
        Some(format!(
            "{n} vertices: {kernel} keeps its vertices in the cluster's shared memory, for at most {most_vertices} \
             vertices"
        ))
    } else if m >= 1 << 32 {
        Some(format!("{m} edges: {kernel} counts and indexes edges in 32 bits"))
    } else {
        None
    }
}

/// A kernel's contract check: `ok`, or [`GpuError::Contract`] naming the kernel and the
/// problem.
pub fn require(kernel: &'static str, ok: bool, problem: impl FnOnce() -> String) -> Result<(), GpuError> {
    if ok {
        Ok(())
    } else {
        Err(GpuError::Contract { kernel, problem: problem() })
    }
}

/// Blocks of `block` threads of `kernel` that fit on the GPU at once, by the driver's
/// occupancy calculator (a cooperative launch must not ask for more).
pub fn resident_blocks(gpu: &GpuContext, kernel: &'static str, block: u32) -> Result<u32, GpuError> {
    Ok(gpu.blocks_per_multiprocessor(kernel, block)?.max(1) * gpu.multiprocessors())
}

/// Whether the kernel's blocks must all be resident at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Residency {
    /// An ordinary launch.
    Any,
    /// A cooperative launch: every block resident, as a kernel with a grid barrier needs.
    Cooperative,
    /// The grid as one thread-block cluster (Hopper): its blocks resident together, sharing
    /// their shared memory, as a kernel with cluster barriers needs. Up to 16 blocks (a
    /// non-portable size, allowed on the function), with the launch's dynamic shared memory.
    Cluster,
}

/// One launch being prepared: takes the device addresses of the buffers that go into a
/// parameter struct and holds cudarc's stream-synchronization guards for them until the kernel
/// is queued ([`Launch::run`]), so that cudarc records the kernel's reads and writes.
pub struct Launch<'a> {
    gpu: &'a GpuContext,
    stream: &'a CudaStream,
    guards: Vec<SyncOnDrop<'a>>,
}

impl<'a> Launch<'a> {
    /// A launch on the context's stream, in order with everything else queued there.
    pub fn new(gpu: &'a GpuContext) -> Launch<'a> {
        Launch { gpu, stream: gpu.stream(), guards: Vec::new() }
    }

    /// A launch on the context's side stream, ordered with the first stream only by
    /// [`GpuContext::side_waits_for_main`] and [`GpuContext::main_waits_for_side`].
    pub fn on_side(gpu: &'a GpuContext) -> Result<Launch<'a>, GpuError> {
        Ok(Launch { gpu, stream: gpu.side_stream()?, guards: Vec::new() })
    }

    fn stream(&self) -> &'a CudaStream {
        self.stream
    }

    /// The address of a buffer the kernel reads.
    pub fn read<T>(&mut self, buffer: &'a CudaSlice<T>) -> DeviceAddress<T> {
        let (address, guard) = buffer.device_ptr(self.stream());
        self.guards.push(guard);
        DeviceAddress::new(address)
    }

    /// The address of a buffer the kernel writes.
    pub fn write<T>(&mut self, buffer: &'a mut CudaSlice<T>) -> DeviceAddress<T> {
        let (address, guard) = buffer.device_ptr_mut(self.stream());
        self.guards.push(guard);
        DeviceAddress::new(address)
    }

    /// The address of element `start` of a buffer the kernel reads from there on.
    pub fn read_from<T>(&mut self, buffer: &'a CudaSlice<T>, start: usize) -> DeviceAddress<T> {
        assert!(start <= buffer.len(), "element {start} of a buffer of {}", buffer.len());
        let address = self.read(buffer);
        DeviceAddress::new(address.address + (start * std::mem::size_of::<T>()) as u64)
    }

    /// The address of element `start` of a buffer the kernel writes from there on.
    pub fn write_from<T>(&mut self, buffer: &'a mut CudaSlice<T>, start: usize) -> DeviceAddress<T> {
        assert!(start <= buffer.len(), "element {start} of a buffer of {}", buffer.len());
        let address = self.write(buffer);
        DeviceAddress::new(address.address + (start * std::mem::size_of::<T>()) as u64)
    }

    /// The address of a buffer the kernel may write, or null where there is none (the kernels
    /// whose contract allows a null there never touch it).
    pub fn write_or_null<T>(&mut self, buffer: Option<&'a mut CudaSlice<T>>) -> DeviceAddress<T> {
        buffer.map_or(DeviceAddress::NULL, |buffer| self.write(buffer))
    }

    /// The address of an array the kernel reads, or null where there is none.
    pub fn read_or_null<T>(&mut self, buffer: Option<&'a CudaSlice<T>>) -> DeviceAddress<T> {
        buffer.map_or(DeviceAddress::NULL, |buffer| self.read(buffer))
    }

    /// Launches `P::KERNEL` with `params`, one kernel parameter per field of `P`.
    ///
    /// The caller has checked the kernel's documented contract for these parameters (buffer
    /// lengths against the sizes and ids it passes, with [`require`]), and took every address
    /// in `params` from this launch's buffers or from arrays that outlive the kernel (the
    /// graph's): that check is what makes the launch sound. `pub(crate)`: only warpath's own
    /// launchers, each of which documents its check, call it.
    pub(crate) fn run<P: KernelParams>(
        self,
        config: LaunchConfig,
        residency: Residency,
        params: &P,
    ) -> Result<(), GpuError> {
        self.run_after(config, residency, params, || Ok(()))
    }

    /// [`Launch::run`], timed on the device from just before the kernel is queued to its end
    /// (a pair of CUDA events, as [`time_on_device`]; waits for the kernel). The host's own
    /// preparation of the launch (the contract's checks, the parameters, the grid's size)
    /// stays outside the window, which opens where the GPU could start the kernel at the
    /// earliest: on a graph that takes tens of microseconds, that preparation is not the
    /// kernel's time (bench/NOTES.md 141).
    pub(crate) fn run_timed<P: KernelParams>(
        self,
        config: LaunchConfig,
        residency: Residency,
        params: &P,
    ) -> Result<std::time::Duration, GpuError> {
        let gpu = self.gpu;
        require(P::KERNEL, std::ptr::eq(self.stream, gpu.stream().as_ref()), || {
            "a timed launch on the side stream (the events are recorded on the first)".to_string()
        })?;
        let mut start = None;
        self.run_after(config, residency, params, || {
            start = Some(gpu.record_event()?);
            Ok(())
        })?;
        device_time_since(gpu, P::KERNEL, &start.expect("recorded before the launch"))
    }

    /// Queues the kernel right after `before` (which may queue work of its own on the stream).
    fn run_after<P: KernelParams>(
        self,
        config: LaunchConfig,
        residency: Residency,
        params: &P,
        before: impl FnOnce() -> Result<(), GpuError>,
    ) -> Result<(), GpuError> {
        let function = self.gpu.function(P::KERNEL)?;
        if residency == Residency::Cluster {
            before()?;
            launch_cluster(&function, self.stream, config, params)?;
            drop(self.guards);
            return Ok(());
        }
        let mut args = self.stream.launch_builder(&function);
        let base = (params as *const P).cast::<u8>();
        for field in P::FIELDS {
            // SAFETY: `field.offset + field.size <= size_of::<P>()` (the interface crate's
            // layout tests), so the pointer stays inside `*params`, which outlives the launch
            // call; the driver reads `field.size` bytes there, the size of the kernel's
            // parameter (the interface crate declares both from one field list, and
            // `tests/it/ptx.rs` checks each entry's `.param` list against `P::FIELDS`).
            let bytes = unsafe { &*base.add(field.offset).cast::<FieldBytes>() };
            cudarc::driver::PushKernelArg::arg(&mut args, bytes);
        }
        before()?;
        // SAFETY: the caller checked the kernel's contract (see above), and the arguments are
        // the kernel's parameters in order and size; a cooperative launch guarantees every
        // block is resident, which the kernels' grid barriers rely on.
        let launched = unsafe {
            match residency {
                Residency::Any => args.launch(config),
                Residency::Cooperative => args.launch_cooperative(config),
                Residency::Cluster => unreachable!("launched above"),
            }
        };
        launched.map(|_| ()).map_err(|e| GpuError::launch(P::KERNEL, e))?;
        drop(self.guards);
        Ok(())
    }
}

/// Launches `function` with `params` as one thread-block cluster of the whole grid, by
/// `cuLaunchKernelEx` (cudarc's launch builder has no cluster attribute).
fn launch_cluster<P: KernelParams>(
    function: &CudaFunction,
    stream: &CudaStream,
    config: LaunchConfig,
    params: &P,
) -> Result<(), GpuError> {
    use cudarc::driver::sys;
    let attribute = |attribute, value: u32| {
        function.set_attribute(attribute, value as i32).map_err(|e| GpuError::driver("cuFuncSetAttribute", e))
    };
    attribute(sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1)?;
    attribute(sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, config.shared_mem_bytes)?;
    let mut cluster = sys::CUlaunchAttribute {
        id: sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
        pad: [0; 4],
        // SAFETY: an all-zero union of plain integers is a valid value.
        value: unsafe { std::mem::zeroed() },
    };
    cluster.value.clusterDim = sys::CUlaunchAttributeValue_union__bindgen_ty_1 { x: config.grid_dim.0, y: 1, z: 1 };
    let launch = sys::CUlaunchConfig {
        gridDimX: config.grid_dim.0,
        gridDimY: config.grid_dim.1,
        gridDimZ: config.grid_dim.2,
        blockDimX: config.block_dim.0,
        blockDimY: config.block_dim.1,
        blockDimZ: config.block_dim.2,
        sharedMemBytes: config.shared_mem_bytes,
        hStream: stream.cu_stream(),
        attrs: &mut cluster,
        numAttrs: 1,
    };
    let base = (params as *const P).cast::<u8>();
    // SAFETY (pointer arithmetic only): each field lies inside `*params` (the interface
    // crate's layout tests), which outlives the call.
    let mut fields: Vec<*mut std::ffi::c_void> =
        P::FIELDS.iter().map(|field| base.wrapping_add(field.offset) as *mut std::ffi::c_void).collect();
    stream.context().bind_to_thread().map_err(|e| GpuError::driver("cuCtxSetCurrent", e))?;
    // SAFETY: as for `Launch::run`'s launch: the caller checked the kernel's contract, and
    // `fields` points at each parameter's bytes in order and size; the configuration and its
    // one attribute live until the call returns, and the driver copies the parameters.
    unsafe { sys::cuLaunchKernelEx(&launch, function.cu_function(), fields.as_mut_ptr(), std::ptr::null_mut()) }
        .result()
        .map_err(|e| GpuError::launch(P::KERNEL, e))
}

/// The first byte of one field of a parameter struct: cudarc hands the driver its address, and
/// the driver copies the kernel parameter's size from there.
#[repr(transparent)]
struct FieldBytes(u8);

// SAFETY: a plain byte, valid to copy to the device.
unsafe impl DeviceRepr for FieldBytes {}

/// Device time of the work `launch` queues, by a pair of CUDA events; waits for it to finish
/// (a fault shows up here, as a launch error of `kernel`, the last kernel queued).
pub fn time_on_device(
    gpu: &GpuContext,
    kernel: &'static str,
    launch: impl FnOnce() -> Result<(), GpuError>,
) -> Result<std::time::Duration, GpuError> {
    let start = gpu.record_event()?;
    launch()?;
    device_time_since(gpu, kernel, &start)
}

/// Device time from `start`, an event already queued, to the end of the work queued after it;
/// waits for that work (a fault shows up here, as a launch error of `kernel`).
fn device_time_since(
    gpu: &GpuContext,
    kernel: &'static str,
    start: &cudarc::driver::CudaEvent,
) -> Result<std::time::Duration, GpuError> {
    let end = gpu.record_event()?;
    end.synchronize().map_err(|e| GpuError::launch(kernel, e))?;
    GpuContext::time_between(start, &end)
}
