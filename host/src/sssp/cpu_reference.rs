//! The sequential reference: Dijkstra's algorithm with a binary heap, the textbook version
//! with nothing clever in it, so that every other backend (parallel CPU, GPU) can be compared
//! against it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

use crate::graph::{Graph, UNREACHED};
use crate::sssp::{check_source, with_weights, Distance, SsspRun};

/// Shortest paths from `source` (an internal id) by Dijkstra's algorithm (Cormen et al.,
/// "Introduction to Algorithms", section 24.3) over a binary heap with lazy deletion: integer
/// weights summed exactly in `u64`, real weights in `f32` (the sums every backend makes),
/// an unweighted graph with unit weights. A vertex's parent is the vertex whose edge last
/// lowered its distance; since that vertex was settled first, the parents form a tree even
/// across zero-weight edges. `relaxations` counts the edges scanned from settled vertices.
///
/// Panics if `source` is not a vertex; check user input with [`check_source`] first.
pub fn dijkstra(graph: &Graph, source: u32) -> SsspRun {
    if let Err(err) = check_source(graph, source) {
        panic!("{err}");
    }
    let started = Instant::now();
    let (distances, parents, relaxations) = with_weights!(graph, |weight| {
        let (distances, parents, relaxations) = run(graph, source, weight);
        (Distance::into_distances(distances), parents, relaxations)
    });
    SsspRun { distances, parents, time: started.elapsed(), relaxations }
}

fn run<D: Distance>(graph: &Graph, source: u32, weight: impl Fn(usize) -> D) -> (Vec<D>, Vec<u32>, u64) {
    let n = graph.num_vertices();
    let offsets = graph.offsets();
    let mut distances = vec![D::INFINITY; n];
    let mut parents = vec![UNREACHED; n];
    let mut settled = vec![false; n];
    let mut relaxations = 0u64;
    distances[source as usize] = D::ZERO;
    parents[source as usize] = source;
    // Keyed by the distance's order-preserving bits, so one heap serves both distance types.
    let mut heap = BinaryHeap::new();
    heap.push(Reverse((D::ZERO.to_bits(), source)));
    while let Some(Reverse((_, u))) = heap.pop() {
        if std::mem::replace(&mut settled[u as usize], true) {
            continue;
        }
        let du = distances[u as usize];
        let first = offsets[u as usize] as usize;
        for (i, &v) in graph.neighbors(u).iter().enumerate() {
            relaxations += 1;
            let candidate = du.add(weight(first + i));
            if candidate < distances[v as usize] {
                distances[v as usize] = candidate;
                parents[v as usize] = u;
                heap.push(Reverse((candidate.to_bits(), v)));
            }
        }
    }
    (distances, parents, relaxations)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{EdgeList, GraphBuilder, Weights};
    use crate::sssp::{Distances, UNREACHED_INT};

    fn weighted(n: u64, edges: Vec<(u32, u32)>, weights: Weights, undirected: bool) -> Graph {
        GraphBuilder::new().build(EdgeList::new(n, edges, undirected).with_weights(weights)).unwrap()
    }

    #[test]
    fn a_detour_beats_a_heavy_edge() {
        // 0 -> 2 costs 10 directly, 3 through 1; 3 is unreachable.
        let g = weighted(4, vec![(0, 1), (1, 2), (0, 2)], Weights::U32(vec![1, 2, 10]), false);
        let run = dijkstra(&g, 0);
        assert_eq!(run.distances, Distances::Int(vec![0, 1, 3, UNREACHED_INT]));
        assert_eq!(run.parents, vec![0, 0, 1, UNREACHED]);
        assert_eq!(run.relaxations, 3);
    }

    #[test]
    fn real_weights_sum_in_f32_and_unweighted_graphs_count_edges() {
        let g = weighted(3, vec![(0, 1), (1, 2)], Weights::F32(vec![0.25, 0.5]), true);
        assert_eq!(dijkstra(&g, 2).distances, Distances::Float(vec![0.75, 0.5, 0.0]));
        let unweighted = g.without_weights();
        assert_eq!(dijkstra(&unweighted, 0).distances, Distances::Int(vec![0, 1, 2]));
    }

    #[test]
    fn zero_weight_cycles_still_give_a_tree() {
        // 1 and 2 are joined by a zero-weight edge both ways, both at distance 5.
        let g = weighted(3, vec![(0, 1), (1, 2), (0, 2)], Weights::U32(vec![5, 0, 5]), true);
        let run = dijkstra(&g, 0);
        assert_eq!(run.distances, Distances::Int(vec![0, 5, 5]));
        assert_eq!(run.parents[0], 0);
        assert!(run.parents[1] == 0 || run.parents[2] == 0, "{:?}", run.parents);
        assert!(!(run.parents[1] == 2 && run.parents[2] == 1));
    }
}
