//! Shortest paths on the CPU: parallel delta-stepping against Dijkstra on generated graphs with
//! both weight types, on every dataset, and on the shapes that break shortest-path codes (zero
//! weights, a star, a path, many components, directed graphs, no weights); the Graph500
//! kernel-3 verifier on every result and on wrong ones; negative weights refused at reading.

use crate::common;

use warpath::generate::WeightSpec;
use warpath::graph::{EdgeList, GraphBuilder, Weights, UNREACHED};
use warpath::input::{load_graph, LoadOptions};
use warpath::sssp::verify::{compare_with_reference, validate};
use warpath::sssp::{delta_stepping, dijkstra, Distances, SsspOptions, SsspRun, UNREACHED_INT};
use warpath::{Error, Graph};

fn load(spec: &str, weights: Option<WeightSpec>, seed: u64) -> Graph {
    load_graph(spec, &LoadOptions { seed, weights, ..LoadOptions::default() }).unwrap()
}

fn weighted(n: u64, edges: Vec<(u32, u32)>, weights: Weights, undirected: bool) -> Graph {
    GraphBuilder::new().build(EdgeList::new(n, edges, undirected).with_weights(weights)).unwrap()
}

/// Delta-stepping from `source` with `delta`, checked by the verifier and against Dijkstra.
fn check(graph: &Graph, source: u32, delta: Option<f64>, what: &str) -> SsspRun {
    let run = delta_stepping(graph, source, &SsspOptions { delta, ..Default::default() }).unwrap();
    validate(graph, &run).unwrap_or_else(|e| panic!("{what}, source {source}, delta {delta:?}: {e}"));
    let reference = dijkstra(graph, source);
    validate(graph, &reference).unwrap_or_else(|e| panic!("{what}: Dijkstra itself: {e}"));
    compare_with_reference(graph, &run.distances, &reference.distances)
        .unwrap_or_else(|e| panic!("{what}, source {source}, delta {delta:?}: {e}"));
    assert!(run.relaxations >= reference.distances.edges_in_component(graph).min(1), "{what}");
    run.result
}

fn sources(graph: &Graph, count: usize) -> Vec<u32> {
    warpath::bfs::random_sources(graph, 7, count)
}

#[test]
fn delta_stepping_matches_dijkstra_on_generated_graphs_with_both_weight_types() {
    for spec in ["kron:11", "urand:11", "grid2d:40", "rmat:10:8:0.45,0.15,0.15", "grid3d:10"] {
        for weights in [WeightSpec::GAPBS, WeightSpec::Uniform { lo: 1, hi: 3 }, WeightSpec::Graph500] {
            let graph = load(spec, Some(weights), 3);
            for source in sources(&graph, 3) {
                for delta in [None, Some(1.0), Some(1e9)] {
                    check(&graph, source, delta, &format!("{spec} {weights}"));
                }
            }
        }
    }
}

#[test]
fn zero_weight_edges_give_a_tree_and_exact_distances() {
    for (spec, seed) in [("kron:10", 1), ("grid2d:30", 2), ("urand:10", 3)] {
        let graph = load(spec, Some(WeightSpec::Uniform { lo: 0, hi: 2 }), seed);
        for source in sources(&graph, 4) {
            let run = check(&graph, source, None, spec);
            assert_eq!(run.parents[source as usize], source);
        }
    }
    // All weights zero: every reached vertex at distance 0.
    let graph = load("grid2d:20", Some(WeightSpec::Uniform { lo: 0, hi: 0 }), 1);
    let run = check(&graph, 0, None, "all zero");
    assert_eq!(run.distances, Distances::Int(vec![0; 400]));
}

#[test]
fn stars_paths_and_many_components() {
    let star = weighted(1001, (1..=1000).map(|v| (0, v)).collect(), Weights::U32((1..=1000).collect()), true);
    let run = check(&star, 0, None, "star from the hub");
    assert_eq!(run.distances, Distances::Int((0..=1000).collect()));
    let run = check(&star, 5, None, "star from a leaf");
    let Distances::Int(d) = &run.distances else { panic!("integer distances") };
    assert_eq!((d[0], d[5], d[7]), (5, 0, 12));

    let n = 3000u32;
    let path = weighted(n as u64, (1..n).map(|v| (v - 1, v)).collect(), Weights::F32(vec![0.5; n as usize - 1]), true);
    let run = check(&path, 0, Some(0.5), "path");
    assert_eq!(run.distances, Distances::Float((0..n).map(|v| v as f32 * 0.5).collect()));
    assert_eq!(run.parents[n as usize - 1], n - 2);

    // 200 triangles: only the source's is reached.
    let edges: Vec<(u32, u32)> = (0..200u32).flat_map(|c| [(3 * c, 3 * c + 1), (3 * c + 1, 3 * c + 2), (3 * c, 3 * c + 2)]).collect();
    let weights = Weights::U32((0..600).map(|e| 1 + e % 5).collect());
    let islands = weighted(600, edges, weights, true);
    let run = check(&islands, 301, None, "many components");
    assert_eq!(run.distances.reached(), 3);
    let Distances::Int(d) = &run.distances else { panic!("integer distances") };
    assert!(d.iter().enumerate().all(|(v, &x)| (x == UNREACHED_INT) == !(300..303).contains(&v)));
    assert!(run.parents.iter().enumerate().all(|(v, &p)| (p == UNREACHED) == !(300..303).contains(&v)));
}

#[test]
fn directed_graphs_follow_their_arcs_only() {
    // 0 -> 1 -> 2 and 2 -> 0 back; 3 -> 0 is never reached from 0.
    let g = weighted(4, vec![(0, 1), (1, 2), (2, 0), (3, 0)], Weights::U32(vec![2, 3, 1, 1]), false);
    let run = check(&g, 0, None, "directed");
    assert_eq!(run.distances, Distances::Int(vec![0, 2, 5, UNREACHED_INT]));
    let run = check(&g, 2, None, "directed from 2");
    assert_eq!(run.distances, Distances::Int(vec![1, 3, 0, UNREACHED_INT]));
    // A directed RMAT graph with real weights.
    let rmat = common::rmat(10, 8000, 5, false);
    let rmat = warpath::generate::attach_weights(rmat, &WeightSpec::Graph500, 9).unwrap();
    for source in sources(&rmat, 4) {
        check(&rmat, source, None, "directed rmat");
    }
}

#[test]
fn unweighted_graphs_run_with_unit_weights_as_bfs_levels() {
    let graph = load("kron:10", None, 4);
    for source in sources(&graph, 3) {
        let run = check(&graph, source, None, "unweighted");
        let bfs = warpath::bfs::bfs_sequential(&graph, source);
        let levels: Vec<u64> =
            bfs.distances.iter().map(|&d| if d == UNREACHED { UNREACHED_INT } else { d as u64 }).collect();
        assert_eq!(run.distances, Distances::Int(levels));
    }
}

#[test]
fn every_dataset_matches_dijkstra() {
    let Some(dir) = common::datasets_dir("every_dataset_matches_dijkstra") else { return };
    for file in common::dataset_files(&dir) {
        let name = file.to_string_lossy().into_owned();
        // USA-road-d.NY keeps its own arc lengths; the others (some have none, some negative
        // matrix values) get GAPBS's weights.
        let own = name.contains("USA-road");
        let options = LoadOptions {
            seed: 1,
            weights: (!own).then_some(WeightSpec::GAPBS),
            ignore_weights: !own,
            ..LoadOptions::default()
        };
        let graph = load_graph(&name, &options).unwrap();
        if own {
            assert!(graph.is_weighted(), "{name} has its own weights");
        }
        for source in sources(&graph, 2) {
            check(&graph, source, None, &name);
        }
    }
}

#[test]
fn the_verifier_rejects_wrong_results_on_a_real_graph() {
    let graph = load("kron:10", Some(WeightSpec::GAPBS), 2);
    let source = sources(&graph, 1)[0];
    let good = delta_stepping(&graph, source, &SsspOptions::default()).unwrap().result;
    let Distances::Int(d) = &good.distances else { panic!("integer distances") };
    let reached: Vec<u32> = (0..d.len() as u32).filter(|&v| v != source && d[v as usize] != UNREACHED_INT).collect();
    let verdict = |run: &SsspRun| match validate(&graph, run) {
        Err(Error::Verification(message)) => message,
        other => panic!("a wrong result passed: {other:?}"),
    };

    // A distance one too long: its tree edge no longer matches.
    let v = reached[reached.len() / 2];
    let mut longer = d.clone();
    longer[v as usize] += 1;
    let message = verdict(&SsspRun { distances: Distances::Int(longer), ..good.clone() });
    assert!(message.contains("differ by its weight") || message.contains("offers"), "{message}");

    // A distance one too short, with its parent moved along: some edge or tree check fails.
    let mut shorter = d.clone();
    shorter[v as usize] -= 1;
    let message = verdict(&SsspRun { distances: Distances::Int(shorter), parents: Vec::new(), ..good.clone() });
    assert!(message.contains("no path from the source") || message.contains("offers"), "{message}");

    // A broken tree: a parent that is not a neighbor.
    let mut parents = good.parents.clone();
    let stranger = (0..d.len() as u32).find(|&u| u != v && graph.neighbors(u).binary_search(&v).is_err()).unwrap();
    parents[v as usize] = stranger;
    let message = verdict(&SsspRun { parents, ..good.clone() });
    assert!(message.contains("no edge") || message.contains("unreached"), "{message}");

    // Wrong reach: a reached vertex reported unreached.
    let mut distances = d.clone();
    let mut parents = good.parents.clone();
    distances[v as usize] = UNREACHED_INT;
    parents[v as usize] = UNREACHED;
    let message = verdict(&SsspRun { distances: Distances::Int(distances), parents, ..good.clone() });
    assert!(message.contains("unreached"), "{message}");
}

#[test]
fn negative_weights_are_refused_naming_the_first() {
    let scratch = common::Scratch::new("sssp-negative");
    let gr = scratch.file("neg.gr", b"p sp 3 3\na 1 2 4\na 2 3 -7\na 3 1 -9\n");
    let err = load_graph(gr.to_str().unwrap(), &LoadOptions::default()).unwrap_err().to_string();
    // The values as the message quotes them: the scratch path may hold "-9" too (its pid).
    assert!(err.contains("neg.gr:3") && err.contains("`-7`") && !err.contains("`-9`"), "{err}");
    let mtx = scratch.file(
        "neg.mtx",
        b"%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 0.5\n2 3 -0.25\n3 1 -2\n",
    );
    let err = load_graph(mtx.to_str().unwrap(), &LoadOptions::default()).unwrap_err().to_string();
    assert!(err.contains("neg.mtx:4") && err.contains("-0.25"), "{err}");
}

#[test]
fn several_sources_cutoffs_targets_and_paths_match_dijkstra_on_the_cpu() {
    use warpath::engine::Backend;
    use warpath::sssp::{PathFinder, SsspStrategy};
    for spec in ["kron:10", "grid2d:30", "urand:10"] {
        for weights in [WeightSpec::GAPBS, WeightSpec::Uniform { lo: 0, hi: 2 }, WeightSpec::Graph500] {
            let graph = load(spec, Some(weights), 5);
            let finder = PathFinder::new(&graph, Backend::Cpu, &SsspOptions::default()).unwrap();
            common::check_sssp_queries(&graph, &finder, SsspStrategy::DeltaStepping, &format!("{spec} {weights}"));
        }
        let unweighted = load(spec, None, 5);
        let finder = PathFinder::new(&unweighted, Backend::Cpu, &SsspOptions::default()).unwrap();
        common::check_sssp_queries(&unweighted, &finder, SsspStrategy::DeltaStepping, &format!("{spec} unweighted"));
    }
}

#[test]
fn bad_queries_are_refused_in_one_line() {
    let graph = weighted(3, vec![(0, 1), (1, 2)], Weights::U32(vec![2, 3]), true);
    let refused = |sources: &[u32], options: SsspOptions| {
        warpath::sssp::delta_stepping_from(&graph, sources, &options).unwrap_err().to_string()
    };
    assert!(refused(&[], SsspOptions::default()).contains("at least one source"));
    assert!(refused(&[0, 3], SsspOptions::default()).contains("source vertex 3"));
    assert!(refused(&[0], SsspOptions { target: Some(5), ..Default::default() }).contains("target vertex 5"));
    for bad in [-1.0, f64::NAN] {
        assert!(refused(&[0], SsspOptions { cutoff: Some(bad), ..Default::default() }).contains("non-negative"));
    }
    assert!(refused(&[0], SsspOptions { cutoff: Some(2.5), ..Default::default() }).contains("whole number"));
    // A repeated source counts once; a cutoff between distances keeps those within it.
    let run = warpath::sssp::delta_stepping_from(&graph, &[2, 2], &SsspOptions { cutoff: Some(4.0), ..Default::default() })
        .unwrap();
    assert_eq!(run.sources, vec![2]);
    assert_eq!(run.distances, Distances::Int(vec![UNREACHED_INT, 3, 0]));
    assert_eq!(run.path_to(1).unwrap(), Some(vec![2, 1]));
    assert_eq!(run.path_to(0).unwrap(), None);
    assert!(run.nearest_source.is_empty(), "one source: every reached vertex's");
}
