//! What every fuzz target asserts about a reader: it returns (never panics, which libFuzzer
//! catches), stays within the memory it is given (libFuzzer's `-rss_limit_mb` and
//! `-malloc_limit_mb` catch what the guard lets through), and what it loads is a valid graph.

use std::collections::HashSet;
use std::path::PathBuf;

use warpath::formats::{read_graph, ReadOptions};
use warpath::graph::Weights;
use warpath::Graph;

/// The memory the guard is told it has: far below libFuzzer's RSS limit, so that a header
/// claiming a huge graph must be refused by the guard before anything is allocated.
pub const MEMORY_LIMIT: u64 = 256 << 20;

/// Writes `bytes` to a file named with `extension` (the readers choose the format by it) in
/// this process's own temporary directory and reads it, directed and undirected, checking
/// each graph that loads. Errors are the expected outcome for most inputs and are ignored.
pub fn read_as(extension: &str, bytes: &[u8]) {
    let path = input_path(extension);
    std::fs::write(&path, bytes).expect("the fuzz input could not be written to the temporary directory");
    for undirected in [false, true] {
        let opts = ReadOptions { undirected, memory_limit: Some(MEMORY_LIMIT), ..ReadOptions::DEFAULT };
        if let Ok(graph) = read_graph(&path, &opts) {
            assert_valid(&graph);
            assert!(!undirected || graph.is_undirected(), "read as undirected but the graph is directed");
        }
    }
}

/// One file per process and extension, reused for every input (libFuzzer runs one input at a time).
pub fn input_path(extension: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warpath-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the temporary directory could not be created");
    dir.join(format!("input.{extension}"))
}

/// Panics unless `graph` is a valid CSR: offsets start at 0, never decrease and end at the
/// edge count; every target is a vertex; weights, if any, are one per edge, non-negative and
/// finite; an undirected graph holds every edge both ways.
pub fn assert_valid(graph: &Graph) {
    let (offsets, targets) = (graph.offsets(), graph.targets());
    let n = graph.num_vertices();
    assert_eq!(offsets.len(), n + 1, "offsets are not one per vertex plus one");
    assert_eq!(offsets[0], 0, "offsets do not start at 0");
    assert!(offsets.windows(2).all(|w| w[0] <= w[1]), "offsets decrease");
    assert_eq!(offsets[n], targets.len() as u64, "the last offset is not the edge count");
    assert!(targets.iter().all(|&t| (t as usize) < n), "a target is not a vertex");
    assert!(graph.id_base() <= 1, "id base {} is neither 0 nor 1", graph.id_base());
    Graph::from_csr(offsets.to_vec(), targets.to_vec(), graph.is_undirected(), graph.id_base())
        .expect("Graph::from_csr refuses the arrays of a loaded graph");
    match graph.weights() {
        None => {}
        Some(Weights::U32(w)) => assert_eq!(w.len(), targets.len(), "not one weight per edge"),
        Some(Weights::F32(w)) => {
            assert_eq!(w.len(), targets.len(), "not one weight per edge");
            assert!(w.iter().all(|x| x.is_finite() && *x >= 0.0), "a weight is negative, NaN or infinite");
        }
    }
    if graph.is_undirected() {
        // Graph::is_symmetric trusts the undirected flag; this checks the lists themselves.
        let edges: HashSet<(u32, u32)> =
            (0..n as u32).flat_map(|u| graph.neighbors(u).iter().map(move |&v| (u, v))).collect();
        if let Some((u, v)) = edges.iter().find(|&&(u, v)| !edges.contains(&(v, u))) {
            panic!("undirected graph holds {u} -> {v} but not {v} -> {u}");
        }
    }
}

/// `bytes` with its last four bytes replaced by the CRC-32 of all before them, as a `.wgr`
/// file stores it: mutations then get past the checksum to the structure checks. Inputs too
/// short to hold a checksum are returned as they are.
pub fn with_checksum(bytes: &[u8]) -> Vec<u8> {
    let mut fixed = bytes.to_vec();
    if let Some(body) = fixed.len().checked_sub(4) {
        let sum = crc32fast::hash(&fixed[..body]);
        fixed[body..].copy_from_slice(&sum.to_le_bytes());
    }
    fixed
}
