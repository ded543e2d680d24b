//! The bit-parallel many-source BFS on the GPU: up to 64 sources a batch, the host driving
//! `bfs_multi_source_level` a level at a time (one launch bottom-up, two top-down) and reading
//! back what the level reached, from which it picks the next level's direction (MS-BFS and
//! iBFS's joint frontier; the CPU's `bfs::multi_source` is the same search, bottom-up). Each
//! level's new words stay in a ring of [`MULTI_SOURCE_LEVEL_RING`] levels, turned into the
//! sources' distances by `bfs_multi_source_distances` a ring at a time (before the ring wraps,
//! and after the last level).

use std::time::{Duration, Instant};

use cudarc::driver::CudaSlice;
use warpath_interface::bfs::multi_source::{
    multi_source_queue_capacity, MULTI_SOURCE_BATCH, MULTI_SOURCE_GRID_LIST, MULTI_SOURCE_LEVEL_COUNTERS,
    MULTI_SOURCE_LEVEL_RING, MULTI_SOURCE_PULL, MULTI_SOURCE_PULL_QUEUED, MULTI_SOURCE_PUSH, MULTI_SOURCE_PUSH_QUEUED,
    MULTI_SOURCE_SETTLE, MULTI_SOURCE_SETTLE_QUEUED,
};

use crate::bfs::gpu::launch::{self as kernels, MultiSourceBuffers};
use crate::bfs::multi_source::{ManyDirections, SourceTallies};
use crate::gpu::{DeviceGraph, Download, GpuContext, GpuError};

/// Under [`ManyDirections::Switching`], a level after the first runs top-down while the joint
/// frontier's out-list entries times this stay below the graph's edges: a push reads only the
/// frontier's lists but pays an atomic where a target gains a bit, a pull reads the lists of every
/// vertex that has not seen every source, at the first levels nearly all (bench/NOTES.md 125).
pub const PUSH_WHILE_EDGES_TIMES: u64 = 16;

/// Under [`ManyDirections::Switching`], graphs of fewer edges pull every level: a pull over them
/// costs about what the push's two passes and the clearing of the next words cost in launches
/// alone (measured on USA-road-d.NY: bench/NOTES.md 125).
pub const PUSH_FROM_EDGES: u64 = 1 << 22;

/// Whether a level runs top-down under `directions`, on a graph of `edges` entries, its frontier
/// the sources (`None`: the first level) or vertices with `Some(entries)` out-list entries, the
/// level before it having pushed or not (`after_push`). Under [`ManyDirections::Switching`],
/// graphs of fewer than [`PUSH_FROM_EDGES`] edges never push; the first level pushes (at most 64
/// lists, where a pull reads nearly every list: bench/NOTES.md 133); a later level pushes while
/// its frontier is small ([`PUSH_WHILE_EDGES_TIMES`]) and every level before it pushed: once the
/// joint frontier has grown big enough to pull, the later, smaller frontiers reach vertices that
/// have seen most sources, which a pull skips and a push still walks to (NOTES 133).
pub fn pushes(directions: ManyDirections, frontier_edges: Option<u64>, edges: u64, after_push: bool) -> bool {
    match directions {
        ManyDirections::Switching => {
            edges >= PUSH_FROM_EDGES
                && match frontier_edges {
                    None => true,
                    Some(entries) => after_push && entries.saturating_mul(PUSH_WHILE_EDGES_TIMES) < edges,
                }
        }
        ManyDirections::BottomUp => false,
        ManyDirections::TopDown => true,
    }
}

/// The level's counters ahead of the per-source counts in a level's slot of the counts buffer:
/// the vertices it reached, their out-list entries, its queued pieces of long lists.
const LEVEL_COUNTERS: usize = MULTI_SOURCE_LEVEL_COUNTERS;

/// Words of a level's slot of the counts buffer: its counters and the per-source counts.
const SLOT: usize = LEVEL_COUNTERS + MULTI_SOURCE_BATCH as usize;

/// Levels launched between two reads of the counts, at most, where no later level can push (no
/// level's direction waits on the last one's counts): the first read after one level, then after
/// 2, 4 and 8; a level after the last one reaches nothing and costs a pass over the seen words.
const LEVELS_BETWEEN_READS: usize = 8;

/// Slots of the ring of levels' new words.
const RING: usize = MULTI_SOURCE_LEVEL_RING as usize;

/// Device words and labels for batches of sources over one graph's lists, allocated once.
pub struct GpuMultiSource<'g> {
    gpu: &'g GpuContext,
    in_lists: &'g DeviceGraph,
    /// The out-lists where they are plain (the graph itself); without them every level pulls.
    out_lists: Option<&'g DeviceGraph>,
    /// Some list may be longer than `MULTI_SOURCE_GRID_LIST`: each level runs the queued lists'
    /// passes after its own.
    long_lists: bool,
    /// A level's pieces of long lists.
    queue: CudaSlice<u64>,
    seen: CudaSlice<u64>,
    /// The ring of levels' new words: level `l`'s in slot `l % RING` (`n` words a slot).
    ring: CudaSlice<u64>,
    distances: CudaSlice<u32>,
    counts: CudaSlice<u64>,
}

/// One batch's distances (`distances[i][v]`: source `i`, vertex `v`), its device time (CUDA
/// events, from the first level to the last distance written), the download, and where traced,
/// each level.
pub struct MultiSourceBatch {
    pub distances: Vec<Vec<u32>>,
    pub time: Duration,
    pub download: Download,
    pub levels: Vec<MultiSourceLevel>,
}

/// A traced level of a batch: its direction, what it reached, and its device time (CUDA events
/// around its launches, the distances it had to write before it included).
#[derive(Clone, Debug, PartialEq)]
pub struct MultiSourceLevel {
    pub level: u32,
    pub pushed: bool,
    /// Vertices that gained a source, and their out-list entries.
    pub reached: u64,
    pub reached_edges: u64,
    pub time: Duration,
}

impl<'g> GpuMultiSource<'g> {
    /// Device bytes for a graph of `n` vertices and `m` list entries a direction: a seen word, a
    /// ring of level words and 64 distances a vertex, the counters and the queue of long lists.
    pub fn bytes_needed(n: u32, m: u64) -> u64 {
        ((1 + RING as u64) * 8 + 4 * MULTI_SOURCE_BATCH as u64) * n.max(1) as u64
            + 8 * (SLOT * LEVELS_BETWEEN_READS) as u64
            + 8 * multi_source_queue_capacity(m)
    }

    /// Buffers for searches over `in_lists` (a directed graph's transpose, an undirected graph's
    /// own lists) and, where plain, `out_lists` (the graph's own lists), which top-down levels
    /// walk; `longest` bounds its lists both ways.
    pub fn new(
        gpu: &'g GpuContext,
        in_lists: &'g DeviceGraph,
        out_lists: Option<&'g DeviceGraph>,
        longest: u64,
    ) -> Result<Self, GpuError> {
        let n = in_lists.num_vertices().max(1) as usize;
        let out_lists = out_lists.filter(|lists| !lists.is_compressed());
        let m = out_lists.map_or(0, DeviceGraph::num_edges).max(in_lists.num_edges());
        gpu.ensure_free(Self::bytes_needed(in_lists.num_vertices(), m), "the many-source BFS's words and distances")?;
        Ok(GpuMultiSource {
            gpu,
            in_lists,
            out_lists,
            long_lists: longest > MULTI_SOURCE_GRID_LIST,
            queue: gpu
                .alloc_zeros(multi_source_queue_capacity(m) as usize, "the many-source BFS's queue of long lists")?,
            seen: gpu.alloc_zeros(n, "the many-source BFS's seen words")?,
            ring: gpu.alloc_zeros(RING * n, "the many-source BFS's level words")?,
            distances: gpu.alloc_zeros(MULTI_SOURCE_BATCH as usize * n, "the many-source BFS's distances")?,
            counts: gpu.alloc_zeros(SLOT * LEVELS_BETWEEN_READS, "the many-source BFS's level counters")?,
        })
    }

    /// The searches from `sources` (internal ids `< n`, at most 64; the caller checks them),
    /// each level's direction as `directions` says; each level timed apart where `trace`.
    pub fn run(
        &mut self,
        sources: &[u32],
        directions: ManyDirections,
        trace: bool,
    ) -> Result<MultiSourceBatch, GpuError> {
        let n = self.in_lists.num_vertices() as usize;
        let (time, levels) = self.search(sources, directions, Wanted::Distances, trace)?;
        let downloading = Instant::now();
        let all = self.gpu.download(&self.distances)?;
        let download = Download { time: downloading.elapsed(), bytes: (all.len() * 4) as u64 };
        let distances = all.chunks(n.max(1)).take(sources.len()).map(<[u32]>::to_vec).collect();
        Ok(MultiSourceBatch { distances, time, download, levels })
    }

    /// The searches of [`run`](Self::run), each source's distances summed on the way instead of
    /// written: after each level, the vertices each source reached there are counted on the
    /// device (`bfs_multi_source_count`), and only the counts come back. What closeness and
    /// harmonic centrality need, for `sources.len()` sources, with the device time.
    pub fn run_tallies(
        &mut self,
        sources: &[u32],
        directions: ManyDirections,
    ) -> Result<(SourceTallies, Duration), GpuError> {
        let mut tallies = SourceTallies::new(sources.len());
        let add = &mut |level: u32, reached: &[u64]| tallies.add_level(level, reached);
        let (time, _) = self.search(sources, directions, Wanted::Tallies(add), false)?;
        Ok((tallies, time))
    }

    /// The level loop of [`run`](Self::run) and [`run_tallies`](Self::run_tallies): levels until
    /// one reaches nothing, each read back for the next one's direction, then what `wanted`
    /// asks: the distances written from the ring, or the vertices each source reached at each
    /// level counted and handed over with the level. Returns the device time (CUDA events,
    /// first level to the last distance), and each level where `trace`.
    fn search(
        &mut self,
        sources: &[u32],
        directions: ManyDirections,
        mut wanted: Wanted<'_>,
        trace: bool,
    ) -> Result<(Duration, Vec<MultiSourceLevel>), GpuError> {
        let gpu = self.gpu;
        let n = self.in_lists.num_vertices() as usize;
        let edges = self.in_lists.num_edges();
        let count = sources.len() as u32;
        let mut words = vec![0u64; n];
        for (bit, &s) in sources.iter().enumerate() {
            words[s as usize] |= 1 << bit;
        }
        // Level 0's new words, the sources, in slot 0.
        gpu.copy_into(&words, &mut self.seen)?;
        gpu.copy_into(&words, &mut self.ring)?;
        // A level pushes only where the out-lists are plain on the device.
        let can_push = self.out_lists.is_some();
        let pushes_at = |frontier_edges, after_push| can_push && pushes(directions, frontier_edges, edges, after_push);
        let counted = self.out_lists.unwrap_or(self.in_lists);
        let start = gpu.record_event()?;
        let mut marks = Vec::new();
        let mut traced = Vec::new();
        let mut level = 1;
        // The first level not yet written into the distances.
        let mut unwritten = 0;
        // The last level launched.
        let mut launched = 0;
        let mut push = pushes_at(None, true);
        let mut group = 1;
        'levels: loop {
            gpu.zero(&mut self.counts)?;
            for slot in 0..group {
                let at = level + slot as u32;
                launched = at;
                let (frontier, next) = ((at as usize - 1) % RING, at as usize % RING);
                if next == 0 && matches!(wanted, Wanted::Distances) {
                    // The ring is full: its levels' distances before level `at` takes slot 0.
                    self.write_distances(count, unwritten, RING as u32)?;
                    unwritten = at;
                }
                // The queued lists' passes where a list may be long enough to be queued.
                let queued = |mode| Some(mode).filter(|_| self.long_lists);
                let passes = match self.out_lists {
                    Some(out) if push => {
                        gpu.zero_range(&mut self.ring, next * n..(next + 1) * n)?;
                        [
                            Some((MULTI_SOURCE_PUSH, out)),
                            queued(MULTI_SOURCE_PUSH_QUEUED).map(|mode| (mode, out)),
                            Some((MULTI_SOURCE_SETTLE, out)),
                        ]
                    }
                    _ => [
                        Some((MULTI_SOURCE_PULL, self.in_lists)),
                        queued(MULTI_SOURCE_PULL_QUEUED).map(|mode| (mode, self.in_lists)),
                        queued(MULTI_SOURCE_SETTLE_QUEUED).map(|mode| (mode, self.in_lists)),
                    ],
                };
                for (mode, lists) in passes.into_iter().flatten() {
                    kernels::bfs_multi_source_level(
                        gpu,
                        lists,
                        counted,
                        count,
                        mode,
                        MultiSourceBuffers {
                            seen: &mut self.seen,
                            ring: &mut self.ring,
                            frontier,
                            next,
                            counts: &mut self.counts,
                            counts_at: slot * SLOT,
                            queue: &mut self.queue,
                        },
                    )?;
                }
                if let Wanted::Tallies(_) = wanted {
                    kernels::bfs_multi_source_count(
                        gpu,
                        &self.ring,
                        next * n,
                        n,
                        &mut self.counts,
                        slot * SLOT + LEVEL_COUNTERS,
                    )?;
                }
                if trace {
                    marks.push((at, push, gpu.record_event()?));
                }
            }
            let counts = gpu.download(&self.counts)?;
            for slot in counts.chunks(SLOT).take(group) {
                if trace {
                    traced.push((slot[0], slot[1]));
                }
                if slot[0] == 0 {
                    break 'levels;
                }
                if let Wanted::Tallies(add) = &mut wanted {
                    add(level, &slot[LEVEL_COUNTERS..]);
                }
                push = pushes_at(Some(slot[1]), push);
                level += 1;
            }
            // Once the next level pulls, so do the rest (`pushes`): no level's direction waits on
            // the last one's counts, and levels go out in groups, their counts read once a group.
            if !push {
                group = (group * 2).min(LEVELS_BETWEEN_READS);
            }
        }
        if matches!(wanted, Wanted::Distances) {
            // The levels since the last full ring, up to the last one launched (those after the
            // level that reached nothing hold no bit): at most a ring, which was written when full.
            self.write_distances(count, unwritten, launched - unwritten + 1)?;
        }
        let end = gpu.record_event()?;
        end.synchronize().map_err(|e| GpuError::driver("cuEventSynchronize", e))?;
        let mut levels = Vec::with_capacity(marks.len());
        let mut before = &start;
        for ((at, pushed, mark), (reached, reached_edges)) in marks.iter().zip(traced) {
            levels.push(MultiSourceLevel {
                level: *at,
                pushed: *pushed,
                reached,
                reached_edges,
                time: GpuContext::time_between(before, mark)?,
            });
            before = mark;
        }
        Ok((GpuContext::time_between(&start, &end)?, levels))
    }

    /// `count` sources' distances from the ring's window of `levels` levels from level `first`
    /// (in slots 0 on: `first` is a multiple of the ring), every other distance written
    /// unreached where the window starts at level 0.
    fn write_distances(&mut self, count: u32, first: u32, levels: u32) -> Result<(), GpuError> {
        let n = self.in_lists.num_vertices() as usize;
        kernels::bfs_multi_source_distances(
            self.gpu,
            &self.ring,
            n,
            &mut self.distances,
            count,
            first,
            levels,
            first == 0,
        )
    }
}

/// What a batch's searches leave: the distances, or each level's per-source counts handed to a
/// tally.
enum Wanted<'a> {
    Distances,
    Tallies(&'a mut dyn FnMut(u32, &[u64])),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switching_pushes_the_sources_then_small_frontiers_until_a_level_pulls() {
        // A later frontier of a sixteenth of the edges or more pulls, and so does every level
        // after a pull.
        assert!(pushes(ManyDirections::Switching, Some(0), 1 << 24, true));
        assert!(pushes(ManyDirections::Switching, Some((1 << 20) - 1), 1 << 24, true));
        assert!(!pushes(ManyDirections::Switching, Some(1 << 20), 1 << 24, true));
        assert!(!pushes(ManyDirections::Switching, Some(0), 1 << 24, false));
        assert!(pushes(ManyDirections::Switching, None, 1 << 24, true));
        assert!(pushes(ManyDirections::TopDown, Some(1 << 24), 1 << 24, false));
        assert!(!pushes(ManyDirections::BottomUp, None, 1 << 24, true));
        // A graph of fewer than PUSH_FROM_EDGES edges pulls every level under switching alone.
        assert!(!pushes(ManyDirections::Switching, None, PUSH_FROM_EDGES - 1, true));
        assert!(!pushes(ManyDirections::Switching, Some(0), PUSH_FROM_EDGES - 1, true));
        assert!(pushes(ManyDirections::Switching, Some(0), PUSH_FROM_EDGES, true));
        assert!(pushes(ManyDirections::TopDown, Some(0), PUSH_FROM_EDGES - 1, false));
    }
}
