//! Placement at the bus's speed and traversals that pay nothing twice, on the GPU: arrays
//! copied through the pinned staging buffers (several chunks and a ragged tail) read back equal
//! to the host's; graphs placed in device memory and zero-copy (plain and compressed, the
//! latter padded with zeros) read back byte for byte and traverse correctly; a prepared graph
//! runs many sources over the device arrays it keeps and the host vectors it is given, every
//! result equal to the sequential CPU reference; graphs built straight into pinned memory
//! (`gpu::PinnedMemory`) are placed without host copies, traverse (BFS, CC, SSSP) as the CPU
//! references say, and free their pinned blocks when the last holder drops; list heads
//! gathered on the device equal the host's. Skips, saying why, on machines without a CUDA
//! device.

mod common;

use common::gpu_or_skip;
use warpath::bfs::cpu_reference::bfs_sequential;
use warpath::bfs::verify::validate;
use warpath::bfs::{random_sources, Backend, GpuKernel, GpuOptions, TopDownStrategy, Traverser};
use warpath::engine::PlacementOptions;
use warpath::generate::{generate, GeneratorSpec};
use warpath::gpu::staging::{UploadPath, STAGED_MIN_BYTES, STAGING_BUFFERS, STAGING_CHUNK};
use warpath::gpu::{GpuContext, Layout, PinnedMemory, Placement};
use warpath::graph::{CompressedGraph, EdgeList, GraphBuilder, HostMemory, ListHeads};
use warpath::Graph;

fn graph(spec: &str) -> Graph {
    generate(&spec.parse::<GeneratorSpec>().unwrap(), 1).unwrap()
}

#[test]
fn staged_uploads_read_back_equal() {
    let Some(mut gpu) = gpu_or_skip("staged_uploads_read_back_equal") else { return };
    for path in [UploadPath::Staged, UploadPath::Registered] {
        gpu.set_upload_path(path);
        uploads_read_back_equal(&gpu);
    }
}

fn uploads_read_back_equal(gpu: &GpuContext) {
    // More chunks than staging buffers, so each buffer is refilled after its copy, and a tail
    // shorter than a chunk; one array just above the staging threshold; one below it.
    let chunks_words = (STAGING_BUFFERS + 2) * STAGING_CHUNK / 4 + 12_345;
    for words in [chunks_words, STAGED_MIN_BYTES / 4 + 1, 1000] {
        let host: Vec<u32> = (0..words as u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
        let device = gpu.upload(&host, "test array").unwrap();
        assert_eq!(gpu.download(&device).unwrap(), host, "{words} words, {:?}", gpu.upload_path());
    }
    // The staging buffers are kept: a second large upload over them reads back equal too.
    let host: Vec<u64> = (0..(STAGING_CHUNK as u64 / 8) * 3 + 7).rev().collect();
    assert_eq!(gpu.download(&gpu.upload(&host, "test array").unwrap()).unwrap(), host);
}

/// Reads the placed offsets and lists back and compares them with the host's: the targets'
/// bytes of a plain graph, the varint bytes of a compressed one and its zero padding to 8.
fn assert_placed_equal(gpu: &GpuContext, plain: &Graph, compressed: Option<&CompressedGraph>, layout: Layout) {
    let placed = match compressed {
        Some(packed) => gpu.place_compressed(packed, layout).unwrap(),
        None => gpu.place_graph(plain, layout).unwrap(),
    };
    assert_eq!(placed.layout(), layout);
    match compressed {
        Some(packed) => {
            assert_eq!(placed.read_offsets(gpu).unwrap(), packed.byte_offsets());
            let lists = placed.read_lists(gpu).unwrap();
            assert_eq!(lists.len(), packed.bytes().len().div_ceil(8).max(1) * 8, "{layout:?}");
            assert_eq!(&lists[..packed.bytes().len()], packed.bytes(), "{layout:?}");
            assert!(lists[packed.bytes().len()..].iter().all(|&b| b == 0), "padding {layout:?}");
        }
        None => {
            assert_eq!(placed.read_offsets(gpu).unwrap(), plain.offsets(), "{layout:?}");
            assert_eq!(placed.read_lists(gpu).unwrap(), bytemuck::cast_slice::<u32, u8>(plain.targets()), "{layout:?}");
        }
    }
}

#[test]
fn placed_graphs_read_back_equal_in_every_layout() {
    let Some(gpu) = gpu_or_skip("placed_graphs_read_back_equal_in_every_layout") else { return };
    // kron:17's lists (about 16 MB) are staged in chunks; its offsets (1 MB) go in one copy.
    let plain = graph("kron:17");
    let packed = CompressedGraph::encode(&plain);
    let layouts = [
        Layout::from(Placement::Device),
        Layout::from(Placement::ZeroCopy),
        Layout { offsets: Placement::Device, lists: Placement::ZeroCopy },
    ];
    for layout in layouts {
        assert_placed_equal(&gpu, &plain, None, layout);
        assert_placed_equal(&gpu, &plain, Some(&packed), layout);
    }
}

/// List heads gathered on the device from placed plain lists (`graph_list_heads`) equal the
/// host's, lists shorter than the heads padded; lists that are not plain and in device memory
/// are refused.
#[test]
fn list_heads_gathered_on_the_device_equal_the_hosts() {
    let Some(gpu) = gpu_or_skip("list_heads_gathered_on_the_device_equal_the_hosts") else { return };
    // Vertex 0 has three neighbors, 1 and 3 one each, 4 and 5 none; kron:17 has every length.
    let short =
        GraphBuilder::new().build(EdgeList::new(6, vec![(0, 2), (0, 1), (0, 5), (1, 3), (3, 0)], false)).unwrap();
    for (what, plain) in [("short lists", short), ("kron:17", graph("kron:17")), ("grid2d:300", graph("grid2d:300"))] {
        let mut placed = gpu.place_graph(&plain, Layout::from(Placement::Device)).unwrap();
        assert_eq!(placed.read_list_heads(&gpu).unwrap(), None, "{what}");
        gpu.gather_list_heads(&mut placed).unwrap();
        assert!(placed.has_list_heads(), "{what}");
        assert_eq!(placed.read_list_heads(&gpu).unwrap(), Some(ListHeads::of_graph(&plain).neighbors), "{what}");
    }
    let plain = graph("kron:12");
    let mut zero_copy = gpu.place_graph(&plain, Layout::from(Placement::ZeroCopy)).unwrap();
    assert!(gpu.gather_list_heads(&mut zero_copy).is_err());
    let mut packed = gpu.place_compressed(&CompressedGraph::encode(&plain), Layout::from(Placement::Device)).unwrap();
    assert!(gpu.gather_list_heads(&mut packed).is_err());
}

/// Every source's result equals the sequential reference's distances and validates.
fn assert_runs_match(graph: &Graph, traverser: &Traverser, sources: &[u32], what: &str) {
    let mut result = traverser.run(sources[0]).unwrap().result;
    for &source in sources {
        let traversal = traverser.run_reusing(source, result).unwrap();
        let expected = bfs_sequential(graph, source);
        assert_eq!(traversal.result.distances, expected.distances, "{what}, source {source}");
        validate(graph, &traversal.result).unwrap_or_else(|e| panic!("{what}, source {source}: {e}"));
        let labels = if traverser.distances_only() { 1 } else { 2 };
        assert_eq!(traversal.download.bytes, 4 * labels * graph.num_vertices() as u64, "{what}");
        assert!(traversal.end_to_end_time >= traversal.time, "{what}");
        result = traversal.result;
        // The same labels read back into the traverser's pinned buffers, read in place.
        let pinned = traverser.run_pinned(source).unwrap();
        assert_eq!(pinned.distances().unwrap(), expected.distances, "{what}, pinned, source {source}");
        assert_eq!(pinned.parents().unwrap().is_some(), !traverser.distances_only(), "{what}");
        assert_eq!(pinned.run.download.bytes, 4 * labels * graph.num_vertices() as u64, "{what}");
        let copied = pinned.into_run(result).unwrap();
        validate(graph, &copied.result).unwrap_or_else(|e| panic!("{what}, pinned, source {source}: {e}"));
        result = copied.result;
    }
}

#[test]
fn prepared_graphs_run_many_sources_over_kept_buffers() {
    if gpu_or_skip("prepared_graphs_run_many_sources_over_kept_buffers").is_none() {
        return;
    }
    // kron: the persistent direction-optimizing kernel; grid: auto's contract-expand over edge
    // queues (on a Hopper GPU, the cluster kernel in its place, device placement only); a
    // directed graph brings its transpose.
    let kron = graph("kron:16");
    let grid = graph("grid2d:300x200");
    let directed = warpath::graph::GraphBuilder::new()
        .build(warpath::graph::EdgeList::new(
            5000,
            (0..5000u32).flat_map(|v| [(v, (v * 7 + 1) % 5000), (v, (v * 13 + 5) % 5000)]).collect(),
            false,
        ))
        .unwrap();
    for (name, graph) in [("kron:16", &kron), ("grid2d:300x200", &grid), ("directed", &directed)] {
        let sources = random_sources(graph, 7, 6);
        for distances_only in [false, true] {
            for placement in [Placement::Device, Placement::ZeroCopy] {
                let placing = PlacementOptions { placement: Some(placement), ..PlacementOptions::default() };
                let options = GpuOptions { placement: placing, distances_only };
                let mut traverser = Traverser::with_options(graph, Backend::Gpu, options).unwrap();
                let what = format!("{name}, {placement}, distances only {distances_only}");
                assert_runs_match(graph, &traverser, &sources, &what);
                // Another kernel family frees the kept arrays and makes its own.
                traverser.set_gpu_kernel(GpuKernel::TopDown(TopDownStrategy::ExpandContract));
                assert_runs_match(graph, &traverser, &sources, &format!("{what}, expand-contract"));
                if placement == Placement::Device {
                    traverser.set_gpu_kernel(GpuKernel::TopDown(TopDownStrategy::TwoPhase));
                    assert_runs_match(graph, &traverser, &sources, &format!("{what}, two-phase"));
                }
            }
        }
        // Compressed lists in mapped host memory.
        let placement =
            PlacementOptions { placement: Some(Placement::ZeroCopy), compressed: true, ..PlacementOptions::default() };
        let options = GpuOptions { placement, ..GpuOptions::default() };
        let traverser = Traverser::with_options(graph, Backend::Gpu, options).unwrap();
        assert!(traverser.is_compressed());
        assert_runs_match(graph, &traverser, &sources, &format!("{name}, compressed zero-copy"));
        // The placement was timed once, apart from the runs.
        assert!(traverser.placement_time().unwrap() > std::time::Duration::ZERO);
    }
}

#[test]
fn the_bench_reports_placement_and_downloads_on_the_gpu() {
    if gpu_or_skip("the_bench_reports_placement_and_downloads_on_the_gpu").is_none() {
        return;
    }
    let kron = graph("kron:16");
    let traverser = Traverser::new(&kron, Backend::Gpu).unwrap();
    let options = warpath::bench::BenchOptions { trials: 4, seed: 1, trace: true, traced: 0 };
    let run = warpath::bench::run_bench(&kron, &traverser, &options, &mut |_| {}).unwrap();
    for trial in &run.trials {
        assert_eq!(trial.details.download_bytes, 8 * kron.num_vertices() as u64);
        assert!(trial.details.download_ms > 0.0 && trial.end_to_end_ms >= trial.time_ms + trial.details.download_ms);
    }
    let placement = warpath::bench::PlacementStage::of(traverser.placed()).unwrap().unwrap();
    assert_eq!(placement.placement, "device");
    assert_eq!(placement.bytes, traverser.gpu_graph_stored_bytes().unwrap());
    assert!(placement.pinned_host_to_device_bytes_per_s > 1e9 && placement.pinned_device_to_host_bytes_per_s > 1e9);
}

/// A pinned-memory provider of the test's own, so that its count of live blocks is the test's.
fn own_pinned_memory() -> &'static PinnedMemory {
    Box::leak(Box::new(PinnedMemory::new().expect("pinned memory on a machine with a GPU")))
}

/// kron:`scale` built (and, for a directed graph, its edges kept one way) into `memory`.
fn pinned_graph(scale: u32, undirected: bool, memory: &'static PinnedMemory) -> (Graph, Graph) {
    let mut list = warpath::generate::generate_edges(&format!("kron:{scale}").parse().unwrap(), 2).unwrap();
    if !undirected {
        list.edges.retain(|&(u, v)| u < v);
        list.undirected = false;
    }
    let plain = GraphBuilder::new().build(list.clone()).unwrap();
    let memory: &'static dyn HostMemory = memory;
    let pinned = GraphBuilder::new().host_memory(Some(memory)).build(list).unwrap();
    assert!(pinned.offsets_array().is_provided() && pinned.targets_array().is_provided());
    assert_eq!(pinned, plain);
    (pinned, plain)
}

#[test]
fn pinned_graphs_place_in_place_and_free_their_blocks() {
    let Some(gpu) = gpu_or_skip("pinned_graphs_place_in_place_and_free_their_blocks") else { return };
    let memory = own_pinned_memory();
    let (pinned, plain) = pinned_graph(16, true, memory);
    assert_eq!(memory.live_blocks(), 2);
    let layouts = [
        Layout::from(Placement::Device),
        Layout::from(Placement::ZeroCopy),
        Layout { offsets: Placement::Device, lists: Placement::ZeroCopy },
    ];
    for layout in layouts {
        assert_placed_equal(&gpu, &pinned, None, layout);
    }
    // A zero-copy graph keeps the blocks it reads after the host graph is gone.
    let placed = gpu.place_graph(&pinned, Placement::ZeroCopy).unwrap();
    drop(pinned);
    assert_eq!(memory.live_blocks(), 2, "the placed graph holds the blocks");
    assert_eq!(placed.read_offsets(&gpu).unwrap(), plain.offsets());
    assert_eq!(placed.read_lists(&gpu).unwrap(), bytemuck::cast_slice::<u32, u8>(plain.targets()));
    drop(placed);
    assert_eq!(memory.live_blocks(), 0, "no pinned block outlives its last holder");
    // Device placement copies and keeps nothing.
    let (pinned, _) = pinned_graph(12, false, memory);
    let transpose = pinned.transpose();
    assert!(transpose.targets_array().is_provided(), "the transpose is built into the same memory");
    let placed = gpu.place_graph(&transpose, Placement::Device).unwrap();
    drop((pinned, transpose));
    assert_eq!(memory.live_blocks(), 0);
    drop(placed);
}

#[test]
fn pinned_graphs_traverse_as_the_cpu_references_say() {
    if gpu_or_skip("pinned_graphs_traverse_as_the_cpu_references_say").is_none() {
        return;
    }
    use warpath::cc::{components_sequential, CcOptions, ComponentFinder};
    use warpath::engine::PlacementOptions;
    use warpath::sssp::{dijkstra, verify::compare_with_reference, PathFinder, SsspOptions};
    let memory = own_pinned_memory();
    for undirected in [true, false] {
        let (graph, plain) = pinned_graph(14, undirected, memory);
        let sources = random_sources(&plain, 5, 3);
        for placement in [Placement::Device, Placement::ZeroCopy] {
            let what = format!("pinned kron:14, undirected {undirected}, {placement}");
            let placing = PlacementOptions { placement: Some(placement), ..PlacementOptions::default() };
            let options = GpuOptions { placement: placing.clone(), ..GpuOptions::default() };
            let traverser = Traverser::with_options(&graph, Backend::Gpu, options).unwrap();
            assert_runs_match(&plain, &traverser, &sources, &what);

            let finder = ComponentFinder::with_options(&graph, Backend::Gpu, &placing, &CcOptions::default()).unwrap();
            let run = finder.run(&CcOptions::default()).unwrap().result;
            assert_eq!(run.components.labels, components_sequential(&plain).labels, "{what}: components");

            let sssp = SsspOptions::default();
            let finder = PathFinder::with_placement(&graph, Backend::Gpu, &placing, &sssp).unwrap();
            for &source in &sources {
                let found = finder.run(source, &sssp).unwrap();
                compare_with_reference(&plain, &found.result.distances, &dijkstra(&plain, source).distances)
                    .unwrap_or_else(|e| panic!("{what}, source {source}: {e}"));
            }
        }
    }
    assert_eq!(memory.live_blocks(), 0);
}

/// One placement serves every algorithm (`PlacedGraph`): BFS, connected components and
/// shortest paths in turn, twice over (each releasing the last one's arrays), on a weighted
/// directed graph and an undirected one, all equal to the CPU references, the graph placed
/// once; placed compressed, BFS and components run and shortest paths are refused with a
/// line that says why.
#[test]
fn one_placement_serves_every_algorithm() {
    if gpu_or_skip("one_placement_serves_every_algorithm").is_none() {
        return;
    }
    use warpath::cc::{components_sequential, CcOptions};
    use warpath::generate::{attach_weights, WeightSpec};
    use warpath::sssp::{dijkstra, SsspOptions};
    use warpath::PlacedGraph;
    let weights: WeightSpec = "uniform:1:255".parse().unwrap();
    let undirected = attach_weights(graph("kron:12"), &weights, 2).unwrap();
    let directed = attach_weights(common::rmat(12, 40_000, 5, false), &weights, 2).unwrap();
    for (what, graph) in [("undirected", &undirected), ("directed", &directed)] {
        let placed = PlacedGraph::new(graph, Backend::Gpu).unwrap();
        let upload = placed.upload_time();
        assert!(placed.placed().is_some() && upload > std::time::Duration::ZERO, "{what}");
        let sources = random_sources(graph, 3, 2);
        for &source in &sources {
            let traversal = placed.bfs(source).unwrap();
            assert_eq!(traversal.result.distances, bfs_sequential(graph, source).distances, "{what}: bfs");
            let components = placed.components(&CcOptions::default()).unwrap().result.components;
            assert_eq!(components, components_sequential(graph), "{what}: components");
            let paths = placed.shortest_paths(source, &SsspOptions::default()).unwrap();
            assert_eq!(paths.result.distances, dijkstra(graph, source).distances, "{what}: shortest paths");
        }
        assert_eq!(placed.upload_time(), upload, "{what}: placed once");
    }
    let compressed = PlacementOptions { compressed: true, ..PlacementOptions::default() };
    let placed = PlacedGraph::with_placement(&undirected, Backend::Gpu, &compressed).unwrap();
    let source = random_sources(&undirected, 3, 1)[0];
    assert_eq!(placed.bfs(source).unwrap().result.distances, bfs_sequential(&undirected, source).distances);
    assert_eq!(placed.components(&Default::default()).unwrap().result.components, components_sequential(&undirected));
    let refused = placed.shortest_paths(source, &SsspOptions::default()).unwrap_err().to_string();
    assert!(refused.contains("compressed") && !refused.contains('\n'), "{refused}");
}
