//! The delta-varint compressed CSR: round trips on generated graphs, datasets and random
//! lists (ids up to 2^32 - 2), malformed streams, the compressed `.wgr` and the CLI.

use crate::common;

use std::io::Write;
use std::process::Command;

use common::{build, dataset_files, datasets_dir, rmat, Rng, Scratch};
use warpath::formats::{read_graph, wgr, write_wgr, ReadOptions};
use warpath::graph::compressed::{
    decode_list, encode_list, read_varint, unzigzag, write_varint, zigzag, ListError, VarintError, MAX_VARINT_BYTES,
};
use warpath::graph::{CompressedGraph, MAX_VERTICES};
use warpath::{Error, Graph};

/// Encodes, decodes, and checks the decoder iterator and the parts against the graph.
fn assert_round_trip(graph: &Graph, label: &str) -> CompressedGraph {
    let c = CompressedGraph::encode(graph);
    assert_eq!(c.num_vertices(), graph.num_vertices(), "{label}");
    assert_eq!(c.num_edges(), graph.num_edges(), "{label}");
    assert_eq!(&c.decode(), graph, "{label}");
    for v in 0..graph.num_vertices() as u32 {
        assert!(c.neighbors(v).eq(graph.neighbors(v).iter().copied()), "{label}: vertex {v}");
    }
    let n = graph.num_vertices() as u64;
    assert_eq!(c.raw_bytes(), 8 * (n + 1) + 4 * graph.num_edges(), "{label}");
    assert_eq!(c.compressed_bytes(), 8 * (n + 1) + c.bytes().len() as u64, "{label}");
    // Every edge takes 1 to 5 bytes.
    assert!(c.bytes().len() as u64 >= graph.num_edges(), "{label}");
    assert!(c.bytes().len() as u64 <= MAX_VARINT_BYTES as u64 * graph.num_edges(), "{label}");
    let again = CompressedGraph::from_parts(
        c.byte_offsets().to_vec(),
        c.bytes().to_vec(),
        c.num_edges(),
        c.is_undirected(),
        c.id_base(),
    )
    .unwrap();
    assert_eq!(again, c, "{label}");
    c
}

fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

#[test]
fn generated_graphs_round_trip() {
    for spec in
        ["kron:10", "kron:14", "grid2d:40x25", "grid3d:9", "urand:12", "urand:10:64", "rmat:11:8:0.45,0.15,0.15"]
    {
        let graph = warpath::generate::generate(&spec.parse().unwrap(), 7).unwrap();
        let c = assert_round_trip(&graph, spec);
        assert!(c.ratio() < 1.0, "{spec}: ratio {}", c.ratio());
        say(&format!("{spec}: ratio {:.3}", c.ratio()));
    }
    // Directed graphs, with many empty lists.
    for seed in 1..4 {
        assert_round_trip(&rmat(12, 20_000, seed, false), &format!("directed rmat seed {seed}"));
    }
}

#[test]
fn every_dataset_round_trips() {
    let Some(dir) = datasets_dir("every_dataset_round_trips") else { return };
    let scratch = Scratch::new("compressed-datasets");
    for path in dataset_files(&dir) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        // Compressed lists carry no weights, so the datasets are read without them.
        let graph = read_graph(&path, &ReadOptions { ignore_weights: true, ..ReadOptions::default() }).unwrap();
        let c = assert_round_trip(&graph, &name);
        let file = scratch.path("d.wgr");
        wgr::write_compressed(&c, &file).unwrap();
        assert_eq!(read_graph(&file, &ReadOptions::default()).unwrap(), graph, "{name}");
        say(&format!("{name}: {} of {} bytes, ratio {:.3}", c.compressed_bytes(), c.raw_bytes(), c.ratio()));
    }
}

#[test]
fn codec_handles_the_extremes_of_u32_ids() {
    let top = (MAX_VERTICES - 1) as u32; // the largest vertex id, 2^32 - 2
    let n = MAX_VERTICES;
    let cases: Vec<(u32, Vec<u32>)> = vec![
        (0, vec![top]),        // largest positive first difference
        (top, vec![0]),        // largest negative first difference
        (top, vec![0, top]),   // the largest gap
        (top - 1, vec![top]),  // +1
        (1, vec![0, 2, 3, 4]), // -1, then gaps of 1 (stored as 0)
        (5, vec![]),           // empty list
        (top, vec![top - 3, top - 2, top - 1]),
    ];
    for (vertex, list) in cases {
        let mut bytes = Vec::new();
        encode_list(vertex, &list, &mut bytes);
        assert!(bytes.len() <= MAX_VARINT_BYTES * list.len(), "{vertex} {list:?}");
        let mut back = Vec::new();
        assert_eq!(decode_list(vertex, &bytes, n, |t| back.push(t)), Ok(list.len() as u64));
        assert_eq!(back, list, "vertex {vertex}");
    }
    // The biggest values that occur: zigzag of +-(2^32 - 2), and a gap of 2^32 - 3.
    for value in [zigzag(top as i64), zigzag(-(top as i64)), top as u64 - 1, u32::MAX as u64] {
        assert!(value < 1 << 35);
        let mut bytes = Vec::new();
        write_varint(&mut bytes, value);
        assert_eq!(bytes.len(), 5, "{value}");
        let mut pos = 0;
        assert_eq!(read_varint(&bytes, &mut pos), Ok(value));
        assert_eq!(pos, 5);
    }
    assert_eq!(unzigzag(zigzag(-(top as i64))), -(top as i64));
    assert_eq!(unzigzag(zigzag(top as i64)), top as i64);
}

#[test]
fn random_sorted_lists_round_trip() {
    let mut rng = Rng::new(0x5eed);
    let n = MAX_VERTICES;
    for round in 0..2_000 {
        let vertex = match round % 4 {
            0 => rng.next_below(n) as u32,
            1 => (n - 1 - rng.next_below(1000)) as u32,
            2 => rng.next_below(1000) as u32,
            _ => rng.next_below(n) as u32,
        };
        let len = rng.next_below(if round % 10 == 0 { 5_000 } else { 60 }) as usize;
        // Dense (small gaps), sparse (anywhere below 2^32 - 1), or clustered near the top.
        let mut list: Vec<u32> = (0..len)
            .map(|_| match round % 3 {
                0 => (vertex as u64 + rng.next_below(4 * len as u64 + 1)).min(n - 1) as u32,
                1 => rng.next_below(n) as u32,
                _ => (n - 1 - rng.next_below(10 * len as u64 + 1)) as u32,
            })
            .collect();
        list.sort_unstable();
        list.dedup();
        let mut bytes = Vec::new();
        encode_list(vertex, &list, &mut bytes);
        let mut back = Vec::with_capacity(list.len());
        assert_eq!(decode_list(vertex, &bytes, n, |t| back.push(t)), Ok(list.len() as u64), "round {round}");
        assert_eq!(back, list, "round {round}");
    }
}

#[test]
fn empty_lists_single_vertices_and_empty_graphs() {
    assert_round_trip(&build(0, vec![], true), "no vertices");
    assert_round_trip(&build(1, vec![], true), "one vertex");
    assert_round_trip(&build(1000, vec![], false), "isolated vertices");
    let g = assert_round_trip(&build(10, vec![(9, 0), (0, 9)], false), "two lists among empties");
    assert_eq!(g.bytes().len(), 2);
    assert_eq!(CompressedGraph::encode(&build(1, vec![], true)).ratio(), 1.0);
}

fn invalid(parts: (Vec<u64>, Vec<u8>, u64)) -> String {
    let (offsets, bytes, m) = parts;
    match CompressedGraph::from_parts(offsets, bytes, m, false, 0) {
        Err(Error::InvalidArgument(text)) => text,
        other => panic!("expected an invalid-argument error, got {other:?}"),
    }
}

#[test]
fn malformed_streams_are_errors() {
    // Vertex 0 of 3 vertices.
    let text = invalid((vec![0, 1, 1, 1], vec![0x80], 1));
    assert!(text.contains("vertex 0") && text.contains("inside a varint"), "{text}");
    let text = invalid((vec![0, 6, 6, 6], vec![0x80, 0x80, 0x80, 0x80, 0x80, 0x01], 1));
    assert!(text.contains("past 5 bytes"), "{text}");
    // zigzag 1 = -1: vertex 0's first neighbor would be -1.
    let text = invalid((vec![0, 1, 1, 1], vec![1], 1));
    assert!(text.contains("neighbor -1"), "{text}");
    // Vertex 1: first neighbor 1 + 2 = 3, not a vertex of 3.
    let text = invalid((vec![0, 0, 1, 1], vec![4], 1));
    assert!(text.contains("vertex 1") && text.contains("neighbor 3"), "{text}");
    // A gap past the end: 0 -> 1, then 1 + 5 + 1 = 7.
    let text = invalid((vec![0, 2, 2, 2], vec![2, 5], 2));
    assert!(text.contains("neighbor 7"), "{text}");
    // The biggest possible varint as a gap, from near the top of the id range.
    let text = invalid((vec![0, 6, 6, 6], vec![2, 0xff, 0xff, 0xff, 0xff, 0x7f], 2));
    assert!(text.contains("not a vertex"), "{text}");
    // Structure: edge count, offsets.
    assert!(invalid((vec![0, 1, 1, 1], vec![2], 2)).contains("declared"));
    assert!(invalid((vec![0, 2, 1, 2], vec![2, 0], 1)).contains("decrease"));
    assert!(invalid((vec![0, 1, 1, 1], vec![2, 0], 1)).contains("last byte offset"));
    assert!(invalid((vec![1, 1], vec![2], 1)).contains("not 0"));
    assert!(invalid((vec![], vec![], 0)).contains("empty"));
    // The raw decoder on a list that stops mid-varint.
    assert_eq!(decode_list(0, &[2, 0x81], 10, |_| {}), Err(ListError::Varint(VarintError::Truncated)));
}

fn format_problem(result: warpath::Result<Graph>) -> String {
    match result {
        Err(err @ Error::Format { .. }) => err.to_string(),
        other => panic!("expected a format error, got {other:?}"),
    }
}

/// A compressed .wgr made by hand: `flags` with bit 1 set, a valid CRC over whatever is given.
fn handmade(n: u64, m: u64, offsets: &[u64], lists: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(b"WARPGRPH");
    for word in [2u32, 2, 0, 0] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    for dword in [n, m].iter().chain(offsets) {
        bytes.extend_from_slice(&dword.to_le_bytes());
    }
    bytes.extend_from_slice(lists);
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    bytes
}

#[test]
fn compressed_wgr_round_trips_and_is_smaller() {
    let scratch = Scratch::new("compressed-wgr");
    let graph = warpath::generate::generate(&"kron:14".parse().unwrap(), 1).unwrap();
    let c = CompressedGraph::encode(&graph);
    let plain = scratch.path("plain.wgr");
    write_wgr(&graph, &plain).unwrap();
    for name in ["c.wgr", "c.wgr.gz"] {
        let path = scratch.path(name);
        wgr::write_compressed(&c, &path).unwrap();
        assert!(wgr::is_compressed(&path).unwrap(), "{name}");
        assert_eq!(read_graph(&path, &ReadOptions::default()).unwrap(), graph, "{name}");
        assert_eq!(wgr::read_compressed(&path).unwrap(), c, "{name}");
    }
    let (plain_len, compressed_len) =
        (std::fs::metadata(&plain).unwrap().len(), std::fs::metadata(scratch.path("c.wgr")).unwrap().len());
    assert_eq!(compressed_len, 40 + c.compressed_bytes() + 4);
    assert_eq!(plain_len, 40 + c.raw_bytes() + 4);
    assert!(compressed_len < plain_len / 2, "{compressed_len} vs {plain_len}");
    // A plain file read as compressed is encoded on the way.
    assert!(!wgr::is_compressed(&plain).unwrap());
    assert_eq!(wgr::read_compressed(&plain).unwrap(), c);
    // Directed and 1-based graphs keep their flags.
    let directed = warpath::graph::GraphBuilder::new()
        .build(warpath::graph::EdgeList {
            num_vertices: 5,
            edges: vec![(4, 0), (0, 3)],
            undirected: false,
            id_base: 1,
            weights: None,
        })
        .unwrap();
    let path = scratch.path("d.wgr");
    wgr::write_compressed(&CompressedGraph::encode(&directed), &path).unwrap();
    assert_eq!(read_graph(&path, &ReadOptions::default()).unwrap(), directed);
}

#[test]
fn damaged_compressed_files_are_errors() {
    let scratch = Scratch::new("compressed-damaged");
    let path = scratch.path("g.wgr");
    let graph = warpath::generate::generate(&"kron:8".parse().unwrap(), 1).unwrap();
    wgr::write_compressed(&CompressedGraph::encode(&graph), &path).unwrap();
    let good = std::fs::read(&path).unwrap();
    for keep in [good.len() - 1, good.len() - 10, 60, 41] {
        let cut = scratch.path(&format!("cut{keep}.wgr"));
        std::fs::write(&cut, &good[..keep]).unwrap();
        let text = format_problem(read_graph(&cut, &ReadOptions::default()));
        assert!(text.contains("truncated") || text.contains("corrupt"), "{keep}: {text}");
    }
    let mut flipped = good.clone();
    let at = flipped.len() - 8;
    flipped[at] ^= 0x40;
    std::fs::write(&path, &flipped).unwrap();
    assert!(format_problem(read_graph(&path, &ReadOptions::default())).contains("checksum mismatch"));

    // Valid CRCs over invalid lists: a truncated varint, a 6-byte varint, an id out of
    // range, a self-loop (vertex 1: zigzag 0), and offsets that overrun the bytes.
    let cases: [(&str, Vec<u8>); 5] = [
        ("inside a varint", handmade(3, 1, &[0, 1, 1, 1], &[0x80])),
        ("past 5 bytes", handmade(3, 2, &[0, 6, 6, 6], &[0x80, 0x80, 0x80, 0x80, 0x80, 0x00])),
        ("not a vertex", handmade(3, 1, &[0, 1, 1, 1], &[0x7f])),
        ("self-loop", handmade(3, 1, &[0, 0, 1, 1], &[0])),
        ("byte offsets end at", handmade(3, 1, &[0, 1, 1, 2], &[2])),
    ];
    for (needle, bytes) in cases {
        let file = scratch.path("hand.wgr");
        std::fs::write(&file, &bytes).unwrap();
        let text = format_problem(read_graph(&file, &ReadOptions::default()));
        assert!(text.starts_with(&file.display().to_string()), "{text}");
        assert!(text.contains(needle), "`{needle}` missing from: {text}");
        assert!(wgr::read_compressed(&file).is_err());
    }
    // The same lists, fine when well formed: 0 -> 1 is zigzag(1) = 2.
    let file = scratch.path("ok.wgr");
    std::fs::write(&file, handmade(3, 1, &[0, 1, 1, 1], &[2])).unwrap();
    assert_eq!(read_graph(&file, &ReadOptions::default()).unwrap().neighbors(0), &[1]);
}

#[test]
fn version_1_files_still_read() {
    let scratch = Scratch::new("compressed-v1");
    let graph = warpath::generate::generate(&"grid2d:7x5".parse().unwrap(), 1).unwrap();
    let path = scratch.path("g.wgr");
    write_wgr(&graph, &path).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 2);
    // Version 1 was this file with version 1 in the header (and its CRC).
    bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
    let body = bytes.len() - 4;
    let crc = crc32fast::hash(&bytes[..body]);
    bytes[body..].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(read_graph(&path, &ReadOptions::default()).unwrap(), graph);
    assert!(!wgr::is_compressed(&path).unwrap());

    // Version 1 had no compressed flag.
    let mut v1 = handmade(3, 1, &[0, 1, 1, 1], &[2]);
    v1[8..12].copy_from_slice(&1u32.to_le_bytes());
    std::fs::write(&path, &v1).unwrap();
    let text = format_problem(read_graph(&path, &ReadOptions::default()));
    assert!(text.contains("version 1, flags 0x2"), "{text}");
}

fn warpath(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_warpath")).args(args).output().expect("run warpath");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_convert_compress_then_bfs_and_info() {
    let scratch = Scratch::new("compressed-cli");
    let file = scratch.path("k.wgr");
    let (ok, out, err) = warpath(&["convert", "kron:10", file.to_str().unwrap(), "--compress"]);
    assert!(ok, "{err}");
    assert!(out.lines().any(|l| l.starts_with("wrote ") && l.contains("1024 vertices")), "{out}");
    let line = out.lines().find(|l| l.starts_with("compressed: ")).unwrap_or_else(|| panic!("{out}"));
    assert!(line.contains("bytes as delta-varint, plain CSR: ") && line.contains("ratio 0."), "{line}");

    let (ok, out, err) = warpath(&["bfs", file.to_str().unwrap(), "--backend", "cpu", "--verify"]);
    assert!(ok, "{err}");
    assert!(out.lines().any(|l| l == "verified: ok"), "{out}");
    let (_, direct, _) = warpath(&["bfs", "kron:10", "--backend", "cpu", "--verify"]);
    let facts = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| ["source:", "reached:", "depth:"].iter().any(|k| l.starts_with(k)))
            .map(String::from)
            .collect()
    };
    assert_eq!(facts(&out), facts(&direct));

    let (ok, out, err) = warpath(&["info", file.to_str().unwrap()]);
    assert!(ok, "{err}");
    let line = out.lines().find(|l| l.starts_with("compression: ")).unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.contains("bytes as delta-varint (ratio 0.") && line.ends_with("stored compressed in the file"),
        "{line}"
    );
    assert!(out.lines().any(|l| l == "vertices: 1024"), "{out}");

    let (ok, out, err) = warpath(&["info", "grid2d:10"]);
    assert!(ok, "{err}");
    assert!(
        out.lines().any(|l| l.starts_with("compression: ") && l.ends_with("of the plain CSR's 2248 bytes)")),
        "{out}"
    );
}
