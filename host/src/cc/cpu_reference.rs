//! The sequential reference: union-find with nothing clever in it, so that it can be trusted as
//! the answer every other backend (the parallel CPU code, the GPU) is checked against.

use crate::cc::Components;
use crate::graph::Graph;

/// Connected components by sequential union-find (Tarjan's disjoint sets with path halving;
/// union by index: the smaller root becomes the root of the union, so every root is the
/// smallest vertex of its set and the labels come out canonical). A directed graph gives its
/// weakly connected components: every edge joins its two ends whatever its direction, so the
/// out-lists alone cover every edge.
///
/// An undirected graph stores every edge both ways (the builder, the generators and the
/// readers make it so; a `.wgr` file's symmetry is checked as it is read), and joining `v` with
/// `u` after `u` with `v` changes nothing, so each edge is taken once, from its smaller end:
/// half the finds, minutes less on the largest graphs checked (bench/NOTES.md 93). A CSR
/// flagged undirected whose edges are not all stored both ways can only come out with more
/// components here, which the verifier reports as a mismatch, never as a pass.
pub fn components_sequential(graph: &Graph) -> Components {
    let n = graph.num_vertices();
    let mut parent: Vec<u32> = (0..n as u32).collect();
    let both_ways = graph.is_undirected();
    for u in 0..n as u32 {
        for &v in graph.neighbors(u) {
            if !(both_ways && v < u) {
                union(&mut parent, u, v);
            }
        }
    }
    let labels = (0..n as u32).map(|v| find(&mut parent, v)).collect();
    Components { labels }
}

/// Joins the sets of `u` and `v`: the smaller root becomes the root of the union.
pub(crate) fn union(parent: &mut [u32], u: u32, v: u32) {
    let (a, b) = (find(parent, u), find(parent, v));
    if a != b {
        let (low, high) = if a < b { (a, b) } else { (b, a) };
        parent[high as usize] = low;
    }
}

/// The root of `v`, halving the path on the way (every vertex visited points to its
/// grandparent afterwards).
pub(crate) fn find(parent: &mut [u32], mut v: u32) -> u32 {
    while parent[v as usize] != v {
        let grandparent = parent[parent[v as usize] as usize];
        parent[v as usize] = grandparent;
        v = grandparent;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{EdgeList, GraphBuilder};

    #[test]
    fn labels_are_the_smallest_vertex_of_each_component() {
        // {0, 3, 5} by a path 5 - 3 - 0, {1, 4}, {2} isolated; directed edges join both ends.
        let graph = GraphBuilder::new().build(EdgeList::new(6, vec![(5, 3), (3, 0), (4, 1)], false)).unwrap();
        assert_eq!(components_sequential(&graph).labels, vec![0, 1, 2, 0, 1, 0]);
    }

    #[test]
    fn an_undirected_graphs_edges_taken_once_give_the_labels_of_both_ways() {
        let edges = vec![(5, 3), (3, 0), (4, 1), (2, 2)];
        let undirected = GraphBuilder::new().build(EdgeList::new(6, edges.clone(), true)).unwrap();
        let directed = GraphBuilder::new().build(EdgeList::new(6, edges, false)).unwrap();
        assert_eq!(components_sequential(&undirected), components_sequential(&directed));
        assert_eq!(components_sequential(&undirected).labels, vec![0, 1, 2, 0, 1, 0]);
    }
}
