//! The GPU BFS against the sequential CPU reference: identical distances, and parents that
//! pass Graph500 validation, on generated graphs, special shapes and the real datasets; the
//! distances-only variant of every persistent run must give the same distances and no parents.
//! Skips, saying why, on machines without a CUDA device.

mod common;

use common::{dataset_files, datasets_dir, gpu_or_skip};
use warpath::bfs::cpu_reference::bfs_sequential;
use warpath::bfs::gpu::edge_queue::GpuEdgeQueue;
use warpath::bfs::gpu::per_level::GpuTopDown;
use warpath::bfs::gpu::{
    cluster_refusal, BottomUpBalance, BottomUpLaunch, GpuCluster, GpuPersistent, PersistentParams, PersistentRun,
};
use warpath::bfs::multi_source::ManyDirections;
use warpath::bfs::verify::{validate_bfs_tree, validate_distances};
use warpath::bfs::{
    random_sources, switch_inputs, Backend, BfsResult, Direction, FrontierConversion, FrontierOutput, GpuKernel,
    GpuOptions, SwitchRule, Switching, TopDownStrategy, Traverser,
};
use warpath::engine::{BackendUsed, ListHeadsKept, PlacementOptions};
use warpath::formats::{read_graph, ReadOptions};
use warpath::generate::{generate, GeneratorSpec};
use warpath::gpu::{empty_lists_bytes, GpuContext, Placement};
use warpath::graph::{CompressedGraph, EdgeList, GraphBuilder, ListHeads};
use warpath::Graph;

/// The persistent kernel's variants: every combination of bottom-up steps and the
/// small-frontier path, plus switching thresholds that force bottom-up almost at once (from
/// the first level: the source alone is a growing frontier), under each bottom-up balancing;
/// and the asynchronous bottom-up, under Beamer's thresholds (where it labels ahead on large
/// frontiers only and may force one extra bottom-up level) and bottom-up from the first level
/// to the last (where it labels ahead in every pass; the eager thresholds' tiny beta would
/// never count a frontier as large, so they would not exercise it).
fn persistent_variants() -> Vec<(&'static str, PersistentParams)> {
    let default = PersistentParams::default();
    let beamer = PersistentParams::beamer();
    let eager = PersistentParams { alpha: 1e9, beta: 1e-9, ..beamer };
    let asynchronous = PersistentParams { async_bottom_up: true, ..default };
    let always_async = PersistentParams { alpha: 1e9, beta: 1e9, async_bottom_up: true, ..beamer };
    let xbfs = PersistentParams { switch_rule: SwitchRule::Xbfs, alpha: 0.1, ..default };
    let apart = BottomUpLaunch::Apart;
    let every = BottomUpLaunch::Every;
    vec![
        ("persistent", default),
        ("persistent, beamer rule", beamer),
        ("persistent, beamer rule, async bottom-up", PersistentParams { async_bottom_up: true, ..beamer }),
        ("persistent top-down only", PersistentParams { bottom_up: false, ..default }),
        ("persistent without small path", PersistentParams { small_frontiers: false, ..default }),
        (
            "persistent top-down, no small path",
            PersistentParams { bottom_up: false, small_frontiers: false, ..default },
        ),
        ("persistent eager bottom-up", eager),
        ("persistent, thread balance", PersistentParams { bottom_up_balance: BottomUpBalance::Thread, ..default }),
        ("persistent, warp balance", PersistentParams { bottom_up_balance: BottomUpBalance::Warp, ..default }),
        (
            "persistent eager bottom-up, thread balance",
            PersistentParams { bottom_up_balance: BottomUpBalance::Thread, ..eager },
        ),
        (
            "persistent eager bottom-up, warp balance",
            PersistentParams { bottom_up_balance: BottomUpBalance::Warp, ..eager },
        ),
        ("persistent, async bottom-up", asynchronous),
        (
            "persistent, warp balance, async bottom-up",
            PersistentParams { bottom_up_balance: BottomUpBalance::Warp, ..asynchronous },
        ),
        ("persistent always bottom-up, async", always_async),
        (
            "persistent always bottom-up, async, thread balance",
            PersistentParams { bottom_up_balance: BottomUpBalance::Thread, ..always_async },
        ),
        (
            "persistent always bottom-up, async, warp balance",
            PersistentParams { bottom_up_balance: BottomUpBalance::Warp, ..always_async },
        ),
        ("persistent, fixed frontier generation", PersistentParams { adaptive_frontier: false, ..default }),
        ("persistent, xbfs rule, alpha 0.1", xbfs),
        ("persistent, beamer rule, fixed frontier generation", PersistentParams { adaptive_frontier: false, ..beamer }),
        (
            "persistent, xbfs rule, warp balance, async",
            PersistentParams { bottom_up_balance: BottomUpBalance::Warp, async_bottom_up: true, ..xbfs },
        ),
        (
            "persistent, xbfs rule, alpha 0.03",
            PersistentParams { switch_rule: SwitchRule::Xbfs, alpha: 0.03, ..default },
        ),
        (
            "persistent, thread balance, async bottom-up",
            PersistentParams { bottom_up_balance: BottomUpBalance::Thread, ..asynchronous },
        ),
        // alpha 0: every level's edge check is at least 0 x |E|, so bottom-up from the first.
        ("persistent, xbfs rule always bottom-up", PersistentParams { alpha: 0.0, ..xbfs }),
        // XBFS's double-scan bottom-up (device-resident graphs only: zero-copy runs must
        // refuse it), with the default rule, bottom-up from the first level to the last, and
        // eager switching both ways (which emits queues from double-scan levels).
        ("persistent, double-scan", PersistentParams { double_scan: true, ..default }),
        (
            "persistent, xbfs rule always bottom-up, double-scan",
            PersistentParams { alpha: 0.0, double_scan: true, ..xbfs },
        ),
        ("persistent eager bottom-up, double-scan", PersistentParams { double_scan: true, ..eager }),
        ("persistent, beamer rule, double-scan", PersistentParams { double_scan: true, ..beamer }),
        // Each bottom-up stretch's first level as a launch of its own (on every graph, where
        // `auto` splits only big ones): once a traversal, from the first level on, in stretches
        // that switch back and forth, under either frontier generation (static balance only:
        // the others always run inside). The small graphs' levels run word by word or in
        // chunks as `split_level_by_words` picks, so both split-level kernels run.
        ("persistent, bottom-up apart", PersistentParams { bottom_up_launch: apart, ..default }),
        ("persistent eager bottom-up, apart", PersistentParams { bottom_up_launch: apart, ..eager }),
        ("persistent, beamer rule, apart", PersistentParams { bottom_up_launch: apart, ..beamer }),
        (
            "persistent, xbfs rule always bottom-up, apart",
            PersistentParams { alpha: 0.0, bottom_up_launch: apart, ..xbfs },
        ),
        (
            "persistent, fixed frontier generation, apart",
            PersistentParams { adaptive_frontier: false, bottom_up_launch: apart, ..default },
        ),
        (
            "persistent without small path, apart",
            PersistentParams { small_frontiers: false, bottom_up_launch: apart, ..default },
        ),
        // Every bottom-up level apart: stretches of several bottom-up levels stop before each.
        ("persistent, every bottom-up level apart", PersistentParams { bottom_up_launch: every, ..default }),
        ("persistent eager bottom-up, every level apart", PersistentParams { bottom_up_launch: every, ..eager }),
        (
            "persistent, xbfs rule always bottom-up, every level apart",
            PersistentParams { alpha: 0.0, bottom_up_launch: every, ..xbfs },
        ),
    ]
}

/// The trace of a persistent run obeys the rules it claims: every level's direction is the
/// switching rule's verdict on the counters the level recorded (unless asynchronous bottom-up
/// may force one), each prediction is XBFS's lambda rule on those counters, and each frontier
/// was converted exactly when the level before wrote the other form.
fn check_trace_follows_the_rules(graph: &Graph, run: &PersistentRun, params: &PersistentParams, label: &str) {
    let switching = Switching {
        rule: params.switch_rule,
        alpha: params.alpha,
        beta: params.beta,
        n: graph.num_vertices() as u64,
        edges: graph.num_edges(),
        in_listed: graph.vertices_with_in_edges(),
    };
    let levels = &run.levels;
    for (i, level) in levels.iter().enumerate() {
        let inputs = switch_inputs(levels, i, switching.in_listed);
        let generation = level.generation.unwrap_or_else(|| panic!("{label}: level {i} has no generation"));
        let bottom_up = level.direction == Direction::BottomUp;
        if !params.bottom_up {
            assert!(!bottom_up, "{label}: level {i} went bottom-up");
        } else if !params.async_bottom_up {
            assert_eq!(bottom_up, switching.wants_bottom_up(&inputs), "{label}: level {i}: {inputs:?}");
        }
        let predicted = params.adaptive_frontier
            && params.bottom_up
            && !generation.alone
            && switching.predicts_switch(&inputs, bottom_up);
        assert_eq!(generation.predicted_switch, predicted, "{label}: level {i}'s prediction: {inputs:?}");
        let expected_output = match (bottom_up, predicted, params.double_scan) {
            (false, false, _) => FrontierOutput::ScanFree,
            (false, true, _) => FrontierOutput::SingleScan,
            (true, false, false) => FrontierOutput::Ballot,
            (true, true, false) => FrontierOutput::BallotAndQueue,
            (true, false, true) => FrontierOutput::DoubleScan,
            (true, true, true) => FrontierOutput::DoubleScanAndQueue,
        };
        assert_eq!(generation.output, expected_output, "{label}: level {i}");
        let previous_output = i.checked_sub(1).map(|p| levels[p].generation.unwrap().output);
        let (had_queue, had_bitmap) = match previous_output {
            None | Some(FrontierOutput::ScanFree) => (true, false),
            Some(FrontierOutput::SingleScan | FrontierOutput::Ballot | FrontierOutput::DoubleScan) => (false, true),
            Some(FrontierOutput::BallotAndQueue | FrontierOutput::DoubleScanAndQueue) => (true, true),
        };
        let expected_conversion = match bottom_up {
            false if !had_queue => Some(FrontierConversion::Packed),
            true if !had_bitmap => Some(FrontierConversion::Scattered),
            _ => None,
        };
        assert_eq!(generation.conversion, expected_conversion, "{label}: level {i}");
    }
}

fn check_result(graph: &Graph, result: &BfsResult, label: &str) {
    let expected = bfs_sequential(graph, result.source);
    assert_eq!(result.distances, expected.distances, "{label}: distances from {}", result.source);
    validate_bfs_tree(graph, result).unwrap_or_else(|e| panic!("{label}: from {}: {e}", result.source));
}

/// A distances-only result: no parents, the reference's distances, and distances that pass
/// the distance rules on their own.
fn check_distances_only(graph: &Graph, result: &BfsResult, label: &str) {
    assert!(!result.has_parents() && result.parents.is_empty(), "{label}: a distances-only run returns no parents");
    let expected = bfs_sequential(graph, result.source);
    assert_eq!(result.distances, expected.distances, "{label}: distances from {}", result.source);
    validate_distances(graph, result).unwrap_or_else(|e| panic!("{label}: from {}: {e}", result.source));
}

/// Runs every GPU BFS from each source and checks it against the CPU reference.
fn check_against_cpu(gpu: &GpuContext, graph: &Graph, sources: &[u32], label: &str) {
    let device_graph = gpu.upload_graph(graph).unwrap();
    let device_transpose = (!graph.is_undirected()).then(|| gpu.upload_graph(&graph.transpose()).unwrap());
    let inbound = device_transpose.as_ref().unwrap_or(&device_graph);
    let mut per_level = GpuTopDown::new(gpu, &device_graph).unwrap();
    let mut persistent = GpuPersistent::new(gpu, graph, &device_graph, inbound).unwrap();
    let max_out_degree = graph.max_degree();
    let mut distances_only =
        GpuPersistent::with_labels(gpu, graph, &device_graph, inbound, max_out_degree, true).unwrap();
    for &source in sources {
        check_result(graph, &per_level.run(source).unwrap().result, &format!("{label} (per-level kernel)"));
        for (variant, params) in persistent_variants() {
            let run = distances_only.run(source, params).unwrap();
            check_distances_only(graph, &run.result, &format!("{label} ({variant}, distances only)"));
            let run = persistent.run(source, params).unwrap();
            check_result(graph, &run.result, &format!("{label} ({variant})"));
            check_trace_follows_the_rules(graph, &run, &params, &format!("{label} ({variant})"));
            let traced: u64 = run.levels.iter().map(|level| level.frontier).sum();
            assert_eq!(
                traced,
                run.result.reached(),
                "{label} ({variant}): the trace's frontiers add up to the reached vertices"
            );
            if !params.bottom_up {
                assert!(
                    run.levels.iter().all(|l| l.direction == Direction::TopDown),
                    "{label} ({variant}) went bottom-up"
                );
                let read: u64 = run.levels.iter().map(|l| l.bytes_read).sum();
                let expected = 16 * run.result.reached() + 4 * run.result.edges_in_component(graph);
                assert_eq!(read, expected, "{label} ({variant}): bytes read top-down");
            }
        }
    }
    check_edge_queue_against_cpu(gpu, graph, &device_graph, sources, label);
    check_cluster_against_cpu(gpu, graph, &device_graph, sources, label);
    check_compressed_against_cpu(gpu, graph, sources, Placement::Device, label);
}

/// Whether the GPU has thread-block clusters (compute capability 9.0 or newer), which the
/// cluster kernel needs.
fn has_clusters(gpu: &GpuContext) -> bool {
    gpu.compute_capability().0 >= 9
}

/// Vertices claimed and out-edges held at each distance of a result: what each level of a
/// top-down traversal claims and expands.
fn per_distance(graph: &Graph, result: &BfsResult) -> (Vec<u64>, Vec<u64>) {
    let depth = result.depth() as usize;
    let mut at_distance = vec![0u64; depth + 1];
    let mut edges_at_distance = vec![0u64; depth + 1];
    for (v, &d) in result.distances.iter().enumerate() {
        if d != u32::MAX {
            at_distance[d as usize] += 1;
            edges_at_distance[d as usize] += graph.degree(v as u32);
        }
    }
    (at_distance, edges_at_distance)
}

/// The cluster kernel, with parents and distances only, against the reference on a GPU with
/// clusters (elsewhere it must refuse, naming the need); its trace must show every reached
/// vertex claimed at its distance and every out-edge of a level pushed once.
fn check_cluster_against_cpu(
    gpu: &GpuContext,
    graph: &Graph,
    device_graph: &warpath::gpu::DeviceGraph,
    sources: &[u32],
    label: &str,
) {
    let label = format!("{label} (cluster)");
    if !has_clusters(gpu) {
        let refused = GpuCluster::new(gpu, graph, device_graph, false).err().expect("refused below Hopper");
        assert!(refused.to_string().contains("compute capability 9.0"), "{label}: {refused}");
        return;
    }
    if cluster_refusal(gpu, device_graph).is_some() {
        return;
    }
    let mut with_parents = GpuCluster::new(gpu, graph, device_graph, false).unwrap();
    let mut distances_only = GpuCluster::new(gpu, graph, device_graph, true).unwrap();
    for &source in sources {
        let run = distances_only.run(source).unwrap();
        check_distances_only(graph, &run.result, &format!("{label}, distances only"));
        let run = with_parents.run(source).unwrap();
        check_result(graph, &run.result, &label);
        let (at_distance, edges_at_distance) = per_distance(graph, &run.result);
        let depth = run.result.depth() as usize;
        assert_eq!(run.levels.len(), depth + 2, "{label}: levels traced for depth {depth}, the last claiming none");
        for (level, trace) in run.levels.iter().enumerate() {
            let expected = at_distance.get(level).copied().unwrap_or(0);
            assert_eq!(trace.frontier, expected, "{label}: vertices claimed at level {level}");
            assert_eq!(
                trace.frontier_edges,
                edges_at_distance.get(level).copied().unwrap_or(0),
                "{label}: edges pushed by level {level}"
            );
            let pushed_before = if level == 0 { 0 } else { edges_at_distance[level - 1] };
            assert_eq!(trace.edges_inspected, pushed_before, "{label}: candidates at level {level}");
            assert_eq!(trace.decision.as_deref(), Some("one cluster"), "{label}: level {level}");
        }
    }
}

/// The edge-queue strategies (contract-expand, two-phase, hybrid), with parents and distances
/// only, against the reference; each trace must show every reached vertex claimed once at its
/// distance and every out-edge of the frontier queued once (a redundant expansion factor of 1).
fn check_edge_queue_against_cpu(
    gpu: &GpuContext,
    graph: &Graph,
    device_graph: &warpath::gpu::DeviceGraph,
    sources: &[u32],
    label: &str,
) {
    let mut with_parents = GpuEdgeQueue::new(gpu, graph, device_graph, false).unwrap();
    let mut distances_only = GpuEdgeQueue::new(gpu, graph, device_graph, true).unwrap();
    for &source in sources {
        for strategy in [TopDownStrategy::ContractExpand, TopDownStrategy::TwoPhase, TopDownStrategy::Hybrid] {
            let label = format!("{label} ({strategy})");
            let run = distances_only.run(source, strategy).unwrap();
            check_distances_only(graph, &run.result, &format!("{label}, distances only"));
            let run = with_parents.run(source, strategy).unwrap();
            check_result(graph, &run.result, &label);
            let depth = run.result.depth() as usize;
            let (at_distance, edges_at_distance) = per_distance(graph, &run.result);
            assert!(run.levels.len() > depth, "{label}: {} levels traced for depth {depth}", run.levels.len());
            for (level, trace) in run.levels.iter().enumerate() {
                let expected = at_distance.get(level).copied().unwrap_or(0);
                assert_eq!(trace.frontier, expected, "{label}: vertices claimed at level {level}");
                let edges = edges_at_distance.get(level).copied().unwrap_or(0);
                assert_eq!(trace.frontier_edges, edges, "{label}: edges queued by level {level}");
                if level > 0 {
                    let queued = edges_at_distance[level - 1];
                    assert_eq!(trace.edges_inspected, queued, "{label}: items contracted at level {level}");
                }
                let fused = trace.decision.as_deref().is_some_and(|d| d.starts_with("contract-expand"));
                match strategy {
                    TopDownStrategy::ContractExpand => assert!(fused || level == 0, "{label}: level {level}"),
                    TopDownStrategy::TwoPhase => assert!(!fused, "{label}: level {level}"),
                    _ => {}
                }
            }
        }
    }
}

/// The persistent variants again over the delta-varint compressed lists, placed `placement`.
/// Top-down-only runs must also account for their reads exactly: every reached vertex's two
/// offsets and whole list, once.
fn check_compressed_against_cpu(gpu: &GpuContext, graph: &Graph, sources: &[u32], placement: Placement, label: &str) {
    let packed = CompressedGraph::encode(graph);
    let packed_transpose = (!graph.is_undirected()).then(|| CompressedGraph::encode(&graph.transpose()));
    let device_graph = gpu.place_compressed(&packed, placement).unwrap();
    assert!(device_graph.is_compressed() && device_graph.placement() == placement);
    let device_transpose = packed_transpose.as_ref().map(|t| gpu.place_compressed(t, placement).unwrap());
    let inbound = device_transpose.as_ref().unwrap_or(&device_graph);
    let mut persistent = GpuPersistent::new(gpu, graph, &device_graph, inbound).unwrap();
    let mut distances_only =
        GpuPersistent::with_labels(gpu, graph, &device_graph, inbound, graph.max_degree(), true).unwrap();
    let list_bytes = |v: u32| packed.byte_offsets()[v as usize + 1] - packed.byte_offsets()[v as usize];
    for &source in sources {
        for (variant, params) in persistent_variants() {
            let label = format!("{label} ({variant}, compressed, {placement})");
            if params.double_scan && placement == Placement::ZeroCopy {
                assert!(persistent.run(source, params).is_err(), "{label}: double-scan over the bus was not refused");
                continue;
            }
            let run = distances_only.run(source, params).unwrap();
            check_distances_only(graph, &run.result, &format!("{label}, distances only"));
            let run = persistent.run(source, params).unwrap();
            check_result(graph, &run.result, &label);
            check_trace_follows_the_rules(graph, &run, &params, &label);
            let read: u64 = run.levels.iter().map(|l| l.bytes_read).sum();
            let bus: u64 = run.levels.iter().map(|l| l.bus_bytes).sum();
            if placement == Placement::Device {
                assert_eq!(bus, 0, "{label}: nothing crosses the bus");
            }
            if !params.bottom_up {
                if placement == Placement::ZeroCopy {
                    assert!(bus >= read, "{label}: {bus} bus bytes for {read} bytes read top-down");
                }
                let expected: u64 = (0..graph.num_vertices() as u32)
                    .filter(|&v| run.result.distances[v as usize] != u32::MAX)
                    .map(|v| 16 + list_bytes(v))
                    .sum();
                assert_eq!(read, expected, "{label}: bytes read top-down");
            }
        }
    }
}

/// A few sources with edges: the first, the last and two in between.
fn sources_of(graph: &Graph) -> Vec<u32> {
    let n = graph.num_vertices() as u32;
    let mut sources: Vec<u32> = [0, n / 3, n / 2, n.saturating_sub(1)]
        .into_iter()
        .filter_map(|start| (start..n).chain(0..start).find(|&v| graph.degree(v) > 0))
        .collect();
    sources.dedup();
    sources
}

#[test]
fn generated_graphs_match_the_cpu() {
    let Some(gpu) = gpu_or_skip("generated_graphs_match_the_cpu") else { return };
    for spec in ["kron:12", "kron:16", "rmat:14:8:0.45,0.15,0.15", "urand:14:8", "grid2d:200x150", "grid3d:30"] {
        let graph = generate(&spec.parse::<GeneratorSpec>().unwrap(), 1).unwrap();
        check_against_cpu(&gpu, &graph, &sources_of(&graph), spec);
    }
}

#[test]
fn a_star_with_a_hub_of_degree_over_100k() {
    let Some(gpu) = gpu_or_skip("a_star_with_a_hub_of_degree_over_100k") else { return };
    let leaves = 150_000u32;
    let edges = (1..=leaves).map(|v| (0, v)).collect();
    let graph = GraphBuilder::new().build(EdgeList::new(leaves as u64 + 1, edges, true)).unwrap();
    check_against_cpu(&gpu, &graph, &[0, 1, leaves], "star");
}

/// A level too small to give any block a second tile shares its lists of 32 edges or more with
/// the grid: here the source's 3,000 neighbors, each with a fan of 1 to 300 leaves of its own
/// (every length around the 32- and 256-edge thresholds), then the 450,000 leaves.
#[test]
fn small_levels_share_medium_lists_with_the_grid() {
    let Some(gpu) = gpu_or_skip("small_levels_share_medium_lists_with_the_grid") else { return };
    let branches = 3000u32;
    let mut edges = Vec::new();
    let mut next_leaf = branches + 1;
    for branch in 1..=branches {
        edges.push((0, branch));
        for _ in 0..1 + (branch * 37) % 300 {
            edges.push((branch, next_leaf));
            next_leaf += 1;
        }
    }
    let graph = GraphBuilder::new().build(EdgeList::new(next_leaf as u64, edges, true)).unwrap();
    check_against_cpu(&gpu, &graph, &[0, 1, branches, next_leaf - 1], "broom");
}

#[test]
fn a_long_path_isolated_vertices_and_many_components() {
    let Some(gpu) = gpu_or_skip("a_long_path_isolated_vertices_and_many_components") else { return };
    let path: Vec<(u32, u32)> = (0..5000).map(|v| (v, v + 1)).collect();
    let graph = GraphBuilder::new().build(EdgeList::new(5001, path, true)).unwrap();
    check_against_cpu(&gpu, &graph, &[0, 2500], "path");

    // 2000 triangles, every fourth vertex left isolated.
    let mut edges = Vec::new();
    for c in 0..2000u32 {
        let base = 4 * c;
        edges.extend([(base, base + 1), (base + 1, base + 2), (base + 2, base)]);
    }
    let graph = GraphBuilder::new().build(EdgeList::new(8000, edges, true)).unwrap();
    check_against_cpu(&gpu, &graph, &[0, 4 * 1999 + 1], "triangles");
}

#[test]
fn directed_graphs_follow_edge_direction() {
    let Some(gpu) = gpu_or_skip("directed_graphs_follow_edge_direction") else { return };
    // A directed cycle with chords one way, a vertex that points in but is never reached (no
    // in-edges: bottom-up levels skip it), and a sink that is reached but points nowhere (an
    // empty out-list, which must not be mistaken for an empty in-list).
    let n = 3000u32;
    let mut edges: Vec<(u32, u32)> = (0..n - 1).map(|v| (v, (v + 1) % (n - 1))).collect();
    edges.extend((0..n - 1).step_by(7).map(|v| (v, (v * 13 + 5) % (n - 1))));
    edges.push((n - 1, 0));
    edges.push((5, n));
    let graph = GraphBuilder::new().build(EdgeList::new(n as u64 + 1, edges, false)).unwrap();
    check_against_cpu(&gpu, &graph, &[0, 1234, n - 1], "directed");
}

#[test]
fn every_dataset_matches_the_cpu() {
    let Some(gpu) = gpu_or_skip("every_dataset_matches_the_cpu") else { return };
    let Some(dir) = datasets_dir("every_dataset_matches_the_cpu") else { return };
    let files = dataset_files(&dir);
    assert!(!files.is_empty(), "no dataset files in {}", dir.display());
    for path in files {
        let graph = read_graph(&path, &ReadOptions { ignore_weights: true, ..ReadOptions::default() }).unwrap();
        check_against_cpu(&gpu, &graph, &sources_of(&graph), &path.display().to_string());
    }
}

#[test]
fn the_persistent_kernel_switches_direction_on_scale_free_graphs() {
    let Some(gpu) = gpu_or_skip("the_persistent_kernel_switches_direction_on_scale_free_graphs") else { return };
    let graph = generate(&"kron:16".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
    let device_graph = gpu.upload_graph(&graph).unwrap();
    let mut persistent = GpuPersistent::new(&gpu, &graph, &device_graph, &device_graph).unwrap();
    let source = sources_of(&graph)[0];
    let run = persistent.run(source, PersistentParams::default()).unwrap();
    check_result(&graph, &run.result, "kron:16");
    assert!(
        run.levels.iter().any(|l| l.direction == Direction::BottomUp),
        "the default switching rule should go bottom-up on kron:16: {:?}",
        run.levels
    );
}

/// Adaptive frontier generation changes how frontiers are written, never what the levels
/// decide or find: under both switching rules, on scale-free, uniform and road graphs, every
/// root's levels have the same directions and frontiers with it as without it. On Kronecker
/// graphs it must actually predict both kinds of switch somewhere (single-scan before
/// bottom-up, direct emission before top-down), and a predicted switch to bottom-up must
/// leave the bottom-up level no bitmap to build.
#[test]
fn adaptive_frontier_generation_changes_no_decision_and_predicts_switches() {
    let Some(gpu) = gpu_or_skip("adaptive_frontier_generation_changes_no_decision_and_predicts_switches") else {
        return;
    };
    let mut graphs: Vec<(String, Graph)> = ["kron:16", "kron:18", "urand:16:16", "grid2d:300x200"]
        .into_iter()
        .map(|spec| (spec.to_string(), generate(&spec.parse::<GeneratorSpec>().unwrap(), 1).unwrap()))
        .collect();
    if let Some(dir) = datasets_dir("adaptive_frontier_generation_changes_no_decision_and_predicts_switches") {
        for name in ["soc-Slashdot0902.txt.gz", "luxembourg_osm.mtx.gz"] {
            let graph = read_graph(&dir.join(name), &ReadOptions::default()).unwrap();
            graphs.push((name.to_string(), graph));
        }
    }
    for (spec, graph) in &graphs {
        let device_graph = gpu.upload_graph(graph).unwrap();
        let device_transpose = (!graph.is_undirected()).then(|| gpu.upload_graph(&graph.transpose()).unwrap());
        let inbound = device_transpose.as_ref().unwrap_or(&device_graph);
        let mut persistent = GpuPersistent::new(&gpu, graph, &device_graph, inbound).unwrap();
        for rule in SwitchRule::ALL {
            let adaptive =
                PersistentParams { switch_rule: rule, alpha: rule.default_alpha(), ..PersistentParams::default() };
            let fixed = PersistentParams { adaptive_frontier: false, ..adaptive };
            let (mut single_scans, mut emissions) = (0, 0);
            for source in random_sources(graph, 16, 7) {
                let label = format!("{spec} ({rule}) from {source}");
                let with = persistent.run(source, adaptive).unwrap();
                let without = persistent.run(source, fixed).unwrap();
                check_result(graph, &with.result, &label);
                check_trace_follows_the_rules(graph, &with, &adaptive, &label);
                check_trace_follows_the_rules(graph, &without, &fixed, &label);
                let shape = |levels: &[warpath::bfs::LevelTrace]| {
                    levels.iter().map(|l| (l.direction, l.frontier, l.frontier_edges)).collect::<Vec<_>>()
                };
                assert_eq!(shape(&with.levels), shape(&without.levels), "{label}: adaptive against fixed");
                for pair in with.levels.windows(2) {
                    let (before, after) = (pair[0].generation.unwrap(), pair[1].generation.unwrap());
                    match before.output {
                        FrontierOutput::SingleScan => {
                            single_scans += 1;
                            if pair[1].direction == Direction::BottomUp {
                                assert_eq!(after.conversion, None, "{label}: a single-scan bitmap is read as it is");
                            }
                        }
                        FrontierOutput::BallotAndQueue => {
                            emissions += 1;
                            if pair[1].direction == Direction::TopDown {
                                assert_eq!(after.conversion, None, "{label}: an emitted queue is read as it is");
                            }
                        }
                        _ => {}
                    }
                }
            }
            eprintln!("{spec} ({rule}): {single_scans} single-scan levels, {emissions} emitting bottom-up levels");
            // XBFS's lambda foresees the climb to bottom-up, but not the cliff after it: on
            // Kronecker graphs the edge check falls a hundredfold in one level, while lambda
            // from the level before says "still heavy". Beamer's return test watches the
            // frontier shrink instead, which lambda does catch.
            if spec.starts_with("kron") {
                assert!(single_scans > 0, "{spec} ({rule}): no single-scan level");
                if rule == SwitchRule::Beamer {
                    assert!(emissions > 0, "{spec} ({rule}): no bottom-up level emitted a queue");
                }
            }
        }
    }
}

#[test]
fn zero_copy_graphs_match_the_cpu() {
    let Some(gpu) = gpu_or_skip("zero_copy_graphs_match_the_cpu") else { return };
    let mut graphs = vec![("kron:14".to_string(), generate(&"kron:14".parse::<GeneratorSpec>().unwrap(), 5).unwrap())];
    if let Some(dir) = datasets_dir("zero_copy_graphs_match_the_cpu") {
        for name in ["web-NotreDame.txt.gz", "usroads-48.mtx.gz"] {
            graphs.push((name.to_string(), read_graph(&dir.join(name), &ReadOptions::default()).unwrap()));
        }
    }
    for (label, graph) in &graphs {
        let mapped = gpu.place_graph(graph, Placement::ZeroCopy).unwrap();
        assert_eq!(mapped.placement(), Placement::ZeroCopy);
        assert_eq!(
            mapped.bytes(),
            empty_lists_bytes(graph.num_vertices()),
            "a zero-copy graph holds nothing in device memory but its bitmap of empty lists"
        );
        let mapped_transpose =
            (!graph.is_undirected()).then(|| gpu.place_graph(&graph.transpose(), Placement::ZeroCopy).unwrap());
        let inbound = mapped_transpose.as_ref().unwrap_or(&mapped);
        let mut persistent = GpuPersistent::new(&gpu, graph, &mapped, inbound).unwrap();
        let mut distances_only =
            GpuPersistent::with_labels(&gpu, graph, &mapped, inbound, graph.max_degree(), true).unwrap();
        let mut per_level = GpuTopDown::new(&gpu, &mapped).unwrap();
        for source in sources_of(graph) {
            check_result(
                graph,
                &persistent.run(source, PersistentParams::default()).unwrap().result,
                &format!("{label} zero-copy"),
            );
            for (variant, params) in persistent_variants() {
                if params.double_scan {
                    assert!(
                        distances_only.run(source, params).is_err(),
                        "{label} zero-copy ({variant}): double-scan over the bus was not refused"
                    );
                    continue;
                }
                let run = distances_only.run(source, params).unwrap();
                check_distances_only(graph, &run.result, &format!("{label} zero-copy ({variant}, distances only)"));
            }
            check_result(graph, &per_level.run(source).unwrap().result, &format!("{label} zero-copy per-level"));
            for balance in BottomUpBalance::ALL {
                let eager = PersistentParams {
                    alpha: 1e9,
                    beta: 1e-9,
                    bottom_up_balance: balance,
                    ..PersistentParams::beamer()
                };
                let run = persistent.run(source, eager).unwrap();
                let label = format!("{label} zero-copy, eager bottom-up, {balance} balance");
                check_result(graph, &run.result, &label);
                let bottom_up_bus: u64 =
                    run.levels.iter().filter(|l| l.direction == Direction::BottomUp).map(|l| l.bus_bytes).sum();
                assert!(bottom_up_bus > 0, "{label}: bottom-up lists read over the bus");
            }
        }
        check_compressed_against_cpu(&gpu, graph, &sources_of(graph), Placement::ZeroCopy, label);
    }
}

#[test]
fn list_heads_keep_the_search_and_take_bottom_up_reads_off_the_bus() {
    let Some(gpu) = gpu_or_skip("list_heads_keep_the_search_and_take_bottom_up_reads_off_the_bus") else { return };
    let mut graphs = vec![
        ("kron:14".to_string(), generate(&"kron:14".parse::<GeneratorSpec>().unwrap(), 5).unwrap()),
        ("urand:13".to_string(), generate(&"urand:13".parse::<GeneratorSpec>().unwrap(), 3).unwrap()),
        // Lists of 0, 1 and 2 neighbors, which the heads hold whole.
        ("path:1000".to_string(), common::path(1000)),
    ];
    if let Some(dir) = datasets_dir("list_heads_keep_the_search_and_take_bottom_up_reads_off_the_bus") {
        graphs.push((
            "web-NotreDame".to_string(),
            read_graph(&dir.join("web-NotreDame.txt.gz"), &ReadOptions::default()).unwrap(),
        ));
    }
    for (label, graph) in &graphs {
        let transpose = (!graph.is_undirected()).then(|| graph.transpose());
        let in_graph = transpose.as_ref().unwrap_or(graph);
        for compressed in [false, true] {
            let packed =
                compressed.then(|| (CompressedGraph::encode(graph), transpose.as_ref().map(CompressedGraph::encode)));
            let place = |plain: &Graph, packed: Option<&CompressedGraph>| match packed {
                Some(packed) => gpu.place_compressed(packed, Placement::ZeroCopy).unwrap(),
                None => gpu.place_graph(plain, Placement::ZeroCopy).unwrap(),
            };
            let out_packed = packed.as_ref().map(|(out, _)| out);
            let in_packed = packed.as_ref().map(|(out, inbound)| inbound.as_ref().unwrap_or(out));
            let out_graph = place(graph, out_packed);
            let bare_in = transpose.as_ref().map(|t| place(t, in_packed));
            let mut headed_in = place(in_graph, in_packed);
            let heads = match in_packed {
                Some(packed_in) => ListHeads::of_compressed(packed_in),
                None => ListHeads::of_graph(in_graph),
            };
            gpu.attach_list_heads(&mut headed_in, &heads).unwrap();
            assert!(headed_in.has_list_heads());
            // An undirected graph reads its in-lists from itself.
            let headed_out = if graph.is_undirected() { &headed_in } else { &out_graph };
            let mut plain_run =
                GpuPersistent::new(&gpu, graph, &out_graph, bare_in.as_ref().unwrap_or(&out_graph)).unwrap();
            let mut headed_run = GpuPersistent::new(&gpu, graph, headed_out, &headed_in).unwrap();
            for source in sources_of(graph) {
                for balance in BottomUpBalance::ALL {
                    for eager in [false, true] {
                        let mut params = PersistentParams { bottom_up_balance: balance, ..PersistentParams::beamer() };
                        if eager {
                            (params.alpha, params.beta) = (1e9, 1e-9);
                        }
                        let what =
                            format!("{label} (compressed {compressed}, {balance}, eager {eager}, source {source})");
                        let before = plain_run.run(source, params).unwrap();
                        let after = headed_run.run(source, params).unwrap();
                        check_result(graph, &after.result, &format!("{what} with list heads"));
                        // The search order is unchanged, so are the parents that bottom-up levels
                        // chose (top-down claims race, so theirs may differ) and the edges checked.
                        for (v, &d) in after.result.distances.iter().enumerate() {
                            let found_bottom_up = d != u32::MAX
                                && d > 0
                                && before
                                    .levels
                                    .get(d as usize - 1)
                                    .is_some_and(|l| l.direction == Direction::BottomUp);
                            if found_bottom_up {
                                assert_eq!(after.result.parents[v], before.result.parents[v], "{what}: parent of {v}");
                            }
                        }
                        let edges = |run: &warpath::bfs::gpu::persistent::PersistentRun| -> Vec<u64> {
                            run.levels.iter().map(|l| l.edges_inspected).collect()
                        };
                        assert_eq!(edges(&after), edges(&before), "{what}: edges inspected per level");
                        let bottom_up_bus = |run: &warpath::bfs::gpu::persistent::PersistentRun| -> u64 {
                            run.levels.iter().filter(|l| l.direction == Direction::BottomUp).map(|l| l.bus_bytes).sum()
                        };
                        assert!(bottom_up_bus(&after) <= bottom_up_bus(&before), "{what}: more bus bytes with heads");
                        if eager && balance != BottomUpBalance::Warp && bottom_up_bus(&before) > 0 {
                            assert!(bottom_up_bus(&after) < bottom_up_bus(&before), "{what}: heads saved no bus bytes");
                        }
                    }
                }
            }
        }
    }

    // The traverser keeps heads beside zero-copy lists by default, and not when told.
    let graph = &graphs[0].1;
    for list_heads in [ListHeadsKept::Auto, ListHeadsKept::Never] {
        let placement =
            PlacementOptions { placement: Some(Placement::ZeroCopy), list_heads, ..PlacementOptions::default() };
        let options = GpuOptions { placement, ..GpuOptions::default() };
        let traverser = Traverser::with_options(graph, Backend::Gpu, options).unwrap();
        assert_eq!(traverser.has_list_heads(), list_heads != ListHeadsKept::Never);
        check_result(graph, &traverser.run(sources_of(graph)[0]).unwrap().result, "kron:14 through the traverser");
    }
    let placement = PlacementOptions { placement: Some(Placement::Device), ..PlacementOptions::default() };
    let options = GpuOptions { placement: placement.clone(), ..GpuOptions::default() };
    assert!(
        !Traverser::with_options(graph, Backend::Gpu, options).unwrap().has_list_heads(),
        "heads by default only beside zero-copy lists"
    );
    // Asked for, beside lists in device memory too.
    let placement = PlacementOptions { list_heads: ListHeadsKept::Always, ..placement };
    let traverser =
        Traverser::with_options(graph, Backend::Gpu, GpuOptions { placement, ..GpuOptions::default() }).unwrap();
    assert!(traverser.has_list_heads(), "heads asked for beside device lists");
    check_result(graph, &traverser.run(sources_of(graph)[0]).unwrap().result, "kron:14, device lists with heads");
}

#[test]
fn a_vram_budget_below_the_graph_places_it_zero_copy() {
    let Some(_gpu) = gpu_or_skip("a_vram_budget_below_the_graph_places_it_zero_copy") else { return };
    let graph = generate(&"kron:16".parse::<GeneratorSpec>().unwrap(), 2).unwrap();
    // The BFS arrays, and the graph's bitmap of empty lists, which stays in device memory too.
    let per_vertex = GpuPersistent::bytes_needed(graph.num_vertices() as u32, graph.num_edges())
        .max(GpuTopDown::bytes_needed(graph.num_vertices() as u32))
        + empty_lists_bytes(graph.num_vertices());
    let options = GpuOptions {
        placement: PlacementOptions { vram_budget: Some(per_vertex + 4096), ..PlacementOptions::default() },
        ..GpuOptions::default()
    };
    let traverser = Traverser::with_options(&graph, Backend::Gpu, options).unwrap();
    assert_eq!(traverser.placement(), Some(Placement::ZeroCopy));
    assert!(traverser.warnings().iter().any(|w| w.contains("zero-copy")), "{:?}", traverser.warnings());
    let source = sources_of(&graph)[0];
    check_result(&graph, &traverser.run(source).unwrap().result, "kron:16 under a small VRAM budget");

    // Compressed, under a budget the compressed lists do not fit: zero-copy again, and right.
    let packed_bytes = CompressedGraph::encode(&graph).compressed_bytes();
    let options = GpuOptions {
        placement: PlacementOptions {
            vram_budget: Some(per_vertex + packed_bytes / 2),
            compressed: true,
            ..PlacementOptions::default()
        },
        ..GpuOptions::default()
    };
    let traverser = Traverser::with_options(&graph, Backend::Gpu, options).unwrap();
    assert_eq!(traverser.placement(), Some(Placement::ZeroCopy));
    assert!(traverser.is_compressed());
    check_result(&graph, &traverser.run(source).unwrap().result, "compressed kron:16 under a small VRAM budget");
    // With room for them, the compressed lists go to device memory.
    let options = GpuOptions {
        placement: PlacementOptions { vram_budget: None, compressed: true, ..PlacementOptions::default() },
        ..GpuOptions::default()
    };
    let traverser = Traverser::with_options(&graph, Backend::Gpu, options).unwrap();
    assert_eq!(traverser.placement(), Some(Placement::Device));
    check_result(&graph, &traverser.run(source).unwrap().result, "compressed kron:16 in device memory");

    // A budget too small even for the per-vertex arrays is an error naming both sizes.
    let options = GpuOptions {
        placement: PlacementOptions { vram_budget: Some(per_vertex / 2), ..PlacementOptions::default() },
        ..GpuOptions::default()
    };
    let message = match Traverser::with_options(&graph, Backend::Gpu, options) {
        Ok(_) => panic!("a budget below the BFS arrays must be refused"),
        Err(err) => err.to_string(),
    };
    assert!(message.contains(&per_vertex.to_string()) && message.contains(&(per_vertex / 2).to_string()), "{message}");
}

/// Distances only through the [`Traverser`]: 4 bytes a vertex less device memory, results
/// without parents that pass the distance rules, and a clear refusal from the per-level kernel,
/// which always writes parents.
#[test]
fn distances_only_saves_the_parents_array_through_the_traverser() {
    let Some(_gpu) = gpu_or_skip("distances_only_saves_the_parents_array_through_the_traverser") else { return };
    let graph = generate(&"kron:14".parse::<GeneratorSpec>().unwrap(), 4).unwrap();
    let source = sources_of(&graph)[0];
    let mut with_parents = Traverser::with_options(&graph, Backend::Gpu, GpuOptions::default()).unwrap();
    let options = GpuOptions { distances_only: true, ..GpuOptions::default() };
    let mut distances_only = Traverser::with_options(&graph, Backend::Gpu, options).unwrap();
    assert!(distances_only.distances_only() && !with_parents.distances_only());
    // The default, auto, runs contract-expand on this small graph: its parent queues go too.
    let (n, m) = (graph.num_vertices() as u64, graph.num_edges());
    let saved = |with: &Traverser, without: &Traverser| with.device_bytes().unwrap() - without.device_bytes().unwrap();
    assert_eq!(with_parents.resolved_gpu_kernel(), GpuKernel::TopDown(TopDownStrategy::ContractExpand));
    assert_eq!(saved(&with_parents, &distances_only), 4 * n + 2 * 4 * m, "parents and parent queues");
    check_result(&graph, &with_parents.run(source).unwrap().result, "kron:14 contract-expand through the traverser");
    check_distances_only(
        &graph,
        &distances_only.run(source).unwrap().result,
        "kron:14 contract-expand, distances only",
    );
    let persistent = GpuKernel::Persistent(PersistentParams::default());
    with_parents.set_gpu_kernel(persistent);
    distances_only.set_gpu_kernel(persistent);
    assert_eq!(saved(&with_parents, &distances_only), 4 * n, "the parents array is all that distances-only saves");
    check_result(&graph, &with_parents.run(source).unwrap().result, "kron:14 through the traverser");
    check_distances_only(&graph, &distances_only.run(source).unwrap().result, "kron:14 through the traverser");
    let top_down = PersistentParams { bottom_up: false, ..PersistentParams::default() };
    distances_only.set_gpu_kernel(warpath::bfs::GpuKernel::Persistent(top_down));
    check_distances_only(&graph, &distances_only.run(source).unwrap().result, "kron:14 top-down through the traverser");

    distances_only.set_gpu_kernel(warpath::bfs::GpuKernel::PerLevel);
    let message = match distances_only.run(source) {
        Ok(_) => panic!("the per-level kernel has no distances-only variant and must refuse it"),
        Err(err) => err.to_string(),
    };
    assert!(message.contains("no distances-only variant") && message.contains("persistent"), "{message}");
}

/// What a bottom-up search over one in-list must find and read: the position of the first
/// in-neighbor at `distance - 1` (the parent every balancing picks: the first in list order),
/// or `None`.
fn first_frontier_neighbor(in_list: &[u32], distances: &[u32], level: u32) -> Option<usize> {
    in_list.iter().position(|&u| distances[u as usize] == level)
}

/// Every balancing, plain and compressed, with bottom-up from the first level on: right
/// distances, valid parents, and for the vertices found bottom-up exactly the parent the rule
/// says (the first frontier in-neighbor in list order), so the strategies agree. On plain
/// lists in device memory, the trace's bottom-up edges and bytes must be those the strategy
/// reads: up to the parent (one lane per vertex) or whole rounds of 32 (the warp-centric
/// search); compressed, the warp's rounds read at least what the thread decoders read.
#[test]
fn bottom_up_balancing_strategies_agree_on_parents_and_reads() {
    let Some(gpu) = gpu_or_skip("bottom_up_balancing_strategies_agree_on_parents_and_reads") else { return };
    let star_edges = (1..=40_000u32).map(|v| (0, v)).collect();
    let mut directed: Vec<(u32, u32)> = (0..2999u32).map(|v| (v, (v + 1) % 2999)).collect();
    directed.extend((0..2999u32).step_by(5).map(|v| (v, (v * 17 + 3) % 2999)));
    let graphs = vec![
        ("kron:14".to_string(), generate(&"kron:14".parse::<GeneratorSpec>().unwrap(), 7).unwrap()),
        ("urand:13:8".to_string(), generate(&"urand:13:8".parse::<GeneratorSpec>().unwrap(), 7).unwrap()),
        ("star".to_string(), GraphBuilder::new().build(EdgeList::new(40_001, star_edges, true)).unwrap()),
        ("directed".to_string(), GraphBuilder::new().build(EdgeList::new(3000, directed, false)).unwrap()),
    ];
    for (name, graph) in &graphs {
        let transpose = (!graph.is_undirected()).then(|| graph.transpose());
        let in_graph = transpose.as_ref().unwrap_or(graph);
        let device_graph = gpu.upload_graph(graph).unwrap();
        let device_transpose = transpose.as_ref().map(|t| gpu.upload_graph(t).unwrap());
        let packed = CompressedGraph::encode(graph);
        let packed_transpose = transpose.as_ref().map(CompressedGraph::encode);
        let compressed_graph = gpu.place_compressed(&packed, Placement::Device).unwrap();
        let compressed_transpose =
            packed_transpose.as_ref().map(|t| gpu.place_compressed(t, Placement::Device).unwrap());
        let mut plain =
            GpuPersistent::new(&gpu, graph, &device_graph, device_transpose.as_ref().unwrap_or(&device_graph)).unwrap();
        let mut compressed = GpuPersistent::new(
            &gpu,
            graph,
            &compressed_graph,
            compressed_transpose.as_ref().unwrap_or(&compressed_graph),
        )
        .unwrap();
        for source in sources_of(graph) {
            let expected = bfs_sequential(graph, source);
            // Per bottom-up level, the (edges, bytes) the compressed static search read.
            let mut compressed_static_reads: Vec<(u64, u64)> = Vec::new();
            // Static balance word by word, then in chunks of 4 and 32 words (dense chunks on
            // the first level, where every vertex is unvisited, sparse ones later): the same
            // searches, so the same parents and reads.
            let variants = [
                (BottomUpBalance::Static, 1),
                (BottomUpBalance::Static, 4),
                (BottomUpBalance::Static, 32),
                (BottomUpBalance::Thread, 0),
                (BottomUpBalance::Warp, 0),
            ];
            for (balance, chunk) in variants {
                let params = PersistentParams {
                    alpha: 1e9,
                    beta: 1e-9,
                    bottom_up_balance: balance,
                    bottom_up_chunk: chunk,
                    ..PersistentParams::beamer()
                };
                for (format, persistent) in [("plain", &mut plain), ("compressed", &mut compressed)] {
                    let label = format!("{name} from {source}, {balance} balance, chunks of {chunk} words, {format}");
                    let run = persistent.run(source, params).unwrap();
                    check_result(graph, &run.result, &label);
                    assert_eq!(run.levels[0].direction, Direction::BottomUp, "{label}: the first level goes bottom-up");
                    let distances = &run.result.distances;
                    for v in 0..graph.num_vertices() as u32 {
                        let d = distances[v as usize];
                        if d == 0 || d == u32::MAX || run.levels[d as usize - 1].direction != Direction::BottomUp {
                            continue;
                        }
                        let in_list = in_graph.neighbors(v);
                        let first = first_frontier_neighbor(in_list, distances, d - 1).unwrap();
                        assert_eq!(run.result.parents[v as usize], in_list[first], "{label}: parent of {v}");
                    }
                    let bottom_up: Vec<_> = run.levels.iter().filter(|l| l.direction == Direction::BottomUp).collect();
                    assert!(bottom_up.iter().all(|l| l.bus_bytes == 0), "{label}: nothing crosses the bus");
                    if format == "plain" {
                        for level in &bottom_up {
                            let (mut edges, mut bytes) = (0u64, 0u64);
                            for v in 0..graph.num_vertices() as u32 {
                                let in_list = in_graph.neighbors(v);
                                if expected.distances[v as usize] <= level.level || in_list.is_empty() {
                                    // Visited before this level, or from the start for want of
                                    // in-edges: not searched.
                                    continue;
                                }
                                let degree = in_list.len();
                                let needed = first_frontier_neighbor(in_list, &expected.distances, level.level)
                                    .map_or(degree, |k| k + 1);
                                let checked = match balance {
                                    BottomUpBalance::Warp => (needed.div_ceil(32) * 32).min(degree),
                                    _ => needed,
                                } as u64;
                                edges += checked;
                                bytes += 16 + 4 * checked;
                            }
                            assert_eq!(
                                (level.edges_inspected, level.bytes_read),
                                (edges, bytes),
                                "{label}: level {}",
                                level.level
                            );
                        }
                    } else {
                        let reads: Vec<(u64, u64)> =
                            bottom_up.iter().map(|l| (l.edges_inspected, l.bytes_read)).collect();
                        match balance {
                            BottomUpBalance::Static if chunk == 1 => compressed_static_reads = reads,
                            BottomUpBalance::Static | BottomUpBalance::Thread => {
                                assert_eq!(reads, compressed_static_reads, "{label}: reads as static")
                            }
                            BottomUpBalance::Warp => {
                                assert_eq!(reads.len(), compressed_static_reads.len(), "{label}: bottom-up levels");
                                for (warp, lane) in reads.iter().zip(&compressed_static_reads) {
                                    assert!(
                                        warp.0 >= lane.0 && warp.1 >= lane.1,
                                        "{label}: warp rounds {warp:?}, lanes {lane:?}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The asynchronous bottom-up (XBFS section 5.2, Algorithm 3) against the synchronous one, on
/// kron, urand and a grid, under every balancing, plain and compressed, and under three sets of
/// thresholds: Beamer's, bottom-up at once with returns to top-down on small shrinking
/// frontiers (many switches, so labels ahead meet forced bottom-up levels often), and
/// Beamer's switch followed by bottom-up to the last level. Distances must be identical (and
/// right, with valid parents), and so must every level's frontier: a vertex labeled ahead
/// still counts in its own level. Where the directions cannot differ (never back to top-down,
/// so no forced level), every level reads no more edges and bytes with labels ahead than
/// without, since the searches that remain are the same; on kron, bottom-up must run for at
/// least two consecutive levels there, so the labels ahead have a pass to save edges in.
#[test]
fn async_bottom_up_agrees_with_sync_and_reads_no_more_edges() {
    let Some(gpu) = gpu_or_skip("async_bottom_up_agrees_with_sync_and_reads_no_more_edges") else { return };
    const NEVER_BACK: f32 = 1e9;
    // kron runs from a source in the giant component, where the edges are compared over at
    // least two consecutive bottom-up levels.
    let mut kron_compared = 0;
    let thresholds = [
        ("Beamer's", 15.0, 18.0),
        ("switching", 1e9, 18.0),
        ("bottom-up to the end", 15.0, NEVER_BACK),
        ("always bottom-up", 1e9, NEVER_BACK),
    ];
    for spec in ["kron:16", "urand:15:16", "grid2d:300x200"] {
        let graph = generate(&spec.parse::<GeneratorSpec>().unwrap(), 11).unwrap();
        let device_graph = gpu.upload_graph(&graph).unwrap();
        let packed = CompressedGraph::encode(&graph);
        let compressed_graph = gpu.place_compressed(&packed, Placement::Device).unwrap();
        let mut plain = GpuPersistent::new(&gpu, &graph, &device_graph, &device_graph).unwrap();
        let mut compressed = GpuPersistent::new(&gpu, &graph, &compressed_graph, &compressed_graph).unwrap();
        for source in sources_of(&graph).into_iter().take(2) {
            for (name, alpha, beta) in thresholds {
                for balance in BottomUpBalance::ALL {
                    for (format, persistent) in [("plain", &mut plain), ("compressed", &mut compressed)] {
                        let label = format!("{spec} from {source}, {name} thresholds, {balance} balance, {format}");
                        let sync =
                            PersistentParams { alpha, beta, bottom_up_balance: balance, ..PersistentParams::beamer() };
                        let sync_run = persistent.run(source, sync).unwrap();
                        let async_run =
                            persistent.run(source, PersistentParams { async_bottom_up: true, ..sync }).unwrap();
                        check_result(&graph, &sync_run.result, &format!("{label}, sync"));
                        check_result(&graph, &async_run.result, &format!("{label}, async"));
                        assert_eq!(async_run.result.distances, sync_run.result.distances, "{label}: distances");
                        let frontiers =
                            |levels: &[warpath::bfs::LevelTrace]| levels.iter().map(|l| l.frontier).collect::<Vec<_>>();
                        assert_eq!(frontiers(&async_run.levels), frontiers(&sync_run.levels), "{label}: frontiers");
                        if beta != NEVER_BACK {
                            continue;
                        }
                        let directions = |levels: &[warpath::bfs::LevelTrace]| {
                            levels.iter().map(|l| l.direction).collect::<Vec<_>>()
                        };
                        assert_eq!(directions(&async_run.levels), directions(&sync_run.levels), "{label}: directions");
                        for (a, s) in async_run.levels.iter().zip(&sync_run.levels) {
                            assert!(
                                a.edges_inspected <= s.edges_inspected && a.bytes_read <= s.bytes_read,
                                "{label}: level {} read {} edges and {} bytes async, {} and {} sync",
                                a.level,
                                a.edges_inspected,
                                a.bytes_read,
                                s.edges_inspected,
                                s.bytes_read
                            );
                        }
                        let total =
                            |levels: &[warpath::bfs::LevelTrace]| levels.iter().map(|l| l.edges_inspected).sum::<u64>();
                        let (async_edges, sync_edges) = (total(&async_run.levels), total(&sync_run.levels));
                        assert!(async_edges <= sync_edges, "{label}: {async_edges} edges async, {sync_edges} sync");
                        eprintln!("{label}: {sync_edges} edges inspected sync, {async_edges} async");
                        if spec.starts_with("kron") && async_run.result.reached() > graph.num_vertices() as u64 / 4 {
                            kron_compared += 1;
                            let bottom_up: Vec<bool> =
                                async_run.levels.iter().map(|l| l.direction == Direction::BottomUp).collect();
                            assert!(
                                bottom_up.windows(2).any(|pair| pair[0] && pair[1]),
                                "{label}: bottom-up for two consecutive levels: {:?}",
                                async_run.levels
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(kron_compared > 0, "no kron source reached a quarter of the graph");
}

#[test]
fn every_top_down_strategy_through_the_traverser_and_auto_resolved_per_graph() {
    let Some(_gpu) = gpu_or_skip("every_top_down_strategy_through_the_traverser_and_auto_resolved_per_graph") else {
        return;
    };
    for spec in ["kron:12", "grid2d:100x80"] {
        let graph = generate(&spec.parse::<GeneratorSpec>().unwrap(), 1).unwrap();
        for distances_only in [false, true] {
            let options = GpuOptions { distances_only, ..GpuOptions::default() };
            let mut traverser = Traverser::with_options(&graph, Backend::Gpu, options).unwrap();
            for strategy in TopDownStrategy::ALL {
                traverser.set_gpu_kernel(GpuKernel::TopDown(strategy));
                let resolved = traverser.resolved_gpu_kernel();
                match strategy.resolve(&graph) {
                    TopDownStrategy::ExpandContract => {
                        assert!(matches!(resolved, GpuKernel::Persistent(p) if !p.bottom_up), "{spec} {strategy}")
                    }
                    other => assert_eq!(resolved, GpuKernel::TopDown(other), "{spec} {strategy}"),
                }
                let label = format!("{spec} ({strategy} through the traverser, distances only: {distances_only})");
                for source in sources_of(&graph) {
                    let result = traverser.run(source).unwrap().result;
                    if distances_only {
                        check_distances_only(&graph, &result, &label);
                    } else {
                        check_result(&graph, &result, &label);
                    }
                }
            }
        }
    }
}

#[test]
fn the_cluster_kernel_through_the_traverser_or_refused_before_hopper() {
    let Some(gpu) = gpu_or_skip("the_cluster_kernel_through_the_traverser_or_refused_before_hopper") else { return };
    let hopper = has_clusters(&gpu);
    drop(gpu);
    for spec in ["grid2d:100x80", "kron:10"] {
        let graph = generate(&spec.parse::<GeneratorSpec>().unwrap(), 1).unwrap();
        for distances_only in [false, true] {
            let options = GpuOptions { distances_only, ..GpuOptions::default() };
            let mut traverser = Traverser::with_options(&graph, Backend::Gpu, options).unwrap();
            // Auto takes the cluster on Hopper for the grid, whose lists are short, never for
            // the Kronecker graph's hubs.
            let auto = traverser.resolved_gpu_kernel();
            assert_eq!(auto == GpuKernel::Cluster, hopper && spec.starts_with("grid"), "{spec}: auto picked {auto:?}");
            traverser.set_gpu_kernel(GpuKernel::Cluster);
            assert_eq!(traverser.resolved_gpu_kernel(), GpuKernel::Cluster);
            let label = format!("{spec} (cluster through the traverser, distances only: {distances_only})");
            for source in sources_of(&graph) {
                match traverser.run(source) {
                    Ok(run) if hopper => {
                        if distances_only {
                            check_distances_only(&graph, &run.result, &label);
                        } else {
                            check_result(&graph, &run.result, &label);
                        }
                    }
                    Ok(_) => panic!("{label}: ran below compute capability 9.0"),
                    Err(err) if hopper => panic!("{label}: {err}"),
                    Err(err) => assert!(err.to_string().contains("compute capability 9.0"), "{label}: {err}"),
                }
            }
        }
    }
}

/// The bit-parallel many-source BFS on the GPU (`Traverser::run_many_with`:
/// `bfs_multi_source_level`, 64 sources a batch, a level a pull or a push and a settle), its
/// levels switching, all bottom-up and all top-down, gives every source the sequential BFS's
/// distances: more than one batch, a hub, a mesh, a long path, a directed graph (pulling over
/// its transpose, pushing over its own lists), more levels than the ring of level words holds,
/// a skewed graph big enough that switching pushes (its traced batch says where) with lists long
/// enough to be queued for the grid, and lists in mapped host memory. Compressed lists have no plain in-lists on the device: a
/// traversal a source then, the same distances, and a warning.
#[test]
fn many_sources_at_once_match_the_sequential_bfs() {
    let Some(_gpu) = gpu_or_skip("many_sources_at_once_match_the_sequential_bfs") else { return };
    let path: Vec<(u32, u32)> = (0..3000).map(|v| (v, v + 1)).collect();
    let mut directed: Vec<(u32, u32)> = (0..2999).map(|v| (v, (v + 1) % 2999)).collect();
    directed.extend((0..2999).step_by(7).map(|v| (v, (v * 13 + 5) % 2999)));
    directed.push((5, 2999));
    let graphs = [
        ("kron:12", generate(&"kron:12".parse::<GeneratorSpec>().unwrap(), 1).unwrap()),
        ("kron:18", generate(&"kron:18".parse::<GeneratorSpec>().unwrap(), 1).unwrap()),
        ("grid2d:40x30", generate(&"grid2d:40x30".parse::<GeneratorSpec>().unwrap(), 1).unwrap()),
        ("path", GraphBuilder::new().build(EdgeList::new(3001, path, true)).unwrap()),
        ("directed", GraphBuilder::new().build(EdgeList::new(3000, directed, false)).unwrap()),
    ];
    for (label, graph) in &graphs {
        let n = graph.num_vertices() as u32;
        let sources: Vec<u32> =
            (0..n).filter(|&v| graph.degree(v) > 0).step_by((n as usize / 150).max(1)).take(150).collect();
        assert!(sources.len() > 64, "{label}: more than one batch");
        let expected: Vec<Vec<u32>> = sources.iter().map(|&s| bfs_sequential(graph, s).distances).collect();
        for (placement, compressed) in
            [(Placement::Device, false), (Placement::ZeroCopy, false), (Placement::Device, true)]
        {
            let what = format!("{label}, {placement:?}, compressed {compressed}");
            let placement = PlacementOptions { placement: Some(placement), compressed, ..PlacementOptions::default() };
            let traverser =
                Traverser::with_options(graph, Backend::Gpu, GpuOptions { placement, ..GpuOptions::default() })
                    .unwrap();
            assert_eq!(traverser.runs_many_bit_parallel(), !compressed, "{what}");
            for directions in [ManyDirections::Switching, ManyDirections::BottomUp, ManyDirections::TopDown] {
                let what = format!("{what}, {directions:?}");
                let run = traverser.run_many_with(&sources, directions).unwrap();
                assert_eq!(run.result.len(), sources.len(), "{what}");
                for ((&s, distances), expected) in sources.iter().zip(&run.result).zip(&expected) {
                    assert_eq!(distances, expected, "{what}: source {s}");
                }
                let warned = run.warnings.iter().any(|w| w.contains("one traversal a source"));
                assert_eq!(warned, compressed, "{what}: {:?}", run.warnings);
            }
            let levels = traverser.trace_many(&sources, ManyDirections::Switching).unwrap();
            assert_eq!(levels.is_some(), !compressed, "{what}: a traced batch where bit-parallel");
            if let Some(levels) = levels {
                let reaches_nothing = levels.iter().position(|level| level.reached == 0);
                assert!(reaches_nothing.is_some(), "{what}: the batch ends on a level that reaches nothing");
                let pushed: Vec<bool> = levels[..reaches_nothing.unwrap()].iter().map(|level| level.pushed).collect();
                if *label == "kron:18" {
                    // Of 2^22 edges or more: the sources push, and once a level pulls, so do the
                    // rest.
                    let first_pull = pushed.iter().position(|&p| !p).unwrap_or(pushed.len());
                    assert!(pushed[0] && pushed[first_pull..].iter().all(|&p| !p), "{what}: {pushed:?}");
                }
            }
        }
    }
}

/// Exact closeness and harmonic centrality on the GPU (`Traverser::centrality`: the many-source
/// searches over the reversed edges, each source's distances summed on the device by
/// `bfs_multi_source_count`) equal the CPU's bit for bit (the same integer sums, the same
/// order of the harmonic sums), undirected and directed, in device memory and zero-copy; on
/// compressed lists the CPU computes them and says why. Email-Enron too, where the datasets are.
#[test]
fn closeness_on_the_gpu_equals_the_cpus() {
    let Some(_gpu) = gpu_or_skip("closeness_on_the_gpu_equals_the_cpus") else { return };
    let mut directed: Vec<(u32, u32)> = (0..2999).map(|v| (v, (v + 1) % 2999)).collect();
    directed.extend((0..2999).step_by(7).map(|v| (v, (v * 13 + 5) % 2999)));
    let mut graphs = vec![
        ("kron:10".to_string(), generate(&"kron:10".parse::<GeneratorSpec>().unwrap(), 1).unwrap()),
        ("dkron:10".to_string(), generate(&"dkron:10".parse::<GeneratorSpec>().unwrap(), 1).unwrap()),
        ("grid2d:30x20".to_string(), generate(&"grid2d:30x20".parse::<GeneratorSpec>().unwrap(), 1).unwrap()),
        ("directed".to_string(), GraphBuilder::new().build(EdgeList::new(3000, directed, false)).unwrap()),
    ];
    if let Some(dir) = datasets_dir("closeness_on_the_gpu_equals_the_cpus") {
        for file in dataset_files(&dir).into_iter().filter(|f| f.to_string_lossy().contains("Email-Enron")) {
            let graph = read_graph(&file, &ReadOptions { ignore_weights: true, ..ReadOptions::default() }).unwrap();
            graphs.push((file.file_name().unwrap().to_string_lossy().into_owned(), graph));
        }
    }
    for (label, graph) in &graphs {
        for wf_improved in [true, false] {
            let expected = warpath::bfs::multi_source::centrality(graph, wf_improved);
            for (placement, compressed) in
                [(Placement::Device, false), (Placement::ZeroCopy, false), (Placement::Device, true)]
            {
                let what = format!("{label}, wf_improved {wf_improved}, {placement:?}, compressed {compressed}");
                let placement =
                    PlacementOptions { placement: Some(placement), compressed, ..PlacementOptions::default() };
                let traverser =
                    Traverser::with_options(graph, Backend::Gpu, GpuOptions { placement, ..GpuOptions::default() })
                        .unwrap();
                let run = traverser.centrality(wf_improved).unwrap();
                assert_eq!(run.result.closeness, expected.closeness, "{what}: closeness");
                assert_eq!(run.result.harmonic, expected.harmonic, "{what}: harmonic");
                assert_eq!(matches!(run.backend, BackendUsed::Gpu { .. }), !compressed, "{what}");
                let warned = run.warnings.iter().any(|w| w.contains("closeness runs on the CPU"));
                assert_eq!(warned, compressed, "{what}: {:?}", run.warnings);
            }
        }
    }
}
