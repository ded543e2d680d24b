//! The partitioned BFS on 1 to 7 ranks in one process: every result passes the Graph500 checks
//! and has the sequential BFS's distances, on Kronecker, uniform, grid, directed and
//! many-component graphs, from a source in every part; levels and exchanges are accounted.

mod common;

use common::{build, rmat, Rng};
use warpath::bfs::{bfs_sequential, verify, Direction};
use warpath::generate::{generate, GeneratorSpec};
use warpath::multi::bfs::gather_tree;
use warpath::multi::{bfs_in_process, bfs_rank, partition_1d, run_ranks, Communicator, PartitionedOptions};
use warpath::Graph;

const WORLDS: [usize; 5] = [1, 2, 3, 4, 7];

fn generated(spec: &str) -> Graph {
    generate(&spec.parse::<GeneratorSpec>().unwrap(), 5).unwrap()
}

/// A source with edges in every part that has one, and two more seeded ones.
fn sources_across_parts(g: &Graph, bounds: &[u32]) -> Vec<u32> {
    let mut sources: Vec<u32> =
        bounds.windows(2).filter_map(|w| (w[0]..w[1]).find(|&v| g.degree(v) > 0)).collect();
    sources.extend(warpath::bfs::random_sources(g, 11, 2));
    sources
}

/// Runs every world size from every chosen source with `options`, and checks each tree.
fn check_graph(name: &str, g: &Graph, options: &PartitionedOptions) {
    let transpose = (!g.is_undirected()).then(|| g.transpose());
    for world in WORLDS {
        let partition = partition_1d(g, transpose.as_ref(), world).unwrap();
        for source in sources_across_parts(g, &partition.bounds) {
            let run = bfs_in_process(&partition, source, options).unwrap();
            let expected = bfs_sequential(g, source);
            let context = format!("{name}, {world} ranks, source {source}");
            assert_eq!(run.result.distances, expected.distances, "{context}");
            verify::validate(g, &run.result).unwrap_or_else(|e| panic!("{context}: {e}"));
            assert_eq!(run.ranks, world);
            assert_eq!(run.levels.len() as u32, expected.depth() + 1, "{context}");
            let frontiers: u64 = run.levels.iter().map(|l| l.trace.frontier).sum();
            assert_eq!(frontiers, expected.reached(), "{context}");
            if world == 1 {
                assert_eq!(run.exchange_bytes(), 0, "{context}: one rank sends nothing");
            }
        }
    }
}

#[test]
fn kronecker_and_uniform_graphs() {
    for spec in ["kron:11", "urand:11"] {
        check_graph(spec, &generated(spec), &PartitionedOptions::default());
    }
}

#[test]
fn grids_run_long_top_down() {
    for spec in ["grid2d:40x30", "grid3d:9"] {
        check_graph(spec, &generated(spec), &PartitionedOptions::default());
    }
}

#[test]
fn directed_graphs_search_in_lists_bottom_up() {
    let g = rmat(11, 30_000, 3, false);
    check_graph("directed rmat", &g, &PartitionedOptions::default());
    let always_bottom_up = PartitionedOptions { alpha: 1e-6, ..Default::default() };
    check_graph("directed rmat, bottom-up early", &g, &always_bottom_up);
}

#[test]
fn many_components_and_isolated_vertices() {
    // 40 paths of 37 vertices and 300 isolated ones, ids shuffled so every part holds pieces.
    let n = 40 * 37 + 300;
    let mut rng = Rng::new(9);
    let mut ids: Vec<u32> = (0..n).collect();
    for i in (1..ids.len()).rev() {
        ids.swap(i, rng.next_below(i as u64 + 1) as usize);
    }
    let edges = (0..40u32).flat_map(|c| (1..37u32).map(move |i| (c * 37 + i - 1, c * 37 + i)));
    let edges = edges.map(|(u, v)| (ids[u as usize], ids[v as usize])).collect();
    check_graph("paths", &build(n as u64, edges, true), &PartitionedOptions::default());
}

#[test]
fn top_down_only_and_bottom_up_from_the_start_agree() {
    let g = generated("kron:10");
    check_graph("kron:10 top-down", &g, &PartitionedOptions { bottom_up: false, ..Default::default() });
    check_graph("kron:10 bottom-up", &g, &PartitionedOptions { alpha: 1e-6, ..Default::default() });
}

#[test]
fn levels_record_directions_exchanges_and_the_rules_verdicts() {
    let g = generated("kron:12");
    let partition = partition_1d(&g, None, 4).unwrap();
    let source = warpath::bfs::random_source(&g, 1).unwrap();
    let run = bfs_in_process(&partition, source, &PartitionedOptions::default()).unwrap();
    let directions: Vec<Direction> = run.levels.iter().map(|l| l.trace.direction).collect();
    assert_eq!(directions[0], Direction::TopDown);
    assert!(directions.contains(&Direction::BottomUp), "{directions:?}");
    let words_per_part = partition.parts[0].bitmap_words_per_part() as u64;
    for level in &run.levels {
        assert!(level.trace.decision.is_some());
        assert!(level.exchange_time <= level.trace.time);
        if level.trace.direction == Direction::BottomUp {
            // Each of 4 ranks sends its padded share to the 3 others.
            assert_eq!(level.exchange_bytes, 4 * 3 * 8 * words_per_part);
        } else {
            // Pairs of 4-byte ids; never more than one per edge inspected.
            assert_eq!(level.exchange_bytes % 8, 0);
            assert!(level.exchange_bytes <= 8 * level.trace.edges_inspected);
        }
    }
    assert!(run.exchange_bytes() > 0);
    let inspected: u64 = run.levels.iter().map(|l| l.trace.edges_inspected).sum();
    assert!(inspected > 0 && inspected <= 2 * g.num_edges());
}

#[test]
fn the_tree_gathered_through_the_communicator_is_the_concatenated_one() {
    let g = rmat(10, 8000, 4, false);
    let partition = partition_1d(&g, None, 3).unwrap();
    let source = warpath::bfs::random_source(&g, 2).unwrap();
    let options = PartitionedOptions::default();
    let gathered = run_ranks(3, |comm| {
        let part = &partition.parts[comm.rank()];
        let rank = bfs_rank(comm, part, source, &options)?;
        gather_tree(comm, part, rank, source)
    });
    let direct = bfs_in_process(&partition, source, &options).unwrap();
    for run in gathered {
        let run = run.unwrap();
        assert_eq!(run.result.distances, direct.result.distances);
        verify::validate(&g, &run.result).unwrap();
    }
}

#[test]
fn bad_sources_and_mismatched_worlds_are_errors() {
    let g = generated("kron:8");
    let partition = partition_1d(&g, None, 2).unwrap();
    let err = bfs_in_process(&partition, g.num_vertices() as u32, &PartitionedOptions::default()).unwrap_err();
    assert!(err.to_string().contains("is not a vertex"), "{err}");
    let answers = run_ranks(3, |comm| bfs_rank(comm, &partition.parts[comm.rank() % 2], 0, &Default::default()));
    assert!(answers.iter().all(|a| a.as_ref().is_err_and(|e| e.to_string().contains("2 parts"))));
}
