//! Uniform random graphs G(n, m): every endpoint of every edge drawn independently and
//! uniformly. The opposite of Kronecker: no skew, almost no locality, tiny diameter.

use rayon::prelude::*;

use super::rng::{Purpose, SplitMix64};
use crate::graph::EdgeList;

/// `edge_factor · 2^scale` uniform edges over `2^scale` vertices; undirected, ids 0-based.
/// The caller has checked `scale <= 31`.
pub fn uniform_edges(scale: u32, edge_factor: u32, seed: u64) -> EdgeList {
    let n = 1u64 << scale;
    let m = edge_factor as u64 * n;
    let edges = (0..m as usize)
        .into_par_iter()
        .map(|i| {
            let mut rng = SplitMix64::stream(seed, Purpose::Edges, i as u64);
            (rng.next_below(n) as u32, rng.next_below(n) as u32)
        })
        .collect();
    EdgeList::new(n, edges, true)
}
