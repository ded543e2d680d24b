//! GPU direction-optimizing BFS in one persistent kernel (`bfs_persistent` in
//! `device/src/bfs/persistent/mod.rs`, which documents the techniques): the host initialises,
//! launches once (or, where the first level of each bottom-up stretch runs apart,
//! `PersistentParams::splits_bottom_up`, queues that level's launch and the resumed one after it),
//! and reads back the labels and a per-level trace.

use std::time::{Duration, Instant};

use cudarc::driver::CudaSlice;

use crate::bfs::switching::{switch_inputs, Switching};
use crate::bfs::trace::{Direction, LevelTrace};
use crate::bfs::trace::{FrontierConversion, FrontierOutput, Generation};
use crate::bfs::BfsResult;
use warpath_interface::bfs::persistent::{
    PersistentControl, TraceFlags, TraceRecord, CONTROL_WORDS, SHARED_LIST_EDGES, SHARED_LIST_WORDS, TRACE_WORDS,
};

use crate::bfs::gpu::launch::{self as kernels, PersistentBuffers, PersistentLaunch};
use crate::bfs::gpu::tuning::PersistentParams;
use crate::gpu::launch::time_on_device;
use crate::gpu::{DeviceGraph, Download, GpuContext, GpuError, PinnedBuffer};
use crate::graph::Graph;
use warpath_interface::names;

/// The words of a trace record that hold `m_f`, `m_u` and the level's start time.

/// Levels recorded in the trace; deeper levels still run, untraced.
const TRACE_CAPACITY: usize = 1 << 16;

/// The persistent kernel's device arrays (labels, bitmaps, queues, control block, shared-list
/// table, trace), owned apart from the graph they serve so that a prepared graph
/// (`bfs::Traverser`) keeps them from one traversal to the next: every run resets what it
/// reads (`bfs_persistent_init`, the control block, the trace), so none is allocated twice.
pub struct PersistentArrays {
    distances: CudaSlice<u32>,
    /// None for a distances-only BFS, which saves its 4n bytes.
    parents: Option<CudaSlice<u32>>,
    visited: CudaSlice<u32>,
    frontier_bits: CudaSlice<u32>,
    queues: CudaSlice<u32>,
    control: CudaSlice<u64>,
    shared_lists: CudaSlice<u64>,
    trace: CudaSlice<u64>,
}

impl PersistentArrays {
    /// The arrays for a graph of `n` vertices and `m` edges, without parents when
    /// `distances_only`; refused up front when they do not fit the free device memory.
    pub fn new(gpu: &GpuContext, n: usize, m: u64, distances_only: bool) -> Result<Self, GpuError> {
        let n = n.max(1);
        let words = n.div_ceil(32);
        gpu.ensure_free(
            GpuPersistent::bytes_needed_for(n as u32, m, distances_only),
            "BFS labels, bitmaps and queues",
        )?;
        Ok(PersistentArrays {
            distances: gpu.alloc_zeros(n, "BFS distances")?,
            parents: if distances_only { None } else { Some(gpu.alloc_zeros(n, "BFS parents")?) },
            visited: gpu.alloc_zeros(words, "the visited bitmap")?,
            // Two frontiers and the asynchronous bottom-up's pending vertices.
            frontier_bits: gpu.alloc_zeros(3 * words, "the frontier bitmaps")?,
            queues: gpu.alloc_zeros(2 * n, "the frontier queues")?,
            control: gpu.alloc_zeros(CONTROL_WORDS, "the BFS control block")?,
            shared_lists: gpu
                .alloc_zeros(SHARED_LIST_WORDS * shared_list_capacity(n as u64, m) as usize, "the shared-list table")?,
            trace: gpu.alloc_zeros(TRACE_WORDS * (TRACE_CAPACITY + 1), "the level trace")?,
        })
    }

    /// Whether these arrays label distances only (no parents array).
    pub fn distances_only(&self) -> bool {
        self.parents.is_none()
    }

    /// The distances of the last run, on the device (unreached: `u32::MAX`).
    pub fn distances(&self) -> &CudaSlice<u32> {
        &self.distances
    }
}

/// Device buffers for repeated persistent-kernel BFS runs on one graph.
pub struct GpuPersistent<'g> {
    gpu: &'g GpuContext,
    graph: &'g Graph,
    device_graph: &'g DeviceGraph,
    inbound: &'g DeviceGraph,
    max_out_degree: u64,
    arrays: PersistentArrays,
}

/// One persistent-kernel traversal.
pub struct PersistentRun {
    pub result: BfsResult,
    /// CUDA-event time of initialisation plus the persistent kernel.
    pub kernel_ms: f64,
    /// Per level: direction, frontier, edges inspected, bytes read, time (from `%globaltimer`).
    pub levels: Vec<LevelTrace>,
    /// Reading the labels back ([`Download`]).
    pub download: Download,
}

impl<'g> GpuPersistent<'g> {
    /// Device bytes of the per-vertex arrays for `n` vertices and `m` edges (the shared-list
    /// table grows with the edges), distances and parents both labelled.
    pub fn bytes_needed(n: u32, m: u64) -> u64 {
        Self::bytes_needed_for(n, m, false)
    }

    /// [`bytes_needed`](Self::bytes_needed), or 4n bytes fewer for a distances-only BFS (no
    /// parents array).
    pub fn bytes_needed_for(n: u32, m: u64, distances_only: bool) -> u64 {
        let n = n.max(1) as u64;
        let words = n.div_ceil(32);
        let parents = if distances_only { 0 } else { n };
        4 * (n + parents + 2 * n)
            + 4 * (4 * words)
            + 8 * (CONTROL_WORDS + TRACE_WORDS * (TRACE_CAPACITY + 1)) as u64
            + 8 * (SHARED_LIST_WORDS as u64 * shared_list_capacity(n, m))
    }

    /// `inbound` is the transpose of `device_graph` (pass `device_graph` itself when the
    /// graph is undirected); `graph` is the host copy, for source degrees.
    pub fn new(
        gpu: &'g GpuContext,
        graph: &'g Graph,
        device_graph: &'g DeviceGraph,
        inbound: &'g DeviceGraph,
    ) -> Result<Self, GpuError> {
        Self::with_max_out_degree(gpu, graph, device_graph, inbound, graph.max_degree())
    }

    /// [`new`](Self::new) for a caller that already knows the graph's largest out-degree, which
    /// `new` finds with a pass over every vertex.
    pub fn with_max_out_degree(
        gpu: &'g GpuContext,
        graph: &'g Graph,
        device_graph: &'g DeviceGraph,
        inbound: &'g DeviceGraph,
        max_out_degree: u64,
    ) -> Result<Self, GpuError> {
        Self::with_labels(gpu, graph, device_graph, inbound, max_out_degree, false)
    }

    /// [`with_max_out_degree`](Self::with_max_out_degree), choosing the labels: with
    /// `distances_only`, no parents array is allocated, the kernels write none, and every
    /// [`run`](Self::run) returns a result without parents ([`BfsResult::has_parents`]).
    pub fn with_labels(
        gpu: &'g GpuContext,
        graph: &'g Graph,
        device_graph: &'g DeviceGraph,
        inbound: &'g DeviceGraph,
        max_out_degree: u64,
        distances_only: bool,
    ) -> Result<Self, GpuError> {
        let arrays = PersistentArrays::new(gpu, graph.num_vertices(), graph.num_edges(), distances_only)?;
        Ok(Self::with_arrays(gpu, graph, device_graph, inbound, max_out_degree, arrays))
    }

    /// [`with_labels`](Self::with_labels) over arrays made earlier for the same graph
    /// ([`into_arrays`](Self::into_arrays) gives them back after the runs).
    pub fn with_arrays(
        gpu: &'g GpuContext,
        graph: &'g Graph,
        device_graph: &'g DeviceGraph,
        inbound: &'g DeviceGraph,
        max_out_degree: u64,
        arrays: PersistentArrays,
    ) -> Self {
        GpuPersistent { gpu, graph, device_graph, inbound, max_out_degree, arrays }
    }

    /// The device arrays, to keep for the next runs on the same graph.
    pub fn into_arrays(self) -> PersistentArrays {
        self.arrays
    }

    /// A BFS from `source` (an internal id `< n` with out-edges; the caller checks it), with
    /// its per-level trace.
    pub fn run(&mut self, source: u32, params: PersistentParams) -> Result<PersistentRun, GpuError> {
        let labels = BfsResult { source, distances: Vec::new(), parents: Vec::new() };
        self.run_reusing(source, params, true, LabelsTarget::Vectors(labels))
    }

    /// A BFS from `source` (as [`run`](Self::run); `source_degree` its list's length in the
    /// lists searched) whose labels stay on the device, read there through
    /// [`PersistentArrays::distances`] by another kernel. Returns the device time of the
    /// initialisation and the kernel.
    pub fn run_on_device(
        &mut self,
        source: u32,
        source_degree: u64,
        params: PersistentParams,
    ) -> Result<std::time::Duration, GpuError> {
        let gpu = self.gpu;
        let n = self.graph.num_vertices() as u32;
        let control = PersistentControl {
            frontier_len: [1, 0, 0],
            frontier_edges: [source_degree, 0, 0],
            in_listed_vertices: self.inbound.nonempty_lists(),
            ..Default::default()
        };
        let arrays = &mut self.arrays;
        gpu.copy_into(bytemuck::cast_slice::<PersistentControl, u64>(&[control]), &mut arrays.control)?;
        gpu.zero(&mut arrays.trace)?;
        let mut buffers = PersistentBuffers {
            distances: &mut arrays.distances,
            parents: arrays.parents.as_mut(),
            visited: &mut arrays.visited,
            frontier_bits: &mut arrays.frontier_bits,
            queues: &mut arrays.queues,
            control: &mut arrays.control,
            shared_lists: &mut arrays.shared_lists,
            trace: &mut arrays.trace,
        };
        let compressed = self.device_graph.is_compressed();
        let kernel = if compressed { names::BFS_PERSISTENT_COMPRESSED } else { names::BFS_PERSISTENT };
        time_on_device(gpu, kernel, || {
            // Vertices without in-edges start out visited only for runs that may go bottom-up:
            // `inbound` is the graph itself for a directed graph kept top-down, and its empty
            // lists are then out-lists.
            let in_lists = params.bottom_up.then_some(self.inbound);
            kernels::bfs_persistent_init(gpu, n, source, in_lists, &mut buffers)?;
            let (graph, inbound, max_out_degree) = (self.device_graph, self.inbound, self.max_out_degree);
            kernels::bfs_persistent(
                gpu,
                graph,
                inbound,
                max_out_degree,
                &mut buffers,
                params,
                PersistentLaunch::First,
            )?;
            if !kernels::splits_bottom_up(&params, graph) {
                return Ok(());
            }
            // The persistent kernel stops before the first level of each bottom-up stretch; a
            // launch of its own runs that level, and the persistent kernel carries on. Both are
            // queued without waiting (each returns at once where there is nothing left to it),
            // so a traversal with one stretch never waits on the host; the control block says
            // whether another stretch stopped it again.
            let mut control = [0u64; CONTROL_WORDS];
            loop {
                for which in [PersistentLaunch::SplitLevel, PersistentLaunch::Resume] {
                    kernels::bfs_persistent(gpu, graph, inbound, max_out_degree, &mut buffers, params, which)?;
                }
                gpu.download_into(buffers.control, &mut control)?;
                let state: &PersistentControl = bytemuck::from_bytes(bytemuck::cast_slice(&control));
                if state.stopped == 0 {
                    return Ok(());
                }
            }
        })
    }

    /// [`run`](Self::run), reading the labels back where `labels` says (a previous result's
    /// vectors, whose memory is reused, so the download pays no allocation or page faults; or
    /// pinned buffers), and the trace only when `trace` (else `levels` is empty).
    pub fn run_reusing(
        &mut self,
        source: u32,
        params: PersistentParams,
        trace: bool,
        labels: LabelsTarget<'_>,
    ) -> Result<PersistentRun, GpuError> {
        let gpu = self.gpu;
        let n = self.graph.num_vertices() as u32;
        let kernel_time = self.run_on_device(source, self.graph.degree(source), params)?;
        let arrays = &self.arrays;
        let kernel_ms = kernel_time.as_secs_f64() * 1e3;
        let (result, download) =
            download_labels(gpu, source, &arrays.distances, arrays.parents.as_ref(), n as usize, labels)?;
        let levels = if trace {
            let control: PersistentControl =
                *bytemuck::from_bytes(bytemuck::cast_slice(&gpu.download(&arrays.control)?));
            // The records of the levels run and the one after the last, not the whole capacity.
            let mut records = vec![0u64; TRACE_WORDS * ((control.levels as usize).min(TRACE_CAPACITY) + 1)];
            gpu.download_into(&arrays.trace, &mut records)?;
            decode_trace(&records, control.levels as usize, &self.switching(params))
        } else {
            Vec::new()
        };
        Ok(PersistentRun { result, kernel_ms, levels, download })
    }
}

/// Where a run's labels go on the host.
pub enum LabelsTarget<'a> {
    /// Into these vectors (a previous result's: their memory is reused), returned as the
    /// run's result.
    Vectors(BfsResult),
    /// Into pinned buffers the caller keeps, at the bus's rate, to be read in place; the
    /// run's result then has empty vectors.
    Pinned(&'a mut PinnedLabels),
}

/// A traversal's labels in pinned host memory, kept from one run to the next.
pub struct PinnedLabels {
    distances: PinnedBuffer<u32>,
    /// None for distances-only runs.
    parents: Option<PinnedBuffer<u32>>,
}

impl PinnedLabels {
    /// Buffers for `n` vertices, with parents or without.
    pub fn new(gpu: &GpuContext, n: usize, parents: bool) -> Result<PinnedLabels, GpuError> {
        Ok(PinnedLabels {
            distances: gpu.pinned_zeros(n, "the BFS distances read back")?,
            parents: if parents { Some(gpu.pinned_zeros(n, "the BFS parents read back")?) } else { None },
        })
    }

    /// The distances of the last run that read its labels into these buffers.
    pub fn distances(&self) -> Result<&[u32], GpuError> {
        self.distances.as_slice()
    }

    /// Its parents (None when it labeled distances only).
    pub fn parents(&self) -> Result<Option<&[u32]>, GpuError> {
        self.parents.as_ref().map(PinnedBuffer::as_slice).transpose()
    }
}

/// A finished traversal's labels read back where `target` says (vectors resized to `n`,
/// their memory reused; or pinned buffers of `n`), without parents when the run labeled
/// distances only; with the time and bytes of the copies.
pub(crate) fn download_labels(
    gpu: &GpuContext,
    source: u32,
    distances: &CudaSlice<u32>,
    parents: Option<&CudaSlice<u32>>,
    n: usize,
    target: LabelsTarget<'_>,
) -> Result<(BfsResult, Download), GpuError> {
    let started = Instant::now();
    let (result, bytes) = match target {
        LabelsTarget::Vectors(reuse) => {
            let BfsResult { distances: mut host_distances, parents: mut host_parents, .. } = reuse;
            host_distances.resize(n, 0);
            gpu.download_into(distances, &mut host_distances)?;
            match parents {
                Some(parents) => {
                    host_parents.resize(n, 0);
                    gpu.download_into(parents, &mut host_parents)?;
                }
                None => host_parents.clear(),
            }
            let bytes = 4 * (host_distances.len() + host_parents.len()) as u64;
            (BfsResult { source, distances: host_distances, parents: host_parents }, bytes)
        }
        LabelsTarget::Pinned(pinned) => {
            gpu.download_to_pinned(distances, &mut pinned.distances)?;
            let mut bytes = 4 * n as u64;
            if let (Some(device), Some(host)) = (parents, pinned.parents.as_mut()) {
                gpu.download_to_pinned(device, host)?;
                bytes += 4 * n as u64;
            }
            (BfsResult { source, distances: Vec::new(), parents: Vec::new() }, bytes)
        }
    };
    Ok((result, Download { time: started.elapsed(), bytes }))
}

impl GpuPersistent<'_> {
    /// The switching rule `params` give the kernel on this graph.
    fn switching(&self, params: PersistentParams) -> Switching {
        Switching {
            rule: params.switch_rule,
            alpha: params.alpha,
            beta: params.beta,
            n: self.graph.num_vertices() as u64,
            edges: self.graph.num_edges(),
            in_listed: self.inbound.nonempty_lists() as u64,
        }
    }
}

/// Entries of the shared-list table: one per list of `SHARED_LIST_EDGES` or more edges in a
/// level (a level holds at most all `m` edges), and room for a small level's lists of 32 edges
/// or more, which the kernel shares only while the level's frontier (one entry a vertex at
/// most) is below the capacity: at least `min(n, SMALL_LEVEL_ENTRIES)`, so every level small
/// enough to give no block a second tile qualifies on today's GPUs (528 blocks of 256 threads
/// on an H100 or H200: 135,168 vertices).
fn shared_list_capacity(n: u64, m: u64) -> u64 {
    (m / SHARED_LIST_EDGES).max(n.min(SMALL_LEVEL_ENTRIES)) + 1
}

/// The shared-list entries reserved for small levels, whatever the graph's edges (6 MiB).
const SMALL_LEVEL_ENTRIES: u64 = 1 << 18;

/// Turns the device's trace records into [`LevelTrace`]s (levels past the capacity are left
/// out; the last recorded level's time runs to the end of the traversal), each with its
/// frontier generation and, from the counters it recorded, the switching rule's verdict.
pub fn decode_trace(trace: &[u64], levels: usize, switching: &Switching) -> Vec<LevelTrace> {
    let recorded = levels.min(TRACE_CAPACITY);
    let records: &[TraceRecord] = bytemuck::cast_slice(trace);
    let mut out: Vec<LevelTrace> = Vec::with_capacity(recorded);
    for level in 0..recorded {
        let record = &records[level];
        let next_start = records[level + 1].start_time;
        let flags = TraceFlags(record.flags);
        let bottom_up = flags.contains(TraceFlags::BOTTOM_UP);
        let conversion = if flags.contains(TraceFlags::PACKED_QUEUE) {
            Some(FrontierConversion::Packed)
        } else if flags.contains(TraceFlags::BUILT_BITMAP) {
            Some(FrontierConversion::Scattered)
        } else {
            None
        };
        let output = match (bottom_up, flags.contains(TraceFlags::WROTE_QUEUE), flags.contains(TraceFlags::DOUBLE_SCAN))
        {
            (false, true, _) => FrontierOutput::ScanFree,
            (false, false, _) => FrontierOutput::SingleScan,
            (true, false, false) => FrontierOutput::Ballot,
            (true, true, false) => FrontierOutput::BallotAndQueue,
            (true, false, true) => FrontierOutput::DoubleScan,
            (true, true, true) => FrontierOutput::DoubleScanAndQueue,
        };
        out.push(LevelTrace {
            level: level as u32,
            direction: if bottom_up { Direction::BottomUp } else { Direction::TopDown },
            frontier: record.frontier,
            edges_inspected: record.edges,
            bytes_read: record.bytes,
            bus_bytes: record.bus_bytes,
            time: Duration::from_nanos(next_start.saturating_sub(record.start_time)),
            frontier_edges: record.frontier_edges,
            unvisited_edges: record.unvisited_edges,
            generation: Some(Generation {
                conversion,
                output,
                predicted_switch: flags.contains(TraceFlags::PREDICTED_SWITCH),
                alone: flags.contains(TraceFlags::ALONE),
            }),
            decision: None,
        });
        // The rule's inputs are this level's counters and the level before's.
        out[level].decision = Some(switching.explain(&switch_inputs(&out, level, switching.in_listed)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::gpu::tuning::{BottomUpBalance, DoubleScanConflict};
    use crate::bfs::switching::SwitchRule;

    /// One record as the kernel writes it: flags, frontier, edges, bytes, bus bytes, m_f, m_u,
    /// start time.
    fn record(flags: u64, frontier: u64, m_f: u64, m_u: u64, start_ns: u64) -> [u64; TRACE_WORDS] {
        bytemuck::cast(TraceRecord {
            flags,
            frontier,
            edges: m_f,
            bytes: 4 * m_f,
            bus_bytes: 0,
            frontier_edges: m_f,
            unvisited_edges: m_u,
            start_time: start_ns,
        })
    }

    /// A four-level Kronecker-like trace: top-down alone, a single-scan level that lambda
    /// predicted, bottom-up reading that bitmap, then top-down from a packed queue.
    #[test]
    fn decoding_names_each_generation_and_explains_each_decision() {
        let switching =
            Switching { rule: SwitchRule::Beamer, alpha: 15.0, beta: 18.0, n: 1000, edges: 20_000, in_listed: 1000 };
        let records = [
            record(TraceFlags::ALONE.bits() | TraceFlags::WROTE_QUEUE.bits(), 1, 20, 19_980, 1_000),
            record(TraceFlags::WROTE_BITMAP.bits() | TraceFlags::PREDICTED_SWITCH.bits(), 20, 900, 19_080, 2_000),
            record(TraceFlags::BOTTOM_UP.bits() | TraceFlags::WROTE_BITMAP.bits(), 400, 15_000, 4_080, 5_000),
            record(TraceFlags::PACKED_QUEUE.bits() | TraceFlags::WROTE_QUEUE.bits(), 30, 60, 20, 9_000),
            [0, 0, 0, 0, 0, 0, 0, 9_500],
        ];
        let trace: Vec<u64> = records.iter().flatten().copied().collect();
        let levels = decode_trace(&trace, 4, &switching);
        let shown: Vec<String> = levels.iter().map(|l| l.generation.unwrap().to_string()).collect();
        assert_eq!(shown, ["scan-free, one block", "single-scan (predicted)", "ballot", "packed > scan-free"]);
        let directions: Vec<Direction> = levels.iter().map(|l| l.direction).collect();
        assert_eq!(directions, [Direction::TopDown, Direction::TopDown, Direction::BottomUp, Direction::TopDown]);
        assert_eq!(levels[2].time, Duration::from_nanos(4_000));
        assert_eq!(levels[3].time, Duration::from_nanos(500));
        assert_eq!((levels[1].frontier_edges, levels[1].unvisited_edges), (900, 19_080));
        // Each verdict is Beamer's rule on the counters recorded, with the level before's.
        assert_eq!(levels[1].decision.as_deref(), Some("m_f*alpha 13500 <= m_u 19080, growing: top-down"));
        assert_eq!(levels[2].decision.as_deref(), Some("m_f*alpha 225000 > m_u 4080, growing: bottom-up"));
        assert_eq!(levels[3].decision.as_deref(), Some("n_f*beta 540 < n 1000, shrinking: top-down"));
        let inputs = switch_inputs(&levels, 3, switching.in_listed);
        assert_eq!((inputs.previous_frontier, inputs.previous_edges, inputs.previous_bottom_up), (400, 15_000, true));
    }

    #[test]
    fn double_scan_levels_are_named_and_its_conflicts_explained() {
        let switching =
            Switching { rule: SwitchRule::Xbfs, alpha: 0.03, beta: 18.0, n: 1000, edges: 20_000, in_listed: 1000 };
        let records = [
            record(
                TraceFlags::BOTTOM_UP.bits()
                    | TraceFlags::BUILT_BITMAP.bits()
                    | TraceFlags::WROTE_BITMAP.bits()
                    | TraceFlags::DOUBLE_SCAN.bits(),
                1,
                20,
                19_980,
                0,
            ),
            record(
                TraceFlags::BOTTOM_UP.bits()
                    | TraceFlags::WROTE_BITMAP.bits()
                    | TraceFlags::WROTE_QUEUE.bits()
                    | TraceFlags::DOUBLE_SCAN.bits(),
                30,
                900,
                9_000,
                10,
            ),
            [0, 0, 0, 0, 0, 0, 0, 20],
        ];
        let trace: Vec<u64> = records.iter().flatten().copied().collect();
        let shown: Vec<String> =
            decode_trace(&trace, 2, &switching).iter().map(|l| l.generation.unwrap().to_string()).collect();
        assert_eq!(shown, ["scattered > double-scan", "double-scan+queue"]);

        let double_scan = PersistentParams { double_scan: true, ..PersistentParams::default() };
        assert_eq!(double_scan.double_scan_conflict(false), None);
        assert_eq!(double_scan.double_scan_conflict(true), Some(DoubleScanConflict::ZeroCopy));
        assert!(DoubleScanConflict::ZeroCopy.to_string().contains("needs the graph in device memory"));
        let asynchronous = PersistentParams { async_bottom_up: true, ..double_scan };
        assert_eq!(asynchronous.double_scan_conflict(false), Some(DoubleScanConflict::AsyncBottomUp));
        let balanced = PersistentParams { bottom_up_balance: BottomUpBalance::Warp, ..double_scan };
        assert_eq!(balanced.double_scan_conflict(false), Some(DoubleScanConflict::Balance));
        assert_eq!(
            PersistentParams { async_bottom_up: true, ..PersistentParams::default() }.double_scan_conflict(true),
            None
        );
    }
}
