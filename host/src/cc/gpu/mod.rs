//! Connected components on the GPU: Afforest or Shiloach-Vishkin in one cooperative launch
//! (`cc_persistent`, `cc_persistent_compressed` in `device/src/cc/mod.rs`, which documents the
//! techniques). The host zeroes a control block and a trace, launches once, and downloads the
//! labels once (into a vector, or into pinned memory read in place), with the per-phase trace;
//! [`components_in`] keeps the device arrays from one run to the next.

pub mod cluster;

use std::time::{Duration, Instant};

use cudarc::driver::CudaSlice;
use warpath_interface::cc::{
    CcControl, CcFlags, CcPersistentCompressedParams, CcPersistentParams, TracePhase, CC_BLOCK, CC_CONTROL_WORDS,
    CC_TRACE_BYTES, CC_TRACE_FAILED_SWAPS, CC_TRACE_PHASE, CC_TRACE_STEPS, CC_TRACE_SWAPS, CC_TRACE_TIME,
    CC_TRACE_WORDS, LOCAL_CHUNK_MAX, LOCAL_CHUNK_MIN, MAX_SAMPLES,
};
use warpath_interface::{names, DeviceAddress};

use crate::cc::{
    valid_local_range, CcAlgorithm, CcInit, CcOptions, CcPhase, CcRun, Components, LinkCounts, LocalLink, PhaseTrace,
    RoundOrder, VertexBatch,
};
use crate::engine::Answer;
use crate::engine::{GpuGraph, Workspace};
use crate::error::{Error, Result};
use crate::gpu::launch::{blocks_of, require, resident_blocks, Launch, Residency};
use crate::gpu::{DeviceGraph, Download, GpuContext, GpuError, PinnedBuffer, Placement};
use crate::graph::Graph;

/// Phases recorded in the trace (Shiloach-Vishkin takes two a pass); later ones still run,
/// untraced, and the last recorded phase's time runs to the end.
const TRACE_CAPACITY: usize = 4096;

/// Device bytes of a run's arrays for `n` vertices: the labels, the control block, the trace.
pub fn bytes_needed(n: u64) -> u64 {
    4 * n.max(1) + 8 * (CC_CONTROL_WORDS + CC_TRACE_WORDS * (TRACE_CAPACITY + 1)) as u64
}

/// Device memory CC needs beside the graph, for `engine::prepare`: its per-vertex arrays;
/// `in_lists: true` when the graph is directed (weakly connected components link in-edges too);
/// list heads for Afforest's neighbor rounds, which then read a vertex's first neighbors in one
/// coalesced load instead of its offsets and then its list (bench/NOTES.md 140).
pub fn workspace(graph: &Graph, options: &CcOptions) -> Workspace {
    Workspace {
        in_lists: !graph.is_undirected(),
        list_heads: options.algorithm == CcAlgorithm::Afforest && options.neighbor_rounds > 0,
        ..Workspace::new(bytes_needed(graph.num_vertices() as u64), "the connected-components labels")
    }
}

/// Components of the placed graph (plain or compressed lists, device or zero-copy placement).
/// Labels are canonical: each component named by its smallest vertex.
///
/// A directed graph whose transpose did not fit the device has no in-lists: its out-lists
/// then serve both phases, every vertex links all of them, and sampling is off (a vertex in
/// the sampled component would skip edges that only its own lists hold).
pub fn components(graph: &GpuGraph, options: &CcOptions) -> Result<Answer<CcRun>> {
    Ok(components_in(graph, &mut CcArrays::default(), options, LabelsTo::Vector)?.0)
}

/// The device buffers of [`components_in`], made by the first run and kept for the next.
#[derive(Default)]
pub struct CcArrays {
    buffers: Option<CcBuffers>,
}

/// Where [`components_in`] reads the labels back to.
pub enum LabelsTo<'a> {
    /// A vector of the run's own ([`CcRun::components`]).
    Vector,
    /// Pinned host memory (made at its first use, then kept), at the bus's rate and with no
    /// pass of the host's; the run's labels are left empty.
    Pinned(&'a mut Option<PinnedBuffer<u32>>),
}

/// [`components`] in `arrays` (made as needed, then kept), with the labels' download: its wall
/// time and bytes.
pub fn components_in(
    graph: &GpuGraph,
    arrays: &mut CcArrays,
    options: &CcOptions,
    labels_to: LabelsTo<'_>,
) -> Result<(Answer<CcRun>, Download)> {
    if options.samples > MAX_SAMPLES {
        return Err(Error::InvalidArgument(format!(
            "{} samples: the GPU samples at most {MAX_SAMPLES} vertices (counted in one block's shared memory)",
            options.samples
        )));
    }
    if let LocalLink::Range(range) = options.local_link {
        if !valid_local_range(range) {
            return Err(Error::InvalidArgument(format!(
                "block-local linking over ranges of {range} ids: give a power of two from {LOCAL_CHUNK_MIN} \
                 to {LOCAL_CHUNK_MAX} (a block's threads to its shared-memory forest)"
            )));
        }
    }
    let gpu = graph.gpu();
    let out_lists = graph.graph();
    let n = out_lists.num_vertices();
    if n == 0 {
        let empty = Answer { result: CcRun::default(), time: Duration::ZERO };
        return Ok((empty, Download::default()));
    }
    let (in_lists, directed, samples) = match graph.in_lists() {
        Some(in_lists) => (in_lists, !std::ptr::eq(in_lists, out_lists), options.samples),
        None => (out_lists, false, 0),
    };
    let buffers = match &mut arrays.buffers {
        Some(buffers) if buffers.labels.len() >= n as usize => {
            // The kernel writes every label; the control block and the trace start at zero.
            gpu.zero(&mut buffers.control)?;
            gpu.zero(&mut buffers.trace)?;
            buffers
        }
        slot => {
            *slot = None;
            gpu.ensure_free(bytes_needed(n as u64), "the connected-components labels")?;
            slot.insert(CcBuffers {
                labels: gpu.alloc_zeros(n as usize, "the component labels")?,
                control: gpu.alloc_zeros(CC_CONTROL_WORDS, "the CC control block")?,
                trace: gpu.alloc_zeros(CC_TRACE_WORDS * (TRACE_CAPACITY + 1), "the CC trace")?,
            })
        }
    };
    let plain_in_device_memory = !out_lists.is_compressed() && out_lists.placement() == Placement::Device;
    let in_cluster = options.local_link.takes_cluster();
    if let Some(refusal) = in_cluster.then(|| cluster::cluster_refusal(gpu, out_lists)).flatten() {
        return Err(GpuError::Unsupported(refusal).into());
    }
    let run = CcLaunch {
        directed,
        samples,
        local_chunk: options.local_link.range_for(graph.id_locality(), plain_in_device_memory),
        // Without in-lists a directed graph's out-lists serve alone: not symmetric either.
        symmetric: !graph.is_directed(),
        single_vertices: options.vertex_batch.single_for(out_lists.num_vertices() as u64, out_lists.num_edges()),
        scattered_rounds: options.round_order.scattered_for(graph.id_locality()),
        ..CcLaunch::from_options(options)
    };
    let time = if in_cluster {
        // Every out-list links its edges: no in-lists needed, a directed graph's included.
        cluster::cc_cluster(gpu, out_lists, buffers, run.symmetric)?
    } else {
        cc_persistent(gpu, out_lists, in_lists, buffers, run)?
    };
    let downloading = Instant::now();
    let labels = match labels_to {
        LabelsTo::Vector => {
            let mut labels = gpu.download(&buffers.labels)?;
            labels.truncate(n as usize);
            labels
        }
        LabelsTo::Pinned(slot) => {
            gpu.download_to_pinned(&buffers.labels, gpu.pinned_in(slot, n as usize, "the component labels")?)?;
            Vec::new()
        }
    };
    let download = Download { time: downloading.elapsed(), bytes: 4 * n as u64 };
    let control: CcControl = *bytemuck::from_bytes(bytemuck::cast_slice(&gpu.download(&buffers.control)?));
    let trace = gpu.download(&buffers.trace)?;
    let phases = decode_trace(&trace, control.records as usize, control.tallied != 0);
    Ok((Answer { result: CcRun { components: Components { labels }, phases }, time }, download))
}

/// The device buffers of one run.
pub struct CcBuffers {
    /// n labels.
    pub labels: CudaSlice<u32>,
    /// [`CC_CONTROL_WORDS`] zeroed words.
    pub control: CudaSlice<u64>,
    /// `CC_TRACE_WORDS * (capacity + 1)` zeroed words.
    pub trace: CudaSlice<u64>,
}

/// What one launch computes: the algorithm and its parameters, and how to read the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CcLaunch {
    pub algorithm: CcAlgorithm,
    pub neighbor_rounds: u32,
    pub samples: u32,
    pub seed: u64,
    /// The in-lists are a directed graph's transpose: the final link reads the out-lists too.
    pub directed: bool,
    pub init: CcInit,
    pub round_compression: bool,
    pub giant_hooks: bool,
    /// Block-local linking's range of ids, 0 for off (plain lists only; the compressed kernel
    /// ignores it).
    pub local_chunk: u32,
    /// Every edge is in the lists of both its ends.
    pub symmetric: bool,
    /// The plain kernel's neighbor rounds take one vertex a thread at a time.
    pub single_vertices: bool,
    /// The neighbor rounds visit the ids' tiles in a scattered order ([`RoundOrder`]).
    pub scattered_rounds: bool,
}

impl CcLaunch {
    /// The options' algorithm and parameters, for a graph whose lists may hold an edge once
    /// (not symmetric); block-local linking only where the options give a range (`Auto` needs
    /// the placed graph's locality, which [`components_in`] reads).
    pub fn from_options(options: &CcOptions) -> CcLaunch {
        CcLaunch {
            algorithm: options.algorithm,
            neighbor_rounds: options.neighbor_rounds,
            samples: options.samples,
            seed: options.seed,
            directed: false,
            init: options.init,
            round_compression: options.round_compression,
            giant_hooks: options.giant_hooks,
            local_chunk: match options.local_link {
                LocalLink::Range(range) => range,
                LocalLink::Auto | LocalLink::Off | LocalLink::Cluster => 0,
            },
            symmetric: false,
            single_vertices: options.vertex_batch == VertexBatch::One,
            scattered_rounds: options.round_order == RoundOrder::Scattered,
        }
    }

    /// The kernels' flag word.
    pub fn flags(&self) -> CcFlags {
        CcFlags::NONE
            .with(CcFlags::DIRECTED, self.directed)
            .with(CcFlags::SHILOACH_VISHKIN, self.algorithm == CcAlgorithm::ShiloachVishkin)
            .with(CcFlags::SMALLER_NEIGHBOR_INIT, self.init == CcInit::SmallerNeighbor)
            .with(CcFlags::ROUND_COMPRESSION, self.round_compression)
            .with(CcFlags::GIANT_HOOKS, self.giant_hooks)
            .with(CcFlags::SYMMETRIC, self.symmetric)
            .with(CcFlags::SINGLE_VERTICES, self.single_vertices)
            .with(CcFlags::SCATTERED_ROUNDS, self.scattered_rounds)
    }
}

/// Blocks of the CC kernel that fit on the GPU at once (a cooperative launch must not ask for
/// more).
pub fn grid_blocks(gpu: &GpuContext, compressed: bool) -> std::result::Result<u32, GpuError> {
    let kernel = if compressed { names::CC_PERSISTENT_COMPRESSED } else { names::CC_PERSISTENT };
    resident_blocks(gpu, kernel, CC_BLOCK)
}

/// `cc_persistent` or `cc_persistent_compressed`: the whole computation in one cooperative
/// launch, after checking the kernel's contract; its device time from just before it is
/// queued ([`Launch::run_timed`]). `in_lists` is the transpose of `out_lists`
/// when `run.directed`, else `out_lists` itself (or, for a directed graph without its
/// transpose, `out_lists` with sampling off).
pub fn cc_persistent(
    gpu: &GpuContext,
    out_lists: &DeviceGraph,
    in_lists: &DeviceGraph,
    buffers: &mut CcBuffers,
    run: CcLaunch,
) -> std::result::Result<Duration, GpuError> {
    let compressed = out_lists.is_compressed();
    let kernel = if compressed { names::CC_PERSISTENT_COMPRESSED } else { names::CC_PERSISTENT };
    let n = out_lists.num_vertices();
    require(
        kernel,
        buffers.labels.len() >= n as usize
            && buffers.control.len() >= CC_CONTROL_WORDS
            && buffers.trace.len() >= CC_TRACE_WORDS,
        || format!("buffers too small for {n} vertices"),
    )?;
    require(kernel, run.samples <= MAX_SAMPLES, || format!("{} samples (at most {MAX_SAMPLES})", run.samples))?;
    require(kernel, run.local_chunk == 0 || valid_local_range(run.local_chunk), || {
        format!("a local range of {} ids", run.local_chunk)
    })?;
    require(kernel, !run.symmetric || std::ptr::eq(in_lists, out_lists), || {
        "symmetric lists are their own in-lists".to_string()
    })?;
    require(
        kernel,
        in_lists.num_vertices() == n
            && in_lists.num_edges() == out_lists.num_edges()
            && in_lists.is_compressed() == compressed,
        || "in-lists of another size or format than the out-lists".to_string(),
    )?;
    require(kernel, run.directed != std::ptr::eq(in_lists, out_lists), || {
        "directed runs need the transpose as in-lists, undirected ones the lists themselves".to_string()
    })?;
    let trace_capacity = (buffers.trace.len() / CC_TRACE_WORDS - 1) as u32;
    let config = blocks_of(grid_blocks(gpu, compressed)?, CC_BLOCK);
    let stream = gpu.stream();
    let CcBuffers { labels, control, trace } = buffers;
    let mut launch = Launch::new(gpu);
    let heads = in_lists.heads.as_ref();
    let mut plain = CcPersistentParams {
        out_offsets: DeviceAddress::new(out_lists.offsets.device_ptr(stream)),
        out_targets: DeviceAddress::new(out_lists.targets.device_ptr(stream)),
        in_offsets: DeviceAddress::new(in_lists.offsets.device_ptr(stream)),
        in_targets: DeviceAddress::new(in_lists.targets.device_ptr(stream)),
        n,
        labels: launch.write(labels),
        control: DeviceAddress::new(launch.write(control).address),
        trace: launch.write(trace),
        trace_capacity,
        neighbor_rounds: run.neighbor_rounds,
        samples: run.samples,
        seed: run.seed,
        flags: run.flags(),
        local_chunk: run.local_chunk,
        // Null pointers tell the kernel there are no list heads in device memory.
        in_heads: launch.read_or_null(heads.map(|heads| &heads.neighbors)),
        in_head_skips: DeviceAddress::NULL,
    };
    match (&out_lists.compressed, &in_lists.compressed) {
        (None, None) => launch.run_timed(config, Residency::Cooperative, &plain),
        (Some(out_extras), Some(in_extras)) => {
            plain.in_head_skips = launch.read_or_null(heads.map(|heads| &heads.skips));
            let params = CcPersistentCompressedParams {
                out_offsets: plain.out_offsets,
                out_bytes: DeviceAddress::new(plain.out_targets.address),
                out_degrees: launch.read(&out_extras.degrees),
                in_offsets: plain.in_offsets,
                in_bytes: DeviceAddress::new(plain.in_targets.address),
                in_degrees: launch.read(&in_extras.degrees),
                n,
                labels: plain.labels,
                control: plain.control,
                trace: plain.trace,
                trace_capacity,
                neighbor_rounds: plain.neighbor_rounds,
                samples: plain.samples,
                seed: plain.seed,
                flags: plain.flags,
                local_chunk: plain.local_chunk,
                in_heads: plain.in_heads,
                in_head_skips: plain.in_head_skips,
            };
            launch.run_timed(config, Residency::Cooperative, &params)
        }
        _ => unreachable!("checked above: both lists are compressed or neither is"),
    }
}

/// Turns the device's trace records into [`PhaseTrace`]s: `records` were written (those past
/// the capacity are left out; the last recorded phase's time runs to the end of the run);
/// their walk and swap counts only where the kernel was `tallied`.
pub fn decode_trace(trace: &[u64], records: usize, tallied: bool) -> Vec<PhaseTrace> {
    let recorded = records.min(trace.len() / CC_TRACE_WORDS - 1);
    (0..recorded)
        .filter_map(|i| {
            let record = &trace[i * CC_TRACE_WORDS..(i + 1) * CC_TRACE_WORDS];
            let next_start = trace[(i + 1) * CC_TRACE_WORDS + CC_TRACE_TIME];
            let phase = match TracePhase::from_word(record[CC_TRACE_PHASE])? {
                TracePhase::NeighborRound(round) => CcPhase::NeighborRound(round),
                TracePhase::Sampling => CcPhase::Sampling,
                TracePhase::FinalLink => CcPhase::FinalLink,
                TracePhase::Compression => CcPhase::Compression,
                TracePhase::LocalLink => CcPhase::LocalLink,
                TracePhase::Naming => CcPhase::Naming,
                TracePhase::ClusterLink => CcPhase::ClusterLink,
            };
            Some(PhaseTrace {
                phase,
                time: Duration::from_nanos(next_start.saturating_sub(record[CC_TRACE_TIME])),
                graph_bytes_read: record[CC_TRACE_BYTES],
                links: tallied.then(|| LinkCounts {
                    steps: record[CC_TRACE_STEPS],
                    swaps: record[CC_TRACE_SWAPS],
                    failed_swaps: record[CC_TRACE_FAILED_SWAPS],
                }),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trace_records_decode_into_phases_timed_to_the_next_start() {
        let phases = [
            TracePhase::NeighborRound(0),
            TracePhase::NeighborRound(1),
            TracePhase::Sampling,
            TracePhase::FinalLink,
            TracePhase::Compression,
        ];
        // Capacity 4: the fifth phase is not recorded, the fourth runs to the end.
        let mut trace = vec![0u64; CC_TRACE_WORDS * 5];
        for (i, phase) in phases.iter().take(4).enumerate() {
            trace[i * CC_TRACE_WORDS + CC_TRACE_PHASE] = phase.word();
            trace[i * CC_TRACE_WORDS + CC_TRACE_BYTES] = 100 * i as u64;
            trace[i * CC_TRACE_WORDS + CC_TRACE_TIME] = 1000 + 10 * i as u64;
            trace[i * CC_TRACE_WORDS + CC_TRACE_SWAPS] = 7 * i as u64;
        }
        trace[4 * CC_TRACE_WORDS + CC_TRACE_TIME] = 1100;
        let decoded = decode_trace(&trace, 5, true);
        assert!(decode_trace(&trace, 5, false).iter().all(|phase| phase.links.is_none()));
        assert_eq!(decoded.len(), 4);
        assert_eq!(decoded[1].phase, CcPhase::NeighborRound(1));
        assert_eq!(decoded[2].phase, CcPhase::Sampling);
        assert_eq!(decoded[2].graph_bytes_read, 200);
        assert_eq!(decoded[2].links, Some(LinkCounts { steps: 0, swaps: 14, failed_swaps: 0 }));
        assert_eq!(decoded[0].time, Duration::from_nanos(10));
        assert_eq!(decoded[3].phase, CcPhase::FinalLink);
        assert_eq!(decoded[3].time, Duration::from_nanos(70));
    }

    #[test]
    fn launch_flags_name_the_algorithm_and_the_direction() {
        let afforest = CcLaunch { giant_hooks: false, ..CcLaunch::from_options(&CcOptions::default()) };
        assert_eq!(afforest.flags(), CcFlags::NONE);
        assert_eq!(CcLaunch::from_options(&CcOptions::default()).flags(), CcFlags::GIANT_HOOKS, "the default");
        let sv = CcLaunch { algorithm: CcAlgorithm::ShiloachVishkin, directed: true, ..afforest };
        assert_eq!(sv.flags().bits(), 3);
        let tuned = CcLaunch { init: CcInit::SmallerNeighbor, round_compression: true, giant_hooks: true, ..afforest };
        assert_eq!(
            tuned.flags(),
            CcFlags::SMALLER_NEIGHBOR_INIT.with(CcFlags::ROUND_COMPRESSION, true).with(CcFlags::GIANT_HOOKS, true)
        );
    }

    #[test]
    fn one_vertex_a_thread_on_dense_graphs_four_on_meshes_and_roads() {
        // kron:22 (about 30 list entries a vertex), grid2d:5000 (4), USA-road-d.NY (2.8).
        assert!(VertexBatch::Auto.single_for(4_194_304, 126_000_000));
        assert!(!VertexBatch::Auto.single_for(25_000_000, 99_980_000));
        assert!(!VertexBatch::Auto.single_for(264_346, 730_100));
        assert!(!VertexBatch::Auto.single_for(0, 0));
        assert!(VertexBatch::One.single_for(264_346, 730_100));
        assert!(!VertexBatch::Four.single_for(4_194_304, 126_000_000));
        let one = CcLaunch::from_options(&CcOptions { vertex_batch: VertexBatch::One, ..CcOptions::default() });
        assert_eq!(one.flags(), CcFlags::GIANT_HOOKS.with(CcFlags::SINGLE_VERTICES, true));
        // `Auto` is resolved where the placed graph is known, not from the options alone.
        assert!(!CcLaunch::from_options(&CcOptions::default()).single_vertices);
    }

    #[test]
    fn scattered_rounds_where_ids_follow_the_geometry() {
        // A 5000-wide grid keeps half its edges inside ranges of 1024 ids, USA-road-d.NY 0.89,
        // Kronecker and uniform random graphs about none.
        assert!(RoundOrder::Auto.scattered_for(0.5));
        assert!(RoundOrder::Auto.scattered_for(0.89));
        assert!(!RoundOrder::Auto.scattered_for(0.001));
        assert!(RoundOrder::Scattered.scattered_for(0.0));
        assert!(!RoundOrder::Ids.scattered_for(1.0));
        let scattered =
            CcLaunch::from_options(&CcOptions { round_order: RoundOrder::Scattered, ..CcOptions::default() });
        assert_eq!(scattered.flags(), CcFlags::GIANT_HOOKS.with(CcFlags::SCATTERED_ROUNDS, true));
        // `Auto` is resolved where the placed graph's locality is known.
        assert!(!CcLaunch::from_options(&CcOptions::default()).scattered_rounds);
    }

    #[test]
    fn the_workspace_asks_for_in_lists_of_directed_graphs_only() {
        let build = |undirected| {
            crate::graph::GraphBuilder::new()
                .build(crate::graph::EdgeList::new(3, vec![(0, 1), (1, 2)], undirected))
                .unwrap()
        };
        let options = CcOptions::default();
        assert!(!workspace(&build(true), &options).in_lists);
        let directed = workspace(&build(false), &options);
        assert!(directed.in_lists);
        assert_eq!(directed.bytes, bytes_needed(3));
        assert!(!directed.edge_weights);
    }
}
