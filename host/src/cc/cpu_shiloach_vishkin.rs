//! Shiloach-Vishkin connected components on all CPU cores (Shiloach and Vishkin, "An O(log n)
//! Parallel Connectivity Algorithm", J. Algorithms 1982, as the GAP Benchmark Suite's
//! `cc_sv.cc` runs it): hooking over every edge, then pointer jumping, until a pass hooks
//! nothing. The CPU counterpart of [`crate::cc::CcAlgorithm::ShiloachVishkin`], for comparison
//! with Afforest; it reads every edge on every pass, and out-lists suffice for a directed graph
//! because a hook joins both ends whatever the edge's direction.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::Relaxed};
use std::time::Instant;

use rayon::prelude::*;

use crate::cc::cpu_afforest::{compress, OFFSET_BYTES};
use crate::cc::{CcPhase, CcRun, Components, PhaseTrace};
use crate::engine::Answer;
use crate::graph::Graph;

/// Shiloach-Vishkin: each pass records a [`CcPhase::FinalLink`] (the hooking) and a
/// [`CcPhase::Compression`] (the pointer jumping).
pub fn shiloach_vishkin(graph: &Graph) -> Answer<CcRun> {
    let started = Instant::now();
    let n = graph.num_vertices() as u32;
    let labels: Vec<AtomicU32> = (0..n).into_par_iter().map(AtomicU32::new).collect();
    let mut phases = Vec::new();
    loop {
        let hooked = AtomicBool::new(false);
        let start = Instant::now();
        (0..n).into_par_iter().for_each(|u| {
            for &v in graph.neighbors(u) {
                let (label_u, label_v) = (labels[u as usize].load(Relaxed), labels[v as usize].load(Relaxed));
                if label_u == label_v {
                    continue;
                }
                // The lower label wins whatever the edge's direction; only a root is hooked.
                let (high, low) = if label_u > label_v { (label_u, label_v) } else { (label_v, label_u) };
                if labels[high as usize].compare_exchange(high, low, Relaxed, Relaxed).is_ok() {
                    hooked.store(true, Relaxed);
                }
            }
        });
        let bytes = OFFSET_BYTES * n as u64 + 4 * graph.num_edges();
        phases.push(PhaseTrace { phase: CcPhase::FinalLink, time: start.elapsed(), graph_bytes_read: bytes, links: None });
        let start = Instant::now();
        compress(&labels);
        phases.push(PhaseTrace { phase: CcPhase::Compression, time: start.elapsed(), graph_bytes_read: 0, links: None });
        // After a compression every label is a root, so a pass without a hook saw every
        // edge's ends under one root: done.
        if !hooked.into_inner() {
            break;
        }
    }
    let labels = labels.into_par_iter().map(AtomicU32::into_inner).collect();
    Answer { result: CcRun { components: Components { labels }, phases }, time: started.elapsed() }
}
