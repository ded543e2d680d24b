//! warpath under hostile input (issue 22, items 1 to 4): tiny inputs that would need tens of
//! gigabytes are refused by the memory guard before anything is allocated, reading is bounded,
//! truncated files are caught, and no output ever destroys the input or lands half-written.
//! Each case runs in milliseconds: the limits are set small (`WARPATH_MEMORY_LIMIT`,
//! `--memory-limit`) and the files are a few lines. CPU only.

use crate::common;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::{assert_one_line_error, stderr, Scratch};
use warpath::formats::{read_edge_list, read_graph, ReadOptions};

/// `warpath ARGS` with `WARPATH_MEMORY_LIMIT` set to `limit` (or unset).
fn warpath_with_limit(args: &[&str], limit: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_warpath"));
    command.args(args).env_remove(warpath::memory::LIMIT_VARIABLE);
    if let Some(limit) = limit {
        command.env(warpath::memory::LIMIT_VARIABLE, limit);
    }
    command.output().expect("run warpath")
}

fn warpath(args: &[&str]) -> Output {
    warpath_with_limit(args, None)
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

// ---- 1. the memory guard ----

#[test]
fn headers_declaring_billions_of_vertices_are_refused_before_allocating() {
    let scratch = Scratch::new("hostile-headers");
    let header = b"%%MatrixMarket matrix coordinate pattern general\n";
    let mtx = scratch.file("big.mtx", &[&header[..], b"4000000000 4000000000 3\n1 2\n"].concat());
    let out = warpath_with_limit(&["info", text(&mtx)], Some("1G"));
    assert_one_line_error(
        &out,
        &["big.mtx: needs about 96.0 GB for 4000000000 vertices and 3 edges, 1.1 GB available", "--memory-limit"],
    );
    let gr = scratch.file("big.gr", b"p sp 4000000000 3\na 1 2 1\n");
    let out = warpath_with_limit(&["bfs", text(&gr), "--backend", "cpu"], Some("1G"));
    assert_one_line_error(&out, &["big.gr: needs about", "for 4000000000 vertices and 3 edges"]);
    // The flag overrides the environment.
    let out = warpath_with_limit(&["info", text(&gr), "--memory-limit", "2G"], Some("1T"));
    assert_one_line_error(&out, &["big.gr: needs about", "2.1 GB available"]);
}

#[test]
fn a_compressed_wgr_header_declaring_billions_of_vertices_is_refused() {
    let scratch = Scratch::new("hostile-wgr-header");
    // A gzip stream has no length to check the header against: the guard refuses it.
    let mut header = b"WARPGRPH".to_vec();
    for word in [2u32, 0, 0, 0] {
        header.extend_from_slice(&word.to_le_bytes());
    }
    header.extend_from_slice(&4_000_000_000u64.to_le_bytes());
    header.extend_from_slice(&3u64.to_le_bytes());
    let path = scratch.file("big.wgr.gz", &header);
    let out = warpath_with_limit(&["info", text(&path)], Some("1G"));
    assert_one_line_error(&out, &["big.wgr.gz: needs about 32.0 GB for 4000000000 vertices and 3 edges"]);
}

#[test]
fn generator_specs_beyond_the_memory_are_refused_at_once() {
    for spec in ["kron:28", "kron:31", "kron:20:100000", "grid2d:65535", "grid3d:1625", "urand:31:1"] {
        let started = Instant::now();
        let out = warpath_with_limit(&["info", spec], Some("1G"));
        assert_one_line_error(&out, &[&format!("{spec}: needs about "), "1.1 GB available"]);
        assert!(started.elapsed() < Duration::from_secs(10), "{spec} took {:?}", started.elapsed());
    }
    let out = warpath(&["info", "kron:16", "--memory-limit", "1M"]);
    assert_one_line_error(&out, &["kron:16: needs about", "for 65536 vertices and 1048576 edges, 1.0 MB available"]);
    let small = warpath(&["info", "kron:6", "--memory-limit", "1G"]);
    assert!(small.status.success(), "{}", stderr(&small));
}

#[test]
fn the_library_guard_takes_an_explicit_limit() {
    let scratch = Scratch::new("hostile-library");
    let mtx = scratch.file("m.mtx", b"%%MatrixMarket matrix coordinate pattern general\n100000 100000 2\n1 2\n2 3\n");
    let limited = ReadOptions { memory_limit: Some(1 << 20), ..ReadOptions::DEFAULT };
    let err = read_graph(&mtx, &limited).unwrap_err();
    assert!(matches!(err, warpath::Error::OutOfMemory { vertices: 100_000, edges: 2, .. }), "{err}");
    let roomy = ReadOptions { memory_limit: Some(1 << 30), ..ReadOptions::DEFAULT };
    assert_eq!(read_graph(&mtx, &roomy).unwrap().num_vertices(), 100_000);
}

#[test]
fn sparse_ids_near_the_top_of_the_range_are_refused_with_advice() {
    let scratch = Scratch::new("hostile-ids");
    for (name, id) in [("nine.txt", "999999999"), ("top.txt", "4294967294")] {
        let file = scratch.file(name, format!("0 {id}\n").as_bytes());
        let out = warpath(&["bfs", text(&file), "--backend", "cpu"]);
        assert_one_line_error(&out, &[name, &format!("ids up to {id} but only 2 distinct"), "Renumber"]);
    }
    let beyond = scratch.file("beyond.txt", b"0 1\n0 4294967295\n");
    let out = warpath(&["info", text(&beyond)]);
    assert_one_line_error(&out, &["beyond.txt:2:", "a vertex id below 4294967295", "found 4294967295"]);
}

/// Writes `times` copies of `text` to `path` through gzip at its fastest: tens of megabytes
/// of one line repeated compress to a few hundred kilobytes in a fraction of a second.
fn gzip_repeated(path: &Path, text: &str, times: usize) {
    let block = text.repeat(4096);
    let mut encoder = flate2::write::GzEncoder::new(std::fs::File::create(path).unwrap(), flate2::Compression::fast());
    for _ in 0..times / 4096 {
        encoder.write_all(block.as_bytes()).unwrap();
    }
    encoder.write_all(text.repeat(times % 4096).as_bytes()).unwrap();
    encoder.finish().unwrap();
}

#[test]
fn a_gzip_stream_of_one_edge_repeated_reads_in_memory_for_its_distinct_edges() {
    let scratch = Scratch::new("hostile-repeats");
    let lines = 16 << 20;
    let path = scratch.path("repeats.el.gz");
    gzip_repeated(&path, "0 1\n", lines);
    // 16M edges as listed need about 190 MB to build: the limit is below that, and above what
    // one 32 MB block of lines takes.
    let limited = ReadOptions { memory_limit: Some(128 << 20), ..ReadOptions::DEFAULT };
    let list = read_edge_list(&path, &limited).unwrap();
    assert!(list.edges.capacity() < lines, "room for {} edges: the repeats were kept", list.edges.capacity());
    let graph = read_graph(&path, &limited).unwrap();
    assert_eq!((graph.num_vertices(), graph.num_edges()), (2, 1));
}

#[test]
fn a_gzip_stream_of_distinct_edges_stops_where_it_outgrows_the_limit() {
    let scratch = Scratch::new("hostile-stream");
    let lines = 2_000_000u32;
    let edges: String = (0..lines).map(|i| format!("{i} {}\n", i + 1)).collect();
    let path = scratch.file("distinct.el.gz", edges.as_bytes());
    let out = warpath_with_limit(&["info", text(&path)], Some("16M"));
    assert_one_line_error(&out, &["distinct.el.gz (its edges up to line ", "16.8 MB available", "--memory-limit"]);
    // Refused before the end of the file: the edges it read were enough to tell.
    let err = stderr(&out);
    let line: u32 = err.split("up to line ").nth(1).and_then(|rest| rest.split(')').next()).unwrap().parse().unwrap();
    assert!(line < lines, "{err}");
    let roomy = warpath_with_limit(&["info", text(&path)], Some("1G"));
    assert!(roomy.status.success(), "{}", stderr(&roomy));
    assert!(String::from_utf8_lossy(&roomy.stdout).contains(&format!("edges: {lines}")));
}

#[test]
fn an_unreadable_limit_is_warned_about_once() {
    let scratch = Scratch::new("hostile-limit-warning");
    let graph = scratch.file("g.el", b"0 1\n1 2\n");
    let out = warpath_with_limit(&["info", text(&graph)], Some("lots"));
    assert!(out.status.success(), "{}", stderr(&out));
    let warnings: Vec<String> = stderr(&out).lines().filter(|l| l.contains("ignored")).map(str::to_string).collect();
    assert_eq!(
        warnings,
        ["warpath: warning: WARPATH_MEMORY_LIMIT ignored: `lots` is not a byte count such as 6G, \
                           6GB, 1.5GiB, 512M or 4096"]
    );
}

#[test]
fn root_counts_are_capped() {
    for roots in ["18446744073709551615", "4294967296", "0", "65537"] {
        let out = warpath(&["bench", "grid2d:4", "--backend", "cpu", "--roots", roots]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("is not a root count: give at least one root and at most 65536"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let out = warpath(&["bench", "grid2d:4", "--backend", "cpu", "--roots", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

// ---- 2. bounded reading ----

#[test]
fn a_file_without_newlines_stops_at_the_line_cap() {
    let scratch = Scratch::new("hostile-long");
    let zeros = scratch.file("zeros.txt", &vec![b'0'; 3 << 20]);
    let out = warpath(&["info", text(&zeros)]);
    assert_one_line_error(&out, &["zeros.txt:1: expected a line of at most 1 MiB"]);
    // The same through gzip: 3 MiB of one line from a small file.
    let packed = scratch.file("zeros.txt.gz", &vec![b'1'; 3 << 20]);
    let out = warpath(&["info", text(&packed)]);
    assert_one_line_error(&out, &["zeros.txt.gz:1: expected a line of at most 1 MiB"]);
}

#[test]
fn control_characters_in_a_bad_line_are_escaped() {
    let scratch = Scratch::new("hostile-escape");
    let file = scratch.file("esc.txt", b"0 1\n0 \x1b[2J\x1b[31mred\x07\n");
    let out = warpath(&["info", text(&file)]);
    assert_one_line_error(&out, &["esc.txt:2:", "\\u{1b}[2J\\u{1b}[31mred\\u{7}"]);
    assert!(!out.stderr.contains(&0x1b), "a raw escape reached the terminal");
}

#[test]
fn ids_beyond_u64_say_too_large() {
    let scratch = Scratch::new("hostile-u64");
    let snap = scratch.file("g.txt", b"0 18446744073709551616\n");
    assert_one_line_error(&warpath(&["info", text(&snap)]), &["g.txt:1:", "`18446744073709551616` (too large)"]);
    let gr = scratch.file("g.gr", b"p sp 99999999999999999999 1\n");
    assert_one_line_error(&warpath(&["info", text(&gr)]), &["g.gr:1:", "(too large)"]);
    let header = b"%%MatrixMarket matrix coordinate pattern general\n";
    let mtx = scratch.file("g.mtx", &[&header[..], b"2 2 1\n1 99999999999999999999\n"].concat());
    assert_one_line_error(&warpath(&["info", text(&mtx)]), &["g.mtx:3:", "(too large)"]);
    let signed = scratch.file("s.txt", b"0 -1\n");
    assert_one_line_error(&warpath(&["info", text(&signed)]), &["s.txt:1:", "(not a non-negative integer)"]);
}

#[test]
fn an_empty_graph_with_a_source_says_it_is_empty() {
    let scratch = Scratch::new("hostile-empty");
    let empty = scratch.file("empty.txt", b"# nothing here\n");
    let out = warpath(&["bfs", text(&empty), "--backend", "cpu", "--source", "0"]);
    assert_one_line_error(&out, &["empty.txt: the graph is empty (no vertices)"]);
}

#[test]
fn a_graph_without_edges_is_named_when_no_source_can_be_chosen() {
    let scratch = Scratch::new("hostile-no-edges");
    for (name, contents) in [("comments.el", &b"# nothing but a comment\n"[..]), ("empty.el", b"")] {
        let file = scratch.file(name, contents);
        let out = warpath(&["bfs", text(&file), "--backend", "cpu"]);
        assert_one_line_error(&out, &[&format!("{name}: the graph has no edges, so there is no source")]);
    }
}

#[test]
fn a_wgr_header_beyond_the_u32_ids_is_named() {
    let scratch = Scratch::new("hostile-wgr-ids");
    let mut bytes = b"WARPGRPH".to_vec();
    for word in [2u32, 0, 0, 0] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    bytes.extend_from_slice(&(1u64 << 62).to_le_bytes());
    bytes.extend_from_slice(&3u64.to_le_bytes());
    bytes.extend_from_slice(&[0; 64]);
    let path = scratch.file("huge.wgr", &bytes);
    let out = warpath(&["info", text(&path)]);
    assert_one_line_error(&out, &["huge.wgr: its header declares 4611686018427387904 vertices", "at most 4294967295"]);
}

#[test]
fn gzip_problems_are_named() {
    let scratch = Scratch::new("hostile-gzip");
    let empty = scratch.path("empty.txt.gz");
    std::fs::write(&empty, b"").unwrap();
    assert_one_line_error(&warpath(&["info", text(&empty)]), &["empty.txt.gz: is empty, but its name ends in .gz"]);
    let plain = scratch.path("plain.txt.gz");
    std::fs::write(&plain, b"0 1\n").unwrap();
    assert_one_line_error(&warpath(&["info", text(&plain)]), &["plain.txt.gz: is not gzip-compressed"]);
    let junk = scratch.file("junk.txt.gz", b"0 1\n1 2\n");
    std::fs::OpenOptions::new().append(true).open(&junk).unwrap().write_all(b"trailing junk").unwrap();
    assert_one_line_error(&warpath(&["info", text(&junk)]), &["junk.txt.gz: its gzip data is corrupt", "gzip -t"]);
    let short_junk = scratch.file("short-junk.txt.gz", b"0 1\n1 2\n");
    std::fs::OpenOptions::new().append(true).open(&short_junk).unwrap().write_all(b"junk\n").unwrap();
    assert_one_line_error(&warpath(&["info", text(&short_junk)]), &["short-junk.txt.gz: its gzip data is corrupt"]);
    let cut = scratch.file("cut.txt.gz", "0 1\n".repeat(1000).as_bytes());
    let bytes = std::fs::read(&cut).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    assert_one_line_error(&warpath(&["info", text(&cut)]), &["cut.txt.gz: its gzip data is corrupt", "cut-short"]);
}

// ---- 3. truncation ----

#[test]
fn a_snap_header_disagreeing_with_the_lines_is_refused_unless_allowed() {
    let scratch = Scratch::new("hostile-snap");
    let cut = scratch.file("cut.txt", b"# Directed graph\n# Nodes: 4 Edges: 5\n0 1\n1 2\n2 3\n");
    let out = warpath(&["info", text(&cut)]);
    assert_one_line_error(
        &out,
        &["cut.txt: its header (line 2) says 5 edges, but the file has 3 edge lines", "--allow-count-mismatch"],
    );
    let out = warpath(&["info", text(&cut), "--allow-count-mismatch"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("edges: 3"));
    let whole = scratch.file("whole.txt", b"# Nodes: 4 Edges: 3\n0 1\n1 2\n2 3\n");
    assert!(warpath(&["info", text(&whole)]).status.success());
}

#[test]
fn a_last_line_cut_short_is_reported_as_truncation() {
    let scratch = Scratch::new("hostile-cut");
    let snap = scratch.file("cut.txt", b"0 1\n1 2\n3");
    assert_one_line_error(&warpath(&["info", text(&snap)]), &["cut.txt:3:", "the file looks truncated"]);
    let gr = scratch.file("cut.gr", b"p sp 3 2\na 1 2 1\na 2 3");
    assert_one_line_error(&warpath(&["info", text(&gr)]), &["cut.gr:3:", "the file looks truncated"]);
    let mtx = scratch.file("cut.mtx", b"%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 5\n2 3");
    assert_one_line_error(&warpath(&["info", text(&mtx)]), &["cut.mtx:4:", "the file looks truncated"]);
    // A short line in the middle is an ordinary error, not a truncation.
    let middle = scratch.file("middle.txt", b"0 1\n3\n1 2\n");
    let out = warpath(&["info", text(&middle)]);
    assert_one_line_error(&out, &["middle.txt:2:"]);
    assert!(!stderr(&out).contains("truncated"));
}

// ---- 4. nothing destroyed ----

#[test]
fn outputs_never_overwrite_the_input_graph() {
    let scratch = Scratch::new("hostile-overwrite");
    let graph = scratch.file("g.txt", b"0 1\n1 2\n");
    let same = format!("{}/./g.txt", scratch.dir.display());
    let out = warpath(&["bfs", text(&graph), "--backend", "cpu", "--out", &same]);
    assert_one_line_error(&out, &["is the input graph"]);
    let out = warpath(&["bench", text(&graph), "--backend", "cpu", "--roots", "1", "--json", text(&graph)]);
    assert_one_line_error(&out, &["is the input graph"]);
    let link = scratch.path("g.svg");
    std::os::unix::fs::symlink(&graph, &link).unwrap();
    let out = warpath(&["bench", text(&graph), "--backend", "cpu", "--roots", "1", "--plot", text(&link)]);
    assert_one_line_error(&out, &["is the input graph"]);
    assert_eq!(std::fs::read(&graph).unwrap(), b"0 1\n1 2\n");

    let wgr = scratch.path("g.wgr");
    assert!(warpath(&["convert", text(&graph), text(&wgr)]).status.success());
    let before = std::fs::read(&wgr).unwrap();
    assert_one_line_error(&warpath(&["convert", text(&wgr), text(&wgr)]), &["is the input graph"]);
    assert_eq!(std::fs::read(&wgr).unwrap(), before);
}

#[test]
fn unwritable_outputs_are_refused_before_the_load() {
    let scratch = Scratch::new("hostile-unwritable");
    // The input is malformed: the output's error coming first shows the order.
    let bad = scratch.file("bad.txt", b"0 x\n");
    let missing = scratch.path("no-such-folder/out.txt");
    let out = warpath(&["bfs", text(&bad), "--backend", "cpu", "--out", text(&missing)]);
    assert_one_line_error(&out, &["no-such-folder/out.txt"]);
    assert!(!stderr(&out).contains("bad.txt"), "{}", stderr(&out));
    let out = warpath(&["bench", text(&bad), "--backend", "cpu", "--json", text(&scratch.dir)]);
    assert_one_line_error(&out, &["is a folder"]);
    let out = warpath(&["convert", text(&bad), text(&scratch.path("no-such-folder/g.wgr"))]);
    assert_one_line_error(&out, &["no-such-folder/g.wgr"]);
}

#[test]
fn outputs_are_written_whole_and_gz_outputs_compressed() {
    let scratch = Scratch::new("hostile-whole");
    let graph = scratch.file("g.txt", b"0 1\n1 2\n");
    let result = scratch.path("bfs.txt.gz");
    let out = warpath(&["bfs", text(&graph), "--backend", "cpu", "--source", "0", "--out", text(&result)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut written = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&result).unwrap()).read_to_string(&mut written).unwrap();
    assert_eq!(written, "0 0 0\n1 1 0\n2 2 1\n");
    let json = scratch.path("report.json");
    let out = warpath(&["bench", text(&graph), "--backend", "cpu", "--roots", "2", "--json", text(&json)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&json).unwrap().trim_end().ends_with('}'));
    // Nothing but the input and the two outputs: no temporary file is left behind.
    let mut names: Vec<String> =
        std::fs::read_dir(&scratch.dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
    names.sort();
    assert_eq!(names, ["bfs.txt.gz", "g.txt", "report.json"]);
}

#[test]
fn a_wgr_claiming_undirected_with_one_way_lists_is_refused() {
    let scratch = Scratch::new("hostile-wgr");
    let directed = common::build(3, vec![(0, 1), (1, 2), (2, 1)], false);
    for name in ["oneway.wgr", "oneway-packed.wgr"] {
        let path = scratch.path(name);
        if name.contains("packed") {
            let compressed = warpath::graph::CompressedGraph::encode(&directed);
            warpath::formats::wgr::write_compressed(&compressed, &path).unwrap();
        } else {
            warpath::formats::write_wgr(&directed, &path).unwrap();
        }
        // Set the undirected flag and recompute the checksum, as a hand-made file would.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[12] |= 1;
        let body = bytes.len() - 4;
        let crc = crc32fast::hash(&bytes[..body]);
        bytes[body..].copy_from_slice(&crc.to_le_bytes());
        std::fs::write(&path, &bytes).unwrap();
        let err = read_graph(&path, &ReadOptions::DEFAULT).unwrap_err().to_string();
        let expected = "says the graph is undirected, but vertex 0 lists 1 and not the other way round";
        assert!(err.contains(expected), "{err}");
        let out = warpath(&["bfs", text(&path), "--backend", "cpu", "--source", "0"]);
        assert_one_line_error(&out, &[name, "not the other way round"]);
    }
    // A symmetric graph still loads.
    let undirected = common::build(3, vec![(0, 1), (1, 2)], true);
    let path = scratch.path("fine.wgr");
    warpath::formats::write_wgr(&undirected, &path).unwrap();
    assert_eq!(read_graph(&path, &ReadOptions::DEFAULT).unwrap(), undirected);
}
