//! The 2D-partitioned BFS on grids of ranks 1x1 to 3x3, ranks as threads of one process: every
//! result has the sequential BFS's distances and passes the Graph500 checks, on Kronecker,
//! uniform, grid, directed, many-component graphs and graphs whose blocks are mostly empty,
//! from a source in every vertex block; levels and exchanges are accounted like the 1D BFS's,
//! whose top-down levels it matches. The same checks run with every rank's levels on the GPU
//! (`multi::gpu`, all parts on the first GPU; skipped without one).

use crate::common;

use common::{build, gpu_or_skip, rmat, shuffled_paths, star};
use warpath::bfs::{bfs_sequential, verify, Direction};
use warpath::engine::PlacementOptions;
use warpath::generate::{generate, GeneratorSpec};
use warpath::gpu::Placement;
use warpath::multi::gpu::bfs_gpu_in_process;
use warpath::multi::{
    bfs_in_process, partition_1d, partition_2d, Grid, Partition, PartitionedOptions, PartitionedTraversal,
};
use warpath::Graph;

const GRIDS: [(usize, usize); 6] = [(1, 1), (1, 2), (2, 1), (2, 2), (2, 3), (3, 3)];

/// The 2D BFS on threads, with the default options (a 2D part is traversed top-down whatever
/// they say).
fn bfs_2d(partition: &Partition, source: u32) -> warpath::Result<PartitionedTraversal> {
    bfs_in_process(partition, source, &PartitionedOptions::default())
}

/// Where a check runs the 2D BFS: the ranks' levels on their threads, or on the GPU.
type Runner = fn(&Partition, &[u32], &PartitionedOptions) -> Vec<PartitionedTraversal>;

fn on_threads(partition: &Partition, sources: &[u32], options: &PartitionedOptions) -> Vec<PartitionedTraversal> {
    sources.iter().map(|&source| bfs_in_process(partition, source, options).unwrap()).collect()
}

fn on_gpu(partition: &Partition, sources: &[u32], options: &PartitionedOptions) -> Vec<PartitionedTraversal> {
    bfs_gpu_in_process(partition, sources, options).unwrap()
}

fn generated(spec: &str) -> Graph {
    generate(&spec.parse::<GeneratorSpec>().unwrap(), 5).unwrap()
}

/// A source with edges in every vertex block that has one, and two more seeded ones.
fn sources_across_blocks(g: &Graph, bounds: &[u32]) -> Vec<u32> {
    let mut sources: Vec<u32> = bounds.windows(2).filter_map(|w| (w[0]..w[1]).find(|&v| g.degree(v) > 0)).collect();
    sources.extend(warpath::bfs::random_sources(g, 11, 2));
    sources
}

/// Every grid, from every chosen source: the sequential BFS's distances, a valid tree, one
/// level per distance, every reached vertex in one frontier, and each reached vertex's out-edges
/// inspected once.
fn check_graph(name: &str, g: &Graph) {
    check_graph_on(name, g, &PartitionedOptions::default(), on_threads);
}

/// [`check_graph`] with the levels where `run` puts them, and `options`.
fn check_graph_on(name: &str, g: &Graph, options: &PartitionedOptions, run: Runner) {
    for (rows, cols) in GRIDS {
        let grid = Grid::new(rows, cols).unwrap();
        let partition = partition_2d(g, grid).unwrap();
        let sources = sources_across_blocks(g, &partition.bounds);
        for (run, source) in run(&partition, &sources, options).into_iter().zip(sources) {
            let expected = bfs_sequential(g, source);
            let context = format!("{name}, {grid} grid, source {source}");
            assert_eq!(run.result.distances, expected.distances, "{context}");
            verify::validate(g, &run.result).unwrap_or_else(|e| panic!("{context}: {e}"));
            assert_eq!(run.ranks, rows * cols);
            assert_eq!(run.levels.len() as u32, expected.depth() + 1, "{context}");
            let frontiers: u64 = run.levels.iter().map(|l| l.trace.frontier).sum();
            assert_eq!(frontiers, expected.reached(), "{context}");
            let inspected: u64 = run.levels.iter().map(|l| l.trace.edges_inspected).sum();
            assert_eq!(inspected, run.result.edges_in_component(g), "{context}");
            assert!(run.levels.iter().all(|l| l.trace.direction == Direction::TopDown), "{context}");
            if rows * cols == 1 {
                assert_eq!(run.exchange_bytes(), 0, "{context}: one rank sends nothing");
            }
        }
    }
}

#[test]
fn kronecker_and_uniform_graphs() {
    for spec in ["kron:11", "urand:11"] {
        check_graph(spec, &generated(spec));
    }
}

#[test]
fn grid_graphs_run_many_levels() {
    check_graph("grid2d:40x30", &generated("grid2d:40x30"));
}

#[test]
fn directed_graphs_follow_out_edges_only() {
    check_graph("directed rmat", &rmat(11, 30_000, 3, false));
}

#[test]
fn many_components_and_isolated_vertices() {
    check_graph("paths", &shuffled_paths());
}

#[test]
fn graphs_with_empty_blocks() {
    // A star: its hub's vertex block holds half the edges, every other block's edges lead to
    // one row block only, and most blocks of the matrix are empty.
    let hub = star(2000);
    let partition = partition_2d(&hub, Grid::new(3, 3).unwrap()).unwrap();
    assert!(partition.parts.iter().any(|p| p.out_lists.graph.num_edges() == 0));
    check_graph("star", &hub);
    // Fewer 64-vertex words than ranks: blocks that own no vertex at all.
    let small = build(150, vec![(0, 149), (149, 75), (75, 3), (3, 100)], true);
    let partition = partition_2d(&small, Grid::new(3, 3).unwrap()).unwrap();
    assert!(partition.parts.iter().any(|p| p.owned == 0));
    check_graph("150 vertices", &small);
}

#[test]
fn the_same_tree_as_the_1d_top_down_bfs_levels_and_frontiers() {
    let g = generated("kron:12");
    let source = warpath::bfs::random_source(&g, 1).unwrap();
    let one_d = bfs_in_process(
        &partition_1d(&g, None, 4).unwrap(),
        source,
        &PartitionedOptions { bottom_up: false, ..Default::default() },
    )
    .unwrap();
    let two_d = bfs_2d(&partition_2d(&g, Grid::squarest(4).unwrap()).unwrap(), source).unwrap();
    assert_eq!(two_d.result.distances, one_d.result.distances);
    let frontiers = |run: &PartitionedTraversal| -> Vec<u64> { run.levels.iter().map(|l| l.trace.frontier).collect() };
    assert_eq!(frontiers(&two_d), frontiers(&one_d));
    for level in &two_d.levels {
        assert!(level.exchange_time <= level.trace.time);
        // The expand sends each frontier vertex to the other rank of its column (4 bytes); the
        // fold sends pairs, at most one per edge inspected.
        assert!(level.exchange_bytes >= 4 * level.trace.frontier);
        assert!(level.exchange_bytes <= 4 * level.trace.frontier + 8 * level.trace.edges_inspected);
    }
}

/// The 2D BFS with every rank's levels on the GPU (`multi::gpu`: the column's frontier traded
/// and shifted onto local ids, then the 1D top-down kernels over the block, whose parents may
/// be ghosts), on every grid, against the sequential BFS: lists short and long (a star's hub
/// past both long-list thresholds), fixed-size pair slots and counted pairs, device memory and
/// zero-copy, plain and delta-varint lists; the edges each level inspects, which the kernels
/// count, summed to the component's.
#[test]
fn gpu_ranks_run_the_2d_bfs() {
    if gpu_or_skip("gpu_ranks_run_the_2d_bfs").is_none() {
        return;
    }
    let default = PartitionedOptions::default();
    for spec in ["kron:11", "urand:11", "grid2d:40x30"] {
        check_graph_on(spec, &generated(spec), &default, on_gpu);
    }
    check_graph_on("directed rmat", &rmat(11, 30_000, 3, false), &default, on_gpu);
    check_graph_on("paths", &shuffled_paths(), &default, on_gpu);
    check_graph_on("star", &star(70_000), &default, on_gpu);
    check_graph_on("150 vertices", &build(150, vec![(0, 149), (149, 75), (75, 3), (3, 100)], true), &default, on_gpu);
    let counted = PartitionedOptions { padded_pairs: 0, ..Default::default() };
    check_graph_on("kron:11 counted pairs", &generated("kron:11"), &counted, on_gpu);
    let placement = PlacementOptions { placement: Some(Placement::ZeroCopy), ..Default::default() };
    let zero_copy = PartitionedOptions { placement, ..Default::default() };
    check_graph_on("kron:11 zero-copy", &generated("kron:11"), &zero_copy, on_gpu);
    // Delta-varint blocks: a column's ghosts' lists decoded too, long ones by restart pieces
    // (the star's hub), in device memory and zero-copy.
    for placement in [None, Some(Placement::ZeroCopy)] {
        let placement = PlacementOptions { compressed: true, placement, ..Default::default() };
        let compressed = PartitionedOptions { placement, ..Default::default() };
        check_graph_on("kron:11 compressed", &generated("kron:11"), &compressed, on_gpu);
        check_graph_on("star compressed", &star(70_000), &compressed, on_gpu);
    }
    let placement = PlacementOptions { compressed: true, ..Default::default() };
    let compressed = PartitionedOptions { placement, ..Default::default() };
    check_graph_on("directed rmat compressed", &rmat(11, 30_000, 3, false), &compressed, on_gpu);
}
