//! Strongly connected components on the GPU: the host drives `scc_pass`
//! (`device/src/scc/mod.rs`, which documents the method: trimming, the pivot's
//! forward-backward searches, then two-way coloring, ECL-SCC's way), one launch a pass, with
//! the pivot's two searches by the BFS's kernels (the persistent one, or the Hopper cluster where
//! the BFS's `auto` takes it: roads and meshes; their labels left on the device; over the
//! out-lists and then the in-lists), and reads the control block between
//! passes: after trimming, after each group of propagation
//! rounds (1, 2, 4, then 8 rounds between two reads while keys still rise; a round is two
//! launches, the tiles' lists and then the long lists it queued) and after each decision. The
//! labels are downloaded once, canonical on the device.

use std::time::{Duration, Instant};

use cudarc::driver::CudaSlice;
use warpath_interface::names;
use warpath_interface::scc::{
    SccPassParams, SCC_BLOCK, SCC_CONTROL_DECIDED, SCC_CONTROL_MAX_IN_DEGREE, SCC_CONTROL_PIVOT, SCC_CONTROL_UNDECIDED,
    SCC_CONTROL_WORDS, SCC_DECIDE, SCC_INIT, SCC_LABEL, SCC_LONG_LIST, SCC_LONG_LISTS, SCC_LONG_LIST_WORDS, SCC_MARK,
    SCC_NAME, SCC_PROPAGATE, SCC_ROUND_RING,
};
use warpath_interface::DeviceAddress;

use crate::bfs::gpu::cluster::{cluster_refusal, ClusterArrays, GpuCluster};
use crate::bfs::gpu::persistent::{GpuPersistent, PersistentArrays};
use crate::bfs::gpu::tuning::PersistentParams;
use crate::bfs::strategy::auto_takes_the_cluster;
use crate::cc::Components;
use crate::engine::{Answer, GpuGraph, Workspace};
use crate::error::Result;
use crate::gpu::launch::{grid_for, require, Launch, Residency};
use crate::gpu::{DeviceGraph, Download, GpuContext, GpuError, Placement};
use crate::graph::Graph;
use crate::scc::{PivotSearch, SccPhase, SccRun};

/// Propagation rounds launched between two reads of the control block, at most: a read costs a
/// synchronisation, a round that finds nothing to push a pass over the stamps.
const ROUNDS_BETWEEN_READS: u32 = SCC_ROUND_RING as u32;

/// Device bytes of a run's arrays for `n` vertices and `m` list entries a direction: two
/// words, two stamps and a component a vertex, each key's smallest vertex, the control block,
/// the queue of long lists, and the pivot's searches' BFS arrays (distances only; the cluster
/// kernel's too, for graphs it may search).
pub fn bytes_needed(n: u64, m: u64) -> u64 {
    let vertices = n.min(u32::MAX as u64) as u32;
    let bfs = GpuPersistent::bytes_needed_for(vertices, m, true) + GpuCluster::bytes_needed(vertices, true);
    let n = n.max(1);
    (2 * 8 + 3 * 4) * n + 4 * (n + 2) + 8 * SCC_CONTROL_WORDS as u64 + 8 * long_list_words(m) as u64 + bfs
}

/// Words of the queue of long lists for `m` list entries a direction: room for every list of
/// [`SCC_LONG_LIST`] entries or more of both directions (at most `m / SCC_LONG_LIST` each).
fn long_list_words(m: u64) -> usize {
    (2 * (m / SCC_LONG_LIST + 1)) as usize * SCC_LONG_LIST_WORDS
}

/// Device memory the GPU path needs beside the graph, for `engine::prepare`: its per-vertex
/// arrays and the in-lists (a directed graph's transpose).
pub fn workspace(graph: &Graph) -> Workspace {
    let bytes = bytes_needed(graph.num_vertices() as u64, graph.num_edges());
    Workspace { in_lists: true, ..Workspace::new(bytes, "the SCC arrays") }
}

/// Why `graph` cannot run on the GPU path, or None where it can: it reads plain lists both
/// ways.
pub fn refusal(graph: &GpuGraph) -> Option<&'static str> {
    match graph.in_lists() {
        None => Some("the graph's transpose did not fit the device"),
        Some(in_lists) if in_lists.is_compressed() || graph.graph().is_compressed() => {
            Some("the GPU path reads plain lists, and these are compressed")
        }
        Some(_) => None,
    }
}

/// The device arrays of [`components_in`], made by the first run and kept for the next.
#[derive(Default)]
pub struct SccArrays {
    buffers: Option<SccBuffers>,
}

struct SccBuffers {
    in_words: CudaSlice<u64>,
    out_words: CudaSlice<u64>,
    in_stamps: CudaSlice<u32>,
    out_stamps: CudaSlice<u32>,
    components: CudaSlice<u32>,
    smallest: CudaSlice<u32>,
    control: CudaSlice<u64>,
    long_lists: CudaSlice<u64>,
    /// The pivot's searches' arrays (taken for a search, then put back): the persistent
    /// kernel's, and the cluster kernel's where a search ran there (made at its first use).
    searches: Option<PersistentArrays>,
    cluster_searches: Option<ClusterArrays>,
}

impl SccBuffers {
    fn new(gpu: &GpuContext, n: usize, m: u64) -> std::result::Result<SccBuffers, GpuError> {
        gpu.ensure_free(bytes_needed(n as u64, m), "the SCC arrays")?;
        Ok(SccBuffers {
            in_words: gpu.alloc_zeros(n, "the SCC forward keys")?,
            out_words: gpu.alloc_zeros(n, "the SCC backward keys")?,
            in_stamps: gpu.alloc_zeros(n, "the SCC forward stamps")?,
            out_stamps: gpu.alloc_zeros(n, "the SCC backward stamps")?,
            components: gpu.alloc_zeros(n, "the SCC components")?,
            smallest: gpu.alloc_zeros(n + 2, "the SCC smallest vertices")?,
            control: gpu.alloc_zeros(SCC_CONTROL_WORDS, "the SCC control block")?,
            long_lists: gpu.alloc_zeros(long_list_words(m), "the SCC queue of long lists")?,
            searches: Some(PersistentArrays::new(gpu, n, m, true)?),
            cluster_searches: None,
        })
    }
}

/// The strongly connected components of the placed graph (plain lists, with in-lists: see
/// [`refusal`]; `host` the graph it was placed from), labels canonical, with a phase a
/// decision: `trimming`, then `forward-backward` (the pivot's searches, where `pivot_search`
/// has them), then `coloring` for each later one, then `labels`. Its time is the device's,
/// from the first pass to the last.
pub fn components_in(
    graph: &GpuGraph,
    host: &Graph,
    arrays: &mut SccArrays,
    pivot_search: PivotSearch,
) -> Result<(Answer<SccRun>, Download)> {
    if let Some(why) = refusal(graph) {
        return Err(GpuError::Unsupported(format!("strongly connected components on the GPU: {why}")).into());
    }
    let gpu = graph.gpu();
    let (out_lists, in_lists) = (graph.graph(), graph.in_lists().expect("checked by refusal"));
    let (n, m) = (out_lists.num_vertices() as usize, out_lists.num_edges());
    if n == 0 {
        return Ok((Answer { result: SccRun::default(), time: Duration::ZERO }, Download::default()));
    }
    let buffers = match &mut arrays.buffers {
        Some(buffers) if buffers.components.len() == n && buffers.long_lists.len() == long_list_words(m) => buffers,
        slot => {
            *slot = None;
            slot.insert(SccBuffers::new(gpu, n, m)?)
        }
    };
    let mut passes = Passes { gpu, out_lists, in_lists, buffers };
    let start = gpu.record_event()?;
    let mut phases = Vec::new();
    let mut phase_started = Instant::now();
    let control = passes.run_counted(&[(SCC_INIT, 0)])?;
    let decided = control[SCC_CONTROL_DECIDED];
    phases.push(SccPhase { name: "trimming", time: phase_started.elapsed(), decided, rounds: 0 });
    let mut undecided = control[SCC_CONTROL_UNDECIDED];
    let mut round = 0u32;
    if undecided > 0 && pivot_search == PivotSearch::Off {
        // Every undecided vertex takes its own key and pushes from the first round: the
        // decision of no keys decides nothing and starts them all.
        passes.run_counted(&[(SCC_DECIDE, round)])?;
    } else if undecided > 0 {
        phase_started = Instant::now();
        let pivot = control[SCC_CONTROL_PIVOT] as u32;
        let out_degree = host.degree(pivot);
        // The in-degree from the pivot's score (in * out, saturated at 2^32 - 1: then a lower
        // bound); the search's first level picks its direction by it, nothing else.
        let in_degree = (control[SCC_CONTROL_PIVOT] >> 32) / out_degree.max(1);
        let searches = [
            (out_lists, in_lists, graph.max_out_degree(), out_degree),
            (in_lists, out_lists, control[SCC_CONTROL_MAX_IN_DEGREE], in_degree),
        ];
        for (direction, (lists, inbound, longest, degree)) in searches.into_iter().enumerate() {
            // The BFS's own choice of kernel for a search: the Hopper cluster on roads and meshes
            // it holds (bench/NOTES.md 116), else the persistent kernel.
            let on_cluster = lists.placement() == Placement::Device
                && auto_takes_the_cluster(gpu.compute_capability().0 >= 9, n as u64, longest)
                && cluster_refusal(gpu, lists).is_none();
            if on_cluster {
                let bfs_arrays = match passes.buffers.cluster_searches.take() {
                    Some(arrays) => arrays,
                    None => ClusterArrays::new(gpu, n, true)?,
                };
                let mut bfs = GpuCluster::with_arrays(gpu, host, lists, bfs_arrays);
                let searched = bfs.run_on_device(pivot);
                let bfs_arrays = bfs.into_arrays();
                let marked = searched.and_then(|_| passes.mark(direction as u32, bfs_arrays.distances()));
                passes.buffers.cluster_searches = Some(bfs_arrays);
                marked?;
                continue;
            }
            let bfs_arrays = passes.buffers.searches.take().expect("put back after every search");
            let mut bfs = GpuPersistent::with_arrays(gpu, host, lists, inbound, longest, bfs_arrays);
            let searched = bfs.run_on_device(pivot, degree, PersistentParams::default());
            let bfs_arrays = bfs.into_arrays();
            let marked = searched.and_then(|_| passes.mark(direction as u32, bfs_arrays.distances()));
            passes.buffers.searches = Some(bfs_arrays);
            marked?;
        }
        let control = passes.run_counted(&[(SCC_DECIDE, round)])?;
        let decided = control[SCC_CONTROL_DECIDED];
        phases.push(SccPhase { name: "forward-backward", time: phase_started.elapsed(), decided, rounds: 0 });
        undecided = control[SCC_CONTROL_UNDECIDED];
    }
    while undecided > 0 {
        phase_started = Instant::now();
        let first_round = round;
        let mut group = 1;
        loop {
            let rounds: Vec<(u32, u32)> =
                (1..=group).flat_map(|k| [(SCC_PROPAGATE, round + k), (SCC_LONG_LISTS, round + k)]).collect();
            round += group;
            let control = passes.run_counted(&rounds)?;
            if control[round as usize % SCC_ROUND_RING] == 0 {
                break;
            }
            group = (group * 2).min(ROUNDS_BETWEEN_READS);
        }
        let control = passes.run_counted(&[(SCC_DECIDE, round)])?;
        let decided = control[SCC_CONTROL_DECIDED];
        phases.push(SccPhase { name: "coloring", time: phase_started.elapsed(), decided, rounds: round - first_round });
        if decided == 0 {
            // Every pass decides its groups' largest keys: none decided means a broken invariant.
            return Err(GpuError::Unsupported(format!(
                "strongly connected components on the GPU: a decision left all {undecided} undecided vertices \
                 undecided"
            ))
            .into());
        }
        undecided = control[SCC_CONTROL_UNDECIDED];
    }
    phase_started = Instant::now();
    passes.run_counted(&[(SCC_NAME, round), (SCC_LABEL, round)])?;
    let end = gpu.record_event()?;
    end.synchronize().map_err(|e| GpuError::launch(names::SCC_PASS, e))?;
    phases.push(SccPhase { name: "labels", time: phase_started.elapsed(), decided: 0, rounds: 0 });
    let time = GpuContext::time_between(&start, &end)?;
    let downloading = Instant::now();
    let labels = gpu.download(&passes.buffers.components)?;
    let download = Download { time: downloading.elapsed(), bytes: 4 * n as u64 };
    let run = SccRun { components: Components { labels }, phases };
    Ok((Answer { result: run, time }, download))
}

/// The launches of one run over its lists and arrays.
struct Passes<'a> {
    gpu: &'a GpuContext,
    out_lists: &'a DeviceGraph,
    in_lists: &'a DeviceGraph,
    buffers: &'a mut SccBuffers,
}

impl Passes<'_> {
    /// Zeroes the control block, launches `passes` (mode, round) in order and reads the
    /// control block back.
    fn run_counted(&mut self, passes: &[(u32, u32)]) -> std::result::Result<Vec<u64>, GpuError> {
        self.gpu.zero(&mut self.buffers.control)?;
        for &(mode, round) in passes {
            scc_pass(self.gpu, self.out_lists, self.in_lists, self.buffers, mode, round, None)?;
        }
        self.gpu.download(&self.buffers.control)
    }

    /// [`SCC_MARK`] of `direction` (0 forward, 1 backward) by a search's `distances`.
    fn mark(&mut self, direction: u32, distances: &CudaSlice<u32>) -> std::result::Result<(), GpuError> {
        scc_pass(self.gpu, self.out_lists, self.in_lists, self.buffers, SCC_MARK, direction, Some(distances))
    }
}

/// `scc_pass` in `mode` at `round`, after checking the kernel's contract.
fn scc_pass(
    gpu: &GpuContext,
    out_lists: &DeviceGraph,
    in_lists: &DeviceGraph,
    buffers: &mut SccBuffers,
    mode: u32,
    round: u32,
    reached: Option<&CudaSlice<u32>>,
) -> std::result::Result<(), GpuError> {
    let kernel = names::SCC_PASS;
    let n = out_lists.num_vertices() as usize;
    require(
        kernel,
        !out_lists.is_compressed()
            && !in_lists.is_compressed()
            && in_lists.num_vertices() as usize == n
            && in_lists.num_edges() == out_lists.num_edges()
            && n + 1 < u32::MAX as usize
            && buffers.components.len() == n
            && buffers.smallest.len() == n + 2
            && buffers.control.len() >= SCC_CONTROL_WORDS
            && ((mode != SCC_PROPAGATE && mode != SCC_LONG_LISTS) || round >= 1)
            && (mode != SCC_MARK || (round <= 1 && reached.is_some_and(|r| r.len() >= n))),
        || format!("{n} vertices, mode {mode}, round {round}: lists or arrays of another size or format"),
    )?;
    let stream = gpu.stream();
    let SccBuffers { in_words, out_words, in_stamps, out_stamps, components, smallest, control, long_lists, .. } =
        buffers;
    let long_list_capacity = (long_lists.len() / SCC_LONG_LIST_WORDS).min(u32::MAX as usize) as u32;
    let mut launch = Launch::new(gpu);
    let params = SccPassParams {
        out_offsets: DeviceAddress::new(out_lists.offsets.device_ptr(stream)),
        out_targets: DeviceAddress::new(out_lists.targets.device_ptr(stream)),
        in_offsets: DeviceAddress::new(in_lists.offsets.device_ptr(stream)),
        in_targets: DeviceAddress::new(in_lists.targets.device_ptr(stream)),
        in_words: launch.write(in_words),
        out_words: launch.write(out_words),
        in_stamps: launch.write(in_stamps),
        out_stamps: launch.write(out_stamps),
        components: launch.write(components),
        smallest: launch.write(smallest),
        reached: launch.read_or_null(reached),
        control: launch.write(control),
        long_lists: launch.write(long_lists),
        long_list_capacity,
        n: n as u32,
        round,
        mode,
    };
    launch.run(grid_for(gpu, n as u64 + 2, SCC_BLOCK), Residency::Any, &params)
}
