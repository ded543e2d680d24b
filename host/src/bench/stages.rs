//! The stages of a benchmark run, each reported once: those paid once per run (loading the
//! graph: reading and building its CSR; placing it for the GPU) and those paid per trial
//! (the traversal, the download of its labels), with the bus's pinned bandwidths measured in
//! the same run to compare the copies against.

use serde::{Deserialize, Serialize};

#[cfg(doc)]
use crate::bfs::Traverser;
use crate::engine::GpuGraph;
use crate::error::Result;
use crate::formats::LoadStages;
use crate::gpu::{CopyStep, GpuContext};

/// Bytes each bandwidth probe copies (256 MiB: long enough to reach the bus's rate).
pub const BUS_PROBE_BYTES: usize = 256 << 20;

/// Loading the graph, once per run: reading the file (or generating the edges) and building
/// its CSR (nothing for a `.wgr` file read as stored), as `warpath info` splits them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LoadStage {
    /// Reading the file, or generating the edges, in milliseconds.
    pub read_ms: f64,
    /// Building the CSR from the edges (with seeded weights attached, where asked), in
    /// milliseconds.
    pub build_ms: f64,
}

impl LoadStage {
    /// The stages [`crate::input::load_graph_staged`] timed.
    pub fn of(stages: &LoadStages) -> LoadStage {
        LoadStage { read_ms: stages.read.as_secs_f64() * 1e3, build_ms: stages.build.as_secs_f64() * 1e3 }
    }

    /// Reading and building together.
    pub fn total_ms(&self) -> f64 {
        self.read_ms + self.build_ms
    }
}

/// Placing the graph for the GPU, once per run, against the bus measured in the same run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlacementStage {
    /// Wall time to put the offsets and lists (graph and transpose, with weights, list heads
    /// and the bitmaps of empty lists) where the GPU reads them.
    pub ms: f64,
    /// Bytes of offsets and lists placed, as stored (compressed or plain).
    pub bytes: u64,
    /// Where the lists went: `device` (copied) or `zero-copy` (pinned host memory mapped
    /// into the GPU).
    pub placement: String,
    /// `bytes / ms`, in bytes per second.
    pub bytes_per_s: f64,
    /// Pinned host-to-device `cuMemcpy` bandwidth, bytes per second, this run.
    pub pinned_host_to_device_bytes_per_s: f64,
    /// Pinned device-to-host `cuMemcpy` bandwidth, bytes per second, this run.
    pub pinned_device_to_host_bytes_per_s: f64,
    /// Each array the placement copied or pinned (added within schema version 5: empty when
    /// read from reports written before).
    #[serde(default)]
    pub copies: Vec<PlacementCopy>,
}

/// One array of a placement: how it reached the GPU, the time to allocate its memory (device
/// memory, or pinned host memory for zero-copy) and the time to copy it there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlacementCopy {
    pub what: String,
    pub bytes: u64,
    /// `pageable`, `staged`, `registered`, `pinned DMA`, `mapped copy` or `in place`.
    pub path: String,
    pub allocate_ms: f64,
    pub copy_ms: f64,
}

impl PlacementCopy {
    pub fn of(step: &CopyStep) -> PlacementCopy {
        PlacementCopy {
            what: step.what.clone(),
            bytes: step.bytes,
            path: step.path.name().to_string(),
            allocate_ms: step.allocate.as_secs_f64() * 1e3,
            copy_ms: step.copy.as_secs_f64() * 1e3,
        }
    }
}

impl PlacementStage {
    /// The placement of a graph placed once for every run (a [`Traverser`]'s, a
    /// `ComponentFinder`'s or a `PathFinder`'s), with the bus measured now; None on the CPU.
    pub fn of(placed: Option<&GpuGraph>) -> Result<Option<PlacementStage>> {
        let Some(placed) = placed else {
            return Ok(None);
        };
        let (gpu, time, bytes) = (placed.gpu(), placed.upload_time(), placed.stored_bytes());
        let seconds = time.as_secs_f64();
        let (to_device, to_host) = pinned_bandwidths(gpu)?;
        Ok(Some(PlacementStage {
            ms: seconds * 1e3,
            bytes,
            placement: placed.graph().placement().to_string(),
            bytes_per_s: bytes as f64 / seconds.max(1e-9),
            pinned_host_to_device_bytes_per_s: to_device,
            pinned_device_to_host_bytes_per_s: to_host,
            copies: placed.copies().iter().map(PlacementCopy::of).collect(),
        }))
    }
}

/// Pinned host-to-device and device-to-host bandwidths, bytes per second, with probes of
/// [`BUS_PROBE_BYTES`] (less when the device has less than four times that free).
pub fn pinned_bandwidths(gpu: &GpuContext) -> Result<(f64, f64)> {
    let (free, _) = gpu.memory_info()?;
    let probe = BUS_PROBE_BYTES.min(free as usize / 4);
    Ok((gpu.host_to_device_bandwidth(probe)?, gpu.device_to_host_bandwidth(probe)?))
}
