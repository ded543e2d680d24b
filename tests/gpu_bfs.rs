//! The GPU BFS against the sequential CPU reference: identical distances, and parents that
//! pass Graph500 validation, on generated graphs, special shapes and the real datasets.
//! Skips, saying why, on machines without a CUDA device.

mod common;

use common::{dataset_files, datasets_dir, gpu_or_skip};
use warpath::bfs::cpu_reference::bfs_sequential;
use warpath::bfs::gpu_topdown::GpuTopDown;
use warpath::formats::{read_graph, ReadOptions};
use warpath::generate::{generate, GeneratorSpec};
use warpath::gpu::GpuContext;
use warpath::graph::{EdgeList, GraphBuilder};
use warpath::verify::validate_bfs_tree;
use warpath::Graph;

/// Runs the GPU BFS from each source and checks it against the CPU reference.
fn check_against_cpu(gpu: &GpuContext, graph: &Graph, sources: &[u32], label: &str) {
    let device_graph = gpu.upload_graph(graph).unwrap();
    let mut bfs = GpuTopDown::new(gpu, &device_graph).unwrap();
    for &source in sources {
        let run = bfs.run(source).unwrap();
        let expected = bfs_sequential(graph, source);
        assert_eq!(run.result.distances, expected.distances, "{label}: distances from {source}");
        validate_bfs_tree(graph, &run.result).unwrap_or_else(|e| panic!("{label}: from {source}: {e}"));
    }
}

/// A few sources with edges: the first, the last and two in between.
fn sources_of(graph: &Graph) -> Vec<u32> {
    let n = graph.num_vertices() as u32;
    let mut sources: Vec<u32> = [0, n / 3, n / 2, n.saturating_sub(1)]
        .into_iter()
        .filter_map(|start| (start..n).chain(0..start).find(|&v| graph.degree(v) > 0))
        .collect();
    sources.dedup();
    sources
}

#[test]
fn generated_graphs_match_the_cpu() {
    let Some(gpu) = gpu_or_skip("generated_graphs_match_the_cpu") else { return };
    for spec in ["kron:12", "kron:16", "rmat:14:8:0.45,0.15,0.15", "urand:14:8", "grid2d:200x150", "grid3d:30"] {
        let graph = generate(&spec.parse::<GeneratorSpec>().unwrap(), 1).unwrap();
        check_against_cpu(&gpu, &graph, &sources_of(&graph), spec);
    }
}

#[test]
fn a_star_with_a_hub_of_degree_over_100k() {
    let Some(gpu) = gpu_or_skip("a_star_with_a_hub_of_degree_over_100k") else { return };
    let leaves = 150_000u32;
    let edges = (1..=leaves).map(|v| (0, v)).collect();
    let graph = GraphBuilder::new().build(EdgeList::new(leaves as u64 + 1, edges, true)).unwrap();
    check_against_cpu(&gpu, &graph, &[0, 1, leaves], "star");
}

#[test]
fn a_long_path_isolated_vertices_and_many_components() {
    let Some(gpu) = gpu_or_skip("a_long_path_isolated_vertices_and_many_components") else { return };
    let path: Vec<(u32, u32)> = (0..5000).map(|v| (v, v + 1)).collect();
    let graph = GraphBuilder::new().build(EdgeList::new(5001, path, true)).unwrap();
    check_against_cpu(&gpu, &graph, &[0, 2500], "path");

    // 2000 triangles, every fourth vertex left isolated.
    let mut edges = Vec::new();
    for c in 0..2000u32 {
        let base = 4 * c;
        edges.extend([(base, base + 1), (base + 1, base + 2), (base + 2, base)]);
    }
    let graph = GraphBuilder::new().build(EdgeList::new(8000, edges, true)).unwrap();
    check_against_cpu(&gpu, &graph, &[0, 4 * 1999 + 1], "triangles");
}

#[test]
fn directed_graphs_follow_edge_direction() {
    let Some(gpu) = gpu_or_skip("directed_graphs_follow_edge_direction") else { return };
    // A directed cycle with chords one way, and a vertex that points in but is never reached.
    let n = 3000u32;
    let mut edges: Vec<(u32, u32)> = (0..n - 1).map(|v| (v, (v + 1) % (n - 1))).collect();
    edges.extend((0..n - 1).step_by(7).map(|v| (v, (v * 13 + 5) % (n - 1))));
    edges.push((n - 1, 0));
    let graph = GraphBuilder::new().build(EdgeList::new(n as u64, edges, false)).unwrap();
    check_against_cpu(&gpu, &graph, &[0, 1234, n - 1], "directed");
}

#[test]
fn every_dataset_matches_the_cpu() {
    let Some(gpu) = gpu_or_skip("every_dataset_matches_the_cpu") else { return };
    let Some(dir) = datasets_dir("every_dataset_matches_the_cpu") else { return };
    let files = dataset_files(&dir);
    assert!(!files.is_empty(), "no dataset files in {}", dir.display());
    for path in files {
        let graph = read_graph(&path, &ReadOptions::default()).unwrap();
        check_against_cpu(&gpu, &graph, &sources_of(&graph), &path.display().to_string());
    }
}
