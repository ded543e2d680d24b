//! The stages of a benchmark run, each reported once: those paid once per run (loading the
//! graph: reading and building its CSR; placing it for the GPU) and those paid per trial
//! (the traversal, the download of its labels), with the bus's pinned bandwidths measured in
//! the same run to compare the copies against.

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use crate::bench::json::BenchReport;
use crate::bench::stats::median;
use crate::bfs::Traverser;
use crate::error::Result;
use crate::formats::LoadStages;
use crate::gpu::{CopyStep, GpuContext};

/// Arrays below this are not listed under the placement (they still count in its rest).
const PLACEMENT_LINE_MIN_BYTES: u64 = 1 << 20;

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
    /// The placement of `traverser`'s graph, with the bus measured now; None on the CPU.
    pub fn of(traverser: &Traverser<'_>) -> Result<Option<PlacementStage>> {
        let (Some(gpu), Some(time), Some(bytes), Some(placement)) =
            (traverser.gpu(), traverser.placement_time(), traverser.gpu_graph_stored_bytes(), traverser.placement())
        else {
            return Ok(None);
        };
        let seconds = time.as_secs_f64();
        let (to_device, to_host) = pinned_bandwidths(gpu)?;
        Ok(Some(PlacementStage {
            ms: seconds * 1e3,
            bytes,
            placement: placement.to_string(),
            bytes_per_s: bytes as f64 / seconds.max(1e-9),
            pinned_host_to_device_bytes_per_s: to_device,
            pinned_device_to_host_bytes_per_s: to_host,
            copies: traverser.placement_copies().iter().map(PlacementCopy::of).collect(),
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

/// The stage table of a BFS report: read, build and placement once, then the median root's
/// traversal, download and end-to-end time, each copy against the pinned bandwidth. A report
/// written before schema version 5 has the load as one stage.
pub fn stage_lines(report: &BenchReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "stages, once per run:");
    match &report.load {
        Some(load) => {
            let _ = writeln!(out, "  {:<20} {:>10.1} ms", "read", load.read_ms);
            let _ = writeln!(out, "  {:<20} {:>10.1} ms", "build", load.build_ms);
        }
        None => {
            let _ = writeln!(out, "  {:<20} {:>10.1} ms", "load (read + build)", report.load_ms);
        }
    }
    if let Some(place) = &report.placement {
        let _ = writeln!(
            out,
            "  {:<20} {:>10.1} ms  {:>12} bytes  {:>7.2} GB/s  ({}; {:.0}% of the pinned host-to-device {:.2} GB/s)",
            "place",
            place.ms,
            place.bytes,
            place.bytes_per_s / 1e9,
            place.placement,
            100.0 * place.bytes_per_s / place.pinned_host_to_device_bytes_per_s,
            place.pinned_host_to_device_bytes_per_s / 1e9
        );
        // Where the placement went, by array; the rest is host work and waiting.
        for copy in place.copies.iter().filter(|copy| copy.bytes >= PLACEMENT_LINE_MIN_BYTES) {
            let seconds = (copy.allocate_ms + copy.copy_ms) / 1e3;
            let _ = writeln!(
                out,
                "    {:<34} {:>12} bytes  {:>7.2} GB/s  {:<11} allocate {:.1} ms, copy {:.1} ms",
                copy.what,
                copy.bytes,
                copy.bytes as f64 / seconds.max(1e-9) / 1e9,
                copy.path,
                copy.allocate_ms,
                copy.copy_ms
            );
        }
        if !place.copies.is_empty() {
            let arrays: f64 = place.copies.iter().map(|copy| copy.allocate_ms + copy.copy_ms).sum();
            let _ = writeln!(
                out,
                "    {:<34} {:>10.1} ms  (host work and waits beside the {} arrays' {:.1} ms)",
                "the rest",
                place.ms - arrays,
                place.copies.len(),
                arrays
            );
        }
    }
    let column = |f: fn(&crate::bench::RootRecord) -> f64| report.trials.iter().map(f).collect::<Vec<f64>>();
    let (Some(traverse), Some(download), Some(end_to_end)) = (
        median(&column(|r| r.time_ms)),
        median(&column(|r| r.details.download_ms)),
        median(&column(|r| r.end_to_end_ms)),
    ) else {
        return out;
    };
    let _ = writeln!(out, "stages, per root (median of {}):", report.trials.len());
    let _ = writeln!(out, "  {:<20} {:>10.3} ms", "traverse", traverse);
    let bytes = report.trials.first().map_or(0, |r| r.details.download_bytes);
    if bytes > 0 {
        let rate = bytes as f64 / (download / 1e3);
        let against = match &report.placement {
            Some(place) => format!(
                " ({:.0}% of the pinned device-to-host {:.2} GB/s)",
                100.0 * rate / place.pinned_device_to_host_bytes_per_s,
                place.pinned_device_to_host_bytes_per_s / 1e9
            ),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "  {:<20} {:>10.3} ms  {:>12} bytes  {:>7.2} GB/s{against}",
            "download",
            download,
            bytes,
            rate / 1e9
        );
    }
    let _ = writeln!(
        out,
        "  {:<20} {:>10.3} ms  (beyond traverse + download: {:.3} ms)",
        "end-to-end",
        end_to_end,
        end_to_end - traverse - download
    );
    out
}
