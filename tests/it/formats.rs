//! The text readers: SNAP edge lists, Matrix Market, DIMACS; format detection and gzip.
//! Weights (and the `.wel` reader) are tested in `tests/it/weights.rs`.

use crate::common;

use std::path::Path;

use common::{adjacency, assert_parse_error, Scratch};
use warpath::formats::{read_edge_list, read_graph, Format, ReadOptions};
use warpath::Error;

const DIRECTED: ReadOptions = ReadOptions::DEFAULT;
const UNDIRECTED: ReadOptions = ReadOptions { undirected: true, ..ReadOptions::DEFAULT };
const IGNORE_WEIGHTS: ReadOptions = ReadOptions { ignore_weights: true, ..ReadOptions::DEFAULT };

// ---- format detection ----

#[test]
fn formats_are_detected_from_extensions_past_gz() {
    let cases = [
        ("a.mtx", Format::MatrixMarket),
        ("a.mtx.gz", Format::MatrixMarket),
        ("A.MTX.GZ", Format::MatrixMarket),
        ("dir.v2/web.txt", Format::EdgeList),
        ("x.el.gz", Format::EdgeList),
        ("x.wel", Format::WeightedEdgeList),
        ("USA-road-d.NY.gr.gz", Format::Dimacs),
        ("g.wgr", Format::Wgr),
        ("g.wgr.gz", Format::Wgr),
    ];
    for (name, format) in cases {
        assert_eq!(Format::from_path(Path::new(name)).unwrap(), format, "{name}");
    }
}

#[test]
fn unknown_extension_lists_the_supported_ones() {
    for name in ["graph.csv", "graph", "graph.gz", "graph.tar.gz"] {
        let err = Format::from_path(Path::new(name)).unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, Error::InvalidArgument(_)), "{err:?}");
        assert!(text.starts_with(name), "{text}");
        for ext in [".mtx", ".txt", ".el", ".wel", ".gr", ".wgr", ".gz"] {
            assert!(text.contains(ext), "{ext} missing from: {text}");
        }
    }
}

#[test]
fn missing_file_is_an_io_error_naming_it() {
    let scratch = Scratch::new("missing");
    let path = scratch.path("nope.txt");
    let err = read_graph(&path, &DIRECTED).unwrap_err();
    assert!(matches!(err, Error::Io { .. }), "{err:?}");
    assert!(err.to_string().contains("nope.txt"), "{err}");
}

// ---- SNAP ----

const SNAP: &[u8] =
    b"# Directed graph: toy\n# Nodes: 5 Edges: 5\n# FromNodeId\tToNodeId\n0\t1\n0\t2\n2  0\n3 3\n\n1\t4\n";

#[test]
fn snap_reads_ids_as_they_are_and_stays_directed() {
    let scratch = Scratch::new("snap");
    let path = scratch.file("toy.txt", SNAP);
    let list = read_edge_list(&path, &DIRECTED).unwrap();
    assert_eq!(list.num_vertices, 5);
    assert_eq!(list.edges, vec![(0, 1), (0, 2), (2, 0), (3, 3), (1, 4)]);
    assert!(!list.undirected);
    assert_eq!(list.id_base, 0);

    let g = read_graph(&path, &DIRECTED).unwrap();
    assert_eq!(adjacency(&g), vec![vec![1, 2], vec![4], vec![0], vec![], vec![]]);
    assert_eq!(g.num_edges(), 4, "the self-loop 3-3 is dropped");
}

#[test]
fn snap_undirected_option_symmetrizes() {
    let scratch = Scratch::new("snap-undirected");
    let path = scratch.file("toy.el", SNAP);
    let g = read_graph(&path, &UNDIRECTED).unwrap();
    assert!(g.is_undirected());
    assert_eq!(adjacency(&g), vec![vec![1, 2], vec![0, 4], vec![0], vec![], vec![1]]);
}

#[test]
fn snap_crlf_and_gzip_read_the_same_as_plain() {
    let scratch = Scratch::new("snap-crlf");
    let plain = read_graph(&scratch.file("plain.txt", SNAP), &DIRECTED).unwrap();
    let crlf_text = String::from_utf8(SNAP.to_vec()).unwrap().replace('\n', "\r\n");
    let crlf = read_graph(&scratch.file("crlf.txt", crlf_text.as_bytes()), &DIRECTED).unwrap();
    let gz = read_graph(&scratch.file("crlf.txt.gz", crlf_text.as_bytes()), &DIRECTED).unwrap();
    assert_eq!(plain, crlf);
    assert_eq!(plain, gz);
}

#[test]
fn concatenated_gzip_members_are_read_whole() {
    let scratch = Scratch::new("multigz");
    let first = scratch.file("a.txt.gz", b"0 1\n");
    let second = scratch.file("b.txt.gz", b"1 2\n");
    let mut both = std::fs::read(first).unwrap();
    both.extend(std::fs::read(second).unwrap());
    let path = scratch.path("both.txt.gz");
    std::fs::write(&path, both).unwrap();
    assert_eq!(read_edge_list(&path, &DIRECTED).unwrap().edges, vec![(0, 1), (1, 2)]);
}

#[test]
fn snap_empty_file_is_an_empty_graph() {
    let scratch = Scratch::new("snap-empty");
    let g = read_graph(&scratch.file("empty.txt", b"# nothing here\n"), &DIRECTED).unwrap();
    assert_eq!(g.num_vertices(), 0);
    assert_eq!(g.num_edges(), 0);
}

#[test]
fn snap_bad_token_names_file_line_and_token() {
    let scratch = Scratch::new("snap-bad");
    let path = scratch.file("bad.txt", b"# c\n0 1\n2 x7\n");
    let err = read_edge_list(&path, &DIRECTED).unwrap_err();
    assert_parse_error(&err, &path, 3, "vertex id");
    assert!(err.to_string().contains("`x7`"), "{err}");

    let path = scratch.file("negative.txt", b"-1 2\n");
    assert_parse_error(&read_edge_list(&path, &DIRECTED).unwrap_err(), &path, 1, "`-1`");
}

#[test]
fn snap_wrong_column_counts_are_rejected() {
    let scratch = Scratch::new("snap-columns");
    let path = scratch.file("three.txt", b"0 1\n1 2 0.5\n");
    let err = read_edge_list(&path, &DIRECTED).unwrap_err();
    assert_parse_error(&err, &path, 2, "found 3 columns");
    assert!(err.to_string().contains("named .wel"), "{err}");
    let path = scratch.file("one.txt", b"0 1\r\n7\r\n");
    assert_parse_error(&read_edge_list(&path, &DIRECTED).unwrap_err(), &path, 2, "two vertex ids");
}

#[test]
fn snap_ids_beyond_u32_are_too_many_vertices() {
    let scratch = Scratch::new("snap-big");
    let path = scratch.file("big.txt", b"0 4294967295\n");
    let err = read_edge_list(&path, &DIRECTED).unwrap_err();
    assert_parse_error(&err, &path, 1, "a vertex id below 4294967295 (warpath stores vertex ids as u32)");
    // The largest id that fits, alone, would make billions of vertices no edge names.
    let path = scratch.file("edge.txt", b"0 4294967294\n");
    let err = read_edge_list(&path, &DIRECTED).unwrap_err().to_string();
    assert!(err.contains("edge.txt: ids up to 4294967294 but only 2 distinct"), "{err}");
}

#[test]
fn corrupt_gzip_is_an_error_naming_the_file() {
    let scratch = Scratch::new("gz-corrupt");
    let full = std::fs::read(scratch.file("full.txt.gz", &b"0 1\n".repeat(5000))).unwrap();
    let path = scratch.path("cut.txt.gz");
    std::fs::write(&path, &full[..full.len() / 2]).unwrap();
    let err = read_edge_list(&path, &DIRECTED).unwrap_err();
    assert!(matches!(err, Error::Format { .. }), "{err:?}");
    assert!(err.to_string().contains("cut.txt.gz: its gzip data is corrupt"), "{err}");
}

// ---- Matrix Market ----

const MTX_GENERAL: &[u8] =
    b"%%MatrixMarket matrix coordinate pattern general\n% a comment\n%\n3 4 4\n1 2\n2 3\n3 1\n3 4\n";

#[test]
fn mtx_general_is_directed_and_one_based() {
    let scratch = Scratch::new("mtx-general");
    let path = scratch.file("g.mtx", MTX_GENERAL);
    let list = read_edge_list(&path, &DIRECTED).unwrap();
    assert_eq!(list.num_vertices, 4, "n = max(rows, cols)");
    assert_eq!(list.edges, vec![(0, 1), (1, 2), (2, 0), (2, 3)]);
    assert_eq!(list.id_base, 1);
    assert!(!list.undirected);
    let g = read_graph(&path, &DIRECTED).unwrap();
    assert_eq!(g.id_base(), 1);
    assert_eq!(g.num_edges(), 4);
    assert_eq!(g.external_id(0), 1);
    assert!(read_graph(&path, &UNDIRECTED).unwrap().is_undirected());
}

#[test]
fn mtx_symmetric_is_undirected_and_drops_the_diagonal() {
    let scratch = Scratch::new("mtx-symmetric");
    let text = b"%%MatrixMarket matrix coordinate pattern symmetric\n3 3 4\n1 1\n2 1\n3 1\n3 3\n";
    let g = read_graph(&scratch.file("s.mtx", text), &DIRECTED).unwrap();
    assert!(g.is_undirected());
    assert_eq!(adjacency(&g), vec![vec![1, 2], vec![0], vec![0]]);
    assert_eq!(g.num_edges(), 4);

    // The same entries read as `general` keep only the stored direction.
    let general = b"%%MatrixMarket matrix coordinate pattern general\n3 3 4\n1 1\n2 1\n3 1\n3 3\n";
    let g = read_graph(&scratch.file("g.mtx", general), &DIRECTED).unwrap();
    assert!(!g.is_undirected());
    assert_eq!(adjacency(&g), vec![vec![], vec![0], vec![0]]);
}

#[test]
fn mtx_values_read_without_weights_are_checked_whatever_their_sign() {
    // (Kept as weights, values are tested in tests/it/weights.rs.)
    let scratch = Scratch::new("mtx-values");
    let integer = b"%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 -7\n2 1 +3\n";
    let real = b"%%MatrixMarket Matrix Coordinate REAL Symmetric\n2 2 3\n1 1 2.5e+03\n2 1 -1.25\n2 2 7\n";
    let gi = read_graph(&scratch.file("i.mtx", integer), &IGNORE_WEIGHTS).unwrap();
    let gr = read_graph(&scratch.file("r.mtx.gz", real), &IGNORE_WEIGHTS).unwrap();
    assert_eq!(adjacency(&gi), vec![vec![1], vec![0]]);
    assert!(!gi.is_undirected() && !gi.is_weighted());
    assert_eq!(adjacency(&gr), vec![vec![1], vec![0]]);
    assert!(gr.is_undirected() && !gr.is_weighted());

    for options in [DIRECTED, IGNORE_WEIGHTS] {
        let path = scratch.file("bad-int.mtx", b"%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 1.5\n");
        assert_parse_error(&read_edge_list(&path, &options).unwrap_err(), &path, 3, "an integer");
        let path = scratch.file("bad-real.mtx", b"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 abc\n");
        assert_parse_error(&read_edge_list(&path, &options).unwrap_err(), &path, 3, "a real number");
    }
}

#[test]
fn mtx_truncated_file_says_how_many_entries_were_expected_and_found() {
    let scratch = Scratch::new("mtx-truncated");
    let path = scratch.file("t.mtx", b"%%MatrixMarket matrix coordinate pattern general\n% c\n3 3 5\n1 2\n2 3\n");
    let err = read_edge_list(&path, &DIRECTED).unwrap_err();
    assert_parse_error(&err, &path, 6, "5 entries");
    assert!(err.to_string().contains("ends after 2"), "{err}");
    assert!(err.to_string().contains("line 3"), "{err}");
}

#[test]
fn mtx_more_entries_than_declared_is_an_error() {
    let scratch = Scratch::new("mtx-extra");
    let path = scratch.file("x.mtx", b"%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n2 3\n");
    assert_parse_error(&read_edge_list(&path, &DIRECTED).unwrap_err(), &path, 4, "declares 1");
}

#[test]
fn mtx_bad_headers_are_explained() {
    let scratch = Scratch::new("mtx-header");
    let cases: [(&[u8], &str); 6] = [
        (b"3 3 1\n1 2\n", "Matrix Market header"),
        (b"%%MatrixMarket matrix array real general\n3 3\n", "`array`"),
        (b"%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", "`complex`"),
        (b"%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n", "`hermitian`"),
        (b"%%MatrixMarket vector coordinate real general\n", "Matrix Market header"),
        (b"", "file is empty"),
    ];
    for (i, (text, needle)) in cases.into_iter().enumerate() {
        let path = scratch.file(&format!("h{i}.mtx"), text);
        assert_parse_error(&read_edge_list(&path, &DIRECTED).unwrap_err(), &path, 1, needle);
    }
}

#[test]
fn mtx_missing_or_bad_size_line_is_an_error() {
    let scratch = Scratch::new("mtx-size");
    let path = scratch.file("none.mtx", b"%%MatrixMarket matrix coordinate pattern general\n% only comments\n");
    assert_parse_error(&read_edge_list(&path, &DIRECTED).unwrap_err(), &path, 3, "size line");
    let path = scratch.file("two.mtx", b"%%MatrixMarket matrix coordinate pattern general\n3 3\n1 2\n");
    assert_parse_error(&read_edge_list(&path, &DIRECTED).unwrap_err(), &path, 2, "size line");
    let path = scratch.file("rect.mtx", b"%%MatrixMarket matrix coordinate pattern symmetric\n3 4 0\n");
    assert_parse_error(&read_edge_list(&path, &DIRECTED).unwrap_err(), &path, 2, "square");
}

#[test]
fn mtx_bad_entries_are_explained() {
    let scratch = Scratch::new("mtx-entries");
    let header = "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n";
    let cases = [
        ("1 2 3\n", "2 columns"),
        ("3\n", "2 columns"),
        ("0 1\n", "between 1 and 3"),
        ("1 4\n", "between 1 and 3"),
        ("1 b\n", "column index"),
    ];
    for (i, (entry, needle)) in cases.into_iter().enumerate() {
        let path = scratch.file(&format!("e{i}.mtx"), format!("{header}{entry}").as_bytes());
        assert_parse_error(&read_edge_list(&path, &DIRECTED).unwrap_err(), &path, 4, needle);
    }
    let path = scratch.file("real-2col.mtx", b"%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2\n");
    assert_parse_error(&read_edge_list(&path, &DIRECTED).unwrap_err(), &path, 3, "`row column value`");
}

#[test]
fn mtx_too_large_size_line_is_too_many_vertices() {
    let scratch = Scratch::new("mtx-big");
    let path = scratch.file("big.mtx", b"%%MatrixMarket matrix coordinate pattern general\n4294967296 1 0\n");
    let err = read_edge_list(&path, &DIRECTED).unwrap_err();
    assert_parse_error(&err, &path, 2, "found 4294967296 rows and 1 columns");
}

// ---- DIMACS ----

const GR: &[u8] =
    b"c 9th DIMACS style\nc\np sp 4 5\na 1 2 10\na 2 1 10\na 2 3 7\nc interleaved comment\na 3 4 1\na 3 4 1\n";

#[test]
fn dimacs_reads_arcs_one_based_and_directed() {
    let scratch = Scratch::new("gr");
    let path = scratch.file("g.gr", GR);
    let list = read_edge_list(&path, &DIRECTED).unwrap();
    assert_eq!(list.num_vertices, 4);
    assert_eq!(list.edges, vec![(0, 1), (1, 0), (1, 2), (2, 3), (2, 3)]);
    assert_eq!(list.id_base, 1);
    let g = read_graph(&path, &DIRECTED).unwrap();
    assert_eq!(adjacency(&g), vec![vec![1], vec![0, 2], vec![3], vec![]]);
    let u = read_graph(&scratch.file("g.gr.gz", GR), &UNDIRECTED).unwrap();
    assert_eq!(adjacency(&u), vec![vec![1], vec![0, 2], vec![1, 3], vec![2]]);
}

#[test]
fn dimacs_arc_count_must_match_the_problem_line() {
    let scratch = Scratch::new("gr-count");
    let path = scratch.file("short.gr", b"p sp 3 3\na 1 2 1\na 2 3 1\n");
    let err = read_edge_list(&path, &DIRECTED).unwrap_err();
    assert_parse_error(&err, &path, 4, "3 arcs");
    assert!(err.to_string().contains("ends after 2"), "{err}");
    let path = scratch.file("long.gr", b"p sp 3 1\na 1 2 1\na 2 3 1\n");
    assert_parse_error(&read_edge_list(&path, &DIRECTED).unwrap_err(), &path, 3, "declares 1");
}

#[test]
fn dimacs_malformed_lines_are_explained() {
    let scratch = Scratch::new("gr-bad");
    let cases: [(&[u8], u64, &str); 8] = [
        (b"a 1 2 3\np sp 2 1\n", 1, "before the first arc"),
        (b"p sp 2 1\na 1 3 5\n", 2, "between 1 and 2"),
        (b"p sp 2 1\na 0 1 5\n", 2, "between 1 and 2"),
        (b"p sp 2 1\na 1 2 x\n", 2, "integer arc weight"),
        (b"p sp 2 1\na 1 2\n", 2, "four columns"),
        (b"p max 2 1\n", 1, "p sp VERTICES ARCS"),
        (b"p sp 2 1\np sp 2 1\n", 2, "only one `p` line"),
        (b"p sp 2 1\ne 1 2\n", 2, "an arc `a u v w`"),
    ];
    for (i, (text, line, needle)) in cases.into_iter().enumerate() {
        let path = scratch.file(&format!("b{i}.gr"), text);
        assert_parse_error(&read_edge_list(&path, &DIRECTED).unwrap_err(), &path, line, needle);
    }
    let path = scratch.file("nop.gr", b"c only a comment\n");
    assert_parse_error(&read_edge_list(&path, &DIRECTED).unwrap_err(), &path, 2, "problem line");
}

// ---- byte-order marks and round trips (issue 50) ----

#[test]
fn a_byte_order_mark_is_skipped_in_every_text_format() {
    let scratch = Scratch::new("bom");
    let cases: [(&str, &[u8]); 6] = [
        ("g.el", SNAP),
        ("g.txt.gz", SNAP),
        ("g.wel", b"0 1 5\n1 2 3\n"),
        ("g.mtx", b"%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 5\n2 3 3\n"),
        ("g.mtx.gz", b"%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n"),
        ("g.gr", b"c roads\np sp 3 2\na 1 2 5\na 2 3 3\n"),
    ];
    for (name, text) in cases {
        let plain = read_graph(&scratch.file(name, text), &DIRECTED).unwrap();
        let marked = scratch.file(&format!("bom-{name}"), &[&b"\xef\xbb\xbf"[..], text].concat());
        let read = read_graph(&marked, &DIRECTED).unwrap_or_else(|err| panic!("{name}: {err}"));
        assert_eq!(read, plain, "{name}");
        assert!(read.num_edges() > 0, "{name}");
    }
}

/// `warpath info --json GRAPH`'s vertex count, directed edge count and id base.
fn counts(graph: &Path) -> (u64, u64, u64) {
    let out = common::warpath(&["info", graph.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let field =
        |value: &serde_json::Value, name: &str| value.as_u64().unwrap_or_else(|| panic!("{name} missing from {json}"));
    (
        field(&json["vertices"], "vertices"),
        field(&json["edges"], "edges"),
        field(&json["result"]["vertex_id_base"], "vertex_id_base"),
    )
}

#[test]
fn a_dimacs_graph_converted_to_an_edge_list_reads_back_the_same() {
    let scratch = Scratch::new("gr-round-trip");
    // Vertices 1 to 6: vertex 6 has no edges, and no edge names vertex 5 as its source.
    let gr = scratch.file("g.gr", b"p sp 6 4\na 1 2 5\na 2 3 9\na 3 1 7\na 4 5 2\n");
    assert_eq!(counts(&gr), (6, 4, 1));
    for name in ["g.el", "g.wel.gz"] {
        let out_path = scratch.path(name);
        let out = common::warpath(&["convert", gr.to_str().unwrap(), out_path.to_str().unwrap()]);
        assert!(out.status.success(), "{}", common::stderr(&out));
        assert_eq!(counts(&out_path), (6, 4, 1), "{name}");
    }
    // The same graph, ids and weights too.
    assert_eq!(read_graph(&scratch.path("g.wel.gz"), &DIRECTED).unwrap(), read_graph(&gr, &DIRECTED).unwrap());
    assert_eq!(read_graph(&scratch.path("g.el"), &DIRECTED).unwrap(), read_graph(&gr, &IGNORE_WEIGHTS).unwrap());
    // A source names the vertex it names in the DIMACS file.
    let bfs = |graph: &Path| {
        let out = common::warpath(&["bfs", graph.to_str().unwrap(), "--backend", "cpu", "--source", "4"]);
        assert!(out.status.success(), "{}", common::stderr(&out));
        common::stdout(&out).lines().find(|l| l.starts_with("reached")).map(str::to_string)
    };
    assert_eq!(bfs(&scratch.path("g.el")), bfs(&gr));
}

#[test]
fn an_edge_list_declaring_its_ids_keeps_them_and_refuses_others() {
    let scratch = Scratch::new("id-range");
    let path = scratch.file("ids.el", b"# made by hand\n# warpath vertex ids: 1 to 4\n1 2\n2 3\n");
    let list = read_edge_list(&path, &DIRECTED).unwrap();
    assert_eq!((list.num_vertices, list.id_base), (4, 1));
    assert_eq!(list.edges, vec![(0, 1), (1, 2)]);
    let outside = scratch.file("outside.el", b"# warpath vertex ids: 1 to 4\n1 2\n0 3\n");
    let err = read_edge_list(&outside, &DIRECTED).unwrap_err();
    assert_parse_error(&err, &outside, 3, "a vertex id from 1 to 4, as the comment on line 1 declares, found `0`");
    let bad = scratch.file("bad.el", b"# warpath vertex ids: 2 to 4\n2 3\n");
    assert_parse_error(&read_edge_list(&bad, &DIRECTED).unwrap_err(), &bad, 1, "with B 0 or 1");
}

#[test]
fn streams_need_a_named_format_and_are_inflated_by_their_bytes() {
    use std::io::Write;
    use warpath::formats::read_stream;
    let name = Path::new("standard input");
    let mtx = b"%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n";
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(mtx).unwrap();
    let matrix = ReadOptions { format: Some(Format::MatrixMarket), ..ReadOptions::DEFAULT };
    for bytes in [mtx.to_vec(), encoder.finish().unwrap()] {
        let g = read_stream(std::io::Cursor::new(bytes), name, &matrix).unwrap();
        assert_eq!(adjacency(&g), vec![vec![1], vec![2], vec![]]);
    }
    // Fed a byte at a time, as a pipe may: gzip is still told by both of its first bytes.
    struct Trickle(std::io::Cursor<Vec<u8>>);
    impl std::io::Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let end = buf.len().min(1);
            self.0.read(&mut buf[..end])
        }
    }
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(b"0 1\n").unwrap();
    let edges = ReadOptions { format: Some(Format::EdgeList), ..ReadOptions::DEFAULT };
    let g = read_stream(Trickle(std::io::Cursor::new(encoder.finish().unwrap())), name, &edges).unwrap();
    assert_eq!(adjacency(&g), vec![vec![1], vec![]]);
    // Without a format, a stream is refused in words: it has no name to tell it by.
    let err = read_stream(std::io::Cursor::new(mtx.to_vec()), name, &DIRECTED).unwrap_err().to_string();
    assert!(
        err.starts_with("standard input: a stream has no file name") && err.contains("el, wel, mtx, gr or wgr"),
        "{err}"
    );
    // A format given overrides the file's name.
    let scratch = Scratch::new("formats-named");
    let path = scratch.file("matrix.txt", mtx);
    assert!(read_graph(&path, &DIRECTED).is_err(), "read by its name, as an edge list");
    assert_eq!(adjacency(&read_graph(&path, &matrix).unwrap()), vec![vec![1], vec![2], vec![]]);
}
