//! The bit-parallel many-source BFS on the GPU: up to 64 sources a batch, the host driving
//! `bfs_multi_source_level` a level at a time (one launch bottom-up, two top-down) and reading
//! back what the level reached, from which it picks the next level's direction (MS-BFS and
//! iBFS's joint frontier; the CPU's `bfs::multi_source` is the same search, bottom-up).

use std::time::{Duration, Instant};

use cudarc::driver::CudaSlice;
use warpath_interface::bfs::multi_source::{
    MULTI_SOURCE_BATCH, MULTI_SOURCE_PULL, MULTI_SOURCE_PUSH, MULTI_SOURCE_SETTLE,
};

use crate::bfs::gpu::launch::{self as kernels, MultiSourceBuffers};
use crate::bfs::multi_source::{ManyDirections, SourceTallies};
use crate::gpu::{DeviceGraph, Download, GpuContext, GpuError};

/// Under [`ManyDirections::Switching`], a level runs top-down while the joint frontier's out-list
/// entries times this stay below the graph's edges: a push reads only the frontier's lists but
/// pays an atomic where a target gains a bit, a pull reads the lists of every vertex that has not
/// seen every source, at the first levels nearly all (bench/NOTES.md 125).
pub const PUSH_WHILE_EDGES_TIMES: u64 = 16;

/// Under [`ManyDirections::Switching`], graphs of fewer edges pull every level: a pull over them
/// costs about what the push's two passes and the clearing of the next words cost in launches
/// alone (measured on USA-road-d.NY: bench/NOTES.md 125).
pub const PUSH_FROM_EDGES: u64 = 1 << 22;

/// Whether the level after one whose frontier holds `frontier_edges` out-list entries runs
/// top-down under `directions`, on a graph of `edges` entries, `skewed` or not: under
/// [`ManyDirections::Switching`] never on graphs of fewer than [`PUSH_FROM_EDGES`] edges nor on
/// skewed ones ([`crate::graph::is_skewed`]: their hubs make a push an atomic at nearly every
/// target; NOTES 125), else while the frontier is small ([`PUSH_WHILE_EDGES_TIMES`]). The first
/// level's frontier, the sources alone, counts as no entries.
pub fn pushes(directions: ManyDirections, frontier_edges: u64, edges: u64, skewed: bool) -> bool {
    match directions {
        ManyDirections::Switching => {
            edges >= PUSH_FROM_EDGES && !skewed && frontier_edges.saturating_mul(PUSH_WHILE_EDGES_TIMES) < edges
        }
        ManyDirections::BottomUp => false,
        ManyDirections::TopDown => true,
    }
}

/// The level's counters ahead of the per-source counts in a level's slot of the counts buffer:
/// the vertices it reached and their out-list entries.
const LEVEL_COUNTERS: usize = 2;

/// Words of a level's slot of the counts buffer: its counters and the per-source counts.
const SLOT: usize = LEVEL_COUNTERS + MULTI_SOURCE_BATCH as usize;

/// Levels launched between two reads of the counts, at most, where every level pulls (no level's
/// direction waits on the last one's counts): the first read after one level, then after 2, 4
/// and 8; a level after the last one reaches nothing and costs a pass over the seen words.
const LEVELS_BETWEEN_READS: usize = 8;

/// Device words and labels for batches of sources over one graph's lists, allocated once.
pub struct GpuMultiSource<'g> {
    gpu: &'g GpuContext,
    in_lists: &'g DeviceGraph,
    /// The out-lists where they are plain (the graph itself); without them every level pulls.
    out_lists: Option<&'g DeviceGraph>,
    /// The graph is skewed: the switching rule pulls every level.
    skewed: bool,
    seen: CudaSlice<u64>,
    frontier: CudaSlice<u64>,
    next: CudaSlice<u64>,
    distances: CudaSlice<u32>,
    counts: CudaSlice<u64>,
}

/// One batch's distances (`distances[i][v]`: source `i`, vertex `v`), its device time (CUDA
/// events, from the first level to the last) and the download.
pub struct MultiSourceBatch {
    pub distances: Vec<Vec<u32>>,
    pub time: Duration,
    pub download: Download,
}

impl<'g> GpuMultiSource<'g> {
    /// Device bytes for a graph of `n` vertices: three words and 64 distances a vertex, and the
    /// counters.
    pub fn bytes_needed(n: u32) -> u64 {
        (3 * 8 + 4 * MULTI_SOURCE_BATCH as u64) * n.max(1) as u64 + 8 * (SLOT * LEVELS_BETWEEN_READS) as u64
    }

    /// Buffers for searches over `in_lists` (a directed graph's transpose, an undirected graph's
    /// own lists) and, where plain, `out_lists` (the graph's own lists), which top-down levels
    /// walk; `skewed` as [`crate::graph::is_skewed`] says of the graph.
    pub fn new(
        gpu: &'g GpuContext,
        in_lists: &'g DeviceGraph,
        out_lists: Option<&'g DeviceGraph>,
        skewed: bool,
    ) -> Result<Self, GpuError> {
        let n = in_lists.num_vertices().max(1) as usize;
        gpu.ensure_free(Self::bytes_needed(in_lists.num_vertices()), "the many-source BFS's words and distances")?;
        Ok(GpuMultiSource {
            gpu,
            in_lists,
            out_lists: out_lists.filter(|lists| !lists.is_compressed()),
            skewed,
            seen: gpu.alloc_zeros(n, "the many-source BFS's seen words")?,
            frontier: gpu.alloc_zeros(n, "the many-source BFS's frontier words")?,
            next: gpu.alloc_zeros(n, "the many-source BFS's next words")?,
            distances: gpu.alloc_zeros(MULTI_SOURCE_BATCH as usize * n, "the many-source BFS's distances")?,
            counts: gpu.alloc_zeros(SLOT * LEVELS_BETWEEN_READS, "the many-source BFS's level counters")?,
        })
    }

    /// The searches from `sources` (internal ids `< n`, at most 64; the caller checks them),
    /// each level's direction as `directions` says.
    pub fn run(&mut self, sources: &[u32], directions: ManyDirections) -> Result<MultiSourceBatch, GpuError> {
        let n = self.in_lists.num_vertices() as usize;
        let time = self.search(sources, directions, None)?;
        let downloading = Instant::now();
        let all = self.gpu.download(&self.distances)?;
        let download = Download { time: downloading.elapsed(), bytes: (all.len() * 4) as u64 };
        let distances = all.chunks(n.max(1)).take(sources.len()).map(<[u32]>::to_vec).collect();
        Ok(MultiSourceBatch { distances, time, download })
    }

    /// The searches of [`run`](Self::run), each source's distances summed on the way instead of
    /// read back: after each level, the vertices each source reached there are counted on the
    /// device (`bfs_multi_source_count`), and only the counts come back. What closeness and
    /// harmonic centrality need, for `sources.len()` sources, with the device time.
    pub fn run_tallies(
        &mut self,
        sources: &[u32],
        directions: ManyDirections,
    ) -> Result<(SourceTallies, Duration), GpuError> {
        let mut tallies = SourceTallies::new(sources.len());
        let time = self.search(
            sources,
            directions,
            Some(&mut |level: u32, reached: &[u64]| tallies.add_level(level, reached)),
        )?;
        Ok((tallies, time))
    }

    /// The level loop of [`run`](Self::run) and [`run_tallies`](Self::run_tallies): levels until
    /// one reaches nothing, each read back for the next one's direction; with `per_level`, the
    /// vertices each source reached at the level are counted and handed to it with the level.
    /// Returns the device time (CUDA events, first level to last).
    fn search(
        &mut self,
        sources: &[u32],
        directions: ManyDirections,
        mut per_level: Option<&mut dyn FnMut(u32, &[u64])>,
    ) -> Result<Duration, GpuError> {
        let gpu = self.gpu;
        let n = self.in_lists.num_vertices() as usize;
        let edges = self.in_lists.num_edges();
        let count = sources.len() as u32;
        let mut words = vec![0u64; n];
        for (bit, &s) in sources.iter().enumerate() {
            words[s as usize] |= 1 << bit;
        }
        gpu.copy_into(&words, &mut self.seen)?;
        gpu.copy_into(&words, &mut self.frontier)?;
        let pushes_after = |frontier_edges| pushes(directions, frontier_edges, edges, self.skewed);
        // Whether any level may push: if not, levels go out in groups, their counts read once a
        // group (a level's direction never waits on the last one's counts).
        let may_push = self.out_lists.is_some() && (0..2).any(|k| pushes_after(k * edges));
        let counted = self.out_lists.unwrap_or(self.in_lists);
        let start = gpu.record_event()?;
        let mut level = 1;
        let mut push = pushes_after(0);
        let mut group = 1;
        'levels: loop {
            gpu.zero(&mut self.counts)?;
            for slot in 0..group {
                let passes = match self.out_lists {
                    Some(out) if push => {
                        gpu.zero(&mut self.next)?;
                        [Some((MULTI_SOURCE_PUSH, out)), Some((MULTI_SOURCE_SETTLE, out))]
                    }
                    _ => [Some((MULTI_SOURCE_PULL, self.in_lists)), None],
                };
                for (mode, lists) in passes.into_iter().flatten() {
                    kernels::bfs_multi_source_level(
                        gpu,
                        lists,
                        counted,
                        count,
                        level + slot as u32,
                        mode,
                        MultiSourceBuffers {
                            seen: &mut self.seen,
                            frontier: &self.frontier,
                            next: &mut self.next,
                            distances: &mut self.distances,
                            counts: &mut self.counts,
                            counts_at: slot * SLOT,
                        },
                    )?;
                }
                std::mem::swap(&mut self.frontier, &mut self.next);
                if per_level.is_some() {
                    // The level's new words are the frontier now.
                    kernels::bfs_multi_source_count(
                        gpu,
                        &self.frontier,
                        &mut self.counts,
                        slot * SLOT + LEVEL_COUNTERS,
                    )?;
                }
            }
            let counts = gpu.download(&self.counts)?;
            for slot in counts.chunks(SLOT).take(group) {
                if slot[0] == 0 {
                    break 'levels;
                }
                if let Some(per_level) = per_level.as_mut() {
                    per_level(level, &slot[LEVEL_COUNTERS..]);
                }
                push = pushes_after(slot[1]);
                level += 1;
            }
            if !may_push {
                group = (group * 2).min(LEVELS_BETWEEN_READS);
            }
        }
        let end = gpu.record_event()?;
        end.synchronize().map_err(|e| GpuError::driver("cuEventSynchronize", e))?;
        let ms = start.elapsed_ms(&end).map_err(|e| GpuError::driver("cuEventElapsedTime", e))?;
        Ok(Duration::from_secs_f64(f64::from(ms) / 1e3))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switching_pushes_small_frontiers_of_even_graphs_only() {
        // A frontier of a sixteenth of the edges or more pulls; a skewed graph always pulls.
        assert!(pushes(ManyDirections::Switching, 0, 1 << 24, false));
        assert!(pushes(ManyDirections::Switching, (1 << 20) - 1, 1 << 24, false));
        assert!(!pushes(ManyDirections::Switching, 1 << 20, 1 << 24, false));
        assert!(!pushes(ManyDirections::Switching, 0, 1 << 24, true));
        assert!(pushes(ManyDirections::TopDown, 1 << 24, 1 << 24, true));
        assert!(!pushes(ManyDirections::BottomUp, 0, 1 << 24, false));
        // A graph of fewer than PUSH_FROM_EDGES edges pulls every level under switching alone.
        assert!(!pushes(ManyDirections::Switching, 0, PUSH_FROM_EDGES - 1, false));
        assert!(pushes(ManyDirections::Switching, 0, PUSH_FROM_EDGES, false));
        assert!(pushes(ManyDirections::TopDown, 0, PUSH_FROM_EDGES - 1, false));
    }
}
