//! The CPU traversals against hand-computed answers and against each other: the parallel
//! BFS must give exactly the reference distances, and a tree that validates, in every
//! direction mode.

use crate::common;

use common::{binary_tree, build, complete, path, rmat, star};
use warpath::bfs::{
    bfs_parallel, bfs_parallel_with, bfs_sequential, check_source, random_source, random_sources, BfsResult, Direction,
    DirectionParams, LevelTrace,
};
use warpath::graph::{EdgeList, GraphBuilder, UNREACHED};
use warpath::bfs::verify::validate_bfs_tree;
use warpath::{Error, Graph};

const U: u32 = UNREACHED;

fn modes() -> [(&'static str, DirectionParams); 3] {
    [
        ("default", DirectionParams::default()),
        ("top-down only", DirectionParams::top_down_only()),
        ("bottom-up only", DirectionParams::bottom_up_only()),
    ]
}

/// Runs the reference and every parallel variant (each direction mode, with and without a
/// transpose for directed graphs), checks that they agree and validate, and returns the
/// reference.
fn check_all_variants(g: &Graph, source: u32) -> BfsResult {
    let reference = bfs_sequential(g, source);
    validate_bfs_tree(g, &reference).unwrap_or_else(|e| panic!("reference from {source}: {e}"));
    let transpose = (!g.is_undirected()).then(|| g.transpose());
    let transposes = if g.is_undirected() { vec![None] } else { vec![None, transpose.as_ref()] };
    for t in transposes {
        for (mode, params) in modes() {
            let what = format!("source {source}, {mode}, transpose given: {}", t.is_some());
            let (result, trace) = bfs_parallel_with(g, t, source, &params);
            assert_eq!(result.source, source, "{what}");
            assert_eq!(result.distances, reference.distances, "{what}");
            validate_bfs_tree(g, &result).unwrap_or_else(|e| panic!("{what}: {e}"));
            check_trace(&result, &trace, &what);
            let bottom_up_possible = g.is_undirected() || t.is_some();
            let directions: Vec<Direction> = trace.iter().map(|l| l.direction).collect();
            match mode {
                "top-down only" => {
                    assert!(directions.iter().all(|&d| d == Direction::TopDown), "{what}: {directions:?}");
                    // Top-down expands every reached vertex once, looking at all its out-edges.
                    let inspected: u64 = trace.iter().map(|l| l.edges_inspected).sum();
                    assert_eq!(inspected, result.edges_in_component(g), "{what}");
                }
                "bottom-up only" if bottom_up_possible && g.degree(source) > 0 => {
                    assert!(directions.iter().all(|&d| d == Direction::BottomUp), "{what}: {directions:?}");
                }
                _ if !bottom_up_possible => {
                    assert!(directions.iter().all(|&d| d == Direction::TopDown), "{what}: {directions:?}");
                }
                _ => {}
            }
        }
    }
    assert_eq!(bfs_parallel(g, transpose.as_ref(), source).distances, reference.distances);
    reference
}

/// One trace entry per level, levels counting up from 0, frontiers adding up to the
/// reached vertices and matching the distance histogram.
fn check_trace(result: &BfsResult, trace: &[LevelTrace], what: &str) {
    assert_eq!(trace.len() as u32, result.depth() + 1, "{what}");
    for (i, level) in trace.iter().enumerate() {
        assert_eq!(level.level, i as u32, "{what}");
        let at_level = result.distances.iter().filter(|&&d| d == i as u32).count() as u64;
        assert_eq!(level.frontier, at_level, "{what}: level {i}");
    }
    let total: u64 = trace.iter().map(|l| l.frontier).sum();
    assert_eq!(total, result.reached(), "{what}");
}

#[test]
fn path_distances_and_parents_by_hand() {
    let g = path(5);
    let r = check_all_variants(&g, 2);
    assert_eq!(r.distances, vec![2, 1, 0, 1, 2]);
    assert_eq!(r.parents, vec![1, 2, 2, 2, 3]);
    assert_eq!((r.depth(), r.reached(), r.edges_in_component(&g)), (2, 5, 8));

    let long = path(3000);
    let r = check_all_variants(&long, 0);
    assert_eq!(r.distances, (0..3000).collect::<Vec<u32>>());
    assert_eq!(r.depth(), 2999);
}

#[test]
fn star_with_a_huge_hub() {
    let leaves = 120_000;
    let g = star(leaves);
    let from_hub = check_all_variants(&g, 0);
    assert!(from_hub.distances[1..].iter().all(|&d| d == 1));
    assert!(from_hub.parents[1..].iter().all(|&p| p == 0));

    let leaf = 4321;
    let r = check_all_variants(&g, leaf);
    for (v, &d) in r.distances.iter().enumerate() {
        let expected = match v as u32 {
            v if v == leaf => 0,
            0 => 1,
            _ => 2,
        };
        assert_eq!(d, expected, "vertex {v}");
    }
    assert_eq!((r.depth(), r.reached()), (2, leaves as u64 + 1));
    assert_eq!(r.edges_in_component(&g), 2 * leaves as u64);

    // From a leaf the hub is a one-vertex frontier with 120,000 edges: exactly the case
    // Beamer's heuristic sends bottom-up, where each leaf finds its parent on its first
    // (and only) in-edge instead of the hub pushing to all of them.
    let (_, trace) = bfs_parallel_with(&g, None, leaf, &DirectionParams::default());
    let directions: Vec<Direction> = trace.iter().map(|l| l.direction).collect();
    assert_eq!(directions, [Direction::TopDown, Direction::BottomUp, Direction::BottomUp]);
    assert_eq!(trace[1].edges_inspected, leaves as u64 - 1);
}

#[test]
fn complete_graph_and_bottom_up_early_exit() {
    let n = 60u32;
    let g = complete(n);
    let r = check_all_variants(&g, 7);
    for v in 0..n {
        assert_eq!(r.distances[v as usize], u32::from(v != 7));
    }

    // Bottom-up from vertex 0: every other vertex finds 0 first in its sorted in-list, and
    // at the next level nobody is left to look, whereas top-down rescans every edge.
    let (_, bottom_up) = bfs_parallel_with(&g, None, 0, &DirectionParams::bottom_up_only());
    assert_eq!(bottom_up[0].edges_inspected, (n - 1) as u64);
    assert_eq!(bottom_up[1].edges_inspected, 0);
    let (_, top_down) = bfs_parallel_with(&g, None, 0, &DirectionParams::top_down_only());
    assert_eq!(top_down[1].edges_inspected, ((n - 1) * (n - 1)) as u64);
}

#[test]
fn binary_tree_levels_by_hand() {
    let n = (1u32 << 10) - 1;
    let g = binary_tree(n);
    let r = check_all_variants(&g, 0);
    for v in 1..n {
        assert_eq!(r.distances[v as usize], (v + 1).ilog2(), "vertex {v}");
        assert_eq!(r.parents[v as usize], (v - 1) / 2, "vertex {v}");
    }
    assert_eq!(r.depth(), 9);
    // From the last leaf: up 9 levels to the root, down 9 to the far leaves.
    let r = check_all_variants(&g, n - 1);
    assert_eq!(r.distances[0], 9);
    assert_eq!(r.depth(), 18);
}

#[test]
fn many_components_stay_apart() {
    // Cycles of lengths 3, 4, ..., 202 laid out one after the other.
    let mut edges = Vec::new();
    let mut starts = Vec::new();
    let mut next = 0u32;
    for len in 3..203u32 {
        starts.push((next, len));
        for i in 0..len {
            edges.push((next + i, next + (i + 1) % len));
        }
        next += len;
    }
    let g = build(next as u64, edges, true);
    for &(first, len) in starts.iter().step_by(37) {
        let r = check_all_variants(&g, first);
        assert_eq!(r.reached(), len as u64);
        assert_eq!(r.edges_in_component(&g), 2 * len as u64);
        for v in 0..next {
            let expected = if (first..first + len).contains(&v) {
                let i = v - first;
                i.min(len - i)
            } else {
                U
            };
            assert_eq!(r.distances[v as usize], expected, "vertex {v}");
        }
    }
}

#[test]
fn isolated_vertices_are_never_reached_and_reach_nothing() {
    let g = build(10, vec![(0, 1), (1, 2), (2, 3)], true);
    let r = check_all_variants(&g, 0);
    assert_eq!(r.distances, vec![0, 1, 2, 3, U, U, U, U, U, U]);
    assert_eq!(r.parents, vec![0, 0, 1, 2, U, U, U, U, U, U]);

    let alone = check_all_variants(&g, 7);
    assert_eq!((alone.reached(), alone.depth(), alone.edges_in_component(&g)), (1, 0, 0));
    assert!(matches!(check_source(&g, 7), Err(Error::InvalidSource { vertex: 7, .. })));
}

#[test]
fn directed_reachability_differs_from_the_undirected_view() {
    // 0 -> 1 -> 2 -> 0 is a cycle; 4 -> 3 -> 1 feeds into it but cannot be reached from it.
    let edges = vec![(0, 1), (1, 2), (2, 0), (3, 1), (4, 3)];
    let directed = build(5, edges.clone(), false);
    let undirected = build(5, edges, true);

    let r = check_all_variants(&directed, 0);
    assert_eq!(r.distances, vec![0, 1, 2, U, U]);
    assert_eq!(r.parents, vec![0, 0, 1, U, U]);
    let r = check_all_variants(&directed, 4);
    assert_eq!(r.distances, vec![4, 2, 3, 1, 0]);
    assert_eq!(r.parents, vec![2, 3, 1, 4, 4]);

    let r = check_all_variants(&undirected, 0);
    assert_eq!(r.distances, vec![0, 1, 1, 2, 3]);
}

#[test]
fn rmat_graphs_match_the_reference() {
    for (scale, edge_factor, seed) in [(10, 8, 1u64), (12, 16, 2), (14, 16, 3)] {
        for undirected in [true, false] {
            let edges = (1usize << scale) * edge_factor;
            let g = rmat(scale, edges, seed, undirected);
            for source in random_sources(&g, seed, 3) {
                check_source(&g, source).unwrap();
                let r = check_all_variants(&g, source);
                assert!(r.reached() > 1);
                if undirected {
                    // Scale-free graphs have a giant component with a small diameter.
                    assert!(r.reached() > g.num_vertices() as u64 / 4, "scale {scale}: {}", r.reached());
                }
            }
        }
    }
}

#[test]
fn default_heuristic_goes_bottom_up_and_back_on_a_scale_free_graph() {
    let g = rmat(14, 1 << 18, 9, true);
    let source = random_source(&g, 9).unwrap();
    let (r, trace) = bfs_parallel_with(&g, None, source, &DirectionParams::default());
    assert_eq!(r.distances, bfs_sequential(&g, source).distances);
    let directions: Vec<Direction> = trace.iter().map(|l| l.direction).collect();
    assert_eq!(directions[0], Direction::TopDown, "{directions:?}");
    assert!(directions.contains(&Direction::BottomUp), "{directions:?}");
    assert_eq!(*directions.last().unwrap(), Direction::TopDown, "{directions:?}");

    // Bottom-up's early exit is the point of direction optimization: it must look at fewer
    // edges than pushing from every frontier vertex does.
    let inspected = |t: &[LevelTrace]| t.iter().map(|l| l.edges_inspected).sum::<u64>();
    let (_, top_down) = bfs_parallel_with(&g, None, source, &DirectionParams::top_down_only());
    assert!(inspected(&trace) < inspected(&top_down), "{} vs {}", inspected(&trace), inspected(&top_down));
}

#[test]
fn check_source_names_external_ids() {
    let mut list = EdgeList::new(5, vec![(0, 1), (1, 2), (3, 4)], false);
    list.id_base = 1;
    let g = GraphBuilder::new().build(list).unwrap();
    check_source(&g, 0).unwrap();

    let err = check_source(&g, 5).unwrap_err();
    assert!(matches!(err, Error::InvalidSource { vertex: 6, .. }), "{err:?}");
    assert_eq!(err.to_string(), "source vertex 6 is out of range: the graph has 5 vertices (ids 1..=5)");

    // Internal 2 (external 3) only has an in-edge in this directed graph.
    let err = check_source(&g, 2).unwrap_err();
    assert!(matches!(err, Error::InvalidSource { vertex: 3, .. }), "{err:?}");
    assert!(err.to_string().contains("has no outgoing edges"), "{err}");

    let empty = build(0, vec![], true);
    let err = check_source(&empty, 0).unwrap_err();
    assert!(err.to_string().contains("no vertices"), "{err}");
}

#[test]
fn random_source_is_seeded_and_has_edges() {
    let g = rmat(12, 1 << 15, 5, true);
    let mut seen = std::collections::HashSet::new();
    for seed in 0..20 {
        let s = random_source(&g, seed).unwrap();
        assert_eq!(random_source(&g, seed), Some(s), "seed {seed} must be deterministic");
        assert!(g.degree(s) > 0);
        assert_eq!(random_sources(&g, seed, 8)[0], s);
        seen.insert(s);
    }
    assert!(seen.len() > 10, "20 seeds gave only {} distinct sources", seen.len());

    let many = random_sources(&g, 77, 64);
    assert_eq!(many.len(), 64);
    assert!(many.iter().all(|&v| g.degree(v) > 0));
    let distinct: std::collections::HashSet<u32> = many.iter().copied().collect();
    assert_eq!(distinct.len(), 64);
    assert_eq!(random_sources(&g, 77, 64), many);
}

#[test]
fn random_source_finds_a_needle_and_handles_edgeless_graphs() {
    // One vertex in 100,000 has an out-edge: rejection sampling gives up and the scan finds it.
    let g = build(100_000, vec![(77_777, 12)], false);
    for seed in 0..3 {
        assert_eq!(random_source(&g, seed), Some(77_777));
    }

    // Fewer candidates than asked for: each once, then repeats, never a vertex without edges.
    let few = build(1000, vec![(10, 20), (30, 40)], true);
    let picked = random_sources(&few, 1, 10);
    assert_eq!(picked.len(), 10);
    let mut first_four = picked[..4].to_vec();
    first_four.sort_unstable();
    assert_eq!(first_four, vec![10, 20, 30, 40]);
    assert_eq!(picked[4..8], picked[..4]);

    let edgeless = build(50, vec![], true);
    assert_eq!(random_source(&edgeless, 3), None);
    assert!(random_sources(&edgeless, 3, 4).is_empty());
}

/// XBFS's `lambda` (the growth of the edge check from one level to the next) predicts the
/// level before a switch on real traces: run the CPU BFS top-down only on Kronecker and
/// uniform graphs, and at every top-down level with a previous level (so a ratio) ask the
/// predictor whether the next level goes bottom-up, against what the rule says of the next
/// level's actual counters. It must be right more often than wrong, and catch most switches.
#[test]
fn lambda_foresees_the_switch_to_bottom_up_on_scale_free_and_uniform_graphs() {
    use warpath::bfs::{switch_inputs, SwitchInputs, SwitchRule, Switching};
    use warpath::generate::{generate, GeneratorSpec};
    for spec in ["kron:16", "urand:16:16"] {
        let g = generate(&spec.parse::<GeneratorSpec>().unwrap(), 1).unwrap();
        for rule in SwitchRule::ALL {
            let switching = Switching {
                rule,
                alpha: rule.default_alpha(),
                beta: 18.0,
                n: g.num_vertices() as u64,
                edges: g.num_edges(),
                in_listed: g.vertices_with_in_edges(),
            };
            let (mut hits, mut misses, mut false_alarms) = (0, 0, 0);
            for source in random_sources(&g, 16, 3) {
                let (_, trace) = bfs_parallel_with(&g, None, source, &DirectionParams::top_down_only());
                let inputs: Vec<SwitchInputs> =
                    (0..trace.len()).map(|i| switch_inputs(&trace, i, switching.in_listed)).collect();
                // Up to the first level the rule sends bottom-up: later levels of a top-down
                // run are not what a direction-optimizing run would see.
                for i in 1..inputs.len() - 1 {
                    if switching.wants_bottom_up(&inputs[i]) {
                        break;
                    }
                    match (switching.predicts_switch(&inputs[i], false), switching.wants_bottom_up(&inputs[i + 1])) {
                        (true, true) => hits += 1,
                        (false, true) => misses += 1,
                        (true, false) => false_alarms += 1,
                        (false, false) => {}
                    }
                }
            }
            eprintln!("{spec} ({rule}): {hits} switches foreseen, {misses} missed, {false_alarms} false alarms");
            assert!(hits > 0, "{spec} ({rule}): no switch foreseen");
            assert!(
                hits >= misses && hits > false_alarms,
                "{spec} ({rule}): {hits} hits, {misses} misses, {false_alarms} false alarms"
            );
        }
    }
}
