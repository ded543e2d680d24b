//! Many breadth-first searches at once, one bit a source (MS-BFS: Then, Kaufmann, Chirigati et
//! al., "The More the Merrier: Efficient Multi-Source Graph Traversal", VLDB 2015; issue 55,
//! item 1): up to 64 sources a batch share every pass over the graph, each vertex holding a
//! 64-bit word of the sources that have seen it and one of those that reached it at the last
//! level. A level is a pull on every CPU core: a vertex ORs its in-neighbors' frontier words
//! and keeps the bits it had not seen, so no word is written by two threads and nothing is
//! atomic. The CPU part only; the GPU's joint frontiers (iBFS) are not built yet.
//!
//! On top of it, [`closeness`]: NetworkX's closeness centrality (Wasserman and Faust's
//! improvement where asked), exact, from one search a vertex.

use rayon::prelude::*;

use crate::graph::{Graph, UNREACHED};

/// Sources a batch: the bits of a word.
pub const BATCH: usize = 64;

/// The searches from `sources` (at most [`BATCH`]) over the graph whose in-lists are `inn`'s
/// lists: `on_level(level, words)` gets, for every vertex, the bits of the sources that reached it
/// at `level` (1, 2, ...), until a level reaches nothing.
fn search_batch(inn: &Graph, sources: &[u32], mut on_level: impl FnMut(u32, &[u64])) {
    assert!(sources.len() <= BATCH, "at most {BATCH} sources a batch");
    let n = inn.num_vertices();
    let mut seen = vec![0u64; n];
    let mut frontier = vec![0u64; n];
    for (bit, &s) in sources.iter().enumerate() {
        seen[s as usize] |= 1 << bit;
        frontier[s as usize] |= 1 << bit;
    }
    let mut level = 0u32;
    loop {
        let next: Vec<u64> = (0..n)
            .into_par_iter()
            .map(|u| {
                let unseen = !seen[u];
                if unseen == 0 {
                    return 0;
                }
                inn.neighbors(u as u32).iter().fold(0u64, |acc, &v| acc | frontier[v as usize]) & unseen
            })
            .collect();
        if !next.par_iter().any(|&word| word != 0) {
            return;
        }
        level += 1;
        on_level(level, &next);
        seen.par_iter_mut().zip(&next).for_each(|(s, &word)| *s |= word);
        frontier = next;
    }
}

/// Distances from each of `sources` (internal ids) to every vertex, as
/// [`crate::bfs::bfs_sequential`] gives them one at a time (`UNREACHED` where not reached),
/// computed [`BATCH`] sources a pass.
pub fn distances_from(graph: &Graph, sources: &[u32]) -> Vec<Vec<u32>> {
    let transpose = (!graph.is_undirected()).then(|| graph.transpose());
    let inn = transpose.as_ref().unwrap_or(graph);
    let n = graph.num_vertices();
    let mut all = Vec::with_capacity(sources.len());
    for batch in sources.chunks(BATCH) {
        let mut distances = vec![vec![UNREACHED; n]; batch.len()];
        for (i, &s) in batch.iter().enumerate() {
            distances[i][s as usize] = 0;
        }
        search_batch(inn, batch, |level, words| {
            for (u, &word) in words.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    distances[bits.trailing_zeros() as usize][u] = level;
                    bits &= bits - 1;
                }
            }
        });
        all.extend(distances);
    }
    all
}

/// How many vertices each source (by its bit) reached in `words`.
fn reached_by_bit(words: &[u64]) -> [u64; BATCH] {
    words
        .par_iter()
        .fold(
            || [0u64; BATCH],
            |mut counts, &word| {
                let mut bits = word;
                while bits != 0 {
                    counts[bits.trailing_zeros() as usize] += 1;
                    bits &= bits - 1;
                }
                counts
            },
        )
        .reduce(
            || [0u64; BATCH],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        )
}

/// Every vertex's closeness centrality as NetworkX's `closeness_centrality(G, wf_improved=...)`
/// computes it, unweighted: for a vertex `u` that `r - 1` other vertices reach (by incoming
/// paths in a directed graph), `(r - 1) / d` where `d` is the sum of their distances to `u`, times
/// `(r - 1) / (n - 1)` with `wf_improved`; 0 where nothing else reaches `u`. One search a vertex,
/// [`BATCH`] at a time, over the reversed edges (whose in-lists are the graph's own lists).
pub fn closeness(graph: &Graph, wf_improved: bool) -> Vec<f64> {
    let n = graph.num_vertices();
    let vertices: Vec<u32> = (0..n as u32).collect();
    let mut values = vec![0.0; n];
    for batch in vertices.chunks(BATCH) {
        let mut sums = [0u64; BATCH];
        let mut reached = [0u64; BATCH];
        search_batch(graph, batch, |level, words| {
            for (i, count) in reached_by_bit(words).into_iter().enumerate() {
                sums[i] += level as u64 * count;
                reached[i] += count;
            }
        });
        for (i, &u) in batch.iter().enumerate() {
            if sums[i] == 0 {
                continue;
            }
            let others = reached[i] as f64;
            let mut value = others / sums[i] as f64;
            if wf_improved {
                value *= others / (n - 1) as f64;
            }
            values[u as usize] = value;
        }
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::bfs_sequential;
    use crate::generate::{generate, GeneratorSpec};
    use crate::graph::{EdgeList, GraphBuilder};

    fn random_directed(n: u32, m: usize, seed: u64) -> Graph {
        let mut state = seed;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as u32 % n
        };
        let edges = (0..m).map(|_| (next(), next())).collect();
        GraphBuilder::new().build(EdgeList::new(n as u64, edges, false)).unwrap()
    }

    #[test]
    fn every_source_of_a_batch_gets_the_sequential_bfs_distances() {
        let kron = generate(&"kron:9".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
        for graph in [kron, random_directed(300, 700, 4)] {
            let sources: Vec<u32> = (0..graph.num_vertices() as u32).step_by(3).collect();
            assert!(sources.len() > BATCH, "more than one batch");
            for (&s, got) in sources.iter().zip(distances_from(&graph, &sources)) {
                assert_eq!(got, bfs_sequential(&graph, s).distances, "source {s}");
            }
        }
    }

    /// NetworkX's formula from one sequential BFS a vertex over the reversed edges.
    fn closeness_reference(graph: &Graph, wf_improved: bool) -> Vec<f64> {
        let reversed = graph.transpose();
        let n = graph.num_vertices();
        (0..n as u32)
            .map(|u| {
                let distances = bfs_sequential(&reversed, u).distances;
                let reached: Vec<u64> =
                    distances.iter().filter(|&&d| d != UNREACHED && d > 0).map(|&d| d as u64).collect();
                let sum: u64 = reached.iter().sum();
                if sum == 0 {
                    return 0.0;
                }
                let others = reached.len() as f64;
                let value = others / sum as f64;
                if wf_improved {
                    // NetworkX's order of operations: the factor first, then the product.
                    value * (others / (n - 1) as f64)
                } else {
                    value
                }
            })
            .collect()
    }

    #[test]
    fn closeness_is_networkxs_formula_exactly() {
        let grid = generate(&"grid2d:13x7".parse::<GeneratorSpec>().unwrap(), 1).unwrap();
        for graph in [grid, random_directed(200, 500, 6)] {
            for wf_improved in [true, false] {
                assert_eq!(closeness(&graph, wf_improved), closeness_reference(&graph, wf_improved));
            }
        }
    }
}
