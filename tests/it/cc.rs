//! Connected components on the CPU against the sequential union-find reference: generated graphs
//! (Kronecker, uniform, grids, RMAT), the datasets, graphs of many components, isolated vertices,
//! a star, a path, directed graphs (weakly connected components); every parameter of Afforest and
//! Shiloach-Vishkin; the runner and the simplest entry; the verifier refusing wrong labelings.

use crate::common;

use common::{build, path, rmat, star};
use warpath::cc::verify::validate;
use warpath::cc::{
    afforest, components_sequential, connected_components, shiloach_vishkin, CcAlgorithm, CcOptions, CcPhase,
    ComponentFinder, Components,
};
use warpath::engine::Backend;
use warpath::generate::{generate, GeneratorSpec};
use warpath::{Error, Graph};

/// Every parameter combination worth telling apart: rounds 0 (the final phase does it all), 1,
/// the default 2, more rounds than most lists have; sampling off, one sample, the default;
/// two seeds.
fn option_grid() -> Vec<CcOptions> {
    let mut grid = Vec::new();
    for neighbor_rounds in [0, 1, 2, 5] {
        for samples in [0, 1, 1024] {
            for seed in [1, 27491095] {
                grid.push(CcOptions {
                    algorithm: CcAlgorithm::Afforest,
                    neighbor_rounds,
                    samples,
                    seed,
                    ..CcOptions::default()
                });
            }
        }
    }
    grid
}

/// Afforest with every option set, and Shiloach-Vishkin, give exactly the reference's labels,
/// and the verifier accepts them.
fn check_all(graph: &Graph, what: &str) {
    let reference = components_sequential(graph);
    validate(graph, &reference).unwrap_or_else(|err| panic!("{what}: reference refused: {err}"));
    let transpose = (!graph.is_undirected()).then(|| graph.transpose());
    for options in option_grid() {
        let run = afforest(graph, transpose.as_ref(), &options);
        assert_eq!(run.components, reference, "{what}: {options:?}");
    }
    // Without a transpose given, a directed graph's is built inside.
    assert_eq!(afforest(graph, None, &CcOptions::default()).components, reference, "{what}: no transpose given");
    assert_eq!(shiloach_vishkin(graph).components, reference, "{what}: Shiloach-Vishkin");
}

fn generated(spec: &str) -> Graph {
    generate(&spec.parse::<GeneratorSpec>().unwrap(), 1).unwrap()
}

#[test]
fn generated_graphs_match_the_reference() {
    for spec in ["kron:12", "urand:12", "grid2d:40x25", "grid3d:10", "rmat:11:8:0.45,0.15,0.15"] {
        check_all(&generated(spec), spec);
    }
}

#[test]
fn directed_graphs_give_weakly_connected_components() {
    // 0 -> 1 <- 2: one weak component although no vertex reaches all others; 3 -> 4; 5 alone.
    let graph = build(6, vec![(0, 1), (2, 1), (3, 4)], false);
    assert_eq!(components_sequential(&graph).labels, [0, 0, 0, 3, 3, 5]);
    check_all(&graph, "small directed");
    // Edges pointing only from high to low ids, so out-lists alone never link low to high first.
    let down = build(100, (1..100).map(|v| (v, v - 1)).collect(), false);
    assert_eq!(components_sequential(&down).count(), 1);
    check_all(&down, "directed path downwards");
    for seed in 1..4 {
        check_all(&rmat(10, 3000, seed, false), &format!("directed rmat seed {seed}"));
    }
}

#[test]
fn many_components_isolated_vertices_stars_and_paths() {
    // 500 disjoint edges and 200 isolated vertices.
    let pairs = build(1200, (0..500).map(|i| (2 * i, 2 * i + 1)).collect(), true);
    let reference = components_sequential(&pairs);
    assert_eq!(reference.count(), 700);
    check_all(&pairs, "disjoint pairs");
    // Only isolated vertices; and no vertices at all.
    let lonely = build(50, vec![], true);
    assert_eq!(components_sequential(&lonely).labels, (0..50).collect::<Vec<u32>>());
    check_all(&lonely, "isolated vertices");
    check_all(&build(0, vec![], true), "empty graph");
    // A star: the hub's list is long, the leaves' lists one edge each.
    let hub = star(5000);
    assert_eq!(components_sequential(&hub).count(), 1);
    check_all(&hub, "star");
    // A star whose hub is the highest id, so every link moves the root.
    let high_hub = build(3001, (0..3000).map(|v| (3000, v)).collect(), true);
    check_all(&high_hub, "star with the hub last");
    // A long path: depth for the pointer jumping.
    check_all(&path(20_000), "path");
    // Many small RMAT components beside a big one, ids shuffled.
    for seed in 1..4 {
        check_all(&rmat(12, 2000, seed, true), &format!("sparse rmat seed {seed}"));
    }
}

#[test]
fn datasets_match_the_reference() {
    let Some(dir) = common::datasets_dir("datasets_match_the_reference") else { return };
    for file in common::dataset_files(&dir) {
        let name = file.display().to_string();
        let options = warpath::input::LoadOptions { ignore_weights: true, ..Default::default() };
        let graph = warpath::input::load_graph(&name, &options).unwrap();
        let reference = components_sequential(&graph);
        validate(&graph, &reference).unwrap();
        let transpose = (!graph.is_undirected()).then(|| graph.transpose());
        for options in [CcOptions::default(), CcOptions { neighbor_rounds: 0, samples: 0, ..CcOptions::default() }] {
            assert_eq!(afforest(&graph, transpose.as_ref(), &options).components, reference, "{name}: {options:?}");
        }
        assert_eq!(shiloach_vishkin(&graph).components, reference, "{name}: Shiloach-Vishkin");
    }
}

#[test]
fn the_phases_are_recorded_in_order_with_their_bytes() {
    let graph = generated("kron:10");
    let rounds = 3;
    let run = afforest(&graph, None, &CcOptions { neighbor_rounds: rounds, ..CcOptions::default() });
    let phases: Vec<CcPhase> = run.phases.iter().map(|p| p.phase).collect();
    let mut expected: Vec<CcPhase> = (0..rounds).map(CcPhase::NeighborRound).collect();
    expected.extend([CcPhase::Sampling, CcPhase::FinalLink, CcPhase::Compression]);
    assert_eq!(phases, expected);
    // Round r opens every list and reads one neighbor of each vertex with more than r.
    for (r, phase) in run.phases.iter().take(rounds as usize).enumerate() {
        let with_neighbor = (0..graph.num_vertices() as u32).filter(|&v| graph.degree(v) > r as u64).count() as u64;
        assert_eq!(phase.graph_bytes_read, 16 * graph.num_vertices() as u64 + 4 * with_neighbor, "round {r}");
    }
    // Sampling skips the largest component: the final link reads less than all the rest.
    let final_link = run.phases[rounds as usize + 1].graph_bytes_read;
    let unsampled = afforest(&graph, None, &CcOptions { neighbor_rounds: rounds, samples: 0, ..CcOptions::default() });
    assert!(final_link < unsampled.phases[rounds as usize + 1].graph_bytes_read);
    assert!(run.phases.iter().map(|p| p.time).sum::<std::time::Duration>() <= run.time);
    // Shiloach-Vishkin: hooking and compression per pass, every edge read per pass.
    let sv = shiloach_vishkin(&graph);
    assert!(sv.phases.len() >= 2 && sv.phases.len() % 2 == 0);
    for pair in sv.phases.chunks(2) {
        assert_eq!((pair[0].phase, pair[1].phase), (CcPhase::FinalLink, CcPhase::Compression));
        assert_eq!(pair[0].graph_bytes_read, 16 * graph.num_vertices() as u64 + 4 * graph.num_edges());
    }
}

#[test]
fn the_runner_honours_the_options_on_the_cpu_and_the_simplest_entry_agrees() {
    let graph = rmat(11, 3000, 5, false);
    let reference = components_sequential(&graph);
    let finder = ComponentFinder::new(&graph, Backend::Cpu).unwrap();
    assert!(finder.gpu().is_none() && finder.device_bytes().is_none() && finder.placement().is_none());
    for options in [
        CcOptions::default(),
        CcOptions { neighbor_rounds: 1, samples: 0, ..CcOptions::default() },
        CcOptions { algorithm: CcAlgorithm::ShiloachVishkin, ..CcOptions::default() },
    ] {
        let run = finder.run(&options).unwrap().result;
        assert_eq!(run.components, reference, "{options:?}");
        let first = run.phases.first().map(|p| p.phase);
        let expected = match options.algorithm {
            CcAlgorithm::Afforest => CcPhase::NeighborRound(0),
            CcAlgorithm::ShiloachVishkin => CcPhase::FinalLink,
        };
        assert_eq!(first, Some(expected), "{options:?}");
    }
    assert_eq!(connected_components(&graph, Backend::Cpu).unwrap().result.components, reference);
    // The compressed lists are the GPU's: on the CPU the runner says so and reads the plain ones.
    let placement = warpath::engine::PlacementOptions { compressed: true, ..Default::default() };
    let finder = ComponentFinder::with_options(&graph, Backend::Cpu, &placement, &CcOptions::default()).unwrap();
    assert!(finder.warnings().iter().any(|w| w.contains("compressed")), "{:?}", finder.warnings());
    let found = finder.run(&CcOptions::default()).unwrap();
    assert_eq!(found.result.components, reference);
    // Every run carries the finder's warnings and where it ran, the one-call entry's too.
    assert_eq!(found.warnings, finder.warnings());
    assert!(matches!(found.backend, warpath::engine::BackendUsed::Cpu { .. }));
    assert_eq!((found.end_to_end_time, found.download.bytes), (found.time, 0));
    let automatic = connected_components(&graph, Backend::Auto).unwrap();
    if matches!(automatic.backend, warpath::engine::BackendUsed::Cpu { .. }) {
        assert!(!automatic.warnings.is_empty(), "a fall back to the CPU says so");
    }
}

#[test]
fn the_verifier_refuses_merged_split_and_non_canonical_labelings() {
    let graph = generated("grid2d:6x4");
    // Two grids side by side: vertices 24.. are a copy shifted by 24.
    let edges: Vec<(u32, u32)> = (0..24u32)
        .flat_map(|v| graph.neighbors(v).iter().map(move |&w| (v, w)))
        .flat_map(|(v, w)| [(v, w), (v + 24, w + 24)])
        .collect();
    let two = build(48, edges, true);
    let right = components_sequential(&two);
    assert_eq!(right.count(), 2);
    validate(&two, &right).unwrap();
    let refused = |labels: Vec<u32>, needle: &str| match validate(&two, &Components { labels }) {
        Err(Error::Verification(message)) => assert!(message.contains(needle), "{needle}: {message}"),
        other => panic!("{needle}: expected a verification error, got {other:?}"),
    };
    // Merged: both grids under label 0.
    refused(vec![0; 48], "1 components, but the graph has 2");
    // Split: one vertex of the second grid on its own.
    let mut split = right.labels.clone();
    split[30] = 30;
    refused(split, "joins vertices of two labels");
    // Not canonical: the second grid named by its largest vertex.
    let mut largest = right.labels.clone();
    largest[24..].iter_mut().for_each(|l| *l = 47);
    refused(largest, "not the smallest vertex of its component");
    // Not canonical: a label that does not label itself.
    let mut dangling = right.labels.clone();
    dangling[24..].iter_mut().for_each(|l| *l = 1);
    refused(dangling, "but vertex 1 has label 0, not itself");
    // The error reads as a verification failure of connected components.
    let err = validate(&two, &Components { labels: vec![0; 48] }).unwrap_err().to_string();
    assert!(err.starts_with("verification failed: connected components: "), "{err}");
}

/// On a GPU (skipped without one): the runner gives the reference's labels in every placement
/// the engine offers (device memory, zero-copy, compressed lists of both, a VRAM budget that
/// forces zero-copy), for undirected and directed graphs, with every algorithm.
#[test]
fn the_runner_on_the_gpu_matches_the_reference_in_every_placement() {
    let Some(gpu) = common::gpu_or_skip("the_runner_on_the_gpu_matches_the_reference_in_every_placement") else {
        return;
    };
    drop(gpu);
    use warpath::engine::{ListHeadsKept, PlacementOptions};
    use warpath::gpu::Placement;
    let placements = [
        PlacementOptions::default(),
        PlacementOptions { placement: Some(Placement::ZeroCopy), ..Default::default() },
        PlacementOptions { compressed: true, ..Default::default() },
        PlacementOptions { placement: Some(Placement::ZeroCopy), compressed: true, ..Default::default() },
        PlacementOptions { placement: Some(Placement::ZeroCopy), list_heads: ListHeadsKept::Never, ..Default::default() },
    ];
    let graphs = [
        ("kron:14", generated("kron:14")),
        ("grid2d:300x200", generated("grid2d:300x200")),
        ("sparse rmat", rmat(13, 3000, 2, true)),
        ("directed rmat", rmat(12, 20_000, 3, false)),
        ("star", star(70_000)),
        ("path", path(50_000)),
    ];
    let algorithms = [
        CcOptions::default(),
        CcOptions { neighbor_rounds: 1, samples: 0, ..CcOptions::default() },
        CcOptions { algorithm: CcAlgorithm::ShiloachVishkin, ..CcOptions::default() },
    ];
    for (name, graph) in &graphs {
        let reference = components_sequential(graph);
        for placement in &placements {
            let finder = ComponentFinder::with_options(graph, Backend::Gpu, placement, &CcOptions::default()).unwrap();
            assert!(finder.gpu().is_some() && finder.device_bytes() > finder.device_graph_bytes());
            assert_eq!(finder.is_compressed(), placement.compressed, "{name}: {placement:?}");
            if let Some(wanted) = placement.placement {
                assert_eq!(finder.placement(), Some(wanted), "{name}");
            }
            for options in &algorithms {
                let run =
                    finder.run(options).unwrap_or_else(|err| panic!("{name}: {placement:?} {options:?}: {err}")).result;
                assert_eq!(run.components, reference, "{name}: {placement:?} {options:?}");
                assert!(!run.phases.is_empty(), "{name}: {options:?} records its phases");
            }
        }
        // A budget with room for the labels but not the lists puts them in host memory.
        let labels = 4 * graph.num_vertices() as u64;
        let tight = PlacementOptions { vram_budget: Some(2 * labels + (1 << 20)), ..Default::default() };
        let finder = ComponentFinder::with_options(graph, Backend::Gpu, &tight, &CcOptions::default()).unwrap();
        let copies = if graph.is_undirected() { 1 } else { 2 };
        let graph_bytes = copies * (8 * (graph.num_vertices() as u64 + 1) + 4 * graph.num_edges());
        if graph_bytes + labels > tight.vram_budget.unwrap() {
            assert_eq!(finder.placement(), Some(Placement::ZeroCopy), "{name}: tight budget");
        }
        assert_eq!(finder.run(&CcOptions::default()).unwrap().result.components, reference, "{name}: tight budget");
    }
}
