//! The sequential reference: Dijkstra's algorithm with a binary heap, the textbook version
//! with nothing clever in it, so that every other backend (parallel CPU, GPU) can be compared
//! against it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::graph::{Graph, UNREACHED};
use crate::sssp::{check_limits, check_sources, cut_to_reach, with_weights, Distance, SsspOptions, SsspRun};

/// Shortest paths from `source` (an internal id) by Dijkstra's algorithm (Cormen et al.,
/// "Introduction to Algorithms", section 24.3) over a binary heap with lazy deletion: integer
/// weights summed exactly in `u64`, real weights in `f32` (the sums every backend makes),
/// an unweighted graph with unit weights. A vertex's parent is the vertex whose edge last
/// lowered its distance; since that vertex was settled first, the parents form a tree even
/// across zero-weight edges. `relaxations` counts the edges scanned from settled vertices.
///
/// Panics if `source` is not a vertex; check user input with [`crate::sssp::check_source`] first.
pub fn dijkstra(graph: &Graph, source: u32) -> SsspRun {
    dijkstra_from(graph, &[source], &SsspOptions::default())
}

/// [`dijkstra`] from several sources at once (each at distance 0, its own parent; a vertex's
/// distance is to its nearest source), reading `options.cutoff` and `options.target` (the rest
/// of `options` is the parallel code's): the heap stops once it would settle a vertex beyond
/// the cutoff, or beyond the target once the target is settled, and every vertex beyond that
/// reach is reported unreached.
///
/// Panics if a source or the target is not a vertex, or the cutoff is negative; check user
/// input with [`check_sources`] and [`check_limits`] first.
pub fn dijkstra_from(graph: &Graph, sources: &[u32], options: &SsspOptions) -> SsspRun {
    let checked = check_sources(graph, sources).and_then(|sources| check_limits(graph, options).map(|()| sources));
    let sources = checked.unwrap_or_else(|err| panic!("{err}"));
    let (distances, mut parents, relaxations, reach) = with_weights!(graph, |weight| {
        let (distances, parents, relaxations, reach) = run(graph, &sources, options, weight);
        (Distance::into_distances(distances), parents, relaxations, reach)
    });
    if reach.is_some() {
        distances.clear_unreached_parents(&mut parents);
    }
    let mut run = SsspRun { distances, parents, relaxations, sources, nearest_source: Vec::new(), reach };
    run.find_nearest_sources().expect("Dijkstra's parents form a tree");
    run
}

fn run<D: Distance>(
    graph: &Graph,
    sources: &[u32],
    options: &SsspOptions,
    weight: impl Fn(usize) -> D,
) -> (Vec<D>, Vec<u32>, u64, Option<f64>) {
    let n = graph.num_vertices();
    let offsets = graph.offsets();
    let mut distances = vec![D::INFINITY; n];
    let mut parents = vec![UNREACHED; n];
    let mut settled = vec![false; n];
    let mut relaxations = 0u64;
    // Keyed by the distance's order-preserving bits, so one heap serves both distance types.
    let mut heap = BinaryHeap::new();
    for &source in sources {
        distances[source as usize] = D::ZERO;
        parents[source as usize] = source;
        heap.push(Reverse((D::ZERO.to_bits(), source)));
    }
    let mut limit = options.cutoff.map(D::at_most);
    while let Some(Reverse((bits, u))) = heap.pop() {
        if limit.is_some_and(|limit| D::from_bits(bits) > limit) {
            break;
        }
        if std::mem::replace(&mut settled[u as usize], true) {
            continue;
        }
        let du = distances[u as usize];
        if options.target == Some(u) {
            limit = Some(limit.map_or(du, |limit| if du < limit { du } else { limit }));
        }
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
    let reach = cut_to_reach(options, &mut distances);
    (distances, parents, relaxations, reach)
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
