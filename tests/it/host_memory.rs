//! Graphs built and read into memory a provider supplies (`graph::HostMemory`, which the GPU
//! runtime implements with pinned memory): a provider here hands out vector-backed blocks that
//! are recognisably its own and counted while they live. The builder, the transpose, the
//! `.wgr` reader (plain, gzipped, compressed, rebuilt as undirected) and `load_graph` give the
//! same graphs with and without it, their offsets and targets in its blocks; a provider that
//! refuses leaves everything in ordinary memory; no block outlives the graphs holding it; a
//! shared block is copied out before it is written.

use crate::common;

use std::any::Any;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::Scratch;
use warpath::formats::{read_graph, wgr, ReadOptions};
use warpath::generate::{generate_edges, GeneratorSpec};
use warpath::graph::{CompressedGraph, EdgeList, GraphBuilder, HostArray, HostBlock, HostMemory, Weights};
use warpath::input::{load_graph, LoadOptions};
use warpath::Graph;

/// Blocks of `u64` words (8-byte aligned), counted while alive; blocks above `limit` bytes are
/// refused, as pinned memory may be.
#[derive(Debug)]
struct CountingMemory {
    live: Arc<AtomicUsize>,
    limit: usize,
}

struct CountedBlock {
    words: Vec<u64>,
    bytes: usize,
    live: Arc<AtomicUsize>,
}

impl HostMemory for CountingMemory {
    fn allocate_zeroed(&self, bytes: usize) -> Option<Box<dyn HostBlock>> {
        if bytes > self.limit {
            return None;
        }
        self.live.fetch_add(1, Ordering::SeqCst);
        Some(Box::new(CountedBlock { words: vec![0; bytes.div_ceil(8)], bytes, live: Arc::clone(&self.live) }))
    }
}

impl HostBlock for CountedBlock {
    fn bytes(&self) -> &[u8] {
        &bytemuck::cast_slice(&self.words)[..self.bytes]
    }
    fn bytes_mut(&mut self) -> &mut [u8] {
        &mut bytemuck::cast_slice_mut(&mut self.words)[..self.bytes]
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Drop for CountedBlock {
    fn drop(&mut self) {
        self.live.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A provider of its own for each test (tests run in parallel), leaked as providers are.
fn memory(limit: usize) -> &'static CountingMemory {
    Box::leak(Box::new(CountingMemory { live: Arc::new(AtomicUsize::new(0)), limit }))
}

fn live(memory: &CountingMemory) -> usize {
    memory.live.load(Ordering::SeqCst)
}

/// The graph's offsets and targets are in `memory`'s blocks (and it names `memory` for its
/// transpose).
fn assert_provided(graph: &Graph, memory: &'static CountingMemory, what: &str) {
    assert!(graph.offsets_array().is_provided(), "{what}: offsets");
    assert!(graph.targets_array().is_provided(), "{what}: targets");
    for block in [graph.offsets_array().block().unwrap(), graph.targets_array().block().unwrap()] {
        assert!(block.as_any().is::<CountedBlock>(), "{what}: a block of the test's provider");
    }
    let named = graph.host_memory().expect("the graph keeps its provider");
    assert!(std::ptr::addr_eq(named, memory as &dyn HostMemory), "{what}: the test's provider");
}

#[test]
fn provided_arrays_read_write_share_and_free() {
    let memory = memory(usize::MAX);
    let mut array = HostArray::<u32>::zeroed(1000, Some(memory));
    assert!(array.is_provided());
    assert_eq!(live(memory), 1);
    array.iter_mut().enumerate().for_each(|(i, x)| *x = i as u32);
    let shared = array.clone();
    assert!(shared.is_provided() && shared == array);
    assert_eq!(live(memory), 1, "a clone shares the block");
    // Writing to a shared block copies it out first: the other holder sees no change.
    array[0] = 77;
    assert!(!array.is_provided());
    assert_eq!((array[0], shared[0]), (77, 0));
    assert_eq!(array[1..], shared[1..]);
    drop(shared);
    assert_eq!(live(memory), 0, "the last holder frees the block");
}

#[test]
fn refused_and_empty_arrays_live_in_vectors() {
    let memory = memory(64);
    assert!(!HostArray::<u64>::zeroed(9, Some(memory)).is_provided(), "72 bytes exceed the limit");
    assert!(!HostArray::<u64>::zeroed(0, Some(memory)).is_provided());
    assert!(HostArray::<u64>::zeroed(8, Some(memory)).is_provided());
    let moved = HostArray::moved_into(vec![5u64, 6, 7], Some(memory));
    assert!(moved.is_provided());
    assert_eq!(*moved, [5, 6, 7]);
    assert!(!HostArray::moved_into(vec![1u8; 65], Some(memory)).is_provided());
    let vector = HostArray::from(vec![1u32, 2]).into_memory(Some(memory));
    assert!(vector.is_provided() && *vector == [1, 2]);
    assert_eq!(format!("{vector:?}"), "provided [1, 2]");
    drop((moved, vector));
    assert_eq!(live(memory), 0);
}

fn kron_edges(scale: u32, seed: u64) -> EdgeList {
    generate_edges(&format!("kron:{scale}").parse::<GeneratorSpec>().unwrap(), seed).unwrap()
}

#[test]
fn builds_are_identical_with_and_without_a_provider() {
    let memory = memory(usize::MAX);
    {
        // Generated Kronecker edges repeat: the builder drops repeats and gathers the kept ones.
        let list = kron_edges(12, 3);
        let plain = GraphBuilder::new().build(list.clone()).unwrap();
        let provided = GraphBuilder::new().host_memory(Some(memory)).build(list).unwrap();
        assert_eq!(provided, plain);
        assert_provided(&provided, memory, "undirected kron");
        assert_eq!(live(memory), 2);

        // Directed, with weights (which stay in ordinary memory), and a list with nothing to
        // drop: its lists are final where they are sorted, then copied into the provider.
        let clean: Vec<(u32, u32)> =
            (0..plain.num_vertices() as u32).flat_map(|u| plain.neighbors(u).iter().map(move |&v| (u, v))).collect();
        let weights = Weights::U32((0..clean.len() as u32).map(|e| 1 + e % 9).collect());
        let list = EdgeList::new(plain.num_vertices() as u64, clean, false).with_weights(weights);
        let plain_directed = GraphBuilder::new().build(list.clone()).unwrap();
        let directed = GraphBuilder::new().host_memory(Some(memory)).build(list).unwrap();
        assert_eq!(directed, plain_directed);
        assert_provided(&directed, memory, "directed, nothing dropped");

        // The transpose comes from the graph's provider and equals the ordinary transpose.
        let transpose = directed.transpose();
        assert_eq!(transpose, plain_directed.transpose());
        assert_provided(&transpose, memory, "transpose");
        assert!(!plain_directed.transpose().targets_array().is_provided());
        assert_eq!(live(memory), 6);
    }
    assert_eq!(live(memory), 0, "every block is freed with its graph");
}

#[test]
fn a_refusing_provider_leaves_graphs_in_ordinary_memory() {
    // 4 KiB: small arrays are provided, the big targets are refused.
    let memory = memory(4096);
    let list = kron_edges(10, 5);
    let plain = GraphBuilder::new().build(list.clone()).unwrap();
    let graph = GraphBuilder::new().host_memory(Some(memory)).build(list).unwrap();
    assert_eq!(graph, plain);
    assert!(!graph.targets_array().is_provided());
    assert_eq!(graph.offsets_array().is_provided(), 8 * (graph.num_vertices() + 1) <= 4096);
    // An edgeless graph asks for nothing.
    let empty = GraphBuilder::new().host_memory(Some(memory)).build(EdgeList::new(0, vec![], true)).unwrap();
    assert!(!empty.offsets_array().is_provided() || empty.num_vertices() == 0);
    assert_eq!(empty.num_edges(), 0);
}

#[test]
fn wgr_files_are_read_into_the_provider() {
    let memory = memory(usize::MAX);
    let scratch = Scratch::new("host-memory-wgr");
    let undirected = GraphBuilder::new().build(kron_edges(11, 7)).unwrap();
    let directed = one_way(&undirected);
    let provided = ReadOptions { host_memory: Some(memory), ..ReadOptions::DEFAULT };
    for (name, graph) in [("undirected.wgr", &undirected), ("directed.wgr", &directed), ("gz.wgr.gz", &directed)] {
        let path = scratch.path(name);
        wgr::write(graph, &path).unwrap();
        let read = read_graph(&path, &provided).unwrap();
        assert_eq!(&read, graph, "{name}");
        assert_eq!(read, read_graph(&path, &ReadOptions::DEFAULT).unwrap(), "{name}");
        assert_provided(&read, memory, name);
    }
    // Compressed lists decode into the provider.
    let path = scratch.path("compressed.wgr");
    wgr::write_compressed(&CompressedGraph::encode(&directed), &path).unwrap();
    let read = read_graph(&path, &provided).unwrap();
    assert_eq!(read, directed);
    assert_provided(&read, memory, "compressed");
    // A directed file read as undirected is built again, into the provider.
    let path = scratch.path("directed.wgr");
    let as_undirected = ReadOptions { undirected: true, ..provided };
    let rebuilt = read_graph(&path, &as_undirected).unwrap();
    assert_eq!(rebuilt, read_graph(&path, &ReadOptions { undirected: true, ..ReadOptions::DEFAULT }).unwrap());
    assert!(rebuilt.is_undirected());
    assert_provided(&rebuilt, memory, "rebuilt undirected");
    drop((read, rebuilt));
    assert_eq!(live(memory), 0);
}

#[test]
fn load_graph_builds_generated_and_text_graphs_into_the_provider() {
    let memory = memory(usize::MAX);
    let scratch = Scratch::new("host-memory-load");
    let text = scratch.file("edges.el", b"0 1\n1 2\n2 0\n2 3\n3 3\n0 1\n");
    for input in ["kron:10", "urand:10", text.to_str().unwrap()] {
        let plain = load_graph(input, &LoadOptions::default()).unwrap();
        let options = LoadOptions { host_memory: Some(memory), ..LoadOptions::default() };
        let provided = load_graph(input, &options).unwrap();
        assert_eq!(provided, plain, "{input}");
        assert_provided(&provided, memory, input);
    }
    assert_eq!(live(memory), 0);
}

/// A directed graph from an undirected one: each edge kept one way only.
fn one_way(graph: &Graph) -> Graph {
    let edges = (0..graph.num_vertices() as u32)
        .flat_map(|u| graph.neighbors(u).iter().filter(move |&&v| u < v).map(move |&v| (u, v)))
        .collect();
    GraphBuilder::new().build(EdgeList::new(graph.num_vertices() as u64, edges, false)).unwrap()
}
