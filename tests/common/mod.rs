//! Helpers shared by the integration tests: graphs built from edge lists (so the tests depend
//! on nothing but the graph builder), the library's seeded generator, the GPU, the datasets, scratch
//! directories and fixture files.

// Each test crate uses only some of these.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use warpath::gpu::GpuContext;
use warpath::graph::{EdgeList, GraphBuilder};
use warpath::Graph;

pub fn build(num_vertices: u64, edges: Vec<(u32, u32)>, undirected: bool) -> Graph {
    GraphBuilder::new().build(EdgeList::new(num_vertices, edges, undirected)).unwrap()
}

/// 0 - 1 - ... - (n-1), undirected.
pub fn path(n: u32) -> Graph {
    build(n as u64, (1..n).map(|v| (v - 1, v)).collect(), true)
}

/// Vertex 0 joined to each of `leaves` others, undirected.
pub fn star(leaves: u32) -> Graph {
    build(leaves as u64 + 1, (1..=leaves).map(|v| (0, v)).collect(), true)
}

pub fn complete(n: u32) -> Graph {
    let edges = (0..n).flat_map(|u| (u + 1..n).map(move |v| (u, v))).collect();
    build(n as u64, edges, true)
}

/// Heap-numbered complete binary tree: the children of v are 2v+1 and 2v+2.
pub fn binary_tree(n: u32) -> Graph {
    build(n as u64, (1..n).map(|v| ((v - 1) / 2, v)).collect(), true)
}

/// The library's SplitMix64, under the short name the tests use.
pub use warpath::generate::rng::SplitMix64 as Rng;

/// 40 paths of 37 vertices and 300 isolated vertices, ids shuffled so that every part of a
/// partition holds pieces of many components.
pub fn shuffled_paths() -> Graph {
    let n = 40 * 37 + 300;
    let mut rng = Rng::new(9);
    let mut ids: Vec<u32> = (0..n).collect();
    for i in (1..ids.len()).rev() {
        ids.swap(i, rng.next_below(i as u64 + 1) as usize);
    }
    let edges = (0..40u32).flat_map(|c| (1..37u32).map(move |i| (c * 37 + i - 1, c * 37 + i)));
    let edges = edges.map(|(u, v)| (ids[u as usize], ids[v as usize])).collect();
    build(n as u64, edges, true)
}

/// An RMAT graph (Chakrabarti, Zhan and Faloutsos, SDM 2004) with the Graph500 quadrant
/// probabilities a = 0.57, b = c = 0.19: a few hubs of very high degree, many vertices of
/// degree one or zero, and several components. Vertex ids are shuffled so the hubs are not
/// all at the low ids, which would hide bugs that depend on vertex order.
pub fn rmat(scale: u32, num_edges: usize, seed: u64, undirected: bool) -> Graph {
    let n = 1u64 << scale;
    let mut rng = Rng::new(seed);
    let mut permutation: Vec<u32> = (0..n as u32).collect();
    for i in (1..permutation.len()).rev() {
        permutation.swap(i, rng.next_below(i as u64 + 1) as usize);
    }
    let edges = (0..num_edges)
        .map(|_| {
            let (mut u, mut v) = (0u32, 0u32);
            for _ in 0..scale {
                let r = rng.next_f64();
                let (down, right) = match r {
                    r if r < 0.57 => (0, 0),
                    r if r < 0.76 => (0, 1),
                    r if r < 0.95 => (1, 0),
                    _ => (1, 1),
                };
                u = (u << 1) | down;
                v = (v << 1) | right;
            }
            (permutation[u as usize], permutation[v as usize])
        })
        .collect();
    build(n, edges, undirected)
}

/// The GPU, or `None` with a printed reason when this machine has none. On the GPU machine
/// `WARPATH_REQUIRE_GPU=1` turns a missing GPU into a failure, so a run there cannot pass by
/// skipping.
pub fn gpu_or_skip(test: &str) -> Option<GpuContext> {
    match GpuContext::new() {
        Ok(gpu) => Some(gpu),
        Err(err) if err.is_unavailable() && std::env::var_os("WARPATH_REQUIRE_GPU").is_none() => {
            say_skipping(test, &err.to_string());
            None
        }
        Err(err) => panic!("{test}: the GPU is required here but unusable: {err}"),
    }
}

/// Writes straight to stderr: libtest captures `eprintln!` of passing tests, and a skip must
/// be seen.
pub fn say_skipping(test: &str, why: &str) {
    let _ = writeln!(std::io::stderr(), "skipping {test}: {why}");
}

/// The real-graph datasets: `$WARPATH_DATASETS`, else `../shared/datasets` beside the checkout.
/// `None` (with the reason printed) when neither exists.
pub fn datasets_dir(test: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("WARPATH_DATASETS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets"));
    if dir.is_dir() {
        Some(dir)
    } else {
        say_skipping(test, &format!("no datasets folder at {} (set WARPATH_DATASETS)", dir.display()));
        None
    }
}

/// Every dataset file in `dir` (the `.gz` graph files), sorted by name.
pub fn dataset_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("datasets folder is readable")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "gz"))
        .collect();
    files.sort();
    files
}

/// The source tree the tests read (the committed PTX, ARCHITECTURE's rooms, committed results):
/// `WARPATH_SOURCE_TREE` where the test executables run away from the checkout that built
/// them (scripts/gpu-run sets it to the tree carried to the GPU machine), else that checkout.
pub fn source_tree() -> PathBuf {
    std::env::var_os("WARPATH_SOURCE_TREE").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
}

/// A fresh directory under the system temp dir, removed when dropped.
pub struct Scratch {
    pub dir: PathBuf,
}

impl Scratch {
    pub fn new(label: &str) -> Scratch {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let unique = format!("warpath-test-{label}-{}-{}", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed));
        let dir = std::env::temp_dir().join(unique);
        std::fs::create_dir_all(&dir).expect("create scratch dir");
        Scratch { dir }
    }

    /// Writes `contents` to `name` in the scratch dir, gzip-compressed if `name` ends in `.gz`.
    pub fn file(&self, name: &str, contents: &[u8]) -> PathBuf {
        let path = self.dir.join(name);
        if name.ends_with(".gz") {
            let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            encoder.write_all(contents).unwrap();
            std::fs::write(&path, encoder.finish().unwrap()).unwrap();
        } else {
            std::fs::write(&path, contents).unwrap();
        }
        path
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The sorted neighbor lists of every vertex, for comparing whole graphs in one assertion.
pub fn adjacency(g: &warpath::Graph) -> Vec<Vec<u32>> {
    (0..g.num_vertices() as u32).map(|v| g.neighbors(v).to_vec()).collect()
}

/// Asserts that `err` renders with the file name and `path:line:` prefix, and mentions `needle`.
pub fn assert_parse_error(err: &warpath::Error, path: &Path, line: u64, needle: &str) {
    let text = err.to_string();
    match err {
        warpath::Error::Parse { line: got, .. } => assert_eq!(*got, line, "wrong line in: {text}"),
        other => panic!("expected a parse error, got {other:?}"),
    }
    assert!(text.starts_with(&format!("{}:{line}: expected ", path.display())), "{text}");
    assert!(text.contains(needle), "`{needle}` missing from: {text}");
}

/// Standard error of a finished `warpath` run, as text.
pub fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Exit code 2 and exactly one line on stderr, containing every `needle`: how warpath refuses
/// bad input.
pub fn assert_one_line_error(out: &std::process::Output, needles: &[&str]) {
    let err = stderr_of(out);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line expected: {err}");
    assert!(!err.contains("panicked"), "{err}");
    for needle in needles {
        assert!(err.contains(needle), "`{needle}` missing from: {err}");
    }
}

/// Runs the `warpath` binary cargo built for these tests with `args`.
pub fn warpath(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_warpath")).args(args).output().expect("run warpath")
}

pub fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
