//! GPU shortest paths against a Dijkstra written here: every strategy (delta-stepping,
//! near-far, near-far on a Hopper cluster where the GPU has them, and seed 002's five) on generated graphs with u32 (1..255) and f32 (graph500)
//! weights, the datasets (USA-road-d.NY with its own weights, the others with generated ones),
//! zero-weight edges, a star, a path, many components, directed inputs, unweighted graphs (unit
//! weights), distances only and zero-copy placement. Distances are exact for integers and
//! within Graph500's tolerance for floats; parents must form a shortest-path tree. Skips,
//! saying why, on machines without a CUDA device.

mod common;

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use common::{dataset_files, datasets_dir, gpu_or_skip};
use warpath::engine::{prepare, Backend, PlacementOptions};
use warpath::formats::{read_graph, ReadOptions};
use warpath::generate::{attach_weights, generate, WeightSpec};
use warpath::gpu::{GpuContext, Placement};
use warpath::graph::{EdgeList, GraphBuilder, Weights, UNREACHED};
use warpath::sssp::gpu::{shortest_paths, shortest_paths_traced, workspace};
use warpath::sssp::{
    DeferredQueueing, Distances, Fusion, RoundsApart, SsspOptions, SsspRun, SsspStrategy, UNREACHED_INT,
};
use warpath::Graph;
use warpath_interface::sssp::{MAX_SPAN, MAX_TAIL_SPAN};

/// Every strategy this machine's GPU runs: the cluster kernel needs compute capability 9.0
/// (before it, the strategy is refused: `the_cluster_strategy_needs_hopper`).
fn strategies() -> Vec<SsspStrategy> {
    static HOPPER: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let hopper = *HOPPER.get_or_init(|| GpuContext::new().is_ok_and(|gpu| gpu.compute_capability().0 >= 9));
    let concrete = SsspStrategy::ALL.into_iter().filter(|&strategy| strategy != SsspStrategy::Cluster || hopper);
    concrete.chain([SsspStrategy::Auto]).collect()
}

/// The strategies with buckets on the device (delta, cutoffs and targets in the kernel).
fn bucketed() -> Vec<SsspStrategy> {
    strategies().into_iter().filter(|strategy| strategy.is_bucketed()).collect()
}

/// A weight as the test's Dijkstra adds it: integers (unit for unweighted graphs) or floats.
fn weight_of(graph: &Graph, edge: usize) -> f64 {
    match graph.weights() {
        None => 1.0,
        Some(Weights::U32(w)) => w[edge] as f64,
        Some(Weights::F32(w)) => w[edge] as f64,
    }
}

/// Dijkstra: integer distances exactly (u64), float ones in f32 arithmetic as the kernels add.
fn dijkstra(graph: &Graph, source: u32) -> Distances {
    let n = graph.num_vertices();
    let offsets = graph.offsets();
    let targets = graph.targets();
    match graph.weights() {
        Some(Weights::F32(w)) => {
            let mut dist = vec![f32::INFINITY; n];
            dist[source as usize] = 0.0;
            let mut heap = BinaryHeap::from([Reverse((0u32, source))]);
            while let Some(Reverse((bits, u))) = heap.pop() {
                if f32::from_bits(bits) > dist[u as usize] {
                    continue;
                }
                for e in offsets[u as usize] as usize..offsets[u as usize + 1] as usize {
                    let candidate = dist[u as usize] + w[e];
                    let v = targets[e] as usize;
                    if candidate < dist[v] {
                        dist[v] = candidate;
                        heap.push(Reverse((candidate.to_bits(), v as u32)));
                    }
                }
            }
            Distances::Float(dist)
        }
        _ => {
            let mut dist = vec![UNREACHED_INT; n];
            dist[source as usize] = 0;
            let mut heap = BinaryHeap::from([Reverse((0u64, source))]);
            while let Some(Reverse((d, u))) = heap.pop() {
                if d > dist[u as usize] {
                    continue;
                }
                for e in offsets[u as usize] as usize..offsets[u as usize + 1] as usize {
                    let candidate = d + weight_of(graph, e) as u64;
                    let v = targets[e] as usize;
                    if candidate < dist[v] {
                        dist[v] = candidate;
                        heap.push(Reverse((candidate, v as u32)));
                    }
                }
            }
            Distances::Int(dist)
        }
    }
}

/// Distances equal to Dijkstra's (floats within Graph500's relative 1e-5 tolerance), and, unless
/// distances only, parents that form a shortest-path tree rooted at the source.
fn check(graph: &Graph, source: u32, run: &SsspRun, expected: &Distances, what: &str) {
    let n = graph.num_vertices();
    match (&run.distances, expected) {
        (Distances::Int(got), Distances::Int(want)) => {
            if let Some(v) = (0..n).find(|&v| got[v] != want[v]) {
                panic!("{what}: vertex {v} at {} instead of {}", got[v], want[v]);
            }
        }
        (Distances::Float(got), Distances::Float(want)) => {
            for v in 0..n {
                let (g, w) = (got[v], want[v]);
                let close =
                    if w.is_finite() { g.is_finite() && (g - w).abs() <= 1e-5 * w.max(1.0) } else { !g.is_finite() };
                assert!(close, "{what}: vertex {v} at {g} instead of {w}");
            }
        }
        _ => panic!("{what}: distances of the wrong kind"),
    }
    if run.parents.is_empty() {
        return;
    }
    assert_eq!(run.parents.len(), n, "{what}: one parent a vertex");
    let distance = |v: usize| match &run.distances {
        Distances::Int(d) => d[v] as f64,
        Distances::Float(d) => d[v] as f64,
    };
    assert_eq!(run.parents[source as usize], source, "{what}: the source is its own parent");
    for v in 0..n {
        let p = run.parents[v];
        if !run.distances.is_reached(v) {
            assert_eq!(p, UNREACHED, "{what}: unreached vertex {v} has parent {p}");
            continue;
        }
        if v == source as usize {
            continue;
        }
        assert_ne!(p, UNREACHED, "{what}: reached vertex {v} has no parent");
        let (start, end) = (graph.offsets()[p as usize] as usize, graph.offsets()[p as usize + 1] as usize);
        let tight = (start..end).any(|e| {
            graph.targets()[e] as usize == v
                && (distance(p as usize) + weight_of(graph, e) - distance(v)).abs() <= 1e-5 * distance(v).max(1.0)
        });
        assert!(tight, "{what}: the tree edge {p} -> {v} lies on no shortest path");
    }
    // No cycles: every reached vertex's parent chain ends at the source within n steps.
    let mut depth = vec![u32::MAX; n];
    depth[source as usize] = 0;
    for v in 0..n {
        if !run.distances.is_reached(v) {
            continue;
        }
        let mut chain = vec![];
        let mut at = v;
        while depth[at] == u32::MAX {
            chain.push(at);
            at = run.parents[at] as usize;
            assert!(chain.len() <= n, "{what}: the parents of {v} form a cycle");
        }
        for (k, &u) in chain.iter().rev().enumerate() {
            depth[u] = depth[at] + 1 + k as u32;
        }
    }
}

/// Runs every strategy (with and without parents) from a few sources in each placement.
fn check_all(graph: &Graph, what: &str, placements: &[Placement]) {
    let n = graph.num_vertices() as u32;
    let sources: Vec<u32> = [0, n / 3, n - 1].into_iter().filter(|&s| graph.degree(s) > 0).collect();
    let sources = if sources.is_empty() { vec![0] } else { sources };
    let expected: Vec<Distances> = sources.iter().map(|&s| dijkstra(graph, s)).collect();
    for &placement in placements {
        for strategy in strategies() {
            let options = SsspOptions { strategy, ..SsspOptions::default() };
            let asks = workspace(graph, &options).unwrap();
            let placing = PlacementOptions { placement: Some(placement), ..PlacementOptions::default() };
            let (prepared, _) = prepare(graph, Backend::Gpu, &placing, asks).unwrap();
            let gpu_graph = prepared.gpu().expect("prepared on the GPU");
            for (&source, expected) in sources.iter().zip(&expected) {
                let label = format!("{what}, {strategy:?}, {placement:?}, source {source}");
                let run = shortest_paths(gpu_graph, source, &options).unwrap_or_else(|e| panic!("{label}: {e}"));
                check(graph, source, &run, expected, &label);
                assert!(run.relaxations >= graph.degree(source), "{label}: {} relaxations", run.relaxations);
                let only = SsspOptions { distances_only: true, ..options };
                let run = shortest_paths(gpu_graph, source, &only).unwrap();
                assert!(run.parents.is_empty(), "{label}: distances only gives no parents");
                check(graph, source, &run, expected, &format!("{label}, distances only"));
            }
        }
    }
}

fn weighted(spec: &str, weights: WeightSpec) -> Graph {
    attach_weights(generate(&spec.parse().unwrap(), 7).unwrap(), &weights, 7).unwrap()
}

fn built(n: u64, edges: Vec<(u32, u32)>, weights: Option<Weights>, undirected: bool) -> Graph {
    let list = EdgeList::new(n, edges, undirected);
    let list = match weights {
        Some(weights) => list.with_weights(weights),
        None => list,
    };
    GraphBuilder::new().build(list).unwrap()
}

#[test]
fn generated_graphs_with_integer_and_float_weights_match_dijkstra() {
    if gpu_or_skip("generated_graphs_with_integer_and_float_weights_match_dijkstra").is_none() {
        return;
    }
    for spec in ["kron:12", "urand:12", "grid2d:60"] {
        check_all(&weighted(spec, WeightSpec::GAPBS), &format!("{spec} uniform:1:255"), &[Placement::Device]);
        check_all(&weighted(spec, WeightSpec::Graph500), &format!("{spec} graph500"), &[Placement::Device]);
    }
    check_all(&weighted("kron:10", WeightSpec::GAPBS), "kron:10 zero-copy", &[Placement::ZeroCopy]);
}

#[test]
fn unweighted_graphs_run_as_unit_weights() {
    if gpu_or_skip("unweighted_graphs_run_as_unit_weights").is_none() {
        return;
    }
    for spec in ["kron:11", "grid2d:50"] {
        let graph = generate(&spec.parse().unwrap(), 3).unwrap();
        check_all(&graph, &format!("{spec} unweighted"), &[Placement::Device]);
        // Unit weights give BFS levels: delta-stepping's buckets are the levels (near-far, the
        // default, settles no list, so its records count no vertices).
        let options = SsspOptions { strategy: SsspStrategy::DeltaStepping, ..SsspOptions::default() };
        let (prepared, _) =
            prepare(&graph, Backend::Gpu, &PlacementOptions::default(), workspace(&graph, &options).unwrap()).unwrap();
        let (run, trace) = shortest_paths_traced(prepared.gpu().unwrap(), 0, &options).unwrap();
        let Distances::Int(d) = &run.distances else { panic!("unit weights give integers") };
        let deepest = d.iter().filter(|&&x| x != UNREACHED_INT).max().copied().unwrap();
        assert_eq!(trace.delta, 1.0);
        assert_eq!(trace.buckets as u64, deepest + 1, "{spec}: one bucket a level");
        assert_eq!(trace.records.iter().map(|r| r.vertices).sum::<u64>(), run.distances.reached(), "{spec}");
    }
}

#[test]
fn special_shapes_zero_weights_components_and_directed_inputs() {
    if gpu_or_skip("special_shapes_zero_weights_components_and_directed_inputs").is_none() {
        return;
    }
    // A star with weights 0..=3: zero-weight edges, one vertex of huge degree.
    let leaves = 5000u32;
    let star_edges: Vec<(u32, u32)> = (1..=leaves).map(|v| (0, v)).collect();
    let star_weights = Weights::U32((1..=leaves).map(|v| v % 4).collect());
    check_all(&built(leaves as u64 + 1, star_edges, Some(star_weights), true), "star", &[Placement::Device]);
    // A long path (thousands of buckets) with weights 1..=9.
    let path_edges: Vec<(u32, u32)> = (0..3000).map(|v| (v, v + 1)).collect();
    let path_weights = Weights::U32((0..3000).map(|v| 1 + v % 9).collect());
    check_all(&built(3001, path_edges, Some(path_weights), true), "path", &[Placement::Device]);
    // Zero-weight plateaus: cycles of weight 0 among equal distances, floats too.
    let mut edges = vec![];
    for c in 0..200u32 {
        let base = 1 + 5 * c;
        edges.extend([(0, base), (base, base + 1), (base + 1, base + 2), (base + 2, base), (base + 2, base + 3)]);
    }
    let zeros_int = Weights::U32((0..edges.len()).map(|e| if e % 5 == 0 { 3 } else { 0 }).collect());
    let zeros_float = Weights::F32((0..edges.len()).map(|e| if e % 5 == 0 { 0.25 } else { 0.0 }).collect());
    check_all(&built(1001, edges.clone(), Some(zeros_int), true), "zero-weight plateaus", &[Placement::Device]);
    let directed_zeros = built(1001, edges, Some(zeros_float), false);
    check_all(&directed_zeros, "directed zero-weight plateaus, f32", &[Placement::Device]);
    // Many components: 300 disjoint triangles and isolated vertices.
    let mut edges = vec![];
    for t in 0..300u32 {
        edges.extend([(3 * t, 3 * t + 1), (3 * t + 1, 3 * t + 2), (3 * t + 2, 3 * t)]);
    }
    let weights = Weights::U32((0..edges.len() as u32).map(|e| 1 + e % 7).collect());
    check_all(&built(1000, edges, Some(weights), true), "many components", &[Placement::Device]);
    // Directed: a weighted directed R-MAT graph (paths go one way only).
    let directed = common::rmat(11, 16_000, 5, false);
    let directed = attach_weights(directed, &WeightSpec::GAPBS, 5).unwrap();
    check_all(&directed, "directed rmat", &[Placement::Device, Placement::ZeroCopy]);
}

#[test]
fn datasets_match_dijkstra() {
    if gpu_or_skip("datasets_match_dijkstra").is_none() {
        return;
    }
    let Some(dir) = datasets_dir("datasets_match_dijkstra") else { return };
    for path in dataset_files(&dir) {
        // USA-road-d.NY keeps its own lengths; the others (some matrices have negative
        // entries) are read unweighted and get GAPBS weights.
        let own = path.to_string_lossy().contains("USA-road");
        let graph = read_graph(&path, &ReadOptions { ignore_weights: !own, ..ReadOptions::default() }).unwrap();
        let graph = if own { graph } else { attach_weights(graph, &WeightSpec::GAPBS, 11).unwrap() };
        assert!(graph.is_weighted(), "{}", path.display());
        check_all(&graph, &path.display().to_string(), &[Placement::Device]);
    }
}

#[test]
fn delta_is_settable_and_every_width_gives_the_same_distances() {
    if gpu_or_skip("delta_is_settable_and_every_width_gives_the_same_distances").is_none() {
        return;
    }
    let graph = weighted("kron:11", WeightSpec::GAPBS);
    let expected = dijkstra(&graph, 1);
    let options = SsspOptions::default();
    let (prepared, _) =
        prepare(&graph, Backend::Gpu, &PlacementOptions::default(), workspace(&graph, &options).unwrap()).unwrap();
    let gpu_graph = prepared.gpu().unwrap();
    let mut buckets = vec![];
    for delta in [1.0, 16.0, 300.0, 1e9] {
        for strategy in bucketed() {
            let options = SsspOptions { delta: Some(delta), strategy, ..options };
            let (run, trace) = shortest_paths_traced(gpu_graph, 1, &options).unwrap();
            check(&graph, 1, &run, &expected, &format!("delta {delta}, {strategy:?}"));
            assert_eq!(trace.delta, delta);
            buckets.push(trace.buckets);
        }
    }
    // Per width, one count a strategy: the narrowest's against the widest's.
    let strategies = bucketed().len();
    let (narrowest, widest) = (&buckets[..strategies], &buckets[buckets.len() - strategies..]);
    assert!(narrowest.iter().zip(widest).all(|(n, w)| n > w), "narrower buckets, more of them: {buckets:?}");
    assert!(widest.iter().all(|&w| w == 1), "one bucket holds everything: {buckets:?}");
    let bad = SsspOptions { delta: Some(0.0), ..options };
    let err = shortest_paths(gpu_graph, 1, &bad).unwrap_err().to_string();
    assert!(err.contains("delta must be a positive"), "{err}");
}

/// The trace of every strategy: records in order, their relaxations summing to the run's, times
/// never going back; delta-stepping's buckets settle every reached vertex once. Then the bench's
/// `--trace` payload on the GPU, which carries the first root's.
#[test]
fn traces_add_up_to_their_runs_and_come_in_order() {
    if gpu_or_skip("traces_add_up_to_their_runs_and_come_in_order").is_none() {
        return;
    }
    for graph in [weighted("kron:11", WeightSpec::GAPBS), weighted("grid2d:40", WeightSpec::GAPBS)] {
        for strategy in strategies() {
            let options = SsspOptions { strategy, ..SsspOptions::default() };
            let (prepared, _) =
                prepare(&graph, Backend::Gpu, &PlacementOptions::default(), workspace(&graph, &options).unwrap())
                    .unwrap();
            let (run, trace) = shortest_paths_traced(prepared.gpu().unwrap(), 1, &options).unwrap();
            let label = format!("{strategy:?} on {} vertices", graph.num_vertices());
            assert!(!trace.records.is_empty(), "{label}");
            assert!(trace.records.len() < warpath::sssp::gpu::TRACE_BUCKETS, "{label}: every record kept");
            let relaxed: u64 = trace.records.iter().map(|r| r.relaxations).sum();
            assert_eq!(relaxed, run.relaxations, "{label}: the records' relaxations are the run's");
            assert!(trace.records.windows(2).all(|w| w[0].index < w[1].index), "{label}: {:?}", trace.records);
            assert!(trace.records.windows(2).all(|w| w[0].ns <= w[1].ns), "{label}: {:?}", trace.records);
            match strategy {
                bucketed if bucketed.is_bucketed() => {
                    assert_eq!(trace.buckets as usize, trace.records.len(), "{label}");
                    assert!(trace.delta > 0.0, "{label}");
                }
                _ => assert_eq!(trace.steps as usize, trace.records.len(), "{label}"),
            }
            if strategy == SsspStrategy::DeltaStepping {
                let settled: u64 = trace.records.iter().map(|r| r.vertices).sum();
                assert_eq!(settled, run.distances.reached(), "{label}: each reached vertex settled once");
            }
        }
    }

    use warpath::bench::sssp::run_sssp_bench;
    use warpath::bench::BenchOptions;
    use warpath::sssp::PathFinder;
    let graph = weighted("kron:12", WeightSpec::GAPBS);
    let options = SsspOptions { strategy: SsspStrategy::DeltaStepping, ..SsspOptions::default() };
    let finder = PathFinder::new(&graph, Backend::Gpu, &options).unwrap();
    let bench = BenchOptions { trials: 3, seed: 5, trace: true, traced: 0 };
    let run = run_sssp_bench(&graph, &finder, options, &bench, &mut |_| {}).unwrap();
    let trace = run.payload.trace.expect("the GPU's bench carries a trace");
    assert_eq!(Some(trace.source), run.trials[0].source, "the first root's");
    assert_eq!((trace.step.as_str(), trace.strategy.as_str()), ("bucket", "delta-stepping"));
    assert_eq!(trace.records.iter().map(|r| r.relaxations).sum::<u64>(), trace.relaxations);
    assert_eq!(trace.records.iter().map(|r| r.vertices).sum::<u64>(), run.trials[0].details.reached);
    // Integer weights of at least 1 on 4,096 vertices: the parents ride in the distance words.
    assert!(trace.parents_packed && trace.parent_passes == 0 && trace.time_ms > 0.0, "{trace:?}");
}

/// Runs delta-stepping and near-far at the GPU's own width and a few given ones from `source`,
/// each against Dijkstra.
fn check_widths(graph: &Graph, source: u32, widths: &[Option<f64>], what: &str) {
    let expected = dijkstra(graph, source);
    let options = SsspOptions::default();
    let (prepared, _) =
        prepare(graph, Backend::Gpu, &PlacementOptions::default(), workspace(graph, &options).unwrap()).unwrap();
    let gpu_graph = prepared.gpu().unwrap();
    for &delta in widths {
        for strategy in bucketed() {
            let options = SsspOptions { delta, strategy, ..options };
            let label = format!("{what}, source {source}, delta {delta:?}, {strategy:?}");
            let run = shortest_paths(gpu_graph, source, &options).unwrap_or_else(|e| panic!("{label}: {e}"));
            check(graph, source, &run, &expected, &label);
        }
    }
}

/// Hubs whose lists pass every long-list threshold of the delta-stepping kernel: 32 and 256
/// edges (shared out to the whole grid) and `SMALL_QUEUE_EDGES` (so no step holding one runs on
/// block 0 alone), in light rounds and heavy phases, with more hubs in one step than a window
/// of the grid-shared gathering holds (32), and leaves chained to each other so their distances
/// fall more than once.
#[test]
fn hubs_above_the_long_list_thresholds_match_dijkstra() {
    if gpu_or_skip("hubs_above_the_long_list_thresholds_match_dijkstra").is_none() {
        return;
    }
    use warpath_interface::sssp::{SHARED_LIST_EDGES, SMALL_QUEUE_EDGES, SMALL_STEP_SHARED_LIST_EDGES};
    let hubs = 40u32;
    let leaves_of = |h: u32| 20 + 150 * h;
    let mut edges = vec![];
    let mut weights = vec![];
    let mut next = hubs + 1;
    let mut degrees = vec![];
    for h in 1..=hubs {
        edges.push((0, h));
        weights.push(h);
        for _ in 0..leaves_of(h) {
            edges.push((h, next));
            weights.push(1 + next % 255);
            // Each leaf chained to the next one, across hubs too.
            edges.push((next, next + 1));
            weights.push(3);
            next += 1;
        }
        degrees.push(leaves_of(h) as u64);
    }
    let graph = built(next as u64 + 1, edges, Some(Weights::U32(weights)), true);
    assert!(degrees.iter().any(|&d| (SMALL_STEP_SHARED_LIST_EDGES..SHARED_LIST_EDGES).contains(&d)));
    assert!(degrees.iter().any(|&d| d > SMALL_QUEUE_EDGES), "a hub alone outgrows a small step");
    // The hubs' step (the center's neighbors) registers every hub: more entries than a window.
    assert!(degrees.iter().all(|&d| d >= SMALL_STEP_SHARED_LIST_EDGES) && degrees.len() > 32);
    check_all(&graph, "hubs", &[Placement::Device]);
    for source in [0, 7, hubs + 5, next - 1] {
        check_widths(&graph, source, &[None, Some(1.0), Some(64.0), Some(1e9)], "hubs");
    }
    // A star whose one hub alone outgrows a small step, from the hub and from a leaf.
    let leaves = 3 * SMALL_QUEUE_EDGES as u32;
    let star_edges: Vec<(u32, u32)> = (1..=leaves).map(|v| (0, v)).collect();
    let star_weights = Weights::U32((1..=leaves).map(|v| 1 + v % 200).collect());
    let star = built(leaves as u64 + 1, star_edges, Some(star_weights), true);
    for source in [0, leaves / 2] {
        check_widths(&star, source, &[None, Some(1.0), Some(100.0), Some(1e9)], "star");
    }
}

/// A long path: hundreds of thousands of steps, nearly all on block 0 alone, and the GPU's
/// width for low-degree graphs (twice the plain rule's) reported as the run used it.
#[test]
fn a_long_path_runs_its_steps_on_block_zero_and_matches_dijkstra() {
    if gpu_or_skip("a_long_path_runs_its_steps_on_block_zero_and_matches_dijkstra").is_none() {
        return;
    }
    let n = 200_000u32;
    let edges: Vec<(u32, u32)> = (0..n - 1).map(|v| (v, v + 1)).collect();
    let weights = Weights::U32((0..n - 1).map(|v| 1 + v % 9).collect());
    let graph = built(n as u64, edges, Some(weights), true);
    check_widths(&graph, 0, &[None, Some(9.0)], "long path");
    check_widths(&graph, n / 2, &[None], "long path");
    let options = SsspOptions::default();
    let (prepared, _) =
        prepare(&graph, Backend::Gpu, &PlacementOptions::default(), workspace(&graph, &options).unwrap()).unwrap();
    let gpu_graph = prepared.gpu().unwrap();
    let (run, trace) = shortest_paths_traced(gpu_graph, 0, &options).unwrap();
    check(&graph, 0, &run, &dijkstra(&graph, 0), "long path, traced");
    assert_eq!(trace.delta, warpath::sssp::gpu::delta(gpu_graph, &options).unwrap(), "the width reported is the run's");
    // Average weight 5, average out-degree just under 2: 2 * 32 * 5 / 2, rounded up.
    let average_weight = (0..n - 1).map(|v| 1 + v % 9).map(f64::from).sum::<f64>() / (n - 1) as f64;
    let average_degree = 2.0 * (n - 1) as f64 / n as f64;
    assert_eq!(trace.delta, (2.0 * 32.0 * average_weight / average_degree).ceil(), "{trace:?}");
    assert!(trace.small_runs > 0 && trace.steps as u64 > trace.buckets as u64, "{} steps", trace.steps);
}

/// Adaptive bucket widths (`adaptive_delta`), for delta-stepping and for near-far: Dijkstra's
/// distances and a shortest-path tree on graphs with hubs, float and integer weights and zero
/// weights, with widths between 1 and 16 times delta (near-far's tail up to 1,024 with its
/// default growth); delta-stepping's buckets widen on a long
/// path, whose rounds hold a vertex or two, near-far's in a Kronecker graph's tail, whose
/// buckets relax less and less; with fixed widths none does.
#[test]
fn adaptive_bucket_widths_match_dijkstra_and_widen_where_little_is_in_flight() {
    if gpu_or_skip("adaptive_bucket_widths_match_dijkstra_and_widen_where_little_is_in_flight").is_none() {
        return;
    }
    let n = 20_000u32;
    let path_edges: Vec<(u32, u32)> = (0..n - 1).map(|v| (v, v + 1)).collect();
    let path_weights = Weights::U32((0..n - 1).map(|v| 1 + v % 9).collect());
    let graphs = [
        ("kron:12 u32", weighted("kron:12", WeightSpec::GAPBS)),
        ("grid2d:80 f32", weighted("grid2d:80", WeightSpec::Graph500)),
        ("grid2d:80 u32", weighted("grid2d:80", WeightSpec::GAPBS)),
        ("urand:10 zero weights", weighted("urand:10", WeightSpec::Uniform { lo: 0, hi: 2 })),
        ("long path", built(n as u64, path_edges, Some(path_weights), true)),
    ];
    for (what, graph) in &graphs {
        for strategy in [SsspStrategy::DeltaStepping, SsspStrategy::NearFar] {
            let adaptive = SsspOptions { strategy, adaptive_delta: true, ..SsspOptions::default() };
            let (prepared, _) =
                prepare(graph, Backend::Gpu, &PlacementOptions::default(), workspace(graph, &adaptive).unwrap())
                    .unwrap();
            let gpu_graph = prepared.gpu().unwrap();
            for source in [0, graph.num_vertices() as u32 / 2] {
                let expected = dijkstra(graph, source);
                for distances_only in [false, true] {
                    let options = SsspOptions { distances_only, ..adaptive };
                    let label = format!(
                        "{what}, {strategy:?}, adaptive widths, source {source}, distances only {distances_only}"
                    );
                    let (run, trace) = shortest_paths_traced(gpu_graph, source, &options).unwrap();
                    check(graph, source, &run, &expected, &label);
                    // Near-far's tail may grow up to MAX_TAIL_SPAN (`tail_growth`, 8 on dense
                    // graphs by default).
                    let widest = if strategy == SsspStrategy::NearFar { MAX_TAIL_SPAN } else { MAX_SPAN };
                    assert!(
                        trace.records.iter().all(|r| (1..=widest).contains(&r.span)),
                        "{label}: {:?}",
                        trace.records
                    );
                }
            }
            let widest = |options: &SsspOptions| {
                let (_, trace) = shortest_paths_traced(gpu_graph, 0, options).unwrap();
                trace.records.iter().map(|r| r.span).max().unwrap()
            };
            let fixed = SsspOptions { strategy, adaptive_delta: false, ..SsspOptions::default() };
            assert_eq!(widest(&fixed), 1, "{what}, {strategy:?}: fixed widths stay at delta");
            let widens = match strategy {
                SsspStrategy::NearFar => *what == "kron:12 u32",
                _ => *what == "long path",
            };
            if widens {
                assert!(widest(&adaptive) > 1, "{what}, {strategy:?}: the buckets widen");
            }
        }
    }
}

/// An unweighted graph with `--compressed`: shortest paths read plain lists, so the engine
/// treats it as it treats a weighted one: the GPU refuses it with the reason, and `auto` falls
/// back to the CPU with that reason as a warning, and runs.
#[test]
fn compressed_placement_of_an_unweighted_graph_falls_back_to_the_cpu() {
    if gpu_or_skip("compressed_placement_of_an_unweighted_graph_falls_back_to_the_cpu").is_none() {
        return;
    }
    use warpath::sssp::PathFinder;
    let graph = generate(&"kron:10".parse().unwrap(), 3).unwrap();
    let options = SsspOptions::default();
    let compressed = PlacementOptions { compressed: true, ..PlacementOptions::default() };
    let refused = PathFinder::with_placement(&graph, Backend::Gpu, &compressed, &options).err().expect("refused");
    assert!(refused.to_string().contains("compressed lists hold no edge weights"), "{refused}");
    let finder = PathFinder::with_placement(&graph, Backend::Auto, &compressed, &options).unwrap();
    assert!(finder.placed().is_none(), "on the CPU");
    assert!(
        finder.warnings().iter().any(|w| w.contains("compressed lists hold no edge weights")),
        "{:?}",
        finder.warnings()
    );
    let found = finder.run(0, &options).unwrap();
    check(&graph, 0, &found.result, &dijkstra(&graph, 0), "compressed, unweighted, on the CPU");
}

/// Graphs for near-far's rounds of the grid, with whether some round is big enough for the grid
/// (the small ones run on block 0): hubs, uniform float weights, zero weights and a mesh.
fn near_far_round_graphs() -> [(&'static str, Graph, bool); 4] {
    [
        ("kron:14 uniform:1:255", weighted("kron:14", WeightSpec::GAPBS), true),
        ("urand:14 graph500", weighted("urand:14", WeightSpec::Graph500), true),
        ("urand:10 zero weights", weighted("urand:10", WeightSpec::Uniform { lo: 0, hi: 2 }), false),
        ("grid2d:80 uniform:1:255", weighted("grid2d:80", WeightSpec::GAPBS), false),
    ]
}

/// Checks a run stopped at `reach` (a cutoff, or a target's distance): every vertex of
/// `reached` (with its exact distance) within it has that distance, the rest are unreached.
fn check_within_reach(run: &SsspRun, reached: &[(u32, f64)], reach: f64, label: &str) {
    for &(v, want) in reached {
        match run.distances.get(v as usize) {
            Some(got) => assert!(
                (got - want).abs() <= 1e-5 * want.max(1.0) && want <= reach * (1.0 + 1e-5),
                "{label}: vertex {v} at {got} against {want}"
            ),
            None => assert!(want >= reach * (1.0 - 1e-5), "{label}: vertex {v} at {want} left unreached"),
        }
    }
}

/// Deferred queueing (near-far's big rounds of the grid relax without awaiting their atomics,
/// then queue what they lowered in one pass over the marks): Dijkstra's distances and a
/// shortest-path tree whichever rounds defer (every round of the grid, none, the rule's, and a
/// middle threshold), with integer weights (parents packed in the distance words), float
/// weights (a parents pass) and zero weights, hubs and a mesh; every round of the grid defers
/// when asked to, and none when told never.
#[test]
fn deferred_queueing_matches_dijkstra_whichever_rounds_defer() {
    if gpu_or_skip("deferred_queueing_matches_dijkstra_whichever_rounds_defer").is_none() {
        return;
    }
    let graphs = near_far_round_graphs();
    for (what, graph, grid_rounds) in &graphs {
        let n = graph.num_vertices() as u32;
        let near_far = SsspOptions { strategy: SsspStrategy::NearFar, ..SsspOptions::default() };
        let (prepared, _) =
            prepare(graph, Backend::Gpu, &PlacementOptions::default(), workspace(graph, &near_far).unwrap()).unwrap();
        let gpu_graph = prepared.gpu().unwrap();
        let mut deferred_when_always = 0;
        for source in [0, n / 2, n - 1] {
            let expected = dijkstra(graph, source);
            for deferred_queueing in [
                DeferredQueueing::From(0),
                DeferredQueueing::Never,
                DeferredQueueing::Auto,
                DeferredQueueing::From(300),
            ] {
                for distances_only in [false, true] {
                    let options = SsspOptions { deferred_queueing, distances_only, ..near_far };
                    let label =
                        format!("{what}, source {source}, {deferred_queueing:?}, distances only {distances_only}");
                    let (run, trace) = shortest_paths_traced(gpu_graph, source, &options).unwrap();
                    check(graph, source, &run, &expected, &label);
                    match deferred_queueing {
                        DeferredQueueing::Never => assert_eq!(trace.deferred_rounds, 0, "{label}"),
                        DeferredQueueing::From(0) => deferred_when_always += trace.deferred_rounds,
                        _ => {}
                    }
                }
            }
        }
        if *grid_rounds {
            assert!(deferred_when_always > 0, "{what}: no round of the grid deferred when every one was to");
        }
    }
}

/// Deferred rounds relaxed in a launch of their own (`rounds_apart`): near-far's distances and
/// shortest-path tree whichever rounds run apart (every deferred round, none, the rule's, and a
/// middle threshold), in 8-byte words with parents packed or passed, and in 4-byte words; with
/// a target and a cutoff; every deferred round of the grid runs apart when asked to, and none
/// when told never.
#[test]
fn rounds_apart_match_dijkstra_whichever_rounds_run_apart() {
    if gpu_or_skip("rounds_apart_match_dijkstra_whichever_rounds_run_apart").is_none() {
        return;
    }
    let graphs = near_far_round_graphs();
    for (what, graph, grid_rounds) in &graphs {
        let n = graph.num_vertices() as u32;
        let near_far = SsspOptions {
            strategy: SsspStrategy::NearFar,
            deferred_queueing: DeferredQueueing::From(0),
            ..SsspOptions::default()
        };
        let (prepared, _) =
            prepare(graph, Backend::Gpu, &PlacementOptions::default(), workspace(graph, &near_far).unwrap()).unwrap();
        let gpu_graph = prepared.gpu().unwrap();
        let mut apart_when_always = 0;
        for source in [0, n / 2, n - 1] {
            let expected = dijkstra(graph, source);
            for rounds_apart in [RoundsApart::From(0), RoundsApart::Never, RoundsApart::Auto, RoundsApart::From(300)] {
                for distances_only in [false, true] {
                    let options = SsspOptions { rounds_apart, distances_only, ..near_far };
                    let label = format!("{what}, source {source}, {rounds_apart:?}, distances only {distances_only}");
                    let (run, trace) = shortest_paths_traced(gpu_graph, source, &options).unwrap();
                    check(graph, source, &run, &expected, &label);
                    assert!(trace.rounds_apart <= trace.deferred_rounds, "{label}");
                    match rounds_apart {
                        RoundsApart::Never => assert_eq!(trace.rounds_apart, 0, "{label}"),
                        RoundsApart::From(0) => {
                            assert_eq!(trace.rounds_apart, trace.deferred_rounds, "{label}");
                            apart_when_always += trace.rounds_apart;
                        }
                        _ => {}
                    }
                }
            }
            // A target and a cutoff stop a run whose rounds run apart: what lies within them
            // is exact, the rest unreached.
            let mut by_distance: Vec<(u32, f64)> =
                (0..n).filter_map(|v| expected.get(v as usize).map(|d| (v, d))).collect();
            by_distance.sort_by(|a, b| a.1.total_cmp(&b.1));
            let (middle_vertex, middle) = by_distance[by_distance.len() / 2];
            let cutoff = (by_distance[by_distance.len() - 1].1 / 2.0).floor();
            let apart = SsspOptions { rounds_apart: RoundsApart::From(0), ..near_far };
            for (variant, options, reach) in [
                ("target", SsspOptions { target: Some(middle_vertex), ..apart }, middle),
                ("cutoff", SsspOptions { cutoff: Some(cutoff), ..apart }, cutoff),
            ] {
                let label = format!("{what}, source {source}, rounds apart, {variant} at {reach}");
                let (run, _) = shortest_paths_traced(gpu_graph, source, &options).unwrap();
                check_within_reach(&run, &by_distance, reach, &label);
            }
        }
        // Tail buckets that grow faster (`tail_growth`): the same distances, and spans within
        // their bounds.
        for tail_growth in [2, 4, 8] {
            let options = SsspOptions { tail_growth: Some(tail_growth), ..near_far };
            for source in [0, n / 2] {
                let label = format!("{what}, source {source}, tail growth {tail_growth}");
                let (run, trace) = shortest_paths_traced(gpu_graph, source, &options).unwrap();
                check(graph, source, &run, &dijkstra(graph, source), &label);
                let widest = if tail_growth > 2 { MAX_TAIL_SPAN } else { MAX_SPAN };
                assert!(trace.records.iter().all(|r| r.span >= 1 && r.span <= widest), "{label}");
            }
        }
        if *grid_rounds {
            assert!(apart_when_always > 0, "{what}: no deferred round ran apart when every one was to");
        }
    }
}

/// 4-byte distance words (`narrow_words`, the default for distances only): delta-stepping and
/// near-far keep them where every distance fits (integer weights whose largest times `n - 1`
/// stays below 2^32, or float weights), on graphs whose steps run on block 0 alone (fused, and
/// as one asynchronous worklist), on the grid (queueing and deferred), with hubs' shared lists,
/// with a cutoff and a target; never with parents, never where a distance could overflow them,
/// and never when turned off, all against Dijkstra.
#[test]
fn narrow_distance_words_match_dijkstra_where_every_distance_fits() {
    if gpu_or_skip("narrow_distance_words_match_dijkstra_where_every_distance_fits").is_none() {
        return;
    }
    let n = 5_000u32;
    let path_edges: Vec<(u32, u32)> = (0..n - 1).map(|v| (v, v + 1)).collect();
    let heavy_path = Weights::U32((0..n - 1).map(|v| (1 << 30) + v).collect());
    let graphs = [
        ("kron:14 u32", weighted("kron:14", WeightSpec::GAPBS), true),
        ("urand:12 f32", weighted("urand:12", WeightSpec::Graph500), true),
        ("grid2d:60 u32", weighted("grid2d:60", WeightSpec::GAPBS), true),
        ("urand:10 zero weights", weighted("urand:10", WeightSpec::Uniform { lo: 0, hi: 2 }), true),
        ("path of 2^30 weights", built(n as u64, path_edges, Some(heavy_path), true), false),
    ];
    for (what, graph, fits) in &graphs {
        let last = graph.num_vertices() as u32 - 1;
        for strategy in [SsspStrategy::DeltaStepping, SsspStrategy::NearFar] {
            let base = SsspOptions { strategy, distances_only: true, ..SsspOptions::default() };
            let (prepared, _) =
                prepare(graph, Backend::Gpu, &PlacementOptions::default(), workspace(graph, &base).unwrap()).unwrap();
            let gpu_graph = prepared.gpu().unwrap();
            for source in [0, last / 2] {
                let expected = dijkstra(graph, source);
                let variants = [
                    ("default", base, *fits),
                    ("wide", SsspOptions { narrow_words: false, ..base }, false),
                    ("with parents", SsspOptions { distances_only: false, ..base }, false),
                    ("deferred", SsspOptions { deferred_queueing: DeferredQueueing::From(0), ..base }, *fits),
                    ("never deferred", SsspOptions { deferred_queueing: DeferredQueueing::Never, ..base }, *fits),
                    ("async fusion", SsspOptions { fusion: Fusion::Async, ..base }, *fits),
                    ("no fusion", SsspOptions { fusion: Fusion::Off, ..base }, *fits),
                ];
                for (variant, options, narrow) in variants {
                    let label = format!("{what}, {strategy:?}, source {source}, {variant}");
                    let (run, trace) = shortest_paths_traced(gpu_graph, source, &options).unwrap();
                    check(graph, source, &run, &expected, &label);
                    assert_eq!(trace.narrow_words, narrow, "{label}");
                }
                // A cutoff and a target stop the run early in narrow words too: what lies
                // within them is exact, the rest unreached.
                let reached: Vec<(u32, f64)> =
                    (0..=last).filter_map(|v| expected.get(v as usize).map(|d| (v, d))).collect();
                let mut by_distance = reached.clone();
                by_distance.sort_by(|a, b| a.1.total_cmp(&b.1));
                let (middle_vertex, middle) = by_distance[by_distance.len() / 2];
                let cutoff = (by_distance[by_distance.len() - 1].1 / 2.0).floor();
                for (variant, options, reach) in [
                    ("cutoff", SsspOptions { cutoff: Some(cutoff), ..base }, cutoff),
                    ("target", SsspOptions { target: Some(middle_vertex), ..base }, middle),
                ] {
                    let label = format!("{what}, {strategy:?}, source {source}, {variant} at {reach}");
                    let (run, trace) = shortest_paths_traced(gpu_graph, source, &options).unwrap();
                    assert_eq!(trace.narrow_words, *fits, "{label}");
                    check_within_reach(&run, &reached, reach, &label);
                }
            }
        }
    }
}

/// Bucket fusion (block 0's small light steps go on in rounds of its own, their queue in shared
/// memory, or as one asynchronous worklist there) gives Dijkstra's distances, fused or not, for
/// delta-stepping and near-far, integer and float weights, on meshes whose buckets overflow the
/// shared queue and on the road dataset; and it runs: the fused runs, in rounds or
/// asynchronous, take fewer steps of the bucket loop.
#[test]
fn bucket_fusion_matches_dijkstra_and_takes_fewer_steps() {
    if gpu_or_skip("bucket_fusion_matches_dijkstra_and_takes_fewer_steps").is_none() {
        return;
    }
    let mut graphs = vec![
        ("grid2d:300 uniform:1:255".to_string(), weighted("grid2d:300", WeightSpec::GAPBS)),
        ("grid2d:120 graph500".to_string(), weighted("grid2d:120", WeightSpec::Graph500)),
        ("grid3d:30 uniform:1:255".to_string(), weighted("grid3d:30", WeightSpec::GAPBS)),
    ];
    if let Some(dir) = datasets_dir("bucket_fusion_matches_dijkstra_and_takes_fewer_steps") {
        for file in dataset_files(&dir).into_iter().filter(|f| f.to_string_lossy().contains("USA-road")) {
            let graph = read_graph(&file, &ReadOptions::default()).unwrap();
            graphs.push((file.display().to_string(), graph));
        }
    }
    for (what, graph) in &graphs {
        let n = graph.num_vertices() as u32;
        for strategy in [SsspStrategy::DeltaStepping, SsspStrategy::NearFar] {
            let fused = SsspOptions { strategy, ..SsspOptions::default() };
            let unfused = SsspOptions { fusion: Fusion::Off, ..fused };
            let asynchronous = SsspOptions { fusion: Fusion::Async, ..fused };
            let (prepared, _) =
                prepare(graph, Backend::Gpu, &PlacementOptions::default(), workspace(graph, &fused).unwrap()).unwrap();
            let gpu_graph = prepared.gpu().unwrap();
            for source in [0, n / 2] {
                let expected = dijkstra(graph, source);
                let label = format!("{what}, {strategy:?}, source {source}");
                let (run, fused_trace) = shortest_paths_traced(gpu_graph, source, &fused).unwrap();
                check(graph, source, &run, &expected, &format!("{label}, fused"));
                let (run, unfused_trace) = shortest_paths_traced(gpu_graph, source, &unfused).unwrap();
                check(graph, source, &run, &expected, &format!("{label}, unfused"));
                let (run, async_trace) = shortest_paths_traced(gpu_graph, source, &asynchronous).unwrap();
                check(graph, source, &run, &expected, &format!("{label}, asynchronous"));
                for (how, trace) in [("fused", &fused_trace), ("asynchronous", &async_trace)] {
                    assert!(
                        trace.steps < unfused_trace.steps,
                        "{label}: {} steps {how}, {} unfused",
                        trace.steps,
                        unfused_trace.steps
                    );
                }
            }
        }
    }
}

#[test]
fn several_sources_cutoffs_targets_and_paths_match_dijkstra_on_every_strategy() {
    use warpath::sssp::PathFinder;
    if gpu_or_skip("several_sources_cutoffs_targets_and_paths_match_dijkstra_on_every_strategy").is_none() {
        return;
    }
    let graphs = [
        ("kron:10 u32", weighted("kron:10", WeightSpec::GAPBS)),
        ("grid2d:40 f32", weighted("grid2d:40", WeightSpec::Graph500)),
        ("urand:10 zero weights", weighted("urand:10", WeightSpec::Uniform { lo: 0, hi: 2 })),
        ("grid2d:30 unweighted", generate(&"grid2d:30".parse().unwrap(), 7).unwrap()),
    ];
    for (what, graph) in &graphs {
        for strategy in strategies() {
            let options = SsspOptions { strategy, ..SsspOptions::default() };
            let finder = PathFinder::new(graph, Backend::Gpu, &options).unwrap();
            common::check_sssp_queries(graph, &finder, strategy, what);
        }
    }
}

#[test]
fn a_finder_keeps_its_arrays_between_runs_and_downloads_only_what_was_asked() {
    use warpath::sssp::PathFinder;
    if gpu_or_skip("a_finder_keeps_its_arrays_between_runs_and_downloads_only_what_was_asked").is_none() {
        return;
    }
    for (what, graph) in [
        ("kron:12 u32", weighted("kron:12", WeightSpec::GAPBS)),
        ("grid2d:60 f32", weighted("grid2d:60", WeightSpec::Graph500)),
    ] {
        let finder = PathFinder::new(&graph, Backend::Gpu, &SsspOptions::default()).unwrap();
        let n = graph.num_vertices() as u64;
        // The first run reads its results straight back, the later ones through pinned memory
        // into the vectors of the run before; strategies that keep no lists share the distances
        // with those that do.
        for (round, source) in [0u32, 7, 0, 123].into_iter().enumerate() {
            let expected = dijkstra(&graph, source);
            for strategy in [SsspStrategy::DeltaStepping, SsspStrategy::NodeBased] {
                for only in [false, true] {
                    let options = SsspOptions { strategy, distances_only: only, ..SsspOptions::default() };
                    let found = finder.run(source, &options).unwrap();
                    let label = format!("{what}, run {round}, {strategy}, source {source}, distances only {only}");
                    check(&graph, source, &found.result, &expected, &label);
                    // Delta-stepping on integer weights keeps the parents in the distance words.
                    let packed = strategy == SsspStrategy::DeltaStepping && what.ends_with("u32");
                    assert_eq!(found.download.bytes, if only || packed { 8 * n } else { 12 * n }, "{label}");
                    assert!(found.end_to_end_time >= found.time, "{label}");
                    // The next run reads its results into this one's vectors.
                    finder.recycle(found.result);
                }
            }
        }
    }
}

#[test]
fn pinned_runs_are_split_on_the_device_and_read_in_place() {
    use warpath::sssp::PathFinder;
    if gpu_or_skip("pinned_runs_are_split_on_the_device_and_read_in_place").is_none() {
        return;
    }
    let unweighted = generate(&"kron:10".parse().unwrap(), 3).unwrap();
    for (what, graph) in [
        ("kron:12 u32", weighted("kron:12", WeightSpec::GAPBS)),
        ("grid2d:60 f32", weighted("grid2d:60", WeightSpec::Graph500)),
        ("kron:10 unweighted", unweighted),
    ] {
        let finder = PathFinder::new(&graph, Backend::Gpu, &SsspOptions::default()).unwrap();
        let n = graph.num_vertices() as u64;
        let float = what.ends_with("f32");
        for (round, source) in [0u32, 7, 0].into_iter().enumerate() {
            let expected = dijkstra(&graph, source);
            for strategy in [SsspStrategy::DeltaStepping, SsspStrategy::NearFar, SsspStrategy::NodeBased] {
                for only in [false, true] {
                    let options = SsspOptions { strategy, distances_only: only, ..SsspOptions::default() };
                    let label = format!("{what}, run {round}, {strategy}, source {source}, distances only {only}");
                    let pinned = finder.run_pinned(source, &options).unwrap_or_else(|e| panic!("{label}: {e}"));
                    // Only what was asked crosses the bus, already split: distances of their
                    // kind (8 or 4 bytes) and 4-byte parents.
                    let wanted = if float { 4 } else { 8 } + if only { 0 } else { 4 };
                    assert_eq!(pinned.run.download.bytes, wanted * n, "{label}");
                    assert!(pinned.run.end_to_end_time >= pinned.run.time, "{label}");
                    assert!(pinned.run.result.distances.is_empty(), "{label}: the results are in pinned memory");
                    assert_eq!(pinned.parents().unwrap().is_none(), only, "{label}");
                    // While these are held the next pinned run is refused, a run into vectors not.
                    let refused = finder.run_pinned(source, &options).err().expect("refused while held");
                    assert!(refused.to_string().contains("still held"), "{label}: {refused}");
                    check(&graph, source, &finder.run(source, &options).unwrap().result, &expected, &label);
                    let in_place = pinned.distances().unwrap().copy_into(Distances::default());
                    let parents = pinned.parents().unwrap().map(<[u32]>::to_vec);
                    let found = pinned.into_run(SsspRun::default()).unwrap();
                    assert_eq!(found.result.distances, in_place, "{label}");
                    assert_eq!(found.result.parents, parents.unwrap_or_default(), "{label}");
                    check(&graph, source, &found.result, &expected, &label);
                }
            }
        }
        // A cutoff is cut on the host: its run keeps its results in vectors, as `run` gives them
        // (the parents of two runs may differ where a vertex has two tight in-edges, so only
        // which vertices have one is compared).
        let options = SsspOptions { cutoff: Some(40.0), ..SsspOptions::default() };
        let held = finder.run_pinned(0, &options).unwrap();
        assert!(!held.run.result.distances.is_empty(), "{what}, cutoff: results in the run's vectors");
        let plain = finder.run(0, &options).unwrap().result;
        assert_eq!(held.distances().unwrap(), plain.distances.view(), "{what}, cutoff");
        let has_parent = |parents: &[u32]| parents.iter().map(|&p| p != UNREACHED).collect::<Vec<_>>();
        assert_eq!(has_parent(held.parents().unwrap().unwrap()), has_parent(&plain.parents), "{what}, cutoff");
    }
}

#[test]
fn delta_stepping_stops_early_at_a_cutoff_or_a_target() {
    use warpath::sssp::PathFinder;
    if gpu_or_skip("delta_stepping_stops_early_at_a_cutoff_or_a_target").is_none() {
        return;
    }
    // A long grid: the corner's neighbourhood is a sliver of it.
    for graph in [weighted("grid2d:200", WeightSpec::GAPBS), weighted("grid2d:200", WeightSpec::Graph500)] {
        for strategy in bucketed() {
            let options = SsspOptions { strategy, ..SsspOptions::default() };
            let finder = PathFinder::new(&graph, Backend::Gpu, &options).unwrap();
            let whole = finder.run(0, &options).unwrap().result;
            let nearby = 201; // one step diagonally from the corner
            let reach = whole.distances.get(nearby).unwrap() * 3.0;
            let reach = if matches!(whole.distances, Distances::Int(_)) { reach.floor() } else { reach };
            for limited in
                [SsspOptions { cutoff: Some(reach), ..options }, SsspOptions { target: Some(nearby as u32), ..options }]
            {
                let run = finder.run(0, &limited).unwrap().result;
                warpath::sssp::verify::validate(&graph, &run).unwrap();
                let expected = warpath::sssp::dijkstra_from(&graph, &[0], &limited);
                warpath::sssp::verify::compare_with_reference(&graph, &run.distances, &expected.distances).unwrap();
                assert!(
                    run.relaxations * 10 < whole.relaxations,
                    "{strategy}: {} relaxations to {reach:?}, {} for the whole grid",
                    run.relaxations,
                    whole.relaxations
                );
            }
        }
    }
}

#[test]
fn the_cluster_strategy_needs_hopper() {
    let Some(gpu) = gpu_or_skip("the_cluster_strategy_needs_hopper") else {
        return;
    };
    let (major, minor) = gpu.compute_capability();
    if major >= 9 {
        common::say_skipping(
            "the_cluster_strategy_needs_hopper",
            &format!("this GPU is {major}.{minor}: the other tests run the cluster strategy on it"),
        );
        return;
    }
    let graph = weighted("grid2d:20", WeightSpec::GAPBS);
    let options = SsspOptions { strategy: SsspStrategy::Cluster, ..SsspOptions::default() };
    let (prepared, _) =
        prepare(&graph, Backend::Gpu, &PlacementOptions::default(), workspace(&graph, &options).unwrap()).unwrap();
    let error = shortest_paths(prepared.gpu().unwrap(), 0, &options).unwrap_err().to_string();
    assert!(error.contains("compute capability 9.0"), "{error}");
}

#[test]
fn auto_takes_the_cluster_on_hopper_roads_and_meshes_and_near_far_elsewhere() {
    use warpath::sssp::gpu::resolve;
    let Some(gpu) = gpu_or_skip("auto_takes_the_cluster_on_hopper_roads_and_meshes_and_near_far_elsewhere") else {
        return;
    };
    let hopper = gpu.compute_capability().0 >= 9;
    let options = SsspOptions::default();
    assert_eq!(options.strategy, SsspStrategy::Auto);
    for (spec, mesh) in [("grid2d:100", true), ("kron:10", false)] {
        let graph = weighted(spec, WeightSpec::GAPBS);
        let (prepared, _) =
            prepare(&graph, Backend::Gpu, &PlacementOptions::default(), workspace(&graph, &options).unwrap()).unwrap();
        let gpu_graph = prepared.gpu().unwrap();
        let took = resolve(gpu_graph, &options).strategy;
        let expected = if mesh && hopper { SsspStrategy::Cluster } else { SsspStrategy::NearFar };
        assert_eq!(took, expected, "{spec}");
        let explicit = SsspOptions { strategy: SsspStrategy::DeltaStepping, ..options };
        assert_eq!(resolve(gpu_graph, &explicit).strategy, SsspStrategy::DeltaStepping, "asked for, kept");
        let run = shortest_paths(gpu_graph, 0, &options).unwrap();
        check(&graph, 0, &run, &dijkstra(&graph, 0), &format!("{spec}, auto"));
    }
}
