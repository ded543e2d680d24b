//! The multi-threaded CPU BFS: what users get when there is no GPU. It follows the
//! direction-optimizing BFS of the GAP Benchmark Suite (`bfs.cc`): a sliding queue for
//! top-down steps, a pair of bitmaps for bottom-up steps, and Beamer's heuristic to choose.
//!
//! All shared state is atomics with `Relaxed` ordering. That is enough because within one
//! step a vertex's parent is only ever claimed once (by compare-exchange in top-down, by the
//! one thread that owns its bitmap word in bottom-up), and nothing written in a step is read
//! for a decision until the step's rayon call has returned, which orders it for us.

use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

use rayon::prelude::*;

use crate::bfs::trace::{Direction, LevelTrace};
use crate::bfs::BfsResult;
use crate::graph::bitmap::Bitmap;
use crate::graph::{Graph, UNREACHED};

/// Tuning of the top-down / bottom-up switch (Beamer et al., SC 2012, section 4).
///
/// Top-down switches to bottom-up when the edges leaving the frontier, `m_f`, exceed the
/// edges of unvisited vertices divided by `alpha` (`m_f * alpha > m_u`). Bottom-up switches
/// back when the frontier is shrinking and has fewer than `n / beta` vertices
/// (`n_f * beta < n`). As in the paper's control diagram, the first switch also requires a
/// growing (here: not shrinking) frontier: near the end of a search `m_u` is small, and
/// without it a shrinking tail would bounce back to bottom-up and rescan every vertex.
/// Written as products so the extremes behave: `alpha = 0` never goes bottom-up, and
/// `alpha = beta = f64::INFINITY` goes bottom-up at once and stays there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DirectionParams {
    pub alpha: f64,
    pub beta: f64,
}

impl Default for DirectionParams {
    /// The paper's values, tuned on Kronecker and social graphs: alpha = 15, beta = 18.
    fn default() -> Self {
        DirectionParams { alpha: 15.0, beta: 18.0 }
    }
}

impl DirectionParams {
    /// Only top-down steps: the classic level-synchronous parallel BFS.
    pub fn top_down_only() -> Self {
        DirectionParams { alpha: 0.0, beta: 18.0 }
    }

    /// Bottom-up from the first level with outgoing edges to the end, whenever in-edges are
    /// available (see [`bfs_parallel_with`]).
    pub fn bottom_up_only() -> Self {
        DirectionParams { alpha: f64::INFINITY, beta: f64::INFINITY }
    }
}

/// Parallel direction-optimizing BFS with the default [`DirectionParams`].
///
/// See [`bfs_parallel_with`]; distances equal [`bfs_sequential`](crate::bfs::bfs_sequential)'s,
/// parents may differ (any valid BFS tree is correct).
pub fn bfs_parallel(g: &Graph, transpose: Option<&Graph>, source: u32) -> BfsResult {
    bfs_parallel_with(g, transpose, source, &DirectionParams::default()).0
}

/// Direction-optimizing breadth-first search (Beamer, Asanović and Patterson,
/// "Direction-Optimizing Breadth-First Search", SC 2012), on all rayon threads, structured
/// like the GAP Benchmark Suite's `bfs.cc`.
///
/// Top-down steps expand a frontier queue in parallel, claiming each newly found vertex by
/// compare-exchange on its parent and appending it to the next frontier through per-task
/// buffers. Bottom-up steps let every unvisited vertex scan its in-neighbors and stop at the
/// first one in the frontier bitmap. The choice between them per level follows `params`.
///
/// Bottom-up needs in-edges: an undirected graph is its own; a directed graph uses
/// `transpose` (which must be `g.transpose()`) and runs top-down only without it.
/// Returns the tree and one [`LevelTrace`] per level.
///
/// Panics if `source` is not a vertex or `transpose` does not match `g` in size.
pub fn bfs_parallel_with(
    g: &Graph,
    transpose: Option<&Graph>,
    source: u32,
    params: &DirectionParams,
) -> (BfsResult, Vec<LevelTrace>) {
    let n = g.num_vertices();
    assert!((source as usize) < n, "BFS source {source} is not a vertex (the graph has {n})");
    let in_edges = if g.is_undirected() {
        Some(g)
    } else {
        if let Some(t) = transpose {
            assert!(
                t.num_vertices() == n && t.num_edges() == g.num_edges(),
                "the transpose has {} vertices and {} edges but the graph has {} and {}",
                t.num_vertices(),
                t.num_edges(),
                n,
                g.num_edges()
            );
        }
        transpose
    };

    let tree = Tree::new(n);
    tree.claim_root(source);
    let mut queue = SlidingQueue::new(n);
    queue.append(&[source]);
    queue.slide_window();
    // Two bitmaps, current and next frontier, swapped after each bottom-up step; allocated
    // once, and only if bottom-up can happen at all.
    let (mut front, mut next) = match in_edges {
        Some(_) => (Bitmap::new(n), Bitmap::new(n)),
        None => (Bitmap::new(0), Bitmap::new(0)),
    };

    let mut trace = Vec::new();
    let mut direction = Direction::TopDown;
    let mut level = 0u32;
    let mut frontier_len = 1u64;
    let mut previous_frontier_len = 0u64;
    let mut frontier_edges = g.degree(source);
    // m_u in the paper; counting out-degrees of discovered vertices off the total keeps it
    // exact for the out-edge view without ever scanning the unvisited vertices.
    let mut unexplored_edges = g.num_edges() - frontier_edges;

    while frontier_len > 0 {
        let started = Instant::now();
        let wanted = match direction {
            Direction::TopDown
                if in_edges.is_some()
                    && frontier_len >= previous_frontier_len
                    && frontier_edges as f64 * params.alpha > unexplored_edges as f64 =>
            {
                Direction::BottomUp
            }
            Direction::BottomUp
                if frontier_len < previous_frontier_len && (frontier_len as f64) * params.beta < n as f64 =>
            {
                Direction::TopDown
            }
            unchanged => unchanged,
        };
        if wanted != direction {
            match wanted {
                Direction::BottomUp => queue_to_bitmap(&queue, &front),
                Direction::TopDown => bitmap_to_queue(&front, &mut queue),
            }
            direction = wanted;
        }

        let counts = match direction {
            Direction::TopDown => {
                let counts = top_down_step(g, &tree, &queue, level);
                queue.slide_window();
                counts
            }
            Direction::BottomUp => {
                let in_g = in_edges.expect("bottom-up is only chosen when in-edges exist");
                let counts = bottom_up_step(g, in_g, &tree, &front, &next, level);
                std::mem::swap(&mut front, &mut next);
                counts
            }
        };

        trace.push(LevelTrace {
            level,
            direction,
            frontier: frontier_len,
            edges_inspected: counts.edges_inspected,
            bytes_read: 0,
            bus_bytes: 0,
            time: started.elapsed(),
            frontier_edges,
            unvisited_edges: unexplored_edges,
            generation: None,
            decision: None,
        });
        previous_frontier_len = frontier_len;
        frontier_len = counts.found;
        frontier_edges = counts.found_edges;
        unexplored_edges = unexplored_edges.saturating_sub(frontier_edges);
        level += 1;
    }

    (tree.into_result(source), trace)
}

/// Per-step totals, summed over rayon tasks.
#[derive(Clone, Copy, Debug, Default)]
struct StepCounts {
    /// Vertices discovered: the size of the next frontier.
    found: u64,
    edges_inspected: u64,
    /// Out-degree sum of the discovered vertices: the next level's `m_f`.
    found_edges: u64,
}

impl StepCounts {
    fn add(self, other: StepCounts) -> StepCounts {
        StepCounts {
            found: self.found + other.found,
            edges_inspected: self.edges_inspected + other.edges_inspected,
            found_edges: self.found_edges + other.found_edges,
        }
    }
}

/// Top-down: every frontier vertex offers itself as parent to each unvisited out-neighbor.
fn top_down_step(g: &Graph, tree: &Tree, queue: &SlidingQueue, level: u32) -> StepCounts {
    let next_distance = level + 1;
    queue
        .window()
        .par_iter()
        .fold(
            || (LocalQueue::new(queue), StepCounts::default()),
            |(mut local, mut counts), slot| {
                let u = slot.load(Relaxed);
                let neighbors = g.neighbors(u);
                counts.edges_inspected += neighbors.len() as u64;
                for &v in neighbors {
                    if tree.try_claim(v, u, next_distance) {
                        local.push(v);
                        counts.found += 1;
                        counts.found_edges += g.degree(v);
                    }
                }
                (local, counts)
            },
        )
        .map(|(mut local, counts)| {
            local.flush();
            counts
        })
        .reduce(StepCounts::default, StepCounts::add)
}

/// Bottom-up: every unvisited vertex looks through its in-neighbors for one in the
/// frontier and stops at the first. Work is split by 64-vertex bitmap word, so each word of
/// `next` has a single writer and each vertex's parent is set by one thread only.
fn bottom_up_step(g: &Graph, in_g: &Graph, tree: &Tree, front: &Bitmap, next: &Bitmap, level: u32) -> StepCounts {
    let n = g.num_vertices();
    let next_distance = level + 1;
    next.words()
        .par_iter()
        .enumerate()
        .map(|(w, word)| {
            let mut counts = StepCounts::default();
            let mut bits = 0u64;
            let first = w * 64;
            for v in first..(first + 64).min(n) {
                let v = v as u32;
                if !tree.is_unvisited(v) {
                    continue;
                }
                for &u in in_g.neighbors(v) {
                    counts.edges_inspected += 1;
                    if front.get(u) {
                        tree.set(v, u, next_distance);
                        bits |= 1 << (v as usize - first);
                        counts.found += 1;
                        counts.found_edges += g.degree(v);
                        break;
                    }
                }
            }
            // A whole-word store, zeros included, so `next` never needs clearing.
            word.store(bits, Relaxed);
            counts
        })
        .reduce(StepCounts::default, StepCounts::add)
}

fn queue_to_bitmap(queue: &SlidingQueue, bitmap: &Bitmap) {
    bitmap.clear();
    queue.window().par_iter().for_each(|slot| bitmap.set(slot.load(Relaxed)));
}

fn bitmap_to_queue(bitmap: &Bitmap, queue: &mut SlidingQueue) {
    let shared: &SlidingQueue = queue;
    bitmap
        .words()
        .par_iter()
        .enumerate()
        .fold(
            || LocalQueue::new(shared),
            |mut local, (w, word)| {
                let mut bits = word.load(Relaxed);
                while bits != 0 {
                    local.push((w * 64) as u32 + bits.trailing_zeros());
                    bits &= bits - 1;
                }
                local
            },
        )
        .for_each(|mut local| local.flush());
    queue.slide_window();
}

/// Parent and distance of every vertex, shared by all threads.
struct Tree {
    parents: Vec<AtomicU32>,
    distances: Vec<AtomicU32>,
}

impl Tree {
    fn new(n: usize) -> Self {
        let unreached = || (0..n).into_par_iter().map(|_| AtomicU32::new(UNREACHED)).collect();
        Tree { parents: unreached(), distances: unreached() }
    }

    fn claim_root(&self, source: u32) {
        self.set(source, source, 0);
    }

    fn is_unvisited(&self, v: u32) -> bool {
        self.parents[v as usize].load(Relaxed) == UNREACHED
    }

    /// For top-down, where several frontier vertices may race for the same child: the
    /// compare-exchange lets exactly one win.
    fn try_claim(&self, v: u32, parent: u32, distance: u32) -> bool {
        let slot = &self.parents[v as usize];
        // Checking with a plain load first spares the cache line a failing read-modify-write
        // for every already-visited neighbor, which is most of them on a dense frontier.
        if slot.load(Relaxed) != UNREACHED {
            return false;
        }
        if slot.compare_exchange(UNREACHED, parent, Relaxed, Relaxed).is_ok() {
            self.distances[v as usize].store(distance, Relaxed);
            true
        } else {
            false
        }
    }

    /// For bottom-up, where only the thread owning `v` writes it.
    fn set(&self, v: u32, parent: u32, distance: u32) {
        self.parents[v as usize].store(parent, Relaxed);
        self.distances[v as usize].store(distance, Relaxed);
    }

    fn into_result(self, source: u32) -> BfsResult {
        // Same size and alignment, so these collects reuse the atomics' allocations.
        let plain = |cells: Vec<AtomicU32>| cells.into_iter().map(AtomicU32::into_inner).collect();
        BfsResult { source, parents: plain(self.parents), distances: plain(self.distances) }
    }
}

/// GAP's sliding queue: every vertex is enqueued at most once per traversal, so a single
/// array of n slots holds every frontier back to back, and a frontier is a window into it.
/// Appends go past the window, never into it, so reading and appending can overlap.
struct SlidingQueue {
    slots: Vec<AtomicU32>,
    tail: AtomicUsize,
    start: usize,
    end: usize,
}

impl SlidingQueue {
    fn new(n: usize) -> Self {
        let slots = (0..n).into_par_iter().map(|_| AtomicU32::new(0)).collect();
        SlidingQueue { slots, tail: AtomicUsize::new(0), start: 0, end: 0 }
    }

    fn window(&self) -> &[AtomicU32] {
        &self.slots[self.start..self.end]
    }

    /// Makes everything appended since the last slide the current frontier.
    fn slide_window(&mut self) {
        self.start = self.end;
        self.end = *self.tail.get_mut();
    }

    /// One atomic add per batch, not per vertex, is what keeps appends cheap.
    fn append(&self, vertices: &[u32]) {
        let at = self.tail.fetch_add(vertices.len(), Relaxed);
        for (slot, &v) in self.slots[at..at + vertices.len()].iter().zip(vertices) {
            slot.store(v, Relaxed);
        }
    }
}

/// A task's private batch of newly found vertices, flushed to the shared queue when full
/// and once at the end of the task.
struct LocalQueue<'a> {
    queue: &'a SlidingQueue,
    buffer: Vec<u32>,
}

impl<'a> LocalQueue<'a> {
    const CAPACITY: usize = 4096;

    fn new(queue: &'a SlidingQueue) -> Self {
        LocalQueue { queue, buffer: Vec::new() }
    }

    fn push(&mut self, v: u32) {
        self.buffer.push(v);
        if self.buffer.len() == Self::CAPACITY {
            self.flush();
        }
    }

    fn flush(&mut self) {
        self.queue.append(&self.buffer);
        self.buffer.clear();
    }
}
