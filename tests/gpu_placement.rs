//! Placement at the bus's speed and traversals that pay nothing twice, on the GPU: arrays
//! copied through the pinned staging buffers (several chunks and a ragged tail) read back equal
//! to the host's; graphs placed in device memory and zero-copy (plain and compressed, the
//! latter padded with zeros) read back byte for byte and traverse correctly; a prepared graph
//! runs many sources over the device arrays it keeps and the host vectors it is given, every
//! result equal to the sequential CPU reference. Zero-copy placement both ways
//! (`ZeroCopyMode`: the graph's own pages registered, or a copy in fresh pinned memory) reads
//! back equal and traverses, and BFS, CC and SSSP verify on registered graphs; tiny arrays
//! sharing pages register, placed several times at once. Skips, saying why, on machines
//! without a CUDA device.

mod common;

use common::gpu_or_skip;
use warpath::bfs::cpu_reference::bfs_sequential;
use warpath::bfs::gpu::persistent::{GpuPersistent, PersistentParams};
use warpath::bfs::verify::validate;
use warpath::bfs::{random_sources, Backend, GpuKernel, GpuOptions, TopDownStrategy, Traverser};
use warpath::cc::{CcOptions, ComponentFinder};
use warpath::engine::PlacementOptions;
use warpath::generate::{attach_weights, WeightSpec};
use warpath::generate::{generate, GeneratorSpec};
use warpath::gpu::staging::{UploadPath, STAGED_MIN_BYTES, STAGING_BUFFERS, STAGING_CHUNK};
use warpath::gpu::{GpuContext, Layout, Placement, ZeroCopyMode};
use warpath::graph::{CompressedGraph, EdgeList, GraphBuilder};
use warpath::sssp::{PathFinder, SsspOptions};
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
    let mode = gpu.zero_copy_mode();
    let expected_mode = (layout.lists == Placement::ZeroCopy).then_some(mode);
    assert_eq!(placed.zero_copy_mode(), expected_mode, "{layout:?} {mode}");
    match compressed {
        Some(packed) => {
            assert_eq!(placed.read_offsets(gpu).unwrap(), packed.byte_offsets(), "{layout:?} {mode}");
            let lists = placed.read_lists(gpu).unwrap();
            assert_eq!(&lists[..packed.bytes().len()], packed.bytes(), "{layout:?} {mode}");
            // Copies are padded with zeros to 8 bytes; registered lists are the host's bytes,
            // whose pages make the padding readable.
            if placed.zero_copy_mode() == Some(ZeroCopyMode::Register) {
                assert_eq!(lists.len(), packed.bytes().len(), "{layout:?} {mode}");
            } else {
                assert_eq!(lists.len(), packed.bytes().len().div_ceil(8).max(1) * 8, "{layout:?} {mode}");
                assert!(lists[packed.bytes().len()..].iter().all(|&b| b == 0), "padding {layout:?} {mode}");
            }
        }
        None => {
            assert_eq!(placed.read_offsets(gpu).unwrap(), plain.offsets(), "{layout:?} {mode}");
            let lists = placed.read_lists(gpu).unwrap();
            assert_eq!(lists, bytemuck::cast_slice::<u32, u8>(plain.targets()), "{layout:?} {mode}");
        }
    }
}

#[test]
fn placed_graphs_read_back_equal_in_every_layout() {
    let Some(mut gpu) = gpu_or_skip("placed_graphs_read_back_equal_in_every_layout") else { return };
    // kron:17's lists (about 16 MB) are staged in chunks; its offsets (1 MB) go in one copy.
    let plain = graph("kron:17");
    let packed = CompressedGraph::encode(&plain);
    let layouts = [
        Layout::from(Placement::Device),
        Layout::from(Placement::ZeroCopy),
        Layout { offsets: Placement::Device, lists: Placement::ZeroCopy },
    ];
    let weighted = attach_weights(graph("kron:12"), &WeightSpec::GAPBS, 3).unwrap();
    for mode in [ZeroCopyMode::Register, ZeroCopyMode::Copy] {
        gpu.set_zero_copy_mode(mode);
        for layout in layouts {
            assert_placed_equal(&gpu, &plain, None, layout);
            assert_placed_equal(&gpu, &plain, Some(&packed), layout);
            // Weights beside the lists, in their memory.
            let mut placed = gpu.place_graph(&weighted, layout).unwrap();
            gpu.attach_weights(&mut placed, weighted.weights().unwrap()).unwrap();
            let words: Vec<u32> = match weighted.weights().unwrap() {
                warpath::graph::Weights::U32(values) => values.clone(),
                warpath::graph::Weights::F32(values) => values.iter().map(|w| w.to_bits()).collect(),
            };
            assert_eq!(placed.read_weights(&gpu).unwrap().unwrap(), words, "{layout:?} {mode}");
        }
    }
}

/// BFS by the persistent kernel from a few sources over `graph` placed zero-copy in `mode`,
/// each equal to the sequential reference.
fn assert_zero_copy_bfs(gpu: &mut GpuContext, graph: &Graph, mode: ZeroCopyMode, what: &str) {
    gpu.set_zero_copy_mode(mode);
    let transpose = (!graph.is_undirected()).then(|| graph.transpose());
    let placed = gpu.place_graph(graph, Placement::ZeroCopy).unwrap();
    let placed_transpose = transpose.as_ref().map(|t| gpu.place_graph(t, Placement::ZeroCopy).unwrap());
    assert_eq!(placed.zero_copy_mode(), Some(mode), "{what}");
    let inbound = placed_transpose.as_ref().unwrap_or(&placed);
    let mut persistent = GpuPersistent::new(gpu, graph, &placed, inbound).unwrap();
    for source in random_sources(graph, 4, 3) {
        let run = persistent.run(source, PersistentParams::default()).unwrap();
        assert_eq!(run.result.distances, bfs_sequential(graph, source).distances, "{what} {mode}, source {source}");
        validate(graph, &run.result).unwrap_or_else(|e| panic!("{what} {mode}, source {source}: {e}"));
    }
}

#[test]
fn zero_copy_placement_registers_or_copies_and_traverses() {
    let Some(mut gpu) = gpu_or_skip("zero_copy_placement_registers_or_copies_and_traverses") else { return };
    let kron = graph("kron:14");
    let directed = directed_graph(3000);
    for mode in [ZeroCopyMode::Register, ZeroCopyMode::Copy] {
        assert_zero_copy_bfs(&mut gpu, &kron, mode, "kron:14");
        assert_zero_copy_bfs(&mut gpu, &directed, mode, "directed");
    }
}

fn directed_graph(n: u32) -> Graph {
    GraphBuilder::new()
        .build(EdgeList::new(
            n as u64,
            (0..n).flat_map(|v| [(v, (v * 7 + 1) % n), (v, (v * 13 + 5) % n)]).collect(),
            false,
        ))
        .unwrap()
}

#[test]
fn tiny_graphs_sharing_pages_register() {
    let Some(mut gpu) = gpu_or_skip("tiny_graphs_sharing_pages_register") else { return };
    gpu.set_zero_copy_mode(ZeroCopyMode::Register);
    // Arrays of a few bytes each, allocated one after the other: several share a page, and
    // each graph is placed twice at once, so the same pages are asked for again while
    // registered.
    let tiny: Vec<Graph> = (2..10u32)
        .map(|n| {
            let edges = (1..n).map(|v| (v - 1, v)).collect();
            let plain = GraphBuilder::new().build(EdgeList::new(n as u64, edges, n % 2 == 0)).unwrap();
            attach_weights(plain, &WeightSpec::GAPBS, n as u64).unwrap()
        })
        .collect();
    let transposes: Vec<Graph> = tiny.iter().map(Graph::transpose).collect();
    let mut placed = Vec::new();
    for (graph, transpose) in tiny.iter().zip(&transposes) {
        for host in [graph, graph, transpose] {
            let mut device = gpu.place_graph(host, Placement::ZeroCopy).unwrap();
            gpu.attach_weights(&mut device, host.weights().unwrap()).unwrap();
            assert_eq!(device.zero_copy_mode(), Some(ZeroCopyMode::Register));
            placed.push((host, device));
        }
    }
    for (host, device) in &placed {
        assert_eq!(device.read_offsets(&gpu).unwrap(), host.offsets());
        assert_eq!(device.read_lists(&gpu).unwrap(), bytemuck::cast_slice::<u32, u8>(host.targets()));
    }
    // Letting go of every other one leaves the rest registered and readable; placing again
    // over pages still registered works.
    let kept: Vec<_> = placed.into_iter().enumerate().filter(|(i, _)| i % 2 == 0).map(|(_, p)| p).collect();
    for (host, device) in &kept {
        assert_eq!(device.read_lists(&gpu).unwrap(), bytemuck::cast_slice::<u32, u8>(host.targets()));
        let again = gpu.place_graph(host, Placement::ZeroCopy).unwrap();
        assert_eq!(again.read_offsets(&gpu).unwrap(), host.offsets());
    }
    drop(kept);
    for graph in &tiny {
        assert_zero_copy_bfs(&mut gpu, graph, ZeroCopyMode::Register, "tiny");
    }
}

#[test]
fn bfs_cc_and_sssp_verify_on_registered_zero_copy_graphs() {
    if gpu_or_skip("bfs_cc_and_sssp_verify_on_registered_zero_copy_graphs").is_none() {
        return;
    }
    // The engine's context takes WARPATH_ZERO_COPY; registering is the default.
    let mode = ZeroCopyMode::from_env();
    let kron = attach_weights(graph("kron:14"), &WeightSpec::GAPBS, 5).unwrap();
    let directed = attach_weights(directed_graph(4000), &WeightSpec::GAPBS, 5).unwrap();
    for (name, graph) in [("kron:14", &kron), ("directed", &directed)] {
        for compressed in [false, true] {
            let placing =
                PlacementOptions { placement: Some(Placement::ZeroCopy), compressed, ..PlacementOptions::default() };
            let what = format!("{name}, compressed {compressed}");
            let sources = random_sources(graph, 9, 3);
            // BFS.
            let options = GpuOptions { placement: Some(Placement::ZeroCopy), compressed, ..GpuOptions::default() };
            let traverser = Traverser::with_options(graph, Backend::Gpu, options).unwrap();
            assert_runs_match(graph, &traverser, &sources, &what);
            // CC.
            let cc = ComponentFinder::with_options(graph, Backend::Gpu, &placing, &CcOptions::default()).unwrap();
            assert_eq!(cc.placement(), Some(Placement::ZeroCopy), "{what}");
            let components = cc.run(&CcOptions::default()).unwrap().components;
            assert_eq!(components, warpath::cc::cpu_reference::components_sequential(graph), "{what}");
            warpath::cc::verify::validate(graph, &components).unwrap_or_else(|e| panic!("{what}: {e}"));
            // SSSP reads plain lists and their weights.
            if compressed {
                continue;
            }
            let sssp_options = SsspOptions::default();
            let paths = PathFinder::with_placement(graph, Backend::Gpu, &placing, &sssp_options).unwrap();
            let placed = paths.gpu().unwrap();
            assert_eq!(placed.graph().zero_copy_mode(), Some(mode), "{what}");
            if let Some(in_lists) = placed.in_lists() {
                assert_eq!(in_lists.zero_copy_mode(), Some(mode), "{what}, in-lists");
            }
            for &source in &sources {
                let run = paths.run(source, &sssp_options).unwrap().run;
                let reference = warpath::sssp::cpu_reference::dijkstra(graph, source);
                warpath::sssp::verify::compare_with_reference(graph, &run.distances, &reference.distances)
                    .unwrap_or_else(|e| panic!("{what}, source {source}: {e}"));
                warpath::sssp::verify::validate(graph, source, &run)
                    .unwrap_or_else(|e| panic!("{what}, {source}: {e}"));
            }
        }
    }
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
        assert!(traversal.end_to_end_time >= traversal.traversal_time, "{what}");
        result = traversal.result;
        // The same labels read back into the traverser's pinned buffers, read in place.
        let pinned = traverser.run_pinned(source).unwrap();
        assert_eq!(pinned.distances().unwrap(), expected.distances, "{what}, pinned, source {source}");
        assert_eq!(pinned.parents().unwrap().is_some(), !traverser.distances_only(), "{what}");
        assert_eq!(pinned.traversal.download.bytes, 4 * labels * graph.num_vertices() as u64, "{what}");
        let copied = pinned.into_traversal(result).unwrap();
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
    // queues; a directed graph brings its transpose.
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
                let options = GpuOptions { placement: Some(placement), distances_only, ..GpuOptions::default() };
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
        let options = GpuOptions { placement: Some(Placement::ZeroCopy), compressed: true, ..GpuOptions::default() };
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
    let options = warpath::bench::BenchOptions { trials: 4, seed: 1, trace: true };
    let run = warpath::bench::run_bench(&kron, &traverser, &options, &mut |_| {}).unwrap();
    for trial in &run.trials {
        assert_eq!(trial.details.download_bytes, 8 * kron.num_vertices() as u64);
        assert!(trial.details.download_ms > 0.0 && trial.end_to_end_ms >= trial.time_ms + trial.details.download_ms);
    }
    let placement = warpath::bench::PlacementStage::of(&traverser).unwrap().unwrap();
    assert_eq!(placement.placement, "device");
    assert_eq!(placement.bytes, traverser.gpu_graph_stored_bytes().unwrap());
    assert!(placement.pinned_host_to_device_bytes_per_s > 1e9 && placement.pinned_device_to_host_bytes_per_s > 1e9);
}
