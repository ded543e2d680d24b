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
/// random permutation, ids 0-based; `undirected`, or directed from each edge's row vertex to its
/// column vertex (the same draws either way). The caller has checked `scale <= 31` and that
/// `a, b, c` are non-negative with `a + b + c < 1`.
pub fn rmat_edges(scale: u32, edge_factor: u32, (a, b, c): (f64, f64, f64), seed: u64, undirected: bool) -> EdgeList {
    let n = 1u64 << scale;
    let m = edge_factor as u64 * n;
    // Graph500's form: P(row bit = 1) = c + d; then the column bit given the row bit.
    let row_zero = a + b;
    let col_zero_given_row_zero = if row_zero > 0.0 { a / row_zero } else { 1.0 };
    let col_zero_given_row_one = c / (1.0 - row_zero);
    let (row_one_from, col_one_from) =
        (draw_threshold(row_zero), [col_zero_given_row_zero, col_zero_given_row_one].map(draw_threshold));

    let mut edges: Vec<(u32, u32)> = (0..m as usize)
        .into_par_iter()
        .map(|i| {
            let mut rng = SplitMix64::stream(seed, Purpose::Edges, i as u64);
            let (mut u, mut v) = (0u32, 0u32);
            for level in 0..scale {
                // `next_f64() >= p` on the draw's 53 bits, without the float.
                let row = rng.next_u64() >> 11 >= row_one_from;
                let col = rng.next_u64() >> 11 >= col_one_from[row as usize];
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
    EdgeList::new(n, edges, undirected)
}

/// The least 53-bit draw `k` with `k / 2^53 >= p` (`p` in `[0, 1]`): `SplitMix64::next_f64`
/// is `k` scaled by `2^-53`, exactly, and so is `p * 2^53`, so comparing `k` with the
/// threshold decides as the float comparison does (the same graph, a float conversion and
/// multiply less per draw).
fn draw_threshold(p: f64) -> u64 {
    (p * (1u64 << 53) as f64).ceil() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_passes_its_threshold_exactly_when_its_float_passes_p() {
        let probabilities = [0.0, 0.05, 0.19, 0.25, 0.5, 0.57, 0.76, 0.19 / 0.24, 0.57 / 0.76, 1.0 - 1e-16, 1.0];
        let mut rng = SplitMix64::new(7);
        for p in probabilities {
            let threshold = draw_threshold(p);
            let near = [threshold.saturating_sub(1), threshold, threshold + 1, 0, (1 << 53) - 1];
            let random = (0..1000).map(|_| rng.next_u64() >> 11);
            for k in near.into_iter().chain(random).filter(|&k| k < 1 << 53) {
                let float = k as f64 * (1.0 / (1u64 << 53) as f64);
                assert_eq!(k >= threshold, float >= p, "draw {k} against p = {p}");
            }
        }
    }
}
