//! The partitioned BFS on 1 to 7 ranks in one process: every result passes the Graph500 checks
//! and has the sequential BFS's distances, on Kronecker, uniform, grid, directed and
//! many-component graphs, from a source in every part; levels and exchanges are accounted.
//! The same checks run with every rank's levels on the GPU (`multi::gpu`, all parts on the
//! first GPU; skipped without one).

use crate::common;

use common::{build, gpu_or_skip, rmat, shuffled_paths};
use warpath::bfs::{bfs_sequential, verify, Direction};
use warpath::generate::{generate, GeneratorSpec};
use warpath::gpu::Placement;
use warpath::multi::levels::gather_tree;
use warpath::multi::gpu::bfs_gpu_in_process;
use warpath::engine::PlacementOptions;
use warpath::multi::{
    bfs_in_process, bfs_rank, partition_1d, run_ranks, Communicator, Delegation, Partition, PartitionedOptions,
    PartitionedTraversal,
};
use warpath::Graph;

const WORLDS: [usize; 5] = [1, 2, 3, 4, 7];

/// The out-degree from which the checks' partitions delegate a vertex's list (far below the
/// default rule's, so that every graph here has hubs, sources among them).
const HUB_DEGREE: u64 = 24;

fn generated(spec: &str) -> Graph {
    generate(&spec.parse::<GeneratorSpec>().unwrap(), 5).unwrap()
}

/// A source with edges in every part that has one, and two more seeded ones.
fn sources_across_parts(g: &Graph, bounds: &[u32]) -> Vec<u32> {
    let mut sources: Vec<u32> = bounds.windows(2).filter_map(|w| (w[0]..w[1]).find(|&v| g.degree(v) > 0)).collect();
    sources.extend(warpath::bfs::random_sources(g, 11, 2));
    sources
}

/// Two stars, of 65,536 and 3,000 leaves: lists past both long-list thresholds (one block a
/// list, the whole grid a list), and of many restart pieces when compressed.
fn two_stars() -> Graph {
    let (huge, long) = (2 * 32768u32, 3000u32);
    let n = 1 + huge + long;
    let mut edges: Vec<(u32, u32)> = (1..=huge).map(|leaf| (0, leaf)).collect();
    edges.extend((huge + 1..n).map(|leaf| (huge, leaf)));
    build(n as u64, edges, true)
}

/// Where a check runs the partitioned BFS: the parts' levels on their threads, or on the GPU.
type Runner = fn(&Partition, &[u32], &PartitionedOptions) -> Vec<PartitionedTraversal>;

fn on_threads(partition: &Partition, sources: &[u32], options: &PartitionedOptions) -> Vec<PartitionedTraversal> {
    sources.iter().map(|&source| bfs_in_process(partition, source, options).unwrap()).collect()
}

fn on_gpu(partition: &Partition, sources: &[u32], options: &PartitionedOptions) -> Vec<PartitionedTraversal> {
    bfs_gpu_in_process(partition, sources, options).unwrap()
}

/// Runs every world size from every chosen source with `options`, and checks each tree.
fn check_graph(name: &str, g: &Graph, options: &PartitionedOptions) {
    check_graph_on(name, g, options, on_threads);
}

/// [`check_graph`] with the levels where `run` puts them.
fn check_graph_on(name: &str, g: &Graph, options: &PartitionedOptions, run: Runner) {
    let transpose = (!g.is_undirected()).then(|| g.transpose());
    for world in WORLDS {
        let mut partition = partition_1d(g, transpose.as_ref(), world).unwrap();
        if options.delegation != Delegation::Off {
            partition.delegate_hubs(g, HUB_DEGREE);
        }
        let sources = sources_across_parts(g, &partition.bounds);
        for (run, source) in run(&partition, &sources, options).into_iter().zip(sources) {
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
    check_graph("paths", &shuffled_paths(), &PartitionedOptions::default());
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
    // CPU ranks hold no lists on a GPU.
    assert!(run.lists.is_empty());
    let directions: Vec<Direction> = run.levels.iter().map(|l| l.trace.direction).collect();
    assert_eq!(directions[0], Direction::TopDown);
    assert!(directions.contains(&Direction::BottomUp), "{directions:?}");
    let words_per_part = partition.parts[0].bitmap_words_per_part() as u64;
    for level in &run.levels {
        // Level 0, the source alone, is always top-down: no rule decided it.
        assert_eq!(level.trace.decision.is_some(), level.trace.level > 0);
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

/// The GPU path: the parts' levels run by the `bfs_part_*` kernels, the ranks threads sharing
/// the first GPU, on every graph shape the CPU checks take.
#[test]
fn gpu_ranks_give_the_same_trees() {
    if gpu_or_skip("gpu_ranks_give_the_same_trees").is_none() {
        return;
    }
    let default = PartitionedOptions::default();
    for spec in ["kron:11", "urand:11", "grid2d:40x30"] {
        check_graph_on(spec, &generated(spec), &default, on_gpu);
    }
    let directed = rmat(11, 30_000, 3, false);
    check_graph_on("directed rmat", &directed, &default, on_gpu);
    let early = PartitionedOptions { alpha: 1e-6, ..Default::default() };
    check_graph_on("directed rmat, bottom-up early", &directed, &early, on_gpu);
    // Bottom-up over the in-lists' local ids (no global copy): the ghosts through the frontier
    // over local ids, and, on levels after a light bottom-up one, at their global ids.
    let local_ids = PartitionedOptions { global_in_ids: false, ..Default::default() };
    check_graph_on("kron:11 local ids", &generated("kron:11"), &local_ids, on_gpu);
    check_graph_on("directed rmat local ids", &directed, &local_ids, on_gpu);
    let early_local = PartitionedOptions { global_in_ids: false, ..early.clone() };
    check_graph_on("directed rmat, bottom-up early, local ids", &directed, &early_local, on_gpu);
    let top_down = PartitionedOptions { bottom_up: false, ..Default::default() };
    check_graph_on("kron:10 top-down", &generated("kron:10"), &top_down, on_gpu);
    // Hubs expanded by their owners alone, as without delegates.
    let owners = PartitionedOptions { delegation: Delegation::Off, ..Default::default() };
    check_graph_on("kron:11 without delegates", &generated("kron:11"), &owners, on_gpu);
    check_graph_on("directed rmat without delegates", &directed, &owners, on_gpu);
    // Every bottom-up frontier traded as the ranks' queues of ids and set in the global bitmap
    // (by default none: `SPARSE_FRONTIER_SHARE`), and explicitly none early on.
    let sparse = PartitionedOptions { sparse_frontier_share: 1, ..Default::default() };
    check_graph_on("kron:11 sparse frontiers", &generated("kron:11"), &sparse, on_gpu);
    check_graph_on("directed rmat sparse frontiers", &directed, &sparse, on_gpu);
    let sparse_local = PartitionedOptions { global_in_ids: false, ..sparse.clone() };
    check_graph_on("directed rmat sparse frontiers, local ids", &directed, &sparse_local, on_gpu);
    let dense = PartitionedOptions { sparse_frontier_share: 0, alpha: 1e-6, ..Default::default() };
    check_graph_on("directed rmat, bottom-up early, bitmaps", &directed, &dense, on_gpu);
    // Bottom-up levels in one launch, the whole share gathered at the next level (by default
    // in `BOTTOM_UP_CHUNKS` stretches, each gathered while the next is searched), and in more
    // stretches than the small parts have words, bottom-up from the first levels.
    let one_launch = PartitionedOptions { bottom_up_chunks: 1, ..early.clone() };
    check_graph_on("kron:11 bottom-up in one launch", &generated("kron:11"), &one_launch, on_gpu);
    check_graph_on("directed rmat bottom-up in one launch", &directed, &one_launch, on_gpu);
    let many_chunks = PartitionedOptions { bottom_up_chunks: 64, chunk_spare_sms: 0, ..early.clone() };
    check_graph_on("kron:11 bottom-up in 64 stretches", &generated("kron:11"), &many_chunks, on_gpu);
    let chunked_local = PartitionedOptions { bottom_up_chunks: 3, global_in_ids: false, ..early.clone() };
    check_graph_on("directed rmat bottom-up in 3 stretches, local ids", &directed, &chunked_local, on_gpu);
    // Every top-down level counts its pairs before sending them (by default the small levels
    // send theirs in fixed-size slots, the unused ones empty).
    let counted = PartitionedOptions { padded_pairs: 0, ..Default::default() };
    check_graph_on("kron:11 counted pairs", &generated("kron:11"), &counted, on_gpu);
    check_graph_on("directed rmat counted pairs", &directed, &counted, on_gpu);
    // Parts in pinned host memory mapped into the GPU, as a part larger than its GPU is placed.
    let placement = PlacementOptions { placement: Some(Placement::ZeroCopy), ..Default::default() };
    let zero_copy = PartitionedOptions { placement, ..Default::default() };
    check_graph_on("kron:11 zero-copy", &generated("kron:11"), &zero_copy, on_gpu);
    check_graph_on("directed rmat zero-copy", &directed, &zero_copy, on_gpu);
    // Hubs past both long-list thresholds (one block a list, the whole grid a list), top-down.
    let stars = two_stars();
    let top_down_owners = PartitionedOptions { delegation: Delegation::Off, ..top_down.clone() };
    check_graph_on("two stars", &stars, &top_down_owners, on_gpu);
    check_graph_on("two stars delegated", &stars, &top_down, on_gpu);
}

/// Compressed parts (`--compressed`): every rank's lists delta-varint encoded and read by the
/// compressed kernels (`bfs_part_top_down_compressed`, its long-list kernel over restart points,
/// `bfs_part_bottom_up_compressed`), in device memory and zero-copy, directed and undirected,
/// with lists long enough to be cut at restart points; the hubs' owners expand them (no
/// delegates over compressed lists).
#[test]
fn gpu_ranks_read_compressed_parts() {
    if gpu_or_skip("gpu_ranks_read_compressed_parts").is_none() {
        return;
    }
    let compressed = PlacementOptions { compressed: true, ..Default::default() };
    let options = PartitionedOptions { placement: compressed.clone(), ..Default::default() };
    for spec in ["kron:11", "urand:11", "grid2d:40x30"] {
        check_graph_on(&format!("{spec} compressed"), &generated(spec), &options, on_gpu);
    }
    let directed = rmat(11, 30_000, 3, false);
    check_graph_on("directed rmat compressed", &directed, &options, on_gpu);
    let early = PartitionedOptions { alpha: 1e-6, ..options.clone() };
    check_graph_on("directed rmat compressed, bottom-up early", &directed, &early, on_gpu);
    let zero_copy = PlacementOptions { placement: Some(Placement::ZeroCopy), ..compressed };
    let options_zero_copy = PartitionedOptions { placement: zero_copy, ..options.clone() };
    check_graph_on("kron:11 compressed zero-copy", &generated("kron:11"), &options_zero_copy, on_gpu);
    check_graph_on("directed rmat compressed zero-copy", &directed, &options_zero_copy, on_gpu);
    // Hubs on their owners: every list read compressed, lists of many restart pieces and of a
    // few among them, top-down. (The checks above delegate hubs: their pieces are plain lists.)
    let owners = PartitionedOptions { delegation: Delegation::Off, ..options.clone() };
    check_graph_on("kron:11 compressed, no delegates", &generated("kron:11"), &owners, on_gpu);
    let stars = two_stars();
    let top_down = PartitionedOptions { bottom_up: false, ..owners.clone() };
    check_graph_on("two stars compressed", &stars, &top_down, on_gpu);
    check_graph_on(
        "two stars compressed, delegated",
        &stars,
        &PartitionedOptions { bottom_up: false, ..options.clone() },
        on_gpu,
    );
    // Each rank reports its lists: compressed, where they were put, fewer bytes than plain.
    let g = generated("kron:11");
    let partition = partition_1d(&g, None, 3).unwrap();
    for (run_options, placement) in [(options, Placement::Device), (options_zero_copy, Placement::ZeroCopy)] {
        let run = &on_gpu(&partition, &[0], &run_options)[0];
        assert_eq!(run.lists.len(), 3);
        for lists in &run.lists {
            assert!(lists.compressed && lists.placement == placement, "{lists:?}");
            assert!(0 < lists.stored_bytes && lists.stored_bytes < lists.plain_bytes, "{lists:?}");
        }
    }
}

/// A rank's budget (`--vram-budget`) reaches its part's placement: one its own arrays exceed is
/// an out-of-memory error naming the budget, before any list is placed.
#[test]
fn gpu_ranks_refuse_a_budget_their_arrays_exceed() {
    if gpu_or_skip("gpu_ranks_refuse_a_budget_their_arrays_exceed").is_none() {
        return;
    }
    let g = generated("kron:10");
    let partition = partition_1d(&g, None, 2).unwrap();
    let placement = PlacementOptions { vram_budget: Some(1024), ..Default::default() };
    let options = PartitionedOptions { placement, ..Default::default() };
    let err = bfs_gpu_in_process(&partition, &[0], &options).unwrap_err().to_string();
    assert!(err.contains("VRAM budget"), "{err}");
}

/// A rank without the hubs' pieces (its device memory did not hold them; here its part has
/// none) makes every rank expand hubs on their owners: the ranks agree, the trees are right.
#[test]
fn gpu_ranks_without_pieces_on_one_rank_agree() {
    if gpu_or_skip("gpu_ranks_without_pieces_on_one_rank_agree").is_none() {
        return;
    }
    let g = generated("kron:11");
    let mut partition = partition_1d(&g, None, 3).unwrap();
    partition.delegate_hubs(&g, HUB_DEGREE);
    partition.parts[1].hubs = None;
    let mut sources = sources_across_parts(&g, &partition.bounds);
    sources.push((0..g.num_vertices() as u32).max_by_key(|&v| g.degree(v)).unwrap());
    for (run, &source) in on_gpu(&partition, &sources, &PartitionedOptions::default()).iter().zip(&sources) {
        assert_eq!(run.result.distances, bfs_sequential(&g, source).distances, "source {source}");
        verify::validate(&g, &run.result).unwrap();
    }
}

/// The GPU ranks account their exchanges like the CPU ranks: the same levels, directions and
/// counts, the same bitmap bytes; and a placed part serves many sources.
#[test]
fn gpu_ranks_trace_like_cpu_ranks() {
    if gpu_or_skip("gpu_ranks_trace_like_cpu_ranks").is_none() {
        return;
    }
    let g = generated("kron:12");
    let mut partition = partition_1d(&g, None, 4).unwrap();
    partition.delegate_hubs(&g, 64);
    let mut sources = warpath::bfs::random_sources(&g, 1, 3);
    // A hub source too: its pieces expand level 0 on every rank.
    sources.push((0..g.num_vertices() as u32).max_by_key(|&v| g.degree(v)).unwrap());
    // Plain parts, and compressed ones (whose hubs' pieces are plain lists beside them).
    for compressed in [false, true] {
        let placement = PlacementOptions { compressed, ..Default::default() };
        // Bottom-up levels in one launch: a chunked level sends most of the next frontier's
        // bitmap while it runs, so its bytes count at the level before (checked below).
        let options = PartitionedOptions { placement, bottom_up_chunks: 1, ..Default::default() };
        let on_device = bfs_gpu_in_process(&partition, &sources, &options).unwrap();
        let chunked = PartitionedOptions { bottom_up_chunks: 4, ..options.clone() };
        for (run, unchunked) in bfs_gpu_in_process(&partition, &sources, &chunked).unwrap().iter().zip(&on_device) {
            assert_eq!(run.result.distances, unchunked.result.distances);
            // The pieces a last bottom-up level sends for a top-down level that needs none
            // cross too: at least as many bytes.
            assert!(run.exchange_bytes() >= unchunked.exchange_bytes());
            let directions = |r: &PartitionedTraversal| r.levels.iter().map(|l| l.trace.direction).collect::<Vec<_>>();
            assert_eq!(directions(run), directions(unchunked));
        }
        for (gpu_run, &source) in on_device.iter().zip(&sources) {
            let cpu_run = bfs_in_process(&partition, source, &PartitionedOptions::default()).unwrap();
            assert_eq!(gpu_run.result.distances, cpu_run.result.distances);
            verify::validate(&g, &gpu_run.result).unwrap();
            assert_eq!(gpu_run.levels.len(), cpu_run.levels.len());
            for (a, b) in gpu_run.levels.iter().zip(&cpu_run.levels) {
                let context = format!("compressed {compressed}, source {source}, level {}", a.trace.level);
                assert_eq!((a.trace.direction, a.trace.frontier), (b.trace.direction, b.trace.frontier), "{context}");
                // A compressed part's lists are sorted, so a bottom-up search may stop at
                // another parent, after another number of edges.
                if !compressed || a.trace.direction == Direction::TopDown {
                    assert_eq!(a.trace.edges_inspected, b.trace.edges_inspected, "{context}");
                }
                if a.trace.direction == Direction::BottomUp {
                    assert_eq!(a.exchange_bytes, b.exchange_bytes);
                }
            }
        }
    }
}
