//! Parallel delta-stepping on the CPU (Meyer and Sanders, "Δ-stepping: a parallelizable
//! shortest path algorithm", J. Algorithms 49, 2003), organised as the GAP Benchmark Suite's
//! `sssp.cc` (Beamer, Asanović and Patterson, 2015, section 3.3): one shared frontier holding
//! the current bucket, buckets kept per thread, an atomic minimum on every distance, and
//! "bucket fusion": a thread whose own share of the current bucket stays small relaxes it at
//! once instead of waiting for the next round. Parents are found after the distances.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;

use crate::engine::Answer;
use crate::error::Result;
use crate::graph::{Graph, UNREACHED};
use crate::sssp::{
    check_limits, check_sources, cut_to_reach, delta_for, with_weights, Distance, Distances, SsspOptions, SsspRun,
};

/// Frontier vertices a task relaxes at a time.
const CHUNK: usize = 64;

/// A thread's share of the current bucket below this many vertices is relaxed at once by the
/// thread (GAPBS's `kBinSizeThreshold`), which saves rounds on graphs of long paths (roads).
const FUSE_BELOW: usize = 1000;

/// Shortest paths from `source` (an internal id) by parallel delta-stepping on all rayon
/// threads, with `options.delta` as the bucket width (or [`crate::sssp::default_delta`]) and
/// parents unless `options.distances_only`. Distances are the same as [`crate::sssp::dijkstra`]'s
/// (exact `u64` sums of integer weights; `f32` sums of real weights, which reach the same
/// fixed point); `relaxations` counts every edge relaxed, repeats included.
pub fn delta_stepping(graph: &Graph, source: u32, options: &SsspOptions) -> Result<Answer<SsspRun>> {
    delta_stepping_from(graph, &[source], options)
}

/// [`delta_stepping`] from several sources at once (each at distance 0 in the first bucket),
/// with `options.cutoff` and `options.target`: the bucket loop stops before a bucket that
/// starts beyond the cutoff, or beyond the target once the target is settled, and vertices
/// beyond that reach are reported unreached. With several sources the nearest source of every
/// vertex is found from the parents, which a distances-only run then drops.
pub fn delta_stepping_from(graph: &Graph, sources: &[u32], options: &SsspOptions) -> Result<Answer<SsspRun>> {
    let sources = check_sources(graph, sources)?;
    check_limits(graph, options)?;
    let delta = delta_for(graph, options.delta)?;
    let started = Instant::now();
    let needs_tree = !options.distances_only || sources.len() > 1;
    let (distances, parents, relaxations, reach): (Distances, Vec<u32>, u64, Option<f64>) =
        with_weights!(graph, |weight| {
            let (mut distances, relaxations) = settle(graph, &sources, options, Distance::delta(delta), &weight);
            let reach = cut_to_reach(options, &mut distances);
            let parents = if needs_tree {
                shortest_path_tree(graph, &sources, &distances, &weight, |_, _| true)
            } else {
                Vec::new()
            };
            (Distance::into_distances(distances), parents, relaxations, reach)
        });
    let mut run = SsspRun { distances, parents, relaxations, sources, nearest_source: Vec::new(), reach };
    run.find_nearest_sources()?;
    if options.distances_only {
        run.parents = Vec::new();
    }
    Ok(Answer { result: run, time: started.elapsed() })
}

/// One thread's buckets, by index (distance / Δ). A map, not a vector, so that a Δ far below
/// the weights does not allocate a bucket for every step of the way.
#[derive(Default)]
struct Buckets(BTreeMap<u64, Vec<u32>>);

impl Buckets {
    fn push(&mut self, bucket: u64, v: u32) {
        self.0.entry(bucket).or_default().push(v);
    }

    /// Bucket `current` when it holds fewer than [`FUSE_BELOW`] vertices, emptied.
    fn take_small(&mut self, current: u64) -> Option<Vec<u32>> {
        match self.0.get(&current) {
            Some(vertices) if vertices.len() < FUSE_BELOW => self.0.remove(&current),
            _ => None,
        }
    }
}

fn settle<D: Distance>(
    graph: &Graph,
    sources: &[u32],
    options: &SsspOptions,
    delta: D,
    weight: &(impl Fn(usize) -> D + Sync),
) -> (Vec<D>, u64) {
    let n = graph.num_vertices();
    let distance: Vec<AtomicU64> = (0..n).into_par_iter().map(|_| AtomicU64::new(D::INFINITY.to_bits())).collect();
    for &source in sources {
        distance[source as usize].store(D::ZERO.to_bits(), Relaxed);
    }
    let cutoff = options.cutoff.map(D::at_most);
    // The farthest distance the run settles, as far as known before bucket `next`: the cutoff,
    // or the target's distance once it is final (it lies in a bucket before `next`; a tentative
    // distance that low would already be final).
    let beyond_reach = |next: u64| {
        let target = options.target.map(|t| D::from_bits(distance[t as usize].load(Relaxed)));
        let target = target.filter(|&d| d != D::INFINITY && d.bucket(delta) < next);
        [cutoff, target].into_iter().flatten().any(|limit| next > limit.bucket(delta))
    };
    let threads = rayon::current_num_threads();
    // One slot per worker, and one for a caller outside the pool.
    let buckets: Vec<Mutex<Buckets>> = (0..=threads).map(|_| Mutex::default()).collect();
    let relaxations = AtomicU64::new(0);
    let offsets = graph.offsets();

    // Relaxes the edges of `u` if it still belongs to bucket `current` or later (an earlier
    // bucket has settled it, through a shorter entry), pushing improved targets to `local`.
    let relax = |u: u32, current: u64, local: &mut Buckets| -> u64 {
        let du = D::from_bits(distance[u as usize].load(Relaxed));
        if du.bucket(delta) < current {
            return 0;
        }
        let first = offsets[u as usize] as usize;
        let neighbors = graph.neighbors(u);
        for (i, &v) in neighbors.iter().enumerate() {
            let candidate = du.add(weight(first + i)).to_bits();
            let slot = &distance[v as usize];
            if candidate < slot.load(Relaxed) && candidate < slot.fetch_min(candidate, Relaxed) {
                local.push(D::from_bits(candidate).bucket(delta), v);
            }
        }
        neighbors.len() as u64
    };

    let mut frontier = sources.to_vec();
    let mut current = 0u64;
    loop {
        let process = |chunk: &[u32]| {
            let slot = rayon::current_thread_index().unwrap_or(threads);
            let mut local = buckets[slot].lock().expect("no thread panics while holding its buckets");
            let mut relaxed = 0;
            for &u in chunk {
                relaxed += relax(u, current, &mut local);
            }
            while let Some(fused) = local.take_small(current) {
                for u in fused {
                    relaxed += relax(u, current, &mut local);
                }
            }
            relaxations.fetch_add(relaxed, Relaxed);
        };
        // A frontier of one task stays on this thread: handing it to the pool and waiting for it
        // costs more than the work on graphs of many small buckets (roads).
        if frontier.len() <= CHUNK {
            process(&frontier);
        } else {
            frontier.par_chunks(CHUNK).for_each(process);
        }
        let lock = |b: &Mutex<Buckets>| b.lock().expect("no thread panics while holding its buckets").0.keys().next().copied();
        let Some(next) = buckets.iter().filter_map(lock).min() else { break };
        if beyond_reach(next) {
            break;
        }
        current = next;
        frontier.clear();
        for b in &buckets {
            if let Some(vertices) = b.lock().expect("no thread panics while holding its buckets").0.remove(&next) {
                frontier.extend(vertices);
            }
        }
    }
    let values = distance.into_par_iter().map(|d| D::from_bits(d.into_inner())).collect();
    (values, relaxations.into_inner())
}

/// Parents for finished `distances`: a breadth-first search from the sources (each its own
/// parent) over the tight edges (`distance[u] + w == distance[v]`, in the same arithmetic as the
/// relaxations) that `follows(u, v)` allows, each vertex claimed by the first such edge that
/// reaches it. Every reached vertex has a tight edge from the vertex whose relaxation set its
/// final distance, set earlier still, so the search over all tight edges reaches them all;
/// claiming in search order keeps zero-weight cycles out of the tree.
pub(crate) fn shortest_path_tree<D: Distance>(
    graph: &Graph,
    sources: &[u32],
    distances: &[D],
    weight: &(impl Fn(usize) -> D + Sync),
    follows: impl Fn(u32, u32) -> bool + Sync,
) -> Vec<u32> {
    let parents: Vec<AtomicU32> = (0..graph.num_vertices()).into_par_iter().map(|_| AtomicU32::new(UNREACHED)).collect();
    for &source in sources {
        parents[source as usize].store(source, Relaxed);
    }
    let offsets = graph.offsets();
    let follows = &follows;
    let mut frontier = sources.to_vec();
    while !frontier.is_empty() {
        frontier = frontier
            .par_iter()
            .flat_map_iter(|&u| {
                let first = offsets[u as usize] as usize;
                let du = distances[u as usize];
                let parents = &parents;
                graph.neighbors(u).iter().enumerate().filter_map(move |(i, &v)| {
                    let tight = du.add(weight(first + i)) == distances[v as usize] && follows(u, v);
                    let claimed = tight
                        && parents[v as usize].load(Relaxed) == UNREACHED
                        && parents[v as usize].compare_exchange(UNREACHED, u, Relaxed, Relaxed).is_ok();
                    claimed.then_some(v)
                })
            })
            .collect();
    }
    parents.into_par_iter().map(AtomicU32::into_inner).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{EdgeList, GraphBuilder, Weights};
    use crate::sssp::dijkstra;

    #[test]
    fn matches_dijkstra_for_every_delta_on_a_small_graph() {
        let edges = vec![(0, 1), (1, 2), (0, 2), (2, 3), (3, 4), (1, 4), (5, 6)];
        let weights = Weights::U32(vec![4, 1, 7, 0, 3, 9, 2]);
        let g = GraphBuilder::new().build(EdgeList::new(7, edges, true).with_weights(weights)).unwrap();
        let reference = dijkstra(&g, 0);
        for delta in [None, Some(1.0), Some(2.5), Some(1000.0)] {
            let run = delta_stepping(&g, 0, &SsspOptions { delta, ..Default::default() }).unwrap();
            assert_eq!(run.distances, reference.distances, "delta {delta:?}");
            crate::sssp::verify::validate(&g, &run).unwrap();
        }
    }

    #[test]
    fn a_bad_delta_is_refused_and_distances_only_has_no_parents() {
        let g = GraphBuilder::new().build(EdgeList::new(2, vec![(0, 1)], true)).unwrap();
        let err = delta_stepping(&g, 0, &SsspOptions { delta: Some(-1.0), ..Default::default() }).unwrap_err();
        assert!(err.to_string().contains("positive"), "{err}");
        let run = delta_stepping(&g, 1, &SsspOptions { distances_only: true, ..Default::default() }).unwrap();
        assert!(run.parents.is_empty());
        assert_eq!(run.distances, Distances::Int(vec![1, 0]));
        assert_eq!(run.relaxations, 2);
    }
}
