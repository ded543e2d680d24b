use rayon::prelude::*;

use crate::error::{Error, Result};
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
}

impl EdgeList {
    pub fn new(num_vertices: u64, edges: Vec<(u32, u32)>, undirected: bool) -> Self {
        EdgeList { num_vertices, edges, undirected, id_base: 0 }
    }
}

/// Turns an [`EdgeList`] into a [`Graph`]: drops self-loops and repeated edges, adds the
/// reverse of every edge when the list is undirected, and sorts each neighbor list.
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
    /// Memory: the edge list plus one `u32` per directed edge and two `u64` per vertex.
    pub fn build(&self, list: EdgeList) -> Result<Graph> {
        let EdgeList { num_vertices, edges, undirected, id_base } = list;
        let undirected = undirected || self.symmetrize;
        if num_vertices > MAX_VERTICES {
            return Err(Error::TooManyVertices { vertices: num_vertices });
        }
        let n = num_vertices as usize;
        if let Some(&(u, v)) = edges.iter().find(|&&(u, v)| u as usize >= n || v as usize >= n) {
            return Err(Error::InvalidArgument(format!("edge ({u}, {v}) names a vertex outside 0..{n}")));
        }

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
        let mut raw_targets = vec![0u32; raw_offsets[n] as usize];
        for &(u, v) in &edges {
            if u != v {
                raw_targets[cursor[u as usize] as usize] = v;
                cursor[u as usize] += 1;
                if undirected {
                    raw_targets[cursor[v as usize] as usize] = u;
                    cursor[v as usize] += 1;
                }
            }
        }
        drop(cursor);
        drop(edges);

        let lists = split_lists(&mut raw_targets, &raw_offsets);
        let unique_degrees: Vec<u64> = lists
            .into_par_iter()
            .map(|list| {
                list.sort_unstable();
                dedup_sorted_in_place(list) as u64
            })
            .collect();

        let mut offsets = vec![0u64; n + 1];
        for v in 0..n {
            offsets[v + 1] = offsets[v] + unique_degrees[v];
        }
        let mut targets = Vec::with_capacity(offsets[n] as usize);
        for v in 0..n {
            let start = raw_offsets[v] as usize;
            targets.extend_from_slice(&raw_targets[start..start + unique_degrees[v] as usize]);
        }
        Ok(Graph::from_valid_csr(offsets, targets, undirected, id_base))
    }
}

/// Cuts `targets` into one mutable slice per vertex, so lists can be sorted in parallel.
fn split_lists<'a>(mut targets: &'a mut [u32], offsets: &[u64]) -> Vec<&'a mut [u32]> {
    let mut lists = Vec::with_capacity(offsets.len().saturating_sub(1));
    for w in offsets.windows(2) {
        let (head, tail) = targets.split_at_mut((w[1] - w[0]) as usize);
        lists.push(head);
        targets = tail;
    }
    lists
}

/// Moves the distinct values of a sorted slice to its front; returns how many there are.
fn dedup_sorted_in_place(list: &mut [u32]) -> usize {
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
    fn transpose_reverses_edges_and_keeps_lists_sorted() {
        let list = EdgeList::new(3, vec![(0, 2), (1, 2), (2, 0)], false);
        let g = GraphBuilder::new().build(list).unwrap();
        let t = g.transpose();
        assert_eq!(t.neighbors(2), &[0, 1]);
        assert_eq!(t.neighbors(0), &[2]);
        assert!(!g.is_symmetric());
    }
}
