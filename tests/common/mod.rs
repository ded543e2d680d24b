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
/// The value of a printout's `key: value` line (panics, showing the text, where there is none).
pub fn value_of<'a>(text: &'a str, key: &str) -> &'a str {
    let prefix = format!("{key}: ");
    text.lines().find_map(|l| l.strip_prefix(prefix.as_str())).unwrap_or_else(|| panic!("no `{key}` in:\n{text}"))
}

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

/// The report `bench --json FILE` wrote to `path`, after checking that the file is one line
/// holding the envelope every command's `--json` shares (bench/SCHEMA.md, "Command output").
pub fn bench_report(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap();
    assert_eq!(text.lines().count(), 1, "one line of JSON expected:\n{text}");
    let mut envelope: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!((envelope["envelope_version"].as_u64(), envelope["command"].as_str()), (Some(1), Some("bench")));
    envelope["result"].take()
}

pub fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Shortest-path queries (several sources, a cutoff, a target, paths) on `finder`'s backend,
/// each against single-source Dijkstra runs (the sequential reference) combined here by hand:
/// the distance to the nearest source is the smallest of the sources' distances, a cutoff keeps
/// exactly the distances within it, a target keeps those no farther than the target. Every
/// result also passes the verifier and matches the reference's own multi-source, cutoff and
/// target runs; every path is a chain of edges of the graph from a source, as long as the
/// distance.
pub fn check_sssp_queries(
    graph: &Graph,
    finder: &warpath::sssp::PathFinder<'_>,
    strategy: warpath::sssp::SsspStrategy,
    what: &str,
) {
    use warpath::sssp::verify::{compare_with_reference, validate};
    use warpath::sssp::{dijkstra, dijkstra_from, SsspOptions};
    let n = graph.num_vertices() as u32;
    let with_edges: Vec<u32> = (0..n).filter(|&v| graph.degree(v) > 0).collect();
    let sources: Vec<u32> = [0, with_edges.len() / 2, with_edges.len() - 1].iter().map(|&i| with_edges[i]).collect();
    let single: Vec<_> = sources.iter().map(|&s| dijkstra(graph, s).distances).collect();
    // By hand: the nearest source's distance, and that source.
    let nearest = |v: usize| -> Option<(f64, usize)> {
        (0..sources.len()).filter_map(|k| single[k].get(v).map(|d| (d, k))).min_by(|a, b| a.0.total_cmp(&b.0))
    };
    let farthest = (0..n as usize).filter_map(|v| nearest(v).map(|(d, _)| d)).fold(0.0, f64::max);
    let integer = !matches!(graph.weights(), Some(warpath::graph::Weights::F32(_)));
    let cutoff = if integer { (farthest / 2.0).floor() } else { farthest / 2.0 };
    // A target about half as far as the farthest vertex.
    let target = (0..n).filter(|&v| nearest(v as usize).is_some_and(|(d, _)| d >= cutoff)).next().unwrap_or(sources[0]);
    let base = SsspOptions { strategy, ..SsspOptions::default() };
    let cases = [
        ("several sources", SsspOptions { ..base }, None),
        ("several sources, distances only", SsspOptions { distances_only: true, ..base }, None),
        ("cutoff", SsspOptions { cutoff: Some(cutoff), ..base }, Some(cutoff)),
        ("cutoff 0", SsspOptions { cutoff: Some(0.0), ..base }, Some(0.0)),
        ("target", SsspOptions { target: Some(target), ..base }, nearest(target as usize).map(|(d, _)| d)),
        (
            "cutoff and target, distances only",
            SsspOptions { cutoff: Some(cutoff), target: Some(target), distances_only: true, ..base },
            Some(cutoff.min(nearest(target as usize).map_or(f64::INFINITY, |(d, _)| d))),
        ),
    ];
    for (case, options, reach) in cases {
        let label = format!("{what}, {strategy}, {case}");
        let found = finder.run_from(&sources, &options).unwrap_or_else(|e| panic!("{label}: {e}"));
        let run = &found.result;
        validate(graph, run).unwrap_or_else(|e| panic!("{label}: {e}"));
        let reference = dijkstra_from(graph, &sources, &options);
        compare_with_reference(graph, &run.distances, &reference.distances).unwrap_or_else(|e| panic!("{label}: {e}"));
        assert_eq!(run.reach, reference.reach, "{label}");
        for v in 0..n as usize {
            let expected = nearest(v).filter(|&(d, _)| reach.is_none_or(|r| d <= r));
            match (run.distances.get(v), expected) {
                (None, None) => {}
                (Some(got), Some((want, k))) => {
                    assert!((got - want).abs() <= 1e-5 * want.max(1.0), "{label}: vertex {v} at {got}, not {want}");
                    let source = run.nearest_source[v];
                    let via = sources.iter().position(|&s| s == source).expect("a source");
                    let through = single[via].get(v).expect("reached from its nearest source");
                    assert!((through - single[k].get(v).unwrap()).abs() <= 1e-5 * want.max(1.0), "{label}: vertex {v}");
                }
                (got, want) => panic!("{label}: vertex {v} at {got:?}, expected {want:?}"),
            }
        }
        if options.distances_only {
            assert!(run.parents.is_empty(), "{label}");
            assert!(run.path_to(target).is_err(), "{label}: a path needs parents");
            continue;
        }
        for v in [target, sources[1], with_edges[with_edges.len() / 3]] {
            let path = run.path_to(v).unwrap();
            let Some(path) = path else {
                assert!(!run.distances.is_reached(v as usize), "{label}: reached vertex {v} has no path");
                continue;
            };
            assert!(sources.contains(&path[0]) && *path.last().unwrap() == v, "{label}: {path:?}");
            let mut length = 0.0;
            for hop in path.windows(2) {
                let first = graph.offsets()[hop[0] as usize] as usize;
                let i = graph.neighbors(hop[0]).binary_search(&hop[1]).expect("a path follows edges");
                length += match graph.weights() {
                    None => 1.0,
                    Some(warpath::graph::Weights::U32(w)) => w[first + i] as f64,
                    Some(warpath::graph::Weights::F32(w)) => w[first + i] as f64,
                };
            }
            let distance = run.distances.get(v as usize).unwrap();
            assert!((length - distance).abs() <= 1e-4 * distance.max(1.0), "{label}: path {path:?} is {length} long");
        }
    }
}
