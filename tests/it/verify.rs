//! The validators must accept every correct BFS tree (or distance array, for distances-only
//! results) and reject each way one can be wrong, with a message that names the vertex and the
//! broken rule.

use crate::common;

use common::{build, rmat, Rng};
use warpath::bfs::verify::{
    validate, validate_bfs_tree, validate_bfs_tree_against, validate_distances, ValidatedLevels,
};
use warpath::bfs::{bfs_parallel, bfs_sequential, random_sources, BfsResult};
use warpath::graph::{EdgeList, GraphBuilder, UNREACHED};
use warpath::{Error, Graph};

const U: u32 = UNREACHED;

/// Undirected: 0-1, 0-2, 1-3, 2-3, 3-4, 2-5, and a separate component 6-7.
///
/// ```text
///     0          6 - 7
///    / \
///   1   2 - 5
///    \ /
///     3 - 4
/// ```
fn small_edges() -> Vec<(u32, u32)> {
    vec![(0, 1), (0, 2), (1, 3), (2, 3), (3, 4), (2, 5), (6, 7)]
}

fn small() -> Graph {
    build(8, small_edges(), true)
}

/// The sequential BFS of [`small`] from 0, by hand: 3 is found from 1, which is dequeued
/// before 2.
fn small_tree() -> BfsResult {
    BfsResult { source: 0, distances: vec![0, 1, 1, 2, 3, 2, U, U], parents: vec![0, 0, 0, 1, 3, 2, U, U] }
}

fn expect_rejected(g: &Graph, result: &BfsResult, fragments: &[&str]) {
    match validate_bfs_tree(g, result) {
        Err(Error::Verification(message)) => {
            for fragment in fragments {
                assert!(message.contains(fragment), "message {message:?} lacks {fragment:?}");
            }
        }
        other => panic!("expected a verification error containing {fragments:?}, got {other:?}"),
    }
}

fn corrupt(change: impl FnOnce(&mut BfsResult)) -> BfsResult {
    let mut r = small_tree();
    change(&mut r);
    r
}

#[test]
fn accepts_the_hand_computed_tree_and_an_alternative_one() {
    let g = small();
    assert_eq!(bfs_sequential(&g, 0), small_tree());
    validate_bfs_tree(&g, &small_tree()).unwrap();
    // 3 could equally hang off 2: any shortest-path tree is a valid BFS tree.
    validate_bfs_tree(&g, &corrupt(|r| r.parents[3] = 2)).unwrap();
}

#[test]
fn rejects_a_wrong_root() {
    let g = small();
    expect_rejected(&g, &corrupt(|r| r.parents[0] = 1), &["root 0", "own parent", "is 1"]);
    expect_rejected(&g, &corrupt(|r| r.parents[0] = U), &["root 0", "own parent", "UNREACHED"]);
    expect_rejected(&g, &corrupt(|r| r.distances[0] = 1), &["root 0", "distance 0"]);
    expect_rejected(&g, &corrupt(|r| r.source = 8), &["source 8 is not a vertex"]);
}

#[test]
fn rejects_a_parent_that_is_not_a_neighbor() {
    let g = small();
    // 5 is at distance 2 like 3 and 1 is at distance 1 like 2, so only the edge check can object.
    expect_rejected(&g, &corrupt(|r| r.parents[4] = 5), &["vertex 4", "no edge 5 -> 4"]);
    expect_rejected(&g, &corrupt(|r| r.parents[5] = 1), &["vertex 5", "no edge 1 -> 5"]);
}

#[test]
fn rejects_distances_off_by_one() {
    let g = small();
    expect_rejected(&g, &corrupt(|r| r.distances[4] = 4), &["vertex 4", "distance 4", "parent 3 is at 2"]);
    expect_rejected(&g, &corrupt(|r| r.distances[4] = 2), &["vertex 4", "distance 2", "parent 3 is at 2"]);
    // A second vertex at distance 0 cannot hang one level below the root.
    expect_rejected(&g, &corrupt(|r| r.distances[1] = 0), &["vertex 1", "distance 0"]);
}

#[test]
fn rejects_a_reachable_vertex_marked_unreached() {
    let g = small();
    let r = corrupt(|r| {
        r.distances[4] = U;
        r.parents[4] = U;
    });
    expect_rejected(&g, &r, &["vertex 4 is marked unreached", "edge 3 -> 4"]);
}

#[test]
fn rejects_half_reached_vertices() {
    let g = small();
    expect_rejected(&g, &corrupt(|r| r.parents[6] = 7), &["vertex 6 is marked unreached but has parent 7"]);
    expect_rejected(&g, &corrupt(|r| r.distances[6] = 1), &["vertex 6 has distance 1 but no parent"]);
    expect_rejected(&g, &corrupt(|r| r.parents[4] = U), &["vertex 4 has distance 3 but no parent"]);
    // A parent that was itself never reached.
    let r = corrupt(|r| {
        r.distances[6] = 1;
        r.parents[6] = 7;
    });
    expect_rejected(&g, &r, &["vertex 6", "parent 7, which is unreached"]);
    expect_rejected(&g, &corrupt(|r| r.parents[3] = 100), &["vertex 3", "parent 100, which is not a vertex"]);
}

#[test]
fn rejects_parent_cycles_and_self_parents() {
    let g = small();
    let r = corrupt(|r| {
        r.parents[3] = 4;
        r.parents[4] = 3;
    });
    expect_rejected(&g, &r, &["vertex 3", "its parent 4"]);
    expect_rejected(&g, &corrupt(|r| r.parents[3] = 3), &["vertex 3 is its own parent"]);
}

#[test]
fn rejects_wrong_array_lengths() {
    let g = small();
    expect_rejected(
        &g,
        &corrupt(|r| {
            r.distances.pop();
        }),
        &["distance array has 7 entries", "8 vertices"],
    );
    expect_rejected(&g, &corrupt(|r| r.parents.push(U)), &["parent array has 9 entries", "8 vertices"]);
}

#[test]
fn rejects_a_tree_that_is_not_breadth_first() {
    // A depth-first tree of the triangle 0-1-2: every tree edge is real and one level deep,
    // but the edge 0 -> 2 shows 2 is really at distance 1.
    let g = build(3, vec![(0, 1), (1, 2), (0, 2)], true);
    let dfs = BfsResult { source: 0, distances: vec![0, 1, 2], parents: vec![0, 0, 1] };
    expect_rejected(&g, &dfs, &["vertex 2 is at distance 2", "edge 0 -> 2", "from distance 0"]);
}

#[test]
fn directed_edges_only_constrain_forward() {
    // In the cycle 0 -> 1 -> 2 -> 0 the edge 2 -> 0 drops two levels; that is fine one way.
    let g = build(3, vec![(0, 1), (1, 2), (2, 0)], false);
    let r = BfsResult { source: 0, distances: vec![0, 1, 2], parents: vec![0, 0, 1] };
    validate_bfs_tree(&g, &r).unwrap();
    // But a parent must be an in-neighbor, not an out-neighbor.
    let g = build(3, vec![(0, 1), (2, 1), (1, 2)], false);
    let r = BfsResult { source: 0, distances: vec![0, 1, 2], parents: vec![0, 0, 1] };
    validate_bfs_tree(&g, &r).unwrap();
    let backwards = build(3, vec![(0, 1), (2, 1)], false);
    expect_rejected(&backwards, &r, &["no edge 1 -> 2"]);
}

#[test]
fn messages_use_the_files_vertex_ids() {
    let mut list = EdgeList::new(8, small_edges(), true);
    list.id_base = 1;
    let g = GraphBuilder::new().build(list).unwrap();
    validate_bfs_tree(&g, &small_tree()).unwrap();
    expect_rejected(&g, &corrupt(|r| r.parents[4] = 5), &["vertex 5", "no edge 6 -> 5"]);
}

#[test]
fn accepts_and_guards_bfs_trees_of_rmat_graphs() {
    for (undirected, seed) in [(true, 11u64), (false, 12)] {
        let g = rmat(13, 1 << 17, seed, undirected);
        let transpose = g.transpose();
        for source in random_sources(&g, seed, 2) {
            let reference = bfs_sequential(&g, source);
            validate_bfs_tree(&g, &reference).unwrap();
            validate_bfs_tree(&g, &bfs_parallel(&g, Some(&transpose), source)).unwrap();

            // Any single vertex pushed one level too deep, or dropped from the tree, is caught.
            let reached: Vec<u32> =
                (0..g.num_vertices() as u32).filter(|&v| v != source && reference.distances[v as usize] != U).collect();
            let mut rng = Rng::new(seed ^ source as u64);
            for _ in 0..20 {
                let v = reached[rng.next_below(reached.len() as u64) as usize] as usize;
                let mut deeper = reference.clone();
                deeper.distances[v] += 1;
                assert!(validate_bfs_tree(&g, &deeper).is_err(), "distance of {v} raised");
                let mut dropped = reference.clone();
                dropped.distances[v] = U;
                dropped.parents[v] = U;
                assert!(validate_bfs_tree(&g, &dropped).is_err(), "vertex {v} dropped");
            }
        }
    }
}

/// [`small_tree`]'s distances alone, as a distances-only traversal returns them.
fn small_distances() -> BfsResult {
    small_tree().without_parents()
}

fn expect_distances_rejected(g: &Graph, change: impl FnOnce(&mut BfsResult), fragments: &[&str]) {
    let mut r = small_distances();
    change(&mut r);
    match validate_distances(g, &r) {
        Err(Error::Verification(message)) => {
            for fragment in fragments {
                assert!(message.contains(fragment), "message {message:?} lacks {fragment:?}");
            }
        }
        other => panic!("expected a verification error containing {fragments:?}, got {other:?}"),
    }
    // `validate` picks the distance rules for a result without parents.
    assert!(validate(g, &r).is_err(), "validate accepted {:?}", r.distances);
}

#[test]
fn distances_accepts_correct_distances_and_ignores_parents() {
    let g = small();
    validate_distances(&g, &small_distances()).unwrap();
    validate(&g, &small_distances()).unwrap();
    // With parents, the distances are still checked alone; a wrong parent goes unnoticed here.
    validate_distances(&g, &small_tree()).unwrap();
    validate_distances(&g, &corrupt(|r| r.parents[4] = 5)).unwrap();
    // Directed: the edge 2 -> 0 drops two levels, which is fine that way round.
    let cycle = build(3, vec![(0, 1), (1, 2), (2, 0)], false);
    validate_distances(&cycle, &BfsResult { source: 0, distances: vec![0, 1, 2], parents: Vec::new() }).unwrap();
}

#[test]
fn distances_rejects_wrong_lengths_and_a_bad_source() {
    let g = small();
    expect_distances_rejected(&g, |r| r.distances.push(U), &["distance array has 9 entries", "8 vertices"]);
    expect_distances_rejected(&g, |r| r.source = 100, &["source 100 is not a vertex"]);
    expect_distances_rejected(&g, |r| r.distances[0] = 1, &["source 0 must be at distance 0", "is at 1"]);
    expect_distances_rejected(&g, |r| r.distances[0] = U, &["source 0 must be at distance 0", "UNREACHED"]);
}

#[test]
fn distances_rejects_an_unreached_vertex_with_a_reached_in_neighbor() {
    expect_distances_rejected(
        &small(),
        |r| r.distances[4] = U,
        &["vertex 4 is marked unreached", "edge 3 -> 4", "no reached in-neighbor"],
    );
}

#[test]
fn distances_rejects_an_edge_spanning_more_than_one_level() {
    expect_distances_rejected(
        &small(),
        |r| r.distances[4] = 5,
        &["vertex 4 is at distance 5", "edge 3 -> 4", "from distance 2", "at most one more"],
    );
}

#[test]
fn distances_rejects_a_vertex_with_no_in_neighbor_one_level_closer() {
    let g = small();
    // 4's only neighbor, 3, is at 2 as well: nothing could have found 4 at level 2.
    expect_distances_rejected(&g, |r| r.distances[4] = 2, &["vertex 4 is at distance 2", "none is at distance 1"]);
    // A second vertex at distance 0.
    expect_distances_rejected(&g, |r| r.distances[5] = 0, &["vertex 5 is at distance 0", "the source alone"]);
    // The other component marked reached, consistently within itself but cut off from the source.
    expect_distances_rejected(
        &g,
        |r| {
            r.distances[6] = 1;
            r.distances[7] = 2;
        },
        &["vertex 6 is at distance 1", "no in-neighbor is one level closer"],
    );
    // Directed: 2 points at the source but nothing points at 2, so it cannot be at level 1.
    let g = build(3, vec![(0, 1), (2, 0), (2, 1)], false);
    let r = BfsResult { source: 0, distances: vec![0, 1, 1], parents: Vec::new() };
    match validate_distances(&g, &r) {
        Err(Error::Verification(message)) => assert!(message.contains("vertex 2 is at distance 1"), "{message}"),
        other => panic!("an out-neighbor one level closer is not an in-neighbor: {other:?}"),
    }
}

#[test]
fn the_tree_validator_refuses_a_result_without_parents_and_says_what_to_use() {
    match validate_bfs_tree(&small(), &small_distances()) {
        Err(Error::InvalidArgument(message)) => {
            assert!(message.contains("no parents") && message.contains("validate_distances"), "{message}")
        }
        other => panic!("expected a refusal naming validate_distances, got {other:?}"),
    }
}

#[test]
fn distances_accepts_and_guards_bfs_distances_of_rmat_graphs() {
    for (undirected, seed) in [(true, 21u64), (false, 22)] {
        let g = rmat(13, 1 << 17, seed, undirected);
        for source in random_sources(&g, seed, 2) {
            let reference = bfs_sequential(&g, source).without_parents();
            validate_distances(&g, &reference).unwrap();
            let reached: Vec<u32> =
                (0..g.num_vertices() as u32).filter(|&v| v != source && reference.distances[v as usize] != U).collect();
            let mut rng = Rng::new(seed ^ source as u64);
            for _ in 0..20 {
                let v = reached[rng.next_below(reached.len() as u64) as usize] as usize;
                for wrong in [reference.distances[v] + 1, reference.distances[v] - 1, U] {
                    let mut changed = reference.clone();
                    changed.distances[v] = wrong;
                    assert!(validate_distances(&g, &changed).is_err(), "distance of {v} set to {wrong}");
                }
            }
        }
    }
}

/// A traversal checked against a validated one from the same source: the tree rules, then as
/// many vertices reached and the same sum of distances, with no pass over the edges.
#[test]
fn a_tree_checked_against_validated_levels_needs_their_count_and_sum() {
    let g = small();
    let reference = ValidatedLevels::of(&small_tree());
    assert_eq!(reference, ValidatedLevels { source: 0, reached: 6, distance_sum: 9 });
    validate_bfs_tree_against(&g, &small_tree(), &reference).unwrap();
    validate_bfs_tree_against(&g, &corrupt(|r| r.parents[3] = 2), &reference).unwrap();
    // A tree the long way round (2 under 3, 5 under 2): every tree edge is a graph edge one
    // level down, so only the edge rule or the sum tells it from a BFS.
    let long_way =
        BfsResult { source: 0, distances: vec![0, 1, 3, 2, 3, 4, U, U], parents: vec![0, 0, 3, 1, 3, 2, U, U] };
    assert!(validate_bfs_tree(&g, &long_way).is_err());
    let err = validate_bfs_tree_against(&g, &long_way, &reference).unwrap_err().to_string();
    assert!(err.contains("sum to 13") && err.contains("gives 9"), "{err}");
    // A reachable vertex left out.
    let short = corrupt(|r| {
        r.distances[5] = U;
        r.parents[5] = U;
    });
    let err = validate_bfs_tree_against(&g, &short, &reference).unwrap_err().to_string();
    assert!(err.contains("5 vertices reached") && err.contains("reached 6"), "{err}");
    // The tree rules still hold first.
    let stranger = corrupt(|r| r.parents[4] = 5);
    assert!(validate_bfs_tree_against(&g, &stranger, &reference).unwrap_err().to_string().contains("no edge"));
    // Another source's levels are not a reference.
    let other = ValidatedLevels { source: 1, ..reference };
    assert!(matches!(validate_bfs_tree_against(&g, &small_tree(), &other), Err(Error::InvalidArgument(_))));
}

/// Parallel trees of a bigger graph pass against the sequential BFS's levels.
#[test]
fn parallel_trees_pass_against_the_sequential_levels() {
    let g = rmat(12, 40_000, 7, false);
    let transpose = g.transpose();
    for source in random_sources(&g, 4, 3) {
        let reference = ValidatedLevels::of(&bfs_sequential(&g, source));
        validate_bfs_tree_against(&g, &bfs_parallel(&g, Some(&transpose), source), &reference).unwrap();
    }
}
