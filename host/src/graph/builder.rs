use std::cmp::Ordering;

use rayon::prelude::*;

use crate::error::{Error, Result};
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
}

impl GraphBuilder {
    pub fn new() -> Self {
        GraphBuilder::default()
    }

    pub fn symmetrize(mut self, yes: bool) -> Self {
        self.symmetrize = yes;
        self
    }

    /// Counting sort by source, then a parallel sort-and-dedup of each neighbor list.
    /// Memory: the edge list plus one `u32` per directed edge and two `u64` per vertex; with
    /// weights, one more `u32`/`f32` per directed edge.
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
        let graph = match weights {
            // `()` weights take no memory and no work: the unweighted build.
            None => build_lists(n, edges, vec![(); 0], undirected, id_base).0,
            Some(Weights::U32(w)) => {
                let (graph, w) = build_lists(n, edges, w, undirected, id_base);
                graph.with_valid_weights(Some(Weights::U32(w)))
            }
            Some(Weights::F32(w)) => {
                let (graph, w) = build_lists(n, edges, w, undirected, id_base);
                graph.with_valid_weights(Some(Weights::F32(w)))
            }
        };
        Ok(graph)
    }
}

/// A weight type the builder sorts by: `()` (unweighted), `u32` or `f32`.
trait Weight: Copy + Default + Send + Sync {
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
/// CSR order.
fn build_lists<W: Weight>(
    n: usize,
    edges: Vec<(u32, u32)>,
    weights: Vec<W>,
    undirected: bool,
    id_base: u32,
) -> (Graph, Vec<W>) {
    let mut raw_offsets = vec![0u64; n + 1];
    for &(u, v) in &edges {
        if u != v {
            raw_offsets[u as usize + 1] += 1;
            if undirected {
                raw_offsets[v as usize + 1] += 1;
            }
        }
    }
    for i in 0..n {
        raw_offsets[i + 1] += raw_offsets[i];
    }
    let mut cursor: Vec<u64> = raw_offsets[..n].to_vec();
    let mut raw: Vec<(u32, W)> = vec![(0, W::default()); raw_offsets[n] as usize];
    for (i, &(u, v)) in edges.iter().enumerate() {
        if u != v {
            let w = W::of(&weights, i);
            raw[cursor[u as usize] as usize] = (v, w);
            cursor[u as usize] += 1;
            if undirected {
                raw[cursor[v as usize] as usize] = (u, w);
                cursor[v as usize] += 1;
            }
        }
    }
    drop(cursor);
    drop(edges);
    drop(weights);

    let lists = split_lists(&mut raw, &raw_offsets);
    let unique_degrees: Vec<u64> = lists
        .into_par_iter()
        .map(|list| {
            // By target, then by weight: the first of each run of equal targets is the lightest.
            list.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.order(&b.1)));
            dedup_sorted_in_place(list) as u64
        })
        .collect();

    let mut offsets = vec![0u64; n + 1];
    for v in 0..n {
        offsets[v + 1] = offsets[v] + unique_degrees[v];
    }
    let mut targets = Vec::with_capacity(offsets[n] as usize);
    let mut kept_weights = Vec::with_capacity(if std::mem::size_of::<W>() == 0 { 0 } else { offsets[n] as usize });
    for v in 0..n {
        let start = raw_offsets[v] as usize;
        let list = &raw[start..start + unique_degrees[v] as usize];
        targets.extend(list.iter().map(|e| e.0));
        kept_weights.extend(list.iter().map(|e| e.1));
    }
    (Graph::from_valid_csr(offsets, targets, undirected, id_base), kept_weights)
}

/// Cuts `entries` into one mutable slice per vertex, so lists can be sorted in parallel.
fn split_lists<'a, T>(mut entries: &'a mut [T], offsets: &[u64]) -> Vec<&'a mut [T]> {
    let mut lists = Vec::with_capacity(offsets.len().saturating_sub(1));
    for w in offsets.windows(2) {
        let (head, tail) = entries.split_at_mut((w[1] - w[0]) as usize);
        lists.push(head);
        entries = tail;
    }
    lists
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
    fn transpose_reverses_edges_and_keeps_lists_sorted() {
        let list = EdgeList::new(3, vec![(0, 2), (1, 2), (2, 0)], false);
        let g = GraphBuilder::new().build(list).unwrap();
        let t = g.transpose();
        assert_eq!(t.neighbors(2), &[0, 1]);
        assert_eq!(t.neighbors(0), &[2]);
        assert!(!g.is_symmetric());
    }
}
