//! `warpath bfs --sources` as a user meets it (issue 55, item 1): a list, a file or `random:N`;
//! each source's reach and depth; `--out`'s `source vertex distance` pairs in the input's
//! numbering, the same on every backend; `--verify`; `--json`; bad sources refused in one line.

use crate::common;

use common::{assert_one_line_error, stderr, stdout, value_of as value, warpath, Scratch};

/// A 1-based directed DIMACS file: 1 -> 2 -> 3 -> 1, 3 -> 4, 4 -> 5 -> 4, and 6 -> 1.
const DIRECTED: &[u8] = b"p sp 6 7\na 1 2 1\na 2 3 1\na 3 1 1\na 3 4 1\na 4 5 1\na 5 4 1\na 6 1 1\n";

/// Every reached pair from sources 1 and 4, by hand.
const PAIRS: &str = "# source vertex distance (reached pairs only)\n\
                     1 1 0\n1 2 1\n1 3 2\n1 4 3\n1 5 4\n\
                     4 4 0\n4 5 1\n";

#[test]
fn sources_give_each_ones_distances_on_every_backend() {
    let scratch = Scratch::new("cli-bfs-sources");
    let graph = scratch.file("g.gr", DIRECTED);
    for backend in ["cpu", "auto"] {
        let out_path = scratch.path(&format!("pairs-{backend}.txt"));
        let out = warpath(&[
            "bfs",
            graph.to_str().unwrap(),
            "--sources",
            "1,4",
            "--backend",
            backend,
            "--verify",
            "--out",
            out_path.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{backend}: {}", stderr(&out));
        let text = stdout(&out);
        assert_eq!(value(&text, "sources"), "2", "{text}");
        assert!(text.contains("           1            5        4\n"), "source 1 reaches 5 vertices, depth 4: {text}");
        assert!(text.contains("           4            2        1\n"), "source 4 reaches 2 vertices, depth 1: {text}");
        assert!(value(&text, "verified").starts_with("ok"), "{text}");
        assert_eq!(std::fs::read_to_string(&out_path).unwrap(), PAIRS, "{backend}");
    }
}

#[test]
fn a_file_of_sources_and_random_sources() {
    let scratch = Scratch::new("cli-bfs-sources-file");
    let list = scratch.file("sources.txt", b"# the roots\n1\n\n4  # the pair\n");
    let out = warpath(&["bfs", "grid2d:6x5", "--sources", list.to_str().unwrap(), "--backend", "cpu", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(json["command"], "bfs");
    assert_eq!(json["result"]["searches"], "bit-parallel");
    let sources = json["result"]["sources"].as_array().unwrap();
    assert_eq!(sources.iter().map(|s| s["source"].as_u64().unwrap()).collect::<Vec<_>>(), [1, 4]);
    assert!(sources.iter().all(|s| s["reached"] == 30), "{json}");
    // Vertex 1 of a 6 x 5 grid is one step from a corner: the farthest vertex is 5 + 4 - 1 away.
    assert_eq!(sources[0]["depth"], 8);

    // More than one batch of 64, every source verified.
    let out = warpath(&["bfs", "grid2d:12x12", "--sources", "random:100", "--backend", "cpu", "--verify"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(value(&text, "sources"), "100");
    assert!(value(&text, "verified").starts_with("ok"), "{text}");
}

#[test]
fn bad_sources_are_refused_in_one_line() {
    let scratch = Scratch::new("cli-bfs-sources-bad");
    let graph = scratch.file("g.gr", DIRECTED);
    let g = graph.to_str().unwrap();
    let missing = scratch.path("none.txt");
    let bad_file = scratch.file("bad.txt", b"1\nseven\n");
    for (sources, needles) in [
        ("1,99", vec!["source vertex 99", "out of range"]),
        (missing.to_str().unwrap(), vec!["--sources", "not a readable file"]),
        (bad_file.to_str().unwrap(), vec!["bad.txt:2", "seven"]),
        ("random:0", vec!["random:N", "positive count"]),
    ] {
        let out = warpath(&["bfs", g, "--sources", sources, "--backend", "cpu"]);
        assert_one_line_error(&out, &needles);
    }
    let out = warpath(&["bfs", g, "--sources", "1", "--partitions", "2", "--backend", "cpu"]);
    assert_one_line_error(&out, &["--sources runs on one GPU or the CPU"]);
}

#[test]
fn bench_batch_searches_the_roots_as_one_batch_beside_the_single_traversals() {
    let out = warpath(&["bench", "grid2d:12x12", "--roots", "70", "--batch", "--backend", "cpu"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        value(&text, "batch").starts_with("the 70 roots as one batch (bit-parallel, validated): median "),
        "{text}"
    );
    let out = warpath(&["bench", "grid2d:12x12", "--roots", "5", "--batch", "--backend", "cpu", "--json", "-"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let batch = &json["result"]["payload"]["batch"];
    assert_eq!((batch["roots"].as_u64(), batch["runs"].as_u64()), (Some(5), Some(3)), "{json}");
    assert_eq!(batch["searches"], "bit-parallel");
    assert!(batch["time_ms"]["median"].as_f64().is_some_and(|t| t >= 0.0), "{json}");
    let out = warpath(&["bench", "grid2d:12x12", "--roots", "5", "--backend", "cpu", "--json", "-"]);
    let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert!(json["result"]["payload"]["batch"].is_null(), "not asked: {json}");
    let out = warpath(&["bench", "grid2d:12x12", "--algorithm", "cc", "--batch", "--backend", "cpu"]);
    assert_one_line_error(&out, &["--batch searches BFS roots"]);
}
