//! Graph500 Kronecker graphs and the R-MAT family they belong to.
//!
//! Each edge picks its endpoints one bit at a time, from the most coarse quadrant split down
//! to single vertices, choosing quadrant (0,0) with probability `a`, (0,1) with `b`, (1,0)
//! with `c` and (1,1) with `d = 1 - a - b - c`. As in the Graph500 reference generator, a bit
//! is drawn as two coin flips (row bit, then column bit given the row bit), and the vertices
//! are then relabelled by a random permutation, because the raw recursion piles the
//! high-degree vertices up at low ids, which flatters locality-sensitive code.

use rayon::prelude::*;

use super::rng::{permutation, Purpose, SplitMix64};
use crate::graph::EdgeList;

/// The Graph500 initiator probabilities (A, B, C; D = 0.05).
pub const GRAPH500_ABC: (f64, f64, f64) = (0.57, 0.19, 0.19);

/// `edge_factor · 2^scale` R-MAT edges over `2^scale` vertices, relabelled by a seeded
/// random permutation; undirected, ids 0-based. The caller has checked `scale <= 31` and
/// that `a, b, c` are non-negative with `a + b + c < 1`.
pub fn rmat_edges(scale: u32, edge_factor: u32, (a, b, c): (f64, f64, f64), seed: u64) -> EdgeList {
    let n = 1u64 << scale;
    let m = edge_factor as u64 * n;
    // Graph500's form: P(row bit = 1) = c + d; then the column bit given the row bit.
    let row_zero = a + b;
    let col_zero_given_row_zero = if row_zero > 0.0 { a / row_zero } else { 1.0 };
    let col_zero_given_row_one = c / (1.0 - row_zero);

    let mut edges: Vec<(u32, u32)> = (0..m as usize)
        .into_par_iter()
        .map(|i| {
            let mut rng = SplitMix64::stream(seed, Purpose::Edges, i as u64);
            let (mut u, mut v) = (0u32, 0u32);
            for level in 0..scale {
                let row = rng.next_f64() >= row_zero;
                let threshold = if row { col_zero_given_row_one } else { col_zero_given_row_zero };
                let col = rng.next_f64() >= threshold;
                u |= (row as u32) << level;
                v |= (col as u32) << level;
            }
            (u, v)
        })
        .collect();

    let perm = permutation(n as u32, seed);
    edges.par_iter_mut().for_each(|(u, v)| {
        *u = perm[*u as usize];
        *v = perm[*v as usize];
    });
    EdgeList::new(n, edges, true)
}
