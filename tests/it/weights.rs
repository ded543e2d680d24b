//! Weighted graphs: the `Graph` API, the builder's rules for weights, every reader that keeps
//! them, `.wgr` version 3, and seeded weights for generated and read graphs.

use crate::common;

use common::{adjacency, assert_parse_error, Scratch};
use warpath::formats::{read_edge_list, read_graph, wgr, write_wgr, Format, ReadOptions};
use warpath::generate::{attach_weights, generate, WeightSpec};
use warpath::graph::{CompressedGraph, EdgeList, GraphBuilder, WeightKind, WeightRange, WeightSlice, Weights};
use warpath::input::{load_graph, LoadOptions};
use warpath::{Error, Graph};

const DIRECTED: ReadOptions = ReadOptions::DEFAULT;
const UNDIRECTED: ReadOptions = ReadOptions { undirected: true, ..ReadOptions::DEFAULT };
const UNWEIGHTED: ReadOptions = ReadOptions { ignore_weights: true, ..ReadOptions::DEFAULT };

/// Every list's (target, weight) pairs, weights as `f64`, for comparing whole graphs.
fn weighted_adjacency(g: &Graph) -> Vec<Vec<(u32, f64)>> {
    (0..g.num_vertices() as u32)
        .map(|v| {
            let weights = g.neighbor_weights(v).expect("a weighted graph");
            g.neighbors(v).iter().enumerate().map(|(i, &t)| (t, weights.get(i))).collect()
        })
        .collect()
}

/// The weight of the edge `u -> v`.
fn weight(g: &Graph, u: u32, v: u32) -> f64 {
    let i = g.neighbors(u).binary_search(&v).expect("the edge exists");
    g.neighbor_weights(u).unwrap().get(i)
}

// ---- the Graph API ----

#[test]
fn csr_with_weights_checks_count_and_values() {
    let g = Graph::from_csr(vec![0, 2, 3, 3], vec![1, 2, 0], false, 0).unwrap();
    assert!(!g.is_weighted());
    assert_eq!(g.weights(), None);
    assert_eq!(g.neighbor_weights(0), None);
    assert_eq!(g.weight_range(), None);
    assert_eq!(g.weight_kind(), None);

    let weighted = g.clone().with_weights(Weights::U32(vec![4, 9, 1])).unwrap();
    assert!(weighted.is_weighted());
    assert_eq!(weighted.weight_kind(), Some(WeightKind::U32));
    assert_eq!(weighted.neighbor_weights(0), Some(WeightSlice::U32(&[4, 9])));
    assert_eq!(weighted.neighbor_weights(2).unwrap().len(), 0);
    assert_eq!(weighted.weight_range(), Some(WeightRange::U32 { min: 1, max: 9 }));
    assert_ne!(weighted, g, "weights are part of the graph");
    assert_eq!(weighted.clone().without_weights(), g);

    let err = g.clone().with_weights(Weights::U32(vec![1, 2])).unwrap_err();
    assert!(matches!(err, Error::InvalidArgument(_)), "{err:?}");
    assert!(err.to_string().contains("2 weights but 3 targets"), "{err}");
    for (bad, problem) in [(-1.0, "negative"), (f32::NAN, "not a number"), (f32::INFINITY, "infinite")] {
        let err = g.clone().with_weights(Weights::F32(vec![0.5, bad, 1.0])).unwrap_err().to_string();
        assert!(err.contains("edge 1") && err.contains(problem), "{err}");
    }
}

#[test]
fn weight_range_reports_kind_min_and_max() {
    let g = Graph::from_csr(vec![0, 2, 2], vec![1, 0], false, 0).unwrap();
    let real = g.clone().with_weights(Weights::F32(vec![0.75, 0.125])).unwrap();
    let range = real.weight_range().unwrap();
    assert_eq!(range, WeightRange::F32 { min: 0.125, max: 0.75 });
    assert_eq!((range.kind(), range.min(), range.max()), (WeightKind::F32, 0.125, 0.75));
    assert_eq!(range.to_string(), "f32 weights from 0.125 to 0.75");
    // A weighted graph without edges has a kind but no range.
    let empty = Graph::from_csr(vec![0, 0], vec![], false, 0).unwrap().with_weights(Weights::U32(vec![])).unwrap();
    assert_eq!((empty.weight_kind(), empty.weight_range()), (Some(WeightKind::U32), None));
}

#[test]
fn transpose_moves_weights_with_their_edges() {
    let edges = vec![(0, 1), (0, 2), (1, 2), (2, 0), (3, 0)];
    let list = EdgeList::new(4, edges, false).with_weights(Weights::U32(vec![10, 20, 30, 40, 50]));
    let g = GraphBuilder::new().build(list).unwrap();
    let t = g.transpose();
    assert_eq!(adjacency(&t), vec![vec![2, 3], vec![0], vec![0, 1], vec![]]);
    assert_eq!(weighted_adjacency(&t)[0], vec![(2, 40.0), (3, 50.0)]);
    assert_eq!(weighted_adjacency(&t)[2], vec![(0, 20.0), (1, 30.0)]);
    assert_eq!(t.transpose(), g);
}

#[test]
fn builder_weights_survive_a_large_shuffled_list() {
    // Many repeats of the same edges with random weights: each kept weight is the minimum
    // over its edge's copies in either direction.
    let mut rng = common::Rng::new(5);
    let n = 300u32;
    let mut edges = Vec::new();
    let mut weights = Vec::new();
    let mut lightest = std::collections::HashMap::new();
    for _ in 0..20_000 {
        let (u, v) = (rng.next_below(n as u64) as u32, rng.next_below(n as u64) as u32);
        let w = rng.next_below(1000) as u32;
        edges.push((u, v));
        weights.push(w);
        if u != v {
            let key = (u.min(v), u.max(v));
            let entry = lightest.entry(key).or_insert(w);
            *entry = (*entry).min(w);
        }
    }
    let list = EdgeList::new(n as u64, edges, true).with_weights(Weights::U32(weights));
    let g = GraphBuilder::new().build(list).unwrap();
    assert_eq!(g.num_edges(), 2 * lightest.len() as u64);
    for (&(u, v), &w) in &lightest {
        assert_eq!(weight(&g, u, v), w as f64, "({u}, {v})");
        assert_eq!(weight(&g, v, u), w as f64, "({v}, {u})");
    }
}

// ---- readers ----

const GR: &[u8] = b"c weighted\np sp 4 6\na 1 2 10\na 2 1 10\na 2 3 7\na 3 4 5\na 3 4 2\na 4 4 1\n";

#[test]
fn dimacs_keeps_arc_weights_and_the_lightest_repeat() {
    let scratch = Scratch::new("w-gr");
    let path = scratch.file("g.gr", GR);
    let list = read_edge_list(&path, &DIRECTED).unwrap();
    assert_eq!(list.weights, Some(Weights::U32(vec![10, 10, 7, 5, 2, 1])));
    let g = read_graph(&path, &DIRECTED).unwrap();
    assert_eq!(
        weighted_adjacency(&g),
        vec![vec![(1, 10.0)], vec![(0, 10.0), (2, 7.0)], vec![(3, 2.0)], vec![]],
        "the repeated arc 3-4 keeps weight 2, the self-loop is dropped"
    );
    assert_eq!(g.weight_range(), Some(WeightRange::U32 { min: 2, max: 10 }));
    // Undirected: 3-2 gets the weight of 2-3.
    let u = read_graph(&scratch.file("g.gr.gz", GR), &UNDIRECTED).unwrap();
    assert_eq!(weight(&u, 2, 1), 7.0);
    assert_eq!(weight(&u, 3, 2), 2.0);
}

#[test]
fn mtx_integer_and_real_values_become_weights_and_symmetric_mirrors_them() {
    let scratch = Scratch::new("w-mtx");
    let integer = b"%%MatrixMarket matrix coordinate integer general\n3 3 3\n1 2 7\n2 1 +3\n3 1 0\n";
    let g = read_graph(&scratch.file("i.mtx", integer), &DIRECTED).unwrap();
    assert_eq!(weighted_adjacency(&g), vec![vec![(1, 7.0)], vec![(0, 3.0)], vec![(0, 0.0)]]);

    let real = b"%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 2.5e+03\n2 1 1.25\n3 2 -0\n3 1 1e-3\n";
    let g = read_graph(&scratch.file("r.mtx.gz", real), &DIRECTED).unwrap();
    assert!(g.is_undirected());
    assert_eq!(g.weight_kind(), Some(WeightKind::F32));
    assert_eq!(weight(&g, 0, 1), 1.25);
    assert_eq!(weight(&g, 1, 0), 1.25);
    assert_eq!(weight(&g, 0, 2), 1e-3f32 as f64);
    assert_eq!(weight(&g, 2, 0), 1e-3f32 as f64);
    assert_eq!(weight(&g, 1, 2).to_bits(), 0, "-0 is stored as 0");

    let pattern = b"%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n";
    assert!(!read_graph(&scratch.file("p.mtx", pattern), &DIRECTED).unwrap().is_weighted());
}

#[test]
fn wel_reads_gapbs_weighted_edge_lists() {
    let scratch = Scratch::new("w-wel");
    let text = b"# GAPBS weighted edge list\n0 1 12\n1\t2\t255\n\n2 0 1\n0 1 4\n";
    assert_eq!(Format::from_path(std::path::Path::new("g.wel.gz")).unwrap(), Format::WeightedEdgeList);
    let path = scratch.file("g.wel", text);
    let list = read_edge_list(&path, &DIRECTED).unwrap();
    assert_eq!(list.edges, vec![(0, 1), (1, 2), (2, 0), (0, 1)]);
    assert_eq!(list.weights, Some(Weights::U32(vec![12, 255, 1, 4])));
    assert_eq!(list.id_base, 0);
    let g = read_graph(&path, &DIRECTED).unwrap();
    assert_eq!(weighted_adjacency(&g), vec![vec![(1, 4.0)], vec![(2, 255.0)], vec![(0, 1.0)]]);
    let crlf = String::from_utf8(text.to_vec()).unwrap().replace('\n', "\r\n");
    assert_eq!(read_graph(&scratch.file("crlf.wel.gz", crlf.as_bytes()), &DIRECTED).unwrap(), g);
    let unweighted = read_graph(&path, &UNWEIGHTED).unwrap();
    assert!(!unweighted.is_weighted());
    assert_eq!(adjacency(&unweighted), adjacency(&g));
}

#[test]
fn wel_malformed_lines_are_explained() {
    let scratch = Scratch::new("w-wel-bad");
    let cases: [(&[u8], u64, &str); 5] = [
        (b"0 1 3\n1 2\n", 2, "three columns `u v w`"),
        (b"0 1 3 4\n", 1, "found 4 columns"),
        (b"0 1 2.5\n", 1, "an integer weight in the third column, found `2.5`"),
        (b"# c\n0 1 -4\n", 2, "found `-4` (negative)"),
        (b"0 1 4294967296\n", 1, "at most 4294967295"),
    ];
    for (i, (text, line, needle)) in cases.into_iter().enumerate() {
        let path = scratch.file(&format!("b{i}.wel"), text);
        assert_parse_error(&read_edge_list(&path, &DIRECTED).unwrap_err(), &path, line, needle);
    }
    // Ignoring weights still checks that they are integers.
    let path = scratch.file("junk.wel", b"0 1 x\n");
    assert_parse_error(&read_edge_list(&path, &UNWEIGHTED).unwrap_err(), &path, 1, "an integer weight");
    let path = scratch.file("negative.wel", b"0 1 -4\n");
    assert!(!read_graph(&path, &UNWEIGHTED).unwrap().is_weighted());
    // A third column in a SNAP file points at .wel.
    let path = scratch.file("three.txt", b"0 1 5\n");
    assert_parse_error(&read_edge_list(&path, &DIRECTED).unwrap_err(), &path, 1, "named .wel");
}

#[test]
fn invalid_weights_are_refused_with_file_line_and_value() {
    let scratch = Scratch::new("w-invalid");
    let cases: [(&str, &[u8], u64, &str); 7] = [
        ("neg.gr", b"p sp 2 1\na 1 2 -5\n", 2, "non-negative integer arc weight in the fourth column, found `-5`"),
        ("big.gr", b"p sp 2 1\na 1 2 5000000000\n", 2, "at most 4294967295"),
        ("neg.mtx", b"%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 -7\n", 3, "found `-7` (negative)"),
        ("neg-real.mtx", b"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 -1.5\n", 3, "`-1.5` (negative)"),
        ("nan.mtx", b"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 NaN\n", 3, "`NaN` (not a number)"),
        ("inf.mtx", b"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 -inf\n", 3, "`-inf` (infinite)"),
        ("huge.mtx", b"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1e40\n", 3, "too large for an f32"),
    ];
    for (name, text, line, needle) in cases {
        let path = scratch.file(name, text);
        let err = read_graph(&path, &DIRECTED).unwrap_err();
        assert_parse_error(&err, &path, line, needle);
        // Read without weights, the same files are graphs.
        assert!(!read_graph(&path, &UNWEIGHTED).unwrap().is_weighted(), "{name}");
    }
}

// ---- .wgr version 3 ----

/// Weighted files of every text format, the graphs they hold.
fn weighted_inputs(scratch: &Scratch) -> Vec<(String, Graph)> {
    let files: [(&str, &[u8]); 5] = [
        ("g.gr", GR),
        ("i.mtx", b"%%MatrixMarket matrix coordinate integer general\n4 4 4\n1 2 7\n2 1 3\n3 4 9\n4 3 9\n"),
        ("r.mtx", b"%%MatrixMarket matrix coordinate real symmetric\n4 4 3\n2 1 0.5\n4 3 1e-7\n3 1 12.75\n"),
        ("g.wel", b"0 1 5\n1 2 6\n2 3 7\n3 0 8\n0 1 2\n"),
        ("sym.wel.gz", b"0 1 5\n1 0 3\n"),
    ];
    files
        .into_iter()
        .map(|(name, text)| {
            let path = scratch.file(name, text);
            (name.to_string(), read_graph(&path, &DIRECTED).unwrap())
        })
        .collect()
}

#[test]
fn weighted_graphs_of_every_format_round_trip_through_wgr() {
    let scratch = Scratch::new("w-wgr-roundtrip");
    let mut inputs = weighted_inputs(&scratch);
    inputs
        .push(("u.wel undirected".into(), read_graph(&scratch.file("u.wel", b"0 1 5\n1 0 3\n"), &UNDIRECTED).unwrap()));
    for (name, g) in inputs {
        assert!(g.is_weighted(), "{name}");
        for out in ["out.wgr", "out.wgr.gz"] {
            let path = scratch.path(out);
            write_wgr(&g, &path).unwrap();
            let back = read_graph(&path, &ReadOptions::default()).unwrap();
            assert_eq!(back, g, "{name} through {out}");
            assert_eq!(back.weights(), g.weights(), "{name}");
            let unweighted = read_graph(&path, &UNWEIGHTED).unwrap();
            assert_eq!(unweighted, g.clone().without_weights(), "{name}: read without weights");
        }
    }
}

#[test]
fn weighted_wgr_layout_is_version_3_with_a_kind_tag() {
    let scratch = Scratch::new("w-wgr-layout");
    for (name, g) in weighted_inputs(&scratch) {
        let path = scratch.path("g.wgr");
        write_wgr(&g, &path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let (n, m) = (g.num_vertices(), g.num_edges() as usize);
        assert_eq!(bytes.len(), 40 + 8 * (n + 1) + 4 * m + 4 + 4 * m + 4, "{name}");
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        assert_eq!(word(8), wgr::VERSION, "{name}: version");
        assert_eq!(word(8), 3);
        assert_eq!(word(12) & 4, 4, "{name}: weighted flag");
        let tag_at = 40 + 8 * (n + 1) + 4 * m;
        let expected_tag = if g.weight_kind() == Some(WeightKind::U32) { 1 } else { 2 };
        assert_eq!(word(tag_at), expected_tag, "{name}: kind tag");
        let first_weight = g.weights().unwrap().as_slice().get(0);
        let stored = match g.weight_kind().unwrap() {
            WeightKind::U32 => word(tag_at + 4) as f64,
            WeightKind::F32 => f32::from_bits(word(tag_at + 4)) as f64,
        };
        assert_eq!(stored, first_weight, "{name}: first weight");
    }
    // Unweighted graphs are still written as version 2.
    let plain = read_graph(&scratch.file("p.wel", b"0 1 5\n"), &UNWEIGHTED).unwrap();
    let path = scratch.path("p.wgr");
    write_wgr(&plain, &path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), wgr::UNWEIGHTED_VERSION);
    assert_eq!(wgr::UNWEIGHTED_VERSION, 2);
}

/// Rewrites the CRC after editing a file's bytes, so that only the edit is wrong.
fn with_crc(mut bytes: Vec<u8>) -> Vec<u8> {
    let body = bytes.len() - 4;
    let crc = crc32(&bytes[..body]);
    bytes[body..].copy_from_slice(&crc.to_le_bytes());
    bytes
}

fn crc32(bytes: &[u8]) -> u32 {
    // IEEE CRC-32, bit by bit: small and independent of the library's implementation.
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

fn format_problem(result: warpath::Result<Graph>) -> String {
    match result {
        Err(err @ Error::Format { .. }) => err.to_string(),
        other => panic!("expected a format error, got {other:?}"),
    }
}

#[test]
fn damaged_weighted_wgr_files_are_refused() {
    let scratch = Scratch::new("w-wgr-damaged");
    let g = read_graph(
        &scratch.file("r.mtx", b"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 0.5\n2 3 2\n"),
        &DIRECTED,
    )
    .unwrap();
    let path = scratch.path("g.wgr");
    write_wgr(&g, &path).unwrap();
    let good = std::fs::read(&path).unwrap();
    let tag_at = 40 + 8 * 4 + 4 * 2;
    let damaged = scratch.path("d.wgr");
    let read = |bytes: &[u8]| {
        std::fs::write(&damaged, bytes).unwrap();
        read_graph(&damaged, &ReadOptions::default())
    };

    // A flipped weight bit: the checksum says so.
    let mut flipped = good.clone();
    flipped[tag_at + 4] ^= 1;
    assert!(format_problem(read(&flipped)).contains("checksum mismatch"));
    // An unknown kind tag, with a correct checksum.
    let mut tag = good.clone();
    tag[tag_at..tag_at + 4].copy_from_slice(&7u32.to_le_bytes());
    assert!(format_problem(read(&with_crc(tag))).contains("weight kind 7"));
    // A negative weight, with a correct checksum: the reader checks values too.
    let mut negative = good.clone();
    negative[tag_at + 4..tag_at + 8].copy_from_slice(&(-0.5f32).to_bits().to_le_bytes());
    let problem = format_problem(read(&with_crc(negative)));
    assert!(problem.contains("-0.5") && problem.contains("negative"), "{problem}");
    // Truncated inside the weights.
    let problem = format_problem(read(&good[..good.len() - 6]));
    assert!(problem.contains("truncated"), "{problem}");
    // Weighted and compressed together.
    let mut both = good.clone();
    both[12..16].copy_from_slice(&(4u32 | 2).to_le_bytes());
    assert!(format_problem(read(&with_crc(both))).contains("compressed lists carry no weights"));
    // The weighted flag in a version-2 file is unknown there.
    let mut old = good.clone();
    old[8..12].copy_from_slice(&2u32.to_le_bytes());
    assert!(format_problem(read(&with_crc(old))).contains("does not know"));
}

#[test]
fn wgr_read_as_undirected_takes_the_lighter_direction() {
    let scratch = Scratch::new("w-wgr-undirected");
    let g = read_graph(&scratch.file("d.wel", b"0 1 5\n1 0 3\n1 2 4\n"), &DIRECTED).unwrap();
    let path = scratch.path("d.wgr");
    write_wgr(&g, &path).unwrap();
    let u = read_graph(&path, &UNDIRECTED).unwrap();
    assert!(u.is_undirected());
    assert_eq!(weighted_adjacency(&u), vec![vec![(1, 3.0)], vec![(0, 3.0), (2, 4.0)], vec![(1, 4.0)]]);
    let list = read_edge_list(&path, &DIRECTED).unwrap();
    assert_eq!(list.weights, Some(Weights::U32(vec![5, 3, 4])));
}

#[test]
fn compressed_graphs_drop_weights_and_keep_lists() {
    let scratch = Scratch::new("w-compressed");
    let g = read_graph(&scratch.file("g.gr", GR), &DIRECTED).unwrap();
    let compressed = CompressedGraph::encode(&g);
    assert_eq!(compressed.decode(), g.clone().without_weights());
    let path = scratch.path("g.wgr");
    write_wgr(&g, &path).unwrap();
    assert_eq!(wgr::read_compressed(&path).unwrap(), compressed);
}

// ---- generated weights ----

#[test]
fn generated_weights_are_seeded_in_range_and_the_same_both_ways() {
    let g = generate(&"kron:10".parse().unwrap(), 3).unwrap();
    let spec: WeightSpec = "uniform:1:255".parse().unwrap();
    let w = attach_weights(g.clone(), &spec, 7).unwrap();
    assert_eq!(w.clone().without_weights(), g);
    let range = w.weight_range().unwrap();
    assert_eq!(range.kind(), WeightKind::U32);
    assert!(range.min() >= 1.0 && range.max() <= 255.0, "{range}");
    assert!(range.min() <= 2.0 && range.max() >= 254.0, "{range}: a few thousand draws cover the range");
    for u in 0..w.num_vertices() as u32 {
        for &v in w.neighbors(u) {
            assert_eq!(weight(&w, u, v), weight(&w, v, u), "({u}, {v})");
        }
    }
    assert_eq!(attach_weights(g.clone(), &spec, 7).unwrap(), w, "same seed, same weights");
    assert_ne!(attach_weights(g.clone(), &spec, 8).unwrap(), w, "another seed, other weights");

    let single = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let on_one_thread = single.install(|| attach_weights(g.clone(), &spec, 7).unwrap());
    assert_eq!(on_one_thread, w, "independent of the thread count");

    let constant = attach_weights(g.clone(), &WeightSpec::Uniform { lo: 9, hi: 9 }, 1).unwrap();
    assert_eq!(constant.weight_range(), Some(WeightRange::U32 { min: 9, max: 9 }));
    assert!(attach_weights(g, &WeightSpec::Uniform { lo: 9, hi: 1 }, 1).is_err());
}

#[test]
fn graph500_weights_are_reals_in_the_unit_interval() {
    let g = generate(&"urand:10".parse().unwrap(), 1).unwrap();
    let w = attach_weights(g, &WeightSpec::Graph500, 2).unwrap();
    let Some(Weights::F32(values)) = w.weights() else { panic!("f32 weights") };
    assert!(values.iter().all(|&x| (0.0..1.0).contains(&x)));
    let mean = values.iter().map(|&x| x as f64).sum::<f64>() / values.len() as f64;
    assert!((mean - 0.5).abs() < 0.02, "mean {mean}");
    assert_eq!(weight(&w, 0, w.neighbors(0)[0]), weight(&w, w.neighbors(0)[0], 0));
}

#[test]
fn directed_graphs_draw_each_direction_on_its_own() {
    let g = GraphBuilder::new().build(EdgeList::new(2, vec![(0, 1), (1, 0)], false)).unwrap();
    // Over many seeds the two arcs of a pair do not always agree.
    let differ = (0..20).any(|seed| {
        let w = attach_weights(g.clone(), &WeightSpec::Uniform { lo: 0, hi: 1_000_000 }, seed).unwrap();
        weight(&w, 0, 1) != weight(&w, 1, 0)
    });
    assert!(differ);
}

#[test]
fn load_options_attach_weights_to_generated_and_read_graphs() {
    let spec = Some(WeightSpec::GAPBS);
    let opts = LoadOptions { seed: 4, weights: spec, ..LoadOptions::default() };
    let generated = load_graph("grid2d:20", &opts).unwrap();
    let expected = attach_weights(generate(&"grid2d:20".parse().unwrap(), 4).unwrap(), &WeightSpec::GAPBS, 4).unwrap();
    assert_eq!(generated, expected);

    // A file's own weights are replaced by the generated ones.
    let scratch = Scratch::new("w-load");
    let path = scratch.file("g.gr", GR);
    let name = path.to_str().unwrap();
    let own = load_graph(name, &LoadOptions::default()).unwrap();
    assert_eq!(own.weight_range(), Some(WeightRange::U32 { min: 2, max: 10 }));
    let replaced = load_graph(name, &opts).unwrap();
    assert_eq!(replaced, attach_weights(own.clone().without_weights(), &WeightSpec::GAPBS, 4).unwrap());
    let ignored = load_graph(name, &LoadOptions { ignore_weights: true, ..LoadOptions::default() }).unwrap();
    assert_eq!(ignored, own.without_weights());
}

// ---- a real weighted graph ----

#[test]
fn usa_road_ny_loads_with_its_distances() {
    let Some(dir) = common::datasets_dir("usa_road_ny_loads_with_its_distances") else { return };
    let path = dir.join("USA-road-d.NY.gr.gz");
    let g = read_graph(&path, &ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.num_vertices(), 264_346);
    assert_eq!(g.num_edges(), 733_846 - 3_746, "repeated arcs are kept once");
    assert_eq!(g.weight_range(), Some(WeightRange::U32 { min: 1, max: 36_946 }));
    // Vertex 1's arcs in the file: `a 1 2 803`, `a 1 12 842`, `a 1 1363 2428`.
    assert_eq!(weighted_adjacency(&g)[0], vec![(1, 803.0), (11, 842.0), (1362, 2428.0)]);
    // Every road segment is two opposite arcs of the same length.
    for u in 0..g.num_vertices() as u32 {
        for &v in g.neighbors(u) {
            assert_eq!(weight(&g, u, v), weight(&g, v, u), "({u}, {v})");
        }
    }
    let unweighted = read_graph(&path, &UNWEIGHTED).unwrap();
    assert_eq!(unweighted, g.without_weights());
}

// ---- weights described rather than refused (`info`) ----

#[test]
fn described_weights_give_the_files_values_and_a_graph_without_them() {
    use warpath::formats::read_graph_described;
    use warpath::graph::WeightValues;
    let scratch = Scratch::new("weights-described");
    let describe = ReadOptions { describe_weights: true, ..ReadOptions::DEFAULT };
    let cases: [(&str, &[u8], WeightValues); 4] = [
        (
            "neg.mtx",
            b"%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 1.5\n2 3 -3.25\n3 1 2\n",
            WeightValues { kind: WeightKind::F32, range: Some((-3.25, 2.0)), not_a_number: false },
        ),
        (
            "neg-int.mtx.gz",
            b"%%MatrixMarket matrix coordinate integer symmetric\n3 3 2\n2 1 -7\n3 2 4\n",
            WeightValues { kind: WeightKind::U32, range: Some((-7.0, 4.0)), not_a_number: false },
        ),
        (
            "neg.gr",
            b"p sp 2 2\na 1 2 -5\na 2 1 6\n",
            WeightValues { kind: WeightKind::U32, range: Some((-5.0, 6.0)), not_a_number: false },
        ),
        (
            "big.wel",
            b"0 1 5000000000\n1 0 3\n",
            WeightValues { kind: WeightKind::U32, range: Some((3.0, 5e9)), not_a_number: false },
        ),
    ];
    for (name, text, expected) in cases {
        let path = scratch.file(name, text);
        let (graph, _, values) = read_graph_described(&path, &describe).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(values, Some(expected), "{name}");
        assert!(!graph.is_weighted(), "{name}: a graph never holds such weights");
        assert_eq!(graph, read_graph(&path, &UNWEIGHTED).unwrap(), "{name}: the edges are the file's");
        // Not describing, the same file is refused as before (a negative weight by the rule
        // that reading without weights answers).
        let refused = read_graph(&path, &DIRECTED).unwrap_err();
        assert_eq!(refused.is_refused_weight(), expected.problem() == "negative", "{name}: {refused}");
    }
    // Valid weights are kept, as without describing, and nothing is described.
    let path = scratch.file("ok.mtx", b"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 0.5\n");
    let (graph, _, values) = read_graph_described(&path, &describe).unwrap();
    assert_eq!((values, graph.weight_range()), (None, Some(WeightRange::F32 { min: 0.5, max: 0.5 })));
    assert_eq!(graph, read_graph(&path, &DIRECTED).unwrap());
    // A value that is no number at all is still malformed.
    let path = scratch.file("bad.mtx", b"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 x\n");
    assert_parse_error(&read_graph_described(&path, &describe).unwrap_err(), &path, 3, "a real number");
}
