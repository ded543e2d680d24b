//! The level loop every rank of a partitioned BFS runs ([`run_levels`]), wherever the rank's
//! labels live: on its thread (`multi::bfs`), on its GPU (`multi::gpu`) or on a part of a 2D
//! partition (`multi::bfs_2d`). Per level it takes the direction with the single-GPU rule
//! ([`Switching`]), has the rank's [`RankWork`] expand or search, all-reduces the level's
//! counts and keeps the trace; at the end it gathers the levels' bytes and times. Here too are
//! the options every partitioned BFS takes and the shapes its results come back in.

use std::time::{Duration, Instant};

use crate::bfs::switching::{SwitchInputs, SwitchRule, Switching};
use crate::bfs::trace::{Direction, LevelTrace};
use crate::bfs::BfsResult;
use crate::engine::PlacementOptions;
use crate::error::{Error, Result};
use crate::multi::comm::{Communicator, ReduceOp};
use crate::multi::partition::Part;

/// How a partitioned BFS picks its directions: the single-GPU rule and its parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct PartitionedOptions {
    pub rule: SwitchRule,
    pub alpha: f32,
    pub beta: f32,
    /// False: top-down levels only.
    pub bottom_up: bool,
    /// Where a GPU rank puts its part's lists ([`crate::multi::placement::place_part_lists`]): by
    /// default device memory when they fit beside the rank's buffers, else zero-copy.
    pub placement: PlacementOptions,
    /// GPU ranks: bottom-up levels read a device copy of the in-lists' targets as global ids
    /// (`bfs_part_global_targets`), every in-neighbor looked up in the global bitmap as on one
    /// GPU, when device memory holds the copy; false, or when it does not: the local ids, each
    /// ghost read through a pass over the ghosts or its global id (no copy).
    pub global_in_ids: bool,
    /// Which hubs a cut delegates (`multi::cut`: vertex delegates,
    /// [`Partition::delegate_hubs`](crate::multi::Partition::delegate_hubs)). GPU ranks expand
    /// a frontier's hubs at a top-down level from every rank's piece of their lists when the
    /// part has pieces, device memory holds them and this is not `Off`; else on the hubs' owners.
    pub delegation: crate::multi::Delegation,
    /// GPU ranks: a top-down level whose frontier has at most this many out-edges (over every
    /// rank) sends each owner a fixed number of pair slots, as many as it could need (those
    /// edges, or the owner's vertices this rank holds as ghosts, whichever is fewer), the
    /// unused ones marked empty: no rank waits on the host for the level's counts before the
    /// exchange. Above it the counts go first, then exactly the pairs (level 0 knows its
    /// out-edges from the barrier before the clock). 0: always the counts first.
    pub padded_pairs: u64,
    /// GPU ranks: a bottom-up level whose frontier holds at most one vertex in this many (over
    /// every rank) trades it as the ranks' queues of vertex ids, each rank setting them in its
    /// global bitmap, instead of all-gathering the bitmap ([`SPARSE_FRONTIER_SHARE`]). 0: the
    /// bitmap always; 1: the queues whenever the frontier is not every vertex.
    pub sparse_frontier_share: u64,
    /// GPU ranks of equal ranges: a bottom-up level searches its vertices in this many
    /// stretches, one launch each, and all-gathers each stretch's words of the next frontier
    /// while the next stretch is searched (the last stretch's at the next level, if that is
    /// bottom-up too), so that the bitmap's exchange overlaps the search instead of following
    /// it ([`BOTTOM_UP_CHUNKS`]). 1: one launch, the whole share gathered at the next level.
    pub bottom_up_chunks: u32,
    /// GPU ranks, chunked bottom-up levels: multiprocessors each stretch's launch leaves free,
    /// where the collective beside it runs, its grid then the blocks resident at once on the
    /// others ([`CHUNK_SPARE_SMS`]); 0: the ordinary grid, several blocks a multiprocessor in
    /// turn, which the collective follows as they end.
    pub chunk_spare_sms: u32,
}

/// [`PartitionedOptions::bottom_up_chunks`]' default.
pub const BOTTOM_UP_CHUNKS: u32 = 1;

/// [`PartitionedOptions::chunk_spare_sms`]' default.
pub const CHUNK_SPARE_SMS: u32 = 8;

/// [`PartitionedOptions::sparse_frontier_share`]'s default: off. Within an NVLink host the
/// bitmap's all-gather is mostly latency, and the queues of ids (with the bitmap cleared and
/// the ids set) measured no faster at one vertex in 128 on 2 and 4 GPUs (bench/NOTES.md 82).
/// Where links are slower (ranks on several hosts), 128 trades 4 bytes a frontier vertex, at
/// most a quarter of the bitmap's bytes: the first bottom-up level after top-down ones often
/// qualifies (a few hundred thousand vertices of kron:28's 2^28).
pub const SPARSE_FRONTIER_SHARE: u64 = 0;

/// [`PartitionedOptions::padded_pairs`]'s default: at most 32 KiB of slots for one owner. The
/// slots cross whether they hold pairs or not, through NCCL's point-to-point sends, which move
/// fewer bytes a microsecond than its collectives: many slots cost more than the host's round
/// trip they spare (bench/NOTES.md 76).
pub const PADDED_PAIRS: u64 = 4096;

impl Default for PartitionedOptions {
    /// The persistent GPU kernel's defaults (`PersistentParams::default`).
    fn default() -> Self {
        let params = crate::bfs::gpu::PersistentParams::default();
        PartitionedOptions {
            rule: params.switch_rule,
            alpha: params.alpha,
            beta: params.beta,
            bottom_up: true,
            placement: Default::default(),
            global_in_ids: true,
            delegation: crate::multi::Delegation::Auto,
            padded_pairs: PADDED_PAIRS,
            sparse_frontier_share: SPARSE_FRONTIER_SHARE,
            bottom_up_chunks: BOTTOM_UP_CHUNKS,
            chunk_spare_sms: CHUNK_SPARE_SMS,
        }
    }
}

/// One level of a partitioned traversal: the trace every BFS gives (counts summed over ranks,
/// time the slowest rank's) and what crossed between ranks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionedLevel {
    pub trace: LevelTrace,
    /// Bytes of frontier exchange (discoveries, bitmap shares) sent between ranks, summed over
    /// the ranks; the small all-reduce of counts is not in it.
    pub exchange_bytes: u64,
    /// The slowest rank's time in the exchange, waiting for the others included.
    pub exchange_time: Duration,
}

/// What one rank ends with: its owned vertices' labels (parents as global ids) and the levels.
#[derive(Clone, Debug)]
pub struct RankTraversal {
    pub first: u32,
    pub distances: Vec<u32>,
    pub parents: Vec<u32>,
    pub levels: Vec<PartitionedLevel>,
    /// The slowest rank's time from the common start to the last level's end.
    pub time: Duration,
    /// How a GPU rank held its part's lists; `None` on a CPU rank.
    pub lists: Option<PartLists>,
}

/// How a GPU rank holds its part's lists, for the reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartLists {
    pub placement: crate::gpu::Placement,
    /// Delta-varint compressed.
    pub compressed: bool,
    /// Offsets and lists (the out-lists, and on a directed graph the in-lists) as held.
    pub stored_bytes: u64,
    /// What the same lists take as plain CSR.
    pub plain_bytes: u64,
    /// Device memory the placed lists hold (a compressed part's degrees and restart points
    /// included).
    pub device_bytes: u64,
}

/// A whole partitioned traversal, gathered.
#[derive(Clone, Debug)]
pub struct PartitionedTraversal {
    pub result: BfsResult,
    pub levels: Vec<PartitionedLevel>,
    pub time: Duration,
    pub ranks: usize,
    /// How each GPU rank held its part's lists, in rank order (the ranks of this process; none
    /// for CPU ranks).
    pub lists: Vec<PartLists>,
}

impl PartitionedLevel {
    /// Level `level`'s record from the frontier's `counts` (this level's, summed over the
    /// ranks), the level's `summed` counts and the bytes it exchanged; its times are filled
    /// in at the end ([`finish_levels`]), its switching decision by the caller.
    pub(crate) fn counted(
        level: u32,
        direction: Direction,
        counts: [u64; COUNTS],
        summed: [u64; COUNTS],
        unvisited_edges: u64,
        exchange_bytes: u64,
    ) -> PartitionedLevel {
        PartitionedLevel {
            trace: LevelTrace {
                level,
                direction,
                frontier: counts[FOUND],
                edges_inspected: summed[INSPECTED],
                bytes_read: 0,
                bus_bytes: 0,
                time: Duration::ZERO,
                frontier_edges: counts[FOUND_EDGES],
                unvisited_edges,
                generation: None,
                decision: None,
            },
            exchange_bytes,
            exchange_time: Duration::ZERO,
        }
    }
}

impl PartitionedTraversal {
    pub fn exchange_bytes(&self) -> u64 {
        self.levels.iter().map(|l| l.exchange_bytes).sum()
    }
}

/// The ranks' labels, in rank order, as one tree (the parts are consecutive ranges).
pub fn concatenate(ranks: Vec<RankTraversal>, source: u32) -> PartitionedTraversal {
    let (levels, time, count) = (ranks[0].levels.clone(), ranks[0].time, ranks.len());
    let lists = ranks.iter().filter_map(|rank| rank.lists).collect();
    let mut result = BfsResult { source, distances: Vec::new(), parents: Vec::new() };
    for rank in ranks {
        result.distances.extend(rank.distances);
        result.parents.extend(rank.parents);
    }
    PartitionedTraversal { result, levels, time, ranks: count, lists }
}

/// The whole tree on every rank, through the communicator (for one process per GPU, where no
/// rank sees the others' memory): each rank's labels, distance and parent in one word, padded
/// to the largest part and all-gathered.
pub fn gather_tree<C: Communicator>(
    comm: &mut C,
    part: &Part,
    rank: RankTraversal,
    source: u32,
) -> Result<PartitionedTraversal> {
    let mine: Vec<u64> = rank.distances.iter().zip(&rank.parents).map(|(&d, &p)| (d as u64) << 32 | p as u64).collect();
    let words = part.gather_owned(comm, &mine)?;
    let result = BfsResult {
        source,
        distances: words.iter().map(|&word| (word >> 32) as u32).collect(),
        parents: words.iter().map(|&word| word as u32).collect(),
    };
    let lists = rank.lists.into_iter().collect();
    Ok(PartitionedTraversal { result, levels: rank.levels, time: rank.time, ranks: comm.world_size(), lists })
}

/// The counts every rank contributes to the level's all-reduce, in order.
pub(crate) const FOUND: usize = 0;
pub(crate) const FOUND_EDGES: usize = 1;
pub(crate) const INSPECTED: usize = 2;
pub(crate) const COUNTS: usize = 3;

/// What one level gave a rank: its counts for the all-reduce and its time in the exchange.
pub(crate) struct Step {
    pub(crate) counts: [u64; COUNTS],
    pub(crate) exchange: Duration,
}

/// One rank's work at each level, wherever its labels live: on its thread (`multi::bfs`) or on
/// its GPU (`multi::gpu`). The level loop ([`run_levels`]) is the same for both: it takes the
/// directions, all-reduces the counts and keeps the trace.
pub(crate) trait RankWork<C: Communicator> {
    /// Labels `source` as the root where this rank owns it, the first frontier, and returns
    /// its out-degree there (0 on the other ranks).
    fn start(&mut self, source: u32) -> Result<u64>;
    /// The source's out-degree, summed over the ranks before level 0: the first frontier's
    /// out-edges, which every rank then knows without a count crossing at level 0.
    fn source_degree(&mut self, _degree: u64) {}
    /// Expands the frontier at distance `level` top-down, trades the discovered ghosts with
    /// their owners and labels what they sent at `level + 1`.
    fn top_down(&mut self, comm: &mut C, level: u32) -> Result<Step>;
    /// All-gathers the frontier at distance `level` and searches the unvisited vertices'
    /// in-lists for it.
    fn bottom_up(&mut self, comm: &mut C, level: u32) -> Result<Step>;
    /// This level's `counts` (this rank's, as its step returned them) summed over the ranks,
    /// the same on every rank: one all-reduce, or wherever the rank keeps them (a GPU rank's
    /// stay in its device's counters, and its level ends here, when it reads them back).
    fn sum_counts(&mut self, comm: &mut C, counts: [u64; COUNTS]) -> Result<[u64; COUNTS]> {
        let mut summed = counts;
        comm.all_reduce(&mut summed, ReduceOp::Sum)?;
        Ok(summed)
    }
    /// The level's time in its exchange, once [`sum_counts`](Self::sum_counts) has ended it:
    /// `measured`, its step's, unless the rank timed the exchange where it ran (a GPU rank's
    /// bitmap gather, timed by events on its stream so that the host need not wait for it).
    fn exchange_time(&mut self, measured: Duration) -> Result<Duration> {
        Ok(measured)
    }
    /// The owned vertices' distances and parents (global ids).
    fn labels(self) -> Result<(Vec<u32>, Vec<u32>)>;
}

/// The level loop every rank runs, with `work` doing the rank's share of each level; a part of
/// a 2D partition is traversed top-down only (`multi::bfs_2d`).
pub(crate) fn run_levels<C: Communicator, W: RankWork<C>>(
    comm: &mut C,
    part: &Part,
    source: u32,
    options: &PartitionedOptions,
    mut work: W,
) -> Result<RankTraversal> {
    let n = part.global.vertices;
    if source as u64 >= n {
        return Err(Error::InvalidArgument(format!("BFS source {source} is not a vertex (the graph has {n})")));
    }
    part.check_world(comm.world_size())?;
    let bottom_up_allowed = options.bottom_up && part.grid.is_none();
    let switching = Switching {
        rule: options.rule,
        alpha: options.alpha,
        beta: options.beta,
        n,
        edges: part.global.edges,
        in_listed: part.global.with_in_edges,
    };
    // The barrier before the clock starts, which also tells every rank the source's out-degree.
    let mut degree = [work.start(source)?];
    comm.all_reduce(&mut degree, ReduceOp::Sum)?;
    work.source_degree(degree[0]);
    let started = Instant::now();
    // Level 0 is the source alone and always top-down, so it needs no counts first: the
    // source's out-degree, which its owner alone knows, comes back as the level's summed
    // inspected edges (bench/NOTES.md 71).
    let mut counts = [1, 0, 0];

    let mut levels = Vec::new();
    let mut level_times = Vec::new();
    let (mut previous_frontier, mut previous_edges, mut reached) = (0u64, 0u64, 0u64);
    let mut unvisited_edges = part.global.edges;
    let mut previous_bottom_up = false;
    while counts[FOUND] > 0 {
        let level_started = Instant::now();
        let level = levels.len() as u32;
        reached += counts[FOUND];
        let inputs = SwitchInputs {
            frontier: counts[FOUND],
            previous_frontier,
            frontier_edges: counts[FOUND_EDGES],
            previous_edges,
            unvisited_edges,
            unvisited_vertices: part.global.with_in_edges.saturating_sub(reached),
            previous_bottom_up,
        };
        let bottom_up = level > 0 && bottom_up_allowed && switching.wants_bottom_up(&inputs);
        let bytes_before = comm.bytes_sent();
        let step = if bottom_up { work.bottom_up(comm, level)? } else { work.top_down(comm, level)? };
        let exchange_bytes = comm.bytes_sent() - bytes_before;
        let summed = work.sum_counts(comm, step.counts)?;
        let exchange = work.exchange_time(step.exchange)?;
        if level == 0 {
            // The source's out-degree: the edges its top-down level inspected.
            counts[FOUND_EDGES] = summed[INSPECTED];
            unvisited_edges = unvisited_edges.saturating_sub(counts[FOUND_EDGES]);
        }
        let direction = if bottom_up { Direction::BottomUp } else { Direction::TopDown };
        let mut record = PartitionedLevel::counted(level, direction, counts, summed, unvisited_edges, exchange_bytes);
        record.trace.decision = (bottom_up_allowed && level > 0).then(|| switching.explain(&inputs));
        levels.push(record);
        level_times.extend([level_started.elapsed().as_nanos() as u64, exchange.as_nanos() as u64]);
        previous_frontier = counts[FOUND];
        previous_edges = counts[FOUND_EDGES];
        previous_bottom_up = bottom_up;
        counts = [summed[FOUND], summed[FOUND_EDGES], 0];
        unvisited_edges = unvisited_edges.saturating_sub(counts[FOUND_EDGES]);
    }
    let time = finish_levels(comm, &mut levels, &mut level_times, started)?;
    let (distances, parents) = work.labels()?;
    Ok(RankTraversal { first: part.first, distances, parents, levels, time, lists: None })
}

/// The traversal's time and its levels' bytes and times over every rank (bytes summed, times
/// the slowest rank's), from this rank's `levels` and `level_times` (each level's time and
/// exchange time, in nanoseconds). Every rank calls it once, at the end of its traversal.
pub(crate) fn finish_levels<C: Communicator>(
    comm: &mut C,
    levels: &mut [PartitionedLevel],
    level_times: &mut [u64],
    started: Instant,
) -> Result<Duration> {
    let mut time = [started.elapsed().as_nanos() as u64];
    comm.all_reduce(&mut time, ReduceOp::Max)?;
    let mut bytes: Vec<u64> = levels.iter().map(|l| l.exchange_bytes).collect();
    comm.all_reduce(&mut bytes, ReduceOp::Sum)?;
    comm.all_reduce(level_times, ReduceOp::Max)?;
    for ((level, bytes), times) in levels.iter_mut().zip(bytes).zip(level_times.chunks_exact(2)) {
        level.exchange_bytes = bytes;
        level.trace.time = Duration::from_nanos(times[0]);
        level.exchange_time = Duration::from_nanos(times[1]);
    }
    Ok(Duration::from_nanos(time[0]))
}
