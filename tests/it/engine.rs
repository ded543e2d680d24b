//! The engine prepares a graph for whichever algorithm asks: its in-lists only when the
//! algorithm reads them, its weights beside the lists only when it reads weights, in device
//! memory or zero-copy. The CPU tests run everywhere; the GPU ones skip without a GPU.

use crate::common;

use common::gpu_or_skip;
use warpath::engine::{prepare, Backend, PlacementOptions, Prepared, Workspace};
use warpath::generate::{attach_weights, generate, WeightSpec};
use warpath::gpu::Placement;
use warpath::graph::{EdgeList, GraphBuilder, Weights};
use warpath::Graph;

/// A small directed graph with u32 weights.
fn weighted_directed() -> Graph {
    let list = EdgeList::new(5, vec![(0, 1), (1, 2), (2, 0), (3, 4), (0, 3)], false)
        .with_weights(Weights::U32(vec![7, 1, 30, 2, 0]));
    GraphBuilder::new().build(list).unwrap()
}

#[test]
fn the_cpu_keeps_a_transpose_only_for_algorithms_that_read_in_lists() {
    let graph = weighted_directed();
    let options = PlacementOptions::default();
    let (out_only, _) = prepare(&graph, Backend::Cpu, &options, Workspace::new(0, "nothing")).unwrap();
    assert!(matches!(out_only, Prepared::Cpu { transpose: None }));
    let in_lists = Workspace { in_lists: true, ..Workspace::new(0, "nothing") };
    let (with_in, _) = prepare(&graph, Backend::Cpu, &options, in_lists).unwrap();
    match with_in {
        Prepared::Cpu { transpose: Some(transpose) } => {
            assert_eq!(transpose, graph.transpose(), "the transpose, weights and all");
            assert!(transpose.is_weighted());
        }
        _ => panic!("a directed graph read by in-lists needs its transpose"),
    }
}

#[test]
fn weights_are_placed_beside_the_lists_when_asked_in_device_memory_and_zero_copy() {
    if gpu_or_skip("weights_are_placed_beside_the_lists_when_asked_in_device_memory_and_zero_copy").is_none() {
        return;
    }
    let integer = attach_weights(generate(&"kron:10".parse().unwrap(), 3).unwrap(), &WeightSpec::GAPBS, 3).unwrap();
    let real = attach_weights(generate(&"grid2d:40".parse().unwrap(), 3).unwrap(), &WeightSpec::Graph500, 3).unwrap();
    for graph in [&integer, &real, &weighted_directed()] {
        let expected: Vec<u32> = match graph.weights().unwrap() {
            Weights::U32(values) => values.clone(),
            Weights::F32(values) => values.iter().map(|w| w.to_bits()).collect(),
        };
        for placement in [Placement::Device, Placement::ZeroCopy] {
            let options = PlacementOptions { placement: Some(placement), ..PlacementOptions::default() };
            let asks = Workspace { edge_weights: true, ..Workspace::new(1 << 20, "test arrays") };
            let (prepared, _) = prepare(graph, Backend::Gpu, &options, asks).unwrap();
            let gpu_graph = prepared.gpu().expect("prepared on the GPU");
            let placed = gpu_graph.graph();
            assert_eq!(placed.weight_kind(), graph.weight_kind(), "{placement:?}");
            assert_eq!(placed.read_weights(gpu_graph.gpu()).unwrap().as_deref(), Some(&expected[..]), "{placement:?}");
            assert!(gpu_graph.in_lists().is_none() || graph.is_undirected(), "no transpose unless asked");

            let (unweighted, _) = prepare(graph, Backend::Gpu, &options, Workspace::new(1 << 20, "arrays")).unwrap();
            let unweighted = unweighted.gpu().unwrap();
            assert_eq!(unweighted.graph().weight_kind(), None, "weights are placed only when asked");
            assert_eq!(
                gpu_graph.stored_bytes() - unweighted.stored_bytes(),
                4 * graph.num_edges(),
                "weights take 4 bytes an edge"
            );
        }
    }
    let compressed = PlacementOptions { compressed: true, ..PlacementOptions::default() };
    let asks = Workspace { edge_weights: true, ..Workspace::new(0, "arrays") };
    match prepare(&integer, Backend::Gpu, &compressed, asks) {
        Err(err) => assert!(err.to_string().contains("compressed lists hold no edge weights"), "{err}"),
        Ok(_) => panic!("a weighted graph read by weights cannot be placed compressed"),
    }
}
