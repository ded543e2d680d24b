//! Node splitting's transform of the lists (seed 002, section III-B): every list longer than
//! the maximum out-degree threshold (MDT) is cut into pieces of at most MDT edges, each a
//! virtual vertex a thread relaxes alone. The pieces are described, not copied: a vertex's
//! pieces are numbered consecutively (`first[v]..first[v + 1]`), piece `p` of owner `v` holds
//! edges `offsets[v] + (p - first[v]) * MDT ..` up to MDT further or the list's end, so the
//! lists stay as they are and no edge is added (the seed's parent keeps the in-edges, and its
//! children share its distance, which here is the owner's own).

use crate::error::{Error, Result};

/// Bins of the degree histogram the threshold is chosen from.
pub const HISTOGRAM_BINS: u64 = 32;

/// The seed's automatic MDT: bin the out-degrees into [`HISTOGRAM_BINS`] ranges up to the
/// largest, take the tallest bin, and its upper edge (`(index + 1) / bins * max_degree`: the
/// seed's `index / bins * max_degree` is 0 for the first bin, which power-law graphs fill);
/// at least 1.
pub fn histogram_threshold(offsets: &[u64]) -> u32 {
    let degrees = || offsets.windows(2).map(|w| w[1] - w[0]);
    let max_degree = degrees().max().unwrap_or(0);
    if max_degree == 0 {
        return 1;
    }
    let mut bins = vec![0u64; HISTOGRAM_BINS as usize];
    for degree in degrees() {
        let bin = ((degree * HISTOGRAM_BINS) / (max_degree + 1)).min(HISTOGRAM_BINS - 1);
        bins[bin as usize] += 1;
    }
    let tallest = (0..bins.len()).max_by_key(|&b| (bins[b], std::cmp::Reverse(b))).unwrap_or(0) as u64;
    ((tallest + 1) * max_degree).div_ceil(HISTOGRAM_BINS).clamp(1, u32::MAX as u64) as u32
}

/// The pieces of every list for threshold `mdt`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pieces {
    /// `n + 1` entries: vertex `v`'s pieces are `first[v]..first[v + 1]` (an empty list has none).
    pub first: Vec<u32>,
    /// The owner of each piece.
    pub owner: Vec<u32>,
    pub mdt: u32,
}

/// Cuts the lists of `offsets` into pieces of at most `mdt` edges; an error when the pieces
/// would outnumber `u32` ids.
pub fn split_lists(offsets: &[u64], mdt: u32) -> Result<Pieces> {
    let mdt = mdt.max(1);
    let mut first = Vec::with_capacity(offsets.len());
    let mut owner = Vec::new();
    first.push(0u32);
    for (v, w) in offsets.windows(2).enumerate() {
        let pieces = (w[1] - w[0]).div_ceil(mdt as u64);
        let end = *first.last().unwrap_or(&0) as u64 + pieces;
        if end > u32::MAX as u64 {
            return Err(Error::InvalidArgument(format!(
                "node splitting with threshold {mdt} would make more than {} pieces: choose a larger threshold",
                u32::MAX
            )));
        }
        owner.extend(std::iter::repeat_n(v as u32, pieces as usize));
        first.push(end as u32);
    }
    Ok(Pieces { first, owner, mdt })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lists_are_cut_into_pieces_of_at_most_the_threshold() {
        // Degrees 5, 0, 7, 3 with MDT 3: pieces 2, 0, 3, 1.
        let offsets = [0, 5, 5, 12, 15];
        let pieces = split_lists(&offsets, 3).unwrap();
        assert_eq!(pieces.first, [0, 2, 2, 5, 6]);
        assert_eq!(pieces.owner, [0, 0, 2, 2, 2, 3]);
        // Every edge lies in exactly one piece.
        let mut covered = vec![0; 15];
        for (p, &v) in pieces.owner.iter().enumerate() {
            let start = offsets[v as usize] + (p as u64 - pieces.first[v as usize] as u64) * 3;
            let end = (start + 3).min(offsets[v as usize + 1]);
            (start..end).for_each(|e| covered[e as usize] += 1);
        }
        assert!(covered.iter().all(|&c| c == 1));
    }

    #[test]
    fn the_threshold_is_the_upper_edge_of_the_tallest_bin() {
        // 100 vertices of degree 2, one of degree 320: the tallest bin is the first (0..10),
        // so lists of more than 10 edges are split.
        let mut offsets = vec![0u64];
        for _ in 0..100 {
            offsets.push(offsets.last().unwrap() + 2);
        }
        offsets.push(offsets.last().unwrap() + 320);
        assert_eq!(histogram_threshold(&offsets), 10);
        // Edgeless graphs still get a threshold of 1.
        assert_eq!(histogram_threshold(&[0, 0, 0]), 1);
        // Equal degrees: the tallest bin is the last, the threshold the largest degree.
        assert_eq!(histogram_threshold(&[0, 4, 8, 12]), 4);
    }
}
