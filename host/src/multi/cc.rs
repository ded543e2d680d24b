//! Connected components over a 1D partition: Afforest on each rank's part, then the
//! cross-partition edges merged (issue 26; Moschou, section 5, and Sutton et al. for Afforest;
//! Merrill et al., section 6, for the 1D ownership).
//!
//! Each rank ([`components_rank`]):
//!
//! 1. finds the components of its part's lists ([`LocalFinder`]: the single-GPU Afforest kernel
//!    on the rank's GPU, or the CPU Afforest on its thread). The part is a graph of its own:
//!    the owned vertices, and the ghosts their lists name (`multi::partition`). It is run as a
//!    directed graph, since a ghost's list is empty here: its in-list (the owned vertices that
//!    name it) is what links it when Afforest's final phase skips the largest component. Every
//!    edge of the graph is in exactly one part (its source's), so the parts together see all.
//!    A local component is named by a global vertex, its smallest owned one (a ghost is always
//!    in the component of the owned vertex that names it);
//! 2. tells each ghost's owner the ghost's local name: `(ghost, name)` pairs, one a ghost, to
//!    the owner (all-to-all-v). The owner has its own name for that vertex, and the two names
//!    are the same component: it keeps each distinct `(name, name)` pair once;
//! 3. all-gathers every rank's pairs (few: one for each pair of local components an edge
//!    joins across parts), and every rank merges them alike with the same union-find Afforest
//!    uses, the higher root hooked under the lower;
//! 4. names each owned vertex by the root of its local component's name.
//!
//! The result is canonical, every component named by its smallest vertex: that vertex names
//! its local component on its owner (it is the smallest owned there), and when the component
//! spans parts, that name is in the pairs, so it is the root of the merged tree.

use std::sync::atomic::AtomicU32;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::cc::cpu_afforest::{compress, link};
use crate::cc::gpu::{components_on, ListsForCc};
use crate::cc::{afforest, shiloach_vishkin, CcAlgorithm, CcOptions, CcRun, Components};
use crate::error::Result;
use crate::gpu::{DeviceGraph, GpuContext, Placement};
use crate::graph::Graph;
use crate::multi::comm::{Communicator, ReduceOp};
use crate::multi::in_process::run_ranks;
use crate::multi::partition::{Part, Partition};

/// Where a rank finds the components of its part: its lists and their transpose, prepared
/// once for every run.
pub enum LocalFinder<'p> {
    /// On the rank's thread (Afforest on the CPU, or Shiloach-Vishkin when asked).
    Cpu { lists: &'p Graph, transpose: Graph },
    /// On the rank's GPU, both in device memory (a part that does not fit is an out-of-memory
    /// error naming it).
    Gpu { gpu: &'p GpuContext, out_lists: DeviceGraph, in_lists: DeviceGraph },
}

impl<'p> LocalFinder<'p> {
    pub fn on_cpu(part: &'p Part) -> LocalFinder<'p> {
        let lists = &part.out_lists.graph;
        LocalFinder::Cpu { lists, transpose: lists.transpose() }
    }

    /// Places the part's lists and their transpose on `gpu`.
    pub fn on_gpu(gpu: &'p GpuContext, part: &'p Part) -> Result<LocalFinder<'p>> {
        let lists = &part.out_lists.graph;
        let out_lists = gpu.place_graph(lists, Placement::Device)?;
        let in_lists = gpu.place_graph(&lists.transpose(), Placement::Device)?;
        Ok(LocalFinder::Gpu { gpu, out_lists, in_lists })
    }

    /// The part's components over its local ids, each named by its smallest local vertex.
    fn run(&self, options: &CcOptions) -> Result<CcRun> {
        match self {
            LocalFinder::Cpu { lists, transpose } => Ok(match options.algorithm {
                CcAlgorithm::Afforest => afforest(lists, Some(transpose), options),
                CcAlgorithm::ShiloachVishkin => shiloach_vishkin(lists),
            }),
            LocalFinder::Gpu { gpu, out_lists, in_lists } => {
                components_on(gpu, ListsForCc::Directed { out_lists, in_lists }, options)
            }
        }
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
    /// Bytes sent between ranks (both exchanges).
    pub exchange_bytes: u64,
    /// Distinct pairs of local components joined across parts.
    pub joined_pairs: u64,
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

/// This rank's side of the partitioned connected components: every rank of `comm` calls it
/// with its own part of one [`Partition`] and its finder for that part.
pub fn components_rank<C: Communicator>(
    comm: &mut C,
    part: &Part,
    finder: &LocalFinder<'_>,
    options: &CcOptions,
) -> Result<RankComponents> {
    part.check_world(comm.world_size())?;
    comm.barrier()?;
    let bytes_before = comm.bytes_sent();
    let started = Instant::now();
    let local = finder.run(options)?.components.labels;
    let local_time = started.elapsed();
    let merging = Instant::now();
    let names: Vec<u32> = local.par_iter().map(|&l| part.out_lists.global_of(l)).collect();
    drop(local);
    let joined = joined_names(comm, part, &names)?;
    let mut all = Vec::new();
    comm.all_to_all_v(&vec![joined.clone(); comm.world_size()], &mut all)?;
    let labels = merged_labels(&names[..part.owned as usize], &all);
    let merge = merging.elapsed();
    let time = started.elapsed();
    let nanos = |d: Duration| d.as_nanos() as u64;
    let mut slowest = [nanos(time), nanos(local_time), nanos(merge)];
    comm.all_reduce(&mut slowest, ReduceOp::Max)?;
    let mut sums = [comm.bytes_sent() - bytes_before, joined.len() as u64 / 2];
    comm.all_reduce(&mut sums, ReduceOp::Sum)?;
    let [time, local, merge] = slowest.map(Duration::from_nanos);
    let timing = MergeTiming { time, local, merge, exchange_bytes: sums[0], joined_pairs: sums[1] };
    Ok(RankComponents { first: part.first, labels, timing })
}

/// Sends each ghost's name here to its owner, and returns the distinct pairs of names (the
/// sender's, the owner's) that differ, flattened, in ascending order.
fn joined_names<C: Communicator>(comm: &mut C, part: &Part, names: &[u32]) -> Result<Vec<u32>> {
    let lists = &part.out_lists;
    let (ghosts, owned) = (lists.ghosts(), part.owned as usize);
    // Ghosts ascend by global id and parts are ranges: each owner's ghosts are one stretch.
    let starts: Vec<usize> = part.bounds.iter().map(|&b| ghosts.partition_point(|&g| g < b)).collect();
    let outgoing: Vec<Vec<u32>> = starts
        .windows(2)
        .map(|w| (w[0]..w[1]).into_par_iter().flat_map_iter(|i| [ghosts[i], names[owned + i]]).collect())
        .collect();
    let mut received = Vec::new();
    comm.all_to_all_v(&outgoing, &mut received)?;
    drop(outgoing);
    let mut pairs: Vec<u64> = received
        .par_chunks_exact(2)
        .filter_map(|pair| {
            let (theirs, mine) = (pair[1], names[(pair[0] - part.first) as usize]);
            (theirs != mine).then(|| (theirs.min(mine) as u64) << 32 | theirs.max(mine) as u64)
        })
        .collect();
    pairs.par_sort_unstable();
    pairs.dedup();
    Ok(pairs.into_iter().flat_map(|p| [(p >> 32) as u32, p as u32]).collect())
}

/// Each owned vertex's component: the smallest name joined to its local component's name by
/// `pairs` (every rank's, flattened), or that name itself.
fn merged_labels(owned_names: &[u32], pairs: &[u32]) -> Vec<u32> {
    let mut joined = pairs.to_vec();
    joined.par_sort_unstable();
    joined.dedup();
    // Union-find over the indices of the joined names, whose order is the names' order: the
    // root of every tree is its smallest name.
    let index = |name: u32| joined.binary_search(&name).expect("every joined name is listed") as u32;
    let parents: Vec<AtomicU32> = (0..joined.len() as u32).into_par_iter().map(AtomicU32::new).collect();
    pairs.par_chunks_exact(2).for_each(|pair| link(index(pair[0]), index(pair[1]), &parents));
    compress(&parents);
    owned_names
        .par_iter()
        .map(|&name| match joined.binary_search(&name) {
            Ok(i) => joined[parents[i].load(std::sync::atomic::Ordering::Relaxed) as usize],
            Err(_) => name,
        })
        .collect()
}

/// The ranks' labels, in rank order, as one labelling (the parts are consecutive ranges).
pub fn concatenate(ranks: Vec<RankComponents>) -> PartitionedComponents {
    let (timing, count) = (ranks[0].timing, ranks.len());
    let labels = ranks.into_iter().flat_map(|rank| rank.labels).collect();
    PartitionedComponents { components: Components { labels }, timing, ranks: count }
}

/// `runs` partitioned runs with one thread a part of `partition` ([`InProcess`] communication),
/// each part's components found on its thread, its transpose made once for all runs.
///
/// [`InProcess`]: crate::multi::InProcess
pub fn components_in_process(
    partition: &Partition,
    options: &CcOptions,
    runs: usize,
) -> Result<Vec<PartitionedComponents>> {
    let ranks = run_ranks(partition.parts.len(), |comm| {
        let part = &partition.parts[comm.rank()];
        let finder = LocalFinder::on_cpu(part);
        (0..runs).map(|_| components_rank(comm, part, &finder, options)).collect::<Result<Vec<_>>>()
    });
    Ok(by_run(ranks.into_iter().collect::<Result<Vec<_>>>()?))
}

/// `runs` partitioned runs with every part on the first GPU, one thread and one context a rank:
/// the multi-GPU code path on one GPU. Each part is placed once for all runs.
pub fn components_gpu_in_process(
    partition: &Partition,
    options: &CcOptions,
    runs: usize,
) -> Result<Vec<PartitionedComponents>> {
    let ranks = run_ranks(partition.parts.len(), |comm| {
        let gpu = GpuContext::new()?;
        components_on_gpu(comm, &gpu, &partition.parts[comm.rank()], options, runs)
    });
    Ok(by_run(ranks.into_iter().collect::<Result<Vec<_>>>()?))
}

/// Places this rank's `part` on `gpu` and runs the partitioned components `runs` times.
pub fn components_on_gpu<C: Communicator>(
    comm: &mut C,
    gpu: &GpuContext,
    part: &Part,
    options: &CcOptions,
    runs: usize,
) -> Result<Vec<RankComponents>> {
    let finder = LocalFinder::on_gpu(gpu, part)?;
    (0..runs).map(|_| components_rank(comm, part, &finder, options)).collect()
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
    let widest = part.bounds.windows(2).map(|w| (w[1] - w[0]) as usize).max().unwrap_or(0);
    let mut mine = vec![u64::MAX; widest];
    mine.iter_mut().zip(&rank.labels).for_each(|(slot, &label)| *slot = label as u64);
    let mut all = vec![0u64; widest * comm.world_size()];
    comm.all_gather(&mine, &mut all)?;
    let mut labels = Vec::with_capacity(part.global.vertices as usize);
    for (p, share) in all.chunks(widest.max(1)).enumerate().take(comm.world_size()) {
        let owned = (part.bounds[p + 1] - part.bounds[p]) as usize;
        labels.extend(share[..owned].iter().map(|&word| word as u32));
    }
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
        let runs = components_in_process(&partition, options, 2).unwrap();
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
    fn the_pairs_merge_to_the_smallest_name() {
        // Names 9 and 4 joined, 4 and 7 joined; 2 alone.
        let pairs = [4, 9, 4, 7];
        assert_eq!(merged_labels(&[9, 7, 4, 2], &pairs), [4, 4, 4, 2]);
    }
}
