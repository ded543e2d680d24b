//! The binary `.wgr` format: round trips, and every way a file can be damaged.

use crate::common;

use common::{adjacency, Scratch};
use warpath::formats::{read_edge_list, read_graph, write_wgr, ReadOptions};
use warpath::graph::{EdgeList, GraphBuilder};
use warpath::{Error, Graph};

fn sample(undirected: bool, id_base: u32) -> Graph {
    let edges = vec![(0, 1), (0, 4), (1, 2), (2, 0), (3, 4), (4, 4), (5, 0)];
    let list = EdgeList { num_vertices: 7, edges, undirected, id_base, weights: None };
    GraphBuilder::new().build(list).unwrap()
}

fn format_problem(err: &Error) -> String {
    match err {
        Error::Format { .. } => err.to_string(),
        other => panic!("expected a format error, got {other:?}"),
    }
}

#[test]
fn round_trip_keeps_everything() {
    let scratch = Scratch::new("wgr-roundtrip");
    for (i, (undirected, id_base)) in [(false, 0), (true, 1), (false, 1)].into_iter().enumerate() {
        let g = sample(undirected, id_base);
        for name in [format!("g{i}.wgr"), format!("g{i}.wgr.gz")] {
            let path = scratch.path(&name);
            write_wgr(&g, &path).unwrap();
            let back = read_graph(&path, &ReadOptions::default()).unwrap();
            assert_eq!(back, g, "{name}");
        }
    }
}

#[test]
fn file_size_matches_the_documented_layout() {
    let scratch = Scratch::new("wgr-size");
    let g = sample(false, 0);
    let path = scratch.path("g.wgr");
    write_wgr(&g, &path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let n = g.num_vertices() as u64;
    assert_eq!(bytes.len() as u64, 40 + 8 * (n + 1) + 4 * g.num_edges() + 4);
    assert_eq!(&bytes[..8], b"WARPGRPH");
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 2, "version");
}

#[test]
fn empty_graph_round_trips() {
    let scratch = Scratch::new("wgr-empty");
    let g = GraphBuilder::new().build(EdgeList::new(0, vec![], true)).unwrap();
    let path = scratch.path("e.wgr");
    write_wgr(&g, &path).unwrap();
    assert_eq!(read_graph(&path, &ReadOptions::default()).unwrap(), g);
}

#[test]
fn undirected_option_symmetrizes_a_directed_file() {
    let scratch = Scratch::new("wgr-sym");
    let g = sample(false, 0);
    let path = scratch.path("d.wgr");
    write_wgr(&g, &path).unwrap();
    let u = read_graph(&path, &ReadOptions { undirected: true, ..ReadOptions::DEFAULT }).unwrap();
    assert!(u.is_undirected() && u.is_symmetric());
    assert_eq!(u, sample(true, 0));
    let list = read_edge_list(&path, &ReadOptions::default()).unwrap();
    assert_eq!(list.edges.len() as u64, g.num_edges());
}

#[test]
fn truncated_file_is_reported_with_sizes() {
    let scratch = Scratch::new("wgr-truncated");
    let path = scratch.path("g.wgr");
    write_wgr(&sample(true, 0), &path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    for keep in [bytes.len() - 1, bytes.len() - 20, 45, 10, 0] {
        let cut = scratch.path(&format!("cut{keep}.wgr"));
        std::fs::write(&cut, &bytes[..keep]).unwrap();
        let text = format_problem(&read_graph(&cut, &ReadOptions::default()).unwrap_err());
        assert!(text.starts_with(&cut.display().to_string()), "{text}");
        assert!(text.contains("truncated"), "{text}");
    }
}

#[test]
fn truncated_gzip_wgr_is_an_error() {
    let scratch = Scratch::new("wgr-gz-truncated");
    let big = GraphBuilder::new().build(EdgeList::new(5000, (0..4999).map(|v| (v, v + 1)).collect(), true)).unwrap();
    let path = scratch.path("g.wgr.gz");
    write_wgr(&big, &path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let cut = scratch.path("cut.wgr.gz");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let err = read_graph(&cut, &ReadOptions::default()).unwrap_err();
    assert!(err.to_string().contains("cut.wgr.gz"), "{err}");
}

#[test]
fn flipped_byte_fails_the_checksum() {
    let scratch = Scratch::new("wgr-flip");
    let path = scratch.path("g.wgr");
    write_wgr(&sample(true, 0), &path).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    // A byte inside the targets array: the header stays plausible, only the CRC catches it.
    let at = bytes.len() - 6;
    bytes[at] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let text = format_problem(&read_graph(&path, &ReadOptions::default()).unwrap_err());
    assert!(text.contains("checksum mismatch"), "{text}");
}

#[test]
fn wrong_magic_version_and_trailing_bytes_are_explained() {
    let scratch = Scratch::new("wgr-header");
    let path = scratch.path("g.wgr");
    write_wgr(&sample(false, 0), &path).unwrap();
    let good = std::fs::read(&path).unwrap();

    let mut bad = good.clone();
    bad[..8].copy_from_slice(b"NOTAGRPH");
    std::fs::write(&path, &bad).unwrap();
    let text = format_problem(&read_graph(&path, &ReadOptions::default()).unwrap_err());
    assert!(text.contains("magic bytes"), "{text}");

    let mut bad = good.clone();
    bad[8] = 4;
    std::fs::write(&path, &bad).unwrap();
    let text = format_problem(&read_graph(&path, &ReadOptions::default()).unwrap_err());
    assert!(text.contains("version 4") && text.contains("versions 1 to 3"), "{text}");

    let mut bad = good.clone();
    bad.push(0);
    std::fs::write(&path, &bad).unwrap();
    let text = format_problem(&read_graph(&path, &ReadOptions::default()).unwrap_err());
    assert!(text.contains("unexpected bytes"), "{text}");
}

#[test]
fn valid_checksum_over_an_invalid_csr_is_still_rejected() {
    // A hand-made file: vertex 0 lists 1 twice. The CRC is right, the graph is not.
    let scratch = Scratch::new("wgr-handmade");
    let mut bytes = Vec::new();
    bytes.extend_from_slice(b"WARPGRPH");
    for word in [1u32, 0, 0, 0] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    for dword in [2u64, 2, 0, 2, 2] {
        bytes.extend_from_slice(&dword.to_le_bytes());
    }
    for target in [1u32, 1] {
        bytes.extend_from_slice(&target.to_le_bytes());
    }
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    let path = scratch.path("dup.wgr");
    std::fs::write(&path, &bytes).unwrap();
    let text = format_problem(&read_graph(&path, &ReadOptions::default()).unwrap_err());
    assert!(text.contains("vertex 0"), "{text}");

    // Decreasing offsets are caught by the CSR check, still naming the file.
    let mut bytes = bytes[..bytes.len() - 4].to_vec();
    bytes[48..56].copy_from_slice(&3u64.to_le_bytes());
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let text = format_problem(&read_graph(&path, &ReadOptions::default()).unwrap_err());
    assert!(text.contains("invalid CSR"), "{text}");
}

#[test]
fn a_read_graph_equals_the_text_source_it_came_from() {
    let scratch = Scratch::new("wgr-from-text");
    let src = scratch.file("s.mtx", b"%%MatrixMarket matrix coordinate pattern symmetric\n4 4 3\n2 1\n3 2\n4 3\n");
    let g = read_graph(&src, &ReadOptions::default()).unwrap();
    let bin = scratch.path("s.wgr");
    write_wgr(&g, &bin).unwrap();
    let back = read_graph(&bin, &ReadOptions::default()).unwrap();
    assert_eq!(adjacency(&back), vec![vec![1], vec![0, 2], vec![1, 3], vec![2]]);
    assert_eq!(back.id_base(), 1);
}

#[test]
fn rows_read_alone_are_the_graphs_lists_and_are_checked() {
    use warpath::formats::wgr::{write_compressed, WgrRows};
    let scratch = Scratch::new("wgr-rows");
    let g = warpath::generate::generate(&"kron:10".parse().unwrap(), 3).unwrap();
    let path = scratch.path("k.wgr");
    write_wgr(&g, &path).unwrap();
    let rows = WgrRows::open(&path, None).unwrap().expect("a plain file is read by rows");
    assert_eq!(rows.offsets(), g.offsets());
    assert!(rows.is_undirected());
    assert_eq!(rows.id_base(), g.id_base());
    let n = g.num_vertices() as u32;
    for (first, end) in [(0, n), (0, 0), (17, 18), (64, 512), (500, n)] {
        let range = g.offsets()[first as usize] as usize..g.offsets()[end as usize] as usize;
        assert_eq!(rows.read(first, end, None).unwrap(), g.targets()[range], "rows {first}..{end}");
    }
    // A part's pieces of chosen lists: each list's entries in the part's range, less its first.
    let hubs: Vec<u32> = (0..n).filter(|&v| g.degree(v) >= 32).collect();
    assert!(hubs.len() > 3);
    for (first, end) in [(0, n), (256, 768), (1000, 1000)] {
        let inside = |t: &&u32| (first..end).contains(*t);
        let expected: Vec<Vec<u32>> =
            hubs.iter().map(|&h| g.neighbors(h).iter().filter(inside).map(|&t| t - first).collect()).collect();
        assert_eq!(rows.pieces_of(&hubs, first, end).unwrap(), expected, "pieces in {first}..{end}");
    }
    assert!(rows.pieces_of(&[], 0, n).unwrap().is_empty());
    // Weights after the targets are not read; the rows are the same.
    let weighted = warpath::generate::attach_weights(g.clone(), &"uniform:1:9".parse().unwrap(), 1).unwrap();
    let weighted_path = scratch.path("w.wgr");
    write_wgr(&weighted, &weighted_path).unwrap();
    let weighted_rows = WgrRows::open(&weighted_path, None).unwrap().unwrap();
    assert_eq!(weighted_rows.read(0, n, None).unwrap(), g.targets());
    // Compressed lists and gzip streams are read whole, not by rows.
    let compressed = scratch.path("c.wgr");
    write_compressed(&warpath::graph::CompressedGraph::encode(&g), &compressed).unwrap();
    assert!(WgrRows::open(&compressed, None).unwrap().is_none());
    let gzipped = scratch.path("k.wgr.gz");
    write_wgr(&g, &gzipped).unwrap();
    assert!(WgrRows::open(&gzipped, None).unwrap().is_none());

    // A target past the last vertex in a row read is refused, naming the list; rows before it
    // still read (the checksum is a whole-file reader's to check).
    let mut bytes = std::fs::read(&path).unwrap();
    let targets_at = 40 + 8 * (n as usize + 1);
    let v = 600usize;
    let at = targets_at + 4 * g.offsets()[v] as usize;
    bytes[at..at + 4].copy_from_slice(&(n + 5).to_le_bytes());
    let damaged = scratch.path("damaged.wgr");
    std::fs::write(&damaged, &bytes).unwrap();
    let rows = WgrRows::open(&damaged, None).unwrap().unwrap();
    let text = format_problem(&rows.read(512, n, None).unwrap_err());
    assert!(text.contains(&format!("vertex {v}")) && text.contains("past the last"), "{text}");
    assert!(rows.read(0, 512, None).is_ok());
    // A damaged list read for its pieces is refused the same way.
    let text = format_problem(&rows.pieces_of(&[3, v as u32], 0, 512).unwrap_err());
    assert!(text.contains(&format!("vertex {v}")) && text.contains("past the last"), "{text}");
    // Offsets that end elsewhere than the header's edge count are refused on opening.
    let mut bytes = std::fs::read(&path).unwrap();
    let last = 40 + 8 * n as usize;
    bytes[last..last + 8].copy_from_slice(&(g.num_edges() - 1).to_le_bytes());
    std::fs::write(&damaged, &bytes).unwrap();
    let text = format_problem(&WgrRows::open(&damaged, None).err().unwrap());
    assert!(text.contains("offsets end at"), "{text}");
    // A file shorter than its header says is refused before anything large is read.
    std::fs::write(&damaged, &std::fs::read(&path).unwrap()[..100]).unwrap();
    let text = format_problem(&WgrRows::open(&damaged, None).err().unwrap());
    assert!(text.contains("truncated"), "{text}");
}

#[test]
fn a_directed_files_in_lists_are_read_by_rows_as_its_transposes() {
    use warpath::formats::wgr::WgrRows;
    let scratch = Scratch::new("wgr-in-rows");
    let mut rng = warpath::generate::rng::SplitMix64::new(9);
    let edges: Vec<(u32, u32)> = (0..20_000)
        .map(|_| (rng.next_below(3000) as u32, (rng.next_below(3000) as u32).min(rng.next_below(300) as u32)))
        .collect();
    let g = warpath::graph::GraphBuilder::new().build(warpath::graph::EdgeList::new(3000, edges, false)).unwrap();
    assert!(!g.is_undirected());
    let transpose = g.transpose();
    let path = scratch.path("d.wgr");
    write_wgr(&g, &path).unwrap();
    let rows = WgrRows::open(&path, None).unwrap().unwrap();
    assert!(!rows.is_undirected());
    let in_offsets = rows.in_offsets().unwrap();
    assert_eq!(in_offsets, transpose.offsets());
    for (first, end) in [(0, 3000), (0, 0), (100, 101), (64, 1024), (2900, 3000)] {
        let range = in_offsets[first as usize] as usize..in_offsets[end as usize] as usize;
        assert_eq!(rows.in_rows(&in_offsets, first, end, None).unwrap(), transpose.targets()[range], "{first}..{end}");
    }
    // A damaged list anywhere fails both passes, naming it.
    let mut bytes = std::fs::read(&path).unwrap();
    let v = (0..3000).find(|&v| g.degree(v) >= 2).unwrap();
    let at = 40 + 8 * 3001 + 4 * g.offsets()[v as usize] as usize;
    bytes[at..at + 4].copy_from_slice(&5000u32.to_le_bytes());
    let damaged = scratch.path("damaged.wgr");
    std::fs::write(&damaged, &bytes).unwrap();
    let rows = WgrRows::open(&damaged, None).unwrap().unwrap();
    let text = format_problem(&rows.in_offsets().unwrap_err());
    assert!(text.contains(&format!("vertex {v}")) && text.contains("past the last"), "{text}");
    let text = format_problem(&rows.in_rows(&in_offsets, 0, 64, None).unwrap_err());
    assert!(text.contains(&format!("vertex {v}")), "{text}");
}

#[test]
fn ranks_that_read_only_their_rows_check_the_whole_file_together() {
    use warpath::formats::wgr::{ShareChecks, WgrRows};
    let scratch = Scratch::new("wgr-shares");
    let g = warpath::generate::generate(&"kron:9".parse().unwrap(), 5).unwrap();
    let n = g.num_vertices() as u32;
    let shares_of = |path: &std::path::Path, world: usize, key: u64| -> (WgrRows, Vec<ShareChecks>) {
        let rows = WgrRows::open(path, None).unwrap().unwrap();
        let shares = (0..world)
            .map(|rank| {
                // Rows cut unevenly, as the ranks' ranges may be.
                let (first, end) = ((rank as u32 * n) / world as u32, ((rank as u32 + 1) * n) / world as u32);
                let (targets, balance) = rows.read_keyed(first, end, None, key).unwrap();
                assert_eq!(targets, rows.read(first, end, None).unwrap());
                let share = rows.share_checks((rank, world), balance).unwrap();
                assert_eq!(ShareChecks::from_words(&share.to_words()), share);
                share
            })
            .collect();
        (rows, shares)
    };
    let path = scratch.path("k.wgr");
    write_wgr(&g, &path).unwrap();
    for world in [1, 3, 4] {
        let (rows, shares) = shares_of(&path, world, 77);
        rows.check_shares(&shares).unwrap();
    }

    // A target changed to another vertex (the list still increasing): the checksum fails.
    let mut bytes = std::fs::read(&path).unwrap();
    let v = (0..n).find(|&v| g.degree(v) >= 2 && g.neighbors(v)[1] > g.neighbors(v)[0] + 1).unwrap();
    let at = 40 + 8 * (n as usize + 1) + 4 * g.offsets()[v as usize] as usize;
    let changed = g.neighbors(v)[0] + 1;
    bytes[at..at + 4].copy_from_slice(&changed.to_le_bytes());
    let damaged = scratch.path("damaged.wgr");
    std::fs::write(&damaged, &bytes).unwrap();
    let (rows, shares) = shares_of(&damaged, 3, 77);
    let text = format_problem(&rows.check_shares(&shares).unwrap_err());
    assert!(text.contains("checksum mismatch"), "{text}");
    // The same change with the checksum written again: the lists are no longer symmetric.
    let body = bytes.len() - 4;
    let crc = crc32fast::hash(&bytes[..body]);
    bytes[body..].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&damaged, &bytes).unwrap();
    let (rows, shares) = shares_of(&damaged, 3, 77);
    let text = format_problem(&rows.check_shares(&shares).unwrap_err());
    assert!(text.contains("undirected") && text.contains("both ways"), "{text}");
}
