//! Afforest on all CPU cores (Sutton, Ben-Nun and Barak, "Optimizing Parallel Graph
//! Connectivity Computation via Subgraph Sampling", IPDPS 2018; the GAP Benchmark Suite's
//! `cc.cc`, which this follows step by step): neighbor rounds that link every vertex to its r-th
//! neighbor, each followed by a compression; the largest intermediate component found by
//! sampling; a final link of the remaining neighbors of the vertices outside it (and, for a
//! directed graph, of all their in-neighbors, which gives weakly connected components); a last
//! compression.
//!
//! Labels are atomics that only ever decrease, and a link succeeds by one compare-and-swap on a
//! root, so relaxed orderings suffice, as GAPBS's plain loads do: every decision rests on one
//! slot's own order of writes.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::time::Instant;

use rayon::prelude::*;

use crate::cc::{CcOptions, CcPhase, CcRun, Components, PhaseTrace};
use crate::engine::Answer;
use crate::generate::rng::SplitMix64;
use crate::graph::Graph;

/// Bytes of offsets read to open one list (its start and end, two `u64`s), as the GPU kernels
/// count them.
pub(crate) const OFFSET_BYTES: u64 = 16;

/// Afforest with `options.neighbor_rounds` rounds and `options.samples` samples (0 turns
/// sampling off: the final phase then visits every vertex). `transpose` gives a directed
/// graph's in-lists; when it is `None` for a directed graph it is built here. Every phase is
/// timed and its graph bytes counted (offsets and lists read; labels apart).
pub fn afforest(graph: &Graph, transpose: Option<&Graph>, options: &CcOptions) -> Answer<CcRun> {
    let started = Instant::now();
    let built;
    let in_lists = match (graph.is_undirected(), transpose) {
        (true, _) => None,
        (false, Some(transpose)) => Some(transpose),
        (false, None) => {
            built = graph.transpose();
            Some(&built)
        }
    };
    let n = graph.num_vertices() as u32;
    let labels: Vec<AtomicU32> = (0..n).into_par_iter().map(AtomicU32::new).collect();
    let mut phases = Vec::new();
    let mut timed = |phase: CcPhase, work: &mut dyn FnMut() -> u64| {
        let start = Instant::now();
        let graph_bytes_read = work();
        phases.push(PhaseTrace { phase, time: start.elapsed(), graph_bytes_read, links: None });
    };

    for round in 0..options.neighbor_rounds {
        timed(CcPhase::NeighborRound(round), &mut || {
            let bytes = (0..n)
                .into_par_iter()
                .map(|u| match graph.neighbors(u).get(round as usize) {
                    Some(&v) => {
                        link(u, v, &labels);
                        OFFSET_BYTES + 4
                    }
                    None => OFFSET_BYTES,
                })
                .sum();
            compress(&labels);
            bytes
        });
    }

    let mut largest = None;
    timed(CcPhase::Sampling, &mut || {
        largest = most_frequent_label(&labels, options.samples, options.seed);
        0
    });

    let skipped = options.neighbor_rounds as usize;
    timed(CcPhase::FinalLink, &mut || {
        (0..n)
            .into_par_iter()
            .map(|u| {
                // The largest component's vertices need no more links: each of their edges
                // to a vertex outside it is linked from the other end (undirected: its own
                // list; directed: its in-list).
                if Some(labels[u as usize].load(Relaxed)) == largest {
                    return 0;
                }
                let rest = graph.neighbors(u).get(skipped..).unwrap_or(&[]);
                for &v in rest {
                    link(u, v, &labels);
                }
                let mut bytes = OFFSET_BYTES + 4 * rest.len() as u64;
                if let Some(transpose) = in_lists {
                    let inbound = transpose.neighbors(u);
                    for &v in inbound {
                        link(u, v, &labels);
                    }
                    bytes += OFFSET_BYTES + 4 * inbound.len() as u64;
                }
                bytes
            })
            .sum()
    });

    timed(CcPhase::Compression, &mut || {
        compress(&labels);
        0
    });
    let labels = labels.into_par_iter().map(AtomicU32::into_inner).collect();
    Answer { result: CcRun { components: Components { labels }, phases }, time: started.elapsed() }
}

/// Puts `u` and `v` in one tree, the higher root hooked under the lower (GAPBS's `Link`): a
/// root's own slot changes only by a successful compare-and-swap from itself, so two threads
/// never hook one root twice, and every root stays the smallest vertex of its tree.
pub(crate) fn link(u: u32, v: u32, labels: &[AtomicU32]) {
    let mut p1 = labels[u as usize].load(Relaxed);
    let mut p2 = labels[v as usize].load(Relaxed);
    while p1 != p2 {
        let (high, low) = if p1 > p2 { (p1, p2) } else { (p2, p1) };
        let p_high = labels[high as usize].load(Relaxed);
        // Already under `low`, or `high` is still a root and now hangs under `low`.
        if p_high == low
            || (p_high == high && labels[high as usize].compare_exchange(high, low, Relaxed, Relaxed).is_ok())
        {
            break;
        }
        p1 = labels[labels[high as usize].load(Relaxed) as usize].load(Relaxed);
        p2 = labels[low as usize].load(Relaxed);
    }
}

/// Pointer jumping until every vertex points at its tree's root.
pub(crate) fn compress(labels: &[AtomicU32]) {
    labels.par_iter().with_min_len(4096).for_each(|label| loop {
        let parent = label.load(Relaxed);
        let grandparent = labels[parent as usize].load(Relaxed);
        if parent == grandparent {
            break;
        }
        label.store(grandparent, Relaxed);
    });
}

/// The label held by most of `samples` seeded random vertices: after a compression, the root of
/// the largest intermediate component, most likely (the smallest such label on a tie, so the
/// same seed always gives the same answer). `None` when sampling is off or there are no vertices.
fn most_frequent_label(labels: &[AtomicU32], samples: u32, seed: u64) -> Option<u32> {
    if samples == 0 || labels.is_empty() {
        return None;
    }
    let mut rng = SplitMix64::new(seed);
    let mut counts: HashMap<u32, u32> = HashMap::with_capacity(64);
    for _ in 0..samples {
        let v = rng.next_below(labels.len() as u64) as usize;
        *counts.entry(labels[v].load(Relaxed)).or_default() += 1;
    }
    counts.into_iter().max_by_key(|&(label, count)| (count, std::cmp::Reverse(label))).map(|(label, _)| label)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{EdgeList, GraphBuilder};

    #[test]
    fn sampling_finds_the_label_most_vertices_hold_and_can_be_turned_off() {
        // 90 of 100 vertices under root 3, the rest their own roots.
        let labels: Vec<AtomicU32> = (0..100u32).map(|v| AtomicU32::new(if v < 90 { 3 } else { v })).collect();
        assert_eq!(most_frequent_label(&labels, 1024, 7), Some(3));
        assert_eq!(most_frequent_label(&labels, 0, 7), None);
        assert_eq!(most_frequent_label(&[], 1024, 7), None);
    }

    #[test]
    fn phases_are_the_rounds_sampling_final_link_and_compression_with_their_bytes() {
        // A path 0 - 1 - 2 - 3: every vertex has a first neighbor, only 1 and 2 a second.
        let edges = vec![(0, 1), (1, 2), (2, 3)];
        let graph = GraphBuilder::new().build(EdgeList::new(4, edges, true)).unwrap();
        let run = afforest(&graph, None, &CcOptions { samples: 0, ..CcOptions::default() });
        assert_eq!(run.components.labels, vec![0, 0, 0, 0]);
        let phases: Vec<CcPhase> = run.phases.iter().map(|p| p.phase).collect();
        use CcPhase::*;
        assert_eq!(phases, [NeighborRound(0), NeighborRound(1), Sampling, FinalLink, Compression]);
        let bytes: Vec<u64> = run.phases.iter().map(|p| p.graph_bytes_read).collect();
        // Round 0: 4 offsets pairs and 4 neighbors; round 1: 2 neighbors; the final link opens
        // every list (sampling off) and finds nothing beyond the second neighbor.
        assert_eq!(bytes, [4 * 16 + 4 * 4, 4 * 16 + 2 * 4, 0, 4 * 16, 0]);
    }
}
