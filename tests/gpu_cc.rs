//! The GPU connected components against a sequential union-find written here: identical
//! canonical labels (each component named by its smallest vertex) for Afforest under every
//! round count 0..=3 with sampling off and on, and for Shiloach-Vishkin, on generated graphs,
//! special shapes, directed inputs and every dataset, with the graph in device memory and
//! zero-copy (with and without list heads), plain and compressed, and on graphs built to hook
//! long chains; and for the Hopper cluster kernel wherever it can run (its refusal, one line,
//! where it cannot). The per-phase trace is checked against what each phase must read. Strongly
//! connected components on the GPU against Tarjan's algorithm, on generated graphs, special
//! shapes and every dataset. Skips, saying why, on machines without a CUDA device; the PTX
//! check needs none.

mod common;

use common::{build, dataset_files, datasets_dir, gpu_or_skip, path, rmat, star};
use warpath::cc::gpu::cluster::cluster_refusal;
use warpath::cc::gpu::{cc_persistent, components, workspace, CcBuffers, CcLaunch};
use warpath::cc::{CcAlgorithm, CcInit, CcOptions, CcPhase, CcRun, LocalLink, RoundOrder, VertexBatch};
use warpath::engine::{prepare, Backend, BackendUsed, ListHeadsKept, PlacementOptions, Prepared};
use warpath::formats::{read_graph, ReadOptions};
use warpath::generate::generate;
use warpath::gpu::Placement;
use warpath::scc::cpu_reference::tarjan;
use warpath::scc::gpu::{
    components_in as scc_components_in, refusal as scc_refusal, workspace as scc_workspace, SccArrays,
};
use warpath::scc::{strongly_connected, PivotSearch};
use warpath::Graph;

/// Canonical component labels by a sequential union-find over every edge (both directions:
/// weakly connected components of a directed graph), each component named by its smallest
/// vertex.
fn union_find(graph: &Graph) -> Vec<u32> {
    let n = graph.num_vertices();
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn find(parent: &mut [u32], mut v: u32) -> u32 {
        while parent[v as usize] != v {
            let grandparent = parent[parent[v as usize] as usize];
            parent[v as usize] = grandparent;
            v = grandparent;
        }
        v
    }
    for u in 0..n as u32 {
        for &v in graph.neighbors(u) {
            let (a, b) = (find(&mut parent, u), find(&mut parent, v));
            // The smaller root stays root, so every root is its component's smallest vertex.
            if a < b {
                parent[b as usize] = a;
            } else if b < a {
                parent[a as usize] = b;
            }
        }
    }
    (0..n as u32).map(|v| find(&mut parent, v)).collect()
}

/// The placements every graph is checked in: (name, options).
fn placements() -> Vec<(&'static str, PlacementOptions)> {
    let device = PlacementOptions { placement: Some(Placement::Device), ..PlacementOptions::default() };
    let zero_copy = PlacementOptions { placement: Some(Placement::ZeroCopy), ..PlacementOptions::default() };
    vec![
        ("device", device.clone()),
        ("device without list heads", PlacementOptions { list_heads: ListHeadsKept::Never, ..device.clone() }),
        ("zero-copy with list heads", zero_copy.clone()),
        ("zero-copy without list heads", PlacementOptions { list_heads: ListHeadsKept::Never, ..zero_copy.clone() }),
        ("compressed, device", PlacementOptions { compressed: true, ..device }),
        ("compressed, zero-copy with list heads", PlacementOptions { compressed: true, ..zero_copy.clone() }),
        (
            "compressed, zero-copy without list heads",
            PlacementOptions { compressed: true, list_heads: ListHeadsKept::Never, ..zero_copy },
        ),
    ]
}

/// Afforest with rounds 0..=3 and samples 0 and 1024, each also with ECL-CC's initialisation,
/// round compression and giant hooks together; each of those alone with the default rounds and
/// samples; and Shiloach-Vishkin.
fn option_sets() -> Vec<CcOptions> {
    let mut sets = Vec::new();
    let tuned = |options: CcOptions| CcOptions {
        init: CcInit::SmallerNeighbor,
        round_compression: true,
        giant_hooks: true,
        ..options
    };
    for neighbor_rounds in 0..=3 {
        for samples in [0, 1024] {
            sets.push(CcOptions { neighbor_rounds, samples, ..CcOptions::default() });
            sets.push(tuned(CcOptions { neighbor_rounds, samples, ..CcOptions::default() }));
        }
    }
    let defaults = CcOptions::default();
    for init in CcInit::ALL {
        sets.push(CcOptions { init, ..defaults });
    }
    for (round_compression, giant_hooks) in [(true, false), (false, true), (false, false)] {
        sets.push(CcOptions { round_compression, giant_hooks, ..defaults });
    }
    sets.push(CcOptions { algorithm: CcAlgorithm::ShiloachVishkin, ..CcOptions::default() });
    // Block-local linking over the smallest, the auto rule's and the largest ranges, and off.
    for local_link in [LocalLink::Range(256), LocalLink::Range(1024), LocalLink::Range(2048), LocalLink::Off] {
        sets.push(CcOptions { local_link, ..defaults });
    }
    // One vertex a thread and four, whatever the graph's degree (`auto` takes one of them by
    // it), with the defaults, the tuned set, Shiloach-Vishkin and block-local linking.
    for vertex_batch in [VertexBatch::One, VertexBatch::Four] {
        sets.push(CcOptions { vertex_batch, ..defaults });
        sets.push(tuned(CcOptions { vertex_batch, ..defaults }));
        sets.push(CcOptions { vertex_batch, algorithm: CcAlgorithm::ShiloachVishkin, ..defaults });
        sets.push(CcOptions { vertex_batch, local_link: LocalLink::Range(256), ..defaults });
    }
    // The neighbor rounds by id and scattered, whatever the graph's locality (`auto` takes one
    // of them by it), with one vertex a thread and four, the tuned set and three rounds.
    for round_order in [RoundOrder::Ids, RoundOrder::Scattered] {
        for vertex_batch in [VertexBatch::One, VertexBatch::Four] {
            sets.push(CcOptions { round_order, vertex_batch, ..defaults });
        }
        sets.push(tuned(CcOptions { round_order, ..defaults }));
        sets.push(CcOptions { round_order, neighbor_rounds: 3, samples: 0, ..defaults });
    }
    // The Hopper cluster, refused with its one line where it cannot run.
    sets.push(CcOptions { local_link: LocalLink::Cluster, ..defaults });
    sets
}

/// Which kernel a run takes, as `components` chooses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kernel {
    /// `cc_persistent`'s Afforest or Shiloach-Vishkin.
    Rounds,
    /// `cc_persistent`'s block-local linking.
    Ranges,
    /// `cc_cluster`.
    Cluster,
}

/// The graph prepared on the GPU as `placement` says.
fn place(graph: &Graph, options: &CcOptions, placement: &PlacementOptions) -> Prepared {
    let (prepared, _warnings) =
        prepare(graph, Backend::Gpu, placement, workspace(graph, options)).unwrap_or_else(|e| panic!("{e}"));
    assert!(prepared.gpu().is_some());
    prepared
}

/// Every option set in every placement gives the union-find's labels, with a trace that
/// follows the algorithm's phases.
fn check_graph(graph: &Graph, label: &str) {
    let expected = union_find(graph);
    for (where_, placement) in placements() {
        let prepared = place(graph, &CcOptions::default(), &placement);
        let gpu_graph = prepared.gpu().unwrap();
        let plain = !placement.compressed;
        let plain_in_device_memory = plain && placement.placement == Some(Placement::Device);
        for options in option_sets() {
            let context = format!("{label}, {where_}, {options:?}");
            let (kernel, refusal) = kernel_of(gpu_graph, &options, plain, plain_in_device_memory);
            let answer = components(gpu_graph, &options);
            if let (Kernel::Cluster, Some(refusal)) = (kernel, &refusal) {
                let err = answer.err().unwrap_or_else(|| panic!("{context}: ran where refused: {refusal}"));
                assert!(err.to_string().contains(refusal.as_str()), "{context}: {err}");
                continue;
            }
            let run = answer.unwrap_or_else(|e| panic!("{context}: {e}"));
            if run.components.labels != expected {
                let first = (0..expected.len()).find(|&v| run.components.labels[v] != expected[v]).unwrap();
                panic!(
                    "{context}: labels differ first at vertex {first}: {} (GPU) against {} (union-find)",
                    run.components.labels[first], expected[first]
                );
            }
            check_trace(graph, &run, run.time, &options, kernel, &context);
        }
    }
}

/// The kernel `components` takes for `options` on `graph` (its lists plain, and in device
/// memory, as said), and why the cluster cannot run there, if it cannot.
fn kernel_of(
    graph: &warpath::engine::GpuGraph,
    options: &CcOptions,
    plain: bool,
    plain_in_device_memory: bool,
) -> (Kernel, Option<String>) {
    let refusal = cluster_refusal(graph.gpu(), graph.graph());
    let locality = graph.id_locality();
    let kernel = if options.local_link.takes_cluster() {
        Kernel::Cluster
    } else if plain && options.local_link.range_for(locality, plain_in_device_memory) != 0 {
        Kernel::Ranges
    } else {
        // The compressed kernel links by Afforest whatever the range.
        Kernel::Rounds
    };
    (kernel, refusal)
}

/// The phases a run recorded are the kernel's and the algorithm's, in order, and their times
/// add up to no more than the run's `time`.
fn check_trace(
    graph: &Graph,
    run: &CcRun,
    time: std::time::Duration,
    options: &CcOptions,
    kernel: Kernel,
    context: &str,
) {
    let phases: Vec<CcPhase> = run.phases.iter().map(|p| p.phase).collect();
    let expected: Vec<CcPhase> = match options.algorithm {
        _ if kernel == Kernel::Cluster => {
            // The link reads every offset and every list once (8 and 4 bytes).
            let bytes = 8 * graph.num_vertices() as u64 + 4 * graph.num_edges();
            assert_eq!(run.phases.first().map(|p| p.graph_bytes_read), Some(bytes), "{context}: the cluster link");
            vec![CcPhase::ClusterLink, CcPhase::Compression, CcPhase::Naming]
        }
        CcAlgorithm::Afforest if kernel == Kernel::Ranges => {
            vec![CcPhase::LocalLink, CcPhase::FinalLink, CcPhase::Compression, CcPhase::Naming]
        }
        CcAlgorithm::Afforest => {
            // As the kernel orders them: sampling after the last round, or with giant hooks
            // after the first, and after the last again when the first found no giant; a
            // compression before every later round that no sampling precedes.
            let rounds = options.neighbor_rounds;
            let sampling = options.samples > 0 && graph.num_vertices() > 0;
            let first_look = sampling && options.giant_hooks && rounds > 1;
            let sampled_again = first_look && phases.iter().filter(|&&p| p == CcPhase::Sampling).count() == 2;
            let mut expected = Vec::new();
            for round in 0..=rounds {
                let sampled = sampling
                    && (round == rounds && (!first_look || sampled_again)
                        || round == rounds.min(1) && options.giant_hooks);
                if sampled {
                    expected.push(CcPhase::Sampling);
                } else if options.round_compression && round > 0 && round < rounds {
                    expected.push(CcPhase::Compression);
                }
                if round < rounds {
                    expected.push(CcPhase::NeighborRound(round));
                }
            }
            expected.extend([CcPhase::FinalLink, CcPhase::Compression]);
            expected
        }
        CcAlgorithm::ShiloachVishkin => {
            assert!(phases.len() >= 2 && phases.len() % 2 == 0, "{context}: {phases:?}");
            phases.chunks(2).flat_map(|_| [CcPhase::FinalLink, CcPhase::Compression]).collect()
        }
    };
    assert_eq!(phases, expected, "{context}");
    let traced: std::time::Duration = run.phases.iter().map(|p| p.time).sum();
    assert!(traced <= time + std::time::Duration::from_micros(50), "{context}: {traced:?} of {time:?}");
    for phase in &run.phases {
        if matches!(phase.phase, CcPhase::Sampling | CcPhase::Compression | CcPhase::Naming) {
            assert_eq!(phase.graph_bytes_read, 0, "{context}: {phase:?} reads labels only");
        }
        // Counted by kernels built with the `cc-tallies` feature (scripts/tallied-cubin) only.
        let Some(links) = phase.links else { continue };
        assert!(links.failed_swaps <= links.swaps, "{context}: {phase:?}");
        if matches!(phase.phase, CcPhase::Sampling | CcPhase::Compression | CcPhase::Naming) {
            assert_eq!(links.swaps, 0, "{context}: {phase:?} hooks nothing");
        }
        let initialised = options.init == CcInit::SmallerNeighbor && options.algorithm == CcAlgorithm::Afforest;
        if initialised && phase.phase == CcPhase::NeighborRound(0) {
            assert_eq!((links.steps, links.swaps), (0, 0), "{context}: the initialisation walks and swaps nothing");
        }
    }
}

#[test]
fn generated_graphs_match_the_union_find() {
    if gpu_or_skip("generated_graphs_match_the_union_find").is_none() {
        return;
    }
    for spec in ["kron:14", "urand:14", "grid2d:64", "kron:10:2"] {
        let graph = generate(&spec.parse().unwrap(), 5).unwrap();
        check_graph(&graph, spec);
    }
}

#[test]
fn special_shapes_match_the_union_find() {
    if gpu_or_skip("special_shapes_match_the_union_find").is_none() {
        return;
    }
    // Many components: 3000 triangles and 2000 paths of 7, among 5000 isolated vertices.
    let mut edges = Vec::new();
    for t in 0..3000u32 {
        let base = 3 * t;
        edges.extend([(base, base + 1), (base + 1, base + 2), (base + 2, base)]);
    }
    for p in 0..2000u32 {
        let base = 9000 + 7 * p;
        edges.extend((0..6).map(|i| (base + i, base + i + 1)));
    }
    let many = build(9000 + 14_000 + 5000, edges, true);
    check_graph(&many, "many components");
    check_graph(&build(1000, Vec::new(), true), "isolated vertices only");
    check_graph(&build(1, Vec::new(), true), "one vertex");
    check_graph(&star(100_000), "star");
    check_graph(&path(200_000), "path");
    // Ids descending along a path: every hook goes the long way round.
    let reversed = build(50_000, (1..50_000u32).map(|v| (50_000 - v, 49_999 - v)).collect(), true);
    check_graph(&reversed, "path of descending ids");
}

/// Graphs whose links build long parent chains when hooked without compression: a path of a
/// million vertices (round 0 links every vertex to the one below it, all at once: one chain
/// the length of the graph), a grid of a million (round 0 links most vertices to the one
/// above: a thousand chains a thousand long) and a directed chain of a million. The finds
/// that compress as they walk must still give the union-find's components.
#[test]
fn long_chains_match_the_union_find() {
    if gpu_or_skip("long_chains_match_the_union_find").is_none() {
        return;
    }
    let n = 1_000_000u32;
    check_graph(&path(n), "path of a million");
    check_graph(&generate(&"grid2d:1000".parse().unwrap(), 1).unwrap(), "grid2d:1000");
    let upward = build(n as u64, (1..n).map(|v| (v - 1, v)).collect(), false);
    check_graph(&upward, "directed chain of a million");
}

/// Sampling finds the most frequent root: with a star over 60% of the vertices and the rest
/// isolated, the final link skips exactly the star, reading the offsets of the isolated
/// vertices only. With as many samples as the hash table has slots, over isolated vertices
/// (nearly every sample its own root), one root is skipped and the labels stay right.
#[test]
fn sampling_counts_the_most_frequent_root() {
    if gpu_or_skip("sampling_counts_the_most_frequent_root").is_none() {
        return;
    }
    let device = PlacementOptions { placement: Some(Placement::Device), ..PlacementOptions::default() };
    let final_link_bytes = |graph: &Graph, samples: u32| {
        let options = CcOptions { samples, ..CcOptions::default() };
        let prepared = place(graph, &options, &device);
        let run = components(prepared.gpu().unwrap(), &options).unwrap();
        assert_eq!(run.components.labels, union_find(graph), "{samples} samples");
        run.phases.iter().find(|p| p.phase == CcPhase::FinalLink).unwrap().graph_bytes_read
    };
    let (leaves, isolated) = (60_000u32, 39_999u64);
    let star_and_isolated = build(leaves as u64 + 1 + isolated, (1..=leaves).map(|v| (0, v)).collect(), true);
    assert_eq!(final_link_bytes(&star_and_isolated, 1024), 16 * isolated);
    let only_isolated = build(100_000, Vec::new(), true);
    let most = warpath_interface::cc::MAX_SAMPLES;
    assert_eq!(final_link_bytes(&only_isolated, most), 16 * (100_000 - 1));
}

/// Giant hooks take the first sampling's most frequent root for the giant only when it holds at
/// least one sample in `GIANT_MIN_SHARE`: after one round, of 1,024 samples, a Kronecker
/// graph's largest tree holds hundreds and a grid's all of them, a uniform random graph's a
/// few (3 for urand:20 of seed 1: its largest tree holds 0.08% of the vertices), which is
/// sampled again after the last round. The labels are right either way.
#[test]
fn giant_hooks_wait_for_a_giant() {
    if gpu_or_skip("giant_hooks_wait_for_a_giant").is_none() {
        return;
    }
    let device = PlacementOptions { placement: Some(Placement::Device), ..PlacementOptions::default() };
    // Afforest's phases (a grid's ids would choose block-local linking).
    let options = CcOptions { local_link: LocalLink::Off, ..CcOptions::default() };
    assert!(options.giant_hooks, "the default");
    for (spec, samplings) in [("kron:14", 1), ("grid2d:64", 1), ("urand:20", 2)] {
        let graph = generate(&spec.parse().unwrap(), 1).unwrap();
        let prepared = place(&graph, &options, &device);
        let run = components(prepared.gpu().unwrap(), &options).unwrap();
        assert_eq!(run.components.labels, union_find(&graph), "{spec}");
        let sampled = run.phases.iter().filter(|p| p.phase == CcPhase::Sampling).count();
        assert_eq!(sampled, samplings, "{spec}: samplings");
    }
}

#[test]
fn directed_graphs_give_weakly_connected_components() {
    if gpu_or_skip("directed_graphs_give_weakly_connected_components").is_none() {
        return;
    }
    // Edges into a hub only: the leaves' out-lists and the hub's in-list join them.
    let inward = build(20_001, (1..20_001u32).map(|v| (v, 0)).collect(), false);
    check_graph(&inward, "directed star into the hub");
    // A chain pointing down: each vertex reaches only smaller ids.
    let chain = build(30_000, (1..30_000u32).map(|v| (v, v - 1)).collect(), false);
    check_graph(&chain, "directed chain");
    check_graph(&rmat(14, 60_000, 3, false), "directed rmat");
    // Two directed components and isolated vertices.
    let two = build(10, vec![(1, 2), (3, 2), (5, 6), (7, 6), (6, 8)], false);
    check_graph(&two, "two directed components");
}

#[test]
fn every_dataset_matches_the_union_find() {
    if gpu_or_skip("every_dataset_matches_the_union_find").is_none() {
        return;
    }
    let Some(dir) = datasets_dir("every_dataset_matches_the_union_find") else { return };
    for file in dataset_files(&dir) {
        let graph = read_graph(&file, &ReadOptions { ignore_weights: true, ..ReadOptions::default() })
            .unwrap_or_else(|e| panic!("{e}"));
        check_graph(&graph, &file.file_name().unwrap().to_string_lossy());
    }
}

/// The neighbor rounds read what they must: with list heads (kept by default beside plain lists
/// for CC, in device memory or zero-copy), rounds 0 and 1 read four bytes a vertex and nothing
/// else; without them, each round reads two offsets a vertex and the neighbor of every vertex
/// that has one.
#[test]
fn neighbor_rounds_read_the_heads_or_the_lists() {
    if gpu_or_skip("neighbor_rounds_read_the_heads_or_the_lists").is_none() {
        return;
    }
    let graph = generate(&"kron:12".parse().unwrap(), 2).unwrap();
    let n = graph.num_vertices() as u64;
    let options = CcOptions { neighbor_rounds: 3, ..CcOptions::default() };
    let with_degree_above = |r: u64| (0..n as u32).filter(|&v| graph.degree(v) > r).count() as u64;
    let rounds = |placement: &PlacementOptions| -> Vec<u64> {
        let prepared = place(&graph, &options, placement);
        let run = components(prepared.gpu().unwrap(), &options).unwrap();
        assert_eq!(run.components.labels, union_find(&graph));
        run.phases.iter().filter(|p| matches!(p.phase, CcPhase::NeighborRound(_))).map(|p| p.graph_bytes_read).collect()
    };
    let device = PlacementOptions { placement: Some(Placement::Device), ..PlacementOptions::default() };
    let from_lists: Vec<u64> = (0..3).map(|r| 16 * n + 4 * with_degree_above(r)).collect();
    let from_heads = vec![4 * n, 4 * n, from_lists[2]];
    assert_eq!(rounds(&PlacementOptions { list_heads: ListHeadsKept::Never, ..device.clone() }), from_lists);
    assert_eq!(rounds(&device), from_heads);
    let zero_copy = PlacementOptions { placement: Some(Placement::ZeroCopy), ..PlacementOptions::default() };
    assert_eq!(rounds(&zero_copy), from_heads);
}

/// Sampling finds the giant component of a Kronecker graph, and the final link then reads far
/// fewer bytes than with sampling off (which visits every vertex's remaining neighbors).
#[test]
fn sampling_spares_the_final_link_the_largest_component() {
    if gpu_or_skip("sampling_spares_the_final_link_the_largest_component").is_none() {
        return;
    }
    let graph = generate(&"kron:14".parse().unwrap(), 9).unwrap();
    let prepared = place(&graph, &CcOptions::default(), &PlacementOptions::default());
    let final_bytes = |samples| {
        let run = components(prepared.gpu().unwrap(), &CcOptions { samples, ..CcOptions::default() }).unwrap();
        run.phases.iter().find(|p| p.phase == CcPhase::FinalLink).unwrap().graph_bytes_read
    };
    let (with, without) = (final_bytes(1024), final_bytes(0));
    assert!(with * 4 < without, "final link read {with} bytes with sampling, {without} without");
}

/// A directed graph whose transpose is not on the device: the out-lists serve every phase with
/// sampling off, which still gives weakly connected components.
#[test]
fn directed_graphs_without_in_lists_link_every_out_edge() {
    let Some(gpu) = gpu_or_skip("directed_graphs_without_in_lists_link_every_out_edge") else { return };
    let graph = rmat(12, 20_000, 11, false);
    let chain = build(5000, (1..5000u32).map(|v| (v, v - 1)).collect(), false);
    for (graph, label) in [(&graph, "directed rmat"), (&chain, "directed chain")] {
        let placed = gpu.place_graph(graph, Placement::Device).unwrap();
        // Rounds 0..=2 by Afforest, then block-local linking (3: ranges of 256 ids) taking
        // every out-edge, as a directed graph's lists hold each once.
        for rounds in 0..=3 {
            let n = graph.num_vertices();
            let mut buffers = CcBuffers {
                labels: gpu.alloc_zeros(n, "labels").unwrap(),
                control: gpu.alloc_zeros(warpath_interface::cc::CC_CONTROL_WORDS, "control").unwrap(),
                trace: gpu.alloc_zeros(warpath_interface::cc::CC_TRACE_WORDS * 65, "trace").unwrap(),
            };
            let local_chunk = if rounds == 3 { 256 } else { 0 };
            let run = CcLaunch {
                neighbor_rounds: rounds,
                samples: 0,
                local_chunk,
                ..CcLaunch::from_options(&CcOptions::default())
            };
            cc_persistent(&gpu, &placed, &placed, &mut buffers, run).unwrap();
            let labels = gpu.download(&buffers.labels).unwrap();
            assert_eq!(labels, union_find(graph), "{label}, {rounds} rounds");
            // Claiming a transpose that is the graph itself is refused before any launch.
            let directed = CcLaunch { directed: true, ..run };
            assert!(cc_persistent(&gpu, &placed, &placed, &mut buffers, directed).is_err());
        }
    }
}

#[test]
fn more_samples_than_the_hash_table_holds_are_refused() {
    if gpu_or_skip("more_samples_than_the_hash_table_holds_are_refused").is_none() {
        return;
    }
    let graph = path(100);
    let prepared = place(&graph, &CcOptions::default(), &PlacementOptions::default());
    let options = CcOptions { samples: warpath_interface::cc::MAX_SAMPLES + 1, ..CcOptions::default() };
    let err = components(prepared.gpu().unwrap(), &options).unwrap_err().to_string();
    assert!(err.contains("samples"), "{err}");
    let most = CcOptions { samples: warpath_interface::cc::MAX_SAMPLES, ..CcOptions::default() };
    assert_eq!(components(prepared.gpu().unwrap(), &most).unwrap().components.labels, union_find(&graph));
}

/// No GPU needed: each CC kernel takes one parameter per field of its struct, of the field's
/// size and in field order (`cc_cluster` in the Hopper module).
#[test]
fn cc_kernel_parameters_are_the_fields_of_their_structs() {
    use warpath::gpu::ptx::{HOPPER_PTX, PTX};
    use warpath_interface::cc::cluster::CcClusterParams;
    use warpath_interface::cc::{CcPersistentCompressedParams, CcPersistentParams};
    use warpath_interface::KernelParams;
    fn sizes(ptx: &str, kernel: &str) -> Vec<usize> {
        let entry = ptx.split(&format!(".visible .entry {kernel}(")).nth(1).unwrap();
        let list = &entry[..entry.find(')').unwrap()];
        list.lines()
            .filter_map(|line| line.trim().strip_prefix(".param ."))
            .map(|declaration| declaration.split_whitespace().next().unwrap()[1..].parse::<usize>().unwrap() / 8)
            .collect()
    }
    fn check<P: KernelParams>(ptx: &str) {
        let expected: Vec<usize> = P::FIELDS.iter().map(|field| field.size).collect();
        assert_eq!(sizes(ptx, P::KERNEL), expected, "{}", P::KERNEL);
    }
    check::<CcPersistentParams>(PTX);
    check::<CcPersistentCompressedParams>(PTX);
    check::<CcClusterParams>(HOPPER_PTX);
}

/// The cluster refuses, in one line naming why, what it cannot hold: more vertices than the
/// cluster's shared memory has words for (on a Hopper GPU), or any graph below compute
/// capability 9.0; `auto` runs the grid-wide kernel, with the same labels.
#[test]
fn the_cluster_refuses_what_it_cannot_hold() {
    use warpath_interface::cc::cluster::CC_CLUSTER_MAX_VERTICES;
    if gpu_or_skip("the_cluster_refuses_what_it_cannot_hold").is_none() {
        return;
    }
    let device = PlacementOptions { placement: Some(Placement::Device), ..PlacementOptions::default() };
    // A path one vertex longer than the cluster holds: its ids follow its geometry.
    let graph = path(CC_CLUSTER_MAX_VERTICES as u32 + 1);
    let prepared = place(&graph, &CcOptions::default(), &device);
    let gpu_graph = prepared.gpu().unwrap();
    let refusal = cluster_refusal(gpu_graph.gpu(), gpu_graph.graph()).expect("too big for any cluster");
    let (major, _) = gpu_graph.gpu().compute_capability();
    assert!(refusal.contains(if major >= 9 { "863232 vertices" } else { "compute capability 9.0" }), "{refusal}");
    let cluster = CcOptions { local_link: LocalLink::Cluster, ..CcOptions::default() };
    let err = components(gpu_graph, &cluster).unwrap_err().to_string();
    assert!(err.contains(&refusal) && !err.contains('\n'), "{err}");
    let run = components(gpu_graph, &CcOptions::default()).unwrap();
    assert_eq!(run.components.labels, union_find(&graph));
    assert!(!run.phases.iter().any(|p| p.phase == CcPhase::ClusterLink), "auto kept the grid-wide kernel");
}

/// The CC bench charges the graph's placement once (issue 52, item 5): the report's placement
/// stage holds the finder's upload, and no trial's end-to-end time includes it.
#[test]
fn the_cc_bench_charges_the_placement_once() {
    use warpath::bench::cc::run_cc_bench;
    use warpath::bench::{BenchOptions, PlacementStage};
    use warpath::cc::ComponentFinder;
    if gpu_or_skip("the_cc_bench_charges_the_placement_once").is_none() {
        return;
    }
    let graph = generate(&"kron:16".parse().unwrap(), 3).unwrap();
    let finder = ComponentFinder::new(&graph, Backend::Gpu).unwrap();
    let options = BenchOptions { trials: 3, seed: 1, trace: false, traced: 0 };
    let run = run_cc_bench(&graph, &finder, CcOptions::default(), &options, &mut |_| {}).unwrap();
    let place = PlacementStage::of(finder.placed()).unwrap().expect("placed on the GPU");
    assert!(place.ms > 0.0 && Some(place.bytes) == finder.gpu_graph_stored_bytes(), "{place:?}");
    let upload_ms = finder.upload_time().as_secs_f64() * 1e3;
    for trial in &run.trials {
        // A run on a placed graph: its kernel, the labels' download (256 KiB) and the host's
        // work, well under the upload of the graph's 4 MiB of lists and their allocation;
        // charged the upload, it could not come in under the kernel plus the upload.
        assert!(trial.end_to_end_ms >= trial.time_ms, "{trial:?}");
        assert!(trial.end_to_end_ms < trial.time_ms + upload_ms, "{trial:?} against an upload of {upload_ms} ms");
    }
}

#[test]
fn a_finder_keeps_its_arrays_and_reads_labels_in_place() {
    use warpath::cc::{CcAlgorithm, CcRun, ComponentFinder};
    if gpu_or_skip("a_finder_keeps_its_arrays_and_reads_labels_in_place").is_none() {
        return;
    }
    for spec in ["kron:14", "grid2d:64", "urand:12"] {
        let graph = generate(&spec.parse().unwrap(), 5).unwrap();
        let expected = union_find(&graph);
        let finder = ComponentFinder::new(&graph, Backend::Gpu).unwrap();
        // Every option set on the same kept arrays, each run checked in place and copied out;
        // Shiloach-Vishkin between Afforest runs leaves nothing the next one reads.
        let mut sets = option_sets();
        sets.insert(1, CcOptions { algorithm: CcAlgorithm::ShiloachVishkin, ..CcOptions::default() });
        let mut spare = CcRun::default();
        for (k, options) in sets.iter().enumerate() {
            let label = format!("{spec}, set {k}: {options:?}");
            // Placed by default: plain lists in device memory.
            let (kernel, refusal) = kernel_of(finder.placed().unwrap(), options, true, true);
            if let (Kernel::Cluster, Some(refusal)) = (kernel, &refusal) {
                let err = finder.run_pinned(options).err().unwrap_or_else(|| panic!("{label}: ran where refused"));
                assert!(err.to_string().contains(refusal.as_str()), "{label}: {err}");
                continue;
            }
            let found = finder.run_pinned(options).unwrap_or_else(|e| panic!("{label}: {e}"));
            assert_eq!(found.labels().unwrap(), &expected[..], "{label}: in place");
            let envelope = &found.run;
            assert!(envelope.result.components.labels.is_empty(), "{label}: the labels are in pinned memory");
            assert_eq!(envelope.download.bytes, 4 * graph.num_vertices() as u64, "{label}");
            assert!(envelope.end_to_end_time >= envelope.time, "{label}");
            let time = envelope.time;
            // While these are held the next pinned run is refused, a run into a vector not.
            let refused = finder.run_pinned(options).err().expect("refused while held");
            assert!(refused.to_string().contains("still held"), "{label}: {refused}");
            assert_eq!(finder.run(options).unwrap().result.components.labels, expected, "{label}: into a vector");
            let run = found.into_run(spare).unwrap().result;
            assert_eq!(run.components.labels, expected, "{label}: copied out");
            check_trace(&graph, &run, time, options, kernel, &label);
            spare = run;
        }
    }
}

/// Strongly connected components on the GPU (`scc::gpu`) against Tarjan's algorithm: the same
/// canonical labels, on `graph` placed in device memory and zero-copy, with the pivot's searches
/// and without, then with again (three runs over the same kept arrays), every vertex decided once
/// by the phases; and through the one call.
fn check_scc(graph: &Graph, label: &str) {
    let expected = tarjan(graph);
    let device = PlacementOptions { placement: Some(Placement::Device), ..PlacementOptions::default() };
    let zero_copy = PlacementOptions { placement: Some(Placement::ZeroCopy), ..PlacementOptions::default() };
    for (where_, placement) in [("device", device), ("zero-copy", zero_copy)] {
        let (prepared, _) = prepare(graph, Backend::Gpu, &placement, scc_workspace(graph))
            .unwrap_or_else(|e| panic!("{label}, {where_}: {e}"));
        let Prepared::Gpu(on) = &prepared else { panic!("{label}: placed on the CPU") };
        let mut arrays = SccArrays::default();
        for (run, pivot_search) in [PivotSearch::Bfs, PivotSearch::Off, PivotSearch::Bfs].into_iter().enumerate() {
            let (answer, download) = scc_components_in(on, graph, &mut arrays, pivot_search)
                .unwrap_or_else(|e| panic!("{label}, {where_}, run {run} ({pivot_search:?}): {e}"));
            assert_eq!(answer.result.components, expected, "{label}, {where_}, run {run} ({pivot_search:?})");
            let decided: u64 = answer.result.phases.iter().map(|p| p.decided).sum();
            assert_eq!(decided, graph.num_vertices() as u64, "{label}: every vertex decided once");
            assert_eq!(download.bytes, 4 * graph.num_vertices() as u64, "{label}");
        }
    }
    let found = strongly_connected(graph, Backend::Gpu).unwrap_or_else(|e| panic!("{label}: {e}"));
    assert!(matches!(found.backend, BackendUsed::Gpu { .. }) && found.warnings.is_empty(), "{label}");
    assert_eq!(found.result.components, expected, "{label}: the one call");
}

#[test]
fn strongly_connected_components_match_tarjans() {
    if gpu_or_skip("strongly_connected_components_match_tarjans").is_none() {
        return;
    }
    // Cycles chained one way, a cycle through a self-loop, isolated vertices, a two-way path.
    let shapes = [
        ("two cycles chained", build(7, vec![(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 3), (5, 5)], false)),
        ("a directed path", build(64, (0..63).map(|v| (v, v + 1)).collect(), false)),
        ("a directed cycle", build(1000, (0..1000).map(|v| (v, (v + 1) % 1000)).collect(), false)),
        ("an undirected path", path(300)),
        ("a star (a hub of 100k)", star(100_000)),
        ("no edges", build(5, Vec::new(), false)),
    ];
    for (name, graph) in &shapes {
        check_scc(graph, name);
    }
    for scale in [8, 12, 16] {
        check_scc(&rmat(scale, 8 << scale, scale as u64, false), &format!("directed rmat:{scale}"));
    }
    for spec in ["dkron:10", "dkron:14", "kron:10", "grid2d:30x20"] {
        check_scc(&generate(&spec.parse().unwrap(), 3).unwrap(), spec);
    }
    // Long cycles of many vertices each, joined one way: many rounds a decision.
    let mut edges = Vec::new();
    for c in 0..50u32 {
        let base = c * 400;
        edges.extend((0..400).map(|k| (base + k, base + (k + 1) % 400)));
        if c > 0 {
            edges.push((base, base - 1));
        }
    }
    check_scc(&build(20_000, edges, false), "50 long cycles chained");
}

#[test]
fn strongly_connected_components_of_every_dataset_match_tarjans() {
    if gpu_or_skip("strongly_connected_components_of_every_dataset_match_tarjans").is_none() {
        return;
    }
    let Some(dir) = datasets_dir("strongly_connected_components_of_every_dataset_match_tarjans") else { return };
    for file in dataset_files(&dir) {
        let graph = read_graph(&file, &ReadOptions { ignore_weights: true, ..ReadOptions::default() })
            .unwrap_or_else(|e| panic!("{e}"));
        check_scc(&graph, &file.file_name().unwrap().to_string_lossy());
    }
}

/// Compressed lists cannot serve the GPU path: the finder runs on the CPU and says why.
#[test]
fn strongly_connected_components_on_compressed_lists_run_on_the_cpu() {
    if gpu_or_skip("strongly_connected_components_on_compressed_lists_run_on_the_cpu").is_none() {
        return;
    }
    let graph = generate(&"dkron:10".parse().unwrap(), 3).unwrap();
    let placement = PlacementOptions { compressed: true, ..PlacementOptions::default() };
    let (prepared, _) = prepare(&graph, Backend::Gpu, &placement, scc_workspace(&graph)).unwrap();
    let Prepared::Gpu(on) = &prepared else { panic!("placed on the CPU") };
    let refusal = scc_refusal(on).expect("refused");
    assert!(refusal.contains("compressed"), "{refusal}");
    let err = scc_components_in(on, &graph, &mut SccArrays::default(), PivotSearch::Bfs).err().expect("refused");
    assert!(err.to_string().contains("compressed"), "{err}");
}
