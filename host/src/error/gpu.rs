//! The GPU runtime's errors ([`crate::gpu`] re-exports them), kept beside the crate's one error type,
//! whose `Gpu` variant holds them, so that the error room imports nothing of the rooms above it.

use std::fmt;

use cudarc::driver::DriverError;

/// Why the GPU could not do what was asked. Each message says what to do next.
#[derive(Debug)]
pub enum GpuError {
    /// libcuda could not be loaded: no NVIDIA driver on this machine.
    NoDriver,
    /// The driver loaded but reports no CUDA device.
    NoDevice,
    /// A driver call failed outside any kernel.
    Driver { call: &'static str, detail: String },
    /// Not enough free device memory for `what`.
    OutOfMemory { what: String, needed: u64, free: u64 },
    /// The driver refused the embedded PTX module.
    ModuleLoad { detail: String },
    /// A kernel failed to launch or faulted while running.
    Launch { kernel: &'static str, detail: String },
    /// A launcher was called with buffers that break the kernel's contract (a bug in warpath).
    Contract { kernel: &'static str, problem: String },
    /// A traversal that cannot run on this graph as asked (a compressed graph for a kernel that
    /// reads plain lists, say); the message says what to ask instead.
    Unsupported(String),
    /// A watched wait was called off ([`WaitWatch`](crate::gpu::WaitWatch)): why, in the
    /// watch's words (a peer rank failed or stopped answering).
    Stopped(String),
}

impl GpuError {
    pub(crate) fn driver(call: &'static str, err: DriverError) -> Self {
        GpuError::Driver { call, detail: describe(err) }
    }

    pub(crate) fn launch(kernel: &'static str, err: DriverError) -> Self {
        GpuError::Launch { kernel, detail: describe(err) }
    }

    /// True for errors that mean "there is no usable GPU here", as opposed to a GPU that failed.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, GpuError::NoDriver | GpuError::NoDevice)
    }
}

/// "CUDA_ERROR_X: the driver's own sentence", falling back to the numeric code.
fn describe(err: DriverError) -> String {
    match (err.error_name(), err.error_string()) {
        (Ok(name), Ok(text)) => format!("{}: {}", name.to_string_lossy(), text.to_string_lossy()),
        _ => format!("{:?}", err.0),
    }
}

fn gib(bytes: u64) -> String {
    format!("{:.2} GiB", bytes as f64 / (1u64 << 30) as f64)
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::NoDriver => f.write_str("no NVIDIA driver found (libcuda could not be loaded)"),
            GpuError::NoDevice => f.write_str("the NVIDIA driver reports no CUDA device"),
            GpuError::Driver { call, detail } => write!(f, "{call} failed: {detail}"),
            GpuError::OutOfMemory { what, needed, free } => write!(
                f,
                "out of device memory for {what}: needs {needed} bytes ({}), {free} bytes ({}) free",
                gib(*needed),
                gib(*free)
            ),
            GpuError::ModuleLoad { detail } => write!(
                f,
                "the driver could not load warpath's PTX: {detail} (the driver may be older than the PTX ISA the kernels need; update it)"
            ),
            GpuError::Launch { kernel, detail } => write!(f, "kernel `{kernel}` failed: {detail}"),
            GpuError::Unsupported(message) | GpuError::Stopped(message) => f.write_str(message),
            GpuError::Contract { kernel, problem } => {
                write!(f, "internal error: kernel `{kernel}` called with {problem}; please report this")
            }
        }
    }
}

impl std::error::Error for GpuError {}

#[cfg(test)]
mod tests {
    use super::GpuError;

    #[test]
    fn a_refused_request_reads_as_advice_and_a_broken_contract_as_a_bug() {
        let refused = GpuError::Unsupported("place the graph uncompressed, or use the top-down kernel".into());
        assert_eq!(refused.to_string(), "place the graph uncompressed, or use the top-down kernel");
        let broken = GpuError::Contract { kernel: "bfs_edge_queue", problem: "a short queue".into() };
        assert!(broken.to_string().starts_with("internal error"), "{broken}");
    }
}
