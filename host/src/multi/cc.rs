//! Connected components over a 1D partition: Afforest on each rank's part, then the
//! cross-partition edges merged (issue 26; Moschou, section 5, and Sutton et al. for Afforest;
//! Merrill et al., section 6, for the 1D ownership).
//!
//! Each rank ([`components_rank`]):
//!
//! 1. finds the components of its part's lists (the single-GPU Afforest kernel on the rank's
//!    GPU, [`GpuCcPart`], or the CPU Afforest on its thread, [`CpuCcPart`]). The part is a
//!    graph of its own: the owned vertices, and the ghosts their lists name
//!    (`multi::partition`). It is run as a directed graph with its transpose, since a ghost's
//!    list is empty here: its in-list (the owned vertices that name it) is what links it when
//!    Afforest's final phase skips the largest component. A part without ghosts (one rank's,
//!    of an undirected graph) runs as an undirected graph, with no transpose
//!    ([`ComponentLists`]). Every edge of the graph is in exactly one part (its source's), so
//!    the parts together see all.
//!    A local component is named by a global vertex, its smallest owned one (a ghost is always
//!    in the component of the owned vertex that names it);
//! 2. tells each ghost's owner the ghost's local name: `(ghost, name)` pairs, one a ghost, to
//!    the owner (all-to-all-v). The owner has its own name for that vertex, and the two names
//!    are the same component: it keeps each distinct `(name, name)` pair once;
//! 3. all-gathers every rank's pairs (few: one for each pair of local components an edge
//!    joins across parts), and every rank merges them alike with the sequential reference's
//!    union-find (path halving, the higher root hooked under the lower);
//! 4. names each owned vertex by the root of its local component's name.
//!
//! The result is canonical, every component named by its smallest vertex: that vertex names
//! its local component on its owner (it is the smallest owned there), and when the component
//! spans parts, that name is in the pairs, so it is the root of the merged tree.
//!
//! On a GPU rank ([`GpuCcPart`]) the labels stay on the device: the `cc_part_*` kernels
//! (`device/src/cc/partitioned.rs`) name the ghosts, keep the distinct pairs in a hash table,
//! merge every rank's pairs (all-gathered on the devices) in a hash table of names, and
//! relabel; only the counts and the final labels are read back. A CPU rank does the same steps
//! on its thread, with rayon and the sequential union-find.

use std::time::{Duration, Instant};

use cudarc::driver::CudaSlice;
use rayon::prelude::*;
use warpath_interface::cc::partitioned::{
    union_phase, CcPartJoinParams, CcPartNameGhostsParams, CcPartRelabelParams, CcPartUnionParams, CC_PART_BLOCK,
};
use warpath_interface::names;

use crate::cc::cpu_reference::{find, union};
use crate::cc::gpu::{cc_persistent, CcBuffers, CcLaunch};
use crate::cc::{afforest, shiloach_vishkin, CcAlgorithm, CcOptions, Components};
use crate::engine::PlacementOptions;
use crate::engine::Workspace;
use crate::error::{Error, Result};
use crate::gpu::launch::{grid_for, require, Launch, Residency};
use crate::gpu::{DeviceGraph, GpuContext};
use crate::graph::Graph;
use crate::multi::comm::{agree_on, Communicator, ReduceOp};
use crate::multi::exchange::{ensure_room, DeviceGather};
use crate::multi::in_process::run_ranks;
use crate::multi::partition::{Part, Partition};
use crate::multi::placement::place_part_lists;

/// The lists a part's components are found on.
enum ComponentLists<'p> {
    /// A part with no ghost (the one rank's of an undirected graph) holds both directions of
    /// every edge: Afforest runs on its lists as on an undirected graph, with no transpose.
    Symmetric(&'p Graph),
    /// Any other part, with its transpose: a ghost's list is empty there, and its in-list (the
    /// owned vertices that name it) is what links it when Afforest's final phase skips the
    /// largest component; a directed graph's part needs its in-edges for the same reason.
    Directed { lists: &'p Graph, transpose: Graph },
}

impl<'p> ComponentLists<'p> {
    /// `whole`, the whole graph where this process holds it, gives an undirected graph's part
    /// its transpose without sorting ([`transpose_of_undirected_part`]).
    fn of(part: &'p Part, whole: Option<&Graph>) -> ComponentLists<'p> {
        let lists = &part.out_lists.graph;
        // Only a directed graph's 1D parts have in-lists.
        let undirected = part.in_lists.is_none();
        match (undirected, part.out_lists.ghosts().is_empty(), whole) {
            (true, true, _) => ComponentLists::Symmetric(lists),
            (true, false, Some(whole)) => {
                ComponentLists::Directed { lists, transpose: transpose_of_undirected_part(part, whole) }
            }
            _ => ComponentLists::Directed { lists, transpose: lists.transpose() },
        }
    }

    /// The lists, and their transpose for a directed graph's part.
    fn graphs(&self) -> Vec<&Graph> {
        match self {
            ComponentLists::Symmetric(lists) => vec![lists],
            ComponentLists::Directed { lists, transpose } => vec![lists, transpose],
        }
    }
}

/// The transpose of `part`'s lists, `part` cut from the undirected graph `whole`, read off
/// `whole` instead of sorted out of the part's edges: an owned vertex's in-list in the part is
/// its owned neighbors (its own list's, in the same order, since owned local ids follow the
/// global ones), and a ghost's is the owned vertices its list in `whole` names, one slice of
/// that sorted list. The same lists as [`Graph::transpose`] of the part's, in two passes over
/// them with no edge moved to its target's owner (bench/NOTES.md 92).
fn transpose_of_undirected_part(part: &Part, whole: &Graph) -> Graph {
    let (lists, owned) = (&part.out_lists.graph, part.owned);
    let (first, end) = (part.first, part.first + part.owned);
    let ghosts = part.out_lists.ghosts();
    let owned_in = |list: &[u32]| {
        let (from, to) = (list.partition_point(|&v| v < first), list.partition_point(|&v| v < end));
        from..to
    };
    let len = |row: usize| match row.checked_sub(owned as usize) {
        None => lists.neighbors(row as u32).iter().filter(|&&v| v < owned).count(),
        Some(ghost) => owned_in(whole.neighbors(ghosts[ghost])).len(),
    };
    let fill = |row: usize, into: &mut [u32]| match row.checked_sub(owned as usize) {
        None => {
            let owned_neighbors = lists.neighbors(row as u32).iter().filter(|&&v| v < owned);
            into.iter_mut().zip(owned_neighbors).for_each(|(to, &v)| *to = v);
        }
        Some(ghost) => {
            let list = whole.neighbors(ghosts[ghost]);
            into.iter_mut().zip(&list[owned_in(list)]).for_each(|(to, &v)| *to = v - first);
        }
    };
    Graph::from_rows(lists.num_vertices(), lists.host_memory(), len, fill)
}

/// A rank's part prepared on its thread for repeated runs: the lists its components are found
/// on ([`ComponentLists`]).
pub struct CpuCcPart<'p> {
    part: &'p Part,
    lists: ComponentLists<'p>,
}

impl<'p> CpuCcPart<'p> {
    /// `whole`: the whole graph, where this process holds it ([`ComponentLists`]).
    pub fn new(part: &'p Part, whole: Option<&Graph>) -> CpuCcPart<'p> {
        CpuCcPart { part, lists: ComponentLists::of(part, whole) }
    }

    /// The part's components over its local ids, each named by its smallest local vertex.
    fn local_labels(&self, options: &CcOptions) -> Vec<u32> {
        let run = match (options.algorithm, &self.lists) {
            // The part's graph is not marked undirected: its lists are their own transpose.
            (CcAlgorithm::Afforest, ComponentLists::Symmetric(lists)) => afforest(lists, Some(lists), options),
            (CcAlgorithm::Afforest, ComponentLists::Directed { lists, transpose }) => {
                afforest(lists, Some(transpose), options)
            }
            // Hooking takes each edge both ways: the part's own lists do.
            (CcAlgorithm::ShiloachVishkin, _) => shiloach_vishkin(&self.part.out_lists.graph),
        };
        run.result.components.labels
    }
}

/// What one run took, over every rank: times are the slowest rank's, counts summed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergeTiming {
    /// From the common start to the merged labels.
    pub time: Duration,
    /// Finding the part's components.
    pub local: Duration,
    /// Naming the ghosts to their owners, gathering the pairs and merging them.
    pub merge: Duration,
    /// The merge's steps, each the slowest rank's (waits for other ranks included).
    pub steps: MergeSteps,
    /// Bytes sent between ranks (both exchanges).
    pub exchange_bytes: u64,
    /// Distinct pairs of local components joined across parts.
    pub joined_pairs: u64,
}

/// Where a run's merge went, step by step: the slowest rank's time in each (a step that ends in
/// a collective includes the wait for the other ranks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergeSteps {
    /// Each ghost's name to its owner (all-to-all-v), and on a GPU rank the kernel naming them.
    pub names: Duration,
    /// The owner's distinct pairs of names kept (on a GPU rank: the hash-table kernel).
    pub join: Duration,
    /// Every rank's pairs gathered (on a GPU rank: on the devices).
    pub gather: Duration,
    /// The pairs merged: a union-find over the names they join (on a GPU rank `cc_part_union`,
    /// on a CPU rank the host's).
    pub union: Duration,
    /// Each owned vertex named by its merged root.
    pub relabel: Duration,
}

/// A rank's clock over the merge's steps, in [`MergeSteps`]' order.
struct StepClock {
    at: Instant,
    steps: [Duration; 5],
    next: usize,
}

impl StepClock {
    fn start() -> StepClock {
        StepClock { at: Instant::now(), steps: [Duration::ZERO; 5], next: 0 }
    }

    /// Ends the current step.
    fn lap(&mut self) {
        let now = Instant::now();
        self.steps[self.next] = now - self.at;
        (self.at, self.next) = (now, self.next + 1);
    }
}

/// One rank's labels: its owned vertices' components, named by global vertices.
#[derive(Clone, Debug)]
pub struct RankComponents {
    pub first: u32,
    pub labels: Vec<u32>,
    pub timing: MergeTiming,
}

/// A whole partitioned run, gathered.
#[derive(Clone, Debug)]
pub struct PartitionedComponents {
    pub components: Components,
    pub timing: MergeTiming,
    pub ranks: usize,
}

/// This rank's side of the partitioned connected components on its thread: every rank of
/// `comm` calls it with its own part of one [`Partition`], prepared once.
pub fn components_rank<C: Communicator>(
    comm: &mut C,
    prepared: &CpuCcPart<'_>,
    options: &CcOptions,
) -> Result<RankComponents> {
    let part = prepared.part;
    let clock = RunClock::start(comm, part)?;
    let local = prepared.local_labels(options);
    let local_time = clock.started.elapsed();
    let mut steps = StepClock::start();
    let names: Vec<u32> = local.par_iter().map(|&l| part.out_lists.global_of(l)).collect();
    drop(local);
    let received = ghost_names_to_owners(comm, part, &names)?;
    steps.lap();
    let joined = join_names(part, &names, &received);
    drop(received);
    steps.lap();
    let pairs = gather_pairs(comm, &joined)?;
    steps.lap();
    let (merged, roots) = roots_of_pairs(&pairs);
    steps.lap();
    let labels = names[..part.owned as usize]
        .par_iter()
        .map(|&name| merged.binary_search(&name).map_or(name, |i| roots[i]))
        .collect();
    steps.lap();
    let timing = clock.finish(comm, local_time, joined.len() as u64 / 2, steps)?;
    Ok(RankComponents { first: part.first, labels, timing })
}

/// A run's clock, started when every rank is ready.
struct RunClock {
    started: Instant,
    bytes_before: u64,
}

/// An error for a part of a 2D partition: the components merge across vertex ranges, whose
/// parts hold every list of their vertices.
fn refuse_grid(part: &Part) -> Result<()> {
    match part.grid {
        Some(_) => Err(Error::InvalidArgument(
            "partitioned connected components cut vertex ranges, not a grid: cut the parts by vertex ranges (1D)"
                .into(),
        )),
        None => Ok(()),
    }
}

impl RunClock {
    fn start<C: Communicator>(comm: &mut C, part: &Part) -> Result<RunClock> {
        part.check_world(comm.world_size())?;
        refuse_grid(part)?;
        comm.barrier()?;
        Ok(RunClock { started: Instant::now(), bytes_before: comm.bytes_sent() })
    }

    /// The run's timing over every rank: the slowest rank's times, the bytes and pairs summed.
    fn finish<C: Communicator>(
        self,
        comm: &mut C,
        local: Duration,
        joined_pairs: u64,
        steps: StepClock,
    ) -> Result<MergeTiming> {
        let time = self.started.elapsed();
        let nanos = |d: Duration| d.as_nanos() as u64;
        let [names, join, gather, union, relabel] = steps.steps.map(nanos);
        let mut slowest =
            [nanos(time), nanos(local), nanos(time.saturating_sub(local)), names, join, gather, union, relabel];
        comm.all_reduce(&mut slowest, ReduceOp::Max)?;
        let mut sums = [comm.bytes_sent() - self.bytes_before, joined_pairs];
        comm.all_reduce(&mut sums, ReduceOp::Sum)?;
        let [time, local, merge, names, join, gather, union, relabel] = slowest.map(Duration::from_nanos);
        let steps = MergeSteps { names, join, gather, union, relabel };
        Ok(MergeTiming { time, local, merge, steps, exchange_bytes: sums[0], joined_pairs: sums[1] })
    }
}

/// Sends each ghost's name here (`names`, one a local vertex) to its owner; returns the
/// `(vertex, name)` pairs the other ranks sent this one, flattened.
fn ghost_names_to_owners<C: Communicator>(comm: &mut C, part: &Part, names: &[u32]) -> Result<Vec<u32>> {
    let (ghosts, owned) = (part.out_lists.ghosts(), part.owned as usize);
    let outgoing: Vec<Vec<u32>> = part
        .ghost_starts()
        .windows(2)
        .map(|w| (w[0]..w[1]).into_par_iter().flat_map_iter(|i| [ghosts[i], names[owned + i]]).collect())
        .collect();
    let mut received = Vec::new();
    comm.all_to_all_v(&outgoing, &mut received)?;
    Ok(received)
}

/// The distinct pairs of names (the sender's, the owner's) that the `received` pairs join,
/// where they differ, flattened, in ascending order.
fn join_names(part: &Part, names: &[u32], received: &[u32]) -> Vec<u32> {
    let mut pairs: Vec<u64> = received
        .par_chunks_exact(2)
        .filter_map(|pair| {
            let (theirs, mine) = (pair[1], names[(pair[0] - part.first) as usize]);
            (theirs != mine).then(|| (theirs.min(mine) as u64) << 32 | theirs.max(mine) as u64)
        })
        .collect();
    pairs.par_sort_unstable();
    pairs.dedup();
    pairs.into_iter().flat_map(|p| [(p >> 32) as u32, p as u32]).collect()
}

/// Every rank's `joined` pairs (flattened), in rank order.
fn gather_pairs<C: Communicator>(comm: &mut C, joined: &[u32]) -> Result<Vec<u32>> {
    let mut pairs = Vec::new();
    comm.all_to_all_v(&vec![joined.to_vec(); comm.world_size()], &mut pairs)?;
    Ok(pairs)
}

/// The names `pairs` (flattened) join, ascending, and the root of each: union-find over the
/// names' indices, whose order is the names' order, so every tree's root is its smallest name.
fn roots_of_pairs(pairs: &[u32]) -> (Vec<u32>, Vec<u32>) {
    // Each name beside its place in `pairs`, sorted: the distinct names in order, and each
    // place's index among them, from one sort (no search a name).
    let mut placed: Vec<u64> =
        pairs.par_iter().enumerate().map(|(at, &name)| (name as u64) << 32 | at as u64).collect();
    placed.par_sort_unstable();
    let (mut merged, mut indices) = (Vec::new(), vec![0u32; pairs.len()]);
    for key in placed {
        let name = (key >> 32) as u32;
        if merged.last() != Some(&name) {
            merged.push(name);
        }
        indices[key as u32 as usize] = merged.len() as u32 - 1;
    }
    // Sequential, with path halving: a giant component cut by every part joins most pairs to
    // a few names, and Afforest's parallel link (no compression while it links) grew chains
    // there as long as the pairs (bench/NOTES.md 81).
    let mut parents: Vec<u32> = (0..merged.len() as u32).collect();
    for pair in indices.chunks_exact(2) {
        union(&mut parents, pair[0], pair[1]);
    }
    let roots = (0..merged.len() as u32).map(|i| merged[find(&mut parents, i) as usize]).collect();
    (merged, roots)
}

/// The ranks' labels, in rank order, as one labelling (the parts are consecutive ranges).
pub fn concatenate(ranks: Vec<RankComponents>) -> PartitionedComponents {
    let (timing, count) = (ranks[0].timing, ranks.len());
    let labels = ranks.into_iter().flat_map(|rank| rank.labels).collect();
    PartitionedComponents { components: Components { labels }, timing, ranks: count }
}

/// `runs` partitioned runs with one thread a part of `partition` ([`InProcess`] communication),
/// each part's components found on its thread, its [`ComponentLists`] made once for all runs.
///
/// [`InProcess`]: crate::multi::InProcess
pub fn components_in_process(
    partition: &Partition,
    whole: Option<&Graph>,
    options: &CcOptions,
    runs: usize,
) -> Result<Vec<PartitionedComponents>> {
    let ranks = run_ranks(partition.parts.len(), |comm| {
        let prepared = CpuCcPart::new(&partition.parts[comm.rank()], whole);
        (0..runs).map(|_| components_rank(comm, &prepared, options)).collect::<Result<Vec<_>>>()
    });
    Ok(by_run(ranks.into_iter().collect::<Result<Vec<_>>>()?))
}

/// `runs` partitioned runs with every part on the first GPU, one thread and one context a rank:
/// the multi-GPU code path on one GPU. Each part is placed once for all runs.
pub fn components_gpu_in_process(
    partition: &Partition,
    whole: Option<&Graph>,
    options: &CcOptions,
    placement: &PlacementOptions,
    runs: usize,
) -> Result<Vec<PartitionedComponents>> {
    let ranks = run_ranks(partition.parts.len(), |comm| {
        let gpu = GpuContext::new()?;
        components_on_gpu(comm, &gpu, &partition.parts[comm.rank()], whole, options, placement, runs)
    });
    Ok(by_run(ranks.into_iter().collect::<Result<Vec<_>>>()?))
}

/// Places this rank's `part` on `gpu` (where `placement` says, by default by size) and runs the
/// partitioned components `runs` times, after one untimed warm-up run. `whole`: the whole
/// graph, where this process holds it ([`ComponentLists`]).
pub fn components_on_gpu<C: DeviceGather>(
    comm: &mut C,
    gpu: &GpuContext,
    part: &Part,
    whole: Option<&Graph>,
    options: &CcOptions,
    placement: &PlacementOptions,
    runs: usize,
) -> Result<Vec<RankComponents>> {
    // A rank whose GPU could not hold its part stops every rank here, not in an exchange.
    let mut placed = agree_on(comm, GpuCcPart::place(gpu, part, whole, placement))?;
    // NCCL connects a pair of ranks at their first exchange: one untimed run pays for it.
    components_rank_gpu(comm, &mut placed, options)?;
    (0..runs).map(|_| components_rank_gpu(comm, &mut placed, options)).collect()
}

/// One rank's part on its GPU for repeated runs: its [`ComponentLists`] placed once (a part
/// that does not fit is an out-of-memory error naming it), Afforest's buffers and the
/// merge's allocated once.
pub struct GpuCcPart<'p> {
    gpu: &'p GpuContext,
    part: &'p Part,
    /// The lists its components are found on ([`ComponentLists`]), and a directed graph's
    /// part's transpose.
    lists: DeviceGraph,
    transpose: Option<DeviceGraph>,
    cc: CcBuffers,
    ghost_globals: CudaSlice<u32>,
    /// (ghost, name) pairs for the ghosts' owners, and what the other ranks sent this one.
    sent: CudaSlice<u32>,
    received: CudaSlice<u32>,
    /// `cc_part_join`'s hash table, its distinct pairs and their count.
    table: CudaSlice<u64>,
    joined: CudaSlice<u32>,
    joined_len: CudaSlice<u32>,
    /// This rank's joined pairs padded to the most any rank has, and every rank's, gathered.
    padded_pairs: CudaSlice<u32>,
    gathered_pairs: CudaSlice<u32>,
    /// `cc_part_union`'s names table and its mask.
    names_table: CudaSlice<u64>,
    names_mask: u32,
    /// The owned vertices' merged components.
    components: CudaSlice<u32>,
}

impl<'p> GpuCcPart<'p> {
    /// Places the part's [`ComponentLists`] on `gpu` ([`place_part_lists`]: where
    /// `placement` says, or device memory when they fit, else zero-copy) and allocates the
    /// run's buffers. `whole`: the whole graph, where this process holds it.
    pub fn place(
        gpu: &'p GpuContext,
        part: &'p Part,
        whole: Option<&Graph>,
        placement: &PlacementOptions,
    ) -> Result<GpuCcPart<'p>> {
        refuse_grid(part)?;
        let lists = &part.out_lists;
        let local = lists.graph.num_vertices().max(1);
        let ghosts = lists.ghosts();
        let ghost_ids = if ghosts.is_empty() { &[0u32][..] } else { ghosts };
        // Labels a local vertex, components an owned one; pairs sent, received and hashed (two
        // words, two, and a table of twice their count) for about a ghost each.
        let buffers = 4 * local as u64 + 4 * part.owned as u64 + 48 * ghost_ids.len() as u64;
        let workspace = Workspace::new(buffers, "the part's component labels and merge buffers");
        let component_lists = ComponentLists::of(part, whole);
        let mut placed = place_part_lists(gpu, &component_lists.graphs(), workspace, placement)?.into_iter();
        drop(component_lists);
        Ok(GpuCcPart {
            gpu,
            part,
            lists: placed.next().expect("the lists placed"),
            transpose: placed.next(),
            cc: CcBuffers {
                labels: gpu.alloc_zeros(local, "the part's component labels")?,
                control: gpu.alloc_zeros(warpath_interface::cc::CC_CONTROL_WORDS, "the CC control block")?,
                trace: gpu.alloc_zeros(warpath_interface::cc::CC_TRACE_WORDS * (TRACE_RECORDS + 1), "the CC trace")?,
            },
            ghost_globals: gpu.upload(ghost_ids, "the ghosts' global ids")?,
            sent: gpu.alloc_zeros(2 * ghost_ids.len(), "the ghosts' names")?,
            received: gpu.alloc_zeros(2, "the names received")?,
            table: gpu.alloc_zeros(1, "the joined names' table")?,
            joined: gpu.alloc_zeros(2, "the joined names")?,
            joined_len: gpu.alloc_zeros(1, "the joined names' count")?,
            padded_pairs: gpu.alloc_zeros(1, "the joined pairs, padded")?,
            gathered_pairs: gpu.alloc_zeros(1, "every rank's joined pairs")?,
            names_table: gpu.alloc_zeros(1, "the merged names' table")?,
            names_mask: 0,
            components: gpu.alloc_zeros((part.owned as usize).max(1), "the part's components")?,
        })
    }

    /// `cc_persistent` over the part's lists: undirected where they are symmetric, else
    /// directed with the transpose.
    fn find_local(&mut self, options: &CcOptions) -> Result<()> {
        let gpu = self.gpu;
        gpu.zero(&mut self.cc.control)?;
        gpu.zero(&mut self.cc.trace)?;
        let run = CcLaunch { directed: self.transpose.is_some(), ..CcLaunch::from_options(options) };
        cc_persistent(gpu, &self.lists, self.transpose.as_ref().unwrap_or(&self.lists), &mut self.cc, run)?;
        Ok(())
    }

    fn name_ghosts(&mut self) -> Result<()> {
        let (gpu, part) = (self.gpu, self.part);
        let ghosts = part.out_lists.ghosts().len() as u32;
        if ghosts == 0 {
            return Ok(());
        }
        let mut launch = Launch::new(gpu);
        let params = CcPartNameGhostsParams {
            labels: launch.read(&self.cc.labels),
            ghost_globals: launch.read(&self.ghost_globals),
            ghosts,
            owned: part.owned,
            first: part.first,
            sent: launch.write(&mut self.sent),
        };
        // Contract: the labels of `owned + ghosts` local vertices from `cc_persistent` (local
        // ids), the ghosts' ids uploaded in `place`, `sent` two words a ghost.
        launch.run(grid_for(gpu, ghosts as u64, CC_PART_BLOCK), Residency::Any, &params)?;
        Ok(())
    }

    /// Keeps the distinct pairs of names the `pairs_len` received pairs join, in `joined`;
    /// returns how many.
    fn join(&mut self, pairs_len: usize) -> Result<usize> {
        let (gpu, part) = (self.gpu, self.part);
        if pairs_len == 0 {
            return Ok(0);
        }
        // Twice the slots of the most pairs that can be distinct: probes stay short.
        let slots = (2 * pairs_len).next_power_of_two();
        require(names::CC_PART_JOIN, slots <= u32::MAX as usize, || format!("{pairs_len} pairs received"))?;
        if self.table.len() < slots {
            self.table = gpu.alloc_zeros(slots, "the joined names' table")?;
        }
        gpu.zero(&mut self.table)?;
        ensure_room(gpu, &mut self.joined, 2 * pairs_len)?;
        gpu.zero(&mut self.joined_len)?;
        let mut launch = Launch::new(gpu);
        let params = CcPartJoinParams {
            labels: launch.read(&self.cc.labels),
            ghost_globals: launch.read(&self.ghost_globals),
            owned: part.owned,
            first: part.first,
            pairs: launch.read(&self.received),
            pairs_len: pairs_len as u32,
            table: launch.write(&mut self.table),
            table_mask: slots as u32 - 1,
            joined: launch.write(&mut self.joined),
            joined_len: launch.write(&mut self.joined_len),
        };
        // Contract: every received pair names a vertex this rank owns (each rank sent its
        // ghosts to their owners); the table has `slots` zeroed slots, more than the pairs;
        // `joined` room for every pair.
        launch.run(grid_for(gpu, pairs_len as u64, CC_PART_BLOCK), Residency::Any, &params)?;
        Ok(gpu.download(&self.joined_len)?[0] as usize)
    }

    /// Every rank's `count` joined pairs, gathered on every device (`gathered_pairs`): the
    /// counts first (through the host), then every rank's pairs padded with `(0, 0)` pairs (which
    /// join nothing) to the most any rank has. Returns the pairs gathered, padding included.
    fn gather_pairs<C: DeviceGather>(&mut self, comm: &mut C, count: usize) -> Result<usize> {
        let (gpu, world) = (self.gpu, comm.world_size());
        let mut counts = vec![0u64; world];
        comm.all_gather(&[count as u64], &mut counts)?;
        let words = 2 * counts.iter().copied().max().unwrap_or(0) as usize;
        if words == 0 {
            return Ok(0);
        }
        if self.padded_pairs.len() != words {
            self.padded_pairs = gpu.alloc_zeros(words, "the joined pairs, padded")?;
            self.gathered_pairs = gpu.alloc_zeros(words * world, "every rank's joined pairs")?;
        }
        gpu.zero(&mut self.padded_pairs)?;
        if count > 0 {
            gpu.copy_on_device(&self.joined, 0, &mut self.padded_pairs, 0, 2 * count)?;
        }
        comm.all_gather_on_device(gpu, &self.padded_pairs, &mut self.gathered_pairs)?;
        // Waited for here, so that the step is its own.
        gpu.synchronize()?;
        Ok(words / 2 * world)
    }

    /// Merges the `pairs` gathered pairs in the names table (`cc_part_union`'s three phases);
    /// nothing where there are none (the relabel then takes no table).
    fn union(&mut self, pairs: usize) -> Result<()> {
        let gpu = self.gpu;
        if pairs == 0 {
            return Ok(());
        }
        // At most two names a pair; twice the slots keep the probes short.
        let slots = (4 * pairs).next_power_of_two();
        require(names::CC_PART_UNION, slots <= u32::MAX as usize, || format!("{pairs} pairs gathered"))?;
        if self.names_table.len() < slots {
            self.names_table = gpu.alloc_zeros(slots, "the merged names' table")?;
        }
        gpu.zero(&mut self.names_table)?;
        self.names_mask = slots as u32 - 1;
        for phase in [union_phase::INSERT, union_phase::LINK, union_phase::COMPRESS] {
            let mut launch = Launch::new(gpu);
            let params = CcPartUnionParams {
                pairs: launch.read(&self.gathered_pairs),
                pairs_len: pairs as u32,
                table: launch.write(&mut self.names_table),
                table_mask: self.names_mask,
                phase,
            };
            // Contract: `gather_pairs` left `pairs` pairs; the table has `slots` zeroed slots,
            // twice the most names the pairs hold; the phases in order, in stream order.
            launch.run(grid_for(gpu, pairs as u64, CC_PART_BLOCK), Residency::Any, &params)?;
        }
        gpu.synchronize()?;
        Ok(())
    }

    /// Names each owned vertex by its merged root (`union`'s table, where `merged`: some pair
    /// was gathered).
    fn relabel(&mut self, merged: bool) -> Result<()> {
        let (gpu, part) = (self.gpu, self.part);
        if part.owned == 0 {
            return Ok(());
        }
        let mut launch = Launch::new(gpu);
        let params = CcPartRelabelParams {
            labels: launch.read(&self.cc.labels),
            ghost_globals: launch.read(&self.ghost_globals),
            owned: part.owned,
            first: part.first,
            // No pair gathered: no name merged, no table to probe.
            table: launch.read_or_null(merged.then_some(&self.names_table)),
            table_mask: self.names_mask,
            components: launch.write(&mut self.components),
        };
        // Contract: the table compressed by `union`, or null; `components` room for the owned;
        // `CC_PART_BLOCK` a multiple of 32.
        launch.run(grid_for(gpu, part.owned as u64, CC_PART_BLOCK), Residency::Any, &params)?;
        gpu.synchronize()?;
        Ok(())
    }
}

/// Trace records kept for a part's Afforest run (its phases; the partitioned run reports only
/// their total).
const TRACE_RECORDS: usize = 16;

/// This rank's side of the partitioned connected components on its GPU (`placed` by
/// [`GpuCcPart::place`]). The run's time ends with the merged labels in device memory, before
/// they are read back, as the single-GPU run's ends with its kernel.
pub fn components_rank_gpu<C: DeviceGather>(
    comm: &mut C,
    placed: &mut GpuCcPart<'_>,
    options: &CcOptions,
) -> Result<RankComponents> {
    let (gpu, part) = (placed.gpu, placed.part);
    let clock = RunClock::start(comm, part)?;
    // The merge's exchanges follow the local phase: the links up first, inside the run's time.
    comm.wake_links(gpu)?;
    placed.find_local(options)?;
    gpu.synchronize()?;
    let local_time = clock.started.elapsed();
    let mut steps = StepClock::start();
    placed.name_ghosts()?;
    let regions: Vec<(usize, usize)> = part.ghost_starts().windows(2).map(|w| (2 * w[0], 2 * (w[1] - w[0]))).collect();
    let words = comm.all_to_all_v_on_device(gpu, &placed.sent, &regions, &mut placed.received)?;
    // The exchange's copies end on the stream: waited for here, so that the step is its own.
    gpu.synchronize()?;
    steps.lap();
    let joined = placed.join(words / 2)?;
    steps.lap();
    let pairs = placed.gather_pairs(comm, joined)?;
    steps.lap();
    placed.union(pairs)?;
    steps.lap();
    placed.relabel(pairs > 0)?;
    steps.lap();
    let timing = clock.finish(comm, local_time, joined as u64, steps)?;
    let mut labels = vec![0u32; part.owned as usize];
    gpu.download_at(&placed.components, 0, &mut labels)?;
    Ok(RankComponents { first: part.first, labels, timing })
}

/// Per-rank lists of runs turned into one gathered labelling a run.
pub fn by_run(ranks: Vec<Vec<RankComponents>>) -> Vec<PartitionedComponents> {
    let runs = ranks.first().map_or(0, Vec::len);
    let mut ranks: Vec<_> = ranks.into_iter().map(Vec::into_iter).collect();
    (0..runs)
        .map(|_| concatenate(ranks.iter_mut().map(|r| r.next().expect("as many runs on every rank")).collect()))
        .collect()
}

/// The whole labelling on every rank, through the communicator (for one process per GPU, where
/// no rank sees the others' memory): each rank's labels padded to the largest part and
/// all-gathered.
pub fn gather_components<C: Communicator>(
    comm: &mut C,
    part: &Part,
    rank: RankComponents,
) -> Result<PartitionedComponents> {
    let mine: Vec<u64> = rank.labels.iter().map(|&label| label as u64).collect();
    let labels = part.gather_owned(comm, &mine)?.into_iter().map(|word| word as u32).collect();
    Ok(PartitionedComponents { components: Components { labels }, timing: rank.timing, ranks: comm.world_size() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::components_sequential;
    use crate::generate::{generate, GeneratorSpec};
    use crate::graph::{EdgeList, GraphBuilder};
    use crate::multi::partition_1d;

    fn check(graph: &Graph, parts: usize, options: &CcOptions) {
        let partition = partition_1d(graph, None, parts).unwrap();
        let runs = components_in_process(&partition, Some(graph), options, 2).unwrap();
        let expected = components_sequential(graph);
        for run in runs {
            assert_eq!(run.ranks, parts);
            assert_eq!(run.components, expected, "{parts} parts");
        }
    }

    #[test]
    fn every_part_count_gives_the_sequential_labels() {
        let kron = generate(&"kron:11".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
        let urand = generate(&"urand:11:2".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
        for parts in [1, 2, 3, 5, 8] {
            check(&kron, parts, &CcOptions::default());
            check(&urand, parts, &CcOptions { samples: 0, ..CcOptions::default() });
        }
    }

    #[test]
    fn components_crossing_parts_in_both_directions_merge_and_keep_their_smallest_vertex() {
        // A directed zigzag over 0..300 (each part's range is 64 vertices or more), edges
        // alternately forward and backward, so some are named only from the higher part; 300.. alone;
        // a second chain 310 -> 5 -> ... reaching back into the first part's range.
        let mut edges: Vec<(u32, u32)> = (0..299).map(|v| if v % 2 == 0 { (v, v + 1) } else { (v + 1, v) }).collect();
        edges.extend([(310, 70), (311, 310), (400, 5)]);
        let directed = GraphBuilder::new().build(EdgeList::new(512, edges.clone(), false)).unwrap();
        let undirected = GraphBuilder::new().build(EdgeList::new(512, edges, true)).unwrap();
        for parts in [2, 3, 4, 8] {
            check(&directed, parts, &CcOptions::default());
            check(&undirected, parts, &CcOptions::default());
            check(&directed, parts, &CcOptions { algorithm: CcAlgorithm::ShiloachVishkin, ..CcOptions::default() });
        }
    }

    #[test]
    fn only_a_part_without_ghosts_of_an_undirected_graph_runs_without_a_transpose() {
        let kron = generate(&"kron:10".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
        let one = partition_1d(&kron, None, 1).unwrap();
        assert!(matches!(ComponentLists::of(&one.parts[0], Some(&kron)), ComponentLists::Symmetric(_)));
        for part in &partition_1d(&kron, None, 3).unwrap().parts {
            assert!(matches!(ComponentLists::of(part, Some(&kron)), ComponentLists::Directed { .. }));
        }
        let directed = GraphBuilder::new().build(EdgeList::new(8, vec![(0, 5), (5, 6)], false)).unwrap();
        let part = &partition_1d(&directed, None, 1).unwrap().parts[0];
        assert!(matches!(ComponentLists::of(part, Some(&directed)), ComponentLists::Directed { .. }));
    }

    #[test]
    fn an_undirected_parts_transpose_read_off_the_whole_graph_is_the_sorted_one() {
        let kron = generate(&"kron:11".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
        let urand = generate(&"urand:10:3".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
        for (graph, parts) in [(&kron, 2), (&kron, 5), (&urand, 3)] {
            for part in &partition_1d(graph, None, parts).unwrap().parts {
                let (read_off, sorted) = (transpose_of_undirected_part(part, graph), part.out_lists.graph.transpose());
                assert_eq!((read_off.offsets(), read_off.targets()), (sorted.offsets(), sorted.targets()));
                let ComponentLists::Directed { transpose, .. } = ComponentLists::of(part, Some(graph)) else {
                    panic!("a part with ghosts runs with its transpose")
                };
                assert_eq!(transpose.targets(), sorted.targets());
            }
        }
    }

    #[test]
    fn the_pairs_merge_to_the_smallest_name() {
        // Names 9 and 4 joined, 4 and 7 joined, 12 and 11.
        let pairs = [4, 9, 4, 7, 11, 12];
        assert_eq!(roots_of_pairs(&pairs), (vec![4, 7, 9, 11, 12], vec![4, 4, 4, 11, 11]));
    }
}
