use rayon::prelude::*;

use super::{first_where, CHECK_CHUNK};

use super::builder::{counting_sort, csr_from_rows, EdgeSource, Weight};
use crate::error::{Error, Result};
use crate::graph::host_array::{HostArray, MemoryProvider};
use crate::graph::weights::{WeightKind, WeightRange, WeightSlice, Weights};

/// A graph in compressed sparse row form.
///
/// The neighbors of vertex `v` are `targets[offsets[v]..offsets[v + 1]]`, sorted ascending,
/// with no self-loops and no repeats (the builder guarantees this). Offsets are `u64` so a
/// graph may hold more than 4 billion edges; vertex ids are `u32`.
///
/// `id_base` records how the source file numbered its vertices (1 for Matrix Market and
/// DIMACS, 0 otherwise), so ids shown to the user match the file: external id = internal + base.
///
/// A graph may carry edge weights ([`Weights`]), one per stored edge, parallel to the targets:
/// the weight of the edge to `neighbors(v)[i]` is `neighbor_weights(v)[i]`. An undirected
/// edge has the same weight in both directions.
///
/// The offsets and targets may live in memory a [`HostMemory`](crate::graph::HostMemory)
/// supplied (pinned host memory the GPU reads directly), which the transpose uses too.
/// Equality compares the arrays' contents, wherever they live.
#[derive(Clone, Debug)]
pub struct Graph {
    offsets: HostArray<u64>,
    targets: HostArray<u32>,
    /// `None` for an unweighted graph, which then costs no memory for weights.
    weights: Option<Weights>,
    undirected: bool,
    id_base: u32,
    /// Where the arrays of graphs derived from this one (its transpose) are allocated.
    memory: MemoryProvider,
}

impl PartialEq for Graph {
    fn eq(&self, other: &Self) -> bool {
        self.offsets == other.offsets
            && self.targets == other.targets
            && self.weights == other.weights
            && self.undirected == other.undirected
            && self.id_base == other.id_base
    }
}

impl Eq for Graph {}

impl Graph {
    /// Assembles a graph from raw CSR arrays, checking that they describe a valid CSR:
    /// offsets start at 0, never decrease, end at `targets.len()`, and every target is a vertex.
    /// Neighbor order and uniqueness are not checked here; [`GraphBuilder`](crate::graph::GraphBuilder)
    /// establishes them. The graph is unweighted; [`Graph::with_weights`] adds weights.
    pub fn from_csr(
        offsets: impl Into<HostArray<u64>>,
        targets: impl Into<HostArray<u32>>,
        undirected: bool,
        id_base: u32,
    ) -> Result<Self> {
        let (offsets, targets) = (offsets.into(), targets.into());
        let invalid = |problem: String| Err(Error::InvalidArgument(format!("invalid CSR: {problem}")));
        if offsets.is_empty() {
            return invalid("the offsets array is empty (it needs one entry per vertex plus one)".into());
        }
        let num_vertices = (offsets.len() - 1) as u64;
        if num_vertices > crate::graph::MAX_VERTICES {
            return Err(Error::TooManyVertices { vertices: num_vertices });
        }
        if offsets[0] != 0 {
            return invalid(format!("offsets[0] is {}, not 0", offsets[0]));
        }
        if let Some(v) = first_decrease(&offsets) {
            return invalid(format!("offsets decrease at vertex {v}"));
        }
        if *offsets.last().unwrap() != targets.len() as u64 {
            return invalid(format!(
                "the last offset is {} but there are {} targets",
                offsets.last().unwrap(),
                targets.len()
            ));
        }
        // On all cores: a partition checks billions of targets per part.
        if let Some(t) = first_at_least(&targets, num_vertices) {
            return invalid(format!("target {t} is not a vertex (the graph has {num_vertices})"));
        }
        Ok(Graph { offsets, targets, weights: None, undirected, id_base, memory: None })
    }

    /// The graph with `weights` on its edges (replacing any it had), checking that there is
    /// one per stored edge and that each is a valid weight (not negative, NaN or infinite).
    /// Errors are [`Error::InvalidArgument`] naming the first problem. An undirected graph's
    /// two directions of an edge are not checked to carry the same weight.
    pub fn with_weights(self, weights: Weights) -> Result<Self> {
        if weights.len() != self.targets.len() {
            return Err(Error::InvalidArgument(format!(
                "invalid CSR: there are {} weights but {} targets (one weight per stored edge)",
                weights.len(),
                self.targets.len()
            )));
        }
        if let Some((i, value)) = weights.first_invalid() {
            let problem = super::weights::weight_problem(value).unwrap_or("invalid");
            return Err(Error::InvalidArgument(format!(
                "invalid CSR: the weight of edge {i} is {value} ({problem}); edge weights must be \
                 non-negative and finite"
            )));
        }
        Ok(Graph { weights: Some(weights), ..self })
    }

    /// The same graph without weights.
    pub fn without_weights(self) -> Self {
        Graph { weights: None, ..self }
    }

    /// Builds without re-checking; for the builder, which constructs valid arrays by design.
    pub(crate) fn from_valid_csr(
        offsets: HostArray<u64>,
        targets: HostArray<u32>,
        undirected: bool,
        id_base: u32,
    ) -> Self {
        debug_assert_eq!(*offsets.last().unwrap(), targets.len() as u64);
        Graph { offsets, targets, weights: None, undirected, id_base, memory: None }
    }

    /// The graph with `memory` named as the supplier of the arrays of graphs made from it
    /// (its transpose); its own arrays stay where they are.
    pub fn with_host_memory(self, memory: MemoryProvider) -> Self {
        Graph { memory, ..self }
    }

    /// The graph with its offsets and targets in `memory` (copied there by all cores, unless
    /// they are provided already or `memory` is `None`), which it keeps for its transpose.
    pub fn into_host_memory(self, memory: MemoryProvider) -> Self {
        let (offsets, targets) = (self.offsets.into_memory(memory), self.targets.into_memory(memory));
        Graph { offsets, targets, memory, ..self }
    }

    /// Who supplies the arrays of graphs made from this one (`None`: ordinary memory).
    pub fn host_memory(&self) -> MemoryProvider {
        self.memory
    }

    /// The offsets as stored, in ordinary or provided memory (the GPU runtime places provided
    /// pinned arrays without copying them).
    pub fn offsets_array(&self) -> &HostArray<u64> {
        &self.offsets
    }

    /// The targets as stored, in ordinary or provided memory.
    pub fn targets_array(&self) -> &HostArray<u32> {
        &self.targets
    }

    /// Attaches weights already known to be valid and one per edge (builder, transpose, generators).
    pub(crate) fn with_valid_weights(self, weights: Option<Weights>) -> Self {
        debug_assert!(weights.as_ref().is_none_or(|w| w.len() == self.targets.len() && w.first_invalid().is_none()));
        Graph { weights, ..self }
    }

    pub fn num_vertices(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Directed edges stored: an undirected edge counts twice, once in each direction.
    pub fn num_edges(&self) -> u64 {
        self.targets.len() as u64
    }

    /// Bytes of the plain CSR arrays: `u64` offsets and `u32` targets, `8(n+1) + 4m` (weights
    /// not counted).
    pub fn csr_bytes(&self) -> u64 {
        8 * (self.num_vertices() as u64 + 1) + 4 * self.num_edges()
    }

    pub fn neighbors(&self, v: u32) -> &[u32] {
        let (v, offsets) = (v as usize, self.offsets());
        &self.targets()[offsets[v] as usize..offsets[v + 1] as usize]
    }

    pub fn degree(&self, v: u32) -> u64 {
        let (v, offsets) = (v as usize, self.offsets());
        offsets[v + 1] - offsets[v]
    }

    /// The share of edges whose two ends lie in one aligned range of `range` vertex ids, estimated from the lists of up to 4,096 vertices spread evenly over the
    /// ids, at most 64 edges of each: how closely the ids follow the graph's geometry (roads
    /// and meshes high, Kronecker and uniform random graphs near zero). 0 for an edgeless graph.
    pub fn local_edge_share(&self, range: u32) -> f64 {
        const SAMPLED_VERTICES: u64 = 4096;
        const EDGES_PER_VERTEX: usize = 64;
        let (n, range) = (self.num_vertices() as u64, range.max(1));
        let step = n.div_ceil(SAMPLED_VERTICES).max(1);
        let (mut inside, mut seen) = (0u64, 0u64);
        for v in (0..n).step_by(step as usize) {
            for &target in self.neighbors(v as u32).iter().take(EDGES_PER_VERTEX) {
                seen += 1;
                inside += (v as u32 / range == target / range) as u64;
            }
        }
        if seen == 0 {
            0.0
        } else {
            inside as f64 / seen as f64
        }
    }

    /// The largest out-degree (0 for an edgeless graph), found on all cores (a placement asks
    /// for it).
    pub fn max_degree(&self) -> u64 {
        self.offsets.par_windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0)
    }

    pub fn offsets(&self) -> &[u64] {
        self.offsets.as_slice()
    }

    pub fn targets(&self) -> &[u32] {
        self.targets.as_slice()
    }

    /// The edge weights, parallel to [`Graph::targets`]; `None` for an unweighted graph.
    pub fn weights(&self) -> Option<&Weights> {
        self.weights.as_ref()
    }

    pub fn is_weighted(&self) -> bool {
        self.weights.is_some()
    }

    /// `u32` or `f32` for a weighted graph, `None` for an unweighted one.
    pub fn weight_kind(&self) -> Option<WeightKind> {
        self.weights.as_ref().map(Weights::kind)
    }

    /// The weights of the edges of `v`, parallel to [`Graph::neighbors`]`(v)`; `None` for an
    /// unweighted graph.
    pub fn neighbor_weights(&self, v: u32) -> Option<WeightSlice<'_>> {
        let (v, offsets) = (v as usize, self.offsets());
        Some(self.weights.as_ref()?.slice(offsets[v] as usize..offsets[v + 1] as usize))
    }

    /// The smallest and largest edge weight, in the weights' own type (its
    /// [`kind`](WeightRange::kind), [`min`](WeightRange::min), [`max`](WeightRange::max), and a
    /// `Display` such as `u32 weights from 1 to 255`); `None` for an unweighted graph or one
    /// without edges.
    pub fn weight_range(&self) -> Option<WeightRange> {
        self.weights.as_ref()?.range()
    }

    /// True when the graph was built as undirected (every edge stored in both directions).
    pub fn is_undirected(&self) -> bool {
        self.undirected
    }

    /// 0 or 1: the number the source file gave its first vertex.
    pub fn id_base(&self) -> u32 {
        self.id_base
    }

    /// Converts a user-facing vertex id (as written in the file) to the internal id.
    pub fn internal_id(&self, external: u64) -> Option<u32> {
        self.degrees().internal_id(external)
    }

    /// Converts an internal id to the id the user's file used.
    pub fn external_id(&self, internal: u32) -> u64 {
        self.degrees().external_id(internal)
    }

    /// The vertices, ids and out-degrees, as a process holding only the offsets has them.
    pub fn degrees(&self) -> super::Degrees<'_> {
        super::Degrees::new(self.offsets(), self.id_base)
    }

    /// How many vertices some edge points to: those with in-edges.
    pub fn vertices_with_in_edges(&self) -> u64 {
        if self.undirected {
            return super::nonempty_lists(self.offsets()) as u64;
        }
        let mut seen = vec![false; self.num_vertices()];
        for &v in self.targets() {
            seen[v as usize] = true;
        }
        seen.into_iter().filter(|&s| s).count() as u64
    }

    /// Checks whether every edge `u -> v` has its reverse `v -> u` (binary search in sorted lists).
    pub fn is_symmetric(&self) -> bool {
        use rayon::prelude::*;
        if self.undirected {
            return true;
        }
        (0..self.num_vertices() as u32)
            .into_par_iter()
            .all(|u| self.neighbors(u).iter().all(|&v| self.neighbors(v).binary_search(&u).is_ok()))
    }

    /// The graph whose lists are this one's in-lists: itself when undirected (each edge is
    /// stored both ways), its [`transpose`](Self::transpose) when directed. A pull over its
    /// lists searches forward along this graph's edges.
    pub fn in_lists(&self) -> std::borrow::Cow<'_, Graph> {
        if self.undirected {
            std::borrow::Cow::Borrowed(self)
        } else {
            std::borrow::Cow::Owned(self.transpose())
        }
    }

    /// The graph with every edge reversed (in-edges become out-edges), each edge keeping its
    /// weight. An undirected graph is its own transpose; this returns a clone for it.
    pub fn transpose(&self) -> Graph {
        if self.undirected {
            return self.clone();
        }
        let (offsets, targets, weights) = match &self.weights {
            None => {
                let (offsets, targets, _) = self.reversed::<()>(&[]);
                (offsets, targets, None)
            }
            Some(Weights::U32(w)) => {
                let (offsets, targets, w) = self.reversed(w);
                (offsets, targets, Some(Weights::U32(w)))
            }
            Some(Weights::F32(w)) => {
                let (offsets, targets, w) = self.reversed(w);
                (offsets, targets, Some(Weights::F32(w)))
            }
        };
        Graph::from_valid_csr(offsets, targets, false, self.id_base)
            .with_valid_weights(weights)
            .with_host_memory(self.memory)
    }

    /// The unweighted directed graph of `n` rows whose lengths `len` gives and whose lists
    /// `fill(row, list)` writes, in `memory`, built on all cores ([`csr_from_rows`]); each list
    /// must be sorted and every target below `n` (checked in debug builds). For lists read off
    /// another graph (`multi::cc` reads a part's in-lists off the whole graph).
    pub(crate) fn from_rows(
        n: usize,
        memory: MemoryProvider,
        len: impl Fn(usize) -> usize + Sync,
        fill: impl Fn(usize, &mut [u32]) + Sync,
    ) -> Graph {
        let (offsets, targets) = csr_from_rows(n, memory, len, fill);
        debug_assert!(targets.iter().all(|&t| (t as usize) < n));
        Graph::from_valid_csr(offsets, targets, false, 0).with_host_memory(memory)
    }

    /// The reversed CSR, with `weights` (one per edge; empty for `()`, which takes no memory)
    /// moved along with their edges: the builder's parallel counting sort, over the in-edges,
    /// its offsets and targets in this graph's memory.
    fn reversed<W: Weight>(&self, weights: &[W]) -> (HostArray<u64>, HostArray<u32>, Vec<W>) {
        counting_sort(self.num_vertices(), &InEdges { graph: self, weights }, self.memory)
    }
}

/// The edges of a graph reversed, with their weights, for the counting sort.
struct InEdges<'a, W> {
    graph: &'a Graph,
    weights: &'a [W],
}

impl<W: Weight> EdgeSource<W> for InEdges<'_, W> {
    /// The pieces are the edges, so that a batch of them is the same size whatever the lists'.
    fn pieces(&self) -> usize {
        self.graph.targets().len()
    }

    #[inline]
    fn for_each_in(&self, edges: std::ops::Range<usize>, mut visit: impl FnMut(u32, u32, W)) {
        let (offsets, targets) = (self.graph.offsets(), self.graph.targets());
        // The vertex whose list holds the first edge, then each next one as its list begins.
        let mut u = offsets.partition_point(|&o| o as usize <= edges.start).saturating_sub(1);
        for edge in edges {
            while offsets[u + 1] as usize <= edge {
                u += 1;
            }
            visit(targets[edge], u as u32, W::of(self.weights, edge));
        }
    }
}

/// The first vertex whose offset is greater than the next one's, if any.
pub(crate) fn first_decrease(offsets: &[u64]) -> Option<usize> {
    if offsets.len() <= CHECK_CHUNK {
        return offsets.windows(2).position(|w| w[0] > w[1]);
    }
    let (c, _) = offsets.par_chunks(CHECK_CHUNK).enumerate().find_first(|&(c, chunk)| {
        let inside = chunk.windows(2).fold(false, |bad, w| bad | (w[0] > w[1]));
        let across = offsets.get((c + 1) * CHECK_CHUNK).is_some_and(|&next| next < chunk[chunk.len() - 1]);
        inside || across
    })?;
    let start = c * CHECK_CHUNK;
    offsets[start..].windows(2).position(|w| w[0] > w[1]).map(|v| start + v)
}

/// The first target that is not below `vertices`, if any.
fn first_at_least(targets: &[u32], vertices: u64) -> Option<u32> {
    let too_big = |chunk: &[u32]| chunk.iter().fold(0, |most, &t| most.max(t)) as u64 >= vertices;
    first_where(targets, too_big, |&t| t as u64 >= vertices).map(|i| targets[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_local_edge_share_counts_edges_inside_aligned_ranges() {
        use crate::graph::{EdgeList, GraphBuilder};
        let build = |n: u64, edges: Vec<(u32, u32)>| GraphBuilder::new().build(EdgeList::new(n, edges, true)).unwrap();
        // A path: one edge in four crosses a range of 4 ids (3-4, 7-8, ...), both directions.
        let path = build(4096, (1..4096u32).map(|v| (v - 1, v)).collect());
        let share = path.local_edge_share(4);
        assert!((share - 0.75).abs() < 0.01, "{share}");
        assert_eq!(path.local_edge_share(8192), 1.0);
        // Every edge between the two halves.
        let halves = build(2048, (0..1024u32).map(|v| (v, v + 1024)).collect());
        assert_eq!(halves.local_edge_share(1024), 0.0);
        assert_eq!(build(10, Vec::new()).local_edge_share(4), 0.0, "no edges");
    }

    #[test]
    fn the_checks_find_the_first_problem_inside_chunks_and_across_them() {
        let n = 3 * CHECK_CHUNK + 5;
        let mut offsets: Vec<u64> = (0..n as u64).collect();
        assert_eq!(first_decrease(&offsets), None);
        offsets[2 * CHECK_CHUNK + 10] = 0;
        assert_eq!(first_decrease(&offsets), Some(2 * CHECK_CHUNK + 9));
        // The last offset of one chunk above the first of the next.
        offsets[2 * CHECK_CHUNK - 1] = offsets[2 * CHECK_CHUNK] + 1;
        assert_eq!(first_decrease(&offsets), Some(2 * CHECK_CHUNK - 1));

        let mut targets = vec![99u32; n];
        assert_eq!(first_at_least(&targets, 100), None);
        (targets[2 * CHECK_CHUNK + 9], targets[2 * CHECK_CHUNK + 7]) = (200, 100);
        assert_eq!(first_at_least(&targets, 100), Some(100));

        let err = Graph::from_csr(vec![0, 2, 1, 3], vec![0, 1, 2], false, 0).unwrap_err().to_string();
        assert!(err.contains("offsets decrease at vertex 1"), "{err}");
        let err = Graph::from_csr(vec![0, 1, 2], vec![1, 5], false, 0).unwrap_err().to_string();
        assert!(err.contains("target 5 is not a vertex (the graph has 2)"), "{err}");
    }
}
