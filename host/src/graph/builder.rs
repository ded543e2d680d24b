use std::cmp::Ordering;
use std::ops::Range;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::graph::host_array::{HostArray, MemoryProvider};
use crate::graph::weights::{weight_problem, Weights};
use crate::graph::{Graph, MAX_VERTICES};

/// Edges as read from a file or made by a generator, before cleaning.
///
/// Vertex ids are internal (0-based); `id_base` remembers how the file numbered them.
#[derive(Clone, Debug, Default)]
pub struct EdgeList {
    pub num_vertices: u64,
    pub edges: Vec<(u32, u32)>,
    /// Store every edge in both directions.
    pub undirected: bool,
    pub id_base: u32,
    /// One weight per entry of `edges`, or `None` for an unweighted list.
    pub weights: Option<Weights>,
}

impl EdgeList {
    pub fn new(num_vertices: u64, edges: Vec<(u32, u32)>, undirected: bool) -> Self {
        EdgeList { num_vertices, edges, undirected, id_base: 0, weights: None }
    }

    /// The list with `weights`, one per edge (checked when the graph is built).
    pub fn with_weights(self, weights: Weights) -> Self {
        EdgeList { weights: Some(weights), ..self }
    }
}

/// Turns an [`EdgeList`] into a [`Graph`]: drops self-loops and repeated edges, adds the
/// reverse of every edge when the list is undirected, and sorts each neighbor list.
///
/// Weights travel with their edges: of repeated edges the one with the smallest weight is
/// kept (so an undirected edge given both ways with different weights gets the smaller in
/// both directions), and an edge's reverse gets its weight.
#[derive(Clone, Copy, Debug, Default)]
pub struct GraphBuilder {
    /// Force symmetrization even when the edge list is marked directed.
    pub symmetrize: bool,
    /// Where the graph's offsets and targets are allocated (and those of its transpose);
    /// `None`: ordinary memory.
    pub host_memory: MemoryProvider,
}

impl GraphBuilder {
    pub fn new() -> Self {
        GraphBuilder::default()
    }

    pub fn symmetrize(mut self, yes: bool) -> Self {
        self.symmetrize = yes;
        self
    }

    /// Builds the final offsets and targets in `memory` (pinned host memory the GPU reads in
    /// place, say); the graph keeps it for its transpose. The work arrays stay in ordinary
    /// memory, so peak memory is the same either way.
    pub fn host_memory(mut self, memory: MemoryProvider) -> Self {
        self.host_memory = memory;
        self
    }

    /// A parallel counting sort by source, then a parallel sort-and-dedup of each neighbor
    /// list where it lies (see `counting_sort`). Memory: the edge list beside one `u32` per
    /// directed edge and two `u64` per vertex while the lists are scattered; then, the edge
    /// list dropped, those beside the final lists (about twice the final CSR at the peak);
    /// with weights, one more `u32`/`f32` per directed edge in each.
    pub fn build(&self, list: EdgeList) -> Result<Graph> {
        let EdgeList { num_vertices, edges, undirected, id_base, weights } = list;
        let undirected = undirected || self.symmetrize;
        if num_vertices > MAX_VERTICES {
            return Err(Error::TooManyVertices { vertices: num_vertices });
        }
        let n = num_vertices as usize;
        if let Some(&(u, v)) = edges.iter().find(|&&(u, v)| u as usize >= n || v as usize >= n) {
            return Err(Error::InvalidArgument(format!("edge ({u}, {v}) names a vertex outside 0..{n}")));
        }
        if let Some(weights) = &weights {
            if weights.len() != edges.len() {
                return Err(Error::InvalidArgument(format!(
                    "the edge list has {} edges but {} weights (one weight per edge)",
                    edges.len(),
                    weights.len()
                )));
            }
            if let Some((i, value)) = weights.first_invalid() {
                let (u, v) = edges[i];
                return Err(Error::InvalidArgument(format!(
                    "edge ({u}, {v}) has weight {value} ({}); edge weights must be non-negative and finite",
                    weight_problem(value).unwrap_or("invalid")
                )));
            }
        }
        let memory = self.host_memory;
        let graph = match weights {
            // `()` weights take no memory and no work: the unweighted build.
            None => build_lists(n, edges, vec![(); 0], undirected, id_base, memory).0,
            Some(Weights::U32(w)) => {
                let (graph, w) = build_lists(n, edges, w, undirected, id_base, memory);
                graph.with_valid_weights(Some(Weights::U32(w)))
            }
            Some(Weights::F32(w)) => {
                let (graph, w) = build_lists(n, edges, w, undirected, id_base, memory);
                graph.with_valid_weights(Some(Weights::F32(w)))
            }
        };
        Ok(graph.with_host_memory(memory))
    }
}

/// A weight type the builder sorts by: `()` (unweighted), `u32` or `f32`.
pub(crate) trait Weight: Copy + Default + Send + Sync {
    fn order(&self, other: &Self) -> Ordering;
    /// The weight of edge `i` of the input; `weights` is empty for `()`.
    fn of(weights: &[Self], i: usize) -> Self;
}

impl Weight for () {
    fn order(&self, _: &Self) -> Ordering {
        Ordering::Equal
    }
    fn of(_: &[Self], _: usize) -> Self {}
}

impl Weight for u32 {
    fn order(&self, other: &Self) -> Ordering {
        self.cmp(other)
    }
    fn of(weights: &[Self], i: usize) -> Self {
        weights[i]
    }
}

impl Weight for f32 {
    /// A total order; the values are checked to be neither NaN nor negative.
    fn order(&self, other: &Self) -> Ordering {
        self.total_cmp(other)
    }
    fn of(weights: &[Self], i: usize) -> Self {
        weights[i]
    }
}

/// The CSR graph of `edges` with their `weights` (empty for `()`), and the kept weights in
/// CSR order; offsets and targets in `memory`.
fn build_lists<W: Weight>(
    n: usize,
    edges: Vec<(u32, u32)>,
    weights: Vec<W>,
    undirected: bool,
    id_base: u32,
    memory: MemoryProvider,
) -> (Graph, Vec<W>) {
    let scattered = scatter_by_source(n, &ListEdges { edges: &edges, weights: &weights, undirected });
    // The edge list is spent: dropped before the final lists are made, so that peak memory is
    // the larger of (edge list + scattered lists) and (scattered + final lists), about twice
    // the final CSR, not the three together.
    drop((edges, weights));
    let (offsets, targets, kept_weights) = scattered.into_lists(memory);
    (Graph::from_valid_csr(offsets, targets, undirected, id_base), kept_weights)
}

/// Edges for the counting sort, walked in pieces by the threads that take each edge to the
/// owner of its source ([`walk_by_owner`]), so no two threads ever write the same memory.
pub(crate) trait EdgeSource<W>: Sync {
    /// How many pieces the edges come in (an edge list's pairs, a graph's edges).
    fn pieces(&self) -> usize;
    /// Calls `visit(source, target, weight)` for every edge of the pieces `pieces`, always in
    /// the same order.
    fn for_each_in(&self, pieces: Range<usize>, visit: impl FnMut(u32, u32, W));
    /// Calls `visit` for every edge, always in the same order.
    fn for_each(&self, visit: impl FnMut(u32, u32, W)) {
        self.for_each_in(0..self.pieces(), visit)
    }
}

/// An edge list, self-loops skipped, every edge both ways when `undirected`.
struct ListEdges<'a, W> {
    edges: &'a [(u32, u32)],
    weights: &'a [W],
    undirected: bool,
}

impl<W: Weight> EdgeSource<W> for ListEdges<'_, W> {
    fn pieces(&self) -> usize {
        self.edges.len()
    }

    #[inline]
    fn for_each_in(&self, pieces: Range<usize>, mut visit: impl FnMut(u32, u32, W)) {
        let first = pieces.start;
        for (i, &(u, v)) in self.edges[pieces].iter().enumerate() {
            let i = first + i;
            if u != v {
                let w = W::of(self.weights, i);
                visit(u, v, w);
                if self.undirected {
                    visit(v, u, w);
                }
            }
        }
    }
}

/// The CSR of `n` vertices holding `edges`: a parallel counting sort by source in which each
/// thread owns a range of sources (their counts, then their lists) and takes the edges of its
/// own ([`walk_by_owner`]: with few threads by walking every edge, with more through buckets);
/// then each list sorted by target (and weight) where it lies and its repeats dropped, keeping
/// the lightest; then, only if anything was dropped, the kept entries gathered into the final
/// arrays. No atomics, no global sort.
///
/// The final offsets and targets come from `memory` when it is given; the work arrays do not,
/// so the targets are gathered (or, when nothing was dropped, copied) into it at the end, and
/// peak memory is what it is without a provider.
pub(crate) fn counting_sort<W: Weight>(
    n: usize,
    edges: &impl EdgeSource<W>,
    memory: MemoryProvider,
) -> (HostArray<u64>, HostArray<u32>, Vec<W>) {
    scatter_by_source(n, edges).into_lists(memory)
}

/// The edges' targets (and weights) grouped by source, each list unsorted and with its
/// repeats: the counting sort's first half, after which the edges are no longer read.
struct Scattered<W> {
    n: usize,
    raw_offsets: Vec<u64>,
    raw: Vec<u32>,
    raw_weights: Vec<W>,
}

/// Counts each source's edges and scatters the targets into their lists (see
/// [`counting_sort`]).
fn scatter_by_source<W: Weight>(n: usize, edges: &impl EdgeSource<W>) -> Scattered<W> {
    let weighted = std::mem::size_of::<W>() != 0;
    let threads = rayon::current_num_threads();
    let mut raw_offsets = vec![0u64; n + 1];
    let even: Vec<Range<usize>> = (0..threads).map(|t| n * t / threads..n * (t + 1) / threads).collect();
    let mut counts: Vec<SourceCounts<'_>> = even
        .iter()
        .zip(split_by(&mut raw_offsets[1..], &even, |r| r.len()))
        .map(|(range, counts)| SourceCounts { start: range.start, counts })
        .collect();
    walk_by_owner(edges, &even, &mut counts);
    prefix_sum(&mut raw_offsets);
    let total = raw_offsets[n] as usize;

    let mut raw = vec![0u32; total];
    let mut raw_weights = vec![W::default(); if weighted { total } else { 0 }];
    {
        let owners = vertex_ranges(&raw_offsets, threads);
        let entries = |r: &Range<usize>| (raw_offsets[r.end] - raw_offsets[r.start]) as usize;
        let lists = split_by(&mut raw, &owners, entries);
        let list_weights = split_by(&mut raw_weights, &owners, |r| if weighted { entries(r) } else { 0 });
        let mut states: Vec<ListCursor<'_, W>> = owners
            .iter()
            .zip(lists)
            .zip(list_weights)
            .map(|((range, lists), weights)| {
                let base = raw_offsets[range.start];
                let cursor = raw_offsets[range.clone()].iter().map(|&o| (o - base) as usize).collect();
                ListCursor { start: range.start, cursor, lists, weights }
            })
            .collect();
        walk_by_owner(edges, &owners, &mut states);
    }
    Scattered { n, raw_offsets, raw, raw_weights }
}

/// What an owner does with the edges of its sources: the counting pass counts them
/// ([`SourceCounts`]), the scatter writes them into their lists ([`ListCursor`]). Each method
/// copies the owner's slices into locals before its loop, which then keeps them in registers
/// (through `&mut self` the loop reloaded them at every edge: half the speed).
trait EdgeSink<W>: Send {
    /// Walks every edge of `edges`, taking those whose source is this owner's.
    fn take_owned(&mut self, edges: &impl EdgeSource<W>);
    /// Takes `edges`, every one of them from this owner's sources.
    fn take_all(&mut self, edges: &[(u32, u32, W)]);
}

/// One owner's share of the counting pass: the edge counts of its sources from `start` on.
struct SourceCounts<'a> {
    start: usize,
    counts: &'a mut [u64],
}

impl<W: Weight> EdgeSink<W> for SourceCounts<'_> {
    fn take_owned(&mut self, edges: &impl EdgeSource<W>) {
        let (start, counts) = (self.start, &mut *self.counts);
        edges.for_each(|source, _, _| {
            if let Some(count) = counts.get_mut((source as usize).wrapping_sub(start)) {
                *count += 1;
            }
        })
    }

    fn take_all(&mut self, edges: &[(u32, u32, W)]) {
        let (start, counts) = (self.start, &mut *self.counts);
        for &(source, _, _) in edges {
            counts[source as usize - start] += 1;
        }
    }
}

/// One owner's share of the scatter: where each of its sources' next entry goes.
struct ListCursor<'a, W> {
    start: usize,
    cursor: Vec<usize>,
    lists: &'a mut [u32],
    weights: &'a mut [W],
}

impl<W: Weight> EdgeSink<W> for ListCursor<'_, W> {
    fn take_owned(&mut self, edges: &impl EdgeSource<W>) {
        let (start, cursor, lists, weights) = (self.start, &mut self.cursor[..], &mut *self.lists, &mut *self.weights);
        edges.for_each(|source, target, weight| {
            if let Some(slot) = cursor.get_mut((source as usize).wrapping_sub(start)) {
                put(slot, lists, weights, target, weight);
            }
        })
    }

    fn take_all(&mut self, edges: &[(u32, u32, W)]) {
        let (start, cursor, lists, weights) = (self.start, &mut self.cursor[..], &mut *self.lists, &mut *self.weights);
        for &(source, target, weight) in edges {
            put(&mut cursor[source as usize - start], lists, weights, target, weight);
        }
    }
}

/// Writes an edge at its source's next slot (`slot`, then moved on).
#[inline(always)]
fn put<W: Weight>(slot: &mut usize, lists: &mut [u32], weights: &mut [W], target: u32, weight: W) {
    lists[*slot] = target;
    if std::mem::size_of::<W>() != 0 {
        weights[*slot] = weight;
    }
    *slot += 1;
}

/// With more threads than this, [`walk_by_owner`] hands the edges to their owners through
/// buckets: every edge read once, written to a bucket and read again (about five times the
/// edges' bytes for an undirected list), where each owner walking every edge reads them once a
/// thread.
const BUCKETED_ABOVE_THREADS: usize = 4;

/// Pieces of the edge source a bucketed walk takes at a time: its buckets then hold a few
/// hundred MB. (The unit tests' graphs take several batches.)
const BATCH_PIECES: usize = if cfg!(test) { 1 << 12 } else { 1 << 24 };

/// Hands every edge whose source lies in `owners[o]` (consecutive ranges covering every
/// source) to `sinks[o]`, on the thread that holds it, in the edges' order. With few threads
/// each owner walks every edge and keeps its own; with more, each batch of edges is split by
/// owner into buckets by all threads, then each owner takes its edges from the buckets in
/// order, so that every edge is read once whatever the thread count.
fn walk_by_owner<W: Weight, S: EdgeSink<W>>(edges: &impl EdgeSource<W>, owners: &[Range<usize>], sinks: &mut [S]) {
    let threads = rayon::current_num_threads();
    if threads <= BUCKETED_ABOVE_THREADS || owners.len() <= 1 {
        sinks.par_iter_mut().for_each(|sink| sink.take_owned(edges));
        return;
    }
    let owner_of = |source: u32| owners.partition_point(|r| r.end <= source as usize);
    // Each thread's buckets, one an owner, kept from batch to batch (no page faults after the
    // first).
    let mut buckets: Vec<Vec<Vec<(u32, u32, W)>>> =
        (0..threads).map(|_| owners.iter().map(|_| Vec::new()).collect()).collect();
    let pieces = edges.pieces();
    for batch in (0..pieces).step_by(BATCH_PIECES) {
        let len = (batch + BATCH_PIECES).min(pieces) - batch;
        buckets.par_iter_mut().enumerate().for_each(|(t, mine)| {
            mine.iter_mut().for_each(Vec::clear);
            let chunk = batch + len * t / threads..batch + len * (t + 1) / threads;
            edges.for_each_in(chunk, |source, target, weight| mine[owner_of(source)].push((source, target, weight)));
        });
        sinks.par_iter_mut().enumerate().for_each(|(owner, sink)| {
            for mine in &buckets {
                sink.take_all(&mine[owner]);
            }
        });
    }
}

impl<W: Weight> Scattered<W> {
    /// The counting sort's second half: each list sorted by target (and weight) where it lies
    /// and its repeats dropped, then, only if anything was dropped, the kept entries gathered
    /// into the final arrays (in `memory`).
    fn into_lists(self, memory: MemoryProvider) -> (HostArray<u64>, HostArray<u32>, Vec<W>) {
        let Scattered { n, raw_offsets, mut raw, mut raw_weights } = self;
        let weighted = std::mem::size_of::<W>() != 0;
        let threads = rayon::current_num_threads();

        // Sort and dedup every list where it lies; its kept length goes to `offsets[v + 1]`.
        let ranges = vertex_ranges(&raw_offsets, 8 * threads);
        let mut offsets = HostArray::<u64>::zeroed(n + 1, memory);
        {
            let entries = |r: &Range<usize>| (raw_offsets[r.end] - raw_offsets[r.start]) as usize;
            let kept = split_by(&mut offsets[1..], &ranges, |r| r.len());
            let lists = split_by(&mut raw, &ranges, entries);
            let list_weights = split_by(&mut raw_weights, &ranges, |r| if weighted { entries(r) } else { 0 });
            ranges.par_iter().zip(kept).zip(lists).zip(list_weights).for_each(|(((range, kept), lists), weights)| {
                let base = raw_offsets[range.start] as usize;
                let mut pairs: Vec<(u32, W)> = Vec::new();
                for (v, kept) in range.clone().zip(kept) {
                    let slots = raw_offsets[v] as usize - base..raw_offsets[v + 1] as usize - base;
                    *kept = if weighted {
                        pairs.clear();
                        pairs.extend(lists[slots.clone()].iter().copied().zip(weights[slots.clone()].iter().copied()));
                        let unique = sort_dedup(&mut pairs);
                        for (i, &(target, w)) in slots.zip(&pairs[..unique]) {
                            lists[i] = target;
                            weights[i] = w;
                        }
                        unique
                    } else {
                        let list = &mut lists[slots];
                        if list.len() > 1 << 16 {
                            list.par_sort_unstable();
                        } else {
                            list.sort_unstable();
                        }
                        dedup_sorted_targets(list)
                    } as u64;
                }
            });
        }
        prefix_sum(&mut offsets);
        if offsets[n] == raw_offsets[n] {
            // Nothing was dropped: the lists are final where they lie (copied into `memory`).
            return (offsets, HostArray::moved_into(raw, memory), raw_weights);
        }

        // Gather the kept entries, each range of vertices into its own part of the final arrays.
        let offsets_read: &[u64] = &offsets;
        let mut targets = HostArray::<u32>::zeroed(offsets_read[n] as usize, memory);
        let mut kept_weights = vec![W::default(); if weighted { offsets_read[n] as usize } else { 0 }];
        let kept = |r: &Range<usize>| (offsets_read[r.end] - offsets_read[r.start]) as usize;
        let target_pieces = split_by(&mut targets, &ranges, kept);
        let weight_pieces = split_by(&mut kept_weights, &ranges, |r| if weighted { kept(r) } else { 0 });
        ranges.par_iter().zip(target_pieces).zip(weight_pieces).for_each(|((range, targets), weights)| {
            let mut at = 0;
            for v in range.clone() {
                let start = raw_offsets[v] as usize;
                let len = (offsets_read[v + 1] - offsets_read[v]) as usize;
                targets[at..at + len].copy_from_slice(&raw[start..start + len]);
                if weighted {
                    weights[at..at + len].copy_from_slice(&raw_weights[start..start + len]);
                }
                at += len;
            }
        });
        (offsets, targets, kept_weights)
    }
}

/// `values` cut into consecutive pieces, one per range, of `len(range)` entries each.
fn split_by<'a, T>(
    mut values: &'a mut [T],
    ranges: &[Range<usize>],
    len: impl Fn(&Range<usize>) -> usize,
) -> Vec<&'a mut [T]> {
    let mut pieces = Vec::with_capacity(ranges.len());
    for range in ranges {
        let (head, tail) = values.split_at_mut(len(range));
        pieces.push(head);
        values = tail;
    }
    pieces
}

/// Sorts `list` by target, then by weight, so that the first of each run of equal targets is
/// the lightest, and moves those to the front; returns how many there are.
fn sort_dedup<W: Weight>(list: &mut [(u32, W)]) -> usize {
    let order = |a: &(u32, W), b: &(u32, W)| a.0.cmp(&b.0).then_with(|| a.1.order(&b.1));
    if list.len() > 1 << 16 {
        list.par_sort_unstable_by(order);
    } else {
        list.sort_unstable_by(order);
    }
    dedup_sorted_in_place(list)
}

/// Moves the first of each run of equal targets in a sorted list to its front; returns how
/// many there are.
fn dedup_sorted_targets(list: &mut [u32]) -> usize {
    if list.is_empty() {
        return 0;
    }
    let mut kept = 1;
    for i in 1..list.len() {
        if list[i] != list[kept - 1] {
            list[kept] = list[i];
            kept += 1;
        }
    }
    kept
}

/// The CSR of `n` rows whose lengths `len` gives and whose entries `fill(row, list)` writes into
/// a slice of that length: lengths, their running totals, then the rows filled in ranges of
/// about equal work on all cores, each range into its own part of the targets (from `memory`).
/// For lists read off another graph, where no edge needs taking to its source's owner.
pub(crate) fn csr_from_rows(
    n: usize,
    memory: MemoryProvider,
    len: impl Fn(usize) -> usize + Sync,
    fill: impl Fn(usize, &mut [u32]) + Sync,
) -> (HostArray<u64>, HostArray<u32>) {
    let mut offsets = HostArray::<u64>::zeroed(n + 1, memory);
    offsets[1..].par_iter_mut().enumerate().for_each(|(row, end)| *end = len(row) as u64);
    prefix_sum(&mut offsets);
    let mut targets = HostArray::<u32>::zeroed(offsets[n] as usize, memory);
    let offsets_read: &[u64] = &offsets;
    let ranges = vertex_ranges(offsets_read, 8 * rayon::current_num_threads());
    let pieces = split_by(&mut targets, &ranges, |r| (offsets_read[r.end] - offsets_read[r.start]) as usize);
    ranges.par_iter().zip(pieces).for_each(|(range, piece)| {
        let base = offsets_read[range.start];
        for row in range.clone() {
            fill(row, &mut piece[(offsets_read[row] - base) as usize..(offsets_read[row + 1] - base) as usize]);
        }
    });
    (offsets, targets)
}

/// Turns counts into running totals in place, in parallel: `values[i]` becomes the sum of
/// `values[..=i]`.
pub(crate) fn prefix_sum(values: &mut [u64]) {
    let piece = (values.len() / (4 * rayon::current_num_threads())).max(1 << 16);
    let sums: Vec<u64> = values
        .par_chunks_mut(piece)
        .map(|chunk| {
            let mut sum = 0;
            for x in chunk {
                sum += *x;
                *x = sum;
            }
            sum
        })
        .collect();
    let mut carry = 0;
    let carries: Vec<u64> = sums
        .iter()
        .map(|&s| {
            carry += s;
            carry - s
        })
        .collect();
    values.par_chunks_mut(piece).zip(carries).for_each(|(chunk, carry)| {
        if carry != 0 {
            chunk.iter_mut().for_each(|x| *x += carry);
        }
    });
}

/// The vertices cut into `pieces` ranges of about equal work (a vertex and its list's
/// entries), so that one long list does not hold up the others.
fn vertex_ranges(offsets: &[u64], pieces: usize) -> Vec<Range<usize>> {
    let n = offsets.len() - 1;
    let pieces = pieces.min(n.max(1));
    let work = offsets[n] + n as u64;
    let mut ranges = Vec::with_capacity(pieces);
    let mut start = 0;
    for k in 1..=pieces {
        let goal = work * k as u64 / pieces as u64;
        let end = if k == pieces { n } else { first_beyond(offsets, goal) };
        if end > start {
            ranges.push(start..end);
            start = end;
        }
    }
    ranges
}

/// The first vertex `v` whose work before it, `offsets[v] + v`, exceeds `goal` (at most `n`).
fn first_beyond(offsets: &[u64], goal: u64) -> usize {
    let (mut low, mut high) = (0, offsets.len() - 1);
    while low < high {
        let mid = (low + high) / 2;
        if offsets[mid] + mid as u64 <= goal {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    low
}

/// Moves the first entry of each run of equal targets in a sorted slice to its front;
/// returns how many there are.
fn dedup_sorted_in_place<W: Copy>(list: &mut [(u32, W)]) -> usize {
    if list.is_empty() {
        return 0;
    }
    let mut kept = 1;
    for i in 1..list.len() {
        if list[i].0 != list[kept - 1].0 {
            list[kept] = list[i];
            kept += 1;
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_self_loops_and_duplicates_and_sorts() {
        let list = EdgeList::new(4, vec![(0, 3), (0, 1), (0, 3), (2, 2), (1, 0)], false);
        let g = GraphBuilder::new().build(list).unwrap();
        assert_eq!(g.neighbors(0), &[1, 3]);
        assert_eq!(g.neighbors(1), &[0]);
        assert_eq!(g.neighbors(2), &[] as &[u32]);
        assert_eq!(g.num_edges(), 3);
        assert_eq!(g.max_degree(), 2);
        assert!(!g.is_undirected());
    }

    #[test]
    fn symmetrizes_undirected_lists() {
        let list = EdgeList::new(3, vec![(0, 1), (1, 0), (1, 2)], true);
        let g = GraphBuilder::new().build(list).unwrap();
        assert_eq!(g.neighbors(0), &[1]);
        assert_eq!(g.neighbors(1), &[0, 2]);
        assert_eq!(g.neighbors(2), &[1]);
        assert!(g.is_symmetric());
    }

    #[test]
    fn refuses_vertex_counts_beyond_u32() {
        let list = EdgeList::new(MAX_VERTICES + 1, vec![], false);
        let err = GraphBuilder::new().build(list).unwrap_err();
        assert!(matches!(err, Error::TooManyVertices { .. }), "{err}");
        assert!(err.to_string().contains("u32"));
    }

    #[test]
    fn refuses_edges_outside_the_vertex_range() {
        let list = EdgeList::new(2, vec![(0, 5)], false);
        assert!(GraphBuilder::new().build(list).is_err());
    }

    #[test]
    fn weighted_builds_keep_the_lightest_repeat_and_mirror_weights() {
        // (0,1) three times with weights 7, 3, 5; (1,2) one way 4 and back 9; a self-loop.
        let edges = vec![(0, 1), (1, 2), (0, 1), (2, 1), (0, 1), (3, 3)];
        let list = EdgeList::new(4, edges, true).with_weights(Weights::U32(vec![7, 4, 3, 9, 5, 1]));
        let g = GraphBuilder::new().build(list).unwrap();
        assert_eq!(g.neighbors(1), &[0, 2]);
        assert_eq!(g.neighbor_weights(1).unwrap().as_u32(), Some(&[3, 4][..]));
        assert_eq!(g.neighbor_weights(0).unwrap().as_u32(), Some(&[3][..]));
        assert_eq!(g.neighbor_weights(2).unwrap().as_u32(), Some(&[4][..]));
        assert_eq!(g.weights().unwrap().len(), 4);
        assert_eq!(g.weight_range().unwrap().to_string(), "u32 weights from 3 to 4");
    }

    #[test]
    fn weighted_directed_builds_keep_each_direction_and_sort_weights_along() {
        let edges = vec![(0, 3), (0, 1), (0, 2), (1, 0), (0, 1)];
        let list = EdgeList::new(4, edges, false).with_weights(Weights::F32(vec![0.3, 0.75, 0.2, 0.5, 0.25]));
        let g = GraphBuilder::new().build(list).unwrap();
        assert_eq!(g.neighbors(0), &[1, 2, 3]);
        assert_eq!(g.neighbor_weights(0).unwrap().as_f32(), Some(&[0.25, 0.2, 0.3][..]));
        assert_eq!(g.neighbor_weights(1).unwrap().as_f32(), Some(&[0.5][..]));
        let t = g.transpose();
        assert_eq!(t.neighbors(1), &[0]);
        assert_eq!(t.neighbor_weights(1).unwrap().as_f32(), Some(&[0.25][..]));
        assert_eq!(t.neighbors(0), &[1]);
        assert_eq!(t.neighbor_weights(0).unwrap().as_f32(), Some(&[0.5][..]));
        assert_eq!(t.transpose(), g);
    }

    #[test]
    fn weight_counts_and_values_are_checked() {
        let short = EdgeList::new(3, vec![(0, 1), (1, 2)], false).with_weights(Weights::U32(vec![1]));
        let err = GraphBuilder::new().build(short).unwrap_err().to_string();
        assert!(err.contains("2 edges but 1 weights"), "{err}");
        let negative = EdgeList::new(3, vec![(0, 1), (1, 2)], false).with_weights(Weights::F32(vec![1.0, -2.0]));
        let err = GraphBuilder::new().build(negative).unwrap_err().to_string();
        assert!(err.contains("edge (1, 2) has weight -2 (negative)"), "{err}");
        let nan = EdgeList::new(3, vec![(0, 1)], false).with_weights(Weights::F32(vec![f32::NAN]));
        assert!(GraphBuilder::new().build(nan).unwrap_err().to_string().contains("not a number"));
    }

    #[test]
    fn parallel_builds_match_a_sequential_reference() {
        use crate::generate::rng::SplitMix64;
        use std::collections::BTreeMap;
        let mut rng = SplitMix64::new(3);
        let n = 3000u32;
        // Skewed: vertex 0 takes a long list (sorted in parallel), the rest short ones.
        let edges: Vec<(u32, u32)> = (0..400_000)
            .map(|i| {
                let u = if i % 3 == 0 { 0 } else { rng.next_below(n as u64) as u32 };
                (u, rng.next_below(n as u64) as u32)
            })
            .collect();
        let weights: Vec<u32> = (0..edges.len()).map(|_| rng.next_below(100) as u32).collect();
        // Two threads: each owner walks every edge; nine: the edges go through buckets.
        for (threads, undirected) in [(2, false), (2, true), (9, false), (9, true)] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| check_build(n, &edges, &weights, undirected));
        }
        fn check_build(n: u32, edges: &[(u32, u32)], weights: &[u32], undirected: bool) {
            let mut lightest: BTreeMap<(u32, u32), u32> = BTreeMap::new();
            for (&(u, v), &w) in edges.iter().zip(weights) {
                if u != v {
                    for key in if undirected { vec![(u, v), (v, u)] } else { vec![(u, v)] } {
                        let entry = lightest.entry(key).or_insert(w);
                        *entry = (*entry).min(w);
                    }
                }
            }
            let list = EdgeList::new(n as u64, edges.to_vec(), undirected).with_weights(Weights::U32(weights.to_vec()));
            let g = GraphBuilder::new().build(list).unwrap();
            let built: Vec<((u32, u32), u32)> = (0..n)
                .flat_map(|u| {
                    let w = g.neighbor_weights(u).unwrap().as_u32().unwrap().to_vec();
                    g.neighbors(u).iter().zip(w).map(move |(&v, w)| ((u, v), w)).collect::<Vec<_>>()
                })
                .collect();
            assert_eq!(built, lightest.into_iter().collect::<Vec<_>>());
            let t = g.transpose();
            assert_eq!(t.transpose(), g);
            assert!((0..n).all(|v| t.neighbors(v).windows(2).all(|w| w[0] < w[1])));
        }
    }

    #[test]
    fn prefix_sums_run_in_parallel_pieces() {
        let mut values: Vec<u64> = (0..300_000).map(|i| i % 5).collect();
        let expected: Vec<u64> = values
            .iter()
            .scan(0, |s, &x| {
                *s += x;
                Some(*s)
            })
            .collect();
        prefix_sum(&mut values);
        assert_eq!(values, expected);
    }

    #[test]
    fn transpose_reverses_edges_and_keeps_lists_sorted() {
        let list = EdgeList::new(3, vec![(0, 2), (1, 2), (2, 0)], false);
        let g = GraphBuilder::new().build(list).unwrap();
        let t = g.transpose();
        assert_eq!(t.neighbors(2), &[0, 1]);
        assert_eq!(t.neighbors(0), &[2]);
        assert!(!g.is_symmetric());
    }
}
